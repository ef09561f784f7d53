/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_native_key.c: keys made in memory from a recorded circuit
 * (cz_zkey_from_shape), loaded keys turned compact (cz_zkey_compact) and
 * the prover over both (src/groth16/native.c, prove.c).
 *
 * For a small hand-made circuit (coefficients 1, -1, 7, 2^5 and a large
 * one; a wire only in A, one only in B, one only in C, a public input)
 * and for porep-mini's shape with a witness from a generated c1 file:
 *  - a seeded cz_zkey_from_shape equals the seeded cz_groth16_setup key
 *    of cz_shape_to_r1cs(shape), written to a temp file and loaded: the
 *    same verification key, the same points (B1/B2 through b_idx; the
 *    .zkey's B points of wires not in B are infinity), and b_idx is
 *    exactly the wires that occur in B;
 *  - with fixed r, s the proofs of both keys on the CPU backend are
 *    byte-identical and verify; so is the proof of the loaded key after
 *    cz_zkey_compact;
 *  - the same key with C folded (cz_setup_opts.fold_c) has the same vk
 *    and points but C's, and cpub; with the same r, s its proof (4 NTTs,
 *    no c) is byte-identical to the others;
 *  - a witness with one value changed does not verify (either key);
 *  - the fixed-base products equal plain scalar multiplication, and the
 *    key is the same with and without the backend's hooks;
 *  - cz_zkey_compact refuses 65,537 distinct coefficients (key unchanged)
 *    and takes 65,536.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "circuit/c1.h"
#include "circuit/porep.h"
#include "groth16/groth16.h"
#include "groth16/native.h"
#include "util/threadpool.h"

static char tmpdir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cz_native_key_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char path[320];
    snprintf(path, sizeof path, "%s/key.zkey", tmpdir);
    unlink(path);
    rmdir(tmpdir);
    return 0;
}

static bool g1_eq(const cz_g1_affine *a, const cz_g1_affine *b)
{
    return !memcmp(a, b, sizeof *a);
}

static bool g2_eq(const cz_g2_affine *a, const cz_g2_affine *b)
{
    return !memcmp(a, b, sizeof *a);
}

static void check_same_points(const cz_zkey *nk, const cz_zkey *lk, const cz_shape *shape)
{
    assert_int_equal(nk->n_vars, lk->n_vars);
    assert_int_equal(nk->n_public, lk->n_public);
    assert_int_equal(nk->domain_size, lk->domain_size);
    assert_int_equal(nk->log_n, lk->log_n);
    assert_true(g1_eq(&nk->alpha1, &lk->alpha1));
    assert_true(g1_eq(&nk->beta1, &lk->beta1));
    assert_true(g1_eq(&nk->delta1, &lk->delta1));
    assert_true(g2_eq(&nk->beta2, &lk->beta2));
    assert_true(g2_eq(&nk->gamma2, &lk->gamma2));
    assert_true(g2_eq(&nk->delta2, &lk->delta2));
    assert_memory_equal(nk->ic, lk->ic, (nk->n_public + 1) * sizeof *nk->ic);
    assert_memory_equal(nk->a, lk->a, nk->n_vars * sizeof *nk->a);
    assert_memory_equal(nk->c, lk->c, (nk->n_vars - nk->n_public - 1) * sizeof *nk->c);
    assert_memory_equal(nk->h, lk->h, nk->domain_size * sizeof *nk->h);
    /* b_idx: exactly the wires in B, ascending */
    uint8_t *in_b = calloc(nk->n_vars, 1);
    assert_non_null(in_b);
    for (uint64_t k = 0; k < shape->m[1].nnz; k++)
        in_b[shape->m[1].col[k]] = 1;
    uint32_t nb = 0;
    for (uint32_t s = 0; s < nk->n_vars; s++)
        nb += in_b[s];
    assert_int_equal(nk->n_b, nb);
    assert_non_null(nk->b_idx);
    for (uint32_t k = 0; k < nk->n_b; k++) {
        assert_true(k == 0 || nk->b_idx[k] > nk->b_idx[k - 1]);
        assert_true(in_b[nk->b_idx[k]]);
        assert_true(g1_eq(&nk->b1[k], &lk->b1[nk->b_idx[k]]));
        assert_true(g2_eq(&nk->b2[k], &lk->b2[nk->b_idx[k]]));
    }
    cz_g1_affine inf1;
    cz_g2_affine inf2;
    cz_g1_affine_infinity(&inf1);
    cz_g2_affine_infinity(&inf2);
    for (uint32_t s = 0; s < nk->n_vars; s++)
        if (!in_b[s]) {
            assert_true(g1_eq(&lk->b1[s], &inf1));
            assert_true(g2_eq(&lk->b2[s], &inf2));
        }
    free(in_b);
    /* the compact matrices: A is the shape's A then the public rows */
    assert_true(nk->compact);
    assert_int_equal(nk->ca.n_rows, shape->n_constraints + shape->n_public + 1);
    assert_int_equal(nk->ca.nnz, shape->m[0].nnz + shape->n_public + 1);
    assert_int_equal(nk->cb.n_rows, shape->n_constraints);
    assert_int_equal(nk->cb.nnz, shape->m[1].nnz);
    assert_int_equal(nk->qa.nnz + nk->qb.nnz, 0);
    assert_true(nk->uid != 0 && nk->uid != lk->uid);
}

