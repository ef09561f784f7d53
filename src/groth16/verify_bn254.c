/*
 * verify_bn254.c: Groth16 verification of snarkjs's BN254 ("bn128")
 * proofs: the JSON readers and the check.
 *
 * DESIGN. The check is verify.c's, over BN254: the public-input count is
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
 * Why a file of its own rather than verify.c and json.c compiled twice
 * over macros: BLS12-381's verifier is 40 lines of calls over the types
 * of groth16.h (cz_vk, cz_proof), which the whole prover shares, and its
 * readers are jansson code over cz_g1_from_dec; making both templates
 * would mean a per-curve cz_vk/cz_proof in groth16.h before the BN254
 * prover exists to use them. So the BN254 side is this one small file
 * with the same structure and the same status contract, and when the
 * prover gains BN254 keys (its cz_vk per curve) the two verifiers fold
 * into one template; the arithmetic below them is already shared
 * (point_impl.h, snarkjs_impl.h, miller_steps_impl.h; docs/CURVES.md).
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

static cz_status parse_doc(json_t **out, const char *text, size_t len, const char *name,
                           char *err, size_t err_len)
{
    json_error_t je;
    *out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!*out)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "invalid JSON at line %d: %s",
                          je.line, je.text);
    return CZ_OK;
}

static bool names_bn254(json_t *doc)
{
    const char *s = json_string_value(json_object_get(doc, "curve"));
    const cz_curve *c = s ? cz_curve_by_name(s) : NULL;
    return c && c->id == CZ_CURVE_BN254;
}

bool cz_bn254_json_is_bn254(const char *text, size_t len)
{
    if (!text)
        return false;
    json_t *doc = json_loadb(text, len, 0, NULL);
    bool r = json_is_object(doc) && names_bn254(doc);
    json_decref(doc);
    return r;
}

/* "curve" absent or naming BN254; another curve is CZ_ERR_CURVE. */
static cz_status check_curve(json_t *doc, const char *name, char *err, size_t err_len)
{
    json_t *c = json_object_get(doc, "curve");
    if (!c)
        return CZ_OK;
    const char *s = json_string_value(c);
    if (!s)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "\"curve\" is not a string");
    if (names_bn254(doc))
        return CZ_OK;
    const cz_curve *k = cz_curve_by_name(s);
    if (k)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "curve is %s (%s), the verification key's is bn128 (BN254)", s, k->name);
    return cz_io_fail(CZ_ERR_CURVE, err, err_len, name, "unknown curve \"%.40s\"", s);
}

static cz_status check_protocol(json_t *doc, const char *name, char *err, size_t err_len)
{
    json_t *p = json_object_get(doc, "protocol");
    if (!p)
        return CZ_OK;
    if (!json_is_string(p) || strcmp(json_string_value(p), "groth16"))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "protocol is not \"groth16\"");
    return CZ_OK;
}

/* A decimal (or 0x-hex) string, or a non-negative JSON integer, as text. */
static const char *num_text(json_t *v, char *buf, size_t cap)
{
    if (json_is_string(v))
        return json_string_value(v);
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
        return buf;
    }
    return NULL;
}

static cz_status point_status(cz_status st, const char *what, const char *group, const char *name,
                              char *err, size_t err_len)
{
    if (st == CZ_ERR_NOT_ON_CURVE)
        return cz_io_fail(st, err, err_len, name, "%s is not on the curve", what);
    if (st == CZ_ERR_SUBGROUP)
        return cz_io_fail(st, err, err_len, name, "%s is not in the prime-order subgroup", what);
    return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s is not a valid %s point (%s)", what,
                      group, cz_strerror(st));
}

static cz_status g1_from(cz_bn254_g1_affine *out, json_t *v, const char *what, const char *name,
                         char *err, size_t err_len)
{
    char b[3][32];
    const char *s[3];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s is not an array of 3 numbers", what);
    for (int i = 0; i < 3; i++)
        if (!(s[i] = num_text(json_array_get(v, (size_t)i), b[i], sizeof b[i])))
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s[%d] is not a number string", what, i);
    cz_status st = cz_bn254_g1_from_dec(out, s[0], s[1], s[2]);
    return st ? point_status(st, what, "G1", name, err, err_len) : CZ_OK;
}

