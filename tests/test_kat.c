/* ctest: labels=unit timeout=300 */
/*
 * test_kat.c: known-answer tests against tests/vectors/bls12_381.json.
 *
 * The vectors come from an independent implementation, @noble/curves, run
 * by tools/gen_vectors.mjs (the JSON records the generator, noble's version
 * and the seed; docs/TESTING.md says how to regenerate). Every vector is
 * checked and every mismatch is printed with its section and index before
 * the test fails, so one run lists all the disagreements:
 *   Fp, Fr: add, sub, mul, inv (both variants), sqrt (either root), decimal
 *            and hex strings, big/little-endian bytes;
 *   Fp2:     add, sub, mul, sqr, inv, sqrt, times u+1, Frobenius;
 *   Fp6:     mul, sqr, inv, times v, Frobenius 1 and 2;
 *   Fp12:    mul, sqr, inv, conj, Frobenius 1, 2, 3, 6, the final
 *            exponentiation, and the noble byte order of cz_fp12_to_bytes_be;
 *   G1, G2:  k*G (constant-time and _var), P+Q in Jacobian, mixed and XYZZ
 *            forms, every encoding both ways (zcash compressed and
 *            uncompressed, snarkjs binary, snarkjs decimal), invalid
 *            encodings with the status curve.h promises;
 *   pairing: e(aG1, bG2) as noble's Fp12 bytes.
 */
#include "common/test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/field.h"
#include "pairing/pairing.h"

static json_t *g_root;
static int g_fails;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            printf("MISMATCH %s:%d: ", __func__, __LINE__);                    \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
            g_fails++;                                                         \
        }                                                                      \
    } while (0)

/* ---- JSON access: a missing key is a broken vector file, so fail hard ---- */

static json_t *get(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        printf("vector file: missing key '%s'\n", key);
        fail();
    }
    return v;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(get(o, key));
    if (!s) {
        printf("vector file: key '%s' is not a string\n", key);
        fail();
    }
    return s;
}

static const char *item(const json_t *arr, size_t i)
{
    const char *s = json_string_value(json_array_get(arr, i));
    assert_non_null(s);
    return s;
}

/* hex (no 0x) -> bytes of exactly n */
static void unhex(uint8_t *out, size_t n, const char *hex)
{
    long got = cz_test_unhex(out, n, hex);
    if (got != (long)n) {
        printf("vector file: expected %zu bytes of hex, got %ld\n", n, got);
        fail();
    }
}

static void tohex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = 0;
}

static int setup(void **state)
{
    (void)state;
    json_error_t err;
    char path[4096];
    const char *root = getenv("CZ_SOURCE_DIR");
#ifdef CZ_SOURCE_DIR
    if (!root)
        root = CZ_SOURCE_DIR; /* run by hand, outside ctest */
#endif
    snprintf(path, sizeof path, "%s/tests/vectors/bls12_381.json", root ? root : ".");
    g_root = json_load_file(path, 0, &err);
    if (!g_root) {
        printf("cannot load %s: %s (line %d)\n", path, err.text, err.line);
        return -1;
    }
    printf("# vectors: %s, generator %s, noble %s, seed %s\n", path,
           json_string_value(json_object_get(g_root, "generator")),
           json_string_value(json_object_get(g_root, "noble_version")),
           json_string_value(json_object_get(g_root, "seed")));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(g_root);
    return 0;
}

static void begin(void) { g_fails = 0; }
static void end(const char *what)
{
    if (g_fails)
        printf("%s: %d mismatches\n", what, g_fails);
    assert_int_equal(g_fails, 0);
}

/* ---- field elements ---- */

static void fp_of(cz_fp *out, const char *hex)
{
    if (!cz_fp_from_hex(out, hex)) {
        printf("cz_fp_from_hex rejected the vector value %s\n", hex);
        fail();
    }
}

static void fr_of(cz_fr *out, const char *hex)
{
    if (!cz_fr_from_hex(out, hex)) {
        printf("cz_fr_from_hex rejected the vector value %s\n", hex);
        fail();
    }
}

static void fp2_of(cz_fp2 *out, const json_t *arr)
{
    fp_of(&out->c0, item(arr, 0));
    fp_of(&out->c1, item(arr, 1));
}

static const char *fp_str(const cz_fp *a)
{
    static char buf[4][CZ_FP_STR_MAX];
    static int k;
    k = (k + 1) & 3;
    cz_fp_to_hex(buf[k], a);
    return buf[k];
}

static const char *fr_str(const cz_fr *a)
{
    static char buf[4][CZ_FR_STR_MAX];
    static int k;
    k = (k + 1) & 3;
    cz_fr_to_hex(buf[k], a);
    return buf[k];
}

