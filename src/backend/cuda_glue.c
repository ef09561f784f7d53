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
#include <stdatomic.h>
#include <time.h>

#include "../../cuda/czd.h"
#include "backend/backend.h"
#include "groth16/groth16.h"
#include "groth16/groth16_bn254.h"
#include "groth16/prove_bn254.h"
#include "groth16/witpack.h"
#include "io/binfile.h"
#include "poly/ntt.h"
#include "poly/ntt_bn254.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/threadpool.h"

struct cz_cuda_ctx {
    czd_ctx *d;
    char err[512];
};

bool cz_cuda_built(void) { return true; }
#ifdef CUZK_GPU_MODEL
bool cz_cuda_is_model(void) { return true; }
cz_status cz_cuda_model_fail_after(unsigned long k, cz_status st, bool sticky)
{
    return czd_model_fail_after(k, st, sticky);
}
unsigned long cz_cuda_model_calls(void) { return czd_model_calls(); }
#endif

static _Atomic size_t g_margin, g_arena_cap;
void cz_cuda_set_margin(size_t bytes) { g_margin = bytes; }
void cz_cuda_set_arena_cap(size_t bytes) { g_arena_cap = bytes; }
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

cz_status cz_cuda_ntt_h_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], unsigned log_n, const cz_fr *omega,
                            const cz_fr *g)
{
    if (!ctx || !abc || !omega || !g || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG, "H step: bad argument (log_n <= 28, omega and g required)")
                   : CZ_ERR_ARG;
    for (int i = 0; i < 3; i++) /* c may be absent (C folded into the key) */
        if (abc[i].dev ? abc[i].bytes < (sizeof(cz_fr) << log_n) : i < 2)
            return fail(ctx, CZ_ERR_ARG, "H step: device buffer smaller than 2^log_n elements");
    cz_fr w_inv, n_inv, n_fr, g2;
    cz_fr_inv(&w_inv, omega);
    cz_fr_set_u64(&n_fr, (uint64_t)1 << log_n);
    cz_fr_inv(&n_inv, &n_fr);
    cz_fr_sqr(&g2, g);
    return pass(ctx, czd_ntt_h(ctx->d, abc[0].dev, abc[1].dev, abc[2].dev, log_n, omega, &w_inv,
                               &n_inv, g, cz_fr_eq(&g2, omega)));
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
    _Static_assert(CZ_CUDA_MSM_PLAIN == CZD_MSM_PLAIN && CZ_CUDA_MSM_GENERAL == CZD_MSM_GENERAL &&
                       CZ_CUDA_MSM_BITS == CZD_MSM_BITS,
                   "MSM flags of cuda.h and czd.h");
    unsigned mf = flags & (CZD_MSM_PLAIN | CZD_MSM_GENERAL | CZD_MSM_BITS);
    if (scalars_dev) {
        if (scalars_dev->bytes < n * sizeof(cz_fr))
            return fail(ctx, CZ_ERR_ARG, "MSM: scalar buffer smaller than n scalars");
        return pass(ctx, czd_msm(ctx->d, group, parts, nwin, cnt, c, bases->dev, scalars_dev->dev, n,
                                 mf, wbits));
    }
    size_t bytes = n * sizeof(cz_fr);
    cz_cuda_buf s;
    cz_status st = tmp_bufs(ctx, &s, &bytes, 1);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &s, 0, scalars_host, bytes)) == CZ_OK)
        st = pass(ctx, czd_msm(ctx->d, group, parts, nwin, cnt, c, bases->dev, s.dev, n, mf, wbits));
    tmp_free(ctx, &s, 1);
    return st;
}

/* The host's share: W_w = sum_k parts[w][k], out = sum_w 2^(c w) W_w by
   Horner (c doublings per window, ~250 in all: 0.1 ms here, tens of ms
   as a serial GPU chain). */
#define MSM_SUM(G)                                                                             \
    static void msm_sum_##G(cz_##G##_xyzz *acc, const cz_##G##_xyzz *parts, unsigned nwin,     \
                            unsigned cnt, unsigned c)                                          \
    {                                                                                          \
        cz_##G##_xyzz_infinity(acc);                                                           \
        for (unsigned w = nwin; w-- > 0;) {                                                    \
            if (w + 1 < nwin)                                                                  \
                for (unsigned d = 0; d < c; d++)                                               \
                    cz_##G##_xyzz_dbl(acc, acc);                                               \
            for (unsigned k = 0; k < cnt; k++)                                                 \
                cz_##G##_xyzz_add(acc, acc, &parts[(size_t)w * cnt + k]);                      \
        }                                                                                      \
    }
MSM_SUM(g1)
MSM_SUM(g2)

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
            msm_sum_##G(&acc, parts, nwin, cnt, c);                                            \
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

/* ---- keys in compact form ---- */

/* The generator's window table of czd_fixed_base, made once per process:
   T[j][d - 1] = d 2^(CZD_FB_WBITS j) G (one addition each, a batch
   inversion per window): CZD_FB_TABLE points. */
static pthread_mutex_t g_fb_lock = PTHREAD_MUTEX_INITIALIZER;
static cz_g1_affine *g_fb_g1;
static cz_g2_affine *g_fb_g2;

#define FB_TABLE(G)                                                                            \
    static cz_##G##_affine *fb_table_##G(void)                                                 \
    {                                                                                          \
        cz_##G##_affine *t = malloc((size_t)CZD_FB_TABLE * sizeof *t);                         \
        cz_##G##_jac *e = malloc((size_t)CZD_FB_ENTRIES * sizeof *e);                          \
        if (!t || !e) {                                                                        \
            free(t);                                                                           \
            free(e);                                                                           \
            return NULL;                                                                       \
        }                                                                                      \
        cz_##G##_affine g;                                                                     \
        cz_##G##_jac base;                                                                     \
        cz_##G##_generator(&g);                                                                \
        cz_##G##_jac_from_affine(&base, &g);                                                   \
        for (unsigned j = 0; j < CZD_FB_WINDOWS; j++) {                                        \
            e[0] = base;                                                                       \
            for (unsigned d = 1; d < CZD_FB_ENTRIES; d++)                                      \
                cz_##G##_jac_add(&e[d], &e[d - 1], &base);                                     \
            cz_##G##_jac_batch_to_affine(t + (size_t)j * CZD_FB_ENTRIES, e, CZD_FB_ENTRIES);   \
            cz_##G##_jac_dbl(&base, &e[CZD_FB_ENTRIES - 1]); /* 2^w times the last base */    \
        }                                                                                      \
        free(e);                                                                               \
        return t;                                                                              \
    }
FB_TABLE(g1)
FB_TABLE(g2)

static const void *fb_table(int group)
{
    pthread_mutex_lock(&g_fb_lock);
    if (group == 1 && !g_fb_g1)
        g_fb_g1 = fb_table_g1();
    if (group == 2 && !g_fb_g2)
        g_fb_g2 = fb_table_g2();
    const void *t = group == 1 ? (const void *)g_fb_g1 : (const void *)g_fb_g2;
    pthread_mutex_unlock(&g_fb_lock);
    return t;
}

#define FB_CHUNK ((size_t)1 << 24)
#define FB_MIN_CHUNK ((size_t)4096)

/* Host arrays through the device: the window table copied in, then the
   points in chunks that fit the arena's free part, the copies overlapping
   the kernels (czd_fixed_base_host); CUZK_GPU_FB_SERIAL=1 takes the first
   version's loop instead (copy in, compute, copy out, one chunk at a time). */
static cz_status fixed_base(cz_cuda_ctx *ctx, int group, void *out, const cz_fr *scalars, size_t n)
{
    if (!ctx || (n && (!out || !scalars)))
        return ctx ? fail(ctx, CZ_ERR_ARG, "fixed base: bad argument") : CZ_ERR_ARG;
    if (n == 0)
        return CZ_OK;
    const void *tab = fb_table(group);
    if (!tab)
        return fail(ctx, CZ_ERR_NOMEM, "fixed base: out of host memory for the window table");
    const char *ser = getenv("CUZK_GPU_FB_SERIAL");
    bool serial = ser && !strcmp(ser, "1");
    size_t pb = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    size_t tab_bytes = (size_t)CZD_FB_TABLE * pb, free_b = cz_cuda_arena_free(ctx);
    size_t slack = tab_bytes + 8 * 256;
    /* a point of a chunk: serial, its scalar, the point and the kernel's
       scratch (two coordinates: pb); pipelined, two of each slot */
    size_t per = serial ? sizeof(cz_fr) + 2 * pb + 16 : CZD_FB_CHUNK_BYTES(pb);
    size_t chunk = free_b > slack ? (free_b - slack) / per : 0;
    if (chunk > FB_CHUNK)
        chunk = FB_CHUNK;
    if (chunk > n)
        chunk = n;
    if (chunk < (n < FB_MIN_CHUNK ? n : FB_MIN_CHUNK))
        return fail(ctx, CZ_ERR_NOMEM, "fixed base: the device arena has no room for 4096 points");
    if (!serial) {
        cz_cuda_buf t;
        cz_status st = tmp_bufs(ctx, &t, &tab_bytes, 1);
        if (st != CZ_OK)
            return st;
        st = cz_cuda_upload(ctx, &t, 0, tab, tab_bytes);
        if (st == CZ_OK)
            st = pass(ctx, czd_fixed_base_host(ctx->d, group, out, scalars, n, t.dev, chunk));
        tmp_free(ctx, &t, 1);
        return st;
    }
    cz_cuda_buf b[3]; /* table, scalars, points */
    size_t bytes[3] = {tab_bytes, chunk * sizeof(cz_fr), chunk * pb};
    cz_status st = tmp_bufs(ctx, b, bytes, 3);
    if (st != CZ_OK)
        return st;
    st = cz_cuda_upload(ctx, &b[0], 0, tab, tab_bytes);
    for (size_t i0 = 0; i0 < n && st == CZ_OK; i0 += chunk) {
        size_t cnt = n - i0 < chunk ? n - i0 : chunk;
        st = cz_cuda_upload(ctx, &b[1], 0, scalars + i0, cnt * sizeof(cz_fr));
        if (st == CZ_OK)
            st = pass(ctx, czd_fixed_base(ctx->d, group, b[2].dev, b[1].dev, cnt, b[0].dev));
        if (st == CZ_OK)
            st = cz_cuda_download(ctx, (char *)out + i0 * pb, &b[2], 0, cnt * pb);
    }
    tmp_free(ctx, b, 3);
    return st;
}

cz_status cz_cuda_g1_fixed_base(cz_cuda_ctx *ctx, cz_g1_affine *out, const cz_fr *scalars, size_t n)
{
    return fixed_base(ctx, 1, out, scalars, n);
}

cz_status cz_cuda_g2_fixed_base(cz_cuda_ctx *ctx, cz_g2_affine *out, const cz_fr *scalars, size_t n)
{
    return fixed_base(ctx, 2, out, scalars, n);
}

/* ---- compressed points (cuda/decompress.cu) ---- */

#define DC_CHUNK ((size_t)1 << 22)

/* Host arrays through two arena buffers (compressed in, affine out), one
   chunk at a time: the kernel is ~10x slower than the copies, so they are
   not overlapped. The chunks go in order and stop at the first with a bad
   point: its index is the lowest of all. */
cz_status cz_cuda_decompress(cz_cuda_ctx *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                             size_t *first_bad, size_t chunk)
{
    if (!ctx || !first_bad || (n && (!out || !in)))
        return ctx ? fail(ctx, CZ_ERR_ARG, "decompress: bad argument") : CZ_ERR_ARG;
    if (n == 0)
        return CZ_OK;
    size_t ib = g2 ? 96 : 48, ob = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    size_t free_b = cz_cuda_arena_free(ctx), slack = 8 * 256;
    size_t fit = free_b > slack ? (free_b - slack) / (ib + ob) : 0;
    if (chunk == 0 || chunk > DC_CHUNK)
        chunk = DC_CHUNK;
    if (chunk > fit)
        chunk = fit;
    if (chunk > n)
        chunk = n;
    if (chunk == 0)
        return fail(ctx, CZ_ERR_NOMEM, "decompress: the device arena has no room for a point");
    cz_cuda_buf b[2]; /* compressed, affine */
    size_t bytes[2] = {chunk * ib, chunk * ob};
    cz_status st = tmp_bufs(ctx, b, bytes, 2);
    if (st != CZ_OK)
        return st;
    for (size_t i0 = 0; i0 < n && st == CZ_OK; i0 += chunk) {
        size_t cnt = n - i0 < chunk ? n - i0 : chunk, bad = SIZE_MAX;
        cz_status bst = CZ_OK;
        st = cz_cuda_upload(ctx, &b[0], 0, in + i0 * ib, cnt * ib);
        if (st == CZ_OK)
            st = pass(ctx, czd_decompress(ctx->d, g2 ? 2 : 1, b[1].dev, b[0].dev, cnt, &bad, &bst));
        if (st == CZ_OK)
            st = cz_cuda_download(ctx, (char *)out + i0 * ob, &b[1], 0, cnt * ob);
        if (st == CZ_OK && bad != SIZE_MAX) {
            if (bad >= cnt || (bst != CZ_ERR_FORMAT && bst != CZ_ERR_NOT_ON_CURVE &&
                               bst != CZ_ERR_SUBGROUP)) {
                st = fail(ctx, CZ_ERR_DEVICE, "decompress: the device reported nonsense");
                break;
            }
            *first_bad = i0 + bad;
            snprintf(ctx->err, sizeof ctx->err, "decompress: point %zu: %s", i0 + bad,
                     cz_strerror(bst));
            st = bst;
        }
    }
    tmp_free(ctx, b, 2);
    return st;
}

cz_status cz_cuda_nkey_decompress(void *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                                  size_t *first_bad)
{
    return cz_cuda_decompress(ctx, g2, out, in, n, first_bad, 0);
}

cz_status cz_cuda_eval_abc_compact_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], const cz_cuda_cmat *ma,
                                       const cz_cuda_cmat *mb, const cz_cuda_buf *coefs,
                                       uint32_t n_coefs, const cz_cuda_buf *w, size_t rows)
{
    if (!ctx || !abc || !ma || !mb || !w || (n_coefs && !coefs))
        return ctx ? fail(ctx, CZ_ERR_ARG, "compact a/b/c: bad argument") : CZ_ERR_ARG;
    if (ma->n_rows > rows || mb->n_rows > rows || n_coefs > 65536)
        return fail(ctx, CZ_ERR_ARG, "compact a/b/c: more matrix rows than rows, or more than 65,536 coefficients");
    for (int i = 0; i < 3; i++) /* c may be absent (C folded into the key) */
        if (abc[i].dev ? abc[i].bytes < rows * sizeof(cz_fr) : i < 2)
            return fail(ctx, CZ_ERR_ARG, "compact a/b/c: output buffer smaller than the rows");
    if (ma->row_ptr.bytes < ((size_t)ma->n_rows + 1) * 8 || mb->row_ptr.bytes < ((size_t)mb->n_rows + 1) * 8)
        return fail(ctx, CZ_ERR_ARG, "compact a/b/c: row pointer buffer too small");
    if (n_coefs && coefs->bytes < (size_t)n_coefs * sizeof(cz_fr))
        return fail(ctx, CZ_ERR_ARG, "compact a/b/c: coefficient buffer smaller than the table");
    cz_status st = pass(ctx, czd_eval_abc_compact(
                                 ctx->d, abc[0].dev, abc[1].dev, abc[2].dev, ma->row_ptr.dev,
                                 ma->col.dev, ma->coef.dev, ma->n_rows, mb->row_ptr.dev, mb->col.dev,
                                 mb->coef.dev, mb->n_rows, n_coefs ? coefs->dev : NULL, n_coefs,
                                 w->dev, rows));
    if (st == CZ_OK)
        st = pass(ctx, czd_sync(ctx->d));
    return st;
}

