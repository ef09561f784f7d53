/*
 * ntt_pass.cuh: one pass of the GPU NTT (a block's share of it), written
 * once for the device and for a host emulation of the same index math.
 *
 * DESIGN. A transform of 2^log_n elements runs as passes of k <= 10
 * radix-2 stages (the four-step decomposition of ntt.cu's note: a pass
 * over the sub-transforms of size N' = 2^(k+L) treats each one as a
 * 2^k x 2^L matrix, x = x1 2^L + x2, and multiplies element (x1, x2) by
 * the twist w_N'^(bitrev_k(x1) x2)). A block holds 2^lc columns of 2^k
 * elements, E = 2^(k+lc) <= 2^11; each thread holds 2^R of them (R = 3 or
 * 2, a variant's choice, below) in registers, all of one column. The k
 * stages are done in rounds of R: the round over the lowest bits does
 * r_low = R of them (a template parameter, so its trivial twiddles are
 * known at compile time and skipped: all of bit 0's, half of bit 1's, a
 * quarter of bit 2's) and a top round the k - R mod R left over (passes of
 * 9 stages in rounds of 2: 2 + 2 + 2 + 2 + 1, against 1 + 2 + 2 + 2 + 2
 * before, CUZK_NTT_LOW_FULL=0, which skipped only bit 0's). In a round
 * the thread's 2^R registers are the positions that differ in the round's
 * R bits, so its stages need no data exchange; between rounds the block
 * swaps data through shared memory (32-byte elements as two 16-byte
 * halves in two planes, the 16-byte index XOR-swizzled so that eight
 * threads reading eight positions 8 apart hit eight distinct bank
 * groups). A thread reads
 * its first round's elements from global memory and writes its last
 * round's directly.
 *
 * Two directions with the same pass parameters:
 *  - DIF (natural in, bit-reversed out): rounds from the top bits down;
 *    butterfly (u, v) -> (u + v, (u - v) t); a pass's twist comes after
 *    its stages, and is applied by the next pass as it loads, or at the
 *    pass's own store (variants with TS).
 *  - DIT (bit-reversed in, natural out): the passes in reverse order;
 *    rounds from bit 0 up; the twist before the stages; butterfly
 *    (u, v) -> (u + v t, u - v t).
 * With t = w_2h^(x mod h) for the pair (x, x + h), w_2h from one table of
 * the 2^(k-1) powers of w_2^k. Extras folded into loads and stores: a
 * coset pre-scale g^x in a DIF's first pass, a post-scale c h^f (f the
 * frequency, bitrev_n of the position) and the store at f (natural order,
 * out of place) in a DIF's last pass, and h = A B - v in a DIT's last pass.
 * The H step's middle (k_ntt_mid) runs a DIF last pass and a DIT first
 * pass over the same rows in one kernel (czd_pass::mid).
 *
 * The host emulation is tests/ntt_pass_emu.cpp (run by
 * tests/test_ntt_pass_emu.sh): every variant against the CPU NTT.
 *
 * Field type F needs +, -, * and the layout of 8 little-endian 32-bit
 * limbs in v[]; on the host the emulation passes a wrapper of cz_fr.
 */
#ifndef CZ_CUDA_NTT_PASS_CUH
#define CZ_CUDA_NTT_PASS_CUH

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hostdev.cuh"

#ifndef __CUDACC__
struct uint4 {
    uint32_t x, y, z, w;
};
#endif

static CZD_HD uint32_t czd_bitrev(uint32_t x, unsigned bits)
{
#ifdef __CUDA_ARCH__
    return bits ? __brev(x) >> (32 - bits) : 0;
#else
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= ((x >> i) & 1u) << (bits - 1 - i);
    return r;
#endif
}

/* A variant of the passes, a set of compile-time choices instantiated side
   by side (ntt.cu's table, picked at run time by CUZK_NTT_VARIANT):
   - R: each thread holds 2^R elements of one column (R = 3: 8 elements,
     rounds of three stages; R = 2: 4 elements, rounds of two stages, half
     the live registers, one more shared-memory exchange per pass);
   - VEC: every element moves to and from global memory as two 16-byte
     accesses (tables through the read-only path) instead of eight 4-byte
     ones (every array here is 32-byte aligned: arena buffers and scratch
     are 256-byte aligned); the same bytes either way;
   - TS: a DIF pass applies its own twist at its store (as commit 652d136
     did) instead of the next pass at its load;
   - BL: the largest block, 2^BL elements (2^(BL - R) threads; smaller
     with CUZK_NTT_BLOCK_LOG), and MINB: the blocks per multiprocessor
     asked of the compiler, __launch_bounds__(2^(BL - R), MINB), which
     sets its register budget (65536 / (MINB 2^(BL - R)) registers). */
