/* ctest: labels=unit timeout=300 */
/*
 * test_bn254_prover.c: the BN254 ("bn128") proving key reader, witness
 * reader and prover (groth16_bn254.h), without npm.
 *
 * Fixtures: tests/fixtures/bn254/small.zkey (a snarkjs key of
 * tests/circuits/small.circom), and three witnesses snarkjs computed for
 * it (small.wtns; small_2.wtns and small_3.wtns with other inputs, one
 * with a = 0 and b = r - 1). Every proof is verified: by the BN254
 * verifier with the key's own vk, and with snarkjs's exported vk
 * (small_vk.json) through the JSON entry point, so the key reader agrees
 * with snarkjs on every point the verifier uses. A witness changed in one
 * value proves to an invalid proof. The readers refuse truncated keys,
 * the other curve's key and witness, points off the curve or out of
 * range, coefficients out of range, witnesses of the wrong length, with a
 * value >= r or w[0] != 1, each with its status and never a crash.
 */
#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/prover.h"
#include "groth16/groth16_bn254.h"
#include "io/binfile.h"
#include "util/threadpool.h"

#define FIX "tests/fixtures/bn254/"

static uint8_t *read_fix(const char *rel, size_t *len)
{
    uint8_t *b = cz_test_read_file(cz_test_src_path(rel), len);
    assert_non_null(b);
    return b;
}

static cz_bn254_zkey *load_small(void)
{
    cz_bn254_zkey *key = NULL;
    char err[256] = "";
    cz_status st = cz_bn254_zkey_load_ex(&key, cz_test_src_path(FIX "small.zkey"), NULL, err,
                                         sizeof err);
    if (st)
        printf("load: %s\n", err);
    assert_int_equal(st, CZ_OK);
    return key;
}

static void test_key(void **state)
{
    (void)state;
    cz_bn254_zkey *key = load_small();
    /* small.circom on BN254: as its BLS12-381 twin (tests/fixtures/README.md) */
    assert_int_equal(key->n_vars, 113);
    assert_int_equal(key->n_public, 4);
    assert_int_equal(key->domain_size, 128);
    assert_int_equal(key->log_n, 7);
    assert_true(key->qa.nnz > 0 && key->qb.nnz > 0);
    /* the same key from bytes, and from a private copy */
    size_t len;
    uint8_t *z = read_fix(FIX "small.zkey", &len);
    assert_true(cz_zkey_bytes_are_bn254(z, len));
    assert_true(cz_zkey_file_is_bn254(cz_test_src_path(FIX "small.zkey")));
    cz_bn254_zkey *k2 = NULL;
    char err[256];
    assert_int_equal(cz_bn254_zkey_load_bytes(&k2, z, len, "small.zkey", 2, err, sizeof err),
                     CZ_OK);
    memset(z, 0, len); /* copied: the caller's bytes may go */
    assert_int_equal(k2->qa.nnz, key->qa.nnz);
    assert_memory_equal(k2->h, key->h, key->domain_size * sizeof *key->h);
    assert_memory_equal(k2->b2, key->b2, key->n_vars * sizeof *key->b2);
    assert_memory_equal(&k2->delta2, &key->delta2, sizeof key->delta2);
    cz_bn254_zkey *k3 = NULL;
    cz_zkey_load_opts o = {.threads = 1, .private_copy = true};
    assert_int_equal(cz_bn254_zkey_load_ex(&k3, cz_test_src_path(FIX "small.zkey"), &o, err,
                                           sizeof err), CZ_OK);
    assert_memory_equal(k3->a, key->a, key->n_vars * sizeof *key->a);
    assert_memory_equal(k3->qb.val, key->qb.val, key->qb.nnz * sizeof *key->qb.val);
    /* its vk is snarkjs's exported small_vk.json, byte for byte (with
       vk_alphabeta_12 = e(alpha1, beta2) computed here) */
    cz_bn254_vk *vk = NULL;
    assert_int_equal(cz_bn254_vk_from_zkey(&vk, key), CZ_OK);
    char *vj = cz_bn254_vk_to_json(vk);
    size_t vl;
    uint8_t *want = read_fix(FIX "small_vk.json", &vl);
    assert_non_null(vj);
    assert_int_equal(strlen(vj), vl);
    assert_memory_equal(vj, want, vl);
    free(vj);
    free(want);
    cz_bn254_vk_free(vk);
    /* the BLS12-381 key is not BN254 */
    uint8_t *bz = read_fix("tests/fixtures/small.zkey", &len);
    assert_false(cz_zkey_bytes_are_bn254(bz, len));
    assert_false(cz_zkey_file_is_bn254(cz_test_src_path("tests/fixtures/small.zkey")));
    assert_false(cz_zkey_file_is_bn254("/nonexistent/key.zkey"));
    free(bz);
    free(z);
    cz_bn254_zkey_free(k2);
    cz_bn254_zkey_free(k3);
    cz_bn254_zkey_free(key);
    cz_bn254_zkey_free(NULL);
}

