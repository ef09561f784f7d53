/*
 * setup.c: a development Groth16 setup that writes snarkjs .zkey files.
 *
 * DESIGN. One party draws the toxic waste tau, alpha, beta, delta (gamma
 * = 1, as in every snarkjs key: gamma2 is the G2 generator), so the key
 * is for development and benchmarks only. With n the smallest power of
 * two >= nConstraints + nPublic + 1 and w = snarkjs's n-th root of unity
 * (generator 5), the Lagrange basis at tau is
 *   L_i(tau) = (tau^n - 1)/n * w^i / (tau - w^i)          (one batch inversion)
 * and per wire s, over the constraints c that use it,
 *   u_s = sum_c A_cs L_c + [s <= nPublic] L_{nC+s}     (snarkjs's extra rows)
 *   v_s = sum_c B_cs L_c,   w_s = sum_c C_cs L_c.
 * The key's points are A_s = u_s G1, B1_s = v_s G1, B2_s = v_s G2,
 * IC_s = (beta u_s + alpha v_s + w_s) G1 (s <= nPublic),
 * C_s = (beta u_s + alpha v_s + w_s)/delta G1 (s > nPublic), and, as the
 * prover evaluates h on the odd points x_j = w_2n^(2j+1) of the 2n-domain
 * (docs/GROTH16.md),
 *   H_j = L^(2n)_(2j+1)(tau)/delta G1 = (tau^2n - 1)/(2n) x_j/(tau - x_j)/delta G1.
 * Fixed-base products use signed 10-bit windows over a table of
 * d 2^(10k) G (26 windows, 512 entries each, affine): at most 26 affine
 * additions per point, done for groups of 256 points at once so that the
 * slope denominators share one inversion per window (~6 products per
 * addition), groups in parallel. Sections are written in snarkjs's order (1, 2, 4, 3, 9, 8, 5, 6,
 * 7, 10) while they are computed, so memory stays at the scalars plus one
 * chunk of points. Section 10 holds a zero circuit hash and no
 * contributions (snarkjs's prover ignores it; `zkey verify` would not
 * accept this key, it has no ceremony transcript).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "groth16/groth16.h"
#include "io/binfile.h"
#include "poly/ntt.h"
#include "util/rng.h"
#include "util/threadpool.h"

#define WIN 10
#define NWIN 26 /* ceil(256 / 10): a 255-bit scalar plus the signed-digit carry */
#define HALF (1 << (WIN - 1))
#define CHUNK 4096

static const uint64_t fp_p[6] = CZ_FP_P;
static const uint64_t fr_p[4] = CZ_FR_P;
static const uint64_t fr_r2[4] = CZ_FR_R2;

/* Signed base-2^10 digits of k (plain limbs, k < 2^255): d_i in
   [-2^9, 2^9], k = sum d_i 2^(10 i). */
static void recode(int16_t d[NWIN], const uint64_t k[4])
{
    int carry = 0;
    for (int i = 0; i < NWIN; i++) {
        unsigned bit = (unsigned)i * WIN;
        unsigned limb = bit / 64, sh = bit % 64;
        uint64_t v = limb < 4 ? k[limb] >> sh : 0;
        if (sh + WIN > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - sh);
        int x = (int)(v & ((1u << WIN) - 1)) + carry;
        if (x > HALF) {
            x -= 1 << WIN;
            carry = 1;
        } else {
            carry = 0;
        }
        d[i] = (int16_t)x;
    }
}

