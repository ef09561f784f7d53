/*
 * msm_affine.cuh: the MSM's bucket accumulation by rounds of affine
 * additions that share one field inversion (batched affine addition), for
 * G2 and for G1 from 2^22 points by default (msm.cu: CUZK_MSM_G2_AFFINE,
 * CUZK_MSM_G1_AFFINE; G1's rounds took 0.38 ns an addition on the H200 at
 * 2^27, 622.6 ms, against its XYZZ segments' 0.45; docs/PERF.md
 * 2026-12-03 06:28).
 *
 * DESIGN. After the sort (msm.cu) each bucket's points lie together: runs
 * [bs[k], be[k]) of the pair array. A round adds the points of every run
 * two by two, in affine coordinates: P + Q with lambda = (y2 - y1) /
 * (x2 - x1), x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1, and all
 * the round's denominators are inverted at once (Montgomery's trick: one
 * inversion for all of them), so an addition costs 6 products (1 for the
 * prefix, 2 for the trick, 3 for the formula) instead of the 10 of an XYZZ
 * mixed addition; in Fp2 a product is 3 Fp products, so the rounds' extra
 * memory traffic (each point read twice, a product parked) weighs less
 * than in G1. A run of L points becomes ceil(L / 2) points (an odd last
 * point is carried); new run starts come from a scan of those counts, so
 * the rounds' arrays are compact and each run stays contiguous. After a
 * few rounds (most additions are in the first: each halves the points)
 * the runs left are summed by msm.cu's XYZZ segments unchanged: a round's
 * output is handed to them as keys (padded with the sentinel up to the
 * host's bound of the count, so the segments can be cut on the host),
 * values that are the identity (k_aff_iota) and the run bounds ns / ne.
 *
 * A round: k_aff_counts, a scan and k_aff_ends give the next runs'
 * bounds and count (on the device); k_aff_keys names the bucket and the
 * input of every output slot and pads the slots past the count.
 * k_aff_fwd: thread t of T (about CZD_AFF_PAIRS slots each by default;
 * G1 64 or 128, msm.cu)
 * takes slots t, t + T, t + 2T, ..., so that a warp's lanes read and write
 * consecutive slots (with consecutive slots a thread, a warp's accesses
 * fell 16 slots apart: G1's rounds ran at 25-28 % of the DRAM's
 * bandwidth, the caches saturated; Nsight Compute, docs/PERF.md
 * 2026-12-03), and no lane skips a step that another takes. It computes
 * each pair's denominator from the x coordinates alone, multiplies it into
 * a running product and parks the product so far in a dense array of its
 * own (48 bytes a slot for BLS12-381's G1: parked in the x of the output
 * slot, it left a 32-byte sector half written until the backward pass,
 * and, our reading of the figures, the DRAM read every such sector back
 * to write it: the forward passes of a 2^27 MSM took 199.0 ms so, 128.1
 * dense; msm.cu says where the array lies). It takes U slots a step
 * (CUZK_MSM_AFF_FWD_U) with all their loads issued before the step's
 * products. The threads' totals meet in groups of 2^lg lanes of a warp
 * (czd_aff_group: the group's total to grp[t >> lg], the product of the
 * others' totals to tot[t]; lg = 0: the thread's total to grp[t]), and
 * czd_batch_inv inverts the groups' totals by the same trick in levels, a
 * thread's chunk of values a chain of products (one field inversion in
 * all, by one thread: field.cuh's binary Euclid; with Fermat's chain of
 * products the inversions of a 2^27 MSM's rounds took 15.0 ms, 10.4 with
 * the Euclid and chunks of 32).
 * k_aff_bwd walks the thread's slots backwards from the inverse of its
 * total (its group's inverse times tot[t]): the inverse of a pair's
 * denominator is the running inverse times the parked product of the
 * slots before it, then the running inverse is multiplied by the
 * denominator; the sum goes to the output slot. Points and field
 * elements move in 16-byte loads. No kernel keeps a per-thread array
 * beyond its U slots (local memory, reserved by the driver for every
 * resident thread, made a 2^27 launch beside a resident key run out of
 * memory once).
 * Special cases are exact: a point at infinity (x = y = 0) passes the other
 * through, P + P doubles (denominator 2y, lambda = 3x^2 / 2y), P + (-P) is
 * infinity; these use the denominator 1 when they need none. In round 0
 * the points are read through the sorted pairs' values (index, sign bit)
 * as k_accumulate reads them; later rounds read the previous round's array.
 */
