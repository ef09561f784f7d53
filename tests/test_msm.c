/* ctest: labels=unit timeout=300 */
/*
 * test_msm.c: the MSM against a naive sum of scalar multiplications
 * (cz_g*_jac_mul / jac_mul_var of the curve layer) for n = 0, 1, 2, 3, 17,
 * 100, 1000, across windows, algorithms (XYZZ / batched affine) and thread
 * counts (1, 2, 4); special scalars (0, 1, r-1, r, values >= r in plain
 * form, 2^256-1), points at infinity, repeated and opposite points (hot
 * and cancelling buckets), all-0/1 scalars through the split path, the
 * bitmap sum, and G2 (with its norm-based batch inversion meeting
 * doublings and cancellations); the GLV split of G1 scalars (k = k2 z^2 +
 * k1) at its edges, and G1 MSMs with and without it.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"

static cz_rng g_rng;
static cz_threadpool *g_pools[3];
static const uint64_t R_LIMBS[4] = CZ_FR_P;

/* ---- inputs ---- */

static void rand_points_g1(cz_g1_affine *p, size_t n)
{
    cz_g1_affine g;
    cz_g1_jac gj, t;
    cz_g1_generator(&g);
    cz_g1_jac_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4] = {cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), 0};
        cz_g1_jac_mul_var(&t, &gj, k, 4);
        cz_g1_jac_to_affine(&p[i], &t);
    }
}

static void rand_points_g2(cz_g2_affine *p, size_t n)
{
    cz_g2_affine g;
    cz_g2_jac gj, t;
    cz_g2_generator(&g);
    cz_g2_jac_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4] = {cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), cz_rng_u64(&g_rng), 0};
        cz_g2_jac_mul_var(&t, &gj, k, 4);
        cz_g2_jac_to_affine(&p[i], &t);
    }
}

/* Scalars in Montgomery form, with a mix of specials when `special`. */
static void rand_scalars(cz_fr *s, size_t n, int special)
{
    for (size_t i = 0; i < n; i++) {
        cz_fr_random(&s[i], &g_rng);
        if (!special)
            continue;
        switch (cz_rng_u64(&g_rng) % 8) {
        case 0: cz_fr_zero(&s[i]); break;
        case 1: cz_fr_one(&s[i]); break;
        case 2: cz_fr_one(&s[i]); cz_fr_neg(&s[i], &s[i]); break; /* r - 1 */
        case 3: cz_fr_set_u64(&s[i], cz_rng_u64(&g_rng) % 5); break;
        default: break;
        }
    }
}

/* Plain 256-bit scalars, many >= r. */
static void rand_plain(cz_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 4; j++)
            s[i].l[j] = cz_rng_u64(&g_rng);
        switch (cz_rng_u64(&g_rng) % 6) {
        case 0: memcpy(s[i].l, R_LIMBS, 32); break;                  /* r */
        case 1: memcpy(s[i].l, R_LIMBS, 32); s[i].l[0] -= 1; break;   /* r - 1 */
        case 2: memcpy(s[i].l, R_LIMBS, 32); s[i].l[0] += 1; break;   /* r + 1 */
        case 3: memset(s[i].l, 0xff, 32); break;                      /* 2^256 - 1 */
        case 4: memset(s[i].l, 0, 32); s[i].l[0] = cz_rng_u64(&g_rng) % 3; break;
        default: break;                                               /* random, often >= r */
        }
    }
}

/* ---- naive references ---- */

static void naive_g1(cz_g1_jac *out, const cz_g1_affine *p, const cz_fr *s, size_t n, int plain)
{
    cz_g1_jac acc, pj, t;
    cz_g1_jac_infinity(&acc);
    for (size_t i = 0; i < n; i++) {
        cz_g1_jac_from_affine(&pj, &p[i]);
        if (plain) {
            cz_g1_jac_mul_var(&t, &pj, s[i].l, 4); /* unreduced: k*P = (k mod r)*P */
        } else if (i % 2) {
            cz_g1_jac_mul(&t, &pj, &s[i]);
        } else {
            uint64_t k[4];
            cz_fr_to_limbs(k, &s[i]);
            cz_g1_jac_mul_var(&t, &pj, k, 4);
        }
        cz_g1_jac_add(&acc, &acc, &t);
    }
    *out = acc;
}

