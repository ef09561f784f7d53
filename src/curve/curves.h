/*
 * curves.h: the curve descriptor, what the layers above the curve (io, the
 * prover, the CLI and daemon) need to know about a curve to pick it from a
 * key and size their buffers, without naming its types.
 *
 * DESIGN. One code base, two curves (docs/CURVES.md). Each curve's
 * arithmetic is the shared implementation files compiled once per curve
 * (field: prime_impl.h, fp2/fp6/fp12_impl.h; curve: point_impl.h,
 * snarkjs_impl.h; pairing: miller_steps_impl.h) under its own prefix:
 * cz_ (BLS12-381, the names the tree always had) and cz_bn254_. A
 * cz_curve descriptor is the run-time side: an id to switch on where code
 * dispatches to one curve's functions, the names snarkjs and users write,
 * the element and point sizes of the file formats, and the moduli a key's
 * header carries, so a reader can tell which curve a file is for. The
 * descriptors are constant tables; nothing here allocates.
 */
#ifndef CZ_CURVES_H
#define CZ_CURVES_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CZ_CURVE_BLS12_381 = 0,
    CZ_CURVE_BN254 = 1,
} cz_curve_id;

#define CZ_CURVE_COUNT 2

typedef struct {
    cz_curve_id id;
    const char *name;          /* "bls12-381", "bn254" */
    const char *snarkjs_name;  /* the "curve" of snarkjs JSON: "bls12381", "bn128" */
    unsigned fp_limbs, fr_limbs;  /* 64-bit limbs of an element */
    unsigned fp_bytes, fr_bytes;  /* 8 * limbs: the n8q, n8r of snarkjs files */
    unsigned g1_bytes, g2_bytes;  /* an affine point as snarkjs and cuzk store it */
    unsigned fr_two_adicity;      /* r - 1 = 2^s t: the largest NTT domain */
    const uint64_t *p;            /* base field modulus, fp_limbs limbs */
    const uint64_t *r;            /* group order, fr_limbs limbs */
} cz_curve;

/* NULL for an id out of range */
const cz_curve *cz_curve_get(cz_curve_id id);
/* by cuzk's or snarkjs's name, case-insensitive ("bn128", "bn254",
   "alt_bn128", "bls12381", "bls12-381"); NULL if unknown */
const cz_curve *cz_curve_by_name(const char *name);
/* the curve whose moduli a .zkey's Groth16 header gives: q of n8q bytes
   and r of n8r bytes, little-endian; r may be NULL to match on q alone.
   NULL if none matches. */
const cz_curve *cz_curve_by_moduli(const uint8_t *q, size_t n8q, const uint8_t *r, size_t n8r);
/* the curve whose scalar field r (n8r bytes, little-endian) this is: the
   prime of a .wtns or .r1cs header. NULL if none. */
const cz_curve *cz_curve_by_scalar_prime(const uint8_t *r, size_t n8r);

#endif
