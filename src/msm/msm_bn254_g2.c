/* msm_bn254_g2.c: Pippenger MSM and bit-sums in BN254's G2 (over Fp2):
   msm_impl.h compiled for BN254. See msm_bn254.h. */
#include "curve/bn254_curve.h"
#include "field/bn254_fp_x8.h"
#include "field/bn254_inline.h"
#include "msm/msm_bn254_internal.h"

#define FE cz_bn254_fp2
#define FE_(op) cz_bn254_fp2_##op
#define FE_IS_ZERO cz_bn254_fp2_is_zero_i
#define G_(op) cz_bn254_g2_##op
#define AFF cz_bn254_g2_affine
#define JAC cz_bn254_g2_jac
#define XYZZ cz_bn254_g2_xyzz
#define IS_G2 1

#define MSM_BF cz_bn254_fp
#define MSM_BF_(op) cz_bn254_fp_##op
#define MSM_BF_ADD_I cz_bn254_fp_add_i
#define MSM_BF_NEG_I cz_bn254_fp_neg
#define MSM_X8 CZ_BN254_FP_HAVE_X8   /* field/bn254_fp_x8.h: 5 x 52-bit lanes */
#define MSM_V8 cz_bn254_fp_v8
#define MSM_V8_(op) cz_bn254_fp_v8_##op
#define MSM_V8_SHL cz_bn254_fp_v8_shl4
#define MSM_V8_SHIFT CZ_BN254_FP_V8_SHIFT
#define MSM_X8_ON cz_bn254_msm_x8_on_
#define MSM_SC cz_bn254_fr
#define MSM_PREPARE cz_bn254_msm_prepare_
#define MSM_BITS 255        /* r < 2^254 */

#include "msm/msm_impl.h"
