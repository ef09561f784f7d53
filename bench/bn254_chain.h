/*
 * bn254_chain.h: a bn128 circuit for benchmarks, made in memory: the
 * R1CS of tests/circuits/chain.circom's Chain(N) over BN254's Fr and its
 * witness, as circom2 and snarkjs would write them (bench-gpu's prove
 * benchmark sets it up with the project's BN254 setup, so each of its
 * proofs can be verified).
 *
 * DESIGN. Chain(N) is 2 N + 1 constraints with circom's density: step i
 * checks bit_i (bit_i - 1) = 0 and x_i x_i = x_{i+1} - c - bit_i (bit_i
 * the low bit of x_i), then out = x_N c; so half the internal signals are
 * 0 / 1 and rows hold 1-3 terms, as hash circuits compiled by circom.
 * Wires in circom's order: 1, the output out, the public input c, the
 * private input x0, then x_1..x_N and bit_0..bit_{N-1}. The domain is
 * 2N + 1 constraints + 2 public + 1 rows: N = 2^(L-1) - 2 fills 2^L
 * exactly (lib.sh's cz_chain_steps). Header only (static functions): the
 * one bench that uses it includes it.
 */
#ifndef CZ_BENCH_BN254_CHAIN_H
#define CZ_BENCH_BN254_CHAIN_H

#include <stdlib.h>
#include <string.h>

#include "field/bn254.h"
#include "groth16/setup_bn254.h"

/* the steps that fill a domain of 2^log_n rows (log_n >= 3) */
static size_t bn254_chain_steps(unsigned log_n) { return ((size_t)1 << (log_n - 1)) - 2; }

static void bn254_chain_free(cz_bn254_r1cs *cs)
{
    if (cs) {
        free(cs->start);
        free(cs->terms);
        free(cs);
    }
}

/* Chain(n_steps) with x0, c: *cs (free with bn254_chain_free) and *w
   (n_wires values, free()); CZ_ERR_NOMEM or CZ_ERR_ARG (n_steps 0 or
   over 2^27). */
static cz_status bn254_chain_make(cz_bn254_r1cs **cs_out, cz_bn254_fr **w_out, size_t n_steps,
                                  uint64_t x0, uint64_t c)
{
    *cs_out = NULL;
    *w_out = NULL;
    if (!n_steps || n_steps > ((size_t)1 << 27))
        return CZ_ERR_ARG;
    const size_t N = n_steps, nc = 2 * N + 1, nw = 2 * N + 4;
    cz_bn254_r1cs *cs = calloc(1, sizeof *cs);
    cz_bn254_fr *w = malloc(nw * sizeof *w);
    /* terms: bit rows 1 + 2 + 0, square rows 1 + 1 + 3, the last 1 + 1 + 1 */
    const size_t nt = N * 3 + N * 5 + 3;
    if (cs) {
        cs->start = malloc((3 * nc + 1) * sizeof *cs->start);
        cs->terms = malloc(nt * sizeof *cs->terms);
    }
    if (!cs || !w || !cs->start || !cs->terms) {
        bn254_chain_free(cs);
        free(w);
        return CZ_ERR_NOMEM;
    }
    cs->n_wires = (uint32_t)nw;
    cs->n_pub_out = 1;
    cs->n_pub_in = 1;
    cs->n_prv_in = 1;
    cs->n_constraints = (uint32_t)nc;
    cs->n_labels = nw;
    cs->n_terms = nt;
    /* wires: 0 one, 1 out, 2 c, 3 x0, 4.. x_1..x_N, then bit_0..bit_{N-1} */
#define CHAIN_X(i) ((uint32_t)((i) == 0 ? 3 : 3 + (i)))
#define CHAIN_BIT(i) ((uint32_t)(4 + N + (i)))
    cz_bn254_fr one, m_one;
    cz_bn254_fr_one(&one);
    cz_bn254_fr_neg(&m_one, &one);
    size_t k = 0, row = 0;
#define CHAIN_T(wi, cf_) (cs->terms[k].wire = (wi), cs->terms[k].coef = (cf_), k++)
#define CHAIN_NEXT() (cs->start[row++] = k)
    for (size_t i = 0; i < N; i++) {
        /* bit_i * (bit_i - 1) = 0 */
        CHAIN_NEXT();
        CHAIN_T(CHAIN_BIT(i), one);
        CHAIN_NEXT();
        CHAIN_T(CHAIN_BIT(i), one);
        CHAIN_T(0, m_one);
        CHAIN_NEXT();
        /* x_i * x_i = x_{i+1} - c - bit_i */
        CHAIN_NEXT();
        CHAIN_T(CHAIN_X(i), one);
        CHAIN_NEXT();
        CHAIN_T(CHAIN_X(i), one);
        CHAIN_NEXT();
        CHAIN_T(CHAIN_X(i + 1), one);
        CHAIN_T(2, m_one);
        CHAIN_T(CHAIN_BIT(i), m_one);
    }
    /* x_N * c = out */
    CHAIN_NEXT();
    CHAIN_T(CHAIN_X(N), one);
    CHAIN_NEXT();
    CHAIN_T(2, one);
    CHAIN_NEXT();
    CHAIN_T(1, one);
    cs->start[row] = k;
    /* the witness */
    cz_bn254_fr cf, x;
    cz_bn254_fr_set_u64(&cf, c);
    cz_bn254_fr_set_u64(&x, x0);
    w[0] = one;
    w[2] = cf;
    w[3] = x;
    for (size_t i = 0; i < N; i++) {
        uint64_t l[4];
        cz_bn254_fr_to_limbs(l, &x);
        cz_bn254_fr b, t;
        cz_bn254_fr_set_u64(&b, l[0] & 1);
        w[CHAIN_BIT(i)] = b;
        cz_bn254_fr_sqr(&t, &x);
        cz_bn254_fr_add(&t, &t, &cf);
        cz_bn254_fr_add(&x, &t, &b);
        w[CHAIN_X(i + 1)] = x;
    }
    cz_bn254_fr_mul(&w[1], &x, &cf);
#undef CHAIN_X
#undef CHAIN_BIT
#undef CHAIN_T
#undef CHAIN_NEXT
    *cs_out = cs;
    *w_out = w;
    return CZ_OK;
}

#endif
