/* ctest: labels=unit timeout=300 */
/*
 * test_tower.c: Fp6 = Fp2[v]/(v^3 - (u+1)) and Fp12 = Fp6[w]/(w^2 - v).
 *
 * Seeded property tests: ring axioms with aliasing, squares against
 * products, inverses, the sparse products against full products with the
 * same sparse operand, Frobenius maps against a^(p^k) computed by a plain
 * square-and-multiply written here, conjugation as the p^6 power, the
 * cyclotomic squaring and x-power against the generic ones on elements of
 * the cyclotomic subgroup, and the byte order of cz_fp12_to_bytes_be.
 * Replay with CZ_TEST_SEED; CZ_TEST_SCALE scales the iteration counts.
 */
#include "common/test_util.h"

#include <string.h>

#include "field/constants.h"
#include "field/field.h"
#include "field/tower_constants.h"

static cz_rng rng;
static const uint64_t p_limbs[6] = CZ_FP_P;

static int setup_rng(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    return 0;
}

/* Reference powers: right-to-left square and multiply over plain limbs. */
static void fp6_pow_ref(cz_fp6 *out, const cz_fp6 *a, const uint64_t *e, size_t n)
{
    cz_fp6 r, b = *a;
    cz_fp6_one(&r);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 64; j++) {
            if ((e[i] >> j) & 1)
                cz_fp6_mul(&r, &r, &b);
            cz_fp6_mul(&b, &b, &b);
        }
    *out = r;
}

static void fp12_pow_ref(cz_fp12 *out, const cz_fp12 *a, const uint64_t *e, size_t n)
{
    cz_fp12 r, b = *a;
    cz_fp12_one(&r);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 64; j++) {
            if ((e[i] >> j) & 1)
                cz_fp12_mul(&r, &r, &b);
            cz_fp12_mul(&b, &b, &b);
        }
    *out = r;
}

/* Schoolbook references built from Fp2 operations only (independent of the
   lazy-reduction kernels of tower_wide.h): Fp6 with v^3 = xi, and Fp12 in
   the w-basis a = sum a_i w^i, w^6 = xi, (a0..a5) = (c0.c0, c1.c0, c0.c1,
   c1.c1, c0.c2, c1.c2). */
static void fp6_mul_ref(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b)
{
    const cz_fp2 *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    cz_fp2 t[5], p;
    for (int k = 0; k < 5; k++)
        cz_fp2_zero(&t[k]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            cz_fp2_mul(&p, x[i], y[j]);
            cz_fp2_add(&t[i + j], &t[i + j], &p);
        }
    for (int k = 4; k >= 3; k--) {
        cz_fp2_mul_by_nonresidue(&p, &t[k]);
        cz_fp2_add(&t[k - 3], &t[k - 3], &p);
    }
    out->c0 = t[0];
    out->c1 = t[1];
    out->c2 = t[2];
}

static void fp12_to_w(cz_fp2 w[6], const cz_fp12 *a)
{
    w[0] = a->c0.c0; w[1] = a->c1.c0; w[2] = a->c0.c1;
    w[3] = a->c1.c1; w[4] = a->c0.c2; w[5] = a->c1.c2;
}

static void fp12_mul_ref(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b)
{
    cz_fp2 x[6], y[6], t[11], p;
    fp12_to_w(x, a);
    fp12_to_w(y, b);
    for (int k = 0; k < 11; k++)
        cz_fp2_zero(&t[k]);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            cz_fp2_mul(&p, &x[i], &y[j]);
            cz_fp2_add(&t[i + j], &t[i + j], &p);
        }
    for (int k = 10; k >= 6; k--) {
        cz_fp2_mul_by_nonresidue(&p, &t[k]);
        cz_fp2_add(&t[k - 6], &t[k - 6], &p);
    }
    out->c0.c0 = t[0]; out->c1.c0 = t[1]; out->c0.c1 = t[2];
    out->c1.c1 = t[3]; out->c0.c2 = t[4]; out->c1.c2 = t[5];
}

/* coefficients drawn from {0, 1, p - 1, p - 2, random}: the extremes stress
   the bounds of the lazy (wide) products */
