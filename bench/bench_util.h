/*
 * bench_util.h: the latency harness shared by the single-thread
 * benchmarks (bench/field.c, curve.c, pairing.c).
 *
 * A figure is the best of 10 rounds of n/10 iterations of a dependent
 * chain, timed in thread CPU time: the machine is shared, and the minimum
 * is the figure least disturbed by other processes (CPU time does not
 * count time spent descheduled).
 */
#ifndef CZ_BENCH_UTIL_H
#define CZ_BENCH_UTIL_H

#include <time.h>

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