template <int R_, bool VEC_, bool TS_, int MINB_, int BL_>
struct czd_nv {
    static constexpr int R = R_;
    static constexpr bool VEC = VEC_;
    static constexpr bool TS = TS_;
    static constexpr int MINB = MINB_;
    static constexpr int BL = BL_;
};

/* Global memory is read and written through czd_ld / czd_st. */
/* NC: a table, read-only for the whole kernel (the read-only data path) */
template <bool NC = false, bool VEC = false, class F>
static CZD_HD F czd_ld(const F *p)
{
    if (VEC) {
        const uint4 *q = reinterpret_cast<const uint4 *>(p);
#ifdef __CUDA_ARCH__
        uint4 a = NC ? __ldg(q) : q[0], b = NC ? __ldg(q + 1) : q[1];
#else
        uint4 a = q[0], b = q[1];
#endif
        F r;
        r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
        r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
        return r;
    }
    return *p;
}
template <bool VEC = false, class F>
static CZD_HD void czd_st(F *p, const F &r)
{
    if (VEC) {
        uint4 *q = reinterpret_cast<uint4 *>(p);
        q[0] = uint4{r.v[0], r.v[1], r.v[2], r.v[3]};
        q[1] = uint4{r.v[4], r.v[5], r.v[6], r.v[7]};
        return;
    }
    *p = r;
}

/* b^e = lo[e mod 2^h] * hi[e >> h] */
template <class F>
struct czd_powt {
    const F *lo, *hi;
    unsigned h;
    template <bool VEC = false>
    CZD_HD F at(uint64_t e) const
    {
        return czd_ld<true, VEC>(&lo[e & ((1ull << h) - 1)]) * czd_ld<true, VEC>(&hi[e >> h]);
    }
};

enum {
    CZD_TW_NONE = 0,
    CZD_TW_DIRECT = 1, /* twd[x2 * k1]: the powers of w_N' */
    CZD_TW_POW = 2,    /* twp.at((x2 * k1) << s0): powers of w_n */
    CZD_POST_C = 1,    /* v *= post_c */
    CZD_POST_POW = 2,  /* v *= post_t.at(f) */
    CZD_POST_NATURAL = 4, /* store at f instead of the position */
};

template <class F>
struct czd_pass_args {
    const F *src;
    F *dst;
    unsigned log_n, s0, k, lc;
    const F *roots; /* w_2^k^e, e < 2^(k-1) */
    /* the twist of the pass (tw_s0, tw_k) at the load: a DIT pass's own,
       a DIF pass's predecessor's, whose element at global index g is
       (x, x2) = ((g >> tw_L) mod 2^tw_k, g mod 2^tw_L) */
    unsigned tw_s0, tw_k, tw_L;
    int tw;
    const F *twd;
    czd_powt<F> twp;
    int pre; /* DIF first pass: v *= pre_t.at(x) */
    czd_powt<F> pre_t;
    int post; /* DIF last pass: CZD_POST_* */
    F post_c;
    czd_powt<F> post_t;
    const F *pa, *pb; /* DIT last pass, when pa is set: dst = pa * pb - v, or
                         pa * v when pb is NULL (the H step without c) */
    /* DIF last pass (L = 0) with CZD_POST_NATURAL: the block's 2^lc
       "columns" are the rows high0 + t 2^(log_n - k - lc), t < 2^lc, whose
       frequencies interleave, and the store goes through shared memory so
       that neighbouring threads write neighbouring frequencies */
    int rows;
    /* DIT of a coset (the H step): the twist of x is (w_2N'^(2 x2 + 1))^k1
       (twd / twp.at(<< s0) then hold powers of w_2N' / w_2n), which also
       applies the shift g = w_2n of the digit x; pre_x: the first pass's
       own digit, v *= pre_x[x] */
    int coset;
    const F *pre_x;
};

