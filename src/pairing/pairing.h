/*
 * pairing.h: the optimal ate pairing of BLS12-381, for verification.
 *
 * DESIGN. e(P, Q) = f_{x,Q}(P)^((p^12 - 1)/r) with x = -0xd201000000010000.
 * The Miller loop walks |x| with Q on the M-type twist in homogeneous
 * projective coordinates, evaluates each line at P and multiplies it into
 * the accumulator as a sparse Fp12 element (mul_by_014); x < 0 is handled
 * by conjugating the result. Products of pairings share one Miller loop
 * (one squaring of the accumulator per bit for all pairs) and one final
 * exponentiation, which is what a Groth16 verifier needs.
 *
 * The final exponentiation raises to 3 (p^12 - 1)/r, not (p^12 - 1)/r: its
 * hard part is the Hayashida-Hayasaka-Teruya chain for 3 (p^4 - p^2 + 1)/r
 * (five exponentiations by x). So cz_pairing returns the cube of the
 * "textbook" reduced pairing, exactly as blst, zkcrypto/bls12_381 and
 * @noble/curves do; it is still a non-degenerate bilinear pairing (3 is
 * prime to r), and byte-identical to those libraries.
 *
 * Points are affine in Montgomery form (curve.h); the point at infinity
 * (all-zero bytes) contributes the factor 1. Inputs are not checked to be
 * on the curve or in the subgroup: callers validate keys and proofs first.
 * All functions run in variable time (they serve public data only).
 */
#ifndef CZ_PAIRING_H
#define CZ_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "curve/curve.h"
#include "field/field.h"

/* out = e(p, q); 1 if either is the point at infinity. */
void cz_pairing(cz_fp12 *out, const cz_g1_affine *p, const cz_g2_affine *q);

/* out = prod_i f_{x,qs[i]}(ps[i]) (conjugated for x < 0), the product of n
   Miller loops sharing the accumulator's squarings; pairs with a point at
   infinity are skipped. n = 0 gives 1. No final exponentiation. */
void cz_miller_loop(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n);

/* out = f^(3 (p^12 - 1)/r), f != 0. */
void cz_final_exp(cz_fp12 *out, const cz_fp12 *f);

/* prod_i e(ps[i], qs[i]) == 1: one shared Miller loop and one final
   exponentiation. The Groth16 check e(A,B) = e(alpha,beta) e(L,gamma)
   e(C,delta) is this with (-A, B), (alpha, beta), (L, gamma), (C, delta). */
bool cz_pairing_product_is_one(const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n);

/* ---- precomputed G2: the line coefficients of a fixed Q ----
   A verifying key's beta, gamma and delta are fixed; preparing them once
   removes the G2 doubling and addition arithmetic (about a quarter of a
   one-pair Miller loop) from every later verification. 19.6 KB each. */
#define CZ_G2_PREPARED_LINES 68  /* 63 doublings + 5 additions for |x| */
typedef struct {
    cz_fp2 ell[CZ_G2_PREPARED_LINES][3]; /* per line: c0, c1 / x_P, c4 / y_P */
    bool infinity;
} cz_g2_prepared;

void cz_g2_prepare(cz_g2_prepared *out, const cz_g2_affine *q);
/* As cz_miller_loop with prepared G2 points. */
void cz_miller_loop_prepared(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_prepared *qs, size_t n);
/* As cz_pairing_product_is_one with prepared G2 points. */
bool cz_pairing_product_is_one_prepared(const cz_g1_affine *ps, const cz_g2_prepared *qs, size_t n);
/* Both kinds in one loop (one chain of squarings): pairs (ps[i], qs[i]),
   i < n, and (pps[j], pqs[j]), j < m. For Groth16: n = 1 with (-A, B) from
   the proof, m = 3 with alpha, L, C against the key's prepared beta,
   gamma, delta. */
void cz_miller_loop_mixed(cz_fp12 *out, const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n,
                          const cz_g1_affine *pps, const cz_g2_prepared *pqs, size_t m);
bool cz_pairing_product_is_one_mixed(const cz_g1_affine *ps, const cz_g2_affine *qs, size_t n,
                                     const cz_g1_affine *pps, const cz_g2_prepared *pqs, size_t m);

#endif
