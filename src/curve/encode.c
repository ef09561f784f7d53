/*
 * encode.c: the byte and string encodings of G1 and G2 points.
 *
 * DESIGN. Three encodings, each with a strict decoder that writes *out only
 * on success and never reads past the fixed-size input:
 *  - zcash/Filecoin (the IETF pairing-friendly-curves serialization):
 *    big-endian coordinates, the top three bits of byte 0 are flags
 *    C (0x80, compressed), I (0x40, infinity), S (0x20, y is the
 *    lexicographically largest root; compressed only). G2 puts x.c1 before
 *    x.c0. Infinity is C|I then zeros (compressed) or I then zeros.
 *    Decoders check flags, range, curve and subgroup, in that order:
 *    CZ_ERR_FORMAT (flags, padding, coordinate >= p), CZ_ERR_NOT_ON_CURVE
 *    (no root / off the curve), CZ_ERR_SUBGROUP.
 *  - snarkjs .zkey binary (snarkjs_impl.h, shared with BN254's
 *    bn254_encode.c): x then y, little-endian Montgomery limbs (the
 *    in-memory layout), all zero = infinity. The decoder checks range and
 *    curve only: subgroup checks of millions of key points belong to the
 *    caller (cz_g*_affine_in_subgroup), if wanted at all.
 *  - snarkjs JSON: decimal strings of the plain affine coordinates with
 *    z = "1", or ("0", "1", "0") for infinity (G2: pairs, ("1", "0") the
 *    one). The decoder checks range, curve and subgroup (proof and key
 *    JSON hold a handful of points, so the check is cheap).
 */
#include <string.h>

#include "curve/curve.h"
#include "curve/curve_constants.h"
#include "field/constants.h"

#define EN_FP cz_fp
#define EN_FP2 cz_fp2
#define EN_FP_(op) cz_fp_##op
#define EN_FP2_(op) cz_fp2_##op
#define EN_G1_(op) cz_g1_##op
#define EN_G2_(op) cz_g2_##op
#define EN_G1_AFF cz_g1_affine
#define EN_G2_AFF cz_g2_affine
#define EN_N 6
#define EN_B 48
#define EN_P CZ_FP_P
#define EN_G1_B CZ_FP_B_MONT
#define EN_G2_B {{CZ_G2_B_C0_MONT}, {CZ_G2_B_C1_MONT}}
#include "curve/snarkjs_impl.h"

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* ---- zcash / Filecoin --------------------------------------------------- */

#define FLAG_C 0x80
#define FLAG_I 0x40
#define FLAG_S 0x20

