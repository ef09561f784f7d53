/*
 * czd.h: the internal C interface of the CUDA library (the .cu files), called
 * only by src/backend/cuda_glue.c, which adds the host-side work (argument
 * checks, roots and inverses with the host field code, format conversions)
 * and publishes the API of src/backend/cuda.h.
 *
 * Pointers named dev_* are device addresses inside the context's arena;
 * everything else is host memory. Points and scalars have the host layout
 * (cz_fr, cz_g1_affine, ...); results of MSMs come back as XYZZ points
 * (cz_g1_xyzz / cz_g2_xyzz bytes). Every function returns cz_status and, on
 * failure, leaves a sentence in czd_ctx_error(ctx).
 */
#ifndef CZ_CUDA_CZD_H
#define CZ_CUDA_CZD_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czd_ctx czd_ctx;

int czd_device_count(void);
cz_status czd_ctx_create(czd_ctx **out, int device, size_t max_bytes, size_t margin,
                         char *err, size_t err_len);
void czd_ctx_destroy(czd_ctx *ctx);
const char *czd_ctx_error(const czd_ctx *ctx);
const char *czd_device_name(const czd_ctx *ctx);
size_t czd_arena_bytes(const czd_ctx *ctx);
size_t czd_arena_free(const czd_ctx *ctx);
int czd_sm_count(const czd_ctx *ctx);

/* Make the context's device current for the calling thread (contexts are
   used from several threads, one at a time). */
cz_status czd_bind(czd_ctx *ctx);
/* 0 when the device has a sticky error (an illegal address, a trap):
   the context is then unusable until the device is reset. */
int czd_healthy(czd_ctx *ctx);
/* cudaDeviceReset: destroys every context of this process on the device. */
void czd_device_reset(int device);
/* Launches a kernel that traps: a sticky device fault, for tests. */
cz_status czd_inject_fault(czd_ctx *ctx);

/* Persistent buffers from the bottom of the arena; freed in LIFO order. */
cz_status czd_buf_alloc(czd_ctx *ctx, void **dev, size_t bytes);
cz_status czd_buf_free(czd_ctx *ctx, void *dev);
cz_status czd_copy_h2d(czd_ctx *ctx, void *dev, const void *host, size_t bytes);
cz_status czd_copy_d2h(czd_ctx *ctx, void *host, const void *dev, size_t bytes);
cz_status czd_host_register(czd_ctx *ctx, void *host, size_t bytes);
cz_status czd_host_unregister(czd_ctx *ctx, void *host);
cz_status czd_sync(czd_ctx *ctx);
/* A copy to the device on a stream of its own, waited for, made while
   another thread may be driving the context (it reads only the context's
   device): the streamed MSMs bring chunk k + 1 in while chunk k's MSM runs.
   The message of a failure goes to err (the context's is its driver's).
   host_copy (NULL: memcpy) fills the pinned staging buffers from pageable
   memory (the caller's parallel copy). */
cz_status czd_copy_h2d_side(czd_ctx *ctx, void *dev, const void *host, size_t bytes,
                            void (*host_copy)(void *dst, const void *src, size_t bytes), char *err,
                            size_t err_len);
/* Page-lock host memory for every device (portable), without a context:
   thread-safe, so callers need not wait for the context's lock. A range
   already registered is CZ_OK. */
cz_status czd_host_pin(int device, void *host, size_t bytes, char *err, size_t err_len);
void czd_host_unpin(void *host);

/* Groups (czd_msm, czd_gen_points): BLS12-381's G1 and G2
   (host layouts cz_g1_affine, cz_g2_affine), BN254's G1 and G2
   (cz_bn254_g1_affine, cz_bn254_g2_affine, scalars cz_bn254_fr). */
#define CZD_G1 1
#define CZD_G2 2
#define CZD_BN254_G1 3
#define CZD_BN254_G2 4

/* field: 0 = Fr, 1 = Fp, 2 = Fp2 of BLS12-381, 3 = Fr, 4 = Fp, 5 = Fp2 of
   BN254; op: 0 add, 1 sub, 2 mul, 3 sqr, 4 from_mont (out = a / R),
   5 inv. Arrays of n elements on the device. */
cz_status czd_field_op(czd_ctx *ctx, int field, int op, void *dev_out, const void *dev_a,
                       const void *dev_b, size_t n);
/* group: CZD_G1, CZD_G2 (BN254's are not instantiated). sum[i] = a[i] +
   b[i] (through the XYZZ mixed add and the XYZZ add), dbl[i] = 2 a[i];
   outputs XYZZ, inputs affine. */
cz_status czd_curve_test(czd_ctx *ctx, int group, void *dev_sum_madd, void *dev_sum_add,
                         void *dev_dbl, const void *dev_a, const void *dev_b, size_t n);