/*
 * One field test body for F in {fp, fr}: N limbs, NB = 8N bytes. Both
 * fields share the contract of field.h, so the same checks apply.
 */
#define FIELD_KAT(F, T, N, STRMAX, TOSTR)                                       \
    static void F##_kat(const char *section)                                   \
    {                                                                          \
        const json_t *ops = get(get(g_root, section), "ops");                  \
        size_t n = json_array_size(ops);                                       \
        assert_true(n > 0);                                                    \
        for (size_t i = 0; i < n; i++) {                                       \
            const json_t *v = json_array_get(ops, i);                          \
            T a, b, e, got, got2;                                              \
            F##_of(&a, str(v, "a"));                                           \
            F##_of(&b, str(v, "b"));                                           \
            F##_of(&e, str(v, "add"));                                         \
            cz_##F##_add(&got, &a, &b);                                        \
            CHECK(cz_##F##_eq(&got, &e), "%s[%zu] add: got %s want %s",        \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            F##_of(&e, str(v, "sub"));                                         \
            cz_##F##_sub(&got, &a, &b);                                        \
            CHECK(cz_##F##_eq(&got, &e), "%s[%zu] sub: got %s want %s",        \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            F##_of(&e, str(v, "mul"));                                         \
            cz_##F##_mul(&got, &a, &b);                                        \
            CHECK(cz_##F##_eq(&got, &e), "%s[%zu] mul: got %s want %s",        \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            /* the inverse: noble has none for 0, cuzk maps 0 to 0 */          \
            if (json_object_get(v, "inv")) {                                   \
                F##_of(&e, str(v, "inv"));                                     \
            } else {                                                           \
                cz_##F##_zero(&e);                                             \
            }                                                                  \
            cz_##F##_inv(&got, &a);                                            \
            CHECK(cz_##F##_eq(&got, &e), "%s[%zu] inv: got %s want %s",        \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            cz_##F##_inv_var(&got, &a);                                        \
            CHECK(cz_##F##_eq(&got, &e), "%s[%zu] inv_var: got %s want %s",    \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            /* sqrt: either root is right; null means a non-residue */         \
            const json_t *sq = get(v, "sqrt");                                 \
            bool ok = cz_##F##_sqrt(&got, &a);                                 \
            if (json_is_null(sq)) {                                            \
                CHECK(!ok, "%s[%zu] sqrt: found a root of a non-residue",      \
                      section, i);                                             \
            } else {                                                           \
                F##_of(&e, json_string_value(sq));                             \
                cz_##F##_neg(&got2, &e);                                       \
                CHECK(ok && (cz_##F##_eq(&got, &e) || cz_##F##_eq(&got, &got2)),\
                      "%s[%zu] sqrt: ok=%d got %s want +-%s", section, i,      \
                      (int)ok, TOSTR(&got), TOSTR(&e));                        \
            }                                                                  \
            /* strings: decimal in, decimal and hex out and back */            \
            char buf[STRMAX];                                                  \
            const char *dec = str(v, "a_dec");                                 \
            CHECK(cz_##F##_from_dec(&got, dec) && cz_##F##_eq(&got, &a),       \
                  "%s[%zu] from_dec(%s)", section, i, dec);                    \
            CHECK(cz_##F##_from_str(&got, dec) && cz_##F##_eq(&got, &a),       \
                  "%s[%zu] from_str(%s)", section, i, dec);                    \
            CHECK(cz_##F##_from_str(&got, str(v, "a")) && cz_##F##_eq(&got, &a),\
                  "%s[%zu] from_str(%s)", section, i, str(v, "a"));            \
            cz_##F##_to_dec(buf, &a);                                          \
            CHECK(strcmp(buf, dec) == 0, "%s[%zu] to_dec: got %s want %s",     \
                  section, i, buf, dec);                                       \
            cz_##F##_to_hex(buf, &a);                                          \
            CHECK(cz_##F##_from_hex(&got, buf) && cz_##F##_eq(&got, &a),       \
                  "%s[%zu] to_hex %s does not read back", section, i, buf);    \
            /* bytes: the big-endian bytes are the zero-padded hex */          \
            uint8_t want_be[8 * N], be[8 * N], le[8 * N];                      \
            const char *ah = str(v, "a") + 2;                                  \
            char padded[16 * N + 1];                                           \
            size_t hl = strlen(ah);                                            \
            assert_true(hl <= 16 * N);                                         \
            memset(padded, '0', 16 * N - hl);                                  \
            memcpy(padded + 16 * N - hl, ah, hl + 1);                          \
            unhex(want_be, 8 * N, padded);                                     \
            cz_##F##_to_bytes_be(be, &a);                                      \
            CHECK(memcmp(be, want_be, 8 * N) == 0, "%s[%zu] to_bytes_be",      \
                  section, i);                                                 \
            cz_##F##_to_bytes_le(le, &a);                                      \
            for (int j = 0; j < 8 * N; j++)                                    \
                CHECK(le[j] == want_be[8 * N - 1 - j],                         \
                      "%s[%zu] to_bytes_le byte %d", section, i, j);           \
            CHECK(cz_##F##_from_bytes_be(&got, want_be) && cz_##F##_eq(&got, &a),\
                  "%s[%zu] from_bytes_be", section, i);                        \
            CHECK(cz_##F##_from_bytes_le(&got, le) && cz_##F##_eq(&got, &a),   \
                  "%s[%zu] from_bytes_le", section, i);                        \
        }                                                                      \
        /* the modulus itself is out of range in every input form */           \
        const char *m = str(get(g_root, section), "modulus");                  \
        T junk;                                                                \
        CHECK(!cz_##F##_from_hex(&junk, m), "%s: from_hex accepted the modulus",\
              section);                                                        \
    }

FIELD_KAT(fp, cz_fp, 6, CZ_FP_STR_MAX, fp_str)
FIELD_KAT(fr, cz_fr, 4, CZ_FR_STR_MAX, fr_str)

static void test_fp(void **state)
{
    (void)state;
    begin();
    fp_kat("fp");
    end("fp");
}

static void test_fr(void **state)
{
    (void)state;
    begin();
    fr_kat("fr");
    end("fr");
}

static void test_fp2(void **state)
{
    (void)state;
    begin();
    const json_t *ops = get(g_root, "fp2");
    size_t n = json_array_size(ops);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(ops, i);
        cz_fp2 a, b, e, got, neg;
        fp2_of(&a, get(v, "a"));
        fp2_of(&b, get(v, "b"));
        fp2_of(&e, get(v, "add"));
        cz_fp2_add(&got, &a, &b);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] add", i);
        fp2_of(&e, get(v, "sub"));
        cz_fp2_sub(&got, &a, &b);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] sub", i);
        fp2_of(&e, get(v, "mul"));
        cz_fp2_mul(&got, &a, &b);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] mul: got (%s, %s)", i,
              fp_str(&got.c0), fp_str(&got.c1));
        fp2_of(&e, get(v, "sqr"));
        cz_fp2_sqr(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] sqr", i);
        fp2_of(&e, get(v, "mul_nr"));
        cz_fp2_mul_by_nonresidue(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] mul_by_nonresidue", i);
        fp2_of(&e, get(v, "frobenius1"));
        cz_fp2_frobenius(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] frobenius", i);
        cz_fp2_conj(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] conj (= frobenius)", i);
        fp2_of(&e, get(v, "inv"));
        cz_fp2_inv(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] inv", i);
        cz_fp2_inv_var(&got, &a);
        CHECK(cz_fp2_eq(&got, &e), "fp2[%zu] inv_var", i);
        const json_t *sq = get(v, "sqrt");
        bool ok = cz_fp2_sqrt(&got, &a);
        if (json_is_null(sq)) {
            CHECK(!ok, "fp2[%zu] sqrt: found a root of a non-residue", i);
        } else {
            fp2_of(&e, sq);
            cz_fp2_neg(&neg, &e);
            CHECK(ok && (cz_fp2_eq(&got, &e) || cz_fp2_eq(&got, &neg)),
                  "fp2[%zu] sqrt: ok=%d got (%s, %s) want +-(%s, %s)", i, (int)ok,
                  fp_str(&got.c0), fp_str(&got.c1), fp_str(&e.c0), fp_str(&e.c1));
        }
    }
    end("fp2");
}

/* ---- Fp6 in noble's byte order: c0.c0, c0.c1, c1.c0, c1.c1, c2.c0, c2.c1 ---- */

static bool fp6_from_bytes(cz_fp6 *out, const uint8_t in[288])
{
    cz_fp2 *two[3] = {&out->c0, &out->c1, &out->c2};
    bool ok = true;
    for (int j = 0; j < 3; j++) {
        ok &= cz_fp_from_bytes_be(&two[j]->c0, in + 48 * (2 * j));
        ok &= cz_fp_from_bytes_be(&two[j]->c1, in + 48 * (2 * j + 1));
    }
    return ok;
}

static void fp6_of(cz_fp6 *out, const char *hex)
{
    uint8_t b[288];
    unhex(b, 288, hex);
    if (!fp6_from_bytes(out, b)) {
        printf("vector file: Fp6 coefficient out of range\n");
        fail();
    }
}

static void test_fp6(void **state)
{
    (void)state;
    begin();
    const json_t *ops = get(g_root, "fp6");
    size_t n = json_array_size(ops);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(ops, i);
        cz_fp6 a, b, e, got;
        fp6_of(&a, str(v, "a"));
        fp6_of(&b, str(v, "b"));
        fp6_of(&e, str(v, "mul"));
        cz_fp6_mul(&got, &a, &b);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] mul", i);
        fp6_of(&e, str(v, "sqr"));
        cz_fp6_sqr(&got, &a);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] sqr", i);
        fp6_of(&e, str(v, "inv"));
        cz_fp6_inv(&got, &a);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] inv", i);
        fp6_of(&e, str(v, "mul_nr"));
        cz_fp6_mul_by_nonresidue(&got, &a);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] mul_by_nonresidue", i);
        fp6_of(&e, str(v, "frobenius1"));
        cz_fp6_frobenius(&got, &a, 1);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] frobenius 1", i);
        fp6_of(&e, str(v, "frobenius2"));
        cz_fp6_frobenius(&got, &a, 2);
        CHECK(cz_fp6_eq(&got, &e), "fp6[%zu] frobenius 2", i);
    }
    end("fp6");
}