static void naive_g2(cz_g2_jac *out, const cz_g2_affine *p, const cz_fr *s, size_t n, int plain)
{
    cz_g2_jac acc, pj, t;
    cz_g2_jac_infinity(&acc);
    for (size_t i = 0; i < n; i++) {
        cz_g2_jac_from_affine(&pj, &p[i]);
        if (plain) {
            cz_g2_jac_mul_var(&t, &pj, s[i].l, 4);
        } else {
            uint64_t k[4];
            cz_fr_to_limbs(k, &s[i]);
            cz_g2_jac_mul_var(&t, &pj, k, 4);
        }
        cz_g2_jac_add(&acc, &acc, &t);
    }
    *out = acc;
}

static void check_g1(const cz_g1_affine *p, const cz_fr *s, size_t n, int plain,
                     const cz_g1_jac *ref, cz_threadpool *pool, unsigned window,
                     cz_msm_algo algo, int no_split)
{
    cz_msm_opts o = {.pool = pool, .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT,
                     .window = window, .algo = algo, .no_split = no_split};
    cz_g1_jac got;
    assert_int_equal(cz_g1_msm(&got, p, s, n, &o), CZ_OK);
    if (!cz_g1_jac_eq(&got, ref))
        fail_msg("G1 MSM mismatch: n=%zu plain=%d threads=%d window=%u algo=%d no_split=%d", n,
                 plain, cz_threadpool_size(pool), window, (int)algo, no_split);
}

static void check_g2(const cz_g2_affine *p, const cz_fr *s, size_t n, int plain,
                     const cz_g2_jac *ref, cz_threadpool *pool, unsigned window,
                     cz_msm_algo algo, int no_split)
{
    cz_msm_opts o = {.pool = pool, .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT,
                     .window = window, .algo = algo, .no_split = no_split};
    cz_g2_jac got;
    assert_int_equal(cz_g2_msm(&got, p, s, n, &o), CZ_OK);
    if (!cz_g2_jac_eq(&got, ref))
        fail_msg("G2 MSM mismatch: n=%zu plain=%d threads=%d window=%u algo=%d no_split=%d", n,
                 plain, cz_threadpool_size(pool), window, (int)algo, no_split);
}

/* ---- tests ---- */

/* One point, every window: k*G through the digit recoding. */
static void test_digits(void **state)
{
    (void)state;
    cz_g1_affine ga;
    cz_g1_jac ref, got, gj;
    cz_g1_generator(&ga);
    cz_g1_jac_from_affine(&gj, &ga);
    for (int it = 0; it < 100; it++) {
        cz_fr k;
        uint64_t l[4];
        cz_fr_random(&k, &g_rng);
        if (it == 0) {
            cz_fr_one(&k);
            cz_fr_neg(&k, &k); /* r - 1: all windows busy */
        }
        cz_fr_to_limbs(l, &k);
        cz_g1_jac_mul_var(&ref, &gj, l, 4);
        unsigned c = 1 + (unsigned)(it % CZ_MSM_MAX_WINDOW);
        cz_msm_opts o = {.window = c, .algo = CZ_MSM_ALGO_XYZZ, .no_split = 1};
        assert_int_equal(cz_g1_msm(&got, &ga, &k, 1, &o), CZ_OK);
        if (!cz_g1_jac_eq(&got, &ref))
            fail_msg("window %u", c);
    }
}

