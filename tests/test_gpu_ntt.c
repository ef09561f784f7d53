/* ctest: labels=gpu timeout=600 */
/*
 * test_gpu_ntt.c: the GPU NTT against the CPU NTT of poly/ntt.h, bit for
 * bit, on random inputs: forward, inverse, coset forward and coset inverse
 * for n = 2^0 .. 2^20 with both root conventions (snarkjs 5, Filecoin 7),
 * the bit-reversed output option, the device-resident entry point, the
 * fused H step (cz_cuda_ntt_h_dev against cz_ntt_snarkjs_odd_points and
 * a .* b - c; and without c, a key with C folded: a .* b from two
 * vectors), and the sizes above 2^20 up to CZ_TEST_NTT_MAX_LOG (default
 * 24, at most 28) against the CPU NTT in full, one kind per size and both
 * roots in turn, plus a round trip and a direct evaluation of a few
 * outputs. Every GPU computation runs under each variant of the passes
 * (CUZK_NTT_VARIANT, cuda/ntt_pass.cuh's CZD_NTT_VARIANTS) against the
 * same CPU result: all of them by default, CZ_TEST_NTT_VARIANTS (names,
 * comma-separated) or CUZK_NTT_VARIANT alone pick some; the host model
 * has no variants and runs the first only. An unknown variant is refused.
 * The H step runs with its middle passes fused (default) and not
 * (CUZK_NTT_H_FUSE=0). The tables kept between calls: test_cache (the
 * same transforms repeated under several caps, CUZK_NTT_CACHE_MB).
 * Skips (exit 77) without a CUDA build or device.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda.h"
#include "poly/ntt.h"
#include "util/threadpool.h"

static cz_cuda_ctx *g_ctx;

/* the variants of cuda/ntt_pass.cuh's CZD_NTT_VARIANTS, by name */
static const char *const k_variants[] = {"r3", "r3v", "r3vs", "r3v1", "r2v", "r2vs", "r2v10", "r2v10s"};
#define MAX_VARIANTS 16
static char g_var[MAX_VARIANTS][16];
static int g_nvar;
static const char *g_cur = "";
static int g_model;

static void variants_init(void)
{
    const char *list = getenv("CZ_TEST_NTT_VARIANTS"), *one = getenv("CUZK_NTT_VARIANT");
    g_nvar = 0;
    if (list && *list) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", list);
        for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t && g_nvar < MAX_VARIANTS;
             t = strtok_r(NULL, ", ", &save))
            snprintf(g_var[g_nvar++], sizeof g_var[0], "%s", t);
    } else if (one && *one) {
        snprintf(g_var[g_nvar++], sizeof g_var[0], "%s", one);
    } else {
        int n = g_model ? 1 : (int)(sizeof k_variants / sizeof k_variants[0]);
        for (int i = 0; i < n; i++)
            snprintf(g_var[g_nvar++], sizeof g_var[0], "%s", k_variants[i]);
    }
}

static void variant_set(int i)
{
    g_cur = g_var[i];
    setenv("CUZK_NTT_VARIANT", g_cur, 1);
}

static void check(cz_status st)
{
    if (st != CZ_OK)
        fail_msg("CUDA call failed: %s: %s", cz_strerror(st), cz_cuda_ctx_error(g_ctx));
}

static void random_vec(cz_fr *a, size_t n, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        cz_fr_random(&a[i], rng);
}

static void compare(const cz_fr *got, const cz_fr *want, size_t n, const char *what, unsigned log_n)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_fr_eq(&got[i], &want[i]))
            fail_msg("%s 2^%u differs at %zu of %zu (variant %s)", what, log_n, i, n, g_cur);
}

