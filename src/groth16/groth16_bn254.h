/*
 * groth16_bn254.h: snarkjs's Groth16 over BN254 ("bn128"): the proving
 * key (.zkey), the witness (.wtns), the prover and the JSON it writes.
 *
 * DESIGN. The counterpart of groth16.h for snarkjs's default curve. The
 * key is a type of its own, cz_bn254_zkey, rather than cz_zkey written
 * once over macros: cz_zkey carries what only BLS12-381 keys have (the
 * compact matrices of native circuits, B density, the device caches keyed
 * on its uid, .czk keys) and is the type of every layer above it (the
 * backends, the engine, the GPU's resident keys), so making it generic
 * would touch all of them before any of them takes a BN254 key. What a
 * snarkjs key is, is shared: the iden3 container and its checks
 * (io/binfile.h), the section layout and the header facts
 * (cz_zkey_read_info recognises a BN254 header and sets info.bn254), the
 * load options (cz_zkey_load_opts), the timings (cz_prove_timings), and
 * all the arithmetic below (the MSM of msm_impl.h, the NTT and snarkjs's
 * H step of ntt_impl.h, the group law of point_impl.h). The reader and
 * the prover here are the CPU path of groth16.h's, on cz_bn254_ types:
 *  - the key's point sections are the file's bytes (affine little-endian
 *    Montgomery coordinates, R = 2^256: exactly cz_bn254_g1_affine /
 *    cz_bn254_g2_affine), pointed at where 8-byte aligned, else copied;
 *    every point is checked once, coordinates below p and on the curve,
 *    and the header's G2 points in the subgroup (psi(Q) = [6x^2] Q), as
 *    zkey.c does for BLS12-381; G1 is the whole curve;
 *  - the coefficients (coef R^2 mod r in the file) become two CSR
 *    matrices of coef R (one Montgomery reduction), after one pass that
 *    validates every record and finds the highest row (it must reach past
 *    half the domain, so a header cannot claim a huge domain over a small
 *    circuit), and a memory limit;
 *  - the prover is snarkjs's groth16_prove.js: a = A w, b = B w, c = a .* b
 *    on the domain; a, b, c moved to the odd points of the 2n-domain
 *    (cz_bn254_ntt_snarkjs_odd_points); h = a b - c; five MSMs (A, B1, B2,
 *    C over the private signals, H over h); with r, s uniform in Fr from
 *    the OS CSPRNG:
 *      pi_a = alpha1 + sum w_i A_i + r delta1
 *      pi_b = beta2 + sum w_i B2_i + s delta2
 *      pi_c = sum_{i>nPublic} w_i C_i + sum h_j H_j + s pi_a + r b1 - r s delta1
 *    with b1 = beta1 + sum w_i B1_i + s delta1. The products by r and s
 *    are constant time, and r, s, r s and the vectors are wiped.
 */
#ifndef CZ_GROTH16_BN254_H
#define CZ_GROTH16_BN254_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curve/bn254_curve.h"
#include "groth16/groth16.h"
#include "groth16/verify_bn254.h"
#include "io/binfile.h"
#include "util/threadpool.h"

/* A sparse matrix in compressed rows over BN254's Fr (backend.h's cz_csr). */
typedef struct {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr;   /* n_rows + 1 */
    uint32_t *col;       /* nnz signal indices */
    cz_bn254_fr *val;    /* nnz values, Montgomery form */
} cz_bn254_csr;

typedef struct cz_bn254_zkey {
    uint32_t n_vars;      /* witness length, w[0] = 1 included */
    uint32_t n_public;    /* outputs + public inputs (not the constant) */
    uint32_t domain_size; /* n = 2^log_n */
    uint32_t log_n;
    uint32_t n_coefs, n_contributions;
    cz_bn254_g1_affine alpha1, beta1, delta1;
    cz_bn254_g2_affine beta2, gamma2, delta2;
    const cz_bn254_g1_affine *ic;  /* n_public + 1 */
    const cz_bn254_g1_affine *a;   /* n_vars */
    const cz_bn254_g1_affine *b1;  /* n_vars */
    const cz_bn254_g2_affine *b2;  /* n_vars */
    const cz_bn254_g1_affine *c;   /* n_vars - n_public - 1 */
    const cz_bn254_g1_affine *h;   /* domain_size */
    cz_bn254_csr qa, qb;           /* domain_size rows; empty when loaded without matrices */
    cz_blob blob;
    void *copies[6];               /* aligned copies of unaligned sections */
} cz_bn254_zkey;

