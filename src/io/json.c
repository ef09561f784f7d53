/*
 * json.c: snarkjs JSON (proof, public signals, verification key). See json.h.
 *
 * DESIGN. The writers are BLS12-381's here; the readers are json_impl.h's
 * (shared with BN254's verify_bn254.c), compiled here over BLS12-381 with
 * the "curve" check below.
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

char *cz_json_dump(json_t *j, bool newline)
{
    if (!j)
        return NULL;
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!s || !newline)
        return s;
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

/* BLS12-381's files end with a newline */
static char *dump(json_t *j) { return cz_json_dump(j, true); }

char *cz_json_dec_array(const void *elems, size_t n, size_t size, cz_json_dec_fn dec,
                        bool newline)
{
    json_t *a = json_array();
    if (!a || (n && !elems)) {
        json_decref(a);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char buf[CZ_JSON_DEC_MAX];
        dec(buf, (const uint8_t *)elems + i * size);
        if (json_array_append_new(a, json_string(buf))) {
            json_decref(a);
            return NULL;
        }
    }
    return cz_json_dump(a, newline);
}

char *cz_proof_to_json(const cz_proof *p)
{
    json_t *j = json_pack("{s:o,s:o,s:o,s:s,s:s}", "pi_a", g1_json(&p->a), "pi_b", g2_json(&p->b),
                          "pi_c", g1_json(&p->c), "protocol", "groth16", "curve", "bls12381");
    return dump(j);
}

static void fr_dec(char *buf, const void *v) { cz_fr_to_dec(buf, v); }

char *cz_public_to_json(const cz_fr *pub, size_t n)
{
    _Static_assert(CZ_FR_STR_MAX <= CZ_JSON_DEC_MAX, "a decimal Fr fits the buffer");
    return cz_json_dec_array(pub, n, sizeof *pub, fr_dec, true);
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

#define JR_G1_AFF cz_g1_affine
#define JR_G2_AFF cz_g2_affine
#define JR_FR cz_fr
#define JR_VK cz_vk
#define JR_PROOF cz_proof
#define JR_G1_FROM_DEC cz_g1_from_dec
#define JR_G2_FROM_DEC cz_g2_from_dec
#define JR_FR_FROM_STR cz_fr_from_str
#define JR_VK_FREE cz_vk_free
#define JR_CHECK_CURVE check_curve_name
#define JR_R_NAME "r"
#define JR_PROOF_FROM_JSON cz_proof_from_json
#define JR_PUBLIC_FROM_JSON cz_public_from_json
#define JR_VK_FROM_JSON cz_vk_from_json
#include "io/json_impl.h"