/* Fixed-base tables and multiplication, for G = g1 and g2. */
#define FIXED_BASE(G)                                                                   \
    /* tab[k * HALF + (d - 1)] = d 2^(10 k) base, d = 1..HALF */                        \
    static cz_##G##_affine *G##_table(const cz_##G##_affine *base)                      \
    {                                                                                   \
        size_t nt = (size_t)NWIN * HALF;                                                \
        cz_##G##_affine *tab = malloc(nt * sizeof *tab);                                \
        cz_##G##_jac *j = malloc(nt * sizeof *j);                                       \
        if (!tab || !j) {                                                               \
            free(tab);                                                                  \
            free(j);                                                                    \
            return NULL;                                                                \
        }                                                                               \
        cz_##G##_jac b;                                                                 \
        cz_##G##_jac_from_affine(&b, base);                                             \
        for (int k = 0; k < NWIN; k++) {                                                \
            cz_##G##_jac *row = j + (size_t)k * HALF;                                   \
            row[0] = b;                                                                 \
            for (int d = 1; d < HALF; d++)                                              \
                cz_##G##_jac_add(&row[d], &row[d - 1], &b);                             \
            cz_##G##_jac_add(&b, &row[HALF - 1], &row[HALF - 1]); /* 2^10 b */          \
        }                                                                               \
        cz_##G##_jac_batch_to_affine(tab, j, nt);                                       \
        free(j);                                                                        \
        return tab;                                                                     \
    }                                                                                   \
    static void G##_fixed_mul(cz_##G##_jac *out, const cz_##G##_affine *tab,            \
                              const cz_fr *s)                                           \
    {                                                                                   \
        uint64_t k[4];                                                                  \
        int16_t d[NWIN];                                                                \
        cz_fr_to_limbs(k, s);                                                           \
        recode(d, k);                                                                   \
        cz_##G##_xyzz acc;                                                              \
        cz_##G##_xyzz_infinity(&acc);                                                   \
        for (int i = 0; i < NWIN; i++) {                                                \
            if (d[i] > 0)                                                               \
                cz_##G##_xyzz_add_affine(&acc, &acc, &tab[(size_t)i * HALF + d[i] - 1]);\
            else if (d[i] < 0)                                                          \
                cz_##G##_xyzz_sub_affine(&acc, &acc, &tab[(size_t)i * HALF - d[i] - 1]);\
        }                                                                               \
        cz_##G##_xyzz_to_jac(out, &acc);                                                \
    }

FIXED_BASE(g1)
FIXED_BASE(g2)

/* ---- writing ---- */

typedef struct {
    FILE *f;
    int ok;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    if (w->ok && fwrite(p, 1, n, w->f) != n)
        w->ok = 0;
}

static void put32(writer *w, uint32_t v)
{
    uint8_t b[4];
    cz_put_le32(b, v);
    put(w, b, 4);
}

static void section_header(writer *w, uint32_t id, uint64_t size)
{
    uint8_t b[12];
    cz_put_le32(b, id);
    cz_put_le64(b + 4, size);
    put(w, b, 12);
}

static void put_limbs(writer *w, const uint64_t *l, int n)
{
    for (int i = 0; i < n; i++) {
        uint8_t b[8];
        cz_put_le64(b, l[i]);
        put(w, b, 8);
    }
}

/* Points in memory are the file's bytes (little-endian Montgomery limbs
   on a little-endian host); written limb by limb to stay portable. */
static void put_g1(writer *w, const cz_g1_affine *p)
{
    put_limbs(w, p->x.l, 6);
    put_limbs(w, p->y.l, 6);
}

static void put_g2(writer *w, const cz_g2_affine *p)
{
    put_limbs(w, p->x.c0.l, 6);
    put_limbs(w, p->x.c1.l, 6);
    put_limbs(w, p->y.c0.l, 6);
    put_limbs(w, p->y.c1.l, 6);
}

/* Batched affine fixed-base products: for a group of m points, window by
   window, every accumulator that gets a table entry is updated with an
   affine addition, and the m slope denominators share one inversion
   (Montgomery's trick: 3 products each). Per addition that is ~6 products
   (3 for the shared inversion, slope, its square, one more) against 10
   for an XYZZ mixed addition, and the result is affine already. A rare
   x1 == x2 (doubling or cancellation) takes the complete Jacobian path. */
