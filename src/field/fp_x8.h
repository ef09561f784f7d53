/*
 * fp_x8.h: the pieces of cz_fp_mul_x8 (fp_x8.c) for callers that chain
 * eight-lane products without going back to cz_fp between them, where
 * CZ_FP_HAVE_X8 (field.h) says they exist.
 *
 * A cz_fp_v8 holds eight integers below 2^416 in radix 2^52, lane e of
 * limb j in l[j]. mont(a, b) = a b / 2^416 mod p, fully reduced, for
 * a b < p 2^416 (e.g. one operand below p, the other below p 2^32). With
 * [x] = x 2^384 mod p (the cz_fp form) and [x]' = x 2^416 mod p:
 *   mont([x] 2^32, [y]) = [xy]      load(.., 1) gives [x] 2^32 (< p 2^32)
 *   mont([x]', [y]')    = [xy]'     and [x] 2^32 = [x]' (mod p), so also
 *   mont([x]', [y] 2^32) = [xy]'
 *   mont([x], [y]')     = [xy]
 * store writes the eight integers (below 2^384) as cz_fp words.
 */
#ifndef CZ_FP_X8_H
#define CZ_FP_X8_H

#include "field/field.h"

#if CZ_FP_HAVE_X8
#include <immintrin.h>

typedef struct {
    __m512i l[8];
} cz_fp_v8;

/* out = the eight x[e], times 2^32 when shift32 */
void cz_fp_v8_load(cz_fp_v8 *out, const cz_fp x[8], int shift32);
/* x[e] = lane e of a (a below 2^384) */
void cz_fp_v8_store(cz_fp x[8], const cz_fp_v8 *a);
/* out = a b / 2^416 mod p lane by lane; out may alias a or b */
void cz_fp_v8_mont(cz_fp_v8 *out, const cz_fp_v8 *a, const cz_fp_v8 *b);
/* out = a 2^32 (a below 2^384) */
void cz_fp_v8_shl32(cz_fp_v8 *out, const cz_fp_v8 *a);
/* out = a + b as integers (below 2^416) */
void cz_fp_v8_add_nr(cz_fp_v8 *out, const cz_fp_v8 *a, const cz_fp_v8 *b);
/* out = a + b mod p, a - b mod p: a, b < p, out < p */
void cz_fp_v8_add(cz_fp_v8 *out, const cz_fp_v8 *a, const cz_fp_v8 *b);
void cz_fp_v8_sub(cz_fp_v8 *out, const cz_fp_v8 *a, const cz_fp_v8 *b);
#endif

#endif
