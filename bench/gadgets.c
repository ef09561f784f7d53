/*
 * bench-gadgets: the constraint system's rates on SHA-256, the workload's
 * bulk (bits).
 *
 *   bench-gadgets [BLOCKS [THREADS]]     (default 256 blocks, all CPUs)
 *
 * DESIGN. A chain of BLOCKS SHA-256 compressions (25,840 constraints and
 * 25,814 aux a block, ~99.9 % of the aux bits) runs in each mode: COUNT,
 * SHAPE (rate, and the recorded bytes per constraint), WITNESS on one
 * thread, and WITNESS split into THREADS forked children (one chain each,
 * on a thread pool), the way circuits generate witnesses in parallel. The
 * one-thread figures are thread CPU time (the machine may be shared), the
 * parallel one wall time. The witness is checked against the shape.
 * Prints a table, then one JSON line per case:
 *   {"bench":"gadgets","case":..,"blocks":..,"threads":..,"constraints":..,
 *    "aux":..,"seconds":..,"aux_per_s":..,"commit":..}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuit/gadgets.h"
#include "util/threadpool.h"

#include "bench_util.h"

static char g_commit[64] = "unknown";

/* One chain: 512 input bits, then `blocks` compressions of them over a
   running state (the first over the IV). */
static void chain(cz_cs *cs, unsigned blocks, unsigned salt)
{
    cz_bool in[512];
    for (int i = 0; i < 512; i++)
        in[i] = cz_bool_alloc(cs, (int)(((unsigned)i * 2654435761u + salt) >> 13) & 1);
    cz_u32 st[8];
    for (int i = 0; i < 8; i++)
        st[i] = cz_u32_const(cz_sha256_iv[i]);
    for (unsigned b = 0; b < blocks; b++)
        cz_sha256_compress_gadget(cs, st, in);
}

typedef struct {
    unsigned blocks_per, chains;
} plan;

static void whole(cz_cs *cs, const plan *p)
{
    for (unsigned k = 0; k < p->chains; k++)
        chain(cs, p->blocks_per, k);
}

typedef struct {
    cz_cs **kids;
    const plan *p;
} par_ctx;

static void par_fn(void *vctx, size_t b, size_t e, int worker)
{
    (void)worker;
    par_ctx *x = vctx;
    for (size_t k = b; k < e; k++)
        chain(x->kids[k], x->p->blocks_per, (unsigned)k);
}

typedef struct {
    const char *name;
    int threads;
    uint64_t nc, na;
    double s;
} bench_row;

static void report(const char *name, const plan *p, int threads, uint64_t nc, uint64_t na, double s)
{
    printf("%-22s %8u %7d %12llu %12llu %9.3f %10.2f\n", name, p->blocks_per * p->chains, threads,
           (unsigned long long)nc, (unsigned long long)na, s, na / s / 1e6);
}

static void json(const char *name, const plan *p, int threads, uint64_t nc, uint64_t na, double s)
{
    printf("{\"bench\":\"gadgets\",\"case\":\"%s\",\"blocks\":%u,\"threads\":%d,\"constraints\":%llu,"
           "\"aux\":%llu,\"seconds\":%.4f,\"aux_per_s\":%.0f,\"commit\":\"%s\"}\n",
           name, p->blocks_per * p->chains, threads, (unsigned long long)nc, (unsigned long long)na, s,
           na / s, g_commit);
}

