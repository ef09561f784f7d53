/*
 * bn254.h: the field layer of BN254 ("bn128" in snarkjs, alt_bn128 in
 * EIP-196/197): Fp, Fr, and the tower Fp2 = Fp[u]/(u^2 + 1),
 * Fp6 = Fp2[v]/(v^3 - (9 + u)), Fp12 = Fp6[w]/(w^2 - v).
 *
 * DESIGN. One code base, two curves (docs/CURVES.md). Every algorithm of
 * the field layer is written once over macros and compiled once per curve,
 * as bitcoin-core/secp256k1 and blst build one implementation per
 * representation: prime_impl.h over mont_impl.h gives Fp and Fr
 * (bn254_fp.c, bn254_fr.c instantiate it with N = 4 limbs and BN254's
 * constants, as fp.c and fr.c do with BLS12-381's), and the tower templates
 * fp2_impl.h, fp6_impl.h, fp12_impl.h over tower_wide.h give Fp2/Fp6/Fp12
 * (bn254_fp2.c, bn254_fp6.c, bn254_fp12.c; fp2.c, fp6.c, fp12.c for
 * BLS12-381). What differs is data: the moduli, the non-residue xi
 * (9 + u here, 1 + u there), the Frobenius tables, all generated with their
 * formulas by tools/gen_bn254_constants.py into bn254_constants.h.
 *
 * Names: BLS12-381 keeps the unprefixed cz_fp_ / cz_fr_ / cz_g1_ names it
 * has always had (every other layer uses them); BN254 takes the prefix
 * cz_bn254_ on types and functions (cz_bn254_fp_mul, cz_bn254_g1_jac_add,
 * cz_bn254_pairing). The two are distinct C types, so passing an element of
 * one curve to the other's function is a compile error, not a wrong result.
 *
 * Representation: little-endian 64-bit limbs of the Montgomery form
 * a * 2^256 mod m, 32 bytes: the bytes of a snarkjs .zkey / .wtns element
 * for bn128 (which also uses R = 2^256), and the GPU's layout. The contract
 * of each function is the one of field.h (outputs first, aliasing allowed,
 * fully reduced, constant time unless _var).
 */
#ifndef CZ_BN254_FIELD_H
#define CZ_BN254_FIELD_H

#include "field/field.h"

typedef struct { uint64_t l[4]; } cz_bn254_fp;  /* p ~ 2^253.6 */
typedef struct { uint64_t l[4]; } cz_bn254_fr;  /* r ~ 2^253.6 */
typedef struct { cz_bn254_fp c0, c1; } cz_bn254_fp2;         /* Fp[u]/(u^2 + 1) */
typedef struct { cz_bn254_fp2 c0, c1, c2; } cz_bn254_fp6;    /* Fp2[v]/(v^3 - (9 + u)) */
typedef struct { cz_bn254_fp6 c0, c1; } cz_bn254_fp12;       /* Fp6[w]/(w^2 - v) */

#define CZ_BN254_STR_MAX 80  /* 77 decimal digits + NUL, or 0x + 64 hex */

CZ_FIELD_DECLARE(bn254_fp, cz_bn254_fp, 4)
CZ_FIELD_DECLARE(bn254_fr, cz_bn254_fr, 4)

bool cz_bn254_fp_sqrt(cz_bn254_fp *out, const cz_bn254_fp *a);   /* false: no root */
bool cz_bn254_fp_is_lex_largest(const cz_bn254_fp *a);           /* a > (p-1)/2 */
bool cz_bn254_fr_sqrt(cz_bn254_fr *out, const cz_bn254_fr *a);   /* Tonelli-Shanks */