static void test_vs_cpu(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    cz_threadpool *pool = cz_threadpool_global();
    unsigned max_log = cz_test_full() ? 20 : 16;
    size_t nmax = (size_t)1 << max_log;
    cz_fr *a = malloc(nmax * sizeof *a), *c = malloc(nmax * sizeof *c);
    cz_fr *g_ = malloc(nmax * sizeof *g_);
    for (unsigned it = 0; it <= 2 * max_log + 1; it++) {
        /* every size with both roots up to 2^16, one root a size above */
        unsigned log_n = it / 2;
        if (log_n > 16 && (it & 1) != (log_n & 1))
            continue;
        size_t n = (size_t)1 << log_n;
        cz_ntt_root root = (it & 1) ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5;
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create(&d, log_n, root), CZ_OK);
        cz_fr shift;
        cz_fr_set_u64(&shift, 7);
        for (int kind = 0; kind < 4; kind++) {
            if (log_n > 16 && kind != (int)(log_n % 4))
                continue; /* every kind at small sizes, one per size above */
            random_vec(a, n, &rng);
            memcpy(c, a, n * sizeof *a);
            switch (kind) {
            case 0: cz_ntt_forward(d, c, pool); break;
            case 1: cz_ntt_inverse(d, c, pool); break;
            case 2: cz_ntt_coset_forward(d, c, &shift, pool); break;
            default: cz_ntt_coset_inverse(d, c, &shift, pool); break;
            }
            for (int vi = 0; vi < g_nvar; vi++) {
                variant_set(vi);
                memcpy(g_, a, n * sizeof *a);
                check(cz_cuda_ntt(g_ctx, g_, log_n, &d->omega, (cz_cuda_ntt_kind)kind, &shift));
                static const char *names[] = {"forward", "inverse", "coset forward", "coset inverse"};
                compare(g_, c, n, names[kind], log_n);
            }
        }
        cz_ntt_domain_destroy(d);
    }
    free(a);
    free(c);
    free(g_);
}

/* device-resident data, bit-reversed output, snarkjs odd points */
static void test_dev_bitrev(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    for (unsigned log_n = 1; log_n <= 18; log_n += 3) {
        size_t n = (size_t)1 << log_n;
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create(&d, log_n, CZ_NTT_ROOT_5), CZ_OK);
        cz_fr *a = malloc(n * sizeof *a), *c = malloc(n * sizeof *c), *g_ = malloc(n * sizeof *g_);
        random_vec(a, n, &rng);
        memcpy(c, a, n * sizeof *a);
        cz_ntt_forward(d, c, cz_threadpool_global());
        cz_cuda_buf buf;
        check(cz_cuda_buf_alloc(g_ctx, &buf, n * sizeof *a));
        for (int vi = 0; vi < g_nvar; vi++) {
            variant_set(vi);
            check(cz_cuda_upload(g_ctx, &buf, 0, a, n * sizeof *a));
            check(cz_cuda_ntt_dev(g_ctx, &buf, log_n, &d->omega, CZ_CUDA_NTT_FORWARD, NULL,
                                  CZ_CUDA_NTT_BITREV_OUT));
            check(cz_cuda_download(g_ctx, g_, &buf, 0, n * sizeof *a));
            for (size_t i = 0; i < n; i++) {
                size_t r = 0;
                for (unsigned b = 0; b < log_n; b++)
                    r |= ((i >> b) & 1) << (log_n - 1 - b);
                if (!cz_fr_eq(&g_[r], &c[i]))
                    fail_msg("bit-reversed output 2^%u differs at %zu (variant %s)", log_n, i, g_cur);
            }
        }
        /* an inverse of a bit-reversed request is refused */
        assert_int_equal(cz_cuda_ntt_dev(g_ctx, &buf, log_n, &d->omega, CZ_CUDA_NTT_INVERSE,
                                         NULL, CZ_CUDA_NTT_BITREV_OUT),
                         CZ_ERR_ARG);
        check(cz_cuda_buf_free(g_ctx, &buf));
        free(a), free(c), free(g_);
        cz_ntt_domain_destroy(d);
    }
}

/* Horner: sum_j a_j x^j */
static void eval_at(cz_fr *out, const cz_fr *a, size_t n, const cz_fr *x)
{
    cz_fr acc;
    cz_fr_zero(&acc);
    for (size_t j = n; j-- > 0;) {
        cz_fr_mul(&acc, &acc, x);
        cz_fr_add(&acc, &acc, &a[j]);
    }
    *out = acc;
}

/* The CPU reference of the H step: snarkjs's odd points of a, b, c (g
   NULL), or the values on the coset g (inverse NTT, times g^j, forward
   NTT), then a .* b - c into a. */
static void h_cpu(const cz_ntt_domain *d, cz_fr *a, cz_fr *b, cz_fr *c, const cz_fr *g)
{
    cz_threadpool *pool = cz_threadpool_global();
    cz_fr *v[3] = {a, b, c};
    for (int i = 0; i < (c ? 3 : 2); i++) {
        if (!g) {
            cz_ntt_snarkjs_odd_points(d, v[i], pool);
            continue;
        }
        cz_ntt_inverse(d, v[i], pool);
        cz_fr_scale_powers(v[i], d->n, NULL, g, pool);
        cz_ntt_forward(d, v[i], pool);
    }
    for (size_t i = 0; i < d->n; i++) {
        cz_fr t;
        cz_fr_mul(&t, &a[i], &b[i]);
        if (c)
            cz_fr_sub(&t, &t, &c[i]);
        a[i] = t;
    }
}

