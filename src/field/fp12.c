/*
 * fp12.c: the top of the tower, Fp12 = Fp6[w]/(w^2 - v), where the pairing
 * takes its values.
 *
 * DESIGN. An element is c0 + c1 w over Fp6 (field.h); w^6 = xi = u + 1, so
 * it is also sum_{i<6} a_i w^i over Fp2 with (a0..a5) = (c0.c0, c1.c0,
 * c0.c1, c1.c1, c0.c2, c1.c2). Products are Karatsuba (3 Fp6 products =
 * 18 Fp2, kept wide and reduced once per output coefficient: tower_wide.h),
 * squares the complex method (2 Fp6 products), and the pairing's
 * hot paths have special forms: the sparse product by a line (mul_by_014)
 * and Granger-Scott squaring in the cyclotomic subgroup. Frobenius maps use
 * the constants of tower_constants.h; exponentiation by the BLS x uses
 * Karabina's compressed squarings. Constant time except the _var functions
 * and cyclotomic_exp_x (for public data: a variable-time inversion and a
 * branch on a degenerate case).
 *
 * The curve-independent part is fp12_impl.h (BN254's bn254_fp12.c compiles
 * it too); this file instantiates it for BLS12-381 and adds the Karabina
 * exponentiation by x.
 */
#include "field/field.h"
#include "field/constants.h"
#include "field/field_internal.h"
#include "field/fp_inline.h"
#include "field/tower_constants.h"

#define TW_FP cz_fp
#define TW_FP2 cz_fp2
#define TW_FP6 cz_fp6
#define TW_FP12 cz_fp12
#define FP_(op) cz_fp_##op
#define FP2_(op) cz_fp2_##op
#define FP6_(op) cz_fp6_##op
#define FP12_(op) cz_fp12_##op
#define FPI_(op) cz_fp_##op##_i
#define FP2I_(op) cz_fp2_##op##_i
#define TW_N 6
#define TW_P CZ_FP_P
#define TW_XI_C0 1
#define TW_FROB_V CZ_FP6_FROB_V
#define TW_FROB_V2 CZ_FP6_FROB_V2
#define TW_FROB_W CZ_FP12_FROB_W
#define TW_FROB_W3 CZ_FP12_FROB_W3
#define TW_FROB_W5 CZ_FP12_FROB_W5
#include "field/tower_wide.h"
#include "field/fp12_impl.h"

/* a^|x| by plain Granger-Scott squarings, left to right: 63 squarings and
   5 products. The fallback of the compressed version below. */
static void cyclotomic_exp_x_gs(cz_fp12 *out, const cz_fp12 *a)
{
    const uint64_t x = CZ_PAIRING_X_ABS;
    cz_fp12 r = *a;
    for (int b = 62; b >= 0; b--) {
        cz_fp12_cyclotomic_sqr(&r, &r);
        if ((x >> b) & 1)
            cz_fp12_mul(&r, &r, a);
    }
    *out = r;
}

/* Karabina's compressed squaring. A cyclotomic a = A + B w + C w^2 (over
 * Fp4, see cz_fp12_cyclotomic_sqr) is determined by B = b0 + b1 t and
 * C = c0 + c1 t, and the Granger-Scott formulas for B', C' use only B and
 * C: B' = 3 t C^2 + 2 conj(B), C' = 3 B^2 - 2 conj(C). 6 Fp2 squares. */
typedef struct {
    cz_fp2 b0, b1, c0, c1;  /* c1.c0, c0.c2, c0.c1, c1.c2 of the Fp12 element */
} fp12_compressed;

static void compressed_sqr(fp12_compressed *z)
{
    cz_fp2 q0, q1, r0, r1;
    fp4_sqr(&q0, &q1, &z->c0, &z->c1);          /* C^2 */
    fp4_sqr(&r0, &r1, &z->b0, &z->b1);          /* B^2 */
    cz_fp2_mul_by_nonresidue_i(&q1, &q1);       /* t C^2 = xi q1 + q0 t */
    three_plus_two(&z->b0, &q1, &z->b0);
    three_minus_two(&z->b1, &q0, &z->b1);
    three_minus_two(&z->c0, &r0, &z->c0);
    three_plus_two(&z->c1, &r1, &z->c1);
}

