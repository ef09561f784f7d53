/*
 * mont.cuh: the moduli, and the Montgomery product in separated form (a
 * full product, then the reduction), for the device and for the host.
 *
 * DESIGN. field.cuh's czd_mont multiplies in the interleaved (CIOS) form;
 * this is the other form, kept as czd_mont::mul_sos / sqr_sos for
 * bench-fpmul. A product of N-limb numbers (N = 8 or 12, 32-bit limbs) is
 * formed whole, 2N limbs, then reduced (czd_redc): the full product can
 * take one level of Karatsuba (czd_kara_mul: three N/2-limb products, 3N^2/4
 * multiply pairs instead of N^2) and a square can skip the repeated cross
 * products (czd_wide_sqr: N(N+1)/2 pairs). The reduction is N^2 pairs and N
 * single products, as in CIOS. For BLS12-381's Fp: 108 + 144 pairs a
 * product against CIOS's 288, 78 + 144 a square.
 *
 * Measured on the H200 (docs/PERF.md, 2026-12-02): fewer multiply-adds did
 * not make it faster. The time of a product fits 4 cycles an IMAD.WIDE, 2
 * an IMAD and about 0.55 for every other instruction, and this form adds
 * other instructions (Karatsuba's sums and differences, the pending carries)
 * and register moves: the reduction's two chains of a row pair their words
 * (i, i+1) and (i+1, i+2), while IMAD.WIDE needs each (lo, hi) pair in a
 * fixed aligned register pair; CIOS keeps them in two accumulators (even and
 * odd words) for that reason. A faster separated form needs the same two
 * accumulators in the reduction.
 *
 * Every multiply-add chain here is a run of (lo, hi) pairs at word offsets
 * 0, 2, 4, ... from its start (a[2k] * b: pairs that do not overlap, one
 * carry chain; each pair one asm statement, which ptxas turns into one
 * IMAD.WIDE); the odd-offset products of a row are a second chain one word
 * up. A chain's carry out is not rippled through the words above it: it is
 * returned as a word and kept aside ("pending", a few small counts per
 * position), and the pending counts are added in one chain at the end.
 * That is exact: what a chain needs is only its own words, and the
 * reduction's quotient words (positions below N) never have pending
 * carries.
 *
 * The primitives (czd_madpair, czd_add_cc, ...) are one or two PTX
 * instructions on the device, a C emulation of the carry flag on the host
 * (czd_carry holds it there; on the device it is empty and the flag is the
 * hardware's), so tests/mont_emu.cpp runs this file's code on the CPU
 * against the host's field code. As in field.cuh, the instructions are
 * `asm volatile` statements: their order is kept and nvcc puts nothing
 * that touches the carry flag between them.
 */
#ifndef CZ_CUDA_MONT_CUH
#define CZ_CUDA_MONT_CUH

#include <stdint.h>

#ifndef CZD_HD
#ifdef __CUDACC__
#define CZD_HD __host__ __device__ __forceinline__
#else
#define CZD_HD inline
#endif
#endif
/* unrolled on the device; the host compiler does not know the pragma */
#ifndef CZD_UNROLL
#ifdef __CUDA_ARCH__
#define CZD_UNROLL _Pragma("unroll")
#else
#define CZD_UNROLL
#endif
#endif

