/*
 * msm.cu: multi-scalar multiplication sum_i s_i P_i on the GPU (Pippenger),
 * for G1 and G2.
 *
 * DESIGN. Scalars (< r < 2^255 after reduction) are cut into windows of c
 * bits recoded as signed digits d in [-2^(c-1), 2^(c-1)] (a carry moves to
 * the next window), so each window needs 2^(c-1) buckets and a negative
 * digit adds -P = (x, -y). Buckets are assigned by sorting: each (scalar,
 * window) with d != 0 becomes a pair (key = window * 2^(c-1) + |d| - 1,
 * value = point index | sign << 31), zero digits get a sentinel key that
 * sorts last; CUB's radix sort on the key bits groups each bucket's points
 * together. Accumulation splits the sorted pairs into equal segments, one
 * thread each, so any distribution of digits costs the same; a thread adds
 * one pair a step and stores its sum when the bucket changes (one flat
 * loop: with a loop per run, a warp waited at every bucket change for the
 * longest of its lanes' runs, 12-22 % of the MSM on the H200): a run that
 * lies inside one segment is written straight to its bucket, runs that
 * cross segment boundaries leave partial sums that a fix-up adds: a
 * segmented scan over the segments (log2 of their count in depth), so a
 * bucket holding millions of points (small witness values, a narrow top
 * window) costs no serial chain.
 * Batched affine rounds (msm_affine.cuh; CUZK_MSM_G2_AFFINE and
 * CUZK_MSM_G1_AFFINE): before the segments, rounds of affine additions
 * inside each bucket's run, one field inversion a round for all of them
 * (Montgomery's trick), halve every run; the segments then sum what is
 * left, compacted. On by default for G2 and for G1 from 2^21 points
 * (BN254's G1 from 2^22): on the H200 G1 at 2^27 723 against 854 ms for
 * the segments alone, G2 at 2^20 40.3 against 50-66 (docs/PERF.md
 * 2026-12-03 06:06 and 06:29); at 2^20 G1's segments alone are as fast
 * (12.2 ms either way, 2026-12-04 16:50). Their buffers (about 150 bytes
 * a pair) are sized from the arena: fewer windows a batch, or none, the
 * segments alone.
 * Buckets are XYZZ (mixed add 8M+2S). Each window's sum sum_j (j+1) B_j
 * is reduced in parallel: one thread per 4 consecutive buckets computes
 * S_s = sum B_j and T_s = sum (j+1) B_j by running sums; the window's sum
 * is sum_s T_s + 4 sum_s s S_s, and the last sum is the same problem over
 * the S_s, a quarter as long, so levels of the same kernel (each level's
 * T doubled twice more) leave only parts of weight 1 (k_window_level,
 * the default from c = 18 where its buffers fit), or each thread adds 4s
 * S_s by double-and-add (a cost that grows with c); chunks of 8 of these
 * are summed until at most CZD_MSM_MAX_PARTS per window remain. Those go
 * to the host, which
 * adds them and combines the windows by Horner (c doublings per window):
 * a few hundred serial point operations, which a single GPU thread runs
 * ~200 times slower than a CPU core (measured: a serial chain of 500 XYZZ
 * operations cost ~35 ms on the H200, ~0.1 ms on the host).
 *
 * Bit-heavy scalars (msm_bits.cuh): a count on the device of the scalars
 * that are exactly 0 or 1 decides the path; when at least a quarter are,
 * the 0s are dropped, the bases of the 1s are summed by a grid-stride
 * reduction (one mixed addition each, no sort; for G2 after rounds of
 * affine additions that halve them, czd_ones_rounds) and Pippenger runs on the
 * compacted others only, through an index map to their points; the sum of
 * the 1s joins window 0's parts. Otherwise every scalar goes through
 * Pippenger as below (a 0 or 1 there still costs a sort pair per window).
 *
 * Two curves: the host functions are templates over a curve descriptor C
 * (ec.cuh's czd_curve_bls12_381, czd_curve_bn254: Fr, Fp, Fp2 and the
 * scalars' bit length) and the point field F (C::fp for G1, C::fp2 for
 * G2); the point kernels over F, the scalar kernels over C::fr. G1 is
 * F::DEG == 1 (the inlined mixed addition), G2 F::DEG == 2 (the call, the
 * affine rounds). BLS12-381 takes the same kernels, constants and window
 * rule as before; BN254 (czd.h's CZD_BN254_G1/G2) has 254-bit scalars
 * (nwin = ceil(254 / c), one more when c divides 254, for the signed
 * digits' carry) and, for now, BLS12-381's window rule, which its smaller
 * points (64 / 128 bytes affine) have not been timed against. BN254's
 * instances are compiled by msm_bn254.cu, which includes this file with
 * CZD_MSM_BN254_TU defined, so that the two curves' kernels build in
 * parallel and this file's build time stays BLS12-381's (the kernels
 * that are not templates are static, one copy in each).
 *
 * Work: n * nwin mixed adds (nwin = ceil(255/c), one more when c divides
 * 255), 2^27 * 13 for Groth16's H at PoRep scale (c = 20: 2^19 buckets a
 * window, ~2.4 GB of buckets and levels). Memory: 16 bytes per (scalar,
 * window) pair (keys and values, double-buffered) for the windows of one
 * batch; windows are processed in batches of equal size that fit the arena
 * and CUB's 2^31 item limit.
 */
#include <stdlib.h>
#include <string.h>

#include <cub/cub.cuh>

#include "common.cuh"
#include "ec.cuh"

template <class S>
__device__ __forceinline__ uint32_t czd_bits(const S &s, unsigned pos, unsigned c)
{
    if (pos >= 256)
        return 0;
    unsigned limb = pos >> 5, off = pos & 31;
    uint32_t v = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        if (i == (int)limb)
            v = s.v[i] >> off;
    if (off + c > 32 && limb + 1 < 8) {
#pragma unroll
        for (int i = 1; i < 8; i++)
            if (i == (int)limb + 1)
                v |= s.v[i] << (32 - off);
    }
    return v & ((1u << c) - 1);
}

/* scalar i -> canonical integer < r (a plain 256-bit value of BN254, up
   to 5.3 r, is reduced by the same loop run 5 times) */
template <class S>
__device__ __forceinline__ S czd_scalar_plain(const S &in, int plain)
{
    if (!plain)
        return in.from_mont();
    S s = in;
    /* BLS12-381: r > 2^254, two subtractions; BN254: r > 2^253.5, five */
    constexpr int rounds = S::params::BITS == 255 ? 2 : 5;
    for (int k = 0; k < rounds; k++) {
        uint32_t d[8], borrow;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(s.v[0]), "r"(S::params::p(0)));
#pragma unroll
        for (int i = 1; i < 8; i++)
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[i]) : "r"(s.v[i]), "r"(S::params::p(i)));
        asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
        if (!borrow) {
#pragma unroll
            for (int i = 0; i < 8; i++)
                s.v[i] = d[i];
        }
    }
    return s;
}

/* Reduce scalars in place to canonical integers (one pass, before batches). */
template <class S>
__global__ void k_scalars_canon(S *out, const S *in, size_t n, int plain)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = czd_scalar_plain(in[i], plain);
}

/* Pairs of windows [w0, w0 + wc) for scalar i at index (w - w0) * n + i;
   the pair names point map[i] (i without a map). */
template <class S>
__global__ void k_digits(uint32_t *keys, uint32_t *vals, const S *scalars, const uint32_t *map,
                         size_t n, unsigned c, unsigned w0, unsigned wc, uint32_t sentinel)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    S s = scalars[i];
    const uint32_t pi = map ? map[i] : (uint32_t)i; /* the point of scalar i */
    uint32_t carry = 0;
    const uint32_t half = 1u << (c - 1);
    for (unsigned w = 0; w < w0 + wc; w++) {
        uint32_t raw = czd_bits(s, w * c, c) + carry;
        uint32_t mag, neg;
        if (raw > half) {
            mag = (1u << c) - raw;
            neg = 1;
            carry = 1;
        } else {
            mag = raw;
            neg = 0;
            carry = 0;
        }
        if (w >= w0) {
            size_t o = (size_t)(w - w0) * n + i;
            keys[o] = mag ? (((w - w0) << (c - 1)) | (mag - 1)) : sentinel;
            vals[o] = pi | (neg << 31);
        }
    }
}

static __global__ void k_bounds(uint32_t *bstart, uint32_t *bend, const uint32_t *keys, size_t total,
                         uint32_t sentinel)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    uint32_t k = keys[i];
    if (k == sentinel)
        return;
    if (i == 0 || keys[i - 1] != k)
        bstart[k] = (uint32_t)i;
    if (i == total - 1 || keys[i + 1] != k)
        bend[k] = (uint32_t)(i + 1);
}

