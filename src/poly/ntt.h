/*
 * ntt.h: number-theoretic transforms over Fr on domains of size 2^k.
 *
 * DESIGN. A domain holds n = 2^k (k = 0..28), its root of unity w of order
 * n and precomputed twiddles. Fr has 2-adicity 32 and two conventions for
 * the 2^32-th root matter: snarkjs takes 5^((r-1)/2^32) (CZ_NTT_ROOT_5),
 * blst/arkworks/bellman/Filecoin take 7^((r-1)/2^32) (CZ_NTT_ROOT_7); the
 * root of order 2^k is that root squared 32 - k times. Keys made with one
 * convention only verify with it.
 *
 * All transforms work in place on natural-order arrays of n elements
 * (Montgomery form, as everywhere) and run on a thread pool (NULL: one
 * thread). Definitions, with a the input and A the output:
 *   forward:        A[i] = sum_j a[j] w^(ij)            (evaluate at w^i)
 *   inverse:        a[j] = (1/n) sum_i A[i] w^(-ij)     (interpolate)
 *   coset_forward:  A[i] = sum_j a[j] (g w^i)^j         (evaluate at g w^i)
 *   coset_inverse:  the inverse of coset_forward
 * The algorithm is radix-2 decimation in time after a bit-reversal: the
 * first b stages run per contiguous block of 2^b elements, the remaining
 * k - b stages per group of columns (elements sharing their low b index
 * bits) gathered into a contiguous buffer, so each element is read from
 * memory about three times (bit reversal, blocks, columns) whatever k is,
 * and the twiddle tables stay small (O(2^b + 2^(k-b))). Cost: n/2 * k
 * Fr products plus ~n for the column twiddles.
 */
#ifndef CZ_NTT_H
#define CZ_NTT_H

#include <stddef.h>

#include "cuzk/cuzk.h"
#include "field/field.h"
#include "util/threadpool.h"

#define CZ_NTT_MAX_LOG 28

typedef enum {
    CZ_NTT_ROOT_5 = 5,  /* snarkjs */
    CZ_NTT_ROOT_7 = 7,  /* blst, arkworks, bellman, Filecoin */
} cz_ntt_root;

typedef struct cz_ntt_domain {
    unsigned log_n;
    size_t n;
    cz_ntt_root root;
    cz_fr omega;       /* primitive n-th root of unity */
    cz_fr omega_inv;
    cz_fr omega_2n;    /* primitive 2n-th root: omega_2n^2 = omega */
    cz_fr n_inv;       /* 1/n */
    /* internal: twiddle tables and the block/column split */
    unsigned blk_log;  /* b */
    cz_fr *tw[2];      /* [0] forward, [1] inverse; see ntt.c */
    int no_buffer;     /* tests: take the allocation-free column path */
} cz_ntt_domain;

/* A domain of size 2^log_n with the chosen root. CZ_ERR_ARG for
   log_n > CZ_NTT_MAX_LOG or an unknown root, CZ_ERR_NOMEM. */
cz_status cz_ntt_domain_create(cz_ntt_domain **out, unsigned log_n, cz_ntt_root root);
/* As above with the block size 2^blk_log forced (1 <= blk_log <= log_n;
   0 = default): lets the tests drive the column path on small sizes. */
cz_status cz_ntt_domain_create_ex(cz_ntt_domain **out, unsigned log_n, cz_ntt_root root,
                                  unsigned blk_log);
void cz_ntt_domain_destroy(cz_ntt_domain *d);

void cz_ntt_forward(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool);
void cz_ntt_inverse(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool);
void cz_ntt_coset_forward(const cz_ntt_domain *d, cz_fr *a, const cz_fr *g, cz_threadpool *pool);
void cz_ntt_coset_inverse(const cz_ntt_domain *d, cz_fr *a, const cz_fr *g, cz_threadpool *pool);

/* a[i] *= c * g^i for i < n (c NULL: 1). The building block of cosets. */
void cz_fr_scale_powers(cz_fr *a, size_t n, const cz_fr *c, const cz_fr *g, cz_threadpool *pool);

/* ---- Groth16 helpers: one call per polynomial ----
 *
 * snarkjs (FORMATS.md): from the values of a polynomial on the domain
 * (at w^i) to its values on the odd points of the 2n domain,
 * w_2n^(2i+1) = w_2n * w^i: inverse NTT, coefficient j times w_2n^j,
 * forward NTT. Use a CZ_NTT_ROOT_5 domain for snarkjs keys. */
void cz_ntt_snarkjs_odd_points(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool);

/* Filecoin/bellman: the coset is g*w^i with g = 7 (Fr's multiplicative
 * generator in blst/zkcrypto). filecoin_coset: from values at w^i to
 * values at 7*w^i (bellman's ifft then coset_fft). filecoin_h_finish:
 * from h's values on the coset, (a*b - c)(7 w^i), to the coefficients of
 * (a*b - c)/Z, Z = X^n - 1 (bellman's divide_by_z_on_coset then
 * icoset_fft); the prover then uses coefficients 0..n-2. Use a
 * CZ_NTT_ROOT_7 domain for Filecoin keys. */
void cz_ntt_filecoin_coset(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool);
void cz_ntt_filecoin_h_finish(const cz_ntt_domain *d, cz_fr *h, cz_threadpool *pool);

#endif
