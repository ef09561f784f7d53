/*
 * msm_bn254_internal.h: what BN254's G1 and G2 MSM instances share
 * (msm_bn254.c), as msm_internal.h for BLS12-381. Internal to src/msm.
 */
#ifndef CZ_MSM_BN254_INTERNAL_H
#define CZ_MSM_BN254_INTERNAL_H

#include "msm/msm_bn254.h"
#include "msm/msm_internal.h"

/* cz_msm_prepare_ for BN254 scalars: sc[i] reduced mod BN254's r (below
   2^254). */
cz_status cz_bn254_msm_prepare_(cz_msm_prep_ *p, const void *points, cz_msm_is_inf_fn_ is_inf,
                                const cz_bn254_fr *scalars, size_t n, cz_msm_scalar_form form,
                                bool split, cz_threadpool *pool);

/* Nonzero (the default): the MSMs' batched additions take the eight-lane
   IFMA code where it is built (field/bn254_fp_x8.h); 0: the scalar code.
   For tests and benchmarks comparing the two; set it while no MSM runs. */
extern int cz_bn254_msm_x8_on_;

#endif
