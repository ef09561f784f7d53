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
 * The bit-heavy path (scalars 0 dropped, 1 summed, the rest a compacted
 * Pippenger) is checked on its own and against the general path: all
 * zero, all one, PoRep-like mixes (about half 0, half 1, 1 % random) at
 * sizes around the 2048-scalar tiles and the per-thread chains of the
 * 1s (repeated points, P and -P and infinity inside one chain), a single
 * non-bit scalar, plain scalars r, r + 1 and 2^256 - 1 (others that reduce
 * to 0, 1 and a large value), forced windows, and G2.
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

/* ---- the bit-heavy path ---- */

enum { BITS_ZERO, BITS_ONE, BITS_POREP, BITS_ONE_OTHER, BITS_RANDOM };

/* scalars of a kind; PoRep-like: 1 % random, the rest 0 or 1 evenly */
static void bits_scalars(cz_fr *s, size_t n, int kind, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = cz_rng_u64(rng);
        switch (kind) {
        case BITS_ZERO: cz_fr_zero(&s[i]); break;
        case BITS_ONE: cz_fr_one(&s[i]); break;
        case BITS_RANDOM: cz_fr_random(&s[i], rng); break;
        default:
            if (u % 100 == 0)
                cz_fr_random(&s[i], rng);
            else if (u >> 63)
                cz_fr_one(&s[i]);
            else
                cz_fr_zero(&s[i]);
        }
    }
    if (kind == BITS_ONE_OTHER && n) { /* exactly one scalar that is not a bit */
        cz_fr one;
        cz_fr_one(&one);
        for (size_t i = 0; i < n; i++)
            if (!cz_fr_is_zero(&s[i]) && !cz_fr_eq(&s[i], &one))
                cz_fr_zero(&s[i]);
        cz_fr_random(&s[n / 2], rng);
    }
}

/* the GPU MSM on each path (auto, forced bits, forced general) against the CPU */
static void g1_bits_check(const cz_g1_affine *p, const cz_fr *s, size_t n, unsigned plain,
                          const char *what)
{
    cz_g1_jac want, got;
    cz_msm_opts o = {.pool = cz_threadpool_global(),
                     .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT};
    assert_int_equal(cz_g1_msm(&want, p, s, n, &o), CZ_OK);
    static const unsigned modes[] = {0, CZ_CUDA_MSM_BITS, CZ_CUDA_MSM_GENERAL};
    for (int k = 0; k < 3; k++) {
        check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, modes[k] | plain));
        if (!cz_g1_jac_eq(&got, &want))
            fail_msg("G1 MSM %s n=%zu plain=%u mode %u differs from the CPU", what, n, plain,
                     modes[k]);
    }
}

static void test_bits_g1(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const size_t sizes[] = {1, 2, 7, 129, 1000, 2047, 2048, 2049, 6000, 65537};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        cz_g1_affine *p = g1_points(n, NULL, &rng);
        cz_fr *s = malloc(n * sizeof *s);
        for (int kind = BITS_ZERO; kind <= BITS_RANDOM; kind++) {
            if (kind == BITS_RANDOM && n > 6000)
                continue;
            bits_scalars(s, n, kind, &rng);
            char what[32];
            snprintf(what, sizeof what, "bits kind %d", kind);
            g1_bits_check(p, s, n, 0, what);
        }
        free(p);
        free(s);
    }
}

/* points repeated, negated and at infinity inside the chains of the 1s:
   with n 1s below 2048 one block of 128 threads sums them, thread t the
   entries t, t + 128, ..., so entries 128 apart meet in one chain */
static void test_bits_g1_points(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = 1500;
    cz_g1_affine *p = g1_points(n, NULL, &rng);
    cz_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i + 128 < n; i += 7)
        p[i + 128] = p[i];                   /* doubling in a chain */
    for (size_t i = 3; i + 128 < n; i += 11)
        cz_g1_affine_neg(&p[i + 128], &p[i]); /* P + (-P) in a chain */
    for (size_t i = 5; i < n; i += 13)
        cz_g1_affine_infinity(&p[i]);
    cz_g1_affine_infinity(&p[0]);
    bits_scalars(s, n, BITS_ONE, &rng);
    g1_bits_check(p, s, n, 0, "all one, edge points");
    bits_scalars(s, n, BITS_POREP, &rng);
    for (size_t i = 0; i < n; i += 17) /* more others among the edge points */
        cz_fr_random(&s[i], &rng);
    g1_bits_check(p, s, n, 0, "mixed, edge points");
    /* every point the same: one chain of doublings and a hot bucket */
    for (size_t i = 1; i < n; i++)
        p[i] = p[1];
    bits_scalars(s, n, BITS_POREP, &rng);
    g1_bits_check(p, s, n, 0, "mixed, one point");
    free(p);
    free(s);
}

/* plain scalars: 0, 1, r (reduces to 0), r + 1 (to 1), 2^256 - 1 and
   random ones; a forced window for the others' Pippenger */
