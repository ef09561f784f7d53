/*
 * mont.cuh: the moduli, and the Montgomery product in separated form (a
 * full product, then the reduction), for the device and for the host.
 *
 * DESIGN. field.cuh's czd_mont multiplies in the interleaved (CIOS) form;
 * this is the other form, kept as czd_mont::mul_sos / sqr_sos and
 * czd_mont_mul2 for bench-fpmul until an MSM-level A/B picks them. A
 * product of N-limb numbers (N = 8 or 12, 32-bit limbs) is formed whole, 2N
 * limbs, then reduced (czd_redc): the full product can take one level of
 * Karatsuba (czd_kara_mul: three N/2-limb products, 3N^2/4 multiply pairs
 * instead of N^2), a square can skip the repeated cross products
 * (czd_wide_sqr: N(N+1)/2 pairs), and Fp2's product can reduce twice
 * instead of three times (czd_mont_mul2). The reduction is N^2 pairs and N
 * single products, as in CIOS.
 *
 * Cost (H200, docs/PERF.md 2026-12-02): a product's time fits 4 cycles an
 * IMAD.WIDE, 2 an IMAD and ~0.55 every other instruction, so multiplies
 * saved only pay where few other instructions come with them. An IMAD.WIDE
 * needs its (lo, hi) in a fixed aligned register pair: every accumulator
 * here takes the chains of one parity of first word only (czd_wide_mul's
 * e / o, the square's x / y, the reduction's two CIOS-like accumulators
 * that swap roles each row); a first version that mixed them spent a third
 * of its instructions on moves. Measured in bench-fpmul: the square 9-14 %
 * faster than CIOS's a * a, Fp2's product 15 % faster than three CIOS
 * products, Karatsuba 1 % slower than CIOS (its sums cost what it saves),
 * and XYZZ's addition with the new square 4 % slower than without (the
 * chain kernels do not tell the whole story: decide inside the MSM).
 *
 * Every multiply-add chain here is a run of (lo, hi) pairs at word offsets
 * 0, 2, 4, ... from its start (a[2k] * b: pairs that do not overlap, one
 * carry chain; each pair one asm statement, which ptxas turns into one
 * IMAD.WIDE); the odd-offset products of a row are a second chain one word
 * up. In the full products a chain's carry out is not rippled through the
 * words above it: it is added into a count kept aside ("pending", a few
 * small counts per position), added with the accumulators' sum at the end;
 * exact, since a chain needs only its own words.
 *
 * The primitives (czd_madpair, czd_add_cc, ...) are one or two PTX
 * instructions on the device, a C emulation of the carry flag on the host
 * (czd_carry holds it there; on the device it is empty and the flag is the
 * hardware's), so tests/mont_emu.cpp runs this file's code on the CPU
 * against the host's field code; the emulation also stops where a chain
 * reads the flag after another chain wrote it (the device has one flag:
 * two chains must not interleave). As in field.cuh, the instructions are
 * `asm volatile` statements: their order is kept and nvcc puts nothing
 * that touches the carry flag between them.
 */
#ifndef CZ_CUDA_MONT_CUH
#define CZ_CUDA_MONT_CUH

#include <stdint.h>

#include "hostdev.cuh"

/* ---- moduli (32-bit limbs of src/field/constants.h) ---- */
struct czd_fr_params {
    static constexpr int BITS = 255; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xffffffffu; /* -r^-1 mod 2^32 */
    /* the low 64 bits of r are 2^64 - 2^32 + 1 (limbs 1 and 2^32 - 1):
       field.cuh's reduction forms q * r's low words with additions */
    static constexpr bool LOW64 = true;
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
    static CZD_HD uint32_t r2(int j) /* R^2 mod the modulus (field.cuh's inv) */
    {
        constexpr uint32_t S[8] = {0xf3f29c6du, 0xc999e990u, 0x87925c23u, 0x2b6cedcbu,
                                   0x7254398fu, 0x05d31496u, 0x9f59ff11u, 0x0748d9d9u};
        return S[j];
    }
};

