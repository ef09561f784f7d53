/*
 * r1cs_bn254.c: the .r1cs reader over BN254's Fr (cz_bn254_r1cs_load,
 * groth16/setup_bn254.h).
 *
 * DESIGN. io/r1cs_impl.h, BLS12-381's reader, compiled over BN254's Fr
 * and r (docs/CURVES.md); a BLS12-381 circuit is named as such.
 */
#include "field/bn254_constants.h"
#include "groth16/setup_bn254.h"
#include "io/binfile.h"

static cz_status check_prime(const uint8_t *prime, const char *name, char *err, size_t err_len)
{
    const cz_curve *c = cz_curve_by_scalar_prime(prime, 32);
    if (c && c->id == CZ_CURVE_BN254)
        return CZ_OK;
    if (c)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "this circuit is for %s, not BN254 (bn128)", c->name);
    return cz_io_fail(CZ_ERR_CURVE, err, err_len, name, "the circuit prime is not BN254's r");
}

#define R1_T cz_bn254_r1cs
#define R1_FR_(op) cz_bn254_fr_##op
#define R1_FR_P CZ_BN254_FR_P
#define R1_CHECK_PRIME(p, name, err, err_len) check_prime(p, name, err, err_len)
#define R1_CURVE_NAME "BN254"
#define R1_FN_PARSE cz_bn254_r1cs_parse
#define R1_FN_LOAD cz_bn254_r1cs_load
#define R1_FN_FREE cz_bn254_r1cs_free
#include "io/r1cs_impl.h"
