/* ctest: labels=gpu timeout=900 */
/*
 * test_gpu_msm.c: the GPU MSM (G1 and G2) against the CPU MSM of msm/msm.h
 * on random inputs at many sizes, powers of two or not (1, 2, 3, 5, 100,
 * 1000, 4097, 2^14 + 3, 2^17 - 1, 2^18), with edge cases: zero scalars,
 * r - 1, plain scalars >= r (2^256 - 1 among them), infinity points,
 * repeated points and a point next to its negation, every scalar equal
 * (one giant bucket), forced windows (2..22 bits), and a small arena that makes
 * the MSM run its windows in batches. Large sizes (2^22) use points of
 * known discrete logarithm made on the GPU: sum s_i P_i = (sum s_i d_i) G.
 * The bit-heavy path (scalars 0 dropped, 1 summed, the rest a compacted
 * Pippenger) is checked on its own and against the general path: all
 * zero, all one, PoRep-like mixes (about half 0, half 1, 1 % random) at
 * sizes around the 2048-scalar tiles and the per-thread chains of the
 * 1s (repeated points, P and -P and infinity inside one chain), a single
 * non-bit scalar, plain scalars r, r + 1 and 2^256 - 1 (others that reduce
 * to 0, 1 and a large value), forced windows, and G2.
 * G2's batched affine rounds (CUZK_MSM_G2_AFFINE=0, 1, 2 in each case:
 * none, when they fit, always) with forced windows and round limits at the
 * sizes where rounds start, runs of odd and even length, P + P, P + (-P),
 * 2P + (-2P) and infinity inside runs, all-zero, all-one, equal and hot
 * scalars, mostly empty windows, plain scalars >= r, one point everywhere,
 * the bit path's others, and small arenas (the rounds in window batches;
 * where their buffers do not fit, the XYZZ segments alone, or out of
 * memory when forced). Those need a GPU: the model has no rounds.
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

/* Montgomery scalars to plain integers (CZ_CUDA_MSM_PLAIN), every third
   one >= r: s + r where that fits 256 bits, or 2^256 - 1 */
