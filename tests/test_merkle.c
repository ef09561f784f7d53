/* ctest: labels=unit timeout=300 */
/*
 * test_merkle.c: Merkle inclusion (src/circuit/merkle.c).
 *
 *  - native roots: every leaf of a whole tree built bottom-up (binary
 *    SHA-256 of depth 3 with Filecoin's 254-bit truncation; arity-8
 *    Poseidon of depth 2) reaches the tree's root through
 *    cz_merkle_*_root, so index bits and sibling order are those of the
 *    tree; one SHA-256 node against the known digest of 64 zero bytes;
 *  - gadgets: constraints per level exactly (512 swaps + one 512-bit
 *    SHA-256, measured on its own; 22 + 505 for Poseidon); COUNT, SHAPE,
 *    WITNESS and CHECK agree, the witness satisfies the recorded shape, and
 *    the in-circuit root equals the native one for every position;
 *  - a wrong sibling or a flipped index bit gives another root: CHECK mode
 *    fails against the true root, and the witness with the true root as
 *    its public input fails the shape check.
 */
#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"
#include "field/field.h"

/* ---- running a circuit in every mode ---- */

typedef void (*circuit_fn)(cz_cs *cs, void *ctx);

typedef struct {
    uint32_t np;
    uint64_t na, nc;
    cz_shape *shape;
    cz_fr *w; /* from WITNESS */
} run_result;

