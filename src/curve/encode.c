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
 *  - snarkjs .zkey binary: x then y, little-endian Montgomery limbs (the
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

static const cz_fp g1_b = {CZ_FP_B_MONT};
static const cz_fp2 g2_b = {{CZ_G2_B_C0_MONT}, {CZ_G2_B_C1_MONT}};
static const uint64_t fp_p[6] = CZ_FP_P;

/* y^2 == x^3 + b, with no special case for (0, 0). */
static bool g1_on_curve_strict(const cz_fp *x, const cz_fp *y)
{
    cz_fp l, r;
    cz_fp_sqr(&l, y);
    cz_fp_sqr(&r, x);
    cz_fp_mul(&r, &r, x);
    cz_fp_add(&r, &r, &g1_b);
    return cz_fp_eq(&l, &r);
}

static bool g2_on_curve_strict(const cz_fp2 *x, const cz_fp2 *y)
{
    cz_fp2 l, r;
    cz_fp2_sqr(&l, y);
    cz_fp2_sqr(&r, x);
    cz_fp2_mul(&r, &r, x);
    cz_fp2_add(&r, &r, &g2_b);
    return cz_fp2_eq(&l, &r);
}

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

/* ---- snarkjs binary (.zkey) ---------------------------------------------- */

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Raw Montgomery limbs, accepted only when < p (i.e. fully reduced). */
static bool fp_load_mont_le(cz_fp *out, const uint8_t *in)
{
    uint64_t borrow = 0;
    for (int i = 0; i < 6; i++) {
        out->l[i] = load_le64(in + 8 * i);
        unsigned __int128 d = (unsigned __int128)out->l[i] - fp_p[i] - borrow;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow != 0;
}

static void fp_store_mont_le(uint8_t *out, const cz_fp *a)
{
    for (int i = 0; i < 6; i++)
        store_le64(out + 8 * i, a->l[i]);
}

cz_status cz_g1_from_snarkjs(cz_g1_affine *out, const uint8_t in[96])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    cz_g1_affine p;
    if (!fp_load_mont_le(&p.x, in) || !fp_load_mont_le(&p.y, in + 48))
        return CZ_ERR_FORMAT;
    if (!cz_g1_affine_is_infinity(&p) && !g1_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    *out = p;
    return CZ_OK;
}

cz_status cz_g2_from_snarkjs(cz_g2_affine *out, const uint8_t in[192])
{
    if (!out || !in)
        return CZ_ERR_ARG;
    cz_g2_affine p;
    if (!fp_load_mont_le(&p.x.c0, in) || !fp_load_mont_le(&p.x.c1, in + 48) ||
        !fp_load_mont_le(&p.y.c0, in + 96) || !fp_load_mont_le(&p.y.c1, in + 144))
        return CZ_ERR_FORMAT;
    if (!cz_g2_affine_is_infinity(&p) && !g2_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    *out = p;
    return CZ_OK;
}

void cz_g1_to_snarkjs(uint8_t out[96], const cz_g1_affine *p)
{
    fp_store_mont_le(out, &p->x);
    fp_store_mont_le(out + 48, &p->y);
}

void cz_g2_to_snarkjs(uint8_t out[192], const cz_g2_affine *p)
{
    fp_store_mont_le(out, &p->x.c0);
    fp_store_mont_le(out + 48, &p->x.c1);
    fp_store_mont_le(out + 96, &p->y.c0);
    fp_store_mont_le(out + 144, &p->y.c1);
}

/* ---- snarkjs JSON (decimal strings) --------------------------------------- */

cz_status cz_g1_from_dec(cz_g1_affine *out, const char *x, const char *y, const char *z)
{
    if (!out || !x || !y || !z)
        return CZ_ERR_ARG;
    cz_g1_affine p;
    cz_fp zz;
    if (!cz_fp_from_dec(&p.x, x) || !cz_fp_from_dec(&p.y, y) || !cz_fp_from_dec(&zz, z))
        return CZ_ERR_FORMAT;
    if (cz_fp_is_zero(&zz)) {
        /* projective infinity: exactly (0, 1, 0) */
        if (!cz_fp_is_zero(&p.x) || !cz_fp_is_one(&p.y))
            return CZ_ERR_FORMAT;
        cz_g1_affine_infinity(out);
        return CZ_OK;
    }
    if (!cz_fp_is_one(&zz))
        return CZ_ERR_FORMAT;
    if (!g1_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!cz_g1_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

cz_status cz_g2_from_dec(cz_g2_affine *out, const char *x0, const char *x1,
                         const char *y0, const char *y1, const char *z0, const char *z1)
{
    if (!out || !x0 || !x1 || !y0 || !y1 || !z0 || !z1)
        return CZ_ERR_ARG;
    cz_g2_affine p;
    cz_fp2 zz, one;
    if (!cz_fp_from_dec(&p.x.c0, x0) || !cz_fp_from_dec(&p.x.c1, x1) ||
        !cz_fp_from_dec(&p.y.c0, y0) || !cz_fp_from_dec(&p.y.c1, y1) ||
        !cz_fp_from_dec(&zz.c0, z0) || !cz_fp_from_dec(&zz.c1, z1))
        return CZ_ERR_FORMAT;
    cz_fp2_one(&one);
    if (cz_fp2_is_zero(&zz)) {
        if (!cz_fp2_is_zero(&p.x) || !cz_fp2_eq(&p.y, &one))
            return CZ_ERR_FORMAT;
        cz_g2_affine_infinity(out);
        return CZ_OK;
    }
    if (!cz_fp2_eq(&zz, &one))
        return CZ_ERR_FORMAT;
    if (!g2_on_curve_strict(&p.x, &p.y))
        return CZ_ERR_NOT_ON_CURVE;
    if (!cz_g2_affine_in_subgroup(&p))
        return CZ_ERR_SUBGROUP;
    *out = p;
    return CZ_OK;
}

void cz_g1_to_dec(char *x, char *y, char *z, const cz_g1_affine *p)
{
    if (cz_g1_affine_is_infinity(p)) {
        strcpy(x, "0");
        strcpy(y, "1");
        strcpy(z, "0");
        return;
    }
    cz_fp_to_dec(x, &p->x);
    cz_fp_to_dec(y, &p->y);
    strcpy(z, "1");
}

void cz_g2_to_dec(char *x0, char *x1, char *y0, char *y1, char *z0, char *z1,
                  const cz_g2_affine *p)
{
    if (cz_g2_affine_is_infinity(p)) {
        strcpy(x0, "0");
        strcpy(x1, "0");
        strcpy(y0, "1");
        strcpy(y1, "0");
        strcpy(z0, "0");
        strcpy(z1, "0");
        return;
    }
    cz_fp_to_dec(x0, &p->x.c0);
    cz_fp_to_dec(x1, &p->x.c1);
    cz_fp_to_dec(y0, &p->y.c0);
    cz_fp_to_dec(y1, &p->y.c1);
    strcpy(z0, "1");
    strcpy(z1, "0");
}
