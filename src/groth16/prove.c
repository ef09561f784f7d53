/*
 * prove.c: the Groth16 prover, exactly as snarkjs computes it.
 *
 * DESIGN (docs/GROTH16.md has the derivation). With n the domain size:
 *   1. a = A w, b = B w over the coefficient records (the A matrix holds
 *      nPublic+1 extra rows nConstraints+s: a[nC+s] = w_s), c = a .* b.
 *   2. h_j = a(x_j) b(x_j) - c(x_j) at the odd points x_j = w_2n^(2j+1)
 *      of the 2n-domain (6 NTTs of size n); the key's H points are the odd
 *      Lagrange basis of the 2n-domain over delta, so sum h_j H_j =
 *      h(tau) Z(tau) / delta with no division by Z here.
 *   3. five MSMs: A (G1, nVars), B1 (G1, nVars), B2 (G2, nVars), C (G1,
 *      the private signals), H (G1, n).
 *   4. with secret r, s from the OS CSPRNG:
 *      pi_a = alpha1 + sum w_i A_i + r delta1
 *      pi_b = beta2 + sum w_i B2_i + s delta2,  b1 = beta1 + sum w_i B1_i + s delta1
 *      pi_c = sum_{i>nPublic} w_i C_i + sum h_j H_j + s pi_a + r b1 - r s delta1
 *   The products by r and s are constant time; r, s, r*s are wiped.
 *   Step 4 is prove_impl.h's, shared with BN254's prover.
 * A backend with a prove_core hook (the GPU, key resident) runs steps 1-3
 * in one call from its own copy of the key (the witness packed by the
 * caller, cz_groth16_prove_packed, or by the backend); the assembly stays
 * here.
 * A key in compact form (native circuits: cz_cmat matrices over a
 * coefficient table) has a and b evaluated here on the host, rows in
 * parallel (coefficients 1 and -1 without a product), rows past a
 * matrix's n_rows being 0; with B density (b_idx) the B1 and B2 MSMs run
 * over the n_b gathered values w[b_idx[k]].
 * A key with C folded (cpub set: native keys, cz_setup_opts.fold_c) has no
 * c: h_j = a(x_j) b(x_j) (4 NTTs), its C points carry C's share of H, and
 * pi_c gains sum_{s <= nPublic} w_s cpub_s (docs/GROTH16.md, "C through
 * the key").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/groth16.h"
#include "io/binfile.h"
#include "msm/msm.h"
#include "util/mem.h"
#include "util/rng.h"
#include "util/threadpool.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ": <the backend's reason>" for a failed step, or "" */
static const char *step_error(cz_backend *be)
{
    static _Thread_local char buf[520];
    const char *e = be->step_error ? be->step_error(be) : NULL;
    if (!e || !*e)
        return "";
    snprintf(buf, sizeof buf, ": %s", e);
    return buf;
}

/* random_scalar and step 4, shared with prove_bn254.c: 255 random bits
   are below r with probability r / 2^255 ~ 0.9 */
#define PV_G1_(op) cz_g1_##op
#define PV_G2_(op) cz_g2_##op
#define PV_FR_(op) cz_fr_##op
#define PV_FR cz_fr
#define PV_KEY cz_zkey
#define PV_PROOF cz_proof
#define PV_FR_TOP_MASK 0x7fffffffffffffffULL
#include "groth16/prove_impl.h"

/* ---- a, b, c of a compact key ---- */

enum { COEF_ANY = 0, COEF_ONE = 1, COEF_MINUS_ONE = 2 };

typedef struct {
    cz_fr *a, *b, *c;
    const cz_zkey *key;
    const cz_fr *w;
    const uint8_t *kind; /* per coefficient index */
} cabc_job;

static void cmat_rows(cz_fr *out, const cz_cmat *m, const cz_fr *coefs, const uint8_t *kind,
                      const cz_fr *w, size_t begin, size_t end)
{
    for (size_t r = begin; r < end; r++) {
        cz_fr acc, t;
        cz_fr_zero(&acc);
        if (r < m->n_rows)
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
                uint16_t ci = m->coef[k];
                const cz_fr *x = &w[m->col[k]];
                switch (kind[ci]) {
                case COEF_ONE:
                    cz_fr_add(&acc, &acc, x);
                    break;
                case COEF_MINUS_ONE:
                    cz_fr_sub(&acc, &acc, x);
                    break;
                default:
                    cz_fr_mul(&t, &coefs[ci], x);
                    cz_fr_add(&acc, &acc, &t);
                }
            }
        out[r] = acc;
    }
}