/* Decompression (Karabina 2013; in his coordinates g2..g5 = b0, b1, c0, c1,
 * g1 = a1, g0 = a0 with A = a0 + a1 t): for a cyclotomic a with b0 != 0,
 *   a1 = (xi c1^2 + 3 c0^2 - 2 b1) / (4 b0),
 *   a0 = xi (2 a1^2 + b0 c1 - 3 b1 c0) + 1.
 * decompress_num gives the numerator and denominator of a1 (the caller
 * inverts all denominators at once); decompress_finish the rest. */
static void decompress_num(cz_fp2 *num, cz_fp2 *den, const fp12_compressed *z)
{
    cz_fp2 s, t;
    cz_fp2_sqr(&s, &z->c1);
    cz_fp2_mul_by_nonresidue_i(&s, &s);
    cz_fp2_sqr(&t, &z->c0);
    three_minus_two(&t, &t, &z->b1);           /* 3 c0^2 - 2 b1 */
    cz_fp2_add_i(num, &s, &t);
    cz_fp2_dbl_i(den, &z->b0);
    cz_fp2_dbl_i(den, den);
}

static void decompress_finish(cz_fp12 *out, const fp12_compressed *z, const cz_fp2 *a1)
{
    cz_fp2 s, t, one;
    cz_fp2_sqr(&s, a1);
    cz_fp2_dbl_i(&s, &s);
    cz_fp2_mul(&t, &z->b0, &z->c1);
    cz_fp2_add_i(&s, &s, &t);
    cz_fp2_mul(&t, &z->b1, &z->c0);
    cz_fp2_sub_i(&s, &s, &t);
    cz_fp2_dbl_i(&t, &t);
    cz_fp2_sub_i(&s, &s, &t);                   /* 2 a1^2 + b0 c1 - 3 b1 c0 */
    cz_fp2_mul_by_nonresidue_i(&s, &s);
    cz_fp2_one(&one);
    cz_fp2_add_i(&out->c0.c0, &s, &one);
    out->c1.c1 = *a1;
    out->c1.c0 = z->b0;
    out->c0.c2 = z->b1;
    out->c0.c1 = z->c0;
    out->c1.c2 = z->c1;
}

/* a^|x|, |x| = 0xd201000000010000 = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16:
 * 63 compressed squarings of a (6 Fp2 squares each instead of 9), keeping
 * a^(2^k) for the six set bits k, then one decompression each with a single
 * Fp2 inversion for all six (Montgomery's trick), then 5 products. Where a
 * denominator 4 b0 is 0 (a = 1, or by chance, probability ~6/p^2) it falls
 * back to plain Granger-Scott squarings: a branch on public data only. */
void cz_fp12_cyclotomic_exp_x(cz_fp12 *out, const cz_fp12 *a)
{
    enum { K = 6 };
    static const int bits[K] = {16, 48, 57, 60, 62, 63};
    fp12_compressed z = {a->c1.c0, a->c0.c2, a->c0.c1, a->c1.c2}, saved[K];
    for (int i = 1, k = 0; k < K; i++) {
        compressed_sqr(&z);
        if (i == bits[k])
            saved[k++] = z;
    }
    cz_fp2 num[K], den[K], pre[K], inv;
    for (int k = 0; k < K; k++) {
        decompress_num(&num[k], &den[k], &saved[k]);
        if (cz_fp2_is_zero(&den[k])) {
            cyclotomic_exp_x_gs(out, a);
            return;
        }
        if (k == 0)
            pre[0] = den[0];
        else
            cz_fp2_mul(&pre[k], &pre[k - 1], &den[k]);
    }
    cz_fp2_inv_var(&inv, &pre[K - 1]);          /* 1 / (d0 ... d5) */
    cz_fp12 r, e;
    for (int k = K - 1; k >= 0; k--) {
        cz_fp2 dk_inv, a1;
        if (k > 0) {
            cz_fp2_mul(&dk_inv, &inv, &pre[k - 1]);  /* 1 / d_k */
            cz_fp2_mul(&inv, &inv, &den[k]);         /* 1 / (d0 ... d_{k-1}) */
        } else {
            dk_inv = inv;
        }
        cz_fp2_mul(&a1, &num[k], &dk_inv);
        decompress_finish(&e, &saved[k], &a1);
        if (k == K - 1)
            r = e;
        else
            cz_fp12_mul(&r, &r, &e);
    }
    *out = r;
}

