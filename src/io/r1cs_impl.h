/*
 * r1cs_impl.h: the circom constraint system file (.r1cs, version 1) for
 * setup, written once and compiled per curve: r1cs.c (BLS12-381),
 * r1cs_bn254.c (BN254).
 *
 * DESIGN. Section 1: u32 n8, prime, u32 nWires, nPubOut, nPubIn, nPrvIn,
 * u64 nLabels, u32 nConstraints. Section 2: per constraint, for A, B, C a
 * u32 term count then (u32 wire, n8-byte plain coefficient) terms.
 * Section 3 (labels) is not needed. The reader walks section 2 twice
 * (count, then fill), checking each term against the section's end, each
 * wire against nWires and each coefficient against r. Both curves' r fit
 * in 32 bytes, so only the prime and the coefficients' field differ.
 *
 * The includer defines R1_T (the circuit type, groth16.h's cz_r1cs
 * layout over its Fr), R1_FR_(op) (the Fr functions), R1_FR_P (r's
 * initialiser), R1_CHECK_PRIME(prime, name, err, err_len) (CZ_OK for its
 * r), R1_CURVE_NAME, and the names R1_FN_PARSE, R1_FN_LOAD, R1_FN_FREE.
 */
#include <stdlib.h>
#include <string.h>

#include "io/binfile.h"

static const uint64_t r1_fr_p[4] = R1_FR_P;

void R1_FN_FREE(R1_T *cs)
{
    if (!cs)
        return;
    free(cs->start);
    free(cs->terms);
    free(cs);
}

cz_status R1_FN_PARSE(R1_T **out, const uint8_t *data, size_t len, const char *name,
                        char *err, size_t err_len)
{
    *out = NULL;
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, data, len, name, "r1cs", 1, err, err_len);
    if (st)
        return st;
    R1_T *cs = calloc(1, sizeof *cs);
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
                        "field elements are not 32 bytes: not a " R1_CURVE_NAME " circuit");
        goto out;
    }
    if (s1->size != 64) {
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "section 1 (header) has %llu bytes, expected 64", (unsigned long long)s1->size);
        goto out;
    }
    if ((st = R1_CHECK_PRIME(h + 4, name, err, err_len)))
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
                        if (!cz_le_bytes_lt(c + pos + 4, r1_fr_p, 4)) {
                            st = cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                                            "constraint %u has a coefficient not below r", k);
                            goto out;
                        }
                    } else {
                        uint64_t limbs[4];
                        for (int l = 0; l < 4; l++)
                            limbs[l] = cz_le64(c + pos + 4 + 8 * l);
                        cs->terms[t].wire = wire;
                        R1_FR_(from_limbs)(&cs->terms[t].coef, limbs);
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
        R1_FN_FREE(cs);
    else
        *out = cs;
    return st;
}

cz_status R1_FN_LOAD(R1_T **out, const char *path, char *err, size_t err_len)
{
    cz_blob b;
    cz_status st = cz_blob_map(&b, path, err, err_len);
    if (st)
        return st;
    st = R1_FN_PARSE(out, b.data, b.len, path, err, err_len);
    cz_blob_release(&b);
    return st;
}
