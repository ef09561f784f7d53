/* ctest: labels=unit timeout=300 */
/*
 * test_ntt.c: the NTT against a naive O(n^2) DFT (both roots, every block
 * split so the column path runs on small sizes too), round trips, cosets,
 * linearity, the snarkjs odd-points helper against direct evaluation, the
 * Filecoin coset and H helpers, and spot checks of large transforms by
 * Horner evaluation, on 1, 2 and 4 threads.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "poly/ntt.h"

static cz_rng g_rng;

static void rand_vec(cz_fr *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&a[i], &g_rng);
}

/* sum_j a[j] x^j */
static void horner(cz_fr *out, const cz_fr *a, size_t n, const cz_fr *x)
{
    cz_fr acc;
    cz_fr_zero(&acc);
    for (size_t j = n; j-- > 0;) {
        cz_fr_mul(&acc, &acc, x);
        cz_fr_add(&acc, &acc, &a[j]);
    }
    *out = acc;
}

static void pow_u64(cz_fr *out, const cz_fr *a, uint64_t e) { cz_fr_pow(out, a, &e, 1); }

/* out[i] = sum_j a[j] (g w^i)^j */
static void naive_dft(cz_fr *out, const cz_fr *a, size_t n, const cz_fr *w, const cz_fr *g)
{
    cz_fr x;
    if (g)
        x = *g;
    else
        cz_fr_one(&x);
    for (size_t i = 0; i < n; i++) {
        horner(&out[i], a, n, &x);
        cz_fr_mul(&x, &x, w);
    }
}

static void assert_vec_eq(const cz_fr *a, const cz_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_fr_eq(&a[i], &b[i]))
            fail_msg("mismatch at index %zu of %zu", i, n);
}

static cz_threadpool *g_pools[3];

static void test_roots(void **state)
{
    (void)state;
    /* FORMATS.md: snarkjs's 2^32-th root is 5^((r-1)/2^32) =
       0x0212d79e...2f1f; the 2^28-th root is it squared 4 times. */
    cz_fr r32, one, minus_one, x;
    assert_true(cz_fr_from_hex(&r32, "0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"));
    cz_ntt_domain *d5, *d7;
    assert_int_equal(cz_ntt_domain_create(&d5, 28, CZ_NTT_ROOT_5), CZ_OK);
    assert_int_equal(cz_ntt_domain_create(&d7, 28, CZ_NTT_ROOT_7), CZ_OK);
    x = r32;
    for (int i = 0; i < 4; i++)
        cz_fr_sqr(&x, &x);
    assert_true(cz_fr_eq(&x, &d5->omega));
    cz_fr_sqr(&x, &d5->omega_2n);
    assert_true(cz_fr_eq(&x, &d5->omega));
    assert_false(cz_fr_eq(&d5->omega, &d7->omega));
    /* both have order exactly 2^28 */
    cz_fr_one(&one);
    cz_fr_neg(&minus_one, &one);
    for (int r = 0; r < 2; r++) {
        x = r ? d7->omega : d5->omega;
        for (int i = 0; i < 27; i++)
            cz_fr_sqr(&x, &x);
        assert_true(cz_fr_eq(&x, &minus_one));
        cz_fr t;
        cz_fr_mul(&t, r ? &d7->omega : &d5->omega, r ? &d7->omega_inv : &d5->omega_inv);
        assert_true(cz_fr_is_one(&t));
    }
    cz_ntt_domain_destroy(d5);
    cz_ntt_domain_destroy(d7);
    cz_ntt_domain *bad;
    assert_int_equal(cz_ntt_domain_create(&bad, 29, CZ_NTT_ROOT_5), CZ_ERR_ARG);
    assert_null(bad);
    assert_int_equal(cz_ntt_domain_create(&bad, 4, (cz_ntt_root)3), CZ_ERR_ARG);
    cz_ntt_domain_destroy(NULL);
}

