/*
 * verify_bn254.c: Groth16 verification of snarkjs's BN254 ("bn128")
 * proofs: the JSON readers and the check.
 *
 * DESIGN. The check is verify_impl.h's, over BN254: the public-input count is
 * nPublic; every point of the proof and the key is on the curve and G2's
 * are in the subgroup (the decimal decoders cz_bn254_g1/g2_from_dec check
 * both; G1 is the whole curve); public inputs are plain decimals below r
 * (a value >= r is refused, never reduced: a second encoding of the same
 * input is not the input the proof was made for; exit 1, as BLS12-381's); then
 *   vk_x = IC_0 + sum_i pub_i IC_{i+1}
 *   e(-A, B) e(vk_x, gamma2) e(C, delta2) e(alpha1, beta2) == 1
 * as one shared Miller loop and one final exponentiation
 * (cz_bn254_pairing_product_is_one). Public data only: variable time.
 *
 * Both halves are written once for the two curves: the readers in
 * io/json_impl.h (json.c compiles them for BLS12-381) and the check in
 * groth16/verify_impl.h (verify.c); this file gives them BN254's types,
 * decoders and "curve" check (docs/CURVES.md).
 */
#include "groth16/verify_bn254.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curves.h"
#include "io/binfile.h"
#include "pairing/bn254_pairing.h"

void cz_bn254_vk_free(cz_bn254_vk *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    free(vk);
}

/* ---- readers ---- */

static bool names_bn254(const char *s)
{
    const cz_curve *c = s ? cz_curve_by_name(s) : NULL;
    return c && c->id == CZ_CURVE_BN254;
}

bool cz_bn254_json_is_bn254(const char *text, size_t len)
{
    if (!text)
        return false;
    json_t *doc = json_loadb(text, len, 0, NULL);
    bool r = json_is_object(doc) && names_bn254(json_string_value(json_object_get(doc, "curve")));
    json_decref(doc);
    return r;
}

/* the "curve" of a BN254 file: another curve is CZ_ERR_CURVE */
static cz_status curve_is_bn254(const char *s, const char *name, char *err, size_t err_len)
{
    if (names_bn254(s))
        return CZ_OK;
    const cz_curve *k = cz_curve_by_name(s);
    if (k)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "curve is %s (%s), the verification key's is bn128 (BN254)", s, k->name);
    return cz_io_fail(CZ_ERR_CURVE, err, err_len, name, "unknown curve \"%.40s\"", s);
}

#define JR_G1_AFF cz_bn254_g1_affine
#define JR_G2_AFF cz_bn254_g2_affine
#define JR_FR cz_bn254_fr
#define JR_VK cz_bn254_vk
#define JR_PROOF cz_bn254_proof
#define JR_G1_FROM_DEC cz_bn254_g1_from_dec
#define JR_G2_FROM_DEC cz_bn254_g2_from_dec
#define JR_FR_FROM_STR cz_bn254_fr_from_str
#define JR_VK_FREE cz_bn254_vk_free
#define JR_CHECK_CURVE curve_is_bn254
#define JR_R_NAME "r (BN254)"
#define JR_PROOF_FROM_JSON cz_bn254_proof_from_json
#define JR_PUBLIC_FROM_JSON cz_bn254_public_from_json
#define JR_VK_FROM_JSON cz_bn254_vk_from_json
#include "io/json_impl.h"

/* ---- the check ---- */

/* G1 is the whole curve (cofactor 1): no subgroup test. */
#define VF_G1_(op) cz_bn254_g1_##op
#define VF_G2_(op) cz_bn254_g2_##op
#define VF_FR_(op) cz_bn254_fr_##op
#define VF_VK cz_bn254_vk
#define VF_PROOF cz_bn254_proof
#define VF_FR cz_bn254_fr
#define VF_G1_IN_SUBGROUP(p) ((void)(p), true)
#define VF_PAIRING_PRODUCT_IS_ONE cz_bn254_pairing_product_is_one
#define VF_VERIFY cz_bn254_groth16_verify
#include "groth16/verify_impl.h"

cz_status cz_bn254_verify_json_named(const char *vk_json, size_t vk_len, const char *vk_name,
                                     const char *pub_json, size_t pub_len, const char *pub_name,
                                     const char *proof_json, size_t proof_len, const char *proof_name,
                                     char *err, size_t err_len)
{
    cz_bn254_vk *vk = NULL;
    cz_bn254_fr *pub = NULL;
    size_t npub = 0;
    cz_bn254_proof proof;
    cz_status st = cz_bn254_vk_from_json(&vk, vk_json, vk_len, vk_name, err, err_len);
    if (st)
        return st;
    st = cz_bn254_public_from_json(&pub, &npub, pub_json, pub_len, pub_name, err, err_len);
    if (st == CZ_ERR_RANGE)
        st = CZ_ERR_VERIFY;
    if (!st) {
        st = cz_bn254_proof_from_json(&proof, proof_json, proof_len, proof_name, err, err_len);
        if (st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_SUBGROUP)
            st = CZ_ERR_VERIFY;
    }
    if (!st) {
        st = cz_bn254_groth16_verify(vk, pub, npub, &proof, err, err_len);
        if (st == CZ_ERR_ARG || st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_SUBGROUP)
            st = CZ_ERR_VERIFY;
    }
    free(pub);
    cz_bn254_vk_free(vk);
    return st;
}