/* a matrix's arrays are consistent: rows ascending, columns < n_w,
   indices < n_coefs */
static bool cmat_ok(const cz_cmat *m, size_t n_w, uint32_t n_coefs)
{
    if (m->n_rows && (!m->row_ptr || m->row_ptr[0] != 0 || m->row_ptr[m->n_rows] != m->nnz))
        return false;
    if (!m->n_rows && m->nnz)
        return false;
    if (m->nnz && (!m->col || !m->coef))
        return false;
    for (uint32_t i = 0; i < m->n_rows; i++)
        if (m->row_ptr[i] > m->row_ptr[i + 1])
            return false;
    for (uint64_t k = 0; k < m->nnz; k++)
        if (m->col[k] >= n_w || m->coef[k] >= n_coefs)
            return false;
    return true;
}

cz_status cz_cuda_eval_abc_compact(cz_cuda_ctx *ctx, cz_fr *a, cz_fr *b, cz_fr *c, const cz_cmat *ma,
                                   const cz_cmat *mb, const cz_fr *coefs, uint32_t n_coefs,
                                   const cz_fr *w, size_t n_w, size_t rows)
{
    if (!ctx || !ma || !mb || (rows && (!a || !b || !c)) || (n_w && !w) || (n_coefs && !coefs))
        return ctx ? fail(ctx, CZ_ERR_ARG, "compact a/b/c: bad argument") : CZ_ERR_ARG;
    if (ma->n_rows > rows || mb->n_rows > rows || n_coefs > 65536 || !cmat_ok(ma, n_w, n_coefs) ||
        !cmat_ok(mb, n_w, n_coefs))
        return fail(ctx, CZ_ERR_ARG, "compact a/b/c: inconsistent matrices (rows, columns or "
                                     "coefficient indices out of range)");
    if (rows == 0)
        return CZ_OK;
    const cz_cmat *m[2] = {ma, mb};
    size_t bytes[11] = {rows * sizeof(cz_fr), rows * sizeof(cz_fr), rows * sizeof(cz_fr),
                        n_w * sizeof(cz_fr), (size_t)n_coefs * sizeof(cz_fr)};
    for (int i = 0; i < 2; i++) {
        bytes[5 + 3 * i] = ((size_t)m[i]->n_rows + 1) * 8;
        bytes[6 + 3 * i] = (size_t)m[i]->nnz * 4;
        bytes[7 + 3 * i] = (size_t)m[i]->nnz * 2;
    }
    cz_cuda_buf d[11];
    cz_status st = tmp_bufs(ctx, d, bytes, 11);
    if (st != CZ_OK)
        return st;
    const uint64_t zero_rp = 0;
    const void *src[11] = {NULL, NULL, NULL, w, coefs};
    for (int i = 0; i < 2; i++) {
        src[5 + 3 * i] = m[i]->n_rows ? (const void *)m[i]->row_ptr : (const void *)&zero_rp;
        src[6 + 3 * i] = m[i]->col;
        src[7 + 3 * i] = m[i]->coef;
    }
    for (int i = 3; i < 11 && st == CZ_OK; i++)
        if (bytes[i])
            st = cz_cuda_upload(ctx, &d[i], 0, src[i], bytes[i]);
    cz_cuda_cmat cm[2];
    for (int i = 0; i < 2; i++)
        cm[i] = (cz_cuda_cmat){d[5 + 3 * i], d[6 + 3 * i], d[7 + 3 * i], m[i]->n_rows};
    if (st == CZ_OK)
        st = cz_cuda_eval_abc_compact_dev(ctx, d, &cm[0], &cm[1], &d[4], n_coefs, &d[3], rows);
    cz_fr *out[3] = {a, b, c};
    for (int i = 0; i < 3 && st == CZ_OK; i++)
        st = cz_cuda_download(ctx, out[i], &d[i], 0, rows * sizeof(cz_fr));
    tmp_free(ctx, d, 11);
    return st;
}

cz_status cz_cuda_gather_dev(cz_cuda_ctx *ctx, cz_cuda_buf *out, const cz_cuda_buf *in,
                             const cz_cuda_buf *idx, size_t n)
{
    if (!ctx || !out || !in || !idx)
        return ctx ? fail(ctx, CZ_ERR_ARG, "gather: bad argument") : CZ_ERR_ARG;
    if (out->bytes < n * sizeof(cz_fr) || idx->bytes < n * 4)
        return fail(ctx, CZ_ERR_ARG, "gather: buffer smaller than n elements");
    cz_status st = pass(ctx, czd_gather(ctx->d, out->dev, in->dev, idx->dev, n));
    if (st == CZ_OK)
        st = pass(ctx, czd_sync(ctx->d));
    return st;
}


/* ---- the cz_backend of backend.h on the GPU ----
 * Two tiers. "resident": the first proof with a key copies its points and
 * constraint matrices into the arena, where they stay for later proofs
 * (prove_core): a proof then uploads only the witness, evaluates a/b/c,
 * H and the five MSMs on the device and brings back five points. Keys are
 * stacked in the arena in load order (its buffers are LIFO); a key that
 * does not fit beside the scratch a proof needs evicts keys from the top
 * of the stack, and if it still does not fit, the proof is "streamed".
 * Keys in compact form (native circuits) are resident the same way: their
 * compact matrices (row pointers, columns, uint16 coefficient indices),
 * the coefficient table and B density's variable list go up with the
 * points (b1, b2 only for the n_b variables in B); a/b/c come from the
 * compact kernel and B1/B2's scalars are w gathered by b_idx into b's
 * buffer once H is done with it (or a buffer of their own when n_b > n).
 * "streamed", a compact key: prove_core still runs the whole proof on the
 * device (stream_locked below), keeping nothing of the key: a/b/c from the
 * matrices sent in parts of rows that fit beside a, b and w, H in place,
 * then w sent once (packed) and kept for A, B1/B2 and C, h for H, each MSM
 * streaming its points through two chunk slots, the next chunk copied by
 * a thread on a second stream while the current one's MSM runs
 * (stream_msm). "streamed", a CSR key (or a compact key that finds the
 * card too full even for a, b and w): prove_core says so and the prover
 * runs step by step: a/b/c on the CPU, H on the GPU, each MSM through
 * stream_msm with its scalars sent per chunk; steps that still do not fit
 * run on the CPU backend. A proof that runs out of device memory midway
 * (other processes on the card) is streamed step by step as well. One
 * mutex serialises the device work of concurrent callers (a context is
 * single-threaded; stream_msm's copy thread touches only its own stream
 * and the slot no kernel reads). CUZK_GPU_RESIDENT=0 turns the resident
 * tier off (tests use it to force the streamed one). The fixed-base hooks
 * (a development key's points) run on the GPU under the same lock, in
 * chunks that fit the arena's free part, falling back to the CPU
 * backend's hooks when the GPU is gone or its arena too full. The key's
 * points are read from wherever the caller keeps them: pinned by their
 * owner (host_pin), the copies run at full bus speed; the backend does not
 * pin them itself, as it cannot know when the key is freed. */

#define GPU_KEYS 8

typedef struct {
    uint64_t uid;
    size_t bytes;
    uint32_t n_vars, n_public, log_n, rows;
    cz_cuda_buf pts[5]; /* a, b1, b2, c, h */
    cz_cuda_buf ra, ca, va, rb, cb, vb; /* compact: va, vb hold the coefficient indices */
    /* compact keys (cz_zkey.compact): the matrices' rows, the coefficient
       table and B density (n_b points in b1, b2; bidx their variables) */
    bool compact;
    uint32_t a_rows, b_rows, n_coefs, n_b;
    cz_cuda_buf coefs, bidx;
    /* a bn128 key (key_upload_bn254, prove_bn254): its device arrays are
       bdk's alone (uid: the number its owner gave it) */
    bool bn254;
    cz_cuda_bn254_dkey bdk;
} gpu_key;

typedef struct {
    cz_cuda_ctx *cu;
    cz_backend *cpu;
    pthread_mutex_t lock;
    cz_ntt_domain *dom[CZ_NTT_MAX_LOG + 1];
    gpu_key keys[GPU_KEYS]; /* a stack: keys[nkeys - 1] was loaded last */
    int nkeys;
    bool resident;
    int gpu;        /* device index */
    size_t cap;     /* arena cap (0: all but the margin) */
    int inject;     /* CUZK_GPU_INJECT_FAULT=1: the next proof traps (tests) */
    bool dead;      /* the device did not come back after a reset */
} gpu_be;

/* ---- faults ----
 * A device error fails the call that met it (CZ_ERR_DEVICE with the CUDA
 * message). If the fault is sticky (an illegal address, a trap: every
 * later call on the context would fail too), the device is reset and a
 * fresh context made, so the next proof runs again; resident keys are
 * dropped and reloaded on demand. Each entry point takes the lock and
 * binds the device (a context is used from several threads) through
 * gpu_enter, and leaves through gpu_leave. */

/* After a reset the context may not come back (seen on the H200 machine:
   "device busy or unavailable" until the process exits). The backend then
   runs everything on its CPU backend, so jobs still complete, and says so
   in its log and in info(); restarting the process brings the GPU back. */
static void gpu_reopen(gpu_be *g)
{
    char err[256] = "";
    /* the driver may take a moment to tear the old context down
       ("device busy or unavailable" meanwhile): retry for about 2 s */
    for (int attempt = 0; attempt < 20; attempt++) {
        if (cz_cuda_ctx_create(&g->cu, g->gpu, g->cap, g_margin, err, sizeof err) == CZ_OK) {
            cz_log(CZ_LOG_INFO, "cuda", "GPU %d ready again after a reset (attempt %d)", g->gpu,
                   attempt + 1);
            return;
        }
        g->cu = NULL;
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
        czd_device_reset(g->gpu);
    }
    g->dead = true;
    cz_log(CZ_LOG_ERROR, "cuda", "GPU %d unusable after a reset (%s): proving on the CPU until restart",
           g->gpu, err);
}

static void gpu_reset(gpu_be *g)
{
    cz_log(CZ_LOG_WARN, "cuda", "GPU %d: sticky device fault (%s); resetting the device, %d resident key(s) dropped",
           g->gpu, cz_cuda_ctx_error(g->cu), g->nkeys);
    memset(g->keys, 0, sizeof g->keys); /* their memory goes with the context */
    g->nkeys = 0;
    cz_cuda_ctx_destroy(g->cu);
    g->cu = NULL;
    czd_device_reset(g->gpu);
    gpu_reopen(g);
}

static cz_status gpu_enter(gpu_be *g)
{
    pthread_mutex_lock(&g->lock);
    if (!g->cu && !g->dead)
        gpu_reopen(g);
    if (!g->cu) {
        pthread_mutex_unlock(&g->lock);
        return CZ_ERR_DEVICE;
    }
    cz_status st = pass(g->cu, czd_bind(g->cu->d));
    if (st != CZ_OK)
        pthread_mutex_unlock(&g->lock);
    return st;
}

/* the calling thread's last device error, for step_error */
static _Thread_local char t_step_err[512];

static cz_status gpu_leave(gpu_be *g, cz_status st)
{
    if (st != CZ_OK && g->cu)
        snprintf(t_step_err, sizeof t_step_err, "%.511s", cz_cuda_ctx_error(g->cu));
    if (st == CZ_ERR_DEVICE && g->cu && !czd_healthy(g->cu->d))
        gpu_reset(g);
    pthread_mutex_unlock(&g->lock);
    return st;
}

