/*
 * fp12_impl.h: the top of the tower, Fp12 = Fp6[w]/(w^2 - v), where the
 * pairings take their values; written once for both curves.
 *
 * DESIGN. An element is c0 + c1 w over Fp6 (field.h); w^6 = xi, so
 * it is also sum_{i<6} a_i w^i over Fp2 with (a0..a5) = (c0.c0, c1.c0,
 * c0.c1, c1.c1, c0.c2, c1.c2). Products are Karatsuba (3 Fp6 products =
 * 18 Fp2, kept wide and reduced once per output coefficient: tower_wide.h),
 * squares the complex method (2 Fp6 products), and the pairings' hot paths
 * have special forms: the sparse product by an M-type line (mul_by_014;
 * the D-type one of BN254 is in bn254_fp12.c) and Granger-Scott squaring
 * in the cyclotomic subgroup. Frobenius maps use the tables TW_FROB_*.
 * Exponentiation by the curve parameter is per curve (fp12.c: Karabina's
 * compressed squarings for BLS12-381's sparse x; bn254_fp12.c). Constant
 * time except the _var functions.
 *
 * The including file (BLS12-381: fp12.c; BN254: bn254_fp12.c, its macros in
 * bn254_inline.h) defines:
 *   TW_FP, TW_FP2, TW_FP6, TW_FP12   the element types
 *   FP_(op), FP2_(op), FP6_(op), FP12_(op)   their function names
 *   FPI_(op), FP2I_(op)   the inline Fp / Fp2 linear operations
 *                         (fp_inline.h, bn254_inline.h)
 *   TW_N                  limbs of an Fp element (6 / 4)
 * and the constants named here; everything else is shared:
 *   TW_FROB_V, TW_FROB_V2, TW_FROB_W, TW_FROB_W3, TW_FROB_W5   Frobenius tables
 * and includes tower_wide.h first.
 */
#include <string.h>

static const TW_FP2 frob_v[6] = TW_FROB_V;
static const TW_FP2 frob_v2[6] = TW_FROB_V2;
static const TW_FP2 frob_w[12] = TW_FROB_W;
static const TW_FP2 frob_w3[12] = TW_FROB_W3;
static const TW_FP2 frob_w5[12] = TW_FROB_W5;

void FP12_(zero)(TW_FP12 *out) { memset(out, 0, sizeof *out); }

void FP12_(one)(TW_FP12 *out)
{
    FP6_(one)(&out->c0);
    FP6_(zero)(&out->c1);
}

bool FP12_(is_one)(const TW_FP12 *a)
{
    return (bool)((int)FP6_(is_one)(&a->c0) & (int)FP6_(is_zero)(&a->c1));
}

bool FP12_(eq)(const TW_FP12 *a, const TW_FP12 *b)
{
    return (bool)((int)FP6_(eq)(&a->c0, &b->c0) & (int)FP6_(eq)(&a->c1, &b->c1));
}

void FP12_(cmov)(TW_FP12 *out, const TW_FP12 *a, bool flag)
{
    FP6_(cmov)(&out->c0, &a->c0, flag);
    FP6_(cmov)(&out->c1, &a->c1, flag);
}

void FP12_(add)(TW_FP12 *out, const TW_FP12 *a, const TW_FP12 *b)
{
    FP6_(add)(&out->c0, &a->c0, &b->c0);
    FP6_(add)(&out->c1, &a->c1, &b->c1);
}

void FP12_(sub)(TW_FP12 *out, const TW_FP12 *a, const TW_FP12 *b)
{
    FP6_(sub)(&out->c0, &a->c0, &b->c0);
    FP6_(sub)(&out->c1, &a->c1, &b->c1);
}

void FP12_(neg)(TW_FP12 *out, const TW_FP12 *a)
{
    FP6_(neg)(&out->c0, &a->c0);
    FP6_(neg)(&out->c1, &a->c1);
}

