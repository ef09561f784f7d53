/*
 * decompress.cu: compressed G1 / G2 points (the zcash/Filecoin encoding of
 * a .czk key, docs/KEYFORMAT.md) to affine points on the device, checked on
 * the curve and in the prime-order subgroup.
 *
 * DESIGN. One thread a point, the same steps and refusals in the same
 * order as the host's cz_g1_from_compressed / cz_g2_from_compressed
 * (src/curve/encode.c), so the output is bit for bit the host's (an affine
 * point in Montgomery form, fully reduced, infinity all zero):
 *   1. flags of byte 0: C (0x80) set; I (0x40) with S (0x20) clear and
 *      every other bit and byte zero is infinity; else CZ_ERR_FORMAT;
 *   2. x (big-endian, flags cleared; G2: c1 then c0) below p, else
 *      CZ_ERR_FORMAT; to Montgomery form by one product with R^2;
 *   3. y^2 = x^3 + b: Fp, y = rhs^((p+1)/4) (p = 3 mod 4); Fp2, the host's
 *      Adj-Rodriguez-Henriquez root (a1 = a^((p-3)/4), alpha = a1^2 a,
 *      x0 = a1 a; y = u x0 if alpha = -1, else (1 + alpha)^((p-1)/2) x0);
 *      y^2 != rhs is CZ_ERR_NOT_ON_CURVE. A square has two roots, +-y,
 *      whatever the method, and step 4 picks one, so the result is the
 *      host's;
 *   4. the sign: y or -y so that "y is the larger root" (Fp: y > (p-1)/2;
 *      Fp2: by c1, or by c0 when c1 = 0) equals the S flag;
 *   5. the subgroup (Scott 2021, as g1.c / g2.c): G1, phi(P) = (beta x, y)
 *      equals -x^2 P, tested as (beta x, -y) == |x| (|x| P); G2,
 *      psi(P) = (cx conj(x), cy conj(y)) equals x P, tested as
 *      (cx conj(x), -cy conj(y)) == |x| P; else CZ_ERR_SUBGROUP. The
 *      multiplications by the 64-bit |x| (63 doublings, 5 additions) use
 *      ec.cuh's complete formulas (Jacobian with an affine base, then XYZZ
 *      for G1's second, Jacobian base).
 * Exponents are read bit by bit from constant memory (the same for every
 * thread: no divergence); all this is variable time, which is fine for
 * public key points. The first bad point is found with one 64-bit
 * atomicMin over (index << 8 | status); bad points' outputs are not
 * written. Cost per G1 point: ~570 Fp products for the root, ~500 for
 * |x| P (Jacobian), ~640 for the second (XYZZ): ~1,700 products; per G2
 * point two 381-bit Fp2 exponentiations (~1,140 Fp2 products) and one
 * multiplication by |x| (~500 Fp2 products): ~4,900 Fp products.
 * Host arrays go through in chunks (backend/cuda_glue.c).
 */
#include "common.cuh"
#include "ec.cuh"

#include "../src/curve/curve_constants.h"
#include "../src/field/constants.h"

/* 64-bit little-endian limbs of the host's constants (the generated
   headers), read as 32-bit limbs */
__constant__ uint64_t k_dc_r2[6] = CZ_FP_R2;
__constant__ uint64_t k_dc_p[6] = CZ_FP_P;
__constant__ uint64_t k_dc_b[6] = CZ_FP_B_MONT;
__constant__ uint64_t k_dc_beta[6] = CZ_G1_BETA_MONT;
__constant__ uint64_t k_dc_b2_c0[6] = CZ_G2_B_C0_MONT;
__constant__ uint64_t k_dc_b2_c1[6] = CZ_G2_B_C1_MONT;
__constant__ uint64_t k_dc_cx_c0[6] = CZ_G2_PSI_CX_C0_MONT;
__constant__ uint64_t k_dc_cx_c1[6] = CZ_G2_PSI_CX_C1_MONT;
__constant__ uint64_t k_dc_cy_c0[6] = CZ_G2_PSI_CY_C0_MONT;
__constant__ uint64_t k_dc_cy_c1[6] = CZ_G2_PSI_CY_C1_MONT;
__constant__ uint64_t k_dc_sqrt_exp[6] = CZ_FP_SQRT_EXP;         /* (p + 1) / 4 */
__constant__ uint64_t k_dc_pm3_4[6] = CZ_FP_P_MINUS_3_DIV_4;     /* (p - 3) / 4 */
__constant__ uint64_t k_dc_half[6] = CZ_FP_P_MINUS_1_HALF;       /* (p - 1) / 2 */

