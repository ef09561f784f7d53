/*
 * circuit.h: the native-circuit side of the cuzk CLI (circuit.c):
 * `cuzk circuit list|info|export`, and the pieces `setup --circuit` and
 * `prove --circuit` take from a preset instead of a file.
 */
#ifndef CZ_APP_CIRCUIT_H
#define CZ_APP_CIRCUIT_H

#include <stdint.h>

#include "cuzk/cuzk.h"
#include "groth16/groth16.h"

typedef struct {
    const char *c1;        /* --c1 FILE */
    int partition;         /* --partition K (default 0) */
    unsigned threads;      /* --threads N (0: all cores) */
    int quiet, json;
    int unchecked_c1;      /* --unchecked-c1: skip the reader's hash checks (tests) */
} cz_cli_circuit_opts;

/* `cuzk circuit SUB args...` (args[0] is SUB). Returns the exit code. */
int cz_cli_circuit(const char *const *args, int n_args, const cz_cli_circuit_opts *o);

/* The preset's recorded circuit as an .r1cs in memory (setup --circuit);
   err names the preset. */
cz_status cz_cli_circuit_r1cs(const char *preset, unsigned threads, cz_r1cs **out, char *err,
                              size_t err_len);

/* The preset's recorded circuit (setup --circuit --out key.czk); free with
   cz_shape_free. */
cz_status cz_cli_circuit_shape(const char *preset, cz_shape **out, char *err, size_t err_len);

/* The witness of one partition of c1 for a key of n_vars / n_public
   (prove --circuit): read and check c1, synthesize. *w holds *nw values
   (free with cz_wtns_free). ms[0] = reading c1, ms[1] = synthesis. */
cz_status cz_cli_circuit_witness(const char *preset, const cz_cli_circuit_opts *o,
                                 uint32_t n_vars, uint32_t n_public, cz_fr **w, uint32_t *nw,
                                 double ms[2], char *err, size_t err_len);

#endif