/* ---- Fp12 in noble's byte order: c0.c0.c0, c0.c0.c1, c0.c1.c0, ... ---- */

static bool fp12_from_bytes(cz_fp12 *out, const uint8_t in[576])
{
    cz_fp6 *six[2] = {&out->c0, &out->c1};
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        cz_fp2 *two[3] = {&six[i]->c0, &six[i]->c1, &six[i]->c2};
        for (int j = 0; j < 3; j++) {
            ok &= cz_fp_from_bytes_be(&two[j]->c0, in + 48 * (6 * i + 2 * j));
            ok &= cz_fp_from_bytes_be(&two[j]->c1, in + 48 * (6 * i + 2 * j + 1));
        }
    }
    return ok;
}

static void fp12_of(cz_fp12 *out, uint8_t bytes[576], const char *hex)
{
    unhex(bytes, 576, hex);
    if (!fp12_from_bytes(out, bytes)) {
        printf("vector file: Fp12 coefficient out of range\n");
        fail();
    }
}

static void test_fp12(void **state)
{
    (void)state;
    begin();
    const json_t *ops = get(g_root, "fp12");
    size_t n = json_array_size(ops);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(ops, i);
        cz_fp12 a, b, e, got;
        uint8_t ab[576], bb[576], eb[576], gb[576];
        fp12_of(&a, ab, str(v, "a"));
        fp12_of(&b, bb, str(v, "b"));
        cz_fp12_to_bytes_be(gb, &a);
        CHECK(memcmp(gb, ab, 576) == 0, "fp12[%zu] to_bytes_be is not noble's order", i);
        fp12_of(&e, eb, str(v, "mul"));
        cz_fp12_mul(&got, &a, &b);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] mul", i);
        fp12_of(&e, eb, str(v, "sqr"));
        cz_fp12_sqr(&got, &a);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] sqr", i);
        fp12_of(&e, eb, str(v, "inv"));
        cz_fp12_inv(&got, &a);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] inv", i);
        fp12_of(&e, eb, str(v, "conj"));
        cz_fp12_conj(&got, &a);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] conj", i);
        fp12_of(&e, eb, str(v, "frobenius1"));
        cz_fp12_frobenius(&got, &a, 1);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] frobenius 1", i);
        fp12_of(&e, eb, str(v, "frobenius2"));
        cz_fp12_frobenius(&got, &a, 2);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] frobenius 2", i);
        fp12_of(&e, eb, str(v, "frobenius3"));
        cz_fp12_frobenius(&got, &a, 3);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] frobenius 3", i);
        fp12_of(&e, eb, str(v, "frobenius6"));
        cz_fp12_frobenius(&got, &a, 6);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] frobenius 6", i);
        /* a^(p^6) is the conjugate */
        fp12_of(&e, eb, str(v, "conj"));
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] frobenius 6 != conj", i);
        fp12_of(&e, eb, str(v, "final_exp"));
        cz_final_exp(&got, &a);
        CHECK(cz_fp12_eq(&got, &e), "fp12[%zu] final_exp", i);
    }
    end("fp12");
}