static double gpu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void gpu_info(cz_backend *be, cz_backend_info *out)
{
    gpu_be *g = be->ctx;
    memset(out, 0, sizeof *out);
    if (!g->cu) {
        snprintf(out->device, sizeof out->device, "GPU %d (unusable after a fault)", g->gpu);
        return;
    }
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
static cz_status ensure_domain(gpu_be *g, unsigned log_n)
{
    if (log_n > CZ_NTT_MAX_LOG)
        return CZ_ERR_UNSUPPORTED;
    if (!g->dom[log_n])
        return cz_ntt_domain_create(&g->dom[log_n], log_n, CZ_NTT_ROOT_5);
    return CZ_OK;
}

/* h = A(x_j) B(x_j) - C(x_j) on snarkjs's odd points, in place in abc[0],
   from a, b, c already on the device (cz_cuda_ntt_h_dev); abc[2] empty:
   h = A(x_j) B(x_j) (C folded into the key). */
static cz_status h_on_device(gpu_be *g, cz_cuda_buf abc[3], unsigned log_n)
{
    cz_status st = ensure_domain(g, log_n);
    if (st != CZ_OK)
        return st;
    const cz_ntt_domain *d = g->dom[log_n];
    return cz_cuda_ntt_h_dev(g->cu, abc, log_n, &d->omega, &d->omega_2n);
}

static cz_status gpu_h_locked(gpu_be *g, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c, unsigned log_n)
{
    cz_status st = ensure_domain(g, log_n);
    if (st != CZ_OK)
        return st;
    size_t bytes = sizeof(cz_fr) << log_n, nb[3] = {bytes, bytes, bytes};
    const int cnt = c ? 3 : 2; /* no c: C folded into the key */
    cz_cuda_buf buf[3] = {{0}};
    if ((st = tmp_bufs(g->cu, buf, nb, cnt)) != CZ_OK)
        return st;
    cz_fr *in[3] = {a, b, c};
    for (int i = 0; i < cnt && st == CZ_OK; i++)
        st = cz_cuda_upload(g->cu, &buf[i], 0, in[i], bytes);
    if (st == CZ_OK)
        st = h_on_device(g, buf, log_n);
    if (st == CZ_OK)
        st = cz_cuda_download(g->cu, h, &buf[0], 0, bytes);
    tmp_free(g->cu, buf, cnt);
    return st;
}

static cz_status gpu_compute_h(cz_backend *be, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c,
                               unsigned log_n)
{
    gpu_be *g = be->ctx;
    cz_status st = gpu_enter(g);
    if (st != CZ_OK) /* the GPU is gone: degrade to the CPU */
        return g->cpu->compute_h(g->cpu, h, a, b, c, log_n);
    st = gpu_leave(g, gpu_h_locked(g, h, a, b, c, log_n));
    if (st == CZ_ERR_NOMEM) /* inputs are untouched until the download */
        return g->cpu->compute_h(g->cpu, h, a, b, c, log_n);
    return st;
}

/* ---- streamed MSMs ----
 * Points on the host (a key that is not resident), scalars on the host or
 * already on the device. The points go up in chunks sized to the arena's
 * free part: two chunk slots (points, and scalars when they are the
 * host's) and the MSM's scratch; while chunk k's MSM runs on the
 * context's stream, a thread of the backend copies chunk k + 1 into the
 * other slot on a second stream (czd_copy_h2d_side: from pageable memory
 * through two pinned staging buffers that the thread fills in turn, its
 * memcpy spread over the global pool, so it needs a thread of its own; from memory its owner pinned with host_pin
 * a plain DMA; CUZK_GPU_STREAM_STAGED=0: the driver's pageable copy). czd_msm
 * waits for its stream before it returns, and the copy thread is joined
 * before its slot is read, so slot k mod 2 is never written while an MSM
 * reads it. Each chunk's parts are summed on the host into one XYZZ
 * point. An MSM that finds too little scratch (CZ_ERR_NOMEM) runs again
 * from its chunk with chunks half as long, down to 4096 points; below
 * that the caller takes the CPU. CUZK_GPU_STREAM_POINTS caps a chunk's
 * points, CUZK_GPU_STREAM_SERIAL=1 makes each copy before the MSM instead
 * of beside it (to measure the overlap). */

#define STREAM_MIN ((size_t)4096)
#define STREAM_MAX ((size_t)1 << 25)
#define STREAM_RESERVE ((size_t)512 << 20) /* an MSM's fixed scratch: buckets, partial sums */
/* an MSM's scratch per point: canonical scalars, the bit path's maps and
   the sort pairs of 8 windows at once (it batches windows below that) */
#define STREAM_MSM_PER_POINT ((size_t)(32 + 8 + 8 * 16))

static _Atomic unsigned long g_stream_chunks;
unsigned long cz_cuda_stream_chunks(void) { return g_stream_chunks; }

typedef struct {
    cz_g1_xyzz g1;
    cz_g2_xyzz g2;
} stream_acc;

/* one chunk's copy into a slot: points, then scalars (when the host's) */
typedef struct {
    czd_ctx *d;
    void *pts_dev, *sc_dev;
    const void *pts_host, *sc_host;
    size_t pts_bytes, sc_bytes;
    cz_status st;
    char err[256];
} side_copy;

/* a host copy on the global pool, in 2 MiB pieces: one thread's memcpy
   (~10 GB/s) is slower than the bus from pinned memory */
#define PCOPY_PIECE ((size_t)2 << 20)

typedef struct {
    char *dst;
    const char *src;
    size_t n;
} pcopy;

static void pcopy_run(void *arg, size_t k0, size_t k1, int worker)
{
    (void)worker;
    const pcopy *p = arg;
    for (size_t k = k0; k < k1; k++) {
        size_t off = k * PCOPY_PIECE, len = p->n - off < PCOPY_PIECE ? p->n - off : PCOPY_PIECE;
        memcpy(p->dst + off, p->src + off, len);
    }
}

static void host_copy_par(void *dst, const void *src, size_t n)
{
    if (n <= PCOPY_PIECE) {
        memcpy(dst, src, n);
        return;
    }
    pcopy p = {dst, src, n};
    cz_parallel_for(cz_threadpool_global(), (n + PCOPY_PIECE - 1) / PCOPY_PIECE, 1, pcopy_run, &p);
}

static void *side_copy_run(void *arg)
{
    side_copy *c = arg;
    c->st = czd_copy_h2d_side(c->d, c->pts_dev, c->pts_host, c->pts_bytes, host_copy_par, c->err,
                              sizeof c->err);
    if (c->st == CZ_OK && c->sc_bytes)
        c->st = czd_copy_h2d_side(c->d, c->sc_dev, c->sc_host, c->sc_bytes, host_copy_par, c->err,
                                  sizeof c->err);
    return NULL;
}

/* buffers of the given sizes, none for a size of 0 (dev NULL) */
static cz_status bufs_alloc(cz_cuda_ctx *ctx, cz_cuda_buf *b, const size_t *bytes, int count)
{
    memset(b, 0, (size_t)count * sizeof *b);
    for (int i = 0; i < count; i++) {
        if (!bytes[i])
            continue;
        cz_status st = cz_cuda_buf_alloc(ctx, &b[i], bytes[i]);
        if (st != CZ_OK) {
            while (i-- > 0)
                cz_cuda_buf_free(ctx, &b[i]);
            return st;
        }
    }
    return CZ_OK;
}

static size_t env_size(const char *name)
{
    const char *e = getenv(name);
    return e && *e ? (size_t)strtoull(e, NULL, 10) : 0;
}

/* points a chunk of an n-point streamed MSM may have: n when one slot of
   n points and the MSM's scratch fit, else what two slots and the
   scratch allow */
static size_t stream_chunk(cz_cuda_ctx *cu, size_t n, size_t pb, bool host_scalars)
{
    size_t free_b = cz_cuda_arena_free(cu), slack = 8 * 256;
    /* a small arena: most of it for the scratch, whose fixed part (~100
       MiB: buckets, partial sums) does not shrink with the chunk */
    size_t reserve = STREAM_RESERVE < free_b / 4 * 3 ? STREAM_RESERVE : free_b / 4 * 3;
    size_t slot = pb + (host_scalars ? sizeof(cz_fr) : 0);
    size_t avail = free_b > reserve + slack ? free_b - reserve - slack : 0;
    size_t chunk = n * (slot + STREAM_MSM_PER_POINT) <= avail
                       ? n
                       : avail / (2 * slot + STREAM_MSM_PER_POINT);
    size_t cap = env_size("CUZK_GPU_STREAM_POINTS");
    if (cap && chunk > cap)
        chunk = cap;
    return chunk > STREAM_MAX ? STREAM_MAX : chunk;
}

/* acc = sum_i s_i P_i over n points at `bases` (host; group 1: G1, 2:
   G2) with the scalars sc_host (host) or those at the start of sc_dev;
   h2d counts the bytes sent. */
static cz_status stream_msm(cz_cuda_ctx *cu, int group, stream_acc *acc, const void *bases,
                            const cz_fr *sc_host, const cz_cuda_buf *sc_dev, size_t n,
                            uint64_t *h2d)
{
    cz_g1_xyzz_infinity(&acc->g1);
    cz_g2_xyzz_infinity(&acc->g2);
    if (n == 0)
        return CZ_OK;
    if (!bases || !sc_host == !sc_dev)
        return fail(cu, CZ_ERR_ARG, "streamed MSM: bad argument (points, and one of host/device scalars)");
    if (sc_dev && sc_dev->bytes < n * sizeof(cz_fr))
        return fail(cu, CZ_ERR_ARG, "streamed MSM: scalar buffer smaller than n scalars");
    const size_t pb = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    const bool host = sc_host != NULL;
    const char *ser = getenv("CUZK_GPU_STREAM_SERIAL");
    const bool serial = ser && !strcmp(ser, "1");
    void *parts = malloc(CZD_MSM_PARTS_CAP * sizeof(cz_g2_xyzz));
    if (!parts)
        return fail(cu, CZ_ERR_NOMEM, "out of host memory");
    size_t chunk = stream_chunk(cu, n, pb, host), i0 = 0;
    size_t cap = env_size("CUZK_GPU_STREAM_POINTS");
    const size_t floor_pts = cap && cap < STREAM_MIN ? cap : STREAM_MIN; /* tests go below */
    cz_status st = CZ_OK;
    while (i0 < n && st == CZ_OK) {
        size_t left = n - i0, c = chunk < left ? chunk : left;
        if (c < floor_pts && c < left) {
            st = fail(cu, CZ_ERR_NOMEM, "streamed MSM: the device arena has no room for 4096 "
                                        "points beside the MSM's scratch");
            break;
        }
        const int slots = c < left ? 2 : 1;
        size_t bytes[4] = {c * pb, slots == 2 ? c * pb : 0, host ? c * sizeof(cz_fr) : 0,
                           host && slots == 2 ? c * sizeof(cz_fr) : 0};
        cz_cuda_buf b[4]; /* points of slots 0 and 1, then their scalars */
        st = bufs_alloc(cu, b, bytes, 4);
        if (st == CZ_ERR_NOMEM && c / 2 >= floor_pts) {
            st = CZ_OK;
            chunk = c / 2;
            continue;
        }
        if (st != CZ_OK)
            break;
        /* chunk 0 of this run into slot 0, here */
        st = cz_cuda_upload(cu, &b[0], 0, (const char *)bases + i0 * pb, c * pb);
        if (st == CZ_OK && host)
            st = cz_cuda_upload(cu, &b[2], 0, sc_host + i0, c * sizeof(cz_fr));
        if (st == CZ_OK)
            *h2d += c * (pb + (host ? sizeof(cz_fr) : 0));
        size_t j = i0, retry = 0, piece = c;
        for (int s = 0; st == CZ_OK && j < n; s ^= 1) {
            size_t cnt = n - j < c ? n - j : c, nxt = j + cnt;
            side_copy cp = {.d = cu->d, .st = CZ_OK};
            pthread_t th;
            bool running = false;
            if (nxt < n) { /* chunk k + 1 into the other slot */
                size_t cn = n - nxt < c ? n - nxt : c;
                cp.pts_dev = b[s ^ 1].dev;
                cp.pts_host = (const char *)bases + nxt * pb;
                cp.pts_bytes = cn * pb;
                if (host) {
                    cp.sc_dev = b[2 + (s ^ 1)].dev;
                    cp.sc_host = sc_host + nxt;
                    cp.sc_bytes = cn * sizeof(cz_fr);
                }
                if (serial || pthread_create(&th, NULL, side_copy_run, &cp) != 0)
                    side_copy_run(&cp); /* no thread: the copy before the MSM */
                else
                    running = true;
            }
            const char *pd = b[s].dev;
            const char *sd = host ? (const char *)b[2 + s].dev
                                  : (const char *)sc_dev->dev + j * sizeof(cz_fr);
            /* the slot's MSM, in pieces of at most `piece` points: an MSM
               short of scratch runs again over the first half of what it
               had, from the points already in the slot */
            size_t o = 0;
            while (o < cnt && st == CZ_OK) {
                size_t m = cnt - o < piece ? cnt - o : piece;
                cz_cuda_buf pts = {(void *)(pd + o * pb), m * pb};
                cz_cuda_buf sc = {(void *)(sd + o * sizeof(cz_fr)), m * sizeof(cz_fr)};
                unsigned nwin = 0, pc = 0, cw = 0;
                st = msm_dev(cu, group, parts, &nwin, &pc, &cw, &pts, pb, NULL, &sc, m, 0, 0);
                if (st == CZ_ERR_NOMEM && m / 2 >= floor_pts) {
                    cz_log(CZ_LOG_DEBUG, "cuda", "streamed MSM (G%d, %zu points): %zu points "
                           "with %.1f MiB free are short of scratch; again with %zu", group, n, m,
                           cz_cuda_arena_free(cu) / 1048576.0, m / 2);
                    piece = m / 2;
                    st = CZ_OK;
                    continue;
                }
                if (st != CZ_OK)
                    break;
                if (group == 1) {
                    cz_g1_xyzz sum;
                    msm_sum_g1(&sum, parts, nwin, pc, cw);
                    cz_g1_xyzz_add(&acc->g1, &acc->g1, &sum);
                } else {
                    cz_g2_xyzz sum;
                    msm_sum_g2(&sum, parts, nwin, pc, cw);
                    cz_g2_xyzz_add(&acc->g2, &acc->g2, &sum);
                }
                g_stream_chunks++;
                o += m;
            }
            if (running)
                pthread_join(th, NULL);
            if (st == CZ_ERR_NOMEM && c / 2 >= floor_pts) {
                /* not even short pieces beside these slots: smaller slots,
                   again from this chunk (its copy made again) */
                retry = c / 2;
                j += o; /* the pieces before it are summed */
                break;
            }
            if (st == CZ_OK && cp.st != CZ_OK)
                st = fail(cu, cp.st, cp.err);
            if (st == CZ_OK && nxt < n)
                *h2d += cp.pts_bytes + cp.sc_bytes;
            j = nxt;
        }
        for (int i = 3; i >= 0; i--)
            cz_cuda_buf_free(cu, &b[i]);
        if (retry) {
            st = CZ_OK;
            chunk = retry;
        }
        i0 = j;
    }
    free(parts);
    return st;
}

/* An MSM with the points copied for this call (chunked as above); when
   not even a short chunk fits, the CPU backend's. */
#define MSM_STREAMED(G, GROUP)                                                                \
    static cz_status msm_##G##_streamed(gpu_be *g, cz_##G##_jac *out, const cz_##G##_affine *bases, \
                                        const cz_fr *scalars, size_t n)                      \
    {                                                                                         \
        if (!out || (n && (!bases || !scalars)))                                              \
            return fail(g->cu, CZ_ERR_ARG, "MSM: bad argument");                              \
        stream_acc acc;                                                                       \
        uint64_t h2d = 0;                                                                     \
        cz_status st = stream_msm(g->cu, GROUP, &acc, bases, scalars, NULL, n, &h2d);         \
        if (st == CZ_OK)                                                                      \
            cz_##G##_xyzz_to_jac(out, &acc.G);                                                \
        if (st == CZ_ERR_NOMEM)                                                               \
            return g->cpu->msm_##G(g->cpu, out, bases, scalars, n);                           \
        return st;                                                                            \
    }
MSM_STREAMED(g1, 1)
MSM_STREAMED(g2, 2)

static cz_status gpu_msm_g1(cz_backend *be, cz_g1_jac *out, const cz_g1_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    gpu_be *g = be->ctx;
    cz_status st = gpu_enter(g);
    if (st != CZ_OK)
        return g->cpu->msm_g1(g->cpu, out, bases, scalars, n);
    return gpu_leave(g, msm_g1_streamed(g, out, bases, scalars, n));
}

static cz_status gpu_msm_g2(cz_backend *be, cz_g2_jac *out, const cz_g2_affine *bases,
                            const cz_fr *scalars, size_t n)
{
    gpu_be *g = be->ctx;
    cz_status st = gpu_enter(g);
    if (st != CZ_OK)
        return g->cpu->msm_g2(g->cpu, out, bases, scalars, n);
    return gpu_leave(g, msm_g2_streamed(g, out, bases, scalars, n));
}

/* Fixed-base products (a development key's points) under the GPU lock;
   where the GPU is gone or its arena too full, the CPU backend's hook
   when it has one. */
