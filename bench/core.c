/*
 * bench/core.c: the foundation benchmark: field and curve primitives, the
 * pairing, the NTT and the G1/G2 MSMs, each on 1 thread and on all cores.
 *
 *   bench-core [--only LIST] [--min-log K] [--max-log K] [--threads LIST]
 *              [--window C] [--algo auto|xyzz|affine] [--reps N]
 *   LIST for --only: comma-separated of field, curve, pairing, ntt, g1msm,
 *   g2msm, msm (= g1msm,g2msm), bits (G1 MSM with 0/1-heavy scalars).
 *   --threads: comma-separated thread counts (default "1,<nproc>").
 *   Defaults: NTT 2^16..2^24, G1 MSM 2^16..2^22, G2 MSM 2^16..2^20;
 *   --max-log caps all of them, --min-log raises the floor.
 *
 * Prints a human table and one JSON line per measurement:
 *   {"bench":..,"size":..,"threads":..,"ms" or "ns_per_op":..,
 *    "cpu_ms":..,"commit":..,"machine":..}
 * Wall time is the figure; cpu_ms (process CPU time) shows how much of the
 * wall time the process actually ran, which matters on a shared machine.
 * Large measurements run once (--reps to repeat; the best is kept).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curve/curve.h"
#include "field/field.h"
#include "msm/msm.h"
#include "pairing/pairing.h"
#include "poly/ntt.h"
#include "util/threadpool.h"

#include "bench_util.h"

static char g_commit[64] = "unknown", g_machine[160] = "unknown";
static int g_reps = 1;
static cz_msm_algo g_algo = CZ_MSM_ALGO_AUTO;

/* window: the MSM window c (0: not an MSM) */
static void emit_ms_w(const char *bench, size_t size, int threads, double ms, double cpu_ms,
                      unsigned window)
{
    printf("%-14s %10zu %8d %12.2f ms %12.2f cpu-ms", bench, size, threads, ms, cpu_ms);
    if (window)
        printf("   c=%u", window);
    printf("\n{\"bench\":\"%s\",\"size\":%zu,\"threads\":%d,\"ms\":%.3f,\"cpu_ms\":%.3f,",
           bench, size, threads, ms, cpu_ms);
    if (window)
        printf("\"window\":%u,", window);
    printf("\"commit\":\"%s\",\"machine\":\"%s\"}\n", g_commit, g_machine);
    fflush(stdout);
}

static void emit_ms(const char *bench, size_t size, int threads, double ms, double cpu_ms)
{
    emit_ms_w(bench, size, threads, ms, cpu_ms, 0);
}

static void emit_ns(const char *bench, double ns)
{
    printf("%-24s %12.1f ns/op\n", bench, ns);
    printf("{\"bench\":\"%s\",\"size\":1,\"threads\":1,\"ns_per_op\":%.2f,\"commit\":\"%s\","
           "\"machine\":\"%s\"}\n",
           bench, ns, g_commit, g_machine);
    fflush(stdout);
}

/* best of 5 rounds of a dependent chain */
#define TIME_NS(name_, n_, body_)                                              \
    do {                                                                       \
        long k_ = (n_) / 5 > 0 ? (n_) / 5 : 1;                                 \
        double best_ = 1e30;                                                   \
        for (int r_ = 0; r_ < 5; r_++) {                                       \
            double t0_ = cz_bench_process_cpu_now();                                            \
            for (long i_ = 0; i_ < k_; i_++) {                                 \
                body_;                                                         \
            }                                                                  \
            double dt_ = (cz_bench_process_cpu_now() - t0_) * 1e9 / (double)k_;                 \
            best_ = dt_ < best_ ? dt_ : best_;                                 \
        }                                                                      \
        emit_ns(name_, best_);                                                 \
    } while (0)

static volatile uint64_t g_sink;