/* Karatsuba: v0 = a0 b0, v1 = a1 b1,
   c0 = v0 + v1 v, c1 = (a0 + a1)(b0 + b1) - v0 - v1. 3 Fp6 = 18 Fp2
   products, computed wide (54 wide Fp products) with 12 reductions. */
void FP12_(mul)(TW_FP12 *out, const TW_FP12 *a, const TW_FP12 *b)
{
    fp6_wide v0, v1, x;
    TW_FP6 s, t;
    FP6_(add)(&s, &a->c0, &a->c1);
    FP6_(add)(&t, &b->c0, &b->c1);
    fp6_mul_wide(&v0, &a->c0, &b->c0);
    fp6_mul_wide(&v1, &a->c1, &b->c1);
    fp6_mul_wide(&x, &s, &t);
    fp6w_sub(&x, &x, &v0);
    fp6w_sub(&x, &x, &v1);
    fp6w_redc(&out->c1, &x);
    fp6w_mul_by_nonresidue(&x, &v1);
    fp6w_add(&x, &x, &v0);
    fp6w_redc(&out->c0, &x);
}

/* Complex squaring: (a0 + a1 w)^2 = a0^2 + a1^2 v + 2 a0 a1 w with
   t = a0 a1, c0 = (a0 + a1)(a0 + a1 v) - t - t v, c1 = 2t. 2 Fp6 products. */
void FP12_(sqr)(TW_FP12 *out, const TW_FP12 *a)
{
    TW_FP6 t, s, r;
    FP6_(mul)(&t, &a->c0, &a->c1);
    FP6_(add)(&s, &a->c0, &a->c1);
    FP6_(mul_by_nonresidue)(&r, &a->c1);
    FP6_(add)(&r, &r, &a->c0);
    FP6_(mul)(&s, &s, &r);
    FP6_(sub)(&s, &s, &t);
    FP6_(mul_by_nonresidue)(&r, &t);
    FP6_(sub)(&out->c0, &s, &r);
    FP6_(dbl)(&out->c1, &t);
}

void FP12_(conj)(TW_FP12 *out, const TW_FP12 *a)
{
    out->c0 = a->c0;
    FP6_(neg)(&out->c1, &a->c1);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - a1^2 v). 0 maps to 0. */
