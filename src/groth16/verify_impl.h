/*
 * verify_impl.h: the Groth16 check, written once, compiled once per curve
 * (verify.c for BLS12-381, verify_bn254.c for BN254).
 *
 * DESIGN. Checks, in order: the number of public inputs is nPublic; the
 * proof's points are on the curve and in the r-order subgroup (snarkjs
 * skips this; we do not: a point outside the subgroup must not reach the
 * pairing); the key's points likewise (the JSON readers check them too,
 * but the API may be handed points from elsewhere). Then
 *   vk_x = IC_0 + sum_i pub_i IC_{i+1}
 *   e(-A, B) e(vk_x, gamma2) e(C, delta2) e(alpha1, beta2) == 1
 * as one product of four Miller loops and one final exponentiation.
 * Everything here is public data: variable-time arithmetic throughout.
 * The curve layer's names differ only by prefix, so the including file
 * gives the prefixes (as point_impl.h's users do) and the types:
 *   VF_G1_(op), VF_G2_(op), VF_FR_(op)   cz_g1_##op, cz_bn254_g1_##op, ...
 *   VF_VK, VF_PROOF, VF_FR               the key, proof and scalar types
 *   VF_G1_IN_SUBGROUP(p)                 G1's subgroup test (BN254's G1 is
 *                                        the whole curve: true)
 *   VF_PAIRING_PRODUCT_IS_ONE            the shared Miller loop product
 *   VF_VERIFY                            the function's name
 */
#ifndef VF_VK
#error "define the VF_ macros before including verify_impl.h"
#endif

#include <stdio.h>

#include "io/binfile.h"

static cz_status check_g1(const VF_G1_(affine) *p, const char *what, char *err, size_t err_len)
{
    if (!VF_G1_(affine_is_on_curve)(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    if (!VF_G1_IN_SUBGROUP(p))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, what, "not in the prime-order subgroup");
    return CZ_OK;
}

static cz_status check_g2(const VF_G2_(affine) *p, const char *what, char *err, size_t err_len)
{
    if (!VF_G2_(affine_is_on_curve)(p))
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, what, "not on the curve");
    if (!VF_G2_(affine_in_subgroup)(p))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, what, "not in the prime-order subgroup");
    return CZ_OK;
}

cz_status VF_VERIFY(const VF_VK *vk, const VF_FR *pub, size_t n_pub, const VF_PROOF *proof,
                    char *err, size_t err_len)
{
    cz_status st;
    if (!vk || !proof || (n_pub && !pub) || !vk->ic)
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
        (st = check_g2(&vk->delta2, "vk_delta_2", err, err_len)) ||
        (st = check_g1(&vk->ic[0], "IC[0]", err, err_len)))
        return st;
    VF_G1_(jac) x, t, p;
    VF_G1_(jac_from_affine)(&x, &vk->ic[0]);
    for (size_t i = 0; i < n_pub; i++) {
        char what[32];
        snprintf(what, sizeof what, "IC[%zu]", i + 1);
        if ((st = check_g1(&vk->ic[i + 1], what, err, err_len)))
            return st;
        uint64_t k[4];
        VF_FR_(to_limbs)(k, &pub[i]);
        VF_G1_(jac_from_affine)(&p, &vk->ic[i + 1]);
        VF_G1_(jac_mul_var)(&t, &p, k, 4);
        VF_G1_(jac_add)(&x, &x, &t);
    }
    VF_G1_(affine) ps[4];
    VF_G2_(affine) qs[4];
    VF_G1_(affine_neg)(&ps[0], &proof->a);
    qs[0] = proof->b;
    VF_G1_(jac_to_affine)(&ps[1], &x);
    qs[1] = vk->gamma2;
    ps[2] = proof->c;
    qs[2] = vk->delta2;
    ps[3] = vk->alpha1;
    qs[3] = vk->beta2;
    if (!VF_PAIRING_PRODUCT_IS_ONE(ps, qs, 4))
        return cz_io_fail(CZ_ERR_VERIFY, err, err_len, "proof", "the pairing check failed");
    return CZ_OK;
}