static void fp_edge(cz_fp *out)
{
    cz_fp one;
    cz_fp_one(&one);
    switch (cz_rng_u64(&rng) % 5) {
    case 0: cz_fp_zero(out); break;
    case 1: *out = one; break;
    case 2: cz_fp_neg(out, &one); break;
    case 3: cz_fp_neg(out, &one); cz_fp_sub(out, out, &one); break;
    default: cz_fp_random(out, &rng); break;
    }
}

static void fp12_edge(cz_fp12 *a, bool all_max)
{
    cz_fp *c = &a->c0.c0.c0;
    cz_fp one;
    cz_fp_one(&one);
    for (int i = 0; i < 12; i++) {
        if (all_max)
            cz_fp_neg(&c[i], &one);
        else
            fp_edge(&c[i]);
    }
}

static void test_lazy_products(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(40); it++) {
        cz_fp12 a, b, x, y;
        if (it < 2) {
            fp12_edge(&a, true);
            fp12_edge(&b, it == 0);
        } else if (it < 20) {
            fp12_edge(&a, false);
            fp12_edge(&b, false);
        } else {
            cz_fp12_random(&a, &rng);
            cz_fp12_random(&b, &rng);
        }
        cz_fp12_mul(&x, &a, &b);
        fp12_mul_ref(&y, &a, &b);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_sqr(&x, &a);
        fp12_mul_ref(&y, &a, &a);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp6_mul(&x.c0, &a.c0, &b.c1);
        fp6_mul_ref(&y.c0, &a.c0, &b.c1);
        assert_true(cz_fp6_eq(&x.c0, &y.c0));
        /* sparse: b with only the line slots */
        cz_fp12 s;
        cz_fp12_zero(&s);
        s.c0.c0 = b.c0.c0;
        s.c0.c1 = b.c0.c1;
        s.c1.c1 = b.c1.c1;
        cz_fp12_mul_by_014(&x, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        fp12_mul_ref(&y, &a, &s);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp6 s6;
        cz_fp6_zero(&s6);
        s6.c0 = b.c1.c0;
        s6.c1 = b.c1.c2;
        cz_fp6_mul_by_01(&x.c1, &a.c1, &b.c1.c0, &b.c1.c2);
        fp6_mul_ref(&y.c1, &a.c1, &s6);
        assert_true(cz_fp6_eq(&x.c1, &y.c1));
    }
}

/* ------------------------------------------------------------ Fp6 ---- */

static void test_fp6_ring(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(20); it++) {
        cz_fp6 a, b, c, x, y, z, one, zero;
        cz_fp6_random(&a, &rng);
        cz_fp6_random(&b, &rng);
        cz_fp6_random(&c, &rng);
        cz_fp6_one(&one);
        cz_fp6_zero(&zero);
        assert_true(cz_fp6_is_one(&one));
        assert_true(cz_fp6_is_zero(&zero));
        assert_false(cz_fp6_is_zero(&a));
        /* commutativity and associativity */
        cz_fp6_mul(&x, &a, &b);
        cz_fp6_mul(&y, &b, &a);
        assert_true(cz_fp6_eq(&x, &y));
        cz_fp6_mul(&x, &x, &c);
        cz_fp6_mul(&y, &b, &c);
        cz_fp6_mul(&y, &a, &y);
        assert_true(cz_fp6_eq(&x, &y));
        /* distributivity */
        cz_fp6_add(&x, &b, &c);
        cz_fp6_mul(&x, &a, &x);
        cz_fp6_mul(&y, &a, &b);
        cz_fp6_mul(&z, &a, &c);
        cz_fp6_add(&y, &y, &z);
        assert_true(cz_fp6_eq(&x, &y));
        /* identities, negation, subtraction, doubling */
        cz_fp6_mul(&x, &a, &one);
        assert_true(cz_fp6_eq(&x, &a));
        cz_fp6_neg(&x, &a);
        cz_fp6_add(&x, &x, &a);
        assert_true(cz_fp6_is_zero(&x));
        cz_fp6_sub(&x, &a, &b);
        cz_fp6_add(&x, &x, &b);
        assert_true(cz_fp6_eq(&x, &a));
        cz_fp6_dbl(&x, &a);
        cz_fp6_add(&y, &a, &a);
        assert_true(cz_fp6_eq(&x, &y));
        /* squaring, in place */
        x = a;
        cz_fp6_sqr(&x, &x);
        cz_fp6_mul(&y, &a, &a);
        assert_true(cz_fp6_eq(&x, &y));
        /* in-place product */
        x = a;
        cz_fp6_mul(&x, &x, &b);
        cz_fp6_mul(&y, &a, &b);
        assert_true(cz_fp6_eq(&x, &y));
        x = b;
        cz_fp6_mul(&x, &a, &x);
        assert_true(cz_fp6_eq(&x, &y));
        /* cmov */
        x = a;
        cz_fp6_cmov(&x, &b, false);
        assert_true(cz_fp6_eq(&x, &a));
        cz_fp6_cmov(&x, &b, true);
        assert_true(cz_fp6_eq(&x, &b));
    }
}

