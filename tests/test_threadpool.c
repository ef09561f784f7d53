/* ctest: labels=unit timeout=120 */
/*
 * test_threadpool.c: the parallel for-loop covers every item exactly once,
 * with valid worker indices, for pools of 1..4 threads, nested loops and
 * loops started from several threads at once on one pool.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util/threadpool.h"

typedef struct {
    atomic_int *hits;
    int pool_size;
    size_t chunk;
    atomic_int bad;
    cz_threadpool *pool;
} cover_ctx;

static void cover_fn(void *vctx, size_t b, size_t e, int worker)
{
    cover_ctx *c = vctx;
    if (worker < 0 || worker >= c->pool_size)
        atomic_fetch_add(&c->bad, 1);
    if (c->chunk && (b % c->chunk != 0 || e - b > c->chunk))
        atomic_fetch_add(&c->bad, 1);
    for (size_t i = b; i < e; i++)
        atomic_fetch_add(&c->hits[i], 1);
}

static void check_cover(cz_threadpool *pool, size_t n, size_t chunk)
{
    cover_ctx c = {.pool_size = cz_threadpool_size(pool), .chunk = chunk, .pool = pool};
    c.hits = calloc(n ? n : 1, sizeof *c.hits);
    atomic_init(&c.bad, 0);
    cz_parallel_for(pool, n, chunk, cover_fn, &c);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(atomic_load(&c.hits[i]), 1);
    assert_int_equal(atomic_load(&c.bad), 0);
    free(c.hits);
}

static void test_cover(void **state)
{
    (void)state;
    check_cover(NULL, 100, 7);
    for (int t = 1; t <= 4; t++) {
        cz_threadpool *pool = cz_threadpool_create(t);
        assert_non_null(pool);
        assert_int_equal(cz_threadpool_size(pool), t);
        size_t sizes[] = {0, 1, 2, 3, 17, 1000, 100003};
        size_t chunks[] = {0, 1, 5, 64, 100000};
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (size_t j = 0; j < sizeof chunks / sizeof *chunks; j++)
                check_cover(pool, sizes[i], chunks[j]);
        cz_threadpool_destroy(pool);
    }
    cz_threadpool_destroy(NULL);
}

/* Nested: each outer item runs an inner loop over 50 items on the same pool. */
typedef struct {
    cz_threadpool *pool;
    atomic_int *hits; /* outer * 50 */
    atomic_int bad;
} nest_ctx;
typedef struct {
    atomic_int *row;
    atomic_int *bad;
} inner_ctx;

static void inner_fn(void *vctx, size_t b, size_t e, int worker)
{
    inner_ctx *c = vctx;
    if (worker != 0) /* nested loops run inline (no cmocka asserts off the main thread) */
        atomic_fetch_add(c->bad, 1);
    for (size_t i = b; i < e; i++)
        atomic_fetch_add(&c->row[i], 1);
}

static void outer_fn(void *vctx, size_t b, size_t e, int worker)
{
    nest_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        inner_ctx ic = {.row = c->hits + i * 50, .bad = &c->bad};
        cz_parallel_for(c->pool, 50, 3, inner_fn, &ic);
    }
}

static void test_nested(void **state)
{
    (void)state;
    cz_threadpool *pool = cz_threadpool_create(3);
    assert_non_null(pool);
    nest_ctx c = {.pool = pool, .hits = calloc(40 * 50, sizeof(atomic_int))};
    atomic_init(&c.bad, 0);
    cz_parallel_for(pool, 40, 1, outer_fn, &c);
    assert_int_equal(atomic_load(&c.bad), 0);
    for (int i = 0; i < 40 * 50; i++)
        assert_int_equal(atomic_load(&c.hits[i]), 1);
    free(c.hits);
    cz_threadpool_destroy(pool);
}

/* Several external threads share one pool. */
typedef struct {
    cz_threadpool *pool;
    int ok;
} caller_arg;

static void *caller_main(void *varg)
{
    caller_arg *a = varg;
    a->ok = 1;
    for (int rep = 0; rep < 20; rep++) {
        size_t n = 5000 + (size_t)rep * 13;
        cover_ctx c = {.pool_size = cz_threadpool_size(a->pool), .chunk = 16, .pool = a->pool};
        c.hits = calloc(n, sizeof *c.hits);
        atomic_init(&c.bad, 0);
        cz_parallel_for(a->pool, n, 16, cover_fn, &c);
        for (size_t i = 0; i < n; i++)
            if (atomic_load(&c.hits[i]) != 1)
                a->ok = 0;
        if (atomic_load(&c.bad))
            a->ok = 0;
        free(c.hits);
    }
    return NULL;
}

static void test_concurrent_callers(void **state)
{
    (void)state;
    cz_threadpool *pool = cz_threadpool_create(3);
    assert_non_null(pool);
    pthread_t th[3];
    caller_arg args[3];
    for (int i = 0; i < 3; i++) {
        args[i].pool = pool;
        assert_int_equal(pthread_create(&th[i], NULL, caller_main, &args[i]), 0);
    }
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].ok, 1);
    }
    cz_threadpool_destroy(pool);
}

static void test_global(void **state)
{
    (void)state;
    cz_threadpool *g = cz_threadpool_global();
    assert_non_null(g);
    assert_ptr_equal(g, cz_threadpool_global());
    assert_true(cz_threadpool_size(g) >= 1);
    assert_true(cz_cpu_count() >= 1);
    check_cover(g, 12345, 0);
    cz_threadpool_destroy(g); /* a no-op for the global pool */
    check_cover(cz_threadpool_global(), 999, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cover),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_global),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
