/* ctest: labels=unit timeout=600 */
/*
 * test_bn254_msm.c: the MSM over BN254 G1 and G2 (src/msm/msm_bn254*.c,
 * msm_impl.h compiled for BN254).
 *
 * MSM, written once over both groups (GROUP_TESTS below): against the naive
 * sum of scalar multiplications (the curve layer's jac_mul_var) for n = 0,
 * 1, 2, 3, 17, 100, 1000 and 3000, with special scalars (0, 1, r - 1,
 * small), plain scalars (r, r + 1, 2^256 - 1, values >= r), points at
 * infinity, one point repeated with one scalar (a hot bucket: the queue and
 * the XYZZ overflow buckets) and opposite points (cancelling buckets, the
 * batched doubling), all-0/1 scalars (the split path) and the bitmap sum;
 * across windows (1..18, below and above the scalar size), algorithms (XYZZ
 * / batched affine), thread counts (1, 2, 4) and, in G1, with and without
 * the GLV split (signed halves: every sign combination appears among random
 * scalars). Known answer: tests/vectors/bn254_msm.json, ffjavascript's
 * multiExpAffine (the MSM snarkjs runs) over the same points and scalars,
 * written by tools/gen_bn254_msm_vectors.mjs (provenance in the file).
 *
 * Seeded (replay with CZ_TEST_SEED); CZ_TEST_SCALE < 1 leaves out the
 * largest sizes.
 */
#include "common/test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/bn254_curve.h"
#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "msm/msm_bn254.h"

static cz_rng rng;
static cz_threadpool *g_pools[3];
static uint64_t R_LIMBS[4];

/* ---- scalars (shared by both groups) ---- */

/* Montgomery scalars with a mix of specials when `special`. */
static void rand_scalars(cz_bn254_fr *s, size_t n, int special)
{
    for (size_t i = 0; i < n; i++) {
        cz_bn254_fr_random(&s[i], &rng);
        if (!special)
            continue;
        switch (cz_rng_u64(&rng) % 8) {
        case 0: cz_bn254_fr_zero(&s[i]); break;
        case 1: cz_bn254_fr_one(&s[i]); break;
        case 2: cz_bn254_fr_one(&s[i]); cz_bn254_fr_neg(&s[i], &s[i]); break; /* r - 1 */
        case 3: cz_bn254_fr_set_u64(&s[i], cz_rng_u64(&rng) % 5); break;
        default: break;
        }
    }
}

/* Plain 256-bit scalars, many >= r (2^256 > 5r). */
static void rand_plain(cz_bn254_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++)
            s[i].l[j] = cz_rng_u64(&rng);
        switch (cz_rng_u64(&rng) % 6) {
        case 0: memcpy(s[i].l, R_LIMBS, 32); break;                  /* r */
        case 1: memcpy(s[i].l, R_LIMBS, 32); s[i].l[0] -= 1; break;   /* r - 1 */
        case 2: memcpy(s[i].l, R_LIMBS, 32); s[i].l[0] += 1; break;   /* r + 1 */
        case 3: memset(s[i].l, 0xff, 32); break;                      /* 2^256 - 1 */
        case 4: memset(s[i].l, 0, 32); s[i].l[0] = cz_rng_u64(&rng) % 3; break;
        default: break;
        }
    }
}

/* The plain limbs of scalar i in either form (plain: as given; k P is
   (k mod r) P, so jac_mul_var over the unreduced value is the reference). */
static void limbs_of(uint64_t k[4], const cz_bn254_fr *s, int plain)
{
    if (plain)
        memcpy(k, s->l, 32);
    else
        cz_bn254_fr_to_limbs(k, s);
}

/* ---- the MSM tests, written once over a group ---- */