/* ---- moduli (32-bit limbs of src/field/constants.h) ---- */
struct czd_fr_params {
    static constexpr int BITS = 255; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xffffffffu; /* -r^-1 mod 2^32 */
    static CZD_HD uint32_t p(int j)
    {
        constexpr uint32_t P[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                                   0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
        return P[j];
    }
    static CZD_HD uint32_t one(int j) /* R mod r */
    {
        constexpr uint32_t O[8] = {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
                                   0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u};
        return O[j];
    }
};

struct czd_fp_params {
    static constexpr int BITS = 381; /* the modulus's bit length */
    static constexpr int N = 12;
    static constexpr uint32_t N0 = 0xfffcfffdu; /* -p^-1 mod 2^32 */
    static CZD_HD uint32_t p(int j)
    {
        constexpr uint32_t P[12] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu,
                                    0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, 0x64774b84u,
                                    0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
        return P[j];
    }
    static CZD_HD uint32_t one(int j) /* R mod p */
    {
        constexpr uint32_t O[12] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu,
                                    0x53c758bau, 0x5f489857u, 0x70525745u, 0x77ce5853u,
                                    0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
        return O[j];
    }
};

/* BN254 ("bn128", src/field/bn254_constants.h in 32-bit limbs): both
   moduli are 254-bit, m < 0.19 * 2^256 */
struct czd_fr254_params {
    static constexpr int BITS = 254; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xefffffffu; /* -r^-1 mod 2^32 */
    static CZD_HD uint32_t p(int j)
    {
        constexpr uint32_t P[8] = {0xf0000001u, 0x43e1f593u, 0x79b97091u, 0x2833e848u,
                                   0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u};
        return P[j];
    }
    static CZD_HD uint32_t one(int j) /* R mod r */
    {
        constexpr uint32_t O[8] = {0x4ffffffbu, 0xac96341cu, 0x9f60cd29u, 0x36fc7695u,
                                   0x7879462eu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u};
        return O[j];
    }
};

struct czd_fp254_params {
    static constexpr int BITS = 254; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xe4866389u; /* -p^-1 mod 2^32 */
    static CZD_HD uint32_t p(int j)
    {
        constexpr uint32_t P[8] = {0xd87cfd47u, 0x3c208c16u, 0x6871ca8du, 0x97816a91u,
                                   0x8181585du, 0xb85045b6u, 0xe131a029u, 0x30644e72u};
        return P[j];
    }
    static CZD_HD uint32_t one(int j) /* R mod p */
    {
        constexpr uint32_t O[8] = {0xc58f0d9du, 0xd35d438du, 0xf5c70b3du, 0x0a78eb28u,
                                   0x7879462cu, 0x666ea36fu, 0x9a07df2fu, 0x0e0a77c1u};
        return O[j];
    }
};

/* ---- primitives: one PTX instruction each on the device ---- */
struct czd_carry {
#ifndef __CUDA_ARCH__
    uint32_t c = 0; /* the host's emulated carry flag */
#endif
};

#ifdef __CUDA_ARCH__
#define CZD_ASM3(op, r, a, b) asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b))
#endif

/* a + b, carry out */
static CZD_HD uint32_t czd_add_cc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("add.cc.u32", r, a, b);
#else
    uint64_t s = (uint64_t)a + b;
    f.c = (uint32_t)(s >> 32);
    r = (uint32_t)s;
#endif
    return r;
}
/* a + b + carry, carry out */
static CZD_HD uint32_t czd_addc_cc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("addc.cc.u32", r, a, b);
#else
    uint64_t s = (uint64_t)a + b + f.c;
    f.c = (uint32_t)(s >> 32);
    r = (uint32_t)s;
#endif
    return r;
}
/* a + b + carry (the carry out is dropped: the caller knows it is 0) */
static CZD_HD uint32_t czd_addc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("addc.u32", r, a, b);
#else
    r = a + b + f.c;
#endif
    return r;
}
/* a - b, borrow out */
static CZD_HD uint32_t czd_sub_cc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("sub.cc.u32", r, a, b);
#else
    f.c = a < b;
    r = a - b;
#endif
    return r;
}
/* a - b - borrow, borrow out */
static CZD_HD uint32_t czd_subc_cc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("subc.cc.u32", r, a, b);
#else
    uint64_t d = (uint64_t)a - b - f.c;
    f.c = (uint32_t)(d >> 63);
    r = (uint32_t)d;
#endif
    return r;
}
/* a - b - borrow (the borrow out is dropped: the caller knows it is 0) */
static CZD_HD uint32_t czd_subc(czd_carry &f, uint32_t a, uint32_t b)
{
    uint32_t r;
#ifdef __CUDA_ARCH__
    (void)f;
    CZD_ASM3("subc.u32", r, a, b);
#else
    r = a - b - f.c;
#endif
    return r;
}

/* ---- pairs: (lo, hi) += a b as one asm statement with the pair in place,
   the form ptxas fuses into one IMAD.WIDE (two statements, or separate
   output registers, leave IMAD + IMAD.HI and moves) ---- */
/* (lo, hi) += a b, carry in (FIRST: none) and out; FRESH: hi is written
   (as if it held 0) */
template <bool FIRST, bool FRESH>
static CZD_HD void czd_madpair(czd_carry &f, uint32_t &lo, uint32_t &hi, uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    (void)f;
    if (FIRST && FRESH)
        asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, 0;"
                     : "+r"(lo), "=r"(hi)
                     : "r"(a), "r"(b));
    else if (FIRST)
        asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                     : "+r"(lo), "+r"(hi)
                     : "r"(a), "r"(b));
    else if (FRESH)
        asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, 0;"
                     : "+r"(lo), "=r"(hi)
                     : "r"(a), "r"(b));
    else
        asm volatile("madc.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.cc.u32 %1, %2, %3, %1;"
                     : "+r"(lo), "+r"(hi)
                     : "r"(a), "r"(b));
