/* msm_g1.c: Pippenger MSM and bit-sums in G1 (over Fp). See msm.h. */
#include "msm/msm.h"

#define FE cz_fp
#define FE_(op) cz_fp_##op
#define G_(op) cz_g1_##op
#define AFF cz_g1_affine
#define JAC cz_g1_jac
#define XYZZ cz_g1_xyzz
#define IS_G2 0

#include "msm/msm_impl.h"
