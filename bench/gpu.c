/*
 * gpu.c: GPU benchmarks: G1 (and G2) MSM and Fr NTT on the CUDA backend.
 *
 *   bench-gpu [--msm-min 16] [--msm-max 26] [--ntt-min 16] [--ntt-max 27]
 *             [--g2-max 22] [--h-min 20] [--h-max 27] [--reps 5]
 *             [--only PART[,PART...]] (msm ntt h g2 bits fixed compact) [--wsweep LOG]
 *             [--bits LOG,LOG,...] [--bits-g2 N] [--bits-general 0|1]
 *             [--fixed-base N] [--compact LOG,LOG,...] [--curve bls12-381|bn254]
 *             [--prove-log LOG,LOG,...] (bn254)
 *
 * --curve bn254 times the same kernels over BN254 ("bn128", cuda.h's
 * _bn254 functions): the parts msm, g2, ntt and h (the others are
 * BLS12-381's only), rows named "bn254_..." in the same table and JSON,
 * by default G1 and G2 MSMs at 2^20..2^26 and the NTTs and H step at
 * 2^20..2^24 (snarkjs's roots; an option given sets its bound as usual).
 * With --curve bn254, --only prove (or --prove-log LOG,LOG,...; 20 by
 * default) times a whole bn128 Groth16 proof with the key resident on the
 * GPU: bench/bn254_chain.h's Chain(N) filling a 2^LOG domain, its key made
 * by the project's BN254 setup (seeded, all host cores) and uploaded
 * once (points and matrices), then a warm-up and max(--reps, 3) proofs
 * (cz_cuda_bn254_groth16_prove_dev: w, pinned, sent once; a, b, c, H and
 * the MSMs on the GPU), each
 * stage's median ("bn254_prove_abc", "_ntt_h", "_msm_a" .. "_msm_h",
 * "_msms", "_assemble") and the whole proof's ("bn254_prove"); the
 * warm-up's and the last proof must pass cz_bn254_groth16_verify against
 * the key's vk (exit 1 otherwise). The set-up and key upload are rows too.
 *
 * Inputs are made on the device machine: points of random discrete log by
 * the GPU generator (base points k_j G, then sums of two), scalars and NTT
 * data from a seeded generator (top bits cleared, so every value is a
 * valid Montgomery element). Points stay on the GPU; MSM times are given
 * with scalars already on the GPU ("dev") and uploaded from pinned host
 * memory within the timed call ("pinned"), as sppark's figures are. Each
 * figure is the median of --reps runs after one warm-up. "h_step" is
 * Groth16's H (a, b, c on the GPU to h on the GPU, cz_cuda_ntt_h_dev).
 * --wsweep LOG
 * (a comma-separated list) times the G1 (and G2, within --g2-max) MSM of 2^LOG points with window
 * widths 8..22 (12..22 above 2^20; --wsweep-c LO-HI sets them).
 * --bits (G1, 2^LOG points each) and --bits-g2 (G2, N points) time the MSM
 * with PoRep-like scalars (1 % random, the rest 0 or 1 evenly, as
 * Filecoin's witnesses): "porep" rows take the automatic (bit-heavy) path,
 * "porep_general" rows force the general Pippenger on the same input, and
 * the two results must be equal (exit 1 otherwise; --bits-general 0 leaves
 * the general rows out).
 * --fixed-base N times cz_cuda_g1/g2_fixed_base (N points s_i G each, host
 * arrays in and out, as a development setup calls it), from pageable
 * ("g1_fixed_base") and pinned ("..._pinned") memory; a sample of the
 * points is checked against the CPU (exit 1 on a difference).
 * --compact LOG (a list) times a = A w, b = B w, c = a .* b over compact
 * matrices of 2^LOG rows, everything on the GPU ("compact_abc"): PoRep-like
 * rows of 2..6 terms (uniform random columns, the worst case for the
 * witness reads), 40 coefficients, witness values mostly 0 and 1.
 * Prints one JSON
 * line per figure (stdout) and a table (stderr). Exit 77 without a GPU.
 * MSM rows (msm, g2, the window sweep) carry their result's fingerprint
 * ("result": FNV-1a of the affine point; the inputs come from a fixed
 * seed), so two settings or builds can be compared bit for bit at sizes
 * the CPU cannot check.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/cuda.h"
#include "bn254_chain.h"
#include "groth16/verify_bn254.h"
#include "util/threadpool.h"
#include "poly/ntt.h"
#include "poly/ntt_bn254.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const char *g_commit = "unknown";
static const char *g_dev = "?";

/* one row; fp (nonzero) the result's fingerprint, printed as "result" */
static void report_row(const char *what, unsigned log_n, double n, double med, double lo,
                       double hi, int reps, uint32_t fp)
{
    char res[32] = "";
    if (fp)
        snprintf(res, sizeof res, ",\"result\":\"%08x\"", fp);
    printf("{\"bench\":\"%s\",\"log_n\":%u,\"n\":%.0f,\"ms\":%.3f,\"ms_min\":%.3f,\"ms_max\":%.3f,"
           "\"reps\":%d,\"rate_per_s\":%.4g%s,\"device\":\"%s\",\"commit\":\"%s\"}\n",
           what, log_n, n, med, lo, hi, reps, n / (med / 1e3), res, g_dev, g_commit);
    fprintf(stderr, "%-22s 2^%-2u %10.3f ms  (min %.3f, max %.3f)", what, log_n, med, lo, hi);
    if (fp)
        fprintf(stderr, "  result %08x", fp);
    fputc('\n', stderr);
    fflush(stdout);
}

static void report_stats(const char *what, unsigned log_n, double n, double med, double lo,
                         double hi, int reps)
{
    report_row(what, log_n, n, med, lo, hi, reps, 0);
}

