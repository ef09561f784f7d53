/*
 * verify.c: the Groth16 verifier.
 *
 * DESIGN. The check (the public-input count, every point on the curve and
 * in the subgroup, then one product of four Miller loops) is written once
 * in verify_impl.h, shared with BN254's verify_bn254.c; this file compiles
 * it over BLS12-381's curve layer.
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"
#include "io/binfile.h"
#include "pairing/pairing.h"

#define VF_G1_(op) cz_g1_##op
#define VF_G2_(op) cz_g2_##op
#define VF_FR_(op) cz_fr_##op
#define VF_VK cz_vk
#define VF_PROOF cz_proof
#define VF_FR cz_fr
#define VF_G1_IN_SUBGROUP cz_g1_affine_in_subgroup
#define VF_PAIRING_PRODUCT_IS_ONE cz_pairing_product_is_one
#define VF_VERIFY cz_groth16_verify
#include "groth16/verify_impl.h"
