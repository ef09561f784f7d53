/*
 * msm_bits.cuh: the MSM's path for bit-heavy scalars (Groth16 witnesses of
 * hash circuits: in Filecoin's PoRep ~99 % of the scalars are 0 or 1).
 *
 * DESIGN. Scalars are classified on the device: 0 (dropped), 1 (its base
 * goes to a plain sum) or other (a compacted MSM through the Pippenger
 * path of msm.cu, which reads its points through an index map, so no
 * point is copied). Only exact bit patterns count as 0 or 1 (Montgomery:
 * the words of 0 and of R mod r; plain: the integers 0 and 1); a scalar
 * that merely reduces to 0 or 1 (r + 1 in plain form, an unreduced
 * Montgomery value) is an "other" and gets the general treatment, so the
 * classification never needs a reduction and is never wrong.
 * Tiles of CZD_BITS_TILE scalars: one kernel counts each tile's 1s and
 * others (packed in one 64-bit word), an exclusive scan of the tiles gives
 * each tile its output offsets and the totals (one 8-byte copy to the host
 * decides the path), and a second kernel writes the indices of the 1s and
 * the (index, canonical scalar) of the others in input order (a block scan
 * per round of 256), so the compaction is deterministic and needs no sort.
 * The 1s are summed by a grid-stride loop of XYZZ mixed additions (each
 * thread one running sum; consecutive threads read consecutive entries, so
 * a warp's point loads are near each other); G2's are first halved by
 * rounds of batched affine additions (msm.cu's czd_ones_rounds), whose
 * output the loop reads in order. Then the thread sums are
 * added in chunks of 8 down to at most CZD_MSM_MAX_PARTS, which join
 * window 0's parts of the MSM of the others.
 */
#ifndef CZ_CUDA_MSM_BITS_CUH
#define CZ_CUDA_MSM_BITS_CUH

#include <cub/cub.cuh>

#include "common.cuh"
#include "ec.cuh"

#define CZD_BITS_THREADS 256
#define CZD_BITS_ITEMS 8
#define CZD_BITS_TILE (CZD_BITS_THREADS * CZD_BITS_ITEMS)

/* scalar i as loaded with two 16-byte reads (buffers are 32-byte aligned) */
template <class S>
__device__ __forceinline__ S czd_bits_load(const S *s, size_t i)
{
    const uint4 *p = reinterpret_cast<const uint4 *>(s) + 2 * i;
    uint4 a = __ldg(p), b = __ldg(p + 1);
    S r;
    r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
    r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
    return r;
}

/* 0: the scalar is 0, 1: it is 1, 2: anything else (exact words only) */
template <class S>
__device__ __forceinline__ unsigned czd_bits_class(const S &s, int plain)
{
    uint32_t hi = 0;
#pragma unroll
    for (int k = 1; k < 8; k++)
        hi |= s.v[k];
    if (plain) {
        if (hi)
            return 2;
        return s.v[0] == 0 ? 0 : s.v[0] == 1 ? 1 : 2;
    }
    if ((hi | s.v[0]) == 0)
        return 0;
    uint32_t d = 0;
#pragma unroll
    for (int k = 0; k < 8; k++)
        d |= s.v[k] ^ S::params::one(k);
    return d == 0 ? 1 : 2;
}

/* tile_cnt[t] = (number of 1s) | (number of others) << 32 in tile t */
template <class S>
__global__ void __launch_bounds__(CZD_BITS_THREADS)
k_bits_count(unsigned long long *tile_cnt, const S *scalars, size_t n, int plain)
{
    __shared__ unsigned s_ones, s_other;
    if (threadIdx.x == 0)
        s_ones = s_other = 0;
    __syncthreads();
    size_t base = (size_t)blockIdx.x * CZD_BITS_TILE + threadIdx.x;
    unsigned ones = 0, other = 0;
#pragma unroll
    for (int k = 0; k < CZD_BITS_ITEMS; k++) {
        size_t i = base + (size_t)k * CZD_BITS_THREADS;
        if (i < n) {
            unsigned cl = czd_bits_class(czd_bits_load(scalars, i), plain);
            ones += cl == 1;
            other += cl == 2;
        }
    }
    ones = __reduce_add_sync(0xffffffffu, ones);
    other = __reduce_add_sync(0xffffffffu, other);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&s_ones, ones);
        atomicAdd(&s_other, other);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        tile_cnt[blockIdx.x] = (unsigned long long)s_ones | (unsigned long long)s_other << 32;
}

