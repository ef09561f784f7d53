/*
 * ntt_bn254.cu: the NTT pass kernels over BN254's Fr, for one variant
 * (CZD_NTT_BN254_VARIANT, r2v10), in a translation unit of its
 * own like cuda/ntt_v<i>.cu; ntt.cu's czd_ntt_bn254 / czd_ntt_h_bn254 call
 * them. Only one variant, so that the CUDA build's time grows by one
 * variant's kernels, not eight.
 */
#include "ntt_pass.cuh"

cz_status czd_ntt_launch_bn254(czd_ctx *ctx, bool dit, const czd_pass_args<czd_fr254> &a)
{
    return czd_pass_launch_v<czd_nv_at<CZD_NTT_BN254_VARIANT>::type, czd_fr254>(ctx, dit, a);
}

cz_status czd_ntt_mid_bn254(czd_ctx *ctx, const czd_pass_args<czd_fr254> &a,
                            const czd_pass_args<czd_fr254> &b)
{
    return czd_mid_launch_v<czd_nv_at<CZD_NTT_BN254_VARIANT>::type, czd_fr254>(ctx, a, b);
}
