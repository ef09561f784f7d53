/*
 * ctx.cu: device contexts, the arena, copies, and the arithmetic check
 * kernels (field and curve operations over arrays, compared with the host
 * code by the GPU tests), plus point generation for tests and benchmarks.
 *
 * Copies: czd_copy_h2d / _d2h on the context's stream, waited for;
 * czd_copy_h2d_side on a stream of its own, from another host thread,
 * while the context's owner runs kernels (the streamed MSMs' next chunk):
 * from pageable memory through two pinned staging buffers (the thread
 * fills one while the other's DMA runs), which keeps the thread busy, so
 * it is a thread and not an event on the stream; memory its owner pinned
 * goes straight.
 *
 * Point generation: base points B_j = k_j G by double-and-add (XYZZ) and an
 * inversion each (m of them, m <= 2^20), then P_i = B_{i mod m} +
 * B_{(i/m) mod m} in affine coordinates with one inversion per 16 points
 * (Montgomery's trick): about 40 Fp products per point, so 2^26 points take
 * a fraction of a second where a CPU would take minutes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "ec.cuh"

static void czd_stage_drop(const czd_ctx *ctx);

extern "C" int czd_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky "no device" */
        return 0;
    }
    return n;
}

extern "C" cz_status czd_ctx_create(czd_ctx **out, int device, size_t max_bytes, size_t margin,
                                    char *err, size_t err_len)
{
    *out = nullptr;
    czd_ctx *ctx = (czd_ctx *)calloc(1, sizeof *ctx);
    if (!ctx) {
        snprintf(err, err_len, "out of host memory");
        return CZ_ERR_NOMEM;
    }
    ctx->device = device;
    {
        const char *pe = getenv("CUZK_GPU_PROFILE");
        ctx->profile = pe && *pe && strcmp(pe, "0") != 0;
    }
    cz_status st = CZ_OK;
    size_t free_b = 0, total_b = 0, want;
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&ctx->prop, device);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaMemGetInfo(&free_b, &total_b);
    if (e != cudaSuccess) {
        snprintf(err, err_len, "CUDA device %d: %s", device, cudaGetErrorString(e));
        st = CZ_ERR_DEVICE;
        goto fail;
    }
    if (margin == 0)
        margin = (size_t)512 << 20;
    if (free_b <= margin + ((size_t)64 << 20)) {
        snprintf(err, err_len, "CUDA device %d: only %zu bytes free (margin %zu)", device, free_b,
                 margin);
        st = CZ_ERR_NOMEM;
        goto fail;
    }
    want = free_b - margin;
    if (max_bytes && want > max_bytes)
        want = max_bytes;
    want &= ~(size_t)((1 << 20) - 1);
    e = cudaMalloc((void **)&ctx->arena, want);
    if (e != cudaSuccess) {
        snprintf(err, err_len, "CUDA device %d: arena of %zu bytes: %s", device, want,
                 cudaGetErrorString(e));
        cudaGetLastError();
        st = CZ_ERR_NOMEM;
        goto fail;
    }
    ctx->arena_bytes = want;
    *out = ctx;
    return CZ_OK;
fail:
    if (ctx->stream)
        cudaStreamDestroy(ctx->stream);
    free(ctx);
    return st;
}

extern "C" void czd_ctx_destroy(czd_ctx *ctx)
{
    if (!ctx)
        return;
    cudaSetDevice(ctx->device);
    cudaStreamSynchronize(ctx->stream);
    czd_stage_drop(ctx);
    czd_ntt_cache_drop(ctx);
    cudaFree(ctx->arena);
    cudaStreamDestroy(ctx->stream);
    free(ctx);
}

extern "C" cz_status czd_bind(czd_ctx *ctx)
{
    CZD_TRY(ctx, cudaSetDevice(ctx->device));
    return CZ_OK;
}

extern "C" int czd_healthy(czd_ctx *ctx)
{
    cudaSetDevice(ctx->device);
    if (cudaDeviceSynchronize() == cudaSuccess)
        return 1;
    cudaGetLastError(); /* clears an ordinary error; a sticky one stays */
    return cudaDeviceSynchronize() == cudaSuccess;
}

extern "C" void czd_device_reset(int device)
{
    cudaSetDevice(device);
    cudaDeviceReset();
    cudaGetLastError();
}

