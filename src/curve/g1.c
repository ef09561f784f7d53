/*
 * g1.c: G1, the r-order subgroup of E(Fp): y^2 = x^3 + 4. The group law
 * comes from point_impl.h over Fp; this file adds the generator and the
 * fast subgroup test.
 *
 * Subgroup test (Scott 2021, "A note on group membership tests for G1, G2
 * and GT on BLS pairing-friendly curves"): phi(x, y) = (beta x, y), beta a
 * cube root of unity, is an endomorphism of E(Fp) that acts on G1 as
 * multiplication by -x^2 (x the BLS parameter); for BLS12-381 a point P of
 * E(Fp) lies in G1 iff phi(P) == -x^2 P. Cost: two multiplications by the
 * 64-bit |x| (126 dbl + 10 adds) instead of one by the 255-bit r.
 */
#include "curve/curve.h"
#include "curve/curve_constants.h"
#include "field/constants.h"
#include "field/fp_inline.h"

#define FE cz_fp
#define FE_(op) cz_fp_##op
#define FEI_(op) cz_fp_##op##_i
#define G_(op) cz_g1_##op
#define AFF cz_g1_affine
#define JAC cz_g1_jac
#define XYZZ cz_g1_xyzz
#define SC cz_fr
#define SC_(op) cz_fr_##op
#define G_X_ABS CZ_BLS_X_ABS

static const cz_fp curve_b = {CZ_FP_B_MONT};

#include "curve/point_impl.h"

static const cz_g1_affine g1_gen = {{CZ_G1_GEN_X_MONT}, {CZ_G1_GEN_Y_MONT}};
static const cz_fp g1_beta = {CZ_G1_BETA_MONT};

void cz_g1_generator(cz_g1_affine *out) { *out = g1_gen; }

/* phi(P) == -x^2 P, i.e. (beta x, -y) == |x| (|x| P). Variable time; a point
   off the curve is not in G1. */
bool cz_g1_affine_in_subgroup(const cz_g1_affine *p)
{
    if (cz_g1_affine_is_infinity(p))
        return true;
    if (!cz_g1_affine_is_on_curve(p))   /* the endomorphism test assumes it */
        return false;
    cz_g1_jac q, t;
    cz_g1_mul_x_abs_affine_(&q, p);
    /* second multiplication by |x|: Jacobian input, double-and-add */
    const uint64_t x = CZ_BLS_X_ABS;
    t = q;
    for (int b = 62; b >= 0; b--) {
        cz_g1_jac_dbl(&t, &t);
        if ((x >> b) & 1)
            cz_g1_jac_add(&t, &t, &q);
    }
    cz_g1_affine phi;
    cz_fp_mul(&phi.x, &p->x, &g1_beta);
    cz_fp_neg(&phi.y, &p->y);
    return cz_g1_jac_eq_affine_(&t, &phi);
}
