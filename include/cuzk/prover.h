/*
 * prover.h: the public C API of the cuzk Groth16 prover for snarkjs keys,
 * in rapidsnark's shape: create a prover from a .zkey (path or bytes),
 * prove from .wtns bytes to snarkjs JSON strings, destroy.
 *
 *   cz_prover *p;
 *   char err[256];
 *   if (cz_prover_create(&p, "circuit.zkey", NULL, err, sizeof err)) die(err);
 *   char proof[4096], pub[65536];
 *   size_t proof_len = sizeof proof, pub_len = sizeof pub;
 *   cz_status st = cz_prover_prove(p, wtns, wtns_len, proof, &proof_len,
 *                                  pub, &pub_len, err, sizeof err);
 *   cz_prover_destroy(p);
 *
 * Errors: every function returns cz_status (cuzk.h) and writes one
 * sentence naming the fault into err (which may be NULL).
 */
#ifndef CUZK_PROVER_H
#define CUZK_PROVER_H

#include <stddef.h>

#include "cuzk/cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cz_prover cz_prover;

typedef enum {
    CZ_DEVICE_AUTO = 0, /* CUDA where built and a GPU exists, else CPU */
    CZ_DEVICE_CPU = 1,
    CZ_DEVICE_CUDA = 2,
} cz_device;

typedef struct {
    unsigned threads;   /* CPU threads; 0: all cores */
    int verify;         /* nonzero: check each proof before returning it */
    cz_device device;
    int gpu;            /* GPU index for CZ_DEVICE_CUDA / AUTO */
} cz_prover_opts;

/* threads 0, verify 1, device auto, gpu 0. */
void cz_prover_opts_default(cz_prover_opts *opts);

/* Load and validate a Groth16 .zkey, BLS12-381 or BN254 (snarkjs's "bn128",
   told by the key's header), proved on the device opts names (a GPU
   fault during a proof: the CPU proves it, with a warning in the log).
   opts NULL: defaults. The
   file is read into memory the prover owns: changing or truncating it
   afterwards does not affect the prover. Only a regular file is read (a
   FIFO or device is refused). */
cz_status cz_prover_create(cz_prover **out, const char *zkey_path, const cz_prover_opts *opts,
                           char *err, size_t err_len);
/* The same from the bytes of a .zkey (copied). */
cz_status cz_prover_create_from_bytes(cz_prover **out, const void *zkey, size_t zkey_len,
                                      const cz_prover_opts *opts, char *err, size_t err_len);

/* Buffer sizes that always suffice: the proof JSON's length varies from
   proof to proof (decimal coordinates), never beyond CZ_PROOF_JSON_MAX;
   the public signals need at most cz_prover_public_json_max(prover). */
#define CZ_PROOF_JSON_MAX 2048
size_t cz_prover_public_json_max(const cz_prover *prover);

/* Prove from the bytes of a .wtns. proof_json / public_json receive
   NUL-terminated snarkjs JSON; *proof_len / *public_len give their
   capacities in bytes and return the sizes needed including the NUL.
   Too small a buffer: CZ_ERR_ARG, nothing written, the needed sizes set.
   A witness of the wrong length: CZ_ERR_WITNESS. A proof that fails its
   self-check (opts.verify): CZ_ERR_VERIFY. */
cz_status cz_prover_prove(cz_prover *prover, const void *wtns, size_t wtns_len,
                          char *proof_json, size_t *proof_len,
                          char *public_json, size_t *public_len,
                          char *err, size_t err_len);

/* NULL is a no-op. */
void cz_prover_destroy(cz_prover *prover);

/* Verify snarkjs JSON texts (NUL-terminated), BLS12-381 or BN254 as the
   key's "curve" says ("bn128": snarkjs's BN254): CZ_OK when the proof is
   valid, CZ_ERR_VERIFY when it is not (pairing check, a point outside the
   subgroup or off the curve, a public input >= r or the wrong number of
   them), other codes for unreadable input: CZ_ERR_FORMAT (bad JSON or
   shape), CZ_ERR_CURVE (a file of the other curve than the key's, or an
   unknown curve), CZ_ERR_NOT_ON_CURVE (a verification-key point off the
   curve). */
cz_status cz_verify_json(const char *vk_json, const char *public_json, const char *proof_json,
                         char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif
