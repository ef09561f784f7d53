/*
 * bn254_pairing.h: the optimal ate pairing of BN254 ("bn128"), for
 * verification: the one of EIP-197, snarkjs's and @noble/curves' bn254.
 *
 * DESIGN. e(P, Q) = (f_{6x+2,Q}(P) l_{T,psi(Q)}(P) l_{T',-psi^2(Q)}(P))^((p^12-1)/r . m)
 * with x = 4965661367192848881 (positive: no conjugation), the Miller loop
 * over the NAF digits of 6x + 2 (66 digits, 22 nonzero below the top),
 * Q on the D-type twist in homogeneous projective coordinates, and the two
 * Frobenius line steps at the end. The doubling and addition steps are
 * BLS12-381's (miller_steps_impl.h); the D-type twist puts their lines in
 * the Fp12 slots 1, w, w^3 (cz_bn254_fp12_mul_by_034). Products of
 * pairings share one Miller loop (one accumulator squaring per digit for
 * all pairs) and one final exponentiation, as a Groth16 verifier needs.
 *
 * The final exponentiation's hard part is the chain of Fuentes-Castaneda,
 * Knapp and Rodriguez-Henriquez ("Faster hashing to G2", 2011), three
 * exponentiations by x, the one @noble/curves and arkworks use: it raises
 * to a fixed multiple m (prime to r) of (p^4 - p^2 + 1)/r, so the result is
 * a power of the textbook reduced pairing, still non-degenerate and
 * bilinear, and byte-identical to those libraries (tests/test_bn254.c
 * checks it against noble's values).
 *
 * Points are affine in Montgomery form (bn254_curve.h); a point at infinity
 * contributes 1. Inputs are not checked to be on the curve or in the
 * subgroup: callers validate keys and proofs first. Variable time (public
 * data only); no allocation.
 */
#ifndef CZ_BN254_PAIRING_H
#define CZ_BN254_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "curve/bn254_curve.h"
#include "field/bn254.h"

/* out = e(p, q); 1 if either is the point at infinity. */
void cz_bn254_pairing(cz_bn254_fp12 *out, const cz_bn254_g1_affine *p, const cz_bn254_g2_affine *q);

/* out = the product of the n Miller loops (with their Frobenius lines) of
   (ps[i], qs[i]), sharing the accumulator's squarings; pairs with a point
   at infinity are skipped; n = 0 gives 1. No final exponentiation. */
void cz_bn254_miller_loop(cz_bn254_fp12 *out, const cz_bn254_g1_affine *ps, const cz_bn254_g2_affine *qs,
                          size_t n);

/* out = f^((p^12 - 1)/r . m) (see above), f != 0. */
void cz_bn254_final_exp(cz_bn254_fp12 *out, const cz_bn254_fp12 *f);

/* prod_i e(ps[i], qs[i]) == 1: one shared Miller loop, one final
   exponentiation. */
bool cz_bn254_pairing_product_is_one(const cz_bn254_g1_affine *ps, const cz_bn254_g2_affine *qs, size_t n);

#endif