#else
    const uint64_t p = (uint64_t)a * b;
    uint64_t s = (uint64_t)lo + (uint32_t)p + (FIRST ? 0 : f.c);
    lo = (uint32_t)s;
    s = (s >> 32) + (p >> 32) + (FRESH ? 0 : hi);
    hi = (uint32_t)s;
    f.c = (uint32_t)(s >> 32);
#endif
}
/* (lo, hi) = a b */
static CZD_HD void czd_mulpair(uint32_t &lo, uint32_t &hi, uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    asm("mul.lo.u32 %0, %2, %3;\n\tmul.hi.u32 %1, %2, %3;" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
#else
    const uint64_t p = (uint64_t)a * b;
    lo = (uint32_t)p;
    hi = (uint32_t)(p >> 32);
#endif
}

/* ---- chains ---- */
/* acc[0..2K) += sum_k a[2k] bi 2^(64k) in one carry chain; with FRESH the
   top word acc[2K - 1] holds nothing yet and is written (as if 0). Returns
   the carry out of acc[2K - 1], as a word. */
template <int K, bool FRESH>
static CZD_HD uint32_t czd_chain(uint32_t *acc, const uint32_t *a, uint32_t bi)
{
    czd_carry f;
    czd_madpair<true, K == 1 && FRESH>(f, acc[0], acc[1], a[0], bi);
    CZD_UNROLL
    for (int k = 1; k < K - 1; k++)
        czd_madpair<false, false>(f, acc[2 * k], acc[2 * k + 1], a[2 * k], bi);
    if constexpr (K > 1)
        czd_madpair<false, FRESH>(f, acc[2 * K - 2], acc[2 * K - 1], a[2 * K - 2], bi);
    return czd_addc(f, 0, 0);
}

/* acc[0..2K) = sum_k a[2k] bi 2^(64k): fresh words, no carries */
template <int K>
static CZD_HD void czd_chain_set(uint32_t *acc, const uint32_t *a, uint32_t bi)
{
    CZD_UNROLL
    for (int k = 0; k < K; k++)
        czd_mulpair(acc[2 * k], acc[2 * k + 1], a[2 * k], bi);
}

/* t[LO..HI) += pend[LO..HI) in one chain (the carry out of t[HI - 1] is 0) */
template <int LO, int HI>
static CZD_HD void czd_add_pending(uint32_t *t, const uint32_t *pend)
{
    static_assert(HI - LO >= 2, "a chain of two words or more");
    czd_carry f;
    t[LO] = czd_add_cc(f, t[LO], pend[LO]);
    CZD_UNROLL
    for (int k = LO + 1; k < HI - 1; k++)
        t[k] = czd_addc_cc(f, t[k], pend[k]);
    t[HI - 1] = czd_addc(f, t[HI - 1], pend[HI - 1]);
}

/* r[0..2H) = a b (H limbs each, H even): a row for each b_i, its even
   products a chain at word i, its odd ones a chain at word i + 1 */
template <int H>
static CZD_HD void czd_wide_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    static_assert(H % 2 == 0 && H >= 2, "H limbs, H even");
    constexpr int K = H / 2;
    uint32_t pend[2 * H + 1];
    CZD_UNROLL
    for (int k = 0; k <= 2 * H; k++)
        pend[k] = 0;
    czd_chain_set<K>(r, a, b[0]);                              /* words 0..H-1 */
    pend[H + 1] += czd_chain<K, true>(r + 1, a + 1, b[0]);     /* 1..H */
    CZD_UNROLL
    for (int i = 1; i < H; i++) {
        pend[i + H] += czd_chain<K, false>(r + i, a, b[i]);         /* i..i+H-1 */
        pend[i + H + 1] += czd_chain<K, true>(r + i + 1, a + 1, b[i]); /* i+1..i+H */
    }
    /* pend[2H] is 0: a b < 2^(64H) */
    czd_add_pending<H + 1, 2 * H>(r, pend);
}

