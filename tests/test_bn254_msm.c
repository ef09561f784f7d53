/* ctest: labels=unit timeout=600 */
/*
 * test_bn254_msm.c: the MSM over BN254 G1 and G2 (src/msm/msm_bn254*.c,
 * msm_impl.h compiled for BN254) and the NTT over BN254's Fr
 * (src/poly/ntt_bn254.c, ntt_impl.h compiled for BN254).
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
 * the GLV split (signed halves on +-P and +-phi(P)).
 *
 * NTT: every domain's roots (2^0..2^28) against ffjavascript's Fr.w[k]
 * (snarkjs's roots, 5^((r-1)/2^28)) and the odd-point shift (w[k+1], and
 * Fr.shift = 25 at 2^28); forward, inverse, coset forward and inverse
 * against a naive DFT for n = 1..64, and cz_bn254_ntt_snarkjs_odd_points
 * against the polynomial evaluated at omega_2n w^i; forward/inverse round
 * trips up to 2^14 with every block split, the allocation-free column path
 * and 1, 2, 4 threads.
 *
 * The eight-lane IFMA additions (where built) against the scalar ones of
 * the same MSM (test_msm_x8_vs_scalar: G1 to 2^13, G2 to 2^12, windows
 * 9..16, infinity, repeated, opposite and doubled points), and the scalar
 * path alone against the naive sum (the default runs take the lanes).
 *
 * Known answers: tests/vectors/bn254_msm.json, written by
 * tools/gen_bn254_msm_vectors.mjs with ffjavascript, snarkjs's arithmetic
 * library (provenance in the file): G1 (70 points) and G2 (20 points)
 * MSMs by its multiExpAffine, the MSM snarkjs's prover runs, with an
 * infinity, a repeated and a cancelling point and scalars 0, 1, r - 1;
 * Fr.fft and snarkjs's H step (ifft, batchApplyKey by w[k+1], fft) for
 * n = 2..32.
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
#include "field/bn254_fp_x8.h"
#include "msm/msm_bn254.h"
#include "msm/msm_bn254_internal.h"
#include "poly/ntt_bn254.h"

static cz_rng rng;
static cz_threadpool *g_pools[3];
static uint64_t R_LIMBS[4];
static json_t *g_root;

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

/* The eight-lane IFMA additions (field/bn254_fp_x8.h, taken by batches of
   64 or more) against the scalar ones of the same MSM
   (cz_bn254_msm_x8_on_ = 0): n up to 2^13 with windows 9..16 (batches of
   64..2048 pairs) and the bucket reductions, 1/2/4 threads, points mixed
   with infinity, repeats and opposites (the doublings and cancellations in
   the lanes), both groups, G1 with and without GLV; and n = 300 against
   the naive sum with the lanes off. */