struct czd_fp_params {
    static constexpr int BITS = 381; /* the modulus's bit length */
    static constexpr int N = 12;
    static constexpr uint32_t N0 = 0xfffcfffdu; /* -p^-1 mod 2^32 */
    static constexpr bool LOW64 = false;
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
    static CZD_HD uint32_t r2(int j) /* R^2 mod the modulus (field.cuh's inv) */
    {
        constexpr uint32_t S[12] = {0x1c341746u, 0xf4df1f34u, 0x09d104f1u, 0x0a76e6a6u,
                                    0x4c95b6d5u, 0x8de5476cu, 0x939d83c0u, 0x67eb88a9u,
                                    0xb519952du, 0x9a793e85u, 0x92cae3aau, 0x11988fe5u};
        return S[j];
    }
    static CZD_HD uint32_t p2(int j) /* p^2, 24 words (czd_mont_mul2) */
    {
        constexpr uint32_t Q[24] = {0x1c718e39u, 0x26aa0000u, 0x76382eabu, 0x7ced6b1du, 0x62113cfdu, 0x162c3383u,
                                    0x3e71b743u, 0x66bf91edu, 0x7091a049u, 0x292e85a8u, 0x86185c7bu, 0x1d68619cu,
                                    0x0978ef01u, 0xf5314933u, 0x16ddca6eu, 0x50a62cfdu, 0x349e8bd0u, 0x66e59e49u,
                                    0x0e7046b4u, 0xe2dc90e5u, 0xa22f25e9u, 0x4bd278eau, 0xb8c35fc7u, 0x02a437a4u};
        return Q[j];
    }
};

/* BN254 ("bn128", src/field/bn254_constants.h in 32-bit limbs): both
   moduli are 254-bit, m < 0.19 * 2^256 */
struct czd_fr254_params {
    static constexpr int BITS = 254; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xefffffffu; /* -r^-1 mod 2^32 */
    static constexpr bool LOW64 = false;
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
    static CZD_HD uint32_t r2(int j) /* R^2 mod the modulus (field.cuh's inv) */
    {
        constexpr uint32_t S[8] = {0xae216da7u, 0x1bb8e645u, 0xe35c59e3u, 0x53fe3ab1u,
                                   0x53bb8085u, 0x8c49833du, 0x7f4e44a5u, 0x0216d0b1u};
        return S[j];
    }
};

struct czd_fp254_params {
    static constexpr int BITS = 254; /* the modulus's bit length */
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xe4866389u; /* -p^-1 mod 2^32 */
    static constexpr bool LOW64 = false;
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
    static CZD_HD uint32_t r2(int j) /* R^2 mod the modulus (field.cuh's inv) */
    {
        constexpr uint32_t S[8] = {0x538afa89u, 0xf32cfc5bu, 0xd44501fbu, 0xb5e71911u,
                                   0x0a417ff6u, 0x47ab1effu, 0xcab8351fu, 0x06d89f71u};
        return S[j];
    }
    static CZD_HD uint32_t p2(int j) /* p^2, 16 words (czd_mont_mul2) */
    {
        constexpr uint32_t Q[16] = {0x275d69b1u, 0x3b5458a2u, 0x09eac101u, 0xa602072du, 0x6d96cadcu, 0x4a50189cu,
                                    0x7a1242c8u, 0x04689e95u, 0x34c6b38du, 0x26edfa5cu, 0x16375606u, 0xb00b8551u,
                                    0x0348d21cu, 0x599a6f7cu, 0x763cbf9cu, 0x0925c4b8u};
        return Q[j];
    }
};

/* ---- primitives: one PTX instruction each on the device ---- */
#ifndef __CUDA_ARCH__
#include <stdio.h>
#include <stdlib.h>
/* serial numbers of the host's chains (czd_carry) */
static inline uint64_t czd_cc_next()
{
    static thread_local uint64_t n = 0;
    return ++n;
}
#endif

struct czd_carry {
#ifndef __CUDA_ARCH__
    uint32_t c = 0;             /* the host's emulated carry flag */
    uint64_t id = czd_cc_next(); /* which chain */
#endif
};

#ifndef __CUDA_ARCH__
/* The device has one carry flag: two chains must not interleave. The
   emulation keeps which chain wrote the flag last and stops at a carry-in
   of any other (a chain that reads the flag after another one wrote it). */
static inline uint64_t &czd_cc_owner()
{
    static thread_local uint64_t owner = 0;
    return owner;
}
static inline void czd_cc_write(const czd_carry &f) { czd_cc_owner() = f.id; }
static inline void czd_cc_read(const czd_carry &f)
{
    if (czd_cc_owner() != f.id) {
        fprintf(stderr, "mont.cuh: a carry chain read the flag after another chain wrote it\n");
        abort();
    }
}
#endif

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
    czd_cc_write(f);
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
    czd_cc_read(f);
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
    czd_cc_read(f);
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
    czd_cc_write(f);
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
    czd_cc_read(f);
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
    czd_cc_read(f);
    r = a - b - f.c;
