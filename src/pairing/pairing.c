/*
 * pairing.c: the optimal ate pairing of BLS12-381 (see pairing.h).
 *
 * DESIGN. Lines. With the M-type twist E': y^2 = x^3 + b', b' = 4 xi, and
 * the untwisting (x', y') -> (x' / w^2, y' / w^3) into E(Fp12), the line
 * through twist points with slope lambda' (on E') evaluated at P = (xP, yP)
 * is, after multiplying by w^3 and by factors in Fp2 (all of which the
 * final exponentiation removes, as it kills every element of Fp4):
 *     l = ell0 + ell1 (-xP) w^2 + ell4 yP w^3
 * i.e. a sparse Fp12 element in slots c0.c0 (w^0), c0.c1 (w^2 = v) and
 * c1.c1 (w^3 = v w), multiplied in by cz_fp12_mul_by_014.
 *
 * Doubling T = (X : Y : Z) (homogeneous, x = X/Z), Costello-Lange-Naehrig
 * style, with the point scaled by 4 to avoid halvings:
 *   B = Y^2, C = Z^2, E = 3b' C (= 12 xi C, by additions), F = 3E,
 *   H = (Y + Z)^2 - B - C (= 2YZ), J = X^2
 *   X3 = 2 X Y (B - F), Y3 = (B + F)^2 - 12 E^2, Z3 = 4 B H
 *   ell0 = B - E (= Y^2 - 3b' Z^2), ell1 = 3J, ell4 = H.          3M + 6S (Fp2)
 * Mixed addition T + Q, Q = (x2, y2) affine:
 *   theta = Y - y2 Z, lambda = X - x2 Z, C = theta^2, D = lambda^2,
 *   E = lambda D, F = Z C, G = X D, H = E + F - 2G,
 *   X3 = lambda H, Y3 = theta (G - H) - E Y, Z3 = Z E
 *   ell0 = theta x2 - lambda y2, ell1 = theta, ell4 = lambda.    11M + 2S
 * (The two steps are miller_steps_impl.h, shared with BN254's pairing,
 * which places the same coefficients in the D-type twist's slots.)
 * (T = kQ with 1 < k < |x| < r, so T != +-Q for Q of order r; inputs off
 * the subgroup give meaningless values but never fault.)
 * Per bit of |x| (63 of them, 5 set below the top one): one Fp12 squaring
 * shared by all pairs, and per pair a doubling and a 13-product sparse
 * multiplication (plus an addition and another for set bits).
 *
 * Final exponentiation: easy part f^((p^6 - 1)(p^2 + 1)) by a conjugation,
 * an inversion and a Frobenius; hard part the chain for
 *   3 (p^4 - p^2 + 1)/r = l3 p^3 + l2 p^2 + l1 p + l0,
 *   l3 = (x - 1)^2, l2 = l3 x, l1 = l2 x - l3, l0 = l1 x + 3
 * (Hayashida-Hayasaka-Teruya 2020), with five exponentiations by x in the
 * cyclotomic subgroup, where 1/a = conj(a) (cz_fp12_cyclotomic_exp_x:
 * Karabina's compressed squarings, one batched decompression).
 * Pairs are processed in blocks of CZ_MILLER_BLOCK so that no memory is
 * allocated; each block costs one more chain of 63 squarings.
 */
#include "pairing/pairing.h"

#include "field/fp_inline.h"
#include "field/tower_constants.h"

#include <string.h>

#define CZ_MILLER_BLOCK 16

#define PR_FP2 cz_fp2
#define PR_FP2_(op) cz_fp2_##op
#define PR_FP2I_(op) cz_fp2_##op##_i
#define PR_G2_AFF cz_g2_affine
/* 3b' = 12 (u + 1): a product by xi, a tripling and two doublings */
#define PR_E_FROM_C(e, c)                                                      \
    do {                                                                       \
        cz_fp2_mul_by_nonresidue_i(e, c);                                      \
        fp2_triple(e, e);                                                      \
        cz_fp2_dbl_i(e, e);                                                    \
        cz_fp2_dbl_i(e, e);                                                    \
    } while (0)
#include "pairing/miller_steps_impl.h"

static bool g1_is_inf(const cz_g1_affine *p) { return cz_fp_is_zero(&p->x) && cz_fp_is_zero(&p->y); }

static bool g2_is_inf(const cz_g2_affine *q) { return cz_fp2_is_zero(&q->x) && cz_fp2_is_zero(&q->y); }

