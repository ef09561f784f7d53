/*
 * prove_bn254.c: the Groth16 prover over BN254 ("bn128"), exactly as
 * snarkjs's groth16_prove.js computes it, and the JSON it writes.
 *
 * DESIGN. prove.c's CPU path over BN254's types (the formulas are in
 * groth16_bn254.h): a/b/c as two sparse matrix-vector products, rows in
 * parallel chunks; snarkjs's H step (cz_bn254_ntt_snarkjs_odd_points:
 * inverse NTT, coefficient j times w_2n^j, forward NTT) on a, b and c,
 * then h = a b - c at the odd points; the five MSMs of msm_bn254.h
 * (Pippenger with batched affine buckets, the 0/1 split that takes most
 * of a circom witness out of the buckets, GLV on G1), each spread over the
 * pool; then the assembly with r and s (prove_impl.h, prove.c's too).
 * The witness-sized vectors and r, s, r s are wiped before they are freed.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/groth16_bn254.h"
#include "groth16/prove_bn254.h"
#include "io/binfile.h"
#include "io/json.h"
#include "msm/msm_bn254.h"
#include "pairing/bn254_pairing.h"
#include "poly/ntt_bn254.h"
#include "util/mem.h"
#include "util/rng.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* random_scalar and the assembly, shared with prove.c: 254 random bits
   are below r with probability r / 2^254 ~ 0.76 */
#define PV_G1_(op) cz_bn254_g1_##op
#define PV_G2_(op) cz_bn254_g2_##op
#define PV_FR_(op) cz_bn254_fr_##op
#define PV_FR cz_bn254_fr
#define PV_KEY cz_bn254_zkey
#define PV_PROOF cz_bn254_proof
#define PV_FR_TOP_MASK 0x3fffffffffffffffULL
#include "groth16/prove_impl.h"

/* ---- a, b, c and h ---- */

typedef struct {
    cz_bn254_fr *a, *b, *c;
    const cz_bn254_zkey *key;
    const cz_bn254_fr *w;
} abc_job;

static void spmv_rows(cz_bn254_fr *out, const cz_bn254_csr *m, const cz_bn254_fr *w,
                      size_t begin, size_t end)
{
    for (size_t r = begin; r < end; r++) {
        cz_bn254_fr acc, t;
        cz_bn254_fr_zero(&acc);
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            cz_bn254_fr_mul(&t, &m->val[k], &w[m->col[k]]);
            cz_bn254_fr_add(&acc, &acc, &t);
        }
        out[r] = acc;
    }
}

static void abc_chunk(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    abc_job *j = vctx;
    spmv_rows(j->a, &j->key->qa, j->w, begin, end);
    spmv_rows(j->b, &j->key->qb, j->w, begin, end);
    for (size_t r = begin; r < end; r++)
        cz_bn254_fr_mul(&j->c[r], &j->a[r], &j->b[r]);
}

void cz_bn254_groth16_eval_abc(cz_bn254_fr *a, cz_bn254_fr *b, cz_bn254_fr *c,
                               const cz_bn254_zkey *key, const cz_bn254_fr *w,
                               cz_threadpool *pool)
{
    abc_job j = {a, b, c, key, w};
    cz_parallel_for(pool, key->domain_size, 4096, abc_chunk, &j);
}

static void h_chunk(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    abc_job *j = vctx;
    for (size_t i = begin; i < end; i++) {
        cz_bn254_fr t;
        cz_bn254_fr_mul(&t, &j->a[i], &j->b[i]);
        cz_bn254_fr_sub(&j->a[i], &t, &j->c[i]);
    }
}

static void wipe_free(void *p, size_t bytes)
{
    if (p) {
        cz_wipe(p, bytes);
        free(p);
    }
}

cz_status cz_bn254_groth16_prove_check(const void *out, const cz_bn254_zkey *key,
                                       const cz_bn254_fr *w, char *err, size_t err_len)
{
    if (!out || !key || !w)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove", "NULL argument");
    const size_t n = key->domain_size;
    if (key->qa.n_rows != n || key->qb.n_rows != n || !key->qa.row_ptr || !key->qb.row_ptr)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove",
                          "the key was loaded without its matrices");
    if (key->log_n > 28 || key->n_vars < key->n_public + 1)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove", "a key of 2^%u rows, %u of %u public",
                          key->log_n, key->n_public, key->n_vars);
    return CZ_OK;
}

