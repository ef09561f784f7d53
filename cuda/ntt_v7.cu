/*
 * ntt_v7.cu: the NTT pass kernels of variant 7 (cuda/ntt_pass.cuh's
 * CZD_NTT_VARIANTS), in a translation unit of their own so that the
 * variants compile in parallel; ntt.cu calls czd_ntt_launch_v7.
 */
#include "ntt_pass.cuh"

CZD_NTT_VARIANT_TU(7)
