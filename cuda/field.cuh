/*
 * field.cuh: Fr and Fp Montgomery arithmetic on the device, and Fp2.
 *
 * DESIGN. An element is N little-endian 32-bit limbs holding a*R mod m with
 * R = 2^(32N): N = 8 for Fr (R = 2^256), N = 12 for Fp (R = 2^384). These
 * are exactly the bytes of the host's cz_fr / cz_fp (4 / 6 little-endian
 * 64-bit limbs), so arrays copy between host and device unchanged. All
 * moduli are below 2^(32N-1): sums and Montgomery products stay below 2m in
 * N limbs and need one conditional subtraction; outputs are fully reduced.
 * Two curves: BLS12-381 (czd_fr, czd_fp, czd_fp2) and BN254 ("bn128":
 * czd_fr254, czd_fp254, czd_fp2_254, both moduli 8 limbs, the bytes of the
 * host's cz_bn254_fr / cz_bn254_fp / cz_bn254_fp2). Fp2 is one template
 * over its base field (czd_fp2t), u^2 = -1 for both curves.
 *
 * Carries go through the PTX carry flag (add.cc / addc.cc, mad.lo.cc /
 * madc.hi.cc). Each instruction is its own `asm volatile` statement inside
 * fully unrolled loops: volatile asm keeps its order and nvcc emits nothing
 * between consecutive statements that touches the flag (the practice of
 * sppark and other CUDA field libraries; the GPU tests compare every
 * operation with the host code on random inputs to catch a broken chain).
 *
 * Costs (N limbs): mul = CIOS, N rows of (2N mad for a*b_i, 1 mul for the
 * quotient, 2N mad for q*m) = 4N^2 + N 32-bit multiply-adds (Fr 264, Fp 588);
 * sqr = mul; add/sub = 2N add-with-carry + N selects. mont.cuh's separated
 * form (mul_sos: Fp 516, sqr_sos: 456) has fewer multiply-adds and more of
 * every other instruction; alone its square and czd_mont_mul2 (Fp2) are
 * faster, inside an XYZZ addition its square was not (docs/PERF.md,
 * 2026-12-02), nor inside the affine rounds' backward pass, square or
 * every product (2026-12-03 13:34): the kernels keep CIOS.
 */
#ifndef CZ_CUDA_FIELD_CUH
#define CZ_CUDA_FIELD_CUH

#include <stdint.h>

#define CZD_INLINE __device__ __forceinline__

/* the moduli (czd_fr_params, czd_fp_params, czd_fr254_params,
   czd_fp254_params) and the separated-form product */
#include "mont.cuh"

template <class P>
struct czd_mont {
    static constexpr int N = P::N;
    static constexpr int DEG = 1; /* degree over the prime field (czd_fp2t: 2) */
    typedef czd_mont base;
    typedef P params;
    uint32_t v[N];

    static CZD_INLINE czd_mont zero()
    {
        czd_mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.v[i] = 0;
        return r;
    }
    static CZD_INLINE czd_mont one()
    {
        czd_mont r;
#pragma unroll
        for (int i = 0; i < N; i++)
            r.v[i] = P::one(i);
        return r;
    }
    CZD_INLINE bool is_zero() const
    {
        uint32_t d = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            d |= v[i];
        return d == 0;
    }
    CZD_INLINE bool eq(const czd_mont &b) const
    {
        uint32_t d = 0;
#pragma unroll
        for (int i = 0; i < N; i++)
            d |= v[i] ^ b.v[i];
        return d == 0;
    }

    /* out = t - m if t >= m else t (t < 2m) */
    static CZD_INLINE void reduce_once(uint32_t out[N], const uint32_t t[N])
    {
        uint32_t d[N], borrow;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(t[0]), "r"(P::p(0)));
#pragma unroll
        for (int i = 1; i < N; i++)
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[i]) : "r"(t[i]), "r"(P::p(i)));
        asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
