/*
 * reader_check.h: what the file readers (.zkey, .wtns, .r1cs, snarkjs
 * JSON) must do with any bytes: return, without reading outside the input
 * or leaking; a refusal carries a message (the readers promise one
 * sentence naming the fault); an accepted result is consistent (points on
 * the curve, values reduced, index ranges inside their arrays). Shared by
 * the libFuzzer harnesses fuzz_{zkey,wtns,r1cs,json}.c and
 * tests/test_decode_fuzz.c. Each cz_chk_* returns NULL or a message.
 */
#ifndef CZ_READER_CHECK_H
#define CZ_READER_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "fuzz/decode_check.h" /* cz_chk_accepted */
#include "groth16/groth16.h"
#include "io/json.h"

static inline bool cz_chk_fr_reduced(const cz_fr *a)
{
    uint8_t b[32];
    cz_fr t;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            b[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
    return cz_fr_from_bytes_le(&t, b);
}

static inline const char *cz_chk_zkey(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_zkey_info info;
    (void)cz_zkey_read_info(&info, data, size, "fuzz.zkey", err, sizeof err);
    err[0] = 0;
    cz_zkey *key = NULL;
    cz_status st = cz_zkey_load_bytes(&key, data, size, false, "fuzz.zkey", 1, err, sizeof err);
    if (st != CZ_OK) {
        if (key)
            return "cz_zkey_load_bytes: refused but returned a key";
        return err[0] ? NULL : "cz_zkey_load_bytes: refused without a message";
    }
    cz_chk_accepted++;
    const char *msg = NULL;
    if (!key || !key->ic || !key->a || !key->b1 || !key->b2 || !key->h)
        return "cz_zkey_load_bytes: accepted a key with a missing array";
    if (!cz_g1_affine_is_on_curve(&key->alpha1) || !cz_g1_affine_is_on_curve(&key->beta1) ||
        !cz_g1_affine_is_on_curve(&key->delta1) || !cz_g2_affine_is_on_curve(&key->beta2) ||
        !cz_g2_affine_is_on_curve(&key->gamma2) || !cz_g2_affine_is_on_curve(&key->delta2))
        msg = "cz_zkey_load_bytes: accepted a key point off the curve";
    for (uint32_t i = 0; i <= key->n_public && !msg; i++)
        if (!cz_g1_affine_is_on_curve(&key->ic[i]))
            msg = "cz_zkey_load_bytes: accepted an IC point off the curve";
    if (key->domain_size != (1u << key->log_n))
        msg = "cz_zkey_load_bytes: domain_size is not 2^log_n";
    cz_zkey_free(key);
    return msg;
}

static inline const char *cz_chk_wtns(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_fr *w = NULL;
    uint32_t n = 0;
    cz_status st = cz_wtns_parse(&w, &n, data, size, "fuzz.wtns", 0, err, sizeof err);
    if (st != CZ_OK)
        return err[0] ? NULL : "cz_wtns_parse: refused without a message";
    cz_chk_accepted++;
    const char *msg = NULL;
    if (n == 0 || !w || !cz_fr_is_one(&w[0]))
        msg = "cz_wtns_parse: accepted a witness without w[0] = 1";
    for (uint32_t i = 0; i < n && !msg; i++)
        if (!cz_chk_fr_reduced(&w[i]))
            msg = "cz_wtns_parse: accepted an unreduced value";
    cz_wtns_free(w, n);
    return msg;
}

static inline const char *cz_chk_r1cs(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_r1cs *cs = NULL;
    cz_status st = cz_r1cs_parse(&cs, data, size, "fuzz.r1cs", err, sizeof err);
    if (st != CZ_OK)
        return err[0] ? NULL : "cz_r1cs_parse: refused without a message";
    cz_chk_accepted++;
    const char *msg = NULL;
    uint64_t rows = 3 * (uint64_t)cs->n_constraints;
    if (cs->start[0] != 0 || cs->start[rows] != cs->n_terms)
        msg = "cz_r1cs_parse: term ranges do not cover the terms";
    for (uint64_t i = 0; i < rows && !msg; i++)
        if (cs->start[i] > cs->start[i + 1])
            msg = "cz_r1cs_parse: term ranges not monotonic";
    for (uint64_t t = 0; t < cs->n_terms && !msg; t++)
        if (cs->terms[t].wire >= cs->n_wires)
            msg = "cz_r1cs_parse: accepted a term on a wire >= nWires";
        else if (!cz_chk_fr_reduced(&cs->terms[t].coef))
            msg = "cz_r1cs_parse: accepted an unreduced coefficient";
    cz_r1cs_free(cs);
    return msg;
}

/* text: exactly size bytes, no terminator (the readers take a length) */
static inline const char *cz_chk_json(const char *text, size_t size)
{
    char err[256] = "";
    cz_proof p;
    cz_status st = cz_proof_from_json(&p, text, size, "proof.json", err, sizeof err);
    if (st != CZ_OK && !err[0])
        return "cz_proof_from_json: refused without a message";
    if (st == CZ_OK && (!cz_g1_affine_is_on_curve(&p.a) || !cz_g2_affine_is_on_curve(&p.b) ||
                        !cz_g1_affine_is_on_curve(&p.c)))
        return "cz_proof_from_json: accepted a point off the curve";
    cz_chk_accepted += st == CZ_OK;
    err[0] = 0;
    cz_fr *pub = NULL;
    size_t n = 0;
    st = cz_public_from_json(&pub, &n, text, size, "public.json", err, sizeof err);
    if (st != CZ_OK && !err[0])
        return "cz_public_from_json: refused without a message";
    if (st == CZ_OK) {
        cz_chk_accepted++;
        for (size_t i = 0; i < n; i++)
            if (!cz_chk_fr_reduced(&pub[i])) {
                free(pub);
                return "cz_public_from_json: accepted an unreduced value";
            }
        free(pub);
    }
    err[0] = 0;
    cz_vk *vk = NULL;
    st = cz_vk_from_json(&vk, text, size, "verification_key.json", err, sizeof err);
    if (st != CZ_OK)
        return err[0] ? NULL : "cz_vk_from_json: refused without a message";
    cz_chk_accepted++;
    const char *msg = NULL;
    if (!cz_g1_affine_is_on_curve(&vk->alpha1) || !cz_g2_affine_is_on_curve(&vk->beta2) ||
        !cz_g2_affine_is_on_curve(&vk->gamma2) || !cz_g2_affine_is_on_curve(&vk->delta2))
        msg = "cz_vk_from_json: accepted a point off the curve";
    for (uint32_t i = 0; i <= vk->n_public && !msg; i++)
        if (!cz_g1_affine_is_on_curve(&vk->ic[i]))
            msg = "cz_vk_from_json: accepted an IC point off the curve";
    cz_vk_free(vk);
    return msg;
}

#endif
