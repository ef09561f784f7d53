/*
 * cuda_glue.c: the host side of the CUDA backend (API in backend/cuda.h).
 *
 * DESIGN. Compiled in every build. With CUZK_HAVE_CUDA (set by
 * cuda/CMakeLists.txt when nvcc builds the kernels) it checks arguments,
 * does the small host-side algebra (inverse roots, 1/n, coset inverses with
 * the host field code, XYZZ to Jacobian with the curve code), moves host
 * arrays through arena scratch and calls the kernels' internal interface
 * (cuda/czd.h). Without it every entry point returns CZ_ERR_UNSUPPORTED.
 * It also defines cz_backend_cuda_create (the "cuda" backend of
 * backend.h) in CUDA builds; CUZK_GPU_ARENA_MB caps that backend's arena.
 */
#include "backend/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA

#include <pthread.h>

#include "../../cuda/czd.h"
#include "backend/backend.h"
#include "poly/ntt.h"

struct cz_cuda_ctx {
    czd_ctx *d;
    char err[512];
};

bool cz_cuda_built(void) { return true; }
int cz_cuda_device_count(void) { return czd_device_count(); }

static cz_status fail(cz_cuda_ctx *ctx, cz_status st, const char *msg)
{
    snprintf(ctx->err, sizeof ctx->err, "%s", msg);
    return st;
}

/* copy the kernel side's message after a failed call */
static cz_status pass(cz_cuda_ctx *ctx, cz_status st)
{
    if (st != CZ_OK)
        snprintf(ctx->err, sizeof ctx->err, "%s", czd_ctx_error(ctx->d));
    return st;
}

cz_status cz_cuda_ctx_create(cz_cuda_ctx **out, int device, size_t max_bytes, size_t margin,
                             char *err, size_t err_len)
{
    char tmp[8];
    if (!err) {
        err = tmp;
        err_len = sizeof tmp;
    }
    if (!out) {
        snprintf(err, err_len, "cz_cuda_ctx_create: out is NULL");
        return CZ_ERR_ARG;
    }
    *out = NULL;
    if (device < 0 || device >= czd_device_count()) {
        snprintf(err, err_len, "no CUDA device %d (%d found)", device, czd_device_count());
        return CZ_ERR_UNSUPPORTED;
    }
    cz_cuda_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        snprintf(err, err_len, "out of host memory");
        return CZ_ERR_NOMEM;
    }
    cz_status st = czd_ctx_create(&ctx->d, device, max_bytes, margin, err, err_len);
    if (st != CZ_OK) {
        free(ctx);
        return st;
    }
    *out = ctx;
    return CZ_OK;
}

void cz_cuda_ctx_destroy(cz_cuda_ctx *ctx)
{
    if (!ctx)
        return;
    czd_ctx_destroy(ctx->d);
    free(ctx);
}

const char *cz_cuda_ctx_error(const cz_cuda_ctx *ctx) { return ctx ? ctx->err : "no context"; }
const char *cz_cuda_device_name(const cz_cuda_ctx *ctx) { return czd_device_name(ctx->d); }
size_t cz_cuda_arena_bytes(const cz_cuda_ctx *ctx) { return czd_arena_bytes(ctx->d); }
size_t cz_cuda_arena_free(const cz_cuda_ctx *ctx) { return czd_arena_free(ctx->d); }

cz_status cz_cuda_buf_alloc(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t bytes)
{
    out->dev = NULL;
    out->bytes = 0;
    cz_status st = czd_buf_alloc(ctx->d, &out->dev, bytes);
    if (st == CZ_OK)
        out->bytes = bytes;
    return pass(ctx, st);
}

cz_status cz_cuda_buf_free(cz_cuda_ctx *ctx, cz_cuda_buf *buf)
{
    if (!buf || !buf->dev)
        return CZ_OK;
    cz_status st = czd_buf_free(ctx->d, buf->dev);
    if (st == CZ_OK) {
        buf->dev = NULL;
        buf->bytes = 0;
    }
    return pass(ctx, st);
}

