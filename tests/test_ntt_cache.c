/* ctest: labels=unit timeout=120 */
/*
 * test_ntt_cache.c: the bookkeeping of the GPU NTT's table cache
 * (cuda/ntt_cache.h) on the host, with a counting allocator in place of
 * cudaMalloc: hits and misses by key, the slots' and the byte cap's
 * least-recently-used eviction, entries larger than the cap and failed
 * allocations refused without harm, every block released once; then a
 * seeded run of random finds and inserts against a naive model of the
 * same policy. The device side (tables moved into the blocks and read by
 * the passes) is test_gpu_ntt / test_gpu_bn254's, on a GPU.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "../cuda/ntt_cache.h"

/* a counting allocator: blocks are malloc'd, each release must match one */
typedef struct {
    int live, allocs, releases;
    int fail; /* the next alloc fails */
} fake_mem;

static void *fake_alloc(void *user, size_t bytes)
{
    fake_mem *m = user;
    if (m->fail) {
        m->fail = 0;
        return NULL;
    }
    m->live++;
    m->allocs++;
    return malloc(bytes);
}

static void fake_release(void *user, void *block)
{
    fake_mem *m = user;
    assert_non_null(block);
    m->live--;
    m->releases++;
    free(block);
}

static cz_ntt_cache_entry *put(cz_ntt_cache *c, int id, size_t bytes)
{
    int meta = id * 7;
    cz_ntt_cache_entry *e = cz_ntt_cache_insert(c, &id, sizeof id, bytes, &meta, sizeof meta);
    if (e)
        memset(e->block, id & 0xff, bytes); /* the block is usable (ASan checks its size) */
    return e;
}

static int has(cz_ntt_cache *c, int id)
{
    cz_ntt_cache_entry *e = cz_ntt_cache_find(c, &id, sizeof id);
    if (e) {
        int meta;
        memcpy(&meta, e->meta, sizeof meta);
        assert_int_equal(meta, id * 7);
        assert_int_equal(((unsigned char *)e->block)[0], id & 0xff);
    }
    return e != NULL;
}

static void test_hit_miss(void **state)
{
    (void)state;
    fake_mem m = {0};
    cz_ntt_cache c;
    cz_ntt_cache_init(&c, 1000, fake_alloc, fake_release, &m);
    assert_false(has(&c, 1));
    assert_non_null(put(&c, 1, 100));
    assert_true(has(&c, 1));
    assert_false(has(&c, 2));
    /* a key that is a prefix of another is another key */
    unsigned char k3[3] = {1, 0, 0};
    assert_null(cz_ntt_cache_find(&c, k3, sizeof k3));
    assert_int_equal(c.bytes, 100);
    assert_int_equal(c.hits, 1);
    assert_int_equal(c.misses, 3);
    /* refused: empty key, too long a key or meta, 0 bytes, more than the cap */
    unsigned char big[CZ_NTT_CACHE_KEY_MAX + 1] = {0};
    assert_null(cz_ntt_cache_insert(&c, big, 0, 10, NULL, 0));
    assert_null(cz_ntt_cache_insert(&c, big, sizeof big, 10, NULL, 0));
    assert_null(cz_ntt_cache_insert(&c, big, 4, 10, big, CZ_NTT_CACHE_META_MAX + 1));
    assert_null(put(&c, 5, 0));
    assert_null(put(&c, 6, 1001));
    assert_true(has(&c, 1)); /* nothing evicted for them */
    assert_int_equal(m.live, 1);
    cz_ntt_cache_clear(&c);
    assert_int_equal(m.live, 0);
    assert_int_equal(c.bytes, 0);
    assert_false(has(&c, 1));
}

