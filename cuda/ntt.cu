/*
 * ntt.cu: number-theoretic transforms over Fr on the GPU.
 *
 * Both curves: everything here is a template over the field (czd_fr of
 * BLS12-381, czd_fr254 of BN254); czd_ntt / czd_ntt_h are BLS12-381's,
 * czd_ntt_bn254 / czd_ntt_h_bn254 BN254's (2-adicity 28, so 2^28 at most),
 * whose pass kernels exist for one variant only (ntt_pass.cuh's
 * CZD_NTT_BN254_VARIANT, ntt_bn254.cu).
 *
 * DESIGN. Decimation in frequency, natural order in, bit-reversed order
 * out, in place, in passes of at most CZD_NTT_KMAX radix-2 stages. A pass
 * over the sub-transforms of size N' = 2^(k+L) (s0 stages already done)
 * views each one as a 2^k x 2^L matrix, index x = x1 2^L + x2: every block
 * loads 2^lc columns (x2 fixed, x1 varying) into shared memory, runs the k
 * stages of a size-2^k DIF transform with roots of order 2^k (one small
 * table), then multiplies element (k1, x2) by w^((x2 k1) 2^s0), where k1 =
 * bitrev_k(x1) is its frequency: the "twist" of the four-step
 * decomposition, which makes the remaining L stages independent transforms
 * on the rows. Powers of any base b up to n come from two tables, b^e =
 * lo[e mod 2^h] * hi[e >> h] with h = ceil(log n / 2): 2 sqrt(n) elements,
 * built per call in microseconds. Costs per element and pass: k/2
 * butterfly products (in shared memory) + 2 products for the twist and one
 * read and write of 32 bytes; three passes for 2^27.
 *
 * Natural order out: an in-place bit-reversal permutation (pairs swapped by
 * the smaller index), fused with the inverse's 1/n and the inverse coset's
 * g^-j. The forward coset's g^j is one pass before the transform.
 *
 * That is the old path (k_dif_pass), kept for comparison and selected by
 * CUZK_NTT_OLD=1. The default path (log_n >= 3) runs the passes of
 * ntt_pass.cuh: the same decomposition, each thread's 2^R elements in
 * registers through rounds of R radix-2 stages, twiddles of a pass from
 * one table of 2^(k-1) roots, twists from a table of the powers of w_N'
 * when N' <= 2^18 (one product) and from the lo/hi tables above (two)
 * otherwise; a DIF pass's twist is applied by the next pass as it loads,
 * or by itself at its store (variants with TS). The coset's g^x is
 * applied at the first pass's load; the natural order comes from the last
 * pass's store through shared memory, by groups of rows (out of place,
 * through a scratch copy of the data), fused with 1/n and h^f. The H step
 * (czd_ntt_h) runs per vector the inverse as a DIF (bit-reversed out) and
 * the forward as a DIT from that order (natural out): no permutation
 * anywhere; the coset scale g^j / n is folded into the DIT's twists when
 * g^2 = w (the first DIT pass scales its own digit), else it is a product
 * in the last DIF pass; c's last DIT pass writes a * b - c into a (without
 * c, a key with C folded, b's last pass writes a * b: 4 transforms). The
 * inverse's last pass and the forward's first work on the same rows of
 * 2^k elements (L = 0) and meet in the same registers: k_ntt_mid runs
 * them as one kernel, one read and write of each vector less
 * (CUZK_NTT_H_FUSE=0: two kernels). n < 8 uses one thread's direct DFT
 * (k_ntt_tiny). The tables of these passes (roots, twists, coset and
 * scale powers) stay on the device between calls, in a small cache of the
 * context keyed by what they are computed from (ntt_cache.h; "tables kept
 * between calls" below); the old path builds its own every call.
 * Figures: docs/PERF.md. Knobs for A/B runs on the device:
 * CUZK_NTT_VARIANT, CUZK_NTT_H_FUSE, CUZK_NTT_BLOCK_LOG (9..the variant's
 * BL), CUZK_NTT_DIRECT_LOG (largest twist table read directly, 12..22,
 * default 18), CUZK_NTT_OLD, CUZK_NTT_CACHE_MB (0: tables built every
 * call).
 *
 * Variants (ntt_pass.cuh's CZD_NTT_VARIANTS, one translation unit each,
 * cuda/ntt_v<i>.cu): the pass kernels are instantiated side by side for
 * several choices of R (elements per thread), 16-byte global accesses
 * (VEC), the DIF twist at the store (TS) and the register budget
 * (__launch_bounds__), and CUZK_NTT_VARIANT (name or index, read at each
 * transform) picks one, so that one build on the device times them all.
 * The default is CZD_NTT_DEFAULT_VARIANT (r2v10s, the fastest of the eight
 * timed on the H200 at 2^27 and 2^20: docs/PERF.md, 2026-12-02). ptxas (nvcc 13.0.88, sm_90,
 * -Xptxas -v), registers and spill stores in bytes, over the 6 DIF and
 * 6 DIT kernels of a variant (low round of 1..3 stages, with and without
 * the extras; R = 2: 4 and 4):
 *   r3    (R 3, 4-byte accesses, twist at the load, 256 threads, 2 blocks):
 *         128 regs; DIF 148-284 B spilled, DIT 28-92 (commit 38ea5dd's)
 *   r3v   (r3 with 16-byte accesses): 128; DIF 124-248, DIT 20-64
 *   r3vs  (r3v, DIF twist at the store): 128; DIF 136-156, DIT 20-64
 *   r3v1  (r3v, 1 block: up to 255 regs): DIF 152-158, DIT 164-180, no spills
 *   r2v   (R 2, 16-byte, 512 threads, 1 block): DIF 88-92, DIT 92-102, no spills
 *   r2vs  (r2v, DIF twist at the store): DIF 92-96, DIT 92-102, no spills
 *   r2v10 (r2v in blocks of 2^10 elements, 256 threads, 3 blocks): 80;
 *         no spills but DIF with extras and a low round of 2 (52 B)
 *   r2v10s (r2v10, DIF twist at the store, as r2vs is to r2v): 78-80;
 *         three DIF kernels spill 20-56 B; still 3-5 % faster than r2v10
 * Occupancy follows: r3/r3v/r3vs 16 warps per SM (2 blocks of 2^11
 * elements), r3v1 8 (one block; 12 with CUZK_NTT_BLOCK_LOG=10), r2v/r2vs
 * 16 (one block of 2^11), r2v10 24 (three of 2^10).
 * The passes are bound by the Fr product (about 80 % of the IMAD pipe's
 * peak at 2^27), not by instruction fetch: variants with the products as
 * calls of one out-of-line copy (kernels 3-5x smaller, commit 0ddfc09)
 * were 1-19 % slower (docs/PERF.md, 2026-12-03 09:29).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "field.cuh"
#include "ntt_cache.h"
#include "ntt_pass.cuh"

#define CZD_NTT_KMAX 10 /* 2^10 elements of 32 bytes = 32 KiB of shared memory per block */

