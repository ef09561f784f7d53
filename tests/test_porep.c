/* ctest: labels=unit;sanitize timeout=900 */
/*
 * test_porep.c: the PoRep-shaped circuit (src/circuit/porep.c) and its
 * commit-1-like inputs (src/circuit/c1.c).
 *
 *  - counts of every preset: the per-challenge model equals a whole COUNT
 *    run, the breakdown sums to the totals, the public inputs are
 *    3 + challenges * (drg + exp + 4); porep-mini fits 2^18 rows;
 *  - porep-32g from a whole COUNT run: constraints within 1 % of
 *    130,278,869, aux within 2 % of 130.17 M, 328 public inputs, and the
 *    run takes seconds (bounded here at 60 s on the 2-core machine), and
 *    >= 97 % of its aux values are 0 or 1 (cz_porep_boolean_share);
 *  - shape and witness agree: the WITNESS-mode witness of generated inputs
 *    satisfies the SHAPE recording (cz_shape_check) for both partitions of
 *    porep-mini and for porep-8m; it equals the CHECK-mode witness and does
 *    not depend on the thread count; >= 97 % of aux values are 0 or 1;
 *  - the reader refuses, naming partition, challenge and field: one
 *    flipped label byte (of the challenged column and of a parent's), a
 *    wrong sibling (tree_d and tree_c), a wrong length, bad hex, another
 *    preset's file; an input forced past it gives a witness that fails the
 *    shape; random corruptions never crash it.
 * porep-8m and porep-32g are left out of quick (sanitizer) runs.
 */
#include "test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "field/field.h"
#include "util/threadpool.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_counts(void **state)
{
    (void)state;
    char err[512];
    assert_true(cz_porep_preset_count() >= 4);
    for (size_t i = 0; i < cz_porep_preset_count(); i++) {
        const cz_porep_params *p = cz_porep_preset_at(i);
        cz_porep_counts c;
        assert_int_equal(cz_porep_params_check(p, err, sizeof err), CZ_OK);
        assert_int_equal(cz_porep_counts_get(p, &c, err, sizeof err), CZ_OK);
        assert_int_equal(c.n_public, 3 + p->challenges * (p->drg_parents + p->exp_parents + 4));
        assert_int_equal(c.n_public, cz_porep_num_public(p));
        printf("%-11s constraints %llu aux %llu public %u (per challenge %llu / %llu)\n", p->name,
               (unsigned long long)c.n_constraints, (unsigned long long)c.n_aux, c.n_public + 1,
               (unsigned long long)c.challenge_constraints, (unsigned long long)c.challenge_aux);
        if (!strcmp(p->name, "porep-32g") && !cz_test_full())
            continue;
        /* a whole COUNT run (cz_porep_count checks it equals the model) */
        cz_porep_counts w;
        cz_porep_breakdown bd;
        double t = now_s();
        cz_status st = cz_porep_count(p, &w, &bd, err, sizeof err);
        if (st)
            fail_msg("%s: %s", p->name, err);
        t = now_s() - t;
        uint64_t sc = 0, sa = 0;
        for (int k = 0; k < CZ_POREP_SUB_COUNT; k++) {
            sc += bd.constraints[k];
            sa += bd.aux[k];
        }
        assert_int_equal(sc, w.n_constraints);
        assert_int_equal(sa, w.n_aux);
        assert_int_equal(bd.calls[CZ_POREP_SUB_LABEL], p->challenges * p->layers);
        assert_int_equal(bd.calls[CZ_POREP_SUB_TREE_C],
                         p->challenges * (1 + p->drg_parents + p->exp_parents));
        if (!strcmp(p->name, "porep-mini"))
            assert_true(w.n_constraints + w.n_public + 1 <= (1u << 18));
        if (!strcmp(p->name, "porep-32g")) {
            double dc = ((double)w.n_constraints - 130278869.0) / 130278869.0;
            double da = ((double)w.n_aux - 130.17e6) / 130.17e6;
            printf("porep-32g COUNT run: %.2f s, constraints %+.3f %%, aux %+.3f %%, label "
                   "SHA-256 %.1f %%, tree_d %.1f %%\n",
                   t, 100 * dc, 100 * da,
                   100.0 * (double)bd.constraints[CZ_POREP_SUB_LABEL] / (double)w.n_constraints,
                   100.0 * (double)bd.constraints[CZ_POREP_SUB_TREE_D] / (double)w.n_constraints);
            assert_true(dc > -0.01 && dc < 0.01);
            assert_true(da > -0.02 && da < 0.02);
            assert_int_equal(w.n_public + 1, 328);
            assert_true(t < 60.0);
            double pct;
            t = now_s();
            st = cz_porep_boolean_share(p, NULL, &pct, err, sizeof err);
            if (st)
                fail_msg("%s", err);
            printf("porep-32g: %.3f %% of aux values in {0, 1} (witnesses of 1 and 2 challenges, "
                   "%.1f s)\n", pct, now_s() - t);
            assert_true(pct >= 97.0);
        }
    }
    /* parameters that cannot be built are refused */
    cz_porep_params bad = *cz_porep_preset("porep-mini");
    bad.layers = 3;
    assert_int_equal(cz_porep_params_check(&bad, err, sizeof err), CZ_ERR_ARG);
    bad = *cz_porep_preset("porep-mini");
    bad.label_entries = 1;
    assert_int_equal(cz_porep_params_check(&bad, err, sizeof err), CZ_ERR_ARG);
    bad = *cz_porep_preset("porep-mini");
    bad.challenges = 4;
    assert_int_equal(cz_porep_params_check(&bad, err, sizeof err), CZ_ERR_ARG);
    assert_null(cz_porep_preset("porep-64g"));
}

