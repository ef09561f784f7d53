/*
 * bench/curve.c: single-thread latency of the curve layer (G1, G2).
 *
 * Each figure is a dependent chain (acc = op(acc, q)) on points in the
 * subgroup, timed in thread CPU time, best of 10 rounds (the machine is
 * shared; the minimum is the least disturbed figure). Prints a table, then
 * one JSON line per operation.
 *   bin/bench-curve [iterations (default 200000)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "curve/curve.h"
#include "field/field_internal.h"

#define TIME(name_, n_, body_) CZ_BENCH_TIME(rows, nrows, name_, n_, 1e9, body_)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    cz_bench_row rows[40];
    int nrows = 0;
    volatile bool sink = false;

    /* random subgroup points p, q in every form */
    uint64_t k1[4], k2[4];
    cz_fr s;
    cz_fr_random(&s, &rng);
    cz_fr_to_limbs(k1, &s);
    cz_fr_random(&s, &rng);
    cz_fr_to_limbs(k2, &s);
    cz_fr k;
    cz_fr_random(&k, &rng);
    uint64_t kl[4];
    cz_fr_to_limbs(kl, &k);

    cz_g1_affine g1, qa1, pa1;
    cz_g1_jac gj1, p1, q1, acc1;
    cz_g1_xyzz x1, xq1;
    cz_g1_generator(&g1);
    cz_g1_jac_from_affine(&gj1, &g1);
    cz_g1_jac_mul_var(&p1, &gj1, k1, 4);
    cz_g1_jac_mul_var(&q1, &gj1, k2, 4);
    cz_g1_jac_to_affine(&qa1, &q1);
    cz_g1_jac_to_affine(&pa1, &p1);
    cz_g1_xyzz_from_affine(&x1, &pa1);
    cz_g1_xyzz_dbl(&x1, &x1);
    cz_g1_xyzz_from_affine(&xq1, &qa1);
    cz_g1_xyzz_dbl(&xq1, &xq1);
    acc1 = p1;

    TIME("g1_jac_add", n, cz_g1_jac_add(&acc1, &acc1, &q1));
    TIME("g1_jac_add_affine", n, cz_g1_jac_add_affine(&acc1, &acc1, &qa1));
    TIME("g1_jac_dbl", n, cz_g1_jac_dbl(&acc1, &acc1));
    TIME("g1_xyzz_add", n, cz_g1_xyzz_add(&x1, &x1, &xq1));
    TIME("g1_xyzz_add_affine", n, cz_g1_xyzz_add_affine(&x1, &x1, &qa1));
    TIME("g1_xyzz_dbl", n, cz_g1_xyzz_dbl(&x1, &x1));
    TIME("g1_jac_mul_255", n / 1000, cz_g1_jac_mul(&acc1, &acc1, &k));
    TIME("g1_jac_mul_var_255", n / 1000, cz_g1_jac_mul_var(&acc1, &acc1, kl, 4));
    TIME("g1_in_subgroup", n / 500, sink ^= cz_g1_affine_in_subgroup(&pa1));
    enum { NB = 256 };
    static cz_g1_jac js[NB];
    static cz_g1_affine as[NB];
    for (int i = 0; i < NB; i++) {
        cz_g1_jac_add(&acc1, &acc1, &q1);
        js[i] = acc1;
    }
    TIME("g1_batch_to_affine_pt", n / 10, cz_g1_jac_batch_to_affine(as, js, NB));
    rows[nrows - 1].t /= NB;
    uint8_t c48[48];
    cz_g1_affine d1;
    cz_g1_to_compressed(c48, &pa1);
    TIME("g1_from_compressed", n / 500, sink ^= cz_g1_from_compressed(&d1, c48));

    cz_g2_affine g2, qa2, pa2;
    cz_g2_jac gj2, p2, q2, acc2;
    cz_g2_xyzz x2;
    cz_g2_generator(&g2);
    cz_g2_jac_from_affine(&gj2, &g2);
    cz_g2_jac_mul_var(&p2, &gj2, k1, 4);
    cz_g2_jac_mul_var(&q2, &gj2, k2, 4);
    cz_g2_jac_to_affine(&qa2, &q2);
    cz_g2_jac_to_affine(&pa2, &p2);
    cz_g2_xyzz_from_affine(&x2, &pa2);
    cz_g2_xyzz_dbl(&x2, &x2);
    acc2 = p2;
    TIME("g2_jac_add", n / 4, cz_g2_jac_add(&acc2, &acc2, &q2));
    TIME("g2_jac_add_affine", n / 4, cz_g2_jac_add_affine(&acc2, &acc2, &qa2));
    TIME("g2_jac_dbl", n / 4, cz_g2_jac_dbl(&acc2, &acc2));
    TIME("g2_xyzz_add_affine", n / 4, cz_g2_xyzz_add_affine(&x2, &x2, &qa2));
    TIME("g2_jac_mul_255", n / 4000, cz_g2_jac_mul(&acc2, &acc2, &k));
    TIME("g2_jac_mul_var_255", n / 4000, cz_g2_jac_mul_var(&acc2, &acc2, kl, 4));
    TIME("g2_in_subgroup", n / 2000, sink ^= cz_g2_affine_in_subgroup(&pa2));

    printf("%-24s %12s\n", "op", "ns/op");
    for (int i = 0; i < nrows; i++)
        printf("%-24s %12.1f\n", rows[i].name, rows[i].t);
    for (int i = 0; i < nrows; i++)
        printf("{\"bench\":\"curve\",\"op\":\"%s\",\"ns\":%.2f,\"asm\":%d}\n", rows[i].name,
               rows[i].t, cz_fp_mul_is_asm());
    /* keep the results live */
    cz_g1_affine o1;
    cz_g2_affine o2;
    cz_g1_jac_to_affine(&o1, &acc1);
    cz_g2_jac_to_affine(&o2, &acc2);
    cz_g1_xyzz_to_jac(&acc1, &x1);
    cz_g2_xyzz_to_jac(&acc2, &x2);
    fprintf(stderr, "# %llx %llx %llx %llx %llx %d\n", (unsigned long long)o1.x.l[0],
            (unsigned long long)o2.x.c0.l[0], (unsigned long long)acc1.x.l[0],
            (unsigned long long)acc2.x.c0.l[0], (unsigned long long)as[7].x.l[0], (int)sink);
    return 0;
}