#endif
    return r;
}

/* ---- pairs: (lo, hi) += a b as one asm statement with the pair in place,
   the form ptxas fuses into one IMAD.WIDE (two statements, or separate
   output registers, leave IMAD + IMAD.HI and moves) ---- */
/* (lo, hi) += a b, carry in (FIRST: none) and out. FRESH: 0, both words
   hold a value; 1, hi holds nothing yet (taken as 0); 2, neither does. */
template <bool FIRST, int FRESH>
static CZD_HD void czd_madpair(czd_carry &f, uint32_t &lo, uint32_t &hi, uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    (void)f;
#define CZD_MADPAIR(LO, LOC, HIC, LOIN, HIIN)                                                   \
    asm volatile(LO ".u32 %0, %2, %3, " LOIN ";\n\tmadc.hi.cc.u32 %1, %2, %3, " HIIN ";"      \
                 : LOC(lo), HIC(hi)                                                            \
                 : "r"(a), "r"(b))
    if (FIRST && FRESH == 0)
        CZD_MADPAIR("mad.lo.cc", "+r", "+r", "%0", "%1");
    else if (FIRST && FRESH == 1)
        CZD_MADPAIR("mad.lo.cc", "+r", "=r", "%0", "0");
    else if (FIRST)
        CZD_MADPAIR("mad.lo.cc", "=r", "=r", "0", "0");
    else if (FRESH == 0)
        CZD_MADPAIR("madc.lo.cc", "+r", "+r", "%0", "%1");
    else if (FRESH == 1)
        CZD_MADPAIR("madc.lo.cc", "+r", "=r", "%0", "0");
    else
        CZD_MADPAIR("madc.lo.cc", "=r", "=r", "0", "0");
#undef CZD_MADPAIR
#else
    if (!FIRST)
        czd_cc_read(f);
    const uint64_t p = (uint64_t)a * b;
    uint64_t s = (uint64_t)(FRESH == 2 ? 0 : lo) + (uint32_t)p + (FIRST ? 0 : f.c);
    lo = (uint32_t)s;
    s = (s >> 32) + (p >> 32) + (FRESH >= 1 ? 0 : hi);
    hi = (uint32_t)s;
    f.c = (uint32_t)(s >> 32);
    czd_cc_write(f);
#endif
}
/* (lo, hi) = (c0, c1) + a b + carry in, carry out (LAST: c0 = c1 = 0 and
   no carry out, which the caller's bounds exclude): the reduction's
   shifting chain, whose outputs are the words two up of its inputs */
