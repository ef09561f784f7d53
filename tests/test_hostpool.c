/* ctest: labels=unit timeout=300 */
/*
 * test_hostpool.c: the engine's witness buffer pool (src/engine/hostpool.c)
 * without a backend: buffers are reused; a given-back witness never shows
 * to the next holder beyond what that holder overwrites (a reused buffer
 * comes from get() wiped, from get_fill() wiped past the request);
 * get_fill() right after put() takes the buffer being wiped
 * (the wiper stops and gives it back) and never allocates another; many
 * threads getting and putting at once end with every buffer back and the
 * pool destroyed cleanly.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/hostpool.h"

#define MIB ((size_t)1 << 20)

/* bytes [from, to) of b are all zero */
static size_t nonzero(const cz_hostbuf *b, size_t from, size_t to)
{
    const uint8_t *d = b->data;
    size_t bad = 0;
    for (size_t i = from; i < to; i++)
        bad += d[i] != 0;
    return bad;
}

/* bytes [from, to) of b that hold a holder's mark, 0x40..0x4f (a fresh
   buffer holds whatever the allocator left, never a mark: every buffer is
   wiped before it is freed) */
static size_t marked(const cz_hostbuf *b, size_t from, size_t to)
{
    const uint8_t *d = b->data;
    size_t bad = 0;
    for (size_t i = from; i < to; i++)
        bad += (d[i] & 0xf0) == 0x40;
    return bad;
}

static void test_get_lends_zeros(void **state)
{
    (void)state;
    cz_hostpool *p = cz_hostpool_create(NULL, 0, 4);
    assert_non_null(p);
    cz_hostbuf *b = cz_hostpool_get(p, 3 * MIB + 5, 0);
    assert_non_null(b);
    assert_true(b->cap >= 3 * MIB + 5);
    memset(b->data, 0xa5, b->used);
    void *data = b->data;
    cz_hostpool_put(p, b);
    b = cz_hostpool_get(p, 3 * MIB, 0); /* the same buffer, wiped by the wiper or by get() */
    assert_non_null(b);
    assert_ptr_equal(b->data, data);
    assert_int_equal(nonzero(b, 0, 3 * MIB + 5), 0);
    cz_hostpool_stats st;
    cz_hostpool_stats_get(p, &st);
    assert_int_equal(st.allocations, 1);
    assert_int_equal(st.in_use, 1);
    cz_hostpool_put(p, b);
    cz_hostpool_destroy(p);
}

/* get_fill() right after put(), or 5-15 ms after: the wiper is queued or
   in the middle of the wipe; the buffer comes back at once, its bytes
   beyond the new request wiped; never a second allocation. Whether the
   wiper stopped is counted, not required (timing). */
static void test_fill_takes_the_wiped_buffer(void **state)
{
    (void)state;
    cz_hostpool *p = cz_hostpool_create(NULL, 0, 4);
    assert_non_null(p);
    const size_t big = 256 * MIB;
    cz_hostbuf *b = cz_hostpool_get_fill(p, big, 0);
    assert_non_null(b);
    for (int r = 0; r < 12; r++) {
        memset(b->data, 0x11 + r, b->used);
        cz_hostpool_put(p, b);
        /* give the wiper time to take it and start (a 256 MiB wipe is
           tens of ms); without the pause get_fill usually takes it from the
           wiper's queue before the wiper wakes */
        usleep(5000 * (unsigned)(r % 4));
        /* every other round asks for a little less: the old tail must be wiped */
        size_t ask = r % 2 ? big - 3 * MIB - 17 : big;
        b = cz_hostpool_get_fill(p, ask, 0);
        assert_non_null(b);
        assert_int_equal(b->used, ask);
        assert_int_equal(nonzero(b, ask, big), 0);
        /* the holder overwrites all of `ask` (what get_fill promises) */
        memset(b->data, 0, ask);
        b->used = big; /* the next round's put wipes all of it */
    }
    cz_hostpool_stats st;
    cz_hostpool_stats_get(p, &st);
    assert_int_equal(st.allocations, 1);
    print_message("# 12 rounds of put + get_fill of 256 MiB: %llu wipes stopped for the next holder\n",
                  (unsigned long long)st.handovers);
    cz_hostpool_put(p, b);
    cz_hostpool_destroy(p);
}

/* threads that get, write, check and put, some with get_fill */
typedef struct {
    cz_hostpool *p;
    int id;
    size_t bad;
} worker_arg;

static void *worker(void *v)
{
    worker_arg *w = v;
    for (int r = 0; r < 40; r++) {
        size_t ask = (size_t)(8 + (w->id + r) % 5) * MIB;
        int fill = (w->id + r) % 2;
        cz_hostbuf *b = fill ? cz_hostpool_get_fill(w->p, ask, 0) : cz_hostpool_get(w->p, ask, 0);
        if (!b) {
            w->bad++;
            continue;
        }
        /* no earlier holder's bytes: anywhere for get(), past the request
           for get_fill() */
        w->bad += marked(b, fill ? ask : 0, b->cap);
        memset(b->data, 0x40 + w->id, ask);
        cz_hostpool_put(w->p, b);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    cz_hostpool *p = cz_hostpool_create(NULL, 0, 3);
    assert_non_null(p);
    enum { T = 6 };
    pthread_t th[T];
    worker_arg a[T];
    for (int i = 0; i < T; i++) {
        a[i] = (worker_arg){p, i, 0};
        assert_int_equal(pthread_create(&th[i], NULL, worker, &a[i]), 0);
    }
    size_t bad = 0;
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        bad += a[i].bad;
    }
    assert_int_equal(bad, 0);
    cz_hostpool_stats st;
    cz_hostpool_stats_get(p, &st);
    assert_int_equal(st.in_use, 0);
    print_message("# %d threads x 40 rounds: %llu allocations, %llu wipes stopped\n", T,
                  (unsigned long long)st.allocations, (unsigned long long)st.handovers);
    cz_hostpool_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_lends_zeros),
        cmocka_unit_test(test_fill_takes_the_wiped_buffer),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
