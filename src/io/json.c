/*
 * json.c: snarkjs JSON (proof, public signals, verification key). See json.h.
 */
#include "io/json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"

/* ---- writers ---- */

static json_t *fp_str(const cz_fp *a)
{
    char buf[CZ_FP_STR_MAX];
    cz_fp_to_dec(buf, a);
    return json_string(buf);
}

static json_t *g1_json(const cz_g1_affine *p)
{
    if (cz_g1_affine_is_infinity(p))
        return json_pack("[sss]", "0", "1", "0");
    return json_pack("[oos]", fp_str(&p->x), fp_str(&p->y), "1");
}

static json_t *fp2_json(const cz_fp2 *a)
{
    return json_pack("[oo]", fp_str(&a->c0), fp_str(&a->c1));
}

static json_t *g2_json(const cz_g2_affine *p)
{
    if (cz_g2_affine_is_infinity(p))
        return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[oo[ss]]", fp2_json(&p->x), fp2_json(&p->y), "1", "0");
}

static char *dump(json_t *j)
{
    if (!j)
        return NULL;
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!s)
        return NULL;
    /* end with a newline, as snarkjs's files do */
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return NULL;
    }
    t[n] = '\n';
    t[n + 1] = 0;
    return t;
}

char *cz_proof_to_json(const cz_proof *p)
{
    json_t *j = json_pack("{s:o,s:o,s:o,s:s,s:s}", "pi_a", g1_json(&p->a), "pi_b", g2_json(&p->b),
                          "pi_c", g1_json(&p->c), "protocol", "groth16", "curve", "bls12381");
    return dump(j);
}

char *cz_public_to_json(const cz_fr *pub, size_t n)
{
    json_t *a = json_array();
    if (!a)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        char buf[CZ_FR_STR_MAX];
        cz_fr_to_dec(buf, &pub[i]);
        if (json_array_append_new(a, json_string(buf))) {
            json_decref(a);
            return NULL;
        }
    }
    return dump(a);
}

static json_t *fp6_json(const cz_fp6 *a)
{
    return json_pack("[ooo]", fp2_json(&a->c0), fp2_json(&a->c1), fp2_json(&a->c2));
}

char *cz_vk_to_json(const cz_vk *vk, const cz_fp12 *alphabeta)
{
    cz_fp12 zero;
    if (!alphabeta) {
        cz_fp12_zero(&zero);
        alphabeta = &zero;
    }
    json_t *ic = json_array();
    for (uint32_t i = 0; ic && i <= vk->n_public; i++)
        if (json_array_append_new(ic, g1_json(&vk->ic[i]))) {
            json_decref(ic);
            ic = NULL;
        }
    if (!ic)
        return NULL;
    json_t *j = json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:[oo],s:o}", "protocol", "groth16",
                          "curve", "bls12381", "nPublic", (json_int_t)vk->n_public,
                          "vk_alpha_1", g1_json(&vk->alpha1), "vk_beta_2", g2_json(&vk->beta2),
                          "vk_gamma_2", g2_json(&vk->gamma2), "vk_delta_2", g2_json(&vk->delta2),
                          "vk_alphabeta_12", fp6_json(&alphabeta->c0), fp6_json(&alphabeta->c1),
                          "IC", ic);
    return dump(j);
}

cz_status cz_write_text(const char *path, const char *text, char *err, size_t err_len)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create the file");
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? CZ_OK : cz_io_fail(CZ_ERR_IO, err, err_len, path, "write failed");
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

/* A decimal (or 0x-hex) string, or a JSON integer, as text. */
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

static cz_status g1_from(cz_g1_affine *out, json_t *v, const char *what, const char *name,
                         char *err, size_t err_len)
{
    char b[3][32];
    const char *s[3];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s is not an array of 3 numbers", what);
    for (int i = 0; i < 3; i++)
        if (!(s[i] = num_text(json_array_get(v, (size_t)i), b[i], sizeof b[i])))
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "%s[%d] is not a number string", what, i);
    cz_status st = cz_g1_from_dec(out, s[0], s[1], s[2]);
    if (st == CZ_ERR_NOT_ON_CURVE)
        return cz_io_fail(st, err, err_len, name, "%s is not on the curve", what);
    if (st)
        return cz_io_fail(st == CZ_ERR_SUBGROUP ? st : CZ_ERR_FORMAT, err, err_len, name,
                          "%s is not a valid G1 point (%s)", what, cz_strerror(st));
    return CZ_OK;
}

static cz_status g2_from(cz_g2_affine *out, json_t *v, const char *what, const char *name,
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
    cz_status st = cz_g2_from_dec(out, s[0], s[1], s[2], s[3], s[4], s[5]);
    if (st == CZ_ERR_NOT_ON_CURVE)
        return cz_io_fail(st, err, err_len, name, "%s is not on the curve", what);
    if (st)
        return cz_io_fail(st == CZ_ERR_SUBGROUP ? st : CZ_ERR_FORMAT, err, err_len, name,
                          "%s is not a valid G2 point (%s)", what, cz_strerror(st));
    return CZ_OK;
}

static cz_status check_curve_name(json_t *doc, const char *name, char *err, size_t err_len)
{
    json_t *c = json_object_get(doc, "curve");
    if (!c)
        return CZ_OK;
    const char *s = json_string_value(c);
    if (!s)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "\"curve\" is not a string");
    if (!strcmp(s, "bls12381") || !strcmp(s, "bls12-381"))
        return CZ_OK;
    if (!strcmp(s, "bn128") || !strcmp(s, "bn254"))
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "curve is %s (BN254), not BLS12-381 (cuzk verifies BN254 with "
                          "a bn128 verification key and proves BLS12-381 only)", s);
    return cz_io_fail(CZ_ERR_CURVE, err, err_len, name, "unknown curve \"%s\"", s);
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

cz_status cz_proof_from_json(cz_proof *out, const char *text, size_t len, const char *name,
                             char *err, size_t err_len)
{
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    if (!json_is_object(doc))
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "a proof must be a JSON object");
    if (!st)
        st = check_protocol(doc, name, err, err_len);
    if (!st)
        st = check_curve_name(doc, name, err, err_len);
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

cz_status cz_public_from_json(cz_fr **out, size_t *n, const char *text, size_t len,
                              const char *name, char *err, size_t err_len)
{
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
    cz_fr *v = malloc((cnt ? cnt : 1) * sizeof *v);
    if (!v) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (size_t i = 0; i < cnt && !st; i++) {
        char b[32];
        const char *s = num_text(json_array_get(doc, i), b, sizeof b);
        if (!s)
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "signal %zu is not a number string", i);
        else if (!cz_fr_from_str(&v[i], s))
            st = all_digits(s) ? cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                                            "signal %zu is not below r", i)
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

cz_status cz_vk_from_json(cz_vk **out, const char *text, size_t len, const char *name,
                          char *err, size_t err_len)
{
    *out = NULL;
    json_t *doc;
    cz_status st = parse_doc(&doc, text, len, name, err, err_len);
    if (st)
        return st;
    cz_vk *vk = calloc(1, sizeof *vk);
    if (!vk) {
        json_decref(doc);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    if (!json_is_object(doc))
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "a verification key must be a JSON object");
    if (!st)
        st = check_protocol(doc, name, err, err_len);
    if (!st)
        st = check_curve_name(doc, name, err, err_len);
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
        cz_vk_free(vk);
        return st;
    }
    *out = vk;
    return CZ_OK;
}