cz_status cz_cuda_upload(cz_cuda_ctx *ctx, cz_cuda_buf *dst, size_t off, const void *src, size_t len)
{
    if (off > dst->bytes || len > dst->bytes - off)
        return fail(ctx, CZ_ERR_ARG, "upload outside the device buffer");
    return pass(ctx, czd_copy_h2d(ctx->d, (char *)dst->dev + off, src, len));
}

cz_status cz_cuda_download(cz_cuda_ctx *ctx, void *dst, const cz_cuda_buf *src, size_t off, size_t len)
{
    if (off > src->bytes || len > src->bytes - off)
        return fail(ctx, CZ_ERR_ARG, "download outside the device buffer");
    return pass(ctx, czd_copy_d2h(ctx->d, dst, (const char *)src->dev + off, len));
}

cz_status cz_cuda_host_register(cz_cuda_ctx *ctx, void *p, size_t len)
{
    return pass(ctx, czd_host_register(ctx->d, p, len));
}

cz_status cz_cuda_host_unregister(cz_cuda_ctx *ctx, void *p)
{
    return pass(ctx, czd_host_unregister(ctx->d, p));
}

/* Upload `count` arrays of the given sizes into fresh buffers, run, free. */
static cz_status tmp_bufs(cz_cuda_ctx *ctx, cz_cuda_buf *b, const size_t *bytes, int count)
{
    for (int i = 0; i < count; i++) {
        cz_status st = cz_cuda_buf_alloc(ctx, &b[i], bytes[i] ? bytes[i] : 1);
        if (st != CZ_OK) {
            while (i-- > 0)
                cz_cuda_buf_free(ctx, &b[i]);
            return st;
        }
    }
    return CZ_OK;
}

static void tmp_free(cz_cuda_ctx *ctx, cz_cuda_buf *b, int count)
{
    for (int i = count - 1; i >= 0; i--)
        cz_cuda_buf_free(ctx, &b[i]);
}

/* ---- NTT ---- */

cz_status cz_cuda_ntt_dev(cz_cuda_ctx *ctx, cz_cuda_buf *a, unsigned log_n, const cz_fr *omega,
                          cz_cuda_ntt_kind kind, const cz_fr *g, unsigned flags)
{
    if (!ctx || !a || !omega || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG, "NTT: bad argument (log_n <= 28, omega required)")
                   : CZ_ERR_ARG;
    if (a->bytes < (sizeof(cz_fr) << log_n))
        return fail(ctx, CZ_ERR_ARG, "NTT: device buffer smaller than 2^log_n elements");
    bool coset = kind == CZ_CUDA_NTT_COSET_FORWARD || kind == CZ_CUDA_NTT_COSET_INVERSE;
    bool inverse = kind == CZ_CUDA_NTT_INVERSE || kind == CZ_CUDA_NTT_COSET_INVERSE;
    if (coset && (!g || cz_fr_is_zero(g)))
        return fail(ctx, CZ_ERR_ARG, "NTT: a coset transform needs a nonzero shift g");
    if (inverse && (flags & CZ_CUDA_NTT_BITREV_OUT))
        return fail(ctx, CZ_ERR_ARG, "NTT: bit-reversed output is for forward transforms");
    int bitrev = (flags & CZ_CUDA_NTT_BITREV_OUT) != 0;
    if (!inverse)
        return pass(ctx, czd_ntt(ctx->d, a->dev, log_n, omega, coset ? g : NULL, bitrev, NULL, NULL));
    cz_fr w_inv, n_inv, g_inv, n_fr;
    cz_fr_inv(&w_inv, omega);
    cz_fr_set_u64(&n_fr, (uint64_t)1 << log_n);
    cz_fr_inv(&n_inv, &n_fr);
    if (coset)
        cz_fr_inv(&g_inv, g);
    return pass(ctx, czd_ntt(ctx->d, a->dev, log_n, &w_inv, NULL, 0, &n_inv, coset ? &g_inv : NULL));
}