static void run_all(circuit_fn fn, void *ctx, run_result *r)
{
    char err[256];
    cz_cs *cs;
    memset(r, 0, sizeof *r);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    r->np = cz_cs_num_public(cs);
    r->na = cz_cs_num_aux(cs);
    r->nc = cz_cs_num_constraints(cs);
    cz_cs_free(cs);

    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    assert_int_equal(cz_cs_take_shape(cs, &r->shape, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_int_equal(r->shape->n_constraints, r->nc);
    assert_int_equal(r->shape->n_aux, r->na);
    assert_int_equal(r->shape->n_public, r->np);

    size_t n = 1 + r->np + r->na;
    r->w = calloc(n, sizeof *r->w);
    cz_fr *w2 = calloc(n, sizeof *w2);
    assert_non_null(r->w);
    assert_non_null(w2);
    assert_int_equal(cz_cs_new_witness(&cs, r->w, r->np, r->na), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    cz_status st = cz_shape_check(r->shape, r->w, err, sizeof err);
    if (st != CZ_OK)
        printf("shape check: %s\n", err);
    assert_int_equal(st, CZ_OK);

    assert_int_equal(cz_cs_new_check(&cs, w2, r->np, r->na), CZ_OK);
    fn(cs, ctx);
    st = cz_cs_finish(cs, err, sizeof err);
    if (st != CZ_OK)
        printf("check: %s\n", err);
    assert_int_equal(st, CZ_OK);
    cz_cs_free(cs);
    assert_memory_equal(r->w, w2, n * sizeof *w2);
    free(w2);
}

static void run_free(run_result *r)
{
    cz_shape_free(r->shape);
    free(r->w);
}

/* A CHECK run: CZ_OK when satisfied. */
static cz_status run_check(circuit_fn fn, void *ctx)
{
    char err[256];
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    fn(cs, ctx);
    cz_status st = cz_cs_finish(cs, err, sizeof err);
    cz_cs_free(cs);
    return st;
}

/* A WITNESS run into a fresh buffer of r's sizes. */
static cz_fr *run_witness(circuit_fn fn, void *ctx, const run_result *r)
{
    char err[256];
    cz_cs *cs;
    cz_fr *w = calloc(1 + r->np + r->na, sizeof *w);
    assert_non_null(w);
    assert_int_equal(cz_cs_new_witness(&cs, w, r->np, r->na), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    return w;
}

/* ---- binary SHA-256 tree ---- */

#define SHA_DEPTH 3

static void sha_node(uint8_t out[32], const uint8_t l[32], const uint8_t r[32])
{
    uint8_t buf[64];
    memcpy(buf, l, 32);
    memcpy(buf + 32, r, 32);
    cz_sha256(out, buf, 64);
    out[31] &= 0x3f;
}

static void test_sha_node_kat(void **state)
{
    (void)state;
    /* SHA-256 of 64 zero bytes (the second of Ethereum's deposit-tree zero
       hashes), f5a5fd42...2759fb4b, with the last byte masked: 0x4b & 0x3f */
    uint8_t zero[32] = {0}, root[32], want[32], sib[1][32] = {{0}}, bit = 0;
    assert_int_equal(cz_test_unhex(want, 32,
                                   "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b"),
                     32);
    cz_merkle_sha256_root(root, zero, (const uint8_t(*)[32])sib, &bit, 1);
    assert_memory_equal(root, want, 32);
    bit = 1; /* both children zero: the same node */
    cz_merkle_sha256_root(root, zero, (const uint8_t(*)[32])sib, &bit, 1);
    assert_memory_equal(root, want, 32);
    cz_merkle_sha256_root(root, zero, (const uint8_t(*)[32])sib, &bit, 0);
    assert_memory_equal(root, zero, 32);
}

typedef struct {
    uint8_t leaves[1 << SHA_DEPTH][32];
    uint8_t nodes[SHA_DEPTH + 1][1 << SHA_DEPTH][32]; /* nodes[0] = leaves */
} sha_tree;

static void sha_tree_build(sha_tree *t, cz_rng *rng)
{
    for (int i = 0; i < (1 << SHA_DEPTH); i++) {
        for (int b = 0; b < 32; b += 8) {
            uint64_t v = cz_rng_u64(rng);
            memcpy(&t->leaves[i][b], &v, 8);
        }
        t->leaves[i][31] &= 0x3f; /* Fr-sized data, as Filecoin's nodes */
        memcpy(t->nodes[0][i], t->leaves[i], 32);
    }
    for (int l = 1; l <= SHA_DEPTH; l++)
        for (int i = 0; i < (1 << (SHA_DEPTH - l)); i++)
            sha_node(t->nodes[l][i], t->nodes[l - 1][2 * i], t->nodes[l - 1][2 * i + 1]);
}

static void sha_path(const sha_tree *t, unsigned leaf, uint8_t sib[SHA_DEPTH][32], uint8_t bits[SHA_DEPTH])
{
    for (unsigned l = 0; l < SHA_DEPTH; l++) {
        unsigned i = leaf >> l;
        bits[l] = i & 1;
        memcpy(sib[l], t->nodes[l][i ^ 1], 32);
    }
}

typedef struct {
    uint8_t leaf[32], sib[SHA_DEPTH][32], bits[SHA_DEPTH];
    uint8_t pub_root[32];   /* the public input's value */
    uint8_t root[32];       /* the in-circuit root (WITNESS / CHECK) */
    uint64_t gadget_c;
} sha_ctx;

/* 128 bits packed into a public input equal to `want`'s same bits */
static void expose_bits(cz_cs *cs, const cz_bool *bits, const uint8_t *want_bits)
{
    bool vals = cz_cs_has_values(cs);
    cz_fr v, pow, one;
    cz_fr_zero(&v);
    cz_fr_one(&pow);
    cz_fr_one(&one);
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    for (int i = 0; i < 128; i++) {
        if (want_bits[i])
            cz_fr_add(&v, &v, &pow);
        if (cz_cs_records(cs))
            assert_true(cz_bool_lc_add(&a, bits[i], &pow));
        cz_fr_add(&pow, &pow, &pow);
    }
    cz_var in = cz_cs_alloc_input(cs, vals ? &v : NULL);
    if (cz_cs_records(cs)) {
        assert_true(cz_lc_add(&b, cz_var_one(), &one));
        assert_true(cz_lc_add(&c, in, &one));
    }
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

static void sha_circuit(cz_cs *cs, void *vctx)
{
    sha_ctx *x = vctx;
    uint8_t bits[256];
    cz_bool leaf[256], sib[SHA_DEPTH][256], idx[SHA_DEPTH], root[256];
    cz_bytes_to_bits_be(bits, x->leaf, 32);
    for (int i = 0; i < 256; i++)
        leaf[i] = cz_bool_alloc(cs, bits[i]);
    for (int l = 0; l < SHA_DEPTH; l++) {
        cz_bytes_to_bits_be(bits, x->sib[l], 32);
        for (int i = 0; i < 256; i++)
            sib[l][i] = cz_bool_alloc(cs, bits[i]);
        idx[l] = cz_bool_alloc(cs, x->bits[l]);
    }
    uint64_t c0 = cz_cs_num_constraints(cs);
    cz_merkle_sha256_gadget(cs, root, leaf, (const cz_bool(*)[256])sib, idx, SHA_DEPTH);
    x->gadget_c = cz_cs_num_constraints(cs) - c0;
    memset(x->root, 0, 32);
    for (int i = 0; i < 256; i++)
        x->root[i / 8] |= (uint8_t)(root[i].value << (7 - i % 8));
    cz_bytes_to_bits_be(bits, x->pub_root, 32);
    expose_bits(cs, root, bits);
    expose_bits(cs, root + 128, bits + 128);
}

/* The cost of one SHA-256 of 512 message bits, on its own. */
static uint64_t sha512_cost(void)
{
    cz_cs *cs;
    char err[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    cz_bool msg[512], out[256];
    for (int i = 0; i < 512; i++)
        msg[i] = cz_bool_alloc(cs, 0);
    uint64_t c0 = cz_cs_num_constraints(cs);
    cz_sha256_gadget(cs, out, msg, 512);
    uint64_t c = cz_cs_num_constraints(cs) - c0;
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    return c;
}

static void test_sha_native_tree(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    sha_tree t;
    sha_tree_build(&t, &rng);
    for (unsigned leaf = 0; leaf < (1u << SHA_DEPTH); leaf++) {
        uint8_t sib[SHA_DEPTH][32], bits[SHA_DEPTH], root[32];
        sha_path(&t, leaf, sib, bits);
        cz_merkle_sha256_root(root, t.leaves[leaf], (const uint8_t(*)[32])sib, bits, SHA_DEPTH);
        assert_memory_equal(root, t.nodes[SHA_DEPTH][0], 32);
        assert_int_equal(root[31] & 0xc0, 0);
    }
}

static void test_sha_gadget(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    sha_tree t;
    sha_tree_build(&t, &rng);
    sha_ctx x;
    memset(&x, 0, sizeof x);
    unsigned leaf = (unsigned)(cz_rng_u64(&rng) % (1u << SHA_DEPTH));
    memcpy(x.leaf, t.leaves[leaf], 32);
    sha_path(&t, leaf, x.sib, x.bits);
    memcpy(x.pub_root, t.nodes[SHA_DEPTH][0], 32);

    run_result r;
    run_all(sha_circuit, &x, &r);
    assert_memory_equal(x.root, t.nodes[SHA_DEPTH][0], 32);
    uint64_t per_level = 512 + sha512_cost();
    printf("merkle sha256: %llu constraints per level (%llu for depth %d)\n",
           (unsigned long long)per_level, (unsigned long long)x.gadget_c, SHA_DEPTH);
    assert_int_equal(x.gadget_c, SHA_DEPTH * per_level);
    /* leaf, siblings and index bits as booleans, two packing constraints */
    assert_int_equal(r.nc, x.gadget_c + 256 * (SHA_DEPTH + 1) + SHA_DEPTH + 2);
    assert_int_equal(r.np, 2);

    /* a wrong sibling, then a flipped index bit: another root, and the
       true root as public input is refused */
    for (int bad = 0; bad < 2; bad++) {
        sha_ctx y = x;
        if (bad == 0)
            y.sib[1][5] ^= 0x10;
        else
            y.bits[2] ^= 1;
        uint8_t root[32];
        cz_merkle_sha256_root(root, y.leaf, (const uint8_t(*)[32])y.sib, y.bits, SHA_DEPTH);
        assert_memory_not_equal(root, x.pub_root, 32);
        assert_int_not_equal(run_check(sha_circuit, &y), CZ_OK);
        memcpy(y.pub_root, root, 32); /* consistent with its own root: fine */
        assert_int_equal(run_check(sha_circuit, &y), CZ_OK);
        cz_fr *w = run_witness(sha_circuit, &y, &r);
        char err[256];
        assert_int_equal(cz_shape_check(r.shape, w, err, sizeof err), CZ_OK);
        w[1] = r.w[1]; /* the true root's public inputs */
        w[2] = r.w[2];
        assert_int_not_equal(cz_shape_check(r.shape, w, err, sizeof err), CZ_OK);
        free(w);
    }
    run_free(&r);
}

/* ---- arity-8 Poseidon tree ---- */

#define P8_DEPTH 2

typedef struct {
    cz_fr leaf, sib[P8_DEPTH][7], pub_root, root;
    uint8_t bits[3 * P8_DEPTH];
    uint64_t gadget_c, gadget_a;
} p8_ctx;

static void p8_circuit(cz_cs *cs, void *vctx)
{
    p8_ctx *x = vctx;
    bool vals = cz_cs_has_values(cs);
    cz_num leaf = cz_num_alloc(cs, vals ? &x->leaf : NULL), sib[P8_DEPTH][7];
    cz_bool idx[3 * P8_DEPTH];
    for (int l = 0; l < P8_DEPTH; l++)
        for (int j = 0; j < 7; j++)
            sib[l][j] = cz_num_alloc(cs, vals ? &x->sib[l][j] : NULL);
    uint64_t c0 = cz_cs_num_constraints(cs), a0 = cz_cs_num_aux(cs);
    for (int i = 0; i < 3 * P8_DEPTH; i++)
        idx[i] = cz_bool_alloc(cs, x->bits[i]);
    cz_num root = cz_merkle_poseidon8_gadget(cs, &leaf, (const cz_num(*)[7])sib, idx, P8_DEPTH);
    x->gadget_c = cz_cs_num_constraints(cs) - c0;
    x->gadget_a = cz_cs_num_aux(cs) - a0;
    x->root = root.value;
    cz_num pub = cz_num_alloc_input(cs, vals ? &x->pub_root : NULL);
    cz_num_enforce_equal(cs, &pub, &root);
}

typedef struct {
    cz_fr nodes[P8_DEPTH + 1][64]; /* nodes[0]: 64 leaves */
} p8_tree;

static void p8_tree_build(p8_tree *t, cz_rng *rng)
{
    const cz_poseidon_params *p = cz_poseidon_params_get(8);
    assert_non_null(p);
    for (int i = 0; i < 64; i++)
        cz_fr_random(&t->nodes[0][i], rng);
    for (int l = 1; l <= P8_DEPTH; l++)
        for (int i = 0; i < (64 >> (3 * l)); i++)
            cz_poseidon_hash(p, &t->nodes[l][i], &t->nodes[l - 1][8 * i]);
}

static void p8_path(const p8_tree *t, unsigned leaf, p8_ctx *x)
{
    x->leaf = t->nodes[0][leaf];
    for (unsigned l = 0; l < P8_DEPTH; l++) {
        unsigned i = leaf >> (3 * l), pos = i & 7, base = i & ~7u;
        for (unsigned b = 0; b < 3; b++)
            x->bits[3 * l + b] = (pos >> b) & 1;
        for (unsigned j = 0, s = 0; j < 8; j++)
            if (j != pos)
                x->sib[l][s++] = t->nodes[l][base + j];
    }
    x->pub_root = t->nodes[P8_DEPTH][0];
}

static void test_p8_native_tree(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static p8_tree t;
    p8_tree_build(&t, &rng);
    for (unsigned leaf = 0; leaf < 64; leaf++) {
        p8_ctx x;
        cz_fr root;
        p8_path(&t, leaf, &x);
        cz_merkle_poseidon8_root(&root, &x.leaf, (const cz_fr(*)[7])x.sib, x.bits, P8_DEPTH);
        assert_true(cz_fr_eq(&root, &t.nodes[P8_DEPTH][0]));
    }
}

static void test_p8_gadget(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    static p8_tree t;
    p8_tree_build(&t, &rng);
    const uint64_t per_level = 22 + 505;

    /* every position of the first level, and of the second, in CHECK */
    for (unsigned leaf = 0; leaf < 64; leaf += 9) {
        p8_ctx x;
        p8_path(&t, leaf, &x);
        assert_int_equal(run_check(p8_circuit, &x), CZ_OK);
        assert_true(cz_fr_eq(&x.root, &t.nodes[P8_DEPTH][0]));
        assert_int_equal(x.gadget_c, P8_DEPTH * (per_level + 3));
    }

    p8_ctx x;
    unsigned leaf = (unsigned)(cz_rng_u64(&rng) % 64);
    p8_path(&t, leaf, &x);
    run_result r;
    run_all(p8_circuit, &x, &r);
    printf("merkle poseidon8: %llu constraints per level, %llu with the index bits\n",
           (unsigned long long)per_level, (unsigned long long)per_level + 3);
    assert_int_equal(x.gadget_c, P8_DEPTH * (per_level + 3));
    assert_int_equal(x.gadget_a, P8_DEPTH * (per_level + 3));
    assert_true(cz_fr_eq(&x.root, &t.nodes[P8_DEPTH][0]));
    assert_true(cz_fr_eq(&r.w[1], &t.nodes[P8_DEPTH][0]));
    assert_int_equal(r.np, 1);
    assert_int_equal(r.nc, x.gadget_c + 1);

    for (int bad = 0; bad < 3; bad++) {
        p8_ctx y = x;
        if (bad == 0)
            cz_fr_add(&y.sib[0][3], &y.sib[0][3], &y.leaf);
        else if (bad == 1)
            y.bits[0] ^= 1;
        else
            y.bits[5] ^= 1;
        cz_fr root;
        cz_merkle_poseidon8_root(&root, &y.leaf, (const cz_fr(*)[7])y.sib, y.bits, P8_DEPTH);
        assert_false(cz_fr_eq(&root, &x.pub_root));
        assert_int_not_equal(run_check(p8_circuit, &y), CZ_OK);
        y.pub_root = root;
        assert_int_equal(run_check(p8_circuit, &y), CZ_OK);
        cz_fr *w = run_witness(p8_circuit, &y, &r);
        char err[256];
        assert_int_equal(cz_shape_check(r.shape, w, err, sizeof err), CZ_OK);
        w[1] = x.pub_root;
        assert_int_not_equal(cz_shape_check(r.shape, w, err, sizeof err), CZ_OK);
        free(w);
    }
    run_free(&r);
}

static void test_bad_args(void **state)
{
    (void)state;
    uint8_t root[32], leaf[32] = {1};
    memset(root, 0xff, 32);
    cz_merkle_sha256_root(root, NULL, NULL, NULL, 2);
    for (int i = 0; i < 32; i++)
        assert_int_equal(root[i], 0);
    cz_merkle_sha256_root(root, leaf, NULL, NULL, 0); /* depth 0: the leaf */
    assert_memory_equal(root, leaf, 32);
    cz_merkle_sha256_root(NULL, leaf, NULL, NULL, 0);
    cz_fr r, l;
    cz_fr_set_u64(&l, 5);
    cz_merkle_poseidon8_root(&r, &l, NULL, NULL, 1);
    assert_true(cz_fr_is_zero(&r));
    cz_merkle_poseidon8_root(&r, &l, NULL, NULL, 0);
    assert_true(cz_fr_eq(&r, &l));

    char err[256];
    cz_cs *cs;
    cz_bool bits[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    for (int i = 0; i < 256; i++)
        bits[i] = cz_bool_alloc(cs, i & 1);
    cz_merkle_sha256_gadget(cs, bits, bits, NULL, NULL, 1);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    cz_num n = cz_num_alloc(cs, &l);
    (void)cz_merkle_poseidon8_gadget(cs, &n, NULL, NULL, 1);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_ARG);
    cz_cs_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha_node_kat),
        cmocka_unit_test(test_sha_native_tree),
        cmocka_unit_test(test_sha_gadget),
        cmocka_unit_test(test_p8_native_tree),
        cmocka_unit_test(test_p8_gadget),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
