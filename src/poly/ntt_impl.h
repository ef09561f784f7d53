/*
 * ntt_impl.h: the radix-2 NTT of ntt.h, written once over a scalar field
 * and included by ntt.c (BLS12-381's Fr) and ntt_bn254.c (BN254's Fr),
 * which define
 *   FR, FR_(op)        the field type and its functions (cz_fr / cz_bn254_fr)
 *   NTT_DOM            the domain struct (ntt.h's fields, over FR)
 *   NTT_(op)           the public prefix (cz_ntt_ / cz_bn254_ntt_)
 *   NTT_SCALE_POWERS   the name of the scale-by-powers entry point
 *   NTT_MAX_LOG, NTT_TWO_ADICITY   the largest domain and r's 2-adicity
 *   NTT_ROOT_VALID(root)   whether a cz_ntt_root is offered
 *   NTT_ROOT_DECL, NTT_ROOT(root)  the root of order 2^NTT_TWO_ADICITY
 *   NTT_FULL_SHIFT(out)    (only where NTT_MAX_LOG reaches the 2-adicity)
 *                          omega_2n of the largest domain, which has no
 *                          root of order 2n: snarkjs's coset shift
 * The design (blocks, then column groups gathered into buffers) is ntt.c's
 * comment; everything here is as it was in ntt.c, over the macros.
 */
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"

#define COL_BUF_LOG 14  /* elements in a column group buffer: 2^14 = 512 KiB */

static size_t tw_len(unsigned b, unsigned L)
{
    return ((size_t)2 << b) + (L ? (size_t)1 << (L - 1) : 1);
}

static void fr_pow_u64(FR *out, const FR *a, uint64_t e)
{
    FR_(pow)(out, a, &e, 1);
}

static void build_table(FR *t, const FR *w, unsigned k, unsigned b)
{
    unsigned L = k - b;
    FR one;
    FR_(one)(&one);
    /* block twiddles: for h = 2^s, s < b: w_{2h} = w^(n/2h) */
    for (unsigned s = 0; s < b; s++) {
        size_t h = (size_t)1 << s;
        FR wh;
        fr_pow_u64(&wh, w, (uint64_t)1 << (k - 1 - s));
        FR *dst = t + h - 1;
        dst[0] = one;
        for (size_t i = 1; i < h; i++)
            FR_(mul)(&dst[i], &dst[i - 1], &wh);
    }
    t[((size_t)1 << b) - 1] = one; /* unused pad */
    /* w^j, j < 2^b */
    FR *rowp = t + ((size_t)1 << b);
    rowp[0] = one;
    for (size_t j = 1; j < ((size_t)1 << b); j++)
        FR_(mul)(&rowp[j], &rowp[j - 1], w);
    /* powers of w_{2^L} = w^(2^b) */
    FR *colt = rowp + ((size_t)1 << b);
    colt[0] = one;
    if (L) {
        FR wl;
        fr_pow_u64(&wl, w, (uint64_t)1 << b);
        for (size_t m = 1; m < ((size_t)1 << (L - 1)); m++)
            FR_(mul)(&colt[m], &colt[m - 1], &wl);
    }
}

