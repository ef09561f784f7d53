/*
 * native.c: proving keys in compact form: made in memory from a recorded
 * circuit (cz_zkey_from_shape), or converted from a loaded .zkey
 * (cz_zkey_compact).
 *
 * DESIGN. cz_zkey_from_shape is cuzk setup without the file: the scalars
 * come from cz_setup_scalars_make (setup.c; the same toxic waste as
 * cz_groth16_setup for the same options, so a seeded key equals the
 * seeded .zkey of cz_shape_to_r1cs(shape) point for point), the
 * fixed-base products from the backend's hooks when it has them (a GPU)
 * or from fixed_base.c. The matrices are the shape's, copied: A gets
 * snarkjs's n_public + 1 extra rows (coefficient 1 at wire s), B as is;
 * the coefficient table is the shape's. B1 and B2 hold points only for the
 * wires that occur in B (b_idx). Memory is kept near the result: each
 * scalar array is wiped and freed as soon as its points exist, B's
 * gathered values (the smallest) last. For porep-32g: the scalars peak at
 * four arrays of ~4.3 GB (Lagrange basis, u, v, w), the whole at the end:
 * the points (~47.5 GB), the key's matrices (~5 GB) and B's values (~1 GB),
 * ~54 GB on top of the caller's shape (~7.4 GB). With opts->fold_c the C
 * points carry C's share of H and cpub the public wires' share (groth16.h,
 * cz_zkey.cpub), so its proofs skip c's two transforms. cz_zkey_compact turns a loaded key's CSR matrices into the same
 * form: coefficient values deduplicated through a small open-addressing
 * table (at most 65,536 of them), columns sorted within each row, B1 and
 * B2 gathered to the wires that occur in B.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/native.h"
#include "io/binfile.h"
#include "util/log.h"
#include "util/rng.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void cz_cmat_free(cz_cmat *m)
{
    if (!m)
        return;
    free(m->row_ptr);
    free(m->col);
    free(m->coef);
    memset(m, 0, sizeof *m);
}

/* A matrix of `rows` rows with `nnz` nonzeros, allocated. */
static cz_status cmat_alloc(cz_cmat *m, uint32_t rows, uint64_t nnz)
{
    memset(m, 0, sizeof *m);
    if (nnz > SIZE_MAX / 8)
        return CZ_ERR_NOMEM;
    m->n_rows = rows;
    m->nnz = nnz;
    m->row_ptr = malloc(((size_t)rows + 1) * sizeof *m->row_ptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->coef = malloc((nnz ? nnz : 1) * sizeof *m->coef);
    if (!m->row_ptr || !m->col || !m->coef) {
        cz_cmat_free(m);
        return CZ_ERR_NOMEM;
    }
    return CZ_OK;
}

static cz_threadpool *pool_for(unsigned threads, cz_threadpool **own)
{
    *own = NULL;
    if (threads == 0)
        return cz_threadpool_global();
    if (threads == 1)
        return NULL;
    return *own = cz_threadpool_create((int)threads);
}

/* n points scalars[i] G1 / G2 into a new array: on the backend when it has
   the hook, else (or when the hook answers CZ_ERR_UNSUPPORTED) on the CPU. */
static cz_status points_g1(cz_g1_affine **out, const cz_fr *sc, size_t n, cz_backend *be,
                           cz_threadpool *pool)
{
    *out = malloc((n ? n : 1) * sizeof **out);
    if (!*out)
        return CZ_ERR_NOMEM;
    cz_status st = be && be->fixed_base_g1 ? be->fixed_base_g1(be, *out, sc, n)
                                           : cz_fixed_base_g1(*out, sc, n, pool);
    if (st == CZ_ERR_UNSUPPORTED && be && be->fixed_base_g1) /* the device cannot: the CPU */
        st = cz_fixed_base_g1(*out, sc, n, pool);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

static cz_status points_g2(cz_g2_affine **out, const cz_fr *sc, size_t n, cz_backend *be,
                           cz_threadpool *pool)
{
    *out = malloc((n ? n : 1) * sizeof **out);
    if (!*out)
        return CZ_ERR_NOMEM;
    cz_status st = be && be->fixed_base_g2 ? be->fixed_base_g2(be, *out, sc, n)
                                           : cz_fixed_base_g2(*out, sc, n, pool);
    if (st == CZ_ERR_UNSUPPORTED && be && be->fixed_base_g2) /* the device cannot: the CPU */
        st = cz_fixed_base_g2(*out, sc, n, pool);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

cz_status cz_zkey_from_shape(cz_zkey **out, const cz_shape *shape, const cz_setup_opts *opts,
                             cz_backend *be, char *err, size_t err_len)
{
    static const char *name = "native key";
    if (err && err_len)
        err[0] = 0;
    if (!out || !shape)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL argument");
    *out = NULL;
    for (int m = 0; m < 3; m++)
        if (!shape->m[m].row_ptr || (shape->m[m].nnz && (!shape->m[m].col || !shape->m[m].coef)))
            return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "the shape has no matrix %d", m);
    /* the index of the coefficient 1, for A's extra rows */
    uint32_t one_idx = UINT32_MAX;
    for (uint32_t i = 0; shape->coefs && i < shape->n_coefs && one_idx == UINT32_MAX; i++)
        if (cz_fr_is_one(&shape->coefs[i]))
            one_idx = i;
    if (one_idx == UINT32_MAX)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name,
                          "the shape's coefficient table has no 1");
    cz_threadpool *own, *pool = pool_for(opts ? opts->threads : 0, &own);
    if (opts && opts->threads > 1 && !own)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "cannot start threads");
    double t0 = now_ms(), t;
    const char *where = be && be->fixed_base_g1 && be->fixed_base_g2 ? be->name : "cpu";

    cz_setup_scalars sc;
    cz_zkey *key = NULL;
    cz_fr *vb = NULL;
    uint32_t nb = 0;
    cz_status st = cz_setup_scalars_make(&sc, NULL, shape, opts, true, pool, name, err, err_len);
    if (st) {
        cz_threadpool_destroy(own);
        return st;
    }
    const uint32_t nvars = sc.n_vars, npub = sc.n_public, nc = sc.n_constraints;
    const size_t n = sc.n;
    key = calloc(1, sizeof *key);
    if (!key) {
        st = CZ_ERR_NOMEM;
        goto out;
    }
    key->uid = cz_zkey_new_uid();
    key->n_vars = nvars;
    key->n_public = npub;
    key->domain_size = (uint32_t)n;
    key->log_n = sc.log_n;
    key->compact = true;

    /* matrices: A's rows then the extra rows, B's rows; the shape's table */
    t = now_ms();
    const cz_shape_matrix *A = &shape->m[0], *B = &shape->m[1];
    if ((st = cmat_alloc(&key->ca, nc + npub + 1, A->nnz + npub + 1)) ||
        (st = cmat_alloc(&key->cb, nc, B->nnz)))
        goto out;
    memcpy(key->ca.row_ptr, A->row_ptr, ((size_t)nc + 1) * sizeof *A->row_ptr);
    memcpy(key->ca.col, A->col, A->nnz * sizeof *A->col);
    memcpy(key->ca.coef, A->coef, A->nnz * sizeof *A->coef);
    for (uint32_t s = 0; s <= npub; s++) {
        key->ca.col[A->nnz + s] = s;
        key->ca.coef[A->nnz + s] = (uint16_t)one_idx;
        key->ca.row_ptr[nc + s + 1] = A->nnz + s + 1;
    }
    memcpy(key->cb.row_ptr, B->row_ptr, ((size_t)nc + 1) * sizeof *B->row_ptr);
    memcpy(key->cb.col, B->col, B->nnz * sizeof *B->col);
    memcpy(key->cb.coef, B->coef, B->nnz * sizeof *B->coef);
    key->coefs = malloc(shape->n_coefs * sizeof *key->coefs);
    if (!key->coefs) {
        st = CZ_ERR_NOMEM;
        goto out;
    }
    memcpy(key->coefs, shape->coefs, shape->n_coefs * sizeof *key->coefs);
    key->n_coefs = shape->n_coefs;
    /* B density */
    for (uint32_t s = 0; s < nvars; s++)
        nb += sc.in_b[s];
    key->b_idx = malloc((nb ? nb : 1) * sizeof *key->b_idx);
    vb = malloc((nb ? nb : 1) * sizeof *vb);
    if (!key->b_idx || !vb) {
        st = CZ_ERR_NOMEM;
        goto out;
    }
    for (uint32_t s = 0, k = 0; s < nvars; s++)
        if (sc.in_b[s]) {
            key->b_idx[k] = s;
            vb[k++] = sc.v[s];
        }
    key->n_b = nb;
    free(sc.in_b);
    sc.in_b = NULL;
    cz_setup_scalars_drop(&sc.v, nvars, pool);
    cz_log(CZ_LOG_INFO, "setup", "%s: matrices (%llu + %llu nonzeros, %u coefficients), "
           "%u of %u wires in B: %.0f ms", name, (unsigned long long)key->ca.nnz,
           (unsigned long long)key->cb.nnz, key->n_coefs, nb, nvars, now_ms() - t);

    /* header points */
    {
        cz_fr s3[3] = {sc.alpha, sc.beta, sc.delta}, s2[2] = {sc.beta, sc.delta};
        cz_g1_affine p1[3];
        cz_g2_affine p2[2];
        st = cz_fixed_base_g1(p1, s3, 3, NULL);
        if (!st)
            st = cz_fixed_base_g2(p2, s2, 2, NULL);
        cz_wipe(s3, sizeof s3);
        cz_wipe(s2, sizeof s2);
        if (st)
            goto out;
        key->alpha1 = p1[0];
        key->beta1 = p1[1];
        key->delta1 = p1[2];
        key->beta2 = p2[0];
        key->delta2 = p2[1];
        cz_g2_generator(&key->gamma2);
    }
    /* points, each scalar array dropped once its points exist; the smallest
       (B's gathered values) last, so the peak is the points plus it */
    cz_g1_affine *p;
    cz_g2_affine *q;
    t = now_ms();
    if ((st = points_g1(&p, sc.h, n, be, pool)))
        goto out;
    key->h = key->copies[CZ_ZKEY_SLOT_H] = p;
    cz_setup_scalars_drop(&sc.h, n, pool);
    cz_log(CZ_LOG_INFO, "setup", "%s: H points (%zu) on %s: %.0f ms", name, n, where,
           now_ms() - t);
    t = now_ms();
    if ((st = points_g1(&p, sc.k, npub + 1, be, pool)))
        goto out;
    key->ic = key->copies[CZ_ZKEY_SLOT_IC] = p;
    if ((st = points_g1(&p, sc.k + npub + 1, nvars - npub - 1, be, pool)))
        goto out;
    key->c = key->copies[CZ_ZKEY_SLOT_C] = p;
    cz_setup_scalars_drop(&sc.k, nvars, pool);
    if (sc.cp) { /* C folded: the public wires' share */
        if ((st = points_g1(&p, sc.cp, npub + 1, be, pool)))
            goto out;
        key->cpub = key->copies[CZ_ZKEY_SLOT_CPUB] = p;
        cz_setup_scalars_drop(&sc.cp, npub + 1, pool);
    }
    cz_log(CZ_LOG_INFO, "setup", "%s: IC and C points (%u) on %s: %.0f ms", name, nvars, where,
           now_ms() - t);
    t = now_ms();
    if ((st = points_g1(&p, sc.u, nvars, be, pool)))
        goto out;
    key->a = key->copies[CZ_ZKEY_SLOT_A] = p;
    cz_setup_scalars_drop(&sc.u, nvars, pool);
    cz_log(CZ_LOG_INFO, "setup", "%s: A points (%u) on %s: %.0f ms", name, nvars, where,
           now_ms() - t);
    t = now_ms();
    if ((st = points_g1(&p, vb, nb, be, pool)))
        goto out;
    key->b1 = key->copies[CZ_ZKEY_SLOT_B1] = p;
    if ((st = points_g2(&q, vb, nb, be, pool)))
        goto out;
    key->b2 = key->copies[CZ_ZKEY_SLOT_B2] = q;
    cz_setup_scalars_drop(&vb, nb, pool);
    cz_log(CZ_LOG_INFO, "setup", "%s: B1 and B2 points (%u) on %s: %.0f ms; the key in %.0f ms",
           name, nb, where, now_ms() - t, now_ms() - t0);

out:
    if (st && err && err_len && !err[0])
        cz_io_fail(st, err, err_len, name, "making the key failed: %s", cz_strerror(st));
    cz_setup_scalars_drop(&vb, nb, pool);
    cz_setup_scalars_free(&sc);
    cz_threadpool_destroy(own);
    if (st) {
        cz_zkey_free(key);
        return st;
    }
    *out = key;
    return CZ_OK;
}