static void test_g1_sizes(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 2, 3, 17, 100, 1000};
    cz_g1_affine *p = malloc(1000 * sizeof *p);
    cz_fr *s = malloc(1000 * sizeof *s);
    rand_points_g1(p, 1000);
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        for (int plain = 0; plain < 2; plain++) {
            if (plain)
                rand_plain(s, n);
            else
                rand_scalars(s, n, 1);
            cz_g1_jac ref;
            naive_g1(&ref, p, s, n, plain);
            for (int t = 0; t < 3; t++) {
                check_g1(p, s, n, plain, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
                if (n < 1000 || t == 1)
                    check_g1(p, s, n, plain, &ref, g_pools[t], 0, CZ_MSM_ALGO_AFFINE, 1);
            }
            const unsigned windows[] = {1, 2, 3, 5, 8, 11, 16};
            for (size_t wi = 0; wi < sizeof windows / sizeof *windows; wi++) {
                if (n == 1000 && windows[wi] != 8 && windows[wi] != 11)
                    continue; /* keep the big case quick */
                if (windows[wi] == 16 && n > 17)
                    continue;
                check_g1(p, s, n, plain, &ref, g_pools[wi % 3], windows[wi], CZ_MSM_ALGO_XYZZ, 1);
                check_g1(p, s, n, plain, &ref, g_pools[(wi + 1) % 3], windows[wi], CZ_MSM_ALGO_AFFINE, 0);
            }
        }
    }
    free(p);
    free(s);
}

/* Points at infinity, repeated points with repeated scalars (hot buckets,
   the overflow path), P and -P with equal scalars (buckets that cancel),
   and doubling inside buckets (P + P). */
static void test_g1_degenerate(void **state)
{
    (void)state;
    const size_t n = 600;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    cz_g1_affine base[4];
    rand_points_g1(base, 4);
    cz_fr k7;
    cz_fr_random(&k7, &g_rng);
    for (size_t i = 0; i < n; i++) {
        switch (i % 6) {
        case 0: cz_g1_affine_infinity(&p[i]); cz_fr_random(&s[i], &g_rng); break;
        case 1: p[i] = base[0]; s[i] = k7; break;                       /* hot bucket */
        case 2: cz_g1_affine_neg(&p[i], &base[0]); s[i] = k7; break;    /* cancels case 1 */
        case 3: p[i] = base[1]; s[i] = k7; break;                       /* P + P in a bucket */
        case 4: p[i] = base[2]; cz_fr_random(&s[i], &g_rng); break;
        default: p[i] = base[3]; cz_fr_set_u64(&s[i], 2); break;
        }
    }
    cz_g1_jac ref;
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++) {
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 12, CZ_MSM_ALGO_AFFINE, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 4, CZ_MSM_ALGO_AFFINE, 1);
        check_g1(p, s, n, 0, &ref, g_pools[t], 9, CZ_MSM_ALGO_XYZZ, 0);
    }
    /* every scalar equal, every point equal: one bucket per window */
    for (size_t i = 0; i < n; i++) {
        p[i] = base[2];
        s[i] = k7;
    }
    naive_g1(&ref, p, s, n, 0);
    check_g1(p, s, n, 0, &ref, g_pools[1], 10, CZ_MSM_ALGO_AFFINE, 0);
    check_g1(p, s, n, 0, &ref, NULL, 0, CZ_MSM_ALGO_AUTO, 0);
    /* all points at infinity */
    for (size_t i = 0; i < n; i++)
        cz_g1_affine_infinity(&p[i]);
    cz_g1_jac got;
    assert_int_equal(cz_g1_msm(&got, p, s, n, NULL), CZ_OK);
    assert_true(cz_g1_jac_is_infinity(&got));
    free(p);
    free(s);
}

/* Scalars 0/1 only: the split path's batched tree; and the bitmap sum. */
static void test_g1_bits(void **state)
{
    (void)state;
    const size_t n = 1000;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    uint64_t bm[16] = {0};
    rand_points_g1(p, n);
    p[5] = p[4];                    /* a doubling in the tree */
    cz_g1_affine_neg(&p[7], &p[6]); /* a cancellation */
    cz_g1_affine_infinity(&p[9]);
    for (size_t i = 0; i < n; i++) {
        int bit = (cz_rng_u64(&g_rng) & 3) != 0 || (i >= 4 && i < 10);
        if (bit) {
            cz_fr_one(&s[i]);
            bm[i / 64] |= (uint64_t)1 << (i % 64);
        } else {
            cz_fr_zero(&s[i]);
        }
    }
    cz_g1_jac ref, got;
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++) {
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 1);
        assert_int_equal(cz_g1_sum_bitmap(&got, p, bm, n, g_pools[t]), CZ_OK);
        assert_true(cz_g1_jac_eq(&got, &ref));
    }
    /* mixed: bits plus a few big scalars */
    for (size_t i = 0; i < n; i += 37)
        cz_fr_random(&s[i], &g_rng);
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++)
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
    /* an empty bitmap */
    memset(bm, 0, sizeof bm);
    assert_int_equal(cz_g1_sum_bitmap(&got, p, bm, n, NULL), CZ_OK);
    assert_true(cz_g1_jac_is_infinity(&got));
    free(p);
    free(s);
}

