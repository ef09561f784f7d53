/* fr.c: the scalar field Fr of BLS12-381 (255-bit r, 4 limbs). See field.h. */
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
#define F(x) cz_fr_##x
#include "field/prime_impl.h"

static const uint64_t fr_ts_c3[4] = CZ_FR_TS_T_MINUS_1_HALF;
static const cz_fr fr_ts_c5 = {CZ_FR_ROOT_OF_UNITY_7_MONT}; /* 7^t, 7 a non-residue */

/* Constant-time Tonelli-Shanks (RFC 9380, appendix I.4), r - 1 = 2^32 t:
 *   z = x^((t-1)/2), t' = z^2 x, z = z x, b = t', c = 7^t;
 *   for k = 32 .. 2: b = t'^(2^(k-2)); e = (b == 1);
 *     z = e ? z : z c; c = c^2; t' = e ? t' : t' c.
 * About 250 + 2*31 products and 465 squarings. The result is checked by
 * squaring; on false out is left unchanged. */
bool cz_fr_sqrt(cz_fr *out, const cz_fr *x)
{
    cz_fr z, t, b, c = fr_ts_c5, tmp;
    cz_fr_pow(&z, x, fr_ts_c3, 4);
    cz_fr_sqr(&t, &z);
    cz_fr_mul(&t, &t, x);
    cz_fr_mul(&z, &z, x);
    for (int k = CZ_FR_TWO_ADICITY; k >= 2; k--) {
        b = t;
        for (int i = 1; i <= k - 2; i++)
            cz_fr_sqr(&b, &b);
        bool e = cz_fr_is_one(&b);
        cz_fr_mul(&tmp, &z, &c);
        cz_fr_cmov(&z, &tmp, !e);
        cz_fr_sqr(&c, &c);
        cz_fr_mul(&tmp, &t, &c);
        cz_fr_cmov(&t, &tmp, !e);
    }
    cz_fr_sqr(&tmp, &z);
    bool ok = cz_fr_eq(&tmp, x);
    cz_fr_cmov(out, &z, ok);
    return ok;
}
