/*
 * ec.cuh: G1 (over Fp) and G2 (over Fp2) point arithmetic on the device.
 *
 * DESIGN. Templates over the coordinate field F (czd_fp, czd_fp2 of
 * BLS12-381; czd_fp254, czd_fp2_254 of BN254); a = 0 for all four, so no
 * formula needs b. Affine {x, y} has the bytes of the
 * host's cz_g1_affine / cz_g2_affine, infinity all zero. XYZZ (x = X/ZZ,
 * y = Y/ZZZ, ZZ^3 = ZZZ^2) is the bucket form: mixed add 8M+2S, add 12M+2S,
 * dbl 6M+3S (formulas add-2008-s, madd-2008-s, dbl-2008-s-1 of the
 * Explicit-Formulas Database); infinity is ZZ = 0. Jacobian (x = X/Z^2,
 * y = Y/Z^3) with mixed add 7M+4S and dbl 2M+5S (a = 0) is kept for
 * scalar multiplication and for callers that want it. All additions here
 * are complete: they detect P == Q (doubling) and P == -Q (infinity).
 */
#ifndef CZ_CUDA_EC_CUH
#define CZ_CUDA_EC_CUH

/* Point formulas stay out of line: each is ~10-40 inlined field products,
   and inlining every call site made compile times explode. */
#define CZD_POINT_FN __device__ __noinline__

#include "field.cuh"

template <class F>
struct czd_affine {
    F x, y;
    CZD_INLINE bool is_inf() const { return x.is_zero() && y.is_zero(); }
};

template <class F>
struct czd_xyzz {
    F x, y, zz, zzz;

    static CZD_INLINE czd_xyzz inf()
    {
        czd_xyzz r;
        r.x = F::one(); /* any x, y; ZZ = ZZZ = 0 marks infinity */
        r.y = F::one();
        r.zz = F::zero();
        r.zzz = F::zero();
        return r;
    }
    CZD_INLINE bool is_inf() const { return zz.is_zero(); }

    static CZD_INLINE czd_xyzz from_affine(const czd_affine<F> &p)
    {
        if (p.is_inf())
            return inf();
        czd_xyzz r;
        r.x = p.x;
        r.y = p.y;
        r.zz = F::one();
        r.zzz = F::one();
        return r;
    }

    /* 2 * affine point (mdbl-2008-s-1): U = 2Y, V = U^2, W = UV, S = XV,
       M = 3X^2, X3 = M^2 - 2S, Y3 = M(S - X3) - WY, ZZ3 = V, ZZZ3 = W. */
    static CZD_POINT_FN czd_xyzz dbl_affine(const F &x, const F &y)
    {
        F u = F::dbl(y), v = F::sqr(u), w = u * v, s = x * v;
        F x2 = F::sqr(x);
        F m = x2 + F::dbl(x2);
        czd_xyzz r;
        r.x = F::sqr(m) - F::dbl(s);
        r.y = m * (s - r.x) - w * y;
        r.zz = v;
        r.zzz = w;
        return r;
    }

    /* dbl-2008-s-1: 2P. U = 2Y1, V = U^2, W = UV, S = X1 V, M = 3 X1^2,
       X3 = M^2 - 2S, Y3 = M(S - X3) - W Y1, ZZ3 = V ZZ1, ZZZ3 = W ZZZ1. */
    static CZD_POINT_FN czd_xyzz dbl(const czd_xyzz &p)
    {
        F u = F::dbl(p.y), v = F::sqr(u), w = u * v, s = p.x * v;
        F x2 = F::sqr(p.x);
        F m = x2 + F::dbl(x2);
        czd_xyzz r;
        r.x = F::sqr(m) - F::dbl(s);
        r.y = m * (s - r.x) - w * p.y;
        r.zz = v * p.zz;
        r.zzz = w * p.zzz;
        return r; /* ZZ1 = 0 gives ZZ3 = 0: infinity stays infinity */
    }

