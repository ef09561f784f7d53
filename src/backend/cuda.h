/*
 * cuda.h: the C API of the CUDA side (kernels in cuda/, host glue in
 * backend/cuda_glue.c).
 *
 * DESIGN. A cz_cuda_ctx owns one device: a stream and one arena taken at
 * creation (cudaMemGetInfo's free bytes minus a margin, default 512 MiB, or
 * less if capped), from which every buffer is carved, so the hot path never
 * calls cudaMalloc/cudaFree. Persistent device buffers (keys kept on the
 * GPU) come from cz_cuda_buf_alloc and are freed in reverse order; each call
 * takes its scratch above them and gives it back on return. All arrays use
 * the host layout (cz_fr Montgomery, affine points with infinity all zero),
 * which is the device layout. A context is not thread-safe: the caller
 * serialises calls on it (one GPU lock). Every CUDA failure becomes
 * CZ_ERR_DEVICE (arena exhaustion CZ_ERR_NOMEM) with a message from
 * cz_cuda_ctx_error. Without a CUDA build every function returns
 * CZ_ERR_UNSUPPORTED and cz_cuda_device_count() is 0.
 */
#ifndef CZ_BACKEND_CUDA_H
#define CZ_BACKEND_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "backend/backend.h"
#include "curve/curve.h"
#include "field/field.h"
#include "curve/bn254_curve.h"
#include "field/bn254.h"
#include "groth16/groth16_bn254.h"

typedef struct cz_cuda_ctx cz_cuda_ctx;

/* true when this library was built with the CUDA backend */
bool cz_cuda_built(void);
/* true when that backend runs over the host model of the device
   (-DCUZK_CUDA=MODEL, backend/gpu_model.c) instead of a GPU */
bool cz_cuda_is_model(void);
/* Model builds only (else CZ_ERR_UNSUPPORTED): the k-th device call from
   now (k >= 1, counted over the process) fails with st, CZ_ERR_NOMEM (the
   card ran short) or CZ_ERR_DEVICE; sticky: the fault stays until a
   device reset (a trap). k = 0 disarms. */
cz_status cz_cuda_model_fail_after(unsigned long k, cz_status st, bool sticky);
/* Model builds: device calls made so far by the process (else 0). */
unsigned long cz_cuda_model_calls(void);
/* Bytes the "cuda" backends made after this call leave free on their GPU
   (the daemon's gpu_safety_margin; 0: the default, 512 MiB). */
void cz_cuda_set_margin(size_t bytes);
/* Arena size of the "cuda" backends made after this call (0: all the free
   memory less the margin, the daemon's choice; CUZK_GPU_ARENA_MB
   overrides). One-shot users (the CLI, the prover API) size it to their
   key with cz_cuda_arena_for_key, so several processes share a card. */
void cz_cuda_set_arena_cap(size_t bytes);
struct cz_zkey;
size_t cz_cuda_arena_for_key(const struct cz_zkey *key);
/* Chunks the streamed MSMs of this process have run (tests: that points
   which do not fit the arena really went in parts); 0 without CUDA. */
unsigned long cz_cuda_stream_chunks(void);
/* usable CUDA devices (0 without CUDA build, driver or device) */
int cz_cuda_device_count(void);

/* max_bytes: cap on the arena (0: all free memory minus the margin);
   margin: bytes left free (0: 512 MiB). err gets a sentence on failure. */
cz_status cz_cuda_ctx_create(cz_cuda_ctx **out, int device, size_t max_bytes, size_t margin,
                             char *err, size_t err_len);
void cz_cuda_ctx_destroy(cz_cuda_ctx *ctx);
const char *cz_cuda_ctx_error(const cz_cuda_ctx *ctx);
const char *cz_cuda_device_name(const cz_cuda_ctx *ctx);
size_t cz_cuda_arena_bytes(const cz_cuda_ctx *ctx);
size_t cz_cuda_arena_free(const cz_cuda_ctx *ctx);

/* ---- device buffers ---- */
typedef struct {
    void *dev;     /* device address */
    size_t bytes;
} cz_cuda_buf;

