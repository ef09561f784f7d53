/*
 * fpmul_gpu.cu: throughput of the BLS12-381 Fp Montgomery product on the
 * GPU, on the IMAD pipe (czd_fp::mul, the interleaved form; czd_fp::mul_sos
 * and czd_fp::sqr_sos, the separated form of cuda/mont.cuh), on the
 * FP64 pipe (czd_dfma::mont_mul, mont_mul_f, mont_mul_h of
 * cuda/fp_dfma.cuh) and on both at once, and of the MSM's XYZZ mixed
 * addition (czd_xyzz::add_affine_inline, cuda/ec.cuh) with each product.
 *
 *   bench-fpmul [--seconds S] [--check-only] [--seed N]
 *
 * DESIGN. Each thread runs 1 to 4 independent chains (ILP; g_cfg lists
 * them) of (x, y) <- (x*y, x) (both operands change every step, so nothing
 * is hoisted out of the loop; the square kinds: (x, y) <- (x^2, x)); the
 * grid is as many 256-thread blocks as fit on the device at once. Kinds:
 * "imad" (every chain czd_fp::mul), "sos" (czd_fp::mul_sos), "sqr_cios"
 * (czd_fp::sqr: mul(x, x)), "sqr" (czd_fp::sqr_sos), "dfma", "dfma_f", "dfma_h"
 * (every chain mont_mul, mont_mul_f, mont_mul_h), "mix_ilp[_f|_h]" (even
 * chains IMAD, odd chains that DFMA product, in every thread),
 * "mix_warp[_f|_h]" (even warps IMAD, odd warps DFMA), and "xyzz_*" (a
 * chain of acc <- acc + Q_k mixed additions, 10 products each, Q_k read
 * from global memory as the MSM reads its bases: "xyzz_imad" with czd_fp
 * as the MSM has it, "xyzz_sqr" with sqr_sos for its two squares,
 * "xyzz_sos" with mul_sos and sqr_sos; "xyzz_mix_warp*" split by warp,
 * "xyzz_split_h" with 5 of each addition's 10 products on IMAD and 5 on
 * mont_mul_h), and "fp2_imad" / "fp2_sos" (chains of Fp2 products:
 * czd_fp2::mul, three CIOS products, against mont.cuh's czd_mont_mul2, two
 * reductions; their rates are Fp2 products).
 * Correctness first: every kernel runs on >= 2^16 chains (edge values 0, 1,
 * 2, p-1, p-2, (p-1)/2, 2^(48k)-1, 2^380, 2^380-1, R mod p crossed with
 * each other, the rest random; XYZZ with threads forced through the
 * infinity, doubling and cancelling branches) and is compared with the
 * host (cz_fp_mul, cz_fp_sqr, cz_fp2_mul and the same formulas over cz_fp); a
 * difference is printed and the program exits 1. Then each kind is timed
 * with cudaEvents: one warm-up, then the median of 7 runs, sized so that
 * all the timing takes about --seconds. Prints a table (stderr) and one
 * JSON line per kind (stdout). fraction_of_imad_peak counts 588 32-bit
 * multiply-adds per product (czd_fp::mul) against 64 IMAD per clock
 * per SM at the device's rated clock (for the other kinds, the same count:
 * an equivalent, not their own); fraction_of_fp64_peak counts the kind's
 * FP64 operations per product (VAR_FP64, averaged over its chains) against
 * 64 per clock per SM. Exit 77 without a GPU.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <type_traits>
#include <vector>

extern "C" {
#include "field/field.h"
#include "util/rng.h"
}

#include "ec.cuh"
#include "field.cuh"
#include "fp_dfma.cuh"

#define BLOCK 256

/* kinds of chain kernel: the product of each chain by variant
   (0 = czd_fp::mul on IMAD, 1 = mont_mul: DFMA with integer columns,
   2 = mont_mul_f: DFMA with FP64 columns, 3 = mont_mul_h: the hybrid) */
enum { K_IMAD, K_DFMA, K_DFMAF, K_DFMAH, K_MIX_ILP, K_MIX_ILP_F, K_MIX_ILP_H, K_MIX_WARP, K_MIX_WARP_F,
       K_MIX_WARP_H, K_SOS, K_SQR_CIOS, K_SQR, K_COUNT };
static const char *const kind_names[K_COUNT] = {"imad",       "dfma",       "dfma_f",    "dfma_h",
                                                "mix_ilp",    "mix_ilp_f",  "mix_ilp_h", "mix_warp",
                                                "mix_warp_f", "mix_warp_h", "sos",       "sqr_cios",
                                                "sqr"};
/* FP64-pipe operations (DFMA + DADD) of one product of each variant, and
   DFMAs alone (cuda/fp_dfma.cuh; the PTX of the kernels has these counts) */
static const double VAR_FP64[7] = {0, 392, 512, 456, 0, 0, 0};
static const double VAR_DFMA[7] = {0, 248, 248, 248, 0, 0, 0};
static const int IMAD_OPS = 588; /* czd_fp::mul, 32-bit multiply-adds */