cz_status cz_cuda_ntt(cz_cuda_ctx *ctx, cz_fr *a, unsigned log_n, const cz_fr *omega,
                      cz_cuda_ntt_kind kind, const cz_fr *g)
{
    if (!ctx || !a || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG, "NTT: bad argument") : CZ_ERR_ARG;
    size_t bytes = sizeof(cz_fr) << log_n;
    cz_cuda_buf b;
    cz_status st = tmp_bufs(ctx, &b, &bytes, 1);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &b, 0, a, bytes)) == CZ_OK &&
        (st = cz_cuda_ntt_dev(ctx, &b, log_n, omega, kind, g, 0)) == CZ_OK)
        st = cz_cuda_download(ctx, a, &b, 0, bytes);
    tmp_free(ctx, &b, 1);
    return st;
}

/* ---- MSM ---- */

/* Runs the device part of an MSM; parts/nwin/cnt/c as czd_msm. */
static cz_status msm_dev(cz_cuda_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt,
                         unsigned *c, const cz_cuda_buf *bases, size_t point_bytes,
                         const cz_fr *scalars_host, const cz_cuda_buf *scalars_dev, size_t n,
                         unsigned flags, unsigned wbits)
{
    if (!bases || (!scalars_host == !scalars_dev))
        return fail(ctx, CZ_ERR_ARG, "MSM: bad argument (one of host/device scalars)");
    if (bases->bytes < n * point_bytes)
        return fail(ctx, CZ_ERR_ARG, "MSM: bases buffer smaller than n points");
    int plain = (flags & CZ_CUDA_MSM_PLAIN) != 0;
    if (scalars_dev) {
        if (scalars_dev->bytes < n * sizeof(cz_fr))
            return fail(ctx, CZ_ERR_ARG, "MSM: scalar buffer smaller than n scalars");
        return pass(ctx, czd_msm(ctx->d, group, parts, nwin, cnt, c, bases->dev, scalars_dev->dev, n,
                                 plain, wbits));
    }
    size_t bytes = n * sizeof(cz_fr);
    cz_cuda_buf s;
    cz_status st = tmp_bufs(ctx, &s, &bytes, 1);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &s, 0, scalars_host, bytes)) == CZ_OK)
        st = pass(ctx, czd_msm(ctx->d, group, parts, nwin, cnt, c, bases->dev, s.dev, n, plain, wbits));
    tmp_free(ctx, &s, 1);
    return st;
}

/* The host's share: W_w = sum_k parts[w][k], out = sum_w 2^(c w) W_w by
   Horner (c doublings per window, ~250 in all: 0.1 ms here, tens of ms
   as a serial GPU chain). */
#define MSM_FINISH(G, GROUP)                                                                   \
    cz_status cz_cuda_##G##_msm_dev(cz_cuda_ctx *ctx, cz_##G##_jac *out, const cz_cuda_buf *bases, \
                                    const cz_fr *scalars_host, const cz_cuda_buf *scalars_dev,     \
                                    size_t n, unsigned flags, unsigned window_bits)            \
    {                                                                                          \
        if (!ctx || !out)                                                                      \
            return ctx ? fail(ctx, CZ_ERR_ARG, "MSM: bad argument") : CZ_ERR_ARG;              \
        cz_##G##_xyzz *parts = malloc(CZD_MSM_PARTS_CAP * sizeof *parts), acc;                 \
        if (!parts)                                                                            \
            return fail(ctx, CZ_ERR_NOMEM, "out of host memory");                              \
        unsigned nwin = 0, cnt = 0, c = 0;                                                     \
        cz_status st = msm_dev(ctx, GROUP, parts, &nwin, &cnt, &c, bases,                      \
                               sizeof(cz_##G##_affine), scalars_host, scalars_dev, n, flags,   \
                               window_bits);                                                   \
        if (st == CZ_OK) {                                                                     \
            cz_##G##_xyzz_infinity(&acc);                                                      \
            for (unsigned w = nwin; w-- > 0;) {                                                \
                if (w + 1 < nwin)                                                              \
                    for (unsigned d = 0; d < c; d++)                                           \
                        cz_##G##_xyzz_dbl(&acc, &acc);                                         \
                for (unsigned k = 0; k < cnt; k++)                                             \
                    cz_##G##_xyzz_add(&acc, &acc, &parts[(size_t)w * cnt + k]);                \
            }                                                                                  \
            cz_##G##_xyzz_to_jac(out, &acc);                                                   \
        }                                                                                      \
        free(parts);                                                                           \
        return st;                                                                             \
    }
MSM_FINISH(g1, 1)
MSM_FINISH(g2, 2)

static cz_status msm_host(cz_cuda_ctx *ctx, int group, void *out, const void *bases,
                          size_t point_bytes, const cz_fr *scalars, size_t n, unsigned flags)
{
    if (!ctx || !out || (n && (!bases || !scalars)))
        return ctx ? fail(ctx, CZ_ERR_ARG, "MSM: bad argument") : CZ_ERR_ARG;
    size_t bytes = n * point_bytes;
    cz_cuda_buf b;
    cz_status st = tmp_bufs(ctx, &b, &bytes, 1);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &b, 0, bases, bytes)) == CZ_OK) {
        if (group == 1)
            st = cz_cuda_g1_msm_dev(ctx, out, &b, scalars, NULL, n, flags, 0);
        else
            st = cz_cuda_g2_msm_dev(ctx, out, &b, scalars, NULL, n, flags, 0);
    }
    tmp_free(ctx, &b, 1);
    return st;
}