#define BATCH 256
#define BATCH_FIXED(G, FE, FT)                                                          \
    static void G##_batch_mul(cz_##G##_affine *out, const cz_##G##_affine *tab,         \
                              const cz_fr *sc, size_t m, int16_t (*d)[NWIN], bool *inf, \
                              FT *den, FT *pre, uint32_t *idx, cz_##G##_affine *q)      \
    {                                                                                   \
        for (size_t i = 0; i < m; i++) {                                                \
            uint64_t k[4];                                                              \
            cz_fr_to_limbs(k, &sc[i]);                                                  \
            recode(d[i], k);                                                            \
            inf[i] = true;                                                              \
        }                                                                               \
        for (int w = 0; w < NWIN; w++) {                                                \
            size_t nk = 0;                                                              \
            for (size_t i = 0; i < m; i++) {                                            \
                int dd = d[i][w];                                                       \
                if (!dd)                                                                \
                    continue;                                                           \
                cz_##G##_affine t = tab[(size_t)w * HALF + (dd < 0 ? -dd : dd) - 1];    \
                if (dd < 0)                                                             \
                    cz_##FE##_neg(&t.y, &t.y);                                          \
                if (inf[i]) {                                                           \
                    out[i] = t;                                                         \
                    inf[i] = false;                                                     \
                } else if (cz_##FE##_eq(&out[i].x, &t.x)) {                             \
                    cz_##G##_jac j;                                                     \
                    cz_##G##_jac_from_affine(&j, &out[i]);                              \
                    cz_##G##_jac_add_affine(&j, &j, &t);                                \
                    if (cz_##G##_jac_is_infinity(&j))                                   \
                        inf[i] = true;                                                  \
                    else                                                                \
                        cz_##G##_jac_to_affine(&out[i], &j);                            \
                } else {                                                                \
                    cz_##FE##_sub(&den[nk], &t.x, &out[i].x);                           \
                    q[nk] = t;                                                          \
                    idx[nk++] = (uint32_t)i;                                            \
                }                                                                       \
            }                                                                           \
            if (!nk)                                                                    \
                continue;                                                               \
            pre[0] = den[0];                                                            \
            for (size_t a = 1; a < nk; a++)                                             \
                cz_##FE##_mul(&pre[a], &pre[a - 1], &den[a]);                           \
            FT inv, di;                                                                 \
            cz_##FE##_inv_var(&inv, &pre[nk - 1]);                                      \
            for (size_t a = nk - 1; a > 0; a--) {                                       \
                cz_##FE##_mul(&di, &inv, &pre[a - 1]);                                  \
                cz_##FE##_mul(&inv, &inv, &den[a]);                                     \
                den[a] = di;                                                            \
            }                                                                           \
            den[0] = inv;                                                               \
            for (size_t a = 0; a < nk; a++) {                                           \
                cz_##G##_affine *P = &out[idx[a]];                                      \
                FT l, x3, t;                                                            \
                cz_##FE##_sub(&l, &q[a].y, &P->y);                                      \
                cz_##FE##_mul(&l, &l, &den[a]);            /* slope */                  \
                cz_##FE##_sqr(&x3, &l);                                                 \
                cz_##FE##_sub(&x3, &x3, &P->x);                                         \
                cz_##FE##_sub(&x3, &x3, &q[a].x);                                       \
                cz_##FE##_sub(&t, &P->x, &x3);                                          \
                cz_##FE##_mul(&t, &t, &l);                                              \
                cz_##FE##_sub(&P->y, &t, &P->y);                                        \
                P->x = x3;                                                              \
            }                                                                           \
        }                                                                               \
        for (size_t i = 0; i < m; i++)                                                  \
            if (inf[i])                                                                 \
                cz_##G##_affine_infinity(&out[i]);                                      \
    }

BATCH_FIXED(g1, fp, cz_fp)
BATCH_FIXED(g2, fp2, cz_fp2)

/* out[i] = scalars[i] * base for a chunk, in parallel groups of BATCH. */
typedef struct {
    const cz_fr *scalars;
    const void *tab;
    void *aff;
    int g2;
    _Atomic int failed; /* scratch allocation failed in some worker */
} mul_job;

static void mul_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    mul_job *j = vctx;
    size_t fe = j->g2 ? sizeof(cz_fp2) : sizeof(cz_fp);
    size_t pt = j->g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    int16_t (*d)[NWIN] = malloc(BATCH * sizeof *d);
    bool *inf = malloc(BATCH * sizeof *inf);
    void *den = malloc(BATCH * fe), *pre = malloc(BATCH * fe), *q = malloc(BATCH * pt);
    uint32_t *idx = malloc(BATCH * sizeof *idx);
    if (d && inf && den && pre && q && idx) {
        for (size_t b = begin; b < end; b += BATCH) {
            size_t m = end - b < BATCH ? end - b : BATCH;
            if (j->g2)
                g2_batch_mul((cz_g2_affine *)j->aff + b, j->tab, j->scalars + b, m, d, inf, den,
                             pre, idx, q);
            else
                g1_batch_mul((cz_g1_affine *)j->aff + b, j->tab, j->scalars + b, m, d, inf, den,
                             pre, idx, q);
        }
    } else {
        atomic_store(&j->failed, 1);
    }
    free(d);
    free(inf);
    free(den);
    free(pre);
    free(q);
    free(idx);
}

