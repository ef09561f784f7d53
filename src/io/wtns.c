/*
 * wtns.c: the circom witness file (.wtns, version 2) reader and writer.
 *
 * Section 1: u32 n8 (32), the prime r (n8 bytes), u32 count. Section 2:
 * count plain little-endian values. The reader insists on BLS12-381's r
 * (a BN254 witness is named as such), values < r, w[0] = 1 and, given a
 * key, the key's nVars; it returns the values in Montgomery form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "groth16/groth16.h"
#include "io/binfile.h"
#include "util/mem.h"
#include "util/rng.h"

static const uint64_t fr_p[4] = CZ_FR_P;

void cz_wtns_free(cz_fr *w, uint32_t n)
{
    if (!w)
        return;
    cz_wipe(w, (size_t)n * sizeof *w);
    free(w);
}

/* Every check of a .wtns, in one place. out == NULL: the header only
   (section layout, field, prime, count), to learn the count; else the
   values are decoded into out[0..count) (cap values), checked < r and
   w[0] = 1, and wiped again on an error. */
cz_status cz_wtns_parse_into(cz_fr *out, size_t cap, uint32_t *n_out, const uint8_t *data,
                             size_t len, const char *name, uint32_t expected_n, char *err,
                             size_t err_len)
{
    *n_out = 0;
    if (!name)
        name = "(witness bytes)";
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, data, len, name, "wtns", 2, err, err_len);
    if (st)
        return st;
    const cz_bin_section *s1, *s2;
    if ((st = cz_binfile_section(&s1, &f, 1, "header", err, err_len)) ||
        (st = cz_binfile_section(&s2, &f, 2, "values", err, err_len)))
        goto out;
    const uint8_t *h = data + s1->offset;
    if (s1->size < 4) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "section 1 (header) has %llu bytes, too short",
                        (unsigned long long)s1->size);
        goto out;
    }
    uint32_t n8 = cz_le32(h);
    if (n8 != 32) {
        st = cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                        "field elements have %u bytes, not 32: not a BLS12-381 witness", n8);
        goto out;
    }
    if (s1->size != 40) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "section 1 (header) has %llu bytes, expected 40", (unsigned long long)s1->size);
        goto out;
    }
    if ((st = cz_io_check_prime_r(h + 4, name, "witness", err, err_len)))
        goto out;
    uint32_t count = cz_le32(h + 36);
    if (s2->size != (uint64_t)count * 32) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "section 2 (values) has %llu bytes, expected %llu for %u values",
                        (unsigned long long)s2->size, (unsigned long long)count * 32, count);
        goto out;
    }
    if (expected_n && count != expected_n) {
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name,
                        "witness has %u values but the key expects %u (nVars)", count, expected_n);
        goto out;
    }
    if (count == 0) {
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name, "witness is empty");
        goto out;
    }
    if (!out) { /* header only: the caller sizes its buffer from the count */
        *n_out = count;
        goto out;
    }
    if (count > cap) {
        st = cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                        "witness has %u values, more than the %zu the buffer holds", count, cap);
        goto out;
    }
    const uint8_t *v = data + s2->offset;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t limbs[4];
        for (int l = 0; l < 4; l++)
            limbs[l] = cz_le64(v + 32 * (size_t)i + 8 * l);
        if (!cz_fr_from_limbs(&out[i], limbs)) {
            cz_wipe(limbs, sizeof limbs);
            cz_wipe(out, (size_t)count * sizeof *out);
            st = cz_io_fail(CZ_ERR_RANGE, err, err_len, name, "value %u is not below r", i);
            goto out;
        }
        cz_wipe(limbs, sizeof limbs);
    }
    if (!cz_fr_is_one(&out[0])) {
        cz_wipe(out, (size_t)count * sizeof *out);
        st = cz_io_fail(CZ_ERR_WITNESS, err, err_len, name, "w[0] is not 1");
        goto out;
    }
    *n_out = count;
out:
    cz_binfile_free(&f);
    return st;
}

cz_status cz_wtns_parse(cz_fr **out, uint32_t *n_out, const uint8_t *data, size_t len,
                        const char *name, uint32_t expected_n, char *err, size_t err_len)
{
    *out = NULL;
    *n_out = 0;
    uint32_t count;
    cz_status st = cz_wtns_parse_into(NULL, 0, &count, data, len, name, expected_n, err, err_len);
    if (st)
        return st;
    cz_fr *w = cz_alloc_big((size_t)count * sizeof *w);
    if (!w)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name ? name : "(witness bytes)",
                          "out of memory");
    if ((st = cz_wtns_parse_into(w, count, &count, data, len, name, expected_n, err, err_len))) {
        free(w); /* wiped by the parser */
        return st;
    }
    *out = w;
    *n_out = count;
    return CZ_OK;
}

cz_status cz_wtns_write(const char *path, const cz_fr *w, uint32_t n, char *err, size_t err_len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create");
    uint8_t hdr[12 + 12 + 40 + 12];
    memcpy(hdr, "wtns", 4);
    cz_put_le32(hdr + 4, 2);
    cz_put_le32(hdr + 8, 2);
    cz_put_le32(hdr + 12, 1);
    cz_put_le64(hdr + 16, 40);
    cz_put_le32(hdr + 24, 32);
    for (int i = 0; i < 4; i++)
        cz_put_le64(hdr + 28 + 8 * i, fr_p[i]);
    cz_put_le32(hdr + 60, n);
    cz_put_le32(hdr + 64, 2);
    cz_put_le64(hdr + 68, (uint64_t)n * 32);
    int ok = fwrite(hdr, 1, sizeof hdr, fp) == sizeof hdr;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint64_t limbs[4];
        uint8_t b[32];
        cz_fr_to_limbs(limbs, &w[i]);
        for (int l = 0; l < 4; l++)
            cz_put_le64(b + 8 * l, limbs[l]);
        ok = fwrite(b, 1, 32, fp) == 32;
    }
    if (fclose(fp) != 0)
        ok = 0;
    return ok ? CZ_OK : cz_io_fail(CZ_ERR_IO, err, err_len, path, "write failed");
}