template <bool LAST>
static CZD_HD void czd_madpair_to(czd_carry &f, uint32_t &lo, uint32_t &hi, uint32_t a, uint32_t b,
                                  uint32_t c0, uint32_t c1)
{
#ifdef __CUDA_ARCH__
    (void)f;
    if (LAST)
        asm volatile("madc.lo.cc.u32 %0, %2, %3, 0;\n\tmadc.hi.u32 %1, %2, %3, 0;"
                     : "=r"(lo), "=r"(hi)
                     : "r"(a), "r"(b));
    else
        asm volatile("madc.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.cc.u32 %1, %2, %3, %5;"
                     : "=r"(lo), "=r"(hi)
                     : "r"(a), "r"(b), "r"(c0), "r"(c1));
#else
    czd_cc_read(f);
    const uint64_t p = (uint64_t)a * b;
    uint64_t s = (uint64_t)(LAST ? 0 : c0) + (uint32_t)p + f.c;
    lo = (uint32_t)s;
    s = (s >> 32) + (p >> 32) + (LAST ? 0 : c1);
    hi = (uint32_t)s;
    f.c = (uint32_t)(s >> 32);
    czd_cc_write(f);
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
/* acc[0..2K) += sum_k a[2k] bi 2^(64k) in one carry chain, the carry
   out of acc[2K - 1] added into dst; FRESH (as czd_madpair's) says what
   the top pair holds */
template <int K, int FRESH>
static CZD_HD void czd_chain_into(uint32_t *acc, const uint32_t *a, uint32_t bi, uint32_t &dst)
{
    czd_carry f;
    czd_madpair<true, K == 1 ? FRESH : 0>(f, acc[0], acc[1], a[0], bi);
    CZD_UNROLL
    for (int k = 1; k < K - 1; k++)
        czd_madpair<false, 0>(f, acc[2 * k], acc[2 * k + 1], a[2 * k], bi);
    if constexpr (K > 1)
        czd_madpair<false, FRESH>(f, acc[2 * K - 2], acc[2 * K - 1], a[2 * K - 2], bi);
    dst = czd_addc(f, dst, 0);
}

/* acc[0..2K) = sum_k a[2k] bi 2^(64k): fresh words, no carries */
template <int K>
static CZD_HD void czd_chain_set(uint32_t *acc, const uint32_t *a, uint32_t bi)
{
    CZD_UNROLL
    for (int k = 0; k < K; k++)
        czd_mulpair(acc[2 * k], acc[2 * k + 1], a[2 * k], bi);
}

/* r = x + y over K words (r may be x or y); returns the carry out */
template <int K>
static CZD_HD uint32_t czd_add_words(uint32_t *r, const uint32_t *x, const uint32_t *y)
{
    czd_carry f;
    r[0] = czd_add_cc(f, x[0], y[0]);
    CZD_UNROLL
    for (int k = 1; k < K; k++)
        r[k] = czd_addc_cc(f, x[k], y[k]);
    return czd_addc(f, 0, 0);
}
/* r = x - y over K words (r may be x or y); returns the borrow out as a
   mask (0 or all ones) */
template <int K>
static CZD_HD uint32_t czd_sub_words(uint32_t *r, const uint32_t *x, const uint32_t *y)
{
    czd_carry f;
    r[0] = czd_sub_cc(f, x[0], y[0]);
    CZD_UNROLL
    for (int k = 1; k < K; k++)
        r[k] = czd_subc_cc(f, x[k], y[k]);
    return czd_subc(f, 0, 0);
}

/* r[k] = x[k] + y[k] + z[k] for k in [LO, HI) (the carry out of r[HI - 1] is 0;
   r may be x) */
template <int LO, int HI>
static CZD_HD void czd_add3(uint32_t *r, const uint32_t *x, const uint32_t *y, const uint32_t *z)
{
    static_assert(HI - LO >= 2, "a chain of two words or more");
    czd_carry f, g;
    r[LO] = czd_add_cc(f, x[LO], y[LO]);
    CZD_UNROLL
    for (int k = LO + 1; k < HI - 1; k++)
        r[k] = czd_addc_cc(f, x[k], y[k]);
    r[HI - 1] = czd_addc(f, x[HI - 1], y[HI - 1]);
    r[LO] = czd_add_cc(g, r[LO], z[LO]);
    CZD_UNROLL
    for (int k = LO + 1; k < HI - 1; k++)
        r[k] = czd_addc_cc(g, r[k], z[k]);
    r[HI - 1] = czd_addc(g, r[HI - 1], z[HI - 1]);
}

/* r[0..2N) = a b (N limbs each, N even). Two accumulators by the parity
   of a chain's first word, e (even) and o (odd), indexed by word, so that
   every (lo, hi) pair keeps its registers: row i adds a_j b_i at word i + j,
   a chain of the even words to e and one of the odd words to o; a chain
   that starts where none did before finds its top pair fresh. Carries out
   wait in pend; r = e + o + pend at the end. */
template <int N>
static CZD_HD void czd_wide_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    static_assert(N % 2 == 0 && N >= 2, "N limbs, N even");
    constexpr int K = N / 2;
    uint32_t e[2 * N], o[2 * N], pend[2 * N + 1];
    CZD_UNROLL
    for (int k = 0; k <= 2 * N; k++)
        pend[k] = 0;
    czd_chain_set<K>(e, a, b[0]);         /* words 0..N-1 */
    czd_chain_set<K>(o + 1, a + 1, b[0]); /* words 1..N */
    CZD_UNROLL
    for (int i = 1; i < N; i++) {
        if (i % 2) { /* e: a_odd at i+1 (a new start), o: a_even at i (again) */
            czd_chain_into<K, 2>(e + i + 1, a + 1, b[i], pend[i + 1 + N]);
            czd_chain_into<K, 0>(o + i, a, b[i], pend[i + N]);
        } else { /* e: a_even at i (again), o: a_odd at i+1 (new) */
            czd_chain_into<K, 0>(e + i, a, b[i], pend[i + N]);
            czd_chain_into<K, 2>(o + i + 1, a + 1, b[i], pend[i + 1 + N]);
        }
    }
    /* o never reaches words 0 and 2N-1; a b < 2^(64N): pend[2N] is 0 */
    o[0] = 0;
    o[2 * N - 1] = 0;
    czd_add3<0, 2 * N>(r, e, o, pend);
}

