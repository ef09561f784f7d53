/* ctest: labels=unit timeout=300 */
/*
 * test_bn254.c: the BN254 curve layer (src/field/bn254*.c, src/curve/bn254*.c,
 * src/pairing/bn254_pairing.c).
 *
 * Two kinds of checks:
 *  - seeded property tests (replay with CZ_TEST_SEED; CZ_TEST_SCALE scales
 *    the counts): field laws, inverses against Fermat, square roots, the
 *    assembly against the portable code, tower identities (Frobenius maps
 *    against powers by p, the sparse line product against a full product,
 *    cyclotomic squaring), group laws and scalar multiplication, pairing
 *    bilinearity e(aP, bQ) = e(P, Q)^(ab);
 *  - known answers from an independent implementation, @noble/curves' bn254,
 *    in tests/vectors/bn254.json (written by tools/gen_bn254_vectors.mjs,
 *    whose provenance the file records): Fp, Fr, Fp2, Fp6, Fp12 operations
 *    and the final exponentiation, k*G and P+Q on G1 and G2, the snarkjs
 *    encodings (.zkey bytes and JSON decimals) both ways, invalid points,
 *    and pairings. Every mismatch is printed before the test fails;
 *  - snarkjs's own bn128 key (tests/fixtures/bn254/small.zkey and its
 *    small_vk.json): the same points through the binary and the decimal
 *    decoders, and e(alpha, beta) against the vk's vk_alphabeta_12, computed
 *    by snarkjs's ffjavascript (a second independent implementation).
 */
#include "common/test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/bn254_curve.h"
#include "curve/curves.h"
#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "pairing/bn254_pairing.h"
#include "groth16/groth16.h"
#include "groth16/verify_bn254.h"

static cz_rng rng;
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

static void begin(void) { g_fails = 0; }
static void end(const char *what)
{
    if (g_fails)
        printf("%s: %d mismatches\n", what, g_fails);
    assert_int_equal(g_fails, 0);
}

static int setup(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    json_error_t err;
    const char *path = cz_test_src_path("tests/vectors/bn254.json");
    g_root = json_load_file(path, 0, &err);
    if (!g_root) {
        printf("cannot load %s: %s (line %d)\n", path, err.text, err.line);
        return -1;
    }
    json_t *pv = json_object_get(g_root, "provenance");
    printf("# vectors: %s, generator %s, oracle %s, seed %s\n", path,
           json_string_value(json_object_get(pv, "generator")),
           json_string_value(json_object_get(pv, "oracle")),
           json_string_value(json_object_get(pv, "seed")));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(g_root);
    return 0;
}

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

static void fp_of(cz_bn254_fp *out, const char *hex) { assert_true(cz_bn254_fp_from_hex(out, hex)); }
static void fr_of(cz_bn254_fr *out, const char *hex) { assert_true(cz_bn254_fr_from_hex(out, hex)); }
static void fp2_of(cz_bn254_fp2 *out, const json_t *arr)
{
    fp_of(&out->c0, item(arr, 0));
    fp_of(&out->c1, item(arr, 1));
}
static void fp6_of(cz_bn254_fp6 *out, const json_t *arr)
{
    fp2_of(&out->c0, json_array_get(arr, 0));
    fp2_of(&out->c1, json_array_get(arr, 1));
    fp2_of(&out->c2, json_array_get(arr, 2));
}
/* 12 Fp coefficients in struct order */
static void fp12_of(cz_bn254_fp12 *out, const json_t *arr)
{
    assert_int_equal(json_array_size(arr), 12);
    cz_bn254_fp *c = (cz_bn254_fp *)(void *)out;
    for (size_t i = 0; i < 12; i++)
        fp_of(&c[i], item(arr, i));
}

static const char *fp_str(const cz_bn254_fp *a)
{
    static char buf[4][CZ_BN254_STR_MAX];
    static int k;
    k = (k + 1) & 3;
    cz_bn254_fp_to_hex(buf[k], a);
    return buf[k];
}

static const char *fr_str(const cz_bn254_fr *a)
{
    static char buf[4][CZ_BN254_STR_MAX];
    static int k;
    k = (k + 1) & 3;
    cz_bn254_fr_to_hex(buf[k], a);
    return buf[k];
}

/* ================= Fp, Fr: known answers ================= */