#pragma unroll
        for (int i = 0; i < N; i++)
            out[i] = borrow ? t[i] : d[i];
    }

    static CZD_INLINE czd_mont add(const czd_mont &a, const czd_mont &b)
    {
        uint32_t s[N];
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
        for (int i = 1; i < N; i++)
            asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s[i]) : "r"(a.v[i]), "r"(b.v[i]));
        czd_mont r;
        reduce_once(r.v, s);
        return r;
    }
    static CZD_INLINE czd_mont dbl(const czd_mont &a) { return add(a, a); }

    static CZD_INLINE czd_mont sub(const czd_mont &a, const czd_mont &b)
    {
        uint32_t d[N], mask;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
        for (int i = 1; i < N; i++)
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d[i]) : "r"(a.v[i]), "r"(b.v[i]));
        asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));
        czd_mont r;
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.v[0]) : "r"(d[0]), "r"(P::p(0) & mask));
#pragma unroll
        for (int i = 1; i < N; i++)
            asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.v[i]) : "r"(d[i]), "r"(P::p(i) & mask));
        return r;
    }

    static CZD_INLINE czd_mont neg(const czd_mont &a) { return sub(zero(), a); }

    /* ---- Montgomery product, even/odd split (N even) ----
       A row adds a * b_i to the running sum T and then q * m with
       q = T mod 2^32 * n0, and divides by 2^32. The products a_j b_i of
       even j are 64-bit values at word offsets 0, 2, 4, ... that do not
       overlap, so they add to an N-word accumulator in one carry chain of
       (lo, hi) pairs; the odd j go to a second accumulator that sits one
       word higher. ptxas turns each mad.lo.cc / madc.hi.cc pair on the same
       operands into one 64-bit IMAD.WIDE.U32(.X), which halves the
       instruction count of the plain CIOS chain (one carry add per word).
       T = E + O * 2^32 with E, O < 2^(32N) each. After a row E[0] = 0 and
       T / 2^32 = O + E[1] + (E >> 64) * 2^32: the next row adds E[1] into
       O[0], builds its odd accumulator from E >> 64 in place (the shift is
       free: it only renames words) and swaps the two roles.
       Bounds (a < m or a tiny; any b): the odd accumulator stays below
       E >> 64 + a + m + 2^(32N-32) + 1 < 2^(32N) because 2m < 2^(32N) - 2^(32N-31)
       for every modulus here (BLS12-381 Fr: m < 0.46 * 2^256, Fp:
       m < 0.11 * 2^384; BN254 Fr and Fp: m < 0.19 * 2^256), so
       its chains can drop their last carry; carries out of the even
       accumulator (weight 2^(32N)) go into the odd one's top word. The
       final T < 2m fits N words and needs one conditional subtraction. */
    static CZD_INLINE void pairs_mul(uint32_t acc[N], const uint32_t *a, uint32_t bi)
    {
#pragma unroll
        for (int j = 0; j < N; j += 2)
            asm("mul.lo.u32 %0, %2, %3;\n\tmul.hi.u32 %1, %2, %3;"
                : "=r"(acc[j]), "=r"(acc[j + 1])
                : "r"(a[j]), "r"(bi));
    }
    /* acc += sum_k a[2k] bi 2^(64k); fresh chain; leaves the carry out in CC */
    static CZD_INLINE void pairs_mad(uint32_t acc[N], const uint32_t *a, uint32_t bi)
    {
        asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                     : "+r"(acc[0]), "+r"(acc[1])
                     : "r"(a[0]), "r"(bi));
#pragma unroll
        for (int j = 2; j < N; j += 2)
            asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                         : "+r"(acc[j]), "+r"(acc[j + 1])
                         : "r"(a[j]), "r"(bi));
    }
    /* acc += sum_k a[2k] bi 2^(64k) with a fresh chain whose last carry is
       known to be zero (the odd accumulator's reduction) */
    static CZD_INLINE void pairs_mad_nc(uint32_t acc[N], const uint32_t *a, uint32_t bi)
    {
        asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                     : "+r"(acc[0]), "+r"(acc[1])
                     : "r"(a[0]), "r"(bi));