template <class F>
__device__ __forceinline__ czd_affine<F> czd_load_point(const czd_affine<F> *pts, uint32_t v)
{
    czd_affine<F> p = pts[v & 0x7fffffffu];
    if (v >> 31)
        p.y = F::neg(p.y);
    return p;
}

/* acc += the point of pair value v (a point at infinity, which keys hold
   for signals unused in A or B, is skipped). G1 inlined (no stack
   traffic); G2's inlined form spills 800 bytes, so it keeps the call. */
template <class F>
__device__ __forceinline__ void czd_acc_add(czd_xyzz<F> &acc, const czd_affine<F> *pts, uint32_t v)
{
    czd_affine<F> q = czd_load_point<F>(pts, v);
    if (q.is_inf())
        return;
    if constexpr (F::DEG == 1)
        acc = czd_xyzz<F>::add_affine_inline(acc, q.x, q.y);
    else
        acc = czd_xyzz<F>::add_affine(acc, q.x, q.y);
}

/* the sum of bucket k's run [rs, re) as far as segment t = [i0, i1) holds
   it: the whole run to its bucket, else the part that continues into t
   (first_part) or that continues past it (last_part), for the fix-up */
template <class F>
__device__ __forceinline__ void czd_store_run(czd_xyzz<F> *buckets, czd_xyzz<F> *first_part,
                                              czd_xyzz<F> *last_part, uint32_t k, size_t rs,
                                              size_t re, size_t i0, size_t i1, size_t t,
                                              const czd_xyzz<F> &acc)
{
    if (rs >= i0 && re <= i1)
        buckets[k] = acc;
    else if (rs < i0)
        first_part[t] = acc;
    else
        last_part[t] = acc;
}

/* G1: 190 registers, 2 blocks of 128 per SM. Measured on the H200 and
   dropped (docs/PERF.md): 168 registers for 3 blocks (5-7 % slower), the
   next point's load issued before each addition (no gain). */
template <class F>
__global__ void k_accumulate(czd_xyzz<F> *buckets, czd_xyzz<F> *first_part, czd_xyzz<F> *last_part,
                             const uint32_t *keys, const uint32_t *vals, const uint32_t *bstart,
                             const uint32_t *bend, const czd_affine<F> *pts, size_t total, size_t seg,
                             size_t nseg, uint32_t sentinel)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nseg)
        return;
    size_t i0 = t * seg, i1 = i0 + seg < total ? i0 + seg : total;
    size_t i = i0;
    while (i < i1) {
        uint32_t k = keys[i];
        if (k == sentinel)
            break;
        size_t rs = bstart[k], re = bend[k];
        size_t je = re < i1 ? re : i1;
        czd_xyzz<F> acc = czd_xyzz<F>::inf();
        for (size_t j = i; j < je; j++)
            czd_acc_add<F>(acc, pts, vals[j]);
        czd_store_run<F>(buckets, first_part, last_part, k, rs, re, i0, i1, t, acc);
        i = je;
    }
    if (i0 < total && (keys[i0] == sentinel || bstart[keys[i0]] == i0))
        first_part[t] = czd_xyzz<F>::inf(); /* no run continues into t */
}

/* The same sums as k_accumulate, in one flat loop: each step adds one pair
   to the lane's accumulator, and a lane whose bucket changes stores its sum
   and starts again (a short divergent branch). k_accumulate's inner loop
   over a run reconverges at the run's end, so a warp's lanes wait for the
   longest of their 32 current runs at every bucket change: little at c = 16
   (thousands of points a bucket), more as windows widen and runs shorten.
   CUZK_MSM_FLAT=0 takes k_accumulate.
   G1: 178 registers, 8 warps a SM (a sub-partition's 16 K registers hold
   2 warps of 178, whatever the block size). Measured on the H200 and
   dropped (docs/PERF.md, 2026-12-02 23:33): capped at 168 registers for 12
   warps, 6.6 % slower at 2^27 (BN254, 128 registers for 16 warps: 0.3 %
   faster). The accumulation is bound by the multiplier (Nsight Compute's
   "SM busy", its busiest pipe, 74 %; 89 % of the rate of XYZZ additions in
   registers), not by too few warps: the way on is fewer products an
   addition. */
template <class F>
__global__ void k_accumulate_flat(czd_xyzz<F> *buckets, czd_xyzz<F> *first_part,
                                  czd_xyzz<F> *last_part, const uint32_t *keys,
                                  const uint32_t *vals, const uint32_t *bstart,
                                  const uint32_t *bend, const czd_affine<F> *pts, size_t total,
                                  size_t seg, size_t nseg, uint32_t sentinel)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nseg)
        return;
    const size_t i0 = t * seg, i1 = i0 + seg < total ? i0 + seg : total;
    uint32_t kcur = keys[i0];
    czd_xyzz<F> acc = czd_xyzz<F>::inf();
    for (size_t j = i0; j < i1 && kcur != sentinel; j++) {
        const uint32_t k = keys[j];
        if (k != kcur) {
            czd_store_run<F>(buckets, first_part, last_part, kcur, bstart[kcur], bend[kcur], i0,
                             i1, t, acc);
            acc = czd_xyzz<F>::inf();
            kcur = k;
            if (k == sentinel)
                break;
        }
        czd_acc_add<F>(acc, pts, vals[j]);
    }
    if (kcur != sentinel) /* the segment's last run reaches i1 */
        czd_store_run<F>(buckets, first_part, last_part, kcur, bstart[kcur], bend[kcur], i0, i1,
                         t, acc);
    if (keys[i0] == sentinel || bstart[keys[i0]] == i0)
        first_part[t] = czd_xyzz<F>::inf(); /* no run continues into t */
}

/* One step of a backward segmented scan over the segments' first_part:
   out[t] = in[t] + in[t + s] when segments t and t + s start inside the
   same bucket (keys sorted: then every segment between does too). After
   log2(nseg) steps in[t] holds the sum of first_part over t and all later
   segments of its bucket, so a bucket spread over many segments is fixed
   up in logarithmic depth instead of one serial chain. */
template <class F>
__global__ void k_fix_scan(czd_xyzz<F> *out, const czd_xyzz<F> *in, const uint32_t *keys,
                           size_t nseg, size_t seg, size_t s, uint32_t sentinel)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nseg)
        return;
    uint32_t k = keys[t * seg];
    if (t + s < nseg && k != sentinel && keys[(t + s) * seg] == k)
        out[t] = czd_xyzz<F>::add(in[t], in[t + s]);
    else
        out[t] = in[t];
}

/* bucket k spanning segments t0 < t1: its sum is the part of segment t0
   plus the scanned first parts from t0 + 1 on */
template <class F>
__global__ void k_fixup(czd_xyzz<F> *buckets, const czd_xyzz<F> *scanned,
                        const czd_xyzz<F> *last_part, const uint32_t *bstart, const uint32_t *bend,
                        size_t nb, size_t seg)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nb)
        return;
    size_t rs = bstart[k], re = bend[k];
    if (re == rs) {
        buckets[k] = czd_xyzz<F>::inf();
        return;
    }
    size_t t0 = rs / seg, t1 = (re - 1) / seg;
    if (t0 == t1)
        return;
    buckets[k] = czd_xyzz<F>::add(last_part[t0], scanned[t0 + 1]);
}

/* thread (w, s): with B_j = bucket w, s M + j (j < M), S = sum_j B_j and
   T = sum_j (j+1) B_j by running sums (2M adds), then
   U = T + (s M) S by double-and-add: sum_s U_s = sum_b (b+1) B_b, the
   window's sum, with a serial depth of 2M + 2 log2(2^(c-1)) operations. */
template <class F>
__global__ void k_bucket_segments(czd_xyzz<F> *out, const czd_xyzz<F> *buckets, unsigned nwin,
                                  unsigned nbw, unsigned M)
{
    typedef czd_xyzz<F> X;
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned P = nbw / M;
    if (tid >= nwin * P)
        return;
    unsigned w = tid / P, s = tid % P;
    const X *b = buckets + (size_t)w * nbw + (size_t)s * M;
    X S = X::inf(), T = X::inf();
    for (int j = (int)M - 1; j >= 0; j--) {
        S = X::add(S, b[j]);
        T = X::add(T, S);
    }
    uint32_t k = s * M;
    if (k && !S.is_inf()) {
        X acc = S;
        int top = 31 - __clz(k);
        for (int bit = top - 1; bit >= 0; bit--) {
            acc = X::dbl(acc);
            if ((k >> bit) & 1)
                acc = X::add(acc, S);
        }
        T = X::add(T, acc);
    }
    out[tid] = T;
}