/* internals, as field_internal.h (tests and the tower) */
void cz_bn254_fp_mul_portable(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fr_mul_portable(cz_bn254_fr *out, const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fp_add_portable(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fr_add_portable(cz_bn254_fr *out, const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fp_sub_portable(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fr_sub_portable(cz_bn254_fr *out, const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fp_mul_wide(uint64_t out[8], const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fp_redc(cz_bn254_fp *out, const uint64_t in[8]);
void cz_bn254_fr_mul_wide(uint64_t out[8], const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fr_redc(cz_bn254_fr *out, const uint64_t in[8]);
void cz_bn254_fp_sub_wide(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
void cz_bn254_fr_sub_wide(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
void cz_bn254_fp_sub_wide_portable(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
void cz_bn254_fr_sub_wide_portable(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
void cz_bn254_fp_add_nr(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fr_add_nr(cz_bn254_fr *out, const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fp_add_nr_portable(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fr_add_nr_portable(cz_bn254_fr *out, const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fp_mul_wide_portable(uint64_t out[8], const cz_bn254_fp *a, const cz_bn254_fp *b);
void cz_bn254_fp_redc_portable(cz_bn254_fp *out, const uint64_t in[8]);
void cz_bn254_fr_mul_wide_portable(uint64_t out[8], const cz_bn254_fr *a, const cz_bn254_fr *b);
void cz_bn254_fr_redc_portable(cz_bn254_fr *out, const uint64_t in[8]);
void cz_bn254_fp_inv_fermat(cz_bn254_fp *out, const cz_bn254_fp *a);
void cz_bn254_fr_inv_fermat(cz_bn254_fr *out, const cz_bn254_fr *a);
int cz_bn254_fp_mul_is_asm(void);
int cz_bn254_fr_mul_is_asm(void);

/* ---- Fp2, Fp6, Fp12: the operations of field.h, with the cz_bn254_ prefix ---- */
void cz_bn254_fp2_zero(cz_bn254_fp2 *out);
void cz_bn254_fp2_one(cz_bn254_fp2 *out);
bool cz_bn254_fp2_is_zero(const cz_bn254_fp2 *a);
bool cz_bn254_fp2_eq(const cz_bn254_fp2 *a, const cz_bn254_fp2 *b);
bool cz_bn254_fp2_is_one(const cz_bn254_fp2 *a);
void cz_bn254_fp2_cmov(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, bool flag);
void cz_bn254_fp2_add(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, const cz_bn254_fp2 *b);
void cz_bn254_fp2_sub(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, const cz_bn254_fp2 *b);
void cz_bn254_fp2_neg(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_dbl(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_conj(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_mul(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, const cz_bn254_fp2 *b);
void cz_bn254_fp2_sqr(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_mul_fp(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, const cz_bn254_fp *b);
void cz_bn254_fp2_mul_by_nonresidue(cz_bn254_fp2 *out, const cz_bn254_fp2 *a); /* * (9 + u) */
void cz_bn254_fp2_inv(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_inv_var(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
void cz_bn254_fp2_pow(cz_bn254_fp2 *out, const cz_bn254_fp2 *a, const uint64_t *e, size_t e_limbs);
bool cz_bn254_fp2_sqrt(cz_bn254_fp2 *out, const cz_bn254_fp2 *a);
bool cz_bn254_fp2_is_lex_largest(const cz_bn254_fp2 *a);
void cz_bn254_fp2_frobenius(cz_bn254_fp2 *out, const cz_bn254_fp2 *a); /* = conj */
void cz_bn254_fp2_random(cz_bn254_fp2 *out, cz_rng *rng);

void cz_bn254_fp6_zero(cz_bn254_fp6 *out);
void cz_bn254_fp6_one(cz_bn254_fp6 *out);
bool cz_bn254_fp6_is_zero(const cz_bn254_fp6 *a);
bool cz_bn254_fp6_is_one(const cz_bn254_fp6 *a);
bool cz_bn254_fp6_eq(const cz_bn254_fp6 *a, const cz_bn254_fp6 *b);
void cz_bn254_fp6_cmov(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, bool flag);
void cz_bn254_fp6_add(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp6 *b);
void cz_bn254_fp6_sub(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp6 *b);
void cz_bn254_fp6_neg(cz_bn254_fp6 *out, const cz_bn254_fp6 *a);
void cz_bn254_fp6_dbl(cz_bn254_fp6 *out, const cz_bn254_fp6 *a);
void cz_bn254_fp6_mul(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp6 *b);
void cz_bn254_fp6_sqr(cz_bn254_fp6 *out, const cz_bn254_fp6 *a);
void cz_bn254_fp6_mul_by_nonresidue(cz_bn254_fp6 *out, const cz_bn254_fp6 *a); /* * v */
void cz_bn254_fp6_mul_fp2(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp2 *b);
void cz_bn254_fp6_mul_by_01(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp2 *b0,
                            const cz_bn254_fp2 *b1);
void cz_bn254_fp6_mul_by_1(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, const cz_bn254_fp2 *b1);
void cz_bn254_fp6_inv(cz_bn254_fp6 *out, const cz_bn254_fp6 *a);
void cz_bn254_fp6_inv_var(cz_bn254_fp6 *out, const cz_bn254_fp6 *a);
void cz_bn254_fp6_frobenius(cz_bn254_fp6 *out, const cz_bn254_fp6 *a, int power);
void cz_bn254_fp6_random(cz_bn254_fp6 *out, cz_rng *rng);

void cz_bn254_fp12_zero(cz_bn254_fp12 *out);
void cz_bn254_fp12_one(cz_bn254_fp12 *out);
bool cz_bn254_fp12_is_one(const cz_bn254_fp12 *a);
bool cz_bn254_fp12_eq(const cz_bn254_fp12 *a, const cz_bn254_fp12 *b);
void cz_bn254_fp12_cmov(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, bool flag);
void cz_bn254_fp12_add(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp12 *b);
void cz_bn254_fp12_sub(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp12 *b);
void cz_bn254_fp12_neg(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
void cz_bn254_fp12_mul(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp12 *b);
void cz_bn254_fp12_sqr(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
void cz_bn254_fp12_conj(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
void cz_bn254_fp12_inv(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
void cz_bn254_fp12_inv_var(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
void cz_bn254_fp12_frobenius(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, int power);
void cz_bn254_fp12_pow(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const uint64_t *e, size_t e_limbs);
void cz_bn254_fp12_random(cz_bn254_fp12 *out, cz_rng *rng);
/* out = a * (c0 + c1 v + c4 v w) (Fp12 slots c0.c0, c0.c1, c1.c1) */
void cz_bn254_fp12_mul_by_014(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp2 *c0,
                              const cz_bn254_fp2 *c1, const cz_bn254_fp2 *c4);
/* out = a * (c0 + c3 w + c4 v w) (slots c0.c0, c1.c0, c1.c1): the line of
   the D-type twist; 13 Fp2 products instead of 18 */
void cz_bn254_fp12_mul_by_034(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp2 *c0,
                              const cz_bn254_fp2 *c3, const cz_bn254_fp2 *c4);
/* Granger-Scott squaring, valid in the cyclotomic subgroup only */
void cz_bn254_fp12_cyclotomic_sqr(cz_bn254_fp12 *out, const cz_bn254_fp12 *a);
/* out = a^e for a cyclotomic a, e public (little-endian limbs): Granger-Scott
   squarings and a product per set bit. Variable time in e. */
void cz_bn254_fp12_cyclotomic_pow_var(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const uint64_t *e,
                                      size_t e_limbs);
/* 12 * 32 big-endian bytes in the struct's nesting order (c0.c0.c0 first),
   for tests */
void cz_bn254_fp12_to_bytes_be(uint8_t out[384], const cz_bn254_fp12 *a);

#endif
