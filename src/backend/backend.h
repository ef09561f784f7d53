/*
 * backend.h: the heavy steps of the Groth16 prover behind one interface.
 *
 * DESIGN. The prover (groth16/prove.c) is written against a table of
 * function pointers, so a CUDA implementation slots in beside the CPU one
 * (backend/cpu.c). Everything crosses the interface as plain arrays in the
 * one memory layout of the project: cz_fr (Montgomery, 4 limbs), cz_g1_affine
 * and cz_g2_affine (Montgomery coordinates, infinity all zero), and the
 * constraint matrices as CSR (row pointers, column = signal index, value
 * in Montgomery form). A backend owns its scratch and its threads; the
 * prover owns every array it passes. Each call returns cz_status; a device
 * fault is CZ_ERR_DEVICE and fails only that proof.
 *
 * The steps, n = domain size (a power of two), w the witness:
 *   eval_abc   a = A w, b = B w (sparse products), c = a .* b   n muls + nnz muls
 *   compute_h  h_j = a(x_j) b(x_j) - c(x_j) on the odd points x_j =
 *              w_2n^(2j+1) of the 2n-domain (snarkjs's roots, generator 5):
 *              for each of a, b, c an inverse NTT, a scale by w_2n^i and a
 *              forward NTT (6 NTTs of size n), then n products; without c
 *              (a key with C folded, groth16.h) h_j = a(x_j) b(x_j), 4 NTTs
 *   msm_g1/g2  sum_i s_i P_i (Pippenger), scalars in Montgomery form
 */
#ifndef CZ_BACKEND_H
#define CZ_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curve/curve.h"
#include "field/bn254.h"
#include "field/field.h"
#include "groth16/verify_bn254.h"
#include "groth16/witpack.h"
#include "util/threadpool.h"

/* A sparse matrix in compressed rows. */
typedef struct {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz column (signal) indices */
    cz_fr *val;        /* nnz values, Montgomery form */
} cz_csr;

void cz_csr_free(cz_csr *m);

/* A sparse matrix in compact rows (keys of native circuits): each value is
   an index into a coefficient table that the key's matrices share (most
   coefficients of hash circuits are +-1 or powers of two), 6 bytes a
   nonzero instead of 36. */
typedef struct {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz column (signal) indices, ascending within a row */
    uint16_t *coef;    /* nnz indices into the table */
} cz_cmat;

typedef struct cz_backend cz_backend;

struct cz_zkey;
struct cz_bn254_zkey;

/* The five MSM sums of a Groth16 proof (before blinding). */
typedef struct {
    cz_g1_jac a, b1, c, h;
    cz_g2_jac b2;
} cz_msm_sums;

/* What the whole-proof hook reports. */
typedef struct {
    double eval_abc_ms, ntt_ms, msm_ms, upload_ms;
    double msm_a_ms, msm_b1_ms, msm_b2_ms, msm_c_ms, msm_h_ms;
    uint64_t h2d_bytes; /* host-to-device bytes of this proof (the witness; the key too
                           when this proof loaded it) */
    char tier[16];
    char error[256]; /* on failure: what went wrong on the device */
} cz_core_timings;

/* What a backend runs on, for status pages and logs. */
typedef struct {
    char device[128];   /* "cpu, 16 threads" or the GPU's name */
    uint64_t mem_total; /* device memory the backend holds (GPU arena), bytes; 0 on the CPU */
    uint64_t mem_free;  /* of which free now */
} cz_backend_info;

