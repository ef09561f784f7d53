/*
 * fixed_base.c: products k_i G with the generators of BLS12-381's G1 and
 * G2 (cz_fixed_base_g1/g2, native.h).
 *
 * DESIGN. The algorithm is fixed_base_impl.h's, written once over the
 * curve's names and compiled per curve (docs/CURVES.md); BN254's copy is
 * compiled by setup_bn254.c.
 */
#include "groth16/native.h"

#define FB_G1 g1
#define FB_G2 g2
#define FB_FP fp
#define FB_FP2 fp2
#define FB_FR fr
#define FB_FN_G1 cz_fixed_base_g1
#define FB_FN_G2 cz_fixed_base_g2
#include "groth16/fixed_base_impl.h"
