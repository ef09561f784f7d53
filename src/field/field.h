/*
 * field.h: the contract of the field layer (Fr, Fp, Fp2, Fp6, Fp12).
 *
 * DESIGN. Elements are value types of little-endian 64-bit limbs holding
 * the Montgomery form a*R mod m (R = 2^256 for Fr, 2^384 for Fp). The same
 * bytes are the GPU's layout and the on-disk layout of keys, so arrays of
 * elements copy between host, device and files unchanged. Every function
 * here keeps its outputs fully reduced (< m), takes outputs first, and
 * allows outputs to alias inputs. Functions without `_var` run in time
 * independent of the values (the blinding scalars and witness are secret);
 * `_var` marks variable-time code that must only see public data.
 *
 * The base Fp/Fr arithmetic lives in mont_impl.h (portable, unsigned
 * __int128) with an x86-64 mulx/adx path chosen at build time where the
 * compiler targets BMI2+ADX; defining CZ_NO_ASM forces the portable path,
 * which the tests always build and run too.
 */
#ifndef CZ_FIELD_H
#define CZ_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/fr.h"  /* cz_fr, the scalar field r ~ 2^255, is public */
#include "util/rng.h"

typedef struct { uint64_t l[6]; } cz_fp;  /* base field, p ~ 2^381 */
typedef struct { cz_fp c0, c1; } cz_fp2;        /* Fp[u]/(u^2 + 1) */
typedef struct { cz_fp2 c0, c1, c2; } cz_fp6;   /* Fp2[v]/(v^3 - (u + 1)) */
typedef struct { cz_fp6 c0, c1; } cz_fp12;      /* Fp6[w]/(w^2 - v) */

/* ---- Fp and Fr: the same set of operations, F in {fp, fr} ---- */
#define CZ_FIELD_DECLARE(F, T, N)                                              \
    void cz_##F##_zero(T *out);                                                \
    void cz_##F##_one(T *out);                                                 \
    void cz_##F##_set_u64(T *out, uint64_t v);                                 \
    bool cz_##F##_is_zero(const T *a);                                         \
    bool cz_##F##_is_one(const T *a);                                          \
    bool cz_##F##_eq(const T *a, const T *b);                                  \
    /* out = flag ? a : out, constant time (added by field) */                 \
    void cz_##F##_cmov(T *out, const T *a, bool flag);                         \
    void cz_##F##_add(T *out, const T *a, const T *b);                         \
    void cz_##F##_sub(T *out, const T *a, const T *b);                         \
    void cz_##F##_neg(T *out, const T *a);                                     \
    void cz_##F##_dbl(T *out, const T *a);                                     \
    void cz_##F##_mul(T *out, const T *a, const T *b);                         \
    void cz_##F##_sqr(T *out, const T *a);                                     \
    /* out = a^e, e little-endian limbs; constant time in a, not in e */     \
    void cz_##F##_pow(T *out, const T *a, const uint64_t *e, size_t e_limbs);  \
    /* inverse; 0 maps to 0. Constant time / variable time. */               \
    void cz_##F##_inv(T *out, const T *a);                                     \
    void cz_##F##_inv_var(T *out, const T *a);                                 \
    /* out[i] = 1/in[i] by Montgomery's trick; zeros map to zero; in-place ok.\
       scratch holds n elements. Variable time. */                             \
    void cz_##F##_batch_inv_var(T *out, const T *in, size_t n, T *scratch);    \
    /* plain integer limbs <-> Montgomery form; from_limbs rejects >= m */     \
    bool cz_##F##_from_limbs(T *out, const uint64_t in[N]);                    \
    void cz_##F##_to_limbs(uint64_t out[N], const T *a);                       \
    /* out = plain limbs reduced mod m (any 64N-bit value accepted) */         \
    void cz_##F##_from_limbs_reduce(T *out, const uint64_t in[N]);             \
    /* bytes: plain integer, N*8 bytes, little/big endian; reject >= m */      \
    bool cz_##F##_from_bytes_le(T *out, const uint8_t *in);                    \
    bool cz_##F##_from_bytes_be(T *out, const uint8_t *in);                    \
    void cz_##F##_to_bytes_le(uint8_t *out, const T *a);                       \
    void cz_##F##_to_bytes_be(uint8_t *out, const T *a);                       \
    /* strings: decimal ("123") or hex ("0x7b"); reject >= m, junk, empty */   \
    bool cz_##F##_from_str(T *out, const char *s);                             \
    bool cz_##F##_from_dec(T *out, const char *s);                             \
    bool cz_##F##_from_hex(T *out, const char *s);                             \
    /* write decimal / 0x-hex; buf must hold CZ_<F>_STR_MAX bytes */           \
    void cz_##F##_to_dec(char *buf, const T *a);                               \
    void cz_##F##_to_hex(char *buf, const T *a);                               \
    void cz_##F##_random(T *out, cz_rng *rng);