/* ---- points ---- */

static bool is_inf(const json_t *pt)
{
    return json_is_true(json_object_get(pt, "infinity"));
}

static void g1_of(cz_g1_affine *out, const json_t *pt)
{
    if (is_inf(pt)) {
        cz_g1_affine_infinity(out);
        return;
    }
    fp_of(&out->x, str(pt, "x"));
    fp_of(&out->y, str(pt, "y"));
}

static void g2_of(cz_g2_affine *out, const json_t *pt)
{
    if (is_inf(pt)) {
        cz_g2_affine_infinity(out);
        return;
    }
    fp2_of(&out->x, get(pt, "x"));
    fp2_of(&out->y, get(pt, "y"));
}

static const char *st(cz_status s) { return cz_strerror(s); }

/* a hex integer < 2^256 into 4 little-endian limbs */
static void limbs256(uint64_t out[4], const char *hex)
{
    char padded[65];
    uint8_t b[32];
    const char *h = hex + 2;
    size_t n = strlen(h);
    assert_true(n <= 64);
    memset(padded, '0', 64 - n);
    memcpy(padded + 64 - n, h, n + 1);
    unhex(b, 32, padded);
    for (int i = 0; i < 4; i++) {
        out[i] = 0;
        for (int j = 0; j < 8; j++)
            out[i] = out[i] << 8 | b[8 * (3 - i) + j];
    }
}