cz_status NTT_(domain_create_ex)(NTT_DOM **out, unsigned log_n, cz_ntt_root root,
                                  unsigned blk_log)
{
    *out = NULL;
    if (log_n > NTT_MAX_LOG || !NTT_ROOT_VALID(root) || blk_log > log_n)
        return CZ_ERR_ARG;
    if (blk_log == 0 && log_n > 0)
        blk_log = log_n <= 12 ? log_n : (log_n + 1) / 2;
    if (log_n == 0)
        blk_log = 0;
    NTT_DOM *d = calloc(1, sizeof *d);
    if (!d)
        return CZ_ERR_NOMEM;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->root = root;
    d->blk_log = blk_log;

    NTT_ROOT_DECL
    FR w = NTT_ROOT(root); /* order 2^NTT_TWO_ADICITY */
#if NTT_MAX_LOG >= NTT_TWO_ADICITY
    if (log_n == NTT_TWO_ADICITY) {
        /* no root of order 2n: omega_2n is the curve's shift instead */
        d->omega = w;
        NTT_FULL_SHIFT(&d->omega_2n);
    } else
#endif
    {
        for (unsigned i = log_n + 1; i < NTT_TWO_ADICITY; i++)
            FR_(sqr)(&w, &w);
        d->omega_2n = w;
        FR_(sqr)(&d->omega, &w);
    }
    FR_(inv)(&d->omega_inv, &d->omega);
    FR nn;
    FR_(set_u64)(&nn, (uint64_t)d->n);
    FR_(inv)(&d->n_inv, &nn);

    size_t len = tw_len(blk_log, log_n - blk_log);
    for (int dir = 0; dir < 2; dir++) {
        d->tw[dir] = cz_alloc_big(len * sizeof(FR));
        if (!d->tw[dir]) {
            NTT_(domain_destroy)(d);
            return CZ_ERR_NOMEM;
        }
        build_table(d->tw[dir], dir ? &d->omega_inv : &d->omega, log_n, blk_log);
    }
    *out = d;
    return CZ_OK;
}

cz_status NTT_(domain_create)(NTT_DOM **out, unsigned log_n, cz_ntt_root root)
{
    return NTT_(domain_create_ex)(out, log_n, root, 0);
}

void NTT_(domain_destroy)(NTT_DOM *d)
{
    if (!d)
        return;
    free(d->tw[0]);
    free(d->tw[1]);
    free(d);
}

/* ---- bit reversal ---- */

static inline size_t bitrev(size_t x, unsigned k)
{
    uint64_t v = x;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    v = __builtin_bswap64(v);
    return k ? (size_t)(v >> (64 - k)) : 0;
}

typedef struct {
    FR *a;
    unsigned k;
} bitrev_ctx;

static void bitrev_fn(void *vctx, size_t b, size_t e, int worker)
{
    bitrev_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        size_t r = bitrev(i, c->k);
        if (i < r) {
            FR t = c->a[i];
            c->a[i] = c->a[r];
            c->a[r] = t;
        }
    }
}

/* ---- block stages ---- */

typedef struct {
    FR *a;
    const FR *tw;
    unsigned b;
} blk_ctx;

static void blk_fn(void *vctx, size_t bb, size_t be, int worker)
{
    blk_ctx *c = vctx;
    size_t B = (size_t)1 << c->b;
    for (size_t blk = bb; blk < be; blk++) {
        FR *x = c->a + blk * B;
        /* stage 0: twiddle 1 */
        if (c->b > 0) {
            for (size_t i = 0; i < B; i += 2) {
                FR u = x[i];
                FR_(add)(&x[i], &u, &x[i + 1]);
                FR_(sub)(&x[i + 1], &u, &x[i + 1]);
            }
        }
        for (unsigned s = 1; s < c->b; s++) {
            size_t h = (size_t)1 << s;
            const FR *tw = c->tw + h - 1;
            for (size_t i = 0; i < B; i += 2 * h) {
                FR u = x[i], v = x[i + h]; /* t = 0: twiddle 1 */
                FR_(add)(&x[i], &u, &v);
                FR_(sub)(&x[i + h], &u, &v);
                for (size_t t = 1; t < h; t++) {
                    u = x[i + t];
                    FR_(mul)(&v, &x[i + t + h], &tw[t]);
                    FR_(add)(&x[i + t], &u, &v);
                    FR_(sub)(&x[i + t + h], &u, &v);
                }
            }
        }
    }
}

/* ---- column stages ---- */

typedef struct {
    FR *a;
    const FR *rowp, *colt;
    unsigned b, L;
    size_t C;          /* columns per group */
    FR *scratch;    /* per worker: buf (C << L) + twiddles (C << L) */
} col_ctx;