#ifndef CZ_CUDA_MSM_AFFINE_CUH
#define CZ_CUDA_MSM_AFFINE_CUH

#include "common.cuh"
#include "ec.cuh"

#define CZD_AFF_PAIRS 16 /* G2's output slots a thread in a round (CUZK_MSM_AFF_PAIRS) */
#define CZD_AFF_ALONE 0x80000000u /* osrc: the slot holds one point, carried */

/* the addition's case: 0 = general (d = x2 - x1), 1 = doubling (d = 2 y1),
   2 = the result is P, 3 = it is Q, 4 = infinity (2..4 need no inversion) */
template <class F>
__device__ __forceinline__ unsigned czd_aff_case(const czd_affine<F> &p, const czd_affine<F> &q, F &d)
{
    if (q.is_inf()) {
        d = F::one();
        return 2;
    }
    if (p.is_inf()) {
        d = F::one();
        return 3;
    }
    if (!p.x.eq(q.x)) {
        d = q.x - p.x;
        return 0;
    }
    if (p.y.eq(q.y)) { /* y = 0 has no point of odd order: y != 0 here */
        d = F::dbl(p.y);
        return 1;
    }
    d = F::one();
    return 4;
}

/* The output slot of every pair (and carried odd point): the pair that
   starts at input i (an even offset in its run) goes to ns[k] + offset / 2;
   okeys of that slot gets its bucket and osrc its input: i, with the top
   bit set when the slot holds the run's odd last point alone (inputs are
   fewer than 2^31: msm.cu's batches). The slots of a run are consecutive,
   so the next steps walk outputs, not inputs: every thread then has only
   pairs to add (walking inputs, lanes would skip the odd offsets at
   different steps and a warp would run each addition twice), and through
   osrc a slot's points are one load away (through okeys and the bounds
   they were three). Inputs are [0, ub_in) with sentinel keys past the
   valid ones (round 0: the zero digits; later rounds: this kernel's
   padding); the slots from the new count *ocount to ub_out (<= ub_in) get
   the sentinel. */
static __global__ void k_aff_keys(uint32_t *okeys, uint32_t *osrc, const uint32_t *keys,
                                  const uint32_t *bs, const uint32_t *be, const uint32_t *ns,
                                  const unsigned long long *ocount, size_t ub_in, size_t ub_out,
                                  uint32_t sentinel)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ub_in)
        return;
    uint32_t k = keys[i];
    if (k != sentinel) {
        size_t off = i - bs[k];
        if (!(off & 1)) {
            okeys[ns[k] + off / 2] = k;
            osrc[ns[k] + off / 2] = (uint32_t)i | (i + 1 < be[k] ? 0u : CZD_AFF_ALONE);
        }
    }
    if (i < ub_out && i >= (size_t)*ocount)
        okeys[i] = sentinel;
}

/* v[i] = i: the values of the rounds' output for k_accumulate (point i of
   the array, no sign) */
static __global__ void k_aff_iota(uint32_t *v, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = (uint32_t)i;
}

/* a field element from 16-byte aligned memory in 16-byte loads (an affine
   point's x and y are: every point array starts 256-byte aligned and a
   point is 64, 96 or 192 bytes), through the read-only path; and back */
