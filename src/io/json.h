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

#include <stdbool.h>
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

/* The curve-independent writing of the two curves' files (json.c). A
   jansson value (json_t, consumed) as snarkjs's JSON.stringify(x, null, 1)
   prints it, which jansson's indent of 1 writes byte for byte, ending in a
   newline when asked; NULL when j is NULL or memory runs out. */
struct json_t;
char *cz_json_dump(struct json_t *j, bool newline);
/* public.json of either curve: an array of n decimal strings, dec(buf,
   elem) writing element i (elems + i * size) into buf, at most
   CZ_JSON_DEC_MAX bytes with its NUL; NULL when out of memory or elems is
   NULL with n > 0. */
#define CZ_JSON_DEC_MAX 128
typedef void (*cz_json_dec_fn)(char *buf, const void *elem);
char *cz_json_dec_array(const void *elems, size_t n, size_t size, cz_json_dec_fn dec,
                        bool newline);

/* Write a whole string to a file. */
cz_status cz_write_text(const char *path, const char *text, char *err, size_t err_len);

#endif
