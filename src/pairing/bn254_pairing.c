/*
 * bn254_pairing.c: the optimal ate pairing of BN254 (see bn254_pairing.h).
 *
 * DESIGN. Lines. With the D-type twist E': y^2 = x^3 + b/xi and the
 * untwisting (x', y') -> (x' w^2, y' w^3) into E(Fp12), the line through
 * twist points with slope lambda' evaluated at P = (xP, yP) is
 *     yP - lambda' xP w + (lambda' x'_T - y'_T) w^3,
 * and after scaling by factors in Fp2 (which the final exponentiation
 * kills) the doubling and addition steps of miller_steps_impl.h give it as
 *     ell2 yP + ell1 (-xP) w + ell0 w^3,
 * a sparse Fp12 element in the slots c0.c0, c1.c0, c1.c1
 * (cz_bn254_fp12_mul_by_034, 13 Fp2 products). In the doubling step
 * E = 3b' C is one Fp2 product by b' = 3/(9 + u) and a tripling.
 *
 * Miller loop: T = Q, then for each NAF digit d of 6x + 2 below the top:
 * f = f^2 l_{T,T}(P), T = 2T; d = +1: f = f l_{T,Q}(P), T = T + Q;
 * d = -1: the same with -Q. Then f = f l_{T,psi(Q)}(P), T = T + psi(Q),
 * f = f l_{T,-psi^2(Q)}(P) (psi the untwist-Frobenius-twist map,
 * bn254_g2.c). x > 0, so no final conjugation. Pairs run in blocks of
 * CZ_BN254_MILLER_BLOCK so that no memory is allocated.
 *
 * Final exponentiation: easy part f^((p^6 - 1)(p^2 + 1)) by a conjugation,
 * an inversion and a Frobenius, then the hard part of Fuentes-Castaneda,
 * Knapp and Rodriguez-Henriquez (2011) with a^(-x) = conj(a^x) in the
 * cyclotomic subgroup:
 *   y1 = (r^-x)^2, y2 = y1^3, y4 = y2^-x, y6 = (y4^2)^-x,
 *   y8 = y6^-1 y4 y2^-1, y9 = y8 y1,
 *   out = (r^-1 y9)^(p^3) y8^(p^2) y9^p y8 y4 r.
 * Three exponentiations by x (62 cyclotomic squarings, 28 products each).
 */
#include "pairing/bn254_pairing.h"

#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#include <string.h>

#define CZ_BN254_MILLER_BLOCK 16

static const cz_bn254_fp2 twist_b = CZ_BN254_G2_B;
static const int8_t ate_naf[CZ_BN254_ATE_NAF_LEN] = CZ_BN254_ATE_NAF;

/* out = 3 * a (2 additions), for miller_steps_impl.h */
static void fp2_triple(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);

#define PR_FP2 cz_bn254_fp2
#define PR_FP2_(op) cz_bn254_fp2_##op
#define PR_FP2I_(op) cz_bn254_fp2_##op##_i
#define PR_G2_AFF cz_bn254_g2_affine
/* 3b' C = 3 (b' C): one Fp2 product and a tripling */
#define PR_E_FROM_C(e, c)                                                      \
    do {                                                                       \
        cz_bn254_fp2_mul(e, c, &twist_b);                                      \
        fp2_triple(e, e);                                                      \
    } while (0)
#include "pairing/miller_steps_impl.h"

static bool g1_is_inf(const cz_bn254_g1_affine *p)
{
    return cz_bn254_fp_is_zero(&p->x) && cz_bn254_fp_is_zero(&p->y);
}

static bool g2_is_inf(const cz_bn254_g2_affine *q)
{
    return cz_bn254_fp2_is_zero(&q->x) && cz_bn254_fp2_is_zero(&q->y);
}

/* f <- f * (ell2 y + ell1 nx w + ell0 w^3), nx = -xP, y = yP. */
static void mul_line(cz_bn254_fp12 *f, const cz_bn254_fp2 ell[3], const cz_bn254_fp *nx,
                     const cz_bn254_fp *y)
{
    cz_bn254_fp2 c0, c3;
    cz_bn254_fp2_mul_fp(&c0, &ell[2], y);
    cz_bn254_fp2_mul_fp(&c3, &ell[1], nx);
    cz_bn254_fp12_mul_by_034(f, f, &c0, &c3, &ell[0]);
}

/* f <- the line itself (for f = 1: skips one sparse product) */
static void set_line(cz_bn254_fp12 *f, const cz_bn254_fp2 ell[3], const cz_bn254_fp *nx,
                     const cz_bn254_fp *y)
{
    cz_bn254_fp12_zero(f);
    cz_bn254_fp2_mul_fp(&f->c0.c0, &ell[2], y);
    cz_bn254_fp2_mul_fp(&f->c1.c0, &ell[1], nx);
    f->c1.c1 = ell[0];
}

typedef struct {
    cz_bn254_fp nx, y;            /* -xP, yP */
    cz_bn254_g2_affine q, nq;     /* Q and -Q */
    g2_proj t;
} miller_pair;