static void bench_field(cz_rng *rng)
{
    cz_fp a, b;
    cz_fr x, y;
    cz_fp2 c, d;
    cz_fp_random(&a, rng);
    cz_fp_random(&b, rng);
    cz_fr_random(&x, rng);
    cz_fr_random(&y, rng);
    cz_fp2_random(&c, rng);
    cz_fp2_random(&d, rng);
    TIME_NS("fp_mul", 2000000, cz_fp_mul(&a, &a, &b));
    TIME_NS("fp_sqr", 2000000, cz_fp_sqr(&a, &a));
    TIME_NS("fr_mul", 2000000, cz_fr_mul(&x, &x, &y));
    TIME_NS("fp2_mul", 1000000, cz_fp2_mul(&c, &c, &d));
    TIME_NS("fp_inv_var", 20000, cz_fp_inv_var(&a, &a));
    /* cz_fp_mul_x8: eight independent products a call (AVX-512 IFMA lanes
       where built), a dependent chain of calls; ns per product */
    cz_fp a8[8], b8[8];
    for (int e = 0; e < 8; e++) {
        cz_fp_random(&a8[e], rng);
        cz_fp_random(&b8[e], rng);
    }
    double best8 = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = cz_bench_process_cpu_now();
        for (int i = 0; i < 50000; i++)
            cz_fp_mul_x8(a8, a8, b8);
        double dt = (cz_bench_process_cpu_now() - t0) * 1e9 / (50000.0 * 8);
        best8 = dt < best8 ? dt : best8;
    }
    emit_ns(cz_fp_mul_x8_is_simd() ? "fp_mul_x8 (ifma)" : "fp_mul_x8", best8);
    g_sink ^= a.l[0] ^ x.l[0] ^ c.c0.l[0] ^ a8[0].l[0];
}

static void bench_curve(cz_rng *rng)
{
    uint64_t k[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng), 0};
    cz_g1_affine g1, qa1;
    cz_g1_jac gj1, p1, q1;
    cz_g1_xyzz x1, xq1;
    cz_g1_generator(&g1);
    cz_g1_jac_from_affine(&gj1, &g1);
    cz_g1_jac_mul_var(&p1, &gj1, k, 4);
    k[0] ^= 12345;
    cz_g1_jac_mul_var(&q1, &gj1, k, 4);
    cz_g1_jac_to_affine(&qa1, &q1);
    cz_g1_xyzz_from_affine(&x1, &qa1);
    cz_g1_xyzz_dbl(&x1, &x1);
    cz_g1_xyzz_from_affine(&xq1, &qa1);
    cz_g1_xyzz_dbl(&xq1, &xq1);
    cz_g1_xyzz_dbl(&xq1, &xq1);
    TIME_NS("g1_add_jac", 300000, cz_g1_jac_add(&p1, &p1, &q1));
    TIME_NS("g1_add_xyzz_affine", 300000, cz_g1_xyzz_add_affine(&x1, &x1, &qa1));
    TIME_NS("g1_add_xyzz", 300000, cz_g1_xyzz_add(&x1, &x1, &xq1));
    TIME_NS("g1_dbl_jac", 300000, cz_g1_jac_dbl(&p1, &p1));

    cz_g2_affine g2, qa2;
    cz_g2_jac gj2, p2, q2;
    cz_g2_xyzz x2;
    cz_g2_generator(&g2);
    cz_g2_jac_from_affine(&gj2, &g2);
    cz_g2_jac_mul_var(&p2, &gj2, k, 4);
    k[0] ^= 777;
    cz_g2_jac_mul_var(&q2, &gj2, k, 4);
    cz_g2_jac_to_affine(&qa2, &q2);
    cz_g2_xyzz_from_affine(&x2, &qa2);
    cz_g2_xyzz_dbl(&x2, &x2);
    TIME_NS("g2_add_jac", 100000, cz_g2_jac_add(&p2, &p2, &q2));
    TIME_NS("g2_add_xyzz_affine", 100000, cz_g2_xyzz_add_affine(&x2, &x2, &qa2));
    TIME_NS("g2_dbl_jac", 100000, cz_g2_jac_dbl(&p2, &p2));
    g_sink ^= p1.x.l[0] ^ x1.x.l[0] ^ p2.x.c0.l[0] ^ x2.x.c0.l[0];
}