/* the variant of chain c in a thread of warp parity w */
static __host__ __device__ constexpr int variant(int kind, int c, int w)
{
    return kind == K_IMAD ? 0
         : kind == K_SOS ? 4
         : kind == K_SQR_CIOS ? 5
         : kind == K_SQR ? 6
         : kind == K_DFMA ? 1
         : kind == K_DFMAF ? 2
         : kind == K_DFMAH ? 3
         : kind == K_MIX_ILP ? (c % 2 ? 1 : 0)
         : kind == K_MIX_ILP_F ? (c % 2 ? 2 : 0)
         : kind == K_MIX_ILP_H ? (c % 2 ? 3 : 0)
         : kind == K_MIX_WARP ? (w ? 1 : 0)
         : kind == K_MIX_WARP_F ? (w ? 2 : 0)
         : (w ? 3 : 0);
}

#define CK(call)                                                                    \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "bench-fpmul: %s: %s (%s:%d)\n", #call,                 \
                    cudaGetErrorString(e_), __FILE__, __LINE__);                    \
            exit(2);                                                                \
        }                                                                           \
    } while (0)

/* ---- kernels ---- */
/* the product of variant v (a constant after unrolling: the other
   branches fold away); 4: the separated form (czd_fp::mul_sos, mont.cuh),
   5: czd_fp::sqr (a * a), 6: czd_fp::sqr_sos (a alone) */
static CZD_INLINE czd_fp mulv(int v, const czd_fp &a, const czd_fp &b)
{
    czd_fp t;
    if (v == 0)
        t = czd_fp::mul(a, b);
    else if (v == 4)
        t = czd_fp::mul_sos(a, b);
    else if (v == 5)
        t = czd_fp::sqr(a);
    else if (v == 6)
        t = czd_fp::sqr_sos(a);
    else if (v == 1)
        czd_dfma::mont_mul(t.v, a.v, b.v);
    else if (v == 2)
        czd_dfma::mont_mul_f(t.v, a.v, b.v);
    else
        czd_dfma::mont_mul_h(t.v, a.v, b.v);
    return t;
}

/* one step (x, y) <- (x*y, x) of every chain, chain c by variant(KIND, c, W) */
template <int KIND, int CHAINS, int W>
static CZD_INLINE void chain_steps(czd_fp a[CHAINS], czd_fp b[CHAINS])
{
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        czd_fp t = mulv(variant(KIND, c, W), a[c], b[c]);
        b[c] = a[c];
        a[c] = t;
    }
}

template <int KIND, int CHAINS>
__global__ void __launch_bounds__(BLOCK) k_chain(czd_fp *x, czd_fp *y, int n, int iters)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    czd_fp a[CHAINS], b[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        a[c] = x[c * n + tid];
        b[c] = y[c * n + tid];
    }
    const bool odd_warp = (threadIdx.x >> 5) & 1;
    if ((KIND == K_MIX_WARP || KIND == K_MIX_WARP_F || KIND == K_MIX_WARP_H) && odd_warp) {
        for (int it = 0; it < iters; it++)
            chain_steps<KIND, CHAINS, 1>(a, b);
    } else {
        for (int it = 0; it < iters; it++)
            chain_steps<KIND, CHAINS, 0>(a, b);
    }
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        x[c * n + tid] = a[c];
        y[c * n + tid] = b[c];
    }
}

/* the timed configurations: kind and chains per thread (ptxas, sm_90:
   mont_mul's kernel spilled with 4 chains, so the DFMA kinds run 1-3;
   every chain kernel here is spill-free, 80-254 registers) */
typedef void (*chain_fn)(czd_fp *, czd_fp *, int, int);
#define CFG(k, c) {k, c, k_chain<k, c>}
static const struct {
    int kind, chains;
    chain_fn fn;
} g_cfg[] = {CFG(K_IMAD, 2),      CFG(K_IMAD, 4),      CFG(K_DFMA, 1),       CFG(K_DFMA, 2),
             CFG(K_DFMA, 3),      CFG(K_DFMAF, 1),     CFG(K_DFMAF, 2),      CFG(K_DFMAF, 3),
             CFG(K_DFMAH, 1),     CFG(K_DFMAH, 2),     CFG(K_DFMAH, 3),      CFG(K_MIX_ILP, 2),
             CFG(K_MIX_ILP, 4),   CFG(K_MIX_ILP_F, 2), CFG(K_MIX_ILP_F, 4),  CFG(K_MIX_ILP_H, 2),
             CFG(K_MIX_ILP_H, 4), CFG(K_MIX_WARP, 2),  CFG(K_MIX_WARP, 3),   CFG(K_MIX_WARP_F, 2),
             CFG(K_MIX_WARP_F, 3), CFG(K_MIX_WARP_H, 2), CFG(K_MIX_WARP_H, 3), CFG(K_SOS, 2),
             CFG(K_SOS, 4),        CFG(K_SQR_CIOS, 2),  CFG(K_SQR_CIOS, 4),   CFG(K_SQR, 2),
             CFG(K_SQR, 4)};
#undef CFG
#define NCFG (int)(sizeof g_cfg / sizeof g_cfg[0])

/* FP64 operations per product of a configuration, averaged over its chains and warps */
static double cfg_fp64(int c, const double *per_variant)
{
    double s = 0;
    for (int w = 0; w < 2; w++)
        for (int ch = 0; ch < g_cfg[c].chains; ch++)
            s += per_variant[variant(g_cfg[c].kind, ch, w)];
    return s / (2 * g_cfg[c].chains);
}

#define NPTS 8 /* bases per thread, read round robin */

/* acc <- acc + Q_(it mod NPTS); acc is n XYZZ points, q is NPTS * n affine
   (all czd_fp bytes); even warps compute over F0, odd warps over F1 */