/* the median row of t[0..reps) (sorted here); fp as report_row's */
static void report_t(const char *what, unsigned log_n, double n, double *t, int reps, uint32_t fp)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_d);
    report_row(what, log_n, n, t[reps / 2], t[0], t[reps - 1], reps, fp);
}

static void report_n(const char *what, unsigned log_n, double n, double *t, int reps)
{
    report_t(what, log_n, n, t, reps, 0);
}

static void report(const char *what, unsigned log_n, double *t, int reps)
{
    report_n(what, log_n, (double)((size_t)1 << log_n), t, reps);
}

static void die(cz_cuda_ctx *ctx, cz_status st, const char *what)
{
    fprintf(stderr, "bench-gpu: %s: %s: %s\n", what, cz_strerror(st), ctx ? cz_cuda_ctx_error(ctx) : "");
    exit(1);
}
#define CK(ctx, call, what)                                                                    \
    do {                                                                                       \
        cz_status st_ = (call);                                                                \
        if (st_ != CZ_OK)                                                                      \
            die(ctx, st_, what);                                                               \
    } while (0)

static void random_fr(cz_fr *a, size_t n, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++)
            a[i].l[k] = cz_rng_u64(rng);
        a[i].l[3] &= 0x3fffffffffffffffULL; /* < 2^254 < r */
    }
}

static uint64_t g_wsweep; /* bit LOG set: sweep the window width at 2^LOG */
static unsigned g_wsweep_lo, g_wsweep_hi = 22; /* the widths swept (lo 0: 8, or 12 above 2^20) */
static int g_bn; /* --curve bn254 */

/* BN254 scalars below 2^253 < r (the bytes of cz_bn254_fr) */
static void random_fr254(cz_fr *a, size_t n, cz_rng *rng)
{
    random_fr(a, n, rng);
    for (size_t i = 0; i < n; i++)
        a[i].l[3] &= 0x1fffffffffffffffULL;
}

/* an MSM's result, of whichever curve and group is in use */
typedef union {
    cz_g1_jac g1;
    cz_g2_jac g2;
    cz_bn254_g1_jac bn_g1;
    cz_bn254_g2_jac bn_g2;
} msm_result;

/* the MSM of the curve in use (scalars cz_fr or cz_bn254_fr: 32 bytes) */
static cz_status msm_dev(cz_cuda_ctx *ctx, int g2, const cz_cuda_buf *pts, const cz_fr *sh,
                         const cz_cuda_buf *sd, size_t n, unsigned flags, unsigned c,
                         msm_result *out)
{
    const cz_bn254_fr *bsh = (const cz_bn254_fr *)sh;
    if (g_bn)
        return g2 ? cz_cuda_bn254_g2_msm_dev(ctx, &out->bn_g2, pts, bsh, sd, n, flags, c)
                  : cz_cuda_bn254_g1_msm_dev(ctx, &out->bn_g1, pts, bsh, sd, n, flags, c);
    return g2 ? cz_cuda_g2_msm_dev(ctx, &out->g2, pts, sh, sd, n, flags, c)
              : cz_cuda_g1_msm_dev(ctx, &out->g1, pts, sh, sd, n, flags, c);
}

static uint32_t fnv32(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

/* a fingerprint of an MSM's result (FNV-1a over its affine coordinates),
   taken outside the timed calls: equal results, equal fingerprints, so
   the rows of two settings can be compared bit for bit at sizes the CPU
   cannot check in a call */
static uint32_t msm_fingerprint(int g2, const msm_result *r)
{
#define MSM_FP(G, JAC)                                                                             \
    do {                                                                                           \
        cz_##G##_affine a;                                                                         \
        cz_##G##_jac_to_affine(&a, JAC);                                                           \
        return fnv32(&a, sizeof a);                                                                \
    } while (0)
    if (g_bn && g2)
        MSM_FP(bn254_g2, &r->bn_g2);
    if (g_bn)
        MSM_FP(bn254_g1, &r->bn_g1);
    if (g2)
        MSM_FP(g2, &r->g2);
    MSM_FP(g1, &r->g1);
#undef MSM_FP
}

static void bench_msm(cz_cuda_ctx *ctx, int g2, unsigned lo, unsigned hi, int reps, cz_rng *rng)
{
    size_t nmax = (size_t)1 << hi;
    size_t pb = g_bn ? (g2 ? sizeof(cz_bn254_g2_affine) : sizeof(cz_bn254_g1_affine))
                     : (g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine));
    cz_fr *s = malloc(nmax * sizeof *s);
    if (!s)
        die(NULL, CZ_ERR_NOMEM, "scalars");
    if (g_bn)
        random_fr254(s, nmax, rng);
    else
        random_fr(s, nmax, rng);
    cz_cuda_buf pts, sc;
    double t0 = now_ms();
    CK(ctx, cz_cuda_buf_alloc(ctx, &pts, nmax * pb), "points buffer");
    cz_fr k[4096];
    random_fr(k, 4096, rng);
    if (g_bn) {
        for (int i = 0; i < 4096; i++) /* below BN254's r */
            k[i].l[3] &= 0x1fffffffffffffffULL;
        if (g2)
            CK(ctx, cz_cuda_bn254_g2_gen_points(ctx, &pts, nmax, (const cz_bn254_fr *)k, 4096),
               "gen points");
        else
            CK(ctx, cz_cuda_bn254_g1_gen_points(ctx, &pts, nmax, (const cz_bn254_fr *)k, 4096),
               "gen points");
    } else if (g2)
        CK(ctx, cz_cuda_g2_gen_points(ctx, &pts, nmax, k, 4096), "gen points");
    else
        CK(ctx, cz_cuda_g1_gen_points(ctx, &pts, nmax, k, 4096), "gen points");
    fprintf(stderr, "# %zu %s points generated on the GPU in %.0f ms\n", nmax, g2 ? "G2" : "G1",
            now_ms() - t0);
    CK(ctx, cz_cuda_buf_alloc(ctx, &sc, nmax * sizeof *s), "scalar buffer");
    CK(ctx, cz_cuda_upload(ctx, &sc, 0, s, nmax * sizeof *s), "upload");
    int pinned = cz_cuda_host_register(ctx, s, nmax * sizeof *s) == CZ_OK;
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    msm_result res;
    for (unsigned lg = lo; lg <= hi; lg++) {
        size_t n = (size_t)1 << lg;
        for (int mode = 0; mode < (pinned ? 2 : 1); mode++) {
            for (int r = -1; r < reps; r++) {
                double a = now_ms();
                cz_status st =
                    msm_dev(ctx, g2, &pts, mode ? s : NULL, mode ? NULL : &sc, n, 0, 0, &res);
                CK(ctx, st, "msm");
                if (r >= 0)
                    t[r] = now_ms() - a;
            }
            char name[64];
            snprintf(name, sizeof name, "%s%s_msm_%s", g_bn ? "bn254_" : "", g2 ? "g2" : "g1",
                     mode ? "pinned" : "dev");
            report_t(name, lg, (double)((size_t)1 << lg), t, reps, msm_fingerprint(g2, &res));
        }
    }
    for (unsigned lg = lo; lg <= hi; lg++) {
        if (!(g_wsweep >> lg & 1))
            continue;
        for (unsigned c = g_wsweep_lo ? g_wsweep_lo : lg > 20 ? 12 : 8; c <= g_wsweep_hi && c < lg; c++) {
            for (int r = -1; r < reps; r++) {
                double a = now_ms();
                cz_status st = msm_dev(ctx, g2, &pts, NULL, &sc, (size_t)1 << lg, 0, c, &res);
                CK(ctx, st, "msm");
                if (r >= 0)
                    t[r] = now_ms() - a;
            }
            char name[64];
            snprintf(name, sizeof name, "%s%s_msm_dev_c%u", g_bn ? "bn254_" : "", g2 ? "g2" : "g1",
                     c);
            report_t(name, lg, (double)((size_t)1 << lg), t, reps, msm_fingerprint(g2, &res));
        }
    }
    if (pinned)
        cz_cuda_host_unregister(ctx, s);
    CK(ctx, cz_cuda_buf_free(ctx, &sc), "free");
    CK(ctx, cz_cuda_buf_free(ctx, &pts), "free");
    free(t);
    free(s);
}