static void cabc_chunk(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    cabc_job *j = vctx;
    cmat_rows(j->a, &j->key->ca, j->key->coefs, j->kind, j->w, begin, end);
    cmat_rows(j->b, &j->key->cb, j->key->coefs, j->kind, j->w, begin, end);
    if (j->c) /* NULL: C folded into the key */
        for (size_t r = begin; r < end; r++)
            cz_fr_mul(&j->c[r], &j->a[r], &j->b[r]);
}

/* The shape of a compact matrix (its entries are the key maker's). */
static bool cmat_ok(const cz_cmat *m, size_t n)
{
    return m->n_rows <= n && m->row_ptr && (!m->nnz || (m->col && m->coef)) &&
           m->row_ptr[0] == 0 && m->row_ptr[m->n_rows] == m->nnz;
}

static cz_status compact_abc(cz_fr *a, cz_fr *b, cz_fr *c, const cz_zkey *key, const cz_fr *w)
{
    uint8_t *kind = calloc(key->n_coefs ? key->n_coefs : 1, 1);
    if (!kind)
        return CZ_ERR_NOMEM;
    cz_fr one, m1;
    cz_fr_one(&one);
    cz_fr_neg(&m1, &one);
    for (uint32_t i = 0; i < key->n_coefs; i++)
        kind[i] = cz_fr_eq(&key->coefs[i], &one)  ? COEF_ONE
                  : cz_fr_eq(&key->coefs[i], &m1) ? COEF_MINUS_ONE
                                                  : COEF_ANY;
    cabc_job j = {a, b, c, key, w, kind};
    cz_parallel_for(cz_threadpool_global(), key->domain_size, 4096, cabc_chunk, &j);
    free(kind);
    return CZ_OK;
}

/* C folded into the key: pi_c's share of the public wires, sum_{s <=
   nPublic} w_s cpub_s, added to the C sum (public values: variable time) */
static cz_status fold_publics(cz_g1_jac *pc, const cz_zkey *key, const cz_fr *w)
{
    if (!key->cpub)
        return CZ_OK;
    cz_g1_jac t;
    cz_msm_opts o = {.form = CZ_MSM_SCALAR_MONT};
    cz_status st = cz_g1_msm(&t, key->cpub, w, (size_t)key->n_public + 1, &o);
    if (st == CZ_OK)
        cz_g1_jac_add(pc, pc, &t);
    return st;
}

cz_status cz_groth16_prove(cz_proof *out, const cz_zkey *key, const cz_fr *w,
                           cz_backend *be, const cz_fr *rs, cz_prove_timings *tm,
                           char *err, size_t err_len)
{
    return cz_groth16_prove_packed(out, key, w, NULL, be, rs, tm, err, err_len);
}