cz_status cz_cuda_g1_msm(cz_cuda_ctx *ctx, cz_g1_jac *out, const cz_g1_affine *bases,
                         const cz_fr *scalars, size_t n, unsigned flags)
{
    return msm_host(ctx, 1, out, bases, sizeof *bases, scalars, n, flags);
}

cz_status cz_cuda_g2_msm(cz_cuda_ctx *ctx, cz_g2_jac *out, const cz_g2_affine *bases,
                         const cz_fr *scalars, size_t n, unsigned flags)
{
    return msm_host(ctx, 2, out, bases, sizeof *bases, scalars, n, flags);
}

/* ---- helpers ---- */

static cz_status gen_points(cz_cuda_ctx *ctx, int group, cz_cuda_buf *out, size_t pb, size_t n,
                            const cz_fr *k, size_t m)
{
    if (!ctx || !out || !k)
        return ctx ? fail(ctx, CZ_ERR_ARG, "gen_points: bad argument") : CZ_ERR_ARG;
    if (out->bytes < n * pb)
        return fail(ctx, CZ_ERR_ARG, "gen_points: buffer smaller than n points");
    return pass(ctx, czd_gen_points(ctx->d, group, out->dev, n, k, m));
}

cz_status cz_cuda_g1_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n, const cz_fr *k, size_t m)
{
    return gen_points(ctx, 1, out, sizeof(cz_g1_affine), n, k, m);
}

cz_status cz_cuda_g2_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n, const cz_fr *k, size_t m)
{
    return gen_points(ctx, 2, out, sizeof(cz_g2_affine), n, k, m);
}

static cz_status field_op(cz_cuda_ctx *ctx, int field, int op, void *out, const void *a,
                          const void *b, size_t n, size_t eb)
{
    if (!ctx || op < 0 || op > 5 || (n && (!out || !a || !b)))
        return ctx ? fail(ctx, CZ_ERR_ARG, "field op: bad argument") : CZ_ERR_ARG;
    cz_cuda_buf d[3];
    size_t bytes[3] = {n * eb, n * eb, n * eb};
    cz_status st = tmp_bufs(ctx, d, bytes, 3);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &d[1], 0, a, n * eb)) == CZ_OK &&
        (st = cz_cuda_upload(ctx, &d[2], 0, b, n * eb)) == CZ_OK &&
        (st = pass(ctx, czd_field_op(ctx->d, field, op, d[0].dev, d[1].dev, d[2].dev, n))) == CZ_OK)
        st = cz_cuda_download(ctx, out, &d[0], 0, n * eb);
    tmp_free(ctx, d, 3);
    return st;
}

cz_status cz_cuda_fr_op(cz_cuda_ctx *ctx, int op, cz_fr *out, const cz_fr *a, const cz_fr *b, size_t n)
{
    return field_op(ctx, 0, op, out, a, b, n, sizeof(cz_fr));
}
cz_status cz_cuda_fp_op(cz_cuda_ctx *ctx, int op, cz_fp *out, const cz_fp *a, const cz_fp *b, size_t n)
{
    return field_op(ctx, 1, op, out, a, b, n, sizeof(cz_fp));
}
cz_status cz_cuda_fp2_op(cz_cuda_ctx *ctx, int op, cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b, size_t n)
{
    return field_op(ctx, 2, op, out, a, b, n, sizeof(cz_fp2));
}