static void check_same_vk(const cz_zkey *nk, const cz_zkey *lk)
{
    cz_vk *v1, *v2;
    assert_int_equal(cz_vk_from_zkey(&v1, nk), CZ_OK);
    assert_int_equal(cz_vk_from_zkey(&v2, lk), CZ_OK);
    assert_int_equal(v1->n_public, v2->n_public);
    assert_true(g1_eq(&v1->alpha1, &v2->alpha1));
    assert_true(g2_eq(&v1->beta2, &v2->beta2));
    assert_true(g2_eq(&v1->gamma2, &v2->gamma2));
    assert_true(g2_eq(&v1->delta2, &v2->delta2));
    assert_memory_equal(v1->ic, v2->ic, (v1->n_public + 1) * sizeof *v1->ic);
    cz_vk_free(v1);
    cz_vk_free(v2);
}

static void prove_ok(cz_proof *pf, const cz_zkey *key, const cz_fr *w, cz_backend *be,
                     const cz_fr rs[2])
{
    char err[512];
    cz_status st = cz_groth16_prove(pf, key, w, be, rs, NULL, err, sizeof err);
    if (st)
        fail_msg("prove: %s", err);
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, key), CZ_OK);
    st = cz_groth16_verify(vk, w + 1, key->n_public, pf, err, sizeof err);
    if (st)
        fail_msg("verify: %s", err);
    cz_vk_free(vk);
}