#define GPU_FIXED_BASE(G)                                                                     \
    static cz_status gpu_fixed_base_##G(cz_backend *be, cz_##G##_affine *out,                 \
                                        const cz_fr *scalars, size_t n)                       \
    {                                                                                         \
        gpu_be *g = be->ctx;                                                                  \
        cz_status st = gpu_enter(g);                                                          \
        if (st == CZ_OK)                                                                      \
            st = gpu_leave(g, cz_cuda_##G##_fixed_base(g->cu, out, scalars, n));              \
        if ((st == CZ_ERR_NOMEM || g->dead) && g->cpu->fixed_base_##G)                        \
            return g->cpu->fixed_base_##G(g->cpu, out, scalars, n);                           \
        return st;                                                                            \
    }
GPU_FIXED_BASE(g1)
GPU_FIXED_BASE(g2)

/* A .czk's points under the GPU lock; a device failure is returned as
   such (CZ_ERR_DEVICE, CZ_ERR_NOMEM) and the key reader takes the CPU. */
static cz_status gpu_decompress(cz_backend *be, int g2, void *out, const uint8_t *in, size_t n,
                                size_t *first_bad)
{
    gpu_be *g = be->ctx;
    cz_status st = gpu_enter(g);
    if (st != CZ_OK)
        return CZ_ERR_DEVICE;
    return gpu_leave(g, cz_cuda_decompress(g->cu, g2 != 0, out, in, n, first_bad, 0));
}

/* ---- resident keys ---- */

static void key_free(gpu_be *g, gpu_key *k)
{
    if (k->bn254)
        cz_cuda_bn254_key_free(g->cu, &k->bdk);
    cz_cuda_buf *order[] = {&k->bidx, &k->coefs, &k->vb, &k->cb, &k->rb, &k->va, &k->ca, &k->ra,
                            &k->pts[4], &k->pts[3], &k->pts[2], &k->pts[1], &k->pts[0]};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        cz_cuda_buf_free(g->cu, order[i]);
    memset(k, 0, sizeof *k);
}

/* Device memory a proof of this key needs besides the key: witness, a, b,
   c, the MSM's canonical scalars and its digit pairs for 16 windows at
   once (16 bytes each), plus buckets and CUB's scratch (an MSM batches
   its windows when it has less). */
static size_t proof_scratch(const cz_zkey *key)
{
    size_t m = key->n_vars > key->domain_size ? key->n_vars : key->domain_size;
    size_t extra = 0; /* B's gathered scalars, when b's buffer cannot hold them */
    if (key->compact && key->b_idx && key->n_b > key->domain_size)
        extra = (size_t)key->n_b * sizeof(cz_fr);
    return m * (size_t)(4 * 32 + 32 + 16 * 16) + extra + ((size_t)512 << 20);
}

/* points of b1 / b2 on the device */
static size_t key_nb(const cz_zkey *key)
{
    return key->compact && key->b_idx ? key->n_b : key->n_vars;
}

static size_t key_bytes(const cz_zkey *key)
{
    size_t nv = key->n_vars, np = key->n_public, n = key->domain_size;
    if (key->compact) {
        size_t nb = key_nb(key);
        size_t b = (nv + nb + (nv - np - 1) + n) * sizeof(cz_g1_affine) + nb * sizeof(cz_g2_affine);
        b += ((size_t)key->ca.n_rows + 1 + (size_t)key->cb.n_rows + 1) * 8;
        b += (size_t)(key->ca.nnz + key->cb.nnz) * (4 + 2);
        b += (size_t)key->n_coefs * sizeof(cz_fr) + (key->b_idx ? (size_t)key->n_b * 4 : 0);
        return b + 13 * 256;
    }
    size_t b = (3 * nv - np - 1 + n) * sizeof(cz_g1_affine) + nv * sizeof(cz_g2_affine);
    b += 2 * ((size_t)key->qa.n_rows + 1) * 8;
    b += (size_t)(key->qa.nnz + key->qb.nnz) * (4 + sizeof(cz_fr));
    return b + 11 * 256;
}

size_t cz_cuda_arena_for_key(const cz_zkey *key)
{
    return key_bytes(key) + proof_scratch(key) + ((size_t)256 << 20);
}

/* A key made resident before its first proof (gpu_key_upload) is copied
   through the pinned staging buffers of czd_copy_h2d_side, the host's
   share on the global pool (pageable memory: ~6 GB/s by the driver's own
   copy on the H200); a copy that fails that way is made again the plain
   way. CUZK_GPU_KEY_STAGED=0: the plain copy. */
static _Thread_local bool t_key_staged;

static cz_status upload_array(gpu_be *g, cz_cuda_buf *b, const void *src, size_t bytes)
{
    cz_status st = cz_cuda_buf_alloc(g->cu, b, bytes ? bytes : 1);
    if (st == CZ_OK && bytes && t_key_staged) {
        char err[256];
        if (czd_copy_h2d_side(g->cu->d, b->dev, src, bytes, host_copy_par, err, sizeof err) == CZ_OK)
            return CZ_OK;
        cz_log(CZ_LOG_DEBUG, "cuda", "GPU %d: staged key copy failed (%s): plain copy", g->gpu, err);
    }
    if (st == CZ_OK && bytes)
        st = cz_cuda_upload(g->cu, b, 0, src, bytes);
    return st;
}

/* A key whose matrices the device's kernels can take as they are (else
   the prover's steps run one by one). */
static bool key_usable(const cz_zkey *key)
{
    if (key->compact ? key->ca.n_rows > key->domain_size || key->cb.n_rows > key->domain_size ||
                           key->n_coefs > 65536 || (key->n_coefs && !key->coefs) ||
                           (key->ca.n_rows && !key->ca.row_ptr) || (key->cb.n_rows && !key->cb.row_ptr)
                     : key->qa.n_rows != key->domain_size || key->qb.n_rows != key->domain_size)
        return false;
    if (key->compact && key->b_idx)
        for (uint32_t i = 0; i < key->n_b; i++) /* the gather's indices stay inside w */
            if (key->b_idx[i] >= key->n_vars)
                return false;
    return true;
}

/* Evicts resident keys, the newest first, until a key slot and `need`
   bytes of the arena are free; 0 when even an empty device lacks them. */
static int make_room(gpu_be *g, size_t need)
{
    while (g->nkeys > 0 && (g->nkeys == GPU_KEYS || cz_cuda_arena_free(g->cu) < need)) {
        gpu_key *top = &g->keys[--g->nkeys];
        cz_log(CZ_LOG_INFO, "cuda", "evicting key #%llu (%.1f MiB) from %s",
               (unsigned long long)top->uid, top->bytes / 1048576.0, cz_cuda_device_name(g->cu));
        key_free(g, top);
    }
    return cz_cuda_arena_free(g->cu) >= need;
}

/* The key's entry, loading it (and evicting keys loaded after the oldest
   that must go) when absent. NULL with CZ_ERR_UNSUPPORTED when it cannot
   be resident. */
static cz_status key_get(gpu_be *g, const cz_zkey *key, gpu_key **out, double *upload_ms,
                         uint64_t *h2d_bytes)
{
    *out = NULL;
    for (int i = 0; i < g->nkeys; i++)
        if (g->keys[i].uid == key->uid) {
            if (g->keys[i].compact == key->compact) {
                *out = &g->keys[i];
                return CZ_OK;
            }
            /* the key was made compact in place (cz_zkey_compact) since it
               was loaded: drop its old form (and the keys above it) */
            while (g->nkeys > i)
                key_free(g, &g->keys[--g->nkeys]);
            break;
        }
    if (!g->resident || !key_usable(key))
        return CZ_ERR_UNSUPPORTED;
    size_t need = key_bytes(key) + proof_scratch(key);
    if (need > cz_cuda_arena_bytes(g->cu))
        return CZ_ERR_UNSUPPORTED;
    if (!make_room(g, need))
        return CZ_ERR_UNSUPPORTED;
    double t = gpu_now_ms();
    gpu_key *k = &g->keys[g->nkeys];
    memset(k, 0, sizeof *k);
    size_t nv = key->n_vars, np = key->n_public, n = key->domain_size, nb = key_nb(key);
    const void *src[5] = {key->a, key->b1, key->b2, key->c, key->h};
    size_t bytes[5] = {nv * sizeof(cz_g1_affine), nb * sizeof(cz_g1_affine),
                       nb * sizeof(cz_g2_affine), (nv - np - 1) * sizeof(cz_g1_affine),
                       n * sizeof(cz_g1_affine)};
    cz_status st = CZ_OK;
    for (int i = 0; i < 5 && st == CZ_OK; i++)
        st = upload_array(g, &k->pts[i], src[i], bytes[i]);
    cz_cuda_buf *dst[2][3] = {{&k->ra, &k->ca, &k->va}, {&k->rb, &k->cb, &k->vb}};
    if (key->compact) {
        const cz_cmat *q[2] = {&key->ca, &key->cb};
        const uint64_t zero_rp = 0; /* a matrix of no rows may have no row pointers */
        for (int m = 0; m < 2 && st == CZ_OK; m++) {
            st = upload_array(g, dst[m][0], q[m]->n_rows ? (const void *)q[m]->row_ptr : &zero_rp,
                              ((size_t)q[m]->n_rows + 1) * 8);
            if (st == CZ_OK)
                st = upload_array(g, dst[m][1], q[m]->col, (size_t)q[m]->nnz * 4);
            if (st == CZ_OK)
                st = upload_array(g, dst[m][2], q[m]->coef, (size_t)q[m]->nnz * 2);
        }
        if (st == CZ_OK)
            st = upload_array(g, &k->coefs, key->coefs, (size_t)key->n_coefs * sizeof(cz_fr));
        if (st == CZ_OK && key->b_idx)
            st = upload_array(g, &k->bidx, key->b_idx, (size_t)key->n_b * 4);
        k->compact = true;
        k->a_rows = key->ca.n_rows;
        k->b_rows = key->cb.n_rows;
        k->n_coefs = key->n_coefs;
        k->n_b = key->b_idx ? key->n_b : 0;
    } else {
        const cz_csr *q[2] = {&key->qa, &key->qb};
        for (int m = 0; m < 2 && st == CZ_OK; m++) {
            st = upload_array(g, dst[m][0], q[m]->row_ptr, ((size_t)q[m]->n_rows + 1) * 8);
            if (st == CZ_OK)
                st = upload_array(g, dst[m][1], q[m]->col, (size_t)q[m]->nnz * 4);
            if (st == CZ_OK)
                st = upload_array(g, dst[m][2], q[m]->val, (size_t)q[m]->nnz * sizeof(cz_fr));
        }
    }
    if (st != CZ_OK) {
        key_free(g, k); /* frees what was allocated, in reverse order */
        return st == CZ_ERR_NOMEM ? CZ_ERR_UNSUPPORTED : st;
    }
    k->uid = key->uid;
    k->bytes = key_bytes(key);
    k->n_vars = key->n_vars;
    k->n_public = key->n_public;
    k->log_n = key->log_n;
    k->rows = key->domain_size;
    g->nkeys++;
    *upload_ms = gpu_now_ms() - t;
    *h2d_bytes += k->bytes;
    cz_log(CZ_LOG_INFO, "cuda", "key #%llu resident on %s: %.1f MiB in %.0f ms (%.1f GiB free)",
           (unsigned long long)key->uid, cz_cuda_device_name(g->cu), k->bytes / 1048576.0,
           *upload_ms, cz_cuda_arena_free(g->cu) / 1073741824.0);
    *out = k;
    return CZ_OK;
}

/* ---- a witness sent packed (groth16/witpack.h) ----
 * Compact keys' witnesses cross packed (porep-32g: ~80 MB instead of
 * 4.2 GB) when at most one value in 8 is neither 0 nor 1; the daemon packs
 * in its witness stage, and prove_core packs here (before the GPU lock)
 * when its caller did not. A first version read w twice, and a porep-32g
 * partition in bench-native on the H200 went from 2,634 to 2,749 ms
 * though its a/b/c step, upload included, went from 187.6 to 130 ms: the
 * packing is host work that should not hold the device.
 * CUZK_GPU_WITNESS=full always sends w whole. */

/* w on the device (buf, n_vars values): from the packed form when pw,
   else copied whole */
static cz_status wit_upload(gpu_be *g, cz_cuda_buf *buf, const cz_fr *w, size_t nv,
                            const cz_wit_packed *pw, uint64_t *h2d)
{
    if (!pw) {
        *h2d += nv * sizeof(cz_fr);
        return cz_cuda_upload(g->cu, buf, 0, w, nv * sizeof(cz_fr));
    }
    size_t bytes[3] = {(nv + 31) / 32 * 4, pw->n_other * 4, pw->n_other * sizeof(cz_fr)};
    cz_cuda_buf p[3];
    cz_status st = tmp_bufs(g->cu, p, bytes, 3);
    if (st != CZ_OK)
        return st;
    /* through the pinned staging buffers (the packed arrays are plain
       malloc memory: ~80 MB a porep-32g partition, ~10 ms as a pageable
       copy), else a plain copy */
    const void *src[3] = {pw->bits, pw->idx, pw->vals};
    for (int i = 0; i < 3 && st == CZ_OK; i++) {
        char err[256];
        if (bytes[i] && czd_copy_h2d_side(g->cu->d, p[i].dev, src[i], bytes[i], host_copy_par, err,
                                          sizeof err) != CZ_OK) {
            cz_log(CZ_LOG_DEBUG, "cuda", "GPU %d: staged witness copy failed (%s): plain copy",
                   g->gpu, err);
            st = cz_cuda_upload(g->cu, &p[i], 0, src[i], bytes[i]);
        }
    }
    if (st == CZ_OK)
        st = pass(g->cu, czd_witness_expand(g->cu->d, buf->dev, nv, p[0].dev, p[1].dev, p[2].dev,
                                            pw->n_other));
    if (st == CZ_OK) /* before the packed buffers go back to the arena */
        st = pass(g->cu, czd_sync(g->cu->d));
    tmp_free(g->cu, p, 3);
    *h2d += bytes[0] + bytes[1] + bytes[2];
    return st;
}

static cz_status stream_locked(gpu_be *g, const cz_zkey *key, const cz_fr *w, const cz_wit_packed *pw,
                               cz_msm_sums *out, cz_core_timings *tm);

static cz_status core_locked(gpu_be *g, const cz_zkey *key, const cz_fr *w, const cz_wit_packed *pw,
                             cz_msm_sums *out, cz_core_timings *tm)
{
    gpu_key *k = NULL;
    cz_status st = ensure_domain(g, key->log_n);
    if (st == CZ_OK)
        st = key_get(g, key, &k, &tm->upload_ms, &tm->h2d_bytes);
    if (st == CZ_ERR_UNSUPPORTED && key->compact) {
        snprintf(tm->tier, sizeof tm->tier, "streamed");
        return stream_locked(g, key, w, pw, out, tm);
    }
    if (st != CZ_OK)
        return st;
    snprintf(tm->tier, sizeof tm->tier, "resident");
    size_t n = key->domain_size, nv = key->n_vars, np = key->n_public;
    /* B's scalars: w, or with B density w[b_idx[k]] gathered into b's
       buffer once H is done with it (or a buffer of their own) */
    size_t nb = k->compact && k->bidx.dev ? k->n_b : nv;
    bool own = k->compact && k->bidx.dev && nb > n;
    /* no c when C is folded into the key (its buffer stays empty) */
    size_t bytes[5] = {nv * sizeof(cz_fr), n * sizeof(cz_fr), n * sizeof(cz_fr),
                       key->cpub ? 0 : n * sizeof(cz_fr), own ? nb * sizeof(cz_fr) : 0};
    cz_cuda_buf buf[5]; /* w, a, b, c, B's scalars when they have their own */
    if ((st = bufs_alloc(g->cu, buf, bytes, 5)) != CZ_OK) /* none for B when it needs none */
        return st;
    double t = gpu_now_ms();
    st = wit_upload(g, &buf[0], w, nv, pw, &tm->h2d_bytes);
    if (st == CZ_OK && k->compact) {
        cz_cuda_cmat ma = {k->ra, k->ca, k->va, k->a_rows}, mb = {k->rb, k->cb, k->vb, k->b_rows};
        st = cz_cuda_eval_abc_compact_dev(g->cu, &buf[1], &ma, &mb, &k->coefs, k->n_coefs, &buf[0], n);
    } else if (st == CZ_OK) { /* (a key with C folded is compact: groth16/prove.c) */
        st = pass(g->cu, czd_eval_abc(g->cu->d, buf[1].dev, buf[2].dev, buf[3].dev, k->ra.dev,
                                      k->ca.dev, k->va.dev, k->rb.dev, k->cb.dev, k->vb.dev,
                                      buf[0].dev, k->rows));
        if (st == CZ_OK)
            st = pass(g->cu, czd_sync(g->cu->d));
    }
    tm->eval_abc_ms = gpu_now_ms() - t;
    t = gpu_now_ms();
    if (st == CZ_OK) /* h into a */
        st = h_on_device(g, &buf[1], key->log_n);
    tm->ntt_ms = gpu_now_ms() - t;
    double t_msm = gpu_now_ms();
    cz_cuda_buf *bs = &buf[0];
    if (st == CZ_OK && nb != nv) {
        bs = own ? &buf[4] : &buf[2];
        t = gpu_now_ms();
        st = cz_cuda_gather_dev(g->cu, bs, &buf[0], &k->bidx, nb);
        tm->msm_b1_ms = gpu_now_ms() - t; /* counted with B1's MSM */
    }
    cz_cuda_buf wc = {(char *)buf[0].dev + (np + 1) * sizeof(cz_fr), (nv - np - 1) * sizeof(cz_fr)};
    struct {
        cz_g1_jac *out;
        const cz_cuda_buf *pts, *scalars;
        size_t count;
        double *ms;
    } g1[4] = {{&out->a, &k->pts[0], &buf[0], nv, &tm->msm_a_ms},
               {&out->b1, &k->pts[1], bs, nb, &tm->msm_b1_ms},
               {&out->c, &k->pts[3], &wc, nv - np - 1, &tm->msm_c_ms},
               {&out->h, &k->pts[4], &buf[1], n, &tm->msm_h_ms}};
    for (int i = 0; i < 4 && st == CZ_OK; i++) {
        t = gpu_now_ms();
        st = cz_cuda_g1_msm_dev(g->cu, g1[i].out, g1[i].pts, NULL, g1[i].scalars, g1[i].count, 0, 0);
        *g1[i].ms += gpu_now_ms() - t;
    }
    if (st == CZ_OK) {
        t = gpu_now_ms();
        st = cz_cuda_g2_msm_dev(g->cu, &out->b2, &k->pts[2], NULL, bs, nb, 0, 0);
        tm->msm_b2_ms = gpu_now_ms() - t;
    }
    tm->msm_ms = gpu_now_ms() - t_msm;
    tmp_free(g->cu, buf, 5);
    return st;
}

/* ---- the streamed tier of a compact key ----
 * A compact key that is not resident (too big for the arena, or
 * CUZK_GPU_RESIDENT=0) is proved in two phases, nothing of the key kept:
 *  1. h: [a, b, w, coefficient table] then, part by part of the rows,
 *     that part of both matrices (row pointers rebased to the part on the
 *     host, columns, coefficient indices) and c's scratch for it; the
 *     compact kernel writes a and b for the part's rows. Then w and the
 *     table go, c = a .* b comes in their place and H runs in place (h in
 *     a's buffer); b and c go. The parts take what the arena has free, so
 *     a porep-32g partition (2^27: a, b, w 12 GB) fits a 16 GiB card,
 *     where the matrices (4.7 GB) beside a, b, c and w (17 GB) do not.
 *  2. the MSMs: w comes up again (packed: ~80 MB for porep-32g) above h
 *     and stays for A, B1 / B2 (w gathered by b_idx into a buffer of its
 *     own, or on the host when that does not fit), C; then it goes and H
 *     runs over h. Every MSM streams its points (stream_msm) with its
 *     scalars on the device, so the bit-heavy path applies.
 * The witness crosses twice packed (once whole when it is not packed);
 * the key's points once each, the matrices once. CZ_ERR_NOMEM anywhere
 * (an arena too small even for a, b and w) is the caller's: the prover
 * then runs the steps one by one. */

#define PART_ROWS_MAX ((uint64_t)1 << 24) /* bounds the host's rebased row pointers */

/* row pointer r of m, for any r (rows past n_rows are empty) */
static uint64_t cmat_rp(const cz_cmat *m, uint64_t r)
{
    if (!m->n_rows)
        return 0;
    return m->row_ptr[r < m->n_rows ? r : m->n_rows];
}

/* device bytes of the rows [r0, r1) of both matrices with c's scratch */
static size_t part_bytes(const cz_zkey *key, uint64_t r0, uint64_t r1)
{
    size_t b = (size_t)(r1 - r0) * sizeof(cz_fr) + 8 * 256;
    const cz_cmat *m[2] = {&key->ca, &key->cb};
    for (int i = 0; i < 2; i++) {
        uint64_t e = r1 < m[i]->n_rows ? r1 : m[i]->n_rows, s0 = r0 < e ? r0 : e;
        b += (size_t)(e - s0 + 1) * 8 + (size_t)(cmat_rp(m[i], e) - cmat_rp(m[i], s0)) * 6;
    }
    return b;
}

/* a part's row pointers rebased to its first entry, on the global pool */
typedef struct {
    const cz_cmat *m;
    uint64_t r0, base;
    uint64_t *out;
} rebase_job;

static void rebase_rows(void *arg, size_t k0, size_t k1, int worker)
{
    (void)worker;
    const rebase_job *j = arg;
    for (size_t k = k0; k < k1; k++)
        j->out[k] = cmat_rp(j->m, j->r0 + k) - j->base;
}

/* a and b for the rows [r0, r1) (their buffers' elements r0..r1-1) */
static cz_status stream_abc_part(gpu_be *g, const cz_zkey *key, cz_cuda_buf *ab, const cz_cuda_buf *w,
                                 const cz_cuda_buf *tab, uint64_t r0, uint64_t r1, uint64_t *rp_host,
                                 uint64_t *h2d)
{
    const cz_cmat *m[2] = {&key->ca, &key->cb};
    uint32_t nr[2];
    size_t bytes[7] = {(size_t)(r1 - r0) * sizeof(cz_fr)};
    for (int i = 0; i < 2; i++) {
        uint64_t e = r1 < m[i]->n_rows ? r1 : m[i]->n_rows, s0 = r0 < e ? r0 : e;
        uint64_t nnz = cmat_rp(m[i], e) - cmat_rp(m[i], s0);
        nr[i] = (uint32_t)(e - s0);
        bytes[1 + 3 * i] = ((size_t)nr[i] + 1) * 8;
        bytes[2 + 3 * i] = (size_t)nnz * 4;
        bytes[3 + 3 * i] = (size_t)nnz * 2;
    }
    cz_cuda_buf d[7]; /* c's scratch, then rows, columns, indices of A and B */
    cz_status st = bufs_alloc(g->cu, d, bytes, 7);
    if (st != CZ_OK)
        return st;
    for (int i = 0; i < 2 && st == CZ_OK; i++) {
        uint64_t base = cmat_rp(m[i], r0);
        rebase_job rj = {m[i], r0, base, rp_host};
        cz_parallel_for(cz_threadpool_global(), (size_t)nr[i] + 1, (size_t)1 << 16, rebase_rows, &rj);
        st = cz_cuda_upload(g->cu, &d[1 + 3 * i], 0, rp_host, bytes[1 + 3 * i]);
        if (st == CZ_OK && bytes[2 + 3 * i])
            st = cz_cuda_upload(g->cu, &d[2 + 3 * i], 0, m[i]->col + base, bytes[2 + 3 * i]);
        if (st == CZ_OK && bytes[3 + 3 * i])
            st = cz_cuda_upload(g->cu, &d[3 + 3 * i], 0, m[i]->coef + base, bytes[3 + 3 * i]);
        *h2d += bytes[1 + 3 * i] + bytes[2 + 3 * i] + bytes[3 + 3 * i];
    }
    size_t off = (size_t)r0 * sizeof(cz_fr);
    if (st == CZ_OK)
        st = pass(g->cu, czd_eval_abc_compact(g->cu->d, (char *)ab[0].dev + off, (char *)ab[1].dev + off,
                                              d[0].dev, d[1].dev, d[2].dev, d[3].dev, nr[0], d[4].dev,
                                              d[5].dev, d[6].dev, nr[1],
                                              key->n_coefs ? tab->dev : NULL, key->n_coefs, w->dev,
                                              (size_t)(r1 - r0)));
    if (st == CZ_OK) /* before the part's buffers go back to the arena */
        st = pass(g->cu, czd_sync(g->cu->d));
    for (int i = 6; i >= 0; i--)
        cz_cuda_buf_free(g->cu, &d[i]);
    return st;
}

/* phase 1: h into *hb (allocated here; the caller frees it) */
static cz_status stream_h(gpu_be *g, const cz_zkey *key, const cz_fr *w, const cz_wit_packed *pw,
                          cz_cuda_buf *hb, cz_core_timings *tm)
{
    size_t n = key->domain_size, nv = key->n_vars;
    size_t bytes[4] = {n * sizeof(cz_fr), n * sizeof(cz_fr), nv * sizeof(cz_fr),
                       (size_t)key->n_coefs * sizeof(cz_fr)};
    cz_cuda_buf d[4]; /* a, b, w, the coefficient table */
    double t = gpu_now_ms();
    cz_status st = bufs_alloc(g->cu, d, bytes, 4);
    if (st != CZ_OK)
        return st;
    uint64_t *rp = NULL;
    st = wit_upload(g, &d[2], w, nv, pw, &tm->h2d_bytes);
    if (st == CZ_OK && bytes[3]) {
        st = cz_cuda_upload(g->cu, &d[3], 0, key->coefs, bytes[3]);
        tm->h2d_bytes += bytes[3];
    }
    if (st == CZ_OK && !(rp = malloc((size_t)((n < PART_ROWS_MAX ? n : PART_ROWS_MAX) + 1) * 8)))
        st = fail(g->cu, CZ_ERR_NOMEM, "out of host memory");
    for (uint64_t r0 = 0; st == CZ_OK && r0 < n;) {
        /* the most rows whose part fits the arena's free part */
        size_t room = cz_cuda_arena_free(g->cu);
        uint64_t most = env_size("CUZK_GPU_STREAM_ROWS"); /* tests: more parts */
        if (!most || most > PART_ROWS_MAX)
            most = PART_ROWS_MAX;
        uint64_t lo = r0, hi = n - r0 < most ? n : r0 + most;
        if (part_bytes(key, r0, r0 + 1) > room) {
            st = fail(g->cu, CZ_ERR_NOMEM, "streamed a/b/c: no room for one row of the matrices");
            break;
        }
        lo = r0 + 1;
        while (lo < hi) { /* part_bytes(r0, lo) fits; find the largest */
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if (part_bytes(key, r0, mid) <= room)
                lo = mid;
            else
                hi = mid - 1;
        }
        st = stream_abc_part(g, key, d, &d[2], &d[3], r0, lo, rp, &tm->h2d_bytes);
        r0 = lo;
    }
    free(rp);
    cz_cuda_buf_free(g->cu, &d[3]);
    cz_cuda_buf_free(g->cu, &d[2]);
    tm->eval_abc_ms = gpu_now_ms() - t;
    t = gpu_now_ms();
    cz_cuda_buf c = {0};
    if (st == CZ_OK && !key->cpub) /* C folded into the key: no c */
        st = cz_cuda_buf_alloc(g->cu, &c, n * sizeof(cz_fr));
    if (st == CZ_OK && !key->cpub) /* c = a .* b, as the compact kernel forms it */
        st = pass(g->cu, czd_field_op(g->cu->d, 0, 2, c.dev, d[0].dev, d[1].dev, n));
    if (st == CZ_OK) {
        cz_cuda_buf abc[3] = {d[0], d[1], c};
        st = h_on_device(g, abc, key->log_n);
    }
    cz_cuda_buf_free(g->cu, &c);
    cz_cuda_buf_free(g->cu, &d[1]);
    tm->ntt_ms = gpu_now_ms() - t;
    if (st != CZ_OK)
        cz_cuda_buf_free(g->cu, &d[0]);
    else
        *hb = d[0];
    return st;
}

static cz_status stream_locked(gpu_be *g, const cz_zkey *key, const cz_fr *w, const cz_wit_packed *pw,
                               cz_msm_sums *out, cz_core_timings *tm)
{
    if (!key->compact || !key_usable(key))
        return CZ_ERR_UNSUPPORTED;
    size_t n = key->domain_size, nv = key->n_vars, np = key->n_public;
    size_t nb = key->b_idx ? key->n_b : nv;
    cz_cuda_buf h = {0}, wd = {0}, bs = {0}, bi = {0};
    cz_fr *wb_host = NULL;
    stream_acc acc;
    cz_status st = stream_h(g, key, w, pw, &h, tm);
    if (st != CZ_OK)
        return st;
    double t_msm = gpu_now_ms(), t = t_msm;
    if ((st = cz_cuda_buf_alloc(g->cu, &wd, nv * sizeof(cz_fr))) == CZ_OK)
        st = wit_upload(g, &wd, w, nv, pw, &tm->h2d_bytes);
    if (st == CZ_OK)
        st = stream_msm(g->cu, 1, &acc, key->a, NULL, &wd, nv, &tm->h2d_bytes);
    if (st == CZ_OK)
        cz_g1_xyzz_to_jac(&out->a, &acc.g1);
    tm->msm_a_ms = gpu_now_ms() - t;
    /* B's scalars: w gathered on the device, or on the host when the
       gathered copy does not fit */
    t = gpu_now_ms();
    const cz_cuda_buf *bsd = &wd;
    if (st == CZ_OK && key->b_idx) {
        st = cz_cuda_buf_alloc(g->cu, &bs, (nb ? nb : 1) * sizeof(cz_fr));
        if (st == CZ_OK && (st = cz_cuda_buf_alloc(g->cu, &bi, (nb ? nb : 1) * 4)) == CZ_OK) {
            st = cz_cuda_upload(g->cu, &bi, 0, key->b_idx, nb * 4);
            tm->h2d_bytes += nb * 4;
            if (st == CZ_OK && nb)
                st = cz_cuda_gather_dev(g->cu, &bs, &wd, &bi, nb);
            cz_cuda_buf_free(g->cu, &bi);
        }
        if (st == CZ_ERR_NOMEM) {
            cz_cuda_buf_free(g->cu, &bs);
            if (!(wb_host = malloc((nb ? nb : 1) * sizeof *wb_host)))
                st = fail(g->cu, CZ_ERR_NOMEM, "out of host memory");
            else {
                for (size_t k = 0; k < nb; k++)
                    wb_host[k] = w[key->b_idx[k]];
                st = CZ_OK;
            }
        }
        bsd = bs.dev ? &bs : NULL;
    }
    if (st == CZ_OK)
        st = stream_msm(g->cu, 1, &acc, key->b1, wb_host, bsd, nb, &tm->h2d_bytes);
    if (st == CZ_OK)
        cz_g1_xyzz_to_jac(&out->b1, &acc.g1);
    tm->msm_b1_ms = gpu_now_ms() - t;
    t = gpu_now_ms();
    if (st == CZ_OK)
        st = stream_msm(g->cu, 2, &acc, key->b2, wb_host, bsd, nb, &tm->h2d_bytes);
    if (st == CZ_OK)
        cz_g2_xyzz_to_jac(&out->b2, &acc.g2);
    tm->msm_b2_ms = gpu_now_ms() - t;
    cz_cuda_buf_free(g->cu, &bs);
    if (wb_host) {
        cz_wipe(wb_host, nb * sizeof *wb_host);
        free(wb_host);
    }
    t = gpu_now_ms();
    if (st == CZ_OK) {
        cz_cuda_buf wc = {(char *)wd.dev + (np + 1) * sizeof(cz_fr), (nv - np - 1) * sizeof(cz_fr)};
        st = stream_msm(g->cu, 1, &acc, key->c, NULL, &wc, nv - np - 1, &tm->h2d_bytes);
    }
    if (st == CZ_OK)
        cz_g1_xyzz_to_jac(&out->c, &acc.g1);
    tm->msm_c_ms = gpu_now_ms() - t;
    cz_cuda_buf_free(g->cu, &wd); /* H's MSM has the room w took */
    t = gpu_now_ms();
    if (st == CZ_OK)
        st = stream_msm(g->cu, 1, &acc, key->h, NULL, &h, n, &tm->h2d_bytes);
    if (st == CZ_OK)
        cz_g1_xyzz_to_jac(&out->h, &acc.g1);
    tm->msm_h_ms = gpu_now_ms() - t;
    tm->msm_ms = gpu_now_ms() - t_msm;
    cz_cuda_buf_free(g->cu, &h);
    return st;
}

static cz_status gpu_prove_core(cz_backend *be, const struct cz_zkey *key, const cz_fr *w,
                                const cz_wit_packed *given, cz_msm_sums *out, cz_core_timings *tm)
{
    gpu_be *g = be->ctx;
    /* the witness packed before the lock, so that another proof's device
       work runs meanwhile: the caller's packed form of this w, else here */
    const char *wm = getenv("CUZK_GPU_WITNESS");
    bool whole = !key->compact || (wm && !strcmp(wm, "full"));
    cz_wit_packed own;
    bool packed = false;
    const cz_wit_packed *pw = NULL;
    if (!whole && given && given->w == w && given->n == key->n_vars)
        pw = given;
    else if (!whole && (packed = cz_wit_pack(&own, w, key->n_vars, NULL)))
        pw = &own;
    cz_status st = gpu_enter(g);
    if (st != CZ_OK) { /* degraded: the prover's steps run on the CPU */
        if (packed)
            cz_wit_packed_free(&own);
        snprintf(tm->tier, sizeof tm->tier, "host");
        return CZ_ERR_UNSUPPORTED;
    }
    if (g->inject) {
        g->inject = 0;
        st = pass(g->cu, czd_inject_fault(g->cu->d));
    } else {
        st = core_locked(g, key, w, pw, out, tm);
    }
    if (packed)
        cz_wit_packed_free(&own);
    if (st == CZ_ERR_NOMEM) { /* the card is short (other processes): step by step */
        cz_log(CZ_LOG_INFO, "cuda", "GPU %d out of memory in a proof (%s): streaming instead",
               g->gpu, cz_cuda_ctx_error(g->cu));
        st = CZ_ERR_UNSUPPORTED;
    }
    if (st == CZ_ERR_UNSUPPORTED)
        snprintf(tm->tier, sizeof tm->tier, "streamed");
    else if (st != CZ_OK)
        snprintf(tm->error, sizeof tm->error, "%.255s", cz_cuda_ctx_error(g->cu));
    return gpu_leave(g, st);
}

static cz_status gpu_host_pin(cz_backend *be, void *p, size_t len)
{
    gpu_be *g = be->ctx; /* no lock: pinning must not wait for a running proof */
    char err[256];
    cz_status st = czd_host_pin(g->gpu, p, len, err, sizeof err);
    if (st != CZ_OK)
        cz_log(CZ_LOG_DEBUG, "cuda", "GPU %d: %s", g->gpu, err);
    return st;
}

static const char *gpu_step_error(cz_backend *be)
{
    (void)be;
    return t_step_err;
}

static void gpu_host_unpin(cz_backend *be, void *p)
{
    (void)be;
    czd_host_unpin(p);
}

static void gpu_destroy(cz_backend *be)
{
    gpu_be *g = be->ctx;
    if (g->cu)
        czd_bind(g->cu->d);
    while (g->nkeys > 0)
        key_free(g, &g->keys[--g->nkeys]);
    for (int i = 0; i <= CZ_NTT_MAX_LOG; i++)
        cz_ntt_domain_destroy(g->dom[i]);
    cz_cuda_ctx_destroy(g->cu);
    cz_backend_destroy(g->cpu);
    pthread_mutex_destroy(&g->lock);
    free(g);
    free(be);
}

/* ---- keys made resident before their first proof ----
 * The daemon loads a key and, on a cuda backend, asks for it on the device
 * at once (key_upload, key_upload_bn254), from a thread of its own under
 * the device's lock, so that the first proof finds it there: the same
 * residency as a proof's (key_get: the stack, the eviction from its top, the
 * streamed tier when it does not fit), only earlier. bn128 keys join the
 * same stack (their points and, where the key has them, matrices in one
 * cz_cuda_bn254_dkey), known by a uid their owner takes from
 * cz_zkey_new_uid, so that keys of both curves stay resident at once. */

static cz_status gpu_key_upload(cz_backend *be, const struct cz_zkey *key, cz_core_timings *tm)
{
    gpu_be *g = be->ctx;
    memset(tm, 0, sizeof *tm);
    cz_status st = gpu_enter(g);
    if (st != CZ_OK) {
        snprintf(tm->tier, sizeof tm->tier, "host");
        snprintf(tm->error, sizeof tm->error, "GPU %d unusable", g->gpu);
        return st;
    }
    gpu_key *k = NULL;
    const char *staged = getenv("CUZK_GPU_KEY_STAGED");
    st = ensure_domain(g, key->log_n);
    t_key_staged = !(staged && !strcmp(staged, "0"));
    if (st == CZ_OK)
        st = key_get(g, key, &k, &tm->upload_ms, &tm->h2d_bytes);
    t_key_staged = false;
    if (st == CZ_ERR_NOMEM)
        st = CZ_ERR_UNSUPPORTED;
    snprintf(tm->tier, sizeof tm->tier, "%s",
             st == CZ_OK ? "resident" : st == CZ_ERR_UNSUPPORTED ? "streamed" : "");
    if (st != CZ_OK && st != CZ_ERR_UNSUPPORTED && g->cu)
        snprintf(tm->error, sizeof tm->error, "%.255s", cz_cuda_ctx_error(g->cu));
    return gpu_leave(g, st);
}

/* A bn128 key's entry (lock held): found by uid, else uploaded on top of
   the stack after evicting from its top what must go. CZ_ERR_UNSUPPORTED
   when it cannot be resident (its proofs then copy the points per call). */
static cz_status bn254_key_get(gpu_be *g, const cz_bn254_zkey *key, uint64_t uid, gpu_key **out,
                               double *upload_ms, uint64_t *h2d_bytes)
{
    *out = NULL;
    for (int i = 0; i < g->nkeys; i++)
        if (g->keys[i].uid == uid && g->keys[i].bn254) {
            *out = &g->keys[i];
            return CZ_OK;
        }
    if (!uid || !g->resident)
        return CZ_ERR_UNSUPPORTED;
    size_t need = cz_cuda_bn254_arena_for_key(key);
    if (!need || need > cz_cuda_arena_bytes(g->cu))
        return CZ_ERR_UNSUPPORTED;
    if (!make_room(g, need))
        return CZ_ERR_UNSUPPORTED;
    double t = gpu_now_ms();
    gpu_key *k = &g->keys[g->nkeys];
    memset(k, 0, sizeof *k);
    cz_status st = cz_cuda_bn254_key_upload(g->cu, &k->bdk, key);
    if (st != CZ_OK) { /* nothing stays allocated */
        memset(k, 0, sizeof *k);
        return st == CZ_ERR_NOMEM ? CZ_ERR_UNSUPPORTED : st;
    }
    k->bn254 = true;
    k->uid = uid;
    k->bytes = cz_cuda_bn254_key_bytes(key);
    k->n_vars = key->n_vars;
    k->n_public = key->n_public;
    k->log_n = key->log_n;
    k->rows = key->domain_size;
    g->nkeys++;
    *upload_ms = gpu_now_ms() - t;
    *h2d_bytes += k->bytes;
    cz_log(CZ_LOG_INFO, "cuda", "bn128 key #%llu resident on %s: %.1f MiB in %.0f ms (%.1f GiB free)",
           (unsigned long long)uid, cz_cuda_device_name(g->cu), k->bytes / 1048576.0, *upload_ms,
           cz_cuda_arena_free(g->cu) / 1073741824.0);
    *out = k;
    return CZ_OK;
}

static cz_status gpu_key_upload_bn254(cz_backend *be, const struct cz_bn254_zkey *key, uint64_t uid,
                                      cz_core_timings *tm)
{
    gpu_be *g = be->ctx;
    memset(tm, 0, sizeof *tm);
    cz_status st = gpu_enter(g);
    if (st != CZ_OK) {
        snprintf(tm->tier, sizeof tm->tier, "host");
        snprintf(tm->error, sizeof tm->error, "GPU %d unusable", g->gpu);
        return st;
    }
    gpu_key *k = NULL;
    st = bn254_key_get(g, key, uid, &k, &tm->upload_ms, &tm->h2d_bytes);
    snprintf(tm->tier, sizeof tm->tier, "%s",
             st == CZ_OK ? "resident" : st == CZ_ERR_UNSUPPORTED ? "streamed" : "");
    if (st != CZ_OK && st != CZ_ERR_UNSUPPORTED && g->cu)
        snprintf(tm->error, sizeof tm->error, "%.255s", cz_cuda_ctx_error(g->cu));
    return gpu_leave(g, st);
}

static cz_status gpu_prove_bn254(cz_backend *be, cz_bn254_proof *out,
                                 const struct cz_bn254_zkey *key, uint64_t uid,
                                 const cz_bn254_fr *w, cz_threadpool *pool, cz_core_timings *tm,
                                 char *err, size_t err_len)
{
    gpu_be *g = be->ctx;
    memset(tm, 0, sizeof *tm);
    cz_status st = gpu_enter(g);
    if (st != CZ_OK) { /* the GPU is gone: the caller proves on the CPU */
        snprintf(tm->tier, sizeof tm->tier, "host");
        snprintf(err, err_len, "GPU %d unusable", g->gpu);
        return CZ_ERR_UNSUPPORTED;
    }
    gpu_key *k = NULL;
    double up = 0;
    uint64_t h2d = 0;
    st = bn254_key_get(g, key, uid, &k, &up, &h2d);
    if (st == CZ_OK || st == CZ_ERR_UNSUPPORTED) {
        cz_prove_timings pt;
        st = cz_cuda_bn254_groth16_prove_dev(g->cu, out, key, k ? &k->bdk : NULL, w, pool, NULL,
                                             &pt, err, err_len);
        tm->eval_abc_ms = pt.eval_abc_ms;
        tm->ntt_ms = pt.ntt_ms;
        tm->msm_ms = pt.msm_ms;
        tm->msm_a_ms = pt.msm_a_ms;
        tm->msm_b1_ms = pt.msm_b1_ms;
        tm->msm_b2_ms = pt.msm_b2_ms;
        tm->msm_c_ms = pt.msm_c_ms;
        tm->msm_h_ms = pt.msm_h_ms;
        tm->upload_ms = up;
        tm->h2d_bytes = h2d + pt.h2d_bytes;
        snprintf(tm->tier, sizeof tm->tier, "%s", pt.tier);
    } else {
        snprintf(err, err_len, "GPU %d: key upload: %s", g->gpu, cz_cuda_ctx_error(g->cu));
    }
    if (st != CZ_OK && g->cu)
        snprintf(tm->error, sizeof tm->error, "%.255s", cz_cuda_ctx_error(g->cu));
    return gpu_leave(g, st);
}

cz_status cz_backend_cuda_create(cz_backend **out, int gpu, cz_backend *host, char *err,
                                 size_t err_len)
{
    *out = NULL;
    if (!host)
        return CZ_ERR_ARG;
    cz_backend *be = calloc(1, sizeof *be);
    gpu_be *g = calloc(1, sizeof *g);
    if (!be || !g) {
        free(be);
        free(g);
        return CZ_ERR_NOMEM;
    }
    size_t cap = g_arena_cap;
    const char *env = getenv("CUZK_GPU_ARENA_MB");
    if (env && *env)
        cap = (size_t)strtoull(env, NULL, 10) << 20;
    cz_status st = cz_cuda_ctx_create(&g->cu, gpu, cap, g_margin, err, err_len);
    if (st != CZ_OK) {
        cz_cuda_ctx_destroy(g->cu);
        free(g);
        free(be);
        return st;
    }
    g->cpu = host; /* owned from here (backend.h) */
    pthread_mutex_init(&g->lock, NULL);
    const char *res = getenv("CUZK_GPU_RESIDENT"), *inj = getenv("CUZK_GPU_INJECT_FAULT");
    g->resident = !(res && !strcmp(res, "0"));
    g->inject = inj && !strcmp(inj, "1");
    g->gpu = gpu;
    g->cap = cap;
    be->prove_core = gpu_prove_core;
    be->host_pin = gpu_host_pin;
    be->host_unpin = gpu_host_unpin;
    be->step_error = gpu_step_error;
    be->info = gpu_info;
    be->name = "cuda";
    be->ctx = g;
    be->eval_abc = gpu_eval_abc;
    be->compute_h = gpu_compute_h;
    be->msm_g1 = gpu_msm_g1;
    be->msm_g2 = gpu_msm_g2;
    be->fixed_base_g1 = gpu_fixed_base_g1;
    be->fixed_base_g2 = gpu_fixed_base_g2;
    be->decompress = gpu_decompress;
    be->key_upload = gpu_key_upload;
    be->key_upload_bn254 = gpu_key_upload_bn254;
    be->prove_bn254 = gpu_prove_bn254;
    be->destroy = gpu_destroy;
    *out = be;
    return CZ_OK;
}

/* ---- BN254: the same kernels over BN254's fields (cuda.h's _bn254 twins) ---- */

_Static_assert(sizeof(cz_bn254_fr) == sizeof(cz_fr), "BN254 and BLS12-381 scalars: 32 bytes each");

cz_status cz_cuda_bn254_ntt_dev(cz_cuda_ctx *ctx, cz_cuda_buf *a, unsigned log_n,
                                const cz_bn254_fr *omega, cz_cuda_ntt_kind kind,
                                const cz_bn254_fr *g, unsigned flags)
{
    if (!ctx || !a || !omega || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG, "BN254 NTT: bad argument (log_n <= 28, omega required)")
                   : CZ_ERR_ARG;
    if (a->bytes < (sizeof(cz_bn254_fr) << log_n))
        return fail(ctx, CZ_ERR_ARG, "BN254 NTT: device buffer smaller than 2^log_n elements");
    bool coset = kind == CZ_CUDA_NTT_COSET_FORWARD || kind == CZ_CUDA_NTT_COSET_INVERSE;
    bool inverse = kind == CZ_CUDA_NTT_INVERSE || kind == CZ_CUDA_NTT_COSET_INVERSE;
    if (coset && (!g || cz_bn254_fr_is_zero(g)))
        return fail(ctx, CZ_ERR_ARG, "BN254 NTT: a coset transform needs a nonzero shift g");
    if (inverse && (flags & CZ_CUDA_NTT_BITREV_OUT))
        return fail(ctx, CZ_ERR_ARG, "BN254 NTT: bit-reversed output is for forward transforms");
    int bitrev = (flags & CZ_CUDA_NTT_BITREV_OUT) != 0;
    if (!inverse)
        return pass(ctx, czd_ntt_bn254(ctx->d, a->dev, log_n, omega, coset ? g : NULL, bitrev, NULL,
                                       NULL));
    cz_bn254_fr w_inv, n_inv, g_inv, n_fr;
    cz_bn254_fr_inv(&w_inv, omega);
    cz_bn254_fr_set_u64(&n_fr, (uint64_t)1 << log_n);
    cz_bn254_fr_inv(&n_inv, &n_fr);
    if (coset)
        cz_bn254_fr_inv(&g_inv, g);
    return pass(ctx, czd_ntt_bn254(ctx->d, a->dev, log_n, &w_inv, NULL, 0, &n_inv,
                                   coset ? &g_inv : NULL));
}

cz_status cz_cuda_bn254_ntt_h_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], unsigned log_n,
                                  const cz_bn254_fr *omega, const cz_bn254_fr *g)
{
    if (!ctx || !abc || !omega || !g || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG,
                          "BN254 H step: bad argument (log_n <= 28, omega and g required)")
                   : CZ_ERR_ARG;
    for (int i = 0; i < 3; i++)
        if (!abc[i].dev || abc[i].bytes < (sizeof(cz_bn254_fr) << log_n))
            return fail(ctx, CZ_ERR_ARG, "BN254 H step: device buffer smaller than 2^log_n elements");
    cz_bn254_fr w_inv, n_inv, n_fr, g2;
    cz_bn254_fr_inv(&w_inv, omega);
    cz_bn254_fr_set_u64(&n_fr, (uint64_t)1 << log_n);
    cz_bn254_fr_inv(&n_inv, &n_fr);
    cz_bn254_fr_sqr(&g2, g);
    return pass(ctx, czd_ntt_h_bn254(ctx->d, abc[0].dev, abc[1].dev, abc[2].dev, log_n, omega,
                                     &w_inv, &n_inv, g, cz_bn254_fr_eq(&g2, omega)));
}