/* One level of the window sums by levels (CUZK_MSM_REDUCE=1; the default
   is k_bucket_segments). Per window w, over a sequence y[w][0 .. L)
   (window stride ys), thread (w, s), s < P = ceil(L / 4): S = sum_j y[4s + j]
   and T = sum_j (j + 1) y[4s + j] (j < 4, within L) by running sums; writes
   2^dbl T to tout[w * tstride + s] and S to sout[w * P + s]. Since
   sum_i (i + 1) y_i = sum_s T_s + 4 sum_s s S_s, and the last sum is the
   same problem over the sequence S_1 .. S_{P-1}, the next level runs on
   that with two more doublings: every level's T is then a part of weight 1
   of the window's sum. Serial depth 8 additions + dbl doublings a level,
   instead of a double-and-add by the segment's offset in every thread. */
template <class F>
__global__ void k_window_level(czd_xyzz<F> *tout, size_t tstride, czd_xyzz<F> *sout,
                               const czd_xyzz<F> *y, size_t ys, unsigned L, unsigned P,
                               unsigned nwin, unsigned dbl)
{
    typedef czd_xyzz<F> X;
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nwin * P)
        return;
    unsigned w = tid / P, s = tid % P;
    const X *b = y + (size_t)w * ys + (size_t)s * 4;
    X S = X::inf(), T = X::inf();
    for (int j = 3; j >= 0; j--) {
        if (s * 4 + (unsigned)j >= L)
            continue;
        S = X::add(S, b[j]);
        T = X::add(T, S);
    }
    for (unsigned d = 0; d < dbl; d++)
        T = X::dbl(T);
    tout[(size_t)w * tstride + s] = T;
    sout[(size_t)w * P + s] = S;
}

/* out[w][k] = sum_{i < R} in[w][k R + i] (within cnt) */
template <class F>
__global__ void k_sum_chunks(czd_xyzz<F> *out, const czd_xyzz<F> *in, unsigned nwin, unsigned cnt,
                             unsigned R)
{
    typedef czd_xyzz<F> X;
    unsigned cnt2 = (cnt + R - 1) / R;
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nwin * cnt2)
        return;
    unsigned w = tid / cnt2, k = tid % cnt2;
    const X *p = in + (size_t)w * cnt;
    X acc = X::inf();
    for (unsigned i = k * R; i < cnt && i < (k + 1) * R; i++)
        acc = X::add(acc, p[i]);
    out[tid] = acc;
}

/* the bit-heavy path's kernels (they use czd_scalar_plain above) */
#include "msm_bits.cuh"
/* the rounds of batched affine additions before the XYZZ segments */
#include "msm_affine.cuh"

