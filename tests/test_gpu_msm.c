/* ctest: labels=gpu timeout=900 */
/*
 * test_gpu_msm.c: the GPU MSM (G1 and G2) against the CPU MSM of msm/msm.h
 * on random inputs at many sizes, powers of two or not (1, 2, 3, 5, 100,
 * 1000, 4097, 2^14 + 3, 2^17 - 1, 2^18), with edge cases: zero scalars,
 * r - 1, plain scalars >= r (2^256 - 1 among them), infinity points,
 * repeated points and a point next to its negation, every scalar equal
 * (one giant bucket), forced small windows, and a small arena that makes
 * the MSM run its windows in batches. Large sizes (2^22) use points of
 * known discrete logarithm made on the GPU: sum s_i P_i = (sum s_i d_i) G.
 * Skips (exit 77) without a CUDA build or device.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda.h"
#include "msm/msm.h"
#include "util/threadpool.h"

static cz_cuda_ctx *g_ctx;

static void check(cz_status st)
{
    if (st != CZ_OK)
        fail_msg("CUDA call failed: %s: %s", cz_strerror(st), cz_cuda_ctx_error(g_ctx));
}

/* n points d_i G with d_i known (host copy), made on the GPU */
static cz_g1_affine *g1_points(size_t n, cz_fr *d_out, cz_rng *rng)
{
    size_t m = n < 64 ? n : 64;
    cz_fr k[64];
    for (size_t i = 0; i < m; i++)
        cz_fr_random(&k[i], rng);
    cz_cuda_buf buf;
    cz_g1_affine *p = malloc(n * sizeof *p);
    check(cz_cuda_buf_alloc(g_ctx, &buf, n * sizeof *p));
    check(cz_cuda_g1_gen_points(g_ctx, &buf, n, k, m));
    check(cz_cuda_download(g_ctx, p, &buf, 0, n * sizeof *p));
    check(cz_cuda_buf_free(g_ctx, &buf));
    if (d_out)
        for (size_t i = 0; i < n; i++) {
            d_out[i] = k[i % m];
            if (i >= m)
                cz_fr_add(&d_out[i], &d_out[i], &k[(i / m) % m]);
        }
    return p;
}

static cz_g2_affine *g2_points(size_t n, cz_rng *rng)
{
    size_t m = n < 64 ? n : 64;
    cz_fr k[64];
    for (size_t i = 0; i < m; i++)
        cz_fr_random(&k[i], rng);
    cz_cuda_buf buf;
    cz_g2_affine *p = malloc(n * sizeof *p);
    check(cz_cuda_buf_alloc(g_ctx, &buf, n * sizeof *p));
    check(cz_cuda_g2_gen_points(g_ctx, &buf, n, k, m));
    check(cz_cuda_download(g_ctx, p, &buf, 0, n * sizeof *p));
    check(cz_cuda_buf_free(g_ctx, &buf));
    return p;
}

enum { SC_RANDOM, SC_EDGES, SC_EQUAL, SC_SMALL };

static void fill_scalars(cz_fr *s, size_t n, int kind, cz_rng *rng)
{
    cz_fr one, m1;
    cz_fr_one(&one);
    cz_fr_neg(&m1, &one);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case SC_RANDOM: cz_fr_random(&s[i], rng); break;
        case SC_EQUAL: s[i] = m1; break;
        case SC_SMALL: cz_fr_set_u64(&s[i], cz_rng_u64(rng) & 3); break;
        default:
            switch (cz_rng_u64(rng) % 5) {
            case 0: cz_fr_zero(&s[i]); break;
            case 1: s[i] = one; break;
            case 2: s[i] = m1; break;
            default: cz_fr_random(&s[i], rng); break;
            }
        }
    }
}

