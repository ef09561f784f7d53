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
 *    and pairings. Every mismatch is printed before the test fails.
 */
#include "common/test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/bn254.h"
#include "field/bn254_constants.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prime_fields_kat), cmocka_unit_test(test_prime_fields_props),
        cmocka_unit_test(test_tower_kat),        cmocka_unit_test(test_tower_props),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
