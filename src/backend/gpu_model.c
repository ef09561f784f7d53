/*
 * gpu_model.c: a model of the CUDA device on the host CPU, for tests.
 *
 * DESIGN. Built only with -DCUZK_CUDA=MODEL (which defines CUZK_GPU_MODEL
 * and CUZK_HAVE_CUDA). It implements the kernels' internal interface
 * (cuda/czd.h) with the host field, curve and MSM code, so that the whole
 * CUDA backend above it (backend/cuda_glue.c: arena, resident keys, the
 * streamed tier, out-of-memory and fault handling, several devices) runs
 * and is tested, under the sanitizers too, on machines without a GPU. It
 * models what the glue can observe of a device and nothing of its speed:
 *   - each device has CUZK_GPU_MODEL_MB of memory (default 65536), shared
 *     by the contexts of the process; an arena is one lazily committed
 *     mapping, with buffers stacked as in cuda/ctx.cu;
 *   - every device pointer a call receives must lie inside one allocated
 *     buffer (a copy or kernel outside them fails as an illegal address
 *     would, which a real GPU does not always report);
 *   - an MSM needs about the scratch cuda/msm.cu takes and fails with
 *     CZ_ERR_NOMEM when the arena lacks it; its result comes back as two
 *     128-bit windows of two parts each, which the glue combines;
 *   - faults: czd_inject_fault leaves the context sticky-failed until
 *     czd_device_reset, which invalidates every context of the device;
 *   - a side copy (czd_copy_h2d_side) runs on its caller's thread, beside
 *     the owner's calls, counted and failed like any other call (its
 *     message in the caller's buffer, a trap marking the context).
 * BN254's MSMs, point generation, fields and NTT (czd.h's CZD_BN254_G1/G2,
 * fields 3..5, czd_ntt_bn254) are modelled the same way over the host's
 * BN254 code.
 * Knobs (environment): CUZK_GPU_MODEL_DEVICES (default 1),
 * CUZK_GPU_MODEL_MB, CUZK_GPU_MODEL_FAIL=k:nomem|error|sticky (the k-th
 * device call of the process fails: out of memory, as when another
 * process takes the card; an ordinary error; a trap that needs a reset),
 * CUZK_GPU_MODEL_RESET=fail (contexts cannot be made again after a reset,
 * as seen on the H200 machine). Tests arm the same failures with
 * czd_model_fail_after.
 */
#ifdef CUZK_GPU_MODEL

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../cuda/czd.h"
#include "curve/bn254_curve.h"
#include "curve/curve.h"
#include "field/bn254.h"
#include "field/field.h"
#include "msm/msm.h"
#include "msm/msm_bn254.h"
#include "util/threadpool.h"

#define MODEL_MAX_DEVICES 16
#define MODEL_MAX_BUFS 64 /* as CZD_MAX_BUFS */
#define MODEL_SMS 132     /* the H200's multiprocessors, for scratch sizes */

struct czd_ctx {
    int device;
    unsigned gen;         /* the device's reset generation at creation */
    _Atomic int sticky;   /* a trap happened: every call fails until a reset
                             (set from a side copy's thread too) */
    char *arena;
    size_t arena_bytes;
    size_t used;          /* persistent buffers: [0, used) */
    size_t buf_off[MODEL_MAX_BUFS];
    int nbufs;
    char name[64];
    char err[512];
};

static struct {
    pthread_mutex_t lock;
    size_t taken[MODEL_MAX_DEVICES]; /* arena bytes held per device */
    unsigned gen[MODEL_MAX_DEVICES]; /* bumped by each reset */
    int was_reset[MODEL_MAX_DEVICES];
    unsigned long calls;             /* device calls so far */
    int armed_env;                   /* CUZK_GPU_MODEL_FAIL was read */
    unsigned long fail_at;           /* 0: none */
    cz_status fail_st;
    int fail_sticky;
} g_model = {.lock = PTHREAD_MUTEX_INITIALIZER};

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : dflt;
}

static size_t device_bytes(void) { return (size_t)env_long("CUZK_GPU_MODEL_MB", 65536) << 20; }

static cz_status fail(czd_ctx *ctx, cz_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    return st;
}

/* Every device call starts here: a context that trapped or outlived a
   reset fails, and so does the call an armed failure names. The message
   goes to err (the context's, or a side copy's own). */
static cz_status launch_to(czd_ctx *ctx, const char *what, char *err, size_t err_len)
{
    pthread_mutex_lock(&g_model.lock);
    if (!g_model.armed_env) {
        g_model.armed_env = 1;
        const char *f = getenv("CUZK_GPU_MODEL_FAIL");
        char kind[16] = "";
        unsigned long k;
        if (f && sscanf(f, "%lu:%15s", &k, kind) == 2) {
            g_model.fail_at = k;
            g_model.fail_st = strcmp(kind, "nomem") ? CZ_ERR_DEVICE : CZ_ERR_NOMEM;
            g_model.fail_sticky = !strcmp(kind, "sticky");
        }
    }
    unsigned gen = g_model.gen[ctx->device];
    unsigned long call = ++g_model.calls;
    int inject = call == g_model.fail_at, sticky = g_model.fail_sticky;
    cz_status fst = g_model.fail_st;
    if (inject)
        g_model.fail_at = 0;
    pthread_mutex_unlock(&g_model.lock);
    if (gen != ctx->gen) {
        snprintf(err, err_len, "cuda model %s: context destroyed by a device reset", what);
        return CZ_ERR_DEVICE;
    }
    if (ctx->sticky) {
        snprintf(err, err_len, "cuda model %s: unspecified launch failure (an earlier trap)", what);
        return CZ_ERR_DEVICE;
    }
    if (inject) {
        if (sticky)
            ctx->sticky = 1;
        snprintf(err, err_len, "cuda model %s: %s (injected at device call %lu)", what,
                 fst == CZ_ERR_NOMEM ? "out of memory"
                 : sticky            ? "unspecified launch failure (a trap)"
                                     : "invalid argument",
                 call);
        return fst;
    }
    return CZ_OK;
}

static cz_status launch(czd_ctx *ctx, const char *what)
{
    return launch_to(ctx, what, ctx->err, sizeof ctx->err);
}

cz_status czd_model_fail_after(unsigned long k, cz_status st, int sticky)
{
    pthread_mutex_lock(&g_model.lock);
    g_model.armed_env = 1;
    g_model.fail_at = k ? g_model.calls + k : 0;
    g_model.fail_st = st;
    g_model.fail_sticky = sticky;
    pthread_mutex_unlock(&g_model.lock);
    return CZ_OK;
}

unsigned long czd_model_calls(void)
{
    pthread_mutex_lock(&g_model.lock);
    unsigned long n = g_model.calls;
    pthread_mutex_unlock(&g_model.lock);
    return n;
}

/* [p, p + bytes) inside one allocated buffer; its end through *end */
static int in_buffer(const czd_ctx *ctx, const void *p, size_t bytes, const char **end)
{
    const char *c = p;
    for (int i = 0; i < ctx->nbufs; i++) {
        const char *b = ctx->arena + ((ctx->buf_off[i] + 255) & ~(size_t)255);
        const char *e = ctx->arena + (i + 1 < ctx->nbufs ? ctx->buf_off[i + 1] : ctx->used);
        if (c >= b && c <= e && bytes <= (size_t)(e - c)) {
            if (end)
                *end = e;
            return 1;
        }
    }
    return 0;
}

#define NEED(ctx, p, bytes, what)                                                              \
    do {                                                                                       \
        if (!in_buffer((ctx), (p), (bytes), NULL))                                             \
            return fail((ctx), CZ_ERR_DEVICE,                                                  \
                        "cuda model: %s: %zu bytes at %p outside the allocated buffers "      \
                        "(an illegal address)",                                                \
                        (what), (size_t)(bytes), (const void *)(p));                           \
    } while (0)

/* ---- devices and contexts ---- */