__global__ void k_trap(void) { __trap(); }

extern "C" cz_status czd_inject_fault(czd_ctx *ctx)
{
    k_trap<<<1, 1, 0, ctx->stream>>>();
    CZD_LAUNCHED(ctx, "k_trap");
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

extern "C" const char *czd_ctx_error(const czd_ctx *ctx) { return ctx ? ctx->err : "no context"; }
extern "C" const char *czd_device_name(const czd_ctx *ctx) { return ctx->prop.name; }
extern "C" size_t czd_arena_bytes(const czd_ctx *ctx) { return ctx->arena_bytes; }
extern "C" size_t czd_arena_free(const czd_ctx *ctx) { return ctx->arena_bytes - ctx->used; }
extern "C" int czd_sm_count(const czd_ctx *ctx) { return ctx->prop.multiProcessorCount; }

extern "C" cz_status czd_buf_alloc(czd_ctx *ctx, void **dev, size_t bytes)
{
    size_t off = (ctx->used + 255) & ~(size_t)255;
    if (ctx->nbufs == CZD_MAX_BUFS)
        return czd_fail(ctx, CZ_ERR_NOMEM, "too many device buffers (%d)", CZD_MAX_BUFS);
    if (off > ctx->arena_bytes || bytes > ctx->arena_bytes - off)
        return czd_fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: %zu bytes wanted, %zu free",
                        bytes, ctx->arena_bytes - ctx->used);
    ctx->buf_off[ctx->nbufs++] = ctx->used;
    ctx->used = off + bytes;
    *dev = ctx->arena + off;
    return CZ_OK;
}

extern "C" cz_status czd_buf_free(czd_ctx *ctx, void *dev)
{
    if (!dev)
        return CZ_OK;
    if (ctx->nbufs == 0)
        return czd_fail(ctx, CZ_ERR_ARG, "device buffer freed twice or not from this context");
    size_t prev = ctx->buf_off[ctx->nbufs - 1];
    char *last = ctx->arena + ((prev + 255) & ~(size_t)255);
    if ((char *)dev != last)
        return czd_fail(ctx, CZ_ERR_ARG, "device buffers must be freed in reverse order");
    ctx->nbufs--;
    ctx->used = prev;
    return CZ_OK;
}

extern "C" cz_status czd_copy_h2d(czd_ctx *ctx, void *dev, const void *host, size_t bytes)
{
    CZD_TRY(ctx, cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, ctx->stream));
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

/* Side copies from pageable memory go through two pinned staging buffers
   of the context (CZD_STAGE_BYTES each, made at the first side copy):
   the calling thread copies piece k + 1 into one (with the caller's
   host_copy: the backend's runs on its thread pool) while piece k's DMA
   leaves the other, so the driver's own pageable path (whose staging the
   owner's small copies would wait behind) is not used. Memory pinned by
   its owner (cudaHostRegister) goes straight. CUZK_GPU_STREAM_STAGED=0
   takes the driver's pageable copy instead (to compare). */
#define CZD_STAGE_BYTES ((size_t)64 << 20)
#define CZD_STAGE_CTXS 64

static struct {
    const czd_ctx *ctx;
    void *buf[2];
} g_stage[CZD_STAGE_CTXS];
static pthread_mutex_t g_stage_lock = PTHREAD_MUTEX_INITIALIZER;

/* the context's staging buffers (made once); false when none can be had */
static bool czd_stage_get(const czd_ctx *ctx, void *buf[2])
{
    bool ok = false;
    pthread_mutex_lock(&g_stage_lock);
    int slot = -1;
    for (int i = 0; i < CZD_STAGE_CTXS && !ok; i++) {
        if (g_stage[i].ctx == ctx) {
            buf[0] = g_stage[i].buf[0];
            buf[1] = g_stage[i].buf[1];
            ok = true;
        } else if (!g_stage[i].ctx && slot < 0) {
            slot = i;
        }
    }
    if (!ok && slot >= 0) {
        void *b0 = nullptr, *b1 = nullptr;
        if (cudaHostAlloc(&b0, CZD_STAGE_BYTES, cudaHostAllocPortable) == cudaSuccess &&
            cudaHostAlloc(&b1, CZD_STAGE_BYTES, cudaHostAllocPortable) == cudaSuccess) {
            g_stage[slot].ctx = ctx;
            g_stage[slot].buf[0] = buf[0] = b0;
            g_stage[slot].buf[1] = buf[1] = b1;
            ok = true;
        } else {
            cudaGetLastError();
            if (b0)
                cudaFreeHost(b0);
        }
    }
    pthread_mutex_unlock(&g_stage_lock);
    return ok;
}

