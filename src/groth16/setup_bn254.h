/*
 * setup_bn254.h: BN254's (snarkjs's "bn128") circuit reader and
 * development setup: a circom .r1cs for bn128 to a snarkjs .zkey that
 * snarkjs's `groth16 prove` and `zkey export verificationkey` take, and
 * cuzk's BN254 prover (groth16_bn254.h).
 *
 * DESIGN. Nothing here is a second copy: the reader is io/r1cs_impl.h and
 * the setup groth16/setup_impl.h over groth16/fixed_base_impl.h, the
 * algorithms BLS12-381's cz_r1cs_load and cz_groth16_setup compile,
 * instantiated over BN254's Fr, G1 and G2 (io/r1cs_bn254.c,
 * groth16/setup_bn254.c; docs/CURVES.md). The types mirror groth16.h's
 * cz_r1cs and native.h's cz_setup_scalars over cz_bn254_fr, so a BN254
 * element never meets a BLS12-381 function. The setup's keys are for
 * development and benchmarks only (one party draws the toxic waste), as
 * BLS12-381's; --seed makes them reproducible.
 */
#ifndef CZ_GROTH16_SETUP_BN254_H
#define CZ_GROTH16_SETUP_BN254_H

#include "curve/bn254_curve.h"
#include "curve/curves.h"
#include "groth16/groth16.h"
#include "util/threadpool.h"

/* The curve of an .r1cs file from its header's prime: BLS12-381 or BN254;
   CZ_ERR_CURVE naming both for any other prime; the container's errors
   (CZ_ERR_FORMAT, CZ_ERR_IO) as the reader's. */
cz_status cz_r1cs_file_curve(const char *path, const cz_curve **out, char *err, size_t err_len);

typedef struct {
    uint32_t wire;
    cz_bn254_fr coef;  /* Montgomery */
} cz_bn254_r1cs_term;

/* groth16.h's cz_r1cs over BN254's Fr */
typedef struct {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    uint64_t *start;   /* 3 * n_constraints + 1: terms of constraint c, matrix m */
    cz_bn254_r1cs_term *terms;
    uint64_t n_terms;
} cz_bn254_r1cs;

/* An .r1cs whose prime is BN254's r (another prime: CZ_ERR_CURVE). */
cz_status cz_bn254_r1cs_load(cz_bn254_r1cs **out, const char *path, char *err, size_t err_len);
cz_status cz_bn254_r1cs_parse(cz_bn254_r1cs **out, const uint8_t *data, size_t len,
                              const char *name, char *err, size_t err_len);
void cz_bn254_r1cs_free(cz_bn254_r1cs *cs);

/* native.h's cz_setup_scalars over BN254 */
typedef struct {
    uint32_t n_vars, n_public, n_constraints, log_n;
    size_t n;
    cz_bn254_fr alpha, beta, delta;
    cz_bn254_fr *u, *v, *k, *h;
    uint8_t *in_b;                /* unused: always NULL */
    cz_threadpool *pool;
} cz_bn254_setup_scalars;

void cz_bn254_setup_scalars_drop(cz_bn254_fr **arr, size_t count, cz_threadpool *pool);
void cz_bn254_setup_scalars_free(cz_bn254_setup_scalars *s);

/* out[i] = scalars[i] G, BN254's generators (native.h's cz_fixed_base_g1/g2). */
cz_status cz_bn254_fixed_base_g1(cz_bn254_g1_affine *out, const cz_bn254_fr *scalars, size_t n,
                                 cz_threadpool *pool);
cz_status cz_bn254_fixed_base_g2(cz_bn254_g2_affine *out, const cz_bn254_fr *scalars, size_t n,
                                 cz_threadpool *pool);

/* Make a snarkjs-format bn128 proving key for `cs` and write it to path
   (cz_groth16_setup's contract: the same opts, sections and checks). */
cz_status cz_bn254_groth16_setup(const cz_bn254_r1cs *cs, const char *zkey_path,
                                 const cz_setup_opts *opts, char *err, size_t err_len);

#endif