static void bench_pairing(void)
{
    cz_g1_affine p;
    cz_g2_affine q;
    cz_fp12 e;
    cz_g1_generator(&p);
    cz_g2_generator(&q);
    TIME_NS("pairing", 50, cz_pairing(&e, &p, &q));
    g_sink ^= e.c0.c0.c0.l[0];
}

static void bench_ntt(cz_rng *rng, unsigned lo, unsigned hi, const int *thr, int nthr)
{
    for (unsigned k = lo; k <= hi; k++) {
        size_t n = (size_t)1 << k;
        cz_ntt_domain *d;
        if (cz_ntt_domain_create(&d, k, CZ_NTT_ROOT_7) != CZ_OK)
            return;
        cz_fr *a = malloc(n * sizeof *a);
        if (!a) {
            cz_ntt_domain_destroy(d);
            return;
        }
        for (size_t i = 0; i < n; i++)
            cz_fr_random(&a[i], rng);
        for (int t = 0; t < nthr; t++) {
            cz_threadpool *pool = thr[t] > 1 ? cz_threadpool_create(thr[t]) : NULL;
            double best = 1e30, bcpu = 0;
            for (int r = 0; r < g_reps; r++) {
                double w0 = cz_bench_wall_now(), c0 = cz_bench_process_cpu_now();
                cz_ntt_forward(d, a, pool);
                double w = cz_bench_wall_now() - w0, c = cz_bench_process_cpu_now() - c0;
                if (w < best) {
                    best = w;
                    bcpu = c;
                }
            }
            emit_ms("ntt_fwd", n, thr[t], best * 1e3, bcpu * 1e3);
            best = 1e30;
            cz_fr g;
            cz_fr_set_u64(&g, 7);
            for (int r = 0; r < g_reps; r++) {
                double w0 = cz_bench_wall_now(), c0 = cz_bench_process_cpu_now();
                cz_ntt_coset_inverse(d, a, &g, pool);
                double w = cz_bench_wall_now() - w0, c = cz_bench_process_cpu_now() - c0;
                if (w < best) {
                    best = w;
                    bcpu = c;
                }
            }
            emit_ms("ntt_coset_inv", n, thr[t], best * 1e3, bcpu * 1e3);
            cz_threadpool_destroy(pool);
        }
        g_sink ^= a[1].l[0];
        free(a);
        cz_ntt_domain_destroy(d);
    }
}

/* ---- MSM inputs: chains P_i = P_{i-1} + Q_j from random starts ---- */

typedef struct {
    void *pts;
    size_t n;
    uint64_t seed;
} gen_ctx;

#define GEN_CHUNK 4096

static void gen_g1_fn(void *vctx, size_t b, size_t e, int worker)
{
    gen_ctx *c = vctx;
    cz_g1_affine *out = c->pts;
    cz_g1_jac *tmp = malloc(GEN_CHUNK * sizeof *tmp);
    cz_g1_affine g, q[8];
    cz_g1_jac gj, acc, t;
    cz_g1_generator(&g);
    cz_g1_jac_from_affine(&gj, &g);
    for (size_t ch = b; ch < e; ch++) {
        cz_rng rng;
        cz_rng_seed(&rng, c->seed + ch);
        uint64_t k[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng) >> 2};
        cz_g1_jac_mul_var(&acc, &gj, k, 4);
        for (int j = 0; j < 8; j++) {
            k[0] = cz_rng_u64(&rng);
            cz_g1_jac_mul_var(&t, &gj, k, 4);
            cz_g1_jac_to_affine(&q[j], &t);
        }
        size_t i0 = ch * GEN_CHUNK, m = c->n - i0 < GEN_CHUNK ? c->n - i0 : GEN_CHUNK;
        for (size_t i = 0; i < m; i++) {
            cz_g1_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&rng) & 7]);
            tmp[i] = acc;
        }
        cz_g1_jac_batch_to_affine(out + i0, tmp, m);
    }
    free(tmp);
}