int czd_device_count(void)
{
    long n = env_long("CUZK_GPU_MODEL_DEVICES", 1);
    return n < 0 ? 0 : n > MODEL_MAX_DEVICES ? MODEL_MAX_DEVICES : (int)n;
}

cz_status czd_ctx_create(czd_ctx **out, int device, size_t max_bytes, size_t margin, char *err,
                         size_t err_len)
{
    *out = NULL;
    if (device < 0 || device >= czd_device_count()) {
        snprintf(err, err_len, "cuda model: no device %d", device);
        return CZ_ERR_DEVICE;
    }
    const char *rs = getenv("CUZK_GPU_MODEL_RESET");
    pthread_mutex_lock(&g_model.lock);
    if (g_model.was_reset[device] && rs && !strcmp(rs, "fail")) {
        pthread_mutex_unlock(&g_model.lock);
        snprintf(err, err_len, "CUDA device %d: CUDA-capable device(s) is/are busy or unavailable "
                 "(cuda model)", device);
        return CZ_ERR_DEVICE;
    }
    size_t total = device_bytes(), free_b = total - g_model.taken[device];
    if (margin == 0)
        margin = (size_t)512 << 20;
    if (free_b <= margin + ((size_t)64 << 20)) {
        pthread_mutex_unlock(&g_model.lock);
        snprintf(err, err_len, "CUDA device %d: only %zu bytes free (margin %zu)", device, free_b,
                 margin);
        return CZ_ERR_NOMEM;
    }
    size_t want = free_b - margin;
    if (max_bytes && want > max_bytes)
        want = max_bytes;
    want &= ~(size_t)((1 << 20) - 1);
    g_model.taken[device] += want;
    unsigned gen = g_model.gen[device];
    pthread_mutex_unlock(&g_model.lock);

    czd_ctx *ctx = calloc(1, sizeof *ctx);
    void *arena = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    if (!ctx || arena == MAP_FAILED) {
        free(ctx);
        if (arena != MAP_FAILED)
            munmap(arena, want);
        pthread_mutex_lock(&g_model.lock);
        g_model.taken[device] -= want;
        pthread_mutex_unlock(&g_model.lock);
        snprintf(err, err_len, "CUDA device %d: arena of %zu bytes: out of memory (cuda model)",
                 device, want);
        return CZ_ERR_NOMEM;
    }
    ctx->device = device;
    ctx->gen = gen;
    ctx->arena = arena;
    ctx->arena_bytes = want;
    snprintf(ctx->name, sizeof ctx->name, "cuzk GPU model %d (host CPU)", device);
    *out = ctx;
    return CZ_OK;
}

void czd_ctx_destroy(czd_ctx *ctx)
{
    if (!ctx)
        return;
    munmap(ctx->arena, ctx->arena_bytes);
    pthread_mutex_lock(&g_model.lock);
    g_model.taken[ctx->device] -= ctx->arena_bytes;
    pthread_mutex_unlock(&g_model.lock);
    free(ctx);
}

const char *czd_ctx_error(const czd_ctx *ctx) { return ctx ? ctx->err : "no context"; }
const char *czd_device_name(const czd_ctx *ctx) { return ctx->name; }
size_t czd_arena_bytes(const czd_ctx *ctx) { return ctx->arena_bytes; }
size_t czd_arena_free(const czd_ctx *ctx) { return ctx->arena_bytes - ctx->used; }
int czd_sm_count(const czd_ctx *ctx) { (void)ctx; return MODEL_SMS; }

cz_status czd_bind(czd_ctx *ctx)
{
    pthread_mutex_lock(&g_model.lock);
    unsigned gen = g_model.gen[ctx->device];
    pthread_mutex_unlock(&g_model.lock);
    if (gen != ctx->gen)
        return fail(ctx, CZ_ERR_DEVICE, "cuda model: context destroyed by a device reset");
    return CZ_OK;
}

int czd_healthy(czd_ctx *ctx) { return !ctx->sticky && czd_bind(ctx) == CZ_OK; }

void czd_device_reset(int device)
{
    if (device < 0 || device >= MODEL_MAX_DEVICES)
        return;
    pthread_mutex_lock(&g_model.lock);
    g_model.gen[device]++;
    g_model.was_reset[device] = 1;
    pthread_mutex_unlock(&g_model.lock);
}

cz_status czd_inject_fault(czd_ctx *ctx)
{
    cz_status st = launch(ctx, "k_trap");
    if (st != CZ_OK)
        return st;
    ctx->sticky = 1;
    return fail(ctx, CZ_ERR_DEVICE, "cuda model k_trap: unspecified launch failure (a trap)");
}

/* ---- buffers and copies (as cuda/ctx.cu) ---- */

cz_status czd_buf_alloc(czd_ctx *ctx, void **dev, size_t bytes)
{
    size_t off = (ctx->used + 255) & ~(size_t)255;
    if (ctx->nbufs == MODEL_MAX_BUFS)
        return fail(ctx, CZ_ERR_NOMEM, "too many device buffers (%d)", MODEL_MAX_BUFS);
    if (off > ctx->arena_bytes || bytes > ctx->arena_bytes - off)
        return fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: %zu bytes wanted, %zu free", bytes,
                    ctx->arena_bytes - ctx->used);
    ctx->buf_off[ctx->nbufs++] = ctx->used;
    ctx->used = off + bytes;
    *dev = ctx->arena + off;
    return CZ_OK;
}

cz_status czd_buf_free(czd_ctx *ctx, void *dev)
{
    if (!dev)
        return CZ_OK;
    if (ctx->nbufs == 0)
        return fail(ctx, CZ_ERR_ARG, "device buffer freed twice or not from this context");
    size_t prev = ctx->buf_off[ctx->nbufs - 1];
    if ((char *)dev != ctx->arena + ((prev + 255) & ~(size_t)255))
        return fail(ctx, CZ_ERR_ARG, "device buffers must be freed in reverse order");
    ctx->nbufs--;
    ctx->used = prev;
    return CZ_OK;
}

/* a copy; dev (the device side) must lie in an allocated buffer */
static cz_status copy(czd_ctx *ctx, void *to, const void *from, size_t bytes, const void *dev,
                      const char *what)
{
    cz_status st = launch(ctx, "cudaMemcpyAsync");
    if (st != CZ_OK)
        return st;
    NEED(ctx, dev, bytes, what);
    memcpy(to, from, bytes);
    return CZ_OK;
}

cz_status czd_copy_h2d(czd_ctx *ctx, void *dev, const void *host, size_t bytes)
{
    return copy(ctx, dev, host, bytes, dev, "copy to the device");
}

/* from another thread while the owner runs kernels: the buffers are not
   allocated or freed meanwhile (the glue waits for the copy first), so
   reading their table is safe */
cz_status czd_copy_h2d_side(czd_ctx *ctx, void *dev, const void *host, size_t bytes,
                            void (*host_copy)(void *dst, const void *src, size_t bytes), char *err,
                            size_t err_len)
{
    if (bytes == 0)
        return CZ_OK;
    cz_status st = launch_to(ctx, "cudaMemcpyAsync (second stream)", err, err_len);
    if (st != CZ_OK)
        return st;
    if (!in_buffer(ctx, dev, bytes, NULL)) {
        snprintf(err, err_len,
                 "cuda model: copy to the device (second stream): %zu bytes at %p outside the "
                 "allocated buffers (an illegal address)",
                 bytes, dev);
        return CZ_ERR_DEVICE;
    }
    if (host_copy) /* as the device's staging would */
        host_copy(dev, host, bytes);
    else
        memcpy(dev, host, bytes);
    return CZ_OK;
}

cz_status czd_copy_d2h(czd_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    return copy(ctx, host, dev, bytes, dev, "copy from the device");
}

cz_status czd_host_register(czd_ctx *ctx, void *host, size_t bytes)
{
    (void)host, (void)bytes;
    return launch(ctx, "cudaHostRegister");
}

cz_status czd_host_unregister(czd_ctx *ctx, void *host)
{
    (void)host;
    return launch(ctx, "cudaHostUnregister");
}