/* The low round's stages: R when full (k >= R; a top round takes what is
   left over, k - R mod R stages), else k = R nu + r_low, r_low in 1..R.
   The low round's twiddles are known at compile time, the identity for
   half of its butterflies or more: full, the passes of 9 stages in rounds
   of 2 skip 0.75 products an element instead of 0.5 */
static CZD_HD unsigned czd_rlow(unsigned k, unsigned R, bool full)
{
    return full ? R : k - R * ((k - 1) / R);
}

/* CUZK_NTT_LOW_FULL=0: the low round of k - R floor((k - 1) / R) stages
   (before 2026-12-04), for A/B runs; read at each launch (host code) */
static inline bool czd_ntt_low_full(void)
{
    const char *e = getenv("CUZK_NTT_LOW_FULL");
    return !(e && *e && strcmp(e, "0") == 0);
}

/* X: the extras (pre-scale, post-scale and natural store, product) are
   compiled in; without, the pass only has its twist (fewer registers).
   V: the variant (czd_nv). Needs k >= V::R. */
template <class F, bool DIT, int RLOW, bool X, class V>
struct czd_pass {
    static constexpr int R = V::R;
    static constexpr int M = 1 << R; /* elements per thread */
    const czd_pass_args<F> p; /* a copy: kernel parameters stay in the constant bank */
    /* rounds: the low one (RLOW stages, bits [0, RLOW)), nf full ones of R
       stages above it, and when rtop = (k - RLOW) mod R is not 0 a top
       round of rtop stages (the registers' R bits at k - R, the top rtop
       of them done); nu + 1 rounds in all */
    unsigned k, L, lc, E, c, xr, nu, nf, rtop;
    size_t base, x2;
    F v[M];

    CZD_HD czd_pass(const czd_pass_args<F> &a, size_t bid, unsigned tid) : p(a)
    {
        k = a.k;
        lc = a.lc;
        L = a.log_n - a.s0 - k;
        E = 1u << (k + lc);
        nf = (k - RLOW) / R;
        rtop = (k - RLOW) % R;
        nu = nf + (rtop ? 1 : 0);
        if (X && a.rows) { /* L = 0: blocks are groups of rows, threads along a row */
            base = (size_t)bid << k;
            c = tid >> (k - R);
            xr = tid & ((1u << (k - R)) - 1);
            x2 = 0;
        } else {
            size_t lowgroup = bid & ((1ull << (L - lc)) - 1);
            size_t high = bid >> (L - lc);
            base = (high << (k + L)) + (lowgroup << lc);
            c = tid & ((1u << lc) - 1);
            xr = tid >> lc;
            x2 = (lowgroup << lc) + c;
        }
    }
    /* low bit of the registers' R bits in round ri (processing order) */
    CZD_HD unsigned round_b(unsigned ri) const
    {
        if (DIT)
            return ri == 0 ? 0 : ri <= nf ? RLOW + R * (ri - 1) : k - R;
        const unsigned top = rtop ? 1 : 0;
        return ri == nu ? 0 : ri < top ? k - R : RLOW + R * (nf - 1 - (ri - top));
    }
    /* the lowest register bit whose stage round ri does (not the low round) */
    CZD_HD int round_rb0(unsigned ri) const
    {
        return rtop && ri == (DIT ? nu : 0) ? R - (int)rtop : 0;
    }
    CZD_HD unsigned xpos(unsigned B, unsigned j) const
    {
        return ((xr >> B) << (B + R)) | (xr & ((1u << B) - 1)) | (j << B);
    }
    CZD_HD size_t gidx(unsigned x) const
    {
        return X && p.rows ? base + x + ((size_t)c << (p.log_n - lc)) : base + ((size_t)x << L) + c;
    }
    CZD_HD F twist(size_t g) const
    {
        uint64_t tx2 = g & ((1ull << p.tw_L) - 1);
        uint32_t tx = (uint32_t)(g >> p.tw_L) & ((1u << p.tw_k) - 1);
        uint64_t ex = (p.coset ? 2 * tx2 + 1 : tx2) * czd_bitrev(tx, p.tw_k);
        return p.tw == CZD_TW_DIRECT ? czd_ld<true, V::VEC>(&p.twd[ex])
                                     : p.twp.template at<V::VEC>(ex << p.tw_s0);
    }
    CZD_HD static unsigned sw(unsigned e) { return e ^ ((e >> 3) & 7); }

