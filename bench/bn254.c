/*
 * bench/bn254.c: single-thread latency of the BN254 curve layer, the
 * counterpart of bench/field.c, curve.c and pairing.c for BLS12-381.
 *
 * Same harness (bench_util.h): best of 10 rounds of dependent chains in
 * thread CPU time, random values and subgroup points. Figures: Fp, Fr and
 * tower products, G1/G2 additions, doublings and scalar multiplications,
 * the GLV scalar split, the Miller loop, the final exponentiation, a
 * pairing, and the Groth16
 * check prod_{i<4} e(P_i, Q_i) == 1.
 * Prints a table, then one JSON line per operation (ns).
 *   bin/bench-bn254 [iterations (default 100)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "curve/bn254_curve.h"
#include "field/bn254.h"
#include "pairing/bn254_pairing.h"

#define TIME(name_, n_, body_) CZ_BENCH_TIME(rows, nrows, name_, n_, 1e9, body_)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    cz_bench_row rows[40];
    int nrows = 0;
    volatile bool sink = false;

    /* ---- fields ---- */
    cz_bn254_fp a, b;
    cz_bn254_fr x, y;
    cz_bn254_fp2 a2, b2;
    cz_bn254_fp12 a12, b12;
    cz_bn254_fp_random(&a, &rng);
    cz_bn254_fp_random(&b, &rng);
    cz_bn254_fr_random(&x, &rng);
    cz_bn254_fr_random(&y, &rng);
    cz_bn254_fp2_random(&a2, &rng);
    cz_bn254_fp2_random(&b2, &rng);
    cz_bn254_fp12_random(&a12, &rng);
    cz_bn254_fp12_random(&b12, &rng);
    long m = n * 20000;
    TIME("fp_mul", m, cz_bn254_fp_mul(&a, &a, &b));
    TIME("fp_sqr", m, cz_bn254_fp_sqr(&a, &a));
    TIME("fp_add", m, cz_bn254_fp_add(&a, &a, &b));
    TIME("fr_mul", m, cz_bn254_fr_mul(&x, &x, &y));
    TIME("fp_inv_var", n * 100, cz_bn254_fp_inv_var(&a, &a));
    TIME("fp_inv", n * 100, cz_bn254_fp_inv(&a, &a));
    TIME("fp2_mul", m, cz_bn254_fp2_mul(&a2, &a2, &b2));
    TIME("fp2_sqr", m, cz_bn254_fp2_sqr(&a2, &a2));
    TIME("fp12_mul", n * 1000, cz_bn254_fp12_mul(&a12, &a12, &b12));
    TIME("fp12_sqr", n * 1000, cz_bn254_fp12_sqr(&a12, &a12));
    TIME("fp12_mul_by_034", n * 1000, cz_bn254_fp12_mul_by_034(&a12, &a12, &a2, &b2, &a2));

    /* ---- groups ---- */
    cz_bn254_g1_affine g1, ps[4];
    cz_bn254_g2_affine g2, qs[4];
    cz_bn254_g1_jac j1, k1;
    cz_bn254_g2_jac j2, k2;
    cz_bn254_g1_generator(&g1);
    cz_bn254_g2_generator(&g2);
    for (int i = 0; i < 4; i++) {
        cz_bn254_fr k;
        cz_bn254_fr_random(&k, &rng);
        cz_bn254_g1_jac_from_affine(&j1, &g1);
        cz_bn254_g1_jac_mul(&j1, &j1, &k);
        cz_bn254_g1_jac_to_affine(&ps[i], &j1);
        cz_bn254_fr_random(&k, &rng);
        cz_bn254_g2_jac_from_affine(&j2, &g2);
        cz_bn254_g2_jac_mul(&j2, &j2, &k);
        cz_bn254_g2_jac_to_affine(&qs[i], &j2);
    }
    cz_bn254_g1_jac_from_affine(&j1, &ps[0]);
    cz_bn254_g1_jac_from_affine(&k1, &ps[1]);
    cz_bn254_g2_jac_from_affine(&j2, &qs[0]);
    cz_bn254_g2_jac_from_affine(&k2, &qs[1]);
    cz_bn254_g1_jac_dbl(&k1, &k1); /* Z != 1 */
    cz_bn254_g2_jac_dbl(&k2, &k2);
    TIME("g1_jac_add", n * 1000, cz_bn254_g1_jac_add(&j1, &j1, &k1));
    TIME("g1_jac_add_affine", n * 1000, cz_bn254_g1_jac_add_affine(&j1, &j1, &ps[2]));
    TIME("g1_jac_dbl", n * 1000, cz_bn254_g1_jac_dbl(&j1, &j1));
    TIME("g1_jac_mul", n * 10, cz_bn254_g1_jac_mul(&j1, &j1, &x));
    uint64_t kl[4], s1[2], s2[2];
    bool ng1, ng2;
    cz_bn254_fr_to_limbs(kl, &x);
    TIME("g1_glv_split", n * 1000, (cz_bn254_g1_glv_split(s1, &ng1, s2, &ng2, kl), kl[0] ^= s1[0] ^ s2[1]));
    sink ^= ng1 ^ ng2;
    TIME("g2_jac_add", n * 1000, cz_bn254_g2_jac_add(&j2, &j2, &k2));
    TIME("g2_jac_dbl", n * 1000, cz_bn254_g2_jac_dbl(&j2, &j2));
    TIME("g2_jac_mul", n * 10, cz_bn254_g2_jac_mul(&j2, &j2, &x));
    TIME("g2_in_subgroup", n * 10, sink ^= cz_bn254_g2_affine_in_subgroup(&qs[2]));

    /* ---- pairing ---- */
    cz_bn254_fp12 f, e;
    TIME("miller_loop", n, cz_bn254_miller_loop(&f, ps, qs, 1));
    TIME("final_exp", n, cz_bn254_final_exp(&e, &f));
    TIME("pairing", n, cz_bn254_pairing(&e, &ps[0], &qs[0]));
    TIME("product4_is_one", n, sink ^= cz_bn254_pairing_product_is_one(ps, qs, 4));

    printf("%-24s %12s\n", "op", "ns/op");
    for (int i = 0; i < nrows; i++)
        printf("%-24s %12.1f\n", rows[i].name, rows[i].t);
    char commit[64], machine[192];
    cz_bench_commit(commit, sizeof commit);
    cz_bench_machine(machine, sizeof machine);
    for (int i = 0; i < nrows; i++)
        printf("{\"bench\":\"bn254\",\"op\":\"%s\",\"ns\":%.1f,\"asm\":%d,\"commit\":\"%s\",\"machine\":\"%s\"}\n",
               rows[i].name, rows[i].t, cz_bn254_fp_mul_is_asm(), commit, machine);
    fprintf(stderr, "# %llx %llx %llx %d\n", (unsigned long long)a.l[0] ^ x.l[0] ^ a2.c0.l[0],
            (unsigned long long)a12.c0.c0.c0.l[0] ^ j1.x.l[0] ^ j2.x.c0.l[0],
            (unsigned long long)e.c0.c0.c0.l[0], (int)sink);
    return 0;
}