cz_status cz_cuda_buf_alloc(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t bytes);
/* buffers are freed in reverse order of allocation; NULL dev is a no-op */
cz_status cz_cuda_buf_free(cz_cuda_ctx *ctx, cz_cuda_buf *buf);
cz_status cz_cuda_upload(cz_cuda_ctx *ctx, cz_cuda_buf *dst, size_t off, const void *src, size_t len);
cz_status cz_cuda_download(cz_cuda_ctx *ctx, void *dst, const cz_cuda_buf *src, size_t off, size_t len);
/* pin host memory so copies run at full PCIe speed */
cz_status cz_cuda_host_register(cz_cuda_ctx *ctx, void *p, size_t len);
cz_status cz_cuda_host_unregister(cz_cuda_ctx *ctx, void *p);

/* ---- NTT over Fr, n = 2^log_n (log_n <= 28), natural order in and out ----
 * omega: a primitive n-th root of unity (cz_ntt_domain's omega), so the
 * results equal cz_ntt_forward / _inverse / _coset_forward / _coset_inverse
 * of ntt.h on the same domain; g: the coset shift (coset kinds only). */
typedef enum {
    CZ_CUDA_NTT_FORWARD = 0,
    CZ_CUDA_NTT_INVERSE = 1,
    CZ_CUDA_NTT_COSET_FORWARD = 2,
    CZ_CUDA_NTT_COSET_INVERSE = 3,
} cz_cuda_ntt_kind;
/* flag for cz_cuda_ntt_dev: forward kinds leave the output in bit-reversed
   order (skips the permutation pass) */
#define CZ_CUDA_NTT_BITREV_OUT 1u

cz_status cz_cuda_ntt(cz_cuda_ctx *ctx, cz_fr *a, unsigned log_n, const cz_fr *omega,
                      cz_cuda_ntt_kind kind, const cz_fr *g);
cz_status cz_cuda_ntt_dev(cz_cuda_ctx *ctx, cz_cuda_buf *a, unsigned log_n, const cz_fr *omega,
                          cz_cuda_ntt_kind kind, const cz_fr *g, unsigned flags);
/* Groth16's H on the device, in place: abc[0..2] hold a, b, c (natural
 * order, 2^log_n elements each); afterwards abc[0] holds
 * h_j = A(x_j) B(x_j) - C(x_j) at x_j = g omega^j, where A, B, C
 * interpolate a, b, c on the powers of omega (g = omega_2n: snarkjs's odd
 * points); b and c are overwritten. As cz_ntt_snarkjs_odd_points on each
 * vector, then a .* b - c, fused (the scale inside a pass, the product in
 * the last one). */
cz_status cz_cuda_ntt_h_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], unsigned log_n, const cz_fr *omega,
                            const cz_fr *g);

/* ---- MSM: out = sum_i scalars[i] * bases[i] ----
 * Scalars are Montgomery cz_fr unless CZ_CUDA_MSM_PLAIN: then each is a
 * plain little-endian 256-bit integer (any value; taken mod r). */
#define CZ_CUDA_MSM_PLAIN 1u
/* The device counts the scalars that are 0 or 1; when at least a quarter
 * are, it drops the 0s, sums the bases of the 1s and runs Pippenger on the
 * rest only. These force one path (tests, benchmarks): */
#define CZ_CUDA_MSM_GENERAL 2u /* Pippenger over all scalars */
#define CZ_CUDA_MSM_BITS 4u    /* the 0 / 1 / other split */
cz_status cz_cuda_g1_msm(cz_cuda_ctx *ctx, cz_g1_jac *out, const cz_g1_affine *bases,
                         const cz_fr *scalars, size_t n, unsigned flags);
cz_status cz_cuda_g2_msm(cz_cuda_ctx *ctx, cz_g2_jac *out, const cz_g2_affine *bases,
                         const cz_fr *scalars, size_t n, unsigned flags);
/* bases resident on the device; scalars on the host (scalars_host) or on
   the device (scalars_dev), exactly one non-NULL. window_bits 0: auto. */
cz_status cz_cuda_g1_msm_dev(cz_cuda_ctx *ctx, cz_g1_jac *out, const cz_cuda_buf *bases,
                             const cz_fr *scalars_host, const cz_cuda_buf *scalars_dev, size_t n,
                             unsigned flags, unsigned window_bits);
