/*
 * bench/pairing.c: single-thread latency of the pairing layer.
 *
 * Timed in thread CPU time, best of 10 rounds (the machine is shared; the
 * minimum is the least disturbed figure), on random subgroup points.
 * Figures: the Fp12 operations the pairing is made of, one Miller loop, one
 * final exponentiation, one full pairing, and the Groth16 verification
 * check prod_{i<4} e(P_i, Q_i) == 1 with affine G2 and with three of the
 * four G2 points prepared (a verifying key's beta, gamma, delta).
 * Prints a table, then one JSON line per operation.
 *   bin/bench-pairing [iterations (default 100)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "curve/curve.h"
#include "field/field_internal.h"
#include "pairing/pairing.h"

#define TIME(name_, n_, body_) CZ_BENCH_TIME(rows, nrows, name_, n_, 1e6, body_)

/* e(P0, Q0) e(P1, pre1) e(P2, pre2) * ml == 1 after the final exponentiation */
static bool check_cached(const cz_g1_affine *ps, const cz_g2_affine *qs, const cz_g2_prepared *pre,
                         const cz_fp12 *ml)
{
    cz_fp12 f;
    cz_miller_loop_mixed(&f, ps, qs, 1, ps + 1, pre + 1, 2);
    cz_fp12_mul(&f, &f, ml);
    cz_final_exp(&f, &f);
    return cz_fp12_is_one(&f);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    cz_bench_row rows[20];
    int nrows = 0;
    volatile bool sink = false;

    cz_g1_affine ps[4], g1;
    cz_g2_affine qs[4], g2;
    cz_g2_prepared pre[4];
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    for (int i = 0; i < 4; i++) {
        cz_fr k;
        cz_g1_jac j1;
        cz_g2_jac j2;
        cz_fr_random(&k, &rng);
        cz_g1_jac_from_affine(&j1, &g1);
        cz_g1_jac_mul(&j1, &j1, &k);
        cz_g1_jac_to_affine(&ps[i], &j1);
        cz_fr_random(&k, &rng);
        cz_g2_jac_from_affine(&j2, &g2);
        cz_g2_jac_mul(&j2, &j2, &k);
        cz_g2_jac_to_affine(&qs[i], &j2);
        cz_g2_prepare(&pre[i], &qs[i]);
    }

    cz_fp12 a, b, f, e;
    cz_fp2 c0, c1, c4;
    cz_fp12_random(&a, &rng);
    cz_fp12_random(&b, &rng);
    cz_fp2_random(&c0, &rng);
    cz_fp2_random(&c1, &rng);
    cz_fp2_random(&c4, &rng);
    long m = n * 100;
    TIME("fp12_mul", m, cz_fp12_mul(&a, &a, &b));
    TIME("fp12_sqr", m, cz_fp12_sqr(&a, &a));
    TIME("fp12_mul_by_014", m, cz_fp12_mul_by_014(&a, &a, &c0, &c1, &c4));
    cz_miller_loop(&f, ps, qs, 1);
    cz_final_exp(&e, &f); /* e is cyclotomic */
    TIME("fp12_cyclotomic_sqr", m, cz_fp12_cyclotomic_sqr(&e, &e));
    TIME("fp12_inv", n * 10, cz_fp12_inv_var(&a, &a));
    TIME("fp12_frobenius_1", m, cz_fp12_frobenius(&a, &a, 1));

    TIME("miller_loop", n, cz_miller_loop(&f, ps, qs, 1));
    TIME("final_exp", n, cz_final_exp(&e, &f));
    TIME("pairing", n, cz_pairing(&e, &ps[0], &qs[0]));
    TIME("g2_prepare", n, cz_g2_prepare(&pre[3], &qs[3]));
    TIME("product4_is_one", n, sink ^= cz_pairing_product_is_one(ps, qs, 4));
    /* Groth16 verification with a prepared key: B is the proof's (affine),
       beta, gamma, delta come prepared from the key. */
    TIME("product4_prepared3", n, sink ^= cz_pairing_product_is_one_mixed(ps, qs, 1, ps + 1, pre + 1, 3));

    /* ... and with e(alpha, beta)'s Miller value cached too (the check then
       needs one Fp12 product for it): (-A, B) affine, (L, gamma), (C, delta)
       prepared. */
    cz_fp12 ml_ab;
    cz_miller_loop(&ml_ab, ps + 3, qs + 3, 1);
    TIME("product4_cached", n, sink ^= check_cached(ps, qs, pre, &ml_ab));

    printf("%-24s %12s\n", "op", "us/op");
    for (int i = 0; i < nrows; i++)
        printf("%-24s %12.2f\n", rows[i].name, rows[i].t);
    for (int i = 0; i < nrows; i++)
        printf("{\"bench\":\"pairing\",\"op\":\"%s\",\"us\":%.3f,\"asm\":%d}\n", rows[i].name,
               rows[i].t, cz_fp_mul_is_asm());
    fprintf(stderr, "# %llx %d\n", (unsigned long long)e.c0.c0.c0.l[0], (int)sink);
    return 0;
}
