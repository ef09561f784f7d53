/*
 * ntt_cache.h: the bookkeeping of the NTT's table cache (cuda/ntt.cu keeps
 * a transform's twiddle tables on the device between calls, one cache per
 * device context).
 *
 * DESIGN. A few slots (CZ_NTT_CACHE_SLOTS), each one block of device
 * memory holding every table one call reads, found by a byte key that
 * holds exactly what the tables are computed from (the field, the kind of
 * call, log2 of the size, the block and direct-table sizes of the plan,
 * and the field elements: the roots w / w^-1, the coset shifts, the
 * scales). Keying by the elements rather than by labels makes a hit mean
 * "the same tables" whatever root convention (generator 5 or 7, BN254's)
 * or direction the caller used. Beside the block a slot keeps `meta`: the
 * host description of the tables (the plan with its device pointers), as
 * opaque bytes. Least recently used slots go first when the slots are
 * full or the bytes would pass the cap; an entry larger than the cap is
 * not kept (the caller then uses its per-call scratch, as without a
 * cache). Memory comes from the caller's alloc / release (cudaMalloc /
 * cudaFree outside the context's arena, so that the arena an MSM sizes
 * itself against is untouched). Not thread-safe: the context's owner
 * serialises calls (the engine's per-device lock). Plain C, host only,
 * so that tests/test_ntt_cache.c checks it without a GPU.
 */
#ifndef CZ_CUDA_NTT_CACHE_H
#define CZ_CUDA_NTT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CZ_NTT_CACHE_SLOTS 8
#define CZ_NTT_CACHE_KEY_MAX 256
#define CZ_NTT_CACHE_META_MAX 1024
#define CZ_NTT_CACHE_DEFAULT_MB 64

typedef struct cz_ntt_cache_entry {
    unsigned char key[CZ_NTT_CACHE_KEY_MAX];
    size_t key_len; /* 0: the slot is free */
    void *block;
    size_t bytes;
    uint64_t stamp; /* last use */
    unsigned char meta[CZ_NTT_CACHE_META_MAX];
} cz_ntt_cache_entry;

typedef struct cz_ntt_cache {
    cz_ntt_cache_entry slot[CZ_NTT_CACHE_SLOTS];
    size_t bytes; /* held by the slots */
    size_t cap;   /* at most this many bytes held; 0: nothing is kept */
    uint64_t clock;
    unsigned long hits, misses, evictions, refused;
    /* block = alloc(user, bytes), NULL when there is no memory;
       release(user, block) */
    void *(*alloc)(void *user, size_t bytes);
    void (*release)(void *user, void *block);
    void *user;
} cz_ntt_cache;

static inline void cz_ntt_cache_init(cz_ntt_cache *c, size_t cap,
                                     void *(*alloc)(void *, size_t),
                                     void (*release)(void *, void *), void *user)
{
    memset(c, 0, sizeof *c);
    c->cap = cap;
    c->alloc = alloc;
    c->release = release;
    c->user = user;
}

/* The slot of `key`, its stamp renewed; NULL (a miss) when none holds it. */
static inline cz_ntt_cache_entry *cz_ntt_cache_find(cz_ntt_cache *c, const void *key, size_t len)
{
    for (int i = 0; i < CZ_NTT_CACHE_SLOTS; i++) {
        cz_ntt_cache_entry *e = &c->slot[i];
        if (e->key_len == len && len && memcmp(e->key, key, len) == 0) {
            e->stamp = ++c->clock;
            c->hits++;
            return e;
        }
    }
    c->misses++;
    return NULL;
}

static inline void cz_ntt_cache_evict(cz_ntt_cache *c, cz_ntt_cache_entry *e)
{
    if (!e->key_len)
        return;
    c->release(c->user, e->block);
    c->bytes -= e->bytes;
    c->evictions++;
    memset(e, 0, sizeof *e);
}

/* A new slot for `key` with a block of `bytes` and a copy of meta
   (meta_len bytes), after evicting the least recently used slots until it
   fits in a free slot and under the cap. NULL, with nothing evicted, when
   the key or meta is too long, the entry alone would pass the cap or
   bytes is 0; NULL when alloc fails (after freeing what it took room
   from: the caller falls back on its scratch). The key must not be in
   the cache already. */
static inline cz_ntt_cache_entry *cz_ntt_cache_insert(cz_ntt_cache *c, const void *key, size_t len,
                                                      size_t bytes, const void *meta,
                                                      size_t meta_len)
{
    if (!len || len > CZ_NTT_CACHE_KEY_MAX || meta_len > CZ_NTT_CACHE_META_MAX || !bytes ||
        bytes > c->cap) {
        c->refused++;
        return NULL;
    }
    for (;;) {
        cz_ntt_cache_entry *free_slot = NULL, *oldest = NULL;
        for (int i = 0; i < CZ_NTT_CACHE_SLOTS; i++) {
            cz_ntt_cache_entry *e = &c->slot[i];
            if (!e->key_len) {
                if (!free_slot)
                    free_slot = e;
            } else if (!oldest || e->stamp < oldest->stamp) {
                oldest = e;
            }
        }
        if (free_slot && c->bytes + bytes <= c->cap) {
            void *block = c->alloc(c->user, bytes);
            if (!block) {
                c->refused++;
                return NULL;
            }
            memcpy(free_slot->key, key, len);
            free_slot->key_len = len;
            free_slot->block = block;
            free_slot->bytes = bytes;
            free_slot->stamp = ++c->clock;
            if (meta_len)
                memcpy(free_slot->meta, meta, meta_len);
            c->bytes += bytes;
            return free_slot;
        }
        if (!oldest) /* cannot happen: bytes <= cap and no slot held */
            return NULL;
        cz_ntt_cache_evict(c, oldest);
    }
}

/* Every slot released (the context's end). */
static inline void cz_ntt_cache_clear(cz_ntt_cache *c)
{
    for (int i = 0; i < CZ_NTT_CACHE_SLOTS; i++)
        cz_ntt_cache_evict(c, &c->slot[i]);
}

#endif