template <class F>
struct czd_pow_table {
    const F *lo, *hi;
    unsigned h;
    CZD_INLINE F at(uint64_t e) const
    {
        return lo[e & ((1ull << h) - 1)] * hi[e >> h];
    }
};

/* t[i] = b^(i << shift), i < count */
template <class F>
__global__ void k_pow_table(F *t, F b, size_t count, unsigned shift)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    for (unsigned s = 0; s < shift; s++)
        b = F::sqr(b);
    t[i] = F::pow_u64(b, i);
}

__device__ __forceinline__ uint32_t czd_brev(uint32_t x, unsigned bits)
{
    return bits ? __brev(x) >> (32 - bits) : 0;
}

template <class F>
__global__ void k_scale_powers(F *a, size_t n, czd_pow_table<F> g)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = a[i] * g.at(i);
}

/* bit-reversal permutation, then a[j] *= c * h^j (flags: 1 = c, 2 = h) */
template <class F>
__global__ void k_bitrev_scale(F *a, unsigned log_n, F c, czd_pow_table<F> h, int flags)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t n = (size_t)1 << log_n;
    if (i >= n)
        return;
    size_t r = czd_brev((uint32_t)i, log_n);
    if (r < i)
        return;
    F x = a[i], y = a[r];
    if (flags & 1) {
        x = x * c;
        y = y * c;
    }
    if (flags & 2) {
        y = y * h.at(i);
        x = x * h.at(r);
    }
    a[i] = y;
    a[r] = x;
}

/* One DIF pass; see the DESIGN note. roots[j] = w^(j << (log_n - kr)),
   j < 2^(kr-1), a table of roots of order 2^kr, kr >= k. */
template <class F>
__global__ void __launch_bounds__(512) k_dif_pass(F *a, unsigned log_n, unsigned s0, unsigned k,
                                                  unsigned lc, const F *roots, unsigned kr,
                                                  czd_pow_table<F> tw)
{
    extern __shared__ uint4 czd_dif_sh[]; /* one name for every field's instance */
    F *sh = reinterpret_cast<F *>(czd_dif_sh);
    const unsigned L = log_n - s0 - k;
    const size_t groups_lo = (size_t)1 << (L - lc);
    const size_t bid = blockIdx.x;
    const size_t lowgroup = bid & (groups_lo - 1);
    const size_t high = bid >> (L - lc);
    const size_t base = (high << (k + L)) + (lowgroup << lc);
    const unsigned elems = 1u << (k + lc);
    const unsigned cmask = (1u << lc) - 1;

    for (unsigned e = threadIdx.x; e < elems; e += blockDim.x) {
        unsigned c = e & cmask, x1 = e >> lc;
        sh[e] = a[base + ((size_t)x1 << L) + c];
    }
    __syncthreads();
    for (unsigned t = 0; t < k; t++) {
        const unsigned hl = k - 1 - t; /* log2 of half */
        for (unsigned b = threadIdx.x; b < elems / 2; b += blockDim.x) {
            unsigned c = b & cmask, bb = b >> lc;
            unsigned j = bb & ((1u << hl) - 1), grp = bb >> hl;
            unsigned i0 = (grp << (hl + 1)) + j, i1 = i0 + (1u << hl);
            F u = sh[(i0 << lc) + c], v = sh[(i1 << lc) + c];
            sh[(i0 << lc) + c] = u + v;
            F d = u - v;
            if (j)
                d = d * roots[(j << t) << (kr - k)];
            sh[(i1 << lc) + c] = d;
        }
        __syncthreads();
    }
    for (unsigned e = threadIdx.x; e < elems; e += blockDim.x) {
        unsigned c = e & cmask, x1 = e >> lc;
        F v = sh[e];
        if (L) {
            uint64_t k1 = czd_brev(x1, k);
            uint64_t x2 = (lowgroup << lc) + c;
            uint64_t ex = (x2 * k1) << s0;
            if (ex)
                v = v * tw.at(ex);
        }
        a[base + ((size_t)x1 << L) + c] = v;
    }
}

template <class F>
static cz_status czd_pow_tables(czd_ctx *ctx, czd_scratch &sc, czd_pow_table<F> *pt, const F &b,
                                unsigned log_n)
{
    unsigned h = (log_n + 1) / 2;
    size_t nlo = (size_t)1 << h, nhi = ((size_t)1 << (log_n - h)) + 1;
    CZD_TAKE(ctx, sc, F, lo, nlo);
    CZD_TAKE(ctx, sc, F, hi, nhi);
    k_pow_table<<<czd_blocks(nlo, 128), 128, 0, ctx->stream>>>(lo, b, nlo, 0);
    CZD_LAUNCHED(ctx, "k_pow_table");
    k_pow_table<<<czd_blocks(nhi, 128), 128, 0, ctx->stream>>>(hi, b, nhi, h);
    CZD_LAUNCHED(ctx, "k_pow_table");
    pt->lo = lo;
    pt->hi = hi;
    pt->h = h;
    return CZ_OK;
}

