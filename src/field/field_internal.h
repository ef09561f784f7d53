/*
 * field_internal.h: field-layer internals exported for tests and benches.
 *
 * The portable Montgomery products are always compiled, even where the
 * mulx/adx assembly serves cz_fp_mul / cz_fr_mul, so tests can compare the
 * two; likewise the portable add and subtract. CZ_FIELD_ASM says which one the public functions use.
 */
#ifndef CZ_FIELD_INTERNAL_H
#define CZ_FIELD_INTERNAL_H

#include "field/field.h"

void cz_fp_mul_portable(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz_fr_mul_portable(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fp_add_portable(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz_fr_add_portable(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fp_sub_portable(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz_fr_sub_portable(cz_fr *out, const cz_fr *a, const cz_fr *b);
/* Lazy reduction (for Fp6/Fp12 and Fp2 products): mul_wide gives the plain
 * 2N-word product of the stored limbs (any values below 2^(64N), e.g.
 * unreduced sums of two elements); redc maps a 2N-word value v < m * 2^(64N)
 * to v / 2^(64N) mod m, fully reduced. So redc(mul_wide(a, b)) = mul(a, b),
 * and redc(sum of k wide products) needs the sum below m * 2^(64N): for Fp
 * (p < 2^381, R = 2^384) up to 8 products of reduced elements, or 2 of
 * unreduced sums (< 2p each). Differences must be made nonnegative first,
 * e.g. by adding p * 2^384 (p in the high half). */
void cz_fp_mul_wide(uint64_t out[12], const cz_fp *a, const cz_fp *b);
void cz_fp_redc(cz_fp *out, const uint64_t in[12]);
void cz_fr_mul_wide(uint64_t out[8], const cz_fr *a, const cz_fr *b);
void cz_fr_redc(cz_fr *out, const uint64_t in[8]);
/* out = a - b mod p * 2^384 (p added to the high half on borrow), for
 * a, b < p * 2^384: keeps differences of wide products valid redc input */
void cz_fp_sub_wide(uint64_t out[12], const uint64_t a[12], const uint64_t b[12]);
void cz_fr_sub_wide(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
void cz_fp_sub_wide_portable(uint64_t out[12], const uint64_t a[12], const uint64_t b[12]);
void cz_fr_sub_wide_portable(uint64_t out[8], const uint64_t a[8], const uint64_t b[8]);
/* out = a + b as plain integers, not reduced (< 2p for reduced inputs):
 * an operand for mul_wide */
void cz_fp_add_nr(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz_fr_add_nr(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fp_add_nr_portable(cz_fp *out, const cz_fp *a, const cz_fp *b);
void cz_fr_add_nr_portable(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fp_mul_wide_portable(uint64_t out[12], const cz_fp *a, const cz_fp *b);
void cz_fp_redc_portable(cz_fp *out, const uint64_t in[12]);
void cz_fr_mul_wide_portable(uint64_t out[8], const cz_fr *a, const cz_fr *b);
void cz_fr_redc_portable(cz_fr *out, const uint64_t in[8]);

/* a^(m-2): Fermat inversion, the tests' reference for cz_*_inv */
void cz_fp_inv_fermat(cz_fp *out, const cz_fp *a);
void cz_fr_inv_fermat(cz_fr *out, const cz_fr *a);

/* 1 when cz_fp_mul/sqr use the x86-64 assembly, else 0 */
int cz_fp_mul_is_asm(void);
int cz_fr_mul_is_asm(void);

#endif
