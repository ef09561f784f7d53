/*
 * msm_bn254.h: multi-scalar multiplication over BN254 ("bn128") G1 and G2
 * on the CPU, the counterpart of msm.h.
 *
 * DESIGN. One code base, two curves (docs/CURVES.md): the algorithm is
 * msm_impl.h, the one BLS12-381's msm_g1.c/msm_g2.c compile, compiled here
 * over BN254's Fp and Fp2 by msm_bn254_g1.c and msm_bn254_g2.c with the
 * cz_bn254_g1_ / cz_bn254_g2_ prefixes. So everything msm.h says holds:
 * signed-digit Pippenger with batched affine buckets, the 0/1 split, the
 * window model, threads by (window, range) tasks, bit-sums. What differs:
 * - scalars are cz_bn254_fr (Montgomery, R = 2^256) or plain 256-bit
 *   integers reduced mod BN254's r; r < 2^254, so the digits run over
 *   255 bits instead of 256 (cz_bn254_msm_prepare_, msm_bn254.c);
 * - GLV on G1 is the curve layer's signed split k = k1 + k2 lambda
 *   (cz_bn254_g1_glv_split, |k1|, |k2| < 2^128) on +-P and +-phi(P),
 *   phi(x, y) = (beta x, y), taken where the same window model says it pays;
 * - the eight-lane AVX-512 IFMA flush is BLS12-381's 6-limb Fp code: BN254
 *   takes the portable (mulx/adx where built) batched-affine path at every
 *   batch size.
 * Variable time, like msm.h.
 */
#ifndef CZ_MSM_BN254_H
#define CZ_MSM_BN254_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curve/bn254_curve.h"
#include "msm/msm.h"

/* out = sum_i scalars[i] * points[i], i < n (n < 2^31); opts as msm.h's
   (NULL: one thread, Montgomery scalars, automatic choices; form PLAIN:
   any 256-bit value, reduced mod r). CZ_ERR_ARG on a bad window or n,
   CZ_ERR_NOMEM. n = 0 gives infinity. Points affine, infinity allowed. */
cz_status cz_bn254_g1_msm(cz_bn254_g1_jac *out, const cz_bn254_g1_affine *points,
                          const cz_bn254_fr *scalars, size_t n, const cz_msm_opts *opts);
cz_status cz_bn254_g2_msm(cz_bn254_g2_jac *out, const cz_bn254_g2_affine *points,
                          const cz_bn254_fr *scalars, size_t n, const cz_msm_opts *opts);

/* out = sum of points[i] over the i < n with bit i of bitmap set. */
cz_status cz_bn254_g1_sum_bitmap(cz_bn254_g1_jac *out, const cz_bn254_g1_affine *points,
                                 const uint64_t *bitmap, size_t n, cz_threadpool *pool);
cz_status cz_bn254_g2_sum_bitmap(cz_bn254_g2_jac *out, const cz_bn254_g2_affine *points,
                                 const uint64_t *bitmap, size_t n, cz_threadpool *pool);

#endif
