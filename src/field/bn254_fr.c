/*
 * bn254_fr.c: the scalar field Fr of BN254 (254-bit r, 4 limbs), the field
 * of snarkjs's bn128 witnesses. See bn254.h.
 *
 * DESIGN. prime_impl.h instantiated with BN254's r and the cz_bn254_fr_
 * prefix, as bn254_fp.c; r - 1 = 2^28 t, so the square root is
 * Tonelli-Shanks with the non-residue 5 (snarkjs's generator of Fr*).
 */
#include "field/bn254.h"
#include "field/bn254_constants.h"

#define MONT_N 4
#define MONT_T cz_bn254_fr
#define MONT(x) cz_bn254_fr_mont_##x
#define MONT_P CZ_BN254_FR_P
#define MONT_ASM(op) cz_bn254_fr_asm_##op
#define MONT_ASM_HEADER "field/mont_bn254_x86_64.h"
#define MONT_N0 CZ_BN254_FR_N0
#define MONT_ONE CZ_BN254_FR_ONE_MONT
#define MONT_R2 CZ_BN254_FR_R2
#define MONT_R3 CZ_BN254_FR_R3
#define MONT_P_MINUS_2 CZ_BN254_FR_P_MINUS_2
#define MONT_BITS 254
#define MONT_DEC_DIGITS_MAX 77
#define MONT_TS_T_MINUS_1_HALF CZ_BN254_FR_TS_T_MINUS_1_HALF
#define MONT_TS_C CZ_BN254_FR_ROOT_OF_UNITY_5_MONT /* 5^t, 5 a non-residue */
#define MONT_TWO_ADICITY CZ_BN254_FR_TWO_ADICITY
#define F(x) cz_bn254_fr_##x
#include "field/prime_impl.h"
