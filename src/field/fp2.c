/*
 * fp2.c: the quadratic extension Fp2 = Fp[u]/(u^2 + 1) of BLS12-381.
 *
 * DESIGN. An element is c0 + c1*u with both coefficients in Montgomery form
 * (the layout of field.h, shared with the GPU and with snarkjs's G2 encoding:
 * c0 then c1). Products use Karatsuba (3 Fp products), squares the
 * complex-squaring identity (2 Fp products). Everything is constant time
 * except the _var functions.
 */
#include "field/field.h"
#include "field/constants.h"
#include "field/field_internal.h"
#include "field/fp_inline.h"

#include <string.h>

void cz_fp2_zero(cz_fp2 *out) { memset(out, 0, sizeof *out); }

void cz_fp2_one(cz_fp2 *out)
{
    cz_fp_one(&out->c0);
    cz_fp_zero(&out->c1);
}

/* bitwise & on 0/1 ints: no short circuit, so no branch on the values */
bool cz_fp2_is_zero(const cz_fp2 *a) { return (int)cz_fp_is_zero(&a->c0) & (int)cz_fp_is_zero(&a->c1); }
bool cz_fp2_is_one(const cz_fp2 *a) { return (int)cz_fp_is_one(&a->c0) & (int)cz_fp_is_zero(&a->c1); }

bool cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b)
{
    return (int)cz_fp_eq(&a->c0, &b->c0) & (int)cz_fp_eq(&a->c1, &b->c1);
}

void cz_fp2_cmov(cz_fp2 *out, const cz_fp2 *a, bool flag)
{
    cz_fp_cmov(&out->c0, &a->c0, flag);
    cz_fp_cmov(&out->c1, &a->c1, flag);
}

void cz_fp2_add(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b) { cz_fp2_add_i(out, a, b); }

void cz_fp2_sub(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b) { cz_fp2_sub_i(out, a, b); }

void cz_fp2_neg(cz_fp2 *out, const cz_fp2 *a) { cz_fp2_neg_i(out, a); }

void cz_fp2_dbl(cz_fp2 *out, const cz_fp2 *a) { cz_fp2_dbl_i(out, a); }

void cz_fp2_conj(cz_fp2 *out, const cz_fp2 *a) { cz_fp2_conj_i(out, a); }

void cz_fp2_frobenius(cz_fp2 *out, const cz_fp2 *a) { cz_fp2_conj(out, a); }

/* Karatsuba with lazy reduction: v0 = a0 b0, v1 = a1 b1 and
   v2 = (a0 + a1)(b0 + b1) as 768-bit products (the sums unreduced, < 2p),
   c1 = redc(v2 - v0 - v1) (= a0 b1 + a1 b0 < 2p^2, never negative),
   c0 = redc(v0 - v1) (p * 2^384 added when negative). 3 wide products
   and 2 reductions instead of 3 full Montgomery products. */