cz_status cz_cuda_bn254_ntt(cz_cuda_ctx *ctx, cz_bn254_fr *a, unsigned log_n,
                            const cz_bn254_fr *omega, cz_cuda_ntt_kind kind, const cz_bn254_fr *g)
{
    if (!ctx || !a || log_n > 28)
        return ctx ? fail(ctx, CZ_ERR_ARG, "BN254 NTT: bad argument") : CZ_ERR_ARG;
    size_t bytes = sizeof(cz_bn254_fr) << log_n;
    cz_cuda_buf b;
    cz_status st = tmp_bufs(ctx, &b, &bytes, 1);
    if (st != CZ_OK)
        return st;
    if ((st = cz_cuda_upload(ctx, &b, 0, a, bytes)) == CZ_OK &&
        (st = cz_cuda_bn254_ntt_dev(ctx, &b, log_n, omega, kind, g, 0)) == CZ_OK)
        st = cz_cuda_download(ctx, a, &b, 0, bytes);
    tmp_free(ctx, &b, 1);
    return st;
}

MSM_SUM(bn254_g1)
MSM_SUM(bn254_g2)

#define MSM_FINISH_BN254(G, GROUP)                                                             \
    cz_status cz_cuda_bn254_##G##_msm_dev(cz_cuda_ctx *ctx, cz_bn254_##G##_jac *out,           \
                                          const cz_cuda_buf *bases,                            \
                                          const cz_bn254_fr *scalars_host,                     \
                                          const cz_cuda_buf *scalars_dev, size_t n,            \
                                          unsigned flags, unsigned window_bits)                \
    {                                                                                          \
        if (!ctx || !out)                                                                      \
            return ctx ? fail(ctx, CZ_ERR_ARG, "MSM: bad argument") : CZ_ERR_ARG;              \
        cz_bn254_##G##_xyzz *parts = malloc(CZD_MSM_PARTS_CAP * sizeof *parts), acc;           \
        if (!parts)                                                                            \
            return fail(ctx, CZ_ERR_NOMEM, "out of host memory");                              \
        unsigned nwin = 0, cnt = 0, c = 0;                                                     \
        cz_status st = msm_dev(ctx, GROUP, parts, &nwin, &cnt, &c, bases,                      \
                               sizeof(cz_bn254_##G##_affine), (const cz_fr *)scalars_host,     \
                               scalars_dev, n, flags, window_bits);                            \
        if (st == CZ_OK) {                                                                     \
            msm_sum_bn254_##G(&acc, parts, nwin, cnt, c);                                      \
            cz_bn254_##G##_xyzz_to_jac(out, &acc);                                             \
        }                                                                                      \
        free(parts);                                                                           \
        return st;                                                                             \
    }                                                                                          \
    cz_status cz_cuda_bn254_##G##_msm(cz_cuda_ctx *ctx, cz_bn254_##G##_jac *out,               \
                                      const cz_bn254_##G##_affine *bases,                      \
                                      const cz_bn254_fr *scalars, size_t n, unsigned flags)    \
    {                                                                                          \
        if (!ctx || !out || (n && (!bases || !scalars)))                                       \
            return ctx ? fail(ctx, CZ_ERR_ARG, "MSM: bad argument") : CZ_ERR_ARG;              \
        size_t bytes = n * sizeof *bases;                                                      \
        cz_cuda_buf b;                                                                         \
        cz_status st = tmp_bufs(ctx, &b, &bytes, 1);                                           \
        if (st != CZ_OK)                                                                       \
            return st;                                                                         \
        if ((st = cz_cuda_upload(ctx, &b, 0, bases, bytes)) == CZ_OK)                          \
            st = cz_cuda_bn254_##G##_msm_dev(ctx, out, &b, scalars, NULL, n, flags, 0);        \
        tmp_free(ctx, &b, 1);                                                                  \
        return st;                                                                             \
    }