template <class F>
static CZD_INLINE void xyzz_body(void *accv, const void *qv, int n, int iters, int tid)
{
    czd_xyzz<F> *acc = (czd_xyzz<F> *)accv;
    const czd_affine<F> *q = (const czd_affine<F> *)qv;
    czd_xyzz<F> p = acc[tid];
    for (int it = 0; it < iters; it++) {
        const czd_affine<F> &b = q[(it % NPTS) * n + tid];
        p = czd_xyzz<F>::add_affine_inline(p, b.x, b.y);
    }
    acc[tid] = p;
}
/* out of line for the warp-split kernels: with both bodies inlined in one
   kernel ptxas spilled more */
template <class F>
static __device__ __noinline__ void xyzz_run(void *accv, const void *qv, int n, int iters, int tid)
{
    xyzz_body<F>(accv, qv, n, iters, tid);
}
template <class F0, class F1>
__global__ void __launch_bounds__(BLOCK) k_xyzz(void *acc, const void *q, int n, int iters)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    if (std::is_same<F0, F1>::value)
        xyzz_body<F0>(acc, q, n, iters, tid);
    else if ((threadIdx.x >> 5) & 1)
        xyzz_run<F1>(acc, q, n, iters, tid);
    else
        xyzz_run<F0>(acc, q, n, iters, tid);
}

/* add_affine_inline's data flow with its 10 products split between the
   pipes inside one addition: u2, pp, q, R(Q - X3), ZZ3 on IMAD and s2,
   PPP, R^2, Y1 PPP, ZZZ3 on the DFMA product V (pairs that are
   independent run side by side); the rare branches as ec.cuh */
template <int V>
static CZD_INLINE void xyzz_split_add(czd_xyzz<czd_fp> &p, const czd_fp &qx, const czd_fp &qy)
{
    if (p.is_inf()) {
        p.x = qx;
        p.y = qy;
        p.zz = czd_fp::one();
        p.zzz = czd_fp::one();
        return;
    }
    czd_fp u2 = mulv(0, qx, p.zz), s2 = mulv(V, qy, p.zzz);
    czd_fp pp_ = u2 - p.x, rr = s2 - p.y;
    if (pp_.is_zero()) {
        p = rr.is_zero() ? czd_xyzz<czd_fp>::dbl_affine(qx, qy) : czd_xyzz<czd_fp>::inf();
        return;
    }
    czd_fp pp = mulv(0, pp_, pp_), r2 = mulv(V, rr, rr);
    czd_fp ppp = mulv(V, pp_, pp), q = mulv(0, p.x, pp);
    czd_fp x3 = r2 - ppp - czd_fp::dbl(q);
    czd_fp t = mulv(0, rr, q - x3), u = mulv(V, p.y, ppp);
    czd_fp zz = mulv(0, p.zz, pp), zzz = mulv(V, p.zzz, ppp);
    p.x = x3;
    p.y = t - u;
    p.zz = zz;
    p.zzz = zzz;
}
template <int V>
__global__ void __launch_bounds__(BLOCK) k_xyzz_split(void *accv, const void *qv, int n, int iters)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    czd_xyzz<czd_fp> *acc = (czd_xyzz<czd_fp> *)accv;
    const czd_affine<czd_fp> *q = (const czd_affine<czd_fp> *)qv;
    czd_xyzz<czd_fp> p = acc[tid];
    for (int it = 0; it < iters; it++) {
        const czd_affine<czd_fp> &b = q[(it % NPTS) * n + tid];
        xyzz_split_add<V>(p, b.x, b.y);
    }
    acc[tid] = p;
}

/* czd_fp with mont.cuh's product (SOS true) and square (SQR true) in
   place of czd_fp's: xyzz_sqr and xyzz_sos against xyzz_imad */
template <bool SOS, bool SQR>
struct czd_fp_alt {
    czd_fp f;
    static CZD_INLINE czd_fp_alt wrap(const czd_fp &x)
    {
        czd_fp_alt r;
        r.f = x;
        return r;
    }
    static CZD_INLINE czd_fp_alt zero() { return wrap(czd_fp::zero()); }
    static CZD_INLINE czd_fp_alt one() { return wrap(czd_fp::one()); }
    CZD_INLINE bool is_zero() const { return f.is_zero(); }
    CZD_INLINE bool eq(const czd_fp_alt &b) const { return f.eq(b.f); }
    static CZD_INLINE czd_fp_alt add(const czd_fp_alt &a, const czd_fp_alt &b) { return wrap(czd_fp::add(a.f, b.f)); }
    static CZD_INLINE czd_fp_alt sub(const czd_fp_alt &a, const czd_fp_alt &b) { return wrap(czd_fp::sub(a.f, b.f)); }
    static CZD_INLINE czd_fp_alt dbl(const czd_fp_alt &a) { return add(a, a); }
    static CZD_INLINE czd_fp_alt neg(const czd_fp_alt &a) { return wrap(czd_fp::neg(a.f)); }
    static CZD_INLINE czd_fp_alt mul(const czd_fp_alt &a, const czd_fp_alt &b)
    {
        return wrap(SOS ? czd_fp::mul_sos(a.f, b.f) : czd_fp::mul(a.f, b.f));
    }
    static CZD_INLINE czd_fp_alt sqr(const czd_fp_alt &a) { return SQR ? wrap(czd_fp::sqr_sos(a.f)) : mul(a, a); }
    CZD_INLINE czd_fp_alt operator+(const czd_fp_alt &b) const { return add(*this, b); }
    CZD_INLINE czd_fp_alt operator-(const czd_fp_alt &b) const { return sub(*this, b); }
    CZD_INLINE czd_fp_alt operator*(const czd_fp_alt &b) const { return mul(*this, b); }
};