static void czd_stage_drop(const czd_ctx *ctx)
{
    pthread_mutex_lock(&g_stage_lock);
    for (int i = 0; i < CZD_STAGE_CTXS; i++)
        if (g_stage[i].ctx == ctx) {
            cudaFreeHost(g_stage[i].buf[0]);
            cudaFreeHost(g_stage[i].buf[1]);
            g_stage[i].ctx = nullptr;
        }
    pthread_mutex_unlock(&g_stage_lock);
}

/* host -> stage -> device in pieces, on stream s; waits */
static cudaError_t czd_stage_copy(cudaStream_t s, char *dev, const char *host, size_t bytes,
                                  void *const stage[2], cudaEvent_t ev[2],
                                  void (*host_copy)(void *, const void *, size_t), const char **what)
{
    cudaError_t e = cudaSuccess;
    for (size_t off = 0, k = 0; off < bytes && e == cudaSuccess; off += CZD_STAGE_BYTES, k++) {
        size_t len = bytes - off < CZD_STAGE_BYTES ? bytes - off : CZD_STAGE_BYTES;
        int b = (int)(k & 1);
        if (k >= 2) { /* the DMA that last read this buffer is done */
            *what = "cudaEventSynchronize";
            e = cudaEventSynchronize(ev[b]);
        }
        if (e != cudaSuccess)
            break;
        if (host_copy)
            host_copy(stage[b], host + off, len);
        else
            memcpy(stage[b], host + off, len);
        *what = "cudaMemcpyAsync (staged)";
        e = cudaMemcpyAsync(dev + off, stage[b], len, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) {
            *what = "cudaEventRecord";
            e = cudaEventRecord(ev[b], s);
        }
    }
    return e;
}

extern "C" cz_status czd_copy_h2d_side(czd_ctx *ctx, void *dev, const void *host, size_t bytes,
                                      void (*host_copy)(void *, const void *, size_t), char *err,
                                      size_t err_len)
{
    if (bytes == 0)
        return CZ_OK;
    cudaStream_t s = nullptr;
    cudaEvent_t ev[2] = {nullptr, nullptr};
    const char *what = "cudaSetDevice";
    cudaError_t e = cudaSetDevice(ctx->device);
    if (e == cudaSuccess) {
        what = "cudaStreamCreateWithFlags";
        e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    }
    /* pinned by its owner (or managed): one DMA */
    bool direct = false;
    if (e == cudaSuccess) {
        cudaPointerAttributes at;
        if (cudaPointerGetAttributes(&at, host) == cudaSuccess)
            direct = at.type == cudaMemoryTypeHost || at.type == cudaMemoryTypeManaged;
        else
            cudaGetLastError();
        const char *st = getenv("CUZK_GPU_STREAM_STAGED");
        if (st && !strcmp(st, "0"))
            direct = true;
    }
    void *stage[2] = {nullptr, nullptr};
    if (e == cudaSuccess && !direct && bytes > CZD_STAGE_BYTES / 4 && czd_stage_get(ctx, stage)) {
        for (int i = 0; i < 2 && e == cudaSuccess; i++) {
            what = "cudaEventCreateWithFlags";
            e = cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming);
        }
        if (e == cudaSuccess)
            e = czd_stage_copy(s, (char *)dev, (const char *)host, bytes, stage, ev, host_copy,
                               &what);
    } else if (e == cudaSuccess) {
        what = "cudaMemcpyAsync";
        e = cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, s);
    }
    if (s) {
        cudaError_t e2 = cudaStreamSynchronize(s);
        if (e == cudaSuccess && e2 != cudaSuccess) {
            what = "cudaStreamSynchronize";
            e = e2;
        }
    }
    for (int i = 0; i < 2; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    if (s)
        cudaStreamDestroy(s);
    if (e == cudaSuccess)
        return CZ_OK;
    cudaGetLastError();
    snprintf(err, err_len, "%s (%zu bytes to the device on a second stream): %s", what, bytes,
             cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? CZ_ERR_NOMEM : CZ_ERR_DEVICE;
}

extern "C" cz_status czd_copy_d2h(czd_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    CZD_TRY(ctx, cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, ctx->stream));
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

extern "C" cz_status czd_host_register(czd_ctx *ctx, void *host, size_t bytes)
{
    CZD_TRY(ctx, cudaHostRegister(host, bytes, cudaHostRegisterDefault));
    return CZ_OK;
}

extern "C" cz_status czd_host_pin(int device, void *host, size_t bytes, char *err, size_t err_len)
{
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess)
        e = cudaHostRegister(host, bytes, cudaHostRegisterPortable);
    if (e == cudaSuccess)
        return CZ_OK;
    cudaGetLastError();
    snprintf(err, err_len, "cudaHostRegister of %zu bytes: %s", bytes, cudaGetErrorString(e));
    return e == cudaErrorHostMemoryAlreadyRegistered ? CZ_OK : CZ_ERR_DEVICE;
}

