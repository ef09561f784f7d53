/*
 * fr.h: the scalar field of BLS12-381 (Fr, r ~ 2^255) in the public API:
 * the type of witness values and circuit coefficients, and the operations
 * circuit code needs. Elements are 4 little-endian 64-bit limbs holding
 * the Montgomery form a * 2^256 mod r (the same bytes as the prover's
 * witness and the GPU's layout). Outputs first; outputs may alias inputs.
 */
#ifndef CUZK_FR_H
#define CUZK_FR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_fr {
    uint64_t l[4];
} cz_fr;

#define CZ_FR_STR_MAX 80  /* 0x + 64 hex digits, or 78 decimal digits, + NUL */

void cz_fr_zero(cz_fr *out);
void cz_fr_one(cz_fr *out);
void cz_fr_set_u64(cz_fr *out, uint64_t v);
bool cz_fr_is_zero(const cz_fr *a);
bool cz_fr_eq(const cz_fr *a, const cz_fr *b);
void cz_fr_add(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fr_sub(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fr_neg(cz_fr *out, const cz_fr *a);
void cz_fr_mul(cz_fr *out, const cz_fr *a, const cz_fr *b);
void cz_fr_sqr(cz_fr *out, const cz_fr *a);
void cz_fr_inv(cz_fr *out, const cz_fr *a);  /* 0 maps to 0 */
/* Plain little-endian limbs <-> Montgomery form; from_limbs rejects >= r. */
bool cz_fr_from_limbs(cz_fr *out, const uint64_t in[4]);
void cz_fr_to_limbs(uint64_t out[4], const cz_fr *a);
/* 32-byte plain integers; the from_ forms reject >= r. */
bool cz_fr_from_bytes_le(cz_fr *out, const uint8_t *in);
bool cz_fr_from_bytes_be(cz_fr *out, const uint8_t *in);
void cz_fr_to_bytes_le(uint8_t *out, const cz_fr *a);
void cz_fr_to_bytes_be(uint8_t *out, const cz_fr *a);
/* Decimal or 0x-hex; reject >= r, junk, empty. */
bool cz_fr_from_str(cz_fr *out, const char *s);
void cz_fr_to_dec(char *buf, const cz_fr *a);
void cz_fr_to_hex(char *buf, const cz_fr *a);

#ifdef __cplusplus
}
#endif
#endif