#define CZD_DC_X_ABS CZ_BLS_X_ABS /* |x| = 0xd201000000010000, bits 63 .. 0 */

static_assert(CZ_ERR_SUBGROUP < 256 && CZ_ERR_FORMAT < 256 && CZ_ERR_NOT_ON_CURVE < 256,
              "a status fits the low byte of the atomic key");

__device__ __forceinline__ czd_fp czd_dc_const(const uint64_t *c)
{
    czd_fp r;
#pragma unroll
    for (int i = 0; i < 6; i++) {
        r.v[2 * i] = (uint32_t)c[i];
        r.v[2 * i + 1] = (uint32_t)(c[i] >> 32);
    }
    return r;
}

/* a < b for plain 12-limb integers (b from a constant) */
__device__ __forceinline__ bool czd_dc_less(const czd_fp &a, const uint64_t *b)
{
    czd_fp bb = czd_dc_const(b);
    for (int i = 11; i >= 0; i--)
        if (a.v[i] != bb.v[i])
            return a.v[i] < bb.v[i];
    return false;
}

/* plain(a) > (p - 1) / 2 */
__device__ __forceinline__ bool czd_dc_lex_largest(const czd_fp &a)
{
    czd_fp plain = a.from_mont(), half = czd_dc_const(k_dc_half);
    for (int i = 11; i >= 0; i--)
        if (plain.v[i] != half.v[i])
            return plain.v[i] > half.v[i];
    return false;
}

/* zcash rule over Fp2: the sign of c1, or of c0 when c1 = 0 */
__device__ __forceinline__ bool czd_dc_lex_largest(const czd_fp2 &a)
{
    return a.c1.is_zero() ? czd_dc_lex_largest(a.c0) : czd_dc_lex_largest(a.c1);
}

/* a^e for a 384-bit exponent in constant memory: left to right, binary
   (the bits are the same for every thread) */
template <class F>
__device__ __noinline__ F czd_dc_pow(const F &a, const uint64_t *e)
{
    F r = F::one();
    bool started = false;
    for (int i = 5; i >= 0; i--) {
        const uint64_t w = e[i];
        for (int b = 63; b >= 0; b--) {
            if (started)
                r = F::sqr(r);
            if ((w >> b) & 1) {
                r = started ? r * a : a;
                started = true;
            }
        }
    }
    return r;
}

/* 32-bit words of a big-endian coordinate of 48 bytes at w (little-endian
   loads of the bytes) to limbs; `first` clears the three flag bits */
__device__ __forceinline__ czd_fp czd_dc_coord(const uint32_t *w, bool first)
{
    czd_fp x;
#pragma unroll
    for (int j = 0; j < 12; j++)
        x.v[j] = __byte_perm(w[11 - j], 0, 0x0123);
    if (first)
        x.v[11] &= 0x1fffffffu;
    return x;
}

/* Flags (step 1): 0 a point to decode, 1 infinity, else the status */
template <int W>
__device__ __forceinline__ int czd_dc_flags(const uint32_t (&w)[W])
{
    const uint32_t f = w[0] & 0xffu;
    if (!(f & 0x80u))
        return CZ_ERR_FORMAT;
    if (!(f & 0x40u))
        return 0;
    uint32_t rest = w[0] & 0xffffff3fu; /* S, the low five flag bits and bytes 1..3 */
#pragma unroll
    for (int i = 1; i < W; i++)
        rest |= w[i];
    return rest ? CZ_ERR_FORMAT : 1;
}

template <int W>
__device__ __forceinline__ void czd_dc_load(uint32_t (&w)[W], const uint8_t *in, size_t i)
{
    const uint4 *q = reinterpret_cast<const uint4 *>(in + (size_t)W * 4 * i);
#pragma unroll
    for (int k = 0; k < W / 4; k++) {
        uint4 v = q[k];
        w[4 * k] = v.x;
        w[4 * k + 1] = v.y;
        w[4 * k + 2] = v.z;
        w[4 * k + 3] = v.w;
    }
}

__device__ __forceinline__ void czd_dc_report(unsigned long long *bad, size_t i, int st)
{
    atomicMin(bad, ((unsigned long long)i << 8) | (unsigned)st);
}

