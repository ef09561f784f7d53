/*
 * fuzz_nkey.c: libFuzzer harness for the compact key reader (.czk,
 * src/io/nkey.c). Property: cz_nkey_load_bytes returns; a refusal has no
 * key and a message that starts with the file's name; an accepted key is
 * consistent (compact, matrices inside their arrays, row pointers
 * monotone and ending at the nonzero count, B index ascending, vk points
 * on the curve). run.sh seeds the corpus with tests/fuzz/seeds/toy.czk
 * (written by tests/test_nkey.c with CZ_NKEY_WRITE_SEED=PATH).
 */
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "groth16/groth16.h"
#include "io/nkey.h"

static const char *check_matrix(const cz_cmat *m, uint32_t n_vars, uint32_t n_coefs)
{
    if (m->row_ptr[0] != 0 || m->row_ptr[m->n_rows] != m->nnz)
        return "row pointers do not span the nonzeros";
    for (uint32_t r = 0; r < m->n_rows; r++)
        if (m->row_ptr[r] > m->row_ptr[r + 1])
            return "row pointers not monotone";
    for (uint64_t i = 0; i < m->nnz; i++)
        if (m->col[i] >= n_vars || m->coef[i] >= n_coefs)
            return "a column or coefficient index out of range";
    return NULL;
}

static const char *check_nkey(const uint8_t *data, size_t size)
{
    char err[256] = "";
    cz_zkey *key = NULL;
    cz_nkey_load_opts o = {.threads = 1};
    cz_status st = cz_nkey_load_bytes(&key, data, size, "fuzz.czk", &o, err, sizeof err);
    if (st != CZ_OK) {
        if (key)
            return "cz_nkey_load_bytes: refused but returned a key";
        return strncmp(err, "fuzz.czk: ", 10) == 0 ? NULL
                                                   : "cz_nkey_load_bytes: refusal without a message";
    }
    const char *msg = NULL;
    if (!key->compact || !key->ic || !key->a || !key->h || !key->coefs || !key->b_idx)
        msg = "accepted a key with a missing array";
    if (!msg && (!cz_g1_affine_in_subgroup(&key->alpha1) || !cz_g2_affine_in_subgroup(&key->beta2) ||
                 !cz_g2_affine_in_subgroup(&key->delta2)))
        msg = "accepted a vk point outside the subgroup";
    if (!msg)
        msg = check_matrix(&key->ca, key->n_vars, key->n_coefs);
    if (!msg)
        msg = check_matrix(&key->cb, key->n_vars, key->n_coefs);
    for (uint32_t i = 1; i < key->n_b && !msg; i++)
        if (key->b_idx[i] <= key->b_idx[i - 1] || key->b_idx[i] >= key->n_vars)
            msg = "B index not ascending or out of range";
    if (!msg && key->domain_size != (1u << key->log_n))
        msg = "domain_size is not 2^log_n";
    cz_zkey_free(key);
    return msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_fuzz_check(check_nkey(data, size));
    return 0;
}