static char *read_text(const char *rel, size_t *len)
{
    return (char *)read_fix(rel, len);
}

/* prove w with the key, check it against the key's vk and snarkjs's */
static void prove_and_verify(const cz_bn254_zkey *key, const cz_bn254_fr *w, cz_threadpool *pool,
                             const cz_bn254_fr *rs, cz_bn254_proof *proof, cz_status want)
{
    char err[512] = "";
    cz_prove_timings tm;
    cz_status st = cz_bn254_groth16_prove(proof, key, w, pool, rs, &tm, err, sizeof err);
    if (st)
        printf("prove: %s\n", err);
    assert_int_equal(st, CZ_OK);
    assert_string_equal(tm.tier, "host");
    assert_true(tm.total_ms >= 0);
    cz_bn254_vk *vk = NULL;
    assert_int_equal(cz_bn254_vk_from_zkey(&vk, key), CZ_OK);
    st = cz_bn254_groth16_verify(vk, w + 1, key->n_public, proof, err, sizeof err);
    assert_int_equal(st, want);
    cz_bn254_vk_free(vk);
    /* the JSON a user gets, against snarkjs's exported vk */
    char *pj = cz_bn254_proof_to_json(proof);
    char *uj = cz_bn254_public_to_json(w + 1, key->n_public);
    assert_non_null(pj);
    assert_non_null(uj);
    assert_non_null(strstr(pj, "\"curve\": \"bn128\""));
    size_t lv;
    char *vkj = read_text(FIX "small_vk.json", &lv);
    st = cz_bn254_verify_json_named(vkj, lv, "vk", uj, strlen(uj), "public", pj, strlen(pj),
                                    "proof", err, sizeof err);
    assert_int_equal(st, want);
    /* cz_verify_json names the curve from the key */
    assert_int_equal(cz_verify_json_named(vkj, lv, "vk", uj, strlen(uj), "public", pj,
                                          strlen(pj), "proof", err, sizeof err), want);
    free(vkj);
    free(pj);
    free(uj);
}

