/*
 * bench/bn254_msm.c: BN254's MSMs with and without the eight-lane IFMA
 * products (field/bn254_fp_x8.h), in one process, on the same points and
 * scalars, so the two figures see the same machine load.
 *
 * DESIGN. The MSM's batched affine additions take the eight-lane code
 * where it is built; msm_bn254_internal.h's cz_bn254_msm_x8_on_ = 0 runs
 * the scalar code of the same binary instead (what the MSM was before).
 * Figures: cz_bn254_fp_mul_x8 against eight cz_bn254_fp_mul (thread CPU
 * time, best of 10 rounds), then the G1 MSM at 2^14 and 2^16 and the G2
 * MSM at 2^14 and 2^16 (random points as bench/bn254.c makes them, random
 * scalars below r), 1 thread and all threads, scalar then x8, best wall
 * time and best process CPU time (all threads) of REPS runs (the machine
 * is shared: the best run is the one least disturbed, and CPU time does
 * not count time descheduled; the fp_mul rows are thread CPU time per
 * call of eight products). Prints a table, then one JSON line per figure
 * (ns).
 *   bin/bench-bn254_msm [reps (default 5)] [largest log (14..20, default 16)]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "curve/bn254_curve.h"
#include "field/bn254.h"
#include "field/bn254_fp_x8.h"
#include "msm/msm_bn254.h"
#include "msm/msm_bn254_internal.h"

/* points: bench_util.h's random walk, as bench/bn254.c makes them */
CZ_BENCH_GEN_FN(gen_g1_fn, cz_bn254_g1, cz_bn254_g1_affine, cz_bn254_g1_jac)
CZ_BENCH_GEN_FN(gen_g2_fn, cz_bn254_g2, cz_bn254_g2_affine, cz_bn254_g2_jac)

typedef struct {
    char name[48];
    double ns, cpu_ns;
} row;

/* best wall time of reps runs; *cpu: the least process CPU time (all
   threads), which other processes on the machine disturb less */
