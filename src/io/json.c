/*
 * json.c: snarkjs JSON (proof, public signals, verification key). See json.h.
 *
 * DESIGN. The writers are json_write_impl.h's and the readers
 * json_impl.h's, both shared with BN254 (prove_bn254.c, verify_bn254.c)
 * and compiled here over BLS12-381; the curve-independent pieces
 * (cz_json_dump, cz_json_dec_array: public.json of either curve) are here.
 */
#include "io/json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"

/* ---- writers ---- */

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

static void fr_dec(char *buf, const void *v) { cz_fr_to_dec(buf, v); }

char *cz_public_to_json(const cz_fr *pub, size_t n)
{
    _Static_assert(CZ_FR_STR_MAX <= CZ_JSON_DEC_MAX, "a decimal Fr fits the buffer");
    return cz_json_dec_array(pub, n, sizeof *pub, fr_dec, true);
}

/* BLS12-381's proof.json and verification_key.json (ending in a newline) */
#define JW_G1_AFF cz_g1_affine
#define JW_G2_AFF cz_g2_affine
#define JW_FP2 cz_fp2
#define JW_FP6 cz_fp6
#define JW_FP12 cz_fp12
#define JW_VK cz_vk
#define JW_PROOF cz_proof
#define JW_G1_TO_DEC cz_g1_to_dec
#define JW_G2_TO_DEC cz_g2_to_dec
#define JW_FP_TO_DEC cz_fp_to_dec
#define JW_STR_MAX CZ_FP_STR_MAX
#define JW_CURVE "bls12381"
#define JW_NEWLINE true
#define JW_PROOF_TO_JSON cz_proof_to_json
#include "io/json_write_impl.h"

char *cz_vk_to_json(const cz_vk *vk, const cz_fp12 *alphabeta)
{
    cz_fp12 zero;
    if (!alphabeta) {
        cz_fp12_zero(&zero);
        alphabeta = &zero;
    }
    return vk_json(vk, alphabeta);
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

/* the "curve" of a BLS12-381 file */
static cz_status curve_is_bls(const char *s, const char *name, char *err, size_t err_len)
{
    if (!strcmp(s, "bls12381") || !strcmp(s, "bls12-381"))
        return CZ_OK;
    if (!strcmp(s, "bn128") || !strcmp(s, "bn254"))
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "curve is %s (BN254), not BLS12-381 (BN254 files go with a bn128 "
                          "key and verification key)", s);
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
#define JR_CHECK_CURVE curve_is_bls
#define JR_R_NAME "r"
#define JR_PROOF_FROM_JSON cz_proof_from_json
#define JR_PUBLIC_FROM_JSON cz_public_from_json
#define JR_VK_FROM_JSON cz_vk_from_json
#include "io/json_impl.h"