static int g_bits_general = 1; /* --bits-general 0: no general-path rows */

/* PoRep-like scalars: 1 % random (below 2^254), the rest 0 or 1 evenly */
static void porep_fr(cz_fr *a, size_t n, cz_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = cz_rng_u64(rng);
        if (u % 100 == 0)
            random_fr(&a[i], 1, rng);
        else if (u >> 63)
            cz_fr_one(&a[i]);
        else
            cz_fr_zero(&a[i]);
    }
}

/* the MSM of n points with PoRep-like scalars on the device, automatic
   path and general path; the results must agree */
static void bench_bits(cz_cuda_ctx *ctx, int g2, size_t n, int reps, cz_rng *rng)
{
    size_t pb = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    unsigned lg = 0;
    while (((size_t)1 << lg) < n)
        lg++;
    cz_fr *s = malloc(n * sizeof *s);
    if (!s)
        die(NULL, CZ_ERR_NOMEM, "scalars");
    porep_fr(s, n, rng);
    size_t others = 0;
    cz_fr one;
    cz_fr_one(&one);
    for (size_t i = 0; i < n; i++)
        others += !cz_fr_is_zero(&s[i]) && !cz_fr_eq(&s[i], &one);
    cz_cuda_buf pts, sc;
    double t0 = now_ms();
    CK(ctx, cz_cuda_buf_alloc(ctx, &pts, n * pb), "points buffer");
    cz_fr k[4096];
    random_fr(k, 4096, rng);
    if (g2)
        CK(ctx, cz_cuda_g2_gen_points(ctx, &pts, n, k, 4096), "gen points");
    else
        CK(ctx, cz_cuda_g1_gen_points(ctx, &pts, n, k, 4096), "gen points");
    CK(ctx, cz_cuda_buf_alloc(ctx, &sc, n * sizeof *s), "scalar buffer");
    CK(ctx, cz_cuda_upload(ctx, &sc, 0, s, n * sizeof *s), "upload");
    fprintf(stderr, "# %zu %s points and PoRep-like scalars (%zu neither 0 nor 1) in %.0f ms\n", n,
            g2 ? "G2" : "G1", others, now_ms() - t0);
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    cz_g1_jac o1[2];
    cz_g2_jac o2[2];
    for (int mode = 0; mode < (g_bits_general ? 2 : 1); mode++) {
        unsigned flags = mode ? CZ_CUDA_MSM_GENERAL : 0;
        for (int r = -1; r < reps; r++) {
            double a = now_ms();
            if (g2)
                CK(ctx, cz_cuda_g2_msm_dev(ctx, &o2[mode], &pts, NULL, &sc, n, flags, 0), "msm");
            else
                CK(ctx, cz_cuda_g1_msm_dev(ctx, &o1[mode], &pts, NULL, &sc, n, flags, 0), "msm");
            if (r >= 0)
                t[r] = now_ms() - a;
        }
        char name[64];
        snprintf(name, sizeof name, "%s_msm_porep%s", g2 ? "g2" : "g1", mode ? "_general" : "");
        report_n(name, lg, (double)n, t, reps);
    }
    if (g_bits_general && (g2 ? !cz_g2_jac_eq(&o2[0], &o2[1]) : !cz_g1_jac_eq(&o1[0], &o1[1]))) {
        fprintf(stderr, "bench-gpu: %s MSM of %zu PoRep-like scalars: bit-heavy and general paths differ\n",
                g2 ? "G2" : "G1", n);
        exit(1);
    }
    CK(ctx, cz_cuda_buf_free(ctx, &sc), "free");
    CK(ctx, cz_cuda_buf_free(ctx, &pts), "free");
    free(t);
    free(s);
}