#pragma unroll
        for (int j = 2; j < N - 2; j += 2)
            asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                         : "+r"(acc[j]), "+r"(acc[j + 1])
                         : "r"(a[j]), "r"(bi));
        asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.u32 %1, %2, %3, %1;"
                     : "+r"(acc[N - 2]), "+r"(acc[N - 1])
                     : "r"(a[N - 2]), "r"(bi));
    }
    /* acc[j] = acc[j + 2] + (sum_k a[2k] bi 2^(64k))[j], taking the carry
       in from CC and dropping the last carry (bounded, see above) */
    static CZD_INLINE void pairs_mad_shift(uint32_t acc[N], const uint32_t *a, uint32_t bi)
    {
#pragma unroll
        for (int j = 0; j < N - 2; j += 2)
            asm volatile("madc.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.cc.u32 %1, %2, %3, %5;"
                         : "=r"(acc[j]), "=r"(acc[j + 1])
                         : "r"(a[j]), "r"(bi), "r"(acc[j + 2]), "r"(acc[j + 3]));
        asm volatile("madc.lo.cc.u32 %0, %2, %3, 0;\n\tmadc.hi.u32 %1, %2, %3, 0;"
                     : "=r"(acc[N - 2]), "=r"(acc[N - 1])
                     : "r"(a[N - 2]), "r"(bi));
    }
    /* the reduction half of a row: E (aligned) gets E[0] = 0 */
    static CZD_INLINE void row_reduce(uint32_t e[N], uint32_t o[N])
    {
        uint32_t m[N];
#pragma unroll
        for (int j = 0; j < N; j++)
            m[j] = P::p(j);
        const uint32_t q = e[0] * P::N0;
        if constexpr (P::LOW64) {
            /* m[0] = 1, m[1] = 2^32 - 1 (BLS12-381's Fr): q m[0] = q and
               q m[1] = (q - (q != 0)) 2^32 + (-q mod 2^32), so the first
               pair of each chain is two additions, not an IMAD.WIDE; the
               sums are the same as below, so are their carries. On the
               H200 the NTT took what it took before (2^27 forward 42.10
               ms), the H step 275.3 against 278.4 (docs/PERF.md
               2026-12-03 21:26) */
            uint32_t lo, hi;
            asm volatile("sub.cc.u32 %0, 0, %1;" : "=r"(lo) : "r"(q));
            asm volatile("subc.u32 %0, %1, 0;" : "=r"(hi) : "r"(q));
            asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(o[0]) : "r"(lo));
            asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(o[1]) : "r"(hi));
#pragma unroll
            for (int j = 2; j < N - 2; j += 2)
                asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                             : "+r"(o[j]), "+r"(o[j + 1])
                             : "r"(m[j + 1]), "r"(q));
            asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.u32 %1, %2, %3, %1;"
                         : "+r"(o[N - 2]), "+r"(o[N - 1])
                         : "r"(m[N - 1]), "r"(q));
            asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(e[0]) : "r"(q));
            asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(e[1]));