/* The whole comparison for one shape and a satisfying witness w. */
static void compare(const cz_shape *shape, const cz_fr *w, uint64_t seed, const char *what)
{
    char err[512], path[320];
    snprintf(path, sizeof path, "%s/key.zkey", tmpdir);
    cz_backend *be;
    assert_int_equal(cz_backend_cpu_create(&be, 2), CZ_OK);
    assert_non_null(be->fixed_base_g1);
    assert_non_null(be->fixed_base_g2);
    cz_setup_opts o = {.seeded = true, .seed = seed, .threads = 2};

    cz_zkey *nk;
    cz_status st = cz_zkey_from_shape(&nk, shape, &o, be, err, sizeof err);
    if (st)
        fail_msg("%s: from shape: %s", what, err);
    cz_r1cs *r1cs;
    assert_int_equal(cz_shape_to_r1cs(shape, &r1cs, err, sizeof err), CZ_OK);
    st = cz_groth16_setup(r1cs, path, &o, err, sizeof err);
    if (st)
        fail_msg("%s: setup: %s", what, err);
    cz_r1cs_free(r1cs);
    cz_zkey *lk;
    st = cz_zkey_load(&lk, path, 2, err, sizeof err);
    if (st)
        fail_msg("%s: load: %s", what, err);
    check_same_points(nk, lk, shape);
    check_same_vk(nk, lk);

    /* proofs with fixed r, s */
    cz_rng rng;
    cz_rng_seed(&rng, seed + 1);
    cz_fr rs[2];
    cz_fr_random(&rs[0], &rng);
    cz_fr_random(&rs[1], &rng);
    cz_proof p1, p2, p3;
    prove_ok(&p1, nk, w, be, rs);
    prove_ok(&p2, lk, w, be, rs);
    assert_memory_equal(&p1, &p2, sizeof p1);

    /* the loaded key made compact proves the same */
    st = cz_zkey_compact(lk, err, sizeof err);
    if (st)
        fail_msg("%s: compact: %s", what, err);
    assert_true(lk->compact);
    assert_int_equal(lk->qa.nnz + lk->qb.nnz, 0);
    assert_int_equal(lk->n_b, nk->n_b);
    assert_memory_equal(lk->b_idx, nk->b_idx, nk->n_b * sizeof *nk->b_idx);
    assert_memory_equal(lk->b1, nk->b1, nk->n_b * sizeof *nk->b1);
    assert_memory_equal(lk->b2, nk->b2, nk->n_b * sizeof *nk->b2);
    assert_true(lk->n_coefs >= 1 && lk->n_coefs <= nk->n_coefs + 1);
    prove_ok(&p3, lk, w, be, rs);
    assert_memory_equal(&p1, &p3, sizeof p1);
    assert_int_equal(cz_zkey_compact(lk, err, sizeof err), CZ_OK); /* already: no-op */

    /* C folded into the key: the same vk, points but C's, the same proof */
    cz_setup_opts of = o;
    of.fold_c = true;
    cz_zkey *fk;
    st = cz_zkey_from_shape(&fk, shape, &of, be, err, sizeof err);
    if (st)
        fail_msg("%s: folded key: %s", what, err);
    assert_null(nk->cpub);
    assert_non_null(fk->cpub);
    check_same_vk(fk, nk);
    assert_memory_equal(fk->a, nk->a, nk->n_vars * sizeof *nk->a);
    assert_memory_equal(fk->h, nk->h, nk->domain_size * sizeof *nk->h);
    assert_memory_equal(fk->b1, nk->b1, nk->n_b * sizeof *nk->b1);
    size_t npriv = nk->n_vars - nk->n_public - 1;
    assert_true(memcmp(fk->c, nk->c, npriv * sizeof *nk->c) != 0); /* wires in C moved */
    cz_proof pf;
    prove_ok(&pf, fk, w, be, rs);
    assert_memory_equal(&p1, &pf, sizeof p1);

    /* one changed witness value (the last aux wire): no longer verifies */
    uint64_t nw = 1 + (uint64_t)shape->n_public + shape->n_aux;
    cz_fr *bad = malloc(nw * sizeof *bad);
    assert_non_null(bad);
    memcpy(bad, w, nw * sizeof *bad);
    cz_fr one;
    cz_fr_one(&one);
    cz_fr_add(&bad[nw - 1], &bad[nw - 1], &one);
    assert_int_not_equal(cz_shape_check(shape, bad, err, sizeof err), CZ_OK);
    cz_proof pb;
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, nk), CZ_OK);
    const cz_zkey *both[2] = {nk, fk};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(cz_groth16_prove(&pb, both[i], bad, be, rs, NULL, err, sizeof err), CZ_OK);
        assert_int_equal(cz_groth16_verify(vk, bad + 1, nk->n_public, &pb, err, sizeof err),
                         CZ_ERR_VERIFY);
    }
    cz_vk_free(vk);
    free(bad);
    printf("%s: %u wires, %u public, domain 2^%u, %u wires in B, %u coefficients: keys, "
           "vk and proofs agree (C folded too)\n", what, nk->n_vars, nk->n_public, nk->log_n,
           nk->n_b, nk->n_coefs);
    cz_zkey_free(fk);
    cz_zkey_free(nk);
    cz_zkey_free(lk);
    cz_backend_destroy(be);
}

