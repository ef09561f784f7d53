/*
 * curve.h: the contract of the curve layer, G1 over Fp and G2 over Fp2.
 *
 * DESIGN. G1: y^2 = x^3 + 4 over Fp; G2: y^2 = x^3 + 4(u + 1) over Fp2
 * (the M-type twist). Affine points are {x, y} in Montgomery form with the
 * point at infinity stored as all-zero bytes (never on the curve, since
 * b != 0): exactly the bytes of a snarkjs .zkey point, of the native key
 * format and of the GPU's arrays. Jacobian (X/Z^2, Y/Z^3) serves scalar
 * multiplication; XYZZ (X/ZZ, Y/ZZZ, ZZ^3 = ZZZ^2) is the cheap bucket form
 * of Pippenger (mixed add 8M+2S). Infinity is Z = 0 (Jacobian) or
 * ZZ = ZZZ = 0 (XYZZ). G2 mirrors G1 with cz_g2_ names over Fp2.
 *
 * Decoders validate: a point off the curve is CZ_ERR_NOT_ON_CURVE, one
 * outside the r-order subgroup CZ_ERR_SUBGROUP, bad flags or a coordinate
 * >= p CZ_ERR_FORMAT.
 */
#ifndef CZ_CURVE_H
#define CZ_CURVE_H

#include "cuzk/cuzk.h"
#include "field/field.h"

typedef struct { cz_fp x, y; } cz_g1_affine;
typedef struct { cz_fp x, y, z; } cz_g1_jac;
typedef struct { cz_fp x, y, zz, zzz; } cz_g1_xyzz;
typedef struct { cz_fp2 x, y; } cz_g2_affine;
typedef struct { cz_fp2 x, y, z; } cz_g2_jac;
typedef struct { cz_fp2 x, y, zz, zzz; } cz_g2_xyzz;

/* Same operations for G = g1 (over Fp) and g2 (over Fp2); SC the scalar
   field type (bn254_curve.h declares BN254's groups with cz_bn254_fr). */
#define CZ_CURVE_DECLARE(G) CZ_CURVE_DECLARE_SC(G, cz_fr)
#define CZ_CURVE_DECLARE_SC(G, SC)                                             \
    void cz_##G##_generator(cz_##G##_affine *out);                             \
    void cz_##G##_affine_infinity(cz_##G##_affine *out);                       \
    bool cz_##G##_affine_is_infinity(const cz_##G##_affine *p);                \
    bool cz_##G##_affine_is_on_curve(const cz_##G##_affine *p); /* inf: true */\
    bool cz_##G##_affine_in_subgroup(const cz_##G##_affine *p); /* var time */ \
    bool cz_##G##_affine_eq(const cz_##G##_affine *a, const cz_##G##_affine *b);\
    void cz_##G##_affine_neg(cz_##G##_affine *out, const cz_##G##_affine *p);  \
    void cz_##G##_jac_infinity(cz_##G##_jac *out);                             \
    bool cz_##G##_jac_is_infinity(const cz_##G##_jac *p);                      \
    bool cz_##G##_jac_eq(const cz_##G##_jac *a, const cz_##G##_jac *b);        \
    void cz_##G##_jac_from_affine(cz_##G##_jac *out, const cz_##G##_affine *p);\
    void cz_##G##_jac_to_affine(cz_##G##_affine *out, const cz_##G##_jac *p);  \
    /* out[i] = affine(in[i]) with one inversion for all; variable time */     \
    void cz_##G##_jac_batch_to_affine(cz_##G##_affine *out, const cz_##G##_jac *in, size_t n); \
    void cz_##G##_jac_neg(cz_##G##_jac *out, const cz_##G##_jac *p);           \
    void cz_##G##_jac_dbl(cz_##G##_jac *out, const cz_##G##_jac *p);           \
    /* complete: handles infinity, p == q and p == -q */                       \
    void cz_##G##_jac_add(cz_##G##_jac *out, const cz_##G##_jac *p, const cz_##G##_jac *q); \
    void cz_##G##_jac_add_affine(cz_##G##_jac *out, const cz_##G##_jac *p, const cz_##G##_affine *q); \
    /* out = k*p, k a scalar in Fr (Montgomery); constant time in k */         \
    void cz_##G##_jac_mul(cz_##G##_jac *out, const cz_##G##_jac *p, const SC *k); \
    /* out = k*p, k plain little-endian limbs; variable time */                \
    void cz_##G##_jac_mul_var(cz_##G##_jac *out, const cz_##G##_jac *p, const uint64_t *k, size_t k_limbs); \
    void cz_##G##_xyzz_infinity(cz_##G##_xyzz *out);                           \
    void cz_##G##_xyzz_from_affine(cz_##G##_xyzz *out, const cz_##G##_affine *p); \
    void cz_##G##_xyzz_to_jac(cz_##G##_jac *out, const cz_##G##_xyzz *p);      \
    void cz_##G##_xyzz_dbl(cz_##G##_xyzz *out, const cz_##G##_xyzz *p);        \
    void cz_##G##_xyzz_add(cz_##G##_xyzz *out, const cz_##G##_xyzz *p, const cz_##G##_xyzz *q); \
    void cz_##G##_xyzz_add_affine(cz_##G##_xyzz *out, const cz_##G##_xyzz *p, const cz_##G##_affine *q); \
    void cz_##G##_xyzz_sub_affine(cz_##G##_xyzz *out, const cz_##G##_xyzz *p, const cz_##G##_affine *q);