cz_status czd_host_pin(int device, void *host, size_t bytes, char *err, size_t err_len)
{
    (void)host, (void)bytes;
    if (device < 0 || device >= czd_device_count()) {
        snprintf(err, err_len, "cuda model: no device %d", device);
        return CZ_ERR_DEVICE;
    }
    return CZ_OK;
}

void czd_host_unpin(void *host) { (void)host; }

cz_status czd_sync(czd_ctx *ctx) { return launch(ctx, "cudaStreamSynchronize"); }

/* ---- BN254 (czd.h's groups CZD_BN254_G1/G2, fields 3..5, czd_ntt_bn254):
 * the same models over the host's BN254 code ---- */

#define BN254_FIELD_OPS(F, T)                                                                  \
    static void bn254_field_##F(int op, T *out, const T *a, const T *b, size_t n)              \
    {                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                       \
            T r;                                                                               \
            switch (op) {                                                                      \
            case 0: cz_bn254_##F##_add(&r, &a[i], &b[i]); break;                               \
            case 1: cz_bn254_##F##_sub(&r, &a[i], &b[i]); break;                               \
            case 2: cz_bn254_##F##_mul(&r, &a[i], &b[i]); break;                               \
            case 3: cz_bn254_##F##_sqr(&r, &a[i]); break;                                      \
            case 4: cz_bn254_##F##_to_limbs((uint64_t *)&r, &a[i]); break;                     \
            default: cz_bn254_##F##_inv(&r, &a[i]); break;                                     \
            }                                                                                  \
            out[i] = r;                                                                        \
        }                                                                                      \
    }
BN254_FIELD_OPS(fr, cz_bn254_fr)
BN254_FIELD_OPS(fp, cz_bn254_fp)

static void bn254_field_fp2(int op, cz_bn254_fp2 *out, const cz_bn254_fp2 *a,
                            const cz_bn254_fp2 *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cz_bn254_fp2 r;
        switch (op) {
        case 0: cz_bn254_fp2_add(&r, &a[i], &b[i]); break;
        case 1: cz_bn254_fp2_sub(&r, &a[i], &b[i]); break;
        case 2: cz_bn254_fp2_mul(&r, &a[i], &b[i]); break;
        case 3: cz_bn254_fp2_sqr(&r, &a[i]); break;
        case 4:
            cz_bn254_fp_to_limbs((uint64_t *)&r.c0, &a[i].c0);
            cz_bn254_fp_to_limbs((uint64_t *)&r.c1, &a[i].c1);
            break;
        default: cz_bn254_fp2_inv(&r, &a[i]); break;
        }
        out[i] = r;
    }
}

static cz_status bn254_field_op(czd_ctx *ctx, int field, int op, void *dev_out, const void *dev_a,
                                const void *dev_b, size_t n)
{
    cz_status st = launch(ctx, "k_field_op");
    if (st != CZ_OK)
        return st;
    size_t eb = field == 5 ? sizeof(cz_bn254_fp2) : sizeof(cz_bn254_fr);
    NEED(ctx, dev_out, n * eb, "k_field_op out");
    NEED(ctx, dev_a, n * eb, "k_field_op a");
    NEED(ctx, dev_b, n * eb, "k_field_op b");
    if (field == 3)
        bn254_field_fr(op, dev_out, dev_a, dev_b, n);
    else if (field == 4)
        bn254_field_fp(op, dev_out, dev_a, dev_b, n);
    else
        bn254_field_fp2(op, dev_out, dev_a, dev_b, n);
    return CZ_OK;
}

/* The test points of a group of either curve (FN the function, T the
   group's prefix, FR its scalar type): B_j = k_j G; P_i = B_i (i < m),
   else B_{i mod m} + B_{(i/m) mod m}; made in Jacobian form and brought to
   affine 4096 at a time */
