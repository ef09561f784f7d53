/*
 * gpu_fixture.c: see gpu_fixture.h.
 */
#include "gpu_fixture.h"

#include <stdio.h>
#include <stdlib.h>

#include "test_util.h"

cz_cuda_ctx *cz_test_cuda_ctx(size_t arena_mb)
{
    cz_cuda_ctx *ctx = NULL;
    char err[512];
    cz_status st = cz_cuda_ctx_create(&ctx, 0, arena_mb << 20, 0, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("cuda context: %s", err);
    return ctx;
}

void cz_test_key_witness(cz_zkey **key, cz_fr **w, uint32_t *nw, const char *zkey_rel,
                         const char *wtns_rel)
{
    char err[512], zk[1024], wt[1024];
    snprintf(zk, sizeof zk, "%s", cz_test_src_path(zkey_rel));
    snprintf(wt, sizeof wt, "%s", cz_test_src_path(wtns_rel));
    assert_int_equal(cz_zkey_load(key, zk, 0, err, sizeof err), CZ_OK);
    size_t len;
    uint8_t *bytes = cz_test_read_file(wt, &len);
    assert_non_null(bytes);
    assert_int_equal(cz_wtns_parse(w, nw, bytes, len, wt, (*key)->n_vars, err, sizeof err),
                     CZ_OK);
    free(bytes);
}
