/* fp.c: the base field Fp of BLS12-381 (381-bit p, 6 limbs). See field.h. */
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
#define F(x) cz_fp_##x
#include "field/prime_impl.h"

static const uint64_t fp_sqrt_exp[6] = CZ_FP_SQRT_EXP;
static const uint64_t fp_half[6] = CZ_FP_P_MINUS_1_HALF;

/* p = 3 mod 4: a root, if any, is a^((p+1)/4); check it by squaring.
   On false out is left unchanged. Constant time. */
bool cz_fp_sqrt(cz_fp *out, const cz_fp *a)
{
    cz_fp r, s;
    cz_fp_pow(&r, a, fp_sqrt_exp, 6);
    cz_fp_sqr(&s, &r);
    bool ok = cz_fp_eq(&s, a);
    cz_fp_cmov(out, &r, ok);
    return ok;
}

/* plain(a) > (p-1)/2, by a constant-time subtraction (p-1)/2 - plain(a). */
bool cz_fp_is_lex_largest(const cz_fp *a)
{
    uint64_t l[6], borrow = 0;
    cz_fp_to_limbs(l, a);
    for (int i = 0; i < 6; i++) {
        cz_u128 x = (cz_u128)fp_half[i] - l[i] - borrow;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    return borrow != 0;
}