template <class F>
static cz_status czd_ntt_old(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,
                             const void *pre_g, int bitrev_out, const void *post_c, const void *post_h)
{
    if (log_n > 31)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT size 2^%u too large", log_n);
    F *a = (F *)dev_a;
    size_t n = (size_t)1 << log_n;
    czd_scratch sc(ctx);
    char what[48];
    snprintf(what, sizeof what, "ntt 2^%u", log_n);
    czd_prof prof(ctx, what);
    F w;
    memcpy(&w, w_host, sizeof w);
    cz_status st;

    if (pre_g) {
        F g;
        memcpy(&g, pre_g, sizeof g);
        czd_pow_table<F> gt;
        if ((st = czd_pow_tables(ctx, sc, &gt, g, log_n)) != CZ_OK)
            return st;
        k_scale_powers<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(a, n, gt);
        CZD_LAUNCHED(ctx, "k_scale_powers");
        prof.mark("pre_scale");
    }

    if (log_n > 0) {
        czd_pow_table<F> tw;
        if ((st = czd_pow_tables(ctx, sc, &tw, w, log_n)) != CZ_OK)
            return st;
        unsigned kr = log_n < CZD_NTT_KMAX ? log_n : CZD_NTT_KMAX;
        size_t nroots = (size_t)1 << (kr - 1);
        CZD_TAKE(ctx, sc, F, roots, nroots);
        k_pow_table<<<czd_blocks(nroots, 128), 128, 0, ctx->stream>>>(roots, w, nroots, log_n - kr);
        CZD_LAUNCHED(ctx, "k_pow_table");
        prof.mark("tables");

        unsigned npass = (log_n + CZD_NTT_KMAX - 1) / CZD_NTT_KMAX;
        unsigned s0 = 0;
        for (unsigned p = 0; p < npass; p++) {
            unsigned k = log_n / npass + (p < log_n % npass ? 1 : 0);
            unsigned L = log_n - s0 - k;
            unsigned lc = CZD_NTT_KMAX - k;
            if (lc > L)
                lc = L;
            unsigned elems = 1u << (k + lc);
            unsigned threads = elems / 2 < 512 ? elems / 2 : 512;
            if (threads < 32)
                threads = 32;
            size_t blocks = n >> (k + lc);
            k_dif_pass<<<(unsigned)blocks, threads, elems * sizeof(F), ctx->stream>>>(
                a, log_n, s0, k, lc, roots, kr, tw);
            CZD_LAUNCHED(ctx, "k_dif_pass");
            prof.mark(p == 0 ? "pass0" : p == 1 ? "pass1" : p == 2 ? "pass2" : "pass3+");
            s0 += k;
        }
    }

    if (!bitrev_out && log_n > 0) {
        F c, h;
        memset(&c, 0, sizeof c);
        memset(&h, 0, sizeof h);
        czd_pow_table<F> ht = {nullptr, nullptr, 0};
        int flags = 0;
        if (post_c) {
            memcpy(&c, post_c, sizeof c);
            flags |= 1;
        }
        if (post_h) {
            memcpy(&h, post_h, sizeof h);
            if ((st = czd_pow_tables(ctx, sc, &ht, h, log_n)) != CZ_OK)
                return st;
            flags |= 2;
        }
        k_bitrev_scale<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(a, log_n, c, ht, flags);
        CZD_LAUNCHED(ctx, "k_bitrev_scale");
        prof.mark("bitrev_post");
    } else if (!bitrev_out && (post_c || post_h)) {
        /* n = 1: a[0] *= c */
        if (post_c) {
            F c;
            memcpy(&c, post_c, sizeof c);
            czd_pow_table<F> one_t = {nullptr, nullptr, 0};
            (void)one_t;
            k_bitrev_scale<<<1, 32, 0, ctx->stream>>>(a, 0, c, one_t, 1);
            CZD_LAUNCHED(ctx, "k_bitrev_scale");
        }
    }
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    prof.report();
    return CZ_OK;
}

/* ---- the register-round passes (ntt_pass.cuh) ---- */

#define CZD_NTT_PASS_KMAX 10
/* elements per block: 2^max (the variant's BL), or CUZK_NTT_BLOCK_LOG
   (9..max) for tuning */
static unsigned czd_ntt_block_log(unsigned max)
{
    const char *e = getenv("CUZK_NTT_BLOCK_LOG");
    unsigned b = e && *e ? (unsigned)atoi(e) : max;
    return b < 9 ? 9 : b > max ? max : b;
}
#define CZD_NTT_DIRECT_LOG 18 /* twist tables of up to 2^18 powers (8 MiB) are read directly */

/* the largest twist table read directly: 2^18 powers, or
   CUZK_NTT_DIRECT_LOG (12..22) for tuning (19 makes the H step's second
   forward pass at 2^27 take one product per twist instead of two, from a
   16 MiB table) */
static unsigned czd_ntt_direct_log(void)
{
    const char *e = getenv("CUZK_NTT_DIRECT_LOG");
    unsigned d = e && *e ? (unsigned)atoi(e) : CZD_NTT_DIRECT_LOG;
    return d < 12 ? 12 : d > 22 ? 22 : d;
}

/* t[i] = b.at(i << shift), i < count */
template <class F>
__global__ void k_pow_direct(F *t, czd_powt<F> b, size_t count, unsigned shift)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        t[i] = b.at<false>((uint64_t)i << shift);
}

template <class F>
__global__ void k_mul_const(F *t, size_t count, F c)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        t[i] = t[i] * c;
}

/* n <= 4: a direct DFT in one thread, with the options of czd_ntt */
template <class F>
__global__ void k_ntt_tiny(F *a, unsigned log_n, F w, int pre, F g, int bitrev_out,
                           int pc, F c, int ph, F h)
{
    const unsigned n = 1u << log_n;
    F x[4], y[4];
    F gp = F::one();
    for (unsigned i = 0; i < n; i++) {
        x[i] = pre ? a[i] * gp : a[i];
        gp = gp * g;
    }
    F wf = F::one();
    for (unsigned f = 0; f < n; f++) {
        F acc = F::zero(), wp = F::one();
        for (unsigned i = 0; i < n; i++) {
            acc = acc + x[i] * wp;
            wp = wp * wf;
        }
        y[f] = acc;
        wf = wf * w;
    }
    F hp = F::one();
    for (unsigned f = 0; f < n; f++) {
        F r = y[f];
        if (!bitrev_out) {
            if (pc)
                r = r * c;
            if (ph)
                r = r * hp;
        }
        hp = hp * h;
        a[bitrev_out ? czd_bitrev(f, log_n) : f] = r;
    }
}