static void bench_fixed_base(cz_cuda_ctx *ctx, size_t n, int reps, cz_rng *rng)
{
    cz_fr *s = malloc(n * sizeof *s);
    void *out = malloc(n * sizeof(cz_g2_affine));
    if (!s || !out)
        die(NULL, CZ_ERR_NOMEM, "fixed-base arrays");
    random_fr(s, n, rng);
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    unsigned lg = 0;
    while (((size_t)1 << (lg + 1)) <= n)
        lg++;
    for (int pinned = 0; pinned < 2; pinned++) {
        if (pinned && (cz_cuda_host_register(ctx, s, n * sizeof *s) != CZ_OK ||
                       cz_cuda_host_register(ctx, out, n * sizeof(cz_g2_affine)) != CZ_OK)) {
            fprintf(stderr, "# fixed base: host memory could not be pinned\n");
            break;
        }
        for (int g2 = 0; g2 < 2; g2++) {
            for (int r = -1; r < reps; r++) {
                double a = now_ms();
                if (g2)
                    CK(ctx, cz_cuda_g2_fixed_base(ctx, out, s, n), "g2 fixed base");
                else
                    CK(ctx, cz_cuda_g1_fixed_base(ctx, out, s, n), "g1 fixed base");
                if (r >= 0)
                    t[r] = now_ms() - a;
            }
            char name[64];
            snprintf(name, sizeof name, "%s_fixed_base%s", g2 ? "g2" : "g1", pinned ? "_pinned" : "");
            report_n(name, lg, (double)n, t, reps);
            /* a sample against the CPU */
            for (size_t i = 0; i < n; i += n / 7 + 1) {
                int ok;
                if (g2) {
                    cz_g2_affine g, a;
                    cz_g2_jac j;
                    cz_g2_generator(&g);
                    cz_g2_jac_from_affine(&j, &g);
                    cz_g2_jac_mul(&j, &j, &s[i]);
                    cz_g2_jac_to_affine(&a, &j);
                    ok = !memcmp(&a, (cz_g2_affine *)out + i, sizeof a);
                } else {
                    cz_g1_affine g, a;
                    cz_g1_jac j;
                    cz_g1_generator(&g);
                    cz_g1_jac_from_affine(&j, &g);
                    cz_g1_jac_mul(&j, &j, &s[i]);
                    cz_g1_jac_to_affine(&a, &j);
                    ok = !memcmp(&a, (cz_g1_affine *)out + i, sizeof a);
                }
                if (!ok) {
                    fprintf(stderr, "bench-gpu: %s fixed base differs from the CPU at %zu\n",
                            g2 ? "G2" : "G1", i);
                    exit(1);
                }
            }
        }
        if (pinned) {
            cz_cuda_host_unregister(ctx, out);
            cz_cuda_host_unregister(ctx, s);
        }
    }
    free(t);
    free(out);
    free(s);
}

/* a PoRep-like compact matrix of `rows` rows over n_w columns */
static void compact_matrix(cz_cmat *m, uint32_t rows, uint32_t n_w, cz_rng *rng)
{
    m->n_rows = rows;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof *m->row_ptr);
    m->col = malloc((size_t)rows * 6 * sizeof *m->col);
    m->coef = malloc((size_t)rows * 6 * sizeof *m->coef);
    if (!m->row_ptr || !m->col || !m->coef)
        die(NULL, CZ_ERR_NOMEM, "compact matrix");
    uint64_t k = 0;
    m->row_ptr[0] = 0;
    for (uint32_t i = 0; i < rows; i++) {
        uint64_t r = cz_rng_u64(rng);
        unsigned t = 2 + (unsigned)(r % 5);
        for (unsigned j = 0; j < t; j++) {
            m->col[k] = (uint32_t)((r >> 8) * (j + 1) % n_w);
            m->coef[k] = (uint16_t)((r >> (40 + j)) % 40);
            k++;
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        }
        m->row_ptr[i + 1] = k;
    }
    m->nnz = k;
}