    /* P + affine Q (madd-2008-s): U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1,
       R = S2 - Y1, PP = P^2, PPP = P PP, Q = X1 PP, X3 = R^2 - PPP - 2Q,
       Y3 = R(Q - X3) - Y1 PPP, ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP. */
    static CZD_POINT_FN czd_xyzz add_affine(const czd_xyzz &p, const F &qx, const F &qy)
    {
        return add_affine_inline(p, qx, qy);
    }
    /* the same, inlined: for the MSM's accumulation loop, where the call
       would pass 200-400 bytes of point through local memory per add */
    static CZD_INLINE czd_xyzz add_affine_inline(const czd_xyzz &p, const F &qx, const F &qy)
    {
        if (p.is_inf()) {
            czd_xyzz r;
            r.x = qx;
            r.y = qy;
            r.zz = F::one();
            r.zzz = F::one();
            return r;
        }
        F u2 = qx * p.zz, s2 = qy * p.zzz;
        F pp_ = u2 - p.x, rr = s2 - p.y;
        if (pp_.is_zero()) {
            if (rr.is_zero())
                return dbl_affine(qx, qy);
            return inf();
        }
        F pp = F::sqr(pp_), ppp = pp_ * pp, q = p.x * pp;
        czd_xyzz r;
        r.x = F::sqr(rr) - ppp - F::dbl(q);
        r.y = rr * (q - r.x) - p.y * ppp;
        r.zz = p.zz * pp;
        r.zzz = p.zzz * ppp;
        return r;
    }
    static CZD_INLINE czd_xyzz add_affine(const czd_xyzz &p, const czd_affine<F> &q)
    {
        if (q.is_inf())
            return p;
        return add_affine(p, q.x, q.y);
    }

    /* P + Q (add-2008-s): U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2,
       S2 = Y2 ZZZ1, P = U2 - U1, R = S2 - S1, PP = P^2, PPP = P PP,
       Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1 PPP,
       ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP. */
    static CZD_POINT_FN czd_xyzz add(const czd_xyzz &p, const czd_xyzz &q)
    {
        if (p.is_inf())
            return q;
        if (q.is_inf())
            return p;
        F u1 = p.x * q.zz, u2 = q.x * p.zz;
        F s1 = p.y * q.zzz, s2 = q.y * p.zzz;
        F pp_ = u2 - u1, rr = s2 - s1;
        if (pp_.is_zero()) {
            if (rr.is_zero())
                return dbl(p);
            return inf();
        }
        F pp = F::sqr(pp_), ppp = pp_ * pp, qq = u1 * pp;
        czd_xyzz r;
        r.x = F::sqr(rr) - ppp - F::dbl(qq);
        r.y = rr * (qq - r.x) - s1 * ppp;
        r.zz = p.zz * q.zz * pp;
        r.zzz = p.zzz * q.zzz * ppp;
        return r;
    }

    /* affine: x = X/ZZ, y = Y/ZZZ; t = 1/(ZZ ZZZ), 1/ZZ = t ZZZ, 1/ZZZ = t ZZ */
    CZD_POINT_FN czd_affine<F> to_affine() const
    {
        czd_affine<F> a;
        if (is_inf()) {
            a.x = F::zero();
            a.y = F::zero();
            return a;
        }
        F t = F::inv(zz * zzz);
        a.x = x * (t * zzz);
        a.y = y * (t * zz);
        return a;
    }
};

/* Jacobian, a = 0. */
template <class F>
struct czd_jac {
    F x, y, z;
    static CZD_INLINE czd_jac inf()
    {
        czd_jac r;
        r.x = F::one();
        r.y = F::one();
        r.z = F::zero();
        return r;
    }
    CZD_INLINE bool is_inf() const { return z.is_zero(); }

