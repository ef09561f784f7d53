/*
 * bn254_fp.c: the base field Fp of BN254 (254-bit p, 4 limbs). See bn254.h.
 *
 * DESIGN. The same prime-field code as BLS12-381's fp.c and fr.c
 * (prime_impl.h over mont_impl.h), instantiated with BN254's p, N = 4 and
 * the cz_bn254_fp_ prefix; the mulx/adx assembly is generated for this p
 * by tools/gen_mont_asm.py bn254. p = 3 mod 4, so the square root is one
 * exponentiation, as in BLS12-381's Fp.
 */
#include "field/bn254.h"
#include "field/bn254_constants.h"

#define MONT_N 4
#define MONT_T cz_bn254_fp
#define MONT(x) cz_bn254_fp_mont_##x
#define MONT_P CZ_BN254_FP_P
#define MONT_ASM(op) cz_bn254_fp_asm_##op
#define MONT_ASM_HEADER "field/mont_bn254_x86_64.h"
#define MONT_N0 CZ_BN254_FP_N0
#define MONT_ONE CZ_BN254_FP_ONE_MONT
#define MONT_R2 CZ_BN254_FP_R2
#define MONT_R3 CZ_BN254_FP_R3
#define MONT_P_MINUS_2 CZ_BN254_FP_P_MINUS_2
#define MONT_BITS 254
#define MONT_DEC_DIGITS_MAX 77
#define MONT_SQRT_EXP CZ_BN254_FP_SQRT_EXP
#define MONT_P_MINUS_1_HALF CZ_BN254_FP_P_MINUS_1_HALF
#define F(x) cz_bn254_fp_##x
#include "field/prime_impl.h"
