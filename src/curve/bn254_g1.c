/*
 * bn254_g1.c: BN254's G1 = E(Fp), E: y^2 = x^3 + 3, generator (1, 2).
 *
 * DESIGN. The group law of point_impl.h (BLS12-381's g1.c compiles the
 * same) over BN254's Fp, scalars in BN254's Fr. The cofactor is 1, so the
 * subgroup test is the curve equation. The GLV endomorphism and scalar
 * split (bn254_curve.h) are here for the MSM.
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

/* ---- GLV ---- */

static const cz_bn254_fp glv_beta = {CZ_BN254_G1_BETA_MONT};
static const uint64_t glv_g1[3] = CZ_BN254_GLV_G1, glv_g2[3] = CZ_BN254_GLV_G2;
static const uint64_t glv_mk11[4] = CZ_BN254_GLV_MK11, glv_mk12[4] = CZ_BN254_GLV_MK12;
static const uint64_t glv_mk21[4] = CZ_BN254_GLV_MK21, glv_mk22[4] = CZ_BN254_GLV_MK22;

void cz_bn254_g1_endo(cz_bn254_g1_affine *out, const cz_bn254_g1_affine *p)
{
    cz_bn254_fp_mul(&out->x, &p->x, &glv_beta); /* infinity (0, 0) stays */
    out->y = p->y;
}

/* c = floor((k g + 2^255) / 2^256), k 4 limbs, g 3 limbs: the product's
   limbs 4 and 5 after adding 2^255 (c < 2^128 for k < r). */
static void glv_round(uint64_t c[2], const uint64_t k[4], const uint64_t g[3])
{
    uint64_t t[7] = {0};
    for (int i = 0; i < 4; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; j < 3; j++) {
            carry += (unsigned __int128)k[i] * g[j] + t[i + j];
            t[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
        t[i + 3] = (uint64_t)carry;
    }
    unsigned __int128 s = (unsigned __int128)t[3] + (1ULL << 63);
    t[3] = (uint64_t)s;
    for (int i = 4; i < 7; i++) {
        s = (s >> 64) + t[i];
        t[i] = (uint64_t)s;
    }
    c[0] = t[4];
    c[1] = t[5];
}

/* acc += c m mod 2^256, c 2 limbs, m 4 limbs */
static void glv_muladd(uint64_t acc[4], const uint64_t c[2], const uint64_t m[4])
{
    for (int i = 0; i < 2; i++) {
        unsigned __int128 carry = 0;
        for (int j = 0; i + j < 4; j++) {
            carry += (unsigned __int128)c[i] * m[j] + acc[i + j];
            acc[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
    }
}

/* a signed 256-bit value known to lie in (-2^128, 2^128): magnitude and sign */
static void glv_signed(uint64_t mag[2], bool *neg, const uint64_t v[4])
{
    uint64_t m = 0 - (v[3] >> 63); /* all ones if negative */
    unsigned __int128 s = (unsigned __int128)(v[0] ^ m) + (m & 1);
    mag[0] = (uint64_t)s;
    s = (s >> 64) + (v[1] ^ m);
    mag[1] = (uint64_t)s;
    *neg = m != 0;
}

void cz_bn254_g1_glv_split(uint64_t k1[2], bool *k1_neg, uint64_t k2[2], bool *k2_neg, const uint64_t k[4])
{
    uint64_t c1[2], c2[2], a[4], b[4] = {0};
    glv_round(c1, k, glv_g1);
    glv_round(c2, k, glv_g2);
    for (int i = 0; i < 4; i++)
        a[i] = k[i];
    glv_muladd(a, c1, glv_mk11); /* k1 = k - c1 a1 - c2 a2 */
    glv_muladd(a, c2, glv_mk12);
    glv_muladd(b, c1, glv_mk21); /* k2 = -c1 b1 - c2 b2 */
    glv_muladd(b, c2, glv_mk22);
    glv_signed(k1, k1_neg, a);
    glv_signed(k2, k2_neg, b);
}