/* totals after the exclusive scan: off[last] + cnt[last] */
static __global__ void k_bits_total(unsigned long long *tot, const unsigned long long *tile_cnt,
                             const unsigned long long *tile_off, size_t ntiles)
{
    *tot = tile_off[ntiles - 1] + tile_cnt[ntiles - 1];
}

/* Writes ones[] (indices of the 1s) and omap[] / oscal[] (indices and
   canonical values of the others), each in input order from the tile's
   offsets (low / high word of tile_off[t]). Classification as k_bits_count. */
template <class S>
__global__ void __launch_bounds__(CZD_BITS_THREADS)
k_bits_split(uint32_t *ones, uint32_t *omap, S *oscal, const unsigned long long *tile_off,
             const S *scalars, size_t n, int plain)
{
    typedef cub::BlockScan<uint32_t, CZD_BITS_THREADS> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    unsigned long long off = tile_off[blockIdx.x];
    uint32_t o1 = (uint32_t)off, o2 = (uint32_t)(off >> 32);
    size_t base = (size_t)blockIdx.x * CZD_BITS_TILE + threadIdx.x;
    for (int k = 0; k < CZD_BITS_ITEMS; k++) {
        size_t i = base + (size_t)k * CZD_BITS_THREADS;
        S s = S::zero();
        unsigned cl = 0;
        if (i < n) {
            s = czd_bits_load(scalars, i);
            cl = czd_bits_class(s, plain);
        }
        /* both counts in one scan: at most 256 per round, so 16 bits each */
        uint32_t x = (cl == 1 ? 1u : 0u) | (cl == 2 ? 1u << 16 : 0u), pre, agg;
        scan_t(tmp).ExclusiveSum(x, pre, agg);
        if (cl == 1)
            ones[o1 + (pre & 0xffffu)] = (uint32_t)i;
        else if (cl == 2) {
            uint32_t j = o2 + (pre >> 16);
            omap[j] = (uint32_t)i;
            oscal[j] = czd_scalar_plain(s, plain);
        }
        o1 += agg & 0xffffu;
        o2 += agg >> 16;
        __syncthreads(); /* tmp is reused by the next round */
    }
}

/* part[t] = sum of the points pts[ones[j]] (pts[j] without ones), j = t,
   t + T, t + 2T, ... (T threads in all); points at infinity are skipped */
template <class F>
__device__ __forceinline__ void czd_ones_sum(czd_xyzz<F> *part, const uint32_t *ones, size_t n1,
                                             const czd_affine<F> *pts)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t T = (size_t)gridDim.x * blockDim.x;
    czd_xyzz<F> acc = czd_xyzz<F>::inf();
    for (size_t j = t; j < n1; j += T) {
        czd_affine<F> q = pts[ones ? ones[j] : j];
        if (q.is_inf())
            continue;
        if constexpr (F::DEG == 1)
            acc = czd_xyzz<F>::add_affine_inline(acc, q.x, q.y);
        else
            acc = czd_xyzz<F>::add_affine(acc, q.x, q.y);
    }
    part[t] = acc;
}

/* G1: 164 registers, 3 blocks of 128 per SM (CUZK_MSM_ONES_BLOCKS=3); G2 */
template <class F>
__global__ void k_ones_sum(czd_xyzz<F> *part, const uint32_t *ones, size_t n1,
                           const czd_affine<F> *pts)
{
    czd_ones_sum<F>(part, ones, n1, pts);
}

/* capped at 128 registers for 4 blocks per SM: G1's default */
template <class F>
__global__ void __launch_bounds__(128, 4) k_ones_sum4(czd_xyzz<F> *part, const uint32_t *ones,
                                                      size_t n1, const czd_affine<F> *pts)
{
    czd_ones_sum<F>(part, ones, n1, pts);
}

/* out[w][k] (k < cnt2) = (k < cnt ? win[w][k] : inf) + (w == 0 && k < cnt1 ? one[k] : inf) */
template <class F>
__global__ void k_bits_merge(czd_xyzz<F> *out, const czd_xyzz<F> *win, unsigned nwin, unsigned cnt,
                             const czd_xyzz<F> *one, unsigned cnt1, unsigned cnt2)
{
    typedef czd_xyzz<F> X;
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nwin * cnt2)
        return;
    unsigned w = tid / cnt2, k = tid % cnt2;
    X v = k < cnt ? win[(size_t)w * cnt + k] : X::inf();
    if (w == 0 && k < cnt1)
        v = X::add(v, one[k]);
    out[tid] = v;
}

#endif
