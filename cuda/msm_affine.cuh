/*
 * msm_affine.cuh: the MSM's bucket accumulation by rounds of affine
 * additions that share one field inversion (batched affine addition), for
 * G2 by default and G1 when asked (msm.cu: CUZK_MSM_G2_AFFINE,
 * CUZK_MSM_G1_AFFINE; G1's rounds take 0.57 ns an addition on the H200
 * against its XYZZ segments' 0.45; docs/PERF.md 2026-12-03).
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
 * bounds and count (on the device); k_aff_keys names the bucket of every
 * output slot and pads the slots past the count. k_aff_fwd: thread t of
 * T (about CZD_AFF_PAIRS slots each) takes slots t, t + T, t + 2T, ...,
 * so that a warp's lanes read and write consecutive slots (with
 * consecutive slots a thread, a warp's accesses fell 16 slots apart: G1's
 * rounds ran at 25-28 % of the DRAM's bandwidth, the caches saturated;
 * Nsight Compute, docs/PERF.md 2026-12-03), and no lane skips a step that
 * another takes. It computes each pair's denominator, multiplies it
 * into a running product and parks the product so far in the x of the
 * slot; its total goes to tot[t]. czd_batch_inv inverts every tot[t] by
 * the same trick in levels of 32 (one Fermat inversion in all).
 * k_aff_bwd walks the thread's slots backwards: the inverse of a pair's
 * denominator is the running inverse times the parked product of the
 * slots before it, then the running inverse is multiplied by the
 * denominator; the sum replaces the parked product. No kernel keeps a
 * per-thread array (local memory, reserved by the driver for every
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

#define CZD_AFF_PAIRS 16 /* output points (pairs) a thread takes in a round */
#define CZD_AFF_CHUNK 32 /* values a thread multiplies in czd_batch_inv's levels */

/* point i of a round: through the pair's value (round 0) or directly */
template <class F>
__device__ __forceinline__ czd_affine<F> czd_aff_load(const czd_affine<F> *pts, const uint32_t *vals,
                                                      size_t i)
{
    if (!vals)
        return pts[i];
    uint32_t v = vals[i];
    czd_affine<F> p = pts[v & 0x7fffffffu];
    if (v >> 31)
        p.y = F::neg(p.y);
    return p;
}

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
   okeys of that slot gets its bucket. The slots of a run are consecutive,
   so the next steps walk outputs, not inputs: every thread then has only
   pairs to add (walking inputs, lanes would skip the odd offsets at
   different steps and a warp would run each addition twice). Inputs are
   [0, ub_in) with sentinel keys past the valid ones (round 0: the zero
   digits; later rounds: this kernel's padding); the slots from the new
   count *ocount to ub_out (<= ub_in) get the sentinel. */
static __global__ void k_aff_keys(uint32_t *okeys, const uint32_t *keys, const uint32_t *bs,
                           const uint32_t *ns, const unsigned long long *ocount, size_t ub_in,
                           size_t ub_out, uint32_t sentinel)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ub_in)
        return;
    uint32_t k = keys[i];
    if (k != sentinel) {
        size_t off = i - bs[k];
        if (!(off & 1))
            okeys[ns[k] + off / 2] = k;
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

template <class F>
__global__ void k_aff_fwd(czd_affine<F> *out, F *tot, const uint32_t *okeys,
                          const czd_affine<F> *pts, const uint32_t *vals, const uint32_t *bs,
                          const uint32_t *be, const uint32_t *ns, const unsigned long long *ocount,
                          size_t nthreads)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    const size_t m = (size_t)*ocount;
    F acc = F::one();
    for (size_t o = t; o < m; o += nthreads) {
        uint32_t k = okeys[o];
        size_t i = bs[k] + 2 * (o - ns[k]);
        if (i + 1 < be[k]) {
            czd_affine<F> p = czd_aff_load<F>(pts, vals, i), q = czd_aff_load<F>(pts, vals, i + 1);
            F d;
            if (czd_aff_case<F>(p, q, d) < 2)
                acc = acc * d;
        }
        out[o].x = acc; /* the product through this pair, until k_aff_bwd */
    }
    tot[t] = acc; /* 1 for a thread without pairs: every total is nonzero */
}