static void gen_g2_fn(void *vctx, size_t b, size_t e, int worker)
{
    gen_ctx *c = vctx;
    cz_g2_affine *out = c->pts;
    cz_g2_jac *tmp = malloc(GEN_CHUNK * sizeof *tmp);
    cz_g2_affine g, q[8];
    cz_g2_jac gj, acc, t;
    cz_g2_generator(&g);
    cz_g2_jac_from_affine(&gj, &g);
    for (size_t ch = b; ch < e; ch++) {
        cz_rng rng;
        cz_rng_seed(&rng, c->seed + ch);
        uint64_t k[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng) >> 2};
        cz_g2_jac_mul_var(&acc, &gj, k, 4);
        for (int j = 0; j < 8; j++) {
            k[0] = cz_rng_u64(&rng);
            cz_g2_jac_mul_var(&t, &gj, k, 4);
            cz_g2_jac_to_affine(&q[j], &t);
        }
        size_t i0 = ch * GEN_CHUNK, m = c->n - i0 < GEN_CHUNK ? c->n - i0 : GEN_CHUNK;
        for (size_t i = 0; i < m; i++) {
            cz_g2_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&rng) & 7]);
            tmp[i] = acc;
        }
        cz_g2_jac_batch_to_affine(out + i0, tmp, m);
    }
    free(tmp);
}

/* which: 1 = G1, 2 = G2, 3 = G1 with 0/1-heavy scalars (90% bits) */
static void bench_msm(int which, unsigned lo, unsigned hi, const int *thr, int nthr,
                      unsigned window)
{
    int g2 = which == 2;
    size_t nmax = (size_t)1 << hi;
    size_t psz = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *pts = malloc(nmax * psz);
    cz_fr *sc = malloc(nmax * sizeof *sc);
    if (!pts || !sc) {
        fprintf(stderr, "bench-core: out of memory for 2^%u points\n", hi);
        free(pts);
        free(sc);
        return;
    }
    double t0 = cz_bench_wall_now();
    gen_ctx gc = {pts, nmax, 1000 + (uint64_t)which};
    cz_parallel_for(cz_threadpool_global(), (nmax + GEN_CHUNK - 1) / GEN_CHUNK, 1,
                    g2 ? gen_g2_fn : gen_g1_fn, &gc);
    cz_rng rng;
    cz_rng_seed(&rng, 77);
    for (size_t i = 0; i < nmax; i++) {
        if (which == 3 && cz_rng_u64(&rng) % 10 != 0) {
            if (cz_rng_u64(&rng) & 1)
                cz_fr_one(&sc[i]);
            else
                cz_fr_zero(&sc[i]);
        } else {
            cz_fr_random(&sc[i], &rng);
        }
    }
    fprintf(stderr, "# generated 2^%u %s points in %.1f s\n", hi, g2 ? "G2" : "G1",
            cz_bench_wall_now() - t0);
    const char *name = which == 1 ? "g1_msm" : which == 2 ? "g2_msm" : "g1_msm_bits90";
    for (unsigned k = lo; k <= hi; k++) {
        size_t n = (size_t)1 << k;
        for (int t = 0; t < nthr; t++) {
            cz_threadpool *pool = thr[t] > 1 ? cz_threadpool_create(thr[t]) : NULL;
            cz_msm_opts o = {.pool = pool, .window = window, .algo = g_algo};
            double best = 1e30, bcpu = 0;
            for (int r = 0; r < g_reps; r++) {
                double w0 = cz_bench_wall_now(), c0 = cz_bench_process_cpu_now();
                if (g2) {
                    cz_g2_jac out;
                    cz_g2_affine oa;
                    cz_g2_msm(&out, pts, sc, n, &o);
                    cz_g2_jac_to_affine(&oa, &out);
                    g_sink += oa.x.c0.l[0];
                } else {
                    cz_g1_jac out;
                    cz_g1_affine oa;
                    cz_g1_msm(&out, pts, sc, n, &o);
                    cz_g1_jac_to_affine(&oa, &out);
                    g_sink += oa.x.l[0];
                }
                double w = cz_bench_wall_now() - w0, c = cz_bench_process_cpu_now() - c0;
                if (w < best) {
                    best = w;
                    bcpu = c;
                }
            }
            /* the window Pippenger picks for random scalars (all "big") */
            unsigned wc = window ? window : cz_msm_window_for(which == 3 ? n / 10 : n, thr[t], g2);
            emit_ms_w(name, n, thr[t], best * 1e3, bcpu * 1e3, wc);
            cz_threadpool_destroy(pool);
        }
    }
    free(pts);
    free(sc);
}

