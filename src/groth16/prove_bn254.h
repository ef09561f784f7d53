/*
 * prove_bn254.h: the steps of the bn128 prover that its CPU and GPU
 * versions share (prove_bn254.c, backend/cuda_glue.c).
 *
 * DESIGN. Both provers start with a, b, c on the domain from the key's
 * matrices on the host (two sparse matrix-vector products and the product
 * c = a .* b, rows in parallel chunks of the pool); the one function here
 * does it for both, so the two stay the same proof for the same r, s;
 * and the one check of their arguments.
 */
#ifndef CZ_GROTH16_PROVE_BN254_H
#define CZ_GROTH16_PROVE_BN254_H

#include "groth16/groth16_bn254.h"
#include "util/threadpool.h"

/* a = A w, b = B w, c = a .* b for the key's domain_size rows (a, b, c:
   domain_size values each; key loaded with its matrices: qa and qb of
   domain_size rows, columns < n_vars, checked by the loader); pool NULL:
   the calling thread. */
void cz_bn254_groth16_eval_abc(cz_bn254_fr *a, cz_bn254_fr *b, cz_bn254_fr *c,
                               const cz_bn254_zkey *key, const cz_bn254_fr *w,
                               cz_threadpool *pool);

/* The arguments both provers refuse alike: CZ_OK, or CZ_ERR_ARG with a
   message for a NULL out, key or w, a key loaded without its matrices
   (qa, qb of domain_size rows), fewer variables than public inputs + 1,
   or a domain past 2^28 (the 2-adicity of r). */
cz_status cz_bn254_groth16_prove_check(const void *out, const cz_bn254_zkey *key,
                                       const cz_bn254_fr *w, char *err, size_t err_len);

#endif
