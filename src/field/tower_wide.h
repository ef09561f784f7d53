/*
 * tower_wide.h: lazy-reduction kernels shared by fp6_impl.h and fp12_impl.h
 * (private to the field layer; static inline), for both curves: the
 * including file defines the macros of fp6_impl.h, TW_P (p's limbs) and
 * TW_XI_C0 (xi = TW_XI_C0 + u: 1 for BLS12-381, 9 for BN254).
 *
 * DESIGN. Products of Fp2 elements are kept as 2N-word integers per
 * coefficient ("wide", field_internal.h; N = TW_N, 768 bits for BLS12-381,
 * 512 for BN254) and reduced once per output coefficient. Every wide value
 * stays in [0, p * 2^(64N)), the input range of FP_(redc): products of
 * reduced elements are < p^2, Karatsuba's (a0 + a1)(b0 + b1) of unreduced
 * sums < 4p^2 (p < 2^381 with N = 6, p < 2^254 with N = 4, so 4p^2 <
 * p * 2^(64N)), and additions and subtractions are taken mod p * 2^(64N)
 * (wide_add here, FP_(sub_wide) in the field layer), which changes nothing
 * mod p. All inputs of the product kernels must be reduced Fp elements.
 * An Fp6 product then costs 18 wide products and 6 reductions instead of
 * 18 full Montgomery products (12 reductions with the lazy Fp2 product);
 * an Fp12 product 54 and 12 instead of 18.
 */
#ifndef CZ_TOWER_WIDE_H
#define CZ_TOWER_WIDE_H

typedef struct {
    uint64_t c0[2 * TW_N], c1[2 * TW_N];
} fp2_wide;

typedef struct {
    fp2_wide c0, c1, c2;
} fp6_wide;

static const uint64_t tw_fp_p[TW_N] = TW_P;

/* out = a + b mod p * 2^(64 TW_N) for a, b < p * 2^(64 TW_N): the plain
   sum is below 2^(128 TW_N) (p < 2^(64 TW_N - 1)); subtract p from the
   high half when it is >= p. Constant time.
   (x86-64: add/adc and sub/sbb chains through the carry intrinsics.) */