/* ---- a small hand-made circuit ---- */

static void small_circuit(cz_cs *cs, uint64_t x0)
{
    cz_fr x, y, z, t, q, q2, pub, k, one;
    cz_fr_one(&one);
    cz_fr_set_u64(&x, x0);
    cz_fr_mul(&y, &x, &x);
    cz_fr_mul(&z, &y, &x);
    /* pub = z + 7x + 5 */
    cz_fr_set_u64(&k, 7);
    cz_fr_mul(&pub, &k, &x);
    cz_fr_add(&pub, &pub, &z);
    cz_fr_set_u64(&k, 5);
    cz_fr_add(&pub, &pub, &k);
    /* t = 32 (x - y) */
    cz_fr_sub(&t, &x, &y);
    cz_fr_set_u64(&k, 32);
    cz_fr_mul(&t, &t, &k);
    cz_fr_set_u64(&q, 11);
    cz_fr_mul(&q2, &q, &q);
    cz_var vpub = cz_cs_alloc_input(cs, &pub);
    cz_var vx = cz_cs_alloc(cs, &x), vy = cz_cs_alloc(cs, &y), vz = cz_cs_alloc(cs, &z);
    cz_var vt = cz_cs_alloc(cs, &t), vq = cz_cs_alloc(cs, &q), vq2 = cz_cs_alloc(cs, &q2);
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    /* x * x = y */
    cz_lc_add_i64(&a, vx, 1);
    cz_lc_add_i64(&b, vx, 1);
    cz_lc_add_i64(&c, vy, 1);
    cz_cs_enforce(cs, &a, &b, &c);
    /* y * x = z */
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_i64(&a, vy, 1);
    cz_lc_add_i64(&b, vx, 1);
    cz_lc_add_i64(&c, vz, 1);
    cz_cs_enforce(cs, &a, &b, &c);
    /* (z + 7x + 5) * 1 = pub */
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_i64(&a, vz, 1);
    cz_lc_add_i64(&a, vx, 7);
    cz_lc_add_i64(&a, cz_var_one(), 5);
    cz_lc_add_i64(&b, cz_var_one(), 1);
    cz_lc_add_i64(&c, vpub, 1);
    cz_cs_enforce(cs, &a, &b, &c);
    /* (x - y) * 2^5 = t */
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add_i64(&a, vx, 1);
    cz_lc_add_i64(&a, vy, -1);
    cz_lc_add_pow2(&b, cz_var_one(), 5, false);
    cz_lc_add_i64(&c, vt, 1);
    cz_cs_enforce(cs, &a, &b, &c);
    /* q only in B and A, q2 only in C; a large coefficient: (K q - K q) * q = 0 * q2 */
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_fr big;
    cz_fr_set_u64(&big, 0x1234567890abcdefULL);
    cz_fr_mul(&big, &big, &big);
    cz_lc_add_i64(&a, vq, 1);
    cz_lc_add(&b, vq, &one);
    cz_lc_add_i64(&c, vq2, 1);
    cz_cs_enforce(cs, &a, &b, &c);
    /* t * big = big t, with t also in B */
    cz_lc_clear(&a), cz_lc_clear(&b), cz_lc_clear(&c);
    cz_lc_add(&a, cz_var_one(), &big);
    cz_lc_add_i64(&b, vt, 1);
    cz_lc_add(&c, vt, &big);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
}