int main(int argc, char **argv)
{
    unsigned blocks = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 256;
    int threads = argc > 2 ? atoi(argv[2]) : cz_cpu_count();
    if (!blocks || threads < 1) {
        fprintf(stderr, "usage: bench-gadgets [BLOCKS [THREADS]]\n");
        return 2;
    }
    cz_bench_commit(g_commit, sizeof g_commit);
    /* one chain per thread, blocks split evenly (rounded up) */
    plan p = {(blocks + (unsigned)threads - 1) / (unsigned)threads, (unsigned)threads};
    plan p1 = {p.blocks_per * p.chains, 1};
    char err[512];
    cz_cs *cs;

    bench_row rows[4];
    int nr = 0;

    double t0 = cz_bench_cpu_now();
    cz_cs_new(&cs, CZ_CS_COUNT);
    whole(cs, &p);
    cz_cs_finish(cs, err, sizeof err);
    uint64_t na = cz_cs_num_aux(cs), nc = cz_cs_num_constraints(cs);
    cz_cs_free(cs);
    rows[nr++] = (bench_row){"count", 1, nc, na, cz_bench_cpu_now() - t0};

    t0 = cz_bench_cpu_now();
    cz_shape *shape;
    cz_cs_new(&cs, CZ_CS_SHAPE);
    whole(cs, &p);
    if (cz_cs_take_shape(cs, &shape, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "bench-gadgets: %s\n", err);
        return 1;
    }
    cz_cs_free(cs);
    rows[nr++] = (bench_row){"shape", 1, nc, na, cz_bench_cpu_now() - t0};
    uint64_t nnz = shape->m[0].nnz + shape->m[1].nnz + shape->m[2].nnz;
    double bytes = (double)nnz * 6 + (double)(nc + 1) * 24;

    uint64_t nw = 1 + na;
    cz_fr *w = malloc(nw * sizeof *w), *w2 = malloc(nw * sizeof *w2);
    if (!w || !w2) {
        fprintf(stderr, "bench-gadgets: out of memory\n");
        return 1;
    }
    memset(w, 0, nw * sizeof *w); /* touch the pages outside the timing */
    memset(w2, 0, nw * sizeof *w2);
    t0 = cz_bench_cpu_now();
    cz_cs_new_witness(&cs, w, 0, na);
    whole(cs, &p);
    cz_status st = cz_cs_finish(cs, err, sizeof err);
    cz_cs_free(cs);
    rows[nr++] = (bench_row){"witness", 1, nc, na, cz_bench_cpu_now() - t0};
    if (st != CZ_OK || cz_shape_check(shape, w, err, sizeof err) != CZ_OK) {
        fprintf(stderr, "bench-gadgets: witness: %s\n", err);
        return 1;
    }

    /* parallel: one forked child per chain on a pool */
    cz_threadpool *pool = cz_threadpool_create(threads);
    uint64_t per = na / p.chains;
    cz_cs **kids = calloc(p.chains, sizeof *kids);
    double tw = cz_bench_wall_now();
    cz_cs_new_witness(&cs, w2, 0, na);
    for (unsigned k = 0; k < p.chains; k++)
        cz_cs_fork(cs, &kids[k], 0, per);
    par_ctx x = {kids, &p};
    cz_parallel_for(pool, p.chains, 1, par_fn, &x);
    for (unsigned k = 0; k < p.chains; k++)
        cz_cs_join(cs, kids[k]);
    st = cz_cs_finish(cs, err, sizeof err);
    cz_cs_free(cs);
    rows[nr++] = (bench_row){"witness_forked", threads, nc, na, cz_bench_wall_now() - tw};
    if (st != CZ_OK || memcmp(w, w2, nw * sizeof *w) != 0) {
        fprintf(stderr, "bench-gadgets: forked witness differs: %s\n", st ? err : "values");
        return 1;
    }
    cz_threadpool_destroy(pool);
    free(kids);

    printf("# bench-gadgets commit %s: SHA-256 compressions, %u chain(s)\n", g_commit, p.chains);
    printf("%-22s %8s %7s %12s %12s %9s %10s\n", "case", "blocks", "threads", "constraints", "aux",
           "seconds", "M aux/s");
    for (int i = 0; i < nr; i++)
        report(rows[i].name, &p1, rows[i].threads, rows[i].nc, rows[i].na, rows[i].s);
    printf("# shape: %llu nonzeros (%.2f a constraint), %.1f bytes a constraint, %u coefficients\n",
           (unsigned long long)nnz, (double)nnz / (double)nc, bytes / (double)nc, shape->n_coefs);
    for (int i = 0; i < nr; i++)
        json(rows[i].name, &p1, rows[i].threads, rows[i].nc, rows[i].na, rows[i].s);
    cz_shape_free(shape);
    free(w);
    free(w2);
    return 0;
}