    CZD_HD void load()
    {
        const unsigned B = round_b(0);
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            unsigned x = xpos(B, j);
            size_t g = gidx(x);
            v[j] = czd_ld<false, V::VEC>(&p.src[g]);
            if (X && p.pre)
                v[j] = v[j] * p.pre_t.template at<V::VEC>(g);
            if (X && p.pre_x)
                v[j] = v[j] * czd_ld<true, V::VEC>(&p.pre_x[x]);
            if (p.tw && (DIT || !V::TS))
                v[j] = v[j] * twist(g);
        }
    }

    CZD_HD void bfly(int j0, int j1, const F *t)
    {
        F u = v[j0], w = v[j1];
        if (DIT) {
            if (t)
                w = w * *t;
            v[j0] = u + w;
            v[j1] = u - w;
        } else {
            v[j0] = u + w;
            v[j1] = t ? (u - w) * *t : u - w;
        }
    }
    /* the stage on bit b (register bit rb = b - B) */
    CZD_HD void stage(unsigned B, int rb)
    {
        const unsigned b = B + rb;
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            if (j & (1 << rb))
                continue;
            unsigned te = (xr & ((1u << B) - 1)) | ((j & ((1u << rb) - 1)) << B);
            F t = czd_ld<true, V::VEC>(&p.roots[te << (k - 1 - b)]);
            bfly(j, j | (1 << rb), &t);
        }
    }
    /* the low round: bits [0, RLOW), twiddle index j mod 2^b known here */
    CZD_HD void stage_low(int b)
    {
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            if (j & (1 << b))
                continue;
            unsigned te = j & ((1u << b) - 1);
            if (te == 0) {
                bfly(j, j | (1 << b), nullptr);
            } else {
                F t = czd_ld<true, V::VEC>(&p.roots[te << (k - 1 - b)]);
                bfly(j, j | (1 << b), &t);
            }
        }
    }
    CZD_HD void compute(unsigned ri)
    {
        const unsigned B = round_b(ri);
        if (B == 0) {
            if (DIT) {
CZD_UNROLL
                for (int b = 0; b < RLOW; b++)
                    stage_low(b);
            } else {
CZD_UNROLL
                for (int b = RLOW - 1; b >= 0; b--)
                    stage_low(b);
            }
        } else {
            const int rb0 = round_rb0(ri);
            if (DIT) {
CZD_UNROLL
                for (int rb = 0; rb < R; rb++)
                    if (rb >= rb0)
                        stage(B, rb);
            } else {
CZD_UNROLL
                for (int rb = R - 1; rb >= 0; rb--)
                    if (rb >= rb0)
                        stage(B, rb);
            }
        }
    }

    CZD_HD void put(uint4 *sh, unsigned ri) const
    {
        const unsigned B = round_b(ri);
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            unsigned e = sw((xpos(B, j) << lc) + c);
            const uint32_t *l = v[j].v;
            sh[e] = uint4{l[0], l[1], l[2], l[3]};
            sh[E + e] = uint4{l[4], l[5], l[6], l[7]};
        }
    }
    CZD_HD void get(const uint4 *sh, unsigned ri)
    {
        const unsigned B = round_b(ri);
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            unsigned e = sw((xpos(B, j) << lc) + c);
            uint4 a = sh[e], b = sh[E + e];
            uint32_t *l = v[j].v;
            l[0] = a.x, l[1] = a.y, l[2] = a.z, l[3] = a.w;
            l[4] = b.x, l[5] = b.y, l[6] = b.z, l[7] = b.w;
        }
    }

    CZD_HD void store()
    {
        const unsigned B = round_b(nu);
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            unsigned x = xpos(B, j);
            size_t g = gidx(x);
            F r = v[j];
            if (!DIT) {
                if (V::TS && p.tw)
                    r = r * twist(g);
                if (X && p.post) {
                    size_t f = czd_bitrev((uint32_t)g, p.log_n);
                    if (p.post & CZD_POST_C)
                        r = r * p.post_c;
                    if (p.post & CZD_POST_POW)
                        r = r * p.post_t.template at<V::VEC>(f);
                    if (p.post & CZD_POST_NATURAL)
                        g = f;
                }
            } else if (X && p.pa) {
                F x = czd_ld<false, V::VEC>(&p.pa[g]);
                r = p.pb ? x * czd_ld<false, V::VEC>(&p.pb[g]) - r : x * r;
            }
            czd_st<V::VEC>(&p.dst[g], r);
        }
    }

    /* The H step's middle (a DIF last pass fused with the next DIT first
       pass, both with L = 0 over the same rows): after this DIF pass's
       last round its registers hold the positions xpos(0, j), which are
       those of the DIT's first round; each gets the DIF's post-scale (at
       its frequency) and the DIT's digit scale, as the store and the load
       would have applied them, and goes to out[j]. */
    CZD_HD void mid(F *out, const czd_pass_args<F> &b) const
    {
CZD_UNROLL
        for (int j = 0; j < M; j++) {
            unsigned x = xpos(0, j);
            size_t g = gidx(x);
            F r = v[j];
            if (p.post & CZD_POST_POW)
                r = r * p.post_t.template at<V::VEC>(czd_bitrev((uint32_t)g, p.log_n));
            if (b.pre_x)
                r = r * czd_ld<true, V::VEC>(&b.pre_x[x]);
            out[j] = r;
        }
    }

    /* the rows store: after put(sh, nu) and a barrier, output o of the
       block is row t = bitrev(o mod 2^lc) at x = bitrev_k(o >> lc), whose
       frequency is (o >> lc) 2^(log_n - k) + bitrev(high0) + (o mod 2^lc) */
    CZD_HD void store_rows(const uint4 *sh, unsigned tid, unsigned nthreads) const
    {
        const size_t hb = (size_t)czd_bitrev((uint32_t)(base >> k), p.log_n - k);
CZD_UNROLL
        for (int i = 0; i < M; i++) {
            unsigned o = tid + i * nthreads;
            unsigned tt = o & ((1u << lc) - 1), xb = o >> lc;
            unsigned e = sw((czd_bitrev(xb, k) << lc) + czd_bitrev(tt, lc));
            uint4 a = sh[e], b = sh[E + e];
            F r;
            r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
            r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
            size_t f = ((size_t)xb << (p.log_n - k)) + hb + tt;
            if (p.post & CZD_POST_C)
                r = r * p.post_c;
            if (p.post & CZD_POST_POW)
                r = r * p.post_t.template at<V::VEC>(f);
            czd_st<V::VEC>(&p.dst[f], r);
        }
    }
};

