/*
 * fp6_impl.h: the cubic extension Fp6 = Fp2[v]/(v^3 - xi), written once for
 * both curves (xi = u + 1 for BLS12-381, 9 + u for BN254).
 *
 * DESIGN. An element is c0 + c1 v + c2 v^2 over Fp2 (field.h). Products use
 * Karatsuba (6 Fp2 products), squares Chung-Hasan SQR2 (2 products + 3
 * squares), the inverse the adjugate over the norm (one Fp2 inversion).
 * The Frobenius map a -> a^(p^k) is coordinate-wise conjugation (k odd)
 * times the constants TW_FROB_V, TW_FROB_V2 (generated with their formulas:
 * tools/gen_tower_constants.py, tools/gen_bn254_constants.py).
 * Products reduce lazily (tower_wide.h): one Montgomery reduction per
 * output coefficient (6 per product instead of 12). Used by fp12_impl.h
 * and, through it, by the pairings. Constant time except the _var functions.
 *
 * The including file (BLS12-381: fp6.c; BN254: bn254_fp6.c, its macros in
 * bn254_inline.h) defines:
 *   TW_FP, TW_FP2, TW_FP6, TW_FP12   the element types
 *   FP_(op), FP2_(op), FP6_(op), FP12_(op)   their function names
 *   FPI_(op), FP2I_(op)   the inline Fp / Fp2 linear operations
 *                         (fp_inline.h, bn254_inline.h)
 *   TW_N                  limbs of an Fp element (6 / 4)
 * and the constants named here; everything else is shared:
 *   TW_FROB_V, TW_FROB_V2   the Frobenius tables (6 Fp2 each)
 * and includes tower_wide.h first.
 */
#include <string.h>

static const TW_FP2 frob_v[6] = TW_FROB_V;
static const TW_FP2 frob_v2[6] = TW_FROB_V2;

void FP6_(zero)(TW_FP6 *out) { memset(out, 0, sizeof *out); }

void FP6_(one)(TW_FP6 *out)
{
    FP2_(one)(&out->c0);
    FP2_(zero)(&out->c1);
    FP2_(zero)(&out->c2);
}

bool FP6_(is_zero)(const TW_FP6 *a)
{
    /* & on ints, not &&: no early exit */
    return (bool)((int)FP2_(is_zero)(&a->c0) & (int)FP2_(is_zero)(&a->c1) &
                  (int)FP2_(is_zero)(&a->c2));
}

bool FP6_(is_one)(const TW_FP6 *a)
{
    return (bool)((int)FP2_(is_one)(&a->c0) & (int)FP2_(is_zero)(&a->c1) &
                  (int)FP2_(is_zero)(&a->c2));
}

bool FP6_(eq)(const TW_FP6 *a, const TW_FP6 *b)
{
    return (bool)((int)FP2_(eq)(&a->c0, &b->c0) & (int)FP2_(eq)(&a->c1, &b->c1) &
                  (int)FP2_(eq)(&a->c2, &b->c2));
}

void FP6_(cmov)(TW_FP6 *out, const TW_FP6 *a, bool flag)
{
    FP2_(cmov)(&out->c0, &a->c0, flag);
    FP2_(cmov)(&out->c1, &a->c1, flag);
    FP2_(cmov)(&out->c2, &a->c2, flag);
}

void FP6_(add)(TW_FP6 *out, const TW_FP6 *a, const TW_FP6 *b)
{
    FP2I_(add)(&out->c0, &a->c0, &b->c0);
    FP2I_(add)(&out->c1, &a->c1, &b->c1);
    FP2I_(add)(&out->c2, &a->c2, &b->c2);
}

void FP6_(sub)(TW_FP6 *out, const TW_FP6 *a, const TW_FP6 *b)
{
    FP2I_(sub)(&out->c0, &a->c0, &b->c0);
    FP2I_(sub)(&out->c1, &a->c1, &b->c1);
    FP2I_(sub)(&out->c2, &a->c2, &b->c2);
}

void FP6_(neg)(TW_FP6 *out, const TW_FP6 *a)
{
    FP2I_(neg)(&out->c0, &a->c0);
    FP2I_(neg)(&out->c1, &a->c1);
    FP2I_(neg)(&out->c2, &a->c2);
}

void FP6_(dbl)(TW_FP6 *out, const TW_FP6 *a)
{
    FP2I_(dbl)(&out->c0, &a->c0);
    FP2I_(dbl)(&out->c1, &a->c1);
    FP2I_(dbl)(&out->c2, &a->c2);
}

/* Karatsuba (tower_wide.h): 18 wide products, 6 reductions. */
void FP6_(mul)(TW_FP6 *out, const TW_FP6 *a, const TW_FP6 *b)
{
    fp6_wide w;
    fp6_mul_wide(&w, a, b);
    fp6w_redc(out, &w);
}

/* Chung-Hasan SQR2:
 *   s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2,
 *   c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
 * 2 Fp2 products + 3 squares. */