static void g1_case(size_t n, int kind, int edges_pts, unsigned plain, cz_rng *rng)
{
    cz_g1_affine *p = g1_points(n, NULL, rng);
    cz_fr *s = malloc(n * sizeof *s);
    fill_scalars(s, n, kind, rng);
    if (edges_pts && n >= 8) {
        cz_g1_affine_infinity(&p[1]);
        p[3] = p[2];                      /* repeated point */
        cz_g1_affine_neg(&p[5], &p[4]);   /* P and -P */
        p[n - 1] = p[0];
    }
    if (plain) { /* plain integers, some >= r */
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            cz_fr_to_limbs(l, &s[i]);
            memcpy(s[i].l, l, sizeof l);
        }
        for (size_t i = 0; i < n; i += 3) { /* s + r, or 2^256 - 1 */
            static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                          0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
            if (i % 2) {
                memset(s[i].l, 0xff, sizeof s[i].l);
                continue;
            }
            unsigned __int128 c = 0;
            uint64_t t[4];
            for (int k = 0; k < 4; k++) {
                c += (unsigned __int128)s[i].l[k] + r[k];
                t[k] = (uint64_t)c;
                c >>= 64;
            }
            if (!c) /* fits 256 bits */
                memcpy(s[i].l, t, sizeof t);
        }
    }
    cz_g1_jac got, want;
    cz_msm_opts o = {.pool = cz_threadpool_global(),
                     .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT};
    assert_int_equal(cz_g1_msm(&want, p, s, n, &o), CZ_OK);
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, plain ? CZ_CUDA_MSM_PLAIN : 0));
    if (!cz_g1_jac_eq(&got, &want))
        fail_msg("G1 MSM n=%zu kind=%d edges=%d plain=%u differs from the CPU", n, kind, edges_pts,
                 plain);
    free(p);
    free(s);
}

static void test_g1_sizes(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const size_t sizes[] = {1, 2, 3, 5, 100, 1000, 4097, 16387, 131071, 262144};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        g1_case(sizes[i], SC_RANDOM, 0, 0, &rng);
        g1_case(sizes[i], SC_EDGES, 1, 0, &rng);
    }
}

static void test_g1_edges(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    g1_case(1, SC_EDGES, 0, 1, &rng);
    g1_case(1000, SC_EDGES, 1, 1, &rng);   /* plain scalars, some >= r */
    g1_case(70000, SC_RANDOM, 1, 1, &rng);
    g1_case(5000, SC_EQUAL, 1, 0, &rng);   /* one giant bucket per window */
    g1_case(100000, SC_EQUAL, 0, 0, &rng);
    g1_case(30000, SC_SMALL, 1, 0, &rng);  /* mostly empty windows */
    /* all scalars zero: infinity */
    size_t n = 777;
    cz_g1_affine *p = g1_points(n, NULL, &rng);
    cz_fr *s = calloc(n, sizeof *s);
    cz_g1_jac got;
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, 0));
    assert_true(cz_g1_jac_is_infinity(&got));
    /* n = 0: infinity */
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, 0, 0));
    assert_true(cz_g1_jac_is_infinity(&got));
    free(p);
    free(s);
}

/* every window width on one input; device-resident scalars */
static void test_g1_windows(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = 20000;
    cz_g1_affine *p = g1_points(n, NULL, &rng);
    cz_fr *s = malloc(n * sizeof *s);
    fill_scalars(s, n, SC_EDGES, &rng);
    cz_g1_jac want, got;
    cz_msm_opts o = {.pool = cz_threadpool_global()};
    assert_int_equal(cz_g1_msm(&want, p, s, n, &o), CZ_OK);
    cz_cuda_buf pb, sb;
    check(cz_cuda_buf_alloc(g_ctx, &pb, n * sizeof *p));
    check(cz_cuda_buf_alloc(g_ctx, &sb, n * sizeof *s));
    check(cz_cuda_upload(g_ctx, &pb, 0, p, n * sizeof *p));
    check(cz_cuda_upload(g_ctx, &sb, 0, s, n * sizeof *s));
    for (unsigned c = 2; c <= 20; c++) {
        check(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, NULL, &sb, n, 0, c));
        if (!cz_g1_jac_eq(&got, &want))
            fail_msg("G1 MSM with %u-bit windows differs from the CPU", c);
    }
    check(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, s, NULL, n, 0, 0));
    assert_true(cz_g1_jac_eq(&got, &want));
    /* misuse: both or neither scalar source */
    assert_int_equal(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, s, &sb, n, 0, 0), CZ_ERR_ARG);
    assert_int_equal(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, NULL, NULL, n, 0, 0), CZ_ERR_ARG);
    check(cz_cuda_buf_free(g_ctx, &sb));
    check(cz_cuda_buf_free(g_ctx, &pb));
    free(p);
    free(s);
}