/* a tuning knob from the environment (A/B runs on the device), or dflt */
static int czd_msm_knob(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

static unsigned czd_log2_ceil(size_t x)
{
    unsigned l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

/* The affine rounds' two passes under their knobs (msm_affine.cuh), for
   rounds over n points: the forward pass's slots a step,
   CUZK_MSM_AFF_FWD_U: 1, 2 or 4 (BN254's G1 4; BLS12-381's G1 2: 2^27
   614.4 ms against 616.8 with 4, 2^24 95.9 / 96.6, docs/PERF.md
   2026-12-04 14:05; G2 at most 2, its default); the backward pass's
   blocks a SM at least, CUZK_MSM_AFF_BWD_MINB: 1, or 4 (BLS12-381's G1:
   2^27 723.1 against 748.4 ms, 2^24 113.0 against 116.3; docs/PERF.md
   2026-12-03 06:29); the slots a thread (one inversion's share),
   CUZK_MSM_AFF_PAIRS (1..1024): G1 64, 128 from 2^26 points (BLS12-381:
   2^27 692.6 ms with 128, 695.3 with 64, 705.7 with 32; 2^24 106.7 with
   64, 107.5 with 128; 2026-12-03 14:00; with the products dense, 2^27
   617.0 with 128, 620.5 with 256, 620.7 with 64: 2026-12-04 14:05.
   BN254: 2^26 191.0 with 128, 191.9 with 64, 201.4 with 16; 2^25 102.3 /
   102.6 / 107.3: 2026-12-03 16:37); G2 CZD_AFF_PAIRS (slower with 32 and
   more); where the running products wait between the passes,
   CUZK_MSM_AFF_PARK: 1 dense arrays (the default), 0 the x of the output
   slots (czd_pippenger says where the arrays lie); the batch inversion's
   chunk, CUZK_MSM_BINV_CHUNK (2..64): G1 8, G2 4 (32 before: BLS12-381's
   G1 2^21 19.12 -> 18.34 ms with 8, 18.50 with 4; 2^24 96.09 -> 95.38
   / 95.57; 2^27 613.3 -> 611.1 / 611.6; G2 2^20 35.30 -> 34.21 / 32.69,
   2^22 108.6 -> 108.3 / 104.9, 2^24 338.5 -> 345.4 / 334.2; PoRep-like
   G2 33.1 M 44.05 -> 40.35 with 8; docs/PERF.md 2026-12-04 17:15); its
   first level in k_aff_fwd's warps, CUZK_MSM_BINV_GROUP (1, 2, 4, 8, 16,
   32 lanes; 1: none): G1 32, G2 4 (G1 2^24 95.64 ms with 1, 94.25 with 8,
   94.15 with 32; 2^27 616.9 / 613.4 / 611.6; BN254 2^26 187.8 with 1,
   185.9 with 8. G2: within 0.7 ms either way over two calls at 2^18-2^24
   with 1, 2 or 4, its forward pass longer by what the levels lose;
   docs/PERF.md 2026-12-04 20:40) */
template <class F>
struct czd_aff_kernels {
    void (*fwd)(F *, size_t, F *, F *, unsigned, const uint32_t *, const czd_affine<F> *,
                const uint32_t *, const unsigned long long *, size_t);
    void (*bwd)(czd_affine<F> *, const F *, size_t, const F *, const F *, unsigned,
                const uint32_t *, const czd_affine<F> *, const uint32_t *,
                const unsigned long long *, size_t);
    size_t pairs;
    bool dense; /* the running products in arrays of their own (CUZK_MSM_AFF_PARK) */
    unsigned chunk; /* czd_batch_inv's values a thread a level (CUZK_MSM_BINV_CHUNK, 2..64) */
    unsigned lg; /* k_aff_fwd's groups of 2^lg lanes (CUZK_MSM_BINV_GROUP = 2^lg, 1..32) */
    explicit czd_aff_kernels(size_t n)
    {
        const int ck_def = F::DEG == 2 ? 4 : 8;
        const int ck = czd_msm_knob("CUZK_MSM_BINV_CHUNK", ck_def);
        chunk = ck >= 2 && ck <= 64 ? (unsigned)ck : (unsigned)ck_def;
        const int gr_def = F::DEG == 1 ? 32 : 4;
        const int gr = czd_msm_knob("CUZK_MSM_BINV_GROUP", gr_def);
        const unsigned g = gr >= 1 && gr <= 32 && (gr & (gr - 1)) == 0 ? (unsigned)gr : (unsigned)gr_def;
        for (lg = 0; (1u << lg) < g; lg++)
            ;
        const int kp_def = F::DEG == 1 ? (n >= ((size_t)1 << 26) ? 128 : 64) : CZD_AFF_PAIRS;
        const int kp = czd_msm_knob("CUZK_MSM_AFF_PAIRS", kp_def);
        pairs = kp >= 1 && kp <= 1024 ? (size_t)kp : (size_t)kp_def;
        const int u = czd_msm_knob("CUZK_MSM_AFF_FWD_U", F::DEG == 1 && sizeof(F) != 48 ? 4 : 2);
        dense = czd_msm_knob("CUZK_MSM_AFF_PARK", 1) != 0;
        fwd = u >= 2 ? k_aff_fwd<F, 2> : k_aff_fwd<F, 1>;
        bwd = k_aff_bwd<F, 1>;
        if constexpr (F::DEG == 1) {
            if (u >= 4)
                fwd = k_aff_fwd<F, 4>;
            if (czd_msm_knob("CUZK_MSM_AFF_BWD_MINB", sizeof(F) == 48 ? 4 : 1) == 4)
                bwd = k_aff_bwd<F, 4>;
        }
    }
    /* A round of nt threads: k_aff_fwd's group totals, czd_batch_inv's
       values, and czd_batch_inv's pre, in the round's tot and pre arrays
       (tot: nt values; pre: nt + czd_batch_inv_size(nt, chunk) + 1, which
       holds 2 ng + czd_batch_inv_size(ng, chunk) for ng <= (nt + 1) / 2).
       With lg = 0 the groups are the threads, their totals in tot. */
    size_t groups(size_t nt, F *tot, F *pre, F **grp, F **gpre) const
    {
        const size_t ng = (nt + (1u << lg) - 1) >> lg;
        *grp = lg ? pre : tot;
        *gpre = lg ? pre + ng : pre;
        return ng;
    }
    /* where a round that writes the points out parks its running
       products: at room, a dense array of a product a slot (NULL: none
       free), or in the x of the output slots (*stride: in elements) */
    F *park(czd_affine<F> *out, F *room, size_t *stride) const
    {
        if (dense && room) {
            *stride = 1;
            return room;
        }
        *stride = sizeof(czd_affine<F>) / sizeof(F);
        return &out[0].x;
    }
};

/* Pippenger over n canonical scalars scal[] (on the device) whose points
   are pts[map[i]] (pts[i] without a map): leaves *out pointing at nwin * cnt
   XYZZ parts on the device (window w's sum is the sum of its cnt parts),
   carved from sc. */
template <class C, class F>
static cz_status czd_pippenger(czd_ctx *ctx, czd_scratch &sc, czd_prof &prof, czd_xyzz<F> **out,
                               unsigned *nwin_out, unsigned *cnt_out, unsigned *c_out,
                               const czd_affine<F> *pts, const typename C::fr *scal,
                               const uint32_t *map, size_t n, unsigned c)
{
    typedef czd_xyzz<F> X;
    const unsigned lg = czd_log2_ceil(n); /* the size class of the defaults below */
    if (c == 0) {
        /* measured on the H200 (docs/PERF.md): with the accumulation's
           loop per run, c = 16 was fastest for G1 from 2^20 to 2^26 (a
           sharp minimum: the wait of a warp for its longest run, which the
           flat loop removed; the rule below). G2, with its affine rounds
           (window sweeps of 2026-12-04 16:50 and 17:15, ms): 2^16 c = 10
           10.12 (7: 10.34), 2^18 10 15.19 (9: 17.86), 2^20 13 34.98 (11:
           39.93), 2^21 13 58.55 (16: 70.73), 2^22 14 103.8 (16: 107.0),
           2^24 16 335.2 (15: 353.4, 17: 353.0); 2^17, 2^19 and 2^23 not
           swept. */
        if (F::DEG == 1)
            c = lg > 7 ? lg - 3 : 4;
        else
            c = lg >= 23 ? 16 : lg == 22 ? 14 : lg >= 20 ? 13 : lg >= 16 ? 10 : lg > 13 ? lg - 9 : 4;
        if (c > 16)
            c = 16;
        /* with the flat accumulation (docs/PERF.md, H200): 2^20 c = 13
           (12.3 ms against 13.6 at c = 16), 2^24 c = 20 (126.6 / 132.0),
           2^26 c = 20 (445.4 / 500.6; BN254 206.8 / 239.0), 2^27 c = 20
           (858 / 992); 2^22..2^23 not swept: c = 16 as before */
        if (F::DEG == 1 && (lg == 20 || lg == 21))
            c = lg - 7;
        if (F::DEG == 1 && lg >= 24) {
            /* where the arena has room for its buckets and levels (about
               2.4 GB at c = 20), so a streamed proof's arena keeps c = 16 */
            /* c = 19 at 2^24 (107.7 ms against 111.1 at c = 20, with the
               affine rounds: docs/PERF.md 2026-12-03 09:57); 20 stays best
               at 2^25 and 2^26 (13:36) and level with 22 at 2^27 */
            const unsigned cb = (unsigned)czd_msm_knob("CUZK_MSM_C_BIG", lg == 24 ? 19 : 20);
            const size_t nbig = ((size_t)C::SCALAR_BITS / cb + 2) << (cb - 1);
            if (cb >= 2 && cb <= 22 && nbig * sizeof(X) * 2 < sc.left() / 8)
                c = cb;
        }
    }
    if (c < 2 || c > 22)
        return czd_fail(ctx, CZ_ERR_ARG, "MSM window of %u bits not in 2..22", c);
    if ((uintptr_t)pts % 16)
        return czd_fail(ctx, CZ_ERR_ARG, "MSM points at %p: not 16-byte aligned", (const void *)pts);
    /* signed digits: the top window needs a spare bit for the carry */
    constexpr unsigned SB = C::SCALAR_BITS;
    const unsigned nwin = SB % c ? (SB + c - 1) / c : SB / c + 1;
    const unsigned nbw = 1u << (c - 1); /* buckets per window */
    const size_t nbuckets = (size_t)nwin * nbw;
    const unsigned sms = (unsigned)ctx->prop.multiProcessorCount;
    /* segments for one wave of resident accumulation threads
       (CUZK_MSM_WAVES=2: two; one was 5-7 % faster from 2^20 to 2^24 on
       the H200, docs/PERF.md) */
    const int flat = czd_msm_knob("CUZK_MSM_FLAT", 1) != 0;
    auto acc_kernel = flat ? k_accumulate_flat<F> : k_accumulate<F>;
    int acc_per_sm = 0;
    CZD_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&acc_per_sm, acc_kernel, 128, 0));
    if (acc_per_sm < 1)
        acc_per_sm = 1;

    CZD_TAKE(ctx, sc, X, buckets, nbuckets);
    /* the window sums: by levels (P parts a window in all levels, two
       buffers for the levels' S), or k_bucket_segments (P parts) */
    /* by levels from c = 18 (CUZK_MSM_REDUCE=0/1 forces either): bit-exact
       on the H200 and faster where windows are wide (k_bucket_segments'
       double-and-add by the segment's offset grows with c: 55.6 ms of a
       2^27 MSM at c = 20), but its two level buffers made the 2^20 MSM in
       test_gpu_msm's 420 MiB arena run out of memory at c = 16, so by
       default only where they take at most a quarter of what is free
       after the buckets (a forced c = 22 in an 8 GiB arena: segments);
       writing each level's S over its inputs would need no buffers */
    const unsigned M = nbw < 4 ? nbw : 4;
    const unsigned P0 = (nbw + 3) / 4;
    unsigned Plev = 0;
    for (unsigned L = nbw; L > 0; L = (L + 3) / 4 - 1)
        Plev += (L + 3) / 4;
    const size_t lev_bytes = ((size_t)nwin * (Plev + 2 * (size_t)P0) + 64) * sizeof(X);
    const int by_levels =
        czd_msm_knob("CUZK_MSM_REDUCE", c >= 18 && lev_bytes <= sc.left() / 4) != 0;
    const unsigned P = by_levels ? Plev : nbw / M;
    CZD_TAKE(ctx, sc, X, red0, (size_t)nwin * P);
    CZD_TAKE(ctx, sc, X, red1, (size_t)nwin * ((P + 7) / 8));
    CZD_TAKE(ctx, sc, X, lev0, by_levels ? (size_t)nwin * P0 : 1);
    CZD_TAKE(ctx, sc, X, lev1, by_levels ? (size_t)nwin * P0 : 1);

    /* windows per batch: pairs (16 bytes each, double-buffered keys and
       values), bounds (8 bytes per bucket), segment partials, CUB's temp */
    size_t avail = sc.left();
    size_t per_win = n * 16 + (size_t)nbw * 8 + 1024;
    size_t seg_target = (size_t)sms * (size_t)acc_per_sm * 128 *
                        (size_t)(czd_msm_knob("CUZK_MSM_WAVES", 1) == 2 ? 2 : 1);
    size_t reserve = 3 * (seg_target + 1) * sizeof(X) + ((size_t)64 << 20);
    /* Rounds of batched affine additions before the XYZZ segments
       (msm_affine.cuh): CUZK_MSM_G2_AFFINE (G2) or CUZK_MSM_G1_AFFINE
       (G1) =0 none (G1's default below 2^22 points), 1 when their buffers
       fit the arena (else the XYZZ segments alone; the default otherwise,
       see below), 2 always (out of
       memory when they do not fit: for tests);
       CUZK_MSM_G2_AFFINE_ROUNDS / _G1_ of them at most (default 4, or 5
       below), each
       while a batch holds more than 4 points a bucket. Their buffers per
       window: two point arrays (a half and a quarter of the pairs, plus a
       point a bucket), three key arrays, the slots' inputs, the run
       bounds and counts (5 words a bucket), the inversion's totals,
       levels and prefixes. */
    unsigned aff_rounds = 0;
    int aff_mode = 0;
    size_t aff_per_win = 0;
    const czd_aff_kernels<F> ak(n);
    constexpr bool bls_g1 = F::DEG == 1 && sizeof(F) == 48;
    const size_t aff_pairs = ak.pairs;
    {
        const bool g2 = F::DEG == 2;
        /* G1 from 2^21 points, where the rounds were faster than the
           segments alone on the H200 (2^21 19.20 against 22.28 ms, 2^27
           757.1 against 854.4; 2^20 12.20 against 12.28, even;
           docs/PERF.md 2026-12-03 06:06, 2026-12-04 16:50); BN254's G1
           (32-byte Fp: cheaper products, the same traffic a point) from
           2^22 (2^22 17.12 against 17.55, 2^21 10.65 / 10.52, 2^23 even:
           2026-12-04 17:15) */
        const size_t g1_from = (size_t)1 << (sizeof(F) <= 32 ? 22 : 21);
        aff_mode = czd_msm_knob(g2 ? "CUZK_MSM_G2_AFFINE" : "CUZK_MSM_G1_AFFINE",
                                g2 || n >= g1_from ? 1 : 0);
        /* 4 rounds; 6 for BLS12-381's G1 from 2^26 points (with the
           running products dense and 2 slots a step: 2^27 612.1 ms
           against 614.4 with 5, 614.0 with 7; 2^26 316.7 / 316.9 / 316.9;
           docs/PERF.md 2026-12-04 14:05. 5 against 4 before: 2^27 688.8 /
           693.0; but 2^22 36.8 / 35.6, 2^24 108.1 / 107.0; BN254 no faster
           with 5: 2026-12-03 16:37); 5 for G2 from 2^20 points (2^20
           33.33 against 34.21 with 4, 34.33 with 6; 2^21 55.97 / 58.45 /
           56.98; 2026-12-04 17:15; 2^22 102.0 / 102.6, 2^23 180.7 /
           183.5, 2^24 329.7 / 338.2: 17:30) */
        const int r_def = bls_g1 && n >= ((size_t)1 << 26) ? 6 : F::DEG == 2 && lg >= 20 ? 5 : 4;
        int r = czd_msm_knob(g2 ? "CUZK_MSM_G2_AFFINE_ROUNDS" : "CUZK_MSM_G1_AFFINE_ROUNDS", r_def);
        /* rounds run only while a batch has more than 4 points a bucket */
        if (aff_mode > 0 && r > 0 && n > (size_t)4 * nbw)
            aff_rounds = r > 16 ? 16 : (unsigned)r;
        const size_t u1 = (n + nbw + 1) / 2 + 1, u2 = (u1 + nbw + 1) / 2 + 1;
        aff_per_win = (u1 + u2) * (sizeof(czd_affine<F>) + 4) + u1 * 8 + (size_t)nbw * 20 +
                      (u1 / aff_pairs + 2) * 3 * sizeof(F) + 4096;
    }
    unsigned wc = nwin;
    if (aff_rounds) {
        const size_t pw = per_win + aff_per_win;
        while (wc > 1 && ((size_t)wc * n >= ((size_t)1 << 31) || (size_t)wc * pw + reserve > avail))
            wc--;
        if ((size_t)wc * pw + reserve > avail) {
            if (aff_mode == 2)
                return czd_fail(ctx, CZ_ERR_NOMEM,
                                "device arena too small for the affine rounds of an MSM of %zu points",
                                n);
            aff_rounds = 0; /* the XYZZ segments alone */
            wc = nwin;
        }
    }
    if (!aff_rounds) {
        while (wc > 1 &&
               ((size_t)wc * n >= ((size_t)1 << 31) || (size_t)wc * per_win + reserve > avail))
            wc--;
    }
    if ((size_t)wc * per_win + reserve > avail)
        return czd_fail(ctx, CZ_ERR_NOMEM, "device arena too small for an MSM of %zu points", n);
    /* batches of equal size: the segments' length follows the largest
       batch, so a small last one runs on a fraction of the threads (2^27
       points: 16 windows of which 15 fit CUB's limit, the 16th alone on
       2,253 threads of 59,578 additions each, about 0.45 s by the rate of
       a lone warp; docs/PERF.md); 8 + 8 instead */
    wc = (nwin + (nwin + wc - 1) / wc - 1) / ((nwin + wc - 1) / wc);
    size_t cap = (size_t)wc * n;
    /* the sort's keys and values in one block: dead once round 0 of the
       affine rounds has read them, it then holds the later rounds' running
       products */
    const size_t cap_al = (cap + 63) & ~(size_t)63;
    CZD_TAKE(ctx, sc, uint32_t, sortbuf, 4 * cap_al);
    uint32_t *keys0 = sortbuf, *keys1 = sortbuf + cap_al, *vals0 = sortbuf + 2 * cap_al,
             *vals1 = sortbuf + 3 * cap_al;
    CZD_TAKE(ctx, sc, uint32_t, bstart, (size_t)wc * nbw);
    CZD_TAKE(ctx, sc, uint32_t, bend, (size_t)wc * nbw);
    size_t seg = (cap + seg_target - 1) / seg_target;
    if (seg < 32)
        seg = 32;
    size_t nseg_max = (cap + seg - 1) / seg;
    CZD_TAKE(ctx, sc, X, first_part, nseg_max);
    CZD_TAKE(ctx, sc, X, first_scan, nseg_max);
    CZD_TAKE(ctx, sc, X, last_part, nseg_max);

    size_t temp_bytes = 0;
    {
        cub::DoubleBuffer<uint32_t> dk(keys0, keys1), dv(vals0, vals1);
        CZD_TRY(ctx, cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dk, dv, (int)cap, 0, 32,
                                                     ctx->stream));
    }
    CZD_TAKE(ctx, sc, char, temp, temp_bytes);

    /* the affine rounds' buffers: round r's points and keys in
       aff_p/aff_k[r % 2], whose sizes bound the counts of rounds 0 and 1
       (every later round has fewer); bounds in aff_ns/aff_ne[r % 2] (round
       0 reads bstart/bend); aff_iota the values k_accumulate reads them
       through. Taken last: when they do not fit, the scratch goes back and
       the batch runs the XYZZ segments alone (mode 1). */
    const size_t nbb_cap = (size_t)wc * nbw;
    const size_t ub1 = (cap + nbb_cap + 1) / 2, ub2 = (ub1 + nbb_cap + 1) / 2;
    const size_t aff_threads = (ub1 + aff_pairs - 1) / aff_pairs;
    czd_affine<F> *aff_p[2] = {nullptr, nullptr};
    uint32_t *aff_k[2] = {nullptr, nullptr}, *aff_ns[2] = {nullptr, nullptr},
             *aff_ne[2] = {nullptr, nullptr};
    uint32_t *aff_cnt = nullptr, *aff_iota = nullptr, *aff_src = nullptr;
    unsigned long long *aff_count = nullptr;
    F *aff_tot = nullptr, *aff_lev = nullptr, *aff_pre = nullptr;
    char *aff_scan_tmp = nullptr;
    size_t aff_scan_bytes = 0;
    {
        if (aff_rounds) {
            const size_t mark = sc.off;
            CZD_TRY(ctx, cub::DeviceScan::ExclusiveSum(nullptr, aff_scan_bytes, (uint32_t *)nullptr,
                                                       (uint32_t *)nullptr, (int)nbb_cap,
                                                       ctx->stream));
            const size_t lev = czd_batch_inv_size(aff_threads, ak.chunk) + 1;
            aff_p[0] = sc.take<czd_affine<F>>(ub1);
            aff_p[1] = sc.take<czd_affine<F>>(ub2);
            aff_k[0] = sc.take<uint32_t>(ub1);
            aff_k[1] = sc.take<uint32_t>(ub2);
            aff_iota = sc.take<uint32_t>(ub1);
            aff_src = sc.take<uint32_t>(ub1);
            aff_ns[0] = sc.take<uint32_t>(nbb_cap);
            aff_ne[0] = sc.take<uint32_t>(nbb_cap);
            aff_ns[1] = sc.take<uint32_t>(nbb_cap);
            aff_ne[1] = sc.take<uint32_t>(nbb_cap);
            aff_cnt = sc.take<uint32_t>(nbb_cap);
            aff_count = sc.take<unsigned long long>(2);
            aff_tot = sc.take<F>(aff_threads);
            aff_lev = sc.take<F>(lev);
            aff_pre = sc.take<F>(aff_threads + lev);
            aff_scan_tmp = sc.take<char>(aff_scan_bytes ? aff_scan_bytes : 1);
            if (!aff_p[0] || !aff_p[1] || !aff_k[0] || !aff_k[1] || !aff_iota || !aff_src ||
                !aff_ns[0] || !aff_ne[0] || !aff_ns[1] || !aff_ne[1] || !aff_cnt || !aff_count ||
                !aff_tot || !aff_lev || !aff_pre || !aff_scan_tmp) {
                if (aff_mode == 2)
                    return czd_fail(ctx, CZ_ERR_NOMEM,
                                    "device arena exhausted: the affine rounds of an MSM of %zu "
                                    "points need more than the %zu bytes free",
                                    n, sc.left());
                sc.off = mark;
                aff_rounds = 0;
            } else {
                k_aff_iota<<<czd_blocks(ub1, 256), 256, 0, ctx->stream>>>(aff_iota, ub1);
                CZD_LAUNCHED(ctx, "k_aff_iota");
            }
        }
    }

    for (unsigned w0 = 0; w0 < nwin; w0 += wc) {
        unsigned wcb = nwin - w0 < wc ? nwin - w0 : wc;
        size_t total = (size_t)wcb * n;
        uint32_t sentinel = (uint32_t)wcb << (c - 1);
        unsigned end_bit = czd_log2_ceil((size_t)sentinel + 1);
        k_digits<typename C::fr><<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(keys0, vals0, scal, map, n, c, w0, wcb,
                                                              sentinel);
        CZD_LAUNCHED(ctx, "k_digits");
        prof.mark("digits");
        cub::DoubleBuffer<uint32_t> dk(keys0, keys1), dv(vals0, vals1);
        size_t tb = temp_bytes;
        CZD_TRY(ctx, cub::DeviceRadixSort::SortPairs(temp, tb, dk, dv, (int)total, 0, (int)end_bit,
                                                     ctx->stream));
        prof.mark("sort");
        const uint32_t *sk = dk.Current(), *sv = dv.Current();
        size_t nbb = (size_t)wcb * nbw;
        CZD_TRY(ctx, cudaMemsetAsync(bstart, 0, nbb * sizeof(uint32_t), ctx->stream));
        CZD_TRY(ctx, cudaMemsetAsync(bend, 0, nbb * sizeof(uint32_t), ctx->stream));
        k_bounds<<<czd_blocks(total, 256), 256, 0, ctx->stream>>>(bstart, bend, sk, total, sentinel);
        CZD_LAUNCHED(ctx, "k_bounds");
        prof.mark("bounds");
        /* what the XYZZ segments sum: the sorted pairs, or what the
           affine rounds leave of them: ub entries (valid ones, then
           sentinels), the same runs a round's fewer points */
        const czd_affine<F> *rp = pts;
        const uint32_t *rk = sk, *rv = sv, *rs = bstart, *re = bend;
        size_t ub = total, bseg = seg;
        {
            unsigned r = 0;
            for (; r < aff_rounds && ub > 4 * nbb; r++) {
                const int o = r & 1;
                k_aff_counts<<<czd_blocks(nbb, 256), 256, 0, ctx->stream>>>(aff_cnt, rs, re, nbb);
                CZD_LAUNCHED(ctx, "k_aff_counts");
                size_t sb = aff_scan_bytes;
                CZD_TRY(ctx, cub::DeviceScan::ExclusiveSum(aff_scan_tmp, sb, aff_cnt, aff_ns[o],
                                                           (int)nbb, ctx->stream));
                k_aff_ends<<<czd_blocks(nbb, 256), 256, 0, ctx->stream>>>(aff_ne[o], aff_count + o,
                                                                          aff_ns[o], aff_cnt, nbb);
                CZD_LAUNCHED(ctx, "k_aff_ends");
                const size_t ub_next = (ub + nbb + 1) / 2; /* >= the count, < ub */
                k_aff_keys<<<czd_blocks(ub, 256), 256, 0, ctx->stream>>>(
                    aff_k[o], aff_src, rk, rs, re, aff_ns[o], aff_count + o, ub, ub_next,
                    sentinel);
                CZD_LAUNCHED(ctx, "k_aff_keys");
                prof.mark("aff_keys"); /* the round's layout */
                const size_t nt = (ub_next + aff_pairs - 1) / aff_pairs;
                const uint32_t *v0 = rp == pts ? rv : nullptr;
                /* the running products, dense: round 0's in aff_p[1]
                   (round 1's output, ub2 >= ub1 / 2 points), the later
                   rounds' in the sort's buffers. In the x of the output
                   slots instead (CUZK_MSM_AFF_PARK=0), BLS12-381's G1
                   leaves a sector half written (48 bytes of a 96-byte
                   point) until the backward pass, and a sector evicted half
                   written seems to cost the DRAM a read before its write
                   (a read-modify-write, our reading): the forward passes
                   of a 2^27 MSM took 199.0 ms in place, 128.1 dense (the
                   MSM 690.0 against 617.4; docs/PERF.md 2026-12-04 13:33,
                   13:45) */
                const bool fits = ub_next * sizeof(F) <= 4 * cap_al * sizeof(uint32_t);
                F *room = r == 0 ? &aff_p[1][0].x : fits ? reinterpret_cast<F *>(sortbuf) : nullptr;
                size_t pstride;
                F *park = ak.park(aff_p[o], room, &pstride);
                F *grp, *gpre;
                const size_t ng = ak.groups(nt, aff_tot, aff_pre, &grp, &gpre);
                ak.fwd<<<czd_blocks(nt, 128), 128, 0, ctx->stream>>>(
                    park, pstride, aff_tot, grp, ak.lg, aff_src, rp, v0, aff_count + o, nt);
                CZD_LAUNCHED(ctx, "k_aff_fwd");
                prof.mark("aff_fwd");
                cz_status bst = czd_batch_inv<F>(ctx, grp, ng, aff_lev, gpre, ak.chunk, &prof);
                if (bst != CZ_OK)
                    return bst;
                ak.bwd<<<czd_blocks(nt, 128), 128, 0, ctx->stream>>>(
                    aff_p[o], park, pstride, aff_tot, grp, ak.lg, aff_src, rp, v0, aff_count + o, nt);
                CZD_LAUNCHED(ctx, "k_aff_bwd");
                prof.mark("aff_bwd");
                rp = aff_p[o];
                rk = aff_k[o];
                rv = aff_iota;
                rs = aff_ns[o];
                re = aff_ne[o];
                ub = ub_next;
            }
            if (r) {
                /* segments for one wave over what is left, as many as
                   the partial buffers hold */
                bseg = (ub + seg_target - 1) / seg_target;
                if (bseg < 32)
                    bseg = 32;
                if ((ub + bseg - 1) / bseg > nseg_max)
                    bseg = (ub + nseg_max - 1) / nseg_max;
            }
        }
        size_t nseg = (ub + bseg - 1) / bseg;
        X *bk = buckets + (size_t)w0 * nbw;
        acc_kernel<<<czd_blocks(nseg, 128), 128, 0, ctx->stream>>>(
            bk, first_part, last_part, rk, rv, rs, re, rp, ub, bseg, nseg, sentinel);
        CZD_LAUNCHED(ctx, "k_accumulate");
        prof.mark("accumulate");
        X *scan_in = first_part, *scan_out = first_scan;
        for (size_t s = 1; s < nseg; s *= 2) {
            k_fix_scan<F><<<czd_blocks(nseg, 128), 128, 0, ctx->stream>>>(scan_out, scan_in, rk, nseg,
                                                                          bseg, s, sentinel);
            CZD_LAUNCHED(ctx, "k_fix_scan");
            X *tmp = scan_in;
            scan_in = scan_out;
            scan_out = tmp;
        }
        k_fixup<F><<<czd_blocks(nbb, 128), 128, 0, ctx->stream>>>(bk, scan_in, last_part, rs, re, nbb,
                                                                  bseg);
        CZD_LAUNCHED(ctx, "k_fixup");
        prof.mark("fixup");
    }
    if (by_levels) {
        const X *y = buckets;
        size_t ys = nbw, off = 0;
        X *sb = lev0, *sb2 = lev1;
        unsigned dbl = 0;
        for (unsigned L = nbw; L > 0;) {
            unsigned Pl = (L + 3) / 4;
            k_window_level<F><<<czd_blocks((size_t)nwin * Pl, 64), 64, 0, ctx->stream>>>(
                red0 + off, P, sb, y, ys, L, Pl, nwin, dbl);
            CZD_LAUNCHED(ctx, "k_window_level");
            y = sb + 1; /* the next level: S_1 .. S_{Pl-1} */
            ys = Pl;
            L = Pl - 1;
            off += Pl;
            dbl += 2;
            X *t = sb;
            sb = sb2;
            sb2 = t;
        }
    } else {
        k_bucket_segments<F><<<czd_blocks((size_t)nwin * P, 64), 64, 0, ctx->stream>>>(
            red0, buckets, nwin, nbw, M);
        CZD_LAUNCHED(ctx, "k_bucket_segments");
    }
    prof.mark("bucket_sums");
    /* sum each window's P items in chunks of 8 until at most
       CZD_MSM_MAX_PARTS remain; the host adds those and combines windows */
    X *cur = red0, *nxt = red1;
    unsigned cnt = P;
    while (cnt > CZD_MSM_MAX_PARTS) {
        unsigned cnt2 = (cnt + 7) / 8;
        k_sum_chunks<F><<<czd_blocks((size_t)nwin * cnt2, 64), 64, 0, ctx->stream>>>(nxt, cur, nwin,
                                                                                     cnt, 8);
        CZD_LAUNCHED(ctx, "k_sum_chunks");
        X *t = cur;
        cur = nxt;
        nxt = t;
        cnt = cnt2;
    }
    prof.mark("chunks");
    *out = cur;
    *nwin_out = nwin;
    *cnt_out = cnt;
    *c_out = c;
    return CZ_OK;
}

