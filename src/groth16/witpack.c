/*
 * witpack.c: a witness in packed form (witpack.h).
 */
#include <stdlib.h>
#include <string.h>

#include "groth16/witpack.h"

static inline bool is_one(const cz_fr *v, const cz_fr *one)
{
    return v->l[0] == one->l[0] && v->l[1] == one->l[1] && v->l[2] == one->l[2] &&
           v->l[3] == one->l[3];
}

static inline bool is_zero(const cz_fr *v) { return !(v->l[0] | v->l[1] | v->l[2] | v->l[3]); }

typedef struct {
    cz_wit_packed *p;
    cz_fr one;
} pack_job;

/* the variables [*i0, *i1) of block b */
static inline void block_range(const cz_wit_packed *p, size_t b, size_t *i0, size_t *i1)
{
    *i0 = b * CZ_WITPACK_BLOCK;
    *i1 = *i0 + CZ_WITPACK_BLOCK < p->n ? *i0 + CZ_WITPACK_BLOCK : p->n;
}

static void count_blocks(void *arg, size_t b0, size_t b1, int worker)
{
    (void)worker;
    const pack_job *j = arg;
    cz_wit_packed *p = j->p;
    for (size_t b = b0; b < b1; b++) {
        size_t i0, i1, c = 0;
        block_range(p, b, &i0, &i1);
        for (size_t i = i0; i < i1; i += 32) {
            uint32_t word = 0, other = 0;
            size_t e = i + 32 < i1 ? i + 32 : i1;
            for (size_t k = i; k < e; k++) {
                if (is_one(&p->w[k], &j->one))
                    word |= 1u << (k - i);
                else if (!is_zero(&p->w[k]))
                    other |= 1u << (k - i);
            }
            p->bits[i / 32] = word;
            p->oth[i / 32] = other;
            c += (size_t)__builtin_popcount(other);
        }
        p->cnt[b] = c;
    }
}

static void fill_blocks(void *arg, size_t b0, size_t b1, int worker)
{
    (void)worker;
    const pack_job *j = arg;
    cz_wit_packed *p = j->p;
    for (size_t b = b0; b < b1; b++) {
        size_t i0, i1, k = p->cnt[b];
        block_range(p, b, &i0, &i1);
        for (size_t i = i0; i < i1; i += 32)
            for (uint32_t o = p->oth[i / 32]; o; o &= o - 1) {
                size_t at = i + (size_t)__builtin_ctz(o);
                p->idx[k] = (uint32_t)at;
                p->vals[k++] = p->w[at];
            }
    }
}

void cz_wit_packed_free(cz_wit_packed *p)
{
    if (!p)
        return;
    size_t words = (p->n + 31) / 32;
    /* the witness is secret: its bits and values wiped */
    if (p->bits)
        cz_wipe(p->bits, words * sizeof *p->bits);
    if (p->oth)
        cz_wipe(p->oth, words * sizeof *p->oth);
    if (p->idx)
        cz_wipe(p->idx, p->n_other * sizeof *p->idx);
    if (p->vals)
        cz_wipe(p->vals, p->n_other * sizeof *p->vals);
    free(p->bits);
    free(p->oth);
    free(p->idx);
    free(p->vals);
    free(p->cnt);
    memset(p, 0, sizeof *p);
}

bool cz_wit_pack(cz_wit_packed *p, const cz_fr *w, size_t n, cz_threadpool *pool)
{
    memset(p, 0, sizeof *p);
    if (!w || n < CZ_WITPACK_BLOCK || n > UINT32_MAX)
        return false;
    size_t words = (n + 31) / 32;
    p->w = w;
    p->n = n;
    p->nblk = (n + CZ_WITPACK_BLOCK - 1) / CZ_WITPACK_BLOCK;
    p->bits = malloc(words * sizeof *p->bits);
    p->oth = malloc(words * sizeof *p->oth);
    p->cnt = malloc(p->nblk * sizeof *p->cnt);
    if (!p->bits || !p->oth || !p->cnt) {
        cz_wit_packed_free(p);
        return false;
    }
    if (!pool)
        pool = cz_threadpool_global();
    pack_job j = {p, {{0}}};
    cz_fr_one(&j.one);
    cz_parallel_for(pool, p->nblk, 1, count_blocks, &j);
    size_t total = 0;
    for (size_t b = 0; b < p->nblk; b++) {
        size_t c = p->cnt[b];
        p->cnt[b] = total;
        total += c;
    }
    if (total > n / 8) {
        cz_wit_packed_free(p);
        return false;
    }
    p->n_other = total;
    p->idx = malloc((total ? total : 1) * sizeof *p->idx);
    p->vals = malloc((total ? total : 1) * sizeof *p->vals);
    if (!p->idx || !p->vals) {
        cz_wit_packed_free(p);
        return false;
    }
    cz_parallel_for(pool, p->nblk, 1, fill_blocks, &j);
    return true;
}

uint64_t cz_wit_packed_max_bytes(uint64_t n)
{
    /* two bitmaps, the block counts, at most n / 8 positions and values */
    uint64_t words = (n + 31) / 32, others = n / 8;
    return 2 * words * sizeof(uint32_t) + (n / CZ_WITPACK_BLOCK + 1) * sizeof(size_t) +
           others * (sizeof(uint32_t) + sizeof(cz_fr));
}

uint64_t cz_wit_packed_bytes(const cz_wit_packed *p)
{
    return (p->n + 31) / 32 * sizeof(uint32_t) + p->n_other * (sizeof(uint32_t) + sizeof(cz_fr));
}
