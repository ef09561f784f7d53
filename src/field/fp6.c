/*
 * fp6.c: the cubic extension Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1.
 *
 * DESIGN. An element is c0 + c1 v + c2 v^2 over Fp2 (field.h). Products use
 * Karatsuba (6 Fp2 products), squares Chung-Hasan SQR2 (2 products + 3
 * squares), the inverse the adjugate over the norm (one Fp2 inversion).
 * The Frobenius map a -> a^(p^k) is coordinate-wise conjugation (k odd)
 * times the constants of tower_constants.h (tools/gen_tower_constants.py).
 * Products reduce lazily: one Montgomery reduction per output coefficient
 * (6 per product instead of 12). Used by fp12.c and, through it, by the
 * pairing. Constant time except the _var functions.
 */
#include "field/field.h"
#include "field/fp_inline.h"
#include "field/tower_wide.h"
#include "field/tower_constants.h"

#include <string.h>

static const cz_fp2 frob_v[6] = CZ_FP6_FROB_V;
static const cz_fp2 frob_v2[6] = CZ_FP6_FROB_V2;

void cz_fp6_zero(cz_fp6 *out) { memset(out, 0, sizeof *out); }

void cz_fp6_one(cz_fp6 *out)
{
    cz_fp2_one(&out->c0);
    cz_fp2_zero(&out->c1);
    cz_fp2_zero(&out->c2);
}

bool cz_fp6_is_zero(const cz_fp6 *a)
{
    /* & on ints, not &&: no early exit */
    return (bool)((int)cz_fp2_is_zero(&a->c0) & (int)cz_fp2_is_zero(&a->c1) &
                  (int)cz_fp2_is_zero(&a->c2));
}

bool cz_fp6_is_one(const cz_fp6 *a)
{
    return (bool)((int)cz_fp2_is_one(&a->c0) & (int)cz_fp2_is_zero(&a->c1) &
                  (int)cz_fp2_is_zero(&a->c2));
}

bool cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b)
{
    return (bool)((int)cz_fp2_eq(&a->c0, &b->c0) & (int)cz_fp2_eq(&a->c1, &b->c1) &
                  (int)cz_fp2_eq(&a->c2, &b->c2));
}

void cz_fp6_cmov(cz_fp6 *out, const cz_fp6 *a, bool flag)
{
    cz_fp2_cmov(&out->c0, &a->c0, flag);
    cz_fp2_cmov(&out->c1, &a->c1, flag);
    cz_fp2_cmov(&out->c2, &a->c2, flag);
}

void cz_fp6_add(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2_add_i(&out->c0, &a->c0, &b->c0);
    cz_fp2_add_i(&out->c1, &a->c1, &b->c1);
    cz_fp2_add_i(&out->c2, &a->c2, &b->c2);
}

void cz_fp6_sub(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    cz_fp2_sub_i(&out->c0, &a->c0, &b->c0);
    cz_fp2_sub_i(&out->c1, &a->c1, &b->c1);
    cz_fp2_sub_i(&out->c2, &a->c2, &b->c2);
}

void cz_fp6_neg(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2_neg_i(&out->c0, &a->c0);
    cz_fp2_neg_i(&out->c1, &a->c1);
    cz_fp2_neg_i(&out->c2, &a->c2);
}

void cz_fp6_dbl(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2_dbl_i(&out->c0, &a->c0);
    cz_fp2_dbl_i(&out->c1, &a->c1);
    cz_fp2_dbl_i(&out->c2, &a->c2);
}

/* Karatsuba (tower_wide.h): 18 wide products, 6 reductions. */
void cz_fp6_mul(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    fp6_wide w;
    fp6_mul_wide(&w, a, b);
    fp6w_redc(out, &w);
}

/* Chung-Hasan SQR2:
 *   s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2,
 *   c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.
 * 2 Fp2 products + 3 squares. */
void cz_fp6_sqr(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2 s0, s1, s2, s3, s4, t;
    cz_fp2_sqr(&s0, &a->c0);
    cz_fp2_mul(&s1, &a->c0, &a->c1);
    cz_fp2_dbl_i(&s1, &s1);
    cz_fp2_sub_i(&t, &a->c0, &a->c1);
    cz_fp2_add_i(&t, &t, &a->c2);
    cz_fp2_sqr(&s2, &t);
    cz_fp2_mul(&s3, &a->c1, &a->c2);
    cz_fp2_dbl_i(&s3, &s3);
    cz_fp2_sqr(&s4, &a->c2);

    cz_fp2_mul_by_nonresidue_i(&t, &s3);
    cz_fp2_add_i(&out->c0, &s0, &t);
    cz_fp2_add_i(&t, &s1, &s2);
    cz_fp2_add_i(&t, &t, &s3);
    cz_fp2_sub_i(&t, &t, &s0);
    cz_fp2_sub_i(&out->c2, &t, &s4);
    cz_fp2_mul_by_nonresidue_i(&t, &s4);
    cz_fp2_add_i(&out->c1, &s1, &t);
}

/* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 */
void cz_fp6_mul_by_nonresidue(cz_fp6 *out, const cz_fp6 *a)
{
    cz_fp2 t;
    cz_fp2_mul_by_nonresidue_i(&t, &a->c2);
    out->c2 = a->c1;
    out->c1 = a->c0;
    out->c0 = t;
}