/* The variants: index, name, R, VEC, TS, MINB, BL (see czd_nv). ntt.cu
   picks one per transform from CUZK_NTT_VARIANT (a name or an index;
   default CZD_NTT_DEFAULT_VARIANT); each has its own translation unit,
   cuda/ntt_v<index>.cu, so that they compile in parallel. */
#define CZD_NTT_VARIANTS(X)                                                                 \
    X(0, "r3", 3, false, false, 2, 11)                                                      \
    X(1, "r3v", 3, true, false, 2, 11)                                                      \
    X(2, "r3vs", 3, true, true, 2, 11)                                                      \
    X(3, "r3v1", 3, true, false, 1, 11)                                                     \
    X(4, "r2v", 2, true, false, 1, 11)                                                      \
    X(5, "r2vs", 2, true, true, 1, 11)                                                      \
    X(6, "r2v10", 2, true, false, 3, 10)                                                    \
    X(7, "r2v10s", 2, true, true, 3, 10)
#define CZD_NTT_NVARIANTS 8
/* BN254's Fr is instantiated for one variant only (compile time): r2v10,
   the one test_gpu_bn254 checked on the H200 (BLS12-381's default moved
   on to r2v10s afterwards: switch this once test_gpu_bn254 has run on it) */
#define CZD_NTT_BN254_VARIANT 6

template <int I>
struct czd_nv_at;
#define CZD_NV_AT(i, name, r, vec, ts, minb, bl)                                            \
    template <>                                                                             \
    struct czd_nv_at<i> {                                                                   \
        typedef czd_nv<r, vec, ts, minb, bl> type;                                          \
    };
CZD_NTT_VARIANTS(CZD_NV_AT)
#undef CZD_NV_AT

#define CZD_NTT_BLOCK_LOG 11 /* at most 2^11 elements (64 KiB of shared memory) per block;
                                the variants' BL are at most this */

#ifdef __CUDACC__
#include "common.cuh"
#include "field.cuh"