/* Shape, witness (threads 1 and 2), check mode, bits; one preset. */
static void agree(const char *name, uint64_t seed)
{
    char err[512];
    const cz_porep_params *p = cz_porep_preset(name);
    assert_non_null(p);
    double t = now_s();
    cz_shape *shape;
    cz_status st = cz_porep_shape(p, &shape, err, sizeof err);
    if (st)
        fail_msg("%s shape: %s", name, err);
    double t_shape = now_s() - t;
    cz_c1 *c1;
    assert_int_equal(cz_c1_generate(&c1, p, seed, err, sizeof err), CZ_OK);
    assert_int_equal(cz_c1_validate(c1, -1, "generated", err, sizeof err), CZ_OK);
    cz_threadpool *pool = cz_threadpool_create(2);
    assert_non_null(pool);
    for (unsigned k = 0; k < p->partitions; k++) {
        cz_porep_partition in;
        assert_int_equal(cz_c1_partition(c1, k, &in, err, sizeof err), CZ_OK);
        cz_fr *w1, *w2;
        uint64_t n1, n2;
        t = now_s();
        st = cz_porep_witness_alloc(p, &in, pool, &w1, &n1, err, sizeof err);
        if (st)
            fail_msg("%s witness: %s", name, err);
        double t_wit = now_s() - t;
        assert_int_equal(n1, 1 + (uint64_t)shape->n_public + shape->n_aux);
        t = now_s();
        st = cz_shape_check(shape, w1, err, sizeof err);
        if (st)
            fail_msg("%s partition %u: the witness does not satisfy the shape: %s", name, k, err);
        double t_check = now_s() - t;
        /* one thread gives the same witness */
        assert_int_equal(cz_porep_witness_alloc(p, &in, NULL, &w2, &n2, err, sizeof err), CZ_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(w1, w2, n1 * sizeof *w1);
        cz_porep_witness_free(w2, n2);
        uint64_t bools = 0;
        for (uint64_t i = 1 + shape->n_public; i < n1; i++)
            bools += cz_fr_is_zero(&w1[i]) || cz_fr_is_one(&w1[i]);
        double pct = 100.0 * (double)bools / (double)shape->n_aux;
        printf("%s partition %u: %llu constraints, shape %.2f s, witness %.3f s (2 threads), "
               "shape check %.2f s, %.2f %% of aux in {0, 1}\n",
               name, k, (unsigned long long)shape->n_constraints, t_shape, t_wit, t_check, pct);
        assert_true(pct >= 96.0); /* 97 % for porep-32g: test_counts */
        /* CHECK mode over a buffer computes the same witness (small presets) */
        if (n1 < (1u << 20)) {
            cz_fr *w3 = calloc(n1, sizeof *w3);
            cz_cs *cs;
            assert_non_null(w3);
            assert_int_equal(cz_cs_new_check(&cs, w3, shape->n_public, shape->n_aux), CZ_OK);
            cz_porep_synthesize(cs, p, &in, NULL, NULL);
            st = cz_cs_finish(cs, err, sizeof err);
            if (st)
                fail_msg("%s CHECK mode: %s", name, err);
            cz_cs_free(cs);
            assert_memory_equal(w1, w3, n1 * sizeof *w1);
            free(w3);
        }
        /* a changed public input (the challenge) no longer satisfies it */
        cz_fr one;
        cz_fr_one(&one);
        uint64_t chal_wire = 1 + 3 + p->drg_parents + p->exp_parents + 1;
        cz_fr_add(&w1[chal_wire], &w1[chal_wire], &one);
        assert_int_not_equal(cz_shape_check(shape, w1, err, sizeof err), CZ_OK);
        cz_porep_witness_free(w1, n1);
    }
    cz_threadpool_destroy(pool);
    cz_c1_free(c1);
    cz_shape_free(shape);
}

static void test_agree_mini(void **state)
{
    (void)state;
    agree("porep-mini", cz_test_seed());
}

static void test_agree_8m(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("porep-8m: left out of quick runs\n");
        return;
    }
    agree("porep-8m", cz_test_seed() + 1);
}