static void col_fn(void *vctx, size_t gb, size_t ge, int worker)
{
    col_ctx *c = vctx;
    const size_t C = c->C, M = (size_t)1 << c->L, stride = (size_t)1 << c->b;
    FR *buf = c->scratch + (size_t)worker * 2 * C * M;
    FR *tw = buf + C * M; /* tw[(h - 1 + t) * C + col] */
    for (size_t g = gb; g < ge; g++) {
        size_t j0 = g * C;
        /* twiddles: base_s' = w_n^j squared (L-1-s') times */
        for (size_t col = 0; col < C; col++) {
            FR base = c->rowp[j0 + col];
            for (unsigned sp = c->L; sp-- > 0;) {
                size_t h = (size_t)1 << sp;
                unsigned sh = c->L - 1 - sp;
                for (size_t t = 0; t < h; t++)
                    FR_(mul)(&tw[(h - 1 + t) * C + col], &base, &c->colt[t << sh]);
                FR_(sqr)(&base, &base);
            }
        }
        for (size_t m = 0; m < M; m++)
            memcpy(buf + m * C, c->a + j0 + m * stride, C * sizeof(FR));
        for (unsigned sp = 0; sp < c->L; sp++) {
            size_t h = (size_t)1 << sp;
            for (size_t i = 0; i < M; i += 2 * h) {
                for (size_t t = 0; t < h; t++) {
                    FR *x = buf + (i + t) * C, *y = buf + (i + t + h) * C;
                    const FR *w = tw + (h - 1 + t) * C;
                    for (size_t col = 0; col < C; col++) {
                        FR u = x[col], v;
                        FR_(mul)(&v, &y[col], &w[col]);
                        FR_(add)(&x[col], &u, &v);
                        FR_(sub)(&y[col], &u, &v);
                    }
                }
            }
        }
        for (size_t m = 0; m < M; m++)
            memcpy(c->a + j0 + m * stride, buf + m * C, C * sizeof(FR));
    }
}

/* The column stages without a buffer (used only when the buffers cannot
   be allocated): in place with stride 2^b, one extra product per
   butterfly for the twiddle, one thread. Slow but never fails. */
static void col_inplace(FR *a, const FR *rowp, const FR *colt, unsigned b, unsigned L)
{
    const size_t M = (size_t)1 << L, stride = (size_t)1 << b;
    FR base[32];
    for (size_t j = 0; j < stride; j++) {
        base[L - 1] = rowp[j];
        for (unsigned sp = L - 1; sp-- > 0;)
            FR_(sqr)(&base[sp], &base[sp + 1]);
        for (unsigned sp = 0; sp < L; sp++) {
            size_t h = (size_t)1 << sp;
            unsigned sh = L - 1 - sp;
            for (size_t i = 0; i < M; i += 2 * h) {
                for (size_t t = 0; t < h; t++) {
                    FR w, u, v;
                    FR_(mul)(&w, &base[sp], &colt[t << sh]);
                    FR *x = &a[j + (i + t) * stride], *y = &a[j + (i + t + h) * stride];
                    u = *x;
                    FR_(mul)(&v, y, &w);
                    FR_(add)(x, &u, &v);
                    FR_(sub)(y, &u, &v);
                }
            }
        }
    }
}

