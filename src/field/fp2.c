/*
 * fp2.c: the quadratic extension Fp2 = Fp[u]/(u^2 + 1) of BLS12-381.
 *
 * DESIGN. The shared code of fp2_impl.h (also compiled for BN254 by
 * bn254_fp2.c) over BLS12-381's Fp; see there for the algorithms.
 */
#include "field/field.h"
#include "field/constants.h"
#include "field/field_internal.h"
#include "field/fp_inline.h"

#define TW_FP cz_fp
#define TW_FP2 cz_fp2
#define FP_(op) cz_fp_##op
#define FP2_(op) cz_fp2_##op
#define FPI_(op) cz_fp_##op##_i
#define FP2I_(op) cz_fp2_##op##_i
#define TW_N 6
#define TW_P_MINUS_3_DIV_4 CZ_FP_P_MINUS_3_DIV_4
#define TW_P_MINUS_1_HALF CZ_FP_P_MINUS_1_HALF
#include "field/fp2_impl.h"
