/* ctest: labels=unit timeout=300 */
/*
 * test_bn254_setup_key.c: BN254's .r1cs reader, fixed-base products and
 * development setup (groth16/setup_bn254.h), without npm.
 *
 * Fixtures: tests/fixtures/bn254/small.r1cs (tests/circuits/small.circom
 * compiled for bn128 by circom2) and the three snarkjs witnesses of it.
 * A seeded setup's key is read back by the BN254 key reader (every point
 * on the curve, the header's G2 points in the subgroup), proves every
 * witness, and each proof verifies with the key's vk; an unsatisfying
 * witness gives an invalid proof, as does the proof under another seed's
 * vk. The same seed gives the same file on 1 and 3 threads, another seed
 * another. The fixed-base products equal scalar multiplications of the
 * generators (0, 1, r - 1 and random scalars, across batch and chunk
 * edges). The reader refuses every truncation, the other curve's circuit,
 * a prime of neither curve (cz_r1cs_file_curve names both), a
 * coefficient >= r and a wire out of range, each with its status. Known
 * answers: BLS12-381's seeded key of tests/fixtures/small.r1cs is the file
 * the setup wrote before it became one implementation for both curves,
 * and BN254's seeded key is pinned.
 * test_bn254_setup.sh checks the keys against snarkjs itself.
 */
#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/groth16_bn254.h"
#include "groth16/setup_bn254.h"
#include "io/binfile.h"
#include "util/threadpool.h"

#define FIX "tests/fixtures/bn254/"
#define BN254_SMALL_LEN 62468
#define BN254_SMALL_FNV 0xdb7ba14fe02c33b1ULL /* the first version's key; snarkjs proved with it */

static uint8_t *read_fix(const char *rel, size_t *len)
{
    uint8_t *b = cz_test_read_file(cz_test_src_path(rel), len);
    assert_non_null(b);
    return b;
}

static cz_bn254_r1cs *load_small_r1cs(void)
{
    cz_bn254_r1cs *cs = NULL;
    char err[256] = "";
    cz_status st = cz_bn254_r1cs_load(&cs, cz_test_src_path(FIX "small.r1cs"), err, sizeof err);
    if (st)
        printf("r1cs: %s\n", err);
    assert_int_equal(st, CZ_OK);
    return cs;
}

/* a fresh temporary path (the file is created empty) */
static void tmp_path(char *buf, size_t n)
{
    const char *d = getenv("TMPDIR");
    snprintf(buf, n, "%s/cz_bn254_setup.XXXXXX", d && *d ? d : "/tmp");
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
}

static cz_bn254_zkey *setup_key(const cz_bn254_r1cs *cs, uint64_t seed, unsigned threads,
                                char *path, size_t n)
{
    tmp_path(path, n);
    cz_setup_opts o = {.seeded = true, .seed = seed, .threads = threads};
    char err[256] = "";
    cz_status st = cz_bn254_groth16_setup(cs, path, &o, err, sizeof err);
    if (st)
        printf("setup: %s\n", err);
    assert_int_equal(st, CZ_OK);
    cz_bn254_zkey *key = NULL;
    st = cz_bn254_zkey_load_ex(&key, path, NULL, err, sizeof err);
    if (st)
        printf("load: %s\n", err);
    assert_int_equal(st, CZ_OK);
    return key;
}

static cz_bn254_fr *load_wtns(const char *rel, uint32_t n_vars)
{
    size_t len;
    uint8_t *b = read_fix(rel, &len);
    cz_bn254_fr *w = NULL;
    uint32_t n;
    char err[256];
    assert_int_equal(cz_bn254_wtns_parse(&w, &n, b, len, rel, n_vars, err, sizeof err), CZ_OK);
    assert_int_equal(n, n_vars);
    free(b);
    return w;
}

static cz_status prove_verify(const cz_bn254_zkey *key, const cz_bn254_zkey *vk_key,
                              const cz_bn254_fr *w, cz_threadpool *pool)
{
    cz_bn254_proof p;
    char err[256] = "";
    cz_status st = cz_bn254_groth16_prove(&p, key, w, pool, NULL, NULL, err, sizeof err);
    assert_int_equal(st, CZ_OK);
    cz_bn254_vk *vk = NULL;
    assert_int_equal(cz_bn254_vk_from_zkey(&vk, vk_key), CZ_OK);
    st = cz_bn254_groth16_verify(vk, w + 1, key->n_public, &p, err, sizeof err);
    cz_bn254_vk_free(vk);
    return st;
}