#define GEN_POINTS(FN, T, FR)                                                                  \
    static cz_status FN(T##_affine *out, size_t n, const FR *k, size_t m)                      \
    {                                                                                          \
        size_t chunk = 4096;                                                                   \
        T##_affine *base = malloc(m * sizeof *base);                                           \
        T##_jac *tmp = malloc((m > chunk ? m : chunk) * sizeof *tmp), gen;                     \
        if (!base || !tmp) {                                                                   \
            free(base);                                                                        \
            free(tmp);                                                                         \
            return CZ_ERR_NOMEM;                                                               \
        }                                                                                      \
        T##_affine g;                                                                          \
        T##_generator(&g);                                                                     \
        T##_jac_from_affine(&gen, &g);                                                         \
        for (size_t j = 0; j < m; j++) {                                                       \
            uint64_t s[4];                                                                     \
            FR##_to_limbs(s, &k[j]);                                                           \
            T##_jac_mul_var(&tmp[j], &gen, s, 4);                                              \
        }                                                                                      \
        T##_jac_batch_to_affine(base, tmp, m);                                                 \
        for (size_t i0 = 0; i0 < n; i0 += chunk) {                                             \
            size_t cnt = n - i0 < chunk ? n - i0 : chunk;                                      \
            for (size_t q = 0; q < cnt; q++) {                                                 \
                size_t i = i0 + q;                                                             \
                T##_jac_from_affine(&tmp[q], &base[i % m]);                                    \
                if (i >= m)                                                                    \
                    T##_jac_add_affine(&tmp[q], &tmp[q], &base[(i / m) % m]);                  \
            }                                                                                  \
            T##_jac_batch_to_affine(out + i0, tmp, cnt);                                       \
        }                                                                                      \
        free(base);                                                                            \
        free(tmp);                                                                             \
        return CZ_OK;                                                                          \
    }

#define BN254_GROUP(G, F)                                                                      \
    GEN_POINTS(bn254_gen_##G, cz_bn254_##G, cz_bn254_fr)                                       \
    /* as msm_parts_g1 below: windows of 128 bits, two parts each */                           \
    static cz_status bn254_msm_parts_##G(cz_bn254_##G##_xyzz *parts,                           \
                                         const cz_bn254_##G##_affine *pts,                     \
                                         const cz_bn254_fr *half[2], size_t n)                 \
    {                                                                                          \
        cz_msm_opts o = {.pool = cz_threadpool_global(), .form = CZ_MSM_SCALAR_PLAIN};         \
        size_t h = n / 2, lo[2] = {0, h}, cnt[2] = {h, n - h};                                 \
        for (int w = 0; w < 2; w++)                                                            \
            for (int k = 0; k < 2; k++) {                                                      \
                cz_bn254_##G##_jac j;                                                          \
                cz_status st = cz_bn254_##G##_msm(&j, pts + lo[k], half[w] + lo[k], cnt[k], &o); \
                if (st != CZ_OK)                                                               \
                    return st;                                                                 \
                cz_bn254_##G##_xyzz *x = &parts[w * 2 + k];                                    \
                if (cz_bn254_##G##_jac_is_infinity(&j)) {                                      \
                    cz_bn254_##G##_xyzz_infinity(x);                                           \
                    continue;                                                                  \
                }                                                                              \
                x->x = j.x;                                                                    \
                x->y = j.y;                                                                    \
                cz_bn254_##F##_sqr(&x->zz, &j.z);                                              \
                cz_bn254_##F##_mul(&x->zzz, &x->zz, &j.z);                                     \
            }                                                                                  \
        return CZ_OK;                                                                          \
    }
BN254_GROUP(g1, fp)
BN254_GROUP(g2, fp2)

static cz_status bn254_gen_points(czd_ctx *ctx, int group, void *dev_out, size_t n, const void *k,
                                  size_t m)
{
    cz_status st = launch(ctx, "k_gen_points");
    if (st != CZ_OK)
        return st;
    int g1 = group == CZD_BN254_G1;
    NEED(ctx, dev_out, n * (g1 ? sizeof(cz_bn254_g1_affine) : sizeof(cz_bn254_g2_affine)),
         "k_gen_points out");
    st = g1 ? bn254_gen_g1(dev_out, n, k, m) : bn254_gen_g2(dev_out, n, k, m);
    return st == CZ_OK ? st : fail(ctx, st, "point generation: out of host memory");
}

/* parts as czd_msm's model (below): 2 windows of 128 bits, 2 parts each;
   scratch as msm.cu's for one window, with BN254's sizes */
static cz_status bn254_msm(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt,
                           unsigned *c, const void *dev_points, const void *dev_scalars, size_t n,
                           unsigned flags, unsigned window_bits)
{
    const int plain = (flags & CZD_MSM_PLAIN) != 0, g1 = group == CZD_BN254_G1;
    *nwin = *cnt = *c = 0;
    if (n == 0)
        return CZ_OK;
    if (n >= ((size_t)1 << 31))
        return fail(ctx, CZ_ERR_ARG, "MSM of %zu points: at most 2^31 - 1", n);
    if ((flags & CZD_MSM_GENERAL) && (flags & CZD_MSM_BITS))
        return fail(ctx, CZ_ERR_ARG, "MSM: both the general and the bit path forced");
    cz_status st = launch(ctx, "k_accumulate");
    if (st != CZ_OK)
        return st;
    unsigned wb = window_bits, lg = 0;
    while (((size_t)1 << lg) < n)
        lg++;
    if (wb == 0) {
        wb = g1 ? (lg > 7 ? lg - 3 : 4) : (lg >= 21 ? 16 : lg > 13 ? lg - 9 : 4);
        if (wb > 16)
            wb = 16;
    }
    if (wb < 2 || wb > 22)
        return fail(ctx, CZ_ERR_ARG, "MSM window of %u bits not in 2..22", wb);
    size_t xb = g1 ? sizeof(cz_bn254_g1_xyzz) : sizeof(cz_bn254_g2_xyzz);
    unsigned nw = 254 % wb ? (254 + wb - 1) / wb : 254 / wb + 1;
    size_t nbw = (size_t)1 << (wb - 1);
    size_t need = n * sizeof(cz_bn254_fr) + nw * nbw * xb + n * 16 + nbw * 8 + 1024 +
                  3 * ((size_t)MODEL_SMS * 512 + 1) * xb + ((size_t)64 << 20);
    if (need > ctx->arena_bytes - ctx->used)
        return fail(ctx, CZ_ERR_NOMEM, "device arena too small for an MSM of %zu points", n);
    NEED(ctx, dev_points, n * (g1 ? sizeof(cz_bn254_g1_affine) : sizeof(cz_bn254_g2_affine)),
         "MSM points");
    NEED(ctx, dev_scalars, n * sizeof(cz_bn254_fr), "MSM scalars");
    cz_bn254_fr *half = malloc(2 * n * sizeof *half);
    if (!half)
        return fail(ctx, CZ_ERR_NOMEM, "MSM: out of host memory (cuda model)");
    const cz_bn254_fr *s = dev_scalars;
    for (size_t i = 0; i < n; i++) {
        uint64_t v[4];
        if (plain) {
            /* any 256-bit integer, taken mod r */
            cz_bn254_fr t, r1;
            uint64_t x[4];
            memcpy(x, &s[i], sizeof x);
            /* x = hi 2^128 + lo, each of hi, lo and 2^128 below r */
            uint64_t lo[4] = {x[0], x[1], 0, 0}, hi[4] = {x[2], x[3], 0, 0}, p128[4] = {0, 0, 1, 0};
            cz_bn254_fr flo, fhi, f128;
            cz_bn254_fr_from_limbs(&flo, lo);
            cz_bn254_fr_from_limbs(&fhi, hi);
            cz_bn254_fr_from_limbs(&f128, p128);
            cz_bn254_fr_mul(&t, &fhi, &f128);
            cz_bn254_fr_add(&r1, &t, &flo);
            cz_bn254_fr_to_limbs(v, &r1);
        } else {
            cz_bn254_fr_to_limbs(v, &s[i]);
        }
        uint64_t lo[4] = {v[0], v[1], 0, 0}, hi[4] = {v[2], v[3], 0, 0};
        memcpy(&half[i], lo, sizeof lo);
        memcpy(&half[n + i], hi, sizeof hi);
    }
    const cz_bn254_fr *halves[2] = {half, half + n};
    st = g1 ? bn254_msm_parts_g1(parts, dev_points, halves, n)
            : bn254_msm_parts_g2(parts, dev_points, halves, n);
    free(half);
    if (st != CZ_OK)
        return fail(ctx, st, "MSM of %zu points failed on the host (cuda model)", n);
    *nwin = 2;
    *cnt = 2;
    *c = 128;
    return CZ_OK;
}

/* ---- arithmetic checks ---- */

#define FIELD_OPS(F, T)                                                                        \
    static void field_##F(int op, T *out, const T *a, const T *b, size_t n)                    \
    {                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                       \
            T r;                                                                               \
            switch (op) {                                                                      \
            case 0: cz_##F##_add(&r, &a[i], &b[i]); break;                                     \
            case 1: cz_##F##_sub(&r, &a[i], &b[i]); break;                                     \
            case 2: cz_##F##_mul(&r, &a[i], &b[i]); break;                                     \
            case 3: cz_##F##_sqr(&r, &a[i]); break;                                            \
            case 4: cz_##F##_to_limbs((uint64_t *)&r, &a[i]); break; /* a / R */               \
            default: cz_##F##_inv(&r, &a[i]); break;                                           \
            }                                                                                  \
            out[i] = r;                                                                        \
        }                                                                                      \
    }
FIELD_OPS(fr, cz_fr)
FIELD_OPS(fp, cz_fp)

static void field_fp2(int op, cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cz_fp2 r;
        switch (op) {
        case 0: cz_fp2_add(&r, &a[i], &b[i]); break;
        case 1: cz_fp2_sub(&r, &a[i], &b[i]); break;
        case 2: cz_fp2_mul(&r, &a[i], &b[i]); break;
        case 3: cz_fp2_sqr(&r, &a[i]); break;
        case 4:
            cz_fp_to_limbs((uint64_t *)&r.c0, &a[i].c0);
            cz_fp_to_limbs((uint64_t *)&r.c1, &a[i].c1);
            break;
        default: cz_fp2_inv(&r, &a[i]); break;
        }
        out[i] = r;
    }
}

cz_status czd_field_op(czd_ctx *ctx, int field, int op, void *dev_out, const void *dev_a,
                       const void *dev_b, size_t n)
{
    if (n == 0)
        return CZ_OK;
    if (field >= 3 && field <= 5)
        return bn254_field_op(ctx, field, op, dev_out, dev_a, dev_b, n);
    cz_status st = launch(ctx, "k_field_op");
    if (st != CZ_OK)
        return st;
    size_t eb = field == 0 ? sizeof(cz_fr) : field == 1 ? sizeof(cz_fp) : sizeof(cz_fp2);
    if (field < 0 || field > 2)
        return fail(ctx, CZ_ERR_ARG, "unknown field %d", field);
    NEED(ctx, dev_out, n * eb, "k_field_op out");
    NEED(ctx, dev_a, n * eb, "k_field_op a");
    NEED(ctx, dev_b, n * eb, "k_field_op b");
    if (field == 0)
        field_fr(op, dev_out, dev_a, dev_b, n);
    else if (field == 1)
        field_fp(op, dev_out, dev_a, dev_b, n);
    else
        field_fp2(op, dev_out, dev_a, dev_b, n);
    return CZ_OK;
}

#define CURVE_TEST(G)                                                                          \
    static void curve_test_##G(cz_##G##_xyzz *madd, cz_##G##_xyzz *add, cz_##G##_xyzz *dbl,    \
                               const cz_##G##_affine *a, const cz_##G##_affine *b, size_t n)   \
    {                                                                                          \
        for (size_t i = 0; i < n; i++) {                                                       \
            cz_##G##_xyzz pa, pb, da, db;                                                      \
            cz_##G##_xyzz_from_affine(&pa, &a[i]);                                             \
            cz_##G##_xyzz_from_affine(&pb, &b[i]);                                             \
            cz_##G##_xyzz_add_affine(&madd[i], &pa, &b[i]);                                    \
            cz_##G##_xyzz_dbl(&da, &pa);                                                       \
            cz_##G##_xyzz_dbl(&db, &pb);                                                       \
            cz_##G##_xyzz_add(&add[i], &da, &db);                                              \
            dbl[i] = da;                                                                       \
        }                                                                                      \
    }