static void test_prove_witnesses(void **state)
{
    (void)state;
    cz_bn254_zkey *key = load_small();
    const char *wt[3] = {FIX "small.wtns", FIX "small_2.wtns", FIX "small_3.wtns"};
    cz_threadpool *pool = cz_threadpool_create(3);
    for (int i = 0; i < 3; i++) {
        size_t len;
        uint8_t *b = read_fix(wt[i], &len);
        assert_true(cz_wtns_bytes_are_bn254(b, len));
        cz_bn254_fr *w;
        uint32_t n;
        char err[256];
        assert_int_equal(cz_bn254_wtns_parse(&w, &n, b, len, wt[i], key->n_vars, err, sizeof err),
                         CZ_OK);
        assert_int_equal(n, key->n_vars);
        cz_bn254_proof p1, p2, p3;
        prove_and_verify(key, w, NULL, NULL, &p1, CZ_OK);    /* one thread */
        prove_and_verify(key, w, pool, NULL, &p2, CZ_OK);    /* three */
        /* fresh r, s: another proof of the same statement */
        assert_false(cz_bn254_g1_affine_eq(&p1.a, &p2.a));
        /* fixed r, s: the same proof on any thread count */
        cz_rng rng;
        cz_test_rng(&rng);
        cz_bn254_fr rs[2];
        cz_bn254_fr_random(&rs[0], &rng);
        cz_bn254_fr_random(&rs[1], &rng);
        prove_and_verify(key, w, NULL, rs, &p1, CZ_OK);
        prove_and_verify(key, w, pool, rs, &p3, CZ_OK);
        assert_memory_equal(&p1, &p3, sizeof p1);
        /* r = s = 0 is still a valid (unblinded) proof */
        cz_bn254_fr zero[2];
        cz_bn254_fr_zero(&zero[0]);
        cz_bn254_fr_zero(&zero[1]);
        prove_and_verify(key, w, pool, zero, &p1, CZ_OK);
        /* a witness that does not satisfy the circuit: an invalid proof */
        cz_bn254_fr one;
        cz_bn254_fr_one(&one);
        cz_bn254_fr_add(&w[n - 1], &w[n - 1], &one);
        prove_and_verify(key, w, pool, NULL, &p1, CZ_ERR_VERIFY);
        cz_bn254_wtns_free(w, n);
        free(b);
    }
    /* the public signals of small.wtns are snarkjs's small_public.json */
    size_t len, lp;
    uint8_t *b = read_fix(FIX "small.wtns", &len);
    cz_bn254_fr *w;
    uint32_t n;
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, b, len, "w", 0, NULL, 0), CZ_OK);
    char *uj = cz_bn254_public_to_json(w + 1, key->n_public);
    char *pub = read_text(FIX "small_public.json", &lp);
    assert_int_equal(strlen(uj), lp);
    assert_memory_equal(uj, pub, lp);
    free(uj);
    free(pub);
    cz_bn254_wtns_free(w, n);
    free(b);
    /* a key described without its matrices cannot prove */
    cz_bn254_zkey *k2 = NULL;
    cz_zkey_load_opts o = {.no_matrices = true};
    assert_int_equal(cz_bn254_zkey_load_ex(&k2, cz_test_src_path(FIX "small.zkey"), &o, NULL, 0),
                     CZ_OK);
    assert_int_equal(k2->qa.nnz, key->qa.nnz);
    cz_bn254_proof p;
    cz_bn254_fr dummy[113];
    memset(dummy, 0, sizeof dummy);
    assert_int_equal(cz_bn254_groth16_prove(&p, k2, dummy, NULL, NULL, NULL, NULL, 0), CZ_ERR_ARG);
    assert_int_equal(cz_bn254_groth16_prove(NULL, key, dummy, NULL, NULL, NULL, NULL, 0),
                     CZ_ERR_ARG);
    cz_bn254_zkey_free(k2);
    cz_threadpool_destroy(pool);
    cz_bn254_zkey_free(key);
}

/* ---- refusals ---- */

static cz_status load_mem(const uint8_t *b, size_t len, char *err, size_t err_len)
{
    cz_bn254_zkey *k = NULL;
    cz_status st = cz_bn254_zkey_load_bytes(&k, b, len, "t.zkey", 1, err, err_len);
    assert_true(st == CZ_OK ? k != NULL : k == NULL);
    cz_bn254_zkey_free(k);
    return st;
}

/* offset of section `id`'s data in a container */
static size_t section_at(const uint8_t *b, size_t len, uint32_t id, uint64_t *size)
{
    size_t pos = 12;
    while (pos + 12 <= len) {
        uint32_t sid = cz_le32(b + pos);
        uint64_t sz = cz_le64(b + pos + 4);
        if (sid == id) {
            *size = sz;
            return pos + 12;
        }
        pos += 12 + sz;
    }
    fail_msg("section %u not found", id);
    return 0;
}

