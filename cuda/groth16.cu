/*
 * groth16.cu: the prover's own kernels: a = A w and b = B w over the key's
 * constraint matrices (compressed rows), and c = a .* b.
 *
 * DESIGN. One thread per row: a row's terms are contiguous in the CSR
 * arrays and the witness is read at their column indices. circom's rows
 * hold a few terms each, so the work per thread is even; a row with very
 * many terms (a long linear combination) only delays its own warp. Both
 * matrices go in one launch, and c = a .* b is formed by the thread that
 * computed a and b, so the three vectors take one pass. One template over
 * the scalar field: BLS12-381's Fr (czd_eval_abc) and BN254's
 * (czd_eval_abc_bn254, a bn128 key's matrices).
 */
#include "common.cuh"
#include "field.cuh"

template <class F>
__global__ void k_eval_abc(F *a, F *b, F *c, const uint64_t *ra, const uint32_t *ca, const F *va,
                           const uint64_t *rb, const uint32_t *cb, const F *vb, const F *w,
                           size_t rows)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    F sa = F::zero(), sb = F::zero();
    for (uint64_t k = ra[i]; k < ra[i + 1]; k++)
        sa = sa + va[k] * w[ca[k]];
    for (uint64_t k = rb[i]; k < rb[i + 1]; k++)
        sb = sb + vb[k] * w[cb[k]];
    a[i] = sa;
    b[i] = sb;
    c[i] = sa * sb;
}

template <class F>
static cz_status eval_abc(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, const void *dev_ra,
                          const void *dev_ca, const void *dev_va, const void *dev_rb,
                          const void *dev_cb, const void *dev_vb, const void *dev_w, size_t rows)
{
    if (rows == 0)
        return CZ_OK;
    k_eval_abc<F><<<czd_blocks(rows, 128), 128, 0, ctx->stream>>>(
        (F *)dev_a, (F *)dev_b, (F *)dev_c, (const uint64_t *)dev_ra, (const uint32_t *)dev_ca,
        (const F *)dev_va, (const uint64_t *)dev_rb, (const uint32_t *)dev_cb, (const F *)dev_vb,
        (const F *)dev_w, rows);
    CZD_LAUNCHED(ctx, "k_eval_abc");
    return CZ_OK;
}

extern "C" cz_status czd_eval_abc(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                                  const void *dev_ra, const void *dev_ca, const void *dev_va,
                                  const void *dev_rb, const void *dev_cb, const void *dev_vb,
                                  const void *dev_w, size_t rows)
{
    return eval_abc<czd_fr>(ctx, dev_a, dev_b, dev_c, dev_ra, dev_ca, dev_va, dev_rb, dev_cb,
                            dev_vb, dev_w, rows);
}

extern "C" cz_status czd_eval_abc_bn254(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                                        const void *dev_ra, const void *dev_ca,
                                        const void *dev_va, const void *dev_rb,
                                        const void *dev_cb, const void *dev_vb,
                                        const void *dev_w, size_t rows)
{
    return eval_abc<czd_fr254>(ctx, dev_a, dev_b, dev_c, dev_ra, dev_ca, dev_va, dev_rb, dev_cb,
                               dev_vb, dev_w, rows);
}