CURVE_TEST(g1)
CURVE_TEST(g2)

cz_status czd_curve_test(czd_ctx *ctx, int group, void *dev_sum_madd, void *dev_sum_add,
                         void *dev_dbl, const void *dev_a, const void *dev_b, size_t n)
{
    if (n == 0)
        return CZ_OK;
    if (group != 1 && group != 2) /* as cuda/ctx.cu: BN254's is not instantiated */
        return fail(ctx, CZ_ERR_ARG, "curve test: group %d not instantiated", group);
    cz_status st = launch(ctx, "k_curve_test");
    if (st != CZ_OK)
        return st;
    size_t xb = group == 1 ? sizeof(cz_g1_xyzz) : sizeof(cz_g2_xyzz);
    size_t ab = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    NEED(ctx, dev_sum_madd, n * xb, "k_curve_test madd");
    NEED(ctx, dev_sum_add, n * xb, "k_curve_test add");
    NEED(ctx, dev_dbl, n * xb, "k_curve_test dbl");
    NEED(ctx, dev_a, n * ab, "k_curve_test a");
    NEED(ctx, dev_b, n * ab, "k_curve_test b");
    if (group == 1)
        curve_test_g1(dev_sum_madd, dev_sum_add, dev_dbl, dev_a, dev_b, n);
    else
        curve_test_g2(dev_sum_madd, dev_sum_add, dev_dbl, dev_a, dev_b, n);
    return CZ_OK;
}

GEN_POINTS(gen_g1, cz_g1, cz_fr)
GEN_POINTS(gen_g2, cz_g2, cz_fr)

cz_status czd_gen_points(czd_ctx *ctx, int group, void *dev_out, size_t n, const void *k, size_t m)
{
    if (m == 0 || m > ((size_t)1 << 20))
        return fail(ctx, CZ_ERR_ARG, "point generation: m = %zu not in 1..2^20", m);
    if (group == CZD_BN254_G1 || group == CZD_BN254_G2)
        return bn254_gen_points(ctx, group, dev_out, n, k, m);
    cz_status st = launch(ctx, "k_gen_points");
    if (st != CZ_OK)
        return st;
    NEED(ctx, dev_out, n * (group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine)),
         "k_gen_points out");
    st = group == 1 ? gen_g1(dev_out, n, k, m) : gen_g2(dev_out, n, k, m);
    return st == CZ_OK ? st : fail(ctx, st, "point generation: out of host memory");
}

/* ---- NTT: radix-2 decimation in frequency, as specified in czd.h ---- */

/* czd_ntt and czd_ntt_h over a scalar field F (type T): BLS12-381's Fr
   (log_n <= 31) and BN254's (czd_ntt_bn254 / czd_ntt_h_bn254, log_n <=
   28, the 2-adicity of its r); KNAME is the pass kernel a fault names. */
#define MODEL_NTT(SUFFIX, F, T, MAX_LOG, KNAME)                                                \
    static void pow_table##SUFFIX(T *t, const T *b, size_t count)                              \
    {                                                                                          \
        if (count)                                                                             \
            cz_##F##_one(&t[0]);                                                               \
        for (size_t j = 1; j < count; j++)                                                     \
            cz_##F##_mul(&t[j], &t[j - 1], b);                                                 \
    }                                                                                          \
    cz_status czd_ntt##SUFFIX(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,   \
                              const void *pre_g, int bitrev_out, const void *post_c,           \
                              const void *post_h)                                              \
    {                                                                                          \
        if (log_n > (MAX_LOG))                                                                 \
            return fail(ctx, CZ_ERR_ARG, "NTT size 2^%u too large (at most 2^%u)", log_n,      \
                        (unsigned)(MAX_LOG));                                                  \
        cz_status st = launch(ctx, KNAME);                                                     \
        if (st != CZ_OK)                                                                       \
            return st;                                                                         \
        size_t n = (size_t)1 << log_n;                                                         \
        T *a = dev_a;                                                                          \
        NEED(ctx, a, n * sizeof(T), "NTT data");                                               \
        T *t = malloc((n > 1 ? n / 2 : 1) * sizeof *t);                                        \
        if (!t)                                                                                \
            return fail(ctx, CZ_ERR_NOMEM, "NTT 2^%u: out of host memory (cuda model)", log_n); \
        T x;                                                                                   \
        if (pre_g) {                                                                           \
            cz_##F##_one(&x);                                                                  \
            for (size_t j = 0; j < n; j++) {                                                   \
                cz_##F##_mul(&a[j], &a[j], &x);                                                \
                cz_##F##_mul(&x, &x, pre_g);                                                   \
            }                                                                                  \
        }                                                                                      \
        /* twiddles w^j, j < n/2; a stage of half-length len uses w^(j n / 2len) */           \
        pow_table##SUFFIX(t, w_host, n / 2);                                                   \
        for (size_t len = n / 2; len >= 1; len /= 2) {                                         \
            size_t stride = n / (2 * len);                                                     \
            for (size_t i = 0; i < n; i += 2 * len)                                            \
                for (size_t j = 0; j < len; j++) {                                             \
                    T u = a[i + j], v = a[i + j + len];                                        \
                    cz_##F##_add(&a[i + j], &u, &v);                                           \
                    cz_##F##_sub(&v, &u, &v);                                                  \
                    cz_##F##_mul(&a[i + j + len], &v, &t[j * stride]);                         \
                }                                                                              \
        }                                                                                      \
        if (!bitrev_out) {                                                                     \
            for (size_t i = 0; i < n; i++) {                                                   \
                size_t r = 0;                                                                  \
                for (unsigned b = 0; b < log_n; b++)                                           \
                    r |= ((i >> b) & 1) << (log_n - 1 - b);                                    \
                if (i < r) {                                                                   \
                    x = a[i];                                                                  \
                    a[i] = a[r];                                                               \
                    a[r] = x;                                                                  \
                }                                                                              \
            }                                                                                  \
            cz_##F##_one(&x);                                                                  \
            if (post_c)                                                                        \
                x = *(const T *)post_c;                                                        \
            for (size_t j = 0; (post_c || post_h) && j < n; j++) {                             \
                cz_##F##_mul(&a[j], &a[j], &x);                                                \
                if (post_h)                                                                    \
                    cz_##F##_mul(&x, &x, post_h);                                              \
            }                                                                                  \
        }                                                                                      \
        free(t);                                                                               \
        return CZ_OK;                                                                          \
    }                                                                                          \
    cz_status czd_ntt_h##SUFFIX(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,           \
                                unsigned log_n, const void *w, const void *w_inv,              \
                                const void *n_inv, const void *g, int g_half)                  \
    {                                                                                          \
        (void)g_half;                                                                          \
        void *v[3] = {dev_a, dev_b, dev_c};                                                    \
        cz_status st = CZ_OK;                                                                  \
        for (int i = 0; i < (dev_c ? 3 : 2) && st == CZ_OK; i++) {                             \
            st = czd_ntt##SUFFIX(ctx, v[i], log_n, w_inv, NULL, 0, n_inv, g);                  \
            if (st == CZ_OK)                                                                   \
                st = czd_ntt##SUFFIX(ctx, v[i], log_n, w, NULL, 0, NULL, NULL);                \
        }                                                                                      \
        if (st == CZ_OK)                                                                       \
            st = launch(ctx, "k_h_product");                                                   \
        if (st != CZ_OK)                                                                       \
            return st;                                                                         \
        size_t n = (size_t)1 << log_n;                                                         \
        T *a = dev_a;                                                                          \
        const T *b = dev_b, *c = dev_c;                                                        \
        for (size_t j = 0; j < n; j++) {                                                       \
            cz_##F##_mul(&a[j], &a[j], &b[j]);                                                 \
            if (c)                                                                             \
                cz_##F##_sub(&a[j], &a[j], &c[j]);                                             \
        }                                                                                      \
        return CZ_OK;                                                                          \
    }