static void bench_compact(cz_cuda_ctx *ctx, unsigned lg, int reps, cz_rng *rng)
{
    size_t n = (size_t)1 << lg;
    cz_cmat m[2];
    for (int i = 0; i < 2; i++)
        compact_matrix(&m[i], (uint32_t)n, (uint32_t)n, rng);
    cz_fr coefs[40], *w = malloc(n * sizeof *w);
    if (!w)
        die(NULL, CZ_ERR_NOMEM, "witness");
    random_fr(coefs, 40, rng);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = cz_rng_u64(rng) % 100;
        if (r < 99)
            cz_fr_set_u64(&w[i], r & 1);
        else
            random_fr(&w[i], 1, rng);
    }
    cz_cuda_buf abc[3], wb, kb, mb[2][3];
    CK(ctx, cz_cuda_buf_alloc(ctx, &wb, n * sizeof *w), "witness buffer");
    CK(ctx, cz_cuda_upload(ctx, &wb, 0, w, n * sizeof *w), "upload");
    CK(ctx, cz_cuda_buf_alloc(ctx, &kb, sizeof coefs), "coefficient buffer");
    CK(ctx, cz_cuda_upload(ctx, &kb, 0, coefs, sizeof coefs), "upload");
    cz_cuda_cmat cm[2];
    for (int i = 0; i < 2; i++) {
        size_t b[3] = {(n + 1) * 8, m[i].nnz * 4, m[i].nnz * 2};
        const void *src[3] = {m[i].row_ptr, m[i].col, m[i].coef};
        for (int j = 0; j < 3; j++) {
            CK(ctx, cz_cuda_buf_alloc(ctx, &mb[i][j], b[j]), "matrix buffer");
            CK(ctx, cz_cuda_upload(ctx, &mb[i][j], 0, src[j], b[j]), "upload");
        }
        cm[i] = (cz_cuda_cmat){mb[i][0], mb[i][1], mb[i][2], (uint32_t)n};
    }
    for (int i = 0; i < 3; i++)
        CK(ctx, cz_cuda_buf_alloc(ctx, &abc[i], n * sizeof *w), "a/b/c buffer");
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    for (int r = -1; r < reps; r++) {
        double a = now_ms();
        CK(ctx, cz_cuda_eval_abc_compact_dev(ctx, abc, &cm[0], &cm[1], &kb, 40, &wb, n),
           "compact a/b/c");
        if (r >= 0)
            t[r] = now_ms() - a;
    }
    fprintf(stderr, "# compact a/b/c 2^%u: %llu + %llu terms\n", lg,
            (unsigned long long)m[0].nnz, (unsigned long long)m[1].nnz);
    report("compact_abc", lg, t, reps);
    /* a sample row against the host */
    cz_fr got[3];
    for (size_t i = 0; i < n; i += n / 5 + 1) {
        cz_fr ref[2];
        for (int q = 0; q < 2; q++) {
            cz_fr_set_u64(&ref[q], 0);
            for (uint64_t k = m[q].row_ptr[i]; k < m[q].row_ptr[i + 1]; k++) {
                cz_fr p;
                cz_fr_mul(&p, &coefs[m[q].coef[k]], &w[m[q].col[k]]);
                cz_fr_add(&ref[q], &ref[q], &p);
            }
        }
        for (int q = 0; q < 2; q++)
            CK(ctx, cz_cuda_download(ctx, &got[q], &abc[q], i * sizeof *w, sizeof *w), "download");
        if (memcmp(&got[0], &ref[0], sizeof *w) || memcmp(&got[1], &ref[1], sizeof *w)) {
            fprintf(stderr, "bench-gpu: compact a/b/c differs from the host at row %zu\n", i);
            exit(1);
        }
    }
    for (int i = 2; i >= 0; i--)
        CK(ctx, cz_cuda_buf_free(ctx, &abc[i]), "free");
    for (int i = 1; i >= 0; i--)
        for (int j = 2; j >= 0; j--)
            CK(ctx, cz_cuda_buf_free(ctx, &mb[i][j]), "free");
    CK(ctx, cz_cuda_buf_free(ctx, &kb), "free");
    CK(ctx, cz_cuda_buf_free(ctx, &wb), "free");
    for (int i = 0; i < 2; i++) {
        free(m[i].row_ptr);
        free(m[i].col);
        free(m[i].coef);
    }
    free(w);
    free(t);
}

/* The NTT domain of the curve in use (BLS12-381: CZ_NTT_ROOT_7's roots;
   BN254: snarkjs's): omega and omega_2n, 32 bytes each */
static void bench_domain(cz_fr *omega, cz_fr *omega_2n, unsigned lg)
{
    _Static_assert(sizeof(cz_bn254_fr) == sizeof(cz_fr), "32-byte scalars on both curves");
    if (g_bn) {
        cz_bn254_ntt_domain *d;
        if (cz_bn254_ntt_domain_create(&d, lg, CZ_NTT_ROOT_5) != CZ_OK)
            die(NULL, CZ_ERR_NOMEM, "domain");
        memcpy(omega, &d->omega, sizeof *omega);
        memcpy(omega_2n, &d->omega_2n, sizeof *omega_2n);
        cz_bn254_ntt_domain_destroy(d);
        return;
    }
    cz_ntt_domain *d;
    if (cz_ntt_domain_create(&d, lg, CZ_NTT_ROOT_7) != CZ_OK)
        die(NULL, CZ_ERR_NOMEM, "domain");
    *omega = d->omega;
    *omega_2n = d->omega_2n;
    cz_ntt_domain_destroy(d);
}

/* random scalars of the curve in use */
static void bench_scalars(cz_fr *a, size_t n, cz_rng *rng)
{
    if (g_bn)
        random_fr254(a, n, rng);
    else
        random_fr(a, n, rng);
}

/* forward (bit-reversed and natural output), inverse and coset NTTs
   (coset shift 7) of the curve in use, rows "[bn254_]ntt_..." */
static void bench_ntt(cz_cuda_ctx *ctx, unsigned lo, unsigned hi, int reps, cz_rng *rng)
{
    size_t nmax = (size_t)1 << hi;
    cz_fr *a = malloc(nmax * sizeof *a);
    if (!a)
        die(NULL, CZ_ERR_NOMEM, "ntt data");
    bench_scalars(a, nmax, rng);
    cz_cuda_buf buf;
    CK(ctx, cz_cuda_buf_alloc(ctx, &buf, nmax * sizeof *a), "ntt buffer");
    CK(ctx, cz_cuda_upload(ctx, &buf, 0, a, nmax * sizeof *a), "upload");
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    cz_fr g, omega, omega_2n;
    if (g_bn)
        cz_bn254_fr_set_u64((cz_bn254_fr *)&g, 7);
    else
        cz_fr_set_u64(&g, 7);
    for (unsigned lg = lo; lg <= hi; lg++) {
        bench_domain(&omega, &omega_2n, lg);
        static const struct { const char *name; cz_cuda_ntt_kind kind; unsigned flags; } v[] = {
            {"ntt_fwd_bitrev", CZ_CUDA_NTT_FORWARD, CZ_CUDA_NTT_BITREV_OUT},
            {"ntt_fwd", CZ_CUDA_NTT_FORWARD, 0},
            {"ntt_inv", CZ_CUDA_NTT_INVERSE, 0},
            {"ntt_coset_fwd", CZ_CUDA_NTT_COSET_FORWARD, 0},
        };
        for (size_t k = 0; k < sizeof v / sizeof *v; k++) {
            for (int r = -1; r < reps; r++) {
                double s0 = now_ms();
                cz_status st =
                    g_bn ? cz_cuda_bn254_ntt_dev(ctx, &buf, lg, (const cz_bn254_fr *)&omega,
                                                 v[k].kind, (const cz_bn254_fr *)&g, v[k].flags)
                         : cz_cuda_ntt_dev(ctx, &buf, lg, &omega, v[k].kind, &g, v[k].flags);
                CK(ctx, st, "ntt");
                if (r >= 0)
                    t[r] = now_ms() - s0;
            }
            char name[64];
            snprintf(name, sizeof name, "%s%s", g_bn ? "bn254_" : "", v[k].name);
            report(name, lg, t, reps);
        }
    }
    CK(ctx, cz_cuda_buf_free(ctx, &buf), "free");
    free(t);
    free(a);
}

