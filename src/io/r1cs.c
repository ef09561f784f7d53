/*
 * r1cs.c: the circom constraint system file (.r1cs, version 1) for setup:
 * BLS12-381's reader, the writer, and the curve of a file.
 *
 * DESIGN. The reader is r1cs_impl.h's (the format is there), compiled here
 * over BLS12-381's Fr and in r1cs_bn254.c over BN254's (docs/CURVES.md).
 * cz_r1cs_file_curve reads only the container and the header's prime, so
 * a caller (cuzk setup) picks the curve before reading the constraints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "groth16/groth16.h"
#include "groth16/setup_bn254.h"
#include "io/binfile.h"

#define R1_T cz_r1cs
#define R1_FR_(op) cz_fr_##op
#define R1_FR_P CZ_FR_P
#define R1_CHECK_PRIME(p, name, err, err_len) cz_io_check_prime_r(p, name, "circuit", err, err_len)
#define R1_CURVE_NAME "BLS12-381"
#define R1_FN_PARSE cz_r1cs_parse
#define R1_FN_LOAD cz_r1cs_load
#define R1_FN_FREE cz_r1cs_free
#include "io/r1cs_impl.h"

static const uint64_t fr_p[4] = CZ_FR_P;

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

cz_status cz_r1cs_file_curve(const char *path, const cz_curve **out, char *err, size_t err_len)
{
    *out = NULL;
    cz_blob b;
    cz_status st = cz_blob_map(&b, path, err, err_len);
    if (st)
        return st;
    cz_binfile f;
    const cz_bin_section *s1;
    st = cz_binfile_parse(&f, b.data, b.len, path, "r1cs", 1, err, err_len);
    if (st) {
        cz_blob_release(&b);
        return st;
    }
    if (!(st = cz_binfile_section(&s1, &f, 1, "header", err, err_len))) {
        const uint8_t *h = (const uint8_t *)b.data + s1->offset;
        uint32_t n8 = s1->size >= 4 ? cz_le32(h) : 0;
        if (s1->size < 4 || (uint64_t)n8 + 4 > s1->size)
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, path,
                            "section 1 (header) has %llu bytes, too few for its prime",
                            (unsigned long long)s1->size);
        else if (!(*out = cz_curve_by_scalar_prime(h + 4, n8)))
            st = cz_io_fail(CZ_ERR_CURVE, err, err_len, path,
                            "the circuit's prime (%u bytes) is neither BLS12-381's r nor BN254's "
                            "(bn128) r: cuzk works over these two curves only", n8);
    }
    cz_binfile_free(&f);
    cz_blob_release(&b);
    return st;
}
