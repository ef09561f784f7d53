/*
 * fp2_impl.h: the quadratic extension Fp2 = Fp[u]/(u^2 + 1), written once
 * for both curves (BLS12-381 and BN254 both have p = 3 mod 4, so -1 is a
 * non-residue and u^2 = -1).
 *
 * DESIGN. An element is c0 + c1*u with both coefficients in Montgomery form
 * (the layout of field.h, shared with the GPU and with snarkjs's G2 encoding:
 * c0 then c1). Products use Karatsuba (3 Fp products) with lazy reduction,
 * squares the complex-squaring identity (2 Fp products). Everything is
 * constant time except the _var functions.
 *
 * The including file (BLS12-381: fp2.c; BN254: bn254_fp2.c, its macros in
 * bn254_inline.h) defines:
 *   TW_FP, TW_FP2, TW_FP6, TW_FP12   the element types
 *   FP_(op), FP2_(op), FP6_(op), FP12_(op)   their function names
 *   FPI_(op), FP2I_(op)   the inline Fp / Fp2 linear operations
 *                         (fp_inline.h, bn254_inline.h)
 *   TW_N                  limbs of an Fp element (6 / 4)
 * and the constants named here; everything else is shared:
 *   TW_P_MINUS_3_DIV_4, TW_P_MINUS_1_HALF   (p - 3)/4 and (p - 1)/2 (sqrt)
 * Lazy reduction needs 4p^2 < p * 2^(64 TW_N) (Karatsuba's sum product):
 * p < 2^381 for TW_N = 6, p < 2^254 for TW_N = 4.
 */
#include <string.h>

void FP2_(zero)(TW_FP2 *out) { memset(out, 0, sizeof *out); }

void FP2_(one)(TW_FP2 *out)
{
    FP_(one)(&out->c0);
    FP_(zero)(&out->c1);
}

/* bitwise & on 0/1 ints: no short circuit, so no branch on the values */
bool FP2_(is_zero)(const TW_FP2 *a) { return (int)FP_(is_zero)(&a->c0) & (int)FP_(is_zero)(&a->c1); }
bool FP2_(is_one)(const TW_FP2 *a) { return (int)FP_(is_one)(&a->c0) & (int)FP_(is_zero)(&a->c1); }

bool FP2_(eq)(const TW_FP2 *a, const TW_FP2 *b)
{
    return (int)FP_(eq)(&a->c0, &b->c0) & (int)FP_(eq)(&a->c1, &b->c1);
}

void FP2_(cmov)(TW_FP2 *out, const TW_FP2 *a, bool flag)
{
    FP_(cmov)(&out->c0, &a->c0, flag);
    FP_(cmov)(&out->c1, &a->c1, flag);
}

void FP2_(add)(TW_FP2 *out, const TW_FP2 *a, const TW_FP2 *b) { FP2I_(add)(out, a, b); }

void FP2_(sub)(TW_FP2 *out, const TW_FP2 *a, const TW_FP2 *b) { FP2I_(sub)(out, a, b); }

void FP2_(neg)(TW_FP2 *out, const TW_FP2 *a) { FP2I_(neg)(out, a); }

void FP2_(dbl)(TW_FP2 *out, const TW_FP2 *a) { FP2I_(dbl)(out, a); }

void FP2_(conj)(TW_FP2 *out, const TW_FP2 *a) { FP2I_(conj)(out, a); }

void FP2_(frobenius)(TW_FP2 *out, const TW_FP2 *a) { FP2_(conj)(out, a); }

/* Karatsuba with lazy reduction: v0 = a0 b0, v1 = a1 b1 and
   v2 = (a0 + a1)(b0 + b1) as 768-bit products (the sums unreduced, < 2p),
   c1 = redc(v2 - v0 - v1) (= a0 b1 + a1 b0 < 2p^2, never negative),
   c0 = redc(v0 - v1) (p * 2^384 added when negative). 3 wide products
   and 2 reductions instead of 3 full Montgomery products. */