/* ---- a loaded key in compact form ---- */

#define COEF_SLOTS (1u << 17) /* twice the most distinct values: short probes */

typedef struct {
    int32_t *slot;  /* COEF_SLOTS entries: -1 or an index into vals */
    cz_fr *vals;    /* up to 65,536 */
    uint32_t n;
} coef_table;

/* The index of v in the table, added when new; -1 when the table is full. */
static int32_t coef_index(coef_table *t, const cz_fr *v)
{
    uint64_t h = (v->l[0] ^ (v->l[1] * 0x9e3779b97f4a7c15ULL) ^ (v->l[2] >> 7) ^ v->l[3]) *
                 0xff51afd7ed558ccdULL;
    for (uint32_t i = (uint32_t)(h >> 40) & (COEF_SLOTS - 1);; i = (i + 1) & (COEF_SLOTS - 1)) {
        int32_t k = t->slot[i];
        if (k < 0) {
            if (t->n >= 65536)
                return -1;
            t->vals[t->n] = *v;
            t->slot[i] = (int32_t)t->n;
            return (int32_t)t->n++;
        }
        if (cz_fr_eq(&t->vals[k], v))
            return k;
    }
}

/* A CSR matrix as a compact one over the table, columns ascending in
   each row (insertion sort: rows are short). */