template <class F>
__device__ __forceinline__ F czd_ldv(const F *p)
{
    static_assert(sizeof(F) % 16 == 0, "16-byte loads");
    F r;
    uint32_t *w = reinterpret_cast<uint32_t *>(&r);
    const uint4 *s = reinterpret_cast<const uint4 *>(p);
#pragma unroll
    for (unsigned j = 0; j < sizeof(F) / 16; j++) {
        uint4 u = __ldg(s + j);
        w[4 * j] = u.x;
        w[4 * j + 1] = u.y;
        w[4 * j + 2] = u.z;
        w[4 * j + 3] = u.w;
    }
    return r;
}

template <class F>
__device__ __forceinline__ void czd_stv(F *p, const F &v)
{
    const uint32_t *w = reinterpret_cast<const uint32_t *>(&v);
    uint4 *d = reinterpret_cast<uint4 *>(p);
#pragma unroll
    for (unsigned j = 0; j < sizeof(F) / 16; j++)
        d[j] = make_uint4(w[4 * j], w[4 * j + 1], w[4 * j + 2], w[4 * j + 3]);
}

/* the values of a slot's two points (round 0: through the sorted pairs'
   values, with their sign bits; later rounds: their places) */
__device__ __forceinline__ void czd_aff_vals(uint32_t &a, uint32_t &b, const uint32_t *vals,
                                             uint32_t s)
{
    const uint32_t i = s & ~CZD_AFF_ALONE;
    a = vals ? vals[i] : i;
    b = s & CZD_AFF_ALONE ? 0 : vals ? vals[i + 1] : i + 1;
}

/* the point of value v, in 16-byte loads */
template <class F>
__device__ __forceinline__ czd_affine<F> czd_aff_ldv(const czd_affine<F> *pts, uint32_t v)
{
    czd_affine<F> p;
    p.x = czd_ldv<F>(&pts[v & 0x7fffffffu].x);
    p.y = czd_ldv<F>(&pts[v & 0x7fffffffu].y);
    if (v >> 31)
        p.y = F::neg(p.y);
    return p;
}

/* x from lane (lane ^ mask) of the warp, word by word */
template <class F>
__device__ __forceinline__ F czd_shfl_xor(const F &x, unsigned mask)
{
    static_assert(sizeof(F) % 4 == 0, "32-bit words");
    F r;
    const uint32_t *s = reinterpret_cast<const uint32_t *>(&x);
    uint32_t *d = reinterpret_cast<uint32_t *>(&r);
#pragma unroll
    for (unsigned j = 0; j < sizeof(F) / 4; j++)
        d[j] = __shfl_xor_sync(0xffffffffu, s[j], mask);
    return r;
}

/* The batch inversion's first level, in the warp: lanes in groups of 2^lg
   (lg 1..5); on return a is the product of the group's values and oth the
   product of the others' (the group's total over this lane's value),
   2 lg - 1 products a lane. So 1 / a_lane = (1 / total) * oth: k_aff_bwd's
   one product, with czd_batch_inv over the groups' totals only (a level
   over every thread's total, read and written by kernels of its own, was
   most of that phase: docs/PERF.md 2026-12-04 17:45). Every lane of the
   warp must call it. */
template <class F>
__device__ __forceinline__ void czd_aff_group(F &a, F &oth, unsigned lg)
{
    F p = czd_shfl_xor(a, 1);
    oth = p;
    a = a * p;
    for (unsigned s = 1; s < lg; s++) {
        p = czd_shfl_xor(a, 1u << s);
        oth = oth * p;
        a = a * p;
    }
}

/* The forward pass, U slots a step: the step's slot inputs, then their
   values, then the x coordinates of its 2U points are loaded before any
   product, so a thread has 2U gathers in flight (one slot a step, through
   okeys and the bounds, left the forward kernel waiting on chains of four
   dependent loads: 8 % of its issue slots used, Nsight Compute; the three
   loads of a slot spread over three steps so that none waits on another
   were slower: 2^27 723.3 against 690.0 ms, docs/PERF.md 2026-12-04
   13:33). A pair needs its y only when the x coordinates are equal or
   zero (doubling, opposite points, infinity: czd_aff_case then decides,
   rarely). The product through each slot is parked at park[o * pstride]
   (msm.cu: a dense array of its own where there is room, else the x of
   the output slot). Its registers are not capped (192 for BLS12-381's G1
   at U = 4): capped at 128 (4 blocks a SM) it took 248.6 ms at 2^27
   against 199.1, at 80 (spilling) 352.3 (docs/PERF.md 2026-12-04 06:10). */
