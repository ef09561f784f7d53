/*
 * fp_inline.h: Fp add/sub/dbl/neg and the Fp2 linear operations as static
 * inline functions, for hot loops in other files (the Fp6/Fp12 tower, curve
 * formulas) that should inline them even without LTO. Results are the same
 * as cz_fp_add, cz_fp2_add, ... of field.h (the tests compare them; the Fp2
 * part is fp2_inline_impl.h, shared with BN254's bn254_inline.h); the
 * products stay out-of-line functions (cz_fp_mul, cz_fp2_mul), which are
 * too large to gain from inlining.
 */
#ifndef CZ_FP_INLINE_H
#define CZ_FP_INLINE_H

#include "field/field.h"

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && defined(__OPTIMIZE__) && \
    !defined(CZ_NO_ASM)
#include "field/mont_x86_64.h"
/* always_inline: GCC's size estimate of the asm keeps it out of line */
static inline __attribute__((always_inline)) void cz_fp_add_i(cz_fp *out, const cz_fp *a, const cz_fp *b)
{
    cz_fp_asm_add(out->l, a->l, b->l);
}
static inline __attribute__((always_inline)) void cz_fp_sub_i(cz_fp *out, const cz_fp *a, const cz_fp *b)
{
    cz_fp_asm_sub(out->l, a->l, b->l);
}
#else
static inline void cz_fp_add_i(cz_fp *out, const cz_fp *a, const cz_fp *b) { cz_fp_add(out, a, b); }
static inline void cz_fp_sub_i(cz_fp *out, const cz_fp *a, const cz_fp *b) { cz_fp_sub(out, a, b); }
#endif

/* a == 0 (Montgomery zero is the zero word string); constant time */
static inline bool cz_fp_is_zero_i(const cz_fp *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}

static inline bool cz_fp2_is_zero_i(const cz_fp2 *a)
{
    return (a->c0.l[0] | a->c0.l[1] | a->c0.l[2] | a->c0.l[3] | a->c0.l[4] | a->c0.l[5] |
            a->c1.l[0] | a->c1.l[1] | a->c1.l[2] | a->c1.l[3] | a->c1.l[4] | a->c1.l[5]) == 0;
}

#define IL_FP cz_fp
#define IL_FP2 cz_fp2
#define IL_FPI_(op) cz_fp_##op##_i
#define IL_FP2I_(op) cz_fp2_##op##_i
#define IL_XI_C0 1
#include "field/fp2_inline_impl.h"

#endif
