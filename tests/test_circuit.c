/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_circuit.c: the constraint system of include/cuzk/circuit.h.
 *
 * Random small circuits (seeded) run in every mode: COUNT, SHAPE, CHECK
 * and WITNESS agree on the counts, the witness satisfies the recorded
 * shape (cz_shape_check), a CHECK run over a buffer yields the same
 * witness, and a circuit made wrong at constraint k fails at k in CHECK
 * mode and in cz_shape_check. The recorded rows are sorted, merged and
 * zero-free; publics come before aux whatever the allocation order. A
 * circuit forked into children run on threads gives the witness of a
 * sequential run, and forks in SHAPE mode the same shape. Errors (wrong
 * counts, NULL values, unsatisfied constraints, unknown variables, the
 * coefficient table's limit, misuse) are reported and never crash. The
 * .r1cs and .wtns exports read back with the project's readers.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/circuit.h"
#include "field/field.h"
#include "groth16/groth16.h"

static void expect_err(cz_cs *cs, cz_status st, const char *needle);

/* ---- a random circuit: it tracks its own values, so it runs in any mode ---- */

#define MAXV 4096

typedef struct {
    cz_var v;
    cz_fr val;
} rvar;

static void rand_coef(cz_rng *rng, cz_fr *c)
{
    switch (cz_rng_u64(rng) % 6) {
    case 0: cz_fr_one(c); break;
    case 1: cz_fr_one(c); cz_fr_neg(c, c); break;
    case 2: cz_fr_set_u64(c, 1 + cz_rng_u64(rng) % 8); break;
    case 3: cz_fr_zero(c); break;
    default: cz_fr_random(c, rng); break;
    }
}

static void rand_lc(cz_rng *rng, cz_lc *lc, cz_fr *val, const rvar *vars, int nv, int max_terms)
{
    cz_fr_zero(val);
    int n = (int)(cz_rng_u64(rng) % (uint64_t)(max_terms + 1));
    for (int i = 0; i < n; i++) {
        int k = (int)(cz_rng_u64(rng) % (uint64_t)nv);
        cz_fr c, x;
        rand_coef(rng, &c);
        assert_true(cz_lc_add(lc, vars[k].v, &c));
        cz_fr_mul(&x, &c, &vars[k].val);
        cz_fr_add(val, val, &x);
        if (cz_rng_u64(rng) % 4 == 0) { /* the same variable again */
            cz_fr_neg(&c, &c);
            cz_fr_add(&c, &c, &c); /* -2c */
            assert_true(cz_lc_add(lc, vars[k].v, &c));
            cz_fr_mul(&x, &c, &vars[k].val);
            cz_fr_add(val, val, &x);
        }
    }
}

/* n_cons constraints; bad_at >= 0 makes that one unsatisfied. */
static void rand_circuit(cz_cs *cs, uint64_t seed, int n_cons, int bad_at)
{
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    static __thread rvar vars[MAXV];
    int nv = 0;
    vars[nv].v = cz_var_one();
    cz_fr_one(&vars[nv++].val);
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    for (int k = 0; k < n_cons && nv < MAXV - 4; k++) {
        uint64_t r = cz_rng_u64(&rng);
        if (r % 5 == 0) {
            cz_fr_random(&vars[nv].val, &rng);
            vars[nv].v = cz_cs_alloc_input(cs, &vars[nv].val);
            nv++;
        } else if (r % 5 == 1) {
            int bit = (int)(r >> 20) & 1;
            cz_fr_set_u64(&vars[nv].val, (uint64_t)bit);
            vars[nv].v = cz_cs_alloc_bit(cs, bit);
            nv++;
        } else if (r % 5 == 2) {
            cz_fr_random(&vars[nv].val, &rng);
            vars[nv].v = cz_cs_alloc(cs, &vars[nv].val);
            nv++;
        }
        cz_fr va, vb, vc, t;
        cz_lc_clear(&a);
        cz_lc_clear(&b);
        cz_lc_clear(&c);
        rand_lc(&rng, &a, &va, vars, nv, 4);
        rand_lc(&rng, &b, &vb, vars, nv, 4);
        rand_lc(&rng, &c, &vc, vars, nv, 3);
        cz_fr_mul(&t, &va, &vb);
        cz_fr_sub(&t, &t, &vc);
        if (k == bad_at) {
            cz_fr one;
            cz_fr_one(&one);
            cz_fr_add(&t, &t, &one);
        }
        vars[nv].val = t;
        vars[nv].v = cz_cs_alloc(cs, &t);
        cz_fr one;
        cz_fr_one(&one);
        assert_true(cz_lc_add(&c, vars[nv].v, &one));
        nv++;
        bool ns = k % 7 == 3;
        if (ns) {
            char name[32];
            snprintf(name, sizeof name, "step %d", k);
            cz_cs_push(cs, "outer");
            cz_cs_push(cs, name);
        }
        cz_cs_enforce(cs, &a, &b, &c);
        if (ns) {
            cz_cs_pop(cs);
            cz_cs_pop(cs);
        }
    }
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

typedef struct {
    uint32_t n_public;
    uint64_t n_aux, n_constraints;
} counts;

static counts count_of(uint64_t seed, int n)
{
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    assert_false(cz_cs_records(cs));
    assert_false(cz_cs_has_values(cs));
    rand_circuit(cs, seed, n, -1);
    assert_int_equal(cz_cs_finish(cs, NULL, 0), CZ_OK);
    counts k = {cz_cs_num_public(cs), cz_cs_num_aux(cs), cz_cs_num_constraints(cs)};
    cz_cs_free(cs);
    return k;
}

static cz_shape *shape_of(uint64_t seed, int n, int bad_at)
{
    cz_cs *cs;
    cz_shape *s = NULL;
    char err[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    assert_true(cz_cs_records(cs));
    rand_circuit(cs, seed, n, bad_at);
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    return s;
}

static cz_fr *witness_of(const counts *k, uint64_t seed, int n, int bad_at)
{
    cz_fr *w = malloc((1 + k->n_public + k->n_aux) * sizeof *w);
    cz_cs *cs;
    char err[256];
    assert_int_equal(cz_cs_new_witness(&cs, w, k->n_public, k->n_aux), CZ_OK);
    assert_false(cz_cs_records(cs));
    assert_true(cz_cs_has_values(cs));
    rand_circuit(cs, seed, n, bad_at);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    assert_int_equal(cz_cs_num_constraints(cs), 0);
    cz_cs_free(cs);
    return w;
}

static void check_rows(const cz_shape *s)
{
    for (int m = 0; m < 3; m++) {
        const cz_shape_matrix *mt = &s->m[m];
        for (uint64_t r = 0; r < s->n_constraints; r++)
            for (uint64_t i = mt->row_ptr[r]; i < mt->row_ptr[r + 1]; i++) {
                assert_true(mt->col[i] < 1 + s->n_public + s->n_aux);
                assert_true(mt->coef[i] < s->n_coefs);
                assert_false(cz_fr_is_zero(&s->coefs[mt->coef[i]]));
                if (i > mt->row_ptr[r])
                    assert_true(mt->col[i - 1] < mt->col[i]);
            }
    }
    cz_fr one;
    cz_fr_one(&one);
    assert_true(cz_fr_eq(&s->coefs[0], &one));
    for (uint32_t i = 0; i < s->n_coefs; i++)
        for (uint32_t j = i + 1; j < s->n_coefs && s->n_coefs < 200; j++)
            assert_false(cz_fr_eq(&s->coefs[i], &s->coefs[j]));
}

static void test_modes_agree(void **state)
{
    (void)state;
    uint64_t seed0 = cz_test_seed();
    int iters = cz_test_iters(30);
    for (int it = 0; it < iters; it++) {
        uint64_t seed = seed0 + (uint64_t)it;
        int n = 1 + (int)(seed % 97);
        counts k = count_of(seed, n);
        assert_int_equal(k.n_constraints, (uint64_t)n);
        cz_shape *s = shape_of(seed, n, -1);
        assert_int_equal(s->n_public, k.n_public);
        assert_int_equal(s->n_aux, k.n_aux);
        assert_int_equal(s->n_constraints, k.n_constraints);
        check_rows(s);
        cz_fr *w = witness_of(&k, seed, n, -1);
        char err[256];
        assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_OK);

        /* CHECK over a buffer: the same witness, the same count */
        uint64_t nw = 1 + k.n_public + k.n_aux;
        cz_fr *w2 = calloc(nw, sizeof *w2);
        cz_cs *cs;
        assert_int_equal(cz_cs_new_check(&cs, w2, k.n_public, k.n_aux), CZ_OK);
        rand_circuit(cs, seed, n, -1);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        assert_int_equal(cz_cs_num_constraints(cs), k.n_constraints);
        cz_cs_free(cs);
        assert_memory_equal(w, w2, nw * sizeof *w);

        /* CHECK with its own values */
        assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
        rand_circuit(cs, seed, n, -1);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        assert_int_equal(cz_cs_num_aux(cs), k.n_aux);
        cz_cs_free(cs);

        /* one changed aux value breaks the shape check (the last aux is
           the last constraint's C term with coefficient 1) */
        uint64_t j = nw - 1;
        cz_fr one;
        cz_fr_one(&one);
        cz_fr_add(&w[j], &w[j], &one);
        assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_ERR_WITNESS);
        free(w);
        free(w2);
        cz_shape_free(s);
    }
}

static unsigned long long failing_constraint(const char *msg)
{
    const char *p = strstr(msg, "constraint ");
    assert_non_null(p);
    return strtoull(p + strlen("constraint "), NULL, 10);
}

static void test_unsatisfied(void **state)
{
    (void)state;
    uint64_t seed0 = cz_test_seed() ^ 0x5555;
    for (int it = 0; it < cz_test_iters(10); it++) {
        uint64_t seed = seed0 + (uint64_t)it;
        int n = 20 + (int)(seed % 50);
        int bad = (int)(seed % (uint64_t)n);
        counts k = count_of(seed, n);
        cz_cs *cs;
        char err[256] = "";
        assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
        rand_circuit(cs, seed, n, bad);
        assert_int_equal(cz_cs_status(cs, err, sizeof err), CZ_ERR_WITNESS);
        assert_int_equal(failing_constraint(err), (unsigned long long)bad);
        assert_non_null(strstr(err, "not satisfied"));
        if (bad % 7 == 3)
            assert_non_null(strstr(err, "outer/step"));
        /* sticky: later constraints do not count and do not replace it */
        assert_int_equal(cz_cs_num_constraints(cs), (uint64_t)bad);
        char err2[256];
        assert_int_equal(cz_cs_finish(cs, err2, sizeof err2), CZ_ERR_WITNESS);
        assert_string_equal(err, err2);
        cz_cs_free(cs);

        /* the shape (of the same structure) and the wrong witness */
        cz_shape *s = shape_of(seed, n, -1);
        cz_fr *w = witness_of(&k, seed, n, bad);
        assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_ERR_WITNESS);
        assert_int_equal(failing_constraint(err), (unsigned long long)bad);
        free(w);
        cz_shape_free(s);
    }
}