#if defined(__x86_64__)
#include <immintrin.h>
static inline void wide_add(uint64_t out[2 * TW_N], const uint64_t a[2 * TW_N], const uint64_t b[2 * TW_N])
{
    unsigned long long s[2 * TW_N], d[TW_N];
    unsigned char c = 0, borrow = 0;
    for (int i = 0; i < 2 * TW_N; i++)
        c = _addcarry_u64(c, a[i], b[i], &s[i]);
    for (int i = 0; i < TW_N; i++)
        borrow = _subborrow_u64(borrow, s[TW_N + i], tw_fp_p[i], &d[i]);
    uint64_t keep = 0 - (uint64_t)borrow; /* all ones: high half < p, keep s */
    for (int i = 0; i < TW_N; i++) {
        out[i] = s[i];
        out[TW_N + i] = (s[TW_N + i] & keep) | (d[i] & ~keep);
    }
}
#else
static inline void wide_add(uint64_t out[2 * TW_N], const uint64_t a[2 * TW_N], const uint64_t b[2 * TW_N])
{
    uint64_t s[2 * TW_N], d[TW_N], c = 0, borrow = 0;
    for (int i = 0; i < 2 * TW_N; i++) {
        unsigned __int128 x = (unsigned __int128)a[i] + b[i] + c;
        s[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    for (int i = 0; i < TW_N; i++) {
        unsigned __int128 x = (unsigned __int128)s[TW_N + i] - tw_fp_p[i] - borrow;
        d[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t keep = 0 - borrow; /* all ones: high half < p, keep s */
    for (int i = 0; i < TW_N; i++) {
        out[i] = s[i];
        out[TW_N + i] = (s[TW_N + i] & keep) | (d[i] & ~keep);
    }
}
#endif

/* a b unreduced, a and b reduced: Karatsuba, 3 wide products,
   c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 */
static inline void fp2_mul_wide(fp2_wide *out, const TW_FP2 *a, const TW_FP2 *b)
{
    uint64_t v0[2 * TW_N], v1[2 * TW_N];
    TW_FP s, t;
    FP_(mul_wide)(v0, &a->c0, &b->c0);
    FP_(mul_wide)(v1, &a->c1, &b->c1);
    FP_(add_nr)(&s, &a->c0, &a->c1);
    FP_(add_nr)(&t, &b->c0, &b->c1);
    FP_(mul_wide)(out->c1, &s, &t);
    FP_(sub_wide)(out->c1, out->c1, v0);
    FP_(sub_wide)(out->c1, out->c1, v1);
    FP_(sub_wide)(out->c0, v0, v1);
}

static inline void fp2w_add(fp2_wide *out, const fp2_wide *a, const fp2_wide *b)
{
    wide_add(out->c0, a->c0, b->c0);
    wide_add(out->c1, a->c1, b->c1);
}

static inline void fp2w_sub(fp2_wide *out, const fp2_wide *a, const fp2_wide *b)
{
    FP_(sub_wide)(out->c0, a->c0, b->c0);
    FP_(sub_wide)(out->c1, a->c1, b->c1);
}

#if TW_XI_C0 == 1
/* out = a (u + 1) = (a0 - a1) + (a0 + a1) u; out may alias a */
static inline void fp2w_mul_by_nonresidue(fp2_wide *out, const fp2_wide *a)
{
    uint64_t t[2 * TW_N];
    FP_(sub_wide)(t, a->c0, a->c1);
    wide_add(out->c1, a->c0, a->c1);
    for (int i = 0; i < 2 * TW_N; i++)
        out->c0[i] = t[i];
}
#elif TW_XI_C0 == 9
/* out = a (u + 9) = (9 a0 - a1) + (a0 + 9 a1) u, 9x = 8x + x by three
   doublings and an addition mod p * 2^(64 TW_N); out may alias a.
   10 wide additions, 1 subtraction (BN254). */
static inline void fp2w_mul_by_nonresidue(fp2_wide *out, const fp2_wide *a)
{
    uint64_t n0[2 * TW_N], n1[2 * TW_N];
    wide_add(n0, a->c0, a->c0);
    wide_add(n1, a->c1, a->c1);
    wide_add(n0, n0, n0);
    wide_add(n1, n1, n1);
    wide_add(n0, n0, n0);
    wide_add(n1, n1, n1);
    wide_add(n0, n0, a->c0);
    wide_add(n1, n1, a->c1);
    FP_(sub_wide)(n0, n0, a->c1);
    wide_add(out->c1, n1, a->c0);
    for (int i = 0; i < 2 * TW_N; i++)
        out->c0[i] = n0[i];
}
#else
#error "tower_wide.h: xi = TW_XI_C0 + u for TW_XI_C0 in {1, 9}"
#endif

static inline void fp2w_redc(TW_FP2 *out, const fp2_wide *a)
{
    FP_(redc)(&out->c0, a->c0);
    FP_(redc)(&out->c1, a->c1);
}

static inline void fp6w_add(fp6_wide *out, const fp6_wide *a, const fp6_wide *b)
{
    fp2w_add(&out->c0, &a->c0, &b->c0);
    fp2w_add(&out->c1, &a->c1, &b->c1);
    fp2w_add(&out->c2, &a->c2, &b->c2);
}

static inline void fp6w_sub(fp6_wide *out, const fp6_wide *a, const fp6_wide *b)
{
    fp2w_sub(&out->c0, &a->c0, &b->c0);
    fp2w_sub(&out->c1, &a->c1, &b->c1);
    fp2w_sub(&out->c2, &a->c2, &b->c2);
}

/* out = a v = xi a2 + a0 v + a1 v^2; out must not alias a */
static inline void fp6w_mul_by_nonresidue(fp6_wide *out, const fp6_wide *a)
{
    fp2w_mul_by_nonresidue(&out->c0, &a->c2);
    out->c1 = a->c0;
    out->c2 = a->c1;
}

static inline void fp6w_redc(TW_FP6 *out, const fp6_wide *a)
{
    fp2w_redc(&out->c0, &a->c0);
    fp2w_redc(&out->c1, &a->c1);
    fp2w_redc(&out->c2, &a->c2);
}

/* Karatsuba over three coefficients, v^3 = xi:
 *   v0 = a0 b0, v1 = a1 b1, v2 = a2 b2,
 *   c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2),
 *   c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2,
 *   c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1.
 * 6 Fp2 products = 18 wide Fp products, no reduction. */
static inline void fp6_mul_wide(fp6_wide *out, const TW_FP6 *a, const TW_FP6 *b)
{
    fp2_wide v0, v1, v2, x;
    TW_FP2 s, t;
    fp2_mul_wide(&v0, &a->c0, &b->c0);
    fp2_mul_wide(&v1, &a->c1, &b->c1);
    fp2_mul_wide(&v2, &a->c2, &b->c2);

    FP2I_(add)(&s, &a->c1, &a->c2);
    FP2I_(add)(&t, &b->c1, &b->c2);
    fp2_mul_wide(&x, &s, &t);
    fp2w_sub(&x, &x, &v1);
    fp2w_sub(&x, &x, &v2);
    fp2w_mul_by_nonresidue(&x, &x);
    fp2w_add(&out->c0, &x, &v0);

    FP2I_(add)(&s, &a->c0, &a->c1);
    FP2I_(add)(&t, &b->c0, &b->c1);
    fp2_mul_wide(&x, &s, &t);
    fp2w_sub(&x, &x, &v0);
    fp2w_sub(&x, &x, &v1);
    fp2w_mul_by_nonresidue(&out->c1, &v2);
    fp2w_add(&out->c1, &out->c1, &x);

    FP2I_(add)(&s, &a->c0, &a->c2);
    FP2I_(add)(&t, &b->c0, &b->c2);
    fp2_mul_wide(&x, &s, &t);
    fp2w_sub(&x, &x, &v0);
    fp2w_sub(&x, &x, &v2);
    fp2w_add(&out->c2, &x, &v1);
}

/* a (b0 + b1 v), Karatsuba with b2 = 0:
 *   v0 = a0 b0, v1 = a1 b1,
 *   c0 = v0 + xi a2 b1, c1 = (a0 + a1)(b0 + b1) - v0 - v1, c2 = a2 b0 + v1.
 * 5 Fp2 products (15 wide), no reduction. */
static inline void fp6_mul_by_01_wide(fp6_wide *out, const TW_FP6 *a, const TW_FP2 *b0,
                                      const TW_FP2 *b1)
{
    fp2_wide v0, v1, x;
    TW_FP2 s, t;
    fp2_mul_wide(&v0, &a->c0, b0);
    fp2_mul_wide(&v1, &a->c1, b1);

    fp2_mul_wide(&x, &a->c2, b1);
    fp2w_mul_by_nonresidue(&x, &x);
    fp2w_add(&out->c0, &x, &v0);

    FP2I_(add)(&s, &a->c0, &a->c1);
    FP2I_(add)(&t, b0, b1);
    fp2_mul_wide(&x, &s, &t);
    fp2w_sub(&x, &x, &v0);
    fp2w_sub(&out->c1, &x, &v1);

    fp2_mul_wide(&x, &a->c2, b0);
    fp2w_add(&out->c2, &x, &v1);
}

/* a (b1 v) = xi a2 b1 + a0 b1 v + a1 b1 v^2: 3 Fp2 products, no reduction */
static inline void fp6_mul_by_1_wide(fp6_wide *out, const TW_FP6 *a, const TW_FP2 *b1)
{
    fp2_mul_wide(&out->c0, &a->c2, b1);
    fp2w_mul_by_nonresidue(&out->c0, &out->c0);
    fp2_mul_wide(&out->c1, &a->c0, b1);
    fp2_mul_wide(&out->c2, &a->c1, b1);
}

#endif