/* the XYZZ configurations: even warps' product, odd warps' product */
typedef void (*xyzz_fn)(void *, const void *, int, int);
static const struct {
    const char *name;
    xyzz_fn fn;
    int v0, v1;
} g_xcfg[] = {
    {"xyzz_imad", k_xyzz<czd_fp, czd_fp>, 0, 0},
    {"xyzz_sqr", k_xyzz<czd_fp_alt<false, true>, czd_fp_alt<false, true>>, 0, 0}, /* mont.cuh's square */
    {"xyzz_sos", k_xyzz<czd_fp_alt<true, true>, czd_fp_alt<true, true>>, 0, 0},   /* and product */
    {"xyzz_dfma", k_xyzz<czd_fp_dfma, czd_fp_dfma>, 1, 1},
    {"xyzz_dfma_f", k_xyzz<czd_fp_dfmaf, czd_fp_dfmaf>, 2, 2},
    {"xyzz_dfma_h", k_xyzz<czd_fp_dfmah, czd_fp_dfmah>, 3, 3},
    {"xyzz_mix_warp", k_xyzz<czd_fp, czd_fp_dfma>, 0, 1},
    {"xyzz_mix_warp_f", k_xyzz<czd_fp, czd_fp_dfmaf>, 0, 2},
    {"xyzz_mix_warp_h", k_xyzz<czd_fp, czd_fp_dfmah>, 0, 3},
    {"xyzz_split_h", k_xyzz_split<3>, 0, 3}, /* half the products of each addition on each pipe */
};
#define NXCFG (int)(sizeof g_xcfg / sizeof g_xcfg[0])

/* ---- Fp2 products: czd_fp2::mul (three CIOS products, three reductions)
   against czd_mont_mul2 (mont.cuh: two reductions); 2 chains a thread ---- */
template <int V>
__global__ void __launch_bounds__(BLOCK) k_chain2(czd_fp2 *x, czd_fp2 *y, int n, int iters)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n)
        return;
    czd_fp2 a[2], b[2];
#pragma unroll
    for (int c = 0; c < 2; c++) {
        a[c] = x[c * n + tid];
        b[c] = y[c * n + tid];
    }
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int c = 0; c < 2; c++) {
            czd_fp2 t;
            if (V == 0)
                t = czd_fp2::mul(a[c], b[c]);
            else
                czd_mont_mul2<czd_fp_params>(t.c0.v, t.c1.v, a[c].c0.v, a[c].c1.v, b[c].c0.v, b[c].c1.v);
            b[c] = a[c];
            a[c] = t;
        }
    }
#pragma unroll
    for (int c = 0; c < 2; c++) {
        x[c * n + tid] = a[c];
        y[c * n + tid] = b[c];
    }
}
typedef void (*chain2_fn)(czd_fp2 *, czd_fp2 *, int, int);
static const struct {
    const char *name;
    chain2_fn fn;
} g_f2cfg[] = {{"fp2_imad", k_chain2<0>}, {"fp2_sos", k_chain2<1>}};
#define NF2CFG (int)(sizeof g_f2cfg / sizeof g_f2cfg[0])

/* ---- host reference ---- */
typedef struct { cz_fp x, y, zz, zzz; } h_xyzz;

static void h_dbl_affine(h_xyzz *r, const cz_fp *x, const cz_fp *y)
{
    cz_fp u, v, w, s, x2, m, t;
    cz_fp_dbl(&u, y);
    cz_fp_sqr(&v, &u);
    cz_fp_mul(&w, &u, &v);
    cz_fp_mul(&s, x, &v);
    cz_fp_sqr(&x2, x);
    cz_fp_dbl(&m, &x2);
    cz_fp_add(&m, &m, &x2);
    cz_fp_sqr(&r->x, &m);
    cz_fp_dbl(&t, &s);
    cz_fp_sub(&r->x, &r->x, &t);
    cz_fp_sub(&t, &s, &r->x);
    cz_fp_mul(&t, &m, &t);
    cz_fp_mul(&u, &w, y);
    cz_fp_sub(&r->y, &t, &u);
    r->zz = v;
    r->zzz = w;
}