/* Groth16's H step, a, b, c on the GPU to h on the GPU (snarkjs's odd
   points: 3 inverse and 3 forward NTTs and the product, fused), rows
   "[bn254_]h_step"; for BLS12-381 also without c (a key with C folded:
   2 and 2 NTTs, h = a b), rows "h_step_folded" */
static void bench_h(cz_cuda_ctx *ctx, unsigned lo, unsigned hi, int reps, cz_rng *rng)
{
    size_t nmax = (size_t)1 << hi;
    cz_fr *a = malloc(nmax * sizeof *a);
    if (!a)
        die(NULL, CZ_ERR_NOMEM, "h data");
    cz_cuda_buf abc[3];
    for (int i = 0; i < 3; i++) {
        bench_scalars(a, nmax, rng);
        CK(ctx, cz_cuda_buf_alloc(ctx, &abc[i], nmax * sizeof *a), "h buffer");
        CK(ctx, cz_cuda_upload(ctx, &abc[i], 0, a, nmax * sizeof *a), "upload");
    }
    double *t = malloc((size_t)(reps + 1) * sizeof *t);
    cz_fr omega, omega_2n;
    for (unsigned lg = lo; lg <= hi; lg++) {
        bench_domain(&omega, &omega_2n, lg);
        for (int folded = 0; folded <= !g_bn; folded++) { /* BN254: with c only */
            cz_cuda_buf v[3] = {abc[0], abc[1], abc[2]};
            if (folded)
                v[2] = (cz_cuda_buf){NULL, 0};
            for (int r = -1; r < reps; r++) {
                double s0 = now_ms();
                cz_status st = g_bn ? cz_cuda_bn254_ntt_h_dev(ctx, v, lg, (const cz_bn254_fr *)&omega,
                                                              (const cz_bn254_fr *)&omega_2n)
                                    : cz_cuda_ntt_h_dev(ctx, v, lg, &omega, &omega_2n);
                CK(ctx, st, "h step");
                if (r >= 0)
                    t[r] = now_ms() - s0;
            }
            report(g_bn ? "bn254_h_step" : folded ? "h_step_folded" : "h_step", lg, t, reps);
        }
    }
    for (int i = 2; i >= 0; i--)
        CK(ctx, cz_cuda_buf_free(ctx, &abc[i]), "free");
    free(t);
    free(a);
}

/* ---- a bn128 Groth16 proof with the key resident on the GPU ---- */

/* median of one field of reps timings (sorts a copy) */
static double tm_median(const cz_prove_timings *tm, int reps, size_t off, double *lo, double *hi)
{
    double *v = malloc((size_t)reps * sizeof *v);
    if (!v)
        die(NULL, CZ_ERR_NOMEM, "timings");
    for (int r = 0; r < reps; r++)
        v[r] = *(const double *)((const char *)&tm[r] + off);
    qsort(v, (size_t)reps, sizeof *v, cmp_d);
    double med = v[reps / 2];
    *lo = v[0];
    *hi = v[reps - 1];
    free(v);
    return med;
}

/* Chain(N) filling 2^log_n rows (bn254_chain.h), set up with the
   project's BN254 setup (seeded) on the host's cores, its key's points
   and matrices uploaded once (cz_cuda_bn254_key_upload), then one warm-up
   proof and `reps` timed proofs (cz_cuda_bn254_groth16_prove_dev: every
   stage on the GPU); the warm-up's and the last proof are verified against
   the key's vk (exit 1 if refused). Rows: the set-up stages once, each
   prover stage's median ("bn254_prove_<stage>") and the whole proof
   ("bn254_prove"). */