/* a small arena: the windows run in several batches */
static void test_g1_batched(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("# 2^20 in a small arena left out of a quick run\n");
        return;
    }
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = (size_t)1 << 20;
    cz_fr *d = malloc(n * sizeof *d), *s = malloc(n * sizeof *s);
    cz_g1_affine *p = g1_points(n, d, &rng);
    fill_scalars(s, n, SC_RANDOM, &rng);
    cz_cuda_ctx *small;
    char err[256];
    check(cz_cuda_ctx_create(&small, 0, (size_t)420 << 20, 0, err, sizeof err));
    cz_g1_jac got, want, g;
    cz_status st = cz_cuda_g1_msm(small, &got, p, s, n, 0);
    if (st != CZ_OK)
        fail_msg("small-arena MSM: %s", cz_cuda_ctx_error(small));
    cz_cuda_ctx_destroy(small);
    cz_fr e, t;
    cz_fr_zero(&e);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&t, &s[i], &d[i]);
        cz_fr_add(&e, &e, &t);
    }
    cz_g1_affine gen;
    cz_g1_generator(&gen);
    cz_g1_jac_from_affine(&g, &gen);
    cz_g1_jac_mul(&want, &g, &e);
    assert_true(cz_g1_jac_eq(&got, &want));
    free(d), free(s), free(p);
}

/* 2^22 points of known discrete log */
static void test_g1_large(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("# 2^22 left out of a quick run\n");
        return;
    }
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = (size_t)1 << 22;
    cz_fr *d = malloc(n * sizeof *d), *s = malloc(n * sizeof *s);
    cz_g1_affine *p = g1_points(n, d, &rng);
    fill_scalars(s, n, SC_EDGES, &rng);
    cz_g1_jac got, want, g;
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, 0));
    cz_fr e, t;
    cz_fr_zero(&e);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&t, &s[i], &d[i]);
        cz_fr_add(&e, &e, &t);
    }
    cz_g1_affine gen;
    cz_g1_generator(&gen);
    cz_g1_jac_from_affine(&g, &gen);
    cz_g1_jac_mul(&want, &g, &e);
    assert_true(cz_g1_jac_eq(&got, &want));
    free(d), free(s), free(p);
}

static void test_g2_sizes(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const size_t sizes[] = {1, 3, 100, 1025, 16387, 65536};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        cz_g2_affine *p = g2_points(n, &rng);
        cz_fr *s = malloc(n * sizeof *s);
        fill_scalars(s, n, k & 1 ? SC_EDGES : SC_RANDOM, &rng);
        if (n >= 8) {
            cz_g2_affine_infinity(&p[1]);
            p[3] = p[2];
            cz_g2_affine_neg(&p[5], &p[4]);
        }
        cz_g2_jac got, want;
        cz_msm_opts o = {.pool = cz_threadpool_global()};
        assert_int_equal(cz_g2_msm(&want, p, s, n, &o), CZ_OK);
        check(cz_cuda_g2_msm(g_ctx, &got, p, s, n, 0));
        if (!cz_g2_jac_eq(&got, &want))
            fail_msg("G2 MSM n=%zu differs from the CPU", n);
        free(p);
        free(s);
    }
}

int main(void)
{
    if (!cz_cuda_built() || cz_cuda_device_count() == 0) {
        printf("SKIPPED: no CUDA device (%s)\n",
               cz_cuda_built() ? "none found" : "cuzk built without CUDA");
        return 77;
    }
    char err[512];
    if (cz_cuda_ctx_create(&g_ctx, 0, (size_t)8 << 30, 0, err, sizeof err) != CZ_OK) {
        printf("SKIPPED: no CUDA device (%s)\n", err);
        return 77;
    }
    printf("# device: %s\n", cz_cuda_device_name(g_ctx));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1_sizes),   cmocka_unit_test(test_g1_edges),
        cmocka_unit_test(test_g1_windows), cmocka_unit_test(test_g1_batched),
        cmocka_unit_test(test_g1_large),   cmocka_unit_test(test_g2_sizes),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