extern "C" void czd_host_unpin(void *host)
{
    if (cudaHostUnregister(host) != cudaSuccess)
        cudaGetLastError();
}

extern "C" cz_status czd_host_unregister(czd_ctx *ctx, void *host)
{
    CZD_TRY(ctx, cudaHostUnregister(host));
    return CZ_OK;
}

extern "C" cz_status czd_sync(czd_ctx *ctx)
{
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

/* ---- arithmetic check kernels ---- */

template <class F>
__device__ F czd_field_apply(int op, const F &a, const F &b);

template <>
__device__ czd_fr czd_field_apply<czd_fr>(int op, const czd_fr &a, const czd_fr &b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return czd_fr::sqr(a);
    case 4: return a.from_mont();
    default: return czd_fr::inv(a);
    }
}
template <>
__device__ czd_fp czd_field_apply<czd_fp>(int op, const czd_fp &a, const czd_fp &b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return czd_fp::sqr(a);
    case 4: return a.from_mont();
    default: return czd_fp::inv(a);
    }
}
template <>
__device__ czd_fp2 czd_field_apply<czd_fp2>(int op, const czd_fp2 &a, const czd_fp2 &b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return czd_fp2::sqr(a);
    case 4: return {a.c0.from_mont(), a.c1.from_mont()};
    default: return czd_fp2::inv(a);
    }
}

/* BN254: Fr, Fp (one template for both) and Fp2 */
template <class F>
__device__ F czd_field_apply254(int op, const F &a, const F &b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return F::sqr(a);
    case 4: return a.from_mont();
    default: return F::inv(a);
    }
}
template <>
__device__ czd_fr254 czd_field_apply<czd_fr254>(int op, const czd_fr254 &a, const czd_fr254 &b)
{
    return czd_field_apply254<czd_fr254>(op, a, b);
}
template <>
__device__ czd_fp254 czd_field_apply<czd_fp254>(int op, const czd_fp254 &a, const czd_fp254 &b)
{
    return czd_field_apply254<czd_fp254>(op, a, b);
}
template <>
__device__ czd_fp2_254 czd_field_apply<czd_fp2_254>(int op, const czd_fp2_254 &a, const czd_fp2_254 &b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return czd_fp2_254::sqr(a);
    case 4: return {a.c0.from_mont(), a.c1.from_mont()};
    default: return czd_fp2_254::inv(a);
    }
}

template <class F>
__global__ void k_field_op(F *out, const F *a, const F *b, size_t n, int op)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = czd_field_apply<F>(op, a[i], b[i]);
}