static void test_setup_proves(void **state)
{
    (void)state;
    cz_bn254_r1cs *cs = load_small_r1cs();
    /* small.circom: 108 constraints, 113 wires, 2 + 2 public, 3 private */
    assert_int_equal(cs->n_wires, 113);
    assert_int_equal(cs->n_constraints, 108);
    assert_int_equal(cs->n_pub_out, 2);
    assert_int_equal(cs->n_pub_in, 2);
    assert_int_equal(cs->n_prv_in, 3);
    char p1[256], p2[256], p3[256];
    cz_bn254_zkey *k1 = setup_key(cs, 42, 1, p1, sizeof p1);
    cz_bn254_zkey *k3 = setup_key(cs, 42, 3, p2, sizeof p2);
    cz_bn254_zkey *ko = setup_key(cs, 43, 2, p3, sizeof p3);
    assert_int_equal(k1->n_vars, 113);
    assert_int_equal(k1->n_public, 4);
    assert_int_equal(k1->domain_size, 128);
    /* the same seed, the same file on any thread count; another seed another */
    size_t l1, l2, l3;
    uint8_t *b1 = cz_test_read_file(p1, &l1), *b2 = cz_test_read_file(p2, &l2),
            *b3 = cz_test_read_file(p3, &l3);
    assert_non_null(b1);
    assert_non_null(b2);
    assert_non_null(b3);
    assert_int_equal(l1, l2);
    assert_memory_equal(b1, b2, l1);
    assert_int_equal(l1, l3);
    assert_true(memcmp(b1, b3, l1) != 0);
    assert_true(cz_zkey_bytes_are_bn254(b1, l1));
    /* gamma2 is the generator (snarkjs's keys have gamma = 1) */
    cz_bn254_g2_affine g2;
    cz_bn254_g2_generator(&g2);
    assert_memory_equal(&k1->gamma2, &g2, sizeof g2);
    const char *wt[3] = {FIX "small.wtns", FIX "small_2.wtns", FIX "small_3.wtns"};
    cz_threadpool *pool = cz_threadpool_create(2);
    for (int i = 0; i < 3; i++) {
        cz_bn254_fr *w = load_wtns(wt[i], k1->n_vars);
        assert_int_equal(prove_verify(k1, k1, w, pool), CZ_OK);
        assert_int_equal(prove_verify(ko, ko, w, NULL), CZ_OK);
        /* a proof under another key's vk is invalid */
        assert_int_equal(prove_verify(k1, ko, w, pool), CZ_ERR_VERIFY);
        /* an unsatisfying witness: an invalid proof */
        cz_bn254_fr one;
        cz_bn254_fr_one(&one);
        cz_bn254_fr_add(&w[k1->n_vars - 1], &w[k1->n_vars - 1], &one);
        assert_int_equal(prove_verify(k1, k1, w, pool), CZ_ERR_VERIFY);
        cz_bn254_wtns_free(w, k1->n_vars);
    }
    cz_threadpool_destroy(pool);
    free(b1);
    free(b2);
    free(b3);
    cz_bn254_zkey_free(k1);
    cz_bn254_zkey_free(k3);
    cz_bn254_zkey_free(ko);
    remove(p1);
    remove(p2);
    remove(p3);
    /* an unwritable path: CZ_ERR_IO, a message, no crash */
    cz_setup_opts o = {.seeded = true, .seed = 1, .threads = 1};
    char err[256] = "";
    assert_int_equal(cz_bn254_groth16_setup(cs, "/nonexistent/dir/key.zkey", &o, err, sizeof err),
                     CZ_ERR_IO);
    assert_true(err[0] != 0);
    cz_bn254_r1cs_free(cs);
    cz_bn254_r1cs_free(NULL);
}