    /* dbl-2009-l: A = X^2, B = Y^2, C = B^2, D = 2((X+B)^2 - A - C),
       E = 3A, F = E^2, X3 = F - 2D, Y3 = E(D - X3) - 8C, Z3 = 2YZ. */
    static CZD_POINT_FN czd_jac dbl(const czd_jac &p)
    {
        F a = F::sqr(p.x), b = F::sqr(p.y), c = F::sqr(b);
        F d = F::sqr(p.x + b) - a - c;
        d = F::dbl(d);
        F e = a + F::dbl(a), f = F::sqr(e);
        czd_jac r;
        r.x = f - F::dbl(d);
        F c8 = F::dbl(F::dbl(F::dbl(c)));
        r.y = e * (d - r.x) - c8;
        r.z = F::dbl(p.y * p.z);
        return r;
    }

    /* madd-2007-bl: Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1,
       HH = H^2, I = 4HH, J = H I, r = 2(S2 - Y1), V = X1 I,
       X3 = r^2 - J - 2V, Y3 = r(V - X3) - 2 Y1 J, Z3 = (Z1 + H)^2 - Z1Z1 - HH. */
    static CZD_POINT_FN czd_jac add_affine(const czd_jac &p, const czd_affine<F> &q)
    {
        if (q.is_inf())
            return p;
        if (p.is_inf()) {
            czd_jac r;
            r.x = q.x;
            r.y = q.y;
            r.z = F::one();
            return r;
        }
        F z1z1 = F::sqr(p.z), u2 = q.x * z1z1, s2 = q.y * p.z * z1z1;
        F h = u2 - p.x, rr = s2 - p.y;
        if (h.is_zero()) {
            if (rr.is_zero())
                return dbl(p);
            return inf();
        }
        F hh = F::sqr(h), i = F::dbl(F::dbl(hh)), j = h * i;
        rr = F::dbl(rr);
        F v = p.x * i;
        czd_jac r;
        r.x = F::sqr(rr) - j - F::dbl(v);
        r.y = rr * (v - r.x) - F::dbl(p.y * j);
        r.z = F::sqr(p.z + h) - z1z1 - hh;
        return r;
    }
};

typedef czd_affine<czd_fp> czd_g1_affine;
typedef czd_xyzz<czd_fp> czd_g1_xyzz;
typedef czd_jac<czd_fp> czd_g1_jac;
typedef czd_affine<czd_fp2> czd_g2_affine;
typedef czd_xyzz<czd_fp2> czd_g2_xyzz;
typedef czd_jac<czd_fp2> czd_g2_jac;

typedef czd_affine<czd_fp254> czd_bn254_g1_affine;
typedef czd_xyzz<czd_fp254> czd_bn254_g1_xyzz;
typedef czd_affine<czd_fp2_254> czd_bn254_g2_affine;
typedef czd_xyzz<czd_fp2_254> czd_bn254_g2_xyzz;

/* Curve descriptors: the scalar field, the coordinate fields of G1 and G2
   and the scalars' bit length (r < 2^SCALAR_BITS), for the code that is
   written once for both curves (msm.cu, ntt.cu). */
struct czd_curve_bls12_381 {
    typedef czd_fr fr;
    typedef czd_fp fp;
    typedef czd_fp2 fp2;
    static constexpr unsigned SCALAR_BITS = 255;
    static constexpr const char *NAME = "bls12-381";
};
struct czd_curve_bn254 {
    typedef czd_fr254 fr;
    typedef czd_fp254 fp;
    typedef czd_fp2_254 fp2;
    static constexpr unsigned SCALAR_BITS = 254;
    static constexpr const char *NAME = "bn254";
};

static_assert(sizeof(czd_g1_affine) == 96, "G1 affine layout");
static_assert(sizeof(czd_g2_affine) == 192, "G2 affine layout");
static_assert(sizeof(czd_g1_xyzz) == 192, "G1 XYZZ layout");
static_assert(sizeof(czd_g2_xyzz) == 384, "G2 XYZZ layout");
static_assert(sizeof(czd_bn254_g1_affine) == 64 && sizeof(czd_bn254_g2_affine) == 128,
              "BN254 affine layouts (cz_bn254_g1_affine / g2_affine)");
static_assert(sizeof(czd_bn254_g1_xyzz) == 128 && sizeof(czd_bn254_g2_xyzz) == 256,
              "BN254 XYZZ layouts");

#endif