static cz_status g2_from(cz_bn254_g2_affine *out, json_t *v, const char *what, const char *name,
                         char *err, size_t err_len)
{
    char b[6][32];
    const char *s[6];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s is not an array of 3 pairs", what);
    for (int i = 0; i < 3; i++) {
        json_t *c = json_array_get(v, (size_t)i);
        if (!json_is_array(c) || json_array_size(c) != 2)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s[%d] is not a pair", what, i);
        for (int k = 0; k < 2; k++)
            if (!(s[2 * i + k] = num_text(json_array_get(c, (size_t)k), b[2 * i + k], 32)))
                return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                  "%s[%d][%d] is not a number string", what, i, k);
    }
    cz_status st = cz_bn254_g2_from_dec(out, s[0], s[1], s[2], s[3], s[4], s[5]);
    return st ? point_status(st, what, "G2", name, err, err_len) : CZ_OK;
}

cz_status cz_bn254_proof_from_json(cz_bn254_proof *out, const char *text, size_t len,
                                   const char *name, char *err, size_t err_len)
{
    if (!out || !text)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name ? name : "proof", "NULL argument");
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    if (!json_is_object(doc))
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "a proof must be a JSON object");
    if (!st)
        st = check_protocol(doc, name, err, err_len);
    if (!st)
        st = check_curve(doc, name, err, err_len);
    if (!st)
        st = g1_from(&out->a, json_object_get(doc, "pi_a"), "pi_a", name, err, err_len);
    if (!st)
        st = g2_from(&out->b, json_object_get(doc, "pi_b"), "pi_b", name, err, err_len);
    if (!st)
        st = g1_from(&out->c, json_object_get(doc, "pi_c"), "pi_c", name, err, err_len);
    json_decref(doc);
    return st;
}

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

cz_status cz_bn254_public_from_json(cz_bn254_fr **out, size_t *n, const char *text, size_t len,
                                    const char *name, char *err, size_t err_len)
{
    if (!out || !n || !text)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name ? name : "public", "NULL argument");
    *out = NULL;
    *n = 0;
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    if (!json_is_array(doc)) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "public signals must be a JSON array");
    }
    size_t cnt = json_array_size(doc);
    cz_bn254_fr *v = malloc((cnt ? cnt : 1) * sizeof *v);
    if (!v) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (size_t i = 0; i < cnt && !st; i++) {
        char b[32];
        const char *s = num_text(json_array_get(doc, i), b, sizeof b);
        if (!s)
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "signal %zu is not a number string", i);
        else if (!cz_bn254_fr_from_str(&v[i], s))
            st = all_digits(s) ? cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                                            "signal %zu is not below r (BN254)", i)
                               : cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                            "signal %zu (\"%.40s\") is not a decimal number", i, s);
    }
    json_decref(doc);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    *n = cnt;
    return CZ_OK;
}

cz_status cz_bn254_vk_from_json(cz_bn254_vk **out, const char *text, size_t len, const char *name,
                                char *err, size_t err_len)
{
    if (!out || !text)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name ? name : "vk", "NULL argument");
    *out = NULL;
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    cz_bn254_vk *vk = calloc(1, sizeof *vk);
    if (!vk) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    if (!json_is_object(doc))
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "a verification key must be a JSON object");
    if (!st)
        st = check_protocol(doc, name, err, err_len);
    if (!st)
        st = check_curve(doc, name, err, err_len);
    json_t *ic = st ? NULL : json_object_get(doc, "IC");
    if (!st && (!json_is_array(ic) || json_array_size(ic) < 1 || json_array_size(ic) > (1u << 28)))
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "IC is not a non-empty array of points");
    if (!st) {
        vk->n_public = (uint32_t)(json_array_size(ic) - 1);
        json_t *np = json_object_get(doc, "nPublic");
        if (np && (!json_is_integer(np) || json_integer_value(np) != (json_int_t)vk->n_public))
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                            "nPublic does not match the %u IC points after IC[0]", vk->n_public);
    }
    if (!st)
        st = g1_from(&vk->alpha1, json_object_get(doc, "vk_alpha_1"), "vk_alpha_1", name, err, err_len);
    if (!st)
        st = g2_from(&vk->beta2, json_object_get(doc, "vk_beta_2"), "vk_beta_2", name, err, err_len);
    if (!st)
        st = g2_from(&vk->gamma2, json_object_get(doc, "vk_gamma_2"), "vk_gamma_2", name, err, err_len);
    if (!st)
        st = g2_from(&vk->delta2, json_object_get(doc, "vk_delta_2"), "vk_delta_2", name, err, err_len);
    if (!st) {
        vk->ic = malloc(json_array_size(ic) * sizeof *vk->ic);
        if (!vk->ic)
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (size_t i = 0; !st && i < json_array_size(ic); i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i);
        st = g1_from(&vk->ic[i], json_array_get(ic, i), what, name, err, err_len);
    }
    json_decref(doc);
    if (st) {
        cz_bn254_vk_free(vk);
        return st;
    }
    *out = vk;
    return CZ_OK;
}