extern "C" cz_status czd_field_op(czd_ctx *ctx, int field, int op, void *dev_out, const void *dev_a,
                                  const void *dev_b, size_t n)
{
    if (n == 0)
        return CZ_OK;
    unsigned t = 128, g = czd_blocks(n, t);
    switch (field) {
    case 0:
        k_field_op<czd_fr><<<g, t, 0, ctx->stream>>>((czd_fr *)dev_out, (const czd_fr *)dev_a,
                                                     (const czd_fr *)dev_b, n, op);
        break;
    case 1:
        k_field_op<czd_fp><<<g, t, 0, ctx->stream>>>((czd_fp *)dev_out, (const czd_fp *)dev_a,
                                                     (const czd_fp *)dev_b, n, op);
        break;
    case 2:
        k_field_op<czd_fp2><<<g, t, 0, ctx->stream>>>((czd_fp2 *)dev_out, (const czd_fp2 *)dev_a,
                                                      (const czd_fp2 *)dev_b, n, op);
        break;
    case 3:
        k_field_op<czd_fr254><<<g, t, 0, ctx->stream>>>(
            (czd_fr254 *)dev_out, (const czd_fr254 *)dev_a, (const czd_fr254 *)dev_b, n, op);
        break;
    case 4:
        k_field_op<czd_fp254><<<g, t, 0, ctx->stream>>>(
            (czd_fp254 *)dev_out, (const czd_fp254 *)dev_a, (const czd_fp254 *)dev_b, n, op);
        break;
    case 5:
        k_field_op<czd_fp2_254><<<g, t, 0, ctx->stream>>>(
            (czd_fp2_254 *)dev_out, (const czd_fp2_254 *)dev_a, (const czd_fp2_254 *)dev_b, n, op);
        break;
    default:
        return czd_fail(ctx, CZ_ERR_ARG, "unknown field %d", field);
    }
    CZD_LAUNCHED(ctx, "k_field_op");
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

template <class F>
__global__ void k_curve_test(czd_xyzz<F> *madd, czd_xyzz<F> *add, czd_xyzz<F> *dbl,
                             const czd_affine<F> *a, const czd_affine<F> *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    czd_xyzz<F> pa = czd_xyzz<F>::from_affine(a[i]);
    czd_xyzz<F> pb = czd_xyzz<F>::from_affine(b[i]);
    madd[i] = czd_xyzz<F>::add_affine(pa, b[i]);
    /* the general add on non-trivial Z: (2a) + (2b) - compare with 2(a+b) */
    add[i] = czd_xyzz<F>::add(czd_xyzz<F>::dbl(pa), czd_xyzz<F>::dbl(pb));
    dbl[i] = czd_xyzz<F>::dbl(pa);
}

extern "C" cz_status czd_curve_test(czd_ctx *ctx, int group, void *dev_sum_madd, void *dev_sum_add,
                                    void *dev_dbl, const void *dev_a, const void *dev_b, size_t n)
{
    if (n == 0)
        return CZ_OK;
    unsigned t = 64, g = czd_blocks(n, t);
    if (group == CZD_G1)
        k_curve_test<czd_fp><<<g, t, 0, ctx->stream>>>(
            (czd_g1_xyzz *)dev_sum_madd, (czd_g1_xyzz *)dev_sum_add, (czd_g1_xyzz *)dev_dbl,
            (const czd_g1_affine *)dev_a, (const czd_g1_affine *)dev_b, n);
    else if (group == CZD_G2)
        k_curve_test<czd_fp2><<<g, t, 0, ctx->stream>>>(
            (czd_g2_xyzz *)dev_sum_madd, (czd_g2_xyzz *)dev_sum_add, (czd_g2_xyzz *)dev_dbl,
            (const czd_g2_affine *)dev_a, (const czd_g2_affine *)dev_b, n);
    else /* BN254's formulas are checked through its MSMs (test_gpu_bn254): the
            kernels would add ~2 minutes of ptxas to this file */
        return czd_fail(ctx, CZ_ERR_ARG, "curve test: group %d not instantiated", group);
    CZD_LAUNCHED(ctx, "k_curve_test");
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

/* ---- point generation ---- */

template <class F>
struct czd_gen_traits;
template <>
struct czd_gen_traits<czd_fp> {
    static __device__ czd_affine<czd_fp> generator()
    {
        const uint64_t x[6] = {0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL,
                               0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL};
        const uint64_t y[6] = {0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL,
                               0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL};
        czd_affine<czd_fp> g;
        for (int i = 0; i < 6; i++) {
            g.x.v[2 * i] = (uint32_t)x[i];
            g.x.v[2 * i + 1] = (uint32_t)(x[i] >> 32);
            g.y.v[2 * i] = (uint32_t)y[i];
            g.y.v[2 * i + 1] = (uint32_t)(y[i] >> 32);
        }
        return g;
    }
};
template <>
struct czd_gen_traits<czd_fp2> {
    static __device__ czd_affine<czd_fp2> generator()
    {
        const uint64_t c[4][6] = {
            {0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,
             0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL},
            {0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,
             0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL},
            {0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,
             0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL},
            {0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,
             0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}};
        czd_fp f[4];
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < 6; i++) {
                f[k].v[2 * i] = (uint32_t)c[k][i];
                f[k].v[2 * i + 1] = (uint32_t)(c[k][i] >> 32);
            }
        czd_affine<czd_fp2> g;
        g.x = {f[0], f[1]};
        g.y = {f[2], f[3]};
        return g;
    }
};

/* BN254 (src/field/bn254_constants.h): G1's (1, 2) and EIP-197's G2
   generator, Montgomery, 64-bit limbs */
__device__ __forceinline__ czd_fp254 czd_fp254_from64(const uint64_t *x)
{
    czd_fp254 r;
    for (int i = 0; i < 4; i++) {
        r.v[2 * i] = (uint32_t)x[i];
        r.v[2 * i + 1] = (uint32_t)(x[i] >> 32);
    }
    return r;
}
template <>
struct czd_gen_traits<czd_fp254> {
    static __device__ czd_affine<czd_fp254> generator()
    {
        const uint64_t x[4] = {0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL,
                               0x0e0a77c19a07df2fULL};
        const uint64_t y[4] = {0xa6ba871b8b1e1b3aULL, 0x14f1d651eb8e167bULL, 0xccdd46def0f28c58ULL,
                               0x1c14ef83340fbe5eULL};
        czd_affine<czd_fp254> g;
        g.x = czd_fp254_from64(x);
        g.y = czd_fp254_from64(y);
        return g;
    }
};
template <>
struct czd_gen_traits<czd_fp2_254> {
    static __device__ czd_affine<czd_fp2_254> generator()
    {
        const uint64_t c[4][4] = {
            {0x8e83b5d102bc2026ULL, 0xdceb1935497b0172ULL, 0xfbb8264797811adfULL, 0x19573841af96503bULL},
            {0xafb4737da84c6140ULL, 0x6043dd5a5802d8c4ULL, 0x09e950fc52a02f86ULL, 0x14fef0833aea7b6bULL},
            {0x619dfa9d886be9f6ULL, 0xfe7fd297f59e9b78ULL, 0xff9e1a62231b7dfeULL, 0x28fd7eebae9e4206ULL},
            {0x64095b56c71856eeULL, 0xdc57f922327d3cbbULL, 0x55f935be33351076ULL, 0x0da4a0e693fd6482ULL}};
        czd_affine<czd_fp2_254> g;
        g.x = {czd_fp254_from64(c[0]), czd_fp254_from64(c[1])};
        g.y = {czd_fp254_from64(c[2]), czd_fp254_from64(c[3])};
        return g;
    }
};

/* B_j = k_j G, affine (k: the curve's Fr, S) */
template <class F, class S>
__global__ void k_gen_base(czd_affine<F> *out, const S *k, size_t m)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    S s = k[j].from_mont();
    czd_affine<F> g = czd_gen_traits<F>::generator();
    czd_xyzz<F> acc = czd_xyzz<F>::inf();
    for (int i = 7; i >= 0; i--)
        for (int b = 31; b >= 0; b--) {
            acc = czd_xyzz<F>::dbl(acc);
            if ((s.v[i] >> b) & 1)
                acc = czd_xyzz<F>::add_affine(acc, g);
        }
    out[j] = acc.to_affine();
}