/* the data flow of czd_xyzz::add_affine_inline */
static void h_add_affine(h_xyzz *p, const cz_fp *qx, const cz_fp *qy)
{
    if (cz_fp_is_zero(&p->zz)) {
        p->x = *qx;
        p->y = *qy;
        cz_fp_one(&p->zz);
        cz_fp_one(&p->zzz);
        return;
    }
    cz_fp u2, s2, pp_, rr, pp, ppp, q, t;
    cz_fp_mul(&u2, qx, &p->zz);
    cz_fp_mul(&s2, qy, &p->zzz);
    cz_fp_sub(&pp_, &u2, &p->x);
    cz_fp_sub(&rr, &s2, &p->y);
    if (cz_fp_is_zero(&pp_)) {
        if (cz_fp_is_zero(&rr)) {
            h_dbl_affine(p, qx, qy);
            return;
        }
        cz_fp_one(&p->x);
        cz_fp_one(&p->y);
        cz_fp_zero(&p->zz);
        cz_fp_zero(&p->zzz);
        return;
    }
    cz_fp_sqr(&pp, &pp_);
    cz_fp_mul(&ppp, &pp_, &pp);
    cz_fp_mul(&q, &p->x, &pp);
    h_xyzz r;
    cz_fp_sqr(&r.x, &rr);
    cz_fp_sub(&r.x, &r.x, &ppp);
    cz_fp_dbl(&t, &q);
    cz_fp_sub(&r.x, &r.x, &t);
    cz_fp_sub(&t, &q, &r.x);
    cz_fp_mul(&t, &rr, &t);
    cz_fp_mul(&u2, &p->y, &ppp);
    cz_fp_sub(&r.y, &t, &u2);
    cz_fp_mul(&r.zz, &p->zz, &pp);
    cz_fp_mul(&r.zzz, &p->zzz, &ppp);
    *p = r;
}

/* edge values as raw (Montgomery-form) bytes, all < p */
static std::vector<cz_fp> edge_values(void)
{
    static const uint64_t P[6] = {0xb9feffffffffaaabull, 0x1eabfffeb153ffffull, 0x6730d2a0f6b0f624ull,
                                  0x64774b84f38512bfull, 0x4b1ba7b6434bacd7ull, 0x1a0111ea397fe69aull};
    std::vector<cz_fp> v;
    cz_fp x;
    memset(&x, 0, sizeof x);
    v.push_back(x);                       /* 0 */
    x.l[0] = 1;
    v.push_back(x);                       /* 1 */
    x.l[0] = 2;
    v.push_back(x);                       /* 2 */
    memcpy(x.l, P, sizeof P);
    x.l[0] -= 1;
    v.push_back(x);                       /* p - 1 */
    x.l[0] -= 1;
    v.push_back(x);                       /* p - 2 */
    memcpy(x.l, P, sizeof P);             /* (p - 1) / 2 */
    x.l[0] -= 1;
    for (int i = 0; i < 6; i++)
        x.l[i] = (x.l[i] >> 1) | (i < 5 ? x.l[i + 1] << 63 : 0);
    v.push_back(x);
    for (int k = 1; k <= 7; k++) {        /* 2^(48k) - 1 */
        memset(&x, 0, sizeof x);
        for (int b = 0; b < 48 * k; b++)
            x.l[b / 64] |= 1ull << (b % 64);
        v.push_back(x);
    }
    memset(&x, 0, sizeof x);
    x.l[5] = 1ull << 60;                  /* 2^380 */
    v.push_back(x);
    for (int i = 0; i < 5; i++)
        x.l[i] = ~0ull;
    x.l[5] = (1ull << 60) - 1;            /* 2^380 - 1 */
    v.push_back(x);
    cz_fp_one(&x);                        /* R mod p */
    v.push_back(x);
    return v;
}

static int fp_eq(const cz_fp *a, const cz_fp *b) { return !memcmp(a, b, sizeof *a); }

static void fp_print(const char *name, const cz_fp *a)
{
    fprintf(stderr, "  %s = 0x", name);
    for (int i = 5; i >= 0; i--)
        fprintf(stderr, "%016llx", (unsigned long long)a->l[i]);
    fprintf(stderr, "\n");
}

static void launch_chain(int c, czd_fp *x, czd_fp *y, int n, int iters)
{
    const int grid = (n + BLOCK - 1) / BLOCK;
    g_cfg[c].fn<<<grid, BLOCK>>>(x, y, n, iters);
    CK(cudaGetLastError());
}

static void launch_xyzz(int c, void *acc, const void *q, int n, int iters)
{
    const int grid = (n + BLOCK - 1) / BLOCK;
    g_xcfg[c].fn<<<grid, BLOCK>>>(acc, q, n, iters);
    CK(cudaGetLastError());
}

/* ---- correctness ---- */
#define CHECK_ITERS 3

static void launch_chain2(int c, czd_fp2 *x, czd_fp2 *y, int n, int iters)
{
    g_f2cfg[c].fn<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n, iters);
    CK(cudaGetLastError());
}

/* 2^16 chains of Fp2 products: pairs of edge values in each coordinate
   first, the rest random; against cz_fp2_mul */