#define FIELD_KAT(F, T, TOSTR)                                                 \
    static void F##_kat(const char *section)                                   \
    {                                                                          \
        const json_t *ops = get(g_root, section);                              \
        size_t n = json_array_size(ops);                                       \
        assert_true(n > 0);                                                    \
        for (size_t i = 0; i < n; i++) {                                       \
            const json_t *v = json_array_get(ops, i);                          \
            T a, b, e, got;                                                    \
            F##_of(&a, str(v, "a"));                                           \
            F##_of(&b, str(v, "b"));                                           \
            F##_of(&e, str(v, "add"));                                         \
            cz_bn254_##F##_add(&got, &a, &b);                                  \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] add: got %s want %s",  \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            F##_of(&e, str(v, "sub"));                                         \
            cz_bn254_##F##_sub(&got, &a, &b);                                  \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] sub", section, i);     \
            F##_of(&e, str(v, "mul"));                                         \
            cz_bn254_##F##_mul(&got, &a, &b);                                  \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] mul: got %s want %s",  \
                  section, i, TOSTR(&got), TOSTR(&e));                         \
            cz_bn254_##F##_mul_portable(&got, &a, &b);                         \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] mul_portable", section, i); \
            F##_of(&e, str(v, "inv"));                                         \
            cz_bn254_##F##_inv(&got, &a);                                      \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] inv", section, i);     \
            cz_bn254_##F##_inv_var(&got, &a);                                  \
            CHECK(cz_bn254_##F##_eq(&got, &e), "%s[%zu] inv_var", section, i); \
            /* sqrt: either root, or none */                                   \
            const json_t *sq = get(v, "sqrt");                                 \
            bool ok = cz_bn254_##F##_sqrt(&got, &a);                           \
            if (json_is_null(sq)) {                                            \
                CHECK(!ok, "%s[%zu] sqrt of a non-square", section, i);        \
            } else {                                                           \
                T neg;                                                         \
                F##_of(&e, json_string_value(sq));                             \
                cz_bn254_##F##_neg(&neg, &e);                                  \
                CHECK(ok && (cz_bn254_##F##_eq(&got, &e) || cz_bn254_##F##_eq(&got, &neg)), \
                      "%s[%zu] sqrt", section, i);                             \
            }                                                                  \
            /* decimal strings both ways */                                    \
            char buf[CZ_BN254_STR_MAX];                                        \
            T d;                                                               \
            CHECK(cz_bn254_##F##_from_dec(&d, str(v, "a_dec")) && cz_bn254_##F##_eq(&d, &a), \
                  "%s[%zu] from_dec", section, i);                             \
            cz_bn254_##F##_to_dec(buf, &a);                                    \
            CHECK(strcmp(buf, str(v, "a_dec")) == 0, "%s[%zu] to_dec %s", section, i, buf); \
        }                                                                      \
    }

FIELD_KAT(fp, cz_bn254_fp, fp_str)
FIELD_KAT(fr, cz_bn254_fr, fr_str)

static void test_prime_fields_kat(void **state)
{
    (void)state;
    begin();
    fp_kat("fp");
    fr_kat("fr");
    end("Fp/Fr known answers");
}

/* ================= Fp, Fr: properties ================= */

#define FIELD_PROPS(F, T)                                                      \
    static void F##_props(int iters)                                           \
    {                                                                          \
        for (int it = 0; it < iters; it++) {                                   \
            T a, b, c, x, y, z;                                                \
            cz_bn254_##F##_random(&a, &rng);                                   \
            cz_bn254_##F##_random(&b, &rng);                                   \
            cz_bn254_##F##_random(&c, &rng);                                   \
            /* (a + b) c = a c + b c; a b = b a */                             \
            cz_bn254_##F##_add(&x, &a, &b);                                    \
            cz_bn254_##F##_mul(&x, &x, &c);                                    \
            cz_bn254_##F##_mul(&y, &a, &c);                                    \
            cz_bn254_##F##_mul(&z, &b, &c);                                    \
            cz_bn254_##F##_add(&y, &y, &z);                                    \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " distributivity");           \
            cz_bn254_##F##_mul(&x, &a, &b);                                    \
            cz_bn254_##F##_mul(&y, &b, &a);                                    \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " commutativity");            \
            cz_bn254_##F##_mul_portable(&y, &a, &b);                           \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " mul asm vs portable");      \
            cz_bn254_##F##_sqr(&x, &a);                                        \
            cz_bn254_##F##_mul_portable(&y, &a, &a);                           \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " sqr");                      \
            cz_bn254_##F##_add(&x, &a, &b);                                    \
            cz_bn254_##F##_add_portable(&y, &a, &b);                           \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " add asm vs portable");      \
            cz_bn254_##F##_sub(&x, &a, &b);                                    \
            cz_bn254_##F##_sub_portable(&y, &a, &b);                           \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " sub asm vs portable");      \
            /* wide product and reduction = product */                        \
            uint64_t w[8], w2[8];                                              \
            cz_bn254_##F##_mul_wide(w, &a, &b);                                \
            cz_bn254_##F##_mul_wide_portable(w2, &a, &b);                      \
            CHECK(memcmp(w, w2, sizeof w) == 0, #F " mul_wide");              \
            cz_bn254_##F##_redc(&x, w);                                        \
            cz_bn254_##F##_mul(&y, &a, &b);                                    \
            CHECK(cz_bn254_##F##_eq(&x, &y), #F " redc(mul_wide)");           \
            /* inverses: a * 1/a = 1, three ways agree */                      \
            cz_bn254_##F##_inv(&x, &a);                                        \
            cz_bn254_##F##_inv_var(&y, &a);                                    \
            cz_bn254_##F##_inv_fermat(&z, &a);                                 \
            CHECK(cz_bn254_##F##_eq(&x, &y) && cz_bn254_##F##_eq(&x, &z), #F " inverses"); \
            cz_bn254_##F##_mul(&x, &x, &a);                                    \
            CHECK(cz_bn254_##F##_is_one(&x), #F " a/a");                      \
            /* sqrt of a square is +-a */                                      \
            cz_bn254_##F##_sqr(&x, &a);                                        \
            CHECK(cz_bn254_##F##_sqrt(&y, &x), #F " sqrt of a square");        \
            cz_bn254_##F##_neg(&z, &a);                                        \
            CHECK(cz_bn254_##F##_eq(&y, &a) || cz_bn254_##F##_eq(&y, &z), #F " sqrt value"); \
            /* bytes round trip */                                             \
            uint8_t buf[32];                                                   \
            cz_bn254_##F##_to_bytes_le(buf, &a);                               \
            CHECK(cz_bn254_##F##_from_bytes_le(&x, buf) && cz_bn254_##F##_eq(&x, &a), #F " bytes"); \
        }                                                                      \
        T zero, inv;                                                           \
        cz_bn254_##F##_zero(&zero);                                            \
        cz_bn254_##F##_inv(&inv, &zero);                                       \
        CHECK(cz_bn254_##F##_is_zero(&inv), #F " 1/0 = 0");                   \
    }

FIELD_PROPS(fp, cz_bn254_fp)
FIELD_PROPS(fr, cz_bn254_fr)

static void test_prime_fields_props(void **state)
{
    (void)state;
    begin();
    printf("# Fp product: %s, Fr product: %s\n", cz_bn254_fp_mul_is_asm() ? "asm" : "portable",
           cz_bn254_fr_mul_is_asm() ? "asm" : "portable");
    fp_props(cz_test_iters(200));
    fr_props(cz_test_iters(200));
    /* the modulus itself is rejected; p - 1 accepted */
    uint64_t p[4] = CZ_BN254_FP_P, r[4] = CZ_BN254_FR_P;
    cz_bn254_fp x;
    cz_bn254_fr y;
    CHECK(!cz_bn254_fp_from_limbs(&x, p), "p accepted");
    CHECK(!cz_bn254_fr_from_limbs(&y, r), "r accepted");
    p[0]--;
    r[0]--;
    CHECK(cz_bn254_fp_from_limbs(&x, p), "p - 1 rejected");
    CHECK(cz_bn254_fr_from_limbs(&y, r), "r - 1 rejected");
    /* the 2^28-th root of unity snarkjs's NTT starts from: 5^((r-1)/2^28),
       of order exactly 2^28 (the value arkworks also uses) */
    const cz_bn254_fr w = {CZ_BN254_FR_ROOT_OF_UNITY_5_MONT};
    char dec[CZ_BN254_STR_MAX];
    cz_bn254_fr_to_dec(dec, &w);
    CHECK(!strcmp(dec, "19103219067921713944291392827692070036145651957329286315305642004821462161904"),
          "root of unity %s", dec);
    cz_bn254_fr t = w;
    for (int i = 0; i < 27; i++)
        cz_bn254_fr_sqr(&t, &t);
    cz_bn254_fr m1;
    cz_bn254_fr_one(&m1);
    cz_bn254_fr_neg(&m1, &m1);
    CHECK(cz_bn254_fr_eq(&t, &m1), "w^(2^27) = -1");
    end("Fp/Fr properties");
}

/* ================= the tower: known answers ================= */

static void test_tower_kat(void **state)
{
    (void)state;
    begin();
    const json_t *arr = get(g_root, "fp2");
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        cz_bn254_fp2 a, b, e, got;
        fp2_of(&a, get(v, "a"));
        fp2_of(&b, get(v, "b"));
#define FP2_CHECK(key, expr)                                                   \
    do {                                                                       \
        fp2_of(&e, get(v, key));                                               \
        expr;                                                                  \
        CHECK(cz_bn254_fp2_eq(&got, &e), "fp2[%zu] %s", i, key);               \
    } while (0)
        FP2_CHECK("add", cz_bn254_fp2_add(&got, &a, &b));
        FP2_CHECK("sub", cz_bn254_fp2_sub(&got, &a, &b));
        FP2_CHECK("mul", cz_bn254_fp2_mul(&got, &a, &b));
        FP2_CHECK("sqr", cz_bn254_fp2_sqr(&got, &a));
        FP2_CHECK("inv", cz_bn254_fp2_inv(&got, &a));
        FP2_CHECK("inv", cz_bn254_fp2_inv_var(&got, &a));
        FP2_CHECK("mul_nr", cz_bn254_fp2_mul_by_nonresidue(&got, &a));
        FP2_CHECK("frobenius1", cz_bn254_fp2_frobenius(&got, &a));
#undef FP2_CHECK
        const json_t *sq = get(v, "sqrt");
        bool ok = cz_bn254_fp2_sqrt(&got, &a);
        if (json_is_null(sq)) {
            CHECK(!ok, "fp2[%zu] sqrt of a non-square", i);
        } else {
            cz_bn254_fp2 neg;
            fp2_of(&e, sq);
            cz_bn254_fp2_neg(&neg, &e);
            CHECK(ok && (cz_bn254_fp2_eq(&got, &e) || cz_bn254_fp2_eq(&got, &neg)), "fp2[%zu] sqrt", i);
        }
    }
    arr = get(g_root, "fp6");
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        cz_bn254_fp6 a, b, e, got;
        fp6_of(&a, get(v, "a"));
        fp6_of(&b, get(v, "b"));
#define FP6_CHECK(key, expr)                                                   \
    do {                                                                       \
        fp6_of(&e, get(v, key));                                               \
        expr;                                                                  \
        CHECK(cz_bn254_fp6_eq(&got, &e), "fp6[%zu] %s", i, key);               \
    } while (0)
        FP6_CHECK("mul", cz_bn254_fp6_mul(&got, &a, &b));
        FP6_CHECK("sqr", cz_bn254_fp6_sqr(&got, &a));
        FP6_CHECK("inv", cz_bn254_fp6_inv(&got, &a));
        FP6_CHECK("mul_nr", cz_bn254_fp6_mul_by_nonresidue(&got, &a));
        FP6_CHECK("frobenius1", cz_bn254_fp6_frobenius(&got, &a, 1));
        FP6_CHECK("frobenius2", cz_bn254_fp6_frobenius(&got, &a, 2));
#undef FP6_CHECK
    }
    arr = get(g_root, "fp12");
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        cz_bn254_fp12 a, b, e, got;
        fp12_of(&a, get(v, "a"));
        fp12_of(&b, get(v, "b"));
#define FP12_CHECK(key, expr)                                                  \
    do {                                                                       \
        fp12_of(&e, get(v, key));                                              \
        expr;                                                                  \
        CHECK(cz_bn254_fp12_eq(&got, &e), "fp12[%zu] %s", i, key);             \
    } while (0)
        FP12_CHECK("mul", cz_bn254_fp12_mul(&got, &a, &b));
        FP12_CHECK("sqr", cz_bn254_fp12_sqr(&got, &a));
        FP12_CHECK("inv", cz_bn254_fp12_inv(&got, &a));
        FP12_CHECK("inv", cz_bn254_fp12_inv_var(&got, &a));
        FP12_CHECK("conj", cz_bn254_fp12_conj(&got, &a));
        FP12_CHECK("frobenius1", cz_bn254_fp12_frobenius(&got, &a, 1));
        FP12_CHECK("frobenius2", cz_bn254_fp12_frobenius(&got, &a, 2));
        FP12_CHECK("frobenius3", cz_bn254_fp12_frobenius(&got, &a, 3));
        FP12_CHECK("frobenius6", cz_bn254_fp12_frobenius(&got, &a, 6));
#undef FP12_CHECK
        /* bytes: the 12 coefficients, 32-byte big-endian, in struct order */
        uint8_t bytes[384], want[32];
        cz_bn254_fp12_to_bytes_be(bytes, &a);
        for (size_t c = 0; c < 12; c++) {
            cz_bn254_fp t;
            fp_of(&t, item(get(v, "a"), c));
            cz_bn254_fp_to_bytes_be(want, &t);
            CHECK(memcmp(bytes + 32 * c, want, 32) == 0, "fp12[%zu] to_bytes_be coefficient %zu", i, c);
        }
    }
    end("tower known answers");
}

/* ================= the tower: identities ================= */

static void test_tower_props(void **state)
{
    (void)state;
    begin();
    int iters = cz_test_iters(8);
    for (int it = 0; it < iters; it++) {
        cz_bn254_fp12 a, b, x, y, z;
        cz_bn254_fp12_random(&a, &rng);
        cz_bn254_fp12_random(&b, &rng);
        /* Frobenius is a ring map of order 12 */
        cz_bn254_fp12_mul(&x, &a, &b);
        cz_bn254_fp12_frobenius(&x, &x, 1);
        cz_bn254_fp12_frobenius(&y, &a, 1);
        cz_bn254_fp12_frobenius(&z, &b, 1);
        cz_bn254_fp12_mul(&y, &y, &z);
        CHECK(cz_bn254_fp12_eq(&x, &y), "frobenius(ab)");
        x = a;
        for (int k = 1; k <= 12; k++) {
            cz_bn254_fp12_frobenius(&x, &x, 1);
            cz_bn254_fp12_frobenius(&y, &a, k);
            CHECK(cz_bn254_fp12_eq(&x, &y), "frobenius^%d", k);
        }
        CHECK(cz_bn254_fp12_eq(&x, &a), "frobenius^12 = id");
        /* a^p by a plain power */
        uint64_t p[4] = CZ_BN254_FP_P;
        cz_bn254_fp12_pow(&x, &a, p, 4);
        cz_bn254_fp12_frobenius(&y, &a, 1);
        CHECK(cz_bn254_fp12_eq(&x, &y), "a^p");
        /* sparse line product against the full product */
        cz_bn254_fp2 c0, c3, c4;
        cz_bn254_fp2_random(&c0, &rng);
        cz_bn254_fp2_random(&c3, &rng);
        cz_bn254_fp2_random(&c4, &rng);
        cz_bn254_fp12_zero(&z);
        z.c0.c0 = c0;
        z.c1.c0 = c3;
        z.c1.c1 = c4;
        cz_bn254_fp12_mul(&x, &a, &z);
        cz_bn254_fp12_mul_by_034(&y, &a, &c0, &c3, &c4);
        CHECK(cz_bn254_fp12_eq(&x, &y), "mul_by_034");
        y = a;
        cz_bn254_fp12_mul_by_034(&y, &y, &y.c0.c0, &y.c1.c0, &y.c1.c1); /* aliasing */
        cz_bn254_fp12_zero(&z);
        z.c0.c0 = a.c0.c0;
        z.c1.c0 = a.c1.c0;
        z.c1.c1 = a.c1.c1;
        cz_bn254_fp12_mul(&x, &a, &z);
        CHECK(cz_bn254_fp12_eq(&x, &y), "mul_by_034 aliased");
        cz_bn254_fp12_zero(&z);
        z.c0.c0 = c0;
        z.c0.c1 = c3;
        z.c1.c1 = c4;
        cz_bn254_fp12_mul(&x, &a, &z);
        cz_bn254_fp12_mul_by_014(&y, &a, &c0, &c3, &c4);
        CHECK(cz_bn254_fp12_eq(&x, &y), "mul_by_014");
        /* inverse, square */
        cz_bn254_fp12_inv(&x, &a);
        cz_bn254_fp12_mul(&x, &x, &a);
        CHECK(cz_bn254_fp12_is_one(&x), "a/a");
        cz_bn254_fp12_sqr(&x, &a);
        cz_bn254_fp12_mul(&y, &a, &a);
        CHECK(cz_bn254_fp12_eq(&x, &y), "sqr");
        /* cyclotomic: c = a^((p^6 - 1)(p^2 + 1)); conj = p^6 power = inverse */
        cz_bn254_fp12 c;
        cz_bn254_fp12_inv(&x, &a);
        cz_bn254_fp12_conj(&c, &a);
        cz_bn254_fp12_mul(&c, &c, &x);
        cz_bn254_fp12_frobenius(&x, &c, 2);
        cz_bn254_fp12_mul(&c, &c, &x);
        cz_bn254_fp12_cyclotomic_sqr(&x, &c);
        cz_bn254_fp12_sqr(&y, &c);
        CHECK(cz_bn254_fp12_eq(&x, &y), "cyclotomic_sqr");
        cz_bn254_fp12_conj(&x, &c);
        cz_bn254_fp12_mul(&x, &x, &c);
        CHECK(cz_bn254_fp12_is_one(&x), "conj = inverse on the cyclotomic subgroup");
        uint64_t e[2] = {cz_rng_u64(&rng), cz_rng_u64(&rng)};
        cz_bn254_fp12_cyclotomic_pow_var(&x, &c, e, 2);
        cz_bn254_fp12_pow(&y, &c, e, 2);
        CHECK(cz_bn254_fp12_eq(&x, &y), "cyclotomic_pow_var");
    }
    for (int it = 0; it < cz_test_iters(50); it++) {
        cz_bn254_fp2 a, b, x, y;
        cz_bn254_fp2_random(&a, &rng);
        cz_bn254_fp2_random(&b, &rng);
        cz_bn254_fp2_sqr(&x, &a);
        CHECK(cz_bn254_fp2_sqrt(&y, &x), "fp2 sqrt of a square");
        cz_bn254_fp2_sqr(&y, &y);
        CHECK(cz_bn254_fp2_eq(&x, &y), "fp2 sqrt value");
        /* xi = 9 + u */
        cz_bn254_fp2 xi;
        cz_bn254_fp_set_u64(&xi.c0, 9);
        cz_bn254_fp_one(&xi.c1);
        cz_bn254_fp2_mul(&x, &a, &xi);
        cz_bn254_fp2_mul_by_nonresidue(&y, &a);
        CHECK(cz_bn254_fp2_eq(&x, &y), "fp2 times xi");
    }
    end("tower identities");
}

/* ================= G1, G2: known answers ================= */

static void unhex(uint8_t *out, size_t n, const char *hex)
{
    long got = cz_test_unhex(out, n, hex);
    if (got != (long)n) {
        printf("vector file: expected %zu bytes of hex, got %ld\n", n, got);
        fail();
    }
}

static void g1_of(cz_bn254_g1_affine *out, const json_t *v)
{
    if (json_object_get(v, "infinity")) {
        cz_bn254_g1_affine_infinity(out);
        return;
    }
    fp_of(&out->x, str(v, "x"));
    fp_of(&out->y, str(v, "y"));
}

static void g2_of(cz_bn254_g2_affine *out, const json_t *v)
{
    if (json_object_get(v, "infinity")) {
        cz_bn254_g2_affine_infinity(out);
        return;
    }
    fp2_of(&out->x, get(v, "x"));
    fp2_of(&out->y, get(v, "y"));
}

/* the encodings of an expected point, both ways */
static void g1_encodings(const cz_bn254_g1_affine *e, const json_t *v, const char *what, size_t i)
{
    uint8_t want[64], got[64];
    cz_bn254_g1_affine p;
    unhex(want, 64, str(v, "zkey"));
    cz_bn254_g1_to_snarkjs(got, e);
    CHECK(memcmp(got, want, 64) == 0, "%s[%zu] to_snarkjs", what, i);
    CHECK(cz_bn254_g1_from_snarkjs(&p, want) == CZ_OK && cz_bn254_g1_affine_eq(&p, e),
          "%s[%zu] from_snarkjs", what, i);
    const json_t *d = get(v, "dec");
    char x[CZ_BN254_STR_MAX], y[CZ_BN254_STR_MAX], z[CZ_BN254_STR_MAX];
    CHECK(cz_bn254_g1_from_dec(&p, item(d, 0), item(d, 1), item(d, 2)) == CZ_OK &&
              cz_bn254_g1_affine_eq(&p, e), "%s[%zu] from_dec", what, i);
    cz_bn254_g1_to_dec(x, y, z, e);
    CHECK(!strcmp(x, item(d, 0)) && !strcmp(y, item(d, 1)) && !strcmp(z, item(d, 2)),
          "%s[%zu] to_dec", what, i);
}

static void g2_encodings(const cz_bn254_g2_affine *e, const json_t *v, const char *what, size_t i)
{
    uint8_t want[128], got[128];
    cz_bn254_g2_affine p;
    unhex(want, 128, str(v, "zkey"));
    cz_bn254_g2_to_snarkjs(got, e);
    CHECK(memcmp(got, want, 128) == 0, "%s[%zu] to_snarkjs", what, i);
    CHECK(cz_bn254_g2_from_snarkjs(&p, want) == CZ_OK && cz_bn254_g2_affine_eq(&p, e),
          "%s[%zu] from_snarkjs", what, i);
    const json_t *d = get(v, "dec");
    const json_t *dx = json_array_get(d, 0), *dy = json_array_get(d, 1), *dz = json_array_get(d, 2);
    char s[6][CZ_BN254_STR_MAX];
    CHECK(cz_bn254_g2_from_dec(&p, item(dx, 0), item(dx, 1), item(dy, 0), item(dy, 1), item(dz, 0),
                               item(dz, 1)) == CZ_OK && cz_bn254_g2_affine_eq(&p, e),
          "%s[%zu] from_dec", what, i);
    cz_bn254_g2_to_dec(s[0], s[1], s[2], s[3], s[4], s[5], e);
    CHECK(!strcmp(s[0], item(dx, 0)) && !strcmp(s[1], item(dx, 1)) && !strcmp(s[2], item(dy, 0)) &&
              !strcmp(s[3], item(dy, 1)) && !strcmp(s[4], item(dz, 0)) && !strcmp(s[5], item(dz, 1)),
          "%s[%zu] to_dec", what, i);
}

/* One body for G1 and G2 (G = bn254_g1 / bn254_g2). */
#define GROUP_KAT(G, OF, ENC)                                                  \
    static void G##_kat(void)                                                  \
    {                                                                          \
        const json_t *sec = get(g_root, #G + 6); /* "g1" / "g2" */             \
        const json_t *mul = get(sec, "mul");                                   \
        cz_##G##_affine gen;                                                   \
        cz_##G##_jac gj;                                                       \
        cz_##G##_generator(&gen);                                              \
        cz_##G##_jac_from_affine(&gj, &gen);                                   \
        assert_true(json_array_size(mul) > 0);                                 \
        for (size_t i = 0; i < json_array_size(mul); i++) {                    \
            const json_t *v = json_array_get(mul, i);                          \
            cz_bn254_fr k;                                                     \
            cz_##G##_affine e, got;                                            \
            cz_##G##_jac r;                                                    \
            fr_of(&k, str(v, "k"));                                            \
            OF(&e, get(v, "point"));                                           \
            cz_##G##_jac_mul(&r, &gj, &k);                                     \
            cz_##G##_jac_to_affine(&got, &r);                                  \
            CHECK(cz_##G##_affine_eq(&got, &e), #G " mul[%zu] k = %s", i, fr_str(&k)); \
            uint64_t kl[4];                                                    \
            cz_bn254_fr_to_limbs(kl, &k);                                      \
            cz_##G##_jac_mul_var(&r, &gj, kl, 4);                              \
            cz_##G##_jac_to_affine(&got, &r);                                  \
            CHECK(cz_##G##_affine_eq(&got, &e), #G " mul_var[%zu]", i);        \
            CHECK(cz_##G##_affine_in_subgroup(&e), #G " mul[%zu] in subgroup", i); \
            ENC(&e, get(v, "point"), #G " mul", i);                            \
        }                                                                      \
        const json_t *add = get(sec, "add");                                   \
        for (size_t i = 0; i < json_array_size(add); i++) {                    \
            const json_t *v = json_array_get(add, i);                          \
            cz_##G##_affine p, q, e, got;                                      \
            cz_##G##_jac pj, qj, r;                                            \
            cz_##G##_xyzz x;                                                   \
            OF(&p, get(v, "p"));                                               \
            OF(&q, get(v, "q"));                                               \
            OF(&e, get(v, "sum"));                                             \
            cz_##G##_jac_from_affine(&pj, &p);                                 \
            cz_##G##_jac_from_affine(&qj, &q);                                 \
            cz_##G##_jac_add(&r, &pj, &qj);                                    \
            cz_##G##_jac_to_affine(&got, &r);                                  \
            CHECK(cz_##G##_affine_eq(&got, &e), #G " add[%zu] jac", i);        \
            cz_##G##_jac_add_affine(&r, &pj, &q);                              \
            cz_##G##_jac_to_affine(&got, &r);                                  \
            CHECK(cz_##G##_affine_eq(&got, &e), #G " add[%zu] mixed", i);      \
            cz_##G##_xyzz_from_affine(&x, &p);                                 \
            cz_##G##_xyzz_add_affine(&x, &x, &q);                              \
            cz_##G##_xyzz_to_jac(&r, &x);                                      \
            cz_##G##_jac_to_affine(&got, &r);                                  \
            CHECK(cz_##G##_affine_eq(&got, &e), #G " add[%zu] xyzz", i);       \
            ENC(&e, get(v, "sum"), #G " add", i);                              \
        }                                                                      \
    }

GROUP_KAT(bn254_g1, g1_of, g1_encodings)
GROUP_KAT(bn254_g2, g2_of, g2_encodings)

static void test_groups_kat(void **state)
{
    (void)state;
    begin();
    bn254_g1_kat();
    bn254_g2_kat();
    end("G1/G2 known answers");
}

static cz_status status_of(const char *name)
{
    if (!strcmp(name, "NOT_ON_CURVE"))
        return CZ_ERR_NOT_ON_CURVE;
    if (!strcmp(name, "SUBGROUP"))
        return CZ_ERR_SUBGROUP;
    if (!strcmp(name, "FORMAT"))
        return CZ_ERR_FORMAT;
    fail_msg("unknown status %s", name);
    return CZ_OK;
}

/* Invalid points: the .zkey decoder checks range and curve (the subgroup is
   the caller's: cz_bn254_g2_affine_in_subgroup), the decimal one all three. */
static void test_invalid_points(void **state)
{
    (void)state;
    begin();
    const json_t *inv = get(g_root, "invalid");
    const json_t *g1 = get(inv, "g1"), *g2 = get(inv, "g2");
    for (size_t i = 0; i < json_array_size(g1); i++) {
        const json_t *v = json_array_get(g1, i);
        uint8_t b[64];
        cz_bn254_g1_affine p, keep;
        unhex(b, 64, str(v, "zkey"));
        cz_status want = status_of(str(v, "status"));
        cz_bn254_g1_generator(&p);
        keep = p;
        CHECK(cz_bn254_g1_from_snarkjs(&p, b) == want, "g1 invalid[%zu] zkey", i);
        CHECK(cz_bn254_g1_affine_eq(&p, &keep), "g1 invalid[%zu]: out written on failure", i);
        if (json_object_get(v, "x")) {
            char x[CZ_BN254_STR_MAX], y[CZ_BN254_STR_MAX];
            cz_bn254_fp t;
            fp_of(&t, str(v, "x"));
            cz_bn254_fp_to_dec(x, &t);
            fp_of(&t, str(v, "y"));
            cz_bn254_fp_to_dec(y, &t);
            CHECK(cz_bn254_g1_from_dec(&p, x, y, "1") == want, "g1 invalid[%zu] dec", i);
        }
    }
    for (size_t i = 0; i < json_array_size(g2); i++) {
        const json_t *v = json_array_get(g2, i);
        uint8_t b[128];
        cz_bn254_g2_affine p;
        unhex(b, 128, str(v, "zkey"));
        cz_status want = status_of(str(v, "status"));
        cz_status got = cz_bn254_g2_from_snarkjs(&p, b);
        if (want == CZ_ERR_SUBGROUP) {
            CHECK(got == CZ_OK, "g2 invalid[%zu]: the zkey decoder checks the curve only", i);
            CHECK(cz_bn254_g2_affine_is_on_curve(&p), "g2 invalid[%zu] on the twist", i);
            CHECK(!cz_bn254_g2_affine_in_subgroup(&p), "g2 invalid[%zu] outside G2", i);
            char s[4][CZ_BN254_STR_MAX];
            cz_bn254_fp_to_dec(s[0], &p.x.c0);
            cz_bn254_fp_to_dec(s[1], &p.x.c1);
            cz_bn254_fp_to_dec(s[2], &p.y.c0);
            cz_bn254_fp_to_dec(s[3], &p.y.c1);
            CHECK(cz_bn254_g2_from_dec(&p, s[0], s[1], s[2], s[3], "1", "0") == CZ_ERR_SUBGROUP,
                  "g2 invalid[%zu] dec", i);
        } else {
            CHECK(got == want, "g2 invalid[%zu] zkey: %d", i, (int)got);
        }
    }
    /* malformed decimal forms */
    cz_bn254_g1_affine p;
    CHECK(cz_bn254_g1_from_dec(&p, "1", "2", "2") == CZ_ERR_FORMAT, "z = 2");
    CHECK(cz_bn254_g1_from_dec(&p, "1", "0", "0") == CZ_ERR_FORMAT, "bad infinity");
    CHECK(cz_bn254_g1_from_dec(&p, "0", "1", "0") == CZ_OK && cz_bn254_g1_affine_is_infinity(&p), "infinity");
    CHECK(cz_bn254_g1_from_dec(&p, "1x", "2", "1") == CZ_ERR_FORMAT, "junk");
    CHECK(cz_bn254_g1_from_dec(&p,
              "21888242871839275222246405745257275088696311157297823662689037894645226208584", "2", "1") ==
              CZ_ERR_FORMAT, "x = p + 1");
    CHECK(cz_bn254_g1_from_dec(&p, "1", "2", "1") == CZ_OK, "generator");
    end("invalid points");
}

/* ================= G1, G2: properties ================= */

#define GROUP_PROPS(G)                                                         \
    static void G##_props(int iters)                                           \
    {                                                                          \
        cz_##G##_affine gen, a1, a2;                                           \
        cz_##G##_jac g, x, y, z;                                               \
        cz_##G##_generator(&gen);                                              \
        cz_##G##_jac_from_affine(&g, &gen);                                    \
        CHECK(cz_##G##_affine_is_on_curve(&gen) && cz_##G##_affine_in_subgroup(&gen), #G " generator"); \
        uint64_t r[4] = CZ_BN254_FR_P;                                         \
        cz_##G##_jac_mul_var(&x, &g, r, 4);                                    \
        CHECK(cz_##G##_jac_is_infinity(&x), #G " [r] G = 0");                  \
        for (int it = 0; it < iters; it++) {                                   \
            cz_bn254_fr a, b, c;                                               \
            cz_bn254_fr_random(&a, &rng);                                      \
            cz_bn254_fr_random(&b, &rng);                                      \
            cz_bn254_fr_add(&c, &a, &b);                                       \
            cz_##G##_jac_mul(&x, &g, &a);                                      \
            cz_##G##_jac_mul(&y, &g, &b);                                      \
            cz_##G##_jac_add(&z, &x, &y);                                      \
            cz_##G##_jac_mul(&y, &g, &c);                                      \
            CHECK(cz_##G##_jac_eq(&z, &y), #G " aG + bG = (a + b)G");          \
            cz_bn254_fr_mul(&c, &a, &b);                                       \
            cz_##G##_jac_mul(&y, &x, &b);                                      \
            cz_##G##_jac_mul(&z, &g, &c);                                      \
            CHECK(cz_##G##_jac_eq(&z, &y), #G " b(aG) = (ab)G");               \
            cz_##G##_jac_dbl(&y, &x);                                          \
            cz_##G##_jac_add(&z, &x, &x);                                      \
            CHECK(cz_##G##_jac_eq(&z, &y), #G " dbl = add to itself");         \
            cz_##G##_jac_neg(&y, &x);                                          \
            cz_##G##_jac_add(&z, &x, &y);                                      \
            CHECK(cz_##G##_jac_is_infinity(&z), #G " P - P = 0");              \
            cz_##G##_jac_to_affine(&a1, &x);                                   \
            cz_##G##_jac_batch_to_affine(&a2, &x, 1);                          \
            CHECK(cz_##G##_affine_eq(&a1, &a2) && cz_##G##_affine_is_on_curve(&a1) && \
                      cz_##G##_affine_in_subgroup(&a1), #G " affine");         \
            cz_##G##_xyzz xz;                                                  \
            cz_##G##_xyzz_from_affine(&xz, &a1);                               \
            cz_##G##_xyzz_dbl(&xz, &xz);                                       \
            cz_##G##_xyzz_to_jac(&z, &xz);                                     \
            cz_##G##_jac_dbl(&y, &x);                                          \
            CHECK(cz_##G##_jac_eq(&z, &y), #G " xyzz dbl");                    \
        }                                                                      \
    }

GROUP_PROPS(bn254_g1)
GROUP_PROPS(bn254_g2)

static void test_groups_props(void **state)
{
    (void)state;
    begin();
    bn254_g1_props(cz_test_iters(10));
    bn254_g2_props(cz_test_iters(10));
    /* psi acts on G2 as [p]: psi(Q) = [p mod r] Q, psi^2(Q) = [p^2 mod r] Q */
    cz_bn254_g2_affine q, s, t;
    cz_bn254_g2_jac qj, rj;
    cz_bn254_fr k;
    cz_bn254_fr_random(&k, &rng);
    cz_bn254_g2_generator(&q);
    cz_bn254_g2_jac_from_affine(&qj, &q);
    cz_bn254_g2_jac_mul(&qj, &qj, &k);
    cz_bn254_g2_jac_to_affine(&q, &qj);
    uint64_t p[4] = CZ_BN254_FP_P;
    cz_bn254_fr pr, pr2;
    cz_bn254_fr_from_limbs_reduce(&pr, p);
    cz_bn254_fr_sqr(&pr2, &pr);
    cz_bn254_g2_psi(&s, &q);
    cz_bn254_g2_jac_mul(&rj, &qj, &pr);
    cz_bn254_g2_jac_to_affine(&t, &rj);
    CHECK(cz_bn254_g2_affine_eq(&s, &t), "psi = [p] on G2");
    cz_bn254_g2_psi2(&s, &q);
    cz_bn254_g2_jac_mul(&rj, &qj, &pr2);
    cz_bn254_g2_jac_to_affine(&t, &rj);
    CHECK(cz_bn254_g2_affine_eq(&s, &t), "psi^2 = [p^2] on G2");
    cz_bn254_g2_psi(&t, &q);
    cz_bn254_g2_psi(&t, &t);
    CHECK(cz_bn254_g2_affine_eq(&s, &t), "psi^2 = psi psi");
    end("G1/G2 properties");
}

/* ================= pairing ================= */

static void test_pairing_kat(void **state)
{
    (void)state;
    begin();
    const json_t *arr = get(g_root, "pairing");
    assert_true(json_array_size(arr) > 0);
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        cz_bn254_g1_affine p;
        cz_bn254_g2_affine q;
        cz_bn254_fp12 e, got;
        g1_of(&p, get(v, "p"));
        g2_of(&q, get(v, "q"));
        fp12_of(&e, get(v, "e"));
        cz_bn254_pairing(&got, &p, &q);
        CHECK(cz_bn254_fp12_eq(&got, &e), "pairing[%zu] a = %s b = %s", i, str(v, "a"), str(v, "b"));
    }
    /* the final exponentiation alone */
    arr = get(g_root, "fp12");
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *v = json_array_get(arr, i);
        cz_bn254_fp12 a, e, got;
        fp12_of(&a, get(v, "a"));
        fp12_of(&e, get(v, "final_exp"));
        cz_bn254_final_exp(&got, &a);
        CHECK(cz_bn254_fp12_eq(&got, &e), "final_exp[%zu]", i);
    }
    end("pairing known answers");
}

static void test_pairing_props(void **state)
{
    (void)state;
    begin();
    cz_bn254_g1_affine g1;
    cz_bn254_g2_affine g2;
    cz_bn254_g1_jac j1;
    cz_bn254_g2_jac j2;
    cz_bn254_fp12 base, x, y;
    cz_bn254_g1_generator(&g1);
    cz_bn254_g2_generator(&g2);
    cz_bn254_pairing(&base, &g1, &g2);
    CHECK(!cz_bn254_fp12_is_one(&base), "e(G1, G2) != 1");
    uint64_t r[4] = CZ_BN254_FR_P;
    cz_bn254_fp12_pow(&x, &base, r, 4);
    CHECK(cz_bn254_fp12_is_one(&x), "e(G1, G2)^r = 1");
    for (int it = 0; it < cz_test_iters(3); it++) {
        /* e(aP, bQ) = e(P, Q)^(ab) */
        cz_bn254_fr a, b, ab;
        cz_bn254_g1_affine pa;
        cz_bn254_g2_affine qb;
        cz_bn254_fr_random(&a, &rng);
        cz_bn254_fr_random(&b, &rng);
        cz_bn254_fr_mul(&ab, &a, &b);
        cz_bn254_g1_jac_from_affine(&j1, &g1);
        cz_bn254_g1_jac_mul(&j1, &j1, &a);
        cz_bn254_g1_jac_to_affine(&pa, &j1);
        cz_bn254_g2_jac_from_affine(&j2, &g2);
        cz_bn254_g2_jac_mul(&j2, &j2, &b);
        cz_bn254_g2_jac_to_affine(&qb, &j2);
        cz_bn254_pairing(&x, &pa, &qb);
        uint64_t e[4];
        cz_bn254_fr_to_limbs(e, &ab);
        cz_bn254_fp12_pow(&y, &base, e, 4);
        CHECK(cz_bn254_fp12_eq(&x, &y), "e(aP, bQ) = e(P, Q)^(ab)");
        /* product form: e(aP, bQ) e(-abP, Q) = 1, in one Miller loop */
        cz_bn254_g1_affine ps[2];
        cz_bn254_g2_affine qs[2] = {qb, g2};
        ps[0] = pa;
        cz_bn254_g1_jac_from_affine(&j1, &g1);
        cz_bn254_g1_jac_mul(&j1, &j1, &ab);
        cz_bn254_g1_jac_neg(&j1, &j1);
        cz_bn254_g1_jac_to_affine(&ps[1], &j1);
        CHECK(cz_bn254_pairing_product_is_one(ps, qs, 2), "e(aP, bQ) e(-abP, Q) = 1");
        ps[1] = g1;
        CHECK(!cz_bn254_pairing_product_is_one(ps, qs, 2), "a wrong product is not 1");
    }
    /* more pairs than a Miller block, with points at infinity among them:
       the shared loop equals the product of single pairings */
    enum { NP = 19 };
    cz_bn254_g1_affine ps[NP];
    cz_bn254_g2_affine qs[NP];
    cz_bn254_fp12 prod;
    cz_bn254_fp12_one(&prod);
    for (int i = 0; i < NP; i++) {
        cz_bn254_fr k;
        cz_bn254_fr_set_u64(&k, (uint64_t)i + 2);
        cz_bn254_g1_jac_from_affine(&j1, &g1);
        cz_bn254_g1_jac_mul(&j1, &j1, &k);
        cz_bn254_g1_jac_to_affine(&ps[i], &j1);
        cz_bn254_g2_jac_from_affine(&j2, &g2);
        cz_bn254_g2_jac_mul(&j2, &j2, &k);
        cz_bn254_g2_jac_to_affine(&qs[i], &j2);
        if (i == 5)
            cz_bn254_g1_affine_infinity(&ps[i]);
        if (i == NP - 1)
            cz_bn254_g2_affine_infinity(&qs[i]);
        cz_bn254_pairing(&x, &ps[i], &qs[i]);
        cz_bn254_fp12_mul(&prod, &prod, &x);
    }
    cz_bn254_miller_loop(&x, ps, qs, NP);
    cz_bn254_final_exp(&x, &x);
    CHECK(cz_bn254_fp12_eq(&x, &prod), "shared Miller loop over %d pairs", NP);
    cz_bn254_pairing(&x, &ps[5], &qs[5]);
    CHECK(cz_bn254_fp12_is_one(&x), "e(0, Q) = 1");
    end("pairing properties");
}

/* ================= snarkjs's own bn128 key: tests/fixtures/bn254 ================= */

/* Section `type` of a .zkey (magic "zkey", version, section count, then
   (type u32, size u64, bytes) records): its bytes and size, or NULL. */
static const uint8_t *zkey_section(const uint8_t *z, size_t len, uint32_t type, uint64_t *size)
{
    if (len < 12 || memcmp(z, "zkey", 4) != 0)
        return NULL;
    uint32_t n;
    memcpy(&n, z + 8, 4);
    size_t off = 12;
    for (uint32_t i = 0; i < n && off + 12 <= len; i++) {
        uint32_t t;
        uint64_t sz;
        memcpy(&t, z + off, 4);
        memcpy(&sz, z + off + 4, 8);
        off += 12;
        if (sz > len - off)
            return NULL;
        if (t == type) {
            *size = sz;
            return z + off;
        }
        off += sz;
    }
    return NULL;
}

static void g1_of_dec(cz_bn254_g1_affine *out, const json_t *d)
{
    assert_int_equal(cz_bn254_g1_from_dec(out, item(d, 0), item(d, 1), item(d, 2)), CZ_OK);
}

static void g2_of_dec(cz_bn254_g2_affine *out, const json_t *d)
{
    const json_t *x = json_array_get(d, 0), *y = json_array_get(d, 1), *z = json_array_get(d, 2);
    assert_int_equal(cz_bn254_g2_from_dec(out, item(x, 0), item(x, 1), item(y, 0), item(y, 1), item(z, 0),
                                          item(z, 1)),
                     CZ_OK);
}

/* The verifying key snarkjs wrote for its bn128 key (small_vk.json) against
 * the key's binary header (small.zkey, Montgomery bytes): the same points
 * through the two decoders, all on the curves and in the subgroups, gamma
 * the G2 generator, and e(alpha, beta) equal to the vk's vk_alphabeta_12,
 * which snarkjs computes with ffjavascript: a second independent pairing. */
static void test_snarkjs_key(void **state)
{
    (void)state;
    begin();
    size_t zlen = 0;
    uint8_t *z = cz_test_read_file(cz_test_src_path("tests/fixtures/bn254/small.zkey"), &zlen);
    assert_non_null(z);
    json_error_t err;
    json_t *vk = json_load_file(cz_test_src_path("tests/fixtures/bn254/small_vk.json"), 0, &err);
    assert_non_null(vk);
    CHECK(!strcmp(json_string_value(json_object_get(vk, "curve")), "bn128"), "vk curve");

    uint64_t hsz = 0, icsz = 0;
    const uint8_t *h = zkey_section(z, zlen, 2, &hsz);
    assert_non_null(h);
    uint32_t n8q, n8r, npub;
    memcpy(&n8q, h, 4);
    assert_int_equal(n8q, 32);
    uint64_t p[4] = CZ_BN254_FP_P, r[4] = CZ_BN254_FR_P;
    CHECK(memcmp(h + 4, p, 32) == 0, "zkey q is BN254's p");
    memcpy(&n8r, h + 36, 4);
    assert_int_equal(n8r, 32);
    CHECK(memcmp(h + 40, r, 32) == 0, "zkey r is BN254's r");
    memcpy(&npub, h + 76, 4);
    assert_int_equal((json_int_t)npub, json_integer_value(json_object_get(vk, "nPublic")));
    const uint8_t *pts = h + 84; /* alpha1, beta1, beta2, gamma2, delta1, delta2 */
    assert_true(hsz >= 84 + 3 * 64 + 3 * 128);

    cz_bn254_g1_affine a_bin, a_dec, b1;
    cz_bn254_g2_affine b_bin, b_dec, g_bin, g_dec, d_bin, d_dec, gen;
    CHECK(cz_bn254_g1_from_snarkjs(&a_bin, pts) == CZ_OK, "alpha1 bytes");
    CHECK(cz_bn254_g1_from_snarkjs(&b1, pts + 64) == CZ_OK, "beta1 bytes");
    CHECK(cz_bn254_g2_from_snarkjs(&b_bin, pts + 128) == CZ_OK, "beta2 bytes");
    CHECK(cz_bn254_g2_from_snarkjs(&g_bin, pts + 256) == CZ_OK, "gamma2 bytes");
    CHECK(cz_bn254_g2_from_snarkjs(&d_bin, pts + 448) == CZ_OK, "delta2 bytes");
    g1_of_dec(&a_dec, get(vk, "vk_alpha_1"));
    g2_of_dec(&b_dec, get(vk, "vk_beta_2"));
    g2_of_dec(&g_dec, get(vk, "vk_gamma_2"));
    g2_of_dec(&d_dec, get(vk, "vk_delta_2"));
    CHECK(cz_bn254_g1_affine_eq(&a_bin, &a_dec), "alpha: zkey bytes = vk decimals");
    CHECK(cz_bn254_g2_affine_eq(&b_bin, &b_dec), "beta");
    CHECK(cz_bn254_g2_affine_eq(&g_bin, &g_dec), "gamma");
    CHECK(cz_bn254_g2_affine_eq(&d_bin, &d_dec), "delta");
    CHECK(cz_bn254_g2_affine_in_subgroup(&b_bin) && cz_bn254_g2_affine_in_subgroup(&d_bin), "G2 subgroup");
    cz_bn254_g2_generator(&gen);
    CHECK(cz_bn254_g2_affine_eq(&g_dec, &gen), "gamma is the generator");

    /* IC: section 3, nPublic + 1 G1 points */
    const uint8_t *ic = zkey_section(z, zlen, 3, &icsz);
    assert_non_null(ic);
    const json_t *icj = get(vk, "IC");
    assert_int_equal(icsz, 64 * (npub + 1));
    assert_int_equal(json_array_size(icj), npub + 1);
    for (uint32_t i = 0; i <= npub; i++) {
        cz_bn254_g1_affine x, y;
        CHECK(cz_bn254_g1_from_snarkjs(&x, ic + 64 * i) == CZ_OK, "IC[%u] bytes", i);
        g1_of_dec(&y, json_array_get(icj, i));
        CHECK(cz_bn254_g1_affine_eq(&x, &y), "IC[%u]", i);
        uint8_t back[64];
        cz_bn254_g1_to_snarkjs(back, &y);
        CHECK(memcmp(back, ic + 64 * i, 64) == 0, "IC[%u] written back", i);
    }

    /* e(alpha, beta) = vk_alphabeta_12: [c0, c1] of [Fp2 c0, c1, c2] of [re, im] */
    cz_bn254_fp12 e, want;
    cz_bn254_fp *c = (cz_bn254_fp *)(void *)&want;
    const json_t *ab = get(vk, "vk_alphabeta_12");
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 0; j < 3; j++)
            for (size_t k = 0; k < 2; k++)
                assert_true(cz_bn254_fp_from_dec(&c[i * 6 + j * 2 + k],
                                                 item(json_array_get(json_array_get(ab, i), j), k)));
    cz_bn254_pairing(&e, &a_dec, &b_dec);
    CHECK(cz_bn254_fp12_eq(&e, &want), "e(alpha, beta) = snarkjs's vk_alphabeta_12");
    json_decref(vk);
    free(z);
    end("snarkjs bn128 key");
}

/* ================= the curve descriptor ================= */

/* cz_curve picks the curve from names and from the moduli of real snarkjs
   headers: the bn128 and BLS12-381 keys and witnesses of tests/fixtures. */
static void test_curve_descriptor(void **state)
{
    (void)state;
    begin();
    const cz_curve *bn = cz_curve_get(CZ_CURVE_BN254), *bls = cz_curve_get(CZ_CURVE_BLS12_381);
    assert_non_null(bn);
    assert_non_null(bls);
    CHECK(cz_curve_get((cz_curve_id)7) == NULL, "id out of range");
    CHECK(cz_curve_by_name("bn128") == bn && cz_curve_by_name("BN254") == bn &&
              cz_curve_by_name("alt_bn128") == bn, "bn254 names");
    CHECK(cz_curve_by_name("bls12381") == bls && cz_curve_by_name("bls12-381") == bls, "bls names");
    CHECK(cz_curve_by_name("secp256k1") == NULL && cz_curve_by_name(NULL) == NULL, "unknown names");
    CHECK(!strcmp(bn->snarkjs_name, "bn128") && !strcmp(bls->snarkjs_name, "bls12381"), "snarkjs names");
    CHECK(bn->fp_bytes == 32 && bn->fr_bytes == 32 && bn->g1_bytes == 64 && bn->g2_bytes == 128 &&
              bn->fr_two_adicity == 28, "bn254 sizes");
    CHECK(bls->fp_bytes == 48 && bls->fr_bytes == 32 && bls->g1_bytes == 96 && bls->g2_bytes == 192 &&
              bls->fr_two_adicity == 32, "bls sizes");
    CHECK(sizeof(cz_bn254_g1_affine) == bn->g1_bytes && sizeof(cz_bn254_g2_affine) == bn->g2_bytes,
          "bn254 point sizes are the struct sizes");

    const char *zkeys[2] = {"tests/fixtures/bn254/small.zkey", "tests/fixtures/small.zkey"};
    const char *wtns[2] = {"tests/fixtures/bn254/small.wtns", "tests/fixtures/small.wtns"};
    const cz_curve *want[2] = {bn, bls};
    for (int i = 0; i < 2; i++) {
        size_t len = 0;
        uint64_t hsz = 0;
        uint8_t *z = cz_test_read_file(cz_test_src_path(zkeys[i]), &len);
        assert_non_null(z);
        const uint8_t *h = zkey_section(z, len, 2, &hsz);
        assert_non_null(h);
        uint32_t n8q, n8r;
        memcpy(&n8q, h, 4);
        memcpy(&n8r, h + 4 + n8q, 4);
        CHECK(cz_curve_by_moduli(h + 4, n8q, h + 8 + n8q, n8r) == want[i], "%s: curve from q, r", zkeys[i]);
        CHECK(cz_curve_by_moduli(h + 4, n8q, NULL, 0) == want[i], "%s: curve from q", zkeys[i]);
        CHECK(cz_curve_by_moduli(h + 8 + n8q, n8r, NULL, 0) == NULL, "%s: r is no base field", zkeys[i]);
        free(z);
        /* .wtns: "wtns", version, sections; section 1: n8 (u32), the prime, count */
        uint8_t *w = cz_test_read_file(cz_test_src_path(wtns[i]), &len);
        assert_non_null(w);
        assert_true(len > 32 && !memcmp(w, "wtns", 4));
        uint32_t n8;
        memcpy(&n8, w + 24, 4);
        assert_true(28 + n8 <= len);
        CHECK(cz_curve_by_scalar_prime(w + 28, n8) == want[i], "%s: curve from the prime", wtns[i]);
        free(w);
    }
    end("curve descriptor");
}

/* ================= decoders under mutation ================= */

/* Valid .zkey points mutated many times (bit flips, random bytes, a
 * coordinate set to p - 1, p, p + 1, 2^256 - 1): the decoder either
 * refuses with FORMAT or NOT_ON_CURVE and leaves *out alone, or accepts a
 * point that is on the curve and encodes back to the same bytes. Decimal
 * strings likewise, with junk, signs, overlong and empty strings. */
static void test_decoders_mutation(void **state)
{
    (void)state;
    begin();
    static const uint64_t pl[4] = CZ_BN254_FP_P;
    cz_bn254_g1_affine g1;
    cz_bn254_g2_affine g2;
    cz_bn254_g1_jac j1;
    cz_bn254_g2_jac j2;
    cz_bn254_fr k;
    int accepted = 0;
    for (int it = 0; it < cz_test_iters(3000); it++) {
        cz_bn254_fr_random(&k, &rng);
        if (it % 50 == 0) {
            cz_bn254_g1_generator(&g1);
            cz_bn254_g1_jac_from_affine(&j1, &g1);
            cz_bn254_g1_jac_mul(&j1, &j1, &k);
            cz_bn254_g1_jac_to_affine(&g1, &j1);
            cz_bn254_g2_generator(&g2);
            cz_bn254_g2_jac_from_affine(&j2, &g2);
            cz_bn254_g2_jac_mul(&j2, &j2, &k);
            cz_bn254_g2_jac_to_affine(&g2, &j2);
        }
        uint8_t b1[64], b2[128], back[128];
        cz_bn254_g1_to_snarkjs(b1, &g1);
        cz_bn254_g2_to_snarkjs(b2, &g2);
        uint64_t rv = cz_rng_u64(&rng);
        int kind = (int)(rv % 4), coord = (int)((rv >> 8) % 4);
        uint8_t *buf = (rv >> 16) & 1 ? b2 : b1;
        size_t len = buf == b2 ? 128 : 64;
        if (kind == 0) { /* one to three bit flips */
            for (int f = 0; f <= (int)((rv >> 20) % 3); f++) {
                size_t bit = (size_t)(cz_rng_u64(&rng) % (len * 8));
                buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
        } else if (kind == 1) { /* a random byte */
            buf[cz_rng_u64(&rng) % len] = (uint8_t)cz_rng_u64(&rng);
        } else if (kind == 2) { /* a coordinate set to p + d, d in {-1, 0, 1} */
            size_t c = (size_t)coord % (len / 32);
            uint64_t v[4];
            memcpy(v, pl, sizeof v);
            int d = (int)((rv >> 24) % 3) - 1;
            v[0] += (uint64_t)(int64_t)d; /* p's low limb is far from 0 and 2^64 */
            for (int i = 0; i < 32; i++)
                buf[32 * c + (size_t)i] = (uint8_t)(v[i / 8] >> (8 * (i % 8)));
        } else { /* a coordinate of all ones, or all zero */
            size_t c = (size_t)coord % (len / 32);
            memset(buf + 32 * c, (rv >> 24) & 1 ? 0xff : 0, 32);
        }
        if (buf == b1) {
            cz_bn254_g1_affine out, keep;
            cz_bn254_g1_generator(&out);
            keep = out;
            cz_status st = cz_bn254_g1_from_snarkjs(&out, b1);
            if (st == CZ_OK) {
                accepted++;
                cz_bn254_g1_to_snarkjs(back, &out);
                CHECK(cz_bn254_g1_affine_is_on_curve(&out) && !memcmp(back, b1, 64), "g1 accepted junk");
            } else {
                CHECK(st == CZ_ERR_FORMAT || st == CZ_ERR_NOT_ON_CURVE, "g1 status %d", (int)st);
                CHECK(cz_bn254_g1_affine_eq(&out, &keep), "g1 out written on failure");
            }
        } else {
            cz_bn254_g2_affine out, keep;
            cz_bn254_g2_generator(&out);
            keep = out;
            cz_status st = cz_bn254_g2_from_snarkjs(&out, b2);
            if (st == CZ_OK) {
                accepted++;
                cz_bn254_g2_to_snarkjs(back, &out);
                CHECK(cz_bn254_g2_affine_is_on_curve(&out) && !memcmp(back, b2, 128), "g2 accepted junk");
            } else {
                CHECK(st == CZ_ERR_FORMAT || st == CZ_ERR_NOT_ON_CURVE, "g2 status %d", (int)st);
                CHECK(cz_bn254_g2_affine_eq(&out, &keep), "g2 out written on failure");
            }
        }
    }
    /* all-zero input: infinity, accepted */
    uint8_t z[128] = {0};
    CHECK(cz_bn254_g1_from_snarkjs(&g1, z) == CZ_OK && cz_bn254_g1_affine_is_infinity(&g1), "g1 zero");
    CHECK(cz_bn254_g2_from_snarkjs(&g2, z) == CZ_OK && cz_bn254_g2_affine_is_infinity(&g2), "g2 zero");
    CHECK(cz_bn254_g1_from_snarkjs(NULL, z) == CZ_ERR_ARG && cz_bn254_g2_from_dec(NULL, "0", "0", "1", "0", "0",
                                                                                 "0") == CZ_ERR_ARG,
          "NULL arguments");
    /* decimal strings */
    static const char *bad[] = {"", "-1", "+1", " 1", "1 ", "0x", "1e3", "١",
                                "21888242871839275222246405745257275088696311157297823662689037894645226208583",
                                "000000000000000000000000000000000000000000000000000000000000000000000000000000000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cz_bn254_g1_affine out;
        CHECK(cz_bn254_g1_from_dec(&out, bad[i], "2", "1") != CZ_OK, "dec x = '%s' accepted", bad[i]);
        CHECK(cz_bn254_g1_from_dec(&out, "1", bad[i], "1") != CZ_OK, "dec y = '%s' accepted", bad[i]);
    }
    printf("# mutation: %d of %d mutated points still valid (and re-encoded exactly)\n", accepted,
           cz_test_iters(3000));
    end("decoders under mutation");
}

/* ================= GLV on G1 ================= */

/* phi = [lambda] on G1; k = k1 + k2 lambda (mod r) with |k1|, |k2| < 2^128
   for edge and random k; and k P = (+-k1) P + (+-k2) phi(P) on points. */
static void test_glv(void **state)
{
    (void)state;
    begin();
    static const uint64_t lambda[4] = CZ_BN254_G1_LAMBDA, r[4] = CZ_BN254_FR_P;
    cz_bn254_fr lam;
    assert_true(cz_bn254_fr_from_limbs(&lam, lambda));
    cz_bn254_fr t, one;
    cz_bn254_fr_one(&one);
    cz_bn254_fr_sqr(&t, &lam);
    cz_bn254_fr_add(&t, &t, &lam);
    cz_bn254_fr_add(&t, &t, &one);
    CHECK(cz_bn254_fr_is_zero(&t), "lambda^2 + lambda + 1 = 0");
    int maxbits = 0;
    cz_bn254_g1_affine g, pt, e1, e2;
    cz_bn254_g1_jac j, q;
    cz_bn254_g1_generator(&g);
    for (int it = 0; it < 8; it++) {
        cz_bn254_fr k;
        cz_bn254_fr_random(&k, &rng);
        cz_bn254_g1_jac_from_affine(&j, &g);
        cz_bn254_g1_jac_mul(&j, &j, &k);
        cz_bn254_g1_jac_to_affine(&pt, &j);
        cz_bn254_g1_endo(&e1, &pt);
        cz_bn254_g1_jac_mul_var(&q, &j, lambda, 4);
        cz_bn254_g1_jac_to_affine(&e2, &q);
        CHECK(cz_bn254_g1_affine_eq(&e1, &e2) && cz_bn254_g1_affine_is_on_curve(&e1), "phi = [lambda]");
    }
    int n = cz_test_iters(20000);
    for (int it = -12; it < n; it++) {
        uint64_t k[4];
        cz_bn254_fr kf;
        if (it < 0) { /* edges: 0, 1, 2, lambda, lambda +- 1, r - 1, r - 2, (r-1)/2, 2^253, v1/v2-ish */
            static const uint64_t edge[12][4] = {
                {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, CZ_BN254_G1_LAMBDA,
                {0x8b17ea66b99c90deULL, 0x5bfc41088d8daaa7ULL, 0xb3c4d79d41a91758ULL, 0},
                {0x8b17ea66b99c90dcULL, 0x5bfc41088d8daaa7ULL, 0xb3c4d79d41a91758ULL, 0},
                {0x43e1f593f0000000ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL},
                {0x43e1f593efffffffULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL},
                {0xa1f0fac9f8000000ULL, 0x9419f4243cdcb848ULL, 0xdc2822db40c0ac2eULL, 0x183227397098d014ULL},
                {0, 0, 0, 1ULL << 61}, {~0ULL, ~0ULL, 0, 0}, {0, 0, 1, 0}};
            memcpy(k, edge[it + 12], sizeof k);
        } else {
            cz_bn254_fr_random(&kf, &rng);
            cz_bn254_fr_to_limbs(k, &kf);
        }
        bool ok_range = (k[3] < r[3]) || (k[3] == r[3] && (k[2] < r[2] || (k[2] == r[2] && (k[1] < r[1] ||
                                                          (k[1] == r[1] && k[0] < r[0])))));
        assert_true(ok_range);
        uint64_t k1[2], k2[2];
        bool n1, n2;
        cz_bn254_g1_glv_split(k1, &n1, k2, &n2, k);
        /* the magnitudes are < 2^128 by their type; check the identity */
        uint64_t l1[4] = {k1[0], k1[1], 0, 0}, l2[4] = {k2[0], k2[1], 0, 0};
        cz_bn254_fr a, b, want;
        assert_true(cz_bn254_fr_from_limbs(&a, l1) && cz_bn254_fr_from_limbs(&b, l2));
        if (n1)
            cz_bn254_fr_neg(&a, &a);
        if (n2)
            cz_bn254_fr_neg(&b, &b);
        cz_bn254_fr_mul(&b, &b, &lam);
        cz_bn254_fr_add(&a, &a, &b);
        assert_true(cz_bn254_fr_from_limbs(&want, k));
        CHECK(cz_bn254_fr_eq(&a, &want), "k = k1 + k2 lambda, case %d", it);
        /* (a magnitude of 2^128 or more would have lost its top limbs and
           broken the identity above) */
        for (int h = 0; h < 2; h++) {
            const uint64_t *m = h ? k2 : k1;
            int bits = m[1] ? 128 - __builtin_clzll(m[1]) : m[0] ? 64 - __builtin_clzll(m[0]) : 0;
            maxbits = bits > maxbits ? bits : maxbits;
        }
        if (it < 4) { /* the points: k P = +-k1 P +- k2 phi(P) */
            cz_bn254_g1_jac r1, r2, kp;
            cz_bn254_g1_jac_from_affine(&j, &pt);
            cz_bn254_g1_jac_mul_var(&kp, &j, k, 4);
            cz_bn254_g1_jac_mul_var(&r1, &j, k1, 2);
            if (n1)
                cz_bn254_g1_jac_neg(&r1, &r1);
            cz_bn254_g1_endo(&e1, &pt);
            cz_bn254_g1_jac_from_affine(&q, &e1);
            cz_bn254_g1_jac_mul_var(&r2, &q, k2, 2);
            if (n2)
                cz_bn254_g1_jac_neg(&r2, &r2);
            cz_bn254_g1_jac_add(&r1, &r1, &r2);
            CHECK(cz_bn254_g1_jac_eq(&r1, &kp), "k P = k1 P + k2 phi(P), case %d", it);
        }
    }
    printf("# GLV: %d scalars split, the largest half %d bits\n", n + 12, maxbits);
    end("GLV");
}

/* ================= Groth16 verification of a snarkjs bn128 proof ================= */

static char *read_text(const char *rel, size_t *len)
{
    char *t = (char *)cz_test_read_file(cz_test_src_path(rel), len);
    assert_non_null(t);
    return t;
}

/* snarkjs 0.7.6 proved tests/fixtures/bn254/small.zkey with small.wtns
 * (small_proof.json, small_public.json; tests/test_bn254_verify.sh makes a
 * fresh one with snarkjs and checks the CLI): the verifier accepts it and
 * the malleated (-A, -B, C), and refuses every change, with the status
 * groth16.h/verify_bn254.h promise, through the struct API and the JSON
 * entry point cuzk verify calls. */
static void test_groth16_verify(void **state)
{
    (void)state;
    begin();
    size_t lv, lp, lu, lbv, lbp, lbu;
    char *vkj = read_text("tests/fixtures/bn254/small_vk.json", &lv);
    char *prj = read_text("tests/fixtures/bn254/small_proof.json", &lp);
    char *puj = read_text("tests/fixtures/bn254/small_public.json", &lu);
    char *bvk = read_text("tests/fixtures/small_vk.json", &lbv);
    char *bpr = read_text("tests/fixtures/small_proof.json", &lbp);
    char *bpu = read_text("tests/fixtures/small_public.json", &lbu);
    char err[512];

    CHECK(cz_bn254_json_is_bn254(vkj, lv) && !cz_bn254_json_is_bn254(bvk, lbv), "curve dispatch");
    cz_status st = cz_verify_json_named(vkj, lv, "vk", puj, lu, "pub", prj, lp, "proof", err, sizeof err);
    CHECK(st == CZ_OK, "snarkjs's bn128 proof verifies (%s)", st ? err : "");
    st = cz_verify_json_named(bvk, lbv, "vk", bpu, lbu, "pub", bpr, lbp, "proof", err, sizeof err);
    CHECK(st == CZ_OK, "BLS12-381's proof still verifies (%s)", st ? err : "");
    CHECK(cz_verify_json_named(vkj, lv, "vk", bpu, lbu, "pub", bpr, lbp, "proof", err, sizeof err) ==
              CZ_ERR_CURVE, "bn128 vk, BLS12-381 proof: CZ_ERR_CURVE");
    CHECK(cz_verify_json_named(bvk, lbv, "vk", puj, lu, "pub", prj, lp, "proof", err, sizeof err) ==
              CZ_ERR_CURVE, "BLS12-381 vk, bn128 proof: CZ_ERR_CURVE");
    CHECK(cz_verify_json_named(vkj, lv, "vk", puj, lu, "pub", prj, lp / 2, "proof", err, sizeof err) ==
              CZ_ERR_FORMAT, "a truncated proof: CZ_ERR_FORMAT");
    char big[256];
    snprintf(big, sizeof big, "[\"%s\", \"1\", \"3\", \"11\"]",
             "21888242871839275222246405745257275088548364400416034343698204186575808495617");
    cz_bn254_fr *pv = NULL;
    size_t npv = 0;
    CHECK(cz_bn254_public_from_json(&pv, &npv, big, strlen(big), "pub", err, sizeof err) == CZ_ERR_RANGE,
          "a public input = r: CZ_ERR_RANGE");
    CHECK(cz_verify_json_named(vkj, lv, "vk", big, strlen(big), "pub", prj, lp, "proof", err, sizeof err) ==
              CZ_ERR_VERIFY, "a public input = r: invalid");

    cz_bn254_vk *vk = NULL;
    cz_bn254_fr *pub = NULL;
    size_t npub = 0;
    cz_bn254_proof pr, t;
    assert_int_equal(cz_bn254_vk_from_json(&vk, vkj, lv, "vk", err, sizeof err), CZ_OK);
    assert_int_equal(cz_bn254_public_from_json(&pub, &npub, puj, lu, "pub", err, sizeof err), CZ_OK);
    assert_int_equal(cz_bn254_proof_from_json(&pr, prj, lp, "proof", err, sizeof err), CZ_OK);
    assert_int_equal(npub, vk->n_public);
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &pr, err, sizeof err) == CZ_OK, "struct API accepts");

    t = pr; /* the Groth16 malleation (-A, -B, C) is a valid proof */
    cz_bn254_g1_affine_neg(&t.a, &pr.a);
    cz_bn254_g2_affine_neg(&t.b, &pr.b);
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_OK, "(-A, -B, C) verifies");
    t = pr;
    cz_bn254_g1_affine_neg(&t.c, &pr.c);
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_VERIFY, "-C refused");
    t = pr;
    t.a = pr.c;
    t.c = pr.a;
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_VERIFY, "A, C swapped");
    t = pr;
    cz_bn254_g1_affine g;
    cz_bn254_g1_generator(&g);
    t.a = g;
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_VERIFY, "A = G1 refused");
    t = pr;
    cz_bn254_fp one;
    cz_bn254_fp_one(&one);
    cz_bn254_fp_add(&t.a.x, &t.a.x, &one);
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_NOT_ON_CURVE,
          "A.x + 1: not on the curve");
    t = pr;
    cz_bn254_fp_add(&t.b.y.c1, &t.b.y.c1, &one);
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_NOT_ON_CURVE,
          "B.y.c1 + 1: not on the twist");
    /* (1, 0) + y u: on the twist, outside G2 (tests/vectors/bn254.json, "invalid") */
    t = pr;
    cz_bn254_fp2_one(&t.b.x);
    assert_true(cz_bn254_fp_from_dec(&t.b.y.c0, "3610091866386166428467545612961983990332663701371483510632385378352395651980"));
    assert_true(cz_bn254_fp_from_dec(&t.b.y.c1, "15975588672102553735566230729081043132501226101599136527557730645158523614371"));
    CHECK(cz_bn254_g2_affine_is_on_curve(&t.b), "the twist point is on the twist");
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &t, err, sizeof err) == CZ_ERR_SUBGROUP,
          "B outside G2: CZ_ERR_SUBGROUP");
    for (size_t i = 0; i < npub; i++) { /* each public input + 1 */
        cz_bn254_fr save = pub[i], o;
        cz_bn254_fr_one(&o);
        cz_bn254_fr_add(&pub[i], &pub[i], &o);
        CHECK(cz_bn254_groth16_verify(vk, pub, npub, &pr, err, sizeof err) == CZ_ERR_VERIFY,
              "public input %zu + 1 refused", i);
        pub[i] = save;
    }
    CHECK(cz_bn254_groth16_verify(vk, pub, npub - 1, &pr, err, sizeof err) == CZ_ERR_ARG,
          "one public input short: CZ_ERR_ARG");
    CHECK(cz_bn254_groth16_verify(vk, pub, npub, &pr, err, sizeof err) == CZ_OK, "still accepts");

    cz_bn254_vk_free(vk);
    cz_bn254_vk_free(NULL);
    free(pub);
    free(pv);
    free(vkj);
    free(prj);
    free(puj);
    free(bvk);
    free(bpr);
    free(bpu);
    end("Groth16 verify");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prime_fields_kat), cmocka_unit_test(test_prime_fields_props),
        cmocka_unit_test(test_tower_kat),        cmocka_unit_test(test_tower_props),
        cmocka_unit_test(test_groups_kat),       cmocka_unit_test(test_invalid_points),
        cmocka_unit_test(test_groups_props),     cmocka_unit_test(test_pairing_kat),
        cmocka_unit_test(test_pairing_props),     cmocka_unit_test(test_snarkjs_key),
        cmocka_unit_test(test_curve_descriptor), cmocka_unit_test(test_decoders_mutation),
        cmocka_unit_test(test_glv),
        cmocka_unit_test(test_groth16_verify),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
