/*
 * native.cu: the kernels of keys in compact form (native circuits):
 * fixed-base products s_i G for a development setup, a = A w and b = B w
 * over compact matrices (cz_cmat), and the gather of B's scalars.
 *
 * DESIGN. Fixed base: the host makes a table of generator multiples once
 * per process, T[j][d - 1] = d 2^(13 j) G for j < 20 windows and
 * 1 <= d <= 4096 (81,920 affine points: 7.9 MB for G1, 15.7 MB for G2,
 * held in L2), and copies it in with each call. A scalar (< r < 2^255) is
 * recoded into 20 signed 13-bit digits in [-4095, 4096] (a carry moves up;
 * the top window holds at most 2^8 + 1, so no 21st window), and s G is the
 * sum of T[j][|d_j| - 1] with y negated for d_j < 0: 20 XYZZ mixed
 * additions (8M+2S each), no doublings; G1's inlined (as the MSM's
 * accumulation: a call passes the point through local memory), G2's a
 * call (inlined it spills). The affine result needs an inversion: each
 * thread takes CZD_FB_BATCH (32 G1, 16 G2) consecutive points and inverts
 * the product of their ZZ ZZZ once (Montgomery's trick; the point's
 * X ZZZ and Y ZZ are parked in the output, then multiplied by the point's
 * 1/(ZZ ZZZ); the prefix products and the ZZ ZZZ wait in arena scratch,
 * 2 Fp (G1) / 2 Fp2 (G2) a point). Per G1 point: 20 x 10 + ~5 Fp
 * products and 1/32 of an inversion (field.cuh's binary Euclid; Fermat's
 * was ~570 products); G2 about three times that in Fp (and 1/16 of an Fp2
 * inversion). Host arrays go through
 * in chunks of up to 2^24 points, the copies of one chunk overlapping the
 * kernel of the next (czd_fixed_base_host).
 * Expected: at the ~2e9 mixed additions/s of the MSM's accumulation, ~1e8
 * G1 and ~3e7 G2 points/s of compute, so the copies (128 bytes a G1 point,
 * 224 a G2 point, ~6-7 GB/s from pageable memory on the H200 machine)
 * bound it: porep-32g's ~427 M G1 + 33 M G2 points in ~10-12 s. Measured
 * for the first version (10-bit windows, G1's addition a call, no
 * overlap), porep-32g's key on the H200: 48 s of fixed base (~10 M G1
 * points/s, copies included).
 *
 * Compact a/b/c: one thread a row, as k_eval_abc, with each coefficient
 * read from the key's table through its uint16 index: from shared memory
 * when the table is small (<= CZD_CMAT_SHARED coefficients; hash circuits
 * have a handful), else from global memory (L2); a row of more than
 * CZD_CMAT_LONG nonzeros is summed by the whole warp, its lanes striding
 * it (coalesced), after their own short rows. porep-8m's A matrix, one
 * thread a row: the warps' longest rows sum to 3.35 M steps for 9.4 M
 * nonzeros (32 lanes: 9 % busy); with warps on rows past 16: 0.40 M. Rows past a matrix's
 * n_rows are 0; an index past the table reads as 0 (a key checked when
 * made has none). Gather: out[k] = in[idx[k]], one thread an element.
 */
#include <stdlib.h>

#include "common.cuh"
#include "ec.cuh"

/* points a thread converts with one inversion: G1 32, G2 16 */
#define CZD_FB_BATCH(F) (sizeof(F) == sizeof(czd_fp) ? 32 : 16)
#define CZD_CMAT_SHARED 1024
#define CZD_CMAT_LONG 16 /* nonzeros past which a warp sums a row (COOP) */

static_assert(CZD_FB_ENTRIES == 1 << (CZD_FB_WBITS - 1) && CZD_FB_WBITS <= 15 &&
                  CZD_FB_WINDOWS * CZD_FB_WBITS >= 256 &&
                  255 - (CZD_FB_WINDOWS - 1) * CZD_FB_WBITS < CZD_FB_WBITS - 1,
              "signed windows covering 255 bits with no carry out of the top one");