template <class F>
__global__ void k_h_product(F *a, const F *b, const F *c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = c ? a[i] * b[i] - c[i] : a[i] * b[i];
}

static bool czd_ntt_old_path(void)
{
    const char *e = getenv("CUZK_NTT_OLD");
    return e && *e && strcmp(e, "0") != 0;
}

/* The passes of a 2^log_n transform (log_n >= 3), in DIF order, and their
   tables for one root w. */
template <class F>
struct czd_ntt_plan {
    unsigned log_n, npass;
    unsigned k[4], s0[4], lc[4];
    czd_powt<F> wt;   /* powers of w */
    const F *roots[4]; /* per pass: w_2^k^e, e < 2^(k-1) */
    int tw[4];
    const F *twd[4];
};

/* lo/hi tables of the powers of b, for exponents below 2^log_n; c (when
   given) folded into hi, so at(e) = c b^e */
template <class F>
static cz_status czd_powt_make(czd_ctx *ctx, czd_scratch &sc, czd_powt<F> *pt, const F &b,
                               unsigned log_n, const F *c)
{
    unsigned h = (log_n + 1) / 2;
    size_t nlo = (size_t)1 << h, nhi = ((size_t)1 << (log_n - h)) + 1;
    CZD_TAKE(ctx, sc, F, lo, nlo);
    CZD_TAKE(ctx, sc, F, hi, nhi);
    k_pow_table<<<czd_blocks(nlo, 128), 128, 0, ctx->stream>>>(lo, b, nlo, 0);
    CZD_LAUNCHED(ctx, "k_pow_table");
    k_pow_table<<<czd_blocks(nhi, 128), 128, 0, ctx->stream>>>(hi, b, nhi, h);
    CZD_LAUNCHED(ctx, "k_pow_table");
    if (c) {
        k_mul_const<<<czd_blocks(nhi, 128), 128, 0, ctx->stream>>>(hi, nhi, *c);
        CZD_LAUNCHED(ctx, "k_mul_const");
    }
    pt->lo = lo;
    pt->hi = hi;
    pt->h = h;
    return CZ_OK;
}

/* w: a root of order 2^(log_n + extra); extra = 1 for the H step's
   forward transform, whose twists then also apply the coset w (w^2 the
   transform's root; see czd_pass_args::coset) */
template <class F>
static cz_status czd_plan_make(czd_ctx *ctx, czd_scratch &sc, czd_ntt_plan<F> *pl, const F &w,
                               unsigned log_n, unsigned extra, unsigned bl)
{
    const unsigned root_log = log_n + extra;
    pl->log_n = log_n;
    pl->npass = (log_n + CZD_NTT_PASS_KMAX - 1) / CZD_NTT_PASS_KMAX;
    cz_status st = czd_powt_make<F>(ctx, sc, &pl->wt, w, root_log, nullptr);
    if (st != CZ_OK)
        return st;
    const unsigned direct_log = czd_ntt_direct_log();
    unsigned s0 = 0;
    for (unsigned p = 0; p < pl->npass; p++) {
        unsigned k = log_n / pl->npass + (p < log_n % pl->npass ? 1 : 0);
        unsigned L = log_n - s0 - k;
        unsigned lc = bl > k ? bl - k : 0;
        if (lc > L)
            lc = L;
        pl->k[p] = k;
        pl->s0[p] = s0;
        pl->lc[p] = lc;
        size_t nroots = (size_t)1 << (k - 1);
        CZD_TAKE(ctx, sc, F, roots, nroots);
        k_pow_direct<<<czd_blocks(nroots, 128), 128, 0, ctx->stream>>>(roots, pl->wt, nroots,
                                                                        root_log - k);
        CZD_LAUNCHED(ctx, "k_pow_direct");
        pl->roots[p] = roots;
        pl->twd[p] = nullptr;
        if (L == 0) {
            pl->tw[p] = CZD_TW_NONE;
        } else if (root_log - s0 <= direct_log) {
            size_t nt = (size_t)1 << (root_log - s0);
            CZD_TAKE(ctx, sc, F, twd, nt);
            k_pow_direct<<<czd_blocks(nt, 256), 256, 0, ctx->stream>>>(twd, pl->wt, nt, s0);
            CZD_LAUNCHED(ctx, "k_pow_direct");
            pl->tw[p] = CZD_TW_DIRECT;
            pl->twd[p] = twd;
        } else {
            pl->tw[p] = CZD_TW_POW;
        }
        s0 += k;
    }
    return CZ_OK;
}

/* t[x] = c b.at(bitrev_k(x) << shift), x < 2^k */
template <class F>
__global__ void k_pow_bitrev(F *t, czd_powt<F> b, unsigned k, unsigned shift, F c)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < (1u << k))
        t[x] = c * b.at((uint64_t)czd_bitrev(x, k) << shift);
}

/* ---- tables kept between calls (ntt_cache.h) ----

   Everything the passes of one call read besides the data: a call of
   czd_ntt uses fwd (its plan) and pre_t / post_t, czd_ntt_h inv, fwd and
   scale or pre_x. On a miss the tables are built in the call's scratch as
   before, then copied into a block of the cache (cudaMalloc, outside the
   arena) with their pointers moved, and the scratch is given back; on a
   hit nothing is launched before the first pass. Bytes (32-byte elements,
   256-byte aligned pieces): a plan is the lo/hi powers of w (2^h +
   2^(log - h) + 1 elements, h = ceil(log / 2)), each pass's 2^(k-1)
   roots and the twist tables read directly (2^(log - s0) powers when that
   is at most 2^CZD_NTT_DIRECT_LOG), by that rule with blocks of 2^10:
   forward 2^20 0.09 MiB, 2^24 2.3, 2^27 8.8 (the 2^18-power table of the
   second pass), 2^28 9.0; a coset or natural inverse adds the lo/hi
   powers of its scale (2^27: 9.5); the H step (two plans) 0.25 MiB at
   2^20, at 2^27 9.8 with g^2 = w and 18.3 on a general coset, at 2^28
   10.6 / 19.1. CUZK_NTT_CACHE_MB (read at each
   call, default CZ_NTT_CACHE_DEFAULT_MB; 0: no cache, the tables are
   built every call) caps the bytes held; CZ_NTT_CACHE_SLOTS entries at
   most. The context's owner serialises calls, and with them the cache. */
