/*
 * bn254_fp12.c: BN254's Fp12 = Fp6[w]/(w^2 - v), w^6 = xi = 9 + u.
 *
 * DESIGN. The shared code of fp12_impl.h over tower_wide.h (BLS12-381's
 * fp12.c compiles the same) with BN254's parameters (bn254_inline.h), and
 * the two forms that only BN254's pairing needs:
 *  - the sparse product by a line of the D-type twist, whose untwisted lines
 *    live in the slots 1, w, w^3 (c0.c0, c1.c0, c1.c1), where the M-type
 *    lines of BLS12-381 (mul_by_014) live in 1, w^2, w^3;
 *  - exponentiation by a public exponent in the cyclotomic subgroup with
 *    Granger-Scott squarings: BN254's x = 0x44e992b44a6909f1 has 29 set
 *    bits, too many for BLS12-381's Karabina chain (one decompression per
 *    set bit) to pay.
 */
#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#include "field/tower_wide.h"
#include "field/fp12_impl.h"

/* a * (L0 + L1 w) with L0 = c0 (in Fp2), L1 = c3 + c4 v (Karatsuba over Fp6):
 *   t0 = a0 c0 (3 Fp2 products), t1 = a1 L1 (mul_by_01, 5),
 *   out1 = (a0 + a1)(c0 + c3 + c4 v) - t0 - t1 (mul_by_01, 5),
 *   out0 = t0 + t1 v. 13 Fp2 products, wide, with 12 reductions. */
void cz_bn254_fp12_mul_by_034(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const cz_bn254_fp2 *c0,
                              const cz_bn254_fp2 *c3, const cz_bn254_fp2 *c4)
{
    fp6_wide t0, t1, x;
    cz_bn254_fp6 s;
    cz_bn254_fp2 c03, l0 = *c0, l4 = *c4; /* the c's may alias coefficients of out */
    cz_bn254_fp2_add_i(&c03, c0, c3);
    cz_bn254_fp6_add(&s, &a->c0, &a->c1);
    fp2_mul_wide(&t0.c0, &a->c0.c0, &l0);
    fp2_mul_wide(&t0.c1, &a->c0.c1, &l0);
    fp2_mul_wide(&t0.c2, &a->c0.c2, &l0);
    fp6_mul_by_01_wide(&t1, &a->c1, c3, &l4);
    fp6_mul_by_01_wide(&x, &s, &c03, &l4);
    fp6w_sub(&x, &x, &t0);
    fp6w_sub(&x, &x, &t1);
    fp6w_redc(&out->c1, &x);
    fp6w_mul_by_nonresidue(&x, &t1);
    fp6w_add(&x, &x, &t0);
    fp6w_redc(&out->c0, &x);
}

/* Left to right: one Granger-Scott squaring per bit below the top one and
   one product per set bit. For BN254's x (63 bits, 29 set): 62 S + 28 M. */
void cz_bn254_fp12_cyclotomic_pow_var(cz_bn254_fp12 *out, const cz_bn254_fp12 *a, const uint64_t *e,
                                      size_t e_limbs)
{
    cz_bn254_fp12 r, base = *a;
    bool started = false;
    cz_bn254_fp12_one(&r);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            if (started)
                cz_bn254_fp12_cyclotomic_sqr(&r, &r);
            if ((e[i] >> b) & 1) {
                if (started)
                    cz_bn254_fp12_mul(&r, &r, &base);
                else
                    r = base;
                started = true;
            }
        }
    }
    *out = r;
}