static cz_status curve_test(cz_cuda_ctx *ctx, int group, void *xyzz3, const void *a, const void *b,
                            size_t n, size_t ab, size_t xb)
{
    cz_cuda_buf d[5];
    size_t bytes[5] = {n * xb, n * xb, n * xb, n * ab, n * ab};
    cz_status st = tmp_bufs(ctx, d, bytes, 5);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &d[3], 0, a, n * ab)) == CZ_OK &&
        (st = cz_cuda_upload(ctx, &d[4], 0, b, n * ab)) == CZ_OK &&
        (st = pass(ctx, czd_curve_test(ctx->d, group, d[0].dev, d[1].dev, d[2].dev, d[3].dev,
                                       d[4].dev, n))) == CZ_OK) {
        for (int i = 0; i < 3 && st == CZ_OK; i++)
            st = cz_cuda_download(ctx, (char *)xyzz3 + i * n * xb, &d[i], 0, n * xb);
    }
    tmp_free(ctx, d, 5);
    return st;
}

cz_status cz_cuda_g1_curve_test(cz_cuda_ctx *ctx, cz_g1_jac *madd, cz_g1_jac *add, cz_g1_jac *dbl,
                                const cz_g1_affine *a, const cz_g1_affine *b, size_t n)
{
    if (!ctx || n == 0)
        return ctx ? CZ_OK : CZ_ERR_ARG;
    cz_g1_xyzz *x = malloc(3 * n * sizeof *x);
    if (!x)
        return fail(ctx, CZ_ERR_NOMEM, "out of host memory");
    cz_status st = curve_test(ctx, 1, x, a, b, n, sizeof *a, sizeof *x);
    for (size_t i = 0; st == CZ_OK && i < n; i++) {
        cz_g1_xyzz_to_jac(&madd[i], &x[i]);
        cz_g1_xyzz_to_jac(&add[i], &x[n + i]);
        cz_g1_xyzz_to_jac(&dbl[i], &x[2 * n + i]);
    }
    free(x);
    return st;
}

cz_status cz_cuda_g2_curve_test(cz_cuda_ctx *ctx, cz_g2_jac *madd, cz_g2_jac *add, cz_g2_jac *dbl,
                                const cz_g2_affine *a, const cz_g2_affine *b, size_t n)
{
    if (!ctx || n == 0)
        return ctx ? CZ_OK : CZ_ERR_ARG;
    cz_g2_xyzz *x = malloc(3 * n * sizeof *x);
    if (!x)
        return fail(ctx, CZ_ERR_NOMEM, "out of host memory");
    cz_status st = curve_test(ctx, 2, x, a, b, n, sizeof *a, sizeof *x);
    for (size_t i = 0; st == CZ_OK && i < n; i++) {
        cz_g2_xyzz_to_jac(&madd[i], &x[i]);
        cz_g2_xyzz_to_jac(&add[i], &x[n + i]);
        cz_g2_xyzz_to_jac(&dbl[i], &x[2 * n + i]);
    }
    free(x);
    return st;
}


/* ---- the cz_backend of backend.h on the GPU ----
 * compute_h and the MSMs run on the device; eval_abc (sparse products over
 * the witness, host data) stays on the CPU backend. One mutex serialises
 * the device work of concurrent callers (a context is single-threaded). A
 * call that does not fit the arena falls back to the CPU backend. */

typedef struct {
    cz_cuda_ctx *cu;
    cz_backend *cpu;
    pthread_mutex_t lock;
    cz_ntt_domain *dom[CZ_NTT_MAX_LOG + 1];
} gpu_be;

static void gpu_info(cz_backend *be, cz_backend_info *out)
{
    gpu_be *g = be->ctx;
    memset(out, 0, sizeof *out);
    snprintf(out->device, sizeof out->device, "%s", cz_cuda_device_name(g->cu));
    out->mem_total = cz_cuda_arena_bytes(g->cu);
    out->mem_free = cz_cuda_arena_free(g->cu);
}