static void fp12_inv_with(TW_FP12 *out, const TW_FP12 *a, void (*fp6_inv)(TW_FP6 *, const TW_FP6 *))
{
    TW_FP6 t0, t1;
    FP6_(sqr)(&t0, &a->c0);
    FP6_(sqr)(&t1, &a->c1);
    FP6_(mul_by_nonresidue)(&t1, &t1);
    FP6_(sub)(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    FP6_(mul)(&out->c0, &a->c0, &t0);
    FP6_(mul)(&t1, &a->c1, &t0);
    FP6_(neg)(&out->c1, &t1);
}

void FP12_(inv)(TW_FP12 *out, const TW_FP12 *a) { fp12_inv_with(out, a, FP6_(inv)); }
void FP12_(inv_var)(TW_FP12 *out, const TW_FP12 *a) { fp12_inv_with(out, a, FP6_(inv_var)); }

/* out = a * g for a public constant g of tower_constants.h, using the
   cheaper product when g lies in Fp (2 Fp products) or in Fp*u (2 Fp
   products: (a0 + a1 u) g1 u = -a1 g1 + a0 g1 u). Branches on the constant
   only. (fp6_impl.h has the same helper.) */
static void mul_tower_const(TW_FP2 *out, const TW_FP2 *a, const TW_FP2 *g)
{
    if (FP_(is_zero)(&g->c1)) {
        FP2_(mul_fp)(out, a, &g->c0);
    } else if (FP_(is_zero)(&g->c0)) {
        TW_FP t0, t1;
        FP_(mul)(&t0, &a->c1, &g->c1);
        FP_(mul)(&t1, &a->c0, &g->c1);
        FPI_(neg)(&out->c0, &t0);
        out->c1 = t1;
    } else {
        FP2_(mul)(out, a, g);
    }
}

/* In the w-basis a = sum a_i w^i, a^(p^k) = sum conj^k(a_i) w^i gw[k]^i with
   gw[k] = xi^((p^k - 1)/6): gw^2 = frob_v, gw^4 = frob_v2 (period 6 in k),
   gw^1, gw^3, gw^5 the FROB_W tables. k is taken mod 12. At most 10 Fp2
   products (k odd), 10 Fp products (k even). */
void FP12_(frobenius)(TW_FP12 *out, const TW_FP12 *a, int power)
{
    int k = ((power % 12) + 12) % 12, k6 = k % 6;
    TW_FP12 t = *a;
    if (k & 1) {
        FP2I_(conj)(&t.c0.c0, &t.c0.c0);
        FP2I_(conj)(&t.c0.c1, &t.c0.c1);
        FP2I_(conj)(&t.c0.c2, &t.c0.c2);
        FP2I_(conj)(&t.c1.c0, &t.c1.c0);
        FP2I_(conj)(&t.c1.c1, &t.c1.c1);
        FP2I_(conj)(&t.c1.c2, &t.c1.c2);
    }
    out->c0.c0 = t.c0.c0;                                      /* w^0 */
    mul_tower_const(&out->c0.c1, &t.c0.c1, &frob_v[k6]);       /* w^2 */
    mul_tower_const(&out->c0.c2, &t.c0.c2, &frob_v2[k6]);      /* w^4 */
    mul_tower_const(&out->c1.c0, &t.c1.c0, &frob_w[k]);        /* w^1 */
    mul_tower_const(&out->c1.c1, &t.c1.c1, &frob_w3[k]);       /* w^3 */
    mul_tower_const(&out->c1.c2, &t.c1.c2, &frob_w5[k]);       /* w^5 */
}

/* Left-to-right square and always-multiply with a masked select:
   constant time in a, not in e. */
void FP12_(pow)(TW_FP12 *out, const TW_FP12 *a, const uint64_t *e, size_t e_limbs)
{
    TW_FP12 acc, base = *a, t;
    FP12_(one)(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            FP12_(sqr)(&acc, &acc);
            FP12_(mul)(&t, &acc, &base);
            FP12_(cmov)(&acc, &t, (e[i] >> b) & 1);
        }
    }
    *out = acc;
}

/* a * (L0 + L1 w) with L0 = c0 + c1 v, L1 = c4 v (Karatsuba over Fp6):
 *   t0 = a0 L0 (mul_by_01, 5), t1 = a1 L1 (mul_by_1, 3),
 *   out1 = (a0 + a1)(L0 + L1) - t0 - t1 (mul_by_01 with c1 + c4, 5),
 *   out0 = t0 + t1 v. 13 Fp2 products, wide, with 12 reductions. */
void FP12_(mul_by_014)(TW_FP12 *out, const TW_FP12 *a, const TW_FP2 *c0,
                        const TW_FP2 *c1, const TW_FP2 *c4)
{
    fp6_wide t0, t1, x;
    TW_FP6 s;
    TW_FP2 c14, l0 = *c0;  /* the c's may alias coefficients of out */
    FP2I_(add)(&c14, c1, c4);
    FP6_(add)(&s, &a->c0, &a->c1);
    fp6_mul_by_01_wide(&t0, &a->c0, &l0, c1);
    fp6_mul_by_1_wide(&t1, &a->c1, c4);
    fp6_mul_by_01_wide(&x, &s, &l0, &c14);
    fp6w_sub(&x, &x, &t0);
    fp6w_sub(&x, &x, &t1);
    fp6w_redc(&out->c1, &x);
    fp6w_mul_by_nonresidue(&x, &t1);
    fp6w_add(&x, &x, &t0);
    fp6w_redc(&out->c0, &x);
}

/* (x0 + x1 t)^2 in Fp4 = Fp2[t]/(t^2 - xi): (x0^2 + xi x1^2) + 2 x0 x1 t,
   2 x0 x1 = (x0 + x1)^2 - x0^2 - x1^2. 3 Fp2 squares. */