MODEL_NTT(, fr, cz_fr, 31, "k_dif_pass")
MODEL_NTT(_bn254, bn254_fr, cz_bn254_fr, 28, "k_ntt_pass")

/* ---- Groth16's a, b, c ---- */

/* k_eval_abc over a scalar field F (type T): BLS12-381's Fr and BN254's,
   as cuda/groth16.cu's one template */
#define MODEL_EVAL_ABC(NAME, F, T)                                                             \
    cz_status NAME(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, const void *dev_ra,     \
                   const void *dev_ca, const void *dev_va, const void *dev_rb,                 \
                   const void *dev_cb, const void *dev_vb, const void *dev_w, size_t rows)     \
    {                                                                                          \
        if (rows == 0)                                                                         \
            return CZ_OK;                                                                      \
        cz_status st = launch(ctx, "k_eval_abc");                                              \
        if (st != CZ_OK)                                                                       \
            return st;                                                                         \
        NEED(ctx, dev_a, rows * sizeof(T), "k_eval_abc a");                                    \
        NEED(ctx, dev_b, rows * sizeof(T), "k_eval_abc b");                                    \
        NEED(ctx, dev_c, rows * sizeof(T), "k_eval_abc c");                                    \
        const char *w_end;                                                                     \
        if (!in_buffer(ctx, dev_w, sizeof(T), &w_end))                                         \
            return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_eval_abc: witness outside the buffers"); \
        size_t n_w = (size_t)(w_end - (const char *)dev_w) / sizeof(T);                        \
        const T *w = dev_w;                                                                    \
        const uint64_t *rp[2] = {dev_ra, dev_rb};                                              \
        const uint32_t *col[2] = {dev_ca, dev_cb};                                             \
        const T *val[2] = {dev_va, dev_vb};                                                    \
        T *out[2] = {dev_a, dev_b};                                                            \
        for (int m = 0; m < 2; m++) {                                                          \
            NEED(ctx, rp[m], (rows + 1) * 8, "k_eval_abc row pointers");                       \
            size_t nnz = rp[m][rows];                                                          \
            NEED(ctx, col[m], nnz * 4, "k_eval_abc columns");                                  \
            NEED(ctx, val[m], nnz * sizeof(T), "k_eval_abc values");                           \
            for (size_t i = 0; i < rows; i++) {                                                \
                T s, p;                                                                        \
                cz_##F##_zero(&s);                                                             \
                if (rp[m][i] > rp[m][i + 1] || rp[m][i + 1] > nnz)                             \
                    return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_eval_abc: row %zu out of order", i); \
                for (uint64_t k = rp[m][i]; k < rp[m][i + 1]; k++) {                           \
                    if (col[m][k] >= n_w)                                                      \
                        return fail(ctx, CZ_ERR_DEVICE,                                        \
                                    "cuda model: k_eval_abc: column %u past the witness (%zu)", \
                                    col[m][k], n_w);                                           \
                    cz_##F##_mul(&p, &val[m][k], &w[col[m][k]]);                               \
                    cz_##F##_add(&s, &s, &p);                                                  \
                }                                                                              \
                out[m][i] = s;                                                                 \
            }                                                                                  \
        }                                                                                      \
        T *c = dev_c;                                                                          \
        for (size_t i = 0; i < rows; i++)                                                      \
            cz_##F##_mul(&c[i], &out[0][i], &out[1][i]);                                       \
        return CZ_OK;                                                                          \
    }
MODEL_EVAL_ABC(czd_eval_abc, fr, cz_fr)
MODEL_EVAL_ABC(czd_eval_abc_bn254, bn254_fr, cz_bn254_fr)

/* ---- keys in compact form (cuda/native.cu) ---- */

/* s G from the window table, as k_fixed_base: CZD_FB_WINDOWS signed digits,
   one mixed addition per nonzero digit; blocks of 1024 points on the
   global pool, each with one batch inversion */
#define FB_BLOCK 1024
typedef struct {
    void *out;
    const cz_fr *s;
    const void *tab;
    size_t n;
    _Atomic int nomem;
} fb_job;

