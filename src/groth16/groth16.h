/*
 * groth16.h: Groth16 keys, proofs, prover, verifier and development setup,
 * compatible with snarkjs (.zkey / .wtns / JSON) on BLS12-381.
 *
 * DESIGN. A proving key is loaded once (mapped by a one-shot process, read
 * into memory it owns by a long-lived one; validated, points checked on
 * the curve) and then proves many witnesses. Its point arrays are the
 * file's bytes (snarkjs stores affine Montgomery coordinates, the same
 * layout as cz_g1_affine); only the coefficient section is turned into two
 * CSR matrices (A and B, one row per domain point, values in cuzk
 * Montgomery form) so a/b evaluate as sparse matrix-vector products. The
 * prover follows snarkjs exactly (docs/GROTH16.md): H comes from the odd
 * points of the 2n-domain, with snarkjs's roots of unity (generator 5).
 * Heavy steps go through a cz_backend (backend/backend.h).
 */
#ifndef CZ_GROTH16_H
#define CZ_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/cuzk.h"
#include "backend/backend.h"
#include "curve/curve.h"
#include "field/field.h"
#include "io/binfile.h"

/* ---- proving key (.zkey, Groth16) ---- */
typedef struct cz_zkey {
    uint32_t n_vars;      /* witness length, w[0] = 1 included */
    uint32_t n_public;    /* outputs + public inputs (not the constant) */
    uint32_t domain_size; /* n = 2^log_n */
    uint32_t log_n;
    cz_g1_affine alpha1, beta1, delta1;
    cz_g2_affine beta2, gamma2, delta2;
    const cz_g1_affine *ic;  /* n_public + 1 */
    const cz_g1_affine *a;   /* n_vars */
    const cz_g1_affine *b1;  /* n_vars */
    const cz_g2_affine *b2;  /* n_vars */
    const cz_g1_affine *c;   /* n_vars - n_public - 1 */
    const cz_g1_affine *h;   /* domain_size */
    cz_csr qa, qb;           /* the A and B matrices, domain_size rows (empty when compact) */
    /* Compact form (native circuits: cz_zkey_from_shape, or cz_zkey_compact
       of a loaded key): A and B as cz_cmat over one coefficient table, qa
       and qb empty. Each has at most domain_size rows (A: the circuit's
       constraints then snarkjs's n_public + 1 rows w_s = 1); rows past
       n_rows evaluate to 0. */
    bool compact;
    cz_cmat ca, cb;
    cz_fr *coefs;            /* n_coefs, Montgomery */
    uint32_t n_coefs;
    /* B density: when b_idx is set, b1 and b2 hold points only for the n_b
       variables that occur in B, b_idx[k] (ascending) being the variable
       of b1[k] and b2[k]; the prover sums w[b_idx[k]] b1[k]. NULL: b1 and
       b2 have n_vars points. */
    uint32_t *b_idx;
    uint32_t n_b;
    /* C folded into the key (native keys made with cz_setup_opts.fold_c;
       docs/GROTH16.md, "C through the key"): the private wires' C points
       also carry -w_s(tau) Z(tau) / (Z(g) delta), so the prover takes h_j
       = a(x_j) b(x_j) (4 NTTs instead of 6, no c vector), and these
       n_public + 1 points carry the same term of the public wires: pi_c
       gains sum_{s <= n_public} w_s cpub_s. NULL: an ordinary key. */
    const cz_g1_affine *cpub;
    /* storage */
    uint64_t uid;            /* unique per loaded key (process-wide): device caches key on it */
    cz_blob blob;
    void *copies[7];         /* aligned copies of unaligned sections; owned arrays */
    bool copy_all;           /* loading from caller bytes to copy: copy every section */
} cz_zkey;

/* Load and validate a .zkey. `threads` = 0: all cores. The name is used
   in messages. */
cz_status cz_zkey_load(cz_zkey **out, const char *path, unsigned threads,
                       char *err, size_t err_len);
/* The same from bytes; the bytes are copied when `copy`, else borrowed
   (they must outlive the key). */
cz_status cz_zkey_load_bytes(cz_zkey **out, const void *data, size_t len, bool copy,
                             const char *name, unsigned threads, char *err, size_t err_len);
void cz_zkey_free(cz_zkey *key);

