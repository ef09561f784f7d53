/*
 * fuzz_bn254_prove.c: libFuzzer harness for the bn128 .zkey and .wtns
 * readers (groth16_bn254.h) and the prover behind them. The first byte
 * picks the reader, the rest is the file:
 *   even: cz_bn254_zkey_load_bytes; a refusal must have a message; an
 *     accepted key must be consistent (nVars >= 1, nPublic < nVars, a
 *     power-of-two domain of 2^log_n, CSR rows ascending and ending at
 *     nnz, columns below nVars, values reduced mod r, every point on the
 *     curve, the header's G2 points in the subgroup), and it proves the
 *     witness (1, 0, ..., 0) without a fault (that witness satisfies no
 *     particular circuit, so the proof is not checked);
 *   odd: cz_bn254_wtns_parse; a refusal has a message, an accepted
 *     witness has w[0] = 1 and values reduced mod r.
 * run.sh seeds it with tests/fixtures/bn254's key and witnesses.
 */
#include "fuzz/fuzz_util.h"

#include "curve/curves.h"
#include "groth16/groth16_bn254.h"

static bool fr_reduced(const cz_bn254_fr *a)
{
    const uint64_t *r = cz_curve_get(CZ_CURVE_BN254)->r;
    for (int i = 3; i >= 0; i--)
        if (a->l[i] != r[i])
            return a->l[i] < r[i];
    return false;
}

static const char *check_csr(const cz_bn254_csr *m, uint32_t n_vars)
{
    if (!m->row_ptr || m->row_ptr[0] != 0 || m->row_ptr[m->n_rows] != m->nnz)
        return "accepted key: a CSR matrix does not cover its nonzeros";
    for (uint32_t r = 0; r < m->n_rows; r++)
        if (m->row_ptr[r] > m->row_ptr[r + 1])
            return "accepted key: CSR rows not ascending";
    for (uint64_t k = 0; k < m->nnz; k++) {
        if (m->col[k] >= n_vars)
            return "accepted key: a column past nVars";
        if (!fr_reduced(&m->val[k]))
            return "accepted key: an unreduced coefficient";
    }
    return NULL;
}

static const char *g1s(const cz_bn254_g1_affine *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_bn254_g1_affine_is_on_curve(&p[i]))
            return "accepted key: a G1 point off the curve";
    return NULL;
}

static const char *check_key(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_bn254_zkey *k = NULL;
    cz_status st = cz_bn254_zkey_load_bytes(&k, data, size, "fuzz.zkey", 1, err, sizeof err);
    if (st != CZ_OK)
        return err[0] && !k ? NULL : "cz_bn254_zkey_load_bytes: refused without a message";
    const char *msg = NULL;
    if (k->n_vars < 1 || k->n_public >= k->n_vars || k->domain_size != (1u << k->log_n))
        msg = "accepted key: inconsistent header";
    if (!msg)
        msg = check_csr(&k->qa, k->n_vars);
    if (!msg)
        msg = check_csr(&k->qb, k->n_vars);
    if (!msg)
        msg = g1s(k->ic, k->n_public + 1);
    if (!msg)
        msg = g1s(k->a, k->n_vars);
    if (!msg)
        msg = g1s(k->b1, k->n_vars);
    if (!msg)
        msg = g1s(k->c, k->n_vars - k->n_public - 1);
    if (!msg)
        msg = g1s(k->h, k->domain_size);
    for (uint32_t i = 0; i < k->n_vars && !msg; i++)
        if (!cz_bn254_g2_affine_is_on_curve(&k->b2[i]))
            msg = "accepted key: a B2 point off the twist";
    if (!msg && (!cz_bn254_g2_affine_in_subgroup(&k->beta2) ||
                 !cz_bn254_g2_affine_in_subgroup(&k->gamma2) ||
                 !cz_bn254_g2_affine_in_subgroup(&k->delta2)))
        msg = "accepted key: a header G2 point outside the subgroup";
    if (!msg && k->n_vars <= (1u << 16)) {
        cz_bn254_fr *w = calloc(k->n_vars, sizeof *w);
        if (w) {
            cz_bn254_fr_one(&w[0]);
            cz_bn254_fr rs[2];
            cz_bn254_fr_set_u64(&rs[0], 3);
            cz_bn254_fr_set_u64(&rs[1], 5);
            cz_bn254_proof p;
            if (cz_bn254_groth16_prove(&p, k, w, NULL, rs, NULL, err, sizeof err) != CZ_OK)
                msg = "accepted key: the prover failed";
            else if (!cz_bn254_g1_affine_is_on_curve(&p.a) || !cz_bn254_g1_affine_is_on_curve(&p.c) ||
                     !cz_bn254_g2_affine_is_on_curve(&p.b))
                msg = "accepted key: a proof point off the curve";
            free(w);
        }
    }
    cz_bn254_zkey_free(k);
    return msg;
}

static const char *check_wtns(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_bn254_fr *w = NULL;
    uint32_t n = 0;
    cz_status st = cz_bn254_wtns_parse(&w, &n, data, size, "fuzz.wtns", 0, err, sizeof err);
    if (st != CZ_OK)
        return err[0] && !w ? NULL : "cz_bn254_wtns_parse: refused without a message";
    const char *msg = NULL;
    if (n == 0 || !cz_bn254_fr_is_one(&w[0]))
        msg = "cz_bn254_wtns_parse: accepted a witness without w[0] = 1";
    for (uint32_t i = 0; i < n && !msg; i++)
        if (!fr_reduced(&w[i]))
            msg = "cz_bn254_wtns_parse: accepted an unreduced value";
    cz_bn254_wtns_free(w, n);
    return msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* an exact-size copy, so ASan sees a read past the file */
    uint8_t *b = cz_fuzz_take(data + 1, size - 1, size - 1);
    if (!b && size > 1)
        return 0;
    cz_fuzz_check(data[0] & 1 ? check_wtns(b, size - 1) : check_key(b, size - 1));
    free(b);
    return 0;
}