static void test_key_refusals(void **state)
{
    (void)state;
    size_t len;
    uint8_t *z = read_fix(FIX "small.zkey", &len);
    uint8_t *t = malloc(len);
    char err[512];
    /* truncated anywhere: refused, never a crash */
    for (size_t cut = 0; cut < len; cut += (cut < 2048 ? 1 : 97)) {
        err[0] = 0;
        cz_status st = load_mem(z, cut, err, sizeof err);
        assert_int_not_equal(st, CZ_OK);
        assert_true(err[0] != 0);
    }
    /* the other curve: named */
    size_t blen;
    uint8_t *bz = read_fix("tests/fixtures/small.zkey", &blen);
    assert_int_equal(load_mem(bz, blen, err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "BN254"));
    free(bz);
    uint64_t sz;
    /* a coordinate of an A point changed: off the curve */
    size_t a = section_at(z, len, 5, &sz);
    memcpy(t, z, len);
    t[a + 64 * 3 + 5] ^= 0x10;
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err, "A points"));
    /* a B2 coordinate >= p (all ones) */
    size_t b2 = section_at(z, len, 7, &sz);
    memcpy(t, z, len);
    memset(t + b2 + 128 * 2, 0xff, 32);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, ">= p"));
    /* an H point off the curve (the last one) */
    size_t h = section_at(z, len, 9, &sz);
    memcpy(t, z, len);
    t[h + sz - 1] ^= 0x01;
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_NOT_ON_CURVE);
    /* a header point: delta2 changed (off the twist) */
    size_t g = section_at(z, len, 2, &sz);
    memcpy(t, z, len);
    t[g + sz - 3] ^= 0x01;
    assert_int_not_equal(load_mem(t, len, err, sizeof err), CZ_OK);
    assert_non_null(strstr(err, "delta2"));
    /* the scalar prime changed */
    memcpy(t, z, len);
    t[g + 4 + 32 + 4] ^= 0x01;
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_CURVE);
    /* nPublic past nVars */
    memcpy(t, z, len);
    cz_put_le32(t + g + 4 + 32 + 4 + 32 + 4, 1000);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    /* a coefficient: value >= r, signal >= nVars, matrix 2, row outside */
    size_t cf = section_at(z, len, 4, &sz);
    memcpy(t, z, len);
    memset(t + cf + 4 + 44 * 3 + 12, 0xff, 32);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_RANGE);
    memcpy(t, z, len);
    cz_put_le32(t + cf + 4 + 44 * 3 + 8, 113);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    memcpy(t, z, len);
    cz_put_le32(t + cf + 4 + 44 * 3, 2);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    memcpy(t, z, len);
    cz_put_le32(t + cf + 4 + 44 * 3 + 4, 128);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    /* not a Groth16 key */
    size_t hd = section_at(z, len, 1, &sz);
    memcpy(t, z, len);
    cz_put_le32(t + hd, 2);
    assert_int_equal(load_mem(t, len, err, sizeof err), CZ_ERR_FORMAT);
    /* a memory limit below the matrices */
    FILE *fp = fopen("bn254_prove_t.zkey", "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(z, 1, len, fp), len);
    fclose(fp);
    cz_bn254_zkey *k = NULL;
    cz_zkey_load_opts o = {.mem_limit = 1000};
    assert_int_equal(cz_bn254_zkey_load_ex(&k, "bn254_prove_t.zkey", &o, err, sizeof err),
                     CZ_ERR_NOMEM);
    cz_zkey_load_opts o2 = {.max_file_bytes = 1000, .private_copy = true};
    assert_int_equal(cz_bn254_zkey_load_ex(&k, "bn254_prove_t.zkey", &o2, err, sizeof err),
                     CZ_ERR_NOMEM);
    assert_null(k);
    remove("bn254_prove_t.zkey");
    assert_int_equal(cz_bn254_zkey_load_ex(&k, "/nonexistent.zkey", NULL, err, sizeof err),
                     CZ_ERR_IO);
    assert_int_equal(cz_bn254_zkey_load_ex(NULL, "x", NULL, err, sizeof err), CZ_ERR_ARG);
    free(t);
    free(z);
}