/* How cz_zkey_load_ex / cz_zkey_load_fd load a .zkey file. */
typedef struct {
    unsigned threads;        /* 0: all cores */
    bool private_copy;       /* read the file into memory the key owns rather than map it: a
                                process that lives long (the daemon) must, since a mapped file
                                truncated under it faults (SIGBUS) on the next access */
    uint64_t max_file_bytes; /* a larger file is refused (CZ_ERR_NOMEM) before it is read;
                                0: no limit */
    uint64_t mem_limit;      /* most bytes the A and B matrices may take, refused before they
                                are allocated (CZ_ERR_NOMEM); 0: the machine's RAM */
    bool no_matrices;        /* check everything (coefficients too) but build no matrices:
                                describe a key (cuzk info), never prove with it */
} cz_zkey_load_opts;
cz_status cz_zkey_load_ex(cz_zkey **out, const char *path, const cz_zkey_load_opts *opts,
                          char *err, size_t err_len);
/* The same from an open regular file of `size` bytes (cz_file_open), always
   as a private copy; the fd stays open. `name` is for messages. */
cz_status cz_zkey_load_fd(cz_zkey **out, int fd, uint64_t size, const char *name,
                          const cz_zkey_load_opts *opts, char *err, size_t err_len);
/* Bytes of the A and B matrices of a domain with `nnz` coefficients. */
uint64_t cz_zkey_matrix_bytes(uint32_t domain_size, uint64_t nnz);

/* Header-level facts of a zkey, without validating points (for `info`). */
typedef struct {
    uint32_t protocol, n_vars, n_public, domain_size, n_coefs;
    uint32_t n_contributions;
    bool bn254;
} cz_zkey_info;
cz_status cz_zkey_read_info(cz_zkey_info *info, const uint8_t *data, size_t len,
                            const char *name, char *err, size_t err_len);
/* The same from an open regular file of `size` bytes, reading only its
   section table and headers (a few KB, with pread), and every section's
   size checked against the header: *mem_bytes gets the host memory a
   private-copy load of it takes (the file and the matrices), so that a
   budget is checked before the file is read. */
cz_status cz_zkey_peek_fd(cz_zkey_info *info, uint64_t *mem_bytes, int fd, uint64_t size,
                          const char *name, char *err, size_t err_len);

/* ---- witness (.wtns) ---- */
/* Parse a .wtns: version 2, n8 = 32, prime r, every value < r, w[0] = 1.
   expected_n != 0: the count must equal it (CZ_ERR_WITNESS otherwise).
   *out (Montgomery form) is allocated; the caller frees it with
   cz_wtns_free (which wipes it: the witness is secret). */
cz_status cz_wtns_parse(cz_fr **out, uint32_t *n_out, const uint8_t *data, size_t len,
                        const char *name, uint32_t expected_n, char *err, size_t err_len);
/* The same checks and messages, into a caller's buffer of `cap` values
   (e.g. a pinned pool buffer); *n_out gets the count. On an error the
   buffer is wiped. out == NULL: check the header only and report the
   count in *n_out, to size a buffer (values unchecked). */
cz_status cz_wtns_parse_into(cz_fr *out, size_t cap, uint32_t *n_out, const uint8_t *data,
                             size_t len, const char *name, uint32_t expected_n, char *err,
                             size_t err_len);
void cz_wtns_free(cz_fr *w, uint32_t n);
/* Write a .wtns (tests and tools). */
cz_status cz_wtns_write(const char *path, const cz_fr *w, uint32_t n, char *err, size_t err_len);

/* ---- constraint system (.r1cs) ---- */
typedef struct {
    uint32_t wire;
    cz_fr coef;  /* Montgomery */
} cz_r1cs_term;

typedef struct {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    /* per constraint c and matrix m (0 = A, 1 = B, 2 = C): terms
       [start[3c+m], start[3c+m+1]) of `terms` */
    uint64_t *start;   /* 3 * n_constraints + 1 */
    cz_r1cs_term *terms;
    uint64_t n_terms;
} cz_r1cs;

cz_status cz_r1cs_load(cz_r1cs **out, const char *path, char *err, size_t err_len);
cz_status cz_r1cs_parse(cz_r1cs **out, const uint8_t *data, size_t len, const char *name,
                        char *err, size_t err_len);
void cz_r1cs_free(cz_r1cs *cs);
/* Write an .r1cs (tests build small circuits in memory). */
cz_status cz_r1cs_write(const char *path, const cz_r1cs *cs, char *err, size_t err_len);

/* ---- verification key, proof ---- */
typedef struct {
    uint32_t n_public;
    cz_g1_affine alpha1;
    cz_g2_affine beta2, gamma2, delta2;
    cz_g1_affine *ic;  /* n_public + 1, owned */
} cz_vk;