/* dev_out[i] = d_i * generator (affine), d_i = k[i % m] + (i >= m ? k[(i / m) % m] : 0),
   k: m host scalars (Montgomery, the group's curve's Fr), 1 <= m <= 2^20.
   group: CZD_G1 .. CZD_BN254_G2. */
cz_status czd_gen_points(czd_ctx *ctx, int group, void *dev_out, size_t n, const void *k, size_t m);

/* In-place DIF NTT of 2^log_n elements at dev_a with the primitive root w:
   1. if pre_g: a[j] *= pre_g^j;  2. DIF (natural in, bit-reversed out);
   3. unless bitrev_out: bit-reverse to natural order and, if post_c / post_h,
      a[j] *= post_c * post_h^j. All constants host Montgomery cz_fr. */
cz_status czd_ntt(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w, const void *pre_g,
                  int bitrev_out, const void *post_c, const void *post_h);
/* Groth16's H on the device, in place in dev_a: for each of the natural-order
   vectors a, b, c of 2^log_n elements, the inverse NTT (root w_inv) scaled
   by n_inv * g^j, then the forward NTT (root w), natural order out; then
   a = a .* b - c. b and c are overwritten. dev_c NULL (a key with C folded
   into its points): a and b only, a = a .* b. g_half: g^2 = w (snarkjs's
   odd points), which lets the forward transforms' twists apply the scale. */
cz_status czd_ntt_h(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, unsigned log_n,
                    const void *w, const void *w_inv, const void *n_inv, const void *g, int g_half);
/* The same two over BN254's Fr (cz_bn254_fr, log_n <= 28), in one pass
   variant (ntt_pass.cuh's CZD_NTT_BN254_VARIANT; CUZK_NTT_VARIANT is not
   read). snarkjs's H step is
   czd_ntt_h_bn254 with g = the domain's omega_2n (g_half unless log_n = 28,
   where snarkjs's shift 25 is not a root of w). */
cz_status czd_ntt_bn254(czd_ctx *ctx, void *dev_a, unsigned log_n, const void *w, const void *pre_g,
                        int bitrev_out, const void *post_c, const void *post_h);
cz_status czd_ntt_h_bn254(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, unsigned log_n,
                          const void *w, const void *w_inv, const void *n_inv, const void *g,
                          int g_half);

/* Groth16's a = A w, b = B w, c = a .* b for `rows` rows of two CSR
   matrices (row pointers uint64, columns uint32, values Montgomery Fr);
   the witness w on the device. Columns must index w (checked when the key
   was read). */
cz_status czd_eval_abc(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c, const void *dev_ra,
                       const void *dev_ca, const void *dev_va, const void *dev_rb,
                       const void *dev_cb, const void *dev_vb, const void *dev_w, size_t rows);
/* The same over BN254's Fr (values and w cz_bn254_fr, Montgomery). */
cz_status czd_eval_abc_bn254(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                             const void *dev_ra, const void *dev_ca, const void *dev_va,
                             const void *dev_rb, const void *dev_cb, const void *dev_vb,
                             const void *dev_w, size_t rows);

/* MSM sum s_i P_i over n points and scalars on the device (group
   CZD_G1 .. CZD_BN254_G2: the points' and scalars' curve); scalars
   Montgomery unless flags has CZD_MSM_PLAIN (then any 256-bit integer,
   taken mod r). The device counts the scalars that are 0 or 1 and takes
   the bit-heavy path (1s summed, the rest a compacted Pippenger) when at
   least a quarter are; CZD_MSM_GENERAL / CZD_MSM_BITS force one path.
   window_bits 0 = automatic (for the Pippenger part). Leaves in parts (host, room for
   CZD_MSM_PARTS_CAP XYZZ points) *cnt points per window for *nwin windows
   of *c bits: window w's sum W_w is the sum of parts[w * cnt + k], k < cnt,
   and the MSM is sum_w 2^(c w) W_w, which the caller forms (n = 0: nwin = 0).
   Parts are XYZZ points of the group (cz_bn254_g1_xyzz ... for BN254). */
#define CZD_MSM_PLAIN 1u   /* = CZ_CUDA_MSM_PLAIN */
#define CZD_MSM_GENERAL 2u /* = CZ_CUDA_MSM_GENERAL */
#define CZD_MSM_BITS 4u    /* = CZ_CUDA_MSM_BITS */
#define CZD_MSM_MAX_PARTS 64
#define CZD_MSM_PARTS_CAP (128 * CZD_MSM_MAX_PARTS)
cz_status czd_msm(czd_ctx *ctx, int group, void *parts, unsigned *nwin, unsigned *cnt, unsigned *c,
                  const void *dev_points, const void *dev_scalars, size_t n, unsigned flags,
                  unsigned window_bits);

