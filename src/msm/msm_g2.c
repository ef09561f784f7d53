/* msm_g2.c: Pippenger MSM and bit-sums in G2 (over Fp2). See msm.h. */
#include "field/field_internal.h"
#include "field/fp_inline.h"
#include "field/fp_x8.h"
#include "msm/msm.h"

#define FE cz_fp2
#define FE_(op) cz_fp2_##op
#define FE_IS_ZERO cz_fp2_is_zero_i
#define G_(op) cz_g2_##op
#define AFF cz_g2_affine
#define JAC cz_g2_jac
#define XYZZ cz_g2_xyzz
#define IS_G2 1

#include "msm/msm_impl.h"