template <class F, int U>
__global__ void __launch_bounds__(128)
    k_aff_fwd(F *park, size_t pstride, F *tot, F *grp, unsigned lg,
              const uint32_t *__restrict__ osrc, const czd_affine<F> *__restrict__ pts,
              const uint32_t *__restrict__ vals, const unsigned long long *ocount, size_t nthreads)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t m = (size_t)*ocount;
    F acc = F::one();
    /* every lane of the block stays to the end (the group's shuffles) */
    for (size_t o0 = t; t < nthreads && o0 < m; o0 += U * nthreads) {
        uint32_t s[U], a[U], b[U];
        F x1[U], x2[U];
#pragma unroll
        for (int j = 0; j < U; j++)
            s[j] = o0 + j * nthreads < m ? osrc[o0 + j * nthreads] : CZD_AFF_ALONE;
#pragma unroll
        for (int j = 0; j < U; j++)
            czd_aff_vals(a[j], b[j], vals, s[j]);
#pragma unroll
        for (int j = 0; j < U; j++) {
            if (!(s[j] & CZD_AFF_ALONE)) {
                x1[j] = czd_ldv<F>(&pts[a[j] & 0x7fffffffu].x);
                x2[j] = czd_ldv<F>(&pts[b[j] & 0x7fffffffu].x);
            }
        }
#pragma unroll
        for (int j = 0; j < U; j++) {
            const size_t o = o0 + j * nthreads;
            if (o >= m)
                break;
            if (!(s[j] & CZD_AFF_ALONE)) {
                if (!x1[j].eq(x2[j]) && !x1[j].is_zero() && !x2[j].is_zero()) {
                    acc = acc * (x2[j] - x1[j]);
                } else {
                    F d;
                    if (czd_aff_case<F>(czd_aff_ldv<F>(pts, a[j]), czd_aff_ldv<F>(pts, b[j]), d) < 2)
                        acc = acc * d;
                }
            }
            czd_stv<F>(&park[o * pstride], acc); /* the product through this slot, for k_aff_bwd */
        }
    }
    /* acc: 1 for a thread without pairs, so every total is nonzero */
    if (lg == 0) {
        if (t < nthreads)
            grp[t] = acc;
        return;
    }
    F oth;
    czd_aff_group(acc, oth, lg);
    if (t < nthreads) {
        tot[t] = oth;
        if ((t & ((1u << lg) - 1)) == 0)
            grp[t >> lg] = acc;
    }
}

/* one slot's sum: p + q (a pair) or p (alone); *inv the running inverse
   of the thread's products through this slot, park the product of the
   slots before it (when there are any) */
template <class F>
__device__ __forceinline__ czd_affine<F> czd_aff_sum(const czd_affine<F> &p, const czd_affine<F> &q,
                                                     bool alone, bool first, const F &park, F &inv)
{
    if (alone)
        return p; /* the run's odd last point, carried */
    czd_affine<F> r;
    F d;
    const unsigned cs = czd_aff_case<F>(p, q, d);
    if (cs < 2) {
        /* 1/d = inv * (product of the thread's pairs before this one) */
        const F dinv = first ? inv : inv * park;
        inv = inv * d;
        F num = cs == 0 ? q.y - p.y : F::sqr(p.x);
        if (cs == 1)
            num = num + F::dbl(num);
        const F lam = num * dinv;
        r.x = F::sqr(lam) - p.x - q.x;
        r.y = lam * (p.x - r.x) - p.y;
    } else if (cs == 2) {
        r = p;
    } else if (cs == 3) {
        r = q;
    } else {
        r.x = F::zero();
        r.y = F::zero();
    }
    return r;
}