/* The unscaled transform with w (dir 0) or w^-1 (dir 1). */
static void ntt_core(const NTT_DOM *d, FR *a, int dir, cz_threadpool *pool)
{
    unsigned k = d->log_n, b = d->blk_log, L = k - b;
    if (k == 0)
        return;
    const FR *tw = d->tw[dir];

    bitrev_ctx bc = {a, k};
    cz_parallel_for(pool, d->n, 1 << 14, bitrev_fn, &bc);

    blk_ctx kc = {a, tw, b};
    size_t nblk = d->n >> b;
    size_t per = b >= 12 ? 1 : ((size_t)1 << (12 - b)); /* >= 4096 elements a chunk */
    cz_parallel_for(pool, nblk, per, blk_fn, &kc);

    if (L == 0)
        return;
    size_t C = L >= COL_BUF_LOG ? 2 : ((size_t)1 << (COL_BUF_LOG - L));
    if (C > ((size_t)1 << b))
        C = (size_t)1 << b;
    int nw = cz_threadpool_size(pool);
    while (C > 2 && (((size_t)1 << b) / C) < (size_t)(4 * nw))
        C /= 2; /* enough column groups to keep every thread busy */
    FR *scratch = d->no_buffer ? NULL : cz_alloc_big((size_t)nw * 2 * (C << L) * sizeof(FR));
    if (!scratch) {
        col_inplace(a, tw + ((size_t)1 << b), tw + ((size_t)2 << b), b, L);
        return;
    }
    col_ctx cc = {a, tw + ((size_t)1 << b), tw + ((size_t)2 << b), b, L, C, scratch};
    cz_parallel_for(pool, ((size_t)1 << b) / C, 1, col_fn, &cc);
    free(scratch);
}

/* ---- scaling by powers ---- */

typedef struct {
    FR *a;
    FR c, g;
} scale_ctx;

static void scale_fn(void *vctx, size_t b, size_t e, int worker)
{
    scale_ctx *s = vctx;
    FR p;
    fr_pow_u64(&p, &s->g, (uint64_t)b);
    FR_(mul)(&p, &p, &s->c);
    for (size_t i = b; i < e; i++) {
        FR_(mul)(&s->a[i], &s->a[i], &p);
        FR_(mul)(&p, &p, &s->g);
    }
}

void NTT_SCALE_POWERS(FR *a, size_t n, const FR *c, const FR *g, cz_threadpool *pool)
{
    scale_ctx s = {.a = a, .g = *g};
    if (c)
        s.c = *c;
    else
        FR_(one)(&s.c);
    cz_parallel_for(pool, n, 1 << 13, scale_fn, &s);
}

typedef struct {
    FR *a;
    FR c;
} mulc_ctx;

static void mulc_fn(void *vctx, size_t b, size_t e, int worker)
{
    mulc_ctx *m = vctx;
    for (size_t i = b; i < e; i++)
        FR_(mul)(&m->a[i], &m->a[i], &m->c);
}

/* ---- public transforms ---- */

void NTT_(forward)(const NTT_DOM *d, FR *a, cz_threadpool *pool)
{
    ntt_core(d, a, 0, pool);
}

void NTT_(inverse)(const NTT_DOM *d, FR *a, cz_threadpool *pool)
{
    ntt_core(d, a, 1, pool);
    mulc_ctx m = {a, d->n_inv};
    cz_parallel_for(pool, d->n, 1 << 13, mulc_fn, &m);
}

void NTT_(coset_forward)(const NTT_DOM *d, FR *a, const FR *g, cz_threadpool *pool)
{
    NTT_SCALE_POWERS(a, d->n, NULL, g, pool);
    ntt_core(d, a, 0, pool);
}

void NTT_(coset_inverse)(const NTT_DOM *d, FR *a, const FR *g, cz_threadpool *pool)
{
    FR gi;
    FR_(inv)(&gi, g);
    ntt_core(d, a, 1, pool);
    NTT_SCALE_POWERS(a, d->n, &d->n_inv, &gi, pool);
}

void NTT_(snarkjs_odd_points)(const NTT_DOM *d, FR *a, cz_threadpool *pool)
{
    ntt_core(d, a, 1, pool);
    NTT_SCALE_POWERS(a, d->n, &d->n_inv, &d->omega_2n, pool); /* 1/n fused */
    ntt_core(d, a, 0, pool);
}

