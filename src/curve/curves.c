/*
 * curves.c: the curve descriptors of curves.h.
 *
 * DESIGN. Constant tables built from each curve's generated constants
 * (field/constants.h, field/bn254_constants.h), and lookups by id, name and
 * moduli for the readers that must tell a key's curve from its header.
 */
#include "curve/curves.h"

#include <string.h>
#include <strings.h>

#include "field/bn254_constants.h"
#include "field/constants.h"

static const uint64_t bls_p[6] = CZ_FP_P, bls_r[4] = CZ_FR_P;
static const uint64_t bn_p[4] = CZ_BN254_FP_P, bn_r[4] = CZ_BN254_FR_P;

static const cz_curve curves[CZ_CURVE_COUNT] = {
    {CZ_CURVE_BLS12_381, "bls12-381", "bls12381", 6, 4, 48, 32, 96, 192, CZ_FR_TWO_ADICITY, bls_p, bls_r},
    {CZ_CURVE_BN254, "bn254", "bn128", 4, 4, 32, 32, 64, 128, CZ_BN254_FR_TWO_ADICITY, bn_p, bn_r},
};

const cz_curve *cz_curve_get(cz_curve_id id)
{
    if ((unsigned)id >= CZ_CURVE_COUNT)
        return NULL;
    return &curves[id];
}

const cz_curve *cz_curve_by_name(const char *name)
{
    static const struct {
        const char *alias;
        cz_curve_id id;
    } aliases[] = {
        {"bls12-381", CZ_CURVE_BLS12_381}, {"bls12381", CZ_CURVE_BLS12_381},
        {"bls12_381", CZ_CURVE_BLS12_381}, {"bn254", CZ_CURVE_BN254},
        {"bn128", CZ_CURVE_BN254},         {"alt_bn128", CZ_CURVE_BN254},
    };
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcasecmp(name, aliases[i].alias) == 0)
            return &curves[aliases[i].id];
    return NULL;
}

/* the n bytes at b, little-endian, equal the limbs m of w words */
static int le_equals(const uint8_t *b, size_t n, const uint64_t *m, unsigned w)
{
    if (n != 8u * w)
        return 0;
    for (unsigned i = 0; i < w; i++) {
        uint64_t v = 0;
        for (int k = 7; k >= 0; k--)
            v = (v << 8) | b[8 * i + (unsigned)k];
        if (v != m[i])
            return 0;
    }
    return 1;
}

const cz_curve *cz_curve_by_moduli(const uint8_t *q, size_t n8q, const uint8_t *r, size_t n8r)
{
    if (!q)
        return NULL;
    for (int i = 0; i < CZ_CURVE_COUNT; i++) {
        const cz_curve *c = &curves[i];
        if (le_equals(q, n8q, c->p, c->fp_limbs) && (!r || le_equals(r, n8r, c->r, c->fr_limbs)))
            return c;
    }
    return NULL;
}

const cz_curve *cz_curve_by_scalar_prime(const uint8_t *r, size_t n8r)
{
    if (!r)
        return NULL;
    for (int i = 0; i < CZ_CURVE_COUNT; i++)
        if (le_equals(r, n8r, curves[i].r, curves[i].fr_limbs))
            return &curves[i];
    return NULL;
}