static int has(const char *only, const char *what)
{
    if (!only)
        return 1;
    size_t l = strlen(what);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t m = e ? (size_t)(e - p) : strlen(p);
        if (m == l && !strncmp(p, what, l))
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: bench-core [--only field,curve,pairing,ntt,g1msm,g2msm,msm,bits]\n"
            "                  [--min-log K] [--max-log K] [--threads 1,2] [--window C]\n"
            "                  [--algo auto|xyzz|affine] [--reps N]\n");
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    unsigned min_log = 16, max_log = 24, window = 0;
    int thr[8], nthr = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--max-log") && i + 1 < argc) {
            max_log = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--min-log") && i + 1 < argc) {
            min_log = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--window") && i + 1 < argc) {
            window = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--algo") && i + 1 < argc) {
            i++;
            g_algo = !strcmp(argv[i], "xyzz") ? CZ_MSM_ALGO_XYZZ
                     : !strcmp(argv[i], "affine") ? CZ_MSM_ALGO_AFFINE : CZ_MSM_ALGO_AUTO;
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            g_reps = atoi(argv[++i]);
            if (g_reps < 1)
                g_reps = 1;
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            char *s = argv[++i];
            while (*s && nthr < 8) {
                thr[nthr++] = atoi(s);
                s = strchr(s, ',');
                if (!s)
                    break;
                s++;
            }
        } else {
            usage();
            return 2;
        }
    }
    if (nthr == 0) {
        thr[nthr++] = 1;
        if (cz_cpu_count() > 1)
            thr[nthr++] = cz_cpu_count();
    }
    if (max_log > 28)
        max_log = 28;
    cz_bench_commit(g_commit, sizeof g_commit);
    cz_bench_machine(g_machine, sizeof g_machine);
    printf("# bench-core commit %s, machine %s\n", g_commit, g_machine);
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    if (has(only, "field"))
        bench_field(&rng);
    if (has(only, "curve"))
        bench_curve(&rng);
    if (has(only, "pairing"))
        bench_pairing();
    unsigned hi;
    if (has(only, "ntt") && (hi = max_log < 24 ? max_log : 24) >= min_log)
        bench_ntt(&rng, min_log, hi, thr, nthr);
    if ((has(only, "g1msm") || has(only, "msm")) && (hi = max_log < 22 ? max_log : 22) >= min_log)
        bench_msm(1, min_log, hi, thr, nthr, window);
    if ((has(only, "g2msm") || has(only, "msm")) && (hi = max_log < 20 ? max_log : 20) >= min_log)
        bench_msm(2, min_log, hi, thr, nthr, window);
    if (only && has(only, "bits") && (hi = max_log < 22 ? max_log : 22) >= min_log)
        bench_msm(3, min_log, hi, thr, nthr, window);
    fprintf(stderr, "# sink %llx\n", (unsigned long long)g_sink);
    return 0;
}