/* f <- f * (ell0 + ell1 nx w^2 + ell4 y w^3), nx = -xP, y = yP. */
static void mul_line(cz_fp12 *f, const cz_fp2 ell[3], const cz_fp *nx, const cz_fp *y)
{
    cz_fp2 c1, c4;
    cz_fp2_mul_fp(&c1, &ell[1], nx);
    cz_fp2_mul_fp(&c4, &ell[2], y);
    cz_fp12_mul_by_014(f, f, &ell[0], &c1, &c4);
}

/* f <- the line itself (for f = 1: skips one sparse product) */
static void set_line(cz_fp12 *f, const cz_fp2 ell[3], const cz_fp *nx, const cz_fp *y)
{
    cz_fp12_zero(f);
    f->c0.c0 = ell[0];
    cz_fp2_mul_fp(&f->c0.c1, &ell[1], nx);
    cz_fp2_mul_fp(&f->c1.c1, &ell[2], y);
}

/* One pair of a Miller loop: Q affine (with its running point T) or
   prepared (lines read from the table). */
typedef struct {
    cz_fp nx, y;                  /* -xP, yP */
    const cz_g2_affine *q;        /* NULL: prepared */
    const cz_g2_prepared *pre;
    g2_proj t;
} miller_pair;

/* Miller loop over at most CZ_MILLER_BLOCK pairs (none at infinity);
   f = prod f_{|x|,Q}(P), not yet conjugated. */
static void miller_block(cz_fp12 *f, miller_pair *pr, size_t m)
{
    const uint64_t x = CZ_PAIRING_X_ABS;
    cz_fp2 ell[3];
    int line = 0;
    cz_fp12_one(f);
    if (m == 0)
        return;
    for (int b = 62; b >= 0; b--) {
        if (b != 62)
            cz_fp12_sqr(f, f);
        for (size_t i = 0; i < m; i++) {
            const cz_fp2 *l = pr[i].q ? ell : pr[i].pre->ell[line];
            if (pr[i].q)
                dbl_step(ell, &pr[i].t);
            if (b == 62 && i == 0)
                set_line(f, l, &pr[i].nx, &pr[i].y);  /* f was 1 */
            else
                mul_line(f, l, &pr[i].nx, &pr[i].y);
        }
        line++;
        if ((x >> b) & 1) {
            for (size_t i = 0; i < m; i++) {
                if (pr[i].q) {
                    add_step(ell, &pr[i].t, pr[i].q);
                    mul_line(f, ell, &pr[i].nx, &pr[i].y);
                } else {
                    mul_line(f, pr[i].pre->ell[line], &pr[i].nx, &pr[i].y);
                }
            }
            line++;
        }
    }
}

/* Pairs 0..n-1 are (ps[i], qs[i]), pairs n..n+m-1 are (pps[j], pre[j]);
   they are gathered in blocks of CZ_MILLER_BLOCK, skipping infinity. */
static void miller_any(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n,
                       const cz_g1_affine *pps, const cz_g2_prepared *pre, size_t m)
{
    miller_pair pr[CZ_MILLER_BLOCK];
    cz_fp12 acc, f;
    size_t k = 0;
    bool first = true;
    cz_fp12_one(&acc);
    for (size_t i = 0; i < n + m; i++) {
        const cz_g1_affine *p = i < n ? &ps[i] : &pps[i - n];
        if (g1_is_inf(p))
            continue;
        if (i < n) {
            if (g2_is_inf(&qs[i]))
                continue;
            pr[k].q = &qs[i];
            pr[k].pre = NULL;
            pr[k].t.x = qs[i].x;
            pr[k].t.y = qs[i].y;
            cz_fp2_one(&pr[k].t.z);
        } else {
            if (pre[i - n].infinity)
                continue;
            pr[k].q = NULL;
            pr[k].pre = &pre[i - n];
        }
        cz_fp_neg_i(&pr[k].nx, &p->x);
        pr[k].y = p->y;
        if (++k == CZ_MILLER_BLOCK) {
            miller_block(&f, pr, k);
            if (first)
                acc = f;
            else
                cz_fp12_mul(&acc, &acc, &f);
            first = false;
            k = 0;
        }
    }
    if (k > 0) {
        miller_block(&f, pr, k);
        if (first)
            acc = f;
        else
            cz_fp12_mul(&acc, &acc, &f);
    }
    /* x < 0: f_{x,Q} = 1 / f_{|x|,Q} up to a vertical line (killed by the
       final exponentiation), and 1/f = conj(f) after the easy part. */
    cz_fp12_conj(out, &acc);
}

void cz_miller_loop(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n)
{
    miller_any(out, ps, qs, n, NULL, NULL, 0);
}