/* the CZD_FB_WINDOWS signed digits of s (plain, < 2^255) */
__device__ __forceinline__ void czd_fb_digits(int16_t dig[CZD_FB_WINDOWS], const czd_fr &s)
{
    uint32_t carry = 0;
#pragma unroll
    for (int j = 0; j < CZD_FB_WINDOWS; j++) {
        const int pos = j * CZD_FB_WBITS, limb = pos >> 5, off = pos & 31;
        uint32_t v = s.v[limb] >> off;
        if (off > 32 - CZD_FB_WBITS && limb + 1 < 8)
            v |= s.v[limb + 1] << (32 - off);
        v = (v & ((1u << CZD_FB_WBITS) - 1)) + carry;
        carry = v > CZD_FB_ENTRIES;
        dig[j] = (int16_t)(carry ? (int)v - (1 << CZD_FB_WBITS) : (int)v);
    }
}

/* scr: 2 B values per thread in the arena, [q][thread] so that a warp's
   accesses are contiguous: the prefix products and the ZZ ZZZ of its
   points (as local arrays they took ~2 KB of stack a thread, which the
   driver reserves for every thread the device can hold: ~600 MB, more
   than the margin the arena leaves) */
template <class F>
__global__ void __launch_bounds__(128) k_fixed_base(czd_affine<F> *out, const czd_fr *scalars,
                                                     size_t n, const czd_affine<F> *tab, F *scr)
{
    constexpr int B = CZD_FB_BATCH(F);
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t nt = (n + B - 1) / B;
    size_t i0 = t * B;
    if (i0 >= n)
        return;
    const int cnt = (int)(n - i0 < (size_t)B ? n - i0 : (size_t)B);
    F *pref = scr + t, *den = scr + (size_t)B * nt + t; /* [q * nt] */
    F acc = F::one();
    for (int q = 0; q < cnt; q++) {
        int16_t dig[CZD_FB_WINDOWS];
        czd_fb_digits(dig, scalars[i0 + q].from_mont());
        czd_xyzz<F> p = czd_xyzz<F>::inf();
        for (int j = 0; j < CZD_FB_WINDOWS; j++) {
            int d = dig[j];
            if (d == 0)
                continue;
            const czd_affine<F> &t = tab[j * CZD_FB_ENTRIES + (d < 0 ? -d : d) - 1];
            if constexpr (sizeof(F) == sizeof(czd_fp))
                p = czd_xyzz<F>::add_affine_inline(p, t.x, d < 0 ? F::neg(t.y) : t.y);
            else
                p = czd_xyzz<F>::add_affine(p, t.x, d < 0 ? F::neg(t.y) : t.y);
        }
        czd_affine<F> r;
        F dd;
        if (p.is_inf()) { /* x = y = 0 whatever the inverse */
            r.x = F::zero();
            r.y = F::zero();
            dd = F::one();
        } else { /* x = X/ZZ = X ZZZ t, y = Y/ZZZ = Y ZZ t, t = 1/(ZZ ZZZ) */
            r.x = p.x * p.zzz;
            r.y = p.y * p.zz;
            dd = p.zz * p.zzz;
        }
        out[i0 + q] = r;
        pref[q * nt] = acc;
        den[q * nt] = dd;
        acc = acc * dd;
    }
    F inv = F::inv(acc);
    for (int q = cnt - 1; q >= 0; q--) {
        F ti = inv * pref[q * nt];
        inv = inv * den[q * nt];
        czd_affine<F> r = out[i0 + q];
        r.x = r.x * ti;
        r.y = r.y * ti;
        out[i0 + q] = r;
    }
}

