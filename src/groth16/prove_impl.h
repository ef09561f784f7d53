/*
 * prove_impl.h: the Groth16 prover's last step, written once, compiled
 * once per curve (prove.c for BLS12-381, prove_bn254.c for BN254).
 *
 * DESIGN. Once the five MSMs are summed (A, B in G1 and G2, C, H, from
 * whichever backend or CPU path made them), the proof is the same formula
 * on either curve:
 *   pi_a = alpha1 + sum w_i A_i + r delta1
 *   pi_b = beta2 + sum w_i B2_i + s delta2
 *   b1   = beta1 + sum w_i B1_i + s delta1
 *   pi_c = C + H + s pi_a + r b1 - r s delta1
 * with r and s uniform nonzero scalars from the OS CSPRNG (or the
 * caller's, for known-answer tests). r, s, r s and every intermediate that
 * holds them are wiped before return. The scalar multiplications by r and
 * s are cz_*_jac_mul, the constant-time ladder (STYLE.md, secrets).
 * The including file defines:
 *   PV_G1_(op), PV_G2_(op), PV_FR_(op)   cz_g1_##op, cz_bn254_g1_##op, ...
 *   PV_FR, PV_KEY, PV_PROOF              the scalar, key and proof types
 *   PV_FR_TOP_MASK                       the top limb's mask of a draw: one
 *                                        bit below r's length, so that about
 *                                        r / 2^bits of draws are accepted
 */
#ifndef PV_KEY
#error "define the PV_ macros before including prove_impl.h"
#endif

#include "io/binfile.h"
#include "util/rng.h"

/* A uniform nonzero scalar from the OS CSPRNG by rejection. */
static cz_status random_scalar(PV_FR *out)
{
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t l[4];
        cz_status st = cz_os_random(l, sizeof l);
        if (st)
            return st;
        l[3] &= PV_FR_TOP_MASK;
        bool ok = PV_FR_(from_limbs)(out, l);
        cz_wipe(l, sizeof l);
        if (ok && !PV_FR_(is_zero)(out))
            return CZ_OK;
    }
    return CZ_ERR_INTERNAL;
}

/* The proof from the five MSM sums (pa, pb1, pb2, pc, ph; pa, pb2 and pc
   are used up), with rs = {r, s} or, when NULL, fresh ones. */
static cz_status assemble_proof(PV_PROOF *out, const PV_KEY *key, PV_G1_(jac) *pa,
                                const PV_G1_(jac) *pb1, PV_G2_(jac) *pb2, PV_G1_(jac) *pc,
                                const PV_G1_(jac) *ph, const PV_FR *rs, char *err,
                                size_t err_len)
{
    PV_FR r, s, rsn;
    cz_status st = CZ_OK;
    if (rs) {
        r = rs[0];
        s = rs[1];
    } else if ((st = random_scalar(&r)) || (st = random_scalar(&s))) {
        cz_io_fail(st, err, err_len, "prove", "the OS random generator failed");
        goto out;
    }
    PV_FR_(mul)(&rsn, &r, &s);
    PV_FR_(neg)(&rsn, &rsn);

    PV_G1_(jac) d1, tmp, b1;
    PV_G2_(jac) d2, tmp2;
    PV_G1_(jac_from_affine)(&d1, &key->delta1);
    PV_G2_(jac_from_affine)(&d2, &key->delta2);
    /* pi_a */
    PV_G1_(jac_add_affine)(pa, pa, &key->alpha1);
    PV_G1_(jac_mul)(&tmp, &d1, &r);
    PV_G1_(jac_add)(pa, pa, &tmp);
    /* pi_b */
    PV_G2_(jac_add_affine)(pb2, pb2, &key->beta2);
    PV_G2_(jac_mul)(&tmp2, &d2, &s);
    PV_G2_(jac_add)(pb2, pb2, &tmp2);
    /* b1 */
    b1 = *pb1;
    PV_G1_(jac_add_affine)(&b1, &b1, &key->beta1);
    PV_G1_(jac_mul)(&tmp, &d1, &s);
    PV_G1_(jac_add)(&b1, &b1, &tmp);
    /* pi_c */
    PV_G1_(jac_add)(pc, pc, ph);
    PV_G1_(jac_mul)(&tmp, pa, &s);
    PV_G1_(jac_add)(pc, pc, &tmp);
    PV_G1_(jac_mul)(&tmp, &b1, &r);
    PV_G1_(jac_add)(pc, pc, &tmp);
    PV_G1_(jac_mul)(&tmp, &d1, &rsn);
    PV_G1_(jac_add)(pc, pc, &tmp);

    PV_G1_(jac_to_affine)(&out->a, pa);
    PV_G2_(jac_to_affine)(&out->b, pb2);
    PV_G1_(jac_to_affine)(&out->c, pc);
    cz_wipe(&tmp, sizeof tmp);
    cz_wipe(&tmp2, sizeof tmp2);
    cz_wipe(&b1, sizeof b1);
out:
    cz_wipe(&r, sizeof r);
    cz_wipe(&s, sizeof s);
    cz_wipe(&rsn, sizeof rsn);
    return st;
}
