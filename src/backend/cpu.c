/*
 * cpu.c: the CPU backend (backend.h) on the project's thread pool.
 *
 * DESIGN. eval_abc is a sparse matrix-vector product per matrix, rows in
 * parallel chunks (each row's sum is independent), then c = a .* b.
 * compute_h runs cz_ntt_snarkjs_odd_points (inverse NTT, scale by w_2n^i,
 * forward NTT) on a, b and c with a cached snarkjs-root domain, then
 * h = a .* b - c (a .* b when c is NULL: a key with C folded). The MSMs are the msm layer's Pippenger, which takes the
 * 0 and 1 scalars (most of a circom witness) out of the bucket work.
 * fixed_base_g1/g2 (a development setup's products k_i G) are
 * groth16/fixed_base.c's windowed tables with batched affine additions.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "groth16/native.h"
#include "msm/msm.h"
#include "poly/ntt.h"
#include "util/threadpool.h"

typedef struct {
    cz_threadpool *pool;    /* NULL: one thread */
    int own_pool;
    pthread_mutex_t lock;
    cz_ntt_domain *dom[CZ_NTT_MAX_LOG + 1];
} cpu_ctx;

void cz_csr_free(cz_csr *m)
{
    if (!m)
        return;
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

/* ---- a, b, c ---- */

typedef struct {
    cz_fr *a, *b, *c;
    const cz_csr *qa, *qb;
    const cz_fr *w;
} abc_job;

static void spmv_rows(cz_fr *out, const cz_csr *m, const cz_fr *w, size_t begin, size_t end)
{
    for (size_t r = begin; r < end; r++) {
        cz_fr acc, t;
        cz_fr_zero(&acc);
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            cz_fr_mul(&t, &m->val[k], &w[m->col[k]]);
            cz_fr_add(&acc, &acc, &t);
        }
        out[r] = acc;
    }
}

static void abc_chunk(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    abc_job *j = vctx;
    spmv_rows(j->a, j->qa, j->w, begin, end);
    spmv_rows(j->b, j->qb, j->w, begin, end);
    for (size_t r = begin; r < end; r++)
        cz_fr_mul(&j->c[r], &j->a[r], &j->b[r]);
}

static cz_status cpu_eval_abc(cz_backend *be, cz_fr *a, cz_fr *b, cz_fr *c, const cz_csr *qa,
                              const cz_csr *qb, const cz_fr *w, size_t n_w)
{
    cpu_ctx *ctx = be->ctx;
    (void)n_w;
    if (qa->n_rows != qb->n_rows)
        return CZ_ERR_ARG;
    abc_job j = {a, b, c, qa, qb, w};
    cz_parallel_for(ctx->pool, qa->n_rows, 4096, abc_chunk, &j);
    return CZ_OK;
}

/* ---- h ---- */

typedef struct {
    cz_fr *h, *a, *b, *c;
} h_job;

static void h_chunk(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    h_job *j = vctx;
    for (size_t i = begin; i < end; i++) {
        cz_fr t;
        cz_fr_mul(&t, &j->a[i], &j->b[i]);
        if (j->c)
            cz_fr_sub(&t, &t, &j->c[i]);
        j->h[i] = t;
    }
}

static cz_status domain_get(cpu_ctx *ctx, const cz_ntt_domain **out, unsigned log_n)
{
    if (log_n > CZ_NTT_MAX_LOG)
        return CZ_ERR_UNSUPPORTED;
    cz_status st = CZ_OK;
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->dom[log_n])
        st = cz_ntt_domain_create(&ctx->dom[log_n], log_n, CZ_NTT_ROOT_5);
    *out = ctx->dom[log_n];
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

static cz_status cpu_compute_h(cz_backend *be, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c,
                               unsigned log_n)
{
    cpu_ctx *ctx = be->ctx;
    const cz_ntt_domain *d;
    cz_status st = domain_get(ctx, &d, log_n);
    if (st)
        return st;
    cz_ntt_snarkjs_odd_points(d, a, ctx->pool);
    cz_ntt_snarkjs_odd_points(d, b, ctx->pool);
    if (c)
        cz_ntt_snarkjs_odd_points(d, c, ctx->pool);
    h_job j = {h, a, b, c};
    cz_parallel_for(ctx->pool, d->n, 8192, h_chunk, &j);
    return CZ_OK;
}

/* ---- MSM ---- */


static cz_status cpu_msm_g1(cz_backend *be, cz_g1_jac *out, const cz_g1_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    cpu_ctx *ctx = be->ctx;
    cz_msm_opts o = {.pool = ctx->pool, .form = CZ_MSM_SCALAR_MONT};
    return cz_g1_msm(out, bases, scalars, n, &o);
}

static cz_status cpu_msm_g2(cz_backend *be, cz_g2_jac *out, const cz_g2_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    cpu_ctx *ctx = be->ctx;
    cz_msm_opts o = {.pool = ctx->pool, .form = CZ_MSM_SCALAR_MONT};
    return cz_g2_msm(out, bases, scalars, n, &o);
}

/* ---- fixed-base products ---- */

static cz_status cpu_fixed_base_g1(cz_backend *be, cz_g1_affine *out, const cz_fr *scalars,
                                   size_t n)
{
    cpu_ctx *ctx = be->ctx;
    return cz_fixed_base_g1(out, scalars, n, ctx->pool);
}

static cz_status cpu_fixed_base_g2(cz_backend *be, cz_g2_affine *out, const cz_fr *scalars,
                                   size_t n)
{
    cpu_ctx *ctx = be->ctx;
    return cz_fixed_base_g2(out, scalars, n, ctx->pool);
}

/* ---- life cycle ---- */

static void cpu_destroy(cz_backend *be)
{
    cpu_ctx *ctx = be->ctx;
    for (int i = 0; i <= CZ_NTT_MAX_LOG; i++)
        cz_ntt_domain_destroy(ctx->dom[i]);
    if (ctx->own_pool)
        cz_threadpool_destroy(ctx->pool);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    free(be);
}

static void cpu_info(cz_backend *be, cz_backend_info *out)
{
    cpu_ctx *ctx = be->ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->device, sizeof out->device, "cpu, %d thread%s", cz_threadpool_size(ctx->pool),
             cz_threadpool_size(ctx->pool) == 1 ? "" : "s");
}

cz_status cz_backend_cpu_create(cz_backend **out, unsigned threads)
{
    *out = NULL;
    cz_backend *be = calloc(1, sizeof *be);
    cpu_ctx *ctx = calloc(1, sizeof *ctx);
    if (!be || !ctx) {
        free(be);
        free(ctx);
        return CZ_ERR_NOMEM;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    if (threads == 0) {
        ctx->pool = cz_threadpool_global();
    } else if (threads > 1) {
        ctx->pool = cz_threadpool_create((int)threads);
        ctx->own_pool = 1;
        if (!ctx->pool) {
            pthread_mutex_destroy(&ctx->lock);
            free(be);
            free(ctx);
            return CZ_ERR_NOMEM;
        }
    }
    be->name = "cpu";
    be->ctx = ctx;
    be->info = cpu_info;
    be->eval_abc = cpu_eval_abc;
    be->compute_h = cpu_compute_h;
    be->msm_g1 = cpu_msm_g1;
    be->msm_g2 = cpu_msm_g2;
    be->fixed_base_g1 = cpu_fixed_base_g1;
    be->fixed_base_g2 = cpu_fixed_base_g2;
    be->destroy = cpu_destroy;
    *out = be;
    return CZ_OK;
}
