/* fr.c: the scalar field Fr of BLS12-381 (255-bit r, 4 limbs). See field.h.
   The code is prime_impl.h (also BN254's bn254_fr.c); the square root is
   its Tonelli-Shanks with the non-residue 7 (r - 1 = 2^32 t). */
#include "field/field.h"
#include "field/constants.h"

#define MONT_N 4
#define MONT_T cz_fr
#define MONT(x) cz_fr_mont_##x
#define MONT_P CZ_FR_P
#define MONT_ASM(op) cz_fr_asm_##op
#define MONT_N0 CZ_FR_N0
#define MONT_ONE CZ_FR_ONE_MONT
#define MONT_R2 CZ_FR_R2
#define MONT_R3 CZ_FR_R3
#define MONT_P_MINUS_2 CZ_FR_P_MINUS_2
#define MONT_BITS 255
#define MONT_DEC_DIGITS_MAX 78
#define MONT_TS_T_MINUS_1_HALF CZ_FR_TS_T_MINUS_1_HALF
#define MONT_TS_C CZ_FR_ROOT_OF_UNITY_7_MONT /* 7^t, 7 a non-residue */
#define MONT_TWO_ADICITY CZ_FR_TWO_ADICITY
#define F(x) cz_fr_##x
#include "field/prime_impl.h"
