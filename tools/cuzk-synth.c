/*
 * cuzk-synth: writes a synthetic circuit (.r1cs) of any size and a valid
 * witness (.wtns) for it, for tests and benchmarks that need keys larger
 * than circom compiles quickly (`cuzk setup` then makes the key).
 *
 *   cuzk-synth --constraints N [--seed S] circuit.r1cs witness.wtns
 *
 * The circuit looks like a hash circuit to the prover: half of its signals
 * are bits, half dense field elements. Wires: 0 the constant 1, 1 the
 * public output `out`, 2 the public input `x`, then per step i a bit b_i
 * and an accumulator acc_{i+1}, with acc_0 = x:
 *   b_i * (b_i - 1) = 0                  (b_i is a bit)
 *   (acc_i + b_i) * acc_i = acc_{i+1}
 * and finally acc_k * 1 = out. Steps k = (N - 1) / 2; an even N gets one
 * more constraint b_0 * b_0 = b_0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/field.h"
#include "groth16/groth16.h"
#include "util/rng.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: cuzk-synth --constraints N [--seed S] circuit.r1cs witness.wtns\n"
               "Writes a synthetic circuit of N constraints (N >= 2) and a valid witness.\n");
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, seed = 1;
    const char *files[2] = {NULL, NULL};
    int nf = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--constraints") && i + 1 < argc)
            n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] != '-' && nf < 2)
            files[nf++] = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if (n < 2 || n > (1ull << 28) || nf != 2) {
        usage(stderr);
        return 2;
    }
    uint64_t k = (n - 1) / 2;
    int pad = (n - 1) % 2;
    uint64_t n_wires = 3 + 2 * k;
    cz_r1cs cs;
    memset(&cs, 0, sizeof cs);
    cs.n_wires = (uint32_t)n_wires;
    cs.n_pub_out = 1;
    cs.n_pub_in = 1;
    cs.n_prv_in = 0;
    cs.n_constraints = (uint32_t)n;
    cs.n_labels = n_wires;
    uint64_t max_terms = 7 * k + 6; /* 7 a step, 3 the output, 3 the pad */
    cs.start = malloc((3 * n + 1) * sizeof *cs.start);
    cs.terms = malloc(max_terms * sizeof *cs.terms);
    cz_fr *w = malloc(n_wires * sizeof *w);
    if (!cs.start || !cs.terms || !w) {
        fprintf(stderr, "cuzk-synth: out of memory\n");
        return 3;
    }
    cz_fr one, minus_one;
    cz_fr_one(&one);
    cz_fr_neg(&minus_one, &one);
    cz_rng rng;
    cz_rng_seed(&rng, seed);

    uint64_t t = 0, c = 0;
#define BEGIN() (cs.start[3 * c] = t)
#define NEXT_MATRIX(m) (cs.start[3 * c + (m)] = t)
#define TERM(w_, k_) (cs.terms[t].wire = (uint32_t)(w_), cs.terms[t].coef = (k_), t++)
#define END() (c++)
    w[0] = one;
    cz_fr_random(&w[2], &rng);
    uint64_t acc = 2;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t b = 3 + 2 * i, nacc = b + 1;
        if (cz_rng_u64(&rng) & 1)
            w[b] = one;
        else
            cz_fr_zero(&w[b]);
        cz_fr s;
        cz_fr_add(&s, &w[acc], &w[b]);
        cz_fr_mul(&w[nacc], &s, &w[acc]);
        /* b * (b - 1) = 0 */
        BEGIN();
        TERM(b, one);
        NEXT_MATRIX(1);
        TERM(b, one);
        TERM(0, minus_one);
        NEXT_MATRIX(2);
        END();
        /* (acc + b) * acc = nacc */
        BEGIN();
        TERM(acc, one);
        TERM(b, one);
        NEXT_MATRIX(1);
        TERM(acc, one);
        NEXT_MATRIX(2);
        TERM(nacc, one);
        END();
        acc = nacc;
    }
    w[1] = w[acc];
    BEGIN();
    TERM(acc, one);
    NEXT_MATRIX(1);
    TERM(0, one);
    NEXT_MATRIX(2);
    TERM(1, one);
    END();
    if (pad) { /* b_0 * b_0 = b_0, or out * 1 = out when there is no step */
        uint64_t b = k ? 3 : 1;
        BEGIN();
        TERM(b, one);
        NEXT_MATRIX(1);
        TERM(k ? b : 0, one);
        NEXT_MATRIX(2);
        TERM(b, one);
        END();
    }
    cs.start[3 * c] = t;
    cs.n_terms = t;
    if (c != n) {
        fprintf(stderr, "cuzk-synth: internal error: %llu constraints made, %llu wanted\n",
                (unsigned long long)c, n);
        return 3;
    }
    char err[512];
    cz_status st = cz_r1cs_write(files[0], &cs, err, sizeof err);
    if (!st)
        st = cz_wtns_write(files[1], w, (uint32_t)n_wires, err, sizeof err);
    if (st) {
        fprintf(stderr, "cuzk-synth: %s\n", err);
        return 2;
    }
    printf("cuzk-synth: %llu constraints, %llu wires -> %s, %s\n", n, (unsigned long long)n_wires,
           files[0], files[1]);
    free(cs.start);
    free(cs.terms);
    free(w);
    return 0;
}