/* A long row (3,000 terms over 300 variables, many repeats, some
   cancelling) is sorted, merged and zero-free, with the summed coefficients. */
static void test_long_row(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    for (int it = 0; it < 4; it++) {
        cz_cs *cs;
        char err[256];
        assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
        enum { NV = 300 };
        cz_var v[NV + 1];
        v[NV] = cz_var_one();
        for (int i = 0; i < NV; i++)
            v[i] = i % 3 ? cz_cs_alloc(cs, NULL) : cz_cs_alloc_input(cs, NULL);
        static cz_fr want[NV + 1];
        for (int i = 0; i <= NV; i++)
            cz_fr_zero(&want[i]);
        cz_lc a;
        cz_lc_init(&a);
        for (int t = 0; t < 3000; t++) {
            int k = (int)(cz_rng_u64(&rng) % (it == 3 ? 7 : NV + 1)); /* it 3: few keys */
            if (k == 6 && it == 3)
                k = NV;
            int64_t c = (int64_t)(cz_rng_u64(&rng) % 5) - 2;
            assert_true(cz_lc_add_i64(&a, v[k], c));
            cz_fr f;
            cz_fr_set_u64(&f, (uint64_t)(c < 0 ? -c : c));
            if (c < 0)
                cz_fr_neg(&f, &f);
            cz_fr_add(&want[k], &want[k], &f);
        }
        cz_cs_enforce(cs, &a, NULL, NULL);
        cz_shape *s;
        assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
        uint64_t n_nonzero = 0;
        for (int i = 0; i <= NV; i++)
            n_nonzero += !cz_fr_is_zero(&want[i]);
        assert_int_equal(s->m[0].nnz, n_nonzero);
        for (uint64_t i = 0; i < s->m[0].nnz; i++) {
            if (i)
                assert_true(s->m[0].col[i - 1] < s->m[0].col[i]);
            /* find the variable of this wire */
            int k = -1;
            for (int j = 0; j <= NV && k < 0; j++)
                if (cz_cs_wire(cs, v[j]) == s->m[0].col[i])
                    k = j;
            assert_true(k >= 0);
            assert_true(cz_fr_eq(&s->coefs[s->m[0].coef[i]], &want[k]));
        }
        cz_shape_free(s);
        cz_cs_free(cs);
        cz_lc_free(&a);
    }
}

