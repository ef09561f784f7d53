/*
 * porep_fixture.c: see porep_fixture.h.
 */
#include "porep_fixture.h"

#include <string.h>

#include "test_util.h"

void cz_test_porep_make(cz_test_porep *t, const char *preset, cz_rng *rng)
{
    char err[512];
    memset(t, 0, sizeof *t);
    t->p = cz_porep_preset(preset);
    assert_non_null(t->p);
    cz_status st = cz_porep_shape(t->p, &t->shape, err, sizeof err);
    if (st)
        fail_msg("shape: %s", err);
    t->seed = cz_rng_u64(rng);
    assert_int_equal(cz_c1_generate(&t->c1, t->p, t->seed, err, sizeof err), CZ_OK);
    cz_porep_partition in;
    assert_int_equal(cz_c1_partition(t->c1, 0, &in, err, sizeof err), CZ_OK);
    st = cz_porep_witness_alloc(t->p, &in, NULL, &t->w, &t->nw, err, sizeof err);
    if (st)
        fail_msg("witness: %s", err);
}

void cz_test_porep_free(cz_test_porep *t)
{
    cz_porep_witness_free(t->w, t->nw);
    cz_c1_free(t->c1);
    cz_shape_free(t->shape);
    memset(t, 0, sizeof *t);
}
