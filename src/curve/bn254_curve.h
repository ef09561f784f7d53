/*
 * bn254_curve.h: the curve layer of BN254 ("bn128"): G1 = E(Fp),
 * E: y^2 = x^3 + 3, and G2, the r-torsion of the D-type sextic twist
 * E'(Fp2): y^2 = x^3 + 3/(9 + u).
 *
 * DESIGN. One code base, two curves (docs/CURVES.md): the group law is
 * point_impl.h, the one BLS12-381's g1.c/g2.c compile, here compiled over
 * BN254's Fp and Fp2 by bn254_g1.c and bn254_g2.c with the cz_bn254_g1_ /
 * cz_bn254_g2_ prefixes and BN254's Fr as the scalar type; the snarkjs
 * encodings are snarkjs_impl.h, BLS12-381's too (bn254_encode.c). The
 * representation is curve.h's: affine {x, y} in Montgomery form, infinity
 * all zero bytes (never on the curve, b != 0), Jacobian and XYZZ forms.
 * So an affine G1 point is 64 bytes and a G2 point 128, byte for byte the
 * points of a bn128 .zkey.
 *
 * Subgroups: G1 is the whole curve (cofactor 1), so on the curve means in
 * G1. The twist has cofactor 2p - r; a point Q of E'(Fp2) is in G2 iff
 * psi(Q) = [6x^2] Q, psi the untwist-Frobenius-twist endomorphism (it acts
 * as [p] = [6x^2] mod r on G2; the test @noble/curves and others use).
 */
#ifndef CZ_BN254_CURVE_H
#define CZ_BN254_CURVE_H

#include "cuzk/cuzk.h"
#include "curve/curve.h"
#include "field/bn254.h"

typedef struct { cz_bn254_fp x, y; } cz_bn254_g1_affine;
typedef struct { cz_bn254_fp x, y, z; } cz_bn254_g1_jac;
typedef struct { cz_bn254_fp x, y, zz, zzz; } cz_bn254_g1_xyzz;
typedef struct { cz_bn254_fp2 x, y; } cz_bn254_g2_affine;
typedef struct { cz_bn254_fp2 x, y, z; } cz_bn254_g2_jac;
typedef struct { cz_bn254_fp2 x, y, zz, zzz; } cz_bn254_g2_xyzz;

CZ_CURVE_DECLARE_SC(bn254_g1, cz_bn254_fr)
CZ_CURVE_DECLARE_SC(bn254_g2, cz_bn254_fr)

/* snarkjs binary (.zkey, bn128): x then y, each 32 bytes little-endian
   Montgomery (x * 2^256 mod p); G2 x.c0, x.c1, y.c0, y.c1; infinity all
   zero. The decoders check range (CZ_ERR_FORMAT) and curve
   (CZ_ERR_NOT_ON_CURVE); the G2 subgroup check is separate. */
cz_status cz_bn254_g1_from_snarkjs(cz_bn254_g1_affine *out, const uint8_t in[64]);
cz_status cz_bn254_g2_from_snarkjs(cz_bn254_g2_affine *out, const uint8_t in[128]);
void cz_bn254_g1_to_snarkjs(uint8_t out[64], const cz_bn254_g1_affine *p);
void cz_bn254_g2_to_snarkjs(uint8_t out[128], const cz_bn254_g2_affine *p);

/* snarkjs JSON: decimal strings of the plain affine coordinates with z = "1"
   (G2: pairs, ("1", "0")), infinity ("0", "1", "0"). The decoders check
   range, curve and subgroup (CZ_ERR_SUBGROUP). Writers fill caller buffers
   of CZ_BN254_STR_MAX bytes per coordinate. */
cz_status cz_bn254_g1_from_dec(cz_bn254_g1_affine *out, const char *x, const char *y, const char *z);
cz_status cz_bn254_g2_from_dec(cz_bn254_g2_affine *out, const char *x0, const char *x1, const char *y0,
                               const char *y1, const char *z0, const char *z1);
void cz_bn254_g1_to_dec(char *x, char *y, char *z, const cz_bn254_g1_affine *p);
void cz_bn254_g2_to_dec(char *x0, char *x1, char *y0, char *y1, char *z0, char *z1,
                        const cz_bn254_g2_affine *p);

/* GLV on G1: phi(x, y) = (beta x, y) = [lambda](x, y), beta and lambda
   cube roots of unity (bn254_constants.h). glv_split writes a scalar
   k < r as k = k1 + k2 lambda (mod r) with |k1|, |k2| < 2^128, returned as
   magnitudes (2 limbs) and signs, so k P = (+-k1) P + (+-k2) phi(P): half
   the doublings of a 254-bit multiplication, for the MSM. Babai rounding
   on the basis v1 = (2x + 1, -(6x^2 + 2x)), v2 = (6x^2 + 4x + 1, 2x + 1)
   (Gallant-Lambert-Vanstone 2001). Branch-free; k is plain limbs. */
void cz_bn254_g1_endo(cz_bn254_g1_affine *out, const cz_bn254_g1_affine *p);
void cz_bn254_g1_glv_split(uint64_t k1[2], bool *k1_neg, uint64_t k2[2], bool *k2_neg, const uint64_t k[4]);

/* psi(Q) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)) on the twist, and
   psi^2(Q) = (x xi^((p^2-1)/3), -y): the Frobenius lines of the pairing
   and the G2 subgroup test. Q may alias out; infinity maps to itself. */
void cz_bn254_g2_psi(cz_bn254_g2_affine *out, const cz_bn254_g2_affine *q);
void cz_bn254_g2_psi2(cz_bn254_g2_affine *out, const cz_bn254_g2_affine *q);

#endif