cz_status cz_cuda_g2_msm_dev(cz_cuda_ctx *ctx, cz_g2_jac *out, const cz_cuda_buf *bases,
                             const cz_fr *scalars_host, const cz_cuda_buf *scalars_dev, size_t n,
                             unsigned flags, unsigned window_bits);

/* ---- keys in compact form (native circuits) ----
 * Fixed base: out[i] = scalars[i] G for the generator G of G1 / G2, affine
 * (infinity all zero); scalars Montgomery, any value (0 included). Host
 * arrays of any length: run in chunks of at most 2^24 points through the
 * arena's free part (CZ_ERR_NOMEM when not even 4096 points fit). The
 * generator's window table (20 x 4096 multiples) is made on the host once
 * per process and copied in with each call. */
cz_status cz_cuda_g1_fixed_base(cz_cuda_ctx *ctx, cz_g1_affine *out, const cz_fr *scalars, size_t n);
cz_status cz_cuda_g2_fixed_base(cz_cuda_ctx *ctx, cz_g2_affine *out, const cz_fr *scalars, size_t n);
/* A compact matrix (cz_cmat of backend.h) on the device. */
typedef struct {
    cz_cuda_buf row_ptr; /* n_rows + 1 uint64 */
    cz_cuda_buf col;     /* nnz uint32 */
    cz_cuda_buf coef;    /* nnz uint16 indices into the coefficient table */
    uint32_t n_rows;
} cz_cuda_cmat;
/* abc[0..2] = A w, B w, (A w) .* (B w) for `rows` rows (rows at or past a
   matrix's n_rows are 0); coefs: n_coefs (<= 65,536) Montgomery values on
   the device; columns must index w and coefficient indices the table
   (not checked here: the key's maker does). Waits for the result. */
cz_status cz_cuda_eval_abc_compact_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], const cz_cuda_cmat *ma,
                                       const cz_cuda_cmat *mb, const cz_cuda_buf *coefs,
                                       uint32_t n_coefs, const cz_cuda_buf *w, size_t rows);
/* The same from host arrays (tests, benchmarks): the matrices, the table
   and w (n_w values) are checked, copied in, evaluated and a, b, c (rows
   values each) copied back. */
cz_status cz_cuda_eval_abc_compact(cz_cuda_ctx *ctx, cz_fr *a, cz_fr *b, cz_fr *c, const cz_cmat *ma,
                                   const cz_cmat *mb, const cz_fr *coefs, uint32_t n_coefs,
                                   const cz_fr *w, size_t n_w, size_t rows);
/* out[k] = in[idx[k]] (Fr, idx uint32 each < the values in `in`), k < n,
   all on the device; waits. */
cz_status cz_cuda_gather_dev(cz_cuda_ctx *ctx, cz_cuda_buf *out, const cz_cuda_buf *in,
                             const cz_cuda_buf *idx, size_t n);

/* ---- compressed points (.czk keys) ----
 * n compressed points from host memory (48 B G1 / 96 B G2 if g2, the zcash
 * encoding of curve.h) to affine points in host memory (cz_g1_affine /
 * cz_g2_affine), decompressed and checked on the GPU, bit for bit as
 * cz_g1/g2_from_compressed: CZ_OK, or the status of the first bad point
 * (CZ_ERR_FORMAT, CZ_ERR_NOT_ON_CURVE, CZ_ERR_SUBGROUP) with its index in
 * *first_bad. A device failure is CZ_ERR_DEVICE / CZ_ERR_NOMEM (message in
 * cz_cuda_ctx_error), never a point's status. In chunks of at most `chunk`
 * points (0: as many as the arena's free part holds, up to 2^22). */
cz_status cz_cuda_decompress(cz_cuda_ctx *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                             size_t *first_bad, size_t chunk);
/* The same as a .czk reader's hook (cz_nkey_decompress_fn; ctx: a
   cz_cuda_ctx that only the loading thread uses meanwhile). */
cz_status cz_cuda_nkey_decompress(void *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                                  size_t *first_bad);

/* ---- test and benchmark helpers ---- */
/* out[i] = d_i G (G1 or G2 generator, affine) with d_i = k[i % m] +
   (i >= m ? k[(i / m) % m] : 0), 1 <= m <= 2^20: many distinct points of
   known discrete logarithm, made on the GPU. */