static void test_bits_g1_plain(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
    size_t n = 5000;
    cz_g1_affine *p = g1_points(n, NULL, &rng);
    cz_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        uint64_t u = cz_rng_u64(&rng) % 40;
        memset(s[i].l, 0, sizeof s[i].l);
        if (u < 18)
            s[i].l[0] = 1;
        else if (u < 36)
            ; /* 0 */
        else if (u == 36)
            memcpy(s[i].l, r, sizeof r);
        else if (u == 37) {
            memcpy(s[i].l, r, sizeof r);
            s[i].l[0] += 1; /* r + 1: no carry, r's low limb is odd */
        } else if (u == 38)
            memset(s[i].l, 0xff, sizeof s[i].l);
        else
            for (int k = 0; k < 4; k++)
                s[i].l[k] = cz_rng_u64(&rng);
    }
    g1_bits_check(p, s, n, CZ_CUDA_MSM_PLAIN, "plain");
    /* forced windows: the others' Pippenger with narrow and wide windows */
    cz_g1_jac want, got;
    cz_msm_opts o = {.pool = cz_threadpool_global(), .form = CZ_MSM_SCALAR_PLAIN};
    assert_int_equal(cz_g1_msm(&want, p, s, n, &o), CZ_OK);
    cz_cuda_buf pb;
    check(cz_cuda_buf_alloc(g_ctx, &pb, n * sizeof *p));
    check(cz_cuda_upload(g_ctx, &pb, 0, p, n * sizeof *p));
    static const unsigned cs[] = {2, 5, 13, 20};
    for (size_t k = 0; k < sizeof cs / sizeof *cs; k++) {
        check(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, s, NULL, n,
                                 CZ_CUDA_MSM_PLAIN | CZ_CUDA_MSM_BITS, cs[k]));
        if (!cz_g1_jac_eq(&got, &want))
            fail_msg("G1 bit path with %u-bit windows differs from the CPU", cs[k]);
    }
    /* both paths forced: refused */
    assert_int_equal(cz_cuda_g1_msm_dev(g_ctx, &got, &pb, s, NULL, n,
                                        CZ_CUDA_MSM_BITS | CZ_CUDA_MSM_GENERAL, 0),
                     CZ_ERR_ARG);
    check(cz_cuda_buf_free(g_ctx, &pb));
    free(p);
    free(s);
}

/* 2^22 PoRep-like scalars (the 1s' chains run over the whole grid) */
static void test_bits_g1_large(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("# 2^22 bit-heavy left out of a quick run\n");
        return;
    }
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = ((size_t)1 << 22) + 3;
    cz_fr *d = malloc(n * sizeof *d), *s = malloc(n * sizeof *s);
    cz_g1_affine *p = g1_points(n, d, &rng);
    bits_scalars(s, n, BITS_POREP, &rng);
    cz_fr e, t;
    cz_fr_zero(&e);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&t, &s[i], &d[i]);
        cz_fr_add(&e, &e, &t);
    }
    cz_g1_affine gen;
    cz_g1_jac g, want, got;
    cz_g1_generator(&gen);
    cz_g1_jac_from_affine(&g, &gen);
    cz_g1_jac_mul(&want, &g, &e);
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, 0));
    assert_true(cz_g1_jac_eq(&got, &want));
    check(cz_cuda_g1_msm(g_ctx, &got, p, s, n, CZ_CUDA_MSM_GENERAL));
    assert_true(cz_g1_jac_eq(&got, &want));
    free(d), free(s), free(p);
}

static void test_bits_g2(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const size_t sizes[] = {1, 300, 2049, 40000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        cz_g2_affine *p = g2_points(n, &rng);
        cz_fr *s = malloc(n * sizeof *s);
        if (n >= 300) {
            for (size_t i = 0; i + 128 < n; i += 9)
                p[i + 128] = p[i];
            for (size_t i = 4; i + 128 < n; i += 10)
                cz_g2_affine_neg(&p[i + 128], &p[i]);
            cz_g2_affine_infinity(&p[1]);
        }
        for (int kind = BITS_ZERO; kind <= BITS_ONE_OTHER; kind++) {
            bits_scalars(s, n, kind, &rng);
            cz_g2_jac want, got;
            cz_msm_opts o = {.pool = cz_threadpool_global()};
            assert_int_equal(cz_g2_msm(&want, p, s, n, &o), CZ_OK);
            static const unsigned modes[] = {0, CZ_CUDA_MSM_BITS, CZ_CUDA_MSM_GENERAL};
            for (int m = 0; m < 3; m++) {
                check(cz_cuda_g2_msm(g_ctx, &got, p, s, n, modes[m]));
                if (!cz_g2_jac_eq(&got, &want))
                    fail_msg("G2 MSM bits kind %d n=%zu mode %u differs from the CPU", kind, n,
                             modes[m]);
            }
        }
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
        cmocka_unit_test(test_bits_g1),    cmocka_unit_test(test_bits_g1_points),
        cmocka_unit_test(test_bits_g1_plain), cmocka_unit_test(test_bits_g1_large),
        cmocka_unit_test(test_bits_g2),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