template <class F>
struct czd_ntt_tables {
    czd_ntt_plan<F> fwd, inv;
    czd_powt<F> pre_t, post_t, scale;
    const F *pre_x;
};
static_assert(sizeof(czd_ntt_tables<czd_fr>) <= CZ_NTT_CACHE_META_MAX, "meta too small");
static_assert(sizeof(czd_ntt_tables<czd_fr254>) <= CZ_NTT_CACHE_META_MAX, "meta too small");

/* what the tables of a call are computed from; zero-filled, then set */
struct czd_ntt_key {
    uint32_t field, kind, log_n, bl, direct_log, flags;
    unsigned char el[4][32];
};
enum { CZD_KEY_NTT = 1, CZD_KEY_H = 2 };
static uint32_t czd_field_tag(const czd_fr *) { return 1; }
static uint32_t czd_field_tag(const czd_fr254 *) { return 2; }

static void *czd_cache_alloc(void *user, size_t bytes)
{
    (void)user;
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
        cudaGetLastError(); /* a failed allocation must not fail the next launch check */
        return nullptr;
    }
    return p;
}

static void czd_cache_release(void *user, void *block)
{
    czd_ctx *ctx = (czd_ctx *)user;
    cudaStreamSynchronize(ctx->stream); /* no queued pass still reads it */
    cudaFree(block);
}

static size_t czd_ntt_cache_cap(void)
{
    const char *e = getenv("CUZK_NTT_CACHE_MB");
    long mb = e && *e ? atol(e) : CZ_NTT_CACHE_DEFAULT_MB;
    if (mb < 0)
        mb = 0;
    if (mb > 65536)
        mb = 65536;
    return (size_t)mb << 20;
}

/* the context's cache, made on first use; NULL when off (cap 0) or out
   of host memory */
static cz_ntt_cache *czd_ntt_cache_get(czd_ctx *ctx)
{
    size_t cap = czd_ntt_cache_cap();
    if (!ctx->ntt_cache) {
        if (!cap)
            return nullptr;
        ctx->ntt_cache = (cz_ntt_cache *)malloc(sizeof(cz_ntt_cache));
        if (!ctx->ntt_cache)
            return nullptr;
        cz_ntt_cache_init(ctx->ntt_cache, cap, czd_cache_alloc, czd_cache_release, ctx);
    }
    cz_ntt_cache *c = ctx->ntt_cache;
    if (c->cap != cap) { /* the knob changed: start again under the new cap */
        cz_ntt_cache_clear(c);
        c->cap = cap;
    }
    return cap ? c : nullptr;
}

void czd_ntt_cache_drop(czd_ctx *ctx)
{
    if (!ctx->ntt_cache)
        return;
    cz_ntt_cache_clear(ctx->ntt_cache);
    free(ctx->ntt_cache);
    ctx->ntt_cache = nullptr;
}

template <class F>
static void czd_move(const F *&p, const char *from, size_t bytes, char *to)
{
    const char *q = reinterpret_cast<const char *>(p);
    if (q >= from && q < from + bytes)
        p = reinterpret_cast<const F *>(to + (q - from));
}

template <class F>
static void czd_tables_move(czd_ntt_tables<F> *t, const char *from, size_t bytes, char *to)
{
    czd_ntt_plan<F> *pl[2] = {&t->fwd, &t->inv};
    for (int i = 0; i < 2; i++) {
        czd_move(pl[i]->wt.lo, from, bytes, to);
        czd_move(pl[i]->wt.hi, from, bytes, to);
        for (int p = 0; p < 4; p++) {
            czd_move(pl[i]->roots[p], from, bytes, to);
            czd_move(pl[i]->twd[p], from, bytes, to);
        }
    }
    czd_powt<F> *pw[3] = {&t->pre_t, &t->post_t, &t->scale};
    for (int i = 0; i < 3; i++) {
        czd_move(pw[i]->lo, from, bytes, to);
        czd_move(pw[i]->hi, from, bytes, to);
    }
    czd_move(t->pre_x, from, bytes, to);
}

/* The tables of a call into *t: the cached ones (*hit), or build(t) into
   the scratch sc (which must be empty), kept in the cache when it takes
   them (the scratch is then given back). *bytes: their size. */
template <class F, class B>
static cz_status czd_tables_get(czd_ctx *ctx, czd_scratch &sc, const czd_ntt_key &key,
                                czd_ntt_tables<F> *t, bool *hit, size_t *bytes, B build)
{
    cz_ntt_cache *c = czd_ntt_cache_get(ctx);
    *hit = false;
    if (c) {
        cz_ntt_cache_entry *e = cz_ntt_cache_find(c, &key, sizeof key);
        if (e) {
            memcpy(t, e->meta, sizeof *t);
            *hit = true;
            *bytes = e->bytes;
            return CZ_OK;
        }
    }
    memset(t, 0, sizeof *t);
    sc.off = 0;
    cz_status st = build(t);
    if (st != CZ_OK)
        return st;
    *bytes = sc.off;
    if (!c)
        return CZ_OK;
    cz_ntt_cache_entry *e = cz_ntt_cache_insert(c, &key, sizeof key, sc.off, nullptr, 0);
    if (!e)
        return CZ_OK; /* too large for the cap, or no device memory: scratch tables */
    cudaError_t ce =
        cudaMemcpyAsync(e->block, sc.base, sc.off, cudaMemcpyDeviceToDevice, ctx->stream);
    if (ce != cudaSuccess) {
        cz_ntt_cache_evict(c, e);
        CZD_TRY(ctx, ce);
    }
    czd_ntt_tables<F> moved = *t;
    czd_tables_move(&moved, sc.base, sc.off, (char *)e->block);
    memcpy(e->meta, &moved, sizeof moved);
    *t = moved;
    sc.off = 0; /* the copy is queued before anything that reuses the scratch */
    return CZ_OK;
}