/* Write the section `id` of n points scalars[i] * base. */
static cz_status write_points(writer *w, uint32_t id, const cz_fr *scalars, size_t n, int g2,
                              const void *tab, cz_threadpool *pool)
{
    size_t psz = g2 ? 192 : 96;
    section_header(w, id, (uint64_t)n * psz);
    void *aff = malloc(CHUNK * (g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine)));
    if (!aff)
        return CZ_ERR_NOMEM;
    for (size_t at = 0; at < n; at += CHUNK) {
        size_t m = n - at < CHUNK ? n - at : CHUNK;
        mul_job mj = {scalars + at, tab, aff, g2, 0};
        cz_parallel_for(pool, m, BATCH, mul_range, &mj);
        if (atomic_load(&mj.failed)) {
            free(aff);
            return CZ_ERR_NOMEM;
        }
        for (size_t i = 0; i < m; i++) {
            if (g2)
                put_g2(w, (cz_g2_affine *)aff + i);
            else
                put_g1(w, (cz_g1_affine *)aff + i);
        }
    }
    free(aff);
    return CZ_OK;
}

/* ---- the setup ---- */

static void fr_pow_u64(cz_fr *out, const cz_fr *a, uint64_t e)
{
    cz_fr_pow(out, a, &e, 1);
}

static cz_status draw(cz_fr *out, cz_rng *rng)
{
    for (int i = 0; i < 100; i++) {
        cz_fr_random(out, rng);
        if (!cz_fr_is_zero(out))
            return CZ_OK;
    }
    return CZ_ERR_INTERNAL;
}