static void test_fp6_sparse(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(20); it++) {
        cz_fp6 a, s, x, y, v;
        cz_fp2 b0, b1;
        cz_fp6_random(&a, &rng);
        cz_fp2_random(&b0, &rng);
        cz_fp2_random(&b1, &rng);
        /* v itself: v^3 = u + 1 */
        cz_fp6_zero(&v);
        cz_fp2_one(&v.c1);
        cz_fp6_mul(&x, &v, &v);
        cz_fp6_mul(&x, &x, &v);
        assert_true(cz_fp_is_one(&x.c0.c0) && cz_fp_is_one(&x.c0.c1));
        assert_true(cz_fp2_is_zero(&x.c1) && cz_fp2_is_zero(&x.c2));
        cz_fp6_mul_by_nonresidue(&x, &a);
        cz_fp6_mul(&y, &a, &v);
        assert_true(cz_fp6_eq(&x, &y));
        /* a (b0 + b1 v) */
        cz_fp6_zero(&s);
        s.c0 = b0;
        s.c1 = b1;
        cz_fp6_mul_by_01(&x, &a, &b0, &b1);
        cz_fp6_mul(&y, &a, &s);
        assert_true(cz_fp6_eq(&x, &y));
        /* a (b1 v) */
        cz_fp2_zero(&s.c0);
        cz_fp6_mul_by_1(&x, &a, &b1);
        cz_fp6_mul(&y, &a, &s);
        assert_true(cz_fp6_eq(&x, &y));
        /* a b0 */
        cz_fp6_zero(&s);
        s.c0 = b0;
        cz_fp6_mul_fp2(&x, &a, &b0);
        cz_fp6_mul(&y, &a, &s);
        assert_true(cz_fp6_eq(&x, &y));
    }
}

static void test_fp6_inv(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(10); it++) {
        cz_fp6 a, x, y;
        cz_fp6_random(&a, &rng);
        cz_fp6_inv(&x, &a);
        cz_fp6_mul(&y, &x, &a);
        assert_true(cz_fp6_is_one(&y));
        cz_fp6_inv_var(&y, &a);
        assert_true(cz_fp6_eq(&x, &y));
        y = a;
        cz_fp6_inv(&y, &y);
        assert_true(cz_fp6_eq(&x, &y));
        /* sparse inputs too: a0 = 0, then only a2 */
        cz_fp2_zero(&a.c0);
        cz_fp6_inv_var(&x, &a);
        cz_fp6_mul(&y, &x, &a);
        assert_true(cz_fp6_is_one(&y));
        cz_fp2_zero(&a.c1);
        cz_fp6_inv(&x, &a);
        cz_fp6_mul(&y, &x, &a);
        assert_true(cz_fp6_is_one(&y));
    }
    cz_fp6 z, x;
    cz_fp6_zero(&z);
    cz_fp6_inv(&x, &z);
    assert_true(cz_fp6_is_zero(&x));
    cz_fp6_inv_var(&x, &z);
    assert_true(cz_fp6_is_zero(&x));
}

