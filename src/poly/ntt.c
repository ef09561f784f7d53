/*
 * ntt.c: radix-2 NTT over Fr, blocked for the cache. See ntt.h.
 *
 * DESIGN. n = 2^k = 2^b * 2^L. After the bit-reversal permutation the
 * decimation-in-time stages s = 0..k-1 (half-size h = 2^s, butterfly
 * (u, v) -> (u + v*t, u - v*t) with t = w_{2h}^(i mod h)) split in two:
 *  - s < b: the butterflies stay inside blocks of 2^b contiguous elements;
 *    each block runs its b stages in cache.
 *  - s >= b: an index i = j + 2^b*m (j < 2^b) only meets indices with the
 *    same j: each column j is an independent length-2^L problem whose
 *    twiddle at local stage s' = s - b, local index m' = m mod 2^s' is
 *      w_{2^(s+1)}^(j + 2^b m') = w_{2^(s+1)}^j * w_{2^(s'+1)}^m'.
 *    The first factor is w_n^j squared (k-1-s) times; the second comes
 *    from a table of powers of w_{2^L}. A group of C adjacent columns is
 *    gathered row by row (C contiguous elements per row) into a buffer,
 *    transformed, and scattered back. Gathering avoids the cache-set
 *    conflicts that power-of-two strides cause in place.
 * Twiddle table per direction (tw[dir]): [0, 2^b) block twiddles, stage h
 * at offset h-1 holding w_{2h}^t for t < h; [2^b, 2^(b+1)) w_n^j for
 * j < 2^b; then 2^(L-1) powers of w_{2^L} (at least one slot).
 */
#include "poly/ntt.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"

#define COL_BUF_LOG 14  /* elements in a column group buffer: 2^14 = 512 KiB */

static size_t tw_len(unsigned b, unsigned L)
{
    return ((size_t)2 << b) + (L ? (size_t)1 << (L - 1) : 1);
}

static void fr_pow_u64(cz_fr *out, const cz_fr *a, uint64_t e)
{
    cz_fr_pow(out, a, &e, 1);
}

static void build_table(cz_fr *t, const cz_fr *w, unsigned k, unsigned b)
{
    unsigned L = k - b;
    cz_fr one;
    cz_fr_one(&one);
    /* block twiddles: for h = 2^s, s < b: w_{2h} = w^(n/2h) */
    for (unsigned s = 0; s < b; s++) {
        size_t h = (size_t)1 << s;
        cz_fr wh;
        fr_pow_u64(&wh, w, (uint64_t)1 << (k - 1 - s));
        cz_fr *dst = t + h - 1;
        dst[0] = one;
        for (size_t i = 1; i < h; i++)
            cz_fr_mul(&dst[i], &dst[i - 1], &wh);
    }
    t[((size_t)1 << b) - 1] = one; /* unused pad */
    /* w^j, j < 2^b */
    cz_fr *rowp = t + ((size_t)1 << b);
    rowp[0] = one;
    for (size_t j = 1; j < ((size_t)1 << b); j++)
        cz_fr_mul(&rowp[j], &rowp[j - 1], w);
    /* powers of w_{2^L} = w^(2^b) */
    cz_fr *colt = rowp + ((size_t)1 << b);
    colt[0] = one;
    if (L) {
        cz_fr wl;
        fr_pow_u64(&wl, w, (uint64_t)1 << b);
        for (size_t m = 1; m < ((size_t)1 << (L - 1)); m++)
            cz_fr_mul(&colt[m], &colt[m - 1], &wl);
    }
}

