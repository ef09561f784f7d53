/*
 * ntt.c: radix-2 NTT over Fr, blocked for the cache. See ntt.h. The code
 * is ntt_impl.h, written once and compiled here for BLS12-381's Fr (and
 * in ntt_bn254.c for BN254's); the Filecoin helpers below are this file's.
 *
 * DESIGN. n = 2^k = 2^b * 2^L. After the bit-reversal permutation the
 * decimation-in-time stages s = 0..k-1 (half-size h = 2^s, butterfly
 * (u, v) -> (u + v*t, u - v*t) with t = w_{2h}^(i mod h)) split in two:
 *  - s < b: the butterflies stay inside blocks of 2^b contiguous elements;
 *    each block runs its b stages in cache.
 *  - s >= b: an index i = j + 2^b*m (j < 2^b) only meets indices with the
 *    same j: each column j is an independent length-2^L problem whose
 *    twiddle at local stage s' = s - b, local index m' = m mod 2^s' is
 *      w_{2^(s+1)}^(j + 2^b m') = w_{2^(s+1)}^j * w_{2^(s'+1)}^m'.
 *    The first factor is w_n^j squared (k-1-s) times; the second comes
 *    from a table of powers of w_{2^L}. A group of C adjacent columns is
 *    gathered row by row (C contiguous elements per row) into a buffer,
 *    transformed, and scattered back. Gathering avoids the cache-set
 *    conflicts that power-of-two strides cause in place.
 * Twiddle table per direction (tw[dir]): [0, 2^b) block twiddles, stage h
 * at offset h-1 holding w_{2h}^t for t < h; [2^b, 2^(b+1)) w_n^j for
 * j < 2^b; then 2^(L-1) powers of w_{2^L} (at least one slot).
 */
#include "poly/ntt.h"

#include "field/constants.h"

#define FR cz_fr
#define FR_(op) cz_fr_##op
#define NTT_DOM cz_ntt_domain
#define NTT_(op) cz_ntt_##op
#define NTT_SCALE_POWERS cz_fr_scale_powers
#define NTT_MAX_LOG CZ_NTT_MAX_LOG
#define NTT_TWO_ADICITY CZ_FR_TWO_ADICITY
#define NTT_ROOT_VALID(root) ((root) == CZ_NTT_ROOT_5 || (root) == CZ_NTT_ROOT_7)
#define NTT_ROOT_DECL                                                          \
    static const cz_fr r5 = {CZ_FR_ROOT_OF_UNITY_5_MONT}, r7 = {CZ_FR_ROOT_OF_UNITY_7_MONT};
#define NTT_ROOT(root) ((root) == CZ_NTT_ROOT_5 ? r5 : r7)

#include "poly/ntt_impl.h"

/* ---- Filecoin/bellman helpers (BLS12-381 only) ---- */

void cz_ntt_filecoin_coset(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool)
{
    cz_fr g;
    cz_fr_set_u64(&g, 7);
    ntt_core(d, a, 1, pool);
    cz_fr_scale_powers(a, d->n, &d->n_inv, &g, pool);
    ntt_core(d, a, 0, pool);
}

void cz_ntt_filecoin_h_finish(const cz_ntt_domain *d, cz_fr *h, cz_threadpool *pool)
{
    /* Z(7 w^i) = 7^n - 1 for every i: one constant, folded into the
       coset-inverse scaling together with 1/n. */
    cz_fr g, gi, z, one, c;
    cz_fr_set_u64(&g, 7);
    cz_fr_one(&one);
    fr_pow_u64(&z, &g, (uint64_t)d->n);
    cz_fr_sub(&z, &z, &one);
    cz_fr_inv(&z, &z);
    cz_fr_mul(&c, &z, &d->n_inv);
    cz_fr_inv(&gi, &g);
    ntt_core(d, h, 1, pool);
    cz_fr_scale_powers(h, d->n, &c, &gi, pool);
}