/* The backward pass: the thread's slots from its last down to t, each
   slot's points and parked product loaded before its addition (two slots
   a step, all loads first, measured slower: 842.7 against 757.1 ms for
   G1 at 2^27, G2 spilling; docs/PERF.md 2026-12-03 06:06; so was the
   next slots' points and parked product copied ahead into shared memory
   by cp.async, one or two slots ahead: 758.0-763.3 against 706.4 ms,
   2026-12-03 13:22: the pass is bound by its products, not its loads).
   MINB blocks of 128 a SM at least (CUZK_MSM_AFF_BWD_MINB: 4 caps G1's
   registers at 128, for 16 warps a SM instead of 12). Its products in
   mont.cuh's separated form were slower too: lambda^2 alone 726.0, every
   product 775.1 against 705.7 ms at 2^27 (commit c509c5d, docs/PERF.md
   2026-12-03 13:34). */
template <class F, int MINB>
__global__ void __launch_bounds__(128, MINB)
    k_aff_bwd(czd_affine<F> *out, const F *park, size_t pstride, const F *tot, const F *ginv,
              unsigned lg, const uint32_t *__restrict__ osrc, const czd_affine<F> *__restrict__ pts,
              const uint32_t *__restrict__ vals, const unsigned long long *ocount,
              size_t nthreads)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    const size_t m = (size_t)*ocount;
    if (t >= m)
        return;
    /* the inverse of the thread's total (k_aff_fwd's groups) */
    F inv = lg ? ginv[t >> lg] * tot[t] : ginv[t];
    for (size_t o = t + (m - 1 - t) / nthreads * nthreads;; o -= nthreads) {
        const uint32_t s = osrc[o];
        const bool alone = (s & CZD_AFF_ALONE) != 0;
        uint32_t a, b;
        czd_aff_vals(a, b, vals, s);
        const czd_affine<F> p = czd_aff_ldv<F>(pts, a);
        czd_affine<F> q;
        F prev;
        if (!alone) {
            q = czd_aff_ldv<F>(pts, b);
            if (o != t)
                prev = park[(o - nthreads) * pstride];
        }
        const czd_affine<F> r = czd_aff_sum<F>(p, q, alone, o == t, prev, inv);
        czd_stv<F>(&out[o].x, r.x);
        czd_stv<F>(&out[o].y, r.y);
        if (o == t)
            break;
    }
}

/* Counts of the next round: a run of L points leaves ceil(L / 2). */
static __global__ void k_aff_counts(uint32_t *cnt, const uint32_t *bs, const uint32_t *be, size_t nb)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nb)
        cnt[k] = (be[k] - bs[k] + 1) / 2;
}

/* the next round's run ends, and its point count */
static __global__ void k_aff_ends(uint32_t *ne, unsigned long long *count, const uint32_t *ns,
                           const uint32_t *cnt, size_t nb)
{
    size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nb)
        return;
    ne[k] = ns[k] + cnt[k];
    if (k == nb - 1)
        *count = (unsigned long long)ns[k] + cnt[k];
}

/* One level of czd_batch_inv, up: pre[i] = the product of v over its
   chunk of k values through i, prod[c] = the chunk's product */
template <class F>
__global__ void k_binv_up(F *__restrict__ prod, F *__restrict__ pre, const F *__restrict__ v,
                          size_t n, unsigned k)
{
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = c * k;
    if (i0 >= n)
        return;
    size_t i1 = i0 + k < n ? i0 + k : n;
    F acc = v[i0];
    pre[i0] = acc;
#pragma unroll 4
    for (size_t i = i0 + 1; i < i1; i++) {
        acc = acc * v[i];
        pre[i] = acc;
    }
    prod[c] = acc;
}