/* pass p's arguments; its twist: a DIT pass's own, a DIF pass's
   predecessor's (applied at the load), or its own with ts (the variant
   applies it at the store) */
template <class F>
static czd_pass_args<F> czd_pass_base(const czd_ntt_plan<F> *pl, unsigned p, const F *src,
                                           F *dst, bool dit, bool ts)
{
    czd_pass_args<F> a;
    memset(&a, 0, sizeof a);
    a.src = src;
    a.dst = dst;
    a.log_n = pl->log_n;
    a.s0 = pl->s0[p];
    a.k = pl->k[p];
    a.lc = pl->lc[p];
    a.roots = pl->roots[p];
    a.twp = pl->wt;
    unsigned tp = dit || ts ? p : p - 1;
    if (dit || ts || p > 0) {
        a.tw = pl->tw[tp];
        a.twd = pl->twd[tp];
        a.tw_s0 = pl->s0[tp];
        a.tw_k = pl->k[tp];
        a.tw_L = pl->log_n - pl->s0[tp] - pl->k[tp];
    }
    return a;
}

/* ---- the variants (ntt_pass.cuh's CZD_NTT_VARIANTS) ---- */

/* r2v10s: the fastest on the H200 (2^27: forward 42.2 ms, H step 278 ms,
   against r2v10's 44.5 / 284.5, r2v's 50.9 / 321.7 and r3's 71.2 / 417.7;
   2^20: 0.308 ms against 0.322; docs/PERF.md) */
#define CZD_NTT_DEFAULT_VARIANT 7

template <class F>
struct czd_ntt_variant {
    const char *name;
    int r, vec, ts, minb;
    unsigned bl;
    cz_status (*launch)(czd_ctx *, bool, const czd_pass_args<F> &);
    cz_status (*mid)(czd_ctx *, const czd_pass_args<F> &, const czd_pass_args<F> &);
};
#define CZD_NTT_VARIANT_ROW(i, name, r, vec, ts, minb, bl)                                         \
    {name, r, vec, ts, minb, bl, czd_ntt_launch_v##i, czd_ntt_mid_v##i},
static const czd_ntt_variant<czd_fr> czd_ntt_variants[CZD_NTT_NVARIANTS] = {CZD_NTT_VARIANTS(CZD_NTT_VARIANT_ROW)};
#undef CZD_NTT_VARIANT_ROW

/* CUZK_NTT_VARIANT: a variant's name or index, read at each transform (a
   test or a benchmark may change it between calls); unset or empty: the
   default. An unknown value is refused (CZ_ERR_ARG). */
static cz_status czd_ntt_variant_get(czd_ctx *ctx, const czd_ntt_variant<czd_fr> **out)
{
    const char *e = getenv("CUZK_NTT_VARIANT");
    *out = &czd_ntt_variants[CZD_NTT_DEFAULT_VARIANT];
    if (!e || !*e)
        return CZ_OK;
    for (int i = 0; i < CZD_NTT_NVARIANTS; i++) {
        char num[8];
        snprintf(num, sizeof num, "%d", i);
        if (strcmp(e, czd_ntt_variants[i].name) == 0 || strcmp(e, num) == 0) {
            *out = &czd_ntt_variants[i];
            return CZ_OK;
        }
    }
    char names[128] = "";
    for (int i = 0; i < CZD_NTT_NVARIANTS; i++) {
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, czd_ntt_variants[i].name, sizeof names - strlen(names) - 1);
    }
    return czd_fail(ctx, CZ_ERR_ARG, "CUZK_NTT_VARIANT=%.32s: no such NTT variant (%s, or 0..%d)", e,
                    names, CZD_NTT_NVARIANTS - 1);
}

/* BN254's Fr: the one variant ntt_bn254.cu instantiates
   (CZD_NTT_BN254_VARIANT); CUZK_NTT_VARIANT is not read */
static cz_status czd_ntt_variant_get(czd_ctx *ctx, const czd_ntt_variant<czd_fr254> **out)
{
    (void)ctx;
    const czd_ntt_variant<czd_fr> &d = czd_ntt_variants[CZD_NTT_BN254_VARIANT];
    static const czd_ntt_variant<czd_fr254> v = {
        d.name, d.r, d.vec, d.ts, d.minb, d.bl, czd_ntt_launch_bn254, czd_ntt_mid_bn254};
    *out = &v;
    return CZ_OK;
}

/* CUZK_NTT_H_FUSE=0: the H step runs the inverse's last pass and the
   forward's first as two kernels instead of one (k_ntt_mid) */
static bool czd_ntt_h_fuse(void)
{
    const char *e = getenv("CUZK_NTT_H_FUSE");
    return !(e && *e && strcmp(e, "0") == 0);
}

static const char *czd_pass_name(bool dit, unsigned p)
{
    static const char *dif[4] = {"dif0", "dif1", "dif2", "dif3"};
    static const char *ditn[4] = {"dit0", "dit1", "dit2", "dit3"};
    return dit ? ditn[p & 3] : dif[p & 3];
}