MSM_FINISH_BN254(g1, CZD_BN254_G1)
MSM_FINISH_BN254(g2, CZD_BN254_G2)

cz_status cz_cuda_bn254_g1_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n,
                                      const cz_bn254_fr *k, size_t m)
{
    return gen_points(ctx, CZD_BN254_G1, out, sizeof(cz_bn254_g1_affine), n, (const cz_fr *)k, m);
}

cz_status cz_cuda_bn254_g2_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n,
                                      const cz_bn254_fr *k, size_t m)
{
    return gen_points(ctx, CZD_BN254_G2, out, sizeof(cz_bn254_g2_affine), n, (const cz_fr *)k, m);
}

cz_status cz_cuda_bn254_fr_op(cz_cuda_ctx *ctx, int op, cz_bn254_fr *out, const cz_bn254_fr *a,
                              const cz_bn254_fr *b, size_t n)
{
    return field_op(ctx, 3, op, out, a, b, n, sizeof(cz_bn254_fr));
}
cz_status cz_cuda_bn254_fp_op(cz_cuda_ctx *ctx, int op, cz_bn254_fp *out, const cz_bn254_fp *a,
                              const cz_bn254_fp *b, size_t n)
{
    return field_op(ctx, 4, op, out, a, b, n, sizeof(cz_bn254_fp));
}
cz_status cz_cuda_bn254_fp2_op(cz_cuda_ctx *ctx, int op, cz_bn254_fp2 *out, const cz_bn254_fp2 *a,
                               const cz_bn254_fp2 *b, size_t n)
{
    return field_op(ctx, 5, op, out, a, b, n, sizeof(cz_bn254_fp2));
}


