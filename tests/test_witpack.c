/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_witpack.c: the packed witness (src/groth16/witpack.c). Unpacking a
 * packed witness gives it back value for value (0s, 1s and the others at
 * their positions, across block and word edges and a ragged tail), on one
 * thread and on a pool; packing is refused where it does not pay (too
 * few values, more than one in 8 neither 0 nor 1) with the form left
 * empty; the byte counts are what crosses and bound what is held; free
 * wipes and empties.
 */
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/witpack.h"
#include "util/threadpool.h"

/* w rebuilt from p, as czd_witness_expand does on the device */
static cz_fr *unpack(const cz_wit_packed *p)
{
    cz_fr *w = calloc(p->n, sizeof *w), one;
    assert_non_null(w);
    cz_fr_one(&one);
    for (size_t i = 0; i < p->n; i++)
        if ((p->bits[i / 32] >> (i % 32)) & 1)
            w[i] = one;
    for (size_t k = 0; k < p->n_other; k++) {
        assert_true(p->idx[k] < p->n);
        if (k)
            assert_true(p->idx[k] > p->idx[k - 1]);
        w[p->idx[k]] = p->vals[k];
    }
    return w;
}

/* a witness of n values: 0s and 1s, and about one in `every` random */
static cz_fr *make(size_t n, unsigned every, cz_rng *rng)
{
    cz_fr *w = malloc(n * sizeof *w);
    assert_non_null(w);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)cz_rng_u64(rng);
        if (every && r % every == 0)
            cz_fr_random(&w[i], rng);
        else if (r & 0x100)
            cz_fr_one(&w[i]);
        else
            memset(&w[i], 0, sizeof w[i]);
    }
    return w;
}

static void round_trip(size_t n, unsigned every, cz_threadpool *pool)
{
    cz_rng rng;
    cz_test_rng(&rng);
    cz_fr *w = make(n, every, &rng);
    /* the others at the block and word edges, and the last value */
    size_t edges[] = {0, 31, 32, CZ_WITPACK_BLOCK - 1, CZ_WITPACK_BLOCK, n - 1};
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
        if (edges[e] < n)
            cz_fr_random(&w[edges[e]], &rng);
    cz_wit_packed p;
    assert_true(cz_wit_pack(&p, w, n, pool));
    assert_ptr_equal(p.w, w);
    assert_int_equal(p.n, n);
    size_t others = 0;
    cz_fr one;
    cz_fr_one(&one);
    for (size_t i = 0; i < n; i++) {
        const uint64_t *l = w[i].l;
        others += (l[0] | l[1] | l[2] | l[3]) && memcmp(&w[i], &one, sizeof one);
    }
    assert_int_equal(p.n_other, others);
    cz_fr *back = unpack(&p);
    assert_memory_equal(back, w, n * sizeof *w);
    assert_int_equal(cz_wit_packed_bytes(&p),
                     (n + 31) / 32 * 4 + others * (4 + sizeof(cz_fr)));
    assert_true(cz_wit_packed_bytes(&p) <= cz_wit_packed_max_bytes(n));
    cz_wit_packed_free(&p);
    assert_null(p.bits);
    assert_null(p.vals);
    assert_int_equal(p.n, 0);
    cz_wit_packed_free(&p); /* twice: no-op */
    free(back);
    free(w);
}

static void test_round_trip_one_thread(void **state)
{
    (void)state;
    cz_threadpool *one = cz_threadpool_create(1);
    assert_non_null(one);
    round_trip(3 * CZ_WITPACK_BLOCK + 77, 64, one);
    cz_threadpool_destroy(one);
}

static void test_round_trip_pool(void **state)
{
    (void)state;
    cz_threadpool *pool = cz_threadpool_create(4);
    assert_non_null(pool);
    round_trip(9 * CZ_WITPACK_BLOCK + 5, 100, pool);
    round_trip(2 * CZ_WITPACK_BLOCK, 9, pool); /* close to the one-in-8 limit */
    round_trip(CZ_WITPACK_BLOCK, 0, pool);     /* only the edges are others */
    cz_threadpool_destroy(pool);
    round_trip(4 * CZ_WITPACK_BLOCK + 1, 1000, NULL); /* the global pool */
}

static void test_refused(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    cz_wit_packed p;
    /* too few values */
    cz_fr *w = make(CZ_WITPACK_BLOCK - 1, 64, &rng);
    memset(&p, 0x5a, sizeof p);
    assert_false(cz_wit_pack(&p, w, CZ_WITPACK_BLOCK - 1, NULL));
    assert_null(p.bits);
    assert_int_equal(p.n_other, 0);
    free(w);
    /* every other value random: far more than one in 8 */
    size_t n = 2 * CZ_WITPACK_BLOCK;
    w = make(n, 2, &rng);
    assert_false(cz_wit_pack(&p, w, n, NULL));
    assert_null(p.bits);
    assert_null(p.idx);
    cz_wit_packed_free(&p); /* an empty form: no-op */
    free(w);
    assert_false(cz_wit_pack(&p, NULL, n, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_one_thread),
        cmocka_unit_test(test_round_trip_pool),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
