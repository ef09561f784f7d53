/* ctest: labels=unit timeout=300 */
/*
 * test_poseidon.c: Poseidon with neptune's parameters (src/circuit/poseidon.c).
 *
 *  - first use of the parameters from four threads at once;
 *  - known answers: neptune's own test vectors (hash_values, inputs
 *    0 .. arity-1) for arity 2, 8 and 11, and neptune's published t = 9
 *    round constants (first, second, third and last of the 585);
 *  - the optimised native round form equals the textbook form on seeded
 *    random inputs; the MDS matrix is the Cauchy matrix 1 / (i + t + j);
 *  - the gadget costs exactly 311 / 505 / 598 constraints and as many aux
 *    variables in every mode; WITNESS, CHECK and SHAPE agree (the witness
 *    satisfies the recorded shape, the CHECK run yields the same witness);
 *    the in-circuit digest equals the native one; a changed witness value
 *    breaks the shape check; bad arguments fail the cs, never crash.
 */
#include "common/test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"
#include "field/field.h"

static void fr_hex(cz_fr *out, const char *hex)
{
    assert_true(cz_fr_from_str(out, hex));
}

/* ---- first use from several threads at once ---- */

typedef struct {
    uint64_t seed;
    int bad;
} thr_ctx;

static void *thr_main(void *v)
{
    thr_ctx *x = v;
    cz_rng rng;
    cz_rng_seed(&rng, x->seed);
    static const unsigned ar[3] = {11, 2, 8};
    for (int it = 0; it < 30; it++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ar[(it + x->seed) % 3]);
        if (!p) {
            x->bad++;
            continue;
        }
        cz_fr in[11], a, b;
        for (unsigned i = 0; i < p->arity; i++)
            cz_fr_random(&in[i], &rng);
        cz_poseidon_hash(p, &a, in);
        cz_poseidon_hash_plain(p, &b, in);
        x->bad += !cz_fr_eq(&a, &b);
    }
    return NULL;
}

/* Runs first: the parameters are generated on first use, here by four
   threads racing for them. */