/* g NULL: snarkjs's odd points (g = omega_2n, the twists apply it);
   else that coset (the scale is a pass's product). no_c: without c (a
   key with C folded), h = a .* b. */
static void h_check_c(unsigned log_n, cz_ntt_root root, cz_rng *rng, const cz_fr *g, bool no_c)
{
    size_t n = (size_t)1 << log_n;
    cz_ntt_domain *d;
    assert_int_equal(cz_ntt_domain_create(&d, log_n, root), CZ_OK);
    cz_fr *v[3], *in[3], *g_ = malloc(n * sizeof *g_);
    cz_cuda_buf buf[3];
    for (int i = 0; i < 3; i++) {
        v[i] = malloc(n * sizeof *v[i]);
        in[i] = malloc(n * sizeof *in[i]);
        random_vec(v[i], n, rng);
        memcpy(in[i], v[i], n * sizeof *g_);
        check(cz_cuda_buf_alloc(g_ctx, &buf[i], n * sizeof *g_));
    }
    h_cpu(d, v[0], v[1], no_c ? NULL : v[2], g);
    if (no_c)
        check(cz_cuda_buf_free(g_ctx, &buf[2])); /* an empty buffer: no c */
    /* every variant, with the middle passes fused (the default) and not */
    for (int vi = 0; vi < g_nvar; vi++) {
        variant_set(vi);
        for (int fuse = 1; fuse >= (g_model ? 1 : 0); fuse--) {
            setenv("CUZK_NTT_H_FUSE", fuse ? "1" : "0", 1);
            for (int i = 0; i < (no_c ? 2 : 3); i++)
                check(cz_cuda_upload(g_ctx, &buf[i], 0, in[i], n * sizeof *g_));
            check(cz_cuda_ntt_h_dev(g_ctx, buf, log_n, &d->omega, g ? g : &d->omega_2n));
            check(cz_cuda_download(g_ctx, g_, &buf[0], 0, n * sizeof *g_));
            static const char *what[2][3] = {
                {"H step on a coset (unfused)", "H step (root 5, unfused)", "H step (root 7, unfused)"},
                {"H step on a coset", "H step (root 5)", "H step (root 7)"}};
            compare(g_, v[0], n, no_c ? (fuse ? "H step without c" : "H step without c (unfused)")
                                      : what[fuse][g ? 0 : root == CZ_NTT_ROOT_5 ? 1 : 2],
                    log_n);
        }
        unsetenv("CUZK_NTT_H_FUSE");
    }
    for (int i = 2; i >= 0; i--) {
        check(cz_cuda_buf_free(g_ctx, &buf[i]));
        free(v[i]);
        free(in[i]);
    }
    free(g_);
    cz_ntt_domain_destroy(d);
}

static void h_check(unsigned log_n, cz_ntt_root root, cz_rng *rng, const cz_fr *g)
{
    h_check_c(log_n, root, rng, g, false);
}

/* the fused H step against the CPU at every size up to 2^20 (2^14 quick),
   the roots in turn, and on the coset 7 at every third size */
static void test_h_step(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    unsigned max_log = cz_test_full() ? 20 : 14;
    cz_fr seven;
    cz_fr_set_u64(&seven, 7);
    for (unsigned log_n = 0; log_n <= max_log; log_n++) {
        h_check(log_n, (log_n & 1) ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5, &rng, NULL);
        if (log_n % 3 == 0)
            h_check(log_n, CZ_NTT_ROOT_5, &rng, &seven);
        if (log_n % 4 == 1 || log_n == max_log)
            h_check_c(log_n, CZ_NTT_ROOT_5, &rng, NULL, true);
    }
    h_check_c(9, CZ_NTT_ROOT_5, &rng, &seven, true);
    h_check(5, CZ_NTT_ROOT_7, &rng, NULL);
    h_check(12, CZ_NTT_ROOT_7, &rng, NULL);
}

/* 2^21 .. 2^CZ_TEST_NTT_MAX_LOG against the CPU NTT, one kind per size and
   the roots in turn, with a round trip; the H step at 2^22 and 2^24 */