/* ---- keys in compact form (native.cu) ---- */

/* Fixed base: dev_out[i] = s_i G (group 1: G1, 2: G2 generator), affine
   (infinity all zero), for n Montgomery scalars at dev_scalars (any value
   < r, 0 included). dev_table: the generator's window table,
   table[j * CZD_FB_ENTRIES + d - 1] = d 2^(CZD_FB_WBITS j) G (affine), for
   j < CZD_FB_WINDOWS and 1 <= d <= CZD_FB_ENTRIES, made by the caller.
   Scratch from the arena: two coordinates a point (96 bytes G1, 192 G2,
   rounded up to whole batches of 32 / 16 points). */
#define CZD_FB_WBITS 13
#define CZD_FB_WINDOWS 20
#define CZD_FB_ENTRIES 4096
#define CZD_FB_TABLE (CZD_FB_WINDOWS * CZD_FB_ENTRIES)
cz_status czd_fixed_base(czd_ctx *ctx, int group, void *dev_out, const void *dev_scalars,
                         size_t n, const void *dev_table);
/* The same from host scalars to host points (`out`, n points), in chunks
   of at most `chunk` points with the copies overlapping the kernels. Takes
   from the arena's free part, per point of a chunk: two scalars, two
   points and the scratch above (CZD_FB_CHUNK_BYTES), plus 4 x 256 bytes
   of alignment. */
#define CZD_FB_CHUNK_BYTES(point_bytes) (2 * 32 + 3 * (size_t)(point_bytes) + 16)
cz_status czd_fixed_base_host(czd_ctx *ctx, int group, void *out, const void *scalars, size_t n,
                              const void *dev_table, size_t chunk);
/* a = A w, b = B w, c = a .* b (dev_c may be NULL: no c) for `rows` rows of two compact matrices
   (row pointers uint64, columns uint32, coefficient indices uint16 into
   dev_coefs, n_coefs Montgomery Fr, n_coefs <= 65,536); rows at or past a
   matrix's n_rows are 0 (na_rows, nb_rows <= rows). Columns must index w
   and indices the table (checked when the key was made; an index past the
   table reads as 0). Queued on the stream, not waited for. */
cz_status czd_eval_abc_compact(czd_ctx *ctx, void *dev_a, void *dev_b, void *dev_c,
                               const void *dev_ra, const void *dev_ca, const void *dev_ka,
                               uint32_t na_rows, const void *dev_rb, const void *dev_cb,
                               const void *dev_kb, uint32_t nb_rows, const void *dev_coefs,
                               uint32_t n_coefs, const void *dev_w, size_t rows);
/* dev_out[k] = dev_in[dev_idx[k]] for k < n (Fr; idx uint32, indices
   checked by the caller). Queued, not waited for. */
cz_status czd_gather(czd_ctx *ctx, void *dev_out, const void *dev_in, const void *dev_idx,
                     size_t n);

/* A witness sent packed (most values of hash circuits are 0 or 1):
   dev_w[i] = 1 (Montgomery) where bit i of dev_bits (uint32 words) is
   set, else 0, for i < n; then dev_w[dev_idx[k]] = dev_vals[k] (Fr) for
   k < n_other, indices < n (checked by the caller). Queued, not waited
   for. */
cz_status czd_witness_expand(czd_ctx *ctx, void *dev_w, size_t n, const void *dev_bits,
                             const void *dev_idx, const void *dev_vals, size_t n_other);

/* ---- compressed points (decompress.cu) ----
   n compressed points at dev_in (the zcash encoding of curve.h: 48 bytes
   in G1, group 1; 96 bytes in G2, group 2) to affine points at dev_out
   (host layout, infinity all zero), each checked as
   cz_g1/g2_from_compressed checks it, in the same order (flags and x < p:
   CZ_ERR_FORMAT; no square root: CZ_ERR_NOT_ON_CURVE; outside the
   subgroup: CZ_ERR_SUBGROUP). The lowest bad index goes to *first_bad and
   its status to *bad_st (SIZE_MAX and CZ_OK when every point is good);
   bad points' outputs are not written. dev_in 16-byte aligned. Takes 8
   bytes of arena scratch; waits. */
cz_status czd_decompress(czd_ctx *ctx, int group, void *dev_out, const void *dev_in, size_t n,
                         size_t *first_bad, cz_status *bad_st);

#ifdef CUZK_GPU_MODEL
/* the host model of the device only (src/backend/gpu_model.c) */
cz_status czd_model_fail_after(unsigned long k, cz_status st, int sticky);
unsigned long czd_model_calls(void);
#endif

#ifdef __cplusplus
}
#endif
#endif