static void test_fp6_frobenius(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(2); it++) {
        cz_fp6 a, b, x, y, ab;
        cz_fp6_random(&a, &rng);
        cz_fp6_random(&b, &rng);
        fp6_pow_ref(&y, &a, p_limbs, 6);
        cz_fp6_frobenius(&x, &a, 1);
        assert_true(cz_fp6_eq(&x, &y));
        /* a^(p^k) = (a^(p^(k-1)))^p, and a ring map */
        cz_fp6_mul(&ab, &a, &b);
        y = a;
        for (int k = 1; k <= 5; k++) {
            cz_fp6_frobenius(&y, &y, 1);
            cz_fp6_frobenius(&x, &a, k);
            assert_true(cz_fp6_eq(&x, &y));
            cz_fp6 fa, fb, fab;
            cz_fp6_frobenius(&fa, &a, k);
            cz_fp6_frobenius(&fb, &b, k);
            cz_fp6_frobenius(&fab, &ab, k);
            cz_fp6_mul(&fa, &fa, &fb);
            assert_true(cz_fp6_eq(&fa, &fab));
        }
        cz_fp6_frobenius(&y, &y, 1);  /* a^(p^6) = a */
        assert_true(cz_fp6_eq(&y, &a));
    }
}

/* ----------------------------------------------------------- Fp12 ---- */

static void test_fp12_ring(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(10); it++) {
        cz_fp12 a, b, c, x, y, z, one, zero;
        cz_fp12_random(&a, &rng);
        cz_fp12_random(&b, &rng);
        cz_fp12_random(&c, &rng);
        cz_fp12_one(&one);
        cz_fp12_zero(&zero);
        assert_true(cz_fp12_is_one(&one));
        assert_false(cz_fp12_is_one(&zero));
        assert_false(cz_fp12_is_one(&a));
        cz_fp12_mul(&x, &a, &b);
        cz_fp12_mul(&y, &b, &a);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_mul(&x, &x, &c);
        cz_fp12_mul(&y, &b, &c);
        cz_fp12_mul(&y, &a, &y);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_add(&x, &b, &c);
        cz_fp12_mul(&x, &a, &x);
        cz_fp12_mul(&y, &a, &b);
        cz_fp12_mul(&z, &a, &c);
        cz_fp12_add(&y, &y, &z);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_mul(&x, &a, &one);
        assert_true(cz_fp12_eq(&x, &a));
        cz_fp12_mul(&x, &a, &zero);
        assert_true(cz_fp12_eq(&x, &zero));
        cz_fp12_sub(&x, &a, &b);
        cz_fp12_add(&x, &x, &b);
        assert_true(cz_fp12_eq(&x, &a));
        cz_fp12_neg(&x, &a);
        cz_fp12_add(&x, &x, &a);
        assert_true(cz_fp12_eq(&x, &zero));
        x = a;
        cz_fp12_sqr(&x, &x);
        cz_fp12_mul(&y, &a, &a);
        assert_true(cz_fp12_eq(&x, &y));
        x = b;
        cz_fp12_mul(&x, &a, &x);
        cz_fp12_mul(&y, &a, &b);
        assert_true(cz_fp12_eq(&x, &y));
        x = a;
        cz_fp12_cmov(&x, &b, false);
        assert_true(cz_fp12_eq(&x, &a));
        cz_fp12_cmov(&x, &b, true);
        assert_true(cz_fp12_eq(&x, &b));
    }
}

/* w^2 = v and w^6 = u + 1, checked through the generic product */
static void test_fp12_structure(void **state)
{
    (void)state;
    cz_fp12 w, x, y;
    cz_fp12_zero(&w);
    cz_fp2_one(&w.c1.c0);
    cz_fp12_mul(&x, &w, &w);
    cz_fp12_zero(&y);
    cz_fp2_one(&y.c0.c1);
    assert_true(cz_fp12_eq(&x, &y));
    cz_fp12_mul(&y, &x, &x);
    cz_fp12_mul(&y, &y, &x);
    assert_true(cz_fp_is_one(&y.c0.c0.c0) && cz_fp_is_one(&y.c0.c0.c1));
    cz_fp12_zero(&x);
    x.c0.c0 = y.c0.c0;
    assert_true(cz_fp12_eq(&x, &y));
}

static void test_fp12_sparse(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(20); it++) {
        cz_fp12 a, s, x, y;
        cz_fp2 c0, c1, c4;
        cz_fp12_random(&a, &rng);
        cz_fp2_random(&c0, &rng);
        cz_fp2_random(&c1, &rng);
        cz_fp2_random(&c4, &rng);
        cz_fp12_zero(&s);
        s.c0.c0 = c0;
        s.c0.c1 = c1;
        s.c1.c1 = c4;
        cz_fp12_mul(&y, &a, &s);
        cz_fp12_mul_by_014(&x, &a, &c0, &c1, &c4);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_mul_by_014(&a, &a, &c0, &c1, &c4);  /* in place */
        assert_true(cz_fp12_eq(&a, &y));
    }
}

