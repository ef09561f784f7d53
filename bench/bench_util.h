/*
 * bench_util.h: what the benchmarks share: clocks, the commit and machine
 * every JSON line names, the latency harness of the single-thread
 * benchmarks (bench/field.c, curve.c, pairing.c), and the random points
 * of the large ones (CZ_BENCH_GEN_FN).
 *
 * A figure is the best of 10 rounds of n/10 iterations of a dependent
 * chain, timed in thread CPU time: the machine is shared, and the minimum
 * is the figure least disturbed by other processes (CPU time does not
 * count time spent descheduled).
 */
#ifndef CZ_BENCH_UTIL_H
#define CZ_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/rng.h"
#include "util/threadpool.h"

static inline double cz_bench_wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the whole process (all threads). */
static inline double cz_bench_process_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The commit a run measures: $CZ_COMMIT (device runs name it), else git's
   short hash of the working directory's checkout, else "unknown". */
static inline void cz_bench_commit(char *buf, size_t len)
{
    const char *c = getenv("CZ_COMMIT");
    snprintf(buf, len, "%s", "unknown");
    if (c && *c) {
        snprintf(buf, len, "%s", c);
        return;
    }
    FILE *f = popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\r\n")] = 0;
    if (!*buf)
        snprintf(buf, len, "%s", "unknown");
    pclose(f);
}

/* The machine: the CPU model from /proc/cpuinfo and the core count. */
static inline void cz_bench_machine(char *buf, size_t len)
{
    char model[128] = "cpu", line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "model name", 10)) {
                char *p = strchr(line, ':');
                if (p) {
                    p += 2;
                    p[strcspn(p, "\r\n")] = 0;
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    snprintf(buf, len, "%s x%d", model, cz_cpu_count());
}

typedef struct {
    const char *name;
    double t;      /* per iteration, in the unit the caller chose */
} cz_bench_row;

static inline double cz_bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Append {name_, best time of body_ per iteration * unit_} to rows. */
#define CZ_BENCH_TIME(rows, nrows, name_, n_, unit_, body_)                    \
    do {                                                                       \
        long k_ = (n_) / 10 > 0 ? (n_) / 10 : 1;                               \
        double best_ = 1e30;                                                   \
        for (int r_ = 0; r_ < 10; r_++) {                                      \
            double t0_ = cz_bench_cpu_now();                                   \
            for (long i_ = 0; i_ < k_; i_++) {                                 \
                body_;                                                         \
            }                                                                  \
            double dt_ = (cz_bench_cpu_now() - t0_) * (unit_) / (double)k_;    \
            best_ = dt_ < best_ ? dt_ : best_;                                 \
        }                                                                      \
        (rows)[nrows].name = (name_);                                          \
        (rows)[(nrows)++].t = best_;                                           \
    } while (0)

/* Random affine points for the large benchmarks (bench/bn254.c,
   bn254_msm.c): per chunk of CZ_BENCH_GEN_CHUNK points, a random walk of
   mixed additions from a random multiple of the generator over eight
   random multiples, batch-converted to affine; chunk ch is seeded with
   seed + ch, so the points do not depend on the thread count.
   CZ_BENCH_GEN_FN(name, P, AFF, JAC) defines name, a cz_parallel_for body
   over the chunks of a cz_bench_gen, for the curve functions P##_generator,
   P##_jac_from_affine, _jac_mul_var, _jac_to_affine, _jac_add_affine and
   _jac_batch_to_affine (P: cz_bn254_g1, cz_bn254_g2, ...). */
#define CZ_BENCH_GEN_CHUNK 4096

typedef struct {
    void *pts; /* n points of the curve's AFF */
    size_t n;
    uint64_t seed;
} cz_bench_gen;

#define CZ_BENCH_GEN_FN(name, P, AFF, JAC)                                                 \
    static void name(void *vctx, size_t b, size_t e, int worker)                           \
    {                                                                                      \
        (void)worker;                                                                      \
        cz_bench_gen *c = vctx;                                                            \
        AFF *out = c->pts, g, q[8];                                                        \
        JAC *tmp = malloc(CZ_BENCH_GEN_CHUNK * sizeof *tmp), gj, acc, t;                   \
        if (!tmp)                                                                          \
            abort();                                                                       \
        P##_generator(&g);                                                                 \
        P##_jac_from_affine(&gj, &g);                                                      \
        for (size_t ch = b; ch < e; ch++) {                                                \
            cz_rng rng;                                                                    \
            cz_rng_seed(&rng, c->seed + ch);                                               \
            uint64_t k[4] = {cz_rng_u64(&rng), cz_rng_u64(&rng), cz_rng_u64(&rng),         \
                             cz_rng_u64(&rng) >> 4};                                       \
            P##_jac_mul_var(&acc, &gj, k, 4);                                              \
            for (int j = 0; j < 8; j++) {                                                  \
                k[0] = cz_rng_u64(&rng);                                                   \
                P##_jac_mul_var(&t, &gj, k, 4);                                            \
                P##_jac_to_affine(&q[j], &t);                                              \
            }                                                                              \
            size_t i0 = ch * CZ_BENCH_GEN_CHUNK;                                           \
            size_t m = c->n - i0 < CZ_BENCH_GEN_CHUNK ? c->n - i0 : CZ_BENCH_GEN_CHUNK;    \
            for (size_t i = 0; i < m; i++) {                                               \
                P##_jac_add_affine(&acc, &acc, &q[cz_rng_u64(&rng) & 7]);                  \
                tmp[i] = acc;                                                              \
            }                                                                              \
            P##_jac_batch_to_affine(out + i0, tmp, m);                                     \
        }                                                                                  \
        free(tmp);                                                                         \
    }

/* the chunks of n points, for cz_parallel_for */
static inline size_t cz_bench_gen_chunks(size_t n)
{
    return (n + CZ_BENCH_GEN_CHUNK - 1) / CZ_BENCH_GEN_CHUNK;
}

#endif