static double best_wall(int reps, int g2, const void *pts, const cz_bn254_fr *sc, size_t n,
                        const cz_msm_opts *o, uint64_t *sink, double *cpu)
{
    double best = 1e30;
    *cpu = 1e30;
    for (int r = 0; r < reps; r++) {
        double c0 = cz_bench_process_cpu_now();
        double t0 = cz_bench_wall_now();
        if (g2) {
            cz_bn254_g2_jac acc;
            if (cz_bn254_g2_msm(&acc, pts, sc, n, o) != CZ_OK)
                exit(1);
            *sink ^= acc.x.c0.l[0];
        } else {
            cz_bn254_g1_jac acc;
            if (cz_bn254_g1_msm(&acc, pts, sc, n, o) != CZ_OK)
                exit(1);
            *sink ^= acc.x.l[0];
        }
        double dt = cz_bench_wall_now() - t0, dc = cz_bench_process_cpu_now() - c0;
        best = dt < best ? dt : best;
        *cpu = dc < *cpu ? dc : *cpu;
    }
    *cpu *= 1e9;
    return best * 1e9;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    int max_log = argc > 2 ? atoi(argv[2]) : 16;
    if (reps < 1 || max_log < 14 || max_log > 20) {
        fprintf(stderr, "usage: bench-bn254_msm [reps >= 1] [largest log 14..20]\n");
        return 2;
    }
    row rows[64];
    int nr = 0;
    uint64_t sink = 0;

    /* ---- the product itself: 8 products per call ---- */
    cz_rng rng;
    cz_rng_seed(&rng, 5);
    cz_bn254_fp a[8], b[8];
    for (int e = 0; e < 8; e++) {
        cz_bn254_fp_random(&a[e], &rng);
        cz_bn254_fp_random(&b[e], &rng);
    }
    cz_bench_row tr[2];
    int nt = 0;
    long iters = 2000000;
    CZ_BENCH_TIME(tr, nt, "fp_mul x8 (scalar)", iters, 1e9,
                  for (int e = 0; e < 8; e++) cz_bn254_fp_mul(&a[e], &a[e], &b[e]));
    CZ_BENCH_TIME(tr, nt, "fp_mul_x8", iters, 1e9, cz_bn254_fp_mul_x8(a, a, b));
    sink ^= a[3].l[0];
    for (int i = 0; i < nt; i++) {
        snprintf(rows[nr].name, sizeof rows[nr].name, "%s", tr[i].name);
        rows[nr].cpu_ns = tr[i].t;
        rows[nr++].ns = tr[i].t;
    }

    /* ---- MSMs ---- */
    size_t nmax = (size_t)1 << max_log;
    cz_bn254_g1_affine *p1 = malloc(nmax * sizeof *p1);
    cz_bn254_g2_affine *p2 = malloc(nmax * sizeof *p2);
    cz_bn254_fr *sc = malloc(nmax * sizeof *sc);
    if (!p1 || !p2 || !sc) {
        fprintf(stderr, "bench-bn254_msm: out of memory\n");
        return 1;
    }
    cz_threadpool *all = cz_threadpool_global();
    int nall = cz_threadpool_size(all);
    cz_bench_gen g1c = {p1, nmax, 1001}, g2c = {p2, nmax, 1002};
    cz_parallel_for(all, cz_bench_gen_chunks(nmax), 1, gen_g1_fn, &g1c);
    cz_parallel_for(all, cz_bench_gen_chunks(nmax), 1, gen_g2_fn, &g2c);
    cz_rng_seed(&rng, 77);
    for (size_t i = 0; i < nmax; i++)
        cz_bn254_fr_random(&sc[i], &rng);
    cz_threadpool *pools[2] = {NULL, all};
    int thr[2] = {1, nall};
    for (int g2 = 0; g2 < 2; g2++)
        for (int t = 0; t < 2; t++) {
            if (t == 1 && nall == 1)
                break;
            cz_msm_opts o = {.pool = pools[t]};
            for (int k = 14; k <= max_log; k += 2)
                for (int x8 = 0; x8 < 2; x8++) {
                    cz_bn254_msm_x8_on_ = x8;
                    rows[nr].ns = best_wall(reps, g2, g2 ? (const void *)p2 : (const void *)p1, sc,
                                            (size_t)1 << k, &o, &sink, &rows[nr].cpu_ns);
                    snprintf(rows[nr].name, sizeof rows[nr].name, "g%d_msm 2^%d %dt %s", g2 + 1, k,
                             thr[t], x8 ? "x8" : "scalar");
                    nr++;
                }
        }
    cz_bn254_msm_x8_on_ = 1;

    printf("# fp_mul_x8: %s\n", cz_bn254_fp_mul_x8_is_simd() ? "ifma" : "scalar (not built with IFMA)");
    printf("%-28s %14s %14s %9s %9s\n", "op", "wall ns", "cpu ns", "gain wall", "gain cpu");
    for (int i = 0; i < nr; i++) {
        const char *nm = rows[i].name;
        size_t L = strlen(nm);
        if ((L > 3 && !strcmp(nm + L - 3, " x8")) || i == 1)
            printf("%-28s %14.1f %14.1f %8.2fx %8.2fx\n", nm, rows[i].ns, rows[i].cpu_ns,
                   rows[i - 1].ns / rows[i].ns, rows[i - 1].cpu_ns / rows[i].cpu_ns);
        else
            printf("%-28s %14.1f %14.1f\n", nm, rows[i].ns, rows[i].cpu_ns);
    }
    char commit[64], machine[192];
    cz_bench_commit(commit, sizeof commit);
    cz_bench_machine(machine, sizeof machine);
    for (int i = 0; i < nr; i++)
        printf("{\"bench\":\"bn254_msm\",\"op\":\"%s\",\"ns\":%.1f,\"cpu_ns\":%.1f,\"ifma\":%d,"
               "\"commit\":\"%s\",\"machine\":\"%s\"}\n",
               rows[i].name, rows[i].ns, rows[i].cpu_ns, cz_bn254_fp_mul_x8_is_simd(), commit,
               machine);
    fprintf(stderr, "# %llx\n", (unsigned long long)sink);
    free(p1);
    free(p2);
    free(sc);
    return 0;
}