static void test_fp12_inv_conj(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(10); it++) {
        cz_fp12 a, x, y;
        cz_fp12_random(&a, &rng);
        cz_fp12_inv(&x, &a);
        cz_fp12_mul(&y, &x, &a);
        assert_true(cz_fp12_is_one(&y));
        cz_fp12_inv_var(&y, &a);
        assert_true(cz_fp12_eq(&x, &y));
        /* conj = p^6-power; a conj(a) lies in Fp6 */
        cz_fp12_conj(&x, &a);
        cz_fp12_frobenius(&y, &a, 6);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_mul(&y, &x, &a);
        assert_true(cz_fp6_is_zero(&y.c1));
        cz_fp12_conj(&y, &x);
        assert_true(cz_fp12_eq(&y, &a));
    }
    cz_fp12 z, x;
    cz_fp12_zero(&z);
    cz_fp12_inv(&x, &z);
    assert_true(cz_fp12_eq(&x, &z));
}

static void test_fp12_frobenius(void **state)
{
    (void)state;
    cz_fp12 a, b, ab, x, y;
    cz_fp12_random(&a, &rng);
    cz_fp12_random(&b, &rng);
    fp12_pow_ref(&y, &a, p_limbs, 6);
    cz_fp12_frobenius(&x, &a, 1);
    assert_true(cz_fp12_eq(&x, &y));
    cz_fp12_pow(&x, &a, p_limbs, 6);  /* the constant-time pow agrees */
    assert_true(cz_fp12_eq(&x, &y));
    cz_fp12_mul(&ab, &a, &b);
    y = a;
    for (int k = 1; k <= 11; k++) {
        cz_fp12_frobenius(&y, &y, 1);
        cz_fp12_frobenius(&x, &a, k);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12 fa, fb, fab;
        cz_fp12_frobenius(&fa, &a, k);
        cz_fp12_frobenius(&fb, &b, k);
        cz_fp12_frobenius(&fab, &ab, k);
        cz_fp12_mul(&fa, &fa, &fb);
        assert_true(cz_fp12_eq(&fa, &fab));
    }
    cz_fp12_frobenius(&y, &y, 1);  /* a^(p^12) = a */
    assert_true(cz_fp12_eq(&y, &a));
}

static void test_fp12_pow(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(5); it++) {
        cz_fp12 a, x, y, z;
        cz_fp12_random(&a, &rng);
        uint64_t e1 = cz_rng_u64(&rng) >> 2, e2 = cz_rng_u64(&rng) >> 2, e3 = e1 + e2;
        cz_fp12_pow(&x, &a, &e1, 1);
        cz_fp12_pow(&y, &a, &e2, 1);
        cz_fp12_mul(&x, &x, &y);
        cz_fp12_pow(&z, &a, &e3, 1);
        assert_true(cz_fp12_eq(&x, &z));
        fp12_pow_ref(&y, &a, &e3, 1);
        assert_true(cz_fp12_eq(&y, &z));
        uint64_t e = 0;
        cz_fp12_pow(&x, &a, &e, 1);
        assert_true(cz_fp12_is_one(&x));
        e = 1;
        cz_fp12_pow(&x, &a, &e, 1);
        assert_true(cz_fp12_eq(&x, &a));
    }
}

/* g = a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup. */
static void cyclotomic_random(cz_fp12 *g)
{
    cz_fp12 a, t;
    cz_fp12_random(&a, &rng);
    cz_fp12_inv(&t, &a);
    cz_fp12_conj(&a, &a);
    cz_fp12_mul(&a, &a, &t);
    cz_fp12_frobenius(&t, &a, 2);
    cz_fp12_mul(g, &a, &t);
}