template <class F>
static cz_status czd_ntt_impl(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,
                              const void *pre_g, int bitrev_out, const void *post_c,
                              const void *post_h)
{
    if (log_n > 31)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT size 2^%u too large", log_n);
    const czd_ntt_variant<F> *nv;
    cz_status st;
    if ((st = czd_ntt_variant_get(ctx, &nv)) != CZ_OK)
        return st;
    if (czd_ntt_old_path() || log_n > 28)
        return czd_ntt_old<F>(ctx, dev_a, log_n, w_host, pre_g, bitrev_out, post_c, post_h);
    F *a = (F *)dev_a;
    size_t n = (size_t)1 << log_n;
    F w, g, c, h;
    memcpy(&w, w_host, sizeof w);
    memset(&g, 0, sizeof g);
    memset(&c, 0, sizeof c);
    memset(&h, 0, sizeof h);
    if (pre_g)
        memcpy(&g, pre_g, sizeof g);
    if (post_c)
        memcpy(&c, post_c, sizeof c);
    if (post_h)
        memcpy(&h, post_h, sizeof h);
    if (log_n < 3) {
        k_ntt_tiny<<<1, 1, 0, ctx->stream>>>(a, log_n, w, pre_g != nullptr, g, bitrev_out,
                                              post_c != nullptr, c, post_h != nullptr, h);
        CZD_LAUNCHED(ctx, "k_ntt_tiny");
        CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return CZ_OK;
    }
    czd_scratch sc(ctx);
    char what[64];
    snprintf(what, sizeof what, "ntt 2^%u", log_n);
    czd_prof prof(ctx, what);
    const unsigned bl = czd_ntt_block_log(nv->bl);
    int post = 0;
    if (!bitrev_out) {
        post = CZD_POST_NATURAL;
        if (post_h)
            post |= CZD_POST_POW;
        else if (post_c)
            post |= CZD_POST_C;
    }
    /* the tables: the plan of w, the powers of g (pre), c h^j (post) */
    czd_ntt_key key;
    memset(&key, 0, sizeof key);
    key.field = czd_field_tag(&w);
    key.kind = CZD_KEY_NTT;
    key.log_n = log_n;
    key.bl = bl;
    key.direct_log = czd_ntt_direct_log();
    memcpy(key.el[0], &w, sizeof w);
    if (pre_g) {
        key.flags |= 1;
        memcpy(key.el[1], &g, sizeof g);
    }
    if (post & CZD_POST_POW) {
        key.flags |= 2;
        memcpy(key.el[2], &h, sizeof h);
        if (post_c) {
            key.flags |= 4;
            memcpy(key.el[3], &c, sizeof c);
        }
    }
    czd_ntt_tables<F> tt;
    bool hit;
    size_t tbytes;
    st = czd_tables_get<F>(ctx, sc, key, &tt, &hit, &tbytes, [&](czd_ntt_tables<F> *t) {
        cz_status s2 = czd_plan_make(ctx, sc, &t->fwd, w, log_n, 0, bl);
        if (s2 == CZ_OK && pre_g)
            s2 = czd_powt_make<F>(ctx, sc, &t->pre_t, g, log_n, nullptr);
        if (s2 == CZ_OK && (post & CZD_POST_POW))
            s2 = czd_powt_make<F>(ctx, sc, &t->post_t, h, log_n, post_c ? &c : nullptr);
        return s2;
    });
    if (st != CZ_OK)
        return st;
    snprintf(what, sizeof what, "ntt 2^%u (tables %zu B %s)", log_n, tbytes,
             hit ? "cached" : "built");
    const czd_ntt_plan<F> &pl = tt.fwd;
    const czd_powt<F> pre_t = tt.pre_t, post_t = tt.post_t;
    /* natural order out of several passes: out of place through a scratch
       copy (the last pass writes to positions other blocks still read) */
    F *tmp = a;
    if (!bitrev_out && pl.npass > 1) {
        tmp = sc.take<F>(n);
        if (!tmp) /* no room: the old path permutes in place */
            return czd_ntt_old<F>(ctx, dev_a, log_n, w_host, pre_g, bitrev_out, post_c, post_h);
    }
    if (!hit)
        prof.mark("tables"); /* absent from the profile: a cache hit */
    for (unsigned p = 0; p < pl.npass; p++) {
        bool last = p + 1 == pl.npass;
        czd_pass_args<F> pa = czd_pass_base(&pl, p, p == 0 ? a : tmp, last ? a : tmp, false, nv->ts);
        if (p == 0 && pre_g) {
            pa.pre = 1;
            pa.pre_t = pre_t;
        }
        if (last) {
            pa.post = post;
            pa.post_c = c;
            pa.post_t = post_t;
            if (post & CZD_POST_NATURAL) { /* rows: 2^lc of them per block */
                unsigned m = log_n - pa.k;
                if (m > 3)
                    m = 3;
                if (pa.k + m > bl)
                    m = bl > pa.k ? bl - pa.k : 0;
                pa.rows = 1;
                pa.lc = m;
            }
        }
        if ((st = nv->launch(ctx, false, pa)) != CZ_OK)
            return st;
        prof.mark(czd_pass_name(false, p));
    }
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    prof.report();
    return CZ_OK;
}

