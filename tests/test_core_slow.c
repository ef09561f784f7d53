/* ctest: labels=slow timeout=900 */
/*
 * test_core_slow.c: the NTT and the MSM at benchmark sizes, where the
 * batches, queues, segmented reductions and thread splits run at full
 * scale: the batched-affine MSM against the independent XYZZ path (other
 * window, one thread) for G1 2^16, G2 2^13 and a 90%-bits G1 2^16 with
 * and without the split; the NTT round trip at 2^20 with Horner spot
 * checks. Seeded (CZ_TEST_SEED replays).
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "poly/ntt.h"

static cz_rng g_rng;
static cz_threadpool *g_pool;

/* distinct points cheaply: P_i = P_{i-1} + Q_(random of 16) */
static void chain_g1(cz_g1_affine *p, size_t n)
{
    cz_g1_affine g, q[16];
    cz_g1_jac gj, t, acc;
    cz_g1_generator(&g);
    cz_g1_jac_from_affine(&gj, &g);
    for (int i = 0; i < 16; i++) {
        uint64_t k[4] = {cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), 0, 0};
        cz_g1_jac_mul_var(&t, &gj, k, 4);
        cz_g1_jac_to_affine(&q[i], &t);
    }
    cz_g1_jac *tmp = malloc(n * sizeof *tmp);
    acc = gj;
    for (size_t i = 0; i < n; i++) {
        cz_g1_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&g_rng) % 16]);
        tmp[i] = acc;
    }
    cz_g1_jac_batch_to_affine(p, tmp, n);
    free(tmp);
}

static void chain_g2(cz_g2_affine *p, size_t n)
{
    cz_g2_affine g, q[16];
    cz_g2_jac gj, t, acc;
    cz_g2_generator(&g);
    cz_g2_jac_from_affine(&gj, &g);
    for (int i = 0; i < 16; i++) {
        uint64_t k[4] = {cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), 0, 0};
        cz_g2_jac_mul_var(&t, &gj, k, 4);
        cz_g2_jac_to_affine(&q[i], &t);
    }
    cz_g2_jac *tmp = malloc(n * sizeof *tmp);
    acc = gj;
    for (size_t i = 0; i < n; i++) {
        cz_g2_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&g_rng) % 16]);
        tmp[i] = acc;
    }
    cz_g2_jac_batch_to_affine(p, tmp, n);
    free(tmp);
}

static void test_g1_msm_2_16(void **state)
{
    (void)state;
    const size_t n = 1 << 16;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    chain_g1(p, n);
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&s[i], &g_rng);
    cz_g1_jac a, b;
    cz_msm_opts ref = {.window = 12, .algo = CZ_MSM_ALGO_XYZZ, .no_split = 1};
    cz_msm_opts fast = {.pool = g_pool};
    assert_int_equal(cz_g1_msm(&a, p, s, n, &ref), CZ_OK);
    assert_int_equal(cz_g1_msm(&b, p, s, n, &fast), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    /* 90% bits: split vs not split vs the XYZZ reference */
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cz_rng_u64(&g_rng) % 20;
        if (r < 9)
            cz_fr_zero(&s[i]);
        else if (r < 18)
            cz_fr_one(&s[i]);
    }
    assert_int_equal(cz_g1_msm(&a, p, s, n, &ref), CZ_OK);
    assert_int_equal(cz_g1_msm(&b, p, s, n, &fast), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    fast.no_split = 1;
    assert_int_equal(cz_g1_msm(&b, p, s, n, &fast), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    free(p);
    free(s);
}

static void test_g2_msm_2_13(void **state)
{
    (void)state;
    const size_t n = 1 << 13;
    cz_g2_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    chain_g2(p, n);
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&s[i], &g_rng);
    cz_g2_jac a, b;
    cz_msm_opts ref = {.window = 9, .algo = CZ_MSM_ALGO_XYZZ, .no_split = 1};
    cz_msm_opts fast = {.pool = g_pool};
    assert_int_equal(cz_g2_msm(&a, p, s, n, &ref), CZ_OK);
    assert_int_equal(cz_g2_msm(&b, p, s, n, &fast), CZ_OK);
    assert_true(cz_g2_jac_eq(&a, &b));
    free(p);
    free(s);
}

static void test_ntt_2_20(void **state)
{
    (void)state;
    const unsigned k = 20;
    const size_t n = (size_t)1 << k;
    cz_fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&a[i], &g_rng);
    cz_ntt_domain *d;
    assert_int_equal(cz_ntt_domain_create(&d, k, CZ_NTT_ROOT_7), CZ_OK);
    memcpy(b, a, n * sizeof *a);
    cz_ntt_forward(d, b, g_pool);
    for (int t = 0; t < 2; t++) {
        uint64_t i = cz_rng_u64(&g_rng) % n;
        cz_fr x, acc;
        cz_fr_pow(&x, &d->omega, &i, 1);
        cz_fr_zero(&acc);
        for (size_t j = n; j-- > 0;) {
            cz_fr_mul(&acc, &acc, &x);
            cz_fr_add(&acc, &acc, &a[j]);
        }
        assert_true(cz_fr_eq(&acc, &b[i]));
    }
    cz_ntt_inverse(d, b, g_pool);
    assert_memory_equal(a, b, n * sizeof *a);
    cz_ntt_domain_destroy(d);
    free(a);
    free(b);
}

int main(void)
{
    cz_test_rng(&g_rng);
    g_pool = cz_threadpool_create(2);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1_msm_2_16),
        cmocka_unit_test(test_g2_msm_2_13),
        cmocka_unit_test(test_ntt_2_20),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_threadpool_destroy(g_pool);
    return rc;
}