cz_status cz_ntt_domain_create_ex(cz_ntt_domain **out, unsigned log_n, cz_ntt_root root,
                                  unsigned blk_log)
{
    *out = NULL;
    if (log_n > CZ_NTT_MAX_LOG || (root != CZ_NTT_ROOT_5 && root != CZ_NTT_ROOT_7) ||
        blk_log > log_n)
        return CZ_ERR_ARG;
    if (blk_log == 0 && log_n > 0)
        blk_log = log_n <= 12 ? log_n : (log_n + 1) / 2;
    if (log_n == 0)
        blk_log = 0;
    cz_ntt_domain *d = calloc(1, sizeof *d);
    if (!d)
        return CZ_ERR_NOMEM;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->root = root;
    d->blk_log = blk_log;

    static const cz_fr r5 = {CZ_FR_ROOT_OF_UNITY_5_MONT}, r7 = {CZ_FR_ROOT_OF_UNITY_7_MONT};
    cz_fr w = root == CZ_NTT_ROOT_5 ? r5 : r7; /* order 2^32 */
    for (unsigned i = log_n + 1; i < CZ_FR_TWO_ADICITY; i++)
        cz_fr_sqr(&w, &w);
    d->omega_2n = w;
    cz_fr_sqr(&d->omega, &w);
    cz_fr_inv(&d->omega_inv, &d->omega);
    cz_fr nn;
    cz_fr_set_u64(&nn, (uint64_t)d->n);
    cz_fr_inv(&d->n_inv, &nn);

    size_t len = tw_len(blk_log, log_n - blk_log);
    for (int dir = 0; dir < 2; dir++) {
        d->tw[dir] = malloc(len * sizeof(cz_fr));
        if (!d->tw[dir]) {
            cz_ntt_domain_destroy(d);
            return CZ_ERR_NOMEM;
        }
        build_table(d->tw[dir], dir ? &d->omega_inv : &d->omega, log_n, blk_log);
    }
    *out = d;
    return CZ_OK;
}

cz_status cz_ntt_domain_create(cz_ntt_domain **out, unsigned log_n, cz_ntt_root root)
{
    return cz_ntt_domain_create_ex(out, log_n, root, 0);
}

void cz_ntt_domain_destroy(cz_ntt_domain *d)
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
    cz_fr *a;
    unsigned k;
} bitrev_ctx;

static void bitrev_fn(void *vctx, size_t b, size_t e, int worker)
{
    bitrev_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        size_t r = bitrev(i, c->k);
        if (i < r) {
            cz_fr t = c->a[i];
            c->a[i] = c->a[r];
            c->a[r] = t;
        }
    }
}

/* ---- block stages ---- */

typedef struct {
    cz_fr *a;
    const cz_fr *tw;
    unsigned b;
} blk_ctx;

static void blk_fn(void *vctx, size_t bb, size_t be, int worker)
{
    blk_ctx *c = vctx;
    size_t B = (size_t)1 << c->b;
    for (size_t blk = bb; blk < be; blk++) {
        cz_fr *x = c->a + blk * B;
        /* stage 0: twiddle 1 */
        if (c->b > 0) {
            for (size_t i = 0; i < B; i += 2) {
                cz_fr u = x[i];
                cz_fr_add(&x[i], &u, &x[i + 1]);
                cz_fr_sub(&x[i + 1], &u, &x[i + 1]);
            }
        }
        for (unsigned s = 1; s < c->b; s++) {
            size_t h = (size_t)1 << s;
            const cz_fr *tw = c->tw + h - 1;
            for (size_t i = 0; i < B; i += 2 * h) {
                cz_fr u = x[i], v = x[i + h]; /* t = 0: twiddle 1 */
                cz_fr_add(&x[i], &u, &v);
                cz_fr_sub(&x[i + h], &u, &v);
                for (size_t t = 1; t < h; t++) {
                    u = x[i + t];
                    cz_fr_mul(&v, &x[i + t + h], &tw[t]);
                    cz_fr_add(&x[i + t], &u, &v);
                    cz_fr_sub(&x[i + t + h], &u, &v);
                }
            }
        }
    }
}

/* ---- column stages ---- */