#define CZD_GEN_BATCH 16

/* P_i = B_{i mod m} + B_{(i/m) mod m} for i >= m (affine; one inversion per
   CZD_GEN_BATCH points), P_i = B_i for i < m. */
template <class F>
__global__ void k_gen_points(czd_affine<F> *out, const czd_affine<F> *base, size_t n, size_t m)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = t * CZD_GEN_BATCH;
    if (i0 >= n)
        return;
    F pref[CZD_GEN_BATCH];
    F acc = F::one();
    int cnt = (int)(n - i0 < CZD_GEN_BATCH ? n - i0 : CZD_GEN_BATCH);
    /* den_t = x_b - x_a, or 2 y_a when the points are equal; 1 when i < m */
    for (int q = 0; q < cnt; q++) {
        size_t i = i0 + q;
        F den = F::one();
        if (i >= m) {
            czd_affine<F> a = base[i % m], b = base[(i / m) % m];
            den = b.x - a.x;
            if (den.is_zero())
                den = F::dbl(a.y);
        }
        pref[q] = acc;
        acc = acc * den;
    }
    F inv = F::inv(acc);
    for (int q = cnt - 1; q >= 0; q--) {
        size_t i = i0 + q;
        if (i < m) {
            out[i] = base[i];
            continue;
        }
        czd_affine<F> a = base[i % m], b = base[(i / m) % m];
        F den = b.x - a.x, num = b.y - a.y;
        if (den.is_zero()) {
            den = F::dbl(a.y);
            F x2 = F::sqr(a.x);
            num = x2 + F::dbl(x2);
        }
        F dinv = inv * pref[q];
        inv = inv * den;
        F lam = num * dinv;
        czd_affine<F> r;
        r.x = F::sqr(lam) - a.x - b.x;
        r.y = lam * (a.x - r.x) - a.y;
        out[i] = r;
    }
}