template <class F>
__global__ void k_aff_bwd(czd_affine<F> *out, const F *tinv, const uint32_t *okeys,
                          const czd_affine<F> *pts, const uint32_t *vals, const uint32_t *bs,
                          const uint32_t *be, const uint32_t *ns, const unsigned long long *ocount,
                          size_t nthreads)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads)
        return;
    const size_t m = (size_t)*ocount;
    if (t >= m)
        return;
    F inv = tinv[t];
    for (size_t o = t + (m - 1 - t) / nthreads * nthreads;; o -= nthreads) {
        uint32_t k = okeys[o];
        size_t i = bs[k] + 2 * (o - ns[k]);
        czd_affine<F> p = czd_aff_load<F>(pts, vals, i), r;
        if (i + 1 < be[k]) {
            czd_affine<F> q = czd_aff_load<F>(pts, vals, i + 1);
            F d;
            unsigned cs = czd_aff_case<F>(p, q, d);
            if (cs < 2) {
                /* 1/d = inv * (product of the thread's pairs before this one) */
                F dinv = o == t ? inv : inv * out[o - nthreads].x;
                inv = inv * d;
                F num = cs == 0 ? q.y - p.y : F::sqr(p.x);
                if (cs == 1)
                    num = num + F::dbl(num);
                F lam = num * dinv;
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
        } else {
            r = p; /* the run's odd last point, carried */
        }
        out[o] = r;
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
   chunk of 32 through i, prod[c] = the chunk's product */
template <class F>
__global__ void k_binv_up(F *prod, F *pre, const F *v, size_t n)
{
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = c * CZD_AFF_CHUNK;
    if (i0 >= n)
        return;
    size_t i1 = i0 + CZD_AFF_CHUNK < n ? i0 + CZD_AFF_CHUNK : n;
    F acc = v[i0];
    pre[i0] = acc;
    for (size_t i = i0 + 1; i < i1; i++) {
        acc = acc * v[i];
        pre[i] = acc;
    }
    prod[c] = acc;
}

/* One level, down: given inv[c] = 1 / prod[c], v[i] = 1 / v[i] in place */
template <class F>
__global__ void k_binv_down(F *v, const F *pre, const F *inv, size_t n)
{
    size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t i0 = c * CZD_AFF_CHUNK;
    if (i0 >= n)
        return;
    size_t i1 = i0 + CZD_AFF_CHUNK < n ? i0 + CZD_AFF_CHUNK : n;
    F r = inv[c];
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

/* the level products of czd_batch_inv(n): its lev holds this many values,
   its pre n more */
static inline size_t czd_batch_inv_size(size_t n)
{
    size_t s = 0;
    while (n > 1) {
        n = (n + CZD_AFF_CHUNK - 1) / CZD_AFF_CHUNK;
        s += n;
    }
    return s;
}

/* v[0 .. n) = their inverses (every v[i] != 0), in levels of 32 with one
   Fermat inversion; lev and pre as czd_batch_inv_size says. */
template <class F>
static cz_status czd_batch_inv(czd_ctx *ctx, F *v, size_t n, F *lev, F *pre)
{
    if (n == 0)
        return CZ_OK;
    F *lv[16], *lp[16];
    size_t ln[16];
    int depth = 0;
    lv[0] = v;
    ln[0] = n;
    lp[0] = pre;
    F *p = lev, *q = pre + n;
    while (ln[depth] > 1) {
        size_t m = (ln[depth] + CZD_AFF_CHUNK - 1) / CZD_AFF_CHUNK;
        k_binv_up<F><<<czd_blocks(m, 128), 128, 0, ctx->stream>>>(p, lp[depth], lv[depth], ln[depth]);
        CZD_LAUNCHED(ctx, "k_binv_up");
        if (++depth >= 16)
            return czd_fail(ctx, CZ_ERR_ARG, "batch inversion of %zu values: too many levels", n);
        lv[depth] = p;
        lp[depth] = q;
        ln[depth] = m;
        p += m;
        q += m;
    }
    k_binv_root<F><<<1, 32, 0, ctx->stream>>>(lv[depth]);
    CZD_LAUNCHED(ctx, "k_binv_root");
    for (int d = depth; d > 0; d--) {
        k_binv_down<F><<<czd_blocks(ln[d], 64), 64, 0, ctx->stream>>>(lv[d - 1], lp[d - 1], lv[d],
                                                                    ln[d - 1]);
        CZD_LAUNCHED(ctx, "k_binv_down");
    }
    return CZ_OK;
}

#endif