/* The sum of the 1s' points as one bucket of the affine rounds
   (msm_affine.cuh): each round adds the points two by two (slot o takes
   inputs 2o and 2o + 1; an odd last one is carried), with one inversion
   a round for all of them, so an addition costs 6 products against the
   10 of k_ones_sum's XYZZ mixed addition. Round 0 reads pts through the
   1s' indices, later rounds the previous round's array. Rounds run while
   more than `stop` points are left, CUZK_MSM_ONES_ROUNDS of them at most
   (3: G2's 16.5 M 1s of PoRep-like scalars in 25.1 ms, 2.1 M of them left
   to k_ones_sum, against 27.7 with rounds down to 0.5 M: the last rounds,
   of few points, cost more than they save; docs/PERF.md 2026-12-03
   21:52); on return *src / *idx / *n name what is left (idx null: the
   points in order), for k_ones_sum.
   CUZK_MSM_ONES_AFFINE=0/1 turns them off/on; on by default for G2 and
   for BLS12-381's G1. On the H200 (docs/PERF.md 2026-12-03 21:25) G2's
   sum of 16.5 M 1s took 27.7 ms with rounds down to 0.5 M points
   (24.9-25.1 with 3) against 29.8-30.7 without (porep-32g's B2 63.6-64.7
   against 67.9 ms). G1's were even while the running products were parked
   in the output's x (67 M 1s 28.4 against 28.5-28.6 ms, and cuzkd's
   porep-32g G1 MSMs 0.6-2.8 ms slower); with the products in arrays of
   their own, PoRep-like G1 scalars at 2^27 took 39.9 ms with them against
   46.3 without (2026-12-04 13:45). BN254's G1 was not measured: off. They
   are skipped where their buffers (about seven eighths of the 1s' points)
   do not fit the arena. */
