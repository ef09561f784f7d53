/*
 * bn254_check.h: the decoder property of decode_check.h for BN254's point
 * decoders (curve/bn254_curve.h): for any input, an error with a known
 * status, or a point with reduced coordinates on the curve that encodes
 * back to the exact input (.zkey bytes) or whose canonical decimal decodes
 * to the same point (JSON). Used by the libFuzzer harnesses
 * fuzz_bn254_snarkjs.c and fuzz_bn254_point_dec.c.
 */
#ifndef CZ_BN254_CHECK_H
#define CZ_BN254_CHECK_H

#include "curve/bn254_curve.h"
#include "fuzz/decode_check.h"

static inline bool cz_chk_bn254_fp_reduced(const cz_bn254_fp *a)
{
    uint8_t b[32];
    cz_bn254_fp t;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            b[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
    return cz_bn254_fp_from_bytes_le(&t, b);
}

static inline bool cz_chk_bn254_fp2_reduced(const cz_bn254_fp2 *a)
{
    return cz_chk_bn254_fp_reduced(&a->c0) && cz_chk_bn254_fp_reduced(&a->c1);
}

/* .zkey bytes: range and curve (the subgroup is the caller's) */
#define CZ_CHK_BN254_SNARKJS(G, T, N, RED)                                       \
    static inline const char *cz_chk_##G##_snarkjs(const uint8_t *in)            \
    {                                                                            \
        T p;                                                                     \
        uint8_t out[N];                                                          \
        cz_status s = cz_##G##_from_snarkjs(&p, in);                             \
        if (s != CZ_OK)                                                          \
            return s == CZ_ERR_FORMAT || s == CZ_ERR_NOT_ON_CURVE                \
                       ? NULL : #G "_from_snarkjs: unexpected status";           \
        cz_chk_accepted++;                                                       \
        if (!cz_##G##_affine_is_infinity(&p)) {                                  \
            if (!RED(&p.x) || !RED(&p.y))                                        \
                return #G "_from_snarkjs: accepted, coordinates not reduced";    \
            if (!cz_##G##_affine_is_on_curve(&p))                                \
                return #G "_from_snarkjs: accepted a point off the curve";       \
        }                                                                        \
        cz_##G##_to_snarkjs(out, &p);                                            \
        if (memcmp(out, in, N) != 0)                                             \
            return #G "_from_snarkjs: accepted bytes that do not re-encode to themselves"; \
        return NULL;                                                             \
    }

CZ_CHK_BN254_SNARKJS(bn254_g1, cz_bn254_g1_affine, 64, cz_chk_bn254_fp_reduced)
CZ_CHK_BN254_SNARKJS(bn254_g2, cz_bn254_g2_affine, 128, cz_chk_bn254_fp2_reduced)

/* JSON decimals: range, curve and subgroup */
static inline const char *cz_chk_bn254_g1_dec(const char *x, const char *y, const char *z)
{
    cz_bn254_g1_affine p, q;
    cz_status s = cz_bn254_g1_from_dec(&p, x, y, z);
    if (s != CZ_OK)
        return cz_chk_status_known(s) ? NULL : "bn254_g1_from_dec: unexpected status";
    cz_chk_accepted++;
    if (cz_bn254_g1_affine_is_infinity(&p))
        return cz_bn254_g1_from_dec(&q, "0", "1", "0") == CZ_OK && cz_bn254_g1_affine_eq(&p, &q)
                   ? NULL : "bn254_g1_from_dec: accepted infinity, canonical form differs";
    if (!cz_chk_bn254_fp_reduced(&p.x) || !cz_chk_bn254_fp_reduced(&p.y))
        return "bn254_g1_from_dec: accepted, coordinates not reduced";
    if (!cz_bn254_g1_affine_is_on_curve(&p))
        return "bn254_g1_from_dec: accepted a point off the curve";
    char bx[CZ_BN254_STR_MAX], by[CZ_BN254_STR_MAX];
    cz_bn254_fp_to_dec(bx, &p.x);
    cz_bn254_fp_to_dec(by, &p.y);
    if (cz_bn254_g1_from_dec(&q, bx, by, "1") != CZ_OK || !cz_bn254_g1_affine_eq(&p, &q))
        return "bn254_g1_from_dec: canonical decimal of the result decodes differently";
    return NULL;
}

static inline const char *cz_chk_bn254_g2_dec(const char *s6[6])
{
    cz_bn254_g2_affine p, q;
    cz_status s = cz_bn254_g2_from_dec(&p, s6[0], s6[1], s6[2], s6[3], s6[4], s6[5]);
    if (s != CZ_OK)
        return cz_chk_status_known(s) ? NULL : "bn254_g2_from_dec: unexpected status";
    cz_chk_accepted++;
    if (cz_bn254_g2_affine_is_infinity(&p))
        return NULL;
    if (!cz_chk_bn254_fp2_reduced(&p.x) || !cz_chk_bn254_fp2_reduced(&p.y))
        return "bn254_g2_from_dec: accepted, coordinates not reduced";
    if (!cz_bn254_g2_affine_is_on_curve(&p) || !cz_bn254_g2_affine_in_subgroup(&p))
        return "bn254_g2_from_dec: accepted a point off the curve or outside G2";
    char b[4][CZ_BN254_STR_MAX];
    cz_bn254_fp_to_dec(b[0], &p.x.c0);
    cz_bn254_fp_to_dec(b[1], &p.x.c1);
    cz_bn254_fp_to_dec(b[2], &p.y.c0);
    cz_bn254_fp_to_dec(b[3], &p.y.c1);
    if (cz_bn254_g2_from_dec(&q, b[0], b[1], b[2], b[3], "1", "0") != CZ_OK ||
        !cz_bn254_g2_affine_eq(&p, &q))
        return "bn254_g2_from_dec: canonical decimal of the result decodes differently";
    return NULL;
}

#endif