/* The Miller loop over m pairs (none at infinity, m <= the block size). */
static void miller_block(cz_bn254_fp12 *f, miller_pair *pr, size_t m)
{
    cz_bn254_fp2 ell[3];
    cz_bn254_fp12_one(f);
    if (m == 0)
        return;
    for (int i = 1; i < CZ_BN254_ATE_NAF_LEN; i++) {
        if (i != 1)
            cz_bn254_fp12_sqr(f, f);
        for (size_t k = 0; k < m; k++) {
            dbl_step(ell, &pr[k].t);
            if (i == 1 && k == 0)
                set_line(f, ell, &pr[k].nx, &pr[k].y); /* f was 1 */
            else
                mul_line(f, ell, &pr[k].nx, &pr[k].y);
        }
        if (ate_naf[i] != 0) {
            for (size_t k = 0; k < m; k++) {
                add_step(ell, &pr[k].t, ate_naf[i] > 0 ? &pr[k].q : &pr[k].nq);
                mul_line(f, ell, &pr[k].nx, &pr[k].y);
            }
        }
    }
    /* the two Frobenius lines: T + psi(Q), then + (-psi^2(Q)) */
    for (size_t k = 0; k < m; k++) {
        cz_bn254_g2_affine q1, q2;
        cz_bn254_g2_psi(&q1, &pr[k].q);
        add_step(ell, &pr[k].t, &q1);
        mul_line(f, ell, &pr[k].nx, &pr[k].y);
        cz_bn254_g2_psi2(&q2, &pr[k].q);
        cz_bn254_fp2_neg(&q2.y, &q2.y);
        add_step(ell, &pr[k].t, &q2);
        mul_line(f, ell, &pr[k].nx, &pr[k].y);
    }
}

void cz_bn254_miller_loop(cz_bn254_fp12 *out, const cz_bn254_g1_affine *ps, const cz_bn254_g2_affine *qs,
                          size_t n)
{
    miller_pair pr[CZ_BN254_MILLER_BLOCK];
    cz_bn254_fp12 acc, f;
    size_t k = 0;
    bool first = true;
    cz_bn254_fp12_one(&acc);
    for (size_t i = 0; i < n; i++) {
        if (g1_is_inf(&ps[i]) || g2_is_inf(&qs[i]))
            continue;
        pr[k].q = qs[i];
        pr[k].nq.x = qs[i].x;
        cz_bn254_fp2_neg(&pr[k].nq.y, &qs[i].y);
        pr[k].t.x = qs[i].x;
        pr[k].t.y = qs[i].y;
        cz_bn254_fp2_one(&pr[k].t.z);
        cz_bn254_fp_neg(&pr[k].nx, &ps[i].x);
        pr[k].y = ps[i].y;
        if (++k == CZ_BN254_MILLER_BLOCK) {
            miller_block(&f, pr, k);
            if (first)
                acc = f;
            else
                cz_bn254_fp12_mul(&acc, &acc, &f);
            first = false;
            k = 0;
        }
    }
    if (k > 0) {
        miller_block(&f, pr, k);
        if (first)
            acc = f;
        else
            cz_bn254_fp12_mul(&acc, &acc, &f);
    }
    *out = acc;
}

/* a^-x = conj(a^x) for a cyclotomic a */
static void exp_by_neg_x(cz_bn254_fp12 *out, const cz_bn254_fp12 *a)
{
    static const uint64_t x = CZ_BN254_X;
    cz_bn254_fp12_cyclotomic_pow_var(out, a, &x, 1);
    cz_bn254_fp12_conj(out, out);
}

void cz_bn254_final_exp(cz_bn254_fp12 *out, const cz_bn254_fp12 *f)
{
    cz_bn254_fp12 r, t, y1, y2, y4, y6, y8, y9, s;
    /* easy part: r = f^((p^6 - 1)(p^2 + 1)) */
    cz_bn254_fp12_inv_var(&t, f);
    cz_bn254_fp12_conj(&r, f);
    cz_bn254_fp12_mul(&r, &r, &t);
    cz_bn254_fp12_frobenius(&t, &r, 2);
    cz_bn254_fp12_mul(&r, &t, &r);
    /* hard part (see the DESIGN comment) */
    exp_by_neg_x(&t, &r);
    cz_bn254_fp12_cyclotomic_sqr(&y1, &t);
    cz_bn254_fp12_cyclotomic_sqr(&y2, &y1);
    cz_bn254_fp12_mul(&y2, &y2, &y1);
    exp_by_neg_x(&y4, &y2);
    cz_bn254_fp12_cyclotomic_sqr(&t, &y4);
    exp_by_neg_x(&y6, &t);
    cz_bn254_fp12_conj(&y8, &y6);
    cz_bn254_fp12_mul(&y8, &y8, &y4);
    cz_bn254_fp12_conj(&t, &y2);
    cz_bn254_fp12_mul(&y8, &y8, &t);
    cz_bn254_fp12_mul(&y9, &y8, &y1);

    cz_bn254_fp12_mul(&s, &y8, &y4);
    cz_bn254_fp12_mul(&s, &s, &r);             /* y8 y4 r */
    cz_bn254_fp12_frobenius(&t, &y9, 1);
    cz_bn254_fp12_mul(&s, &s, &t);             /* . y9^p */
    cz_bn254_fp12_frobenius(&t, &y8, 2);
    cz_bn254_fp12_mul(&s, &s, &t);             /* . y8^(p^2) */
    cz_bn254_fp12_conj(&t, &r);
    cz_bn254_fp12_mul(&t, &t, &y9);
    cz_bn254_fp12_frobenius(&t, &t, 3);
    cz_bn254_fp12_mul(out, &s, &t);            /* . (r^-1 y9)^(p^3) */
}

void cz_bn254_pairing(cz_bn254_fp12 *out, const cz_bn254_g1_affine *p, const cz_bn254_g2_affine *q)
{
    cz_bn254_fp12 f;
    cz_bn254_miller_loop(&f, p, q, 1);
    cz_bn254_final_exp(out, &f);
}

bool cz_bn254_pairing_product_is_one(const cz_bn254_g1_affine *ps, const cz_bn254_g2_affine *qs, size_t n)
{
    cz_bn254_fp12 f;
    cz_bn254_miller_loop(&f, ps, qs, n);
    cz_bn254_final_exp(&f, &f);
    return cz_bn254_fp12_is_one(&f);
}