/* ---- the reader ---- */

typedef struct {
    char *text;  /* the generated file */
    const cz_porep_params *p;
} gen_file;

static void gen_mini(gen_file *g)
{
    char err[512], path[64];
    g->p = cz_porep_preset("porep-mini");
    cz_c1 *c1;
    assert_int_equal(cz_c1_generate(&c1, g->p, 7, err, sizeof err), CZ_OK);
    snprintf(path, sizeof path, "/tmp/cuzk-test-porep-%d.json", (int)getpid());
    assert_int_equal(cz_c1_write(c1, path, err, sizeof err), CZ_OK);
    cz_c1_free(c1);
    size_t len;
    g->text = (char *)cz_test_read_file(path, &len);
    assert_non_null(g->text);
    g->text = realloc(g->text, len + 1);
    g->text[len] = 0;
    remove(path);
}

/* Walk "a.b[2].c" from the root; NULL if absent. */
static json_t *walk(json_t *root, const char *path)
{
    json_t *v = root;
    char key[64];
    const char *s = path;
    while (v && *s) {
        if (*s == '.') {
            s++;
            continue;
        }
        if (*s == '[') {
            long i = strtol(s + 1, (char **)&s, 10);
            s++; /* ']' */
            v = json_array_get(v, (size_t)i);
            continue;
        }
        size_t n = strcspn(s, ".[");
        memcpy(key, s, n);
        key[n] = 0;
        s += n;
        v = json_object_get(v, key);
    }
    return v;
}

typedef enum { FLIP, BADHEX, SHORTEN, DROP_LAST, SET_STRING } mutation;

/* Mutate the file at path, parse it for porep-mini, expect status st and
   every needle in the message. */
