/*
 * bn254_g2.c: BN254's G2, the r-torsion of the D-type twist
 * E'(Fp2): y^2 = x^3 + 3/(9 + u), with the generator of EIP-197 (snarkjs's).
 *
 * DESIGN. The group law of point_impl.h (BLS12-381's g2.c compiles the
 * same) over BN254's Fp2. Subgroup test: psi(Q) == [6x^2] Q, psi the
 * untwist-Frobenius-twist endomorphism, which acts on G2 as [p] and
 * p = 6x^2 mod r. Cost: a 127-bit scalar multiplication (about 126 dbl +
 * 32 adds with 5-bit sliding windows) and 4 Fp2 products, against 254 bits
 * for [r] Q == 0.
 */
#include "curve/bn254_curve.h"
#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#define FE cz_bn254_fp2
#define FE_(op) cz_bn254_fp2_##op
#define FEI_(op) cz_bn254_fp2_##op##_i
#define G_(op) cz_bn254_g2_##op
#define AFF cz_bn254_g2_affine
#define JAC cz_bn254_g2_jac
#define XYZZ cz_bn254_g2_xyzz
#define SC cz_bn254_fr
#define SC_(op) cz_bn254_fr_##op

static const cz_bn254_fp2 curve_b = CZ_BN254_G2_B;

#include "curve/point_impl.h"

static const cz_bn254_g2_affine g2_gen = {CZ_BN254_G2_GEN_X, CZ_BN254_G2_GEN_Y};
static const cz_bn254_fp2 psi_x = CZ_BN254_G2_PSI_X;
static const cz_bn254_fp2 psi_y = CZ_BN254_G2_PSI_Y;
static const cz_bn254_fp2 psi2_x = CZ_BN254_G2_PSI2_X;
static const uint64_t six_x_sq[2] = CZ_BN254_SIX_X_SQ;

void cz_bn254_g2_generator(cz_bn254_g2_affine *out) { *out = g2_gen; }

void cz_bn254_g2_psi(cz_bn254_g2_affine *out, const cz_bn254_g2_affine *q)
{
    cz_bn254_g2_affine r;
    cz_bn254_fp2_conj(&r.x, &q->x);
    cz_bn254_fp2_mul(&r.x, &r.x, &psi_x);
    cz_bn254_fp2_conj(&r.y, &q->y);
    cz_bn254_fp2_mul(&r.y, &r.y, &psi_y);
    *out = r; /* (0, 0) stays (0, 0) */
}

/* psi2_x lies in Fp: 2 Fp products */
void cz_bn254_g2_psi2(cz_bn254_g2_affine *out, const cz_bn254_g2_affine *q)
{
    cz_bn254_fp2_mul_fp(&out->x, &q->x, &psi2_x.c0);
    cz_bn254_fp2_neg(&out->y, &q->y);
}

/* psi(P) == [6x^2] P. Variable time; a point off the curve is not in G2. */
bool cz_bn254_g2_affine_in_subgroup(const cz_bn254_g2_affine *p)
{
    if (cz_bn254_g2_affine_is_infinity(p))
        return true;
    if (!cz_bn254_g2_affine_is_on_curve(p)) /* the endomorphism test assumes it */
        return false;
    cz_bn254_g2_jac j, q;
    cz_bn254_g2_jac_from_affine(&j, p);
    cz_bn254_g2_jac_mul_var(&q, &j, six_x_sq, 2);
    cz_bn254_g2_affine s;
    cz_bn254_g2_psi(&s, p);
    return cz_bn254_g2_jac_eq_affine_(&q, &s);
}