#define FIXED_BASE(G)                                                                          \
    static void fixed_base_block_##G(void *arg, size_t begin, size_t end, int worker)          \
    {                                                                                          \
        (void)worker;                                                                          \
        fb_job *job = arg;                                                                     \
        const cz_##G##_affine *tab = job->tab;                                                 \
        cz_##G##_jac *tmp = malloc(FB_BLOCK * sizeof *tmp);                                    \
        if (!tmp) {                                                                            \
            job->nomem = 1;                                                                    \
            return;                                                                            \
        }                                                                                      \
        for (size_t blk = begin; blk < end; blk++) {                                           \
            size_t i0 = blk * FB_BLOCK, cnt = job->n - i0 < FB_BLOCK ? job->n - i0 : FB_BLOCK; \
            for (size_t q = 0; q < cnt; q++) {                                                 \
                uint64_t v[4];                                                                 \
                cz_fr_to_limbs(v, &job->s[i0 + q]);                                            \
                cz_##G##_jac_infinity(&tmp[q]);                                                \
                unsigned carry = 0;                                                            \
                for (unsigned j = 0; j < CZD_FB_WINDOWS; j++) {                                \
                    unsigned pos = j * CZD_FB_WBITS, l = pos / 64, off = pos % 64;             \
                    uint64_t x = v[l] >> off;                                                  \
                    if (off > 64 - CZD_FB_WBITS && l + 1 < 4)                                  \
                        x |= v[l + 1] << (64 - off);                                           \
                    unsigned d = (unsigned)(x & ((1u << CZD_FB_WBITS) - 1)) + carry;           \
                    carry = d > CZD_FB_ENTRIES;                                                \
                    int sd = carry ? (int)d - (1 << CZD_FB_WBITS) : (int)d;                    \
                    if (sd == 0)                                                               \
                        continue;                                                              \
                    cz_##G##_affine t = tab[j * CZD_FB_ENTRIES + (sd < 0 ? -sd : sd) - 1];     \
                    if (sd < 0)                                                                \
                        cz_##G##_affine_neg(&t, &t);                                           \
                    cz_##G##_jac_add_affine(&tmp[q], &tmp[q], &t);                             \
                }                                                                              \
            }                                                                                  \
            cz_##G##_jac_batch_to_affine((cz_##G##_affine *)job->out + i0, tmp, cnt);          \
        }                                                                                      \
        free(tmp);                                                                             \
    }                                                                                          \
    static cz_status fixed_base_##G(void *out, const cz_fr *s, size_t n, const void *tab)      \
    {                                                                                          \
        fb_job job = {out, s, tab, n, 0};                                                      \
        cz_parallel_for(cz_threadpool_global(), (n + FB_BLOCK - 1) / FB_BLOCK, 1,              \
                        fixed_base_block_##G, &job);                                           \
        return job.nomem ? CZ_ERR_NOMEM : CZ_OK;                                               \
    }
FIXED_BASE(g1)
FIXED_BASE(g2)

cz_status czd_fixed_base(czd_ctx *ctx, int group, void *dev_out, const void *dev_scalars,
                         size_t n, const void *dev_table)
{
    if (group != 1 && group != 2)
        return fail(ctx, CZ_ERR_ARG, "fixed base: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    cz_status st = launch(ctx, "k_fixed_base");
    if (st != CZ_OK)
        return st;
    size_t pb = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    NEED(ctx, dev_out, n * pb, "k_fixed_base out");
    NEED(ctx, dev_scalars, n * sizeof(cz_fr), "k_fixed_base scalars");
    NEED(ctx, dev_table, (size_t)CZD_FB_TABLE * pb, "k_fixed_base table");
    size_t batch = group == 1 ? 32 : 16; /* as native.cu's scratch */
    size_t scratch = ((n + batch - 1) / batch) * batch * pb + 256;
    if (scratch > ctx->arena_bytes - ctx->used)
        return fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: fixed base scratch needs %zu bytes",
                    scratch);
    st = group == 1 ? fixed_base_g1(dev_out, dev_scalars, n, dev_table)
                    : fixed_base_g2(dev_out, dev_scalars, n, dev_table);
    return st == CZ_OK ? st : fail(ctx, st, "fixed base: out of host memory (cuda model)");
}

cz_status czd_fixed_base_host(czd_ctx *ctx, int group, void *out, const void *scalars, size_t n,
                              const void *dev_table, size_t chunk)
{
    if (group != 1 && group != 2)
        return fail(ctx, CZ_ERR_ARG, "fixed base: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    if (chunk == 0)
        return fail(ctx, CZ_ERR_ARG, "fixed base: chunk of 0 points");
    cz_status st = launch(ctx, "k_fixed_base (pipelined)");
    if (st != CZ_OK)
        return st;
    size_t pb = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    NEED(ctx, dev_table, (size_t)CZD_FB_TABLE * pb, "k_fixed_base table");
    size_t c = chunk < n ? chunk : n, need = c * CZD_FB_CHUNK_BYTES(pb) + 6 * 256;
    if (need > ctx->arena_bytes - ctx->used)
        return fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: fixed base chunks need %zu bytes",
                    need);
    st = group == 1 ? fixed_base_g1(out, scalars, n, dev_table)
                    : fixed_base_g2(out, scalars, n, dev_table);
    return st == CZ_OK ? st : fail(ctx, st, "fixed base: out of host memory (cuda model)");
}

cz_status czd_eval_abc_compact(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                               const void *dev_ra, const void *dev_ca, const void *dev_ka,
                               uint32_t na_rows, const void *dev_rb, const void *dev_cb,
                               const void *dev_kb, uint32_t nb_rows, const void *dev_coefs,
                               uint32_t n_coefs, const void *dev_w, size_t rows)
{
    if (rows == 0)
        return CZ_OK;
    if (na_rows > rows || nb_rows > rows || n_coefs > 65536)
        return fail(ctx, CZ_ERR_ARG, "compact a/b/c: %u / %u matrix rows for %zu, %u coefficients",
                    na_rows, nb_rows, rows, n_coefs);
    cz_status st = launch(ctx, "k_eval_abc_compact");
    if (st != CZ_OK)
        return st;
    NEED(ctx, dev_a, rows * sizeof(cz_fr), "k_eval_abc_compact a");
    NEED(ctx, dev_b, rows * sizeof(cz_fr), "k_eval_abc_compact b");
    if (dev_c)
        NEED(ctx, dev_c, rows * sizeof(cz_fr), "k_eval_abc_compact c");
    if (n_coefs)
        NEED(ctx, dev_coefs, n_coefs * sizeof(cz_fr), "k_eval_abc_compact coefficients");
    const char *w_end;
    if (!in_buffer(ctx, dev_w, sizeof(cz_fr), &w_end))
        return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_eval_abc_compact: witness outside the buffers");
    size_t n_w = (size_t)(w_end - (const char *)dev_w) / sizeof(cz_fr);
    const cz_fr *w = dev_w, *tab = dev_coefs;
    const uint64_t *rp[2] = {dev_ra, dev_rb};
    const uint32_t *col[2] = {dev_ca, dev_cb};
    const uint16_t *coef[2] = {dev_ka, dev_kb};
    const uint32_t nr[2] = {na_rows, nb_rows};
    cz_fr *out[2] = {dev_a, dev_b};
    for (int m = 0; m < 2; m++) {
        NEED(ctx, rp[m], ((size_t)nr[m] + 1) * 8, "k_eval_abc_compact row pointers");
        size_t nnz = rp[m][nr[m]];
        if (nnz) {
            NEED(ctx, col[m], nnz * 4, "k_eval_abc_compact columns");
            NEED(ctx, coef[m], nnz * 2, "k_eval_abc_compact coefficient indices");
        }
        for (size_t i = 0; i < rows; i++) {
            cz_fr s, p;
            cz_fr_zero(&s);
            if (i < nr[m]) {
                if (rp[m][i] > rp[m][i + 1] || rp[m][i + 1] > nnz)
                    return fail(ctx, CZ_ERR_DEVICE,
                                "cuda model: k_eval_abc_compact: row %zu out of order", i);
                for (uint64_t k = rp[m][i]; k < rp[m][i + 1]; k++) {
                    if (col[m][k] >= n_w)
                        return fail(ctx, CZ_ERR_DEVICE,
                                    "cuda model: k_eval_abc_compact: column %u past the witness (%zu)",
                                    col[m][k], n_w);
                    if (coef[m][k] >= n_coefs) /* as the device: reads as 0 */
                        continue;
                    cz_fr_mul(&p, &tab[coef[m][k]], &w[col[m][k]]);
                    cz_fr_add(&s, &s, &p);
                }
            }
            out[m][i] = s;
        }
    }
    cz_fr *c = dev_c;
    for (size_t i = 0; c && i < rows; i++)
        cz_fr_mul(&c[i], &out[0][i], &out[1][i]);
    return CZ_OK;
}

cz_status czd_witness_expand(czd_ctx *ctx, void *dev_w, size_t n, const void *dev_bits,
                             const void *dev_idx, const void *dev_vals, size_t n_other)
{
    if (n == 0)
        return CZ_OK;
    cz_status st = launch(ctx, "k_wit_bits");
    if (st != CZ_OK)
        return st;
    NEED(ctx, dev_w, n * sizeof(cz_fr), "k_wit_bits w");
    NEED(ctx, dev_bits, (n + 31) / 32 * 4, "k_wit_bits bits");
    if (n_other) {
        NEED(ctx, dev_idx, n_other * 4, "k_wit_scatter indices");
        NEED(ctx, dev_vals, n_other * sizeof(cz_fr), "k_wit_scatter values");
    }
    cz_fr *w = dev_w;
    const uint32_t *bits = dev_bits, *idx = dev_idx;
    const cz_fr *vals = dev_vals;
    for (size_t i = 0; i < n; i++) {
        if ((bits[i >> 5] >> (i & 31)) & 1)
            cz_fr_one(&w[i]);
        else
            cz_fr_zero(&w[i]);
    }
    for (size_t k = 0; k < n_other; k++) {
        if (idx[k] >= n)
            return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_wit_scatter: index %u past %zu", idx[k], n);
        w[idx[k]] = vals[k];
    }
    return CZ_OK;
}

/* decompress.cu's kernels: the host's decoders, point by point in
   parallel, the lowest bad index kept */
typedef struct {
    int g2;
    uint8_t *out;
    const uint8_t *in;
    _Atomic size_t first_bad;
} dc_job;

static void dc_range(void *arg, size_t begin, size_t end, int worker)
{
    (void)worker;
    dc_job *j = arg;
    for (size_t i = begin; i < end; i++) {
        cz_status st = j->g2 ? cz_g2_from_compressed((cz_g2_affine *)j->out + i, j->in + 96 * i)
                             : cz_g1_from_compressed((cz_g1_affine *)j->out + i, j->in + 48 * i);
        if (st != CZ_OK) {
            size_t cur = atomic_load(&j->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&j->first_bad, &cur, i))
                ;
            return;
        }
    }
}