CZ_CURVE_DECLARE(g1)
CZ_CURVE_DECLARE(g2)

/* ---- encodings ---- */
/* zcash/Filecoin: big-endian x (and y), top 3 bits of byte 0 are flags
   (compressed, infinity, y lexicographically largest). G1: 48 / 96 bytes,
   G2: 96 / 192 bytes (x.c1 before x.c0). Decoders check curve and subgroup. */
void cz_g1_to_compressed(uint8_t out[48], const cz_g1_affine *p);
void cz_g1_to_uncompressed(uint8_t out[96], const cz_g1_affine *p);
cz_status cz_g1_from_compressed(cz_g1_affine *out, const uint8_t in[48]);
cz_status cz_g1_from_uncompressed(cz_g1_affine *out, const uint8_t in[96]);
void cz_g2_to_compressed(uint8_t out[96], const cz_g2_affine *p);
void cz_g2_to_uncompressed(uint8_t out[192], const cz_g2_affine *p);
cz_status cz_g2_from_compressed(cz_g2_affine *out, const uint8_t in[96]);
cz_status cz_g2_from_uncompressed(cz_g2_affine *out, const uint8_t in[192]);

/* snarkjs binary (.zkey): x then y, each little-endian Montgomery (x*2^384
   mod p), 96 bytes (G1) / 192 bytes (G2, c0 then c1); infinity all zero.
   This is the in-memory layout, so the decoder is a checked copy. The
   decoders check the curve; the subgroup check is separate (costly). */
cz_status cz_g1_from_snarkjs(cz_g1_affine *out, const uint8_t in[96]);
cz_status cz_g2_from_snarkjs(cz_g2_affine *out, const uint8_t in[192]);
void cz_g1_to_snarkjs(uint8_t out[96], const cz_g1_affine *p);
void cz_g2_to_snarkjs(uint8_t out[192], const cz_g2_affine *p);

/* snarkjs JSON: decimal strings of plain affine coordinates; infinity is
   ("0", "1", "0") in projective form. Writers fill caller buffers of
   CZ_FP_STR_MAX bytes per coordinate. */
cz_status cz_g1_from_dec(cz_g1_affine *out, const char *x, const char *y, const char *z);
cz_status cz_g2_from_dec(cz_g2_affine *out, const char *x0, const char *x1,
                         const char *y0, const char *y1, const char *z0, const char *z1);
/* Writers (added by curve): infinity as ("0", "1", "0") / (("0","0"),
   ("1","0"), ("0","0")), else z = "1" (G2: ("1", "0")). */
void cz_g1_to_dec(char *x, char *y, char *z, const cz_g1_affine *p);
void cz_g2_to_dec(char *x0, char *x1, char *y0, char *y1, char *z0, char *z1,
                  const cz_g2_affine *p);

#endif