#pragma unroll
            for (int j = 2; j < N; j += 2)
                asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                             : "+r"(e[j]), "+r"(e[j + 1])
                             : "r"(m[j]), "r"(q));
        } else {
            pairs_mad_nc(o, m + 1, q);
            pairs_mad(e, m, q);
        }
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(o[N - 1]));
    }
    /* a row after the first: on entry T = o + e[1] + (e >> 64) 2^32; on
       exit the sum plus a * bi + q m is held with o aligned (o[0] = 0)
       and e one word up */
    static CZD_INLINE void row(uint32_t e[N], uint32_t o[N], const uint32_t a[N], uint32_t bi)
    {
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(o[0]) : "r"(e[1]));
        pairs_mad_shift(e, a + 1, bi);
        pairs_mad(o, a, bi);
        asm volatile("addc.u32 %0, %0, 0;" : "+r"(e[N - 1]));
        row_reduce(o, e);
    }
    static CZD_INLINE czd_mont mul(const czd_mont &x, const czd_mont &y)
    {
        static_assert(N % 2 == 0, "even/odd product needs an even limb count");
        uint32_t e[N], o[N];
        const uint32_t *a = x.v;
        pairs_mul(e, a, y.v[0]);
        pairs_mul(o, a + 1, y.v[0]);
        row_reduce(e, o);
#pragma unroll
        for (int i = 1; i < N; i += 2) {
            row(e, o, a, y.v[i]);     /* now o aligned, e one up */
            if (i + 1 < N)
                row(o, e, a, y.v[i + 1]); /* and back */
        }
        /* N even: the last row left o aligned (o[0] = 0), e one word up:
           T / 2^32 = e + o >> 32 */
        uint32_t t[N];
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(e[0]), "r"(o[1]));
#pragma unroll
        for (int j = 1; j < N - 1; j++)
            asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(t[j]) : "r"(e[j]), "r"(o[j + 1]));
        asm volatile("addc.u32 %0, %1, 0;" : "=r"(t[N - 1]) : "r"(e[N - 1]));
        czd_mont r;
        reduce_once(r.v, t);
        return r;
    }
    static CZD_INLINE czd_mont sqr(const czd_mont &a) { return mul(a, a); }
    /* the product and the square in separated form (mont.cuh), for
       bench-fpmul; bounds as mul */
    static CZD_INLINE czd_mont mul_sos(const czd_mont &x, const czd_mont &y)
    {
        czd_mont r;
        czd_mont_mul<P>(r.v, x.v, y.v);
        return r;
    }
    static CZD_INLINE czd_mont sqr_sos(const czd_mont &a)
    {
        czd_mont r;
        czd_mont_sqr<P>(r.v, a.v);
        return r;
    }

    /* Montgomery form -> plain integer (a*R^-1 mod m, fully reduced, for
       any N-limb input a, since a < 2^(32N) < m*R). */
    CZD_INLINE czd_mont from_mont() const
    {
        czd_mont one_plain = zero();
        one_plain.v[0] = 1;
        return mul(one_plain, *this); /* a small first factor: any N-limb *this is fine */
    }

    /* a^e for a small public exponent (variable time) */
    static CZD_INLINE czd_mont pow_u64(const czd_mont &a, uint64_t e)
    {
        czd_mont r = one(), b = a;
        while (e) {
            if (e & 1)
                r = mul(r, b);
            e >>= 1;
            if (e)
                b = sqr(b);
        }
        return r;
    }
    /* 1 / a (0 -> 0), variable time: the binary extended Euclid on the
       integers, u = a's Montgomery form aR and v = m, with x1 u0 = u and
       x2 u0 = v (mod m) kept from x1 = R^2, x2 = 0, so that when u reaches
       1, x1 = R^2 / (aR) = a^-1 R, the Montgomery form of 1 / a (R^2 mod m
       a constant of mont.cuh's, no longer 32N doublings of R). About 2
       log2(m) halvings and log2(m) subtractions of N limbs, no product,
       where a^(m - 2) by Fermat was a dependent chain of ~570 products;
       the MSM's affine rounds wait for one inversion a round on one
       thread (msm_affine.cuh's czd_batch_inv): their inversions at 2^27
       took 10.4 ms against Fermat's 15.0 (docs/PERF.md 2026-12-04). In a
       warp the lanes' loops diverge: for per-thread inversions the
       count of iterations is the longest lane's. */
    static __device__ __noinline__ czd_mont inv(const czd_mont &a)
    {
        if (a.is_zero())
            return zero();
        czd_mont x1, x2 = zero(), u = a, v;
        for (int i = 0; i < N; i++) {
            x1.v[i] = P::r2(i);
            v.v[i] = P::p(i);
        }
        while (!limbs_is_one(u) && !limbs_is_one(v)) {
            while (!(u.v[0] & 1)) {
                limbs_shr1(u, 0);
                halve(x1);
            }
            while (!(v.v[0] & 1)) {
                limbs_shr1(v, 0);
                halve(x2);
            }
            if (limbs_geq(u, v)) {
                limbs_sub(u, v);
                x1 = sub(x1, x2);
            } else {
                limbs_sub(v, u);
                x2 = sub(x2, x1);
            }
        }
        return limbs_is_one(u) ? x1 : x2;
    }

    /* plain N-limb integers, for inv */
    static __device__ bool limbs_is_one(const czd_mont &x)
    {
        uint32_t d = x.v[0] ^ 1u;
        for (int i = 1; i < N; i++)
            d |= x.v[i];
        return d == 0;
    }
    static __device__ bool limbs_geq(const czd_mont &x, const czd_mont &y)
    {
        for (int i = N - 1; i >= 0; i--)
            if (x.v[i] != y.v[i])
                return x.v[i] > y.v[i];
        return true;
    }
    static __device__ void limbs_sub(czd_mont &x, const czd_mont &y) /* x -= y, x >= y */
    {
        uint64_t br = 0;
        for (int i = 0; i < N; i++) {
            uint64_t d = (uint64_t)x.v[i] - y.v[i] - br;
            x.v[i] = (uint32_t)d;
            br = d >> 63;
        }
    }
    static __device__ void limbs_shr1(czd_mont &x, uint32_t top) /* top: the bit shifted in */
    {
        for (int i = 0; i < N - 1; i++)
            x.v[i] = (x.v[i] >> 1) | (x.v[i + 1] << 31);
        x.v[N - 1] = (x.v[N - 1] >> 1) | (top << 31);
    }
    /* x / 2 mod m (x < m): x or x + m, whichever is even, halved; x + m
       < 2m fits N limbs plus the carry shifted back in */
    static __device__ void halve(czd_mont &x)
    {
        if (!(x.v[0] & 1)) {
            limbs_shr1(x, 0);
            return;
        }
        uint64_t c = 0;
        for (int i = 0; i < N; i++) {
            c += (uint64_t)x.v[i] + P::p(i);
            x.v[i] = (uint32_t)c;
            c >>= 32;
        }
        limbs_shr1(x, (uint32_t)c);
    }

    CZD_INLINE czd_mont operator+(const czd_mont &b) const { return add(*this, b); }
    CZD_INLINE czd_mont operator-(const czd_mont &b) const { return sub(*this, b); }
    CZD_INLINE czd_mont operator*(const czd_mont &b) const { return mul(*this, b); }
};