/* one row of czd_wide_sqr's cross products and the rows after it: row I
   adds a_I a_j (j = I+1..N-1) at word I+j, the odd words (j = I+1, I+3,
   ..: from 2I+1, ceil(L/2) pairs) as a chain to y, the even ones (j = I+2,
   ..: from 2I+2, floor(L/2) pairs) to x, L = N-1-I; a chain past the
   words written before finds its top pair fresh (x for odd I, y for even
   I) */
template <int N, int I>
struct czd_sqr_rows {
    static CZD_HD void run(uint32_t *x, uint32_t *y, uint32_t *pend, const uint32_t *a)
    {
        constexpr int L = N - 1 - I, KY = (L + 1) / 2, KX = L / 2;
        czd_chain_into<KY, I % 2 == 0 ? 2 : 0>(y + 2 * I + 1, a + I + 1, a[I], pend[2 * I + 1 + 2 * KY]);
        if constexpr (KX > 0)
            czd_chain_into<KX, I % 2 == 1 ? 2 : 0>(x + 2 * I + 2, a + I + 2, a[I], pend[2 * I + 2 + 2 * KX]);
        czd_sqr_rows<N, I + 1>::run(x, y, pend, a);
    }
};
template <int N>
struct czd_sqr_rows<N, N - 1> {
    static CZD_HD void run(uint32_t *, uint32_t *, uint32_t *, const uint32_t *) {}
};

/* r[0..2N) = a^2 (N even): the cross products a_i a_j (i < j) once, in
   two accumulators as czd_wide_mul's, summed and doubled, plus the squares
   a_i^2 */