static cz_status csr_to_cmat(cz_cmat *out, const cz_csr *q, coef_table *t)
{
    cz_status st = cmat_alloc(out, q->n_rows, q->nnz);
    if (st)
        return st;
    memcpy(out->row_ptr, q->row_ptr, ((size_t)q->n_rows + 1) * sizeof *q->row_ptr);
    for (uint64_t k = 0; k < q->nnz; k++) {
        int32_t ci = coef_index(t, &q->val[k]);
        if (ci < 0) {
            cz_cmat_free(out);
            return CZ_ERR_UNSUPPORTED;
        }
        out->col[k] = q->col[k];
        out->coef[k] = (uint16_t)ci;
    }
    for (uint32_t r = 0; r < q->n_rows; r++)
        for (uint64_t i = q->row_ptr[r] + 1; i < q->row_ptr[r + 1]; i++) {
            uint32_t c = out->col[i];
            uint16_t f = out->coef[i];
            uint64_t j = i;
            for (; j > q->row_ptr[r] && out->col[j - 1] > c; j--) {
                out->col[j] = out->col[j - 1];
                out->coef[j] = out->coef[j - 1];
            }
            out->col[j] = c;
            out->coef[j] = f;
        }
    return CZ_OK;
}

cz_status cz_zkey_compact(cz_zkey *key, char *err, size_t err_len)
{
    static const char *name = "compact key";
    if (err && err_len)
        err[0] = 0;
    if (!key)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL key");
    if (key->compact)
        return CZ_OK;
    if (!key->qa.row_ptr || !key->qb.row_ptr || key->b_idx)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name,
                          "the key has no matrices (loaded to describe it only?)");
    coef_table t = {malloc(COEF_SLOTS * sizeof *t.slot), malloc(65536 * sizeof *t.vals), 0};
    cz_cmat ca, cb;
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    uint8_t *in_b = calloc(key->n_vars ? key->n_vars : 1, 1);
    uint32_t *b_idx = NULL;
    cz_g1_affine *b1 = NULL;
    cz_g2_affine *b2 = NULL;
    cz_status st = CZ_OK;
    if (!t.slot || !t.vals || !in_b) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
        goto out;
    }
    memset(t.slot, 0xff, COEF_SLOTS * sizeof *t.slot);
    if ((st = csr_to_cmat(&ca, &key->qa, &t)) || (st = csr_to_cmat(&cb, &key->qb, &t))) {
        if (st == CZ_ERR_UNSUPPORTED)
            cz_io_fail(st, err, err_len, name,
                       "the matrices have more than 65,536 distinct coefficients");
        else
            cz_io_fail(st, err, err_len, name, "out of memory");
        goto out;
    }
    uint32_t nb = 0;
    for (uint64_t k = 0; k < cb.nnz; k++)
        if (cb.col[k] < key->n_vars && !in_b[cb.col[k]]) {
            in_b[cb.col[k]] = 1;
            nb++;
        }
    b_idx = malloc((nb ? nb : 1) * sizeof *b_idx);
    b1 = malloc((nb ? nb : 1) * sizeof *b1);
    b2 = malloc((nb ? nb : 1) * sizeof *b2);
    cz_fr *vals = realloc(t.vals, (t.n ? t.n : 1) * sizeof *t.vals);
    if (vals)
        t.vals = vals;
    if (!b_idx || !b1 || !b2 || !vals) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
        goto out;
    }
    for (uint32_t s = 0, k = 0; s < key->n_vars; s++)
        if (in_b[s]) {
            b_idx[k] = s;
            b1[k] = key->b1[s];
            b2[k] = key->b2[s];
            k++;
        }
    /* commit */
    free(key->copies[CZ_ZKEY_SLOT_B1]);
    free(key->copies[CZ_ZKEY_SLOT_B2]);
    key->b1 = key->copies[CZ_ZKEY_SLOT_B1] = b1;
    key->b2 = key->copies[CZ_ZKEY_SLOT_B2] = b2;
    key->b_idx = b_idx;
    key->n_b = nb;
    b1 = NULL;
    b2 = NULL;
    b_idx = NULL;
    cz_csr_free(&key->qa);
    cz_csr_free(&key->qb);
    key->ca = ca;
    key->cb = cb;
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    key->coefs = t.vals;
    key->n_coefs = t.n;
    t.vals = NULL;
    key->compact = true;
out:
    cz_cmat_free(&ca);
    cz_cmat_free(&cb);
    free(t.slot);
    free(t.vals);
    free(in_b);
    free(b_idx);
    free(b1);
    free(b2);
    return st;
}
