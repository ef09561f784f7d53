/*
 * json_impl.h: snarkjs's proof.json, public.json and verification_key.json
 * readers, written once, compiled once per curve (json.c for BLS12-381,
 * groth16/verify_bn254.c for BN254).
 *
 * DESIGN. As the curve layer (docs/CURVES.md): the readers are one text
 * over macros for the curve's types and decimal decoders. The documents'
 * shapes and the messages are the same for both curves; what differs is
 * the "curve" names each accepts (JR_CHECK_CURVE, a function of the
 * including file) and the name a public input's range message gives r.
 * Each point goes through the curve's decimal decoder, which checks range,
 * curve and subgroup; public inputs are plain decimals below r (a value
 * >= r is CZ_ERR_RANGE, never reduced). All functions but the three
 * readers are static.
 *
 * The including file defines:
 *   JR_G1_AFF, JR_G2_AFF, JR_FR, JR_VK, JR_PROOF   the types
 *   JR_G1_FROM_DEC, JR_G2_FROM_DEC, JR_FR_FROM_STR  the decimal decoders
 *   JR_VK_FREE                                      frees a JR_VK
 *   JR_CHECK_CURVE(s, name, err, err_len)           "curve" = s: CZ_OK, or
 *                                                   CZ_ERR_CURVE with a message
 *   JR_R_NAME                                       "r" or "r (BN254)"
 *   JR_PROOF_FROM_JSON, JR_PUBLIC_FROM_JSON,
 *   JR_VK_FROM_JSON                                 the readers' names
 */
#ifndef JR_VK
#error "define the JR_ macros before including json_impl.h"
#endif

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"

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

/* "curve" absent, or a string the curve's JR_CHECK_CURVE accepts. */
static cz_status check_curve(json_t *doc, const char *name, char *err, size_t err_len)
{
    json_t *c = json_object_get(doc, "curve");
    if (!c)
        return CZ_OK;
    const char *s = json_string_value(c);
    if (!s)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "\"curve\" is not a string");
    return JR_CHECK_CURVE(s, name, err, err_len);
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

/* A decoder's refusal of the point `what` as a message. */
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

static cz_status g1_from(JR_G1_AFF *out, json_t *v, const char *what, const char *name,
                         char *err, size_t err_len)
{
    char b[3][32];
    const char *s[3];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s is not an array of 3 numbers", what);
    for (int i = 0; i < 3; i++)
        if (!(s[i] = num_text(json_array_get(v, (size_t)i), b[i], sizeof b[i])))
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s[%d] is not a number string", what, i);
    cz_status st = JR_G1_FROM_DEC(out, s[0], s[1], s[2]);
    return st ? point_status(st, what, "G1", name, err, err_len) : CZ_OK;
}

static cz_status g2_from(JR_G2_AFF *out, json_t *v, const char *what, const char *name,
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
    cz_status st = JR_G2_FROM_DEC(out, s[0], s[1], s[2], s[3], s[4], s[5]);
    return st ? point_status(st, what, "G2", name, err, err_len) : CZ_OK;
}

cz_status JR_PROOF_FROM_JSON(JR_PROOF *out, const char *text, size_t len, const char *name,
                             char *err, size_t err_len)
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

cz_status JR_PUBLIC_FROM_JSON(JR_FR **out, size_t *n, const char *text, size_t len,
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
    JR_FR *v = malloc((cnt ? cnt : 1) * sizeof *v);
    if (!v) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (size_t i = 0; i < cnt && !st; i++) {
        char b[32];
        const char *s = num_text(json_array_get(doc, i), b, sizeof b);
        if (!s)
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "signal %zu is not a number string", i);
        else if (!JR_FR_FROM_STR(&v[i], s))
            st = all_digits(s) ? cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                                            "signal %zu is not below " JR_R_NAME, i)
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

cz_status JR_VK_FROM_JSON(JR_VK **out, const char *text, size_t len, const char *name,
                          char *err, size_t err_len)
{
    if (!out || !text)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name ? name : "vk", "NULL argument");
    *out = NULL;
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    JR_VK *vk = calloc(1, sizeof *vk);
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
        JR_VK_FREE(vk);
        return st;
    }
    *out = vk;
    return CZ_OK;
}