void cz_fp2_mul(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b)
{
    uint64_t v0[12], v1[12], v2[12];
    cz_fp s, t;
    cz_fp_mul_wide(v0, &a->c0, &b->c0);
    cz_fp_mul_wide(v1, &a->c1, &b->c1);
    cz_fp_add_nr(&s, &a->c0, &a->c1);
    cz_fp_add_nr(&t, &b->c0, &b->c1);
    cz_fp_mul_wide(v2, &s, &t); /* < 4p^2 < p * 2^384 */
    cz_fp_sub_wide(v2, v2, v0);
    cz_fp_sub_wide(v2, v2, v1);
    cz_fp_sub_wide(v0, v0, v1);
    cz_fp_redc(&out->c0, v0);
    cz_fp_redc(&out->c1, v2);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u. 2M + 3A. */
void cz_fp2_sqr(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp s, d, m;
    cz_fp_add(&s, &a->c0, &a->c1);
    cz_fp_sub(&d, &a->c0, &a->c1);
    cz_fp_mul(&m, &a->c0, &a->c1);
    cz_fp_mul(&out->c0, &s, &d);
    cz_fp_dbl(&out->c1, &m);
}

void cz_fp2_mul_fp(cz_fp2 *out, const cz_fp2 *a, const cz_fp *b)
{
    cz_fp t = *b; /* b may be a coefficient of out */
    cz_fp_mul(&out->c0, &a->c0, &t);
    cz_fp_mul(&out->c1, &a->c1, &t);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
void cz_fp2_mul_by_nonresidue(cz_fp2 *out, const cz_fp2 *a) { cz_fp2_mul_by_nonresidue_i(out, a); }

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); 0 maps to 0. */
static void fp2_inv_with(cz_fp2 *out, const cz_fp2 *a, void (*fp_inv)(cz_fp *, const cz_fp *))
{
    cz_fp t0, t1;
    cz_fp_sqr(&t0, &a->c0);
    cz_fp_sqr(&t1, &a->c1);
    cz_fp_add(&t0, &t0, &t1);
    fp_inv(&t1, &t0);
    cz_fp_mul(&out->c0, &a->c0, &t1);
    cz_fp_mul(&t0, &a->c1, &t1);
    cz_fp_neg(&out->c1, &t0);
}

void cz_fp2_inv(cz_fp2 *out, const cz_fp2 *a) { fp2_inv_with(out, a, cz_fp_inv); }
void cz_fp2_inv_var(cz_fp2 *out, const cz_fp2 *a) { fp2_inv_with(out, a, cz_fp_inv_var); }

/* Fixed 4-bit windows as in the prime fields: the public exponent picks
   table entries and skips zero windows; nothing depends on a's value. */
void cz_fp2_pow(cz_fp2 *out, const cz_fp2 *a, const uint64_t *e, size_t e_limbs)
{
    cz_fp2 tab[16], acc;
    cz_fp2_one(&acc);
    tab[0] = acc;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        cz_fp2_mul(&tab[i], &tab[i - 1], a);
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 60; b >= 0; b -= 4) {
            unsigned w = (unsigned)(e[i] >> b) & 15;
            if (started)
                for (int k = 0; k < 4; k++)
                    cz_fp2_sqr(&acc, &acc);
            if (w) {
                if (started)
                    cz_fp2_mul(&acc, &acc, &tab[w]);
                else
                    acc = tab[w];
                started = true;
            }
        }
    }
    *out = acc;
    cz_wipe(tab, sizeof tab);
}

static const uint64_t fp_p_minus_3_div_4[6] = CZ_FP_P_MINUS_3_DIV_4;
static const uint64_t fp_p_minus_1_half[6] = CZ_FP_P_MINUS_1_HALF;

/* Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez 2012, alg. 9):
 *   a1 = a^((p-3)/4), alpha = a1^2 a = a^((p-1)/2), x0 = a1 a;
 *   if alpha = -1: x = u x0, else x = (1 + alpha)^((p-1)/2) x0.
 * Both branches are computed and one selected; x is checked by squaring
 * (that also rejects non-squares, whose norm alpha^(p+1) is -1).
 * On false out is left unchanged. Two 380-bit Fp2 exponentiations. */
bool cz_fp2_sqrt(cz_fp2 *out, const cz_fp2 *a)
{
    cz_fp2 a1, alpha, x0, xa, xb, one, minus_one, t;
    cz_fp2_pow(&a1, a, fp_p_minus_3_div_4, 6);
    cz_fp2_sqr(&alpha, &a1);
    cz_fp2_mul(&alpha, &alpha, a);
    cz_fp2_mul(&x0, &a1, a);
    /* u * x0 = -x0.c1 + x0.c0 u */
    cz_fp_neg(&xa.c0, &x0.c1);
    xa.c1 = x0.c0;
    cz_fp2_one(&one);
    cz_fp2_add(&t, &one, &alpha);
    cz_fp2_pow(&t, &t, fp_p_minus_1_half, 6);
    cz_fp2_mul(&xb, &t, &x0);
    cz_fp2_neg(&minus_one, &one);
    cz_fp2_cmov(&xb, &xa, cz_fp2_eq(&alpha, &minus_one));
    cz_fp2_sqr(&t, &xb);
    bool ok = cz_fp2_eq(&t, a);
    cz_fp2_cmov(out, &xb, ok);
    return ok;
}

/* zcash sign rule: the sign of c1, or of c0 when c1 = 0. */
bool cz_fp2_is_lex_largest(const cz_fp2 *a)
{
    int c1z = cz_fp_is_zero(&a->c1);
    int l1 = cz_fp_is_lex_largest(&a->c1), l0 = cz_fp_is_lex_largest(&a->c0);
    return (c1z & l0) | ((c1z ^ 1) & l1);
}

void cz_fp2_random(cz_fp2 *out, cz_rng *rng)
{
    cz_fp_random(&out->c0, rng);
    cz_fp_random(&out->c1, rng);
}