extern "C" cz_status czd_gen_points(czd_ctx *ctx, int group, void *dev_out, size_t n, const void *k,
                                    size_t m)
{
    if (m == 0 || m > ((size_t)1 << 20))
        return czd_fail(ctx, CZ_ERR_ARG, "point generation: m = %zu not in 1..2^20", m);
    czd_scratch sc(ctx);
    CZD_TAKE(ctx, sc, czd_fr, dk, m);
    CZD_TRY(ctx, cudaMemcpyAsync(dk, k, m * sizeof(czd_fr), cudaMemcpyHostToDevice, ctx->stream));
    size_t nb = (n + CZD_GEN_BATCH - 1) / CZD_GEN_BATCH;
    if (group == CZD_BN254_G1 || group == CZD_BN254_G2) {
        czd_fr254 *dk2 = (czd_fr254 *)dk;
        if (group == CZD_BN254_G1) {
            CZD_TAKE(ctx, sc, czd_bn254_g1_affine, base, m);
            k_gen_base<czd_fp254, czd_fr254><<<czd_blocks(m, 64), 64, 0, ctx->stream>>>(base, dk2, m);
            CZD_LAUNCHED(ctx, "k_gen_base");
            k_gen_points<czd_fp254><<<czd_blocks(nb, 64), 64, 0, ctx->stream>>>(
                (czd_bn254_g1_affine *)dev_out, base, n, m);
        } else {
            CZD_TAKE(ctx, sc, czd_bn254_g2_affine, base, m);
            k_gen_base<czd_fp2_254, czd_fr254><<<czd_blocks(m, 64), 64, 0, ctx->stream>>>(base, dk2, m);
            CZD_LAUNCHED(ctx, "k_gen_base");
            k_gen_points<czd_fp2_254><<<czd_blocks(nb, 64), 64, 0, ctx->stream>>>(
                (czd_bn254_g2_affine *)dev_out, base, n, m);
        }
        CZD_LAUNCHED(ctx, "k_gen_points");
    } else if (group == CZD_G1) {
        CZD_TAKE(ctx, sc, czd_g1_affine, base, m);
        k_gen_base<czd_fp, czd_fr><<<czd_blocks(m, 64), 64, 0, ctx->stream>>>(base, dk, m);
        CZD_LAUNCHED(ctx, "k_gen_base");
        k_gen_points<czd_fp><<<czd_blocks(nb, 64), 64, 0, ctx->stream>>>((czd_g1_affine *)dev_out,
                                                                         base, n, m);
        CZD_LAUNCHED(ctx, "k_gen_points");
    } else if (group == CZD_G2) {
        CZD_TAKE(ctx, sc, czd_g2_affine, base, m);
        k_gen_base<czd_fp2, czd_fr><<<czd_blocks(m, 64), 64, 0, ctx->stream>>>(base, dk, m);
        CZD_LAUNCHED(ctx, "k_gen_base");
        k_gen_points<czd_fp2><<<czd_blocks(nb, 64), 64, 0, ctx->stream>>>(
            (czd_g2_affine *)dev_out, base, n, m);
        CZD_LAUNCHED(ctx, "k_gen_points");
    } else {
        return czd_fail(ctx, CZ_ERR_ARG, "point generation: unknown group %d", group);
    }
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}