static void test_small_circuit(void **state)
{
    (void)state;
    char err[512];
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    small_circuit(cs, 3);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_shape *shape;
    assert_int_equal(cz_cs_take_shape(cs, &shape, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    uint64_t nw = 1 + (uint64_t)shape->n_public + shape->n_aux;
    cz_fr *w = calloc(nw, sizeof *w);
    assert_non_null(w);
    assert_int_equal(cz_cs_new_check(&cs, w, shape->n_public, shape->n_aux), CZ_OK);
    small_circuit(cs, 3);
    cz_status st = cz_cs_finish(cs, err, sizeof err);
    if (st)
        fail_msg("small circuit CHECK: %s", err);
    cz_cs_free(cs);
    assert_int_equal(cz_shape_check(shape, w, err, sizeof err), CZ_OK);
    compare(shape, w, cz_test_seed(), "small circuit");
    free(w);
    cz_shape_free(shape);
}

static void test_porep_mini(void **state)
{
    (void)state;
    char err[512];
    const cz_porep_params *p = cz_porep_preset("porep-mini");
    assert_non_null(p);
    cz_shape *shape;
    cz_status st = cz_porep_shape(p, &shape, err, sizeof err);
    if (st)
        fail_msg("shape: %s", err);
    uint64_t seed = cz_test_seed();
    cz_c1 *c1;
    assert_int_equal(cz_c1_generate(&c1, p, seed, err, sizeof err), CZ_OK);
    cz_porep_partition in;
    assert_int_equal(cz_c1_partition(c1, 0, &in, err, sizeof err), CZ_OK);
    cz_fr *w;
    uint64_t nw;
    st = cz_porep_witness_alloc(p, &in, NULL, &w, &nw, err, sizeof err);
    if (st)
        fail_msg("witness: %s", err);
    assert_int_equal(cz_shape_check(shape, w, err, sizeof err), CZ_OK);
    compare(shape, w, seed, "porep-mini");
    cz_porep_witness_free(w, nw);
    cz_c1_free(c1);
    cz_shape_free(shape);
}

/* Fixed-base products against plain scalar multiplication, edge scalars
   included; the key without a backend equals the key with one. */
static void test_fixed_base(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    enum { N = 600 };
    cz_fr *sc = malloc(N * sizeof *sc);
    cz_g1_affine *p1 = malloc(N * sizeof *p1), g1;
    cz_g2_affine *p2 = malloc(N * sizeof *p2), g2;
    assert_true(sc && p1 && p2);
    for (int i = 0; i < N; i++)
        cz_fr_random(&sc[i], &rng);
    cz_fr_zero(&sc[0]);
    cz_fr_one(&sc[1]);
    cz_fr_neg(&sc[2], &sc[1]);
    cz_fr_set_u64(&sc[3], 512);
    cz_fr_set_u64(&sc[4], 513);
    sc[5] = sc[7]; /* equal scalars in one group */
    cz_threadpool *pool = cz_threadpool_create(2);
    assert_int_equal(cz_fixed_base_g1(p1, sc, N, pool), CZ_OK);
    assert_int_equal(cz_fixed_base_g2(p2, sc, N, pool), CZ_OK);
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    for (int i = 0; i < N; i += (i < 10 ? 1 : 37)) {
        cz_g1_jac j1;
        cz_g2_jac j2;
        cz_g1_affine a1;
        cz_g2_affine a2;
        cz_g1_jac_from_affine(&j1, &g1);
        cz_g1_jac_mul(&j1, &j1, &sc[i]);
        cz_g1_jac_to_affine(&a1, &j1);
        cz_g2_jac_from_affine(&j2, &g2);
        cz_g2_jac_mul(&j2, &j2, &sc[i]);
        cz_g2_jac_to_affine(&a2, &j2);
        assert_memory_equal(&a1, &p1[i], sizeof a1);
        assert_memory_equal(&a2, &p2[i], sizeof a2);
    }
    cz_g1_affine inf;
    cz_g1_affine_infinity(&inf);
    assert_memory_equal(&p1[0], &inf, sizeof inf);
    cz_threadpool_destroy(pool);
    free(sc);
    free(p1);
    free(p2);

    /* without a backend (CPU functions) the same key as with the CPU hooks */
    char err[512];
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    small_circuit(cs, 5);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_shape *shape;
    assert_int_equal(cz_cs_take_shape(cs, &shape, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    cz_setup_opts o = {.seeded = true, .seed = 99, .threads = 1};
    cz_backend *be;
    assert_int_equal(cz_backend_cpu_create(&be, 1), CZ_OK);
    cz_zkey *k1, *k2;
    assert_int_equal(cz_zkey_from_shape(&k1, shape, &o, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_zkey_from_shape(&k2, shape, &o, be, err, sizeof err), CZ_OK);
    assert_memory_equal(k1->a, k2->a, k1->n_vars * sizeof *k1->a);
    assert_memory_equal(k1->b2, k2->b2, k1->n_b * sizeof *k1->b2);
    assert_memory_equal(k1->h, k2->h, k1->domain_size * sizeof *k1->h);
    /* another seed: another key */
    o.seed = 100;
    cz_zkey *k3;
    assert_int_equal(cz_zkey_from_shape(&k3, shape, &o, NULL, err, sizeof err), CZ_OK);
    assert_memory_not_equal(&k1->delta1, &k3->delta1, sizeof k1->delta1);
    cz_zkey_free(k3);
    /* bad input is refused, not a crash */
    assert_int_equal(cz_zkey_from_shape(&k3, NULL, &o, NULL, err, sizeof err), CZ_ERR_ARG);
    assert_int_equal(cz_zkey_compact(NULL, err, sizeof err), CZ_ERR_ARG);
    cz_zkey_free(k1);
    cz_zkey_free(k2);
    cz_backend_destroy(be);
    cz_shape_free(shape);
}

/* More than 65,536 distinct coefficients: refused, the key left as it was. */
static void test_compact_too_many_coefs(void **state)
{
    (void)state;
    char err[512];
    enum { NNZ = 65537 + 10 };
    cz_zkey *key = calloc(1, sizeof *key);
    assert_non_null(key);
    key->n_vars = 2;
    key->domain_size = 4;
    key->log_n = 2;
    cz_csr *q[2] = {&key->qa, &key->qb};
    for (int m = 0; m < 2; m++) {
        uint64_t nnz = m ? 1 : NNZ;
        q[m]->n_rows = 4;
        q[m]->nnz = nnz;
        q[m]->row_ptr = calloc(5, sizeof *q[m]->row_ptr);
        q[m]->col = calloc(nnz, sizeof *q[m]->col);
        q[m]->val = calloc(nnz, sizeof *q[m]->val);
        assert_true(q[m]->row_ptr && q[m]->col && q[m]->val);
        for (int r = 1; r <= 4; r++)
            q[m]->row_ptr[r] = nnz;
        for (uint64_t k = 0; k < nnz; k++) {
            cz_fr_set_u64(&q[m]->val[k], k % 65537 + 1); /* 65,537 distinct */
            q[m]->col[k] = (uint32_t)(k & 1);
        }
    }
    cz_g1_affine b1[2];
    cz_g2_affine b2[2];
    memset(b1, 0, sizeof b1);
    memset(b2, 0, sizeof b2);
    key->b1 = b1;
    key->b2 = b2;
    assert_int_equal(cz_zkey_compact(key, err, sizeof err), CZ_ERR_UNSUPPORTED);
    assert_non_null(strstr(err, "65,536"));
    assert_false(key->compact);
    assert_int_equal(key->qa.nnz, NNZ);
    assert_null(key->b_idx);
    assert_true(key->b1 == b1);
    /* one value fewer fits */
    for (uint64_t k = 0; k < NNZ; k++)
        cz_fr_set_u64(&key->qa.val[k], k % 65536 + 1);
    assert_int_equal(cz_zkey_compact(key, err, sizeof err), CZ_OK);
    assert_true(key->compact);
    assert_int_equal(key->n_coefs, 65536);
    assert_int_equal(key->n_b, 1);
    assert_int_equal(key->b_idx[0], 0);
    assert_int_equal(key->ca.nnz, NNZ);
    for (uint64_t k = 1; k < NNZ; k++)
        assert_true(key->ca.col[k - 1] <= key->ca.col[k]); /* sorted in the row */
    cz_zkey_free(key);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_base),
        cmocka_unit_test(test_compact_too_many_coefs),
        cmocka_unit_test(test_small_circuit),
        cmocka_unit_test(test_porep_mini),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