/* Larger: 2^13 points exercise batches of 512 and threads; compared with
   the XYZZ path rather than the (slow) naive sum, plus a naive check of a
   random 64-point slice. */
static void test_g1_larger(void **state)
{
    (void)state;
    const size_t n = 1 << 13;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    /* cheap distinct points: P_i = P_{i-1} + Q_(random of 16) */
    cz_g1_affine q[16];
    rand_points_g1(q, 16);
    cz_g1_jac acc;
    cz_g1_jac_from_affine(&acc, &q[0]);
    cz_g1_jac *pj = malloc(n * sizeof *pj);
    for (size_t i = 0; i < n; i++) {
        cz_g1_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&g_rng) % 16]);
        pj[i] = acc;
    }
    cz_g1_jac_batch_to_affine(p, pj, n);
    free(pj);
    rand_scalars(s, n, 1);
    cz_g1_jac a, b, ref;
    cz_msm_opts ox = {.pool = NULL, .window = 7, .algo = CZ_MSM_ALGO_XYZZ, .no_split = 1,
                      .no_glv = 1};
    assert_int_equal(cz_g1_msm(&a, p, s, n, &ox), CZ_OK);
    cz_msm_opts oa = {.pool = g_pools[2]};
    assert_int_equal(cz_g1_msm(&b, p, s, n, &oa), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    /* 8 threads with c = 16: 16 windows < 4 x 8 threads, so each window
       is cut into point ranges whose partial sums are added */
    cz_threadpool *p8 = cz_threadpool_create(8);
    assert_non_null(p8);
    cz_msm_opts o8 = {.pool = p8};
    assert_int_equal(cz_g1_msm(&b, p, s, n, &o8), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    o8.window = 16;
    assert_int_equal(cz_g1_msm(&b, p, s, n, &o8), CZ_OK);
    assert_true(cz_g1_jac_eq(&a, &b));
    cz_threadpool_destroy(p8);
    size_t off = (size_t)(cz_rng_u64(&g_rng) % (n - 64));
    naive_g1(&ref, p + off, s + off, 64, 0);
    check_g1(p + off, s + off, 64, 0, &ref, g_pools[1], 0, CZ_MSM_ALGO_AUTO, 0);
    free(p);
    free(s);
}

/* Buckets holding P, P, -P, ... in a row: the segmented batched-affine
   reduction meets doublings (S + P with S = P), cancellations (S + (-S))
   and restarts from infinity; also the plain XYZZ running sums. */
static void test_g1_reduction(void **state)
{
    (void)state;
    const size_t n = 1500;
    cz_g1_affine *p = malloc(n * sizeof *p), base;
    cz_fr *s = malloc(n * sizeof *s);
    rand_points_g1(&base, 1);
    for (size_t i = 0; i < n; i++) {
        if ((i / 2) % 3 == 2)
            cz_g1_affine_neg(&p[i], &base);
        else
            p[i] = base;
        cz_fr_set_u64(&s[i], 2 + i + (cz_rng_u64(&g_rng) & 1));
    }
    cz_g1_jac ref;
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++) {
        check_g1(p, s, n, 0, &ref, g_pools[t], 12, CZ_MSM_ALGO_AFFINE, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 11, CZ_MSM_ALGO_XYZZ, 0);
    }
    free(p);
    free(s);
}

/* ---- GLV ---- */

/* z^2 for the BLS parameter z = -0xd201000000010000 */
static const uint64_t Z2[4] = {0x0000000100000000ULL, 0xac45a4010001a402ULL, 0, 0};