static cz_status gpu_eval_abc(cz_backend *be, cz_fr *a, cz_fr *b, cz_fr *c, const cz_csr *qa,
                              const cz_csr *qb, const cz_fr *w, size_t n_w)
{
    gpu_be *g = be->ctx;
    return g->cpu->eval_abc(g->cpu, a, b, c, qa, qb, w, n_w);
}

/* snarkjs odd points on the device: inverse NTT fused with 1/n and the
   scale by w_2n^j, then the forward NTT (as cz_ntt_snarkjs_odd_points) */
static cz_status gpu_h_locked(gpu_be *g, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c, unsigned log_n)
{
    if (log_n > CZ_NTT_MAX_LOG)
        return CZ_ERR_UNSUPPORTED;
    if (!g->dom[log_n]) {
        cz_status st = cz_ntt_domain_create(&g->dom[log_n], log_n, CZ_NTT_ROOT_5);
        if (st != CZ_OK)
            return st;
    }
    const cz_ntt_domain *d = g->dom[log_n];
    size_t bytes = sizeof(cz_fr) << log_n, nb[3] = {bytes, bytes, bytes};
    cz_cuda_buf buf[3];
    cz_status st = tmp_bufs(g->cu, buf, nb, 3);
    if (st != CZ_OK)
        return st;
    cz_fr *in[3] = {a, b, c};
    for (int i = 0; i < 3 && st == CZ_OK; i++) {
        st = cz_cuda_upload(g->cu, &buf[i], 0, in[i], bytes);
        if (st == CZ_OK)
            st = pass(g->cu, czd_ntt(g->cu->d, buf[i].dev, log_n, &d->omega_inv, NULL, 0, &d->n_inv,
                                     &d->omega_2n));
        if (st == CZ_OK)
            st = pass(g->cu, czd_ntt(g->cu->d, buf[i].dev, log_n, &d->omega, NULL, 0, NULL, NULL));
    }
    size_t n = (size_t)1 << log_n;
    if (st == CZ_OK) /* a = a * b; a = a - c */
        st = pass(g->cu, czd_field_op(g->cu->d, 0, 2, buf[0].dev, buf[0].dev, buf[1].dev, n));
    if (st == CZ_OK)
        st = pass(g->cu, czd_field_op(g->cu->d, 0, 1, buf[0].dev, buf[0].dev, buf[2].dev, n));
    if (st == CZ_OK)
        st = cz_cuda_download(g->cu, h, &buf[0], 0, bytes);
    tmp_free(g->cu, buf, 3);
    return st;
}

static cz_status gpu_compute_h(cz_backend *be, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c,
                               unsigned log_n)
{
    gpu_be *g = be->ctx;
    pthread_mutex_lock(&g->lock);
    cz_status st = gpu_h_locked(g, h, a, b, c, log_n);
    pthread_mutex_unlock(&g->lock);
    if (st == CZ_ERR_NOMEM) /* inputs are untouched until the download */
        return g->cpu->compute_h(g->cpu, h, a, b, c, log_n);
    return st;
}

static cz_status gpu_msm_g1(cz_backend *be, cz_g1_jac *out, const cz_g1_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    gpu_be *g = be->ctx;
    pthread_mutex_lock(&g->lock);
    cz_status st = cz_cuda_g1_msm(g->cu, out, bases, scalars, n, 0);
    pthread_mutex_unlock(&g->lock);
    if (st == CZ_ERR_NOMEM)
        return g->cpu->msm_g1(g->cpu, out, bases, scalars, n);
    return st;
}

static cz_status gpu_msm_g2(cz_backend *be, cz_g2_jac *out, const cz_g2_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    gpu_be *g = be->ctx;
    pthread_mutex_lock(&g->lock);
    cz_status st = cz_cuda_g2_msm(g->cu, out, bases, scalars, n, 0);
    pthread_mutex_unlock(&g->lock);
    if (st == CZ_ERR_NOMEM)
        return g->cpu->msm_g2(g->cpu, out, bases, scalars, n);
    return st;
}