#define CZ_FP_STR_MAX 120  /* 116 decimal digits + NUL, or 0x + 96 hex */

CZ_FIELD_DECLARE(fp, cz_fp, 6)
CZ_FIELD_DECLARE(fr, cz_fr, 4)

/* Fp only */
bool cz_fp_sqrt(cz_fp *out, const cz_fp *a);       /* false: no root */
bool cz_fp_is_lex_largest(const cz_fp *a);         /* a > (p-1)/2 */
/* out[e] = a[e] * b[e] for e < 8, as eight cz_fp_mul (AVX-512 IFMA lanes
   where built, fp_x8.c); out may alias a or b. is_simd: 1 with IFMA. */
void cz_fp_mul_x8(cz_fp out[8], const cz_fp a[8], const cz_fp b[8]);
int cz_fp_mul_x8_is_simd(void);
#if defined(__AVX512IFMA__) && defined(__AVX512F__) && defined(__OPTIMIZE__) && !defined(CZ_NO_ASM)
#define CZ_FP_HAVE_X8 1   /* cz_fp_mul_x8 is the SIMD one: worth batching for */
#else
#define CZ_FP_HAVE_X8 0
#endif
/* Fr only */
bool cz_fr_sqrt(cz_fr *out, const cz_fr *a);       /* Tonelli-Shanks */

