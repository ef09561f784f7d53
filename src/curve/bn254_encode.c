/*
 * bn254_encode.c: the snarkjs encodings of BN254 ("bn128") points: the
 * .zkey binary (32-byte little-endian Montgomery coordinates, R = 2^256)
 * and the JSON decimal strings of proofs and verifying keys.
 *
 * DESIGN. The code is snarkjs_impl.h, the one encode.c compiles for
 * BLS12-381; only the sizes and constants differ. (The zcash compressed
 * forms are BLS12-381's only: snarkjs never writes compressed bn128 points.)
 */
#include <string.h>

#include "curve/bn254_curve.h"
#include "field/bn254_constants.h"

#define EN_FP cz_bn254_fp
#define EN_FP2 cz_bn254_fp2
#define EN_FP_(op) cz_bn254_fp_##op
#define EN_FP2_(op) cz_bn254_fp2_##op
#define EN_G1_(op) cz_bn254_g1_##op
#define EN_G2_(op) cz_bn254_g2_##op
#define EN_G1_AFF cz_bn254_g1_affine
#define EN_G2_AFF cz_bn254_g2_affine
#define EN_N 4
#define EN_B 32
#define EN_P CZ_BN254_FP_P
#define EN_G1_B CZ_BN254_G1_B_MONT
#define EN_G2_B CZ_BN254_G2_B
#include "curve/snarkjs_impl.h"
