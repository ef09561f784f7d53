/*
 * rng.h: random numbers.
 *
 * DESIGN. Two sources behind one type. A seeded generator (xoshiro256**)
 * makes tests and benchmarks reproducible: tests print their seed and take
 * one from CZ_TEST_SEED. The OS generator (getrandom) is the only source for
 * secrets (the Groth16 blinding r and s, setup toxic waste).
 */
#ifndef CZ_RNG_H
#define CZ_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

typedef struct {
    uint64_t s[4];
    int os;          /* 1: draw from the OS CSPRNG, s unused */
} cz_rng;

void cz_rng_seed(cz_rng *rng, uint64_t seed);
void cz_rng_os(cz_rng *rng);
uint64_t cz_rng_u64(cz_rng *rng);
/* Fill buf; for the OS source this fails only if getrandom fails. */
cz_status cz_rng_bytes(cz_rng *rng, void *buf, size_t len);
/* Fill buf from the OS CSPRNG. */
cz_status cz_os_random(void *buf, size_t len);
/* Overwrite secret memory in a way the compiler keeps. */
void cz_wipe(void *p, size_t len);

#endif
