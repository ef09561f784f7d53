/*
 * bench-poseidon: Poseidon (neptune's parameters) per hash, native and in
 * circuit, for arity 2, 8 and 11.
 *
 *   bench-poseidon [N]      (N hashes a case; default 2000)
 *
 * DESIGN. Cases: the native hash in the sparse partial-round form
 * (cz_poseidon_hash, the witness generator's), the textbook form
 * (cz_poseidon_hash_plain, the reference), and the gadget in WITNESS mode
 * (a fresh cs over a buffer, the inputs allocated, the gadget) and in SHAPE
 * mode. Each figure is the best of 10 rounds in thread CPU time
 * (bench_util.h: the machine is shared). The native forms run as a chain
 * (each digest feeds the next input), so nothing is hoisted. Prints a
 * table, then one JSON line per case:
 *   {"bench":"poseidon","case":..,"arity":..,"us_per_hash":..,"commit":..}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "circuit/gadgets.h"

static char g_commit[64] = "unknown";

static void gadget_once(const cz_poseidon_params *p, cz_cs_mode mode, cz_fr *w, uint64_t na,
                        const cz_fr *in)
{
    cz_cs *cs = NULL;
    char err[128];
    if (mode == CZ_CS_WITNESS)
        cz_cs_new_witness(&cs, w, 0, na);
    else
        cz_cs_new(&cs, mode);
    cz_num n[11];
    for (unsigned j = 0; j < p->arity; j++)
        n[j] = cz_num_alloc(cs, mode == CZ_CS_WITNESS ? &in[j] : NULL);
    (void)cz_poseidon_gadget(cs, p, n);
    if (mode == CZ_CS_WITNESS && cz_cs_finish(cs, err, sizeof err) != CZ_OK)
        fprintf(stderr, "bench-poseidon: %s\n", err);
    cz_cs_free(cs);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    if (n < 10) {
        fprintf(stderr, "usage: bench-poseidon [N >= 10]\n");
        return 2;
    }
    cz_bench_commit(g_commit, sizeof g_commit);
    static const unsigned ar[3] = {2, 8, 11};
    static const char *names[4] = {"native", "native_textbook", "gadget_witness", "gadget_shape"};
    double t[3][4];
    for (int k = 0; k < 3; k++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ar[k]);
        if (!p) {
            fprintf(stderr, "bench-poseidon: no parameters for arity %u\n", ar[k]);
            return 1;
        }
        cz_fr in[11], out;
        for (unsigned i = 0; i < p->arity; i++)
            cz_fr_set_u64(&in[i], i + 1);
        uint64_t na = p->arity + cz_poseidon_constraints(p);
        cz_fr *w = calloc(1 + na, sizeof *w);
        if (!w) {
            fprintf(stderr, "bench-poseidon: out of memory\n");
            return 1;
        }
        cz_bench_row rows[4];
        int nr = 0;
        CZ_BENCH_TIME(rows, nr, names[0], n, 1e6, {
            cz_poseidon_hash(p, &out, in);
            in[0] = out;
        });
        CZ_BENCH_TIME(rows, nr, names[1], n / 2, 1e6, {
            cz_poseidon_hash_plain(p, &out, in);
            in[0] = out;
        });
        CZ_BENCH_TIME(rows, nr, names[2], n, 1e6, gadget_once(p, CZ_CS_WITNESS, w, na, in));
        CZ_BENCH_TIME(rows, nr, names[3], n / 4, 1e6, gadget_once(p, CZ_CS_SHAPE, w, na, in));
        for (int i = 0; i < 4; i++)
            t[k][i] = rows[i].t;
        free(w);
    }
    printf("# bench-poseidon commit %s: microseconds a hash (best of 10, thread CPU time)\n",
           g_commit);
    printf("%-18s %10s %10s %10s\n", "case", "arity 2", "arity 8", "arity 11");
    for (int i = 0; i < 4; i++)
        printf("%-18s %10.2f %10.2f %10.2f\n", names[i], t[0][i], t[1][i], t[2][i]);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++)
            printf("{\"bench\":\"poseidon\",\"case\":\"%s\",\"arity\":%u,\"us_per_hash\":%.3f,"
                   "\"commit\":\"%s\"}\n",
                   names[i], ar[k], t[k][i], g_commit);
    return 0;
}
