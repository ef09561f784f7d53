/*
 * bn254_fp_x8.h: eight BN254 Fp products at once (cz_bn254_fp_mul_x8), and
 * the eight-lane pieces behind it (cz_bn254_fp_v8_*) for callers that chain
 * products without going back to cz_bn254_fp between them (the MSM's
 * batched affine additions, msm/msm_impl.h), where CZ_BN254_FP_HAVE_X8 says
 * they exist. The BN254 counterpart of field.h's cz_fp_mul_x8 and fp_x8.h.
 *
 * A cz_bn254_fp_v8 holds eight integers below 2^260 in radix 2^52 (five
 * limbs), lane e of limb j in l[j]. mont(a, b) = a b / 2^260 mod p, fully
 * reduced, for a b < p 2^260 (e.g. one operand below p, the other below
 * 4 p 2^4: p < 2^254). With [x] = x 2^256 mod p (the cz_bn254_fp form) and
 * [x]' = x 2^260 mod p, as fp_x8.h with 4 in place of 32:
 *   mont([x] 2^4, [y]) = [xy]      load(.., 1) gives [x] 2^4 (< p 2^4)
 *   mont([x]', [y]')   = [xy]'     and [x] 2^4 = [x]' (mod p), so also
 *   mont([x]', [y] 2^4) = [xy]'
 *   mont([x], [y]')    = [xy]
 * store writes the eight integers (below 2^256) as cz_bn254_fp words.
 */
#ifndef CZ_BN254_FP_X8_H
#define CZ_BN254_FP_X8_H

#include "field/bn254.h"

/* out[e] = a[e] * b[e] for e < 8, bit for bit eight cz_bn254_fp_mul (AVX-512
   IFMA lanes where built); out may alias a or b. is_simd: 1 with IFMA. */
void cz_bn254_fp_mul_x8(cz_bn254_fp out[8], const cz_bn254_fp a[8], const cz_bn254_fp b[8]);
int cz_bn254_fp_mul_x8_is_simd(void);

/* the same build guard as field.h's CZ_FP_HAVE_X8 */
#if defined(__AVX512IFMA__) && defined(__AVX512F__) && defined(__OPTIMIZE__) && !defined(CZ_NO_ASM)
#define CZ_BN254_FP_HAVE_X8 1
#else
#define CZ_BN254_FP_HAVE_X8 0
#endif

/* The lanes' forms are shifted by this many bits (260 - 256). */
#define CZ_BN254_FP_V8_SHIFT 4

#if CZ_BN254_FP_HAVE_X8
#include <immintrin.h>

typedef struct {
    __m512i l[5];
} cz_bn254_fp_v8;

/* out = the eight x[e], times 2^4 when shift */
void cz_bn254_fp_v8_load(cz_bn254_fp_v8 *out, const cz_bn254_fp x[8], int shift);
/* x[e] = lane e of a (a below 2^256) */
void cz_bn254_fp_v8_store(cz_bn254_fp x[8], const cz_bn254_fp_v8 *a);
/* out = a b / 2^260 mod p lane by lane (a b < p 2^260); out may alias */
void cz_bn254_fp_v8_mont(cz_bn254_fp_v8 *out, const cz_bn254_fp_v8 *a, const cz_bn254_fp_v8 *b);
/* out = a 2^4 (a below 2^256) */
void cz_bn254_fp_v8_shl4(cz_bn254_fp_v8 *out, const cz_bn254_fp_v8 *a);
/* out = a + b as integers (below 2^260) */
void cz_bn254_fp_v8_add_nr(cz_bn254_fp_v8 *out, const cz_bn254_fp_v8 *a, const cz_bn254_fp_v8 *b);
/* out = a + b mod p, a - b mod p: a, b < p, out < p */
void cz_bn254_fp_v8_add(cz_bn254_fp_v8 *out, const cz_bn254_fp_v8 *a, const cz_bn254_fp_v8 *b);
void cz_bn254_fp_v8_sub(cz_bn254_fp_v8 *out, const cz_bn254_fp_v8 *a, const cz_bn254_fp_v8 *b);
#endif

#endif
