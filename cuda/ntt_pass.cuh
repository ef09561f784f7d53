/*
 * ntt_pass.cuh: one pass of the GPU NTT (a block's share of it), written
 * once for the device and for a host emulation of the same index math.
 *
 * DESIGN. A transform of 2^log_n elements runs as passes of k <= 10
 * radix-2 stages (the four-step decomposition of ntt.cu's note: a pass
 * over the sub-transforms of size N' = 2^(k+L) treats each one as a
 * 2^k x 2^L matrix, x = x1 2^L + x2, and multiplies element (x1, x2) by
 * the twist w_N'^(bitrev_k(x1) x2)). A block holds 2^lc columns of 2^k
 * elements, E = 2^(k+lc) <= 2048; each thread holds 8 of them in
 * registers, all of one column. The k stages are done in rounds of three
 * (the round over the lowest bits does r_low = 1..3 of them, a template
 * parameter, so its trivial twiddles are known at compile time and
 * skipped): in a round the thread's 8 registers are the 8 positions that
 * differ in the round's three bits, so the three stages need no data
 * exchange; between rounds the block swaps data through shared memory
 * (32-byte elements as two 16-byte halves in two planes, the 16-byte index
 * XOR-swizzled so that eight threads reading eight positions 8 apart hit
 * eight distinct bank groups). A thread reads its first round's 8
 * elements from global memory and writes its last round's 8 directly.
 *
 * Two directions with the same pass parameters:
 *  - DIF (natural in, bit-reversed out): rounds from the top bits down;
 *    butterfly (u, v) -> (u + v, (u - v) t); a pass's twist comes after
 *    its stages, and is applied by the next pass as it loads (registers
 *    are scarcest when all 8 elements are live before the store).
 *  - DIT (bit-reversed in, natural out): the passes in reverse order;
 *    rounds from bit 0 up; the twist before the stages; butterfly
 *    (u, v) -> (u + v t, u - v t).
 * With t = w_2h^(x mod h) for the pair (x, x + h), w_2h from one table of
 * the 2^(k-1) powers of w_2^k. Extras folded into loads and stores: a
 * coset pre-scale g^x in a DIF's first pass, a post-scale c h^f (f the
 * frequency, bitrev_n of the position) and the store at f (natural order,
 * out of place) in a DIF's last pass, and h = A B - v in a DIT's last pass.
 *
 * Field type F needs +, -, * and the layout of 8 little-endian 32-bit
 * limbs in v[]; on the host the emulation passes a wrapper of cz_fr.
 */
#ifndef CZ_CUDA_NTT_PASS_CUH
#define CZ_CUDA_NTT_PASS_CUH

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define CZD_HD __host__ __device__ __forceinline__
#else
#define CZD_HD inline
struct uint4 {
    uint32_t x, y, z, w;
};
#endif

/* unrolled on the device; the host compiler does not know the pragma */
#ifdef __CUDA_ARCH__
#define CZD_UNROLL _Pragma("unroll")
#else
#define CZD_UNROLL
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

/* Global memory is read and written through czd_ld / czd_st. With
   CZD_NTT_VEC=1 (a build option, off by default until measured on the
   device) an element moves as two 16-byte accesses instead of eight 4-byte
   ones (every array here is 32-byte aligned: arena buffers and scratch are
   256-byte aligned); the same bytes either way. */
#ifndef CZD_NTT_VEC
#define CZD_NTT_VEC 0
#endif
/* CZD_NTT_DIF_TWIST_STORE=1 (a build option): a DIF pass applies its own
   twist at its store, as commit 652d136 did, instead of the next pass at
   its load (see docs/PERF.md: the store was faster there) */
#ifndef CZD_NTT_DIF_TWIST_STORE
#define CZD_NTT_DIF_TWIST_STORE 0
#endif
/* NC: a table, read-only for the whole kernel (the read-only data path) */
template <bool NC = false, class F>
static CZD_HD F czd_ld(const F *p)
{
#if CZD_NTT_VEC
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
#else
    return *p;
#endif
}
template <class F>
static CZD_HD void czd_st(F *p, const F &r)
{
#if CZD_NTT_VEC
    uint4 *q = reinterpret_cast<uint4 *>(p);
    q[0] = uint4{r.v[0], r.v[1], r.v[2], r.v[3]};
    q[1] = uint4{r.v[4], r.v[5], r.v[6], r.v[7]};
#else
    *p = r;
#endif
}

/* b^e = lo[e mod 2^h] * hi[e >> h] */
template <class F>
struct czd_powt {
    const F *lo, *hi;
    unsigned h;
    CZD_HD F at(uint64_t e) const { return czd_ld<true>(&lo[e & ((1ull << h) - 1)]) * czd_ld<true>(&hi[e >> h]); }
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
    const F *pa, *pb; /* DIT last pass, when set: dst = pa * pb - v */
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

/* k = 3 nu + r_low, r_low in 1..3 */
static CZD_HD unsigned czd_rlow(unsigned k) { return k - 3 * ((k - 1) / 3); }

/* X: the extras (pre-scale, post-scale and natural store, product) are
   compiled in; without, the pass only has its twist (fewer registers). */
template <class F, bool DIT, int RLOW, bool X>
struct czd_pass {
    const czd_pass_args<F> p; /* a copy: kernel parameters stay in the constant bank */
    unsigned k, L, lc, E, c, xr, nu;
    size_t base, x2;
    F v[8];