typedef struct {
    cz_fr *a;
    const cz_fr *rowp, *colt;
    unsigned b, L;
    size_t C;          /* columns per group */
    cz_fr *scratch;    /* per worker: buf (C << L) + twiddles (C << L) */
} col_ctx;

static void col_fn(void *vctx, size_t gb, size_t ge, int worker)
{
    col_ctx *c = vctx;
    const size_t C = c->C, M = (size_t)1 << c->L, stride = (size_t)1 << c->b;
    cz_fr *buf = c->scratch + (size_t)worker * 2 * C * M;
    cz_fr *tw = buf + C * M; /* tw[(h - 1 + t) * C + col] */
    for (size_t g = gb; g < ge; g++) {
        size_t j0 = g * C;
        /* twiddles: base_s' = w_n^j squared (L-1-s') times */
        for (size_t col = 0; col < C; col++) {
            cz_fr base = c->rowp[j0 + col];
            for (unsigned sp = c->L; sp-- > 0;) {
                size_t h = (size_t)1 << sp;
                unsigned sh = c->L - 1 - sp;
                for (size_t t = 0; t < h; t++)
                    cz_fr_mul(&tw[(h - 1 + t) * C + col], &base, &c->colt[t << sh]);
                cz_fr_sqr(&base, &base);
            }
        }
        for (size_t m = 0; m < M; m++)
            memcpy(buf + m * C, c->a + j0 + m * stride, C * sizeof(cz_fr));
        for (unsigned sp = 0; sp < c->L; sp++) {
            size_t h = (size_t)1 << sp;
            for (size_t i = 0; i < M; i += 2 * h) {
                for (size_t t = 0; t < h; t++) {
                    cz_fr *x = buf + (i + t) * C, *y = buf + (i + t + h) * C;
                    const cz_fr *w = tw + (h - 1 + t) * C;
                    for (size_t col = 0; col < C; col++) {
                        cz_fr u = x[col], v;
                        cz_fr_mul(&v, &y[col], &w[col]);
                        cz_fr_add(&x[col], &u, &v);
                        cz_fr_sub(&y[col], &u, &v);
                    }
                }
            }
        }
        for (size_t m = 0; m < M; m++)
            memcpy(c->a + j0 + m * stride, buf + m * C, C * sizeof(cz_fr));
    }
}

/* The column stages without a buffer (used only when the buffers cannot
   be allocated): in place with stride 2^b, one extra product per
   butterfly for the twiddle, one thread. Slow but never fails. */
static void col_inplace(cz_fr *a, const cz_fr *rowp, const cz_fr *colt, unsigned b, unsigned L)
{
    const size_t M = (size_t)1 << L, stride = (size_t)1 << b;
    cz_fr base[32];
    for (size_t j = 0; j < stride; j++) {
        base[L - 1] = rowp[j];
        for (unsigned sp = L - 1; sp-- > 0;)
            cz_fr_sqr(&base[sp], &base[sp + 1]);
        for (unsigned sp = 0; sp < L; sp++) {
            size_t h = (size_t)1 << sp;
            unsigned sh = L - 1 - sp;
            for (size_t i = 0; i < M; i += 2 * h) {
                for (size_t t = 0; t < h; t++) {
                    cz_fr w, u, v;
                    cz_fr_mul(&w, &base[sp], &colt[t << sh]);
                    cz_fr *x = &a[j + (i + t) * stride], *y = &a[j + (i + t + h) * stride];
                    u = *x;
                    cz_fr_mul(&v, y, &w);
                    cz_fr_add(x, &u, &v);
                    cz_fr_sub(y, &u, &v);
                }
            }
        }
    }
}

/* The unscaled transform with w (dir 0) or w^-1 (dir 1). */
static void ntt_core(const cz_ntt_domain *d, cz_fr *a, int dir, cz_threadpool *pool)
{
    unsigned k = d->log_n, b = d->blk_log, L = k - b;
    if (k == 0)
        return;
    const cz_fr *tw = d->tw[dir];

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
    cz_fr *scratch = d->no_buffer ? NULL : malloc((size_t)nw * 2 * (C << L) * sizeof(cz_fr));
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
    cz_fr *a;
    cz_fr c, g;
} scale_ctx;

