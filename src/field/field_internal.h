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
/* 1 when cz_fp_mul/sqr use the x86-64 assembly, else 0 */
int cz_fp_mul_is_asm(void);
int cz_fr_mul_is_asm(void);

#endif