    CZD_HD czd_pass(const czd_pass_args<F> &a, size_t bid, unsigned tid) : p(a)
    {
        k = a.k;
        lc = a.lc;
        L = a.log_n - a.s0 - k;
        E = 1u << (k + lc);
        nu = (k - RLOW) / 3;
        if (X && a.rows) { /* L = 0: blocks are groups of rows, threads along a row */
            base = (size_t)bid << k;
            c = tid >> (k - 3);
            xr = tid & ((1u << (k - 3)) - 1);
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
    /* low bit of the registers' 3 bits in round ri (processing order) */
    CZD_HD unsigned round_b(unsigned ri) const
    {
        if (DIT)
            return ri == 0 ? 0 : RLOW + 3 * (ri - 1);
        return ri == nu ? 0 : RLOW + 3 * (nu - 1 - ri);
    }
    CZD_HD unsigned xpos(unsigned B, unsigned j) const
    {
        return ((xr >> B) << (B + 3)) | (xr & ((1u << B) - 1)) | (j << B);
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
        return p.tw == CZD_TW_DIRECT ? czd_ld<true>(&p.twd[ex]) : p.twp.at(ex << p.tw_s0);
    }
    CZD_HD static unsigned sw(unsigned e) { return e ^ ((e >> 3) & 7); }

    CZD_HD void load()
    {
        const unsigned B = round_b(0);
CZD_UNROLL
        for (int j = 0; j < 8; j++) {
            unsigned x = xpos(B, j);
            size_t g = gidx(x);
            v[j] = czd_ld(&p.src[g]);
            if (X && p.pre)
                v[j] = v[j] * p.pre_t.at(g);
            if (X && p.pre_x)
                v[j] = v[j] * czd_ld<true>(&p.pre_x[x]);
            if (p.tw && (DIT || !CZD_NTT_DIF_TWIST_STORE))
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
        for (int j = 0; j < 8; j++) {
            if (j & (1 << rb))
                continue;
            unsigned te = (xr & ((1u << B) - 1)) | ((j & ((1u << rb) - 1)) << B);
            F t = czd_ld<true>(&p.roots[te << (k - 1 - b)]);
            bfly(j, j | (1 << rb), &t);
        }
    }
    /* the low round: bits [0, RLOW), twiddle index j mod 2^b known here */
    CZD_HD void stage_low(int b)
    {
CZD_UNROLL
        for (int j = 0; j < 8; j++) {
            if (j & (1 << b))
                continue;
            unsigned te = j & ((1u << b) - 1);
            if (te == 0) {
                bfly(j, j | (1 << b), nullptr);
            } else {
                F t = czd_ld<true>(&p.roots[te << (k - 1 - b)]);
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
            if (DIT) {
CZD_UNROLL
                for (int rb = 0; rb < 3; rb++)
                    stage(B, rb);
            } else {
CZD_UNROLL
                for (int rb = 2; rb >= 0; rb--)
                    stage(B, rb);
            }
        }
    }

    CZD_HD void put(uint4 *sh, unsigned ri) const
    {
        const unsigned B = round_b(ri);
CZD_UNROLL
        for (int j = 0; j < 8; j++) {
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
        for (int j = 0; j < 8; j++) {
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
        for (int j = 0; j < 8; j++) {
            unsigned x = xpos(B, j);
            size_t g = gidx(x);
            F r = v[j];
            if (!DIT) {
                if (CZD_NTT_DIF_TWIST_STORE && p.tw)
                    r = r * twist(g);
                if (X && p.post) {
                    size_t f = czd_bitrev((uint32_t)g, p.log_n);
                    if (p.post & CZD_POST_C)
                        r = r * p.post_c;
                    if (p.post & CZD_POST_POW)
                        r = r * p.post_t.at(f);
                    if (p.post & CZD_POST_NATURAL)
                        g = f;
                }
            } else if (X && p.pa) {
                r = czd_ld(&p.pa[g]) * czd_ld(&p.pb[g]) - r;
            }
            czd_st(&p.dst[g], r);
        }
    }

    /* the rows store: after put(sh, nu) and a barrier, output o of the
       block is row t = bitrev(o mod 2^lc) at x = bitrev_k(o >> lc), whose
       frequency is (o >> lc) 2^(log_n - k) + bitrev(high0) + (o mod 2^lc) */
    CZD_HD void store_rows(const uint4 *sh, unsigned tid, unsigned nthreads) const
    {
        const size_t hb = (size_t)czd_bitrev((uint32_t)(base >> k), p.log_n - k);
CZD_UNROLL
        for (int i = 0; i < 8; i++) {
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
                r = r * p.post_t.at(f);
            czd_st(&p.dst[f], r);
        }
    }
};

#endif