/* ---- BN254: a bn128 Groth16 proof on the GPU ----
   a, b, c on the host from the key's matrices (as prove_bn254.c), the H
   step on the device (h stays there as the H MSM's scalars), the five
   MSMs on the device (points copied in per call), the assembly of
   prove_impl.h, shared with both CPU provers. */

#define PV_G1_(op) cz_bn254_g1_##op
#define PV_G2_(op) cz_bn254_g2_##op
#define PV_FR_(op) cz_bn254_fr_##op
#define PV_FR cz_bn254_fr
#define PV_KEY cz_bn254_zkey
#define PV_PROOF cz_bn254_proof
#define PV_FR_TOP_MASK 0x3fffffffffffffffULL
#include "groth16/prove_impl.h"

static double bn254_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* the five point arrays of a bn128 key: a, b1, b2, c (private variables
   only) and h, with their point sizes */
static void bn254_key_arrays(const cz_bn254_zkey *key, const void *src[5], size_t cnt[5],
                             size_t pb[5])
{
    size_t nv = key->n_vars, np = key->n_public;
    const void *s[5] = {key->a, key->b1, key->b2, key->c, key->h};
    size_t c[5] = {nv, nv, nv, nv - np - 1, key->domain_size};
    for (int i = 0; i < 5; i++) {
        src[i] = s[i];
        cnt[i] = c[i];
        pb[i] = i == 2 ? sizeof(cz_bn254_g2_affine) : sizeof(cz_bn254_g1_affine);
    }
}

size_t cz_cuda_bn254_key_bytes(const cz_bn254_zkey *key)
{
    if (!key || key->n_vars < key->n_public + 1)
        return 0;
    const void *src[5];
    size_t cnt[5], pb[5], b = 0;
    bn254_key_arrays(key, src, cnt, pb);
    for (int i = 0; i < 5; i++)
        b += cnt[i] * pb[i] + 256; /* each buffer rounded to 256 bytes */
    const cz_bn254_csr *m[2] = {&key->qa, &key->qb};
    for (int i = 0; i < 2; i++) /* the matrices, where the key has them */
        if (m[i]->row_ptr)
            b += ((size_t)m[i]->n_rows + 1) * 8 + m[i]->nnz * (4 + sizeof(cz_bn254_fr)) + 3 * 256;
    return b;
}

size_t cz_cuda_bn254_arena_for_key(const cz_bn254_zkey *key)
{
    if (!key)
        return 0;
    /* the points (resident, or the streamed prover's copies, one array at
       a time with h's: less), a, b, c and w, the MSM's scratch (as
       BLS12-381's proof_scratch) and a margin */
    size_t m = key->n_vars > key->domain_size ? key->n_vars : key->domain_size;
    return cz_cuda_bn254_key_bytes(key) + m * (size_t)(4 * 32 + 32 + 16 * 16) +
           ((size_t)768 << 20);
}

cz_status cz_cuda_bn254_key_free(cz_cuda_ctx *ctx, cz_cuda_bn254_dkey *dk)
{
    if (!ctx || !dk)
        return CZ_OK;
    cz_status st = CZ_OK, s;
    cz_cuda_buf *b[11] = {&dk->a,  &dk->b1, &dk->b2, &dk->c,  &dk->h, &dk->ra,
                          &dk->ca, &dk->va, &dk->rb, &dk->cb, &dk->vb};
    for (int i = 11; i-- > 0;) /* reverse order of allocation */
        if ((s = cz_cuda_buf_free(ctx, b[i])) && !st)
            st = s;
    return st;
}

cz_status cz_cuda_bn254_key_upload(cz_cuda_ctx *ctx, cz_cuda_bn254_dkey *out,
                                   const cz_bn254_zkey *key)
{
    if (!ctx || !out)
        return ctx ? fail(ctx, CZ_ERR_ARG, "key upload: NULL argument") : CZ_ERR_ARG;
    memset(out, 0, sizeof *out);
    if (!key || key->n_vars < key->n_public + 1)
        return fail(ctx, CZ_ERR_ARG, "key upload: no key, or fewer variables than public inputs");
    const void *src[5];
    size_t cnt[5], pb[5];
    bn254_key_arrays(key, src, cnt, pb);
    cz_cuda_buf *b[5] = {&out->a, &out->b1, &out->b2, &out->c, &out->h};
    cz_status st = CZ_OK;
    for (int i = 0; i < 5 && !st; i++) {
        size_t bytes = cnt[i] * pb[i];
        if ((cnt[i] && !src[i]) ||
            (st = cz_cuda_buf_alloc(ctx, b[i], bytes ? bytes : 1)) != CZ_OK)
            st = st ? st : fail(ctx, CZ_ERR_ARG, "key upload: a point array is missing");
        else if (bytes)
            st = cz_cuda_upload(ctx, b[i], 0, src[i], bytes);
    }
    /* the matrices, so that a, b, c are evaluated on the device */
    const cz_bn254_csr *m[2] = {&key->qa, &key->qb};
    cz_cuda_buf *mb[2][3] = {{&out->ra, &out->ca, &out->va}, {&out->rb, &out->cb, &out->vb}};
    for (int i = 0; i < 2 && !st; i++) {
        if (!m[i]->row_ptr || m[i]->n_rows != key->domain_size)
            continue;
        const void *ms[3] = {m[i]->row_ptr, m[i]->col, m[i]->val};
        size_t mbytes[3] = {((size_t)m[i]->n_rows + 1) * 8, m[i]->nnz * 4,
                            m[i]->nnz * sizeof(cz_bn254_fr)};
        for (int k = 0; k < 3 && !st; k++)
            if ((st = cz_cuda_buf_alloc(ctx, mb[i][k], mbytes[k] ? mbytes[k] : 1)) == CZ_OK &&
                mbytes[k])
                st = cz_cuda_upload(ctx, mb[i][k], 0, ms[k], mbytes[k]);
    }
    if (st) {
        char msg[sizeof ctx->err];
        snprintf(msg, sizeof msg, "%s", ctx->err);
        cz_cuda_bn254_key_free(ctx, out); /* keeps the first failure's message */
        snprintf(ctx->err, sizeof ctx->err, "%s", msg);
        return st;
    }
    out->n_vars = key->n_vars;
    out->n_public = key->n_public;
    out->domain_size = key->domain_size;
    return CZ_OK;
}

