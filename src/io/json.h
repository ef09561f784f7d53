/*
 * json.h: snarkjs's JSON files: proof.json, public.json and
 * verification_key.json, read and written (jansson).
 *
 * Shapes (all numbers decimal strings of plain values): proof.json
 * {pi_a: [x, y, "1"], pi_b: [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
 * pi_c: [x, y, "1"], protocol: "groth16", curve: "bls12381"}; public.json
 * an array of strings; verification_key.json {protocol, curve, nPublic,
 * vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC}.
 * Readers check shape, decimal syntax and range (CZ_ERR_FORMAT), the curve
 * name (CZ_ERR_CURVE for "bn128"), and that points are on the curve
 * (CZ_ERR_NOT_ON_CURVE); a public input >= r is CZ_ERR_RANGE. Subgroup
 * membership is the verifier's business. Messages start with the name.
 */
#ifndef CZ_IO_JSON_H
#define CZ_IO_JSON_H

#include <stddef.h>

#include "cuzk/cuzk.h"
#include "groth16/groth16.h"

/* Writers return a malloc'd NUL-terminated string (NULL: out of memory). */
char *cz_proof_to_json(const cz_proof *p);
char *cz_public_to_json(const cz_fr *pub, size_t n);
/* alphabeta = e(alpha1, beta2) for vk_alphabeta_12; NULL writes zeros. */
char *cz_vk_to_json(const cz_vk *vk, const cz_fp12 *alphabeta);

cz_status cz_proof_from_json(cz_proof *out, const char *text, size_t len, const char *name,
                             char *err, size_t err_len);
/* *out malloc'd (free()); n may be 0 (out then non-NULL). */
cz_status cz_public_from_json(cz_fr **out, size_t *n, const char *text, size_t len,
                              const char *name, char *err, size_t err_len);
cz_status cz_vk_from_json(cz_vk **out, const char *text, size_t len, const char *name,
                          char *err, size_t err_len);

/* Write a whole string to a file. */
cz_status cz_write_text(const char *path, const char *text, char *err, size_t err_len);

#endif