static void gpu_destroy(cz_backend *be)
{
    gpu_be *g = be->ctx;
    for (int i = 0; i <= CZ_NTT_MAX_LOG; i++)
        cz_ntt_domain_destroy(g->dom[i]);
    cz_cuda_ctx_destroy(g->cu);
    cz_backend_destroy(g->cpu);
    pthread_mutex_destroy(&g->lock);
    free(g);
    free(be);
}

cz_status cz_backend_cuda_create(cz_backend **out, int gpu, unsigned threads, char *err,
                                 size_t err_len)
{
    *out = NULL;
    cz_backend *be = calloc(1, sizeof *be);
    gpu_be *g = calloc(1, sizeof *g);
    if (!be || !g) {
        free(be);
        free(g);
        return CZ_ERR_NOMEM;
    }
    size_t cap = 0;
    const char *env = getenv("CUZK_GPU_ARENA_MB");
    if (env && *env)
        cap = (size_t)strtoull(env, NULL, 10) << 20;
    cz_status st = cz_cuda_ctx_create(&g->cu, gpu, cap, 0, err, err_len);
    if (st == CZ_OK)
        st = cz_backend_cpu_create(&g->cpu, threads);
    if (st != CZ_OK) {
        cz_cuda_ctx_destroy(g->cu);
        free(g);
        free(be);
        return st;
    }
    pthread_mutex_init(&g->lock, NULL);
    be->info = gpu_info;
    be->name = "cuda";
    be->ctx = g;
    be->eval_abc = gpu_eval_abc;
    be->compute_h = gpu_compute_h;
    be->msm_g1 = gpu_msm_g1;
    be->msm_g2 = gpu_msm_g2;
    be->destroy = gpu_destroy;
    *out = be;
    return CZ_OK;
}

#else /* !CUZK_HAVE_CUDA: every entry point reports that CUDA is not built */

struct cz_cuda_ctx {
    int unused;
};

#define NO_CUDA CZ_ERR_UNSUPPORTED

bool cz_cuda_built(void) { return false; }
int cz_cuda_device_count(void) { return 0; }