static void test_naive_small(void **state)
{
    (void)state;
    cz_fr a[64], ref[64], b[64], g;
    cz_fr_random(&g, &g_rng);
    for (int root = 0; root < 2; root++) {
        cz_ntt_root rt = root ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5;
        for (unsigned k = 0; k <= 6; k++) {
            size_t n = (size_t)1 << k;
            for (unsigned blk = 0; blk <= k; blk++) {
                cz_ntt_domain *d;
                assert_int_equal(cz_ntt_domain_create_ex(&d, k, rt, blk), CZ_OK);
                for (int p = 0; p < 3; p++) {
                    rand_vec(a, n);
                    naive_dft(ref, a, n, &d->omega, NULL);
                    memcpy(b, a, n * sizeof *a);
                    cz_ntt_forward(d, b, g_pools[p]);
                    assert_vec_eq(b, ref, n);
                    cz_ntt_inverse(d, b, g_pools[p]);
                    assert_vec_eq(b, a, n);
                    /* inverse against the naive DFT with w^-1, / n */
                    naive_dft(ref, a, n, &d->omega_inv, NULL);
                    for (size_t i = 0; i < n; i++)
                        cz_fr_mul(&ref[i], &ref[i], &d->n_inv);
                    memcpy(b, a, n * sizeof *a);
                    cz_ntt_inverse(d, b, g_pools[p]);
                    assert_vec_eq(b, ref, n);
                    /* coset */
                    naive_dft(ref, a, n, &d->omega, &g);
                    memcpy(b, a, n * sizeof *a);
                    cz_ntt_coset_forward(d, b, &g, g_pools[p]);
                    assert_vec_eq(b, ref, n);
                    cz_ntt_coset_inverse(d, b, &g, g_pools[p]);
                    assert_vec_eq(b, a, n);
                    /* the allocation-free column path */
                    d->no_buffer = 1;
                    naive_dft(ref, a, n, &d->omega, NULL);
                    memcpy(b, a, n * sizeof *a);
                    cz_ntt_forward(d, b, g_pools[p]);
                    assert_vec_eq(b, ref, n);
                    d->no_buffer = 0;
                }
                cz_ntt_domain_destroy(d);
            }
        }
    }
}

static void test_roundtrip_2_16(void **state)
{
    (void)state;
    const unsigned k = 16;
    const size_t n = (size_t)1 << k;
    cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    cz_fr g;
    cz_fr_random(&g, &g_rng);
    rand_vec(a, n);
    for (int root = 0; root < 2; root++) {
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create(&d, k, root ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5), CZ_OK);
        memcpy(b, a, n * sizeof *a);
        cz_ntt_forward(d, b, g_pools[root + 1]);
        /* spot check outputs by Horner: A[i] = a(w^i) */
        for (int t = 0; t < 4; t++) {
            size_t i = t == 0 ? 0 : t == 1 ? n - 1 : (size_t)(cz_rng_u64(&g_rng) % n);
            cz_fr x, v;
            pow_u64(&x, &d->omega, i);
            horner(&v, a, n, &x);
            assert_true(cz_fr_eq(&v, &b[i]));
        }
        cz_ntt_inverse(d, b, g_pools[root + 1]);
        assert_vec_eq(b, a, n);
        cz_ntt_coset_forward(d, b, &g, g_pools[2]);
        size_t i = (size_t)(cz_rng_u64(&g_rng) % n);
        cz_fr x, v;
        pow_u64(&x, &d->omega, i);
        cz_fr_mul(&x, &x, &g);
        horner(&v, a, n, &x);
        assert_true(cz_fr_eq(&v, &b[i]));
        cz_ntt_coset_inverse(d, b, &g, g_pools[0]);
        assert_vec_eq(b, a, n);
        cz_ntt_domain_destroy(d);
    }
    free(a);
    free(b);
}

/* Threads must not change results: 1 vs 4 threads at 2^14, both paths. */
static void test_threads_agree(void **state)
{
    (void)state;
    const unsigned k = 14;
    const size_t n = (size_t)1 << k;
    cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    rand_vec(a, n);
    memcpy(b, a, n * sizeof *a);
    cz_ntt_domain *d;
    assert_int_equal(cz_ntt_domain_create(&d, k, CZ_NTT_ROOT_5), CZ_OK);
    cz_ntt_forward(d, a, NULL);
    cz_ntt_forward(d, b, g_pools[2]);
    assert_vec_eq(a, b, n);
    cz_ntt_domain_destroy(d);
    free(a);
    free(b);
}

static void test_linearity(void **state)
{
    (void)state;
    const unsigned k = 10;
    const size_t n = (size_t)1 << k;
    cz_fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    cz_fr s;
    cz_fr_random(&s, &g_rng);
    rand_vec(x, n);
    rand_vec(y, n);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&z[i], &x[i], &s);
        cz_fr_add(&z[i], &z[i], &y[i]);
    }
    cz_ntt_domain *d;
    assert_int_equal(cz_ntt_domain_create_ex(&d, k, CZ_NTT_ROOT_7, 4), CZ_OK);
    cz_ntt_forward(d, x, g_pools[1]);
    cz_ntt_forward(d, y, g_pools[1]);
    cz_ntt_forward(d, z, g_pools[1]);
    for (size_t i = 0; i < n; i++) {
        cz_fr t;
        cz_fr_mul(&t, &x[i], &s);
        cz_fr_add(&t, &t, &y[i]);
        assert_true(cz_fr_eq(&t, &z[i]));
    }
    cz_ntt_domain_destroy(d);
    free(x);
    free(y);
    free(z);
}