static void refuse(const gen_file *g, const char *path, mutation m, const char *arg, int partition,
                   cz_status want, const char *n1, const char *n2)
{
    json_error_t je;
    json_t *doc = json_loads(g->text, 0, &je);
    assert_non_null(doc);
    char parent[160];
    snprintf(parent, sizeof parent, "%s", path);
    json_t *v = walk(doc, path);
    if (!v)
        fail_msg("no %s in the generated file", path);
    if (m == DROP_LAST) {
        assert_true(json_is_array(v));
        json_array_remove(v, json_array_size(v) - 1);
    } else if (m == SET_STRING) {
        char *dot = strrchr(parent, '.');
        if (dot)
            *dot = 0;
        json_object_set_new(dot ? walk(doc, parent) : doc, dot ? dot + 1 : path, json_string(arg));
    } else {
        char s[80];
        snprintf(s, sizeof s, "%s", json_string_value(v));
        if (m == FLIP)
            s[0] = s[0] == '0' ? '1' : '0'; /* the high nibble of byte 0 */
        else if (m == BADHEX)
            s[5] = 'g';
        else
            s[62] = 0;
        /* replace in its parent (array element or object member) */
        const char *last = path + strlen(path) - 1;
        if (*last == ']') {
            const char *lb = strrchr(path, '[');
            size_t idx = (size_t)atol(lb + 1);
            snprintf(parent, sizeof parent, "%.*s", (int)(lb - path), path);
            json_array_set_new(walk(doc, parent), idx, json_string(s));
        } else {
            char *dot = strrchr(parent, '.');
            if (dot)
                *dot = 0;
            json_object_set_new(dot ? walk(doc, parent) : doc, dot ? dot + 1 : path, json_string(s));
        }
    }
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(doc);
    cz_c1 *c1 = NULL;
    char err[512];
    cz_status st = cz_c1_parse(&c1, text, strlen(text), "c1.json", g->p, partition, err, sizeof err);
    printf("  %s: %s\n", path, st ? err : "(accepted)");
    if (st != want)
        fail_msg("%s: status %d, wanted %d (%s)", path, st, want, st ? err : "accepted");
    if (st == CZ_OK) {
        cz_c1_free(c1);
        free(text);
        return;
    }
    assert_null(c1);
    if (n1 && !strstr(err, n1))
        fail_msg("'%s' not in: %s", n1, err);
    if (n2 && !strstr(err, n2))
        fail_msg("'%s' not in: %s", n2, err);
    free(text);
}

#define CH0 "vanilla_proofs[0][0]."