typedef struct {
    cz_g1_affine a;
    cz_g2_affine b;
    cz_g1_affine c;
} cz_proof;

void cz_vk_free(cz_vk *vk);
/* The verification key of a proving key (ic copied). */
cz_status cz_vk_from_zkey(cz_vk **out, const cz_zkey *key);

/* ---- prover ---- */
typedef struct {
    double eval_abc_ms, ntt_ms, msm_ms, assemble_ms, total_ms;
    double msm_a_ms, msm_b1_ms, msm_b2_ms, msm_c_ms, msm_h_ms;
    double upload_ms;  /* key upload to the device inside this proof (0: resident or CPU) */
    uint64_t h2d_bytes; /* bytes copied host to device by the GPU's whole-proof path (the
                           witness, packed or whole, and the key when it was uploaded); 0 else */
    char tier[16];     /* where the key's points were read from: "host" (CPU backend),
                          "resident" (kept on the GPU), "streamed" (copied per proof) */
} cz_prove_timings;

/* Prove: w has key->n_vars values (Montgomery, w[0] = 1). The blinding r,
   s come from the OS CSPRNG unless rs is given (tests: rs[0] = r,
   rs[1] = s). timings may be NULL. */
cz_status cz_groth16_prove(cz_proof *out, const cz_zkey *key, const cz_fr *w,
                           cz_backend *be, const cz_fr *rs, cz_prove_timings *timings,
                           char *err, size_t err_len);
/* The same with w already packed (groth16/witpack.h: pw packed from this
   w, or NULL), for a backend that sends it packed: the daemon packs in its
   witness stage so that the device is not held while the host packs. */
struct cz_wit_packed;
cz_status cz_groth16_prove_packed(cz_proof *out, const cz_zkey *key, const cz_fr *w,
                                  const struct cz_wit_packed *pw, cz_backend *be, const cz_fr *rs,
                                  cz_prove_timings *timings, char *err, size_t err_len);

/* ---- verifier ---- */
/* CZ_OK when valid, CZ_ERR_VERIFY when the pairing check fails,
   CZ_ERR_NOT_ON_CURVE / CZ_ERR_SUBGROUP for bad proof points, CZ_ERR_ARG
   for a public-input count that is not vk->n_public. Public inputs are
   Fr elements (so < r by construction). */
cz_status cz_groth16_verify(const cz_vk *vk, const cz_fr *pub, size_t n_pub,
                            const cz_proof *proof, char *err, size_t err_len);

/* Verify JSON texts, naming the files in messages. CZ_OK: valid;
   CZ_ERR_VERIFY: invalid (pairing, subgroup, curve, public input range or
   count); other codes: unreadable input. A key whose "curve" names BN254
   ("bn128") goes to cz_bn254_verify_json_named (verify_bn254.h). */
cz_status cz_verify_json_named(const char *vk_json, size_t vk_len, const char *vk_name,
                               const char *pub_json, size_t pub_len, const char *pub_name,
                               const char *proof_json, size_t proof_len, const char *proof_name,
                               char *err, size_t err_len);

/* ---- setup (development and benchmarks only) ---- */
typedef struct {
    bool seeded;     /* true: toxic waste from `seed` (tests) */
    uint64_t seed;
    unsigned threads;
    bool fold_c;     /* cz_zkey_from_shape: fold C into the key (cz_zkey.cpub); the
                        .zkey writer ignores it (snarkjs's prover needs C's transforms) */
} cz_setup_opts;

/* Make a snarkjs-compatible proving key for `cs` and write it to path. */
cz_status cz_groth16_setup(const cz_r1cs *cs, const char *zkey_path, const cz_setup_opts *opts,
                           char *err, size_t err_len);

/* A development key for a recorded circuit, made in memory in compact form
   (compact matrices, B density): the same toxic waste as cz_groth16_setup
   for the same opts, so a seeded key equals that setup's key of
   cz_shape_to_r1cs(shape) (with fold_c, all but its C points, and cpub
   besides). The fixed-base products run on `be` when it has
   them (a GPU), else on the CPU (be may be NULL). */
cz_status cz_zkey_from_shape(cz_zkey **out, const cz_shape *shape, const cz_setup_opts *opts,
                             cz_backend *be, char *err, size_t err_len);
/* Turn a loaded key's CSR matrices into the compact form with B density, in
   place (tests; CZ_ERR_UNSUPPORTED when the coefficients take more than
   65,536 distinct values). */
cz_status cz_zkey_compact(cz_zkey *key, char *err, size_t err_len);

#endif