template <int N>
static CZD_HD void czd_wide_sqr(uint32_t *r, const uint32_t *a)
{
    static_assert(N % 2 == 0 && N >= 4, "N limbs, N even");
    uint32_t x[2 * N], y[2 * N], pend[2 * N + 1];
    CZD_UNROLL
    for (int k = 0; k <= 2 * N; k++)
        pend[k] = 0;
    /* row 0: a_0 a_j, j = 1, 3, ..: fresh words 1..N of y; j = 2, 4, ..:
       fresh words 2..N-1 of x */
    czd_chain_set<N / 2>(y + 1, a + 1, a[0]);
    czd_chain_set<(N - 2) / 2>(x + 2, a + 2, a[0]);
    czd_sqr_rows<N, 1>::run(x, y, pend, a);
    /* words the chains do not reach (x: 0, 1, 2N-2, 2N-1; y: 0, 2N-1) */
    x[0] = x[1] = x[2 * N - 2] = x[2 * N - 1] = 0;
    y[0] = y[2 * N - 1] = 0;
    /* the cross products sum to < 2^(64N-1): pend[2N] is 0 */
    czd_add3<0, 2 * N>(r, x, y, pend);
    /* r = 2 r + sum a_i^2 2^(64i) */
    czd_carry f;
    r[0] = czd_add_cc(f, r[0], r[0]);
    CZD_UNROLL
    for (int k = 1; k < 2 * N - 1; k++)
        r[k] = czd_addc_cc(f, r[k], r[k]);
    r[2 * N - 1] = czd_addc(f, r[2 * N - 1], r[2 * N - 1]);
    czd_madpair<true, 0>(f, r[0], r[1], a[0], a[0]);
    CZD_UNROLL
    for (int i = 1; i < N; i++) /* the last carry out is 0 */
        czd_madpair<false, 0>(f, r[2 * i], r[2 * i + 1], a[i], a[i]);
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
    uint32_t sa[H], sb[H], p1[N + 1];
    const uint32_t ca = czd_add_words<H>(sa, a, a + H), cb = czd_add_words<H>(sb, b, b + H);
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

/* one row of czd_redc: (u aligned, its word 0 just made 0; v one word
   up) -> the next quotient's multiples added, v aligned, u one word up */
template <class P>
static CZD_HD void czd_redc_row(uint32_t *u, uint32_t *v, const uint32_t *m)
{
    constexpr int N = P::N, K = N / 2;
    czd_carry f;
    v[0] = czd_add_cc(f, v[0], u[1]); /* its carry rides into the shifting chain */
    const uint32_t q = v[0] * P::N0;
    CZD_UNROLL
    for (int j = 0; j < N - 2; j += 2) /* u >> 64 + m_odd q, one word up */
        czd_madpair_to<false>(f, u[j], u[j + 1], m[j + 1], q, u[j + 2], u[j + 3]);
    czd_madpair_to<true>(f, u[N - 2], u[N - 1], m[N - 1], q, 0, 0);
    czd_chain_into<K, 0>(v, m, q, u[N - 1]); /* v + m_even q, aligned */
}

/* Montgomery's reduction: out = t 2^(-32N) mod m, out < 2m, for t < m
   2^(32N) (2N words). REDC(t) = REDC(t_lo) + t_hi, and REDC(t_lo) runs as
   CIOS's reduction half with two accumulators that keep their pairs
   (field.cuh's czd_mont::mul): each row a quotient q from the aligned
   accumulator's word 0, m_even q added to it and m_odd q to the other
   shifted down two words, the roles swapped. */
template <class P>
static CZD_HD void czd_redc(uint32_t *out, const uint32_t *t)
{
    constexpr int N = P::N, K = N / 2;
    static_assert(N % 2 == 0, "N even");
    uint32_t m[N], e[N], o[N], u[N];
    CZD_UNROLL
    for (int j = 0; j < N; j++) {
        m[j] = P::p(j);
        e[j] = t[j];
    }
    /* row 0: e aligned, o one word up */
    const uint32_t q = e[0] * P::N0;
    czd_chain_set<K>(o, m + 1, q);
    czd_chain_into<K, 0>(e, m, q, o[N - 1]);
    CZD_UNROLL
    for (int i = 1; i < N; i++) {
        if (i % 2)
            czd_redc_row<P>(e, o, m); /* o aligned, e up */
        else
            czd_redc_row<P>(o, e, m);
    }
    /* N even: o aligned with o[0] = 0, e one word up: t_lo's REDC is
       e + o >> 32 (< m + 1); plus t_hi (< m) */
    czd_carry f;
    u[0] = czd_add_cc(f, e[0], o[1]);
    CZD_UNROLL
    for (int j = 1; j < N - 1; j++)
        u[j] = czd_addc_cc(f, e[j], o[j + 1]);
    u[N - 1] = czd_addc(f, e[N - 1], 0);
    czd_carry g;
    out[0] = czd_add_cc(g, u[0], t[N]);
    CZD_UNROLL
    for (int j = 1; j < N - 1; j++)
        out[j] = czd_addc_cc(g, u[j], t[N + j]);
    out[N - 1] = czd_addc(g, u[N - 1], t[2 * N - 1]);
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

/* Fp2's product, (a0 + a1 u)(b0 + b1 u) with u^2 = -1, with two
   reductions instead of three: c0 = REDC(a0 b0 - a1 b1, plus p^2 where that
   is negative), c1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1), the sums not
   reduced (< 2p < 2^(32N)) so that c1's input is a0 b1 + a1 b0 < 2p^2 <
   p 2^(32N) exactly. Inputs < p; P needs p2 (the Fp moduli). */
template <class P>
static CZD_HD void czd_mont_mul2(uint32_t *c0, uint32_t *c1, const uint32_t *a0, const uint32_t *a1,
                                 const uint32_t *b0, const uint32_t *b1)
{
    constexpr int N = P::N;
    uint32_t sa[N], sb[N], t0[2 * N], t1[2 * N], t2[2 * N], u[N];
    /* one chain after the other (the device has one carry flag); no carry
       out: the sums are < 2p < 2^(32N) */
    czd_add_words<N>(sa, a0, a1);
    czd_add_words<N>(sb, b0, b1);
    czd_wide_mul<N>(t0, a0, b0);
    czd_wide_mul<N>(t1, a1, b1);
    czd_wide_mul<N>(t2, sa, sb);
    /* t2 -= t0 + t1 (no borrow: the result is a0 b1 + a1 b0), then t0 -= t1
       (+ p^2 on a borrow) */
    czd_sub_words<2 * N>(t2, t2, t0);
    czd_sub_words<2 * N>(t2, t2, t1);
    const uint32_t borrow = czd_sub_words<2 * N>(t0, t0, t1);
    {
        czd_carry f;
        t0[0] = czd_add_cc(f, t0[0], P::p2(0) & borrow);
        CZD_UNROLL
        for (int k = 1; k < 2 * N - 1; k++)
            t0[k] = czd_addc_cc(f, t0[k], P::p2(k) & borrow);
        t0[2 * N - 1] = czd_addc(f, t0[2 * N - 1], P::p2(2 * N - 1) & borrow);
    }
    czd_redc<P>(u, t0);
    czd_reduce_once<P>(c0, u);
    czd_redc<P>(u, t2);
    czd_reduce_once<P>(c1, u);
}

#endif