static void test_fixed_base(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    const size_t n = 4096 + 300; /* past a 256-point batch and a 4096-point chunk */
    cz_bn254_fr *s = malloc(n * sizeof *s);
    cz_bn254_g1_affine *o1 = malloc(n * sizeof *o1);
    cz_bn254_g2_affine *o2 = malloc(n * sizeof *o2);
    assert_non_null(s);
    assert_non_null(o1);
    assert_non_null(o2);
    for (size_t i = 0; i < n; i++)
        cz_bn254_fr_random(&s[i], &rng);
    cz_bn254_fr_zero(&s[0]);
    cz_bn254_fr_one(&s[1]);
    cz_bn254_fr_neg(&s[2], &s[1]); /* r - 1 */
    s[300] = s[299];               /* a repeat */
    cz_threadpool *pool = cz_threadpool_create(3);
    assert_int_equal(cz_bn254_fixed_base_g1(o1, s, n, pool), CZ_OK);
    assert_int_equal(cz_bn254_fixed_base_g2(o2, s, n, NULL), CZ_OK);
    assert_int_equal(cz_bn254_fixed_base_g1(o1, s, 0, pool), CZ_OK);
    cz_bn254_g1_affine g1;
    cz_bn254_g2_affine g2;
    cz_bn254_g1_generator(&g1);
    cz_bn254_g2_generator(&g2);
    assert_true(cz_bn254_g1_affine_is_infinity(&o1[0]));
    assert_true(cz_bn254_g2_affine_is_infinity(&o2[0]));
    /* checked: the edges, both sides of each batch/chunk edge, a sample */
    size_t idx[] = {1, 2, 3, 255, 256, 257, 299, 300, 511, 512, 4095, 4096, 4097, n - 1};
    for (size_t t = 0; t < sizeof idx / sizeof idx[0] + 40; t++) {
        size_t i = t < sizeof idx / sizeof idx[0] ? idx[t] : (size_t)(cz_rng_u64(&rng) % n);
        cz_bn254_g1_jac j1, g1j;
        cz_bn254_g2_jac j2, g2j;
        cz_bn254_g1_affine a1;
        cz_bn254_g2_affine a2;
        cz_bn254_g1_jac_from_affine(&g1j, &g1);
        cz_bn254_g2_jac_from_affine(&g2j, &g2);
        cz_bn254_g1_jac_mul(&j1, &g1j, &s[i]);
        cz_bn254_g2_jac_mul(&j2, &g2j, &s[i]);
        cz_bn254_g1_jac_to_affine(&a1, &j1);
        cz_bn254_g2_jac_to_affine(&a2, &j2);
        assert_memory_equal(&a1, &o1[i], sizeof a1);
        assert_memory_equal(&a2, &o2[i], sizeof a2);
        assert_true(cz_bn254_g1_affine_is_on_curve(&o1[i]));
        assert_true(cz_bn254_g2_affine_in_subgroup(&o2[i]));
    }
    cz_threadpool_destroy(pool);
    free(s);
    free(o1);
    free(o2);
}

/* the offset of section id's data in an iden3 container (0: none) */
static size_t section_at(const uint8_t *b, size_t len, uint32_t id)
{
    size_t off = 12;
    while (off + 12 <= len) {
        uint64_t sz = cz_le64(b + off + 4);
        if (cz_le32(b + off) == id)
            return off + 12;
        off += 12 + (size_t)sz;
    }
    return 0;
}