/* h = A B - C on the coset g (see czd.h) */
template <class F>
static cz_status czd_ntt_h_impl(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, unsigned log_n,
                                const void *w_host, const void *w_inv_host, const void *n_inv_host,
                                const void *g_host, int g_half)
{
    if (log_n > 28)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT size 2^%u too large", log_n);
    F *v[3] = {(F *)dev_a, (F *)dev_b, (F *)dev_c};
    const int nvec = dev_c ? 3 : 2; /* no c: C folded into the key, h = a b */
    size_t n = (size_t)1 << log_n;
    const czd_ntt_variant<F> *nv;
    cz_status st;
    if ((st = czd_ntt_variant_get(ctx, &nv)) != CZ_OK)
        return st;
    if (czd_ntt_old_path() || log_n < 3) {
        for (int i = 0; i < nvec; i++) {
            if ((st = czd_ntt_impl<F>(ctx, v[i], log_n, w_inv_host, nullptr, 0, n_inv_host,
                                      g_host)) != CZ_OK)
                return st;
            if ((st = czd_ntt_impl<F>(ctx, v[i], log_n, w_host, nullptr, 0, nullptr, nullptr)) !=
                CZ_OK)
                return st;
        }
        k_h_product<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(v[0], v[1], v[2], n);
        CZD_LAUNCHED(ctx, "k_h_product");
        CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return CZ_OK;
    }
    F w, wi, ni, g;
    memcpy(&w, w_host, sizeof w);
    memcpy(&wi, w_inv_host, sizeof wi);
    memcpy(&ni, n_inv_host, sizeof ni);
    memcpy(&g, g_host, sizeof g);
    czd_scratch sc(ctx);
    char what[64];
    snprintf(what, sizeof what, "ntt_h 2^%u", log_n);
    czd_prof prof(ctx, what);
    const unsigned bl = czd_ntt_block_log(nv->bl);
    czd_ntt_key key;
    memset(&key, 0, sizeof key);
    key.field = czd_field_tag(&w);
    key.kind = CZD_KEY_H;
    key.log_n = log_n;
    key.bl = bl;
    key.direct_log = czd_ntt_direct_log();
    key.flags = g_half ? 1 : 0;
    memcpy(key.el[0], &w, sizeof w);
    memcpy(key.el[1], &wi, sizeof wi);
    memcpy(key.el[2], &ni, sizeof ni);
    memcpy(key.el[3], &g, sizeof g);
    czd_ntt_tables<F> tt;
    bool hit;
    size_t tbytes;
    st = czd_tables_get<F>(ctx, sc, key, &tt, &hit, &tbytes, [&](czd_ntt_tables<F> *t) {
        cz_status s2 = czd_plan_make(ctx, sc, &t->inv, wi, log_n, 0, bl);
        if (s2 != CZ_OK)
            return s2;
        if (!g_half) {
            s2 = czd_plan_make(ctx, sc, &t->fwd, w, log_n, 0, bl);
            if (s2 == CZ_OK)
                s2 = czd_powt_make<F>(ctx, sc, &t->scale, g, log_n, &ni);
            return s2;
        }
        /* g = w_2n: the forward plan from g; the first DIT pass scales its
           digit (pre_x, 1/n folded in), the twists of the others theirs */
        if ((s2 = czd_plan_make(ctx, sc, &t->fwd, g, log_n, 1, bl)) != CZ_OK)
            return s2;
        const czd_ntt_plan<F> &fp = t->fwd;
        unsigned kl = fp.k[fp.npass - 1];
        F *px = sc.take<F>((size_t)1 << kl);
        if (!px)
            return czd_fail(ctx, CZ_ERR_NOMEM, "device arena exhausted: H step tables");
        k_pow_bitrev<<<czd_blocks((size_t)1 << kl, 128), 128, 0, ctx->stream>>>(
            px, fp.wt, kl, fp.s0[fp.npass - 1], ni);
        CZD_LAUNCHED(ctx, "k_pow_bitrev");
        t->pre_x = px;
        return CZ_OK;
    });
    if (st != CZ_OK)
        return st;
    snprintf(what, sizeof what, "ntt_h 2^%u (tables %zu B %s)", log_n, tbytes,
             hit ? "cached" : "built");
    const czd_ntt_plan<F> &fwd = tt.fwd, &inv = tt.inv;
    const czd_powt<F> scale = tt.scale;
    const F *pre_x = tt.pre_x;
    if (!hit)
        prof.mark("tables"); /* absent from the profile: a cache hit */
    const bool fuse = czd_ntt_h_fuse();
    for (int i = 0; i < nvec; i++) {
        /* coefficients, bit-reversed (times g^j / n unless g_half) */
        czd_pass_args<F> last;
        for (unsigned p = 0; p < inv.npass; p++) {
            czd_pass_args<F> pa = czd_pass_base(&inv, p, v[i], v[i], false, nv->ts);
            if (p + 1 == inv.npass && !g_half) {
                pa.post = CZD_POST_POW;
                pa.post_t = scale;
            }
            if (fuse && p + 1 == inv.npass) {
                last = pa; /* run with the forward's first pass below */
                break;
            }
            if ((st = nv->launch(ctx, false, pa)) != CZ_OK)
                return st;
            prof.mark(czd_pass_name(false, p));
        }
        /* values on the coset, natural order; the last vector's last pass
           makes h in a (a b - c, or a b without c) */
        for (unsigned q = fwd.npass; q-- > 0;) {
            bool prod = i == nvec - 1 && q == 0;
            czd_pass_args<F> pa = czd_pass_base(&fwd, q, v[i], prod ? v[0] : v[i], true, nv->ts);
            if (prod) {
                pa.pa = v[0];
                pa.pb = nvec == 3 ? v[1] : nullptr;
            }
            if (g_half) {
                pa.coset = 1;
                if (q + 1 == fwd.npass)
                    pa.pre_x = pre_x;
            }
            if (fuse && q + 1 == fwd.npass) {
                if ((st = nv->mid(ctx, last, pa)) != CZ_OK)
                    return st;
                prof.mark("mid");
                continue;
            }
            if ((st = nv->launch(ctx, true, pa)) != CZ_OK)
                return st;
            prof.mark(czd_pass_name(true, q));
        }
    }
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    prof.report();
    return CZ_OK;
}

extern "C" cz_status czd_ntt(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,
                             const void *pre_g, int bitrev_out, const void *post_c, const void *post_h)
{
    return czd_ntt_impl<czd_fr>(ctx, dev_a, log_n, w_host, pre_g, bitrev_out, post_c, post_h);
}

extern "C" cz_status czd_ntt_h(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, unsigned log_n,
                               const void *w_host, const void *w_inv_host, const void *n_inv_host,
                               const void *g_host, int g_half)
{
    return czd_ntt_h_impl<czd_fr>(ctx, dev_a, dev_b, dev_c, log_n, w_host, w_inv_host, n_inv_host,
                                  g_host, g_half);
}

extern "C" cz_status czd_ntt_bn254(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,
                                   const void *pre_g, int bitrev_out, const void *post_c,
                                   const void *post_h)
{
    if (log_n > 28)
        return czd_fail(ctx, CZ_ERR_ARG, "BN254 NTT of 2^%u: at most 2^28", log_n);
    return czd_ntt_impl<czd_fr254>(ctx, dev_a, log_n, w_host, pre_g, bitrev_out, post_c, post_h);
}

extern "C" cz_status czd_ntt_h_bn254(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                                     unsigned log_n, const void *w_host, const void *w_inv_host,
                                     const void *n_inv_host, const void *g_host, int g_half)
{
    return czd_ntt_h_impl<czd_fr254>(ctx, dev_a, dev_b, dev_c, log_n, w_host, w_inv_host,
                                     n_inv_host, g_host, g_half);
}