/*
 * The checks of one k*G vector, for G = g1, g2: E encoded bytes, NC / NU /
 * NS the compressed, uncompressed and snarkjs sizes.
 */
#define POINT_KAT(G, NC, NU, NS)                                                \
    static void G##_mul_kat(void)                                               \
    {                                                                           \
        const json_t *vs = get(get(g_root, #G), "mul");                         \
        size_t n = json_array_size(vs);                                         \
        assert_true(n > 0);                                                     \
        cz_##G##_affine gen;                                                    \
        cz_##G##_jac genj;                                                      \
        cz_##G##_generator(&gen);                                               \
        cz_##G##_jac_from_affine(&genj, &gen);                                  \
        for (size_t i = 0; i < n; i++) {                                        \
            const json_t *v = json_array_get(vs, i);                            \
            const char *kh = str(v, "k");                                       \
            cz_fr k;                                                            \
            uint64_t kl[4];                                                     \
            cz_##G##_affine want, got, dec;                                     \
            cz_##G##_jac pj;                                                    \
            fr_of(&k, kh);                                                      \
            cz_fr_to_limbs(kl, &k);                                             \
            G##_of(&want, get(v, "point"));                                     \
            CHECK(cz_##G##_affine_is_on_curve(&want), #G " vector %zu is off the curve", i); \
            CHECK(cz_##G##_affine_in_subgroup(&want), #G " in_subgroup(%s*G) false", kh); \
            cz_##G##_jac_mul(&pj, &genj, &k);                                   \
            cz_##G##_jac_to_affine(&got, &pj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " jac_mul k=%s", kh);     \
            CHECK(cz_##G##_jac_is_infinity(&pj) == is_inf(get(v, "point")),    \
                  #G " jac_mul k=%s infinity flag", kh);                        \
            cz_##G##_jac_mul_var(&pj, &genj, kl, 4);                            \
            cz_##G##_jac_to_affine(&got, &pj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " jac_mul_var k=%s", kh); \
            /* encoders: byte-exact against noble */                            \
            uint8_t eb[NU], gb[NU];                                             \
            char gh[2 * NU + 1];                                                \
            cz_status s;                                                        \
            unhex(eb, NC, str(v, "compressed"));                                \
            cz_##G##_to_compressed(gb, &want);                                  \
            tohex(gh, gb, NC);                                                  \
            CHECK(memcmp(gb, eb, NC) == 0, #G " to_compressed k=%s: got %s want %s", \
                  kh, gh, str(v, "compressed"));                                \
            s = cz_##G##_from_compressed(&dec, eb);                             \
            CHECK(s == CZ_OK && cz_##G##_affine_eq(&dec, &want),                \
                  #G " from_compressed k=%s: %s", kh, st(s));                   \
            unhex(eb, NU, str(v, "uncompressed"));                              \
            cz_##G##_to_uncompressed(gb, &want);                                \
            tohex(gh, gb, NU);                                                  \
            CHECK(memcmp(gb, eb, NU) == 0, #G " to_uncompressed k=%s: got %s want %s", \
                  kh, gh, str(v, "uncompressed"));                              \
            s = cz_##G##_from_uncompressed(&dec, eb);                           \
            CHECK(s == CZ_OK && cz_##G##_affine_eq(&dec, &want),                \
                  #G " from_uncompressed k=%s: %s", kh, st(s));                 \
            unhex(eb, NS, str(v, "snarkjs"));                                   \
            cz_##G##_to_snarkjs(gb, &want);                                     \
            CHECK(memcmp(gb, eb, NS) == 0, #G " to_snarkjs k=%s", kh);         \
            /* the snarkjs bytes are the in-memory layout (curve.h) */          \
            CHECK(memcmp(&want, eb, NS) == 0, #G " memory layout k=%s", kh);   \
            s = cz_##G##_from_snarkjs(&dec, eb);                                \
            CHECK(s == CZ_OK && cz_##G##_affine_eq(&dec, &want),                \
                  #G " from_snarkjs k=%s: %s", kh, st(s));                      \
            s = G##_from_dec_json(&dec, get(v, "dec"));                         \
            CHECK(s == CZ_OK && cz_##G##_affine_eq(&dec, &want),                \
                  #G " from_dec k=%s: %s", kh, st(s));                          \
        }                                                                       \
    }                                                                           \
    static void G##_mul_point_kat(void)                                         \
    {                                                                           \
        const json_t *vs = get(get(g_root, #G), "mul_point");                   \
        size_t n = json_array_size(vs);                                         \
        assert_true(n > 0);                                                     \
        for (size_t i = 0; i < n; i++) {                                        \
            const json_t *v = json_array_get(vs, i);                            \
            const char *kh = str(v, "k");                                       \
            cz_##G##_affine p, want, got;                                       \
            cz_##G##_jac pj, rj;                                                \
            uint64_t kl[4];                                                     \
            G##_of(&p, get(v, "p"));                                            \
            G##_of(&want, get(v, "kp"));                                        \
            cz_##G##_jac_from_affine(&pj, &p);                                  \
            limbs256(kl, kh);                                                   \
            cz_##G##_jac_mul_var(&rj, &pj, kl, 4);                              \
            cz_##G##_jac_to_affine(&got, &rj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " mul_point[%zu] jac_mul_var k=%s", i, kh); \
            if (!json_is_true(json_object_get(v, "wide"))) {                    \
                cz_fr k;                                                        \
                fr_of(&k, kh);                                                  \
                cz_##G##_jac_mul(&rj, &pj, &k);                                 \
                cz_##G##_jac_to_affine(&got, &rj);                              \
                CHECK(cz_##G##_affine_eq(&got, &want), #G " mul_point[%zu] jac_mul k=%s", i, kh); \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    static void G##_add_kat(void)                                               \
    {                                                                           \
        const json_t *vs = get(get(g_root, #G), "add");                         \
        size_t n = json_array_size(vs);                                         \
        assert_true(n > 0);                                                     \
        for (size_t i = 0; i < n; i++) {                                        \
            const json_t *v = json_array_get(vs, i);                            \
            cz_##G##_affine p, q, want, got;                                    \
            cz_##G##_jac pj, qj, rj;                                            \
            cz_##G##_xyzz px, rx;                                               \
            G##_of(&p, get(v, "p"));                                            \
            G##_of(&q, get(v, "q"));                                            \
            G##_of(&want, get(v, "sum"));                                       \
            cz_##G##_jac_from_affine(&pj, &p);                                  \
            cz_##G##_jac_from_affine(&qj, &q);                                  \
            cz_##G##_jac_add(&rj, &pj, &qj);                                    \
            cz_##G##_jac_to_affine(&got, &rj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] jac_add", i);  \
            cz_##G##_jac_add_affine(&rj, &pj, &q);                              \
            cz_##G##_jac_to_affine(&got, &rj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] jac_add_affine", i); \
            cz_##G##_jac_batch_to_affine(&got, &rj, 1);                         \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] batch_to_affine", i); \
            cz_##G##_xyzz_from_affine(&px, &p);                                 \
            cz_##G##_xyzz_add_affine(&rx, &px, &q);                             \
            cz_##G##_xyzz_to_jac(&rj, &rx);                                     \
            cz_##G##_jac_to_affine(&got, &rj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] xyzz_add_affine", i); \
            cz_##G##_xyzz_from_affine(&rx, &q);                                 \
            cz_##G##_xyzz_add(&rx, &px, &rx);                                   \
            cz_##G##_xyzz_to_jac(&rj, &rx);                                     \
            cz_##G##_jac_to_affine(&got, &rj);                                  \
            CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] xyzz_add", i); \
            if (cz_##G##_affine_eq(&p, &q)) {                                   \
                cz_##G##_jac_dbl(&rj, &pj);                                     \
                cz_##G##_jac_to_affine(&got, &rj);                              \
                CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] jac_dbl", i); \
                cz_##G##_xyzz_dbl(&rx, &px);                                    \
                cz_##G##_xyzz_to_jac(&rj, &rx);                                 \
                cz_##G##_jac_to_affine(&got, &rj);                              \
                CHECK(cz_##G##_affine_eq(&got, &want), #G " add[%zu] xyzz_dbl", i); \
            }                                                                   \
        }                                                                       \
    }

static cz_status g1_from_dec_json(cz_g1_affine *out, const json_t *d)
{
    return cz_g1_from_dec(out, item(d, 0), item(d, 1), item(d, 2));
}

static cz_status g2_from_dec_json(cz_g2_affine *out, const json_t *d)
{
    return cz_g2_from_dec(out, item(d, 0), item(d, 1), item(d, 2), item(d, 3),
                          item(d, 4), item(d, 5));
}

POINT_KAT(g1, 48, 96, 96)
POINT_KAT(g2, 96, 192, 192)

static void test_g1(void **state)
{
    (void)state;
    begin();
    g1_mul_kat();
    g1_mul_point_kat();
    g1_add_kat();
    end("g1");
}

static void test_g2(void **state)
{
    (void)state;
    begin();
    g2_mul_kat();
    g2_mul_point_kat();
    g2_add_kat();
    /* y.c1 = 0: the sign flag comes from y.c0 (points outside the subgroup) */
    const json_t *vs = get(get(g_root, "g2"), "sign_c0");
    assert_true(json_array_size(vs) > 0);
    for (size_t i = 0; i < json_array_size(vs); i++) {
        const json_t *v = json_array_get(vs, i);
        cz_g2_affine p, dec;
        uint8_t want[192], got[192];
        char gh[385];
        g2_of(&p, get(v, "point"));
        CHECK(cz_g2_affine_is_on_curve(&p) && !cz_g2_affine_in_subgroup(&p),
              "g2 sign_c0[%zu]: on_curve / not in subgroup", i);
        unhex(want, 96, str(v, "compressed"));
        cz_g2_to_compressed(got, &p);
        tohex(gh, got, 96);
        CHECK(memcmp(got, want, 96) == 0, "g2 sign_c0[%zu] to_compressed: got %s want %s", i, gh,
              str(v, "compressed"));
        cz_status s = cz_g2_from_compressed(&dec, want);
        CHECK(s == CZ_ERR_SUBGROUP, "g2 sign_c0[%zu] from_compressed: %s", i, st(s));
        unhex(want, 192, str(v, "uncompressed"));
        cz_g2_to_uncompressed(got, &p);
        CHECK(memcmp(got, want, 192) == 0, "g2 sign_c0[%zu] to_uncompressed", i);
        s = cz_g2_from_uncompressed(&dec, want);
        CHECK(s == CZ_ERR_SUBGROUP, "g2 sign_c0[%zu] from_uncompressed: %s", i, st(s));
        cz_g2_to_snarkjs(got, &p);
        s = cz_g2_from_snarkjs(&dec, got);
        CHECK(s == CZ_OK && cz_g2_affine_eq(&dec, &p), "g2 sign_c0[%zu] snarkjs round trip: %s", i,
              st(s));
        unhex(want, 96, str(v, "compressed"));
        CHECK(cz_fp2_is_lex_largest(&p.y) == ((want[0] & 0x20) != 0),
              "g2 sign_c0[%zu] fp2_is_lex_largest disagrees with the zcash flag", i);
    }
    end("g2");
}

/* ---- invalid encodings ---- */

static cz_status status_named(const char *name)
{
    if (!strcmp(name, "FORMAT"))
        return CZ_ERR_FORMAT;
    if (!strcmp(name, "NOT_ON_CURVE"))
        return CZ_ERR_NOT_ON_CURVE;
    if (!strcmp(name, "SUBGROUP"))
        return CZ_ERR_SUBGROUP;
    if (!strcmp(name, "OK_NOT_IN_SUBGROUP"))
        return CZ_OK;
    printf("vector file: unknown status %s\n", name);
    fail();
    return CZ_ERR_INTERNAL;
}

static void test_invalid(void **state)
{
    (void)state;
    begin();
    const json_t *vs = get(g_root, "invalid");
    size_t n = json_array_size(vs);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(vs, i);
        const char *group = str(v, "group"), *format = str(v, "format");
        const char *reason = str(v, "reason"), *ename = str(v, "error");
        cz_status want = status_named(ename), s = CZ_ERR_INTERNAL;
        uint8_t b[192];
        cz_g1_affine p1;
        cz_g2_affine p2;
        bool g1 = !strcmp(group, "g1");
        bool on_curve = false, in_sub = true;
        if (!strcmp(format, "compressed")) {
            unhex(b, g1 ? 48 : 96, str(v, "hex"));
            s = g1 ? cz_g1_from_compressed(&p1, b) : cz_g2_from_compressed(&p2, b);
        } else if (!strcmp(format, "uncompressed")) {
            unhex(b, g1 ? 96 : 192, str(v, "hex"));
            s = g1 ? cz_g1_from_uncompressed(&p1, b) : cz_g2_from_uncompressed(&p2, b);
        } else if (!strcmp(format, "snarkjs")) {
            unhex(b, g1 ? 96 : 192, str(v, "hex"));
            s = g1 ? cz_g1_from_snarkjs(&p1, b) : cz_g2_from_snarkjs(&p2, b);
            if (s == CZ_OK) {
                on_curve = g1 ? cz_g1_affine_is_on_curve(&p1) : cz_g2_affine_is_on_curve(&p2);
                in_sub = g1 ? cz_g1_affine_in_subgroup(&p1) : cz_g2_affine_in_subgroup(&p2);
            }
        } else {
            printf("vector file: unknown format %s\n", format);
            fail();
        }
        CHECK(s == want, "invalid[%zu] %s %s (%s): got '%s' want '%s'", i, group,
              format, reason, st(s), st(want));
        if (want == CZ_OK && s == CZ_OK)
            CHECK(on_curve && !in_sub, "invalid[%zu] %s %s (%s): decoded point on_curve=%d in_subgroup=%d",
                  i, group, format, reason, (int)on_curve, (int)in_sub);
    }
    /* snarkjs-decimal inputs */
    vs = get(g_root, "invalid_dec");
    n = json_array_size(vs);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(vs, i);
        const char *group = str(v, "group"), *reason = str(v, "reason");
        cz_status want = status_named(str(v, "error")), s;
        cz_g1_affine p1;
        cz_g2_affine p2;
        if (!strcmp(group, "g1"))
            s = g1_from_dec_json(&p1, get(v, "dec"));
        else
            s = g2_from_dec_json(&p2, get(v, "dec"));
        CHECK(s == want, "invalid_dec[%zu] %s (%s): got '%s' want '%s'", i, group,
              reason, st(s), st(want));
    }
    end("invalid");
}

/* ---- pairing ---- */

static void test_pairing(void **state)
{
    (void)state;
    begin();
    const json_t *vs = get(g_root, "pairing");
    size_t n = json_array_size(vs);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(vs, i);
        cz_g1_affine p;
        cz_g2_affine q;
        cz_fp12 got, want;
        uint8_t wb[576], gb[576];
        g1_of(&p, get(v, "p"));
        g2_of(&q, get(v, "q"));
        fp12_of(&want, wb, str(v, "e"));
        cz_pairing(&got, &p, &q);
        cz_fp12_to_bytes_be(gb, &got);
        CHECK(memcmp(gb, wb, 576) == 0 && cz_fp12_eq(&got, &want),
              "pairing[%zu] e(%s*G1, %s*G2) differs from noble", i, str(v, "a"), str(v, "b"));
        /* the same through the two halves */
        cz_fp12 f;
        cz_miller_loop(&f, &p, &q, 1);
        cz_final_exp(&got, &f);
        CHECK(cz_fp12_eq(&got, &want), "pairing[%zu] final_exp(miller_loop) differs from noble", i);
        /* e(P, Q) e(-P, Q) = 1 through the product check; e(P, Q) alone is not 1 */
        cz_g1_affine ps[2];
        cz_g2_affine qs[2] = {q, q};
        ps[0] = p;
        cz_g1_affine_neg(&ps[1], &p);
        CHECK(cz_pairing_product_is_one(ps, qs, 2), "pairing[%zu] e(P,Q) e(-P,Q) != 1", i);
        CHECK(!cz_pairing_product_is_one(ps, qs, 1), "pairing[%zu] e(P,Q) == 1", i);
    }
    /* pairs of vectors with the same a*b: e(aG, bH) = e(a'G, b'H) */
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const json_t *vi = json_array_get(vs, i), *vj = json_array_get(vs, j);
            cz_fr ai, bi, aj, bj, abi, abj;
            fr_of(&ai, str(vi, "a"));
            fr_of(&bi, str(vi, "b"));
            fr_of(&aj, str(vj, "a"));
            fr_of(&bj, str(vj, "b"));
            cz_fr_mul(&abi, &ai, &bi);
            cz_fr_mul(&abj, &aj, &bj);
            CHECK(cz_fr_eq(&abi, &abj) == (strcmp(str(vi, "e"), str(vj, "e")) == 0),
                  "pairing vectors %zu and %zu: equal exponents iff equal values", i, j);
        }
    end("pairing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp),      cmocka_unit_test(test_fr),
        cmocka_unit_test(test_fp2),     cmocka_unit_test(test_fp6),
        cmocka_unit_test(test_fp12),
        cmocka_unit_test(test_g1),      cmocka_unit_test(test_g2),
        cmocka_unit_test(test_invalid), cmocka_unit_test(test_pairing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