#define GROUP_TESTS(G, AFF, JAC)                                                                   \
    static void G##_rand_points(AFF *p, size_t n)                                                 \
    {                                                                                              \
        AFF g;                                                                                     \
        JAC gj, t;                                                                                 \
        cz_bn254_##G##_generator(&g);                                                              \
        cz_bn254_##G##_jac_from_affine(&gj, &g);                                                   \
        for (size_t i = 0; i < n; i++) {                                                           \
            uint64_t k[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), 0};             \
            cz_bn254_##G##_jac_mul_var(&t, &gj, k, 4);                                             \
            cz_bn254_##G##_jac_to_affine(&p[i], &t);                                               \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void G##_naive(JAC *out, const AFF *p, const cz_bn254_fr *s, size_t n, int plain)       \
    {                                                                                              \
        JAC acc, pj, t;                                                                            \
        cz_bn254_##G##_jac_infinity(&acc);                                                         \
        for (size_t i = 0; i < n; i++) {                                                           \
            uint64_t k[4];                                                                         \
            limbs_of(k, &s[i], plain);                                                             \
            cz_bn254_##G##_jac_from_affine(&pj, &p[i]);                                            \
            cz_bn254_##G##_jac_mul_var(&t, &pj, k, 4);                                             \
            cz_bn254_##G##_jac_add(&acc, &acc, &t);                                                \
        }                                                                                          \
        *out = acc;                                                                                \
    }                                                                                              \
                                                                                                   \
    static void G##_check(const AFF *p, const cz_bn254_fr *s, size_t n, int plain, const JAC *ref, \
                          cz_threadpool *pool, unsigned window, cz_msm_algo algo, int no_split,    \
                          int no_glv, const char *what)                                            \
    {                                                                                              \
        cz_msm_opts o = {.pool = pool,                                                             \
                         .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT,                 \
                         .window = window,                                                         \
                         .algo = algo,                                                             \
                         .no_split = no_split,                                                     \
                         .no_glv = no_glv};                                                        \
        JAC got;                                                                                   \
        assert_int_equal(cz_bn254_##G##_msm(&got, p, s, n, &o), CZ_OK);                            \
        if (!cz_bn254_##G##_jac_eq(&got, ref))                                                     \
            fail_msg(#G " MSM mismatch (%s): n=%zu plain=%d threads=%d window=%u algo=%d "         \
                        "no_split=%d no_glv=%d",                                                   \
                     what, n, plain, cz_threadpool_size(pool), window, (int)algo, no_split,        \
                     no_glv);                                                                      \
    }                                                                                              \
                                                                                                   \
    /* every size, both scalar forms, every pool; windows and algorithms */                        \
    static void G##_sizes(size_t max_n, int glv)                                                   \
    {                                                                                              \
        const size_t sizes[] = {0, 1, 2, 3, 17, 100, 1000, 3000};                                  \
        const unsigned windows[] = {1, 2, 5, 8, 11, 13, 16, 18};                                   \
        AFF *p = malloc(max_n * sizeof *p);                                                        \
        cz_bn254_fr *s = malloc(max_n * sizeof *s);                                                \
        assert_non_null(p);                                                                        \
        assert_non_null(s);                                                                        \
        G##_rand_points(p, max_n);                                                                 \
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes && sizes[si] <= max_n; si++) {       \
            size_t n = sizes[si];                                                                  \
            for (int plain = 0; plain < 2; plain++) {                                              \
                if (plain)                                                                         \
                    rand_plain(s, n);                                                              \
                else                                                                               \
                    rand_scalars(s, n, 1);                                                         \
                JAC ref;                                                                           \
                G##_naive(&ref, p, s, n, plain);                                                   \
                for (int t = 0; t < 3; t++) {                                                      \
                    G##_check(p, s, n, plain, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0, 0, "auto"); \
                    G##_check(p, s, n, plain, &ref, g_pools[t], 0, CZ_MSM_ALGO_AFFINE, 1, !glv,    \
                              "affine");                                                           \
                }                                                                                  \
                for (size_t wi = 0; wi < sizeof windows / sizeof *windows; wi++) {                 \
                    if (n > 1000 && wi % 3)                                                        \
                        continue;                                                                  \
                    G##_check(p, s, n, plain, &ref, g_pools[wi % 3], windows[wi],                  \
                              CZ_MSM_ALGO_XYZZ, 1, 1, "xyzz");                                     \
                    G##_check(p, s, n, plain, &ref, g_pools[(wi + 1) % 3], windows[wi],            \
                              CZ_MSM_ALGO_AFFINE, 0, 0, "affine, glv where G1");                   \
                    if (glv)                                                                       \
                        G##_check(p, s, n, plain, &ref, g_pools[(wi + 2) % 3], windows[wi],        \
                                  CZ_MSM_ALGO_XYZZ, 1, 0, "xyzz, glv");                            \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        free(p);                                                                                   \
        free(s);                                                                                   \
    }                                                                                              \
                                                                                                   \
    /* infinity, repeated and opposite points, all-0/1 scalars, bitmaps */                         \
    static void G##_specials(size_t n)                                                             \
    {                                                                                              \
        AFF *p = malloc(n * sizeof *p);                                                            \
        cz_bn254_fr *s = malloc(n * sizeof *s);                                                    \
        uint64_t *bm = calloc((n + 63) / 64, 8);                                                   \
        assert_true(p && s && bm);                                                                 \
        JAC ref;                                                                                   \
        /* (a) points at infinity among random ones */                                             \
        G##_rand_points(p, n);                                                                     \
        rand_scalars(s, n, 1);                                                                     \
        for (size_t i = 0; i < n; i += 7)                                                          \
            cz_bn254_##G##_affine_infinity(&p[i]);                                                 \
        G##_naive(&ref, p, s, n, 0);                                                               \
        for (int t = 0; t < 3; t++) {                                                              \
            G##_check(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0, 0, "infinity");        \
            G##_check(p, s, n, 0, &ref, g_pools[t], 12, CZ_MSM_ALGO_AFFINE, 0, 0, "infinity");     \
        }                                                                                          \
        /* (b) one point, one scalar, n times: one hot bucket per window */                        \
        G##_rand_points(p, 1);                                                                     \
        rand_scalars(s, 1, 0);                                                                     \
        for (size_t i = 1; i < n; i++) {                                                           \
            p[i] = p[0];                                                                           \
            s[i] = s[0];                                                                           \
        }                                                                                          \
        G##_naive(&ref, p, s, n, 0);                                                               \
        for (int t = 0; t < 3; t++) {                                                              \
            G##_check(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0, 0, "repeated");        \
            G##_check(p, s, n, 0, &ref, g_pools[t], 10, CZ_MSM_ALGO_AFFINE, 0, 1, "repeated");     \
        }                                                                                          \
        /* (c) pairs P, -P (and P, P) with one scalar: cancellations and doublings in the batch */ \
        G##_rand_points(p, n / 2);                                                                 \
        for (size_t i = n / 2; i < n; i++) {                                                       \
            p[i] = p[i - n / 2];                                                                   \
            if (i % 2)                                                                             \
                cz_bn254_##G##_affine_neg(&p[i], &p[i]);                                           \
        }                                                                                          \
        rand_scalars(s, n / 2, 0);                                                                 \
        for (size_t i = n / 2; i < n; i++)                                                         \
            s[i] = s[i - n / 2];                                                                   \
        G##_naive(&ref, p, s, n, 0);                                                               \
        for (int t = 0; t < 3; t++) {                                                              \
            G##_check(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0, 0, "opposite");        \
            G##_check(p, s, n, 0, &ref, g_pools[t], 9, CZ_MSM_ALGO_AFFINE, 1, 0, "opposite");      \
            G##_check(p, s, n, 0, &ref, g_pools[t], 9, CZ_MSM_ALGO_XYZZ, 1, 1, "opposite");        \
        }                                                                                          \
        /* (d) scalars 0 and 1 only (the split path's tree of additions), with repeats */          \
        G##_rand_points(p, n);                                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            if (i % 5 == 4)                                                                        \
                p[i] = p[i - 1];                                                                   \
            if (cz_rng_u64(&rng) % 3)                                                              \
                cz_bn254_fr_one(&s[i]);                                                            \
            else                                                                                   \
                cz_bn254_fr_zero(&s[i]);                                                           \
        }                                                                                          \
        G##_naive(&ref, p, s, n, 0);                                                               \
        for (int t = 0; t < 3; t++) {                                                              \
            G##_check(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0, 0, "bits");            \
            G##_check(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 1, 0, "bits, no split");  \
        }                                                                                          \
        /* (e) the bitmap sum over the same bits */                                                \
        for (size_t i = 0; i < n; i++)                                                             \
            if (cz_bn254_fr_is_one(&s[i]))                                                         \
                bm[i / 64] |= (uint64_t)1 << (i % 64);                                             \
        for (int t = 0; t < 3; t++) {                                                              \
            JAC got;                                                                               \
            assert_int_equal(cz_bn254_##G##_sum_bitmap(&got, p, bm, n, g_pools[t]), CZ_OK);        \
            if (!cz_bn254_##G##_jac_eq(&got, &ref))                                                \
                fail_msg(#G " bitmap sum mismatch, threads %d", cz_threadpool_size(g_pools[t]));   \
        }                                                                                          \
        /* (f) bad arguments: a window too large, n too large */                                   \
        {                                                                                          \
            JAC got;                                                                               \
            cz_msm_opts o = {.window = CZ_MSM_MAX_WINDOW + 1};                                     \
            assert_int_equal(cz_bn254_##G##_msm(&got, p, s, 1, &o), CZ_ERR_ARG);                   \
            assert_int_equal(cz_bn254_##G##_msm(&got, p, s, (size_t)1 << 31, NULL), CZ_ERR_ARG);   \
        }                                                                                          \
        free(p);                                                                                   \
        free(s);                                                                                   \
        free(bm);                                                                                  \
    }

GROUP_TESTS(g1, cz_bn254_g1_affine, cz_bn254_g1_jac)
GROUP_TESTS(g2, cz_bn254_g2_affine, cz_bn254_g2_jac)

static void test_g1_msm(void **state)
{
    (void)state;
    g1_sizes(cz_test_full() ? 3000 : 1000, 1);
}

static void test_g2_msm(void **state)
{
    (void)state;
    g2_sizes(cz_test_full() ? 1000 : 100, 0);
}

static void test_msm_specials(void **state)
{
    (void)state;
    size_t n = cz_test_full() ? 2000 : 600;
    g1_specials(n);
    g2_specials(n / 2);
}

/* One point, every window, the digits of r - 1 and of random scalars. */
static void test_msm_digits(void **state)
{
    (void)state;
    cz_bn254_g1_affine ga;
    cz_bn254_g1_jac gj, ref, got;
    cz_bn254_g1_generator(&ga);
    cz_bn254_g1_jac_from_affine(&gj, &ga);
    for (int it = 0; it < 2 * CZ_MSM_MAX_WINDOW; it++) {
        cz_bn254_fr k;
        uint64_t l[4];
        cz_bn254_fr_random(&k, &rng);
        if (it < CZ_MSM_MAX_WINDOW) {
            cz_bn254_fr_one(&k);
            cz_bn254_fr_neg(&k, &k);
        }
        cz_bn254_fr_to_limbs(l, &k);
        cz_bn254_g1_jac_mul_var(&ref, &gj, l, 4);
        unsigned c = 1 + (unsigned)(it % CZ_MSM_MAX_WINDOW);
        for (int glv = 0; glv < 2; glv++) {
            cz_msm_opts o = {.window = c, .algo = CZ_MSM_ALGO_XYZZ, .no_split = 1, .no_glv = !glv};
            assert_int_equal(cz_bn254_g1_msm(&got, &ga, &k, 1, &o), CZ_OK);
            if (!cz_bn254_g1_jac_eq(&got, &ref))
                fail_msg("window %u glv %d", c, glv);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    cz_bn254_fr m1;
    cz_bn254_fr_one(&m1);
    cz_bn254_fr_neg(&m1, &m1);
    cz_bn254_fr_to_limbs(R_LIMBS, &m1);
    R_LIMBS[0] += 1; /* r = (r - 1) + 1; r - 1 is even, no carry */
    const int th[3] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        g_pools[i] = th[i] == 1 ? NULL : cz_threadpool_create(th[i]);
        if (th[i] != 1 && !g_pools[i])
            return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++)
        cz_threadpool_destroy(g_pools[i]);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msm_digits),
        cmocka_unit_test(test_g1_msm),
        cmocka_unit_test(test_g2_msm),
        cmocka_unit_test(test_msm_specials),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