/* (beta x, -y) == |x| (|x| P), P = (x, y) on the curve, not infinity */
__device__ __noinline__ bool czd_dc_g1_in_subgroup(const czd_g1_affine &p)
{
    czd_g1_jac q;
    q.x = p.x;
    q.y = p.y;
    q.z = czd_fp::one();
    for (int b = 62; b >= 0; b--) {
        q = czd_g1_jac::dbl(q);
        if ((CZD_DC_X_ABS >> b) & 1)
            q = czd_g1_jac::add_affine(q, p);
    }
    /* the second factor |x| on a Jacobian base: XYZZ (ZZ = Z^2, ZZZ = Z^3),
       whose addition takes two projective points */
    czd_g1_xyzz base;
    base.x = q.x;
    base.y = q.y;
    base.zz = czd_fp::sqr(q.z);
    base.zzz = base.zz * q.z;
    czd_g1_xyzz t = base;
    for (int b = 62; b >= 0; b--) {
        t = czd_g1_xyzz::dbl(t);
        if ((CZD_DC_X_ABS >> b) & 1)
            t = czd_g1_xyzz::add(t, base);
    }
    if (t.is_inf())
        return false;
    czd_fp phx = p.x * czd_dc_const(k_dc_beta), phy = czd_fp::neg(p.y);
    return t.x.eq(phx * t.zz) && t.y.eq(phy * t.zzz);
}

/* (cx conj(x), -cy conj(y)) == |x| P, P on the twist, not infinity */
__device__ __noinline__ bool czd_dc_g2_in_subgroup(const czd_g2_affine &p)
{
    czd_g2_jac q;
    q.x = p.x;
    q.y = p.y;
    q.z = czd_fp2::one();
    for (int b = 62; b >= 0; b--) {
        q = czd_g2_jac::dbl(q);
        if ((CZD_DC_X_ABS >> b) & 1)
            q = czd_g2_jac::add_affine(q, p);
    }
    if (q.is_inf())
        return false;
    const czd_fp2 cx = {czd_dc_const(k_dc_cx_c0), czd_dc_const(k_dc_cx_c1)};
    const czd_fp2 cy = {czd_dc_const(k_dc_cy_c0), czd_dc_const(k_dc_cy_c1)};
    czd_fp2 sx = czd_fp2{p.x.c0, czd_fp::neg(p.x.c1)} * cx;
    czd_fp2 sy = czd_fp2::neg(czd_fp2{p.y.c0, czd_fp::neg(p.y.c1)} * cy);
    czd_fp2 zz = czd_fp2::sqr(q.z);
    if (!q.x.eq(sx * zz))
        return false;
    return q.y.eq(sy * (zz * q.z));
}

/* square root over Fp2 as fp2_impl.h's (p = 3 mod 4); false: none */
__device__ __noinline__ bool czd_dc_fp2_sqrt(czd_fp2 &out, const czd_fp2 &a)
{
    czd_fp2 a1 = czd_dc_pow(a, k_dc_pm3_4);
    czd_fp2 alpha = czd_fp2::sqr(a1) * a;
    czd_fp2 x0 = a1 * a;
    czd_fp2 minus_one = czd_fp2::neg(czd_fp2::one());
    czd_fp2 y;
    if (alpha.eq(minus_one)) {
        y.c0 = czd_fp::neg(x0.c1); /* u x0 = -x0.c1 + x0.c0 u */
        y.c1 = x0.c0;
    } else {
        y = czd_dc_pow(czd_fp2::one() + alpha, k_dc_half) * x0;
    }
    if (!czd_fp2::sqr(y).eq(a))
        return false;
    out = y;
    return true;
}