extern "C" cz_status czd_fixed_base(czd_ctx *ctx, int group, void *dev_out, const void *dev_scalars,
                                    size_t n, const void *dev_table)
{
    if (group != 1 && group != 2)
        return czd_fail(ctx, CZ_ERR_ARG, "fixed base: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    size_t b = group == 1 ? CZD_FB_BATCH(czd_fp) : CZD_FB_BATCH(czd_fp2);
    size_t threads = (n + b - 1) / b;
    czd_scratch sc(ctx);
    if (group == 1) {
        CZD_TAKE(ctx, sc, czd_fp, scr, 2 * b * threads);
        k_fixed_base<czd_fp><<<czd_blocks(threads, 128), 128, 0, ctx->stream>>>(
            (czd_g1_affine *)dev_out, (const czd_fr *)dev_scalars, n,
            (const czd_g1_affine *)dev_table, scr);
    } else {
        CZD_TAKE(ctx, sc, czd_fp2, scr, 2 * b * threads);
        k_fixed_base<czd_fp2><<<czd_blocks(threads, 128), 128, 0, ctx->stream>>>(
            (czd_g2_affine *)dev_out, (const czd_fr *)dev_scalars, n,
            (const czd_g2_affine *)dev_table, scr);
    }
    CZD_LAUNCHED(ctx, "k_fixed_base");
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

/* The same over host arrays, in chunks of up to `chunk` points, pipelined:
   chunk k's kernel runs while chunk k - 1's points go back to the host
   and chunk k + 1's scalars come in (a second stream for the copies, two
   slots of scalars and points; the kernels share one scratch, in order on
   the context's stream). With pageable host memory the copy calls block
   the host thread, which is what overlaps them with the kernel. */
struct czd_fb_pipe {
    cudaStream_t cs = nullptr;
    cudaEvent_t in[2] = {nullptr, nullptr}, done[2] = {nullptr, nullptr};
    ~czd_fb_pipe()
    {
        for (int i = 0; i < 2; i++) {
            if (in[i])
                cudaEventDestroy(in[i]);
            if (done[i])
                cudaEventDestroy(done[i]);
        }
        if (cs) {
            cudaStreamSynchronize(cs);
            cudaStreamDestroy(cs);
        }
    }
};

template <class F>
static cz_status czd_fixed_base_pipe(czd_ctx *ctx, czd_affine<F> *out, const czd_fr *scalars,
                                     size_t n, const czd_affine<F> *tab, size_t chunk)
{
    const size_t b = CZD_FB_BATCH(F), tmax = (chunk + b - 1) / b;
    czd_scratch sc(ctx);
    CZD_TAKE(ctx, sc, F, scr, 2 * b * tmax);
    CZD_TAKE(ctx, sc, czd_fr, s0, chunk);
    CZD_TAKE(ctx, sc, czd_fr, s1, chunk);
    CZD_TAKE(ctx, sc, czd_affine<F>, o0, chunk);
    CZD_TAKE(ctx, sc, czd_affine<F>, o1, chunk);
    czd_fr *sb[2] = {s0, s1};
    czd_affine<F> *ob[2] = {o0, o1};
    czd_fb_pipe p;
    CZD_TRY(ctx, cudaStreamCreateWithFlags(&p.cs, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        CZD_TRY(ctx, cudaEventCreateWithFlags(&p.in[i], cudaEventDisableTiming));
        CZD_TRY(ctx, cudaEventCreateWithFlags(&p.done[i], cudaEventDisableTiming));
    }
    const size_t nchunks = (n + chunk - 1) / chunk;
    for (size_t k = 0; k <= nchunks; k++) {
        const int s = (int)(k & 1);
        if (k < nchunks) {
            size_t i0 = k * chunk, cnt = n - i0 < chunk ? n - i0 : chunk, t = (cnt + b - 1) / b;
            /* slot s was last read by kernel k - 2, whose points went back
               before this copy on the same stream */
            CZD_TRY(ctx, cudaMemcpyAsync(sb[s], scalars + i0, cnt * sizeof(czd_fr),
                                         cudaMemcpyHostToDevice, p.cs));
            CZD_TRY(ctx, cudaEventRecord(p.in[s], p.cs));
            CZD_TRY(ctx, cudaStreamWaitEvent(ctx->stream, p.in[s], 0));
            k_fixed_base<F><<<czd_blocks(t, 128), 128, 0, ctx->stream>>>(ob[s], sb[s], cnt, tab, scr);
            CZD_LAUNCHED(ctx, "k_fixed_base");
            CZD_TRY(ctx, cudaEventRecord(p.done[s], ctx->stream));
        }
        if (k >= 1) { /* chunk k - 1's points back, while kernel k runs */
            const int r = (int)((k - 1) & 1);
            size_t i0 = (k - 1) * chunk, cnt = n - i0 < chunk ? n - i0 : chunk;
            CZD_TRY(ctx, cudaStreamWaitEvent(p.cs, p.done[r], 0));
            CZD_TRY(ctx, cudaMemcpyAsync(out + i0, ob[r], cnt * sizeof(czd_affine<F>),
                                         cudaMemcpyDeviceToHost, p.cs));
        }
    }
    CZD_TRY(ctx, cudaStreamSynchronize(p.cs));
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    return CZ_OK;
}

extern "C" cz_status czd_fixed_base_host(czd_ctx *ctx, int group, void *out, const void *scalars,
                                         size_t n, const void *dev_table, size_t chunk)
{
    if (group != 1 && group != 2)
        return czd_fail(ctx, CZ_ERR_ARG, "fixed base: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    if (chunk == 0)
        return czd_fail(ctx, CZ_ERR_ARG, "fixed base: chunk of 0 points");
    if (group == 1)
        return czd_fixed_base_pipe<czd_fp>(ctx, (czd_g1_affine *)out, (const czd_fr *)scalars, n,
                                           (const czd_g1_affine *)dev_table, chunk);
    return czd_fixed_base_pipe<czd_fp2>(ctx, (czd_g2_affine *)out, (const czd_fr *)scalars, n,
                                        (const czd_g2_affine *)dev_table, chunk);
}

/* ---- compact a/b/c ---- */

/* row i's sum over its nonzeros k0 <= k < k1, the lanes of one thread's
   row or a warp's share of a long one (k from k0 by step) */
__device__ __forceinline__ czd_fr czd_cmat_sum(uint64_t k0, uint64_t k1, unsigned step,
                                               const uint32_t *col, const uint16_t *coef,
                                               const czd_fr *tab, uint32_t n_coefs, const czd_fr *w)
{
    czd_fr s = czd_fr::zero();
    for (uint64_t k = k0; k < k1; k += step) {
        uint32_t c = coef[k];
        if (c < n_coefs)
            s = s + tab[c] * w[col[k]];
    }
    return s;
}

/* Row i of a matrix (0 when !valid). COOP: a row longer than
   CZD_CMAT_LONG is summed by the whole warp (lane l takes nonzeros l,
   l + 32, ..., then a butterfly of shuffles adds the 32 parts), after the
   lanes' short rows; every lane of the warp must call it. Without it a
   warp takes as long as its longest row: porep's packing rows (~900
   nonzeros, one in ~1,000 rows of A) left 91 % of A's lanes idle. */
template <bool COOP>
__device__ __forceinline__ czd_fr czd_cmat_row(const uint64_t *rp, const uint32_t *col,
                                               const uint16_t *coef, const czd_fr *tab,
                                               uint32_t n_coefs, const czd_fr *w, size_t i,
                                               bool valid)
{
    uint64_t k0 = valid ? rp[i] : 0, k1 = valid ? rp[i + 1] : 0;
    if (!COOP)
        return czd_cmat_sum(k0, k1, 1, col, coef, tab, n_coefs, w);
    const bool lng = k1 - k0 > CZD_CMAT_LONG;
    czd_fr s = lng ? czd_fr::zero() : czd_cmat_sum(k0, k1, 1, col, coef, tab, n_coefs, w);
    const unsigned lane = threadIdx.x & 31;
    for (unsigned m = __ballot_sync(0xffffffffu, lng); m; m &= m - 1) {
        const int src = __ffs(m) - 1;
        const uint64_t b0 = __shfl_sync(0xffffffffu, k0, src), b1 = __shfl_sync(0xffffffffu, k1, src);
        czd_fr part = czd_cmat_sum(b0 + lane, b1, 32, col, coef, tab, n_coefs, w);
#pragma unroll
        for (int off = 16; off; off >>= 1) {
            czd_fr o;
#pragma unroll
            for (int j = 0; j < (int)(sizeof o.v / sizeof o.v[0]); j++)
                o.v[j] = __shfl_xor_sync(0xffffffffu, part.v[j], off);
            part = part + o;
        }
        if (lane == (unsigned)src)
            s = part;
    }
    return s;
}

template <bool SHARED, bool COOP>
__global__ void k_eval_abc_compact(czd_fr *a, czd_fr *b, czd_fr *c, const uint64_t *ra,
                                   const uint32_t *ca, const uint16_t *ka, uint32_t na,
                                   const uint64_t *rb, const uint32_t *cb, const uint16_t *kb,
                                   uint32_t nb, const czd_fr *coefs, uint32_t n_coefs,
                                   const czd_fr *w, size_t rows)
{
    extern __shared__ czd_fr s_coef[];
    const czd_fr *tab = coefs;
    if (SHARED) {
        for (uint32_t k = threadIdx.x; k < n_coefs; k += blockDim.x)
            s_coef[k] = coefs[k];
        __syncthreads();
        tab = s_coef;
    }
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (!COOP && i >= rows)
        return;
    /* with COOP every lane goes on to the end (rows past the matrices and
       the domain are empty) */
    czd_fr sa = czd_cmat_row<COOP>(ra, ca, ka, tab, n_coefs, w, i, i < rows && i < na);
    czd_fr sb = czd_cmat_row<COOP>(rb, cb, kb, tab, n_coefs, w, i, i < rows && i < nb);
    if (i >= rows)
        return;
    a[i] = sa;
    b[i] = sb;
    if (c) /* NULL: a key with C folded needs no c */
        c[i] = sa * sb;
}

/* CUZK_ABC_COOP=0: one thread a row however long (the first kernel, for
   A/B runs) */
static bool czd_abc_coop()
{
    const char *e = getenv("CUZK_ABC_COOP");
    return !(e && !strcmp(e, "0"));
}

extern "C" cz_status czd_eval_abc_compact(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                                          const void *dev_ra, const void *dev_ca,
                                          const void *dev_ka, uint32_t na_rows,
                                          const void *dev_rb, const void *dev_cb,
                                          const void *dev_kb, uint32_t nb_rows,
                                          const void *dev_coefs, uint32_t n_coefs,
                                          const void *dev_w, size_t rows)
{
    if (rows == 0)
        return CZ_OK;
    if (na_rows > rows || nb_rows > rows || n_coefs > 65536)
        return czd_fail(ctx, CZ_ERR_ARG, "compact a/b/c: %u / %u matrix rows for %zu, %u coefficients",
                        na_rows, nb_rows, rows, n_coefs);
    const unsigned t = 128, g = czd_blocks(rows, t);
    const bool shared = n_coefs <= CZD_CMAT_SHARED, coop = czd_abc_coop();
    auto kern = shared ? (coop ? k_eval_abc_compact<true, true> : k_eval_abc_compact<true, false>)
                       : (coop ? k_eval_abc_compact<false, true> : k_eval_abc_compact<false, false>);
    kern<<<g, t, shared ? n_coefs * sizeof(czd_fr) : 0, ctx->stream>>>(
        (czd_fr *)dev_a, (czd_fr *)dev_b, (czd_fr *)dev_c, (const uint64_t *)dev_ra,
        (const uint32_t *)dev_ca, (const uint16_t *)dev_ka, na_rows, (const uint64_t *)dev_rb,
        (const uint32_t *)dev_cb, (const uint16_t *)dev_kb, nb_rows, (const czd_fr *)dev_coefs,
        n_coefs, (const czd_fr *)dev_w, rows);
    CZD_LAUNCHED(ctx, "k_eval_abc_compact");
    return CZ_OK;
}

/* ---- packed witness ---- */

__global__ void k_wit_bits(czd_fr *w, size_t n, const uint32_t *bits)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        w[i] = (bits[i >> 5] >> (i & 31)) & 1 ? czd_fr::one() : czd_fr::zero();
}

__global__ void k_wit_scatter(czd_fr *w, const uint32_t *idx, const czd_fr *vals, size_t n_other)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n_other)
        w[idx[k]] = vals[k];
}

extern "C" cz_status czd_witness_expand(czd_ctx *ctx, void *dev_w, size_t n, const void *dev_bits,
                                        const void *dev_idx, const void *dev_vals, size_t n_other)
{
    if (n == 0)
        return CZ_OK;
    k_wit_bits<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>((czd_fr *)dev_w, n,
                                                            (const uint32_t *)dev_bits);
    CZD_LAUNCHED(ctx, "k_wit_bits");
    if (n_other) {
        k_wit_scatter<<<czd_blocks(n_other, 256), 256, 0, ctx->stream>>>(
            (czd_fr *)dev_w, (const uint32_t *)dev_idx, (const czd_fr *)dev_vals, n_other);
        CZD_LAUNCHED(ctx, "k_wit_scatter");
    }
    return CZ_OK;
}

/* ---- gather ---- */

__global__ void k_gather(czd_fr *out, const czd_fr *in, const uint32_t *idx, size_t n)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        out[k] = in[idx[k]];
}

extern "C" cz_status czd_gather(czd_ctx *ctx, void *dev_out, const void *dev_in, const void *dev_idx,
                                size_t n)
{
    if (n == 0)
        return CZ_OK;
    k_gather<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>((czd_fr *)dev_out, (const czd_fr *)dev_in,
                                                          (const uint32_t *)dev_idx, n);
    CZD_LAUNCHED(ctx, "k_gather");
    return CZ_OK;
}
