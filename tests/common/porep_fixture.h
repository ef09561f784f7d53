/*
 * porep_fixture.h: a PoRep preset's circuit, challenge set and witness
 * for the test programs that prove it (the GPU tests, over porep-mini).
 *
 * DESIGN. Several programs start the same way: the preset's shape, a C1
 * generated from a seed of the test's rng, its partition 0, and the
 * partition's witness. cz_test_porep_make does that, failing the running
 * cmocka test with the step's message on error; cz_test_porep_free frees
 * what it made (the key made from the shape is the caller's).
 */
#ifndef CZ_TEST_POREP_FIXTURE_H
#define CZ_TEST_POREP_FIXTURE_H

#include <stdint.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "util/rng.h"

typedef struct {
    const cz_porep_params *p;
    cz_shape *shape;
    uint64_t seed;   /* the C1's, drawn from the rng: also the key's seed */
    cz_c1 *c1;
    cz_fr *w;        /* partition 0's witness */
    uint64_t nw;
} cz_test_porep;

void cz_test_porep_make(cz_test_porep *t, const char *preset, cz_rng *rng);
void cz_test_porep_free(cz_test_porep *t);

#endif
