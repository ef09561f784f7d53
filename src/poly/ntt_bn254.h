/*
 * ntt_bn254.h: number-theoretic transforms over BN254's Fr ("bn128"), the
 * counterpart of ntt.h.
 *
 * DESIGN. One code base, two curves (docs/CURVES.md): the transforms are
 * ntt_impl.h, the code BLS12-381's ntt.c compiles, compiled by
 * ntt_bn254.c over cz_bn254_fr with the cz_bn254_ntt_ prefix; the
 * definitions, the layout (in place, natural order, Montgomery form) and
 * the threading are ntt.h's. BN254's r has 2-adicity 28, so domains go up
 * to 2^28, and one root convention is offered, snarkjs's
 * (CZ_NTT_ROOT_5): ffjavascript takes the smallest quadratic non-residue,
 * nqr = 5, and w_(2^28) = 5^((r-1)/2^28); the root of order 2^k is that
 * root squared 28 - k times (ffjavascript's Fr.w[k]).
 *
 * cz_bn254_ntt_snarkjs_odd_points is snarkjs's H step (groth16_prove.js):
 * inverse NTT, coefficient j times inc^j, forward NTT, where inc is the
 * root of order 2n (the odd points of the 2n domain), except at 2^28,
 * where none exists and snarkjs takes inc = Fr.shift = nqr^2 = 25; the
 * domain's omega_2n holds inc in both cases.
 */
#ifndef CZ_NTT_BN254_H
#define CZ_NTT_BN254_H

#include <stddef.h>

#include "cuzk/cuzk.h"
#include "field/bn254.h"
#include "poly/ntt.h"
#include "util/threadpool.h"

#define CZ_BN254_NTT_MAX_LOG 28

typedef struct cz_bn254_ntt_domain {
    unsigned log_n;
    size_t n;
    cz_ntt_root root;
    cz_bn254_fr omega;       /* primitive n-th root of unity */
    cz_bn254_fr omega_inv;
    cz_bn254_fr omega_2n;    /* primitive 2n-th root (omega_2n^2 = omega); at 2^28 the shift 25 */
    cz_bn254_fr n_inv;       /* 1/n */
    unsigned blk_log;
    cz_bn254_fr *tw[2];
    int no_buffer;           /* tests: take the allocation-free column path */
} cz_bn254_ntt_domain;

/* A domain of size 2^log_n. root must be CZ_NTT_ROOT_5 (snarkjs's);
   CZ_ERR_ARG for another, or log_n > 28, CZ_ERR_NOMEM. create_ex forces
   the block size as ntt.h's. */
cz_status cz_bn254_ntt_domain_create(cz_bn254_ntt_domain **out, unsigned log_n, cz_ntt_root root);
cz_status cz_bn254_ntt_domain_create_ex(cz_bn254_ntt_domain **out, unsigned log_n,
                                        cz_ntt_root root, unsigned blk_log);
void cz_bn254_ntt_domain_destroy(cz_bn254_ntt_domain *d);

void cz_bn254_ntt_forward(const cz_bn254_ntt_domain *d, cz_bn254_fr *a, cz_threadpool *pool);
void cz_bn254_ntt_inverse(const cz_bn254_ntt_domain *d, cz_bn254_fr *a, cz_threadpool *pool);
void cz_bn254_ntt_coset_forward(const cz_bn254_ntt_domain *d, cz_bn254_fr *a,
                                const cz_bn254_fr *g, cz_threadpool *pool);
void cz_bn254_ntt_coset_inverse(const cz_bn254_ntt_domain *d, cz_bn254_fr *a,
                                const cz_bn254_fr *g, cz_threadpool *pool);

/* a[i] *= c * g^i for i < n (c NULL: 1). */
void cz_bn254_fr_scale_powers(cz_bn254_fr *a, size_t n, const cz_bn254_fr *c,
                              const cz_bn254_fr *g, cz_threadpool *pool);

/* snarkjs's H step: from the values at w^i to the values at inc * w^i
   (inc = omega_2n, see above). */
void cz_bn254_ntt_snarkjs_odd_points(const cz_bn254_ntt_domain *d, cz_bn254_fr *a,
                                     cz_threadpool *pool);

#endif