cz_status cz_groth16_setup(const cz_r1cs *cs, const char *path, const cz_setup_opts *opts,
                           char *err, size_t err_len)
{
    if (err && err_len)
        err[0] = 0;
    const uint32_t nvars = cs->n_wires, nc = cs->n_constraints;
    const uint64_t npub64 = (uint64_t)cs->n_pub_out + cs->n_pub_in;
    if (npub64 + 1 > nvars)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, path, "the circuit has more public signals than wires");
    const uint32_t npub = (uint32_t)npub64;
    unsigned log_n = 1;
    while (((uint64_t)1 << log_n) < (uint64_t)nc + npub + 1)
        log_n++;
    if (log_n > CZ_NTT_MAX_LOG)
        return cz_io_fail(CZ_ERR_UNSUPPORTED, err, err_len, path,
                          "circuit too large: domain 2^%u (at most 2^%u)", log_n, CZ_NTT_MAX_LOG);
    const size_t n = (size_t)1 << log_n;

    cz_threadpool *pool = NULL, *own = NULL;
    unsigned threads = opts ? opts->threads : 0;
    if (threads == 0)
        pool = cz_threadpool_global();
    else if (threads > 1)
        pool = own = cz_threadpool_create((int)threads);

    cz_status st = CZ_OK;
    cz_ntt_domain *dom = NULL;
    cz_fr *lag = NULL, *scratch = NULL, *u = NULL, *v = NULL, *ww = NULL, *k = NULL;
    cz_g1_affine *t1 = NULL;
    cz_g2_affine *t2 = NULL;
    writer wr = {NULL, 1};
    cz_fr tau, alpha, beta, delta, dinv;

    cz_rng rng;
    if (opts && opts->seeded)
        cz_rng_seed(&rng, opts->seed ^ 0x63757a6b2d736574ULL); /* "cuzk-set" */
    else
        cz_rng_os(&rng);
    if ((st = cz_ntt_domain_create(&dom, log_n, CZ_NTT_ROOT_5)))
        goto out;
    /* tau must avoid the 2n-th roots of unity (probability ~2n/r) */
    for (;;) {
        cz_fr t2n, one;
        if ((st = draw(&tau, &rng)))
            goto out;
        fr_pow_u64(&t2n, &tau, 2 * (uint64_t)n);
        cz_fr_one(&one);
        if (!cz_fr_eq(&t2n, &one))
            break;
    }
    if ((st = draw(&alpha, &rng)) || (st = draw(&beta, &rng)) || (st = draw(&delta, &rng)))
        goto out;
    cz_fr_inv(&dinv, &delta);

    lag = malloc(n * sizeof *lag);
    scratch = malloc(n * sizeof *scratch);
    u = calloc(nvars, sizeof *u);
    v = calloc(nvars, sizeof *v);
    ww = calloc(nvars, sizeof *ww);
    k = malloc((n > nvars ? n : nvars) * sizeof *k);
    if (!lag || !scratch || !u || !v || !ww || !k) {
        st = CZ_ERR_NOMEM;
        goto out;
    }

    /* Lagrange basis of the n-domain at tau: L_i = zn w^i / (tau - w^i) */
    cz_fr zn, ninv, one, x;
    cz_fr_one(&one);
    fr_pow_u64(&zn, &tau, n);
    cz_fr_sub(&zn, &zn, &one);
    cz_fr_set_u64(&ninv, n);
    cz_fr_inv(&ninv, &ninv);
    cz_fr_mul(&zn, &zn, &ninv);
    x = one;
    for (size_t i = 0; i < n; i++) {
        cz_fr_sub(&lag[i], &tau, &x);
        k[i] = x;
        cz_fr_mul(&x, &x, &dom->omega);
    }
    cz_fr_batch_inv_var(lag, lag, n, scratch);
    for (size_t i = 0; i < n; i++) {
        cz_fr_mul(&lag[i], &lag[i], &k[i]);
        cz_fr_mul(&lag[i], &lag[i], &zn);
    }

    /* u, v, w per wire */
    for (uint32_t c = 0; c < nc; c++) {
        cz_fr *dst[3] = {u, v, ww};
        for (int m = 0; m < 3; m++)
            for (uint64_t t = cs->start[3 * (uint64_t)c + m]; t < cs->start[3 * (uint64_t)c + m + 1]; t++) {
                cz_fr p;
                cz_fr_mul(&p, &cs->terms[t].coef, &lag[c]);
                cz_fr_add(&dst[m][cs->terms[t].wire], &dst[m][cs->terms[t].wire], &p);
            }
    }
    for (uint32_t s = 0; s <= npub; s++)
        cz_fr_add(&u[s], &u[s], &lag[nc + s]);

    /* tables */
    cz_g1_affine g1;
    cz_g2_affine g2;
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    t1 = g1_table(&g1);
    t2 = g2_table(&g2);
    if (!t1 || !t2) {
        st = CZ_ERR_NOMEM;
        goto out;
    }

    wr.f = fopen(path, "wb");
    if (!wr.f) {
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create the file");
        goto out_noerr;
    }
    /* container: 10 sections */
    put(&wr, "zkey", 4);
    put32(&wr, 1);
    put32(&wr, 10);
    /* 1: protocol */
    section_header(&wr, 1, 4);
    put32(&wr, 1);
    /* 2: Groth16 header */
    section_header(&wr, 2, 4 + 48 + 4 + 32 + 12 + 3 * 96 + 3 * 192);
    put32(&wr, 48);
    put_limbs(&wr, fp_p, 6);
    put32(&wr, 32);
    put_limbs(&wr, fr_p, 4);
    put32(&wr, nvars);
    put32(&wr, npub);
    put32(&wr, (uint32_t)n);
    {
        cz_g1_jac j1;
        cz_g2_jac j2;
        cz_g1_affine a1;
        cz_g2_affine a2;
        g1_fixed_mul(&j1, t1, &alpha);
        cz_g1_jac_to_affine(&a1, &j1);
        put_g1(&wr, &a1); /* alpha1 */
        g1_fixed_mul(&j1, t1, &beta);
        cz_g1_jac_to_affine(&a1, &j1);
        put_g1(&wr, &a1); /* beta1 */
        g2_fixed_mul(&j2, t2, &beta);
        cz_g2_jac_to_affine(&a2, &j2);
        put_g2(&wr, &a2); /* beta2 */
        put_g2(&wr, &g2); /* gamma2 = G2 */
        g1_fixed_mul(&j1, t1, &delta);
        cz_g1_jac_to_affine(&a1, &j1);
        put_g1(&wr, &a1); /* delta1 */
        g2_fixed_mul(&j2, t2, &delta);
        cz_g2_jac_to_affine(&a2, &j2);
        put_g2(&wr, &a2); /* delta2 */
    }
    /* 4: coefficients, values coef * R^2 mod r, then the nPublic + 1 extra A rows */
    {
        uint64_t ncoef = 0;
        for (uint32_t c = 0; c < nc; c++)
            ncoef += cs->start[3 * (uint64_t)c + 2] - cs->start[3 * (uint64_t)c];
        ncoef += npub + 1;
        if (ncoef > UINT32_MAX) {
            st = cz_io_fail(CZ_ERR_UNSUPPORTED, err, err_len, path, "too many coefficients");
            goto out_noerr;
        }
        section_header(&wr, 4, 4 + ncoef * 44);
        put32(&wr, (uint32_t)ncoef);
        cz_fr r2;
        cz_fr_from_limbs(&r2, fr_r2);
        uint8_t rec[44];
        for (uint32_t c = 0; c < nc; c++)
            for (int m = 0; m < 2; m++)
                for (uint64_t t = cs->start[3 * (uint64_t)c + m]; t < cs->start[3 * (uint64_t)c + m + 1]; t++) {
                    cz_fr val;
                    uint64_t l[4];
                    cz_fr_mul(&val, &cs->terms[t].coef, &r2);
                    cz_fr_to_limbs(l, &val);
                    cz_put_le32(rec, (uint32_t)m);
                    cz_put_le32(rec + 4, c);
                    cz_put_le32(rec + 8, cs->terms[t].wire);
                    for (int i = 0; i < 4; i++)
                        cz_put_le64(rec + 12 + 8 * i, l[i]);
                    put(&wr, rec, 44);
                }
        for (uint32_t s = 0; s <= npub; s++) {
            uint64_t l[4];
            cz_fr_to_limbs(l, &r2);
            cz_put_le32(rec, 0);
            cz_put_le32(rec + 4, nc + s);
            cz_put_le32(rec + 8, s);
            for (int i = 0; i < 4; i++)
                cz_put_le64(rec + 12 + 8 * i, l[i]);
            put(&wr, rec, 44);
        }
    }
    /* 3: IC, (beta u + alpha v + w) for s <= nPublic; k holds these for all s */
    for (uint32_t s = 0; s < nvars; s++) {
        cz_fr t;
        cz_fr_mul(&k[s], &beta, &u[s]);
        cz_fr_mul(&t, &alpha, &v[s]);
        cz_fr_add(&k[s], &k[s], &t);
        cz_fr_add(&k[s], &k[s], &ww[s]);
    }
    if ((st = write_points(&wr, 3, k, npub + 1, 0, t1, pool)))
        goto out;
    /* 8: C = k / delta for the private signals */
    for (uint32_t s = npub + 1; s < nvars; s++)
        cz_fr_mul(&k[s], &k[s], &dinv);
    /* 9: H_j = (tau^2n - 1)/(2n) x_j / (tau - x_j) / delta, x_j = w_2n^(2j+1) */
    {
        cz_fr z2, x2, c2;
        fr_pow_u64(&z2, &tau, 2 * (uint64_t)n);
        cz_fr_sub(&z2, &z2, &one);
        cz_fr_set_u64(&c2, 2 * (uint64_t)n);
        cz_fr_inv(&c2, &c2);
        cz_fr_mul(&z2, &z2, &c2);
        cz_fr_mul(&z2, &z2, &dinv);
        x2 = dom->omega_2n;
        for (size_t j = 0; j < n; j++) {
            cz_fr_sub(&lag[j], &tau, &x2);
            scratch[j] = x2; /* reused below as the x_j */
            cz_fr_mul(&x2, &x2, &dom->omega);
        }
        cz_fr *sc2 = malloc(n * sizeof *sc2);
        if (!sc2) {
            st = CZ_ERR_NOMEM;
            goto out;
        }
        cz_fr_batch_inv_var(lag, lag, n, sc2);
        cz_wipe(sc2, n * sizeof *sc2);
        free(sc2);
        for (size_t j = 0; j < n; j++) {
            cz_fr_mul(&lag[j], &lag[j], &scratch[j]);
            cz_fr_mul(&lag[j], &lag[j], &z2);
        }
    }
    if ((st = write_points(&wr, 9, lag, n, 0, t1, pool)) ||
        (st = write_points(&wr, 8, k + npub + 1, nvars - npub - 1, 0, t1, pool)) ||
        (st = write_points(&wr, 5, u, nvars, 0, t1, pool)) ||
        (st = write_points(&wr, 6, v, nvars, 0, t1, pool)) ||
        (st = write_points(&wr, 7, v, nvars, 1, t2, pool)))
        goto out;
    /* 10: contributions: a (zero) 64-byte circuit hash, no contributions */
    {
        uint8_t z[64] = {0};
        section_header(&wr, 10, 68);
        put(&wr, z, 64);
        put32(&wr, 0);
    }