static void plain_scalars(cz_fr *s, size_t n)
{
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
    if (plain)
        plain_scalars(s, n);
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
    for (unsigned c = 2; c <= 22; c++) {
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

/* ---- G2's batched affine rounds (cuda/msm_affine.cuh) ----
 * CUZK_MSM_G2_AFFINE: 0 the XYZZ segments alone, 1 the rounds when their
 * buffers fit the arena, 2 the rounds always (out of memory when they do
 * not fit, which shows that they ran); CUZK_MSM_G2_AFFINE_ROUNDS: at most
 * that many rounds. The model has no rounds: these tests need a GPU. */

/* set (value) or clear (NULL) a knob of the MSM */
static void knob(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* Every knob a test here sets, as the test found it (the device script
   sets some for a run): knobs_save before, knobs_restore after. */
static const char *const g_knobs[] = {"CUZK_MSM_G2_AFFINE", "CUZK_MSM_G2_AFFINE_ROUNDS",
                                      "CUZK_MSM_ONES_AFFINE", "CUZK_MSM_ONES_STOP",
                                      "CUZK_MSM_ONES_ROUNDS"};
#define N_KNOBS (sizeof g_knobs / sizeof *g_knobs)
static char *g_knob_saved[N_KNOBS];

static void knobs_save(void)
{
    for (size_t i = 0; i < N_KNOBS; i++) {
        const char *v = getenv(g_knobs[i]);
        g_knob_saved[i] = v ? strdup(v) : NULL;
    }
}

static void knobs_restore(void)
{
    for (size_t i = 0; i < N_KNOBS; i++) {
        knob(g_knobs[i], g_knob_saved[i]);
        free(g_knob_saved[i]);
        g_knob_saved[i] = NULL;
    }
}

/* The 1s' sum through rounds of affine additions (msm.cu's
   czd_ones_rounds) down to CUZK_MSM_ONES_STOP points, CUZK_MSM_ONES_ROUNDS
   rounds at most: with 3 and 64 they run from 4 1s up, down to 2 or 3
   points, so every case above goes through them (odd counts, points
   repeated, opposite and at infinity), and so do neighbours in one pair
   of round 0: P + (-P), P + P, infinity; then the same with them off. */
static void test_bits_ones_rounds(void **state)
{
    knobs_save();
    knob("CUZK_MSM_ONES_AFFINE", "1");
    knob("CUZK_MSM_ONES_STOP", "3");
    knob("CUZK_MSM_ONES_ROUNDS", "64");
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = 1001;
    cz_g1_affine *p = g1_points(n, NULL, &rng);
    cz_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        if (i % 4 == 1)
            cz_g1_affine_neg(&p[i], &p[i - 1]);
        else if (i % 4 == 3)
            p[i] = p[i - 1];
        if (i % 9 == 0)
            cz_g1_affine_infinity(&p[i]);
    }
    bits_scalars(s, n, BITS_ONE, &rng);
    g1_bits_check(p, s, n, 0, "rounds, neighbours");
    bits_scalars(s, n, BITS_POREP, &rng);
    g1_bits_check(p, s, n, 0, "rounds, neighbours, mixed");
    free(p);
    free(s);
    test_bits_g1_points(state);
    test_bits_g1(state);
    test_bits_g2(state);
    knob("CUZK_MSM_ONES_ROUNDS", "2"); /* stopped by the count of rounds */
    test_bits_g2(state);
    knob("CUZK_MSM_ONES_AFFINE", "0");
    test_bits_g1_points(state);
    knobs_restore();
}

/* the CPU's sum of scalars s (plain integers with CZ_CUDA_MSM_PLAIN) */
static void g2_want(cz_g2_jac *want, const cz_g2_affine *p, const cz_fr *s, size_t n,
                    unsigned flags)
{
    cz_msm_opts o = {.pool = cz_threadpool_global(),
                     .form = (flags & CZ_CUDA_MSM_PLAIN) ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT};
    assert_int_equal(cz_g2_msm(want, p, s, n, &o), CZ_OK);
}

/* the GPU MSM of resident points pb under each mode (0, 1, 2) and each
   round limit of rounds[] (NULL-terminated; the default when empty) */
static void g2_affine_check(cz_cuda_buf *pb, const cz_fr *s, size_t n, unsigned flags, unsigned c,
                            const cz_g2_jac *want, const char *const *rounds, const char *what)
{
    size_t nr = 0;
    while (rounds && rounds[nr])
        nr++;
    for (int m = 0; m < 3; m++) {
        static const char *const modes[] = {"0", "1", "2"};
        knob("CUZK_MSM_G2_AFFINE", modes[m]);
        /* mode 0 ignores the round limit: once */
        for (size_t r = 0; r < (m && nr ? nr : 1); r++) {
            const char *lim = m && nr ? rounds[r] : NULL;
            knob("CUZK_MSM_G2_AFFINE_ROUNDS", lim);
            cz_g2_jac got;
            check(cz_cuda_g2_msm_dev(g_ctx, &got, pb, s, NULL, n, flags, c));
            if (!cz_g2_jac_eq(&got, want))
                fail_msg("G2 MSM %s n=%zu flags=%u c=%u affine=%s rounds=%s differs from the CPU",
                         what, n, flags, c, modes[m], lim ? lim : "default");
        }
    }
    knob("CUZK_MSM_G2_AFFINE_ROUNDS", NULL);
}

/* points with every special case of an affine addition inside buckets:
   in each group of 8, P P -P -P (round 0 doubles, round 1 adds 2P and
   -2P: infinity), Q -Q (infinity in round 0), infinity, R */
static void g2_special_points(cz_g2_affine *p, size_t n)
{
    for (size_t i = 0; i + 8 <= n; i += 8) {
        p[i + 1] = p[i];
        cz_g2_affine_neg(&p[i + 2], &p[i]);
        p[i + 3] = p[i + 2];
        cz_g2_affine_neg(&p[i + 5], &p[i + 4]);
        cz_g2_affine_infinity(&p[i + 6]);
    }
}

/* forced windows and round limits at the bounds where a batch starts to
   take rounds (more than 4 points a bucket), odd and even runs, special
   points; every scalar equal so that each bucket's run is long */
static void test_g2_affine_rounds(void **state)
{
    (void)state;
    if (cz_cuda_is_model()) {
        printf("# the model has no affine rounds\n");
        return;
    }
    knobs_save();
    cz_rng rng;
    cz_test_rng(&rng);
    const size_t nmax = 3000;
    cz_g2_affine *p = g2_points(nmax, &rng);
    cz_fr *s = malloc(nmax * sizeof *s);
    cz_cuda_buf pb;
    check(cz_cuda_buf_alloc(g_ctx, &pb, nmax * sizeof *p));
    static const char *const rounds[] = {"1", "2", "3", "16", NULL};
    static const unsigned cs[] = {2, 3, 6, 9};
    for (size_t k = 0; k < sizeof cs / sizeof *cs; k++) {
        size_t nbw = (size_t)1 << (cs[k] - 1);
        size_t ns[] = {4 * nbw, 4 * nbw + 1, 8 * nbw + 3, 16 * nbw + 16, nmax};
        for (size_t j = 0; j < sizeof ns / sizeof *ns; j++) {
            size_t n = ns[j] < nmax ? ns[j] : nmax;
            for (int kind = 0; kind < 3; kind++) {
                /* 0: random and edge scalars over random points; 1: the
                   same over special points; 2: every scalar equal (one
                   long run a window), special points */
                cz_g2_affine *q = malloc(n * sizeof *q);
                memcpy(q, p, n * sizeof *q);
                if (kind)
                    g2_special_points(q, n);
                fill_scalars(s, n, kind == 2 ? SC_EQUAL : SC_EDGES, &rng);
                check(cz_cuda_upload(g_ctx, &pb, 0, q, n * sizeof *q));
                cz_g2_jac want;
                g2_want(&want, q, s, n, 0);
                char what[48];
                snprintf(what, sizeof what, "rounds kind %d", kind);
                g2_affine_check(&pb, s, n, CZ_CUDA_MSM_GENERAL, cs[k], &want, rounds, what);
                free(q);
            }
        }
    }
    check(cz_cuda_buf_free(g_ctx, &pb));
    free(p);
    free(s);
    knobs_restore();
}

/* The rounds' batch inversion with its first level in groups of 1 (the
   levels alone), 2 and 32 lanes (msm.cu's CUZK_MSM_BINV_GROUP; the
   defaults, 4 for G2 and 8 for G1, run in every other test): the 1s'
   rounds of G1 and G2 and G2's forced rounds, special points among them,
   down to rounds of one thread (a group of lanes mostly past the last) */
static void test_affine_groups(void **state)
{
    if (cz_cuda_is_model()) {
        printf("# the model has no affine rounds\n");
        return;
    }
    const char *was = getenv("CUZK_MSM_BINV_GROUP");
    char *saved = was ? strdup(was) : NULL;
    static const char *const groups[] = {"1", "2", "32"};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        knob("CUZK_MSM_BINV_GROUP", groups[i]);
        test_bits_ones_rounds(state);
        test_g2_affine_rounds(state);
    }
    knob("CUZK_MSM_BINV_GROUP", saved);
    free(saved);
}

/* default windows: all-zero, all-one, equal and hot scalars (one bucket
   with most points), mostly empty windows (sentinels among the rounds'
   inputs), plain scalars >= r, repeated, opposite and infinity points,
   one point everywhere (chains of doublings), on the general, the bit and
   the automatic path, at sizes around the inversion's levels of 32 and
   the rounds' 16 pairs a thread */
static void test_g2_affine_edges(void **state)
{
    (void)state;
    if (cz_cuda_is_model()) {
        printf("# the model has no affine rounds\n");
        return;
    }
    knobs_save();
    cz_rng rng;
    cz_test_rng(&rng);
    static const size_t sizes[] = {1, 129, 1000, 4097, 16387, 40001};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        cz_g2_affine *p = g2_points(n, &rng), *one = malloc(n * sizeof *one);
        cz_fr *s = malloc(n * sizeof *s);
        cz_cuda_buf pb;
        check(cz_cuda_buf_alloc(g_ctx, &pb, n * sizeof *p));
        for (int kind = 0; kind < 9; kind++) {
            const cz_g2_affine *q = p;
            unsigned flags = CZ_CUDA_MSM_GENERAL;
            cz_fr v;
            switch (kind) {
            case 0: /* all zero */
                for (size_t i = 0; i < n; i++)
                    cz_fr_zero(&s[i]);
                break;
            case 1: /* all one: every point in one bucket of window 0 */
                for (size_t i = 0; i < n; i++)
                    cz_fr_one(&s[i]);
                break;
            case 2: /* every scalar r - 1 */
                fill_scalars(s, n, SC_EQUAL, &rng);
                break;
            case 3: /* a hot bucket: 90 % one scalar, the rest random */
                cz_fr_random(&v, &rng);
                for (size_t i = 0; i < n; i++) {
                    if (cz_rng_u64(&rng) % 10)
                        s[i] = v;
                    else
                        cz_fr_random(&s[i], &rng);
                }
                break;
            case 4: /* values 0..3: mostly empty windows */
                fill_scalars(s, n, SC_SMALL, &rng);
                break;
            case 5: /* plain scalars, some >= r */
                fill_scalars(s, n, SC_EDGES, &rng);
                plain_scalars(s, n);
                flags |= CZ_CUDA_MSM_PLAIN;
                break;
            case 6: /* special points, random and edge scalars, automatic path */
                memcpy(one, p, n * sizeof *one);
                g2_special_points(one, n);
                q = one;
                fill_scalars(s, n, SC_EDGES, &rng);
                flags = 0;
                break;
            case 7: /* one point everywhere, a hot scalar */
                for (size_t i = 0; i < n; i++)
                    one[i] = p[0];
                q = one;
                cz_fr_random(&v, &rng);
                for (size_t i = 0; i < n; i++) {
                    if (cz_rng_u64(&rng) % 4)
                        s[i] = v;
                    else
                        cz_fr_random(&s[i], &rng);
                }
                break;
            default: /* PoRep-like on the bit path: the others' Pippenger */
                bits_scalars(s, n, BITS_POREP, &rng);
                for (size_t i = 0; i < n; i += 7)
                    cz_fr_random(&s[i], &rng);
                flags = CZ_CUDA_MSM_BITS;
                break;
            }
            check(cz_cuda_upload(g_ctx, &pb, 0, q, n * sizeof *q));
            cz_g2_jac want;
            g2_want(&want, q, s, n, flags);
            if (kind == 0)
                assert_true(cz_g2_jac_is_infinity(&want));
            char what[32];
            snprintf(what, sizeof what, "edges kind %d", kind);
            g2_affine_check(&pb, s, n, flags, 0, &want, NULL, what);
        }
        check(cz_cuda_buf_free(g_ctx, &pb));
        free(p);
        free(one);
        free(s);
    }
    knobs_restore();
}

