/*
 * verify_bn254.h: the Groth16 verifier for BN254 ("bn128"), snarkjs's
 * default curve: verification_key.json, public.json and proof.json as
 * snarkjs writes them with "curve": "bn128".
 *
 * DESIGN. The same checks and the same status contract as BLS12-381's
 * cz_groth16_verify and cz_verify_json_named (groth16.h), over BN254's
 * types (curve/bn254_curve.h) and pairing (pairing/bn254_pairing.h). See
 * verify_bn254.c for why this is a small file of its own rather than a
 * second instantiation of verify.c.
 */
#ifndef CZ_GROTH16_VERIFY_BN254_H
#define CZ_GROTH16_VERIFY_BN254_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curve/bn254_curve.h"

typedef struct {
    uint32_t n_public;
    cz_bn254_g1_affine alpha1;
    cz_bn254_g2_affine beta2, gamma2, delta2;
    cz_bn254_g1_affine *ic;  /* n_public + 1, owned */
} cz_bn254_vk;

typedef struct {
    cz_bn254_g1_affine a;
    cz_bn254_g2_affine b;
    cz_bn254_g1_affine c;
} cz_bn254_proof;

void cz_bn254_vk_free(cz_bn254_vk *vk);  /* NULL: no-op */

/* true when text is a JSON object whose "curve" names BN254 ("bn128",
   "bn254", "alt_bn128"): the dispatch of cz_verify_json_named. */
bool cz_bn254_json_is_bn254(const char *text, size_t len);

/* Readers, as json.h's: CZ_ERR_FORMAT for shape and syntax, CZ_ERR_CURVE
   when "curve" names another curve, CZ_ERR_NOT_ON_CURVE / CZ_ERR_SUBGROUP
   for points (the decoders check both), CZ_ERR_RANGE for a public input
   >= r. Messages start with name. */
cz_status cz_bn254_vk_from_json(cz_bn254_vk **out, const char *text, size_t len, const char *name,
                                char *err, size_t err_len);
cz_status cz_bn254_proof_from_json(cz_bn254_proof *out, const char *text, size_t len,
                                   const char *name, char *err, size_t err_len);
/* *out malloc'd (free()), non-NULL on success even for n = 0. */
cz_status cz_bn254_public_from_json(cz_bn254_fr **out, size_t *n, const char *text, size_t len,
                                    const char *name, char *err, size_t err_len);

/* CZ_OK valid; CZ_ERR_VERIFY the pairing check failed; CZ_ERR_NOT_ON_CURVE
   / CZ_ERR_SUBGROUP a bad point; CZ_ERR_ARG a public-input count that is
   not vk->n_public. */
cz_status cz_bn254_groth16_verify(const cz_bn254_vk *vk, const cz_bn254_fr *pub, size_t n_pub,
                                  const cz_bn254_proof *proof, char *err, size_t err_len);

/* cz_verify_json_named for BN254: CZ_OK valid; CZ_ERR_VERIFY invalid
   (pairing, proof point off the curve or outside G2, public input >= r or
   of the wrong count); other codes: unreadable input or a file of the
   other curve (CZ_ERR_CURVE). */
cz_status cz_bn254_verify_json_named(const char *vk_json, size_t vk_len, const char *vk_name,
                                     const char *pub_json, size_t pub_len, const char *pub_name,
                                     const char *proof_json, size_t proof_len, const char *proof_name,
                                     char *err, size_t err_len);

#endif