static void test_slots_lru(void **state)
{
    (void)state;
    fake_mem m = {0};
    cz_ntt_cache c;
    cz_ntt_cache_init(&c, 1 << 20, fake_alloc, fake_release, &m);
    for (int i = 0; i < CZ_NTT_CACHE_SLOTS; i++)
        assert_non_null(put(&c, i, 64));
    assert_true(has(&c, 0)); /* 0 is now the most recent; 1 the oldest */
    assert_non_null(put(&c, 100, 64));
    assert_false(has(&c, 1));
    assert_true(has(&c, 0));
    assert_true(has(&c, 100));
    for (int i = 2; i < CZ_NTT_CACHE_SLOTS; i++)
        assert_true(has(&c, i));
    assert_int_equal(m.live, CZ_NTT_CACHE_SLOTS);
    assert_int_equal(c.evictions, 1);
    cz_ntt_cache_clear(&c);
    assert_int_equal(m.live, 0);
    assert_int_equal(m.allocs, m.releases);
}

static void test_byte_cap(void **state)
{
    (void)state;
    fake_mem m = {0};
    cz_ntt_cache c;
    cz_ntt_cache_init(&c, 100, fake_alloc, fake_release, &m);
    assert_non_null(put(&c, 1, 40));
    assert_non_null(put(&c, 2, 40));
    assert_true(has(&c, 1)); /* 2 is the oldest */
    assert_non_null(put(&c, 3, 40));
    assert_false(has(&c, 2));
    assert_true(has(&c, 1));
    assert_int_equal(c.bytes, 80);
    /* one entry the size of the cap takes everything's place */
    assert_non_null(put(&c, 4, 100));
    assert_false(has(&c, 1));
    assert_false(has(&c, 3));
    assert_int_equal(c.bytes, 100);
    assert_int_equal(m.live, 1);
    /* a failed allocation: NULL, the cache still consistent (what was
       evicted for it stays evicted) */
    m.fail = 1;
    assert_null(put(&c, 5, 10));
    assert_false(has(&c, 5));
    assert_true(c.bytes <= 100);
    assert_int_equal(m.live, (int)(c.bytes / 100));
    assert_non_null(put(&c, 6, 10));
    assert_true(has(&c, 6));
    cz_ntt_cache_clear(&c);
    assert_int_equal(m.live, 0);
}

/* random finds and inserts against a model: a list of (key, bytes, stamp) */
typedef struct {
    int key;
    size_t bytes;
    uint64_t stamp;
} model_e;

static size_t model_bytes(const model_e *mod, int nm)
{
    size_t t = 0;
    for (int i = 0; i < nm; i++)
        t += mod[i].bytes;
    return t;
}

static void test_random_vs_model(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    fake_mem m = {0};
    cz_ntt_cache c;
    const size_t cap = 1000;
    cz_ntt_cache_init(&c, cap, fake_alloc, fake_release, &m);
    model_e mod[CZ_NTT_CACHE_SLOTS];
    int nm = 0;
    uint64_t clock = 0;
    int iters = cz_test_iters(20000);
    for (int it = 0; it < iters; it++) {
        int key = (int)(cz_rng_u64(&rng) % 24);
        int j = 0;
        while (j < nm && mod[j].key != key)
            j++;
        int found = has(&c, key);
        assert_int_equal(found, j < nm);
        if (found) {
            mod[j].stamp = ++clock;
            continue;
        }
        size_t bytes = 1 + (size_t)(cz_rng_u64(&rng) % 400);
        /* the model: evict the oldest until a slot is free and it fits */
        while (nm == CZ_NTT_CACHE_SLOTS || model_bytes(mod, nm) + bytes > cap) {
            int o = 0;
            for (int i = 1; i < nm; i++)
                if (mod[i].stamp < mod[o].stamp)
                    o = i;
            mod[o] = mod[--nm];
        }
        mod[nm].key = key;
        mod[nm].bytes = bytes;
        mod[nm++].stamp = ++clock;
        assert_non_null(put(&c, key, bytes));
        assert_int_equal(c.bytes, model_bytes(mod, nm));
        assert_int_equal(m.live, nm);
    }
    for (int i = 0; i < nm; i++)
        assert_true(has(&c, mod[i].key));
    cz_ntt_cache_clear(&c);
    assert_int_equal(m.live, 0);
    assert_int_equal(m.allocs, m.releases);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_miss),
        cmocka_unit_test(test_slots_lru),
        cmocka_unit_test(test_byte_cap),
        cmocka_unit_test(test_random_vs_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