/* One level, down: given inv[c] = 1 / prod[c], v[i] = 1 / v[i] in place */
template <class F>
__global__ void k_binv_down(F *v, const F *__restrict__ pre, const F *__restrict__ inv, size_t n,
                            unsigned k)
{
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = c * k;
    if (i0 >= n)
        return;
    size_t i1 = i0 + k < n ? i0 + k : n;
    F r = inv[c];
#pragma unroll 4
    for (size_t i = i1 - 1; i > i0; i--) {
        F vi = v[i];
        v[i] = r * pre[i - 1];
        r = r * vi;
    }
    v[i0] = r;
}

template <class F>
__global__ void k_binv_root(F *v)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        v[0] = F::inv(v[0]);
}

/* the level products of czd_batch_inv(n, k): its lev holds this many
   values, its pre n more */
static inline size_t czd_batch_inv_size(size_t n, unsigned k)
{
    size_t s = 0;
    while (n > 1) {
        n = (n + k - 1) / k;
        s += n;
    }
    return s;
}

/* v[0 .. n) = their inverses (every v[i] != 0), in levels of chunks of k
   (2..64) with one field inversion; lev and pre as czd_batch_inv_size
   says. The levels are chains of dependent products, one a thread, and
   the rounds of an MSM wait for them and for the one inversion with the
   GPU otherwise idle: chunks of k = 32 made each level a chain of 32
   products (about 0.9 ms a round for BLS12-381's G1, 1.4 for G2, levels
   and inversion together; docs/PERF.md 2026-12-04 16:50), shorter chunks
   make more, shorter levels (CUZK_MSM_BINV_CHUNK, msm.cu). With prof,
   the profile's phases aff_inv_up / _root / _down time the three parts:
   with chunks of 8 (G1) or 4 (G2) the inversion takes ~0.11 ms a round
   and the first level, over every thread's total, took most of the rest
   (docs/PERF.md 2026-12-04 17:45): k_aff_fwd's groups of lanes do that
   level now. The levels of at most 4096 values run in one block with the
   inversion (one launch instead of two a level) were slower: G1 2^27
   609.3 against 605.8 ms (2026-12-04 20:40). */
template <class F>
static cz_status czd_batch_inv(czd_ctx *ctx, F *v, size_t n, F *lev, F *pre, unsigned k,
                               czd_prof *prof = nullptr)
{
    if (n == 0)
        return CZ_OK;
    if (k < 2 || k > 64)
        return czd_fail(ctx, CZ_ERR_ARG, "batch inversion in chunks of %u: not in 2..64", k);
    F *lv[48], *lp[48];
    size_t ln[48];
    int depth = 0;
    lv[0] = v;
    ln[0] = n;
    lp[0] = pre;
    F *p = lev, *q = pre + n;
    while (ln[depth] > 1) {
        size_t m = (ln[depth] + k - 1) / k;
        k_binv_up<F><<<czd_blocks(m, 128), 128, 0, ctx->stream>>>(p, lp[depth], lv[depth], ln[depth], k);
        CZD_LAUNCHED(ctx, "k_binv_up");
        if (++depth >= 48)
            return czd_fail(ctx, CZ_ERR_ARG, "batch inversion of %zu values: too many levels", n);
        lv[depth] = p;
        lp[depth] = q;
        ln[depth] = m;
        p += m;
        q += m;
    }
    if (prof)
        prof->mark("aff_inv_up");
    k_binv_root<F><<<1, 32, 0, ctx->stream>>>(lv[depth]);
    CZD_LAUNCHED(ctx, "k_binv_root");
    if (prof)
        prof->mark("aff_inv_root");
    for (int d = depth; d > 0; d--) {
        k_binv_down<F><<<czd_blocks(ln[d], 64), 64, 0, ctx->stream>>>(lv[d - 1], lp[d - 1], lv[d],
                                                                    ln[d - 1], k);
        CZD_LAUNCHED(ctx, "k_binv_down");
    }
    if (prof)
        prof->mark("aff_inv_down");
    return CZ_OK;
}

#endif