static void bench_prove_bn254(cz_cuda_ctx *ctx, unsigned lg, int reps)
{
    char err[512];
    size_t steps = bn254_chain_steps(lg);
    double t0 = now_ms();
    cz_bn254_r1cs *cs;
    cz_bn254_fr *w;
    CK(ctx, bn254_chain_make(&cs, &w, steps, 5, 7), "chain circuit");
    double t_circ = now_ms() - t0;
    const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/bench-gpu-bn254-XXXXXX", tmpdir);
    int fd = mkstemp(path);
    if (fd < 0)
        die(NULL, CZ_ERR_IO, "temporary key file");
    close(fd);
    cz_setup_opts so = {.seeded = true, .seed = 17, .threads = 0};
    t0 = now_ms();
    cz_status st = cz_bn254_groth16_setup(cs, path, &so, err, sizeof err);
    double t_setup = now_ms() - t0;
    uint32_t n_wires = cs->n_wires, n_cons = cs->n_constraints;
    bn254_chain_free(cs);
    if (st) {
        remove(path);
        fprintf(stderr, "bench-gpu: setup: %s\n", err);
        exit(1);
    }
    cz_bn254_zkey *key = NULL;
    cz_zkey_load_opts lo = {.private_copy = true};
    t0 = now_ms();
    st = cz_bn254_zkey_load_ex(&key, path, &lo, err, sizeof err);
    double t_load = now_ms() - t0;
    remove(path);
    if (st) {
        fprintf(stderr, "bench-gpu: key: %s\n", err);
        exit(1);
    }
    if (key->log_n != lg || key->n_vars != n_wires) {
        fprintf(stderr, "bench-gpu: the key has 2^%u rows and %u variables, not 2^%u and %u\n",
                key->log_n, key->n_vars, lg, n_wires);
        exit(1);
    }
    cz_bn254_vk *vk;
    CK(ctx, cz_bn254_vk_from_zkey(&vk, key), "vk");
    cz_cuda_bn254_dkey dk;
    t0 = now_ms();
    CK(ctx, cz_cuda_bn254_key_upload(ctx, &dk, key), "key upload");
    double t_up = now_ms() - t0;
    cz_threadpool *pool = cz_threadpool_global();
    /* w pinned, as a prover that keeps its witness buffers would */
    int pinned = cz_cuda_host_register(ctx, w, (size_t)n_wires * sizeof *w) == CZ_OK;
    fprintf(stderr, "# bn128 Chain(%zu): %u constraints, %u variables, domain 2^%u; circuit %.0f "
            "ms, setup %.0f ms, key load %.0f ms (%d threads), key upload %.0f ms (%.0f MiB); "
            "w %s\n", steps, n_cons, n_wires, lg, t_circ, t_setup, t_load,
            cz_threadpool_size(pool), t_up, cz_cuda_bn254_key_bytes(key) / 1048576.0,
            pinned ? "pinned" : "pageable");
    double one[1];
    one[0] = t_setup;
    report_n("bn254_prove_setup", lg, (double)n_cons, one, 1);
    one[0] = t_up;
    report_n("bn254_prove_key_upload", lg, (double)n_cons, one, 1);
    cz_prove_timings *tm = calloc((size_t)reps + 1, sizeof *tm);
    if (!tm)
        die(NULL, CZ_ERR_NOMEM, "timings");
    cz_bn254_proof proof;
    for (int r = -1; r < reps; r++) {
        cz_prove_timings *t = r < 0 ? &tm[reps] : &tm[r];
        double a = now_ms();
        st = cz_cuda_bn254_groth16_prove_dev(ctx, &proof, key, &dk, w, pool, NULL, t, err,
                                             sizeof err);
        if (st) {
            fprintf(stderr, "bench-gpu: prove: %s\n", err);
            exit(1);
        }
        t->total_ms = now_ms() - a; /* the whole call, as a user sees it */
        if ((r < 0 || r == reps - 1) &&
            cz_bn254_groth16_verify(vk, w + 1, key->n_public, &proof, err, sizeof err) != CZ_OK) {
            fprintf(stderr, "bench-gpu: the %s proof is refused by the key's vk: %s\n",
                    r < 0 ? "warm-up" : "last", err);
            exit(1);
        }
    }
    fprintf(stderr, "# warm-up proof %.1f ms; %d proofs after it, each stage's median; the "
            "warm-up's and the last proof verified\n", tm[reps].total_ms, reps);
    static const struct {
        const char *name;
        size_t off;
    } stages[] = {
        {"bn254_prove_abc", offsetof(cz_prove_timings, eval_abc_ms)},
        {"bn254_prove_ntt_h", offsetof(cz_prove_timings, ntt_ms)},
        {"bn254_prove_msm_a", offsetof(cz_prove_timings, msm_a_ms)},
        {"bn254_prove_msm_b1", offsetof(cz_prove_timings, msm_b1_ms)},
        {"bn254_prove_msm_b2", offsetof(cz_prove_timings, msm_b2_ms)},
        {"bn254_prove_msm_c", offsetof(cz_prove_timings, msm_c_ms)},
        {"bn254_prove_msm_h", offsetof(cz_prove_timings, msm_h_ms)},
        {"bn254_prove_msms", offsetof(cz_prove_timings, msm_ms)},
        {"bn254_prove_assemble", offsetof(cz_prove_timings, assemble_ms)},
        {"bn254_prove", offsetof(cz_prove_timings, total_ms)},
    };
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++) {
        double mn, mx, med = tm_median(tm, reps, stages[i].off, &mn, &mx);
        report_stats(stages[i].name, lg, (double)n_cons, med, mn, mx, reps);
    }
    free(tm);
    if (pinned)
        cz_cuda_host_unregister(ctx, w);
    CK(ctx, cz_cuda_bn254_key_free(ctx, &dk), "key free");
    cz_bn254_vk_free(vk);
    cz_bn254_zkey_free(key);
    cz_wipe(w, (size_t)n_wires * sizeof *w);
    free(w);
}

/* "20,24,27" -> the set {20, 24, 27} as bits of a mask (sizes below 2^31) */
static uint64_t log_set(const char *v)
{
    uint64_t set = 0;
    for (const char *p = v; *p;) {
        char *end;
        unsigned long lg = strtoul(p, &end, 10);
        if (end == p)
            break;
        if (lg < 31)
            set |= (uint64_t)1 << lg;
        p = *end == ',' ? end + 1 : end;
    }
    return set;
}

/* --only: a comma-separated list of parts (NULL: every part) */
static bool wants(const char *only, const char *part)
{
    if (!only)
        return true;
    size_t n = strlen(part);
    for (const char *p = only; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, part, n))
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