typedef czd_mont<czd_fr_params> czd_fr;
typedef czd_mont<czd_fp_params> czd_fp;

/* ---- Fp2 = Fp[u]/(u^2 + 1) over either curve's Fp; layout {c0, c1} as
   the host's cz_fp2 / cz_bn254_fp2 ---- */
template <class B>
struct czd_fp2t {
    static constexpr int DEG = 2;
    typedef B base;
    B c0, c1;
    static CZD_INLINE czd_fp2t zero() { return {B::zero(), B::zero()}; }
    static CZD_INLINE czd_fp2t one() { return {B::one(), B::zero()}; }
    CZD_INLINE bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CZD_INLINE bool eq(const czd_fp2t &b) const { return c0.eq(b.c0) && c1.eq(b.c1); }
    static CZD_INLINE czd_fp2t add(const czd_fp2t &a, const czd_fp2t &b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    static CZD_INLINE czd_fp2t sub(const czd_fp2t &a, const czd_fp2t &b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    static CZD_INLINE czd_fp2t dbl(const czd_fp2t &a) { return add(a, a); }
    static CZD_INLINE czd_fp2t neg(const czd_fp2t &a) { return {B::neg(a.c0), B::neg(a.c1)}; }
    /* Karatsuba: 3 Fp products.
       (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0+a1)(b0+b1) - a0b0 - a1b1) u */
    static CZD_INLINE czd_fp2t mul(const czd_fp2t &a, const czd_fp2t &b)
    {
        B t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
        B t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: 2 Fp products */
    static CZD_INLINE czd_fp2t sqr(const czd_fp2t &a)
    {
        B t = a.c0 * a.c1;
        return {(a.c0 + a.c1) * (a.c0 - a.c1), t + t};
    }
    /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
    static __device__ __noinline__ czd_fp2t inv(const czd_fp2t &a)
    {
        B d = B::inv(a.c0 * a.c0 + a.c1 * a.c1);
        return {a.c0 * d, B::neg(a.c1 * d)};
    }
    CZD_INLINE czd_fp2t operator+(const czd_fp2t &b) const { return add(*this, b); }
    CZD_INLINE czd_fp2t operator-(const czd_fp2t &b) const { return sub(*this, b); }
    CZD_INLINE czd_fp2t operator*(const czd_fp2t &b) const { return mul(*this, b); }
};

typedef czd_fp2t<czd_fp> czd_fp2;

typedef czd_mont<czd_fr254_params> czd_fr254;
typedef czd_mont<czd_fp254_params> czd_fp254;
typedef czd_fp2t<czd_fp254> czd_fp2_254;

static_assert(sizeof(czd_fr) == 32, "czd_fr must be the bytes of cz_fr");
static_assert(sizeof(czd_fp) == 48, "czd_fp must be the bytes of cz_fp");
static_assert(sizeof(czd_fp2) == 96, "czd_fp2 must be the bytes of cz_fp2");
static_assert(sizeof(czd_fr254) == 32 && sizeof(czd_fp254) == 32 && sizeof(czd_fp2_254) == 64,
              "BN254 elements must be the bytes of cz_bn254_fr / fp / fp2");

#endif