/* one row of czd_wide_sqr's cross products and the rows after it: row I
   adds a_I a_j (j = I+1..N-1) at word I+j in two chains, E (j = I+1,
   I+3, ..: word 2I+1, ceil(L/2) pairs) and F (j = I+2, ..: word 2I+2,
   floor(L/2) pairs), L = N-1-I; the one that reaches word I+N finds it
   fresh (E for even I, F for odd I) */
template <int N, int I>
struct czd_sqr_rows {
    static CZD_HD void run(uint32_t *r, uint32_t *pend, const uint32_t *a)
    {
        constexpr int L = N - 1 - I, KE = (L + 1) / 2, KF = L / 2;
        pend[2 * I + 1 + 2 * KE] += czd_chain<KE, I % 2 == 0>(r + 2 * I + 1, a + I + 1, a[I]);
        if constexpr (KF > 0)
            pend[2 * I + 2 + 2 * KF] += czd_chain<KF, I % 2 == 1>(r + 2 * I + 2, a + I + 2, a[I]);
        czd_sqr_rows<N, I + 1>::run(r, pend, a);
    }
};
template <int N>
struct czd_sqr_rows<N, N - 1> {
    static CZD_HD void run(uint32_t *, uint32_t *, const uint32_t *) {}
};

/* r[0..2N) = a^2 (N even): the cross products a_i a_j (i < j) by rows,
   doubled, plus the squares a_i^2 */
template <int N>
static CZD_HD void czd_wide_sqr(uint32_t *r, const uint32_t *a)
{
    static_assert(N % 2 == 0 && N >= 4, "N limbs, N even");
    uint32_t pend[2 * N + 1];
    CZD_UNROLL
    for (int k = 0; k <= 2 * N; k++)
        pend[k] = 0;
    r[0] = 0;
    r[2 * N - 1] = 0;
    /* row 0: a_0 a_j, j = 1, 3, ..: fresh words 1..N; j = 2, 4, ..: 2..N-1 */
    czd_chain_set<N / 2>(r + 1, a + 1, a[0]);
    pend[N] += czd_chain<(N - 2) / 2, false>(r + 2, a + 2, a[0]);
    czd_sqr_rows<N, 1>::run(r, pend, a);
    /* the cross products sum to < 2^(64N-1): pend[2N] is 0 */
    czd_add_pending<N, 2 * N>(r, pend);
    /* r = 2 r + sum a_i^2 2^(64i) */
    czd_carry f;
    r[0] = czd_add_cc(f, r[0], r[0]);
    CZD_UNROLL
    for (int k = 1; k < 2 * N - 1; k++)
        r[k] = czd_addc_cc(f, r[k], r[k]);
    r[2 * N - 1] = czd_addc(f, r[2 * N - 1], r[2 * N - 1]);
    czd_madpair<true, false>(f, r[0], r[1], a[0], a[0]);
    CZD_UNROLL
    for (int i = 1; i < N; i++) /* the last carry out is 0 */
        czd_madpair<false, false>(f, r[2 * i], r[2 * i + 1], a[i], a[i]);
}

/* t[0..2N) = a b, one level of Karatsuba: a = a0 + a1 X, b = b0 + b1 X
   (X = 2^(32H), H = N/2), a b = P0 + (P1 - P0 - P2) X + P2 X^2 with P0 =
   a0 b0, P2 = a1 b1, P1 = (a0 + a1)(b0 + b1); the sums' carry bits ca, cb
   are added as masked words: P1 = s_a s_b + (ca s_b + cb s_a) X + ca cb X^2 */
