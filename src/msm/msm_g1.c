/* msm_g1.c: Pippenger MSM and bit-sums in G1 (over Fp). See msm.h. */
#include "curve/curve_constants.h"
#include "field/fp_inline.h"
#include "field/fp_x8.h"
#include "msm/msm.h"

#define FE cz_fp
#define FE_(op) cz_fp_##op
#define FE_IS_ZERO cz_fp_is_zero_i
#define G_(op) cz_g1_##op
#define AFF cz_g1_affine
#define JAC cz_g1_jac
#define XYZZ cz_g1_xyzz
#define IS_G2 0

#include "msm/msm_impl.h"
