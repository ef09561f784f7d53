/*
 * fuzz_bn254_json.c: libFuzzer harness for the BN254 ("bn128") snarkjs
 * JSON readers of groth16/verify_bn254.h (cz_bn254_proof_from_json,
 * cz_bn254_public_from_json, cz_bn254_vk_from_json; each gets every
 * input). Property: each returns; a refusal has a message; an accepted
 * proof or key has reduced coordinates on the curve and G2 points in the
 * subgroup, accepted public inputs are reduced; an accepted key then goes
 * through cz_bn254_groth16_verify (zero inputs, generator points), which
 * must answer CZ_OK or CZ_ERR_VERIFY. run.sh seeds the corpus with
 * the .json files of tests/fixtures/bn254.
 */
#include "fuzz/bn254_check.h"
#include "fuzz/fuzz_util.h"
#include "groth16/verify_bn254.h"

static bool fr_reduced(const cz_bn254_fr *a)
{
    uint8_t b[32];
    cz_bn254_fr t;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            b[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
    return cz_bn254_fr_from_bytes_le(&t, b);
}

static bool g1_ok(const cz_bn254_g1_affine *p)
{
    return cz_chk_bn254_fp_reduced(&p->x) && cz_chk_bn254_fp_reduced(&p->y) &&
           cz_bn254_g1_affine_is_on_curve(p);
}

static bool g2_ok(const cz_bn254_g2_affine *p)
{
    return cz_chk_bn254_fp2_reduced(&p->x) && cz_chk_bn254_fp2_reduced(&p->y) &&
           cz_bn254_g2_affine_is_on_curve(p) && cz_bn254_g2_affine_in_subgroup(p);
}

static const char *check(const char *text, size_t size)
{
    char err[256] = "";
    cz_bn254_proof p;
    cz_status st = cz_bn254_proof_from_json(&p, text, size, "proof.json", err, sizeof err);
    if (st != CZ_OK && !err[0])
        return "cz_bn254_proof_from_json: refused without a message";
    if (st == CZ_OK && !(g1_ok(&p.a) && g2_ok(&p.b) && g1_ok(&p.c)))
        return "cz_bn254_proof_from_json: accepted a bad point";

    err[0] = 0;
    cz_bn254_fr *pub = NULL;
    size_t n = 0;
    st = cz_bn254_public_from_json(&pub, &n, text, size, "public.json", err, sizeof err);
    if (st != CZ_OK && !err[0])
        return "cz_bn254_public_from_json: refused without a message";
    for (size_t i = 0; st == CZ_OK && i < n; i++)
        if (!fr_reduced(&pub[i])) {
            free(pub);
            return "cz_bn254_public_from_json: accepted an unreduced value";
        }
    free(pub);

    err[0] = 0;
    cz_bn254_vk *vk = NULL;
    st = cz_bn254_vk_from_json(&vk, text, size, "verification_key.json", err, sizeof err);
    if (st != CZ_OK)
        return err[0] ? NULL : "cz_bn254_vk_from_json: refused without a message";
    const char *msg = NULL;
    if (!(g1_ok(&vk->alpha1) && g2_ok(&vk->beta2) && g2_ok(&vk->gamma2) && g2_ok(&vk->delta2)))
        msg = "cz_bn254_vk_from_json: accepted a bad point";
    for (uint32_t i = 0; i <= vk->n_public && !msg; i++)
        if (!g1_ok(&vk->ic[i]))
            msg = "cz_bn254_vk_from_json: accepted a bad IC point";
    if (!msg && vk->n_public <= 1024) {
        cz_bn254_fr *z = calloc(vk->n_public + 1, sizeof *z);
        cz_bn254_proof g;
        cz_bn254_g1_generator(&g.a);
        cz_bn254_g2_generator(&g.b);
        g.c = g.a;
        if (z) {
            st = cz_bn254_groth16_verify(vk, z, vk->n_public, &g, err, sizeof err);
            if (st != CZ_OK && st != CZ_ERR_VERIFY)
                msg = "cz_bn254_groth16_verify: unexpected status on an accepted key";
        }
        free(z);
    }
    cz_bn254_vk_free(vk);
    return msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    /* an exact-size copy without a terminator: ASan sees over-reads */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    cz_fuzz_check(check(text, size));
    free(text);
    return 0;
}
