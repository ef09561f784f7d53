/*
 * bn254_inline.h: BN254's Fp add/sub/dbl/neg and Fp2 linear operations as
 * static inline functions (the counterpart of fp_inline.h), for the tower
 * and the curve formulas; and the macros with which bn254_fp2.c,
 * bn254_fp6.c and bn254_fp12.c instantiate the shared tower templates
 * (fp2_impl.h, fp6_impl.h, fp12_impl.h, tower_wide.h).
 */
#ifndef CZ_BN254_INLINE_H
#define CZ_BN254_INLINE_H

#include "field/bn254.h"

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && defined(__OPTIMIZE__) && \
    !defined(CZ_NO_ASM)
#include "field/mont_bn254_x86_64.h"
static inline __attribute__((always_inline)) void cz_bn254_fp_add_i(cz_bn254_fp *out, const cz_bn254_fp *a,
                                                                    const cz_bn254_fp *b)
{
    cz_bn254_fp_asm_add(out->l, a->l, b->l);
}
static inline __attribute__((always_inline)) void cz_bn254_fp_sub_i(cz_bn254_fp *out, const cz_bn254_fp *a,
                                                                    const cz_bn254_fp *b)
{
    cz_bn254_fp_asm_sub(out->l, a->l, b->l);
}
#else
static inline void cz_bn254_fp_add_i(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b)
{
    cz_bn254_fp_add(out, a, b);
}
static inline void cz_bn254_fp_sub_i(cz_bn254_fp *out, const cz_bn254_fp *a, const cz_bn254_fp *b)
{
    cz_bn254_fp_sub(out, a, b);
}
#endif

static inline bool cz_bn254_fp_is_zero_i(const cz_bn254_fp *a)
{
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0;
}

static inline bool cz_bn254_fp2_is_zero_i(const cz_bn254_fp2 *a)
{
    return (a->c0.l[0] | a->c0.l[1] | a->c0.l[2] | a->c0.l[3] | a->c1.l[0] | a->c1.l[1] | a->c1.l[2] |
            a->c1.l[3]) == 0;
}

#define IL_FP cz_bn254_fp
#define IL_FP2 cz_bn254_fp2
#define IL_FPI_(op) cz_bn254_fp_##op##_i
#define IL_FP2I_(op) cz_bn254_fp2_##op##_i
#define IL_XI_C0 9
#include "field/fp2_inline_impl.h"

/* The tower templates' parameters for BN254 (xi = 9 + u). */
#define TW_FP cz_bn254_fp
#define TW_FP2 cz_bn254_fp2
#define TW_FP6 cz_bn254_fp6
#define TW_FP12 cz_bn254_fp12
#define FP_(op) cz_bn254_fp_##op
#define FP2_(op) cz_bn254_fp2_##op
#define FP6_(op) cz_bn254_fp6_##op
#define FP12_(op) cz_bn254_fp12_##op
#define FPI_(op) cz_bn254_fp_##op##_i
#define FP2I_(op) cz_bn254_fp2_##op##_i
#define TW_N 4
#define TW_P CZ_BN254_FP_P
#define TW_XI_C0 9
#define TW_P_MINUS_3_DIV_4 CZ_BN254_FP_P_MINUS_3_DIV_4
#define TW_P_MINUS_1_HALF CZ_BN254_FP_P_MINUS_1_HALF
#define TW_FROB_V CZ_BN254_FP6_FROB_V
#define TW_FROB_V2 CZ_BN254_FP6_FROB_V2
#define TW_FROB_W CZ_BN254_FP12_FROB_W
#define TW_FROB_W3 CZ_BN254_FP12_FROB_W3
#define TW_FROB_W5 CZ_BN254_FP12_FROB_W5

#endif