static void test_fp12_cyclotomic(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(5); it++) {
        cz_fp12 g, x, y;
        cyclotomic_random(&g);
        /* membership: g^(p^4 + 1) = g^(p^2), and conj(g) = 1/g */
        cz_fp12_frobenius(&x, &g, 4);
        cz_fp12_mul(&x, &x, &g);
        cz_fp12_frobenius(&y, &g, 2);
        assert_true(cz_fp12_eq(&x, &y));
        cz_fp12_conj(&x, &g);
        cz_fp12_inv(&y, &g);
        assert_true(cz_fp12_eq(&x, &y));
        /* Granger-Scott squaring */
        cz_fp12_cyclotomic_sqr(&x, &g);
        cz_fp12_sqr(&y, &g);
        assert_true(cz_fp12_eq(&x, &y));
        x = g;
        cz_fp12_cyclotomic_sqr(&x, &x);
        assert_true(cz_fp12_eq(&x, &y));
        /* g^|x| */
        const uint64_t e = CZ_PAIRING_X_ABS;
        cz_fp12_cyclotomic_exp_x(&x, &g);
        fp12_pow_ref(&y, &g, &e, 1);
        assert_true(cz_fp12_eq(&x, &y));
    }
    /* the degenerate input of cyclotomic_exp_x's compressed squarings:
       1 has B = C = 0 (the only cyclotomic element of the subfield
       Fp2[w^3]), cannot be decompressed and takes the fallback */
    {
        cz_fp12 one, x1;
        cz_fp12_one(&one);
        cz_fp12_cyclotomic_exp_x(&x1, &one);
        assert_true(cz_fp12_is_one(&x1));
    }
    /* and it is wrong off the subgroup (so the test above can fail) */
    cz_fp12 a, x, y;
    cz_fp12_random(&a, &rng);
    cz_fp12_cyclotomic_sqr(&x, &a);
    cz_fp12_sqr(&y, &a);
    assert_false(cz_fp12_eq(&x, &y));
}

/* Byte i*48.. holds coordinate i of c0.c0.c0, c0.c0.c1, c0.c1.c0, ...,
   c1.c2.c1 (the order of @noble/curves' Fp12.toBytes), big-endian plain. */
static void test_fp12_bytes(void **state)
{
    (void)state;
    cz_fp12 a;
    cz_fp *coord[12] = {
        &a.c0.c0.c0, &a.c0.c0.c1, &a.c0.c1.c0, &a.c0.c1.c1, &a.c0.c2.c0, &a.c0.c2.c1,
        &a.c1.c0.c0, &a.c1.c0.c1, &a.c1.c1.c0, &a.c1.c1.c1, &a.c1.c2.c0, &a.c1.c2.c1,
    };
    uint64_t vals[12];
    for (int i = 0; i < 12; i++) {
        vals[i] = cz_rng_u64(&rng);
        cz_fp_set_u64(coord[i], vals[i]);
    }
    uint8_t out[576];
    cz_fp12_to_bytes_be(out, &a);
    for (int i = 0; i < 12; i++) {
        for (int j = 0; j < 40; j++)
            assert_int_equal(out[i * 48 + j], 0);
        uint64_t v = 0;
        for (int j = 40; j < 48; j++)
            v = (v << 8) | out[i * 48 + j];
        assert_true(v == vals[i]);
    }
    /* full-size coordinates round-trip through cz_fp_from_bytes_be */
    cz_fp12_random(&a, &rng);
    cz_fp12_to_bytes_be(out, &a);
    for (int i = 0; i < 12; i++) {
        cz_fp t;
        assert_true(cz_fp_from_bytes_be(&t, out + 48 * i));
        assert_true(cz_fp_eq(&t, coord[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp6_ring),
        cmocka_unit_test(test_fp6_sparse),
        cmocka_unit_test(test_fp6_inv),
        cmocka_unit_test(test_fp6_frobenius),
        cmocka_unit_test(test_fp12_ring),
        cmocka_unit_test(test_fp12_structure),
        cmocka_unit_test(test_fp12_sparse),
        cmocka_unit_test(test_fp12_inv_conj),
        cmocka_unit_test(test_fp12_frobenius),
        cmocka_unit_test(test_fp12_pow),
        cmocka_unit_test(test_fp12_cyclotomic),
        cmocka_unit_test(test_fp12_bytes),
        cmocka_unit_test(test_lazy_products),
    };
    return cmocka_run_group_tests(tests, setup_rng, NULL);
}
