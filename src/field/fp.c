/* fp.c: the base field Fp of BLS12-381 (381-bit p, 6 limbs). See field.h.
   The code is prime_impl.h (also BN254's bn254_fp.c); p = 3 mod 4, so the
   square root is its single exponentiation a^((p+1)/4). */
#include "field/field.h"
#include "field/constants.h"

#define MONT_N 6
#define MONT_T cz_fp
#define MONT(x) cz_fp_mont_##x
#define MONT_P CZ_FP_P
#define MONT_ASM(op) cz_fp_asm_##op
#define MONT_N0 CZ_FP_N0
#define MONT_ONE CZ_FP_ONE_MONT
#define MONT_R2 CZ_FP_R2
#define MONT_R3 CZ_FP_R3
#define MONT_P_MINUS_2 CZ_FP_P_MINUS_2
#define MONT_BITS 381
#define MONT_DEC_DIGITS_MAX 116
#define MONT_SQRT_EXP CZ_FP_SQRT_EXP
#define MONT_P_MINUS_1_HALF CZ_FP_P_MINUS_1_HALF
#define F(x) cz_fp_##x
#include "field/prime_impl.h"
