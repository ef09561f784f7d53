/*
 * fixed_base_impl.h: products k_i G of many scalars with the generator G
 * of G1 or G2 on the CPU (a development setup's points), written once and
 * compiled per curve: fixed_base.c (BLS12-381), setup_bn254.c (BN254).
 *
 * DESIGN. Signed 10-bit windows over a table of d 2^(10k) G (26 windows,
 * 512 entries each, affine, built once per process): at most 26 affine
 * additions per point. The additions are done for groups of 256 points at
 * once, window by window, so that the slope denominators of a group share
 * one inversion (Montgomery's trick: 3 products each); per addition that
 * is ~6 products (3 for the shared inversion, slope, its square, one more)
 * against 10 for an XYZZ mixed addition, and the result is affine already.
 * A rare x1 == x2 (doubling or cancellation) takes the complete Jacobian
 * path. Groups run in parallel on the thread pool. 26 windows cover both
 * curves' scalars (r < 2^255) with the signed-digit carry.
 *
 * The includer defines, as names to paste after cz_ (docs/CURVES.md):
 *   FB_G1, FB_G2    the groups (g1, g2 / bn254_g1, bn254_g2)
 *   FB_FP, FB_FP2   their coordinate fields (fp, fp2 / bn254_fp, bn254_fp2)
 *   FB_FR           the scalar field (fr / bn254_fr)
 *   FB_FN_G1, FB_FN_G2  the names of the two public functions.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define FB_CAT_(a, b) a##b
#define FB_CAT(a, b) FB_CAT_(a, b)
#define FB_T(x) FB_CAT(cz_, x)            /* cz_<x>: a type or a prefix */
#define FB_F(x, op) FB_CAT(FB_CAT(cz_, x), FB_CAT(_, op))

typedef FB_T(FB_FR) fb_scalar;
typedef FB_CAT(FB_T(FB_G1), _affine) fb_g1_affine;
typedef FB_CAT(FB_T(FB_G2), _affine) fb_g2_affine;

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

/* tab[k * HALF + (d - 1)] = d 2^(10 k) G, d = 1..HALF; S names the table
   (g1 or g2), G the group's prefix. */
#define TABLE(S, G)                                                                     \
    static cz_##G##_affine *S##_tab;                                                    \
    static pthread_once_t S##_once = PTHREAD_ONCE_INIT;                                 \
    static void S##_table_build(void)                                                   \
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
        S##_tab = tab;                                                                  \
    }                                                                                   \
    static const cz_##G##_affine *S##_table(void)                                       \
    {                                                                                   \
        pthread_once(&S##_once, S##_table_build);                                       \
        return S##_tab;                                                                 \
    }
#define TABLE_(S, G) TABLE(S, G)

TABLE_(g1, FB_G1)
TABLE_(g2, FB_G2)

#define BATCH_FIXED(S, G, FE, FT)                                                       \
    static void S##_batch_mul(cz_##G##_affine *out, const cz_##G##_affine *tab,         \
                              const fb_scalar *sc, size_t m, int16_t (*d)[NWIN],        \
                              bool *inf, FT *den, FT *pre, uint32_t *idx,               \
                              cz_##G##_affine *q)                                       \
    {                                                                                   \
        for (size_t i = 0; i < m; i++) {                                                \
            uint64_t k[4];                                                              \
            FB_F(FB_FR, to_limbs)(k, &sc[i]);                                           \
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
#define BATCH_FIXED_(S, G, FE, FT) BATCH_FIXED(S, G, FE, FT)

BATCH_FIXED_(g1, FB_G1, FB_FP, FB_T(FB_FP))
BATCH_FIXED_(g2, FB_G2, FB_FP2, FB_T(FB_FP2))

typedef struct {
    const fb_scalar *scalars;
    const void *tab;
    void *out;
    int g2;
    _Atomic int failed; /* scratch allocation failed in some worker */
} mul_job;

static void mul_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    mul_job *j = vctx;
    size_t fe = j->g2 ? sizeof(FB_T(FB_FP2)) : sizeof(FB_T(FB_FP));
    size_t pt = j->g2 ? sizeof(fb_g2_affine) : sizeof(fb_g1_affine);
    int16_t (*d)[NWIN] = malloc(BATCH * sizeof *d);
    bool *inf = malloc(BATCH * sizeof *inf);
    void *den = malloc(BATCH * fe), *pre = malloc(BATCH * fe), *q = malloc(BATCH * pt);
    uint32_t *idx = malloc(BATCH * sizeof *idx);
    if (d && inf && den && pre && q && idx) {
        for (size_t b = begin; b < end; b += BATCH) {
            size_t m = end - b < BATCH ? end - b : BATCH;
            if (j->g2)
                g2_batch_mul((fb_g2_affine *)j->out + b, j->tab, j->scalars + b, m, d, inf, den,
                             pre, idx, q);
            else
                g1_batch_mul((fb_g1_affine *)j->out + b, j->tab, j->scalars + b, m, d, inf, den,
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

static cz_status fixed_base(void *out, const fb_scalar *scalars, size_t n, int g2,
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

cz_status FB_FN_G1(fb_g1_affine *out, const fb_scalar *scalars, size_t n, cz_threadpool *pool)
{
    return fixed_base(out, scalars, n, 0, pool);
}

cz_status FB_FN_G2(fb_g2_affine *out, const fb_scalar *scalars, size_t n, cz_threadpool *pool)
{
    return fixed_base(out, scalars, n, 1, pool);
}

#undef WIN
#undef NWIN
#undef HALF
#undef BATCH