static void test_wtns_refusals(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = read_fix(FIX "small.wtns", &len);
    uint8_t *t = malloc(len);
    cz_bn254_fr *w = NULL;
    uint32_t n = 7;
    char err[256];
    /* truncated anywhere */
    for (size_t cut = 0; cut < len; cut++) {
        assert_int_not_equal(cz_bn254_wtns_parse(&w, &n, b, cut, "w", 113, err, sizeof err),
                             CZ_OK);
        assert_null(w);
        assert_int_equal(n, 0);
    }
    /* a witness one value short (a well-formed file): the key's length */
    memcpy(t, b, len);
    cz_put_le32(t + 60, 112);
    cz_put_le64(t + 68, 112 * 32);
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, t, len - 32, "w", 113, err, sizeof err),
                     CZ_ERR_WITNESS);
    assert_non_null(strstr(err, "expects 113"));
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, t, len - 32, "w", 0, err, sizeof err), CZ_OK);
    assert_int_equal(n, 112);
    cz_bn254_wtns_free(w, n);
    /* BLS12-381's witness: named */
    size_t bl;
    uint8_t *bw = read_fix("tests/fixtures/small.wtns", &bl);
    assert_false(cz_wtns_bytes_are_bn254(bw, bl));
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, bw, bl, "w", 113, err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "bls12-381"));
    free(bw);
    /* a value >= r (r itself), w[0] != 1 */
    memcpy(t, b, len);
    memcpy(t + 76 + 32 * 5, t + 28, 32);
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, t, len, "w", 113, err, sizeof err), CZ_ERR_RANGE);
    memcpy(t, b, len);
    t[76] = 2;
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, t, len, "w", 113, err, sizeof err),
                     CZ_ERR_WITNESS);
    /* another prime */
    memcpy(t, b, len);
    t[30] ^= 1;
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, t, len, "w", 113, err, sizeof err), CZ_ERR_CURVE);
    assert_int_equal(cz_bn254_wtns_parse(NULL, &n, b, len, "w", 113, err, sizeof err), CZ_ERR_ARG);
    free(t);
    free(b);
}