/* One pass: E = 2^(k + lc) <= 2^V::BL elements per block, E >> R threads. */
template <bool DIT, int RLOW, bool X, class V, class F>
__global__ void __launch_bounds__((1 << V::BL) >> V::R, V::MINB)
    k_ntt_pass(const czd_pass_args<F> a)
{
    extern __shared__ uint4 czd_ntt_sh[];
    czd_pass<F, DIT, RLOW, X, V> t(a, blockIdx.x, threadIdx.x);
    t.load();
    t.compute(0);
    for (unsigned ri = 1; ri <= t.nu; ri++) {
        if (ri > 1)
            __syncthreads();
        t.put(czd_ntt_sh, ri - 1);
        __syncthreads();
        t.get(czd_ntt_sh, ri);
        t.compute(ri);
    }
    if (X && a.rows) {
        if (t.nu)
            __syncthreads();
        t.put(czd_ntt_sh, t.nu);
        __syncthreads();
        t.store_rows(czd_ntt_sh, threadIdx.x, blockDim.x);
    } else {
        t.store();
    }
}

/* The H step's middle: the inverse's last DIF pass (a) and the forward's
   first DIT pass (b) in one kernel, the data kept in registers between
   them (czd_pass::mid); X: b has the product (a one-pass transform). */
template <int RLOW, bool X, class V, class F>
__global__ void __launch_bounds__((1 << V::BL) >> V::R, V::MINB)
    k_ntt_mid(const czd_pass_args<F> a, const czd_pass_args<F> b)
{
    extern __shared__ uint4 czd_ntt_sh[];
    czd_pass<F, true, RLOW, X, V> t(b, blockIdx.x, threadIdx.x);
    {
        czd_pass<F, false, RLOW, false, V> f(a, blockIdx.x, threadIdx.x);
        f.load();
        f.compute(0);
        for (unsigned ri = 1; ri <= f.nu; ri++) {
            if (ri > 1)
                __syncthreads();
            f.put(czd_ntt_sh, ri - 1);
            __syncthreads();
            f.get(czd_ntt_sh, ri);
            f.compute(ri);
        }
        f.mid(t.v, b);
    }
    t.compute(0);
    for (unsigned ri = 1; ri <= t.nu; ri++) {
        __syncthreads(); /* the DIF's last reads of shared memory, or the previous round's */
        t.put(czd_ntt_sh, ri - 1);
        __syncthreads();
        t.get(czd_ntt_sh, ri);
        t.compute(ri);
    }
    t.store();
}

template <int RLOW, bool X, class V, class F>
static cz_status czd_mid_launch1(czd_ctx *ctx, const czd_pass_args<F> &a, const czd_pass_args<F> &b)
{
    static bool attr_set[64];
    if (a.k + a.lc > V::BL || a.k < V::R || a.k != b.k || a.lc != b.lc || a.s0 + a.k != a.log_n ||
        b.s0 + b.k != b.log_n || a.log_n != b.log_n)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT middle pass: passes of different shapes");
    unsigned E = 1u << (a.k + a.lc);
    size_t shmem = (size_t)E * sizeof(F);
    if (shmem > 48 * 1024 && !attr_set[ctx->device & 63]) {
        CZD_TRY(ctx, cudaFuncSetAttribute(k_ntt_mid<RLOW, X, V, F>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)(sizeof(F) << V::BL)));
        attr_set[ctx->device & 63] = true;
    }
    size_t blocks = ((size_t)1 << a.log_n) >> (a.k + a.lc);
    k_ntt_mid<RLOW, X, V, F><<<(unsigned)blocks, E >> V::R, shmem, ctx->stream>>>(a, b);
    CZD_LAUNCHED(ctx, "k_ntt_mid");
    return CZ_OK;
}

template <class V, class F>
static cz_status czd_mid_launch_v(czd_ctx *ctx, const czd_pass_args<F> &a, const czd_pass_args<F> &b)
{
    const unsigned rl = czd_rlow(a.k, V::R, czd_ntt_low_full());
    if (b.pa) {
        if constexpr (V::R >= 3)
            if (rl == 3)
                return czd_mid_launch1<3, true, V, F>(ctx, a, b);
        return rl == 2 ? czd_mid_launch1<2, true, V, F>(ctx, a, b) : czd_mid_launch1<1, true, V, F>(ctx, a, b);
    }
    if constexpr (V::R >= 3)
        if (rl == 3)
            return czd_mid_launch1<3, false, V, F>(ctx, a, b);
    return rl == 2 ? czd_mid_launch1<2, false, V, F>(ctx, a, b) : czd_mid_launch1<1, false, V, F>(ctx, a, b);
}

