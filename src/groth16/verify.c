/*
 * verify.c: the Groth16 verifier.
 *
 * DESIGN. Checks, in order: the number of public inputs is nPublic; the
 * proof's points are on the curve (the JSON reader checks) and in the
 * r-order subgroup (snarkjs skips this; we do not: a point outside the
 * subgroup must not reach the pairing); the key's points likewise. Then
 *   vk_x = IC_0 + sum_i pub_i IC_{i+1}
 *   e(-A, B) e(vk_x, gamma2) e(C, delta2) e(alpha1, beta2) == 1
 * as one product of four Miller loops and one final exponentiation.
 * Everything here is public data: variable-time arithmetic throughout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/groth16.h"
#include "io/binfile.h"
#include "pairing/pairing.h"

static cz_status check_g1(const cz_g1_affine *p, const char *what, char *err, size_t err_len)
{
    if (!cz_g1_affine_is_on_curve(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    if (!cz_g1_affine_in_subgroup(p))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, what, "not in the prime-order subgroup");
    return CZ_OK;
}

static cz_status check_g2(const cz_g2_affine *p, const char *what, char *err, size_t err_len)
{
    if (!cz_g2_affine_is_on_curve(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    if (!cz_g2_affine_in_subgroup(p))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, what, "not in the prime-order subgroup");
    return CZ_OK;
}

cz_status cz_groth16_verify(const cz_vk *vk, const cz_fr *pub, size_t n_pub,
                            const cz_proof *proof, char *err, size_t err_len)
{
    cz_status st;
    if (!vk || !proof || (n_pub && !pub))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "verify", "NULL argument");
    if (n_pub != vk->n_public)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "public inputs",
                          "%zu values, the verification key expects %u", n_pub, vk->n_public);
    if ((st = check_g1(&proof->a, "proof pi_a", err, err_len)) ||
        (st = check_g2(&proof->b, "proof pi_b", err, err_len)) ||
        (st = check_g1(&proof->c, "proof pi_c", err, err_len)))
        return st;
    if ((st = check_g1(&vk->alpha1, "vk_alpha_1", err, err_len)) ||
        (st = check_g2(&vk->beta2, "vk_beta_2", err, err_len)) ||
        (st = check_g2(&vk->gamma2, "vk_gamma_2", err, err_len)) ||
        (st = check_g2(&vk->delta2, "vk_delta_2", err, err_len)))
        return st;
    cz_g1_jac x, t, p;
    cz_g1_jac_from_affine(&x, &vk->ic[0]);
    for (size_t i = 0; i < n_pub; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i + 1);
        if ((st = check_g1(&vk->ic[i + 1], what, err, err_len)))
            return st;
        uint64_t k[4];
        cz_fr_to_limbs(k, &pub[i]);
        cz_g1_jac_from_affine(&p, &vk->ic[i + 1]);
        cz_g1_jac_mul_var(&t, &p, k, 4);
        cz_g1_jac_add(&x, &x, &t);
    }
    if ((st = check_g1(&vk->ic[0], "IC[0]", err, err_len)))
        return st;
    cz_g1_affine ps[4];
    cz_g2_affine qs[4];
    cz_g1_affine_neg(&ps[0], &proof->a);
    qs[0] = proof->b;
    cz_g1_jac_to_affine(&ps[1], &x);
    qs[1] = vk->gamma2;
    ps[2] = proof->c;
    qs[2] = vk->delta2;
    ps[3] = vk->alpha1;
    qs[3] = vk->beta2;
    if (!cz_pairing_product_is_one(ps, qs, 4))
        return cz_io_fail(CZ_ERR_VERIFY, err, err_len, "proof", "the pairing check failed");
    return CZ_OK;
}
