/*
 * bn254_g1.c: BN254's G1 = E(Fp), E: y^2 = x^3 + 3, generator (1, 2).
 *
 * DESIGN. The group law of point_impl.h (BLS12-381's g1.c compiles the
 * same) over BN254's Fp, scalars in BN254's Fr. The cofactor is 1, so the
 * subgroup test is the curve equation.
 */
#include "curve/bn254_curve.h"
#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#define FE cz_bn254_fp
#define FE_(op) cz_bn254_fp_##op
#define FEI_(op) cz_bn254_fp_##op##_i
#define G_(op) cz_bn254_g1_##op
#define AFF cz_bn254_g1_affine
#define JAC cz_bn254_g1_jac
#define XYZZ cz_bn254_g1_xyzz
#define SC cz_bn254_fr
#define SC_(op) cz_bn254_fr_##op

static const cz_bn254_fp curve_b = {CZ_BN254_G1_B_MONT};

#include "curve/point_impl.h"

static const cz_bn254_g1_affine g1_gen = {{CZ_BN254_G1_GEN_X_MONT}, {CZ_BN254_G1_GEN_Y_MONT}};

void cz_bn254_g1_generator(cz_bn254_g1_affine *out) { *out = g1_gen; }

/* Cofactor 1: every point of E(Fp) has order dividing r. */
bool cz_bn254_g1_affine_in_subgroup(const cz_bn254_g1_affine *p) { return cz_bn254_g1_affine_is_on_curve(p); }