cz_status cz_cuda_ctx_create(cz_cuda_ctx **out, int device, size_t max_bytes, size_t margin,
                             char *err, size_t err_len)
{
    (void)device, (void)max_bytes, (void)margin;
    if (out)
        *out = NULL;
    if (err && err_len)
        snprintf(err, err_len, "cuzk was built without the CUDA backend");
    return NO_CUDA;
}
void cz_cuda_ctx_destroy(cz_cuda_ctx *ctx) { (void)ctx; }
const char *cz_cuda_ctx_error(const cz_cuda_ctx *ctx)
{
    (void)ctx;
    return "cuzk was built without the CUDA backend";
}
const char *cz_cuda_device_name(const cz_cuda_ctx *ctx) { (void)ctx; return "none"; }
size_t cz_cuda_arena_bytes(const cz_cuda_ctx *ctx) { (void)ctx; return 0; }
size_t cz_cuda_arena_free(const cz_cuda_ctx *ctx) { (void)ctx; return 0; }
cz_status cz_cuda_buf_alloc(cz_cuda_ctx *c, cz_cuda_buf *o, size_t b) { (void)c, (void)o, (void)b; return NO_CUDA; }
cz_status cz_cuda_buf_free(cz_cuda_ctx *c, cz_cuda_buf *b) { (void)c, (void)b; return NO_CUDA; }
cz_status cz_cuda_upload(cz_cuda_ctx *c, cz_cuda_buf *d, size_t o, const void *s, size_t l)
{ (void)c, (void)d, (void)o, (void)s, (void)l; return NO_CUDA; }
cz_status cz_cuda_download(cz_cuda_ctx *c, void *d, const cz_cuda_buf *s, size_t o, size_t l)
{ (void)c, (void)d, (void)o, (void)s, (void)l; return NO_CUDA; }
cz_status cz_cuda_host_register(cz_cuda_ctx *c, void *p, size_t l) { (void)c, (void)p, (void)l; return NO_CUDA; }
cz_status cz_cuda_host_unregister(cz_cuda_ctx *c, void *p) { (void)c, (void)p; return NO_CUDA; }
cz_status cz_cuda_ntt(cz_cuda_ctx *c, cz_fr *a, unsigned l, const cz_fr *w, cz_cuda_ntt_kind k, const cz_fr *g)
{ (void)c, (void)a, (void)l, (void)w, (void)k, (void)g; return NO_CUDA; }
cz_status cz_cuda_ntt_dev(cz_cuda_ctx *c, cz_cuda_buf *a, unsigned l, const cz_fr *w, cz_cuda_ntt_kind k,
                          const cz_fr *g, unsigned f)
{ (void)c, (void)a, (void)l, (void)w, (void)k, (void)g, (void)f; return NO_CUDA; }
cz_status cz_cuda_g1_msm(cz_cuda_ctx *c, cz_g1_jac *o, const cz_g1_affine *b, const cz_fr *s, size_t n, unsigned f)
{ (void)c, (void)o, (void)b, (void)s, (void)n, (void)f; return NO_CUDA; }
cz_status cz_cuda_g2_msm(cz_cuda_ctx *c, cz_g2_jac *o, const cz_g2_affine *b, const cz_fr *s, size_t n, unsigned f)
{ (void)c, (void)o, (void)b, (void)s, (void)n, (void)f; return NO_CUDA; }
cz_status cz_cuda_g1_msm_dev(cz_cuda_ctx *c, cz_g1_jac *o, const cz_cuda_buf *b, const cz_fr *sh,
                             const cz_cuda_buf *sd, size_t n, unsigned f, unsigned w)
{ (void)c, (void)o, (void)b, (void)sh, (void)sd, (void)n, (void)f, (void)w; return NO_CUDA; }
cz_status cz_cuda_g2_msm_dev(cz_cuda_ctx *c, cz_g2_jac *o, const cz_cuda_buf *b, const cz_fr *sh,
                             const cz_cuda_buf *sd, size_t n, unsigned f, unsigned w)
{ (void)c, (void)o, (void)b, (void)sh, (void)sd, (void)n, (void)f, (void)w; return NO_CUDA; }
cz_status cz_cuda_g1_gen_points(cz_cuda_ctx *c, cz_cuda_buf *o, size_t n, const cz_fr *k, size_t m)
{ (void)c, (void)o, (void)n, (void)k, (void)m; return NO_CUDA; }
cz_status cz_cuda_g2_gen_points(cz_cuda_ctx *c, cz_cuda_buf *o, size_t n, const cz_fr *k, size_t m)
{ (void)c, (void)o, (void)n, (void)k, (void)m; return NO_CUDA; }
cz_status cz_cuda_fr_op(cz_cuda_ctx *c, int op, cz_fr *o, const cz_fr *a, const cz_fr *b, size_t n)
{ (void)c, (void)op, (void)o, (void)a, (void)b, (void)n; return NO_CUDA; }
cz_status cz_cuda_fp_op(cz_cuda_ctx *c, int op, cz_fp *o, const cz_fp *a, const cz_fp *b, size_t n)
{ (void)c, (void)op, (void)o, (void)a, (void)b, (void)n; return NO_CUDA; }
cz_status cz_cuda_fp2_op(cz_cuda_ctx *c, int op, cz_fp2 *o, const cz_fp2 *a, const cz_fp2 *b, size_t n)
{ (void)c, (void)op, (void)o, (void)a, (void)b, (void)n; return NO_CUDA; }
cz_status cz_cuda_g1_curve_test(cz_cuda_ctx *c, cz_g1_jac *m, cz_g1_jac *a, cz_g1_jac *d,
                                const cz_g1_affine *x, const cz_g1_affine *y, size_t n)
{ (void)c, (void)m, (void)a, (void)d, (void)x, (void)y, (void)n; return NO_CUDA; }
cz_status cz_cuda_g2_curve_test(cz_cuda_ctx *c, cz_g2_jac *m, cz_g2_jac *a, cz_g2_jac *d,
                                const cz_g2_affine *x, const cz_g2_affine *y, size_t n)
{ (void)c, (void)m, (void)a, (void)d, (void)x, (void)y, (void)n; return NO_CUDA; }

#endif