/* the G2 MSM of 2^17 points in an arena of mib MiB under mode */
static cz_status g2_arena_msm(cz_g2_jac *got, size_t mib, const char *mode, const cz_g2_affine *p,
                              const cz_fr *s, size_t n)
{
    cz_cuda_ctx *ctx;
    char err[256];
    check(cz_cuda_ctx_create(&ctx, 0, mib << 20, 0, err, sizeof err));
    knob("CUZK_MSM_G2_AFFINE", mode);
    cz_status st = cz_cuda_g2_msm(ctx, got, p, s, n, CZ_CUDA_MSM_GENERAL);
    if (st != CZ_OK && st != CZ_ERR_NOMEM)
        fail_msg("G2 MSM in %zu MiB, affine=%s: %s: %s", mib, mode, cz_strerror(st),
                 cz_cuda_ctx_error(ctx));
    cz_cuda_ctx_destroy(ctx);
    return st;
}

/* the smallest arena (MiB, within [lo, hi]) where mode's MSM fits, its
   result checked; hi + 1 when none does */
static size_t g2_arena_least(const char *mode, size_t lo, size_t hi, const cz_g2_affine *p,
                             const cz_fr *s, size_t n, const cz_g2_jac *want)
{
    size_t a = lo, b = hi + 1;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        cz_g2_jac got;
        if (g2_arena_msm(&got, mid, mode, p, s, n) == CZ_OK) {
            if (!cz_g2_jac_eq(&got, want))
                fail_msg("G2 MSM in %zu MiB, affine=%s differs from the CPU", mid, mode);
            b = mid;
        } else {
            a = mid + 1;
        }
    }
    return a;
}

