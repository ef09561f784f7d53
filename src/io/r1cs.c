/*
 * r1cs.c: the circom constraint system file (.r1cs, version 1) for setup.
 *
 * Section 1: u32 n8, prime, u32 nWires, nPubOut, nPubIn, nPrvIn, u64
 * nLabels, u32 nConstraints. Section 2: per constraint, for A, B, C a u32
 * term count then (u32 wire, n8-byte plain coefficient) terms. Section 3
 * (labels) is not needed. The reader walks section 2 twice (count, then
 * fill), checking each term against the section's end, each wire against
 * nWires and each coefficient against r.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "groth16/groth16.h"
#include "io/binfile.h"

static const uint64_t fr_p[4] = CZ_FR_P;

void cz_r1cs_free(cz_r1cs *cs)
{
    if (!cs)
        return;
    free(cs->start);
    free(cs->terms);
    free(cs);
}

cz_status cz_r1cs_parse(cz_r1cs **out, const uint8_t *data, size_t len, const char *name,
                        char *err, size_t err_len)
{
    *out = NULL;
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, data, len, name, "r1cs", 1, err, err_len);
    if (st)
        return st;
    cz_r1cs *cs = calloc(1, sizeof *cs);
    const cz_bin_section *s1, *s2;
    if (!cs) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
        goto out;
    }
    if ((st = cz_binfile_section(&s1, &f, 1, "header", err, err_len)) ||
        (st = cz_binfile_section(&s2, &f, 2, "constraints", err, err_len)))
        goto out;
    const uint8_t *h = data + s1->offset;
    if (s1->size < 4 || cz_le32(h) != 32) {
        st = cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                        "field elements are not 32 bytes: not a BLS12-381 circuit");
        goto out;
    }
    if (s1->size != 64) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "section 1 (header) has %llu bytes, expected 64", (unsigned long long)s1->size);
        goto out;
    }
    if ((st = cz_io_check_prime_r(h + 4, name, "circuit", err, err_len)))
        goto out;
    cs->n_wires = cz_le32(h + 36);
    cs->n_pub_out = cz_le32(h + 40);
    cs->n_pub_in = cz_le32(h + 44);
    cs->n_prv_in = cz_le32(h + 48);
    cs->n_labels = cz_le64(h + 52);
    cs->n_constraints = cz_le32(h + 60);
    if (cs->n_wires == 0 ||
        (uint64_t)cs->n_pub_out + cs->n_pub_in + cs->n_prv_in + 1 > cs->n_wires) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "%u wires cannot hold 1 + %u outputs + %u public + %u private inputs",
                        cs->n_wires, cs->n_pub_out, cs->n_pub_in, cs->n_prv_in);
        goto out;
    }
    /* each constraint needs at least 12 bytes: bounds the allocation */
    if ((uint64_t)cs->n_constraints * 12 > s2->size) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "section 2 (constraints) has %llu bytes, too few for %u constraints",
                        (unsigned long long)s2->size, cs->n_constraints);
        goto out;
    }
    const uint8_t *c = data + s2->offset;
    const uint64_t size = s2->size;
    uint64_t n_terms = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t pos = 0, t = 0;
        for (uint32_t k = 0; k < cs->n_constraints; k++) {
            for (int m = 0; m < 3; m++) {
                if (size - pos < 4) {
                    st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                    "section 2 (constraints) ends inside constraint %u", k);
                    goto out;
                }
                uint32_t nt = cz_le32(c + pos);
                pos += 4;
                if ((uint64_t)nt * 36 > size - pos) {
                    st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                    "section 2 (constraints) ends inside constraint %u", k);
                    goto out;
                }
                if (pass == 1)
                    cs->start[3 * (uint64_t)k + m] = t;
                for (uint32_t i = 0; i < nt; i++, pos += 36, t++) {
                    uint32_t wire = cz_le32(c + pos);
                    if (pass == 0) {
                        if (wire >= cs->n_wires) {
                            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                            "constraint %u refers to wire %u of %u", k, wire,
                                            cs->n_wires);
                            goto out;
                        }
                        if (!cz_le_bytes_lt(c + pos + 4, fr_p, 4)) {
                            st = cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                                            "constraint %u has a coefficient not below r", k);
                            goto out;
                        }
                    } else {
                        uint64_t limbs[4];
                        for (int l = 0; l < 4; l++)
                            limbs[l] = cz_le64(c + pos + 4 + 8 * l);
                        cs->terms[t].wire = wire;
                        cz_fr_from_limbs(&cs->terms[t].coef, limbs);
                    }
                }
            }
        }
        if (pass == 0) {
            if (pos != size) {
                st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                "section 2 (constraints) has %llu bytes, the constraints use %llu",
                                (unsigned long long)size, (unsigned long long)pos);
                goto out;
            }
            n_terms = t;
            cs->start = malloc((3 * (size_t)cs->n_constraints + 1) * sizeof *cs->start);
            cs->terms = malloc((n_terms ? n_terms : 1) * sizeof *cs->terms);
            if (!cs->start || !cs->terms) {
                st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
                goto out;
            }
        } else {
            cs->start[3 * (uint64_t)cs->n_constraints] = t;
        }
    }
    cs->n_terms = n_terms;