cz_status cz_cuda_g1_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n, const cz_fr *k, size_t m);
cz_status cz_cuda_g2_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n, const cz_fr *k, size_t m);
/* element-wise device arithmetic, to check it against the host's.
   op: 0 add, 1 sub, 2 mul, 3 sqr, 4 from Montgomery, 5 inverse. */
cz_status cz_cuda_fr_op(cz_cuda_ctx *ctx, int op, cz_fr *out, const cz_fr *a, const cz_fr *b, size_t n);
cz_status cz_cuda_fp_op(cz_cuda_ctx *ctx, int op, cz_fp *out, const cz_fp *a, const cz_fp *b, size_t n);
cz_status cz_cuda_fp2_op(cz_cuda_ctx *ctx, int op, cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b, size_t n);
/* madd[i] = a[i] + b[i] (XYZZ mixed add), add[i] = 2a[i] + 2b[i] (XYZZ
   add), dbl[i] = 2a[i]; results as Jacobian */
cz_status cz_cuda_g1_curve_test(cz_cuda_ctx *ctx, cz_g1_jac *madd, cz_g1_jac *add, cz_g1_jac *dbl,
                                const cz_g1_affine *a, const cz_g1_affine *b, size_t n);
cz_status cz_cuda_g2_curve_test(cz_cuda_ctx *ctx, cz_g2_jac *madd, cz_g2_jac *add, cz_g2_jac *dbl,
                                const cz_g2_affine *a, const cz_g2_affine *b, size_t n);

/* ---- BN254 ("bn128", snarkjs's curve) ----
 * _bn254 twins of the NTT, MSM and check functions above (no curve test:
 * the MSMs check BN254's point formulas), over BN254's
 * fields and groups: host layouts of curve/bn254_curve.h (affine G1 64
 * bytes, G2 128, infinity all zero: the points of a bn128 .zkey), scalars
 * cz_bn254_fr (Montgomery, or plain 256-bit integers with
 * CZ_CUDA_MSM_PLAIN, taken mod r). The same kernels compiled over BN254's
 * field parameters; same flags, limits and errors. NTTs: log_n <= 28 (the
 * 2-adicity of r), omega a primitive 2^log_n-th root (the domain's of
 * poly/ntt_bn254.h: snarkjs's roots); the H step with g = the domain's
 * omega_2n is cz_bn254_ntt_snarkjs_odd_points on each vector, then
 * a .* b - c. */
cz_status cz_cuda_bn254_ntt(cz_cuda_ctx *ctx, cz_bn254_fr *a, unsigned log_n,
                            const cz_bn254_fr *omega, cz_cuda_ntt_kind kind, const cz_bn254_fr *g);
cz_status cz_cuda_bn254_ntt_dev(cz_cuda_ctx *ctx, cz_cuda_buf *a, unsigned log_n,
                                const cz_bn254_fr *omega, cz_cuda_ntt_kind kind,
                                const cz_bn254_fr *g, unsigned flags);
cz_status cz_cuda_bn254_ntt_h_dev(cz_cuda_ctx *ctx, cz_cuda_buf abc[3], unsigned log_n,
                                  const cz_bn254_fr *omega, const cz_bn254_fr *g);
cz_status cz_cuda_bn254_g1_msm(cz_cuda_ctx *ctx, cz_bn254_g1_jac *out,
                               const cz_bn254_g1_affine *bases, const cz_bn254_fr *scalars,
                               size_t n, unsigned flags);
cz_status cz_cuda_bn254_g2_msm(cz_cuda_ctx *ctx, cz_bn254_g2_jac *out,
                               const cz_bn254_g2_affine *bases, const cz_bn254_fr *scalars,
                               size_t n, unsigned flags);
cz_status cz_cuda_bn254_g1_msm_dev(cz_cuda_ctx *ctx, cz_bn254_g1_jac *out, const cz_cuda_buf *bases,
                                   const cz_bn254_fr *scalars_host, const cz_cuda_buf *scalars_dev,
                                   size_t n, unsigned flags, unsigned window_bits);
cz_status cz_cuda_bn254_g2_msm_dev(cz_cuda_ctx *ctx, cz_bn254_g2_jac *out, const cz_cuda_buf *bases,
                                   const cz_bn254_fr *scalars_host, const cz_cuda_buf *scalars_dev,
                                   size_t n, unsigned flags, unsigned window_bits);