/* small arenas: the rounds in several window batches, and where their
   buffers do not fit, the XYZZ segments alone (mode 1) or out of memory
   (mode 2) */
static void test_g2_affine_arena(void **state)
{
    (void)state;
    if (cz_cuda_is_model()) {
        printf("# the model has no affine rounds\n");
        return;
    }
    if (!cz_test_full()) {
        printf("# 2^17 G2 in small arenas left out of a quick run\n");
        return;
    }
    knobs_save();
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = (size_t)1 << 17;
    cz_g2_affine *p = g2_points(n, &rng);
    cz_fr *s = malloc(n * sizeof *s);
    fill_scalars(s, n, SC_RANDOM, &rng);
    cz_g2_jac want, got;
    g2_want(&want, p, s, n, 0);
    const size_t hi = 4096;
    size_t a0 = g2_arena_least("0", 32, hi, p, s, n, &want);
    size_t a2 = g2_arena_least("2", a0, hi, p, s, n, &want);
    printf("# 2^17 G2 fits %zu MiB with the XYZZ segments alone, %zu with the affine rounds\n", a0,
           a2);
    assert_true(a0 <= hi);
    assert_true(a2 <= hi);
    /* the rounds' buffers (~21 MB a window of 2^17 pairs) do not fit where
       the XYZZ segments (~2 MB a window) do */
    assert_true(a2 > a0);
    /* just below: mode 2 out of memory, mode 1 the XYZZ segments */
    assert_int_equal(g2_arena_msm(&got, a2 - 1, "2", p, s, n), CZ_ERR_NOMEM);
    assert_int_equal(g2_arena_msm(&got, a2 - 1, "1", p, s, n), CZ_OK);
    assert_true(cz_g2_jac_eq(&got, &want));
    assert_int_equal(g2_arena_msm(&got, a0, "1", p, s, n), CZ_OK);
    assert_true(cz_g2_jac_eq(&got, &want));
    /* the rounds in batches of a few windows, then all at once */
    static const size_t more[] = {30, 100, 700};
    for (size_t k = 0; k < sizeof more / sizeof *more; k++) {
        for (int m = 1; m <= 2; m++) {
            assert_int_equal(g2_arena_msm(&got, a2 + more[k], m == 1 ? "1" : "2", p, s, n), CZ_OK);
            if (!cz_g2_jac_eq(&got, &want))
                fail_msg("G2 MSM in %zu MiB, affine=%d differs from the CPU", a2 + more[k], m);
        }
    }
    free(p);
    free(s);
    knobs_restore();
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
        cmocka_unit_test(test_bits_g2),    cmocka_unit_test(test_bits_ones_rounds),
        cmocka_unit_test(test_g2_affine_rounds),
        cmocka_unit_test(test_affine_groups),
        cmocka_unit_test(test_g2_affine_edges), cmocka_unit_test(test_g2_affine_arena),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
