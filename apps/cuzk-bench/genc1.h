/*
 * genc1.h: `cuzk-bench gen-c1` (genc1.c), commit-1-like inputs for the
 * PoRep-shaped native circuit.
 */
#ifndef CZ_BENCH_GENC1_H
#define CZ_BENCH_GENC1_H

/* argv: the arguments after "gen-c1". Returns the exit code. */
int cz_bench_gen_c1(int argc, char **argv);

#endif