static int check_chain2(int c, cz_rng *rng)
{
    const int n = 1 << 15, total = 2 * n;
    std::vector<cz_fp2> x(total), y(total);
    std::vector<cz_fp> ev = edge_values();
    const int ne = (int)ev.size();
    for (int e = 0; e < total; e++) {
        if (e < ne * ne) {
            x[e].c0 = ev[e / ne];
            x[e].c1 = ev[e % ne];
            y[e].c0 = ev[e % ne];
            y[e].c1 = ev[e / ne];
        } else {
            cz_fp2_random(&x[e], rng);
            cz_fp2_random(&y[e], rng);
        }
    }
    czd_fp2 *dx, *dy;
    CK(cudaMalloc(&dx, total * sizeof(czd_fp2)));
    CK(cudaMalloc(&dy, total * sizeof(czd_fp2)));
    CK(cudaMemcpy(dx, x.data(), total * sizeof(czd_fp2), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, y.data(), total * sizeof(czd_fp2), cudaMemcpyHostToDevice));
    launch_chain2(c, dx, dy, n, CHECK_ITERS);
    std::vector<cz_fp2> gx(total), gy(total);
    CK(cudaMemcpy(gx.data(), dx, total * sizeof(czd_fp2), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gy.data(), dy, total * sizeof(czd_fp2), cudaMemcpyDeviceToHost));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    int bad = 0;
    for (int e = 0; e < total; e++) {
        cz_fp2 a = x[e], b = y[e], t;
        for (int it = 0; it < CHECK_ITERS; it++) {
            cz_fp2_mul(&t, &a, &b);
            b = a;
            a = t;
        }
        if (memcmp(&a, &gx[e], sizeof a) || memcmp(&b, &gy[e], sizeof b)) {
            if (bad < 5) {
                fprintf(stderr, "bench-fpmul: %s: chain %d differs from the host\n", g_f2cfg[c].name, e);
                fp_print("host c0", &a.c0);
                fp_print("gpu  c0", &gx[e].c0);
            }
            bad++;
        }
    }
    fprintf(stderr, "check %s: %d chains x %d products: %s\n", g_f2cfg[c].name, total, CHECK_ITERS,
            bad ? "MISMATCH" : "ok");
    return bad;
}

static int check_chain(int c, cz_rng *rng)
{
    const int kind = g_cfg[c].kind, CHAINS = g_cfg[c].chains;
    const int n = ((1 << 16) + CHAINS - 1) / CHAINS, total = n * CHAINS; /* >= 2^16 */
    std::vector<cz_fp> x(total), y(total);
    std::vector<cz_fp> ev = edge_values();
    const int ne = (int)ev.size();
    for (int e = 0; e < total; e++) {
        if (e < ne * ne) {
            x[e] = ev[e / ne];
            y[e] = ev[e % ne];
        } else {
            cz_fp_random(&x[e], rng);
            cz_fp_random(&y[e], rng);
        }
    }
    czd_fp *dx, *dy;
    CK(cudaMalloc(&dx, total * sizeof(czd_fp)));
    CK(cudaMalloc(&dy, total * sizeof(czd_fp)));
    CK(cudaMemcpy(dx, x.data(), total * sizeof(czd_fp), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, y.data(), total * sizeof(czd_fp), cudaMemcpyHostToDevice));
    launch_chain(c, dx, dy, n, CHECK_ITERS);
    std::vector<cz_fp> gx(total), gy(total);
    CK(cudaMemcpy(gx.data(), dx, total * sizeof(czd_fp), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gy.data(), dy, total * sizeof(czd_fp), cudaMemcpyDeviceToHost));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    int bad = 0;
    for (int e = 0; e < total; e++) {
        cz_fp a = x[e], b = y[e], t;
        const bool square = kind == K_SQR || kind == K_SQR_CIOS;
        for (int it = 0; it < CHECK_ITERS; it++) {
            if (square)
                cz_fp_sqr(&t, &a);
            else
                cz_fp_mul(&t, &a, &b);
            b = a;
            a = t;
        }
        if (!fp_eq(&a, &gx[e]) || !fp_eq(&b, &gy[e])) {
            if (bad < 5) {
                fprintf(stderr, "bench-fpmul: %s: chain %d (thread %d, chain %d) differs from the host\n",
                        kind_names[kind], e, e % n, e / n);
                fp_print("x0", &x[e]);
                fp_print("y0", &y[e]);
                fp_print("host", &a);
                fp_print("gpu ", &gx[e]);
            }
            bad++;
        }
    }
    fprintf(stderr, "check %-9s x%d: %d chains x %d products: %s\n", kind_names[kind], CHAINS, total,
            CHECK_ITERS, bad ? "MISMATCH" : "ok");
    return bad;
}

static int check_xyzz(int c, cz_rng *rng)
{
    const int n = 1 << 16, iters = NPTS + 2;
    std::vector<h_xyzz> acc(n);
    std::vector<cz_fp> q(2 * (size_t)NPTS * n);
    for (int t = 0; t < n; t++) {
        cz_fp_random(&acc[t].x, rng);
        cz_fp_random(&acc[t].y, rng);
        cz_fp_random(&acc[t].zz, rng);
        cz_fp_random(&acc[t].zzz, rng);
        for (int k = 0; k < NPTS; k++) {
            cz_fp_random(&q[2 * ((size_t)k * n + t)], rng);
            cz_fp_random(&q[2 * ((size_t)k * n + t) + 1], rng);
        }
    }
    /* thread 0: infinity in; 1: Q = P (doubling); 2: Q = -P-like (x equal,
       y not: the infinity result); 3: zz = 0 with x, y arbitrary */
    cz_fp_zero(&acc[0].zz);
    cz_fp_zero(&acc[0].zzz);
    for (int t = 1; t <= 2; t++) {
        cz_fp izz, izzz;
        cz_fp_inv(&izz, &acc[t].zz);
        cz_fp_inv(&izzz, &acc[t].zzz);
        cz_fp_mul(&q[2 * (size_t)t], &acc[t].x, &izz);
        if (t == 1)
            cz_fp_mul(&q[2 * (size_t)t + 1], &acc[t].y, &izzz);
    }
    cz_fp_zero(&acc[3].zz);
    void *dacc, *dq;
    CK(cudaMalloc(&dacc, n * sizeof(h_xyzz)));
    CK(cudaMalloc(&dq, q.size() * sizeof(cz_fp)));
    CK(cudaMemcpy(dacc, acc.data(), n * sizeof(h_xyzz), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dq, q.data(), q.size() * sizeof(cz_fp), cudaMemcpyHostToDevice));
    launch_xyzz(c, dacc, dq, n, iters);
    std::vector<h_xyzz> g(n);
    CK(cudaMemcpy(g.data(), dacc, n * sizeof(h_xyzz), cudaMemcpyDeviceToHost));
    CK(cudaFree(dacc));
    CK(cudaFree(dq));
    int bad = 0;
    for (int t = 0; t < n; t++) {
        h_xyzz p = acc[t];
        for (int it = 0; it < iters; it++) {
            size_t k = (size_t)(it % NPTS) * n + t;
            h_add_affine(&p, &q[2 * k], &q[2 * k + 1]);
        }
        if (memcmp(&p, &g[t], sizeof p)) {
            if (bad < 5) {
                fprintf(stderr, "bench-fpmul: %s: thread %d differs from the host\n", g_xcfg[c].name, t);
                fp_print("host x", &p.x);
                fp_print("gpu  x", &g[t].x);
                fp_print("host zz", &p.zz);
                fp_print("gpu  zz", &g[t].zz);
            }
            bad++;
        }
    }
    fprintf(stderr, "check %s: %d threads x %d additions: %s\n", g_xcfg[c].name, n, iters,
            bad ? "MISMATCH" : "ok");
    return bad;
}