struct cz_backend {
    const char *name;   /* "cpu", "cuda" */
    void *ctx;          /* implementation state */
    /* a = qa w, b = qb w, c = a .* b; each of length qa->n_rows. */
    cz_status (*eval_abc)(cz_backend *be, cz_fr *a, cz_fr *b, cz_fr *c,
                          const cz_csr *qa, const cz_csr *qb, const cz_fr *w, size_t n_w);
    /* h (length 2^log_n) from a, b, c (overwritten: scratch). h may be a.
       c NULL: h = a(x_j) b(x_j) (C folded into the key). */
    cz_status (*compute_h)(cz_backend *be, cz_fr *h, cz_fr *a, cz_fr *b, cz_fr *c,
                           unsigned log_n);
    /* out = sum scalars[i] * bases[i]. */
    cz_status (*msm_g1)(cz_backend *be, cz_g1_jac *out, const cz_g1_affine *bases,
                        const cz_fr *scalars, size_t n);
    cz_status (*msm_g2)(cz_backend *be, cz_g2_jac *out, const cz_g2_affine *bases,
                        const cz_fr *scalars, size_t n);
    void (*destroy)(cz_backend *be);
    /* Describe the device; may be NULL (then only `name` is known). */
    void (*info)(cz_backend *be, cz_backend_info *out);
    /* Optional (may be NULL): steps 1-3 of the proof at once (a/b/c, H,
       the five MSMs), for a backend that keeps a key's arrays on its
       device between proofs. pw: w packed by the caller (NULL: the backend
       packs it when it wants it packed). CZ_ERR_UNSUPPORTED: the key does
       not fit; the prover then runs the steps one by one. */
    cz_status (*prove_core)(cz_backend *be, const struct cz_zkey *key, const cz_fr *w,
                            const cz_wit_packed *pw, cz_msm_sums *out, cz_core_timings *tm);
    /* Optional (may be NULL): page-lock host memory that the device will
       read (witness buffers kept in a pool), so copies run at full bus
       speed; unpin before freeing it. */
    cz_status (*host_pin)(cz_backend *be, void *p, size_t len);
    void (*host_unpin)(cz_backend *be, void *p);
    /* Optional (may be NULL): what went wrong in the calling thread's last
       failed step (eval_abc, compute_h, msm_*), "" if nothing is known. */
    const char *(*step_error)(cz_backend *be);
    /* Optional (may be NULL): out[i] = scalars[i] G for the generator G
       of G1 / G2, affine (a development setup's fixed-base products);
       scalars Montgomery, any value (0 gives infinity, all zero). */
    cz_status (*fixed_base_g1)(cz_backend *be, cz_g1_affine *out, const cz_fr *scalars, size_t n);
    cz_status (*fixed_base_g2)(cz_backend *be, cz_g2_affine *out, const cz_fr *scalars, size_t n);
    /* Optional (may be NULL): n compressed points (48 B G1, 96 B G2 if g2)
       to affine points, checked on the curve and in the subgroup, as the
       decompression hook of a .czk load (io/nkey.h: CZ_OK, or the first bad
       point's status with its index; a device failure is CZ_ERR_DEVICE or
       CZ_ERR_NOMEM, and the reader then takes the CPU). */
    cz_status (*decompress)(cz_backend *be, int g2, void *out, const uint8_t *in, size_t n,
                            size_t *first_bad);
    /* Optional (may be NULL): make a key resident on the device now, as
       the first proof with it would (the daemon calls it when a key is
       loaded or made, so that the key's first proof finds it there; a
       proof meanwhile waits for the device and finds it resident, never
       uploading it twice). CZ_OK: resident (tm->upload_ms and h2d_bytes:
       this upload, 0 when it was there already); CZ_ERR_UNSUPPORTED: it
       cannot be resident (too big for the device, or residency off), and
       its proofs stream it as before; anything else: a device error
       (tm->error). tm->tier: "resident", "streamed" or "host". */
    cz_status (*key_upload)(cz_backend *be, const struct cz_zkey *key, cz_core_timings *tm);
    /* Optional (may be NULL): the same for a bn128 key, known to the
       device by uid (unique in the process: cz_zkey_new_uid), so that
       keys of both curves are resident at once. */
    cz_status (*key_upload_bn254)(cz_backend *be, const struct cz_bn254_zkey *key, uint64_t uid,
                                  cz_core_timings *tm);
    /* Optional (may be NULL): a bn128 Groth16 proof on the device, the
       key resident when it fits (uploaded by its first proof if not
       before, known by uid as above), else its points copied per call;
       pool runs the host's share. Not self-checked. CZ_ERR_UNSUPPORTED:
       the device is gone; any error: the caller may prove on the CPU. */
    cz_status (*prove_bn254)(cz_backend *be, cz_bn254_proof *out, const struct cz_bn254_zkey *key,
                             uint64_t uid, const cz_bn254_fr *w, cz_threadpool *pool,
                             cz_core_timings *tm, char *err, size_t err_len);
};

/* The CPU backend on `threads` threads (0: all cores). */
cz_status cz_backend_cpu_create(cz_backend **out, unsigned threads);
/* The selector (src/backend/select.c). device: "cpu", "cuda" or "auto"
   (cuda where built and a GPU exists, else cpu), optionally ":N" for GPU N
   ("cuda:1"). "cuda" without CUDA (or without a usable GPU) is
   CZ_ERR_UNSUPPORTED / CZ_ERR_DEVICE. For processes that prove many times
   (the daemon, the prover API): "auto" takes the GPU for every size. */
cz_status cz_backend_create(cz_backend **out, const char *device, unsigned threads,
                            char *err, size_t err_len);
void cz_backend_destroy(cz_backend *be);

/* The smallest domain (rows of the key: constraints + public inputs + 1,
   rounded up to a power of two) for which "auto" takes the GPU in a
   process that proves once. The first launch of a process pays for the
   CUDA context and lazy module loading, ~60 ms before any work. Measured
   on the H200 machine (its CPU: 16 threads; docs/PERF.md): a
   7.5 K-constraint key (domain 2^13) proves one-shot in 25 ms on the CPU
   and 66 ms on the GPU; at 2^16, 296 ms on the CPU and 100 ms on the GPU.
   The CPU's time grows about linearly with the domain (~50 ms at 2^14,
   ~100-150 ms at 2^15) while the GPU's stays near its first-launch floor,
   so the two cross between 2^14 and 2^15: below 2^15 the CPU is as fast
   or faster. A machine with fewer cores crosses lower; "cuda" still
   forces the GPU at any size. */
#define CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN ((uint64_t)1 << 15)
/* Whether "auto" takes the CPU for a one-shot proof over domain_size. */
int cz_backend_oneshot_prefers_cpu(uint64_t domain_size);
/* As cz_backend_create, for a process that proves once with a key of
   domain_size: "auto" is the CPU below CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN
   (decided before any CUDA call), else as cz_backend_create. */
cz_status cz_backend_create_oneshot(cz_backend **out, const char *device, unsigned threads,
                                    uint64_t domain_size, char *err, size_t err_len);

/* The CUDA backend (src/backend/cuda_glue.c); defined only in CUDA builds
   (CUZK_HAVE_CUDA): use cz_backend_create elsewhere. host runs the steps
   the GPU does not take (a CPU backend, made by the selector); the new
   backend owns it on success (destroyed with it), the caller on failure. */
cz_status cz_backend_cuda_create(cz_backend **out, int gpu, cz_backend *host, char *err,
                                 size_t err_len);

#endif