static void test_large(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("# sizes above 2^20 left out of a quick run\n");
        return;
    }
    const char *e = getenv("CZ_TEST_NTT_MAX_LOG");
    unsigned max_log = e ? (unsigned)atoi(e) : 24;
    if (max_log > 28)
        max_log = 28;
    cz_rng rng;
    cz_test_rng(&rng);
    cz_threadpool *pool = cz_threadpool_global();
    cz_fr shift;
    cz_fr_set_u64(&shift, 7);
    for (unsigned log_n = 21; log_n <= max_log; log_n++) {
        size_t n = (size_t)1 << log_n;
        cz_ntt_root root = (log_n & 1) ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5;
        cz_ntt_domain *d;
        assert_int_equal(cz_ntt_domain_create(&d, log_n, root), CZ_OK);
        cz_fr *a = malloc(n * sizeof *a), *c = malloc(n * sizeof *c), *g_ = malloc(n * sizeof *g_);
        assert_non_null(a);
        assert_non_null(c);
        assert_non_null(g_);
        random_vec(a, n, &rng);
        memcpy(c, a, n * sizeof *a);
        int kind = (int)(log_n % 4);
        switch (kind) {
        case 0: cz_ntt_forward(d, c, pool); break;
        case 1: cz_ntt_inverse(d, c, pool); break;
        case 2: cz_ntt_coset_forward(d, c, &shift, pool); break;
        default: cz_ntt_coset_inverse(d, c, &shift, pool); break;
        }
        /* a forward transform's outputs 1 and one at random by direct
           evaluation (one thread: up to 2^24) */
        size_t at[2] = {1, (size_t)(cz_rng_u64(&rng) & (n - 1))};
        cz_fr val[2];
        int nat = log_n <= 24 ? 2 : 0;
        for (int t = 0; t < nat; t++) {
            cz_fr x;
            uint64_t ex = at[t];
            cz_fr_pow(&x, &d->omega, &ex, 1);
            eval_at(&val[t], a, n, &x);
        }
        for (int vi = 0; vi < g_nvar; vi++) {
            variant_set(vi);
            memcpy(g_, a, n * sizeof *a);
            check(cz_cuda_ntt(g_ctx, g_, log_n, &d->omega, (cz_cuda_ntt_kind)kind, &shift));
            static const char *names[] = {"forward", "inverse", "coset forward", "coset inverse"};
            compare(g_, c, n, names[kind], log_n);
            /* the forward transform's evaluated outputs, and the round trip */
            memcpy(g_, a, n * sizeof *a);
            check(cz_cuda_ntt(g_ctx, g_, log_n, &d->omega, CZ_CUDA_NTT_FORWARD, NULL));
            for (int t = 0; t < nat; t++)
                if (!cz_fr_eq(&val[t], &g_[at[t]]))
                    fail_msg("forward 2^%u: output %zu is not a(w^%zu) (variant %s)", log_n, at[t],
                             at[t], g_cur);
            check(cz_cuda_ntt(g_ctx, g_, log_n, &d->omega, CZ_CUDA_NTT_INVERSE, NULL));
            compare(g_, a, n, "round trip", log_n);
        }
        free(a), free(c), free(g_);
        cz_ntt_domain_destroy(d);
        if (log_n == 22 || log_n == 24)
            h_check_c(log_n, root, &rng, NULL, log_n == 24);
    }
}

/* The tables kept between calls (cuda/ntt.cu, CUZK_NTT_CACHE_MB): the same
   transforms again and again, the kinds interleaved so that entries are
   found, made and evicted, under the default cap, with the cache off (0)
   and under a cap of 1 MiB (a few entries at 2^16 and 2^20; 2^23's tables,
   about 1.2 MiB, are refused and built in the scratch every call), the cap
   changing between calls (the cache starts again); every result against
   the CPU. The H step twice on the same vectors, one result. */