void FP2_(mul)(TW_FP2 *out, const TW_FP2 *a, const TW_FP2 *b)
{
    uint64_t v0[2 * TW_N], v1[2 * TW_N], v2[2 * TW_N];
    TW_FP s, t;
    FP_(mul_wide)(v0, &a->c0, &b->c0);
    FP_(mul_wide)(v1, &a->c1, &b->c1);
    FP_(add_nr)(&s, &a->c0, &a->c1);
    FP_(add_nr)(&t, &b->c0, &b->c1);
    FP_(mul_wide)(v2, &s, &t); /* < 4p^2 < p * 2^384 */
    FP_(sub_wide)(v2, v2, v0);
    FP_(sub_wide)(v2, v2, v1);
    FP_(sub_wide)(v0, v0, v1);
    FP_(redc)(&out->c0, v0);
    FP_(redc)(&out->c1, v2);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u. 2M + 3A. */
void FP2_(sqr)(TW_FP2 *out, const TW_FP2 *a)
{
    TW_FP s, d, m;
    FP_(add)(&s, &a->c0, &a->c1);
    FP_(sub)(&d, &a->c0, &a->c1);
    FP_(mul)(&m, &a->c0, &a->c1);
    FP_(mul)(&out->c0, &s, &d);
    FP_(dbl)(&out->c1, &m);
}

void FP2_(mul_fp)(TW_FP2 *out, const TW_FP2 *a, const TW_FP *b)
{
    TW_FP t = *b; /* b may be a coefficient of out */
    FP_(mul)(&out->c0, &a->c0, &t);
    FP_(mul)(&out->c1, &a->c1, &t);
}

/* a * xi (FP2I_(mul_by_nonresidue): xi = 1 + u or 9 + u) */
void FP2_(mul_by_nonresidue)(TW_FP2 *out, const TW_FP2 *a) { FP2I_(mul_by_nonresidue)(out, a); }

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); 0 maps to 0. */
static void fp2_inv_with(TW_FP2 *out, const TW_FP2 *a, void (*fp_inv)(TW_FP *, const TW_FP *))
{
    TW_FP t0, t1;
    FP_(sqr)(&t0, &a->c0);
    FP_(sqr)(&t1, &a->c1);
    FP_(add)(&t0, &t0, &t1);
    fp_inv(&t1, &t0);
    FP_(mul)(&out->c0, &a->c0, &t1);
    FP_(mul)(&t0, &a->c1, &t1);
    FP_(neg)(&out->c1, &t0);
}

void FP2_(inv)(TW_FP2 *out, const TW_FP2 *a) { fp2_inv_with(out, a, FP_(inv)); }
void FP2_(inv_var)(TW_FP2 *out, const TW_FP2 *a) { fp2_inv_with(out, a, FP_(inv_var)); }

/* Fixed 4-bit windows as in the prime fields: the public exponent picks
   table entries and skips zero windows; nothing depends on a's value. */
void FP2_(pow)(TW_FP2 *out, const TW_FP2 *a, const uint64_t *e, size_t e_limbs)
{
    TW_FP2 tab[16], acc;
    FP2_(one)(&acc);
    tab[0] = acc;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        FP2_(mul)(&tab[i], &tab[i - 1], a);
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 60; b >= 0; b -= 4) {
            unsigned w = (unsigned)(e[i] >> b) & 15;
            if (started)
                for (int k = 0; k < 4; k++)
                    FP2_(sqr)(&acc, &acc);
            if (w) {
                if (started)
                    FP2_(mul)(&acc, &acc, &tab[w]);
                else
                    acc = tab[w];
                started = true;
            }
        }
    }
    *out = acc;
    cz_wipe(tab, sizeof tab);
}

static const uint64_t fp_p_minus_3_div_4[TW_N] = TW_P_MINUS_3_DIV_4;
static const uint64_t fp_p_minus_1_half[TW_N] = TW_P_MINUS_1_HALF;

/* Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez 2012, alg. 9):
 *   a1 = a^((p-3)/4), alpha = a1^2 a = a^((p-1)/2), x0 = a1 a;
 *   if alpha = -1: x = u x0, else x = (1 + alpha)^((p-1)/2) x0.
 * Both branches are computed and one selected; x is checked by squaring
 * (that also rejects non-squares, whose norm alpha^(p+1) is -1).
 * On false out is left unchanged. Two 380-bit Fp2 exponentiations. */
bool FP2_(sqrt)(TW_FP2 *out, const TW_FP2 *a)
{
    TW_FP2 a1, alpha, x0, xa, xb, one, minus_one, t;
    FP2_(pow)(&a1, a, fp_p_minus_3_div_4, TW_N);
    FP2_(sqr)(&alpha, &a1);
    FP2_(mul)(&alpha, &alpha, a);
    FP2_(mul)(&x0, &a1, a);
    /* u * x0 = -x0.c1 + x0.c0 u */
    FP_(neg)(&xa.c0, &x0.c1);
    xa.c1 = x0.c0;
    FP2_(one)(&one);
    FP2_(add)(&t, &one, &alpha);
    FP2_(pow)(&t, &t, fp_p_minus_1_half, TW_N);
    FP2_(mul)(&xb, &t, &x0);
    FP2_(neg)(&minus_one, &one);
    FP2_(cmov)(&xb, &xa, FP2_(eq)(&alpha, &minus_one));
    FP2_(sqr)(&t, &xb);
    bool ok = FP2_(eq)(&t, a);
    FP2_(cmov)(out, &xb, ok);
    return ok;
}

/* zcash sign rule: the sign of c1, or of c0 when c1 = 0. */
bool FP2_(is_lex_largest)(const TW_FP2 *a)
{
    int c1z = FP_(is_zero)(&a->c1);
    int l1 = FP_(is_lex_largest)(&a->c1), l0 = FP_(is_lex_largest)(&a->c0);
    return (c1z & l0) | ((c1z ^ 1) & l1);
}

void FP2_(random)(TW_FP2 *out, cz_rng *rng)
{
    FP_(random)(&out->c0, rng);
    FP_(random)(&out->c1, rng);
}
