/*
 * groth16.cu: the prover's own kernels: a = A w and b = B w over the key's
 * constraint matrices (compressed rows), and c = a .* b.
 *
 * DESIGN. One thread per row: a row's terms are contiguous in the CSR
 * arrays and the witness is read at their column indices. circom's rows
 * hold a few terms each, so the work per thread is even; a row with very
 * many terms (a long linear combination) only delays its own warp. Both
 * matrices go in one launch, and c = a .* b is formed by the thread that
 * computed a and b, so the three vectors take one pass.
 */
#include "common.cuh"
#include "field.cuh"

__global__ void k_eval_abc(czd_fr *a, czd_fr *b, czd_fr *c, const uint64_t *ra, const uint32_t *ca,
                           const czd_fr *va, const uint64_t *rb, const uint32_t *cb,
                           const czd_fr *vb, const czd_fr *w, size_t rows)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    czd_fr sa = czd_fr::zero(), sb = czd_fr::zero();
    for (uint64_t k = ra[i]; k < ra[i + 1]; k++)
        sa = sa + va[k] * w[ca[k]];
    for (uint64_t k = rb[i]; k < rb[i + 1]; k++)
        sb = sb + vb[k] * w[cb[k]];
    a[i] = sa;
    b[i] = sb;
    c[i] = sa * sb;
}

extern "C" cz_status czd_eval_abc(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                                  const void *dev_ra, const void *dev_ca, const void *dev_va,
                                  const void *dev_rb, const void *dev_cb, const void *dev_vb,
                                  const void *dev_w, size_t rows)
{
    if (rows == 0)
        return CZ_OK;
    k_eval_abc<<<czd_blocks(rows, 128), 128, 0, ctx->stream>>>(
        (czd_fr *)dev_a, (czd_fr *)dev_b, (czd_fr *)dev_c, (const uint64_t *)dev_ra,
        (const uint32_t *)dev_ca, (const czd_fr *)dev_va, (const uint64_t *)dev_rb,
        (const uint32_t *)dev_cb, (const czd_fr *)dev_vb, (const czd_fr *)dev_w, rows);
    CZD_LAUNCHED(ctx, "k_eval_abc");
    return CZ_OK;
}