static void write_file(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void test_r1cs_reader(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = read_fix(FIX "small.r1cs", &len);
    cz_bn254_r1cs *cs = NULL;
    cz_r1cs *bcs = NULL;
    char err[256];
    /* every truncation is refused, with a message */
    for (size_t cut = 0; cut < len; cut += (cut < 256 ? 1 : 37)) {
        err[0] = 0;
        cz_status st = cz_bn254_r1cs_parse(&cs, b, cut, "t.r1cs", err, sizeof err);
        assert_int_not_equal(st, CZ_OK);
        assert_null(cs);
        assert_true(err[0] != 0);
    }
    assert_int_equal(cz_bn254_r1cs_parse(&cs, b, len, "ok.r1cs", err, sizeof err), CZ_OK);
    cz_bn254_r1cs_free(cs);
    /* each curve's reader refuses the other's circuit, naming it */
    assert_int_equal(cz_r1cs_parse(&bcs, b, len, "bn.r1cs", err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "BN254"));
    size_t blen;
    uint8_t *bb = read_fix("tests/fixtures/small.r1cs", &blen);
    assert_int_equal(cz_bn254_r1cs_parse(&cs, bb, blen, "bls.r1cs", err, sizeof err),
                     CZ_ERR_CURVE);
    assert_non_null(strstr(err, "bls12-381"));
    /* the file's curve */
    const cz_curve *c = NULL;
    assert_int_equal(cz_r1cs_file_curve(cz_test_src_path(FIX "small.r1cs"), &c, err, sizeof err),
                     CZ_OK);
    assert_int_equal(c->id, CZ_CURVE_BN254);
    assert_int_equal(cz_r1cs_file_curve(cz_test_src_path("tests/fixtures/small.r1cs"), &c, err,
                                        sizeof err), CZ_OK);
    assert_int_equal(c->id, CZ_CURVE_BLS12_381);
    assert_int_equal(cz_r1cs_file_curve("/nonexistent/x.r1cs", &c, err, sizeof err), CZ_ERR_IO);
    assert_null(c);
    /* a prime of neither curve */
    size_t h = section_at(b, len, 1), k = section_at(b, len, 2);
    assert_true(h && k);
    uint8_t *m = malloc(len);
    assert_non_null(m);
    memcpy(m, b, len);
    m[h + 4] ^= 2;
    char path[256];
    tmp_path(path, sizeof path);
    write_file(path, m, len);
    assert_int_equal(cz_r1cs_file_curve(path, &c, err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "neither BLS12-381"));
    assert_int_equal(cz_bn254_r1cs_parse(&cs, m, len, "p.r1cs", err, sizeof err), CZ_ERR_CURVE);
    write_file(path, b, 40); /* cut in the section table */
    assert_int_equal(cz_r1cs_file_curve(path, &c, err, sizeof err), CZ_ERR_FORMAT);
    remove(path);
    /* the first term of constraint 0: u32 count, then u32 wire, 32-byte value */
    memcpy(m, b, len);
    memset(m + k + 8, 0xff, 32); /* a coefficient >= r */
    assert_int_equal(cz_bn254_r1cs_parse(&cs, m, len, "c.r1cs", err, sizeof err), CZ_ERR_RANGE);
    memcpy(m, b, len);
    cz_put_le32(m + k + 4, 113); /* wire 113 of 113 */
    assert_int_equal(cz_bn254_r1cs_parse(&cs, m, len, "w.r1cs", err, sizeof err), CZ_ERR_FORMAT);
    assert_null(cs);
    free(m);
    free(bb);
    free(b);
}

/* FNV-1a 64 of a file: a known answer for a whole key */
static uint64_t fnv1a_file(const char *path, size_t *len)
{
    uint8_t *b = cz_test_read_file(path, len);
    assert_non_null(b);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < *len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    free(b);
    return h;
}

/* The setup is one implementation for both curves: BLS12-381's keys must
   stay what they were before it was (the file of `cuzk setup --seed 7
   tests/fixtures/small.r1cs` from the build before setup_impl.h: 84 948
   bytes, FNV-1a 64 0xffb6881374cf6afe), and BN254's are pinned too. */
static void test_known_keys(void **state)
{
    (void)state;
    char path[256], err[256] = "";
    size_t len;
    cz_r1cs *bcs = NULL;
    assert_int_equal(cz_r1cs_load(&bcs, cz_test_src_path("tests/fixtures/small.r1cs"), err,
                                  sizeof err), CZ_OK);
    tmp_path(path, sizeof path);
    cz_setup_opts o = {.seeded = true, .seed = 7, .threads = 2};
    assert_int_equal(cz_groth16_setup(bcs, path, &o, err, sizeof err), CZ_OK);
    uint64_t h = fnv1a_file(path, &len);
    assert_int_equal(len, 84948);
    assert_int_equal(h, 0xffb6881374cf6afeULL);
    remove(path);
    cz_r1cs_free(bcs);
    cz_bn254_r1cs *cs = load_small_r1cs();
    tmp_path(path, sizeof path);
    assert_int_equal(cz_bn254_groth16_setup(cs, path, &o, err, sizeof err), CZ_OK);
    h = fnv1a_file(path, &len);
    printf("bn254 small.r1cs seed 7: %zu bytes, FNV-1a 0x%016llx\n", len, (unsigned long long)h);
    assert_int_equal(len, BN254_SMALL_LEN);
    assert_int_equal(h, BN254_SMALL_FNV);
    remove(path);
    cz_bn254_r1cs_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_keys),
        cmocka_unit_test(test_r1cs_reader),
        cmocka_unit_test(test_fixed_base),
        cmocka_unit_test(test_setup_proves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