/* ---- layout ---- */

static void test_layout(void **state)
{
    (void)state;
    cz_cs *cs;
    cz_shape *s;
    char err[256];
    cz_fr v[4];
    for (int i = 0; i < 4; i++)
        cz_fr_set_u64(&v[i], (uint64_t)(i + 2));
    /* aux, input, aux, input: wires 3, 1, 4, 2 */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    cz_var x = cz_cs_alloc(cs, &v[0]);
    cz_var p = cz_cs_alloc_input(cs, &v[1]);
    cz_var y = cz_cs_alloc(cs, &v[2]);
    cz_var q = cz_cs_alloc_input(cs, &v[3]);
    assert_int_equal(cz_cs_wire(cs, x), UINT64_MAX); /* not final yet */
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    assert_true(cz_lc_add_i64(&a, y, 5));
    assert_true(cz_lc_add_i64(&a, q, 1));
    assert_true(cz_lc_add_i64(&a, x, -1));
    assert_true(cz_lc_add_i64(&a, p, 3));
    assert_true(cz_lc_add_i64(&a, cz_var_one(), 7));
    assert_true(cz_lc_add_i64(&a, y, -5)); /* cancels */
    assert_true(cz_lc_add_pow2(&b, p, 254, true));
    assert_false(cz_lc_add_pow2(&b, p, 255, false));
    cz_cs_enforce(cs, &a, &b, &c);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    assert_int_equal(cz_cs_wire(cs, cz_var_one()), 0);
    assert_int_equal(cz_cs_wire(cs, p), 1);
    assert_int_equal(cz_cs_wire(cs, q), 2);
    assert_int_equal(cz_cs_wire(cs, x), 3);
    assert_int_equal(cz_cs_wire(cs, y), 4);
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
    /* a finished shape takes nothing more */
    cz_cs_enforce(cs, &a, &b, &c);
    expect_err(cs, CZ_ERR_ARG, "after the shape was finished");
    cz_shape *s_again;
    assert_int_equal(cz_cs_take_shape(cs, &s_again, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_alloc(cs, NULL);
    expect_err(cs, CZ_ERR_ARG, "allocated after the shape was finished");
    cz_cs_free(cs);
    assert_int_equal(s->n_public, 2);
    assert_int_equal(s->n_aux, 2);
    assert_int_equal(s->m[0].nnz, 4);
    uint32_t want[4] = {0, 1, 2, 3};
    assert_memory_equal(s->m[0].col, want, sizeof want);
    cz_fr c7, c3, m1;
    cz_fr_set_u64(&c7, 7);
    cz_fr_set_u64(&c3, 3);
    cz_fr_one(&m1);
    cz_fr_neg(&m1, &m1);
    assert_true(cz_fr_eq(&s->coefs[s->m[0].coef[0]], &c7));
    assert_true(cz_fr_eq(&s->coefs[s->m[0].coef[1]], &c3));
    assert_int_equal(s->m[0].coef[2], 0);
    assert_true(cz_fr_eq(&s->coefs[s->m[0].coef[3]], &m1));
    assert_int_equal(s->m[1].nnz, 1);
    assert_int_equal(s->m[2].nnz, 0);
    cz_shape_free(s);

    /* WITNESS: the same order of allocation lands on the same wires */
    cz_fr w[5];
    assert_int_equal(cz_cs_new_witness(&cs, w, 2, 2), CZ_OK);
    x = cz_cs_alloc(cs, &v[0]);
    p = cz_cs_alloc_input(cs, &v[1]);
    y = cz_cs_alloc(cs, &v[2]);
    q = cz_cs_alloc_input(cs, &v[3]);
    assert_int_equal(cz_cs_wire(cs, x), 3);
    assert_int_equal(cz_cs_wire(cs, q), 2);
    cz_fr got;
    cz_cs_value(cs, &got, y);
    assert_true(cz_fr_eq(&got, &v[2]));
    cz_cs_lc_value(cs, &got, &a); /* 7 + 3*3 + 5 - 2 = 19 (y cancels) */
    cz_fr want19;
    cz_fr_set_u64(&want19, 19);
    assert_true(cz_fr_eq(&got, &want19));
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_true(cz_fr_eq(&w[1], &v[1]) && cz_fr_eq(&w[2], &v[3]));
    assert_true(cz_fr_eq(&w[3], &v[0]) && cz_fr_eq(&w[4], &v[2]));
    cz_fr one;
    cz_fr_one(&one);
    assert_true(cz_fr_eq(&w[0], &one));
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

/* ---- fork / join ---- */

#define KIDS 6
#define KID_BITS 5000
#define KID_NUMS 37

/* One child's work: 1 input, KID_BITS bits, KID_NUMS field values, each
   bit constrained boolean. Deterministic in k. */
static void kid_body(cz_cs *cs, int k)
{
    cz_rng rng;
    cz_rng_seed(&rng, 1000 + (uint64_t)k);
    cz_fr x;
    cz_fr_set_u64(&x, (uint64_t)k * 77 + 1);
    cz_cs_alloc_input(cs, &x);
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    for (int i = 0; i < KID_BITS; i++) {
        int bit = (int)(cz_rng_u64(&rng) & 1);
        cz_var v = cz_cs_alloc_bit(cs, bit);
        if (cz_cs_records(cs)) {
            cz_lc_clear(&a);
            cz_lc_clear(&b);
            cz_lc_add_i64(&a, cz_var_one(), 1);
            cz_lc_add_i64(&a, v, -1);
            cz_lc_add_i64(&b, v, 1);
        }
        cz_cs_enforce(cs, &a, &b, &c);
        if (i % (KID_BITS / KID_NUMS) == 0 && i / (KID_BITS / KID_NUMS) < KID_NUMS) {
            cz_fr_random(&x, &rng);
            cz_cs_alloc(cs, &x);
        }
    }
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

static void parent_head(cz_cs *cs)
{
    cz_fr x;
    cz_fr_set_u64(&x, 99);
    cz_cs_alloc(cs, &x);
    cz_cs_alloc_input(cs, &x);
}

typedef struct {
    cz_cs *cs;
    int k;
} kid_job;

static void *kid_thread(void *p)
{
    kid_job *j = p;
    kid_body(j->cs, j->k);
    return NULL;
}

static void test_fork_join(void **state)
{
    (void)state;
    char err[256];
    counts k;
    /* sequential reference, and its counts */
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    parent_head(cs);
    for (int i = 0; i < KIDS; i++)
        kid_body(cs, i);
    k.n_public = cz_cs_num_public(cs);
    k.n_aux = cz_cs_num_aux(cs);
    cz_cs_free(cs);
    uint64_t nw = 1 + k.n_public + k.n_aux;
    cz_fr *ws = malloc(nw * sizeof *ws), *wp = malloc(nw * sizeof *wp);
    assert_int_equal(cz_cs_new_witness(&cs, ws, k.n_public, k.n_aux), CZ_OK);
    parent_head(cs);
    for (int i = 0; i < KIDS; i++)
        kid_body(cs, i);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);

    /* forked: every child on its own thread */
    uint64_t kid_aux = KID_BITS + KID_NUMS;
    assert_int_equal(cz_cs_new_witness(&cs, wp, k.n_public, k.n_aux), CZ_OK);
    parent_head(cs);
    cz_cs *kids[KIDS];
    pthread_t th[KIDS];
    kid_job jobs[KIDS];
    for (int i = 0; i < KIDS; i++) {
        assert_int_equal(cz_cs_fork(cs, &kids[i], 1, kid_aux), CZ_OK);
        assert_int_equal(cz_cs_mode_of(kids[i]), CZ_CS_WITNESS);
    }
    for (int i = KIDS - 1; i >= 0; i--) { /* started in reverse order */
        jobs[i] = (kid_job){kids[i], i};
        assert_int_equal(pthread_create(&th[i], NULL, kid_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < KIDS; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(cz_cs_num_aux(kids[i]), kid_aux);
        assert_int_equal(cz_cs_join(cs, kids[i]), CZ_OK);
    }
    assert_int_equal(cz_cs_num_aux(cs), k.n_aux);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_memory_equal(ws, wp, nw * sizeof *ws);

    /* SHAPE: forks forward to the parent and give the same shape */
    cz_shape *s1, *s2;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    parent_head(cs);
    for (int i = 0; i < KIDS; i++)
        kid_body(cs, i);
    assert_int_equal(cz_cs_take_shape(cs, &s1, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    parent_head(cs);
    for (int i = 0; i < KIDS; i++) {
        cz_cs *kid;
        assert_int_equal(cz_cs_fork(cs, &kid, 1, kid_aux), CZ_OK);
        kid_body(kid, i);
        assert_int_equal(cz_cs_num_public(kid), 1);
        assert_int_equal(cz_cs_join(cs, kid), CZ_OK);
    }
    assert_int_equal(cz_cs_take_shape(cs, &s2, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_int_equal(s1->n_constraints, s2->n_constraints);
    assert_int_equal(s1->n_aux, s2->n_aux);
    for (int m = 0; m < 3; m++) {
        assert_int_equal(s1->m[m].nnz, s2->m[m].nnz);
        assert_memory_equal(s1->m[m].col, s2->m[m].col, s1->m[m].nnz * sizeof(uint32_t));
        assert_memory_equal(s1->m[m].row_ptr, s2->m[m].row_ptr,
                            (s1->n_constraints + 1) * sizeof(uint64_t));
    }
    assert_int_equal(cz_shape_check(s2, wp, err, sizeof err), CZ_OK);
    cz_shape_free(s1);
    cz_shape_free(s2);

    /* CHECK mode with forks */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    parent_head(cs);
    for (int i = 0; i < KIDS; i++) {
        cz_cs *kid;
        assert_int_equal(cz_cs_fork(cs, &kid, 1, kid_aux), CZ_OK);
        kid_body(kid, i);
        assert_int_equal(cz_cs_join(cs, kid), CZ_OK);
    }
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    assert_int_equal(cz_cs_num_constraints(cs), (uint64_t)KIDS * KID_BITS);
    cz_cs_free(cs);
    free(ws);
    free(wp);
}

/* ---- errors ---- */

static void expect_err(cz_cs *cs, cz_status st, const char *needle)
{
    char err[512] = "";
    assert_int_equal(cz_cs_status(cs, err, sizeof err), st);
    if (!strstr(err, needle))
        fail_msg("message '%s' lacks '%s'", err, needle);
}

static void test_errors(void **state)
{
    (void)state;
    cz_cs *cs, *kid;
    cz_fr x, w[8];
    char err[256];
    cz_fr_set_u64(&x, 5);

    assert_int_equal(cz_cs_new(&cs, CZ_CS_WITNESS), CZ_ERR_ARG);
    assert_null(cs);
    assert_int_equal(cz_cs_new_witness(&cs, NULL, 0, 1), CZ_ERR_ARG);
    assert_int_equal(cz_cs_new_check(&cs, NULL, 1, 1), CZ_ERR_ARG);
    assert_int_equal(cz_cs_new(NULL, CZ_CS_COUNT), CZ_ERR_ARG);
    assert_int_equal(cz_cs_new(&cs, (cz_cs_mode)9), CZ_ERR_ARG);
    cz_cs_free(NULL);
    cz_shape_free(NULL);
    assert_int_equal(cz_cs_status(NULL, err, sizeof err), CZ_ERR_ARG);

    /* WITNESS: too few, too many (the buffer is never overrun), NULL value */
    cz_fr canary;
    cz_fr_set_u64(&canary, 0xc0ffee);
    for (int i = 0; i < 8; i++)
        w[i] = canary;
    assert_int_equal(cz_cs_new_witness(&cs, w, 1, 2), CZ_OK);
    cz_cs_alloc_input(cs, &x);
    cz_cs_alloc(cs, &x);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_WITNESS);
    assert_non_null(strstr(err, "1 aux"));
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new_witness(&cs, w, 1, 2), CZ_OK);
    for (int i = 0; i < 5; i++) {
        cz_cs_alloc_bit(cs, 1);
        cz_cs_alloc_input(cs, &x);
    }
    expect_err(cs, CZ_ERR_WITNESS, "more public variables than the 1 of the witness buffer");
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new_witness(&cs, w, 1, 2), CZ_OK);
    for (int i = 0; i < 5; i++)
        cz_cs_alloc_bit(cs, 1);
    expect_err(cs, CZ_ERR_WITNESS, "more aux variables than the 2 of the witness buffer");
    cz_cs_free(cs);
    for (int i = 4; i < 8; i++)
        assert_true(cz_fr_eq(&w[i], &canary));
    assert_int_equal(cz_cs_new_witness(&cs, w, 0, 2), CZ_OK);
    cz_cs_alloc(cs, NULL);
    cz_cs_alloc(cs, &x);
    expect_err(cs, CZ_ERR_ARG, "without a value");
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    cz_cs_alloc_input(cs, NULL);
    expect_err(cs, CZ_ERR_ARG, "without a value");
    cz_cs_free(cs);

    /* values in a mode without them */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    cz_var v = cz_cs_alloc(cs, NULL);
    cz_cs_value(cs, &x, v);
    assert_true(cz_fr_is_zero(&x));
    expect_err(cs, CZ_ERR_ARG, "without values");
    cz_shape *s;
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_ERR_ARG);
    assert_null(s);
    cz_cs_free(cs);

    /* a constraint over a variable never allocated, in SHAPE and CHECK */
    for (int mode = 0; mode < 2; mode++) {
        assert_int_equal(cz_cs_new(&cs, mode ? CZ_CS_CHECK : CZ_CS_SHAPE), CZ_OK);
        cz_fr_set_u64(&x, 5);
        cz_cs_alloc(cs, &x);
        cz_lc a;
        cz_lc_init(&a);
        cz_var ghost = {7};
        cz_lc_add_i64(&a, ghost, 1);
        cz_cs_push(cs, "ns");
        cz_cs_enforce(cs, &a, &a, &a);
        expect_err(cs, CZ_ERR_ARG, "ns: constraint 0 uses aux 7, which was never allocated");
        cz_lc_free(&a);
        cz_cs_free(cs);
    }

    /* pop without push, push left open */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    cz_cs_pop(cs);
    expect_err(cs, CZ_ERR_ARG, "without a namespace");
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    cz_cs_push(cs, "open");
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);

    /* cz_cs_fail: the first error sticks */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    cz_cs_push(cs, "gadget");
    assert_int_equal(cz_cs_fail(cs, CZ_ERR_RANGE, "value %d too big", 300), CZ_ERR_RANGE);
    cz_cs_fail(cs, CZ_ERR_ARG, "second");
    expect_err(cs, CZ_ERR_RANGE, "gadget: value 300 too big");
    cz_cs_free(cs);

    /* fork: a child that uses less than it reserved; one that reserves past the end */
    for (int mode = 0; mode < 2; mode++) {
        if (mode)
            assert_int_equal(cz_cs_new_witness(&cs, w, 0, 4), CZ_OK);
        else
            assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
        assert_int_equal(cz_cs_fork(cs, &kid, 0, 3), CZ_OK);
        cz_fr_set_u64(&x, 1);
        cz_cs_alloc(kid, &x);
        assert_int_equal(cz_cs_join(cs, kid), CZ_ERR_WITNESS);
        expect_err(cs, CZ_ERR_WITNESS, "reserved 0 public and 3 aux variables but allocated 0 and 1");
        cz_cs_free(cs);
    }
    assert_int_equal(cz_cs_new_witness(&cs, w, 0, 4), CZ_OK);
    assert_int_equal(cz_cs_fork(cs, &kid, 0, 5), CZ_ERR_WITNESS);
    assert_non_null(kid); /* an empty child: its calls fail, never write */
    cz_cs_alloc_bit(kid, 1);
    assert_int_equal(cz_cs_join(cs, kid), CZ_ERR_WITNESS);
    expect_err(cs, CZ_ERR_WITNESS, "past the");
    cz_cs_free(cs);
    /* a child that allocates past its reservation */
    assert_int_equal(cz_cs_new_witness(&cs, w, 0, 4), CZ_OK);
    assert_int_equal(cz_cs_fork(cs, &kid, 0, 1), CZ_OK);
    cz_cs_alloc_bit(kid, 1);
    cz_cs_alloc_bit(kid, 1);
    assert_int_equal(cz_cs_join(cs, kid), CZ_ERR_WITNESS);
    expect_err(cs, CZ_ERR_WITNESS, "more aux variables than the 1 reserved");
    cz_cs_free(cs);
    assert_int_equal(cz_cs_join(NULL, NULL), CZ_ERR_ARG);

    /* cz_shape_check on a short witness is the caller's; a wrong w[0] is caught */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    cz_fr_zero(&w[0]);
    assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_ERR_WITNESS);
    assert_int_equal(cz_shape_check(NULL, w, err, sizeof err), CZ_ERR_ARG);
    assert_int_equal(cz_shape_write_r1cs(s, "/nonexistent-dir/x.r1cs", err, sizeof err), CZ_ERR_IO);
    cz_shape_free(s);
}

static void test_coef_table_limit(void **state)
{
    (void)state;
    cz_cs *cs;
    char err[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    cz_var x = cz_cs_alloc(cs, NULL);
    cz_lc a;
    cz_lc_init(&a);
    /* coefficients 1..65535: 65,535 distinct, the table's limit */
    for (uint64_t c = 1; c <= 65535; c++) {
        cz_lc_clear(&a);
        cz_lc_add_i64(&a, x, (int64_t)c);
        cz_cs_enforce(cs, &a, NULL, NULL);
    }
    assert_int_equal(cz_cs_status(cs, err, sizeof err), CZ_OK);
    /* repeats are free */
    cz_cs_enforce(cs, &a, &a, &a);
    assert_int_equal(cz_cs_status(cs, err, sizeof err), CZ_OK);
    cz_lc_clear(&a);
    cz_lc_add_i64(&a, x, 65536);
    cz_cs_enforce(cs, &a, NULL, NULL);
    expect_err(cs, CZ_ERR_RANGE, "more than 65535 distinct coefficients");
    assert_int_equal(cz_cs_num_constraints(cs), 65536);
    cz_shape *s;
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_ERR_RANGE);
    cz_cs_free(cs);
    cz_lc_free(&a);
}

/* ---- export ---- */

static void test_export(void **state)
{
    (void)state;
    uint64_t seed = cz_test_seed() + 77;
    int n = 60;
    counts k = count_of(seed, n);
    cz_shape *s = shape_of(seed, n, -1);
    cz_fr *w = witness_of(&k, seed, n, -1);
    char err[256], r1cs[256], wtns[256];
    snprintf(r1cs, sizeof r1cs, "/tmp/cz_test_circuit_%d.r1cs", (int)getpid());
    snprintf(wtns, sizeof wtns, "/tmp/cz_test_circuit_%d.wtns", (int)getpid());
    assert_int_equal(cz_shape_write_r1cs(s, r1cs, err, sizeof err), CZ_OK);
    uint64_t nw = 1 + k.n_public + k.n_aux;
    assert_int_equal(cz_witness_write_wtns(w, nw, wtns, err, sizeof err), CZ_OK);
    cz_r1cs *r;
    assert_int_equal(cz_r1cs_load(&r, r1cs, err, sizeof err), CZ_OK);
    assert_int_equal(r->n_wires, nw);
    assert_int_equal(r->n_pub_in, k.n_public);
    assert_int_equal(r->n_pub_out, 0);
    assert_int_equal(r->n_constraints, s->n_constraints);
    for (uint64_t c = 0; c < s->n_constraints; c++)
        for (int m = 0; m < 3; m++) {
            uint64_t t0 = r->start[3 * c + m], t1 = r->start[3 * c + m + 1];
            const cz_shape_matrix *mt = &s->m[m];
            assert_int_equal(t1 - t0, mt->row_ptr[c + 1] - mt->row_ptr[c]);
            for (uint64_t i = 0; i < t1 - t0; i++) {
                assert_int_equal(r->terms[t0 + i].wire, mt->col[mt->row_ptr[c] + i]);
                assert_true(cz_fr_eq(&r->terms[t0 + i].coef, &s->coefs[mt->coef[mt->row_ptr[c] + i]]));
            }
        }
    cz_r1cs_free(r);
    size_t len;
    uint8_t *data = cz_test_read_file(wtns, &len);
    assert_non_null(data);
    cz_fr *w2;
    uint32_t n2;
    assert_int_equal(cz_wtns_parse(&w2, &n2, data, len, wtns, (uint32_t)nw, err, sizeof err), CZ_OK);
    assert_memory_equal(w, w2, nw * sizeof *w);
    cz_wtns_free(w2, n2);
    free(data);
    unlink(r1cs);
    unlink(wtns);
    free(w);
    cz_shape_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_agree),
        cmocka_unit_test(test_unsatisfied),
        cmocka_unit_test(test_long_row),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_fork_join),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_coef_table_limit),
        cmocka_unit_test(test_export),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