static void test_reader(void **state)
{
    (void)state;
    gen_file g;
    gen_mini(&g);
    char err[512];
    cz_c1 *c1;
    /* the file as written is accepted, for every partition and each one */
    assert_int_equal(cz_c1_parse(&c1, g.text, strlen(g.text), "c1.json", g.p, -1, err, sizeof err), CZ_OK);
    cz_c1_free(c1);
    assert_int_equal(cz_c1_parse(&c1, g.text, strlen(g.text), "c1.json", NULL, 1, err, sizeof err), CZ_OK);
    cz_c1_free(c1);

    /* one flipped label byte: the challenged column, a parent's column,
       the labeling proof's copy */
    refuse(&g, CH0 "replica_column_proofs.c_x.column[1]", FLIP, NULL, -1, CZ_ERR_WITNESS,
           "c1.json: partition 0, challenge 0: replica_column_proofs.c_x.column[1]",
           "does not hash");
    refuse(&g, CH0 "replica_column_proofs.drg_parents[0].column[0]", FLIP, NULL, -1, CZ_ERR_WITNESS,
           "partition 0, challenge 0: replica_column_proofs.drg_parents[0].column",
           "does not hash to inclusion_proof.leaf");
    refuse(&g, CH0 "labeling_proofs[1].parents[1]", FLIP, NULL, -1, CZ_ERR_WITNESS,
           "labeling_proofs[1].parents[1]", "differs from the parent's column");
    /* a wrong sibling */
    refuse(&g, CH0 "comm_d_proofs.path[1]", FLIP, NULL, -1, CZ_ERR_WITNESS,
           "partition 0, challenge 0: comm_d_proofs.path", "does not reach the root");
    refuse(&g, CH0 "replica_column_proofs.exp_parents[0].inclusion_proof.path[0][3]", FLIP, NULL, -1,
           CZ_ERR_WITNESS, "exp_parents[0].inclusion_proof.path", "does not reach the root comm_c");
    refuse(&g, "vanilla_proofs[1][0].comm_r_last_proof.path[0][6]", FLIP, NULL, -1, CZ_ERR_WITNESS,
           "partition 1, challenge 0: comm_r_last_proof.path", "does not reach");
    /* only the partition asked for is checked */
    refuse(&g, "vanilla_proofs[1][0].comm_r_last_proof.path[0][6]", FLIP, NULL, 0, CZ_OK, NULL,
           NULL);
    /* wrong lengths */
    refuse(&g, CH0 "comm_d_proofs.path", DROP_LAST, NULL, -1, CZ_ERR_FORMAT,
           "comm_d_proofs.path", "1 entries, not 2");
    refuse(&g, CH0 "replica_column_proofs.c_x.column[0]", SHORTEN, NULL, -1, CZ_ERR_FORMAT,
           "c_x.column[0]", "62 hex digits, not 64");
    refuse(&g, "vanilla_proofs[1]", DROP_LAST, NULL, -1, CZ_ERR_FORMAT, "vanilla_proofs[1]",
           "0 entries, not 1");
    /* bad hex */
    refuse(&g, CH0 "encoding_proof.encoded", BADHEX, NULL, -1, CZ_ERR_FORMAT,
           "encoding_proof.encoded", "bad hex digit at 5");
    refuse(&g, "comm_d", BADHEX, NULL, -1, CZ_ERR_FORMAT, "c1.json: comm_d", "bad hex");
    /* another preset's file */
    refuse(&g, "registered_proof", SET_STRING, "porep-8m", -1, CZ_ERR_WITNESS,
           "registered_proof", "is for porep-8m, not porep-mini");
    refuse(&g, "registered_proof", SET_STRING, "porep-1t", -1, CZ_ERR_FORMAT, "registered_proof",
           "not a known preset");
    /* a value >= r, and a node of tree_d above 2^254 */
    refuse(&g, "comm_r", SET_STRING,
           "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", -1, CZ_ERR_RANGE,
           "comm_r", "modulus");
    refuse(&g, CH0 "comm_d_proofs.leaf", SET_STRING,
           "00000000000000000000000000000000000000000000000000000000000000c0", -1, CZ_ERR_RANGE,
           "comm_d_proofs.leaf", "2^254");
    /* not JSON at all */
    assert_int_equal(cz_c1_parse(&c1, "{\"format\": ", 11, "c1.json", NULL, -1, err, sizeof err),
                     CZ_ERR_FORMAT);
    free(g.text);
}

/* A parent label flipped and forced past the reader: the witness is
   computed, and it does not satisfy the circuit. */