void cz_fp6_mul_fp2(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b)
{
    cz_fp2_mul(&out->c0, &a->c0, b);
    cz_fp2_mul(&out->c1, &a->c1, b);
    cz_fp2_mul(&out->c2, &a->c2, b);
}

/* a (b0 + b1 v): 5 Fp2 products (15 wide), 6 reductions (tower_wide.h) */
void cz_fp6_mul_by_01(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1)
{
    fp6_wide w;
    fp6_mul_by_01_wide(&w, a, b0, b1);
    fp6w_redc(out, &w);
}

/* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2. 3 Fp2 products. */
void cz_fp6_mul_by_1(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b1)
{
    cz_fp2 c0, c1, c2;
    cz_fp2_mul(&c0, &a->c2, b1);
    cz_fp2_mul_by_nonresidue_i(&c0, &c0);
    cz_fp2_mul(&c1, &a->c0, b1);
    cz_fp2_mul(&c2, &a->c1, b1);
    out->c0 = c0;
    out->c1 = c1;
    out->c2 = c2;
}

/* 1/a = adj(a) / N(a):
 *   t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2,
 *   N = a0 t0 + xi (a2 t1 + a1 t2) in Fp2, 1/a = (t0 + t1 v + t2 v^2) / N.
 * 9 Fp2 products/squares + 1 Fp2 inversion. 0 maps to 0. */
static void fp6_inv_with(cz_fp6 *out, const cz_fp6 *a, void (*fp2_inv)(cz_fp2 *, const cz_fp2 *))
{
    cz_fp2 t0, t1, t2, s, n;
    cz_fp2_sqr(&t0, &a->c0);
    cz_fp2_mul(&s, &a->c1, &a->c2);
    cz_fp2_mul_by_nonresidue_i(&s, &s);
    cz_fp2_sub_i(&t0, &t0, &s);

    cz_fp2_sqr(&t1, &a->c2);
    cz_fp2_mul_by_nonresidue_i(&t1, &t1);
    cz_fp2_mul(&s, &a->c0, &a->c1);
    cz_fp2_sub_i(&t1, &t1, &s);

    cz_fp2_sqr(&t2, &a->c1);
    cz_fp2_mul(&s, &a->c0, &a->c2);
    cz_fp2_sub_i(&t2, &t2, &s);

    cz_fp2_mul(&n, &a->c2, &t1);
    cz_fp2_mul(&s, &a->c1, &t2);
    cz_fp2_add_i(&n, &n, &s);
    cz_fp2_mul_by_nonresidue_i(&n, &n);
    cz_fp2_mul(&s, &a->c0, &t0);
    cz_fp2_add_i(&n, &n, &s);

    fp2_inv(&n, &n);
    cz_fp2_mul(&out->c0, &t0, &n);
    cz_fp2_mul(&out->c1, &t1, &n);
    cz_fp2_mul(&out->c2, &t2, &n);
}

void cz_fp6_inv(cz_fp6 *out, const cz_fp6 *a) { fp6_inv_with(out, a, cz_fp2_inv); }
void cz_fp6_inv_var(cz_fp6 *out, const cz_fp6 *a) { fp6_inv_with(out, a, cz_fp2_inv_var); }

/* out = a * g for a public constant g of tower_constants.h, using the
   cheaper product when g lies in Fp (2 Fp products) or in Fp*u (2 Fp
   products: (a0 + a1 u) g1 u = -a1 g1 + a0 g1 u). Branches on the constant
   only. (fp12.c has the same helper.) */
static void mul_tower_const(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *g)
{
    if (cz_fp_is_zero(&g->c1)) {
        cz_fp2_mul_fp(out, a, &g->c0);
    } else if (cz_fp_is_zero(&g->c0)) {
        cz_fp t0, t1;
        cz_fp_mul(&t0, &a->c1, &g->c1);
        cz_fp_mul(&t1, &a->c0, &g->c1);
        cz_fp_neg_i(&out->c0, &t0);
        out->c1 = t1;
    } else {
        cz_fp2_mul(out, a, g);
    }
}

/* (c0 + c1 v + c2 v^2)^(p^k) = c0' + c1' frob_v[k] v + c2' frob_v2[k] v^2,
   ' = conjugation when k is odd. k is taken mod 6 (a^(p^6) = a). */
void cz_fp6_frobenius(cz_fp6 *out, const cz_fp6 *a, int power)
{
    int k = ((power % 6) + 6) % 6;
    cz_fp6 t = *a;
    if (k & 1) {
        cz_fp2_conj_i(&t.c0, &t.c0);
        cz_fp2_conj_i(&t.c1, &t.c1);
        cz_fp2_conj_i(&t.c2, &t.c2);
    }
    out->c0 = t.c0;
    mul_tower_const(&out->c1, &t.c1, &frob_v[k]);
    mul_tower_const(&out->c2, &t.c2, &frob_v2[k]);
}

void cz_fp6_random(cz_fp6 *out, cz_rng *rng)
{
    cz_fp2_random(&out->c0, rng);
    cz_fp2_random(&out->c1, rng);
    cz_fp2_random(&out->c2, rng);
}
