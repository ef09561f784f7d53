/*
 * bench_util.h: what the benchmarks share: clocks, the commit and machine
 * every JSON line names, and the latency harness of the single-thread
 * benchmarks (bench/field.c, curve.c, pairing.c).
 *
 * A figure is the best of 10 rounds of n/10 iterations of a dependent
 * chain, timed in thread CPU time: the machine is shared, and the minimum
 * is the figure least disturbed by other processes (CPU time does not
 * count time spent descheduled).
 */
#ifndef CZ_BENCH_UTIL_H
#define CZ_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

#endif