cz_status czd_decompress(czd_ctx *ctx, int group, void *dev_out, const void *dev_in, size_t n,
                         size_t *first_bad, cz_status *bad_st)
{
    *first_bad = SIZE_MAX;
    *bad_st = CZ_OK;
    if (group != 1 && group != 2)
        return fail(ctx, CZ_ERR_ARG, "decompress: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    cz_status st = launch(ctx, "k_decompress");
    if (st != CZ_OK)
        return st;
    size_t ib = group == 1 ? 48 : 96, ob = group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine);
    NEED(ctx, dev_in, n * ib, "k_decompress in");
    NEED(ctx, dev_out, n * ob, "k_decompress out");
    if ((uintptr_t)dev_in % 16)
        return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_decompress: input not 16-byte aligned "
                    "(a misaligned address)");
    if (ctx->arena_bytes - ctx->used < 512)
        return fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: decompress needs 8 bytes");
    dc_job job = {.g2 = group == 2, .out = dev_out, .in = dev_in};
    atomic_init(&job.first_bad, SIZE_MAX);
    cz_parallel_for(cz_threadpool_global(), n, 256, dc_range, &job);
    size_t bad = atomic_load(&job.first_bad);
    if (bad != SIZE_MAX) {
        cz_g2_affine tmp; /* room for either */
        *first_bad = bad;
        *bad_st = group == 2 ? cz_g2_from_compressed(&tmp, (const uint8_t *)dev_in + 96 * bad)
                             : cz_g1_from_compressed((cz_g1_affine *)&tmp,
                                                     (const uint8_t *)dev_in + 48 * bad);
    }
    return CZ_OK;
}

cz_status czd_gather(czd_ctx *ctx, void *dev_out, const void *dev_in, const void *dev_idx, size_t n)
{
    if (n == 0)
        return CZ_OK;
    cz_status st = launch(ctx, "k_gather");
    if (st != CZ_OK)
        return st;
    NEED(ctx, dev_out, n * sizeof(cz_fr), "k_gather out");
    NEED(ctx, dev_idx, n * 4, "k_gather indices");
    const char *in_end;
    if (!in_buffer(ctx, dev_in, sizeof(cz_fr), &in_end))
        return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_gather: input outside the buffers");
    size_t n_in = (size_t)(in_end - (const char *)dev_in) / sizeof(cz_fr);
    const uint32_t *idx = dev_idx;
    const cz_fr *in = dev_in;
    cz_fr *out = dev_out;
    for (size_t k = 0; k < n; k++) {
        if (idx[k] >= n_in)
            return fail(ctx, CZ_ERR_DEVICE, "cuda model: k_gather: index %u past the input (%zu)",
                        idx[k], n_in);
        out[k] = in[idx[k]];
    }
    return CZ_OK;
}

/* ---- MSM ----
 * The scratch cuda/msm.cu would take for one window at a time (its
 * minimum); the result as windows of 128 bits (the scalars' low and high
 * halves), each the sum of two parts (the two halves of the points), each
 * part an MSM of the host. */

static size_t msm_scratch(int group, size_t n, unsigned *c)
{
    unsigned lg = 0;
    while (((size_t)1 << lg) < n)
        lg++;
    if (*c == 0) {
        if (group == 1)
            *c = lg > 7 ? lg - 3 : 4;
        else
            *c = lg >= 21 ? 16 : lg > 13 ? lg - 9 : 4;
        if (*c > 16)
            *c = 16;
    }
    size_t xb = group == 1 ? sizeof(cz_g1_xyzz) : sizeof(cz_g2_xyzz);
    unsigned nwin = 255 % *c ? (255 + *c - 1) / *c : 255 / *c + 1;
    size_t nbw = (size_t)1 << (*c - 1);
    return n * sizeof(cz_fr) + nwin * nbw * xb + n * 16 + nbw * 8 + 1024 +
           3 * ((size_t)MODEL_SMS * 512 + 1) * xb + ((size_t)64 << 20);
}

#define MSM_PARTS(G, F)                                                                         \
    static cz_status msm_parts_##G(cz_##G##_xyzz *parts, const cz_##G##_affine *pts,           \
                                   const cz_fr *half[2], size_t n)                             \
    {                                                                                          \
        cz_msm_opts o = {.pool = cz_threadpool_global(), .form = CZ_MSM_SCALAR_PLAIN};         \
        size_t h = n / 2, lo[2] = {0, h}, cnt[2] = {h, n - h};                                 \
        for (int w = 0; w < 2; w++)                                                            \
            for (int k = 0; k < 2; k++) {                                                      \
                cz_##G##_jac j;                                                                \
                cz_status st = cz_##G##_msm(&j, pts + lo[k], half[w] + lo[k], cnt[k], &o);     \
                if (st != CZ_OK)                                                               \
                    return st;                                                                 \
                cz_##G##_xyzz *x = &parts[w * 2 + k];                                          \
                if (cz_##G##_jac_is_infinity(&j)) {                                            \
                    cz_##G##_xyzz_infinity(x);                                                 \
                    continue;                                                                  \
                }                                                                              \
                x->x = j.x;                                                                    \
                x->y = j.y;                                                                    \
                cz_##F##_sqr(&x->zz, &j.z);                                                    \
                cz_##F##_mul(&x->zzz, &x->zz, &j.z);                                           \
            }                                                                                  \
        return CZ_OK;                                                                          \
    }
MSM_PARTS(g1, fp)
MSM_PARTS(g2, fp2)

cz_status czd_msm(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt, unsigned *c,
                  const void *dev_points, const void *dev_scalars, size_t n, unsigned flags,
                  unsigned window_bits)
{
    const int plain = (flags & CZD_MSM_PLAIN) != 0;
    if (group == CZD_BN254_G1 || group == CZD_BN254_G2)
        return bn254_msm(ctx, group, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                         window_bits);
    if (group != 1 && group != 2)
        return fail(ctx, CZ_ERR_ARG, "unknown group %d", group);
    *nwin = *cnt = *c = 0;
    if (n == 0)
        return CZ_OK;
    if (n >= ((size_t)1 << 31))
        return fail(ctx, CZ_ERR_ARG, "MSM of %zu points: at most 2^31 - 1", n);
    if ((flags & CZD_MSM_GENERAL) && (flags & CZD_MSM_BITS))
        return fail(ctx, CZ_ERR_ARG, "MSM: both the general and the bit path forced");
    cz_status st = launch(ctx, "k_accumulate");
    if (st != CZ_OK)
        return st;
    unsigned wb = window_bits;
    size_t need = msm_scratch(group, n, &wb);
    if (wb < 2 || wb > 22)
        return fail(ctx, CZ_ERR_ARG, "MSM window of %u bits not in 2..22", wb);
    if (need > ctx->arena_bytes - ctx->used)
        return fail(ctx, CZ_ERR_NOMEM, "device arena too small for an MSM of %zu points", n);
    NEED(ctx, dev_points, n * (group == 1 ? sizeof(cz_g1_affine) : sizeof(cz_g2_affine)),
         "MSM points");
    NEED(ctx, dev_scalars, n * sizeof(cz_fr), "MSM scalars");
    /* scalars as plain integers, split into 128-bit halves */
    cz_fr *half = malloc(2 * n * sizeof *half);
    if (!half)
        return fail(ctx, CZ_ERR_NOMEM, "MSM: out of host memory (cuda model)");
    const cz_fr *s = dev_scalars;
    for (size_t i = 0; i < n; i++) {
        uint64_t v[4];
        if (plain)
            memcpy(v, &s[i], sizeof v);
        else
            cz_fr_to_limbs(v, &s[i]);
        uint64_t lo[4] = {v[0], v[1], 0, 0}, hi[4] = {v[2], v[3], 0, 0};
        memcpy(&half[i], lo, sizeof lo);
        memcpy(&half[n + i], hi, sizeof hi);
    }
    const cz_fr *halves[2] = {half, half + n};
    st = group == 1 ? msm_parts_g1(parts, dev_points, halves, n)
                    : msm_parts_g2(parts, dev_points, halves, n);
    free(half);
    if (st != CZ_OK)
        return fail(ctx, st, "MSM of %zu points failed on the host (cuda model)", n);
    *nwin = 2;
    *cnt = 2;
    *c = 128;
    return CZ_OK;
}

#else
typedef int cz_gpu_model_not_built; /* a translation unit must declare something */
#endif /* CUZK_GPU_MODEL */