/* true when `data` is a .zkey whose Groth16 header names BN254's q (the
   dispatch of the CLI, the C API and cuzk info); false for anything else,
   a BLS12-381 key or an unreadable file included. */
bool cz_zkey_bytes_are_bn254(const uint8_t *data, size_t len);
/* The same for a file: reads its section table and headers only. */
bool cz_zkey_file_is_bn254(const char *path);

/* Load and validate a bn128 .zkey (opts as groth16.h's; NULL: all cores,
   mapped). CZ_ERR_CURVE for a key of another curve, CZ_ERR_FORMAT,
   CZ_ERR_NOT_ON_CURVE, CZ_ERR_SUBGROUP, CZ_ERR_RANGE, CZ_ERR_NOMEM, with
   a message that starts with the file's name. */
cz_status cz_bn254_zkey_load_ex(cz_bn254_zkey **out, const char *path,
                                const cz_zkey_load_opts *opts, char *err, size_t err_len);
/* From bytes, copied (the caller's buffer may go once this returns). */
cz_status cz_bn254_zkey_load_bytes(cz_bn254_zkey **out, const void *data, size_t len,
                                   const char *name, unsigned threads, char *err,
                                   size_t err_len);
void cz_bn254_zkey_free(cz_bn254_zkey *key);  /* NULL: no-op */

/* The verification key of a proving key (ic copied). */
cz_status cz_bn254_vk_from_zkey(cz_bn254_vk **out, const cz_bn254_zkey *key);

/* Parse a bn128 .wtns: version 2, n8 = 32, prime BN254's r (BLS12-381's
   is CZ_ERR_CURVE, named), every value < r, w[0] = 1; expected_n != 0:
   the count must equal it (CZ_ERR_WITNESS). *out is Montgomery form,
   freed (and wiped) with cz_bn254_wtns_free. */
cz_status cz_bn254_wtns_parse(cz_bn254_fr **out, uint32_t *n_out, const uint8_t *data,
                              size_t len, const char *name, uint32_t expected_n, char *err,
                              size_t err_len);
void cz_bn254_wtns_free(cz_bn254_fr *w, uint32_t n);
/* The prime of a .wtns names BN254's r (header only; false if unreadable). */
bool cz_wtns_bytes_are_bn254(const uint8_t *data, size_t len);

/* Prove on the CPU: w has key->n_vars values (Montgomery, w[0] = 1). pool:
   the threads (NULL: one). rs: the blinding (tests: rs[0] = r, rs[1] = s),
   NULL: from the OS CSPRNG. timings may be NULL (tier "host"). */
cz_status cz_bn254_groth16_prove(cz_bn254_proof *out, const cz_bn254_zkey *key,
                                 const cz_bn254_fr *w, cz_threadpool *pool,
                                 const cz_bn254_fr *rs, cz_prove_timings *timings, char *err,
                                 size_t err_len);

/* snarkjs's proof.json ("curve": "bn128") and public.json, malloc'd text
   (free()) byte for byte as snarkjs 0.7.6 writes them (no final newline);
   NULL when out of memory. */
char *cz_bn254_proof_to_json(const cz_bn254_proof *p);
char *cz_bn254_public_to_json(const cz_bn254_fr *pub, size_t n);
/* snarkjs's verification_key.json of a bn128 key (vk_alphabeta_12 =
   e(alpha1, beta2) computed here), byte for byte as `snarkjs zkey export
   verificationkey` writes it; NULL when out of memory. */
char *cz_bn254_vk_to_json(const cz_bn254_vk *vk);

#endif