/* k (4 limbs) = k1 + k2 * z^2 with k1, k2 < z^2, as integers */
static void check_split(const uint64_t k[4])
{
    uint64_t k1[2], k2[2];
    cz_msm_glv_split_(k1, k2, k);
    assert_true(k1[1] < Z2[1] || (k1[1] == Z2[1] && k1[0] < Z2[0]));
    assert_true(k2[1] < Z2[1] || (k2[1] == Z2[1] && k2[0] < Z2[0]));
    uint64_t v[4] = {k1[0], k1[1], 0, 0};
    for (int i = 0; i < 2; i++) {
        unsigned __int128 c = 0;
        for (int j = 0; j < 2; j++) {
            c += (unsigned __int128)k2[i] * Z2[j] + v[i + j];
            v[i + j] = (uint64_t)c;
            c >>= 64;
        }
        for (int j = i + 2; j < 4 && c; j++) {
            c += v[j];
            v[j] = (uint64_t)c;
            c >>= 64;
        }
        assert_true(c == 0);
    }
    if (memcmp(v, k, sizeof v))
        fail_msg("split of %016llx%016llx%016llx%016llx", (unsigned long long)k[3],
                 (unsigned long long)k[2], (unsigned long long)k[1], (unsigned long long)k[0]);
}

/* k - d as 256-bit integers (no underflow in use) */
static void sub_small(uint64_t out[4], const uint64_t k[4], uint64_t d)
{
    unsigned __int128 b = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 x = (unsigned __int128)k[i] - (i ? 0 : d) - (uint64_t)b;
        out[i] = (uint64_t)x;
        b = (x >> 64) & 1;
    }
}

static void test_glv_split(void **state)
{
    (void)state;
    uint64_t k[4];
    for (uint64_t d = 0; d < 4; d++) {            /* 0..3 */
        uint64_t z[4] = {d, 0, 0, 0};
        check_split(z);
    }
    for (uint64_t d = 1; d < 4; d++) {            /* r - 1, r - 2, r - 3 */
        sub_small(k, R_LIMBS, d);
        check_split(k);
    }
    for (uint64_t d = 0; d < 3; d++) {            /* z^2 - 2 .. z^2, z^2 + 1 */
        sub_small(k, Z2, d);
        check_split(k);
    }
    memcpy(k, Z2, sizeof k);
    k[0] += 1;
    check_split(k);
    for (int it = 0; it < 20000; it++) {
        cz_fr f;
        cz_fr_random(&f, &g_rng);
        cz_fr_to_limbs(k, &f);
        check_split(k);
    }
    /* multiples of z^2 and one below: k1 = 0 / z^2 - 1 */
    for (int it = 0; it < 200; it++) {
        uint64_t q[2] = {cz_rng_u64(&g_rng), cz_rng_u64(&g_rng) >> 2}, m[4] = {0};
        for (int i = 0; i < 2; i++) {
            unsigned __int128 c = 0;
            for (int j = 0; j < 2; j++) {
                c += (unsigned __int128)q[i] * Z2[j] + m[i + j];
                m[i + j] = (uint64_t)c;
                c >>= 64;
            }
            m[i + 2] += (uint64_t)c;
        }
        check_split(m);
        sub_small(m, m, 1);
        check_split(m);
    }
}

/* G1 MSMs through the GLV split (forced by an explicit window, or chosen)
   against the plain path and a naive sum, with scalars at the split's
   edges: 0, 1, r-1, r-2, z^2 - 1, z^2, z^2 + 1, multiples of z^2. */
static void test_g1_glv(void **state)
{
    (void)state;
    const size_t n = 700;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    rand_points_g1(p, n);
    cz_g1_affine_infinity(&p[5]);
    p[20] = p[21];
    cz_g1_affine_neg(&p[31], &p[30]);
    cz_fr z2, one;
    assert_true(cz_fr_from_limbs(&z2, Z2));
    cz_fr_one(&one);
    for (size_t i = 0; i < n; i++) {
        switch (i % 10) {
        case 0: cz_fr_neg(&s[i], &one); break;                     /* r - 1 */
        case 1: cz_fr_neg(&s[i], &one); cz_fr_sub(&s[i], &s[i], &one); break;
        case 2: s[i] = z2; break;
        case 3: cz_fr_sub(&s[i], &z2, &one); break;
        case 4: cz_fr_add(&s[i], &z2, &one); break;
        case 5: cz_fr_set_u64(&s[i], cz_rng_u64(&g_rng) % 3); break;  /* 0, 1, 2 */
        case 6: cz_fr_set_u64(&s[i], cz_rng_u64(&g_rng)); cz_fr_mul(&s[i], &s[i], &z2); break;
        default: cz_fr_random(&s[i], &g_rng); break;
        }
    }
    s[21] = s[20];
    s[31] = s[30];
    cz_g1_jac ref, got;
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++) {
        for (unsigned c = 8; c <= 14; c += 3) {
            for (int no_glv = 0; no_glv < 2; no_glv++) {
                cz_msm_opts o = {.pool = g_pools[t], .window = c, .no_glv = no_glv};
                assert_int_equal(cz_g1_msm(&got, p, s, n, &o), CZ_OK);
                if (!cz_g1_jac_eq(&got, &ref))
                    fail_msg("GLV mismatch: threads %d window %u no_glv %d",
                             cz_threadpool_size(g_pools[t]), c, no_glv);
            }
        }
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 1);
        check_g1(p, s, n, 0, &ref, g_pools[t], 9, CZ_MSM_ALGO_XYZZ, 1);
    }
    free(p);
    free(s);
}

/* Pairs (P, P) and (Q, -Q) under equal scalars: in every window the
   second point of a pair meets its bucket's first, so full batches of
   doublings and cancellations go through the batched-affine flush (its
   eight-lane form included), with and without GLV and the split. */
static void test_g1_pairs(void **state)
{
    (void)state;
    const size_t n = 2048;
    cz_g1_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    rand_points_g1(p, n / 2);
    for (size_t i = n / 2; i-- > 0;) {
        p[2 * i] = p[i];
        if (i % 2)
            cz_g1_affine_neg(&p[2 * i + 1], &p[i]);
        else
            p[2 * i + 1] = p[i];
        cz_fr_random(&s[2 * i], &g_rng);
        s[2 * i + 1] = s[2 * i];
    }
    cz_g1_jac ref;
    naive_g1(&ref, p, s, n, 0);
    for (int t = 0; t < 2; t++) {
        check_g1(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
        check_g1(p, s, n, 0, &ref, g_pools[t], 13, CZ_MSM_ALGO_AFFINE, 1);
        cz_msm_opts o = {.pool = g_pools[t], .window = 12, .algo = CZ_MSM_ALGO_AFFINE,
                         .no_glv = 1};
        cz_g1_jac got;
        assert_int_equal(cz_g1_msm(&got, p, s, n, &o), CZ_OK);
        assert_true(cz_g1_jac_eq(&got, &ref));
    }
    free(p);
    free(s);
}

/* G2 buckets holding Q, Q, -Q, ...: the norm-based batch inversion of the
   batched-affine accumulation and reduction meets doublings and
   cancellations. */
static void test_g2_reduction(void **state)
{
    (void)state;
    const size_t n = 600;
    cz_g2_affine *p = malloc(n * sizeof *p), base;
    cz_fr *s = malloc(n * sizeof *s);
    rand_points_g2(&base, 1);
    for (size_t i = 0; i < n; i++) {
        if ((i / 2) % 3 == 2)
            cz_g2_affine_neg(&p[i], &base);
        else
            p[i] = base;
        cz_fr_set_u64(&s[i], 2 + i + (cz_rng_u64(&g_rng) & 1));
    }
    cz_g2_jac ref;
    naive_g2(&ref, p, s, n, 0);
    for (int t = 0; t < 3; t++) {
        check_g2(p, s, n, 0, &ref, g_pools[t], 10, CZ_MSM_ALGO_AFFINE, 0);
        check_g2(p, s, n, 0, &ref, g_pools[t], 8, CZ_MSM_ALGO_AFFINE, 1);
    }
    free(p);
    free(s);
}

/* G2 pairs (Q, Q) and (Q, -Q) under equal scalars, as test_g1_pairs. */
static void test_g2_pairs(void **state)
{
    (void)state;
    const size_t n = 1024;
    cz_g2_affine *p = malloc(n * sizeof *p);
    cz_fr *s = malloc(n * sizeof *s);
    rand_points_g2(p, n / 2);
    for (size_t i = n / 2; i-- > 0;) {
        p[2 * i] = p[i];
        if (i % 2)
            cz_g2_affine_neg(&p[2 * i + 1], &p[i]);
        else
            p[2 * i + 1] = p[i];
        cz_fr_random(&s[2 * i], &g_rng);
        s[2 * i + 1] = s[2 * i];
    }
    cz_g2_jac ref;
    naive_g2(&ref, p, s, n, 0);
    for (int t = 0; t < 2; t++) {
        check_g2(p, s, n, 0, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
        check_g2(p, s, n, 0, &ref, g_pools[t], 12, CZ_MSM_ALGO_AFFINE, 1);
    }
    free(p);
    free(s);
}

static void test_g2(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 2, 3, 17, 100};
    cz_g2_affine *p = malloc(100 * sizeof *p);
    cz_fr *s = malloc(100 * sizeof *s);
    rand_points_g2(p, 100);
    cz_g2_affine_infinity(&p[2]);
    p[10] = p[11];
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        for (int plain = 0; plain < 2; plain++) {
            if (plain)
                rand_plain(s, n);
            else
                rand_scalars(s, n, 1);
            if (n > 11)
                s[10] = s[11];
            cz_g2_jac ref;
            naive_g2(&ref, p, s, n, plain);
            for (int t = 0; t < 3; t++) {
                check_g2(p, s, n, plain, &ref, g_pools[t], 0, CZ_MSM_ALGO_AUTO, 0);
                check_g2(p, s, n, plain, &ref, g_pools[t], 6, CZ_MSM_ALGO_AFFINE, 0);
                check_g2(p, s, n, plain, &ref, g_pools[t], 3, CZ_MSM_ALGO_XYZZ, 1);
            }
        }
    }
    /* bits and the bitmap sum */
    uint64_t bm[2] = {0};
    for (size_t i = 0; i < 100; i++) {
        if (cz_rng_u64(&g_rng) & 1) {
            cz_fr_one(&s[i]);
            bm[i / 64] |= (uint64_t)1 << (i % 64);
        } else {
            cz_fr_zero(&s[i]);
        }
    }
    cz_g2_jac ref, got;
    naive_g2(&ref, p, s, 100, 0);
    check_g2(p, s, 100, 0, &ref, g_pools[1], 0, CZ_MSM_ALGO_AUTO, 0);
    assert_int_equal(cz_g2_sum_bitmap(&got, p, bm, 100, g_pools[2]), CZ_OK);
    assert_true(cz_g2_jac_eq(&got, &ref));
    free(p);
    free(s);
}