int main(int argc, char **argv)
{
    unsigned msm_lo = 16, msm_hi = 26, ntt_lo = 16, ntt_hi = 27, g2_hi = 22, h_lo = 20, h_hi = 27;
    int reps = 5;
    const char *only = NULL;
    uint64_t bits_logs = 0, compact_logs = 0, prove_logs = 0;
    size_t bits_g2 = 0, fixed_n = 0;
    /* BN254's defaults, unless an option sets a bound */
    for (int i = 1; i + 1 < argc; i += 2)
        if (!strcmp(argv[i], "--curve")) {
            if (!strcmp(argv[i + 1], "bn254") || !strcmp(argv[i + 1], "bn128"))
                g_bn = 1;
            else if (strcmp(argv[i + 1], "bls12-381") && strcmp(argv[i + 1], "bls12_381")) {
                fprintf(stderr, "bench-gpu: unknown curve %s (bls12-381, bn254)\n", argv[i + 1]);
                return 2;
            }
        }
    if (g_bn) {
        msm_lo = 20, msm_hi = 26, g2_hi = 26;
        ntt_lo = 20, ntt_hi = 24, h_lo = 20, h_hi = 24;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--msm-min")) msm_lo = (unsigned)atoi(v);
        else if (!strcmp(k, "--msm-max")) msm_hi = (unsigned)atoi(v);
        else if (!strcmp(k, "--ntt-min")) ntt_lo = (unsigned)atoi(v);
        else if (!strcmp(k, "--ntt-max")) ntt_hi = (unsigned)atoi(v);
        else if (!strcmp(k, "--g2-max")) g2_hi = (unsigned)atoi(v);
        else if (!strcmp(k, "--h-min")) h_lo = (unsigned)atoi(v);
        else if (!strcmp(k, "--h-max")) h_hi = (unsigned)atoi(v);
        else if (!strcmp(k, "--curve")) continue;
        else if (!strcmp(k, "--reps")) reps = atoi(v);
        else if (!strcmp(k, "--only")) only = v;
        else if (!strcmp(k, "--bits-g2")) bits_g2 = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(k, "--bits-general")) g_bits_general = atoi(v) != 0;
        else if (!strcmp(k, "--fixed-base")) fixed_n = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(k, "--compact")) compact_logs |= log_set(v);
        else if (!strcmp(k, "--prove-log")) prove_logs |= log_set(v);
        else if (!strcmp(k, "--bits")) bits_logs |= log_set(v);
        else if (!strcmp(k, "--wsweep-c")) {
            if (sscanf(v, "%u-%u", &g_wsweep_lo, &g_wsweep_hi) != 2 || g_wsweep_lo < 4 ||
                g_wsweep_hi > 22 || g_wsweep_lo > g_wsweep_hi) {
                fprintf(stderr, "bench-gpu: --wsweep-c takes LO-HI, 4 <= LO <= HI <= 22 (the MSM's widths)\n");
                return 2;
            }
        }
        else if (!strcmp(k, "--wsweep")) {
            for (const char *p = v; *p;) { /* a comma-separated list of sizes */
                char *end;
                unsigned long lg = strtoul(p, &end, 10);
                if (end == p)
                    break;
                if (lg < 64)
                    g_wsweep |= (uint64_t)1 << lg;
                p = *end == ',' ? end + 1 : end;
            }
        }
        else {
            fprintf(stderr, "bench-gpu: unknown option %s\n", k);
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    if (getenv("CZ_COMMIT"))
        g_commit = getenv("CZ_COMMIT");
    if (!cz_cuda_built() || cz_cuda_device_count() == 0) {
        printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    cz_cuda_ctx *ctx;
    char err[512];
    double t0 = now_ms();
    /* CUZK_GPU_ARENA_MB caps the arena (as the backend's): a profiler
       replaying a kernel needs device memory of its own */
    const char *amb = getenv("CUZK_GPU_ARENA_MB");
    size_t arena = amb ? (size_t)strtoull(amb, NULL, 10) << 20 : 0;
    if (cz_cuda_ctx_create(&ctx, 0, arena, 0, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "bench-gpu: %s\n", err);
        return 1;
    }
    g_dev = cz_cuda_device_name(ctx);
    fprintf(stderr, "# %s, arena %.1f GiB (made in %.0f ms)\n", g_dev,
            cz_cuda_arena_bytes(ctx) / (double)(1u << 30), now_ms() - t0);
    cz_rng rng;
    cz_rng_seed(&rng, 0x6b7a63756461ULL);
    if (g_bn) {
        if (ntt_hi > 28 || h_hi > 28) {
            fprintf(stderr, "bench-gpu: BN254 NTTs go up to 2^28\n");
            return 2;
        }
        if (wants(only, "ntt"))
            bench_ntt(ctx, ntt_lo, ntt_hi, reps, &rng);
        if (wants(only, "h"))
            bench_h(ctx, h_lo, h_hi, reps, &rng);
        if (wants(only, "msm"))
            bench_msm(ctx, 0, msm_lo, msm_hi, reps, &rng);
        if (wants(only, "g2"))
            bench_msm(ctx, 1, msm_lo, g2_hi, reps, &rng);
        /* a proof only when asked for (its set-up takes a minute at 2^20) */
        if (only && wants(only, "prove") && !prove_logs)
            prove_logs = (uint64_t)1 << 20;
        for (unsigned lg = 3; lg < 29; lg++)
            if (prove_logs >> lg & 1)
                bench_prove_bn254(ctx, lg, reps < 3 ? 3 : reps);
        cz_cuda_ctx_destroy(ctx);
        return 0;
    }
    if (wants(only, "ntt"))
        bench_ntt(ctx, ntt_lo, ntt_hi, reps, &rng);
    if (wants(only, "h"))
        bench_h(ctx, h_lo, h_hi, reps, &rng);
    if (wants(only, "msm"))
        bench_msm(ctx, 0, msm_lo, msm_hi, reps, &rng);
    if (wants(only, "g2"))
        bench_msm(ctx, 1, msm_lo, g2_hi, reps, &rng);
    if (wants(only, "bits")) {
        for (unsigned lg = 0; lg < 31; lg++)
            if (bits_logs >> lg & 1)
                bench_bits(ctx, 0, (size_t)1 << lg, reps, &rng);
        if (bits_g2)
            bench_bits(ctx, 1, bits_g2, reps, &rng);
    }
    if (fixed_n && (wants(only, "fixed")))
        bench_fixed_base(ctx, fixed_n, reps, &rng);
    if (wants(only, "compact"))
        for (unsigned lg = 0; lg < 31; lg++)
            if (compact_logs >> lg & 1)
                bench_compact(ctx, lg, reps, &rng);
    cz_cuda_ctx_destroy(ctx);
    return 0;
}