out:
    if (st && err && err_len && !(err[0]))
        cz_io_fail(st, err, err_len, path, "setup failed: %s", cz_strerror(st));
out_noerr:
    if (wr.f) {
        if (fclose(wr.f) != 0)
            wr.ok = 0;
        if (!st && !wr.ok)
            st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "write failed (disk full?)");
        if (st)
            remove(path);
    }
    cz_wipe(&tau, sizeof tau);
    cz_wipe(&alpha, sizeof alpha);
    cz_wipe(&beta, sizeof beta);
    cz_wipe(&delta, sizeof delta);
    cz_wipe(&dinv, sizeof dinv);
    cz_wipe(&rng, sizeof rng);
    /* everything derived from tau is toxic waste too */
    if (lag)
        cz_wipe(lag, n * sizeof *lag);
    if (scratch)
        cz_wipe(scratch, n * sizeof *scratch);
    if (u)
        cz_wipe(u, (size_t)nvars * sizeof *u);
    if (v)
        cz_wipe(v, (size_t)nvars * sizeof *v);
    if (ww)
        cz_wipe(ww, (size_t)nvars * sizeof *ww);
    if (k)
        cz_wipe(k, (n > nvars ? n : nvars) * sizeof *k);
    free(lag);
    free(scratch);
    free(u);
    free(v);
    free(ww);
    free(k);
    free(t1);
    free(t2);
    cz_ntt_domain_destroy(dom);
    cz_threadpool_destroy(own);
    return st;
}
