/*
 * msm_internal.h: what the G1 and G2 instances of the MSM share (msm.c):
 * scalar preparation and signed-digit extraction. Internal to src/msm.
 */
#ifndef CZ_MSM_INTERNAL_H
#define CZ_MSM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msm/msm.h"

typedef struct { uint64_t l[4]; } cz_msm_sc_;   /* plain scalar < r */

/* The scalars sorted into classes. sc[i] holds scalar i as plain limbs
   (< r) for every i; big lists the i with a scalar other than 0 and 1
   (other than 0 when not splitting), ones those with scalar 1; entries
   whose point is at infinity are in neither. */
typedef struct {
    cz_msm_sc_ *sc;
    uint32_t *big, *ones;
    size_t n_big, n_ones;
} cz_msm_prep_;

/* is_inf(points, i): whether point i is infinity. */
typedef bool (*cz_msm_is_inf_fn_)(const void *points, size_t i);

cz_status cz_msm_prepare_(cz_msm_prep_ *p, const void *points, cz_msm_is_inf_fn_ is_inf,
                          const cz_fr *scalars, size_t n, cz_msm_scalar_form form, bool split,
                          cz_threadpool *pool);
void cz_msm_prep_free_(cz_msm_prep_ *p);
/* How many point ranges to cut each window into (see msm.c). */
unsigned cz_msm_ranges_(size_t n, unsigned n_win, int threads);

/* GLV split for G1 (msm_impl.h): k = k2 z^2 + k1 with k1 = k mod z^2,
   k2 = floor(k / z^2), z the BLS parameter; for k < r = z^4 - z^2 + 1 both
   are below z^2 < 2^128 (k2 <= z^2 - 1). Then, phi(x, y) = (beta x, y)
   acting as [-z^2], k P = k1 P + k2 (beta x, -y). Variable time. */
void cz_msm_glv_split_(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4]);
/* 129: k1, k2 < 2^128 and signed digits need a clear top bit */
#define CZ_MSM_GLV_BITS 129

/* The window Pippenger uses for n scalars of `bits` bits (< 2^(bits-1)),
   and plan_: the same choice (*c) with its modelled cost per thread, in
   bucket additions (see msm.c). */
unsigned cz_msm_window_for_bits_(size_t n, int threads, int g2, unsigned bits);
double cz_msm_plan_(size_t n, int threads, int g2, unsigned bits, unsigned *c);

/* Signed digit of window w (see msm.h): in [-2^(c-1), 2^(c-1)]. */
static inline int32_t cz_msm_digit_(const uint64_t s[4], unsigned w, unsigned c)
{
    unsigned lo = w * c, limb = lo / 64, off = lo % 64;
    uint64_t v = s[limb] >> off;
    if (off + c > 64 && limb + 1 < 4)
        v |= s[limb + 1] << (64 - off);
    v &= (((uint64_t)1) << c) - 1;
    int64_t d = (int64_t)v;
    if (lo)
        d += (int64_t)((s[(lo - 1) / 64] >> ((lo - 1) % 64)) & 1); /* carry in */
    if ((v >> (c - 1)) & 1)
        d -= (int64_t)1 << c;                                        /* carry out */
    return (int32_t)d;
}

#endif