static void test_cache(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    cz_threadpool *pool = cz_threadpool_global();
    const unsigned logs[] = {10, 16, 20, 23};
    const unsigned nlogs = cz_test_full() ? 4 : 2;
    const char *caps[] = {"", "0", "1", ""};
    const char *keep_env = getenv("CUZK_NTT_CACHE_MB");
    char keep[32];
    snprintf(keep, sizeof keep, "%s", keep_env ? keep_env : "");
    cz_fr shift;
    cz_fr_set_u64(&shift, 7);
    for (unsigned ci = 0; ci < sizeof caps / sizeof *caps; ci++) {
        if (*caps[ci])
            setenv("CUZK_NTT_CACHE_MB", caps[ci], 1);
        else
            unsetenv("CUZK_NTT_CACHE_MB");
        for (unsigned li = 0; li < nlogs; li++) {
            unsigned log_n = logs[li];
            size_t n = (size_t)1 << log_n;
            cz_ntt_root root = (li & 1) ? CZ_NTT_ROOT_7 : CZ_NTT_ROOT_5;
            cz_ntt_domain *d;
            assert_int_equal(cz_ntt_domain_create(&d, log_n, root), CZ_OK);
            cz_fr *a = malloc(n * sizeof *a), *c[4], *g_ = malloc(n * sizeof *g_);
            assert_non_null(a);
            assert_non_null(g_);
            random_vec(a, n, &rng);
            for (int kind = 0; kind < 4; kind++) {
                c[kind] = malloc(n * sizeof *a);
                assert_non_null(c[kind]);
                memcpy(c[kind], a, n * sizeof *a);
                switch (kind) {
                case 0: cz_ntt_forward(d, c[kind], pool); break;
                case 1: cz_ntt_inverse(d, c[kind], pool); break;
                case 2: cz_ntt_coset_forward(d, c[kind], &shift, pool); break;
                default: cz_ntt_coset_inverse(d, c[kind], &shift, pool); break;
                }
            }
            for (int rep = 0; rep < 3; rep++)
                for (int kind = 0; kind < 4; kind++) {
                    memcpy(g_, a, n * sizeof *a);
                    check(cz_cuda_ntt(g_ctx, g_, log_n, &d->omega, (cz_cuda_ntt_kind)kind, &shift));
                    char what[64];
                    snprintf(what, sizeof what, "cached tables (cap '%s', call %d, kind %d)",
                             caps[ci], rep, kind);
                    compare(g_, c[kind], n, what, log_n);
                }
            for (int kind = 0; kind < 4; kind++)
                free(c[kind]);
            free(a);
            free(g_);
            cz_ntt_domain_destroy(d);
        }
        if (cz_test_full()) /* twice each: the second call finds the first's tables */
            for (int rep = 0; rep < 2; rep++)
                h_check(16, CZ_NTT_ROOT_5, &rng, NULL);
    }
    if (keep_env)
        setenv("CUZK_NTT_CACHE_MB", keep, 1);
    else
        unsetenv("CUZK_NTT_CACHE_MB");
}

static void test_bad_args(void **state)
{
    (void)state;
    cz_fr one, x;
    cz_fr_one(&one);
    cz_fr_one(&x);
    assert_int_equal(cz_cuda_ntt(g_ctx, &x, 29, &one, CZ_CUDA_NTT_FORWARD, NULL), CZ_ERR_ARG);
    assert_int_equal(cz_cuda_ntt(g_ctx, &x, 0, &one, CZ_CUDA_NTT_COSET_FORWARD, NULL), CZ_ERR_ARG);
    if (!g_model) { /* the model has no variants */
        const char *old = getenv("CUZK_NTT_VARIANT");
        char keep[64];
        snprintf(keep, sizeof keep, "%s", old ? old : "");
        setenv("CUZK_NTT_VARIANT", "no-such-variant", 1);
        cz_fr v[8];
        for (int i = 0; i < 8; i++)
            cz_fr_set_u64(&v[i], (uint64_t)i);
        assert_int_equal(cz_cuda_ntt(g_ctx, v, 3, &one, CZ_CUDA_NTT_FORWARD, NULL), CZ_ERR_ARG);
        if (old)
            setenv("CUZK_NTT_VARIANT", keep, 1);
        else
            unsetenv("CUZK_NTT_VARIANT");
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
    /* 2^28: the data, the scratch copy of a natural-order transform, three
       vectors of the H step and the tables */
    if (cz_cuda_ctx_create(&g_ctx, 0, (size_t)40 << 30, 0, err, sizeof err) != CZ_OK) {
        printf("SKIPPED: no CUDA device (%s)\n", err);
        return 77;
    }
    printf("# device: %s\n", cz_cuda_device_name(g_ctx));
    g_model = strncmp(cz_cuda_device_name(g_ctx), "cuzk GPU model", 14) == 0;
    variants_init();
    printf("# NTT variants:");
    for (int i = 0; i < g_nvar; i++)
        printf(" %s", g_var[i]);
    printf("\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vs_cpu),
        cmocka_unit_test(test_dev_bitrev),
        cmocka_unit_test(test_h_step),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_bad_args),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