/* snarkjs: values at w^i -> values at w_2n^(2i+1), checked by interpolating
   naively and evaluating directly. */
static void test_odd_points(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 6; k++) {
        size_t n = (size_t)1 << k;
        cz_fr vals[64], coef[64], b[64];
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create_ex(&d, k, CZ_NTT_ROOT_5, k > 2 ? 2 : 0), CZ_OK);
        rand_vec(vals, n);
        naive_dft(coef, vals, n, &d->omega_inv, NULL);
        for (size_t i = 0; i < n; i++)
            cz_fr_mul(&coef[i], &coef[i], &d->n_inv);
        memcpy(b, vals, n * sizeof *b);
        cz_ntt_snarkjs_odd_points(d, b, g_pools[k % 3]);
        for (size_t i = 0; i < n; i++) {
            cz_fr x, v;
            pow_u64(&x, &d->omega_2n, 2 * i + 1);
            horner(&v, coef, n, &x);
            assert_true(cz_fr_eq(&v, &b[i]));
        }
        cz_ntt_domain_destroy(d);
    }
    /* 2^12 on the default split, a few points */
    const unsigned k = 12;
    const size_t n = (size_t)1 << k;
    cz_fr *coef = malloc(n * sizeof *coef), *b = malloc(n * sizeof *b);
    cz_ntt_domain *d;
    assert_int_equal(cz_ntt_domain_create(&d, k, CZ_NTT_ROOT_5), CZ_OK);
    rand_vec(coef, n);
    memcpy(b, coef, n * sizeof *b);
    cz_ntt_forward(d, b, g_pools[1]); /* values at w^i */
    cz_ntt_snarkjs_odd_points(d, b, g_pools[1]);
    for (int t = 0; t < 3; t++) {
        size_t i = (size_t)(cz_rng_u64(&g_rng) % n);
        cz_fr x, v;
        pow_u64(&x, &d->omega_2n, 2 * i + 1);
        horner(&v, coef, n, &x);
        assert_true(cz_fr_eq(&v, &b[i]));
    }
    cz_ntt_domain_destroy(d);
    free(coef);
    free(b);
}

/* Filecoin: coset at 7 w^i; h_finish recovers q from (q*Z) on the coset. */
static void test_filecoin(void **state)
{
    (void)state;
    for (unsigned k = 1; k <= 9; k += 4) {
        size_t n = (size_t)1 << k;
        cz_fr *q = calloc(n, sizeof *q), *v = malloc(n * sizeof *v), *h = malloc(n * sizeof *h);
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create_ex(&d, k, CZ_NTT_ROOT_7, k > 1 ? k / 2 : 0), CZ_OK);
        rand_vec(q, n - 1); /* degree <= n - 2, q[n-1] = 0 */
        /* coset: from values at w^i of q to values at 7 w^i */
        memcpy(v, q, n * sizeof *v);
        cz_ntt_forward(d, v, g_pools[1]);
        cz_ntt_filecoin_coset(d, v, g_pools[1]);
        cz_fr seven, x, e, zc, one;
        cz_fr_set_u64(&seven, 7);
        cz_fr_one(&one);
        x = seven;
        for (size_t i = 0; i < n; i++) {
            horner(&e, q, n, &x);
            assert_true(cz_fr_eq(&e, &v[i]));
            cz_fr_mul(&x, &x, &d->omega);
        }
        /* h values: q(7 w^i) * Z(7 w^i), Z(X) = X^n - 1 */
        pow_u64(&zc, &seven, n);
        cz_fr_sub(&zc, &zc, &one);
        for (size_t i = 0; i < n; i++)
            cz_fr_mul(&h[i], &v[i], &zc);
        cz_ntt_filecoin_h_finish(d, h, g_pools[2]);
        assert_vec_eq(h, q, n);
        cz_ntt_domain_destroy(d);
        free(q);
        free(v);
        free(h);
    }
}

int main(void)
{
    cz_test_rng(&g_rng);
    g_pools[0] = NULL;
    g_pools[1] = cz_threadpool_create(2);
    g_pools[2] = cz_threadpool_create(4);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots),
        cmocka_unit_test(test_naive_small),
        cmocka_unit_test(test_roundtrip_2_16),
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_linearity),
        cmocka_unit_test(test_odd_points),
        cmocka_unit_test(test_filecoin),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_threadpool_destroy(g_pools[1]);
    cz_threadpool_destroy(g_pools[2]);
    return rc;
}