cz_status cz_groth16_prove_packed(cz_proof *out, const cz_zkey *key, const cz_fr *w,
                                  const cz_wit_packed *pw, cz_backend *be, const cz_fr *rs,
                                  cz_prove_timings *tm, char *err, size_t err_len)
{
    cz_prove_timings tl;
    if (!tm)
        tm = &tl;
    memset(tm, 0, sizeof *tm);
    if (!out || !key || !w || !be)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove", "NULL argument");
    if (key->cpub && !key->compact) /* folded C comes only with compact matrices */
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "prove",
                          "a key with C folded has no compact matrices");
    const size_t n = key->domain_size;
    const size_t npub = key->n_public;
    double t0 = now_ms(), t;
    cz_status st = CZ_OK;
    cz_fr *a = NULL, *b = NULL, *c = NULL, *wbuf = NULL;
    cz_g1_jac pa, pb1, pc, ph;
    cz_g2_jac pb2;
    snprintf(tm->tier, sizeof tm->tier, "%s", strcmp(be->name, "cpu") ? "streamed" : "host");
    if (be->prove_core) {
        cz_msm_sums sums;
        cz_core_timings ct;
        memset(&ct, 0, sizeof ct);
        st = be->prove_core(be, key, w, pw, &sums, &ct);
        if (st == CZ_OK) {
            pa = sums.a, pb1 = sums.b1, pb2 = sums.b2, pc = sums.c, ph = sums.h;
            tm->eval_abc_ms = ct.eval_abc_ms;
            tm->ntt_ms = ct.ntt_ms;
            tm->msm_ms = ct.msm_ms;
            tm->upload_ms = ct.upload_ms;
            tm->h2d_bytes = ct.h2d_bytes;
            tm->msm_a_ms = ct.msm_a_ms;
            tm->msm_b1_ms = ct.msm_b1_ms;
            tm->msm_b2_ms = ct.msm_b2_ms;
            tm->msm_c_ms = ct.msm_c_ms;
            tm->msm_h_ms = ct.msm_h_ms;
            snprintf(tm->tier, sizeof tm->tier, "%s", ct.tier);
            goto assemble;
        }
        if (st != CZ_ERR_UNSUPPORTED) {
            cz_io_fail(st, err, err_len, "prove", "proof steps failed on %s: %s", be->name,
                       ct.error[0] ? ct.error : cz_strerror(st));
            goto out;
        }
        if (ct.tier[0]) /* "streamed", or "host" when the device is gone */
            snprintf(tm->tier, sizeof tm->tier, "%s", ct.tier);
        st = CZ_OK; /* the key does not fit on the device: step by step */
    }
    const bool want_c = !key->cpub; /* C folded: no c */
    a = cz_alloc_big(n * sizeof *a), b = cz_alloc_big(n * sizeof *b);
    if (want_c)
        c = cz_alloc_big(n * sizeof *c);
    if (!a || !b || (want_c && !c)) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove", "out of memory for %zu-point vectors", n);
        goto out;
    }
    t = now_ms();
    if (key->compact) {
        if (!key->coefs || !cmat_ok(&key->ca, n) ||
            !cmat_ok(&key->cb, n)) {
            st = cz_io_fail(CZ_ERR_ARG, err, err_len, "prove",
                            "the key's compact matrices are not complete");
            goto out;
        }
        if ((st = compact_abc(a, b, c, key, w))) { /* c NULL: C folded */
            cz_io_fail(st, err, err_len, "prove", "out of memory for a/b/c");
            goto out;
        }
    } else if ((st = be->eval_abc(be, a, b, c, &key->qa, &key->qb, w, key->n_vars))) {
        cz_io_fail(st, err, err_len, "prove", "a/b/c evaluation failed on %s%s", be->name,
                   step_error(be));
        goto out;
    }
    tm->eval_abc_ms = now_ms() - t;
    t = now_ms();
    if ((st = be->compute_h(be, a, a, b, c, key->log_n))) {
        cz_io_fail(st, err, err_len, "prove", "H transforms failed on %s%s", be->name,
                   step_error(be));
        goto out;
    }
    tm->ntt_ms = now_ms() - t;
    free(b);
    free(c);
    b = c = NULL;

    double tmsm = now_ms();
    t = now_ms();
    if ((st = be->msm_g1(be, &pa, key->a, w, key->n_vars)))
        goto msm_fail;
    tm->msm_a_ms = now_ms() - t;
    /* B density: the values of the wires that occur in B, gathered */
    const cz_fr *wb = w;
    size_t nb = key->n_vars;
    if (key->b_idx) {
        nb = key->n_b;
        wbuf = cz_alloc_big(nb * sizeof *wbuf);
        if (!wbuf) {
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, "prove", "out of memory for B's values");
            goto out;
        }
        for (size_t k = 0; k < nb; k++)
            wbuf[k] = w[key->b_idx[k]];
        wb = wbuf;
    }
    t = now_ms();
    if ((st = be->msm_g1(be, &pb1, key->b1, wb, nb)))
        goto msm_fail;
    tm->msm_b1_ms = now_ms() - t;
    t = now_ms();
    if ((st = be->msm_g2(be, &pb2, key->b2, wb, nb)))
        goto msm_fail;
    tm->msm_b2_ms = now_ms() - t;
    if (wbuf) {
        cz_wipe(wbuf, nb * sizeof *wbuf);
        free(wbuf);
        wbuf = NULL;
    }
    t = now_ms();
    if ((st = be->msm_g1(be, &pc, key->c, w + npub + 1, key->n_vars - npub - 1)))
        goto msm_fail;
    tm->msm_c_ms = now_ms() - t;
    t = now_ms();
    if ((st = be->msm_g1(be, &ph, key->h, a, n)))
        goto msm_fail;
    tm->msm_h_ms = now_ms() - t;
    tm->msm_ms = now_ms() - tmsm;

assemble:
    t = now_ms();
    if ((st = fold_publics(&pc, key, w))) {
        cz_io_fail(st, err, err_len, "prove", "out of memory for the public wires' C share");
        goto out;
    }
    if ((st = assemble_proof(out, key, &pa, &pb1, &pb2, &pc, &ph, rs, err, err_len)))
        goto out;
    tm->assemble_ms = now_ms() - t;
    tm->total_ms = now_ms() - t0;
    goto out;

msm_fail:
    cz_io_fail(st, err, err_len, "prove", "MSM failed on %s%s", be->name, step_error(be));
out:
    if (a) {
        cz_wipe(a, n * sizeof *a);
        free(a);
    }
    if (b) {
        cz_wipe(b, n * sizeof *b);
        free(b);
    }
    if (c) {
        cz_wipe(c, n * sizeof *c);
        free(c);
    }
    if (wbuf) {
        cz_wipe(wbuf, (size_t)key->n_b * sizeof *wbuf);
        free(wbuf);
    }
    return st;
}