/* ---- timing ---- */
static const char *g_commit = "unknown";
static char g_dev[256] = "?";
static double g_clock_hz, g_sms;

/* ms of one launch of `iters` */
template <class L>
static float time_once(L launch, int iters)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    launch(iters);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms;
}

/* median ms over 7 runs of a launch sized to ~target_ms; returns iters */
template <class L>
static double time_median(L launch, double target_ms, int *iters_out)
{
    int iters = 4;
    float ms = time_once(launch, iters); /* warm-up and calibration */
    while (ms < 5.0f && iters < (1 << 24)) {
        iters *= 4;
        ms = time_once(launch, iters);
    }
    iters = std::max(1, (int)(iters * target_ms / std::max(ms, 0.001f)));
    time_once(launch, iters); /* warm-up at the final size */
    std::vector<float> t;
    for (int r = 0; r < 7; r++)
        t.push_back(time_once(launch, iters));
    std::sort(t.begin(), t.end());
    *iters_out = iters;
    return t[3];
}

/* one figure: `products` products in `ms`; fp64 / dfma: per product
   (averaged over the configuration's chains and warps); adds > 0 for the
   XYZZ kernels */
static void report(const char *kind, double products, double ms, int threads, int chains, int regs,
                   double fp64, double dfma, double adds)
{
    const double pps = products / (ms * 1e-3);
    const double pipe_peak = g_sms * 64.0 * g_clock_hz; /* IMAD or FP64 ops/s, sm_90 */
    const double frac_imad = pps * IMAD_OPS / pipe_peak;
    const double frac_fp64 = pps * fp64 / pipe_peak;
    fprintf(stderr, "%-16s %7d x%d %3d reg %9.3f Gprod/s %7.4f ns/prod %6.1f %% IMAD-peak-equiv %6.1f %% FP64-pipe",
            kind, threads, chains, regs, pps / 1e9, 1e9 / pps, 100 * frac_imad, 100 * frac_fp64);
    if (adds > 0)
        fprintf(stderr, " %7.3f Gadd/s %7.4f ns/add", adds / (ms * 1e-3) / 1e9, ms * 1e6 / adds);
    fprintf(stderr, "\n");
    printf("{\"bench\":\"fpmul\",\"kind\":\"%s\",\"threads\":%d,\"chains\":%d,\"registers\":%d,"
           "\"products_per_s\":%.6g,\"ns_per_product\":%.6g,\"fraction_of_imad_peak\":%.4f,"
           "\"fraction_of_fp64_peak\":%.4f,\"fp64_ops_per_product\":%.1f,\"dfma_per_product\":%.1f,"
           "\"imad_ops_per_imad_product\":%d",
           kind, threads, chains, regs, pps, 1e9 / pps, frac_imad, frac_fp64, fp64, dfma, IMAD_OPS);
    if (adds > 0)
        printf(",\"adds_per_s\":%.6g,\"ns_per_add\":%.6g", adds / (ms * 1e-3), ms * 1e6 / adds);
    printf(",\"clock_mhz\":%.0f,\"sms\":%.0f,\"device\":\"%s\",\"commit\":\"%s\"}\n", g_clock_hz / 1e6, g_sms,
           g_dev, g_commit);
    fflush(stdout);
}

/* threads that fill the device once with kernel f (BLOCK threads a block) */
static int fill_threads(const void *f, int *regs)
{
    int per_sm = 0;
    cudaFuncAttributes at;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, BLOCK, 0));
    CK(cudaFuncGetAttributes(&at, f));
    *regs = at.numRegs;
    return std::max(1, per_sm) * (int)g_sms * BLOCK;
}

static char g_commit_buf[64];

static void commit_name(void)
{
    const char *c = getenv("CZ_COMMIT");
    if (c && *c) {
        g_commit = c;
        return;
    }
    FILE *f = popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (!f)
        return;
    if (fgets(g_commit_buf, sizeof g_commit_buf, f)) {
        g_commit_buf[strcspn(g_commit_buf, "\r\n")] = 0;
        if (*g_commit_buf)
            g_commit = g_commit_buf;
    }
    pclose(f);
}