/* ---- Fp2 ---- */
void cz_fp2_zero(cz_fp2 *out);
void cz_fp2_one(cz_fp2 *out);
bool cz_fp2_is_zero(const cz_fp2 *a);
bool cz_fp2_eq(const cz_fp2 *a, const cz_fp2 *b);
bool cz_fp2_is_one(const cz_fp2 *a);                           /* added by field */
void cz_fp2_cmov(cz_fp2 *out, const cz_fp2 *a, bool flag);     /* out = flag ? a : out; added by field */
void cz_fp2_add(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sub(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_neg(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_dbl(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_conj(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_mul(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b);
void cz_fp2_sqr(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_mul_fp(cz_fp2 *out, const cz_fp2 *a, const cz_fp *b);
void cz_fp2_mul_by_nonresidue(cz_fp2 *out, const cz_fp2 *a); /* * (u + 1) */
void cz_fp2_inv(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_inv_var(cz_fp2 *out, const cz_fp2 *a);
void cz_fp2_pow(cz_fp2 *out, const cz_fp2 *a, const uint64_t *e, size_t e_limbs);
bool cz_fp2_sqrt(cz_fp2 *out, const cz_fp2 *a);
bool cz_fp2_is_lex_largest(const cz_fp2 *a);  /* zcash sign rule: c1, or c0 if c1 = 0 */
void cz_fp2_frobenius(cz_fp2 *out, const cz_fp2 *a);  /* a^p = conj(a) */
void cz_fp2_random(cz_fp2 *out, cz_rng *rng);

/* ---- Fp6 ---- */
void cz_fp6_zero(cz_fp6 *out);
void cz_fp6_one(cz_fp6 *out);
bool cz_fp6_is_zero(const cz_fp6 *a);
bool cz_fp6_eq(const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_add(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sub(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_neg(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_mul(cz_fp6 *out, const cz_fp6 *a, const cz_fp6 *b);
void cz_fp6_sqr(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_mul_by_nonresidue(cz_fp6 *out, const cz_fp6 *a); /* * v */
void cz_fp6_inv(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_frobenius(cz_fp6 *out, const cz_fp6 *a, int power); /* a^(p^power), power 1..5 */
void cz_fp6_random(cz_fp6 *out, cz_rng *rng);
/* added by pairing: */
bool cz_fp6_is_one(const cz_fp6 *a);
void cz_fp6_dbl(cz_fp6 *out, const cz_fp6 *a);
void cz_fp6_cmov(cz_fp6 *out, const cz_fp6 *a, bool flag);   /* out = flag ? a : out */
void cz_fp6_mul_fp2(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b);
/* sparse products: a * (b0 + b1 v) (5 Fp2 products), a * (b1 v) (3) */
void cz_fp6_mul_by_01(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b0, const cz_fp2 *b1);
void cz_fp6_mul_by_1(cz_fp6 *out, const cz_fp6 *a, const cz_fp2 *b1);
void cz_fp6_inv_var(cz_fp6 *out, const cz_fp6 *a);

/* ---- Fp12 ---- */
void cz_fp12_zero(cz_fp12 *out);
void cz_fp12_one(cz_fp12 *out);
bool cz_fp12_is_one(const cz_fp12 *a);
bool cz_fp12_eq(const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_add(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sub(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_mul(cz_fp12 *out, const cz_fp12 *a, const cz_fp12 *b);
void cz_fp12_sqr(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_conj(cz_fp12 *out, const cz_fp12 *a);  /* a^(p^6): inverse on the cyclotomic subgroup */
void cz_fp12_inv(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_frobenius(cz_fp12 *out, const cz_fp12 *a, int power); /* a^(p^power), power 1..11 */
void cz_fp12_pow(cz_fp12 *out, const cz_fp12 *a, const uint64_t *e, size_t e_limbs);
void cz_fp12_random(cz_fp12 *out, cz_rng *rng);
/* 12 * 48 big-endian bytes, c0.c0.c0 first ... as noble serialises; for tests */
void cz_fp12_to_bytes_be(uint8_t out[576], const cz_fp12 *a);
/* added by pairing: */
void cz_fp12_neg(cz_fp12 *out, const cz_fp12 *a);
void cz_fp12_cmov(cz_fp12 *out, const cz_fp12 *a, bool flag);  /* out = flag ? a : out */
void cz_fp12_inv_var(cz_fp12 *out, const cz_fp12 *a);
/* out = a * (c0 + c1 v + c4 v w): the sparse shape of a Miller-loop line
   (Fp12 slots c0.c0, c0.c1, c1.c1); 13 Fp2 products instead of 18. */
void cz_fp12_mul_by_014(cz_fp12 *out, const cz_fp12 *a, const cz_fp2 *c0,
                        const cz_fp2 *c1, const cz_fp2 *c4);
/* Squaring for a in the cyclotomic subgroup (a^(p^4 - p^2 + 1) = 1, e.g.
   any value after the easy part (p^6 - 1)(p^2 + 1) of the final
   exponentiation), Granger-Scott: 9 Fp2 squarings. Wrong for other a. */
void cz_fp12_cyclotomic_sqr(cz_fp12 *out, const cz_fp12 *a);
/* out = a^|x| for the BLS parameter |x| = 0xd201000000010000, a cyclotomic;
   63 compressed (Karabina) squarings, one batched decompression, 5 products.
   Variable time: meant for public data (the pairing). */
void cz_fp12_cyclotomic_exp_x(cz_fp12 *out, const cz_fp12 *a);

#endif
