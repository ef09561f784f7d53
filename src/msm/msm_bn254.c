/*
 * msm_bn254.c: BN254's scalar preparation for the MSM (msm_bn254.h): the
 * scalars as plain limbs reduced mod BN254's r, then msm.c's
 * classification.
 *
 * DESIGN. msm.c's cz_msm_prepare_ converts BLS12-381 Fr scalars and sorts
 * them into 0 / 1 / other; its plain form reduces mod BLS12-381's r, which
 * leaves any value below BN254's r (< 2^254 < BLS12-381's r) as it is. So
 * BN254's preparation converts its scalars (Montgomery form out, or plain
 * values reduced mod BN254's r) into a plain-limb copy, in parallel, and
 * hands the copy to cz_msm_prepare_ as plain scalars: one algorithm for
 * the classification, at the cost of one pass over n * 32 bytes.
 */
#include "msm/msm_bn254_internal.h"
#include "util/mem.h"

#include <stdlib.h>
#include <string.h>

int cz_bn254_msm_x8_on_ = 1;

typedef struct {
    const cz_bn254_fr *in;
    cz_fr *out;
    cz_msm_scalar_form form;
} bn_conv_ctx;

static void bn_conv_fn(void *vctx, size_t b, size_t e, int worker)
{
    (void)worker;
    bn_conv_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        if (c->form == CZ_MSM_SCALAR_MONT) {
            cz_bn254_fr_to_limbs(c->out[i].l, &c->in[i]);
        } else {
            cz_bn254_fr t;
            cz_bn254_fr_from_limbs_reduce(&t, c->in[i].l);
            cz_bn254_fr_to_limbs(c->out[i].l, &t);
        }
    }
}

cz_status cz_bn254_msm_prepare_(cz_msm_prep_ *p, const void *points, cz_msm_is_inf_fn_ is_inf,
                                const cz_bn254_fr *scalars, size_t n, cz_msm_scalar_form form,
                                bool split, cz_threadpool *pool)
{
    cz_fr *plain = cz_alloc_big(n * sizeof *plain);
    if (!plain) {
        memset(p, 0, sizeof *p);
        return CZ_ERR_NOMEM;
    }
    bn_conv_ctx c = {scalars, plain, form};
    cz_parallel_for(pool, n, 1 << 14, bn_conv_fn, &c);
    cz_status st = cz_msm_prepare_(p, points, is_inf, plain, n, CZ_MSM_SCALAR_PLAIN, split, pool);
    free(plain);
    return st;
}
