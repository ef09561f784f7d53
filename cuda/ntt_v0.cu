/*
 * ntt_v0.cu: the NTT pass kernels of variant 0 (cuda/ntt_pass.cuh's
 * CZD_NTT_VARIANTS), in a translation unit of their own so that the
 * variants compile in parallel; ntt.cu calls czd_ntt_launch_v0.
 */
#include "ntt_pass.cuh"

CZD_NTT_VARIANT_TU(0)