__global__ void __launch_bounds__(128) k_decompress_g1(czd_g1_affine *out, const uint8_t *in,
                                                         size_t n, unsigned long long *bad)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t w[12];
    czd_dc_load(w, in, i);
    int f = czd_dc_flags(w);
    if (f == 1) {
        out[i].x = czd_fp::zero();
        out[i].y = czd_fp::zero();
        return;
    }
    if (f) {
        czd_dc_report(bad, i, f);
        return;
    }
    czd_fp x = czd_dc_coord(w, true);
    if (!czd_dc_less(x, k_dc_p)) {
        czd_dc_report(bad, i, CZ_ERR_FORMAT);
        return;
    }
    czd_g1_affine p;
    p.x = x * czd_dc_const(k_dc_r2);
    czd_fp rhs = czd_fp::sqr(p.x) * p.x + czd_dc_const(k_dc_b);
    p.y = czd_dc_pow(rhs, k_dc_sqrt_exp);
    if (!czd_fp::sqr(p.y).eq(rhs)) {
        czd_dc_report(bad, i, CZ_ERR_NOT_ON_CURVE);
        return;
    }
    if (czd_dc_lex_largest(p.y) != ((w[0] & 0x20u) != 0))
        p.y = czd_fp::neg(p.y);
    if (!czd_dc_g1_in_subgroup(p)) {
        czd_dc_report(bad, i, CZ_ERR_SUBGROUP);
        return;
    }
    out[i] = p;
}

__global__ void __launch_bounds__(128) k_decompress_g2(czd_g2_affine *out, const uint8_t *in,
                                                         size_t n, unsigned long long *bad)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t w[24];
    czd_dc_load(w, in, i);
    int f = czd_dc_flags(w);
    if (f == 1) {
        out[i].x = czd_fp2::zero();
        out[i].y = czd_fp2::zero();
        return;
    }
    if (f) {
        czd_dc_report(bad, i, f);
        return;
    }
    czd_fp2 x;
    x.c1 = czd_dc_coord(w, true);
    x.c0 = czd_dc_coord(w + 12, false);
    if (!czd_dc_less(x.c1, k_dc_p) || !czd_dc_less(x.c0, k_dc_p)) {
        czd_dc_report(bad, i, CZ_ERR_FORMAT);
        return;
    }
    const czd_fp r2 = czd_dc_const(k_dc_r2);
    czd_g2_affine p;
    p.x.c0 = x.c0 * r2;
    p.x.c1 = x.c1 * r2;
    const czd_fp2 b2 = {czd_dc_const(k_dc_b2_c0), czd_dc_const(k_dc_b2_c1)};
    czd_fp2 rhs = czd_fp2::sqr(p.x) * p.x + b2;
    if (!czd_dc_fp2_sqrt(p.y, rhs)) {
        czd_dc_report(bad, i, CZ_ERR_NOT_ON_CURVE);
        return;
    }
    if (czd_dc_lex_largest(p.y) != ((w[0] & 0x20u) != 0))
        p.y = czd_fp2::neg(p.y);
    if (!czd_dc_g2_in_subgroup(p)) {
        czd_dc_report(bad, i, CZ_ERR_SUBGROUP);
        return;
    }
    out[i] = p;
}

extern "C" cz_status czd_decompress(czd_ctx *ctx, int group, void *dev_out, const void *dev_in,
                                    size_t n, size_t *first_bad, cz_status *bad_st)
{
    *first_bad = SIZE_MAX;
    *bad_st = CZ_OK;
    if (group != 1 && group != 2)
        return czd_fail(ctx, CZ_ERR_ARG, "decompress: unknown group %d", group);
    if (n == 0)
        return CZ_OK;
    if (n > ((size_t)1 << 55))
        return czd_fail(ctx, CZ_ERR_ARG, "decompress: %zu points", n);
    czd_scratch sc(ctx);
    CZD_TAKE(ctx, sc, unsigned long long, bad, 1);
    CZD_TRY(ctx, cudaMemsetAsync(bad, 0xff, sizeof *bad, ctx->stream));
    const unsigned t = 128;
    if (group == 1)
        k_decompress_g1<<<czd_blocks(n, t), t, 0, ctx->stream>>>(
            (czd_g1_affine *)dev_out, (const uint8_t *)dev_in, n, bad);
    else
        k_decompress_g2<<<czd_blocks(n, t), t, 0, ctx->stream>>>(
            (czd_g2_affine *)dev_out, (const uint8_t *)dev_in, n, bad);
    CZD_LAUNCHED(ctx, "k_decompress");
    unsigned long long h = 0;
    CZD_TRY(ctx, cudaMemcpyAsync(&h, bad, sizeof h, cudaMemcpyDeviceToHost, ctx->stream));
    CZD_TRY(ctx, cudaStreamSynchronize(ctx->stream));
    if (h != ~0ull) {
        *first_bad = (size_t)(h >> 8);
        *bad_st = (cz_status)(h & 0xff);
    }
    return CZ_OK;
}