static void test_threads_first_use(void **state)
{
    (void)state;
    pthread_t th[4];
    thr_ctx x[4];
    uint64_t seed = cz_test_seed();
    for (int i = 0; i < 4; i++) {
        x[i].seed = seed + (uint64_t)i;
        x[i].bad = 0;
        assert_int_equal(pthread_create(&th[i], NULL, thr_main, &x[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(x[i].bad, 0);
    }
}

/* ---- known answers ---- */

/* neptune's `hash_values` test, Strength::Standard, inputs 0, 1, ..,
   arity - 1 (the Merkle-tree domain tag 2^arity - 1 in state[0]):
   repository argumentcomputer/neptune (formerly filecoin-project/neptune),
   file src/poseidon.rs, commit 8bc33d868fd1c105ba35153f2672ea3cf66b5faf,
   `scalar_from_u64s([l0, l1, l2, l3])` (little-endian limbs of the
   canonical value), written here most significant limb first. */
static const struct {
    unsigned arity;
    const char *digest;
} kat[] = {
    /* 2 => [0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b] */
    {2, "0x396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff"},
    /* 8 => [0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55]
       (also the vector of ../shared/POREP.md) */
    {8, "0x2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6"},
    /* 11 => [0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28] */
    {11, "0x0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163"},
};

static void test_kat_hash_values(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(kat[k].arity);
        assert_non_null(p);
        assert_int_equal(p->t, kat[k].arity + 1);
        cz_fr in[11], want, got, got_plain;
        for (unsigned i = 0; i < p->arity; i++)
            cz_fr_set_u64(&in[i], i);
        fr_hex(&want, kat[k].digest);
        cz_poseidon_hash(p, &got, in);
        cz_poseidon_hash_plain(p, &got_plain, in);
        char buf[CZ_FR_STR_MAX];
        cz_fr_to_hex(buf, &got);
        printf("poseidon arity %u: %s\n", p->arity, buf);
        assert_true(cz_fr_eq(&got, &want));
        assert_true(cz_fr_eq(&got_plain, &want));
        /* the gadget in CHECK mode: satisfied, the same digest */
        cz_cs *cs;
        char err[256];
        assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
        cz_num n[11];
        for (unsigned i = 0; i < p->arity; i++)
            n[i] = cz_num_alloc(cs, &in[i]);
        cz_num h = cz_poseidon_gadget(cs, p, n);
        cz_fr hv;
        cz_cs_value(cs, &hv, h.var);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        cz_cs_free(cs);
        assert_true(cz_fr_eq(&h.value, &want));
        assert_true(cz_fr_eq(&hv, &want));
    }
}

/* neptune's parameters/round_constants-1-1-255-9-8-57-73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001.txt
   (argumentcomputer/neptune, commit b01f60a06b8f9fdf50c54b899b6dd94cdb6bf2d5),
   made by hadeshash's create_rcs_grain.sage 1 1 255 9 8 57 <r>: 585
   constants; the first three and the last. */
static void test_round_constants_t9(void **state)
{
    (void)state;
    static const char *first[3] = {
        "0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9",
        "0x0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39",
        "0x513ad11016ab7bb8c7ce9ae51256040e062487edf7168d206ba1b86dfe963629",
    };
    static const char *last = "0x3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c";
    const cz_poseidon_params *p = cz_poseidon_params_get(8);
    assert_non_null(p);
    assert_int_equal((p->rf + p->rp) * p->t, 585);
    cz_fr want;
    for (int i = 0; i < 3; i++) {
        fr_hex(&want, first[i]);
        assert_true(cz_fr_eq(&p->round_constants[i], &want));
    }
    fr_hex(&want, last);
    assert_true(cz_fr_eq(&p->round_constants[584], &want));
    /* the generator itself, outside the cached parameters */
    cz_fr *rc = malloc(585 * sizeof *rc);
    assert_non_null(rc);
    cz_poseidon_round_constants(rc, 9, 8, 57);
    assert_memory_equal(rc, p->round_constants, 585 * sizeof *rc);
    free(rc);
}

static void test_params(void **state)
{
    (void)state;
    static const unsigned ar[3] = {2, 8, 11}, rp[3] = {55, 57, 57};
    for (int k = 0; k < 3; k++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ar[k]);
        assert_non_null(p);
        assert_ptr_equal(p, cz_poseidon_params_get(ar[k])); /* generated once */
        assert_int_equal(p->rf, 8);
        assert_int_equal(p->rp, rp[k]);
        cz_fr tag;
        cz_fr_set_u64(&tag, (1ull << ar[k]) - 1);
        assert_true(cz_fr_eq(&p->domain_tag, &tag));
        for (unsigned i = 0; i < p->t; i++)
            for (unsigned j = 0; j < p->t; j++) {
                cz_fr x, one;
                cz_fr_set_u64(&x, i + p->t + j);
                cz_fr_mul(&x, &x, &p->mds[i * p->t + j]);
                cz_fr_one(&one);
                assert_true(cz_fr_eq(&x, &one));
            }
    }
    assert_null(cz_poseidon_params_get(0));
    assert_null(cz_poseidon_params_get(4));
    assert_null(cz_poseidon_params_get(12));
}

static void test_fast_equals_plain(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const unsigned ar[3] = {2, 8, 11};
    int iters = cz_test_iters(40);
    for (int k = 0; k < 3; k++) {
        const cz_poseidon_params *p = cz_poseidon_params_get(ar[k]);
        for (int it = 0; it < iters; it++) {
            cz_fr in[11], a, b;
            for (unsigned i = 0; i < p->arity; i++)
                cz_fr_random(&in[i], &rng);
            if (it == 1)
                memset(in, 0, sizeof in);
            cz_poseidon_hash(p, &a, in);
            cz_poseidon_hash_plain(p, &b, in);
            assert_true(cz_fr_eq(&a, &b));
            /* one changed input changes the digest */
            cz_fr_add(&in[it % p->arity], &in[it % p->arity], &p->domain_tag);
            cz_poseidon_hash(p, &b, in);
            assert_false(cz_fr_eq(&a, &b));
        }
    }
}

/* ---- the gadget in every mode ---- */

typedef struct {
    const cz_poseidon_params *p;
    cz_fr in[11];
    cz_fr out;          /* in-circuit digest (WITNESS / CHECK) */
    uint64_t gadget_c;  /* constraints of the gadget call */
    uint64_t gadget_a;  /* aux of the gadget call */
} pos_ctx;

/* inputs as aux, the digest exposed as the one public input */
static void pos_circuit(cz_cs *cs, pos_ctx *x)
{
    bool vals = cz_cs_has_values(cs);
    cz_num in[11];
    for (unsigned i = 0; i < x->p->arity; i++)
        in[i] = cz_num_alloc(cs, vals ? &x->in[i] : NULL);
    uint64_t c0 = cz_cs_num_constraints(cs), a0 = cz_cs_num_aux(cs);
    cz_num out = cz_poseidon_gadget(cs, x->p, in);
    x->gadget_c = cz_cs_num_constraints(cs) - c0;
    x->gadget_a = cz_cs_num_aux(cs) - a0;
    x->out = out.value;
    cz_num pub = cz_num_alloc_input(cs, vals ? &out.value : NULL);
    cz_num_enforce_equal(cs, &pub, &out);
}

static void test_gadget_modes(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static const unsigned ar[3] = {2, 8, 11}, cost[3] = {311, 505, 598};
    char err[256];
    for (int k = 0; k < 3; k++) {
        pos_ctx x;
        memset(&x, 0, sizeof x);
        x.p = cz_poseidon_params_get(ar[k]);
        assert_int_equal(cz_poseidon_constraints(x.p), cost[k]);
        for (unsigned i = 0; i < x.p->arity; i++)
            cz_fr_random(&x.in[i], &rng);
        cz_fr want;
        cz_poseidon_hash(x.p, &want, x.in);

        /* COUNT */
        cz_cs *cs;
        assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
        pos_circuit(cs, &x);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        assert_int_equal(x.gadget_c, cost[k]);
        assert_int_equal(x.gadget_a, cost[k]);
        uint32_t np = cz_cs_num_public(cs);
        uint64_t na = cz_cs_num_aux(cs), nc = cz_cs_num_constraints(cs);
        cz_cs_free(cs);
        assert_int_equal(np, 1);
        assert_int_equal(na, x.p->arity + cost[k]);
        assert_int_equal(nc, cost[k] + 1);
        printf("poseidon arity %u: %llu constraints in the gadget\n", x.p->arity,
               (unsigned long long)x.gadget_c);

        /* SHAPE */
        cz_shape *shape = NULL;
        assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
        pos_circuit(cs, &x);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        assert_int_equal(x.gadget_c, cost[k]);
        assert_int_equal(cz_cs_take_shape(cs, &shape, err, sizeof err), CZ_OK);
        cz_cs_free(cs);
        assert_int_equal(shape->n_constraints, nc);
        assert_int_equal(shape->n_aux, na);
        assert_int_equal(shape->n_public, np);

        /* WITNESS */
        size_t n = 1 + np + na;
        cz_fr *w = calloc(n, sizeof *w), *w2 = calloc(n, sizeof *w2);
        assert_non_null(w);
        assert_non_null(w2);
        assert_int_equal(cz_cs_new_witness(&cs, w, np, na), CZ_OK);
        pos_circuit(cs, &x);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        cz_cs_free(cs);
        assert_true(cz_fr_eq(&x.out, &want));
        assert_true(cz_fr_eq(&w[1], &want)); /* the public input */
        assert_int_equal(cz_shape_check(shape, w, err, sizeof err), CZ_OK);

        /* CHECK over a buffer: satisfied, and the same witness */
        assert_int_equal(cz_cs_new_check(&cs, w2, np, na), CZ_OK);
        pos_circuit(cs, &x);
        cz_status st = cz_cs_finish(cs, err, sizeof err);
        if (st != CZ_OK)
            printf("check: %s\n", err);
        assert_int_equal(st, CZ_OK);
        assert_int_equal(x.gadget_c, cost[k]);
        cz_cs_free(cs);
        assert_memory_equal(w, w2, n * sizeof *w);

        /* any changed aux value (an S-box's x^4, the digest) breaks it */
        uint64_t idx[3] = {1 + np + x.p->arity + 2, 1 + np + na - 1, n / 2};
        for (int j = 0; j < 3; j++) {
            memcpy(w2, w, n * sizeof *w);
            cz_fr one;
            cz_fr_one(&one);
            cz_fr_add(&w2[idx[j]], &w2[idx[j]], &one);
            assert_int_not_equal(cz_shape_check(shape, w2, err, sizeof err), CZ_OK);
        }
        /* a wrong public digest too */
        memcpy(w2, w, n * sizeof *w);
        cz_fr_add(&w2[1], &w2[1], &w2[1]);
        assert_int_not_equal(cz_shape_check(shape, w2, err, sizeof err), CZ_OK);
        free(w);
        free(w2);
        cz_shape_free(shape);
    }
}

/* CHECK mode catches a wrong value fed in by hand: the gadget's output
   compared with a public input that is not the digest. */
static void test_gadget_wrong_digest(void **state)
{
    (void)state;
    const cz_poseidon_params *p = cz_poseidon_params_get(2);
    cz_cs *cs;
    char err[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    cz_fr v[2], bad;
    cz_fr_set_u64(&v[0], 7);
    cz_fr_set_u64(&v[1], 9);
    cz_num in[2] = {cz_num_alloc(cs, &v[0]), cz_num_alloc(cs, &v[1])};
    cz_num out = cz_poseidon_gadget(cs, p, in);
    cz_poseidon_hash(p, &bad, v);
    assert_true(cz_fr_eq(&bad, &out.value));
    cz_fr_add(&bad, &bad, &v[0]);
    cz_num pub = cz_num_alloc_input(cs, &bad);
    cz_num_enforce_equal(cs, &pub, &out);
    assert_int_not_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    printf("expected failure: %s\n", err);
    cz_cs_free(cs);
}

static void test_bad_args(void **state)
{
    (void)state;
    cz_cs *cs;
    char err[256];
    cz_fr out, in[2] = {{{1, 0, 0, 0}}, {{2, 0, 0, 0}}};
    cz_poseidon_hash(NULL, &out, in);
    assert_true(cz_fr_is_zero(&out));
    cz_poseidon_hash_plain(NULL, &out, in);
    assert_true(cz_fr_is_zero(&out));
    assert_int_equal(cz_poseidon_constraints(NULL), 0);
    cz_poseidon_params fake;
    memset(&fake, 0, sizeof fake);
    assert_int_equal(cz_poseidon_constraints(&fake), 0);
    cz_poseidon_hash(&fake, &out, in);
    assert_true(cz_fr_is_zero(&out));
    /* a copy of real parameters hashes in the textbook form, same digest */
    cz_poseidon_params copy = *cz_poseidon_params_get(2);
    cz_fr want;
    cz_poseidon_hash(cz_poseidon_params_get(2), &want, in);
    cz_poseidon_hash(&copy, &out, in);
    assert_true(cz_fr_eq(&out, &want));
    assert_int_equal(cz_poseidon_constraints(&copy), 0);

    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    cz_num n2[2] = {cz_num_alloc(cs, &in[0]), cz_num_alloc(cs, &in[1])};
    (void)cz_poseidon_gadget(cs, NULL, n2);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    (void)cz_poseidon_gadget(cs, &fake, n2);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_first_use),
        cmocka_unit_test(test_kat_hash_values),
        cmocka_unit_test(test_round_constants_t9),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_fast_equals_plain),
        cmocka_unit_test(test_gadget_modes),
        cmocka_unit_test(test_gadget_wrong_digest),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