static void test_forced_witness_fails(void **state)
{
    (void)state;
    gen_file g;
    gen_mini(&g);
    json_error_t je;
    json_t *doc = json_loads(g.text, 0, &je);
    json_t *col = walk(doc, CH0 "replica_column_proofs.drg_parents[0].column");
    char s[80];
    snprintf(s, sizeof s, "%s", json_string_value(json_array_get(col, 0)));
    s[0] = s[0] == '0' ? '1' : '0';
    json_array_set_new(col, 0, json_string(s));
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(doc);
    char err[512];
    cz_c1 *c1;
    assert_int_equal(cz_c1_parse(&c1, text, strlen(text), "c1.json", g.p, 0, err, sizeof err),
                     CZ_ERR_WITNESS);
    assert_int_equal(cz_c1_parse(&c1, text, strlen(text), "c1.json", g.p, CZ_C1_PARSE_ONLY, err,
                                 sizeof err),
                     CZ_OK);
    cz_porep_partition in;
    assert_int_equal(cz_c1_partition(c1, 0, &in, err, sizeof err), CZ_OK);
    cz_fr *w;
    uint64_t n;
    assert_int_equal(cz_porep_witness_alloc(g.p, &in, NULL, &w, &n, err, sizeof err), CZ_OK);
    cz_shape *shape;
    assert_int_equal(cz_porep_shape(g.p, &shape, err, sizeof err), CZ_OK);
    cz_status st = cz_shape_check(shape, w, err, sizeof err);
    printf("  forced witness: %s\n", st ? err : "(satisfied!)");
    assert_int_not_equal(st, CZ_OK);
    /* CHECK mode names the first unsatisfied constraint */
    st = cz_porep_check(g.p, &in, err, sizeof err);
    printf("  CHECK mode: %s\n", err);
    assert_int_not_equal(st, CZ_OK);
    cz_shape_free(shape);
    cz_porep_witness_free(w, n);
    cz_c1_free(c1);
    free(text);
    free(g.text);
}

/* Random corruptions of a valid file: never a crash; whatever is accepted
   passes the native checks again (a changed byte can be harmless: a hex
   digit's case, a seed byte). */
static void test_reader_mutations(void **state)
{
    (void)state;
    gen_file g;
    gen_mini(&g);
    cz_rng rng;
    cz_test_rng(&rng);
    size_t len = strlen(g.text);
    char *t = malloc(len + 1);
    assert_non_null(t);
    static const char repl[] = "0123456789abcdefABCDEFg\"[]{},:.-x ";
    int iters = cz_test_iters(400), accepted = 0;
    for (int i = 0; i < iters; i++) {
        memcpy(t, g.text, len + 1);
        int n = 1 + (int)(cz_rng_u64(&rng) % 3);
        for (int k = 0; k < n; k++)
            t[cz_rng_u64(&rng) % len] = repl[cz_rng_u64(&rng) % (sizeof repl - 1)];
        cz_c1 *c1 = NULL;
        char err[512];
        cz_status st = cz_c1_parse(&c1, t, len, "c1.json", NULL, -1, err, sizeof err);
        if (st == CZ_OK) {
            accepted++;
            assert_int_equal(cz_c1_validate(c1, -1, "c1.json", err, sizeof err), CZ_OK);
            cz_c1_free(c1);
        } else {
            assert_null(c1);
            assert_true(strlen(err) > 0);
        }
    }
    printf("  %d corrupted files, %d accepted (harmless changes)\n", iters, accepted);
    free(t);
    free(g.text);
}

/* porep-32g's input for one partition: generated fast, in little memory,
   and it reads back. */
static void test_gen_32g(void **state)
{
    (void)state;
    if (!cz_test_full()) {
        printf("porep-32g c1: left out of quick runs\n");
        return;
    }
    char err[512];
    const cz_porep_params *p = cz_porep_preset("porep-32g");
    double t = now_s();
    cz_c1 *c1;
    assert_int_equal(cz_c1_generate(&c1, p, 11, err, sizeof err), CZ_OK);
    double tg = now_s() - t;
    t = now_s();
    cz_status st = cz_c1_validate(c1, 3, "generated", err, sizeof err);
    if (st)
        fail_msg("%s", err);
    printf("porep-32g c1 (10 partitions): generated in %.2f s, partition 3 checked in %.2f s\n", tg,
           now_s() - t);
    assert_true(tg < 60);
    cz_c1_free(c1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_agree_mini),
        cmocka_unit_test(test_reader),
        cmocka_unit_test(test_forced_witness_fails),
        cmocka_unit_test(test_reader_mutations),
        cmocka_unit_test(test_agree_8m),
        cmocka_unit_test(test_gen_32g),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