template <bool DIT, int RLOW, bool X, class V, class F>
static cz_status czd_pass_launch1(czd_ctx *ctx, const czd_pass_args<F> &a)
{
    static bool attr_set[64];
    if (a.k + a.lc > V::BL || a.k < V::R)
        return czd_fail(ctx, CZ_ERR_ARG, "NTT pass of 2^%u x 2^%u elements: not for this variant", a.k, a.lc);
    unsigned E = 1u << (a.k + a.lc);
    size_t shmem = (size_t)E * sizeof(F);
    if (shmem > 48 * 1024 && !attr_set[ctx->device & 63]) {
        CZD_TRY(ctx, cudaFuncSetAttribute(k_ntt_pass<DIT, RLOW, X, V, F>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)(sizeof(F) << V::BL)));
        attr_set[ctx->device & 63] = true;
    }
    size_t blocks = ((size_t)1 << a.log_n) >> (a.k + a.lc);
    k_ntt_pass<DIT, RLOW, X, V, F><<<(unsigned)blocks, E >> V::R, shmem, ctx->stream>>>(a);
    CZD_LAUNCHED(ctx, DIT ? "k_ntt_pass<dit>" : "k_ntt_pass<dif>");
    return CZ_OK;
}

template <bool DIT, bool X, class V, class F>
static cz_status czd_pass_launch_rl(czd_ctx *ctx, const czd_pass_args<F> &a)
{
    const unsigned rl = czd_rlow(a.k, V::R, czd_ntt_low_full());
    if constexpr (V::R >= 3)
        if (rl == 3)
            return czd_pass_launch1<DIT, 3, X, V, F>(ctx, a);
    if (rl == 2)
        return czd_pass_launch1<DIT, 2, X, V, F>(ctx, a);
    return czd_pass_launch1<DIT, 1, X, V, F>(ctx, a);
}

/* a pass of variant V: the kernel with the extras only when it has some */
template <class V, class F>
static cz_status czd_pass_launch_v(czd_ctx *ctx, bool dit, const czd_pass_args<F> &a)
{
    static_assert(V::R == 2 || V::R == 3, "rounds of 2 or 3 stages");
    const bool x = a.pre || a.post || a.pa || a.rows || a.pre_x;
    if (dit)
        return x ? czd_pass_launch_rl<true, true, V, F>(ctx, a) : czd_pass_launch_rl<true, false, V, F>(ctx, a);
    return x ? czd_pass_launch_rl<false, true, V, F>(ctx, a) : czd_pass_launch_rl<false, false, V, F>(ctx, a);
}

#define CZD_NTT_LAUNCH_DECL(i, name, r, vec, ts, minb, bl)                                    \
    cz_status czd_ntt_launch_v##i(czd_ctx *ctx, bool dit, const czd_pass_args<czd_fr> &a);         \
    cz_status czd_ntt_mid_v##i(czd_ctx *ctx, const czd_pass_args<czd_fr> &a, const czd_pass_args<czd_fr> &b);
CZD_NTT_VARIANTS(CZD_NTT_LAUNCH_DECL)
#undef CZD_NTT_LAUNCH_DECL

/* the body of cuda/ntt_v<i>.cu */
#define CZD_NTT_VARIANT_TU(i)                                                               \
    cz_status czd_ntt_launch_v##i(czd_ctx *ctx, bool dit, const czd_pass_args<czd_fr> &a)   \
    {                                                                                       \
        return czd_pass_launch_v<czd_nv_at<i>::type, czd_fr>(ctx, dit, a);                  \
    }                                                                                       \
    cz_status czd_ntt_mid_v##i(czd_ctx *ctx, const czd_pass_args<czd_fr> &a, const czd_pass_args<czd_fr> &b) \
    {                                                                                       \
        return czd_mid_launch_v<czd_nv_at<i>::type, czd_fr>(ctx, a, b);                     \
    }

/* BN254's Fr: one variant, CZD_NTT_BN254_VARIANT, in cuda/ntt_bn254.cu */
cz_status czd_ntt_launch_bn254(czd_ctx *ctx, bool dit, const czd_pass_args<czd_fr254> &a);
cz_status czd_ntt_mid_bn254(czd_ctx *ctx, const czd_pass_args<czd_fr254> &a,
                            const czd_pass_args<czd_fr254> &b);
#endif /* __CUDACC__ */

#endif
