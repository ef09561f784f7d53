/*
 * ntt.cu: number-theoretic transforms over Fr on the GPU.
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
 */
#include <stdio.h>
#include <string.h>

#include "common.cuh"
#include "field.cuh"

#define CZD_NTT_KMAX 10 /* 2^10 elements of 32 bytes = 32 KiB of shared memory per block */

struct czd_pow_table {
    const czd_fr *lo, *hi;
    unsigned h;
    CZD_INLINE czd_fr at(uint64_t e) const
    {
        return lo[e & ((1ull << h) - 1)] * hi[e >> h];
    }
};

/* t[i] = b^(i << shift), i < count */
__global__ void k_pow_table(czd_fr *t, czd_fr b, size_t count, unsigned shift)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    for (unsigned s = 0; s < shift; s++)
        b = czd_fr::sqr(b);
    t[i] = czd_fr::pow_u64(b, i);
}

__device__ __forceinline__ uint32_t czd_brev(uint32_t x, unsigned bits)
{
    return bits ? __brev(x) >> (32 - bits) : 0;
}

__global__ void k_scale_powers(czd_fr *a, size_t n, czd_pow_table g)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = a[i] * g.at(i);
}

/* bit-reversal permutation, then a[j] *= c * h^j (flags: 1 = c, 2 = h) */
__global__ void k_bitrev_scale(czd_fr *a, unsigned log_n, czd_fr c, czd_pow_table h, int flags)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t n = (size_t)1 << log_n;
    if (i >= n)
        return;
    size_t r = czd_brev((uint32_t)i, log_n);
    if (r < i)
        return;
    czd_fr x = a[i], y = a[r];
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
__global__ void __launch_bounds__(512) k_dif_pass(czd_fr *a, unsigned log_n, unsigned s0, unsigned k,
                                                  unsigned lc, const czd_fr *roots, unsigned kr,
                                                  czd_pow_table tw)
{
    extern __shared__ czd_fr sh[];
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
            czd_fr u = sh[(i0 << lc) + c], v = sh[(i1 << lc) + c];
            sh[(i0 << lc) + c] = u + v;
            czd_fr d = u - v;
            if (j)
                d = d * roots[(j << t) << (kr - k)];
            sh[(i1 << lc) + c] = d;
        }
        __syncthreads();
    }
    for (unsigned e = threadIdx.x; e < elems; e += blockDim.x) {
        unsigned c = e & cmask, x1 = e >> lc;
        czd_fr v = sh[e];
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

static cz_status czd_pow_tables(czd_ctx *ctx, czd_scratch &sc, czd_pow_table *pt, const czd_fr &b,
                                unsigned log_n)
{
    unsigned h = (log_n + 1) / 2;
    size_t nlo = (size_t)1 << h, nhi = ((size_t)1 << (log_n - h)) + 1;
    CZD_TAKE(ctx, sc, czd_fr, lo, nlo);
    CZD_TAKE(ctx, sc, czd_fr, hi, nhi);
    k_pow_table<<<czd_blocks(nlo, 128), 128, 0, ctx->stream>>>(lo, b, nlo, 0);
    CZD_LAUNCHED(ctx, "k_pow_table");
    k_pow_table<<<czd_blocks(nhi, 128), 128, 0, ctx->stream>>>(hi, b, nhi, h);
    CZD_LAUNCHED(ctx, "k_pow_table");
    pt->lo = lo;
    pt->hi = hi;
    pt->h = h;
    return CZ_OK;
}

extern "C" cz_status czd_ntt(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w_host,
                             const void *pre_g, int bitrev_out, const void *post_c, const void *post_h)
{
    if (log_n > 31)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT size 2^%u too large", log_n);
    czd_fr *a = (czd_fr *)dev_a;
    size_t n = (size_t)1 << log_n;
    czd_scratch sc(ctx);
    char what[48];
    snprintf(what, sizeof what, "ntt 2^%u", log_n);
    czd_prof prof(ctx, what);
    czd_fr w;
    memcpy(&w, w_host, sizeof w);
    cz_status st;

    if (pre_g) {
        czd_fr g;
        memcpy(&g, pre_g, sizeof g);
        czd_pow_table gt;
        if ((st = czd_pow_tables(ctx, sc, &gt, g, log_n)) != CZ_OK)
            return st;
        k_scale_powers<<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(a, n, gt);
        CZD_LAUNCHED(ctx, "k_scale_powers");
        prof.mark("pre_scale");
    }

    if (log_n > 0) {
        czd_pow_table tw;
        if ((st = czd_pow_tables(ctx, sc, &tw, w, log_n)) != CZ_OK)
            return st;
        unsigned kr = log_n < CZD_NTT_KMAX ? log_n : CZD_NTT_KMAX;
        size_t nroots = (size_t)1 << (kr - 1);
        CZD_TAKE(ctx, sc, czd_fr, roots, nroots);
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
            k_dif_pass<<<(unsigned)blocks, threads, elems * sizeof(czd_fr), ctx->stream>>>(
                a, log_n, s0, k, lc, roots, kr, tw);
            CZD_LAUNCHED(ctx, "k_dif_pass");
            prof.mark(p == 0 ? "pass0" : p == 1 ? "pass1" : p == 2 ? "pass2" : "pass3+");
            s0 += k;
        }
    }

    if (!bitrev_out && log_n > 0) {
        czd_fr c, h;
        memset(&c, 0, sizeof c);
        memset(&h, 0, sizeof h);
        czd_pow_table ht = {nullptr, nullptr, 0};
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
            czd_fr c;
            memcpy(&c, post_c, sizeof c);
            czd_pow_table one_t = {nullptr, nullptr, 0};
            (void)one_t;
            k_bitrev_scale<<<1, 32, 0, ctx->stream>>>(a, 0, c, one_t, 1);
            CZD_LAUNCHED(ctx, "k_bitrev_scale");
        }
    }
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    prof.report();
    return CZ_OK;
}