static void fp4_sqr(TW_FP2 *o0, TW_FP2 *o1, const TW_FP2 *x0, const TW_FP2 *x1)
{
    TW_FP2 s0, s1, t;
    FP2_(sqr)(&s0, x0);
    FP2_(sqr)(&s1, x1);
    FP2I_(add)(&t, x0, x1);
    FP2_(sqr)(&t, &t);
    FP2I_(sub)(&t, &t, &s0);
    FP2I_(sub)(o1, &t, &s1);
    FP2I_(mul_by_nonresidue)(&s1, &s1);
    FP2I_(add)(o0, &s0, &s1);
}

/* out = 3x - 2y and 3x + 2y (3 additions each) */
static void three_minus_two(TW_FP2 *out, const TW_FP2 *x, const TW_FP2 *y)
{
    TW_FP2 t;
    FP2I_(sub)(&t, x, y);
    FP2I_(dbl)(&t, &t);
    FP2I_(add)(out, &t, x);
}

static void three_plus_two(TW_FP2 *out, const TW_FP2 *x, const TW_FP2 *y)
{
    TW_FP2 t;
    FP2I_(add)(&t, x, y);
    FP2I_(dbl)(&t, &t);
    FP2I_(add)(out, &t, x);
}

/* Granger-Scott (PKC 2010). Over Fp4 = Fp2[t], t = w^3, a = A + B w + C w^2
 * with A = a0 + a3 t = c0.c0 + c1.c1 t, B = a1 + a4 t = c1.c0 + c0.c2 t,
 * C = a2 + a5 t = c0.c1 + c1.c2 t. For a in the cyclotomic subgroup
 *   a^2 = (3A^2 - 2 conj(A)) + (3 t C^2 + 2 conj(B)) w + (3B^2 - 2 conj(C)) w^2,
 * conj(x0 + x1 t) = x0 - x1 t. 9 Fp2 squares. */
void FP12_(cyclotomic_sqr)(TW_FP12 *out, const TW_FP12 *a)
{
    TW_FP2 a0, a1, b0, b1, c0, c1;
    fp4_sqr(&a0, &a1, &a->c0.c0, &a->c1.c1);
    fp4_sqr(&b0, &b1, &a->c1.c0, &a->c0.c2);
    fp4_sqr(&c0, &c1, &a->c0.c1, &a->c1.c2);
    FP2I_(mul_by_nonresidue)(&c1, &c1); /* t C^2 = xi C1 + C0 t */

    TW_FP12 r;
    three_minus_two(&r.c0.c0, &a0, &a->c0.c0);
    three_plus_two(&r.c1.c1, &a1, &a->c1.c1);
    three_plus_two(&r.c1.c0, &c1, &a->c1.c0);
    three_minus_two(&r.c0.c2, &c0, &a->c0.c2);
    three_minus_two(&r.c0.c1, &b0, &a->c0.c1);
    three_plus_two(&r.c1.c2, &b1, &a->c1.c2);
    *out = r;
}

void FP12_(random)(TW_FP12 *out, cz_rng *rng)
{
    FP6_(random)(&out->c0, rng);
    FP6_(random)(&out->c1, rng);
}

/* c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1: the nesting order of the
   struct, which is the order of @noble/curves' Fp12.toBytes (Fp6 c0 then
   c1, Fp2 c0, c1, c2, each Fp2 as c0 then c1, 8 TW_N-byte big-endian plain). */
void FP12_(to_bytes_be)(uint8_t out[12 * 8 * TW_N], const TW_FP12 *a)
{
    const TW_FP6 *six[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const TW_FP2 *two[3] = {&six[i]->c0, &six[i]->c1, &six[i]->c2};
        for (int j = 0; j < 3; j++) {
            FP_(to_bytes_be)(out + (i * 6 + j * 2) * 8 * TW_N, &two[j]->c0);
            FP_(to_bytes_be)(out + (i * 6 + j * 2 + 1) * 8 * TW_N, &two[j]->c1);
        }
    }
}