int main(int argc, char **argv)
{
    double seconds = 2.0;
    int check_only = 0;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--check-only"))
            check_only = 1;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: bench-fpmul [--seconds S] [--check-only] [--seed N]\n");
            return 2;
        }
    }
    if (!(seconds > 0) || seconds > 600) {
        fprintf(stderr, "bench-fpmul: --seconds must be in (0, 600]\n");
        return 2;
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "bench-fpmul: no GPU\n");
        return 77;
    }
    commit_name();
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    snprintf(g_dev, sizeof g_dev, "%s", prop.name);
    int clk_khz = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    g_clock_hz = clk_khz * 1e3;
    g_sms = sms;
    fprintf(stderr, "device %s, %d SMs, %.0f MHz; seed %llu\n", g_dev, sms, clk_khz / 1e3, seed);

    cz_rng rng;
    cz_rng_seed(&rng, seed);
    int bad = 0;
    for (int c = 0; c < NCFG; c++)
        bad += check_chain(c, &rng);
    for (int c = 0; c < NXCFG; c++)
        bad += check_xyzz(c, &rng);
    for (int c = 0; c < NF2CFG; c++)
        bad += check_chain2(c, &rng);
    if (bad) {
        fprintf(stderr, "bench-fpmul: %d results differ from the host\n", bad);
        return 1;
    }
    if (check_only)
        return 0;

    const double target_ms = seconds * 1e3 / ((NCFG + NXCFG + NF2CFG) * 9); /* 9 runs a kind */
    /* chain kernels */
    for (int c = 0; c < NCFG; c++) {
        int regs = 0;
        const int n = fill_threads((const void *)g_cfg[c].fn, &regs), chains = g_cfg[c].chains;
        std::vector<cz_fp> h((size_t)n * chains);
        for (auto &e : h)
            cz_fp_random(&e, &rng);
        czd_fp *dx, *dy;
        CK(cudaMalloc(&dx, h.size() * sizeof(czd_fp)));
        CK(cudaMalloc(&dy, h.size() * sizeof(czd_fp)));
        CK(cudaMemcpy(dx, h.data(), h.size() * sizeof(czd_fp), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dy, h.data(), h.size() * sizeof(czd_fp), cudaMemcpyHostToDevice));
        int iters = 0;
        double ms = time_median([&](int it) { launch_chain(c, dx, dy, n, it); }, target_ms, &iters);
        report(kind_names[g_cfg[c].kind], (double)n * chains * iters, ms, n, chains, regs, cfg_fp64(c, VAR_FP64),
               cfg_fp64(c, VAR_DFMA), 0);
        CK(cudaFree(dx));
        CK(cudaFree(dy));
    }
    /* XYZZ mixed additions: 10 products each */
    for (int c = 0; c < NXCFG; c++) {
        int regs = 0;
        const int n = fill_threads((const void *)g_xcfg[c].fn, &regs);
        std::vector<cz_fp> acc(4 * (size_t)n), q(2 * (size_t)NPTS * n);
        for (auto &e : acc)
            cz_fp_random(&e, &rng);
        for (auto &e : q)
            cz_fp_random(&e, &rng);
        void *dacc, *dq;
        CK(cudaMalloc(&dacc, acc.size() * sizeof(cz_fp)));
        CK(cudaMalloc(&dq, q.size() * sizeof(cz_fp)));
        CK(cudaMemcpy(dacc, acc.data(), acc.size() * sizeof(cz_fp), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dq, q.data(), q.size() * sizeof(cz_fp), cudaMemcpyHostToDevice));
        int iters = 0;
        double ms = time_median([&](int it) { launch_xyzz(c, dacc, dq, n, it); }, target_ms, &iters);
        const double adds = (double)n * iters;
        const int v0 = g_xcfg[c].v0, v1 = g_xcfg[c].v1;
        report(g_xcfg[c].name, adds * 10, ms, n, 1, regs, (VAR_FP64[v0] + VAR_FP64[v1]) / 2,
               (VAR_DFMA[v0] + VAR_DFMA[v1]) / 2, adds);
        CK(cudaFree(dacc));
        CK(cudaFree(dq));
    }
    /* Fp2 products (the IMAD fraction counts 588 a product: read the rates) */
    for (int c = 0; c < NF2CFG; c++) {
        int regs = 0;
        const int n = fill_threads((const void *)g_f2cfg[c].fn, &regs);
        std::vector<cz_fp2> h(2 * (size_t)n);
        for (auto &e : h)
            cz_fp2_random(&e, &rng);
        czd_fp2 *dx, *dy;
        CK(cudaMalloc(&dx, h.size() * sizeof(czd_fp2)));
        CK(cudaMalloc(&dy, h.size() * sizeof(czd_fp2)));
        CK(cudaMemcpy(dx, h.data(), h.size() * sizeof(czd_fp2), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dy, h.data(), h.size() * sizeof(czd_fp2), cudaMemcpyHostToDevice));
        int iters = 0;
        double ms = time_median([&](int it) { launch_chain2(c, dx, dy, n, it); }, target_ms, &iters);
        report(g_f2cfg[c].name, 2.0 * n * iters, ms, n, 2, regs, 0, 0, 0);
        CK(cudaFree(dx));
        CK(cudaFree(dy));
    }
    return 0;
}