void cz_g1_to_compressed(uint8_t out[48], const cz_g1_affine *p)
{
    if (cz_g1_affine_is_infinity(p)) {
        memset(out, 0, 48);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    cz_fp_to_bytes_be(out, &p->x);
    out[0] |= FLAG_C | (cz_fp_is_lex_largest(&p->y) ? FLAG_S : 0);
}

void cz_g1_to_uncompressed(uint8_t out[96], const cz_g1_affine *p)
{
    if (cz_g1_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_I;
        return;
    }
    cz_fp_to_bytes_be(out, &p->x);
    cz_fp_to_bytes_be(out + 48, &p->y);
}

/* Common flag checks. n: total length. On CZ_OK *is_inf says whether the
   input is the (well-formed) point at infinity. */
static cz_status check_flags(bool *is_inf, const uint8_t *in, size_t n, bool compressed)
{
    uint8_t f = in[0];
    if (!!(f & FLAG_C) != compressed)
        return CZ_ERR_FORMAT;
    if ((f & FLAG_S) && !compressed)
        return CZ_ERR_FORMAT;
    *is_inf = (f & FLAG_I) != 0;
    if (*is_inf) {
        if (f & FLAG_S)
            return CZ_ERR_FORMAT;
        if ((f & 0x1f) || !all_zero(in + 1, n - 1))
            return CZ_ERR_FORMAT;
    }
    return CZ_OK;
}

/* Big-endian 48-byte coordinate, flag bits of the first byte cleared. */
static bool fp_from_be_noflags(cz_fp *out, const uint8_t *in, bool first)
{
    uint8_t b[48];
    memcpy(b, in, 48);
    if (first)
        b[0] &= 0x1f;
    return cz_fp_from_bytes_be(out, b);
}

cz_status cz_g1_from_compressed(cz_g1_affine *out, const uint8_t in[48])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    bool inf;
    cz_status st = check_flags(&inf, in, 48, true);
    if (st != CZ_OK)
        return st;
    if (inf) {
        cz_g1_affine_infinity(out);
        return CZ_OK;
    }
    cz_g1_affine p;
    cz_fp rhs;
    if (!fp_from_be_noflags(&p.x, in, true))
        return CZ_ERR_FORMAT;
    cz_fp_sqr(&rhs, &p.x);
    cz_fp_mul(&rhs, &rhs, &p.x);
    cz_fp_add(&rhs, &rhs, &g1_b);
    if (!cz_fp_sqrt(&p.y, &rhs))
        return CZ_ERR_NOT_ON_CURVE;
    if (cz_fp_is_lex_largest(&p.y) != ((in[0] & FLAG_S) != 0))
        cz_fp_neg(&p.y, &p.y);
    if (!cz_g1_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

cz_status cz_g1_from_uncompressed(cz_g1_affine *out, const uint8_t in[96])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    bool inf;
    cz_status st = check_flags(&inf, in, 96, false);
    if (st != CZ_OK)
        return st;
    if (inf) {
        cz_g1_affine_infinity(out);
        return CZ_OK;
    }
    cz_g1_affine p;
    if (!fp_from_be_noflags(&p.x, in, true) || !fp_from_be_noflags(&p.y, in + 48, false))
        return CZ_ERR_FORMAT;
    if (!g1_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!cz_g1_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

/* G2 coordinate c1 || c0, big-endian. */
static void fp2_to_be(uint8_t out[96], const cz_fp2 *a)
{
    cz_fp_to_bytes_be(out, &a->c1);
    cz_fp_to_bytes_be(out + 48, &a->c0);
}

static bool fp2_from_be(cz_fp2 *out, const uint8_t in[96], bool first)
{
    return fp_from_be_noflags(&out->c1, in, first) && fp_from_be_noflags(&out->c0, in + 48, false);
}

void cz_g2_to_compressed(uint8_t out[96], const cz_g2_affine *p)
{
    if (cz_g2_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_C | FLAG_I;
        return;
    }
    fp2_to_be(out, &p->x);
    out[0] |= FLAG_C | (cz_fp2_is_lex_largest(&p->y) ? FLAG_S : 0);
}

void cz_g2_to_uncompressed(uint8_t out[192], const cz_g2_affine *p)
{
    if (cz_g2_affine_is_infinity(p)) {
        memset(out, 0, 192);
        out[0] = FLAG_I;
        return;
    }
    fp2_to_be(out, &p->x);
    fp2_to_be(out + 96, &p->y);
}

cz_status cz_g2_from_compressed(cz_g2_affine *out, const uint8_t in[96])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    bool inf;
    cz_status st = check_flags(&inf, in, 96, true);
    if (st != CZ_OK)
        return st;
    if (inf) {
        cz_g2_affine_infinity(out);
        return CZ_OK;
    }
    cz_g2_affine p;
    cz_fp2 rhs;
    if (!fp2_from_be(&p.x, in, true))
        return CZ_ERR_FORMAT;
    cz_fp2_sqr(&rhs, &p.x);
    cz_fp2_mul(&rhs, &rhs, &p.x);
    cz_fp2_add(&rhs, &rhs, &g2_b);
    if (!cz_fp2_sqrt(&p.y, &rhs))
        return CZ_ERR_NOT_ON_CURVE;
    if (cz_fp2_is_lex_largest(&p.y) != ((in[0] & FLAG_S) != 0))
        cz_fp2_neg(&p.y, &p.y);
    if (!cz_g2_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

cz_status cz_g2_from_uncompressed(cz_g2_affine *out, const uint8_t in[192])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    bool inf;
    cz_status st = check_flags(&inf, in, 192, false);
    if (st != CZ_OK)
        return st;
    if (inf) {
        cz_g2_affine_infinity(out);
        return CZ_OK;
    }
    cz_g2_affine p;
    if (!fp2_from_be(&p.x, in, true) || !fp2_from_be(&p.y, in + 96, false))
        return CZ_ERR_FORMAT;
    if (!g2_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!cz_g2_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}