void cz_miller_loop_prepared(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_prepared *qs, size_t n)
{
    miller_any(out, NULL, NULL, 0, ps, qs, n);
}

void cz_miller_loop_mixed(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n,
                          const cz_g1_affine *pps, const cz_g2_prepared *pqs, size_t m)
{
    miller_any(out, ps, qs, n, pps, pqs, m);
}

void cz_g2_prepare(cz_g2_prepared *out, const cz_g2_affine *q)
{
    memset(out, 0, sizeof *out);
    out->infinity = g2_is_inf(q);
    if (out->infinity)
        return;
    const uint64_t x = CZ_PAIRING_X_ABS;
    g2_proj t = {q->x, q->y, {{{0}}, {{0}}}};
    cz_fp2_one(&t.z);
    int line = 0;
    for (int b = 62; b >= 0; b--) {
        dbl_step(out->ell[line++], &t);
        if ((x >> b) & 1)
            add_step(out->ell[line++], &t, q);
    }
}

/* f^((p^6 - 1)(p^2 + 1)) then the hard part (see the DESIGN comment):
 *   t1 = f^((p^6-1)(p^2+1)), t2 = t1^x, t3 = t1^-2 t2 = t1^(x-2),
 *   t4 = t3^x, t5 = t4^x, t6 = t5^x t2^2, t7 = t6^x,
 *   out = (t2 t5)^(p^2) (t4 t1)^(p^3) (t6 / t1)^p t7 / t3 * t1.
 * a^x for x < 0 is conj(a^|x|) in the cyclotomic subgroup. */
static void exp_by_x(cz_fp12 *out, const cz_fp12 *a)
{
    cz_fp12_cyclotomic_exp_x(out, a);
    cz_fp12_conj(out, out);
}

void cz_final_exp(cz_fp12 *out, const cz_fp12 *f)
{
    cz_fp12 t0, t1, t2, t3, t4, t5, t6, t7, s, r;
    cz_fp12_inv_var(&t0, f);
    cz_fp12_conj(&t1, f);
    cz_fp12_mul(&t0, &t1, &t0);             /* f^(p^6 - 1) */
    cz_fp12_frobenius(&t1, &t0, 2);
    cz_fp12_mul(&t1, &t1, &t0);             /* ^(p^2 + 1) */

    exp_by_x(&t2, &t1);
    cz_fp12_cyclotomic_sqr(&s, &t1);
    cz_fp12_conj(&s, &s);
    cz_fp12_mul(&t3, &s, &t2);
    exp_by_x(&t4, &t3);
    exp_by_x(&t5, &t4);
    exp_by_x(&t6, &t5);
    cz_fp12_cyclotomic_sqr(&s, &t2);
    cz_fp12_mul(&t6, &t6, &s);
    exp_by_x(&t7, &t6);

    cz_fp12_mul(&r, &t2, &t5);
    cz_fp12_frobenius(&r, &r, 2);
    cz_fp12_mul(&s, &t4, &t1);
    cz_fp12_frobenius(&s, &s, 3);
    cz_fp12_mul(&r, &r, &s);
    cz_fp12_conj(&s, &t1);
    cz_fp12_mul(&s, &s, &t6);
    cz_fp12_frobenius(&s, &s, 1);
    cz_fp12_mul(&r, &r, &s);
    cz_fp12_conj(&s, &t3);
    cz_fp12_mul(&s, &s, &t7);
    cz_fp12_mul(&s, &s, &t1);
    cz_fp12_mul(out, &r, &s);
}

void cz_pairing(cz_fp12 *out, const cz_g1_affine *p, const cz_g2_affine *q)
{
    cz_fp12 f;
    cz_miller_loop(&f, p, q, 1);
    cz_final_exp(out, &f);
}

bool cz_pairing_product_is_one(const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n)
{
    cz_fp12 f;
    cz_miller_loop(&f, ps, qs, n);
    cz_final_exp(&f, &f);
    return cz_fp12_is_one(&f);
}

bool cz_pairing_product_is_one_prepared(const cz_g1_affine *ps, const cz_g2_prepared *qs, size_t n)
{
    cz_fp12 f;
    cz_miller_loop_prepared(&f, ps, qs, n);
    cz_final_exp(&f, &f);
    return cz_fp12_is_one(&f);
}

bool cz_pairing_product_is_one_mixed(const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n,
                                     const cz_g1_affine *pps, const cz_g2_prepared *pqs, size_t m)
{
    cz_fp12 f;
    cz_miller_loop_mixed(&f, ps, qs, n, pps, pqs, m);
    cz_final_exp(&f, &f);
    return cz_fp12_is_one(&f);
}
