/*
 * fp6.c: the cubic extension Fp6 = Fp2[v]/(v^3 - xi), xi = u + 1, of
 * BLS12-381.
 *
 * DESIGN. The shared code of fp6_impl.h (also compiled for BN254 by
 * bn254_fp6.c) over BLS12-381's Fp2 and Frobenius tables; see there for
 * the algorithms.
 */
#include "field/field.h"
#include "field/constants.h"
#include "field/field_internal.h"
#include "field/fp_inline.h"
#include "field/tower_constants.h"

#define TW_FP cz_fp
#define TW_FP2 cz_fp2
#define TW_FP6 cz_fp6
#define TW_FP12 cz_fp12
#define FP_(op) cz_fp_##op
#define FP2_(op) cz_fp2_##op
#define FP6_(op) cz_fp6_##op
#define FP12_(op) cz_fp12_##op
#define FPI_(op) cz_fp_##op##_i
#define FP2I_(op) cz_fp2_##op##_i
#define TW_N 6
#define TW_P CZ_FP_P
#define TW_XI_C0 1
#define TW_FROB_V CZ_FP6_FROB_V
#define TW_FROB_V2 CZ_FP6_FROB_V2
#include "field/tower_wide.h"
#include "field/fp6_impl.h"
