/*
 * msm_bn254.cu: the GPU MSM over BN254's G1 and G2 (czd_msm's groups
 * CZD_BN254_G1 / CZD_BN254_G2), the code of msm.cu instantiated for the
 * curve descriptor czd_curve_bn254. A translation unit of its own so that
 * it compiles in parallel with msm.cu (whose BLS12-381 kernels take most
 * of the CUDA build) and leaves that file's build time as it was.
 */
#define CZD_MSM_BN254_TU 1
#include "msm.cu"