static __global__ void k_ones_slots(uint32_t *osrc, unsigned long long *count, size_t n,
                                    size_t n_out)
{
    size_t o = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (o == 0)
        *count = n_out;
    if (o < n_out)
        osrc[o] = (uint32_t)(2 * o) | (2 * o + 1 < n ? 0u : CZD_AFF_ALONE);
}

template <class F>
static cz_status czd_ones_rounds(czd_ctx *ctx, czd_scratch &sc, const czd_affine<F> **src,
                                 const uint32_t **idx, size_t *n, size_t stop)
{
    const bool on = F::DEG == 2 || sizeof(F) == 48; /* G2, BLS12-381's G1 */
    if (!czd_msm_knob("CUZK_MSM_ONES_AFFINE", on) || *n <= stop || stop < 2)
        return CZ_OK;
    const czd_aff_kernels<F> ak(*n);
    const size_t pairs = ak.pairs;
    const size_t n1 = (*n + 1) / 2, n2 = (n1 + 1) / 2;
    const size_t nt_max = (n1 + pairs - 1) / pairs;
    const size_t lev = czd_batch_inv_size(nt_max, ak.chunk) + 1;
    const size_t mark = sc.off;
    /* buf[1] holds round 1's points and, past them, its running products */
    const size_t cap1 = n2 + (n2 + 1) / 2;
    czd_affine<F> *buf[2] = {sc.take<czd_affine<F>>(n1), sc.take<czd_affine<F>>(cap1)};
    uint32_t *osrc = sc.take<uint32_t>(n1);
    unsigned long long *count = sc.take<unsigned long long>(1);
    F *tot = sc.take<F>(nt_max), *lv = sc.take<F>(lev), *pre = sc.take<F>(nt_max + lev);
    if (!buf[0] || !buf[1] || !osrc || !count || !tot || !lv || !pre) {
        sc.off = mark; /* k_ones_sum alone */
        return CZ_OK;
    }
    const int rounds = czd_msm_knob("CUZK_MSM_ONES_ROUNDS", 3);
    for (int r = 0; r < rounds && *n > stop; r++) {
        const size_t m = (*n + 1) / 2;
        czd_affine<F> *out = buf[r & 1];
        k_ones_slots<<<czd_blocks(m, 256), 256, 0, ctx->stream>>>(osrc, count, *n, m);
        CZD_LAUNCHED(ctx, "k_ones_slots");
        const size_t nt = (m + pairs - 1) / pairs;
        /* the running products dense (czd_pippenger): round 0's in
           buf[1], a later round's past its output */
        F *room = r == 0 ? &buf[1][0].x : m + (m + 1) / 2 <= (r & 1 ? cap1 : n1) ? &out[m].x : nullptr;
        size_t pstride;
        F *park = ak.park(out, room, &pstride);
        F *grp, *gpre;
        const size_t ng = ak.groups(nt, tot, pre, &grp, &gpre);
        ak.fwd<<<czd_blocks(nt, 128), 128, 0, ctx->stream>>>(park, pstride, tot, grp, ak.lg, osrc,
                                                              *src, *idx, count, nt);
        CZD_LAUNCHED(ctx, "k_aff_fwd");
        cz_status st = czd_batch_inv<F>(ctx, grp, ng, lv, gpre, ak.chunk);
        if (st != CZ_OK)
            return st;
        ak.bwd<<<czd_blocks(nt, 128), 128, 0, ctx->stream>>>(out, park, pstride, tot, grp, ak.lg,
                                                              osrc, *src, *idx, count, nt);
        CZD_LAUNCHED(ctx, "k_aff_bwd");
        *src = out;
        *idx = nullptr;
        *n = m;
    }
    return CZ_OK;
}