/* ---- the check ---- */

static cz_status check_g1(const cz_bn254_g1_affine *p, const char *what, char *err, size_t err_len)
{
    /* G1 is the whole curve (cofactor 1) */
    if (!cz_bn254_g1_affine_is_on_curve(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    return CZ_OK;
}

static cz_status check_g2(const cz_bn254_g2_affine *p, const char *what, char *err, size_t err_len)
{
    if (!cz_bn254_g2_affine_is_on_curve(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    if (!cz_bn254_g2_affine_in_subgroup(p))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, what, "not in the prime-order subgroup");
    return CZ_OK;
}

cz_status cz_bn254_groth16_verify(const cz_bn254_vk *vk, const cz_bn254_fr *pub, size_t n_pub,
                                  const cz_bn254_proof *proof, char *err, size_t err_len)
{
    cz_status st;
    if (!vk || !proof || (n_pub && !pub) || !vk->ic)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "verify", "NULL argument");
    if (n_pub != vk->n_public)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "public inputs",
                          "%zu values, the verification key expects %u", n_pub, vk->n_public);
    /* The readers checked these; the API may be handed points from elsewhere. */
    if ((st = check_g1(&proof->a, "proof pi_a", err, err_len)) ||
        (st = check_g2(&proof->b, "proof pi_b", err, err_len)) ||
        (st = check_g1(&proof->c, "proof pi_c", err, err_len)))
        return st;
    if ((st = check_g1(&vk->alpha1, "vk_alpha_1", err, err_len)) ||
        (st = check_g2(&vk->beta2, "vk_beta_2", err, err_len)) ||
        (st = check_g2(&vk->gamma2, "vk_gamma_2", err, err_len)) ||
        (st = check_g2(&vk->delta2, "vk_delta_2", err, err_len)) ||
        (st = check_g1(&vk->ic[0], "IC[0]", err, err_len)))
        return st;
    cz_bn254_g1_jac x, t, p;
    cz_bn254_g1_jac_from_affine(&x, &vk->ic[0]);
    for (size_t i = 0; i < n_pub; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i + 1);
        if ((st = check_g1(&vk->ic[i + 1], what, err, err_len)))
            return st;
        uint64_t k[4];
        cz_bn254_fr_to_limbs(k, &pub[i]);
        cz_bn254_g1_jac_from_affine(&p, &vk->ic[i + 1]);
        cz_bn254_g1_jac_mul_var(&t, &p, k, 4);
        cz_bn254_g1_jac_add(&x, &x, &t);
    }
    cz_bn254_g1_affine ps[4];
    cz_bn254_g2_affine qs[4];
    cz_bn254_g1_affine_neg(&ps[0], &proof->a);
    qs[0] = proof->b;
    cz_bn254_g1_jac_to_affine(&ps[1], &x);
    qs[1] = vk->gamma2;
    ps[2] = proof->c;
    qs[2] = vk->delta2;
    ps[3] = vk->alpha1;
    qs[3] = vk->beta2;
    if (!cz_bn254_pairing_product_is_one(ps, qs, 4))
        return cz_io_fail(CZ_ERR_VERIFY, err, err_len, "proof", "the pairing check failed");
    return CZ_OK;
}

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