void FP6_(sqr)(TW_FP6 *out, const TW_FP6 *a)
{
    TW_FP2 s0, s1, s2, s3, s4, t;
    FP2_(sqr)(&s0, &a->c0);
    FP2_(mul)(&s1, &a->c0, &a->c1);
    FP2I_(dbl)(&s1, &s1);
    FP2I_(sub)(&t, &a->c0, &a->c1);
    FP2I_(add)(&t, &t, &a->c2);
    FP2_(sqr)(&s2, &t);
    FP2_(mul)(&s3, &a->c1, &a->c2);
    FP2I_(dbl)(&s3, &s3);
    FP2_(sqr)(&s4, &a->c2);

    FP2I_(mul_by_nonresidue)(&t, &s3);
    FP2I_(add)(&out->c0, &s0, &t);
    FP2I_(add)(&t, &s1, &s2);
    FP2I_(add)(&t, &t, &s3);
    FP2I_(sub)(&t, &t, &s0);
    FP2I_(sub)(&out->c2, &t, &s4);
    FP2I_(mul_by_nonresidue)(&t, &s4);
    FP2I_(add)(&out->c1, &s1, &t);
}

/* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 */
void FP6_(mul_by_nonresidue)(TW_FP6 *out, const TW_FP6 *a)
{
    TW_FP2 t;
    FP2I_(mul_by_nonresidue)(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

void FP6_(mul_fp2)(TW_FP6 *out, const TW_FP6 *a, const TW_FP2 *b)
{
    FP2_(mul)(&out->c0, &a->c0, b);
    FP2_(mul)(&out->c1, &a->c1, b);
    FP2_(mul)(&out->c2, &a->c2, b);
}

/* a (b0 + b1 v): 5 Fp2 products (15 wide), 6 reductions (tower_wide.h) */
void FP6_(mul_by_01)(TW_FP6 *out, const TW_FP6 *a, const TW_FP2 *b0, const TW_FP2 *b1)
{
    fp6_wide w;
    fp6_mul_by_01_wide(&w, a, b0, b1);
    fp6w_redc(out, &w);
}

/* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2. 3 Fp2 products. */
void FP6_(mul_by_1)(TW_FP6 *out, const TW_FP6 *a, const TW_FP2 *b1)
{
    TW_FP2 c0, c1, c2;
    FP2_(mul)(&c0, &a->c2, b1);
    FP2I_(mul_by_nonresidue)(&c0, &c0);
    FP2_(mul)(&c1, &a->c0, b1);
    FP2_(mul)(&c2, &a->c1, b1);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

/* 1/a = adj(a) / N(a):
 *   t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2,
 *   N = a0 t0 + xi (a2 t1 + a1 t2) in Fp2, 1/a = (t0 + t1 v + t2 v^2) / N.
 * 9 Fp2 products/squares + 1 Fp2 inversion. 0 maps to 0. */
static void fp6_inv_with(TW_FP6 *out, const TW_FP6 *a, void (*fp2_inv)(TW_FP2 *, const TW_FP2 *))
{
    TW_FP2 t0, t1, t2, s, n;
    FP2_(sqr)(&t0, &a->c0);
    FP2_(mul)(&s, &a->c1, &a->c2);
    FP2I_(mul_by_nonresidue)(&s, &s);
    FP2I_(sub)(&t0, &t0, &s);

    FP2_(sqr)(&t1, &a->c2);
    FP2I_(mul_by_nonresidue)(&t1, &t1);
    FP2_(mul)(&s, &a->c0, &a->c1);
    FP2I_(sub)(&t1, &t1, &s);

    FP2_(sqr)(&t2, &a->c1);
    FP2_(mul)(&s, &a->c0, &a->c2);
    FP2I_(sub)(&t2, &t2, &s);

    FP2_(mul)(&n, &a->c2, &t1);
    FP2_(mul)(&s, &a->c1, &t2);
    FP2I_(add)(&n, &n, &s);
    FP2I_(mul_by_nonresidue)(&n, &n);
    FP2_(mul)(&s, &a->c0, &t0);
    FP2I_(add)(&n, &n, &s);

    fp2_inv(&n, &n);
    FP2_(mul)(&out->c0, &t0, &n);
    FP2_(mul)(&out->c1, &t1, &n);
    FP2_(mul)(&out->c2, &t2, &n);
}

void FP6_(inv)(TW_FP6 *out, const TW_FP6 *a) { fp6_inv_with(out, a, FP2_(inv)); }
void FP6_(inv_var)(TW_FP6 *out, const TW_FP6 *a) { fp6_inv_with(out, a, FP2_(inv_var)); }

/* out = a * g for a public constant g of tower_constants.h, using the
   cheaper product when g lies in Fp (2 Fp products) or in Fp*u (2 Fp
   products: (a0 + a1 u) g1 u = -a1 g1 + a0 g1 u). Branches on the constant
   only. (fp12_impl.h has the same helper.) */
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

/* (c0 + c1 v + c2 v^2)^(p^k) = c0' + c1' frob_v[k] v + c2' frob_v2[k] v^2,
   ' = conjugation when k is odd. k is taken mod 6 (a^(p^6) = a). */
void FP6_(frobenius)(TW_FP6 *out, const TW_FP6 *a, int power)
{
    int k = ((power % 6) + 6) % 6;
    TW_FP6 t = *a;
    if (k & 1) {
        FP2I_(conj)(&t.c0, &t.c0);
        FP2I_(conj)(&t.c1, &t.c1);
        FP2I_(conj)(&t.c2, &t.c2);
    }
    out->c0 = t.c0;
    mul_tower_const(&out->c1, &t.c1, &frob_v[k]);
    mul_tower_const(&out->c2, &t.c2, &frob_v2[k]);
}

void FP6_(random)(TW_FP6 *out, cz_rng *rng)
{
    FP2_(random)(&out->c0, rng);
    FP2_(random)(&out->c1, rng);
    FP2_(random)(&out->c2, rng);
}