cz_status cz_cuda_bn254_groth16_prove_dev(cz_cuda_ctx *ctx, cz_bn254_proof *out,
                                          const cz_bn254_zkey *key, const cz_cuda_bn254_dkey *dk,
                                          const cz_bn254_fr *w, cz_threadpool *pool,
                                          const cz_bn254_fr *rs, cz_prove_timings *tm, char *err,
                                          size_t err_len)
{
    cz_prove_timings tl;
    if (!tm)
        tm = &tl;
    memset(tm, 0, sizeof *tm);
    snprintf(tm->tier, sizeof tm->tier, dk ? "resident" : "streamed");
    if (!ctx)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove", "NULL argument");
    cz_status st = cz_bn254_groth16_prove_check(out, key, w, err, err_len);
    if (st)
        return st;
    const size_t n = key->domain_size, npub = key->n_public, nv = key->n_vars;
    if (dk && (dk->n_vars != nv || dk->n_public != npub || dk->domain_size != n || !dk->a.dev ||
               !dk->b1.dev || !dk->b2.dev || !dk->c.dev || !dk->h.dev))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove",
                          "the device key is not this key's (%u variables, %u public, domain %u "
                          "on the device)", dk->n_vars, dk->n_public, dk->domain_size);
    double t0 = bn254_now_ms(), t;
    cz_bn254_ntt_domain *dom = NULL;
    cz_cuda_buf abc[3] = {{NULL, 0}, {NULL, 0}, {NULL, 0}}, hb = {NULL, 0}, wd = {NULL, 0};
    const bool dev_abc = dk && dk->ra.dev && dk->rb.dev;
    cz_bn254_fr *v = dev_abc ? NULL : malloc(3 * n * sizeof *v); /* a, b, c on the host */
    if (!dev_abc && !v)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove", "out of memory for %zu-point vectors",
                          n);
    if ((st = cz_bn254_ntt_domain_create(&dom, key->log_n, CZ_NTT_ROOT_5))) {
        cz_io_fail(st, err, err_len, "prove", "no NTT domain of 2^%u", key->log_n);
        goto out;
    }
    /* 1. a, b, c on the domain: on the device from w and the resident
       matrices, else on the host (as the CPU prover) and copied in */
    t = bn254_now_ms();
    if (dk && ((st = cz_cuda_buf_alloc(ctx, &wd, nv * sizeof *w)) ||
               (st = cz_cuda_upload(ctx, &wd, 0, w, nv * sizeof *w))))
        goto dev_fail;
    for (int i = 0; i < 3; i++)
        if ((st = cz_cuda_buf_alloc(ctx, &abc[i], n * sizeof(cz_bn254_fr))))
            goto dev_fail;
    if (dev_abc) {
        if ((st = pass(ctx, czd_eval_abc_bn254(ctx->d, abc[0].dev, abc[1].dev, abc[2].dev,
                                               dk->ra.dev, dk->ca.dev, dk->va.dev, dk->rb.dev,
                                               dk->cb.dev, dk->vb.dev, wd.dev, n))) ||
            (st = pass(ctx, czd_sync(ctx->d))))
            goto dev_fail;
    } else {
        cz_bn254_groth16_eval_abc(v, v + n, v + 2 * n, key, w, pool);
        for (int i = 0; i < 3; i++)
            if ((st = cz_cuda_upload(ctx, &abc[i], 0, v + (size_t)i * n, n * sizeof *v)))
                goto dev_fail;
    }
    tm->eval_abc_ms = bn254_now_ms() - t;
    /* 2. h = a b - c at snarkjs's odd points, on the device */
    t = bn254_now_ms();
    if ((st = cz_cuda_bn254_ntt_h_dev(ctx, abc, key->log_n, &dom->omega, &dom->omega_2n)) ||
        (st = pass(ctx, czd_sync(ctx->d))))
        goto dev_fail;
    tm->ntt_ms = bn254_now_ms() - t;
    /* 3. the MSMs: H from the device's h; the others from w, sent once
       (resident key) or with each array's points (streamed) */
    double tmsm = bn254_now_ms();
    cz_bn254_g1_jac pa, pb1, pc, ph;
    cz_bn254_g2_jac pb2;
    t = bn254_now_ms();
    if (dk) {
        /* c's scalars are w's private part: a view into the same buffer */
        cz_cuda_buf wc;
        if ((st = cz_cuda_bn254_g1_msm_dev(ctx, &pa, &dk->a, NULL, &wd, nv, 0, 0)))
            goto dev_fail;
        tm->msm_a_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g1_msm_dev(ctx, &pb1, &dk->b1, NULL, &wd, nv, 0, 0)))
            goto dev_fail;
        tm->msm_b1_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g2_msm_dev(ctx, &pb2, &dk->b2, NULL, &wd, nv, 0, 0)))
            goto dev_fail;
        tm->msm_b2_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        wc.dev = (char *)wd.dev + (npub + 1) * sizeof *w;
        wc.bytes = wd.bytes - (npub + 1) * sizeof *w;
        if ((st = cz_cuda_bn254_g1_msm_dev(ctx, &pc, &dk->c, NULL, &wc, nv - npub - 1, 0, 0)))
            goto dev_fail;
        tm->msm_c_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g1_msm_dev(ctx, &ph, &dk->h, NULL, &abc[0], n, 0, 0)))
            goto dev_fail;
        tm->msm_h_ms = bn254_now_ms() - t;
    } else {
        if ((st = cz_cuda_bn254_g1_msm(ctx, &pa, key->a, w, nv, 0)))
            goto dev_fail;
        tm->msm_a_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g1_msm(ctx, &pb1, key->b1, w, nv, 0)))
            goto dev_fail;
        tm->msm_b1_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g2_msm(ctx, &pb2, key->b2, w, nv, 0)))
            goto dev_fail;
        tm->msm_b2_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_bn254_g1_msm(ctx, &pc, key->c, w + npub + 1, nv - npub - 1, 0)))
            goto dev_fail;
        tm->msm_c_ms = bn254_now_ms() - t;
        t = bn254_now_ms();
        if ((st = cz_cuda_buf_alloc(ctx, &hb, n * sizeof(cz_bn254_g1_affine))) ||
            (st = cz_cuda_upload(ctx, &hb, 0, key->h, n * sizeof(cz_bn254_g1_affine))) ||
            (st = cz_cuda_bn254_g1_msm_dev(ctx, &ph, &hb, NULL, &abc[0], n, 0, 0)))
            goto dev_fail;
        tm->msm_h_ms = bn254_now_ms() - t;
    }
    tm->msm_ms = bn254_now_ms() - tmsm;
    {
        /* the bytes this proof sent: w once (resident), a, b, c from the
           host, and the streamed tier's points and per-MSM scalars */
        const size_t fb = sizeof(cz_bn254_fr), g1 = sizeof(cz_bn254_g1_affine);
        uint64_t h2d = dk ? nv * fb : 0;
        if (!dev_abc)
            h2d += 3 * n * fb;
        if (!dk)
            h2d += (3 * nv - npub - 1 + n) * g1 + nv * sizeof(cz_bn254_g2_affine) +
                   (4 * nv - npub - 1) * fb;
        tm->h2d_bytes = h2d;
    }
    /* 4. the assembly */
    t = bn254_now_ms();
    st = assemble_proof(out, key, &pa, &pb1, &pb2, &pc, &ph, rs, err, err_len);
    tm->assemble_ms = bn254_now_ms() - t;
    tm->total_ms = bn254_now_ms() - t0;
    goto out;

dev_fail:
    cz_io_fail(st, err, err_len, "prove", "GPU: %s", cz_cuda_ctx_error(ctx));
out:
    /* in reverse order of allocation: wd (resident key), a, b, c, hb
       (streamed); an upload that failed leaves its buffer allocated too */
    cz_cuda_buf_free(ctx, &hb);
    for (int i = 3; i-- > 0;)
        cz_cuda_buf_free(ctx, &abc[i]);
    cz_cuda_buf_free(ctx, &wd);
    if (v) {
        cz_wipe(v, 3 * n * sizeof *v);
        free(v);
    }
    cz_bn254_ntt_domain_destroy(dom);
    return st;
}

cz_status cz_cuda_bn254_groth16_prove(cz_cuda_ctx *ctx, cz_bn254_proof *out,
                                      const cz_bn254_zkey *key, const cz_bn254_fr *w,
                                      cz_threadpool *pool, const cz_bn254_fr *rs,
                                      cz_prove_timings *tm, char *err, size_t err_len)
{
    return cz_cuda_bn254_groth16_prove_dev(ctx, out, key, NULL, w, pool, rs, tm, err, err_len);
}

#else /* !CUZK_HAVE_CUDA: every entry point reports that CUDA is not built */

struct cz_cuda_ctx {
    int unused;
};

#define NO_CUDA CZ_ERR_UNSUPPORTED

bool cz_cuda_built(void) { return false; }
void cz_cuda_set_margin(size_t bytes) { (void)bytes; }
void cz_cuda_set_arena_cap(size_t bytes) { (void)bytes; }
size_t cz_cuda_arena_for_key(const struct cz_zkey *key) { (void)key; return 0; }
int cz_cuda_device_count(void) { return 0; }
unsigned long cz_cuda_stream_chunks(void) { return 0; }

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
cz_status cz_cuda_ntt_h_dev(cz_cuda_ctx *c, cz_cuda_buf abc[3], unsigned l, const cz_fr *w, const cz_fr *g)
{ (void)c, (void)abc, (void)l, (void)w, (void)g; return NO_CUDA; }
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
cz_status cz_cuda_g1_fixed_base(cz_cuda_ctx *c, cz_g1_affine *o, const cz_fr *s, size_t n)
{ (void)c, (void)o, (void)s, (void)n; return NO_CUDA; }
cz_status cz_cuda_g2_fixed_base(cz_cuda_ctx *c, cz_g2_affine *o, const cz_fr *s, size_t n)
{ (void)c, (void)o, (void)s, (void)n; return NO_CUDA; }
cz_status cz_cuda_decompress(cz_cuda_ctx *c, bool g2, void *o, const uint8_t *i, size_t n,
                             size_t *fb, size_t ch)
{ (void)c, (void)g2, (void)o, (void)i, (void)n, (void)fb, (void)ch; return NO_CUDA; }
cz_status cz_cuda_nkey_decompress(void *c, bool g2, void *o, const uint8_t *i, size_t n, size_t *fb)
{ (void)c, (void)g2, (void)o, (void)i, (void)n, (void)fb; return NO_CUDA; }
cz_status cz_cuda_eval_abc_compact_dev(cz_cuda_ctx *c, cz_cuda_buf abc[3], const cz_cuda_cmat *ma,
                                       const cz_cuda_cmat *mb, const cz_cuda_buf *k, uint32_t nk,
                                       const cz_cuda_buf *w, size_t rows)
{ (void)c, (void)abc, (void)ma, (void)mb, (void)k, (void)nk, (void)w, (void)rows; return NO_CUDA; }
cz_status cz_cuda_eval_abc_compact(cz_cuda_ctx *c, cz_fr *a, cz_fr *b, cz_fr *cc, const cz_cmat *ma,
                                   const cz_cmat *mb, const cz_fr *k, uint32_t nk, const cz_fr *w,
                                   size_t nw, size_t rows)
{ (void)c, (void)a, (void)b, (void)cc, (void)ma, (void)mb, (void)k, (void)nk, (void)w, (void)nw, (void)rows; return NO_CUDA; }
cz_status cz_cuda_gather_dev(cz_cuda_ctx *c, cz_cuda_buf *o, const cz_cuda_buf *i, const cz_cuda_buf *x, size_t n)
{ (void)c, (void)o, (void)i, (void)x, (void)n; return NO_CUDA; }
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
cz_status cz_cuda_bn254_ntt(cz_cuda_ctx *c, cz_bn254_fr *a, unsigned l, const cz_bn254_fr *w,
                            cz_cuda_ntt_kind k, const cz_bn254_fr *g)
{ (void)c, (void)a, (void)l, (void)w, (void)k, (void)g; return NO_CUDA; }
cz_status cz_cuda_bn254_ntt_dev(cz_cuda_ctx *c, cz_cuda_buf *a, unsigned l, const cz_bn254_fr *w,
                                cz_cuda_ntt_kind k, const cz_bn254_fr *g, unsigned f)
{ (void)c, (void)a, (void)l, (void)w, (void)k, (void)g, (void)f; return NO_CUDA; }
cz_status cz_cuda_bn254_ntt_h_dev(cz_cuda_ctx *c, cz_cuda_buf abc[3], unsigned l, const cz_bn254_fr *w,
                                  const cz_bn254_fr *g)
{ (void)c, (void)abc, (void)l, (void)w, (void)g; return NO_CUDA; }
#define NO_CUDA_BN254_GROUP(G)                                                                 \
    cz_status cz_cuda_bn254_##G##_msm(cz_cuda_ctx *c, cz_bn254_##G##_jac *o,                   \
                                      const cz_bn254_##G##_affine *b, const cz_bn254_fr *s,    \
                                      size_t n, unsigned f)                                    \
    { (void)c, (void)o, (void)b, (void)s, (void)n, (void)f; return NO_CUDA; }                  \
    cz_status cz_cuda_bn254_##G##_msm_dev(cz_cuda_ctx *c, cz_bn254_##G##_jac *o,               \
                                          const cz_cuda_buf *b, const cz_bn254_fr *sh,         \
                                          const cz_cuda_buf *sd, size_t n, unsigned f,         \
                                          unsigned w)                                          \
    { (void)c, (void)o, (void)b, (void)sh, (void)sd, (void)n, (void)f, (void)w; return NO_CUDA; } \
    cz_status cz_cuda_bn254_##G##_gen_points(cz_cuda_ctx *c, cz_cuda_buf *o, size_t n,         \
                                             const cz_bn254_fr *k, size_t m)                   \
    { (void)c, (void)o, (void)n, (void)k, (void)m; return NO_CUDA; }
NO_CUDA_BN254_GROUP(g1)
NO_CUDA_BN254_GROUP(g2)
#define NO_CUDA_BN254_FIELD(F)                                                                 \
    cz_status cz_cuda_bn254_##F##_op(cz_cuda_ctx *c, int op, cz_bn254_##F *o,                  \
                                     const cz_bn254_##F *a, const cz_bn254_##F *b, size_t n)   \
    { (void)c, (void)op, (void)o, (void)a, (void)b, (void)n; return NO_CUDA; }
NO_CUDA_BN254_FIELD(fr)
NO_CUDA_BN254_FIELD(fp)
NO_CUDA_BN254_FIELD(fp2)
cz_status cz_cuda_bn254_groth16_prove(cz_cuda_ctx *c, cz_bn254_proof *o, const cz_bn254_zkey *k,
                                      const cz_bn254_fr *w, cz_threadpool *p, const cz_bn254_fr *rs,
                                      cz_prove_timings *tm, char *err, size_t el)
{
    (void)c, (void)o, (void)k, (void)w, (void)p, (void)rs, (void)tm;
    if (err && el)
        snprintf(err, el, "cuzk was built without the CUDA backend");
    return NO_CUDA;
}
cz_status cz_cuda_bn254_groth16_prove_dev(cz_cuda_ctx *c, cz_bn254_proof *o,
                                          const cz_bn254_zkey *k, const cz_cuda_bn254_dkey *dk,
                                          const cz_bn254_fr *w, cz_threadpool *p,
                                          const cz_bn254_fr *rs, cz_prove_timings *tm, char *err,
                                          size_t el)
{
    (void)dk;
    return cz_cuda_bn254_groth16_prove(c, o, k, w, p, rs, tm, err, el);
}
size_t cz_cuda_bn254_key_bytes(const cz_bn254_zkey *key) { (void)key; return 0; }
size_t cz_cuda_bn254_arena_for_key(const cz_bn254_zkey *key) { (void)key; return 0; }
cz_status cz_cuda_bn254_key_upload(cz_cuda_ctx *c, cz_cuda_bn254_dkey *out, const cz_bn254_zkey *k)
{
    (void)c, (void)k;
    if (out)
        memset(out, 0, sizeof *out);
    return NO_CUDA;
}
cz_status cz_cuda_bn254_key_free(cz_cuda_ctx *c, cz_cuda_bn254_dkey *dk)
{
    (void)c, (void)dk;
    return CZ_OK;
}

#endif

#ifndef CUZK_GPU_MODEL /* the model's test hooks, in every other build */
bool cz_cuda_is_model(void) { return false; }
cz_status cz_cuda_model_fail_after(unsigned long k, cz_status st, bool sticky)
{
    (void)k, (void)st, (void)sticky;
    return CZ_ERR_UNSUPPORTED;
}
unsigned long cz_cuda_model_calls(void) { return 0; }
#endif