out:
    cz_binfile_free(&f);
    if (st)
        cz_r1cs_free(cs);
    else
        *out = cs;
    return st;
}

cz_status cz_r1cs_load(cz_r1cs **out, const char *path, char *err, size_t err_len)
{
    cz_blob b;
    cz_status st = cz_blob_map(&b, path, err, err_len);
    if (st)
        return st;
    st = cz_r1cs_parse(out, b.data, b.len, path, err, err_len);
    cz_blob_release(&b);
    return st;
}

static int put(FILE *fp, const void *p, size_t n) { return fwrite(p, 1, n, fp) == n; }

cz_status cz_r1cs_write(const char *path, const cz_r1cs *cs, char *err, size_t err_len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create");
    uint8_t b[80];
    uint64_t s2 = (uint64_t)cs->n_constraints * 12 + cs->n_terms * 36;
    memcpy(b, "r1cs", 4);
    cz_put_le32(b + 4, 1);
    cz_put_le32(b + 8, 3);
    int ok = put(fp, b, 12);
    cz_put_le32(b, 1);
    cz_put_le64(b + 4, 64);
    cz_put_le32(b + 12, 32);
    for (int i = 0; i < 4; i++)
        cz_put_le64(b + 16 + 8 * i, fr_p[i]);
    cz_put_le32(b + 48, cs->n_wires);
    cz_put_le32(b + 52, cs->n_pub_out);
    cz_put_le32(b + 56, cs->n_pub_in);
    cz_put_le32(b + 60, cs->n_prv_in);
    cz_put_le64(b + 64, cs->n_labels ? cs->n_labels : cs->n_wires);
    cz_put_le32(b + 72, cs->n_constraints);
    ok = ok && put(fp, b, 76);
    cz_put_le32(b, 2);
    cz_put_le64(b + 4, s2);
    ok = ok && put(fp, b, 12);
    for (uint64_t k = 0; k < 3 * (uint64_t)cs->n_constraints && ok; k++) {
        cz_put_le32(b, (uint32_t)(cs->start[k + 1] - cs->start[k]));
        ok = put(fp, b, 4);
        for (uint64_t t = cs->start[k]; t < cs->start[k + 1] && ok; t++) {
            uint64_t limbs[4];
            cz_put_le32(b, cs->terms[t].wire);
            cz_fr_to_limbs(limbs, &cs->terms[t].coef);
            for (int l = 0; l < 4; l++)
                cz_put_le64(b + 4 + 8 * l, limbs[l]);
            ok = put(fp, b, 36);
        }
    }
    cz_put_le32(b, 3);
    cz_put_le64(b + 4, (uint64_t)cs->n_wires * 8);
    ok = ok && put(fp, b, 12);
    for (uint32_t i = 0; i < cs->n_wires && ok; i++) {
        cz_put_le64(b, i);
        ok = put(fp, b, 8);
    }
    if (fclose(fp) != 0)
        ok = 0;
    return ok ? CZ_OK : cz_io_fail(CZ_ERR_IO, err, err_len, path, "write failed");
}