/* The bit-heavy path after the count: n1 scalars are 1, m are others
   (tile offsets in tile_off). Leaves *out, nwin, cnt, c as czd_pippenger
   (nwin = 0: the sum is infinity). */
template <class C, class F>
static cz_status czd_msm_bits(czd_ctx *ctx, czd_scratch &sc, czd_prof &prof, czd_xyzz<F> **out,
                              unsigned *nwin_out, unsigned *cnt_out, unsigned *c_out,
                              const czd_affine<F> *pts, const typename C::fr *scalars, size_t n,
                              int plain,
                              const unsigned long long *tile_off, size_t ntiles, size_t n1, size_t m,
                              unsigned c)
{
    typedef czd_xyzz<F> X;
    CZD_TAKE(ctx, sc, uint32_t, ones, n1 ? n1 : 1);
    CZD_TAKE(ctx, sc, uint32_t, omap, m ? m : 1);
    typedef typename C::fr S;
    CZD_TAKE(ctx, sc, S, oscal, m ? m : 1);
    k_bits_split<S><<<(unsigned)ntiles, CZD_BITS_THREADS, 0, ctx->stream>>>(ones, omap, oscal, tile_off,
                                                                         scalars, n, plain);
    CZD_LAUNCHED(ctx, "k_bits_split");
    prof.mark("bits_split");

    /* the 1s: rounds of affine additions (below), then one running sum
       per thread, then chunks of 8 */
    X *one_parts = nullptr;
    unsigned cnt1 = 0;
    if (n1) {
        typedef void (*ones_fn)(X *, const uint32_t *, size_t, const czd_affine<F> *);
        ones_fn ones_k = k_ones_sum<F>;
        if constexpr (F::DEG == 1) {
            if (czd_msm_knob("CUZK_MSM_ONES_BLOCKS", 4) == 4)
                ones_k = k_ones_sum4<F>; /* 3 % faster than 3 blocks at 2^27 */
        }
        int per_sm = 0;
        CZD_TRY(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ones_k, 128, 0));
        if (per_sm < 1)
            per_sm = 1;
        size_t blocks = (size_t)ctx->prop.multiProcessorCount * per_sm;
        size_t need = (n1 + 128 * 16 - 1) / (128 * 16); /* at least 16 points a thread */
        if (blocks > need)
            blocks = need;
        size_t T = blocks * 128;
        CZD_TAKE(ctx, sc, X, p0, T);
        CZD_TAKE(ctx, sc, X, p1, (T + 7) / 8);
        const size_t mark = sc.off;
        const czd_affine<F> *src = pts;
        const uint32_t *idx = ones;
        size_t left = n1;
        /* rounds down to 16 points a thread of k_ones_sum (CUZK_MSM_ONES_STOP:
           another count, for tests) */
        const int stop = czd_msm_knob("CUZK_MSM_ONES_STOP", 0);
        cz_status st = czd_ones_rounds<F>(ctx, sc, &src, &idx, &left,
                                          stop >= 2 ? (size_t)stop : (size_t)T * 16);
        if (st != CZ_OK)
            return st;
        if (left != n1)
            prof.mark("ones_rounds");
        ones_k<<<(unsigned)blocks, 128, 0, ctx->stream>>>(p0, idx, left, src);
        CZD_LAUNCHED(ctx, "k_ones_sum");
        sc.off = mark; /* the rounds' buffers: later kernels of the stream may reuse them */
        X *cur = p0, *nxt = p1;
        unsigned cnt = (unsigned)T;
        while (cnt > CZD_MSM_MAX_PARTS) {
            unsigned cnt2 = (cnt + 7) / 8;
            k_sum_chunks<F><<<czd_blocks(cnt2, 64), 64, 0, ctx->stream>>>(nxt, cur, 1, cnt, 8);
            CZD_LAUNCHED(ctx, "k_sum_chunks");
            X *t = cur;
            cur = nxt;
            nxt = t;
            cnt = cnt2;
        }
        one_parts = cur;
        cnt1 = cnt;
        prof.mark("ones_sum");
    }

    /* the others: Pippenger through the index map */
    X *win = nullptr;
    unsigned nwin = 1, cnt = 0;
    *c_out = 1;
    if (m) {
        cz_status st =
            czd_pippenger<C, F>(ctx, sc, prof, &win, &nwin, &cnt, c_out, pts, oscal, omap, m, c);
        if (st != CZ_OK)
            return st;
    }
    unsigned cnt2 = cnt > cnt1 ? cnt : cnt1;
    if (cnt2 == 0) { /* every scalar 0 */
        *nwin_out = 0;
        *cnt_out = 0;
        *out = nullptr;
        return CZ_OK;
    }
    CZD_TAKE(ctx, sc, X, merged, (size_t)nwin * cnt2);
    k_bits_merge<F><<<czd_blocks((size_t)nwin * cnt2, 64), 64, 0, ctx->stream>>>(
        merged, win, nwin, cnt, one_parts, cnt1, cnt2);
    CZD_LAUNCHED(ctx, "k_bits_merge");
    prof.mark("merge");
    *out = merged;
    *nwin_out = nwin;
    *cnt_out = cnt2;
    return CZ_OK;
}

