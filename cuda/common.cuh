/*
 * common.cuh: the device context, its arena and error handling, shared by
 * the CUDA translation units.
 *
 * DESIGN. One context per device: one stream and one arena, a single
 * cudaMalloc made at creation, sized from cudaMemGetInfo minus a margin
 * (default 512 MiB) or capped by the caller. Persistent buffers (keys kept
 * on the GPU) are carved from the bottom in LIFO order; each operation
 * carves its scratch above them with a czd_scratch cursor that is dropped
 * when the call returns. No cudaMalloc/cudaFree on the per-call path (but
 * for the NTT's table cache, ntt.cu: a block outside the arena the first
 * time a transform's tables are made).
 * Every CUDA call and launch goes through CZD_TRY, which turns an error
 * into CZ_ERR_DEVICE and a message naming the call, file and line. A
 * context is not thread-safe: its owner serialises calls (the engine's GPU
 * lock).
 */
#ifndef CZ_CUDA_COMMON_CUH
#define CZ_CUDA_COMMON_CUH

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "czd.h"

#define CZD_MAX_BUFS 64

struct czd_ctx {
    int device;
    cudaStream_t stream;
    cudaDeviceProp prop;
    char *arena;
    size_t arena_bytes;
    size_t used;              /* persistent buffers: [0, used) */
    size_t buf_off[CZD_MAX_BUFS];
    int nbufs;
    int profile; /* CUZK_GPU_PROFILE=1: kernels' phase times on stderr */
    struct cz_ntt_cache *ntt_cache; /* ntt.cu's tables kept between calls (NULL until used) */
    char err[512];
};

/* ntt.cu: releases the context's NTT tables (czd_ctx_destroy) */
void czd_ntt_cache_drop(czd_ctx *ctx);

/* Phase timing for tuning (CUZK_GPU_PROFILE=1): events recorded on the
   stream between phases; report() waits for the stream and prints one line
   with the time of each named phase (phases of the same name are summed).
   Off, it records nothing. */
struct czd_prof {
    enum { MAXEV = 256 };
    czd_ctx *ctx;
    const char *what;
    cudaEvent_t ev[MAXEV];
    const char *name[MAXEV];
    int n;
    czd_prof(czd_ctx *c, const char *w) : ctx(c), what(w), n(0) { mark("start"); }
    void mark(const char *phase)
    {
        if (!ctx->profile || n >= MAXEV)
            return;
        if (cudaEventCreate(&ev[n]) != cudaSuccess)
            return;
        cudaEventRecord(ev[n], ctx->stream);
        name[n++] = phase;
    }
    void report()
    {
        if (!ctx->profile || n < 2)
            return;
        cudaEventSynchronize(ev[n - 1]);
        const char *names[MAXEV];
        float ms[MAXEV];
        int k = 0;
        for (int i = 1; i < n; i++) {
            float t = 0;
            cudaEventElapsedTime(&t, ev[i - 1], ev[i]);
            int j = 0;
            while (j < k && strcmp(names[j], name[i]) != 0)
                j++;
            if (j == k) {
                names[k] = name[i];
                ms[k++] = 0;
            }
            ms[j] += t;
        }
        float total = 0;
        cudaEventElapsedTime(&total, ev[0], ev[n - 1]);
        fprintf(stderr, "# gpu profile %s: total %.3f ms:", what, total);
        for (int j = 0; j < k; j++)
            fprintf(stderr, " %s %.3f", names[j], ms[j]);
        fprintf(stderr, "\n");
    }
    ~czd_prof()
    {
        for (int i = 0; i < n; i++)
            cudaEventDestroy(ev[i]);
    }
};

static inline cz_status czd_fail(czd_ctx *ctx, cz_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    return st;
}

/* Out of device memory (an allocation, or a launch that could not get its
   local memory because other processes hold the card) is CZ_ERR_NOMEM,
   which callers answer by streaming or by the CPU; anything else is
   CZ_ERR_DEVICE. The error is read off (cleared) so that a non-sticky one
   does not show up again at the next launch check. */
#define CZD_TRY(ctx, call)                                                                 \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            cudaGetLastError();                                                            \
            return czd_fail((ctx), e_ == cudaErrorMemoryAllocation ? CZ_ERR_NOMEM : CZ_ERR_DEVICE, \
                            "%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
        }                                                                                  \
    } while (0)

#define CZD_LAUNCHED(ctx, name) CZD_TRY(ctx, cudaPeekAtLastError())

/* A cursor over the free part of the arena, for one call's scratch. */
struct czd_scratch {
    char *base;
    size_t off, cap;
    /* from the first 256-byte boundary above the buffers (the last one may
       end anywhere: a 1-byte placeholder left scratch misaligned once) */
    explicit czd_scratch(czd_ctx *ctx) : off(0)
    {
        size_t a = (ctx->used + 255) & ~(size_t)255;
        base = ctx->arena + a;
        cap = a < ctx->arena_bytes ? ctx->arena_bytes - a : 0;
    }
    size_t left() const { return off + 256 <= cap ? cap - off - 256 : 0; }
    template <class T>
    T *take(size_t count)
    {
        size_t a = (off + 255) & ~(size_t)255;
        size_t bytes = count * sizeof(T);
        if (a > cap || bytes > cap - a)
            return nullptr;
        off = a + bytes;
        return reinterpret_cast<T *>(base + a);
    }
};

#define CZD_TAKE(ctx, sc, T, var, count)                                                   \
    T *var = (sc).take<T>(count);                                                          \
    if (!var)                                                                              \
        return czd_fail((ctx), CZ_ERR_NOMEM,                                               \
                        "device arena exhausted: %s needs %zu bytes, %zu free of %zu",     \
                        #var, (size_t)(count) * sizeof(T), (sc).left(), (ctx)->arena_bytes)

static inline unsigned czd_blocks(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

#endif