#define X8_TESTS(G, AFF, JAC)                                                                      \
    static void G##_x8_vs_scalar(size_t n)                                                        \
    {                                                                                              \
        AFF *p = malloc(n * sizeof *p);                                                            \
        cz_bn254_fr *s = malloc(n * sizeof *s);                                                    \
        assert_true(p && s);                                                                       \
        G##_rand_points(p, n / 4);                                                                 \
        for (size_t i = n / 4; i < n; i++) {                                                       \
            switch (i % 8) {                                                                       \
            case 0: cz_bn254_##G##_affine_infinity(&p[i]); break;                                  \
            case 1: p[i] = p[i % (n / 4)]; break;                                                  \
            case 2: cz_bn254_##G##_affine_neg(&p[i], &p[i % (n / 4)]); break;                      \
            default: G##_rand_points(&p[i], 1);                                                    \
            }                                                                                      \
        }                                                                                          \
        rand_scalars(s, n, 1);                                                                     \
        for (size_t i = n / 4; i < n; i += 8)                                                      \
            s[i + 1 < n ? i + 1 : i] = s[(i + 1) % (n / 4)]; /* P + P in one bucket */              \
        const unsigned windows[] = {0, 9, 11, 13, 16};                                             \
        for (size_t wi = 0; wi < sizeof windows / sizeof *windows; wi++)                           \
            for (int glv = 0; glv < 2; glv++) {                                                    \
                cz_msm_opts o = {.pool = g_pools[(wi + (size_t)glv) % 3],                          \
                                 .window = windows[wi],                                            \
                                 .algo = wi ? CZ_MSM_ALGO_AFFINE : CZ_MSM_ALGO_AUTO,               \
                                 .no_glv = !glv};                                                  \
                JAC on, off;                                                                       \
                cz_bn254_msm_x8_on_ = 0;                                                           \
                assert_int_equal(cz_bn254_##G##_msm(&off, p, s, n, &o), CZ_OK);                    \
                cz_bn254_msm_x8_on_ = 1;                                                           \
                assert_int_equal(cz_bn254_##G##_msm(&on, p, s, n, &o), CZ_OK);                     \
                if (!cz_bn254_##G##_jac_eq(&on, &off))                                             \
                    fail_msg(#G " MSM: x8 and scalar differ, n=%zu window=%u glv=%d", n,            \
                             windows[wi], glv);                                                    \
            }                                                                                      \
        free(p);                                                                                   \
        free(s);                                                                                   \
    }
X8_TESTS(g1, cz_bn254_g1_affine, cz_bn254_g1_jac)
X8_TESTS(g2, cz_bn254_g2_affine, cz_bn254_g2_jac)

static void test_msm_x8_vs_scalar(void **state)
{
    (void)state;
    printf("# BN254 MSM eight-lane additions: %s\n",
           CZ_BN254_FP_HAVE_X8 ? "ifma" : "not built (both runs scalar)");
    g1_x8_vs_scalar(cz_test_full() ? 8192 : 2048);
    g2_x8_vs_scalar(cz_test_full() ? 4096 : 1024);
    /* the scalar path on its own against the naive sum */
    cz_bn254_msm_x8_on_ = 0;
    g1_sizes(300, 1);
    g2_sizes(100, 0);
    g1_specials(600);
    g2_specials(300);
    cz_bn254_msm_x8_on_ = 1;
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

/* ---- NTT ---- */

typedef cz_bn254_fr fr;

static void fr_pow(fr *out, const fr *a, uint64_t e) { cz_bn254_fr_pow(out, a, &e, 1); }

/* out[i] = sum_j a[j] (g x^i)^j, i < n (g NULL: 1) */
static void naive_eval(fr *out, const fr *a, size_t n, const fr *x, const fr *g)
{
    fr xi;
    cz_bn254_fr_one(&xi);
    if (g)
        xi = *g;
    for (size_t i = 0; i < n; i++) {
        fr acc, p;
        cz_bn254_fr_zero(&acc);
        cz_bn254_fr_one(&p);
        for (size_t j = 0; j < n; j++) {
            fr t;
            cz_bn254_fr_mul(&t, &a[j], &p);
            cz_bn254_fr_add(&acc, &acc, &t);
            cz_bn254_fr_mul(&p, &p, &xi);
        }
        out[i] = acc;
        cz_bn254_fr_mul(&xi, &xi, x);
    }
}

static void check_vec(const fr *got, const fr *want, size_t n, const char *what, unsigned k)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_bn254_fr_eq(&got[i], &want[i]))
            fail_msg("%s: n = 2^%u, element %zu differs", what, k, i);
}

static json_t *jget(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        fail_msg("vector file: missing key '%s'", key);
    return v;
}

static void fr_of_hex(fr *out, const json_t *v)
{
    if (!json_is_string(v) || !cz_bn254_fr_from_hex(out, json_string_value(v)))
        fail_msg("vector file: bad Fr element");
}

/* Roots of every domain against ffjavascript's Fr.w[k]; bad arguments. */
static void test_ntt_roots(void **state)
{
    (void)state;
    const json_t *nt = jget(g_root, "ntt");
    assert_int_equal(json_integer_value(jget(nt, "s")), CZ_BN254_FR_TWO_ADICITY);
    const json_t *w = jget(nt, "w");
    assert_int_equal(json_array_size(w), CZ_BN254_FR_TWO_ADICITY + 1);
    fr shift, one, t;
    fr_of_hex(&shift, jget(nt, "shift"));
    cz_bn254_fr_one(&one);
    for (unsigned k = 0; k <= CZ_BN254_NTT_MAX_LOG; k++) {
        cz_bn254_ntt_domain *d;
        assert_int_equal(cz_bn254_ntt_domain_create(&d, k, CZ_NTT_ROOT_5), CZ_OK);
        fr wk, w2;
        fr_of_hex(&wk, json_array_get(w, k));
        if (!cz_bn254_fr_eq(&d->omega, &wk))
            fail_msg("omega of 2^%u is not ffjavascript's Fr.w[%u]", k, k);
        if (k < CZ_BN254_FR_TWO_ADICITY)
            fr_of_hex(&w2, json_array_get(w, k + 1));
        else
            w2 = shift;
        if (!cz_bn254_fr_eq(&d->omega_2n, &w2))
            fail_msg("omega_2n of 2^%u is not snarkjs's inc", k);
        /* omega has order exactly n; omega * omega_inv = 1; n * n_inv = 1 */
        t = d->omega;
        for (unsigned i = 0; i < k; i++)
            cz_bn254_fr_sqr(&t, &t);
        assert_true(cz_bn254_fr_eq(&t, &one));
        if (k) {
            t = d->omega;
            for (unsigned i = 0; i + 1 < k; i++)
                cz_bn254_fr_sqr(&t, &t);
            assert_false(cz_bn254_fr_eq(&t, &one));
        }
        cz_bn254_fr_mul(&t, &d->omega, &d->omega_inv);
        assert_true(cz_bn254_fr_eq(&t, &one));
        fr nn;
        cz_bn254_fr_set_u64(&nn, (uint64_t)d->n);
        cz_bn254_fr_mul(&t, &nn, &d->n_inv);
        assert_true(cz_bn254_fr_eq(&t, &one));
        cz_bn254_ntt_domain_destroy(d);
    }
    cz_bn254_ntt_domain *d = (void *)1;
    assert_int_equal(cz_bn254_ntt_domain_create(&d, 29, CZ_NTT_ROOT_5), CZ_ERR_ARG);
    assert_null(d);
    assert_int_equal(cz_bn254_ntt_domain_create(&d, 4, CZ_NTT_ROOT_7), CZ_ERR_ARG);
    assert_int_equal(cz_bn254_ntt_domain_create_ex(&d, 4, CZ_NTT_ROOT_5, 5), CZ_ERR_ARG);
}

/* Small sizes against the naive DFT: forward, inverse, cosets, odd points. */
static void test_ntt_naive(void **state)
{
    (void)state;
    for (unsigned k = 0; k <= 6; k++) {
        size_t n = (size_t)1 << k;
        fr a[64], b[64], want[64], g, gi, coef[64];
        for (unsigned blk = 0; blk <= k; blk++) {
            cz_bn254_ntt_domain *d;
            assert_int_equal(cz_bn254_ntt_domain_create_ex(&d, k, CZ_NTT_ROOT_5, blk), CZ_OK);
            for (size_t i = 0; i < n; i++)
                cz_bn254_fr_random(&a[i], &rng);
            cz_threadpool *pool = g_pools[blk % 3];
            /* forward */
            memcpy(b, a, n * sizeof *a);
            naive_eval(want, a, n, &d->omega, NULL);
            cz_bn254_ntt_forward(d, b, pool);
            check_vec(b, want, n, "forward", k);
            /* inverse: a = (1/n) sum A w^-ij */
            cz_bn254_ntt_inverse(d, b, pool);
            check_vec(b, a, n, "inverse of forward", k);
            naive_eval(want, a, n, &d->omega_inv, NULL);
            for (size_t i = 0; i < n; i++)
                cz_bn254_fr_mul(&want[i], &want[i], &d->n_inv);
            memcpy(b, a, n * sizeof *a);
            cz_bn254_ntt_inverse(d, b, pool);
            check_vec(b, want, n, "inverse", k);
            /* coset forward / inverse at g w^i */
            cz_bn254_fr_random(&g, &rng);
            naive_eval(want, a, n, &d->omega, &g);
            memcpy(b, a, n * sizeof *a);
            cz_bn254_ntt_coset_forward(d, b, &g, pool);
            check_vec(b, want, n, "coset forward", k);
            cz_bn254_ntt_coset_inverse(d, b, &g, pool);
            check_vec(b, a, n, "coset inverse", k);
            (void)gi;
            /* odd points: values at w^i -> values at omega_2n w^i */
            memcpy(coef, a, n * sizeof *a);
            cz_bn254_ntt_inverse(d, coef, pool);       /* the polynomial */
            naive_eval(want, coef, n, &d->omega, &d->omega_2n);
            memcpy(b, a, n * sizeof *a);
            cz_bn254_ntt_snarkjs_odd_points(d, b, pool);
            check_vec(b, want, n, "odd points", k);
            /* scale_powers */
            memcpy(b, a, n * sizeof *a);
            cz_bn254_fr_scale_powers(b, n, &g, &d->omega, pool);
            for (size_t i = 0; i < n; i++) {
                fr p;
                fr_pow(&p, &d->omega, i);
                cz_bn254_fr_mul(&p, &p, &g);
                cz_bn254_fr_mul(&want[i], &a[i], &p);
            }
            check_vec(b, want, n, "scale_powers", k);
            cz_bn254_ntt_domain_destroy(d);
        }
    }
}

/* Round trips on larger sizes: every block split, the column path without
   buffers, 1/2/4 threads; and forward's linearity against one naive value. */
static void test_ntt_round_trip(void **state)
{
    (void)state;
    unsigned kmax = cz_test_full() ? 14 : 11;
    size_t nmax = (size_t)1 << kmax;
    fr *a = malloc(nmax * sizeof *a), *b = malloc(nmax * sizeof *b);
    assert_true(a && b);
    for (unsigned k = 7; k <= kmax; k++) {
        size_t n = (size_t)1 << k;
        for (size_t i = 0; i < n; i++)
            cz_bn254_fr_random(&a[i], &rng);
        const unsigned blks[] = {0, 1, k / 2, k};
        for (int bi = 0; bi < 4; bi++) {
            for (int nobuf = 0; nobuf < 2; nobuf++) {
                cz_bn254_ntt_domain *d;
                assert_int_equal(cz_bn254_ntt_domain_create_ex(&d, k, CZ_NTT_ROOT_5, blks[bi]), CZ_OK);
                d->no_buffer = nobuf;
                cz_threadpool *pool = g_pools[(bi + nobuf) % 3];
                memcpy(b, a, n * sizeof *a);
                cz_bn254_ntt_forward(d, b, pool);
                /* A[i] for one i, naively: sum_j a[j] w^(ij) */
                size_t i = (size_t)(cz_rng_u64(&rng) % n);
                fr x, p, acc, t;
                fr_pow(&x, &d->omega, i);
                cz_bn254_fr_one(&p);
                cz_bn254_fr_zero(&acc);
                for (size_t j = 0; j < n; j++) {
                    cz_bn254_fr_mul(&t, &a[j], &p);
                    cz_bn254_fr_add(&acc, &acc, &t);
                    cz_bn254_fr_mul(&p, &p, &x);
                }
                if (!cz_bn254_fr_eq(&b[i], &acc))
                    fail_msg("forward 2^%u blk %u nobuf %d: A[%zu] differs", k, blks[bi], nobuf, i);
                cz_bn254_ntt_inverse(d, b, pool);
                check_vec(b, a, n, "round trip", k);
                cz_bn254_ntt_domain_destroy(d);
            }
        }
    }
    free(a);
    free(b);
}

/* ffjavascript's Fr.fft and snarkjs's H step. */
static void test_ntt_kat(void **state)
{
    (void)state;
    const json_t *cases = jget(jget(g_root, "ntt"), "cases");
    size_t ci;
    const json_t *c;
    assert_true(json_array_size(cases) >= 5);
    json_array_foreach(cases, ci, c) {
        unsigned k = (unsigned)json_integer_value(jget(c, "log_n"));
        size_t n = (size_t)1 << k;
        assert_true(k <= 6);
        fr a[64], b[64], want[64];
        cz_bn254_ntt_domain *d;
        assert_int_equal(cz_bn254_ntt_domain_create(&d, k, CZ_NTT_ROOT_5), CZ_OK);
        for (size_t i = 0; i < n; i++)
            fr_of_hex(&a[i], json_array_get(jget(c, "input"), i));
        memcpy(b, a, n * sizeof *a);
        cz_bn254_ntt_forward(d, b, NULL);
        for (size_t i = 0; i < n; i++)
            fr_of_hex(&want[i], json_array_get(jget(c, "forward"), i));
        check_vec(b, want, n, "ffjavascript Fr.fft", k);
        memcpy(b, a, n * sizeof *a);
        cz_bn254_ntt_snarkjs_odd_points(d, b, g_pools[1]);
        for (size_t i = 0; i < n; i++)
            fr_of_hex(&want[i], json_array_get(jget(c, "odd_points"), i));
        check_vec(b, want, n, "snarkjs H step", k);
        cz_bn254_ntt_domain_destroy(d);
    }
}

/* ffjavascript's multiExpAffine, G1 and G2, scalars in both forms. */
#define MSM_KAT(G, AFF, JAC, PB)                                                                   \
    static void G##_msm_kat(void)                                                                  \
    {                                                                                              \
        const json_t *v = jget(g_root, "msm_" #G);                                                 \
        size_t n = (size_t)json_integer_value(jget(v, "n"));                                       \
        assert_true(n > 8 && n <= 256);                                                            \
        AFF *p = malloc(n * sizeof *p);                                                            \
        cz_bn254_fr *sp = malloc(n * sizeof *sp), *sm = malloc(n * sizeof *sm);                    \
        assert_true(p && sp && sm);                                                                \
        uint8_t buf[PB];                                                                           \
        for (size_t i = 0; i < n; i++) {                                                           \
            const char *h = json_string_value(json_array_get(jget(v, "points"), i));               \
            assert_int_equal(cz_test_unhex(buf, PB, h), PB);                                       \
            assert_int_equal(cz_bn254_##G##_from_snarkjs(&p[i], buf), CZ_OK);                      \
            h = json_string_value(json_array_get(jget(v, "scalars"), i));                          \
            assert_int_equal(cz_test_unhex(buf, 32, h), 32);                                       \
            memcpy(sp[i].l, buf, 32); /* little-endian host */                                     \
            assert_true(cz_bn254_fr_from_bytes_le(&sm[i], buf));                                   \
        }                                                                                          \
        AFF want, got_a;                                                                           \
        assert_int_equal(cz_test_unhex(buf, PB, json_string_value(jget(v, "result"))), PB);        \
        assert_int_equal(cz_bn254_##G##_from_snarkjs(&want, buf), CZ_OK);                          \
        assert_false(cz_bn254_##G##_affine_is_infinity(&want));                                    \
        for (int t = 0; t < 3; t++) {                                                              \
            for (int form = 0; form < 2; form++) {                                                 \
                for (int glv = 0; glv < 2; glv++) {                                                \
                    cz_msm_opts o = {.pool = g_pools[t],                                           \
                                     .form = form ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT,      \
                                     .algo = glv ? CZ_MSM_ALGO_AFFINE : CZ_MSM_ALGO_AUTO,          \
                                     .window = glv ? 9 : 0,                                        \
                                     .no_glv = !glv};                                              \
                    JAC got;                                                                       \
                    assert_int_equal(cz_bn254_##G##_msm(&got, p, form ? sp : sm, n, &o), CZ_OK);   \
                    cz_bn254_##G##_jac_to_affine(&got_a, &got);                                    \
                    if (memcmp(&got_a, &want, sizeof want))                                        \
                        fail_msg(#G " MSM differs from ffjavascript's multiExpAffine "             \
                                    "(threads %d, form %d, glv %d)",                               \
                                 cz_threadpool_size(g_pools[t]), form, glv);                       \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        free(p);                                                                                   \
        free(sp);                                                                                  \
        free(sm);                                                                                  \
    }

MSM_KAT(g1, cz_bn254_g1_affine, cz_bn254_g1_jac, 64)
MSM_KAT(g2, cz_bn254_g2_affine, cz_bn254_g2_jac, 128)

static void test_msm_kat(void **state)
{
    (void)state;
    g1_msm_kat();
    g2_msm_kat();
}

static int setup(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    json_error_t err;
    const char *path = cz_test_src_path("tests/vectors/bn254_msm.json");
    g_root = json_load_file(path, 0, &err);
    if (!g_root) {
        printf("cannot load %s: %s (line %d)\n", path, err.text, err.line);
        return -1;
    }
    json_t *pv = json_object_get(g_root, "provenance");
    printf("# vectors: %s, generator %s, oracle %s, seed %s\n", path,
           json_string_value(json_object_get(pv, "generator")),
           json_string_value(json_object_get(pv, "oracle")),
           json_string_value(json_object_get(pv, "seed")));
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
    json_decref(g_root);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msm_digits),
        cmocka_unit_test(test_g1_msm),
        cmocka_unit_test(test_g2_msm),
        cmocka_unit_test(test_msm_specials),
        cmocka_unit_test(test_msm_x8_vs_scalar),
        cmocka_unit_test(test_msm_kat),
        cmocka_unit_test(test_ntt_roots),
        cmocka_unit_test(test_ntt_naive),
        cmocka_unit_test(test_ntt_round_trip),
        cmocka_unit_test(test_ntt_kat),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
