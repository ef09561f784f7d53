/*
 * fixed_base.c: products k_i G of many scalars with the generator G of G1
 * or G2 on the CPU (a development setup's points).
 *
 * DESIGN. Signed 10-bit windows over a table of d 2^(10k) G (26 windows,
 * 512 entries each, affine, built once per process): at most 26 affine
 * additions per point. The additions are done for groups of 256 points at
 * once, window by window, so that the slope denominators of a group share
 * one inversion (Montgomery's trick: 3 products each); per addition that
 * is ~6 products (3 for the shared inversion, slope, its square, one more)
 * against 10 for an XYZZ mixed addition, and the result is affine already.
 * A rare x1 == x2 (doubling or cancellation) takes the complete Jacobian
 * path. Groups run in parallel on the thread pool.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "groth16/native.h"

#define WIN 10
#define NWIN 26 /* ceil(256 / 10): a 255-bit scalar plus the signed-digit carry */
#define HALF (1 << (WIN - 1))
#define BATCH 256

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

/* tab[k * HALF + (d - 1)] = d 2^(10 k) G, d = 1..HALF */
#define TABLE(G)                                                                        \
    static cz_##G##_affine *G##_tab;                                                    \
    static pthread_once_t G##_once = PTHREAD_ONCE_INIT;                                 \
    static void G##_table_build(void)                                                   \
    {                                                                                   \
        size_t nt = (size_t)NWIN * HALF;                                                \
        cz_##G##_affine *tab = malloc(nt * sizeof *tab), gen;                           \
        cz_##G##_jac *j = malloc(nt * sizeof *j);                                       \
        if (!tab || !j) {                                                               \
            free(tab);                                                                  \
            free(j);                                                                    \
            return;                                                                     \
        }                                                                               \
        cz_##G##_generator(&gen);                                                       \
        cz_##G##_jac b;                                                                 \
        cz_##G##_jac_from_affine(&b, &gen);                                             \
        for (int k = 0; k < NWIN; k++) {                                                \
            cz_##G##_jac *row = j + (size_t)k * HALF;                                   \
            row[0] = b;                                                                 \
            for (int d = 1; d < HALF; d++)                                              \
                cz_##G##_jac_add(&row[d], &row[d - 1], &b);                             \
            cz_##G##_jac_add(&b, &row[HALF - 1], &row[HALF - 1]); /* 2^10 b */          \
        }                                                                               \
        cz_##G##_jac_batch_to_affine(tab, j, nt);                                       \
        free(j);                                                                        \
        G##_tab = tab;                                                                  \
    }                                                                                   \
    static const cz_##G##_affine *G##_table(void)                                       \
    {                                                                                   \
        pthread_once(&G##_once, G##_table_build);                                       \
        return G##_tab;                                                                 \
    }

TABLE(g1)
TABLE(g2)

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

typedef struct {
    const cz_fr *scalars;
    const void *tab;
    void *out;
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
                g2_batch_mul((cz_g2_affine *)j->out + b, j->tab, j->scalars + b, m, d, inf, den,
                             pre, idx, q);
            else
                g1_batch_mul((cz_g1_affine *)j->out + b, j->tab, j->scalars + b, m, d, inf, den,
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

static cz_status fixed_base(void *out, const cz_fr *scalars, size_t n, int g2,
                            cz_threadpool *pool)
{
    const void *tab = g2 ? (const void *)g2_table() : (const void *)g1_table();
    if (!tab)
        return CZ_ERR_NOMEM;
    if (!n)
        return CZ_OK;
    mul_job mj = {scalars, tab, out, g2, 0};
    /* 16 groups a chunk: the scratch of a call is allocated once per chunk */
    cz_parallel_for(pool, n, 16 * BATCH, mul_range, &mj);
    return atomic_load(&mj.failed) ? CZ_ERR_NOMEM : CZ_OK;
}

cz_status cz_fixed_base_g1(cz_g1_affine *out, const cz_fr *scalars, size_t n,
                           cz_threadpool *pool)
{
    return fixed_base(out, scalars, n, 0, pool);
}

cz_status cz_fixed_base_g2(cz_g2_affine *out, const cz_fr *scalars, size_t n,
                           cz_threadpool *pool)
{
    return fixed_base(out, scalars, n, 1, pool);
}