cz_status cz_bn254_groth16_prove(cz_bn254_proof *out, const cz_bn254_zkey *key,
                                 const cz_bn254_fr *w, cz_threadpool *pool,
                                 const cz_bn254_fr *rs, cz_prove_timings *tm, char *err,
                                 size_t err_len)
{
    cz_prove_timings tl;
    if (!tm)
        tm = &tl;
    memset(tm, 0, sizeof *tm);
    snprintf(tm->tier, sizeof tm->tier, "host");
    cz_status st = cz_bn254_groth16_prove_check(out, key, w, err, err_len);
    if (st)
        return st;
    const size_t n = key->domain_size;
    const size_t npub = key->n_public;
    double t0 = now_ms(), t;
    cz_bn254_fr *a = NULL, *b = NULL, *c = NULL;
    cz_bn254_g1_jac pa, pb1, pc, ph;
    cz_bn254_g2_jac pb2;
    cz_bn254_ntt_domain *dom = NULL;
    a = cz_alloc_big(n * sizeof *a), b = cz_alloc_big(n * sizeof *b), c = cz_alloc_big(n * sizeof *c);
    if (!a || !b || !c) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove",
                        "out of memory for %zu-point vectors", n);
        goto out;
    }
    /* 1. a, b, c on the domain */
    t = now_ms();
    cz_bn254_groth16_eval_abc(a, b, c, key, w, pool);
    abc_job j = {a, b, c, key, w}; /* h_chunk's vectors */
    tm->eval_abc_ms = now_ms() - t;
    /* 2. to the odd points of the 2n-domain, h = a b - c there (into a) */
    t = now_ms();
    if ((st = cz_bn254_ntt_domain_create(&dom, key->log_n, CZ_NTT_ROOT_5))) {
        cz_io_fail(st, err, err_len, "prove", "no NTT domain of 2^%u", key->log_n);
        goto out;
    }
    cz_bn254_ntt_snarkjs_odd_points(dom, a, pool);
    cz_bn254_ntt_snarkjs_odd_points(dom, b, pool);
    cz_bn254_ntt_snarkjs_odd_points(dom, c, pool);
    cz_parallel_for(pool, n, 8192, h_chunk, &j);
    tm->ntt_ms = now_ms() - t;
    wipe_free(b, n * sizeof *b);
    wipe_free(c, n * sizeof *c);
    b = c = NULL;

    /* 3. the MSMs */
    cz_msm_opts mo = {.pool = pool, .form = CZ_MSM_SCALAR_MONT};
    double tmsm = now_ms();
    t = now_ms();
    if ((st = cz_bn254_g1_msm(&pa, key->a, w, key->n_vars, &mo)))
        goto msm_fail;
    tm->msm_a_ms = now_ms() - t;
    t = now_ms();
    if ((st = cz_bn254_g1_msm(&pb1, key->b1, w, key->n_vars, &mo)))
        goto msm_fail;
    tm->msm_b1_ms = now_ms() - t;
    t = now_ms();
    if ((st = cz_bn254_g2_msm(&pb2, key->b2, w, key->n_vars, &mo)))
        goto msm_fail;
    tm->msm_b2_ms = now_ms() - t;
    t = now_ms();
    if ((st = cz_bn254_g1_msm(&pc, key->c, w + npub + 1, key->n_vars - npub - 1, &mo)))
        goto msm_fail;
    tm->msm_c_ms = now_ms() - t;
    t = now_ms();
    if ((st = cz_bn254_g1_msm(&ph, key->h, a, n, &mo)))
        goto msm_fail;
    tm->msm_h_ms = now_ms() - t;
    tm->msm_ms = now_ms() - tmsm;

    /* 4. the assembly */
    t = now_ms();
    if ((st = assemble_proof(out, key, &pa, &pb1, &pb2, &pc, &ph, rs, err, err_len)))
        goto out;
    tm->assemble_ms = now_ms() - t;
    tm->total_ms = now_ms() - t0;
    goto out;

msm_fail:
    cz_io_fail(st, err, err_len, "prove", "MSM failed: %s", cz_strerror(st));
out:
    wipe_free(a, n * sizeof *a);
    wipe_free(b, n * sizeof *b);
    wipe_free(c, n * sizeof *c);
    cz_bn254_ntt_domain_destroy(dom);
    return st;
}

/* ---- JSON as snarkjs writes it ---- */

/* proof.json and verification_key.json as snarkjs 0.7.6 writes them: no
   final newline (cmp with snarkjs's files holds) */
#define JW_G1_AFF cz_bn254_g1_affine
#define JW_G2_AFF cz_bn254_g2_affine
#define JW_FP2 cz_bn254_fp2
#define JW_FP6 cz_bn254_fp6
#define JW_FP12 cz_bn254_fp12
#define JW_VK cz_bn254_vk
#define JW_PROOF cz_bn254_proof
#define JW_G1_TO_DEC cz_bn254_g1_to_dec
#define JW_G2_TO_DEC cz_bn254_g2_to_dec
#define JW_FP_TO_DEC cz_bn254_fp_to_dec
#define JW_STR_MAX CZ_BN254_STR_MAX
#define JW_CURVE "bn128"
#define JW_NEWLINE false
#define JW_PROOF_TO_JSON cz_bn254_proof_to_json
#include "io/json_write_impl.h"

static void fr_dec(char *buf, const void *v) { cz_bn254_fr_to_dec(buf, v); }

char *cz_bn254_public_to_json(const cz_bn254_fr *pub, size_t n)
{
    _Static_assert(CZ_BN254_STR_MAX <= CZ_JSON_DEC_MAX, "a decimal Fr fits the buffer");
    return cz_json_dec_array(pub, n, sizeof *pub, fr_dec, false);
}

char *cz_bn254_vk_to_json(const cz_bn254_vk *vk)
{
    if (!vk || !vk->ic)
        return NULL;
    /* vk_alphabeta_12 = e(alpha1, beta2), as snarkjs writes it */
    cz_bn254_fp12 ab;
    cz_bn254_pairing(&ab, &vk->alpha1, &vk->beta2);
    return vk_json(vk, &ab);
}