cz_status cz_cuda_bn254_g1_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n,
                                      const cz_bn254_fr *k, size_t m);
cz_status cz_cuda_bn254_g2_gen_points(cz_cuda_ctx *ctx, cz_cuda_buf *out, size_t n,
                                      const cz_bn254_fr *k, size_t m);
cz_status cz_cuda_bn254_fr_op(cz_cuda_ctx *ctx, int op, cz_bn254_fr *out, const cz_bn254_fr *a,
                              const cz_bn254_fr *b, size_t n);
cz_status cz_cuda_bn254_fp_op(cz_cuda_ctx *ctx, int op, cz_bn254_fp *out, const cz_bn254_fp *a,
                              const cz_bn254_fp *b, size_t n);
cz_status cz_cuda_bn254_fp2_op(cz_cuda_ctx *ctx, int op, cz_bn254_fp2 *out, const cz_bn254_fp2 *a,
                               const cz_bn254_fp2 *b, size_t n);

/* A bn128 (snarkjs) Groth16 proof on the GPU: a, b, c on the host from the
   key's matrices (pool: its threads, NULL: one), snarkjs's H step and the
   five MSMs on the device (the key's points copied in per call: tier
   "streamed"), the assembly shared with the CPU provers (prove_impl.h).
   The same proof as cz_bn254_groth16_prove for the same rs (tests: rs[0]
   = r, rs[1] = s; NULL: from the OS CSPRNG). Not self-checked here.
   CZ_ERR_UNSUPPORTED without CUDA. */
cz_status cz_cuda_bn254_groth16_prove(cz_cuda_ctx *ctx, cz_bn254_proof *out,
                                      const cz_bn254_zkey *key, const cz_bn254_fr *w,
                                      cz_threadpool *pool, const cz_bn254_fr *rs,
                                      cz_prove_timings *tm, char *err, size_t err_len);

/* A bn128 key resident on the device, for a process that proves many
   times with one key: its points (a, b1, b2, c, h as in the key) and its
   A and B matrices in CSR form (row pointers, columns, values; NULL when
   the key was loaded without them: a, b, c are then evaluated on the
   host). Made by cz_cuda_bn254_key_upload (cz_cuda_buf_alloc buffers:
   free them, with cz_cuda_bn254_key_free, before the buffers taken
   before them). */
typedef struct {
    cz_cuda_buf a, b1, b2, c, h;
    cz_cuda_buf ra, ca, va, rb, cb, vb;
    uint32_t n_vars, n_public, domain_size; /* the key's, to check a proof's key */
} cz_cuda_bn254_dkey;
/* Device bytes of a key's points and matrices (cz_cuda_bn254_key_upload's
   buffers); the arena a one-shot prover (the CLI) sizes for the key: the
   points, a, b, c, w and the MSMs' scratch. 0 without CUDA. */
size_t cz_cuda_bn254_key_bytes(const cz_bn254_zkey *key);
size_t cz_cuda_bn254_arena_for_key(const cz_bn254_zkey *key);
/* Copies the key's points in (all or nothing: on failure nothing stays
   allocated and *out is zero). CZ_ERR_NOMEM when the arena lacks them. */
cz_status cz_cuda_bn254_key_upload(cz_cuda_ctx *ctx, cz_cuda_bn254_dkey *out,
                                   const cz_bn254_zkey *key);
/* NULL buffers are no-ops; the first failure's status. */
cz_status cz_cuda_bn254_key_free(cz_cuda_ctx *ctx, cz_cuda_bn254_dkey *dk);
/* cz_cuda_bn254_groth16_prove with the key resident (dk, from this key;
   tier "resident": w is sent once, a, b, c are evaluated from it on the
   device and the MSMs read the points in place) or, dk NULL, the points
   copied per call and a, b, c made on the host (tier "streamed"). */
cz_status cz_cuda_bn254_groth16_prove_dev(cz_cuda_ctx *ctx, cz_bn254_proof *out,
                                          const cz_bn254_zkey *key, const cz_cuda_bn254_dkey *dk,
                                          const cz_bn254_fr *w, cz_threadpool *pool,
                                          const cz_bn254_fr *rs, cz_prove_timings *tm, char *err,
                                          size_t err_len);

#endif
