/*
 * bench/field.c: single-thread latency of the field primitives.
 *
 * Each figure is a dependent chain (x = op(x, y)), so it measures latency,
 * the quantity that bounds the serial parts of curve and pairing code; the
 * "_x4" rows run four independent chains and give the time per operation,
 * closer to the throughput that MSM bucket work sees.
 * Prints a table, then one JSON line per operation.
 *   bin/bench-field [iterations (default 2000000)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "field/field.h"
#include "field/field_internal.h"

#define TIME(name_, n_, body_) CZ_BENCH_TIME(rows, nrows, name_, n_, 1e9, body_)

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    cz_rng rng;
    cz_rng_seed(&rng, 1);
    cz_fp a, b;
    cz_fr x, y;
    cz_fp2 a2, b2;
    cz_fp_random(&a, &rng);
    cz_fp_random(&b, &rng);
    cz_fr_random(&x, &rng);
    cz_fr_random(&y, &rng);
    cz_fp2_random(&a2, &rng);
    cz_fp2_random(&b2, &rng);
    cz_bench_row rows[40];
    int nrows = 0;

    TIME("fp_mul", n, cz_fp_mul(&a, &a, &b));
    TIME("fp_sqr", n, cz_fp_sqr(&a, &a));
    cz_fp c4[4];
    cz_fr x4[4];
    for (int i = 0; i < 4; i++) {
        cz_fp_random(&c4[i], &rng);
        cz_fr_random(&x4[i], &rng);
    }
    TIME("fp_mul_x4", n / 4, for (int j_ = 0; j_ < 4; j_++) cz_fp_mul(&c4[j_], &c4[j_], &b));
    rows[nrows - 1].t /= 4;
    TIME("fp_sqr_x4", n / 4, for (int j_ = 0; j_ < 4; j_++) cz_fp_sqr(&c4[j_], &c4[j_]));
    rows[nrows - 1].t /= 4;
    TIME("fp_mul_portable", n, cz_fp_mul_portable(&a, &a, &b));
    TIME("fp_add", n, cz_fp_add(&a, &a, &b));
    TIME("fp_sub", n, cz_fp_sub(&a, &a, &b));
    TIME("fr_mul", n, cz_fr_mul(&x, &x, &y));
    TIME("fr_sqr", n, cz_fr_sqr(&x, &x));
    TIME("fr_mul_x4", n / 4, for (int j_ = 0; j_ < 4; j_++) cz_fr_mul(&x4[j_], &x4[j_], &y));
    rows[nrows - 1].t /= 4;
    TIME("fr_sqr_x4", n / 4, for (int j_ = 0; j_ < 4; j_++) cz_fr_sqr(&x4[j_], &x4[j_]));
    rows[nrows - 1].t /= 4;
    TIME("fr_mul_portable", n, cz_fr_mul_portable(&x, &x, &y));
    TIME("fr_add", n, cz_fr_add(&x, &x, &y));
    uint64_t w[12];
    TIME("fp_mul_wide", n, cz_fp_mul_wide(w, &a, &b); a.l[0] = w[6] & 0xffff);
    TIME("fp_redc", n, cz_fp_redc(&a, w); w[6] = a.l[0]);
    TIME("fp2_mul", n / 4, cz_fp2_mul(&a2, &a2, &b2));
    TIME("fp2_sqr", n / 4, cz_fp2_sqr(&a2, &a2));
    TIME("fp_inv", n / 500, cz_fp_inv(&a, &a));
    TIME("fp_inv_fermat", n / 2000, cz_fp_inv_fermat(&a, &a));
    TIME("fp_inv_var", n / 500, cz_fp_inv_var(&a, &a));
    TIME("fr_inv", n / 500, cz_fr_inv(&x, &x));
    TIME("fr_inv_var", n / 500, cz_fr_inv_var(&x, &x));
    TIME("fp_sqrt", n / 2000, cz_fp_sqrt(&b, &a); cz_fp_add(&a, &a, &b));
    TIME("fr_sqrt", n / 2000, cz_fr_sqrt(&y, &x); cz_fr_add(&x, &x, &y));
    TIME("fp2_sqrt", n / 10000, cz_fp2_sqrt(&b2, &a2); cz_fp2_add(&a2, &a2, &b2));

    printf("%-18s %12s\n", "op", "ns/op");
    for (int i = 0; i < nrows; i++)
        printf("%-18s %12.1f\n", rows[i].name, rows[i].t);
    for (int i = 0; i < nrows; i++)
        printf("{\"bench\":\"field\",\"op\":\"%s\",\"ns\":%.2f,\"asm\":%d}\n", rows[i].name,
               rows[i].t, cz_fp_mul_is_asm());
    /* keep the results live */
    char buf[CZ_FP_STR_MAX];
    cz_fp_to_hex(buf, &a);
    fprintf(stderr, "# %s %llx %llx %llx %llx\n", buf, (unsigned long long)x.l[0],
            (unsigned long long)a2.c0.l[0], (unsigned long long)(c4[0].l[0] ^ c4[3].l[5]),
            (unsigned long long)(x4[1].l[0] ^ x4[2].l[3]));
    return 0;
}
