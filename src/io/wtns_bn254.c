/*
 * wtns_bn254.c: the circom witness file (.wtns, version 2) over BN254.
 *
 * DESIGN. wtns.c's checks for snarkjs's default curve: section 1 is n8 =
 * 32, the prime, the count; section 2 the count values, plain little-
 * endian. The prime must be BN254's r (a BLS12-381 witness is named as
 * such: CZ_ERR_CURVE), every value below r (never reduced), w[0] = 1, and
 * the count the key's nVars. Values come back in Montgomery form (R =
 * 2^256); the buffer is wiped when freed or on an error (the witness is
 * secret).
 */
#include <stdlib.h>
#include <string.h>

#include "curve/curves.h"
#include "groth16/groth16_bn254.h"
#include "io/binfile.h"
#include "util/mem.h"
#include "util/rng.h"

void cz_bn254_wtns_free(cz_bn254_fr *w, uint32_t n)
{
    if (!w)
        return;
    cz_wipe(w, (size_t)n * sizeof *w);
    free(w);
}

/* The header's facts; CZ_OK when it is a BN254 witness of `count` values
   whose section 2 has their bytes. */
static cz_status header(uint32_t *count, const uint8_t **values, const cz_binfile *f,
                        char *err, size_t err_len)
{
    const char *name = f->name;
    const cz_bin_section *s1, *s2;
    cz_status st;
    if ((st = cz_binfile_section(&s1, f, 1, "header", err, err_len)) ||
        (st = cz_binfile_section(&s2, f, 2, "values", err, err_len)))
        return st;
    const uint8_t *h = f->data + s1->offset;
    if (s1->size < 4)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 1 (header) has %llu bytes, too short",
                          (unsigned long long)s1->size);
    uint32_t n8 = cz_le32(h);
    if (n8 != 32)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "field elements have %u bytes, not 32: not a BN254 witness", n8);
    if (s1->size != 40)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 1 (header) has %llu bytes, expected 40",
                          (unsigned long long)s1->size);
    const cz_curve *c = cz_curve_by_scalar_prime(h + 4, 32);
    if (!c || c->id != CZ_CURVE_BN254)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          c ? "this witness is for %s; the key is BN254 (bn128)"
                            : "%sthe witness prime is not BN254's r",
                          c ? c->name : "");
    *count = cz_le32(h + 36);
    if (s2->size != (uint64_t)*count * 32)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 2 (values) has %llu bytes, expected %llu for %u values",
                          (unsigned long long)s2->size, (unsigned long long)*count * 32, *count);
    *values = f->data + s2->offset;
    return CZ_OK;
}

bool cz_wtns_bytes_are_bn254(const uint8_t *data, size_t len)
{
    cz_binfile f;
    if (!data || cz_binfile_parse(&f, data, len, "wtns", "wtns", 2, NULL, 0))
        return false;
    uint32_t count;
    const uint8_t *v;
    bool yes = header(&count, &v, &f, NULL, 0) == CZ_OK;
    cz_binfile_free(&f);
    return yes;
}

cz_status cz_bn254_wtns_parse(cz_bn254_fr **out, uint32_t *n_out, const uint8_t *data,
                              size_t len, const char *name, uint32_t expected_n, char *err,
                              size_t err_len)
{
    if (!name)
        name = "(witness bytes)";
    if (!out || !n_out || (!data && len))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL argument");
    *out = NULL;
    *n_out = 0;
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, data, len, name, "wtns", 2, err, err_len);
    if (st)
        return st;
    uint32_t count = 0;
    const uint8_t *v = NULL;
    cz_bn254_fr *w = NULL;
    if ((st = header(&count, &v, &f, err, err_len)))
        goto out;
    if (expected_n && count != expected_n) {
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name,
                        "witness has %u values but the key expects %u (nVars)", count,
                        expected_n);
        goto out;
    }
    if (count == 0) {
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name, "witness is empty");
        goto out;
    }
    w = cz_alloc_big((size_t)count * sizeof *w);
    if (!w) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint64_t limbs[4];
        for (int l = 0; l < 4; l++)
            limbs[l] = cz_le64(v + 32 * (size_t)i + 8 * l);
        bool ok = cz_bn254_fr_from_limbs(&w[i], limbs);
        cz_wipe(limbs, sizeof limbs);
        if (!ok) {
            st = cz_io_fail(CZ_ERR_RANGE, err, err_len, name, "value %u is not below r", i);
            break;
        }
    }
    if (!st && !cz_bn254_fr_is_one(&w[0]))
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name, "w[0] is not 1");
    if (st) {
        cz_bn254_wtns_free(w, count);
        goto out;
    }
    *out = w;
    *n_out = count;
out:
    cz_binfile_free(&f);
    return st;
}