static void test_args(void **state)
{
    (void)state;
    cz_g1_affine p;
    cz_fr s;
    cz_g1_jac out;
    cz_g1_generator(&p);
    cz_fr_one(&s);
    cz_msm_opts o = {.window = CZ_MSM_MAX_WINDOW + 1};
    assert_int_equal(cz_g1_msm(&out, &p, &s, 1, &o), CZ_ERR_ARG);
    assert_int_equal(cz_g1_msm(&out, NULL, NULL, 0, NULL), CZ_OK);
    assert_true(cz_g1_jac_is_infinity(&out));
    for (size_t n = 1; n < (1u << 24); n *= 4) {
        unsigned c = cz_msm_window_for(n, 2, 0);
        assert_true(c >= 1 && c <= CZ_MSM_MAX_WINDOW);
    }
}

int main(void)
{
    cz_test_rng(&g_rng);
    g_pools[0] = NULL;
    g_pools[1] = cz_threadpool_create(2);
    g_pools[2] = cz_threadpool_create(4);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_digits),
        cmocka_unit_test(test_g1_sizes),
        cmocka_unit_test(test_g1_degenerate),
        cmocka_unit_test(test_g1_bits),
        cmocka_unit_test(test_g1_larger),
        cmocka_unit_test(test_g1_reduction),
        cmocka_unit_test(test_glv_split),
        cmocka_unit_test(test_g1_glv),
        cmocka_unit_test(test_g1_pairs),
        cmocka_unit_test(test_g2_reduction),
        cmocka_unit_test(test_g2_pairs),
        cmocka_unit_test(test_g2),
        cmocka_unit_test(test_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_threadpool_destroy(g_pools[1]);
    cz_threadpool_destroy(g_pools[2]);
    return rc;
}