template <class C, class F>
static cz_status czd_msm_impl(czd_ctx *ctx, void *parts, unsigned *nwin_out, unsigned *cnt_out,
                              unsigned *c_out, const void *dev_points, const void *dev_scalars,
                              size_t n, unsigned flags, unsigned c)
{
    typedef czd_xyzz<F> X;
    *nwin_out = 0;
    *cnt_out = 0;
    *c_out = 0;
    if (n == 0)
        return CZ_OK;
    if (n >= ((size_t)1 << 31))
        return czd_fail(ctx, CZ_ERR_ARG, "MSM of %zu points: at most 2^31 - 1", n);
    if (c != 0 && (c < 2 || c > 22))
        return czd_fail(ctx, CZ_ERR_ARG, "MSM window of %u bits not in 2..22", c);
    if ((flags & CZD_MSM_GENERAL) && (flags & CZD_MSM_BITS))
        return czd_fail(ctx, CZ_ERR_ARG, "MSM: both the general and the bit path forced");
    const int plain = (flags & CZD_MSM_PLAIN) != 0;
    const czd_affine<F> *pts = (const czd_affine<F> *)dev_points;
    typedef typename C::fr S;
    const S *scalars = (const S *)dev_scalars;

    czd_scratch sc(ctx);
    char what[64];
    if (C::SCALAR_BITS == 255)
        snprintf(what, sizeof what, "msm g%d n=%zu", F::DEG, n);
    else
        snprintf(what, sizeof what, "msm %s g%d n=%zu", C::NAME, F::DEG, n);
    czd_prof prof(ctx, what);
    X *res = nullptr;
    unsigned nwin = 0, cnt = 0, cw = 0;
    int done = 0;
    /* the bit path reads scalars 16 bytes at a time: a buffer that is not
       16-byte aligned (never one of the backend's) takes the general path */
    if (!(flags & CZD_MSM_GENERAL) && ((uintptr_t)dev_scalars & 15) == 0) {
        /* the count: 1s and others per tile, their scan, the totals */
        size_t ntiles = (n + CZD_BITS_TILE - 1) / CZD_BITS_TILE;
        CZD_TAKE(ctx, sc, unsigned long long, tile_cnt, ntiles);
        CZD_TAKE(ctx, sc, unsigned long long, tile_off, ntiles);
        CZD_TAKE(ctx, sc, unsigned long long, tot, 1);
        size_t scan_bytes = 0;
        CZD_TRY(ctx, cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, tile_cnt, tile_off,
                                                   (int)ntiles, ctx->stream));
        CZD_TAKE(ctx, sc, char, scan_tmp, scan_bytes);
        k_bits_count<S><<<(unsigned)ntiles, CZD_BITS_THREADS, 0, ctx->stream>>>(tile_cnt, scalars, n,
                                                                              plain);
        CZD_LAUNCHED(ctx, "k_bits_count");
        CZD_TRY(ctx, cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, tile_cnt, tile_off,
                                                   (int)ntiles, ctx->stream));
        k_bits_total<<<1, 1, 0, ctx->stream>>>(tot, tile_cnt, tile_off, ntiles);
        CZD_LAUNCHED(ctx, "k_bits_total");
        unsigned long long h_tot = 0;
        CZD_TRY(ctx, cudaMemcpyAsync(&h_tot, tot, sizeof h_tot, cudaMemcpyDeviceToHost, ctx->stream));
        CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        prof.mark("bits_count");
        size_t n1 = (size_t)(h_tot & 0xffffffffu), m = (size_t)(h_tot >> 32);
        /* bits (0 or 1) in at least a quarter of the scalars: each costs a
           sort pair per window on the general path, at most one mixed
           addition here */
        if ((flags & CZD_MSM_BITS) || (n - m) * 4 >= n) {
            cz_status st = czd_msm_bits<C, F>(ctx, sc, prof, &res, &nwin, &cnt, &cw, pts, scalars, n,
                                           plain, tile_off, ntiles, n1, m, c);
            if (st != CZ_OK)
                return st;
            done = 1;
        }
    }
    if (!done) {
        CZD_TAKE(ctx, sc, S, scal, n);
        k_scalars_canon<S><<<czd_blocks(n, 256), 256, 0, ctx->stream>>>(scal, scalars, n, plain);
        CZD_LAUNCHED(ctx, "k_scalars_canon");
        prof.mark("canon");
        cz_status st =
            czd_pippenger<C, F>(ctx, sc, prof, &res, &nwin, &cnt, &cw, pts, scal, nullptr, n, c);
        if (st != CZ_OK)
            return st;
    }
    if (nwin && cnt)
        CZD_TRY(ctx, cudaMemcpyAsync(parts, res, (size_t)nwin * cnt * sizeof(X),
                                     cudaMemcpyDeviceToHost, ctx->stream));
    prof.mark("copy");
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    prof.report();
    *nwin_out = nwin && cnt ? nwin : 0;
    *cnt_out = nwin && cnt ? cnt : 0;
    *c_out = cw;
    return CZ_OK;
}

#ifdef CZD_MSM_BN254_TU
/* msm_bn254.cu: BN254's groups, compiled beside this file's BLS12-381 ones */
cz_status czd_msm_bn254(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt,
                        unsigned *c, const void *dev_points, const void *dev_scalars, size_t n,
                        unsigned flags, unsigned window_bits)
{
    typedef czd_curve_bn254 N;
    if (group == CZD_BN254_G1)
        return czd_msm_impl<N, N::fp>(ctx, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                                      window_bits);
    return czd_msm_impl<N, N::fp2>(ctx, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                                   window_bits);
}
#else
cz_status czd_msm_bn254(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt,
                        unsigned *c, const void *dev_points, const void *dev_scalars, size_t n,
                        unsigned flags, unsigned window_bits);

extern "C" cz_status czd_msm(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt,
                             unsigned *c, const void *dev_points, const void *dev_scalars, size_t n,
                             unsigned flags, unsigned window_bits)
{
    typedef czd_curve_bls12_381 B;
    switch (group) {
    case CZD_G1:
        return czd_msm_impl<B, B::fp>(ctx, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                                      window_bits);
    case CZD_G2:
        return czd_msm_impl<B, B::fp2>(ctx, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                                       window_bits);
    case CZD_BN254_G1:
    case CZD_BN254_G2:
        return czd_msm_bn254(ctx, group, parts, nwin, cnt, c, dev_points, dev_scalars, n, flags,
                             window_bits);
    }
    return czd_fail(ctx, CZ_ERR_ARG, "unknown group %d", group);
}
#endif
