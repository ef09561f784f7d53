/*
 * json_write_impl.h: snarkjs's proof.json and verification_key.json
 * writers, written once, compiled once per curve (io/json.c for
 * BLS12-381, groth16/prove_bn254.c for BN254).
 *
 * DESIGN. The files' shapes are snarkjs's for both curves: points as
 * decimal strings of plain affine coordinates with a third "1" (infinity
 * "0", "1", "0"), G2 coordinates as [c0, c1] pairs, vk_alphabeta_12 as
 * two Fp6 of three Fp2, printed as JSON.stringify(x, null, 1)
 * (cz_json_dump). The curve's name in the files and the final newline
 * (BLS12-381's files have one; BN254's, as snarkjs 0.7.6's, do not) are
 * the including file's. Everything here but the two writers is static.
 * The including file defines:
 *   JW_G1_AFF, JW_G2_AFF, JW_FP2, JW_FP6, JW_FP12, JW_VK, JW_PROOF  types
 *   JW_G1_TO_DEC, JW_G2_TO_DEC, JW_FP_TO_DEC   the decimal writers
 *                                              (snarkjs_impl.h, prime_impl.h)
 *   JW_STR_MAX                                 bytes of one decimal
 *   JW_CURVE                                   "bls12381" or "bn128"
 *   JW_NEWLINE                                 end the files with a newline
 *   JW_PROOF_TO_JSON                           the proof writer's name
 * and gets vk_json(vk, alphabeta), the body of its vk writer.
 */
#ifndef JW_VK
#error "define the JW_ macros before including json_write_impl.h"
#endif

#include <jansson.h>

#include "io/json.h"

static json_t *g1_json(const JW_G1_AFF *p)
{
    char x[JW_STR_MAX], y[JW_STR_MAX], z[JW_STR_MAX];
    JW_G1_TO_DEC(x, y, z, p);
    return json_pack("[sss]", x, y, z);
}

static json_t *g2_json(const JW_G2_AFF *p)
{
    char v[6][JW_STR_MAX];
    JW_G2_TO_DEC(v[0], v[1], v[2], v[3], v[4], v[5], p);
    return json_pack("[[ss][ss][ss]]", v[0], v[1], v[2], v[3], v[4], v[5]);
}

static json_t *fp2_json(const JW_FP2 *a)
{
    char c0[JW_STR_MAX], c1[JW_STR_MAX];
    JW_FP_TO_DEC(c0, &a->c0);
    JW_FP_TO_DEC(c1, &a->c1);
    return json_pack("[ss]", c0, c1);
}

static json_t *fp6_json(const JW_FP6 *a)
{
    return json_pack("[ooo]", fp2_json(&a->c0), fp2_json(&a->c1), fp2_json(&a->c2));
}

static char *dump(json_t *j) { return cz_json_dump(j, JW_NEWLINE); }

char *JW_PROOF_TO_JSON(const JW_PROOF *p)
{
    if (!p)
        return NULL;
    return dump(json_pack("{s:o,s:o,s:o,s:s,s:s}", "pi_a", g1_json(&p->a), "pi_b",
                          g2_json(&p->b), "pi_c", g1_json(&p->c), "protocol", "groth16",
                          "curve", JW_CURVE));
}

/* verification_key.json with vk_alphabeta_12 = alphabeta (the caller's
   e(alpha1, beta2), or zeros). */
static char *vk_json(const JW_VK *vk, const JW_FP12 *alphabeta)
{
    json_t *ic = json_array();
    for (uint32_t i = 0; ic && i <= vk->n_public; i++)
        if (json_array_append_new(ic, g1_json(&vk->ic[i]))) {
            json_decref(ic);
            ic = NULL;
        }
    if (!ic)
        return NULL;
    return dump(json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:[oo],s:o}", "protocol", "groth16",
                          "curve", JW_CURVE, "nPublic", (json_int_t)vk->n_public, "vk_alpha_1",
                          g1_json(&vk->alpha1), "vk_beta_2", g2_json(&vk->beta2), "vk_gamma_2",
                          g2_json(&vk->gamma2), "vk_delta_2", g2_json(&vk->delta2),
                          "vk_alphabeta_12", fp6_json(&alphabeta->c0), fp6_json(&alphabeta->c1),
                          "IC", ic));
}
