/*
 * msm.h: multi-scalar multiplication sum_i k_i P_i in G1 and G2 (CPU).
 *
 * DESIGN. Pippenger with signed c-bit digits: a scalar k < r < 2^255 is
 * written sum_w d_w 2^(wc) with d_w in [-2^(c-1), 2^(c-1)] over
 * W = ceil(256/c) windows; digit d_w is bits [wc, wc+c) of k plus bit wc-1,
 * minus 2^c when bit wc+c-1 is set, so every window's digit is computed
 * independently. Per window, point P_i goes into bucket |d| (negated when
 * d < 0); the window sum sum_j j*B_j comes from running sums from the top
 * bucket down (S += B_j, T += S), run in up to 256 segments side by side
 * so that each step's additions share one inversion (batched affine, see
 * below), or bucket by bucket by small scalar multiplications when few
 * buckets are used (the top window, tiny inputs); the windows combine by
 * Horner with c doublings each.
 * Buckets are accumulated in affine coordinates in batches: up to `batch`
 * pending additions to distinct buckets share one field inversion
 * (Montgomery's trick), 5M + 1S per addition against 8M + 2S for a mixed
 * XYZZ addition; an addition whose bucket is already in the batch waits
 * in a queue for the next one. Small inputs use XYZZ buckets (cz_*_xyzz_*
 * of the curve layer) directly.
 * Where the build has AVX-512 IFMA (field/fp_x8.h), a batch of 64 or more
 * runs its products eight at a time, one addition per 64-bit lane (radix
 * 2^52 lanes; about 1.6x faster per product than the mulx code here). In
 * G2 the batch inversion runs over the norms in Fp (1/d = conj(d)/N(d)).
 * The top window of the scalars gets as few buckets (and as small a batch)
 * as its bits need.
 * GLV (G1): each scalar k < r is split as k1 + k2 z^2 (k1, k2 < 2^128, z
 * the curve parameter) onto P and (beta x, -y) = [z^2] P: twice the points
 * over half the windows, so the same bucket additions and half the bucket
 * reductions, taken where the window model says it pays.
 * Threads: the work is cut into tasks (window, range of points); each task
 * owns its buckets; the partial window sums are added at the end.
 * Split: scalars equal to 0 are dropped and scalars equal to 1 are taken
 * out of Pippenger and summed by a tree of batched affine additions (one
 * inversion per level and chunk); Pippenger runs on the rest, with the
 * window chosen from how many remain. For Groth16 witnesses of hash
 * circuits most scalars are bits, so this is where most of the saving is.
 *
 * Scalars are Fr elements in Montgomery form (the default), or plain
 * little-endian 4-limb integers (cz_fr used as a 4-limb container; any
 * 256-bit value, reduced mod r first). Points are affine; infinity (all
 * zero) is allowed anywhere and skipped. All code here is variable time:
 * the scalars must be public or the caller must accept the timing leak
 * (as every CPU Groth16 prover does for the witness).
 */
#ifndef CZ_MSM_H
#define CZ_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curve/curve.h"
#include "util/threadpool.h"

typedef enum {
    CZ_MSM_SCALAR_MONT = 0,   /* cz_fr, Montgomery form */
    CZ_MSM_SCALAR_PLAIN = 1,  /* plain integer limbs, any 256-bit value */
} cz_msm_scalar_form;

typedef enum {
    CZ_MSM_ALGO_AUTO = 0,
    CZ_MSM_ALGO_XYZZ = 1,     /* XYZZ buckets, mixed additions */
    CZ_MSM_ALGO_AFFINE = 2,   /* batched affine buckets */
} cz_msm_algo;

#define CZ_MSM_MAX_WINDOW 18   /* 2^17 buckets per task */

typedef struct {
    cz_threadpool *pool;       /* NULL: one thread */
    cz_msm_scalar_form form;
    unsigned window;           /* c in 1..CZ_MSM_MAX_WINDOW; 0: chosen from n and threads */
    cz_msm_algo algo;
    int no_split;              /* 1: 0/1 scalars go through Pippenger too */
    int no_glv;                /* 1: G1 without the GLV endomorphism split */
} cz_msm_opts;

/* out = sum_i scalars[i] * points[i], i < n (n < 2^31). opts NULL: one
   thread, Montgomery scalars, automatic choices. CZ_ERR_ARG on a bad
   window or n, CZ_ERR_NOMEM. n = 0 gives infinity. */
cz_status cz_g1_msm(cz_g1_jac *out, const cz_g1_affine *points, const cz_fr *scalars,
                    size_t n, const cz_msm_opts *opts);
cz_status cz_g2_msm(cz_g2_jac *out, const cz_g2_affine *points, const cz_fr *scalars,
                    size_t n, const cz_msm_opts *opts);

/* out = sum of points[i] over the i < n whose bit i of bitmap (bit i%64 of
   word i/64) is set; batched affine additions. */
cz_status cz_g1_sum_bitmap(cz_g1_jac *out, const cz_g1_affine *points, const uint64_t *bitmap,
                           size_t n, cz_threadpool *pool);
cz_status cz_g2_sum_bitmap(cz_g2_jac *out, const cz_g2_affine *points, const uint64_t *bitmap,
                           size_t n, cz_threadpool *pool);

/* The window Pippenger would use for n scalars on `threads` threads. */
unsigned cz_msm_window_for(size_t n, int threads, int g2);

#endif