static void scale_fn(void *vctx, size_t b, size_t e, int worker)
{
    scale_ctx *s = vctx;
    cz_fr p;
    fr_pow_u64(&p, &s->g, (uint64_t)b);
    cz_fr_mul(&p, &p, &s->c);
    for (size_t i = b; i < e; i++) {
        cz_fr_mul(&s->a[i], &s->a[i], &p);
        cz_fr_mul(&p, &p, &s->g);
    }
}

void cz_fr_scale_powers(cz_fr *a, size_t n, const cz_fr *c, const cz_fr *g, cz_threadpool *pool)
{
    scale_ctx s = {.a = a, .g = *g};
    if (c)
        s.c = *c;
    else
        cz_fr_one(&s.c);
    cz_parallel_for(pool, n, 1 << 13, scale_fn, &s);
}

typedef struct {
    cz_fr *a;
    cz_fr c;
} mulc_ctx;

static void mulc_fn(void *vctx, size_t b, size_t e, int worker)
{
    mulc_ctx *m = vctx;
    for (size_t i = b; i < e; i++)
        cz_fr_mul(&m->a[i], &m->a[i], &m->c);
}

/* ---- public transforms ---- */

void cz_ntt_forward(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool)
{
    ntt_core(d, a, 0, pool);
}

void cz_ntt_inverse(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool)
{
    ntt_core(d, a, 1, pool);
    mulc_ctx m = {a, d->n_inv};
    cz_parallel_for(pool, d->n, 1 << 13, mulc_fn, &m);
}

void cz_ntt_coset_forward(const cz_ntt_domain *d, cz_fr *a, const cz_fr *g, cz_threadpool *pool)
{
    cz_fr_scale_powers(a, d->n, NULL, g, pool);
    ntt_core(d, a, 0, pool);
}

void cz_ntt_coset_inverse(const cz_ntt_domain *d, cz_fr *a, const cz_fr *g, cz_threadpool *pool)
{
    cz_fr gi;
    cz_fr_inv(&gi, g);
    ntt_core(d, a, 1, pool);
    cz_fr_scale_powers(a, d->n, &d->n_inv, &gi, pool);
}

void cz_ntt_snarkjs_odd_points(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool)
{
    ntt_core(d, a, 1, pool);
    cz_fr_scale_powers(a, d->n, &d->n_inv, &d->omega_2n, pool); /* 1/n fused */
    ntt_core(d, a, 0, pool);
}

void cz_ntt_filecoin_coset(const cz_ntt_domain *d, cz_fr *a, cz_threadpool *pool)
{
    cz_fr g;
    cz_fr_set_u64(&g, 7);
    ntt_core(d, a, 1, pool);
    cz_fr_scale_powers(a, d->n, &d->n_inv, &g, pool);
    ntt_core(d, a, 0, pool);
}

void cz_ntt_filecoin_h_finish(const cz_ntt_domain *d, cz_fr *h, cz_threadpool *pool)
{
    /* Z(7 w^i) = 7^n - 1 for every i: one constant, folded into the
       coset-inverse scaling together with 1/n. */
    cz_fr g, gi, z, one, c;
    cz_fr_set_u64(&g, 7);
    cz_fr_one(&one);
    fr_pow_u64(&z, &g, (uint64_t)d->n);
    cz_fr_sub(&z, &z, &one);
    cz_fr_inv(&z, &z);
    cz_fr_mul(&c, &z, &d->n_inv);
    cz_fr_inv(&gi, &g);
    ntt_core(d, h, 1, pool);
    cz_fr_scale_powers(h, d->n, &c, &gi, pool);
}