template <int N>
static CZD_HD void czd_kara_mul(uint32_t *t, const uint32_t *a, const uint32_t *b)
{
    constexpr int H = N / 2;
    czd_wide_mul<H>(t, a, b);
    czd_wide_mul<H>(t + N, a + H, b + H);
    uint32_t sa[H], sb[H], ca, cb, p1[N + 1];
    {
        czd_carry f;
        sa[0] = czd_add_cc(f, a[0], a[H]);
        CZD_UNROLL
        for (int k = 1; k < H; k++)
            sa[k] = czd_addc_cc(f, a[k], a[H + k]);
        ca = czd_addc(f, 0, 0);
    }
    {
        czd_carry f;
        sb[0] = czd_add_cc(f, b[0], b[H]);
        CZD_UNROLL
        for (int k = 1; k < H; k++)
            sb[k] = czd_addc_cc(f, b[k], b[H + k]);
        cb = czd_addc(f, 0, 0);
    }
    czd_wide_mul<H>(p1, sa, sb);
    const uint32_t ma = 0u - ca, mb = 0u - cb;
    {
        czd_carry f;
        p1[H] = czd_add_cc(f, p1[H], sb[0] & ma);
        CZD_UNROLL
        for (int k = 1; k < H; k++)
            p1[H + k] = czd_addc_cc(f, p1[H + k], sb[k] & ma);
        p1[N] = czd_addc(f, ca & cb, 0);
    }
    {
        czd_carry f;
        p1[H] = czd_add_cc(f, p1[H], sa[0] & mb);
        CZD_UNROLL
        for (int k = 1; k < H; k++)
            p1[H + k] = czd_addc_cc(f, p1[H + k], sa[k] & mb);
        p1[N] = czd_addc(f, p1[N], 0);
    }
    /* p1 - P0 - P2 = a0 b1 + a1 b0 < 2^(64H+1) */
    CZD_UNROLL
    for (int s = 0; s < 2; s++) {
        czd_carry f;
        p1[0] = czd_sub_cc(f, p1[0], t[s * N]);
        CZD_UNROLL
        for (int k = 1; k < N; k++)
            p1[k] = czd_subc_cc(f, p1[k], t[s * N + k]);
        p1[N] = czd_subc(f, p1[N], 0);
    }
    /* t += (p1 - P0 - P2) X: words H..H+N, the carry on to word 2N-1 */
    {
        czd_carry f;
        t[H] = czd_add_cc(f, t[H], p1[0]);
        CZD_UNROLL
        for (int k = 1; k <= N; k++)
            t[H + k] = czd_addc_cc(f, t[H + k], p1[k]);
        CZD_UNROLL
        for (int k = H + N + 1; k < 2 * N - 1; k++)
            t[k] = czd_addc_cc(f, t[k], 0);
        t[2 * N - 1] = czd_addc(f, t[2 * N - 1], 0);
    }
}

/* Montgomery's reduction: out = t 2^(-32N) mod m, out < 2m, for t < m
   2^(32N) (2N words, used as scratch). Row i: q = t_i n0 and t += q m 2^(32i)
   in two chains (m's even and odd words); the carries out wait in pend. */
template <class P>
static CZD_HD void czd_redc(uint32_t *out, uint32_t *t)
{
    constexpr int N = P::N, K = N / 2;
    uint32_t m[N], pend[2 * N + 1];
    CZD_UNROLL
    for (int j = 0; j < N; j++)
        m[j] = P::p(j);
    CZD_UNROLL
    for (int k = 0; k <= 2 * N; k++)
        pend[k] = 0;
    CZD_UNROLL
    for (int i = 0; i < N; i++) {
        const uint32_t q = t[i] * P::N0;
        pend[i + N] += czd_chain<K, false>(t + i, m, q);
        pend[i + N + 1] += czd_chain<K, false>(t + i + 1, m + 1, q);
    }
    /* t + q m < 2m 2^(32N) < 2^(64N): pend[2N] is 0, and so is the carry
       out of the last word */
    czd_add_pending<N, 2 * N>(t, pend);
    CZD_UNROLL
    for (int j = 0; j < N; j++)
        out[j] = t[N + j];
}

/* out = t - m if t >= m else t (t < 2m) */
template <class P>
static CZD_HD void czd_reduce_once(uint32_t *out, const uint32_t *t)
{
    constexpr int N = P::N;
    uint32_t d[N], borrow;
    czd_carry f;
    d[0] = czd_sub_cc(f, t[0], P::p(0));
    CZD_UNROLL
    for (int i = 1; i < N; i++)
        d[i] = czd_subc_cc(f, t[i], P::p(i));
    borrow = czd_subc(f, 0, 0);
    CZD_UNROLL
    for (int i = 0; i < N; i++)
        out[i] = borrow ? t[i] : d[i];
}

/* the Montgomery product a b 2^(-32N) mod m and square, fully reduced
   (a, b < m) */
template <class P>
static CZD_HD void czd_mont_mul(uint32_t *out, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[2 * P::N], u[P::N];
    czd_kara_mul<P::N>(t, a, b);
    czd_redc<P>(u, t);
    czd_reduce_once<P>(out, u);
}
template <class P>
static CZD_HD void czd_mont_sqr(uint32_t *out, const uint32_t *a)
{
    uint32_t t[2 * P::N], u[P::N];
    czd_wide_sqr<P::N>(t, a);
    czd_redc<P>(u, t);
    czd_reduce_once<P>(out, u);
}

#endif