/* the public C API (cuzk/prover.h) takes the curve from the key */
static void test_prover_api(void **state)
{
    (void)state;
    size_t zl, wl, vl;
    uint8_t *z = read_fix(FIX "small.zkey", &zl);
    uint8_t *w = read_fix(FIX "small_2.wtns", &wl);
    char *vk = read_text(FIX "small_vk.json", &vl);
    char *vkz = malloc(vl + 1);
    memcpy(vkz, vk, vl);
    vkz[vl] = 0;
    char err[512];
    for (int from_bytes = 0; from_bytes < 2; from_bytes++) {
        cz_prover_opts o;
        cz_prover_opts_default(&o);
        o.device = CZ_DEVICE_CPU;
        o.threads = from_bytes ? 2 : 1;
        cz_prover *p = NULL;
        cz_status st = from_bytes ? cz_prover_create_from_bytes(&p, z, zl, &o, err, sizeof err)
                                  : cz_prover_create(&p, cz_test_src_path(FIX "small.zkey"), &o,
                                                     err, sizeof err);
        if (st)
            printf("create: %s\n", err);
        assert_int_equal(st, CZ_OK);
        char proof[CZ_PROOF_JSON_MAX];
        size_t pmax = cz_prover_public_json_max(p);
        assert_true(pmax >= 8 + 4 * 80);
        char *pub = malloc(pmax);
        size_t plen = sizeof proof, ulen = pmax;
        st = cz_prover_prove(p, w, wl, proof, &plen, pub, &ulen, err, sizeof err);
        if (st)
            printf("prove: %s\n", err);
        assert_int_equal(st, CZ_OK);
        assert_int_equal(strlen(proof) + 1, plen);
        assert_int_equal(cz_verify_json(vkz, pub, proof, err, sizeof err), CZ_OK);
        /* too small a buffer: the sizes needed */
        size_t small = 10, ul2 = pmax;
        assert_int_equal(cz_prover_prove(p, w, wl, proof, &small, pub, &ul2, err, sizeof err),
                         CZ_ERR_ARG);
        assert_true(small > 10);
        /* the other curve's witness, a short one */
        size_t bl;
        uint8_t *bw = read_fix("tests/fixtures/small.wtns", &bl);
        plen = sizeof proof, ulen = pmax;
        assert_int_equal(cz_prover_prove(p, bw, bl, proof, &plen, pub, &ulen, err, sizeof err),
                         CZ_ERR_CURVE);
        free(bw);
        uint8_t *t = malloc(wl);
        memcpy(t, w, wl);
        cz_put_le32(t + 60, 112);
        cz_put_le64(t + 68, 112 * 32);
        assert_int_equal(cz_prover_prove(p, t, wl - 32, proof, &plen, pub, &ulen, err, sizeof err),
                         CZ_ERR_WITNESS);
        /* a witness that does not satisfy the circuit fails the self-check */
        memcpy(t, w, wl);
        t[wl - 32] ^= 1;
        assert_int_equal(cz_prover_prove(p, t, wl, proof, &plen, pub, &ulen, err, sizeof err),
                         CZ_ERR_VERIFY);
        free(t);
        free(pub);
        cz_prover_destroy(p);
    }
    /* CZ_DEVICE_CUDA: on the GPU (the host model in the sanitizer build),
       the key resident from the first proof; the model's third device call
       fails (CUZK_GPU_MODEL_FAIL, read by the model only), so one proof is
       made again on the CPU; every proof verifies. Without CUDA or a
       device: refused, named. */
    setenv("CUZK_GPU_MODEL_FAIL", "3:error", 1);
    cz_prover_opts o;
    cz_prover_opts_default(&o);
    o.device = CZ_DEVICE_CUDA;
    cz_prover *p = NULL;
    cz_status st = cz_prover_create(&p, cz_test_src_path(FIX "small.zkey"), &o, err, sizeof err);
    if (st) {
        printf("# CZ_DEVICE_CUDA with a bn128 key: %s (%s)\n", cz_strerror(st), err);
        assert_true(st == CZ_ERR_UNSUPPORTED || st == CZ_ERR_DEVICE);
        assert_null(p);
        assert_true(err[0] != 0);
    } else {
        char proof[CZ_PROOF_JSON_MAX];
        size_t pmax = cz_prover_public_json_max(p);
        char *pub = malloc(pmax);
        for (int rep = 0; rep < 3; rep++) {
            size_t plen = sizeof proof, ulen = pmax;
            st = cz_prover_prove(p, w, wl, proof, &plen, pub, &ulen, err, sizeof err);
            if (st)
                printf("prove on cuda: %s\n", err);
            assert_int_equal(st, CZ_OK);
            assert_int_equal(cz_verify_json(vkz, pub, proof, err, sizeof err), CZ_OK);
        }
        /* a witness that does not satisfy the circuit fails the self-check */
        uint8_t *t = malloc(wl);
        memcpy(t, w, wl);
        t[wl - 32] ^= 1;
        size_t plen = sizeof proof, ulen = pmax;
        assert_int_equal(cz_prover_prove(p, t, wl, proof, &plen, pub, &ulen, err, sizeof err),
                         CZ_ERR_VERIFY);
        free(t);
        free(pub);
        cz_prover_destroy(p);
    }
    unsetenv("CUZK_GPU_MODEL_FAIL");
    free(vkz);
    free(vk);
    free(w);
    free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key),
        cmocka_unit_test(test_prove_witnesses),
        cmocka_unit_test(test_key_refusals),
        cmocka_unit_test(test_wtns_refusals),
        cmocka_unit_test(test_prover_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
