/* ctest: labels=unit timeout=300 */
/*
 * test_curve.c: the curve layer (src/curve): group laws of G1 and G2 in
 * affine, Jacobian and XYZZ form, scalar multiplication, the fast subgroup
 * tests against the slow definition r P == O, and every encoder/decoder,
 * fed valid and malformed input.
 *
 * The group tests are written once and instantiated for G1 and G2: this
 * file includes itself with TC_BODY defined and the G_/FE_ macros set for
 * each curve. Seeded: CZ_TEST_SEED replays a run.
 */
#ifndef TC_BODY

#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/constants.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_UNDEFINED
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif

static cz_rng g_rng;

static const uint64_t r_limbs[4] = CZ_FR_P;
/* cofactors: h1 = (x - 1)^2 / 3, h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 -
   4x^2 - 4x + 13) / 9 (Budroni-Pintore); the tests check h P lands in the
   subgroup by the slow definition, which checks these values too. */
static const uint64_t h1_limbs[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
static const uint64_t h2_limbs[8] = {
    0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
    0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL, 0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};

/* ---- instantiate the generic tests for G1 and G2 ---- */
#define TC_BODY
#define G_(x) cz_g1_##x
#define FE_(x) cz_fp_##x
#define T_(x) g1_##x
#define FE cz_fp
#define AFF cz_g1_affine
#define JAC cz_g1_jac
#define XYZZ cz_g1_xyzz
#define COFACTOR h1_limbs
#define COFACTOR_LIMBS 2
#define SMALL_L 3 /* 3 | h1 */
#define ITERS 16
#include "test_curve.c"
#undef G_
#undef FE_
#undef T_
#undef FE
#undef AFF
#undef JAC
#undef XYZZ
#undef COFACTOR
#undef COFACTOR_LIMBS
#undef SMALL_L
#undef ITERS

#define G_(x) cz_g2_##x
#define FE_(x) cz_fp2_##x
#define T_(x) g2_##x
#define FE cz_fp2
#define AFF cz_g2_affine
#define JAC cz_g2_jac
#define XYZZ cz_g2_xyzz
#define COFACTOR h2_limbs
#define COFACTOR_LIMBS 8
#define SMALL_L 13 /* 13^2 | h2 */
#define ITERS 6
#include "test_curve.c"
#undef TC_BODY

/* ---- G1 / G2 specific tests ---------------------------------------------- */

static void fp_from_hex_checked(cz_fp *out, const char *hex)
{
    assert_true(cz_fp_from_hex(out, hex));
}

/* Known answer from /work/shared/FORMATS.md (checked there against
   @noble/curves): 123456789 G1. */
static void test_g1_known_answer(void **state)
{
    (void)state;
    cz_g1_affine g, want, got;
    cz_g1_jac gj, r;
    cz_g1_generator(&g);
    cz_g1_jac_from_affine(&gj, &g);
    fp_from_hex_checked(&want.x, "0x0f95b8218cbee2f4fa48e6b6f1df4e8ee46fee73c270dba395dad523d10c9b35295ccfc92cf0a9db8a065e16dafbfaad");
    fp_from_hex_checked(&want.y, "0x198a99c756b5a6e9f5917aa7c3e7f6191a38b1f0f348f6be14a15814c15ce2417ade0a03dc5595abac997da5f5fc5338");
    cz_fr k;
    cz_fr_set_u64(&k, 123456789);
    cz_g1_jac_mul(&r, &gj, &k);
    cz_g1_jac_to_affine(&got, &r);
    assert_true(cz_g1_affine_eq(&got, &want));
    uint64_t kl = 123456789;
    cz_g1_jac_mul_var(&r, &gj, &kl, 1);
    cz_g1_jac_to_affine(&got, &r);
    assert_true(cz_g1_affine_eq(&got, &want));
}

/* The generators' standard compressed encodings (zcash / IETF draft
   pairing-friendly-curves, Appendix: the generators with the C flag). */
static void test_generator_encodings(void **state)
{
    (void)state;
    uint8_t want1[48], want2[96], got1[48], got2[96];
    assert_int_equal(cz_test_unhex(want1, 48,
        "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"), 48);
    assert_int_equal(cz_test_unhex(want2, 96,
        "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
        "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"), 96);
    cz_g1_affine g1, d1;
    cz_g2_affine g2, d2;
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    cz_g1_to_compressed(got1, &g1);
    cz_g2_to_compressed(got2, &g2);
    assert_memory_equal(got1, want1, 48);
    assert_memory_equal(got2, want2, 96);
    assert_int_equal(cz_g1_from_compressed(&d1, want1), CZ_OK);
    assert_int_equal(cz_g2_from_compressed(&d2, want2), CZ_OK);
    assert_true(cz_g1_affine_eq(&d1, &g1));
    assert_true(cz_g2_affine_eq(&d2, &g2));
}

/* Write the integer p big-endian into 48 bytes. */
static void p_be(uint8_t out[48])
{
    static const uint64_t p[6] = CZ_FP_P;
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 8; b++)
            out[47 - 8 * i - b] = (uint8_t)(p[i] >> (8 * b));
}

/* Every malformed zcash encoding of G1 and its status. */
static void test_g1_zcash_malformed(void **state)
{
    (void)state;
    cz_g1_affine p, out;
    uint8_t c[48], u[96], b[96];
    g1_rand_point_aff(&p);
    cz_g1_to_compressed(c, &p);
    cz_g1_to_uncompressed(u, &p);
    cz_g1_affine sentinel;
    memset(&sentinel, 0xab, sizeof sentinel);

    /* compressed: C flag cleared */
    memcpy(b, c, 48); b[0] &= 0x7f;
    out = sentinel;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    assert_memory_equal(&out, &sentinel, sizeof out);  /* untouched on error */
    /* infinity with S */
    memset(b, 0, 48); b[0] = 0xe0;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    /* infinity with a nonzero byte, and with nonzero low bits in byte 0 */
    memset(b, 0, 48); b[0] = 0xc0; b[47] = 1;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 48); b[0] = 0xc1;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    /* well-formed infinity */
    memset(b, 0, 48); b[0] = 0xc0;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_OK);
    assert_true(cz_g1_affine_is_infinity(&out));
    /* x = p and x = 2^381 - 1 (both >= p) */
    p_be(b); b[0] |= 0x80;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0xff, 48); b[0] = 0x9f;
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_FORMAT);
    /* x with no y on the curve: search a few x for a non-square x^3 + 4 */
    int found = 0;
    for (uint64_t xv = 1; xv < 100 && !found; xv++) {
        cz_fp x, rhs, y, four;
        cz_fp_set_u64(&x, xv);
        cz_fp_set_u64(&four, 4);
        cz_fp_sqr(&rhs, &x);
        cz_fp_mul(&rhs, &rhs, &x);
        cz_fp_add(&rhs, &rhs, &four);
        if (cz_fp_sqrt(&y, &rhs))
            continue;
        cz_fp_to_bytes_be(b, &x);
        b[0] |= 0x80;
        assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_NOT_ON_CURVE);
        found = 1;
    }
    assert_true(found);
    /* x of a curve point outside G1 */
    cz_g1_affine q;
    g1_rand_point_not_in_subgroup(&q);
    cz_g1_to_compressed(b, &q);
    assert_int_equal(cz_g1_from_compressed(&out, b), CZ_ERR_SUBGROUP);

    /* uncompressed: C set, S set */
    memcpy(b, u, 96); b[0] |= 0x80;
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memcpy(b, u, 96); b[0] |= 0x20;
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    /* infinity with nonzero payload; well-formed infinity; infinity with S */
    memset(b, 0, 96); b[0] = 0x40; b[60] = 7;
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 96); b[0] = 0x60;
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 96); b[0] = 0x40;
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_OK);
    assert_true(cz_g1_affine_is_infinity(&out));
    /* all zero without the infinity flag is (0, 0): off the curve */
    memset(b, 0, 96);
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_NOT_ON_CURVE);
    /* x >= p, y >= p */
    memcpy(b, u, 96); p_be(b);
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memcpy(b, u, 96); p_be(b + 48);
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    /* y + 1: off the curve */
    cz_fp one, y1;
    cz_fp_one(&one);
    cz_fp_add(&y1, &p.y, &one);
    memcpy(b, u, 96);
    cz_fp_to_bytes_be(b + 48, &y1);
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_NOT_ON_CURVE);
    /* outside G1 */
    cz_g1_to_uncompressed(b, &q);
    assert_int_equal(cz_g1_from_uncompressed(&out, b), CZ_ERR_SUBGROUP);
    /* NULL */
    assert_int_equal(cz_g1_from_uncompressed(NULL, u), CZ_ERR_ARG);
    assert_int_equal(cz_g1_from_compressed(&out, NULL), CZ_ERR_ARG);
}

static void test_g2_zcash_malformed(void **state)
{
    (void)state;
    cz_g2_affine p, out, q;
    uint8_t c[96], u[192], b[192];
    g2_rand_point_aff(&p);
    g2_rand_point_not_in_subgroup(&q);
    cz_g2_to_compressed(c, &p);
    cz_g2_to_uncompressed(u, &p);

    memcpy(b, c, 96); b[0] &= 0x7f;
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 96); b[0] = 0xe0;
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 96); b[0] = 0xc0; b[70] = 1;          /* in x.c0 */
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 96); b[0] = 0xc0;
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_OK);
    assert_true(cz_g2_affine_is_infinity(&out));
    /* x.c1 >= p, x.c0 >= p */
    memcpy(b, c, 96); p_be(b); b[0] |= 0x80 | (c[0] & 0x20);
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_FORMAT);
    memcpy(b, c, 96); p_be(b + 48);
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_FORMAT);
    /* x with no y: perturb x.c0 until x^3 + b is a non-square */
    int found = 0;
    for (int i = 0; i < 100 && !found; i++) {
        cz_fp2 x, rhs, y;
        cz_fp2_random(&x, &g_rng);
        g2_rhs(&rhs, &x);
        if (cz_fp2_sqrt(&y, &rhs))
            continue;
        cz_fp_to_bytes_be(b, &x.c1);
        cz_fp_to_bytes_be(b + 48, &x.c0);
        b[0] |= 0x80;
        assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_NOT_ON_CURVE);
        found = 1;
    }
    assert_true(found);
    cz_g2_to_compressed(b, &q);
    assert_int_equal(cz_g2_from_compressed(&out, b), CZ_ERR_SUBGROUP);

    memcpy(b, u, 192); b[0] |= 0x80;
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memcpy(b, u, 192); b[0] |= 0x20;
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 192); b[0] = 0x40; b[191] = 1;
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    memset(b, 0, 192); b[0] = 0x40;
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_OK);
    assert_true(cz_g2_affine_is_infinity(&out));
    memset(b, 0, 192);
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_NOT_ON_CURVE);
    for (int off = 0; off < 192; off += 48) {    /* each coordinate >= p */
        memcpy(b, u, 192);
        p_be(b + off);
        assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_FORMAT);
    }
    cz_fp2 one, y1;
    cz_fp2_one(&one);
    cz_fp2_add(&y1, &p.y, &one);
    memcpy(b, u, 192);
    cz_fp_to_bytes_be(b + 96, &y1.c1);
    cz_fp_to_bytes_be(b + 144, &y1.c0);
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_NOT_ON_CURVE);
    cz_g2_to_uncompressed(b, &q);
    assert_int_equal(cz_g2_from_uncompressed(&out, b), CZ_ERR_SUBGROUP);
    assert_int_equal(cz_g2_from_compressed(NULL, c), CZ_ERR_ARG);
}

/* snarkjs binary: little-endian Montgomery limbs, all zero = infinity. */
static void store_limbs_le(uint8_t *out, const uint64_t *l, int n)
{
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 8; b++)
            out[8 * i + b] = (uint8_t)(l[i] >> (8 * b));
}

static void test_snarkjs_binary(void **state)
{
    (void)state;
    static const uint64_t p[6] = CZ_FP_P;
    uint8_t b1[96], b2[192];
    cz_g1_affine a1, d1;
    cz_g2_affine a2, d2;
    g1_rand_point_aff(&a1);
    g2_rand_point_aff(&a2);
    cz_g1_to_snarkjs(b1, &a1);
    cz_g2_to_snarkjs(b2, &a2);
    /* layout: x limb 0 little-endian first (the Montgomery value itself) */
    for (int i = 0; i < 8; i++)
        assert_int_equal(b1[i], (uint8_t)(a1.x.l[0] >> (8 * i)));
    assert_int_equal(b2[48], (uint8_t)a2.x.c1.l[0]);
    assert_int_equal(cz_g1_from_snarkjs(&d1, b1), CZ_OK);
    assert_int_equal(cz_g2_from_snarkjs(&d2, b2), CZ_OK);
    assert_true(cz_g1_affine_eq(&d1, &a1));
    assert_true(cz_g2_affine_eq(&d2, &a2));
    /* infinity */
    memset(b1, 0, 96);
    memset(b2, 0, 192);
    assert_int_equal(cz_g1_from_snarkjs(&d1, b1), CZ_OK);
    assert_true(cz_g1_affine_is_infinity(&d1));
    assert_int_equal(cz_g2_from_snarkjs(&d2, b2), CZ_OK);
    assert_true(cz_g2_affine_is_infinity(&d2));
    cz_g1_affine inf1;
    cz_g1_affine_infinity(&inf1);
    cz_g1_to_snarkjs(b1, &inf1);
    for (int i = 0; i < 96; i++)
        assert_int_equal(b1[i], 0);
    /* coordinate = p (unreduced) */
    cz_g1_to_snarkjs(b1, &a1);
    store_limbs_le(b1 + 48, p, 6);
    assert_int_equal(cz_g1_from_snarkjs(&d1, b1), CZ_ERR_FORMAT);
    for (int off = 0; off < 192; off += 48) {
        cz_g2_to_snarkjs(b2, &a2);
        store_limbs_le(b2 + off, p, 6);
        assert_int_equal(cz_g2_from_snarkjs(&d2, b2), CZ_ERR_FORMAT);
    }
    /* off the curve: flip a low bit of y */
    cz_g1_to_snarkjs(b1, &a1);
    b1[48] ^= 1;
    int st = cz_g1_from_snarkjs(&d1, b1);
    assert_true(st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_FORMAT);
    cz_g2_to_snarkjs(b2, &a2);
    b2[100] ^= 1;
    st = cz_g2_from_snarkjs(&d2, b2);
    assert_true(st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_FORMAT);
    /* x = 0, y = 0 except one byte: (0, small) is off the curve */
    memset(b1, 0, 96);
    b1[48] = 1;
    assert_int_equal(cz_g1_from_snarkjs(&d1, b1), CZ_ERR_NOT_ON_CURVE);
    /* a point outside the subgroup is accepted (curve check only) */
    cz_g1_affine q1;
    cz_g2_affine q2;
    g1_rand_point_not_in_subgroup(&q1);
    g2_rand_point_not_in_subgroup(&q2);
    cz_g1_to_snarkjs(b1, &q1);
    cz_g2_to_snarkjs(b2, &q2);
    assert_int_equal(cz_g1_from_snarkjs(&d1, b1), CZ_OK);
    assert_int_equal(cz_g2_from_snarkjs(&d2, b2), CZ_OK);
    assert_int_equal(cz_g1_from_snarkjs(NULL, b1), CZ_ERR_ARG);
}

static void test_snarkjs_json(void **state)
{
    (void)state;
    char x[CZ_FP_STR_MAX], y[CZ_FP_STR_MAX], z[CZ_FP_STR_MAX];
    char x1[CZ_FP_STR_MAX], y1[CZ_FP_STR_MAX], z1[CZ_FP_STR_MAX];
    cz_g1_affine a1, d1, inf1, q1;
    cz_g2_affine a2, d2, inf2, q2;
    g1_rand_point_aff(&a1);
    g2_rand_point_aff(&a2);

    cz_g1_to_dec(x, y, z, &a1);
    assert_string_equal(z, "1");
    assert_int_equal(cz_g1_from_dec(&d1, x, y, z), CZ_OK);
    assert_true(cz_g1_affine_eq(&d1, &a1));
    /* the generator's x in decimal is the known constant's decimal */
    cz_g1_affine g;
    cz_g1_generator(&g);
    cz_g1_to_dec(x, y, z, &g);
    assert_string_equal(x, "3685416753713387016781088315183077757961620795782546409894578378688607592378376318836054947676345821548104185464507");

    cz_g2_to_dec(x, x1, y, y1, z, z1, &a2);
    assert_string_equal(z, "1");
    assert_string_equal(z1, "0");
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, z, z1), CZ_OK);
    assert_true(cz_g2_affine_eq(&d2, &a2));

    /* infinity */
    cz_g1_affine_infinity(&inf1);
    cz_g1_to_dec(x, y, z, &inf1);
    assert_string_equal(x, "0");
    assert_string_equal(y, "1");
    assert_string_equal(z, "0");
    g1_rand_point_aff(&d1);
    assert_int_equal(cz_g1_from_dec(&d1, "0", "1", "0"), CZ_OK);
    assert_true(cz_g1_affine_is_infinity(&d1));
    cz_g2_affine_infinity(&inf2);
    cz_g2_to_dec(x, x1, y, y1, z, z1, &inf2);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, z, z1), CZ_OK);
    assert_true(cz_g2_affine_is_infinity(&d2));
    assert_int_equal(cz_g2_from_dec(&d2, "0", "0", "1", "0", "0", "0"), CZ_OK);

    /* malformed */
    cz_g1_to_dec(x, y, z, &a1);
    assert_int_equal(cz_g1_from_dec(&d1, x, y, "2"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1, x, y, "0"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1, "0", "2", "0"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1, "1", "1", "0"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1, x, "12x", "1"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1, x, "", "1"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g1_from_dec(&d1,
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787",
        y, "1"), CZ_ERR_FORMAT);  /* x = p */
    assert_int_equal(cz_g1_from_dec(&d1, x, x, "1"), CZ_ERR_NOT_ON_CURVE);
    assert_int_equal(cz_g1_from_dec(&d1, "0", "0", "1"), CZ_ERR_NOT_ON_CURVE);
    g1_rand_point_not_in_subgroup(&q1);
    cz_g1_to_dec(x, y, z, &q1);
    assert_int_equal(cz_g1_from_dec(&d1, x, y, z), CZ_ERR_SUBGROUP);
    assert_int_equal(cz_g1_from_dec(&d1, x, NULL, z), CZ_ERR_ARG);

    cz_g2_to_dec(x, x1, y, y1, z, z1, &a2);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, "1", "1"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, "0", "1"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, "0", "0"), CZ_ERR_FORMAT);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y1, y, z, z1), CZ_ERR_NOT_ON_CURVE);
    assert_int_equal(cz_g2_from_dec(&d2, x, "-1", y, y1, z, z1), CZ_ERR_FORMAT);
    g2_rand_point_not_in_subgroup(&q2);
    cz_g2_to_dec(x, x1, y, y1, z, z1, &q2);
    assert_int_equal(cz_g2_from_dec(&d2, x, x1, y, y1, z, z1), CZ_ERR_SUBGROUP);
    assert_int_equal(cz_g2_from_dec(NULL, x, x1, y, y1, z, z1), CZ_ERR_ARG);
}

/* Random bytes, bit-flipped and truncated (zero-padded) valid encodings:
   every decoder returns a
   status, and whatever it accepts is a valid subgroup point that
   re-encodes to the same bytes. */
static void test_decoders_fuzz(void **state)
{
    (void)state;
    int n = cz_test_iters(200);
    for (int it = 0; it < n; it++) {
        uint8_t b[192], e[192];
        cz_g1_affine p1;
        cz_g2_affine p2;
        int which = it % 4, mode = (it / 4) % 3;
        if (mode == 0) {
            cz_rng_bytes(&g_rng, b, sizeof b);
            b[0] = (uint8_t)((b[0] & 0xe0) | (b[0] & 0x01)); /* small top limb, often < p */
        } else {
            cz_g1_affine a1;
            cz_g2_affine a2;
            g1_rand_point_aff(&a1);
            g2_rand_point_aff(&a2);
            if (which == 0) cz_g1_to_compressed(b, &a1);
            if (which == 1) cz_g1_to_uncompressed(b, &a1);
            if (which == 2) cz_g2_to_compressed(b, &a2);
            if (which == 3) cz_g2_to_uncompressed(b, &a2);
            size_t len = which == 0 ? 48 : which == 3 ? 192 : 96;
            if (mode == 1) {        /* one bit flipped */
                size_t bit = cz_rng_u64(&g_rng) % (8 * len);
                b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            } else {                /* truncated and zero-padded */
                size_t cut = 1 + cz_rng_u64(&g_rng) % (len - 1);
                memset(b + cut, 0, sizeof b - cut);
            }
        }
        cz_status st;
        switch (which) {
        case 0:
            st = cz_g1_from_compressed(&p1, b);
            if (st == CZ_OK) {
                assert_true(cz_g1_affine_is_on_curve(&p1) && cz_g1_affine_in_subgroup(&p1));
                cz_g1_to_compressed(e, &p1);
                assert_memory_equal(e, b, 48);
            }
            break;
        case 1:
            st = cz_g1_from_uncompressed(&p1, b);
            if (st == CZ_OK) {
                assert_true(cz_g1_affine_is_on_curve(&p1) && cz_g1_affine_in_subgroup(&p1));
                cz_g1_to_uncompressed(e, &p1);
                assert_memory_equal(e, b, 96);
            }
            break;
        case 2:
            st = cz_g2_from_compressed(&p2, b);
            if (st == CZ_OK) {
                assert_true(cz_g2_affine_is_on_curve(&p2) && cz_g2_affine_in_subgroup(&p2));
                cz_g2_to_compressed(e, &p2);
                assert_memory_equal(e, b, 96);
            }
            break;
        default:
            st = cz_g2_from_uncompressed(&p2, b);
            if (st == CZ_OK) {
                assert_true(cz_g2_affine_is_on_curve(&p2) && cz_g2_affine_in_subgroup(&p2));
                cz_g2_to_uncompressed(e, &p2);
                assert_memory_equal(e, b, 192);
            }
            break;
        }
        assert_true(st == CZ_OK || st == CZ_ERR_FORMAT || st == CZ_ERR_NOT_ON_CURVE ||
                    st == CZ_ERR_SUBGROUP);
        /* snarkjs decoders on the same bytes */
        st = cz_g1_from_snarkjs(&p1, b);
        if (st == CZ_OK)
            assert_true(cz_g1_affine_is_on_curve(&p1));
        st = cz_g2_from_snarkjs(&p2, b);
        if (st == CZ_OK)
            assert_true(cz_g2_affine_is_on_curve(&p2));
    }
}

/* Constant time of jac_mul in the scalar, checked the secp256k1 way: the
   scalar is marked undefined for valgrind's memcheck, which then reports
   any branch or memory index that depends on it. Outside valgrind the
   marks are no-ops and this only checks the results. Run it with a build
   valgrind can execute (no AVX-512):
     gcc ... -O2 -march=x86-64-v2 -mbmi2 -madx ... && valgrind --error-exitcode=3 ./test_curve
   (a variable-time jac_mul_var in place of jac_mul is reported at once). */
static void test_jac_mul_ct_memcheck(void **state)
{
    (void)state;
    cz_g1_affine g1;
    cz_g2_affine g2;
    cz_g1_jac j1, o1, w1;
    cz_g2_jac j2, o2, w2;
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    cz_g1_jac_from_affine(&j1, &g1);
    cz_g2_jac_from_affine(&j2, &g2);
    cz_fr k;
    uint64_t kl[4];
    cz_fr_random(&k, &g_rng);
    cz_fr_to_limbs(kl, &k);
    VALGRIND_MAKE_MEM_UNDEFINED(&k, sizeof k);
    cz_g1_jac_mul(&o1, &j1, &k);
    cz_g2_jac_mul(&o2, &j2, &k);
    VALGRIND_MAKE_MEM_DEFINED(&k, sizeof k);
    VALGRIND_MAKE_MEM_DEFINED(&o1, sizeof o1);
    VALGRIND_MAKE_MEM_DEFINED(&o2, sizeof o2);
    cz_g1_jac_mul_var(&w1, &j1, kl, 4);
    cz_g2_jac_mul_var(&w2, &j2, kl, 4);
    assert_true(cz_g1_jac_eq(&o1, &w1));
    assert_true(cz_g2_jac_eq(&o2, &w2));
}

int main(void)
{
    cz_test_rng(&g_rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(g1_test_generator),
        cmocka_unit_test(g2_test_generator),
        cmocka_unit_test(test_g1_known_answer),
        cmocka_unit_test(g1_test_group_laws),
        cmocka_unit_test(g2_test_group_laws),
        cmocka_unit_test(g1_test_mixed_add),
        cmocka_unit_test(g2_test_mixed_add),
        cmocka_unit_test(g1_test_xyzz),
        cmocka_unit_test(g2_test_xyzz),
        cmocka_unit_test(g1_test_batch_to_affine),
        cmocka_unit_test(g2_test_batch_to_affine),
        cmocka_unit_test(g1_test_scalar_mul),
        cmocka_unit_test(g2_test_scalar_mul),
        cmocka_unit_test(g1_test_small_order),
        cmocka_unit_test(g2_test_small_order),
        cmocka_unit_test(g1_test_subgroup),
        cmocka_unit_test(g2_test_subgroup),
        cmocka_unit_test(g1_test_encoding_roundtrip),
        cmocka_unit_test(g2_test_encoding_roundtrip),
        cmocka_unit_test(test_generator_encodings),
        cmocka_unit_test(test_g1_zcash_malformed),
        cmocka_unit_test(test_g2_zcash_malformed),
        cmocka_unit_test(test_snarkjs_binary),
        cmocka_unit_test(test_snarkjs_json),
        cmocka_unit_test(test_decoders_fuzz),
        cmocka_unit_test(test_jac_mul_ct_memcheck),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* TC_BODY: generic tests over G_, FE_, AFF, JAC, XYZZ */

static FE T_(curve_b)(void)
{
    AFF g;
    FE b, t;
    G_(generator)(&g);
    FE_(sqr)(&b, &g.y);
    FE_(sqr)(&t, &g.x);
    FE_(mul)(&t, &t, &g.x);
    FE_(sub)(&b, &b, &t);
    return b;
}

/* x^3 + b */
static void T_(rhs)(FE *out, const FE *x)
{
    FE b = T_(curve_b)();
    FE_(sqr)(out, x);
    FE_(mul)(out, out, x);
    FE_(add)(out, out, &b);
}

static void T_(rand_scalar)(uint64_t k[4])
{
    cz_fr s;
    cz_fr_random(&s, &g_rng);
    cz_fr_to_limbs(k, &s);
}

/* k G for a random k: a random subgroup point. */
static void T_(rand_point)(JAC *out)
{
    AFF g;
    JAC gj;
    uint64_t k[4];
    G_(generator)(&g);
    G_(jac_from_affine)(&gj, &g);
    T_(rand_scalar)(k);
    G_(jac_mul_var)(out, &gj, k, 4);
}

static void T_(rand_point_aff)(AFF *out)
{
    JAC p;
    T_(rand_point)(&p);
    G_(jac_to_affine)(out, &p);
}

/* A random point of the whole curve: try-and-increment on a random x, no
   cofactor clearing. */
static void T_(rand_curve_point)(AFF *out)
{
    FE x, rhs, y, one;
    FE_(random)(&x, &g_rng);
    FE_(one)(&one);
    for (;;) {
        T_(rhs)(&rhs, &x);
        if (FE_(sqrt)(&y, &rhs))
            break;
        FE_(add)(&x, &x, &one);
    }
    if (cz_rng_u64(&g_rng) & 1)
        FE_(neg)(&y, &y);
    out->x = x;
    out->y = y;
}

static bool T_(slow_in_subgroup)(const AFF *p)
{
    JAC pj, t;
    G_(jac_from_affine)(&pj, p);
    G_(jac_mul_var)(&t, &pj, r_limbs, 4);
    return G_(jac_is_infinity)(&t);
}

static void T_(rand_point_not_in_subgroup)(AFF *out)
{
    do
        T_(rand_curve_point)(out);
    while (T_(slow_in_subgroup)(out));
}

/* The same point with a random Z: (X l^2, Y l^3, Z l). */
static void T_(rescale)(JAC *out, const JAC *p)
{
    FE l, l2, l3;
    FE_(random)(&l, &g_rng);
    FE_(sqr)(&l2, &l);
    FE_(mul)(&l3, &l2, &l);
    FE_(mul)(&out->x, &p->x, &l2);
    FE_(mul)(&out->y, &p->y, &l3);
    FE_(mul)(&out->z, &p->z, &l);
}

static void T_(test_generator)(void **state)
{
    (void)state;
    AFF g, inf;
    JAC gj, t;
    G_(generator)(&g);
    assert_false(G_(affine_is_infinity)(&g));
    assert_true(G_(affine_is_on_curve)(&g));
    assert_true(G_(affine_in_subgroup)(&g));
    G_(jac_from_affine)(&gj, &g);
    G_(jac_mul_var)(&t, &gj, r_limbs, 4);
    assert_true(G_(jac_is_infinity)(&t));
    G_(affine_infinity)(&inf);
    assert_true(G_(affine_is_infinity)(&inf));
    assert_true(G_(affine_is_on_curve)(&inf));
    assert_true(G_(affine_in_subgroup)(&inf));
    /* a point with y perturbed is off the curve */
    AFF bad = g;
    FE one;
    FE_(one)(&one);
    FE_(add)(&bad.y, &bad.y, &one);
    assert_false(G_(affine_is_on_curve)(&bad));
    assert_false(G_(affine_in_subgroup)(&bad));
}

static void T_(test_group_laws)(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(ITERS); it++) {
        JAC p, q, r, a, b, o, np, t;
        T_(rand_point)(&p);
        T_(rand_point)(&q);
        T_(rand_point)(&r);
        G_(jac_infinity)(&o);
        /* associativity and commutativity */
        G_(jac_add)(&a, &p, &q);
        G_(jac_add)(&a, &a, &r);
        G_(jac_add)(&b, &q, &r);
        G_(jac_add)(&b, &p, &b);
        assert_true(G_(jac_eq)(&a, &b));
        G_(jac_add)(&a, &p, &q);
        G_(jac_add)(&b, &q, &p);
        assert_true(G_(jac_eq)(&a, &b));
        assert_false(G_(jac_eq)(&a, &p));
        /* identity */
        G_(jac_add)(&a, &p, &o);
        assert_true(G_(jac_eq)(&a, &p));
        G_(jac_add)(&a, &o, &p);
        assert_true(G_(jac_eq)(&a, &p));
        G_(jac_add)(&a, &o, &o);
        assert_true(G_(jac_is_infinity)(&a));
        assert_false(G_(jac_eq)(&p, &o));
        assert_true(G_(jac_eq)(&o, &o));
        /* inverses, also with a different Z */
        G_(jac_neg)(&np, &p);
        G_(jac_add)(&a, &p, &np);
        assert_true(G_(jac_is_infinity)(&a));
        T_(rescale)(&t, &np);
        G_(jac_add)(&a, &t, &p);
        assert_true(G_(jac_is_infinity)(&a));
        /* P + P == 2P through add (with distinct representations) and dbl */
        T_(rescale)(&t, &p);
        assert_true(G_(jac_eq)(&t, &p));
        G_(jac_add)(&a, &p, &t);
        G_(jac_dbl)(&b, &p);
        assert_true(G_(jac_eq)(&a, &b));
        G_(jac_add)(&a, &p, &p);
        assert_true(G_(jac_eq)(&a, &b));
        G_(jac_dbl)(&a, &o);
        assert_true(G_(jac_is_infinity)(&a));
        /* 3P = 2P + P = P + 2P; in-place forms */
        G_(jac_add)(&a, &b, &p);
        t = p;
        G_(jac_add)(&t, &t, &b);
        assert_true(G_(jac_eq)(&a, &t));
        t = p;
        G_(jac_dbl)(&t, &t);
        assert_true(G_(jac_eq)(&t, &b));
        /* results stay on the curve */
        AFF aa;
        G_(jac_to_affine)(&aa, &a);
        assert_true(G_(affine_is_on_curve)(&aa));
        /* affine neg */
        AFF pa, na;
        G_(jac_to_affine)(&pa, &p);
        G_(affine_neg)(&na, &pa);
        G_(jac_to_affine)(&aa, &np);
        assert_true(G_(affine_eq)(&aa, &na));
        assert_false(G_(affine_eq)(&pa, &na));
    }
}

static void T_(test_mixed_add)(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(ITERS); it++) {
        JAC p, q, a, b, o;
        AFF qa, pa, inf, npa;
        T_(rand_point)(&p);
        T_(rand_point)(&q);
        T_(rescale)(&p, &p);
        G_(jac_to_affine)(&qa, &q);
        G_(jac_to_affine)(&pa, &p);
        G_(affine_neg)(&npa, &pa);
        G_(affine_infinity)(&inf);
        G_(jac_infinity)(&o);
        /* generic */
        G_(jac_add_affine)(&a, &p, &qa);
        G_(jac_add)(&b, &p, &q);
        assert_true(G_(jac_eq)(&a, &b));
        /* in place */
        b = p;
        G_(jac_add_affine)(&b, &b, &qa);
        assert_true(G_(jac_eq)(&a, &b));
        /* p == q: doubling */
        G_(jac_add_affine)(&a, &p, &pa);
        G_(jac_dbl)(&b, &p);
        assert_true(G_(jac_eq)(&a, &b));
        /* p == -q */
        G_(jac_add_affine)(&a, &p, &npa);
        assert_true(G_(jac_is_infinity)(&a));
        /* infinities */
        G_(jac_add_affine)(&a, &p, &inf);
        assert_true(G_(jac_eq)(&a, &p));
        G_(jac_add_affine)(&a, &o, &qa);
        assert_true(G_(jac_eq)(&a, &q));
        G_(jac_add_affine)(&a, &o, &inf);
        assert_true(G_(jac_is_infinity)(&a));
        /* from/to affine round trip */
        G_(jac_from_affine)(&a, &qa);
        assert_true(G_(jac_eq)(&a, &q));
        G_(jac_from_affine)(&a, &inf);
        assert_true(G_(jac_is_infinity)(&a));
        G_(jac_to_affine)(&pa, &o);
        assert_true(G_(affine_is_infinity)(&pa));
    }
}

/* XYZZ agrees with Jacobian on a random walk of adds, subtractions and
   doublings, special cases included. */
static void T_(test_xyzz)(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(ITERS / 2 + 1); it++) {
        enum { NPTS = 6 };
        AFF pts[NPTS];
        JAC jp[NPTS];
        for (int i = 0; i < NPTS; i++) {
            T_(rand_point)(&jp[i]);
            G_(jac_to_affine)(&pts[i], &jp[i]);
        }
        XYZZ x, y, t;
        JAC j, xj, yj, tj;
        G_(xyzz_infinity)(&x);
        G_(jac_infinity)(&j);
        G_(xyzz_to_jac)(&xj, &x);
        assert_true(G_(jac_is_infinity)(&xj));
        for (int step = 0; step < 40; step++) {
            int op = (int)(cz_rng_u64(&g_rng) % 5), i = (int)(cz_rng_u64(&g_rng) % NPTS);
            AFF na;
            switch (op) {
            case 0: /* add affine */
                G_(xyzz_add_affine)(&x, &x, &pts[i]);
                G_(jac_add_affine)(&j, &j, &pts[i]);
                break;
            case 1: /* subtract affine */
                G_(xyzz_sub_affine)(&x, &x, &pts[i]);
                G_(affine_neg)(&na, &pts[i]);
                G_(jac_add_affine)(&j, &j, &na);
                break;
            case 2: /* double */
                G_(xyzz_dbl)(&x, &x);
                G_(jac_dbl)(&j, &j);
                break;
            case 3: /* add XYZZ of a point */
                G_(xyzz_from_affine)(&t, &pts[i]);
                G_(xyzz_dbl)(&t, &t);
                G_(xyzz_add)(&x, &x, &t);
                G_(jac_dbl)(&tj, &jp[i]);
                G_(jac_add)(&j, &j, &tj);
                break;
            default: /* special cases: x + x, x - x, x + (-x) in XYZZ */
                y = x;
                G_(xyzz_add)(&t, &x, &y);
                G_(xyzz_dbl)(&y, &x);
                G_(xyzz_to_jac)(&tj, &t);
                G_(xyzz_to_jac)(&yj, &y);
                assert_true(G_(jac_eq)(&tj, &yj));
                break;
            }
            G_(xyzz_to_jac)(&xj, &x);
            assert_true(G_(jac_eq)(&xj, &j));
        }
        /* madd with p == q (mdbl path) and p == -q */
        G_(xyzz_from_affine)(&x, &pts[0]);
        G_(xyzz_dbl)(&x, &x);           /* ZZ != 1 */
        AFF twice;
        G_(jac_dbl)(&tj, &jp[0]);
        G_(jac_to_affine)(&twice, &tj);
        G_(xyzz_add_affine)(&y, &x, &twice);  /* 2P + 2P */
        G_(xyzz_to_jac)(&yj, &y);
        G_(jac_dbl)(&tj, &tj);
        assert_true(G_(jac_eq)(&yj, &tj));
        G_(xyzz_sub_affine)(&y, &x, &twice);  /* 2P - 2P */
        G_(xyzz_to_jac)(&yj, &y);
        assert_true(G_(jac_is_infinity)(&yj));
        /* from infinity, sub affine gives -q */
        G_(xyzz_infinity)(&y);
        G_(xyzz_sub_affine)(&y, &y, &pts[1]);
        G_(xyzz_to_jac)(&yj, &y);
        G_(jac_neg)(&tj, &jp[1]);
        assert_true(G_(jac_eq)(&yj, &tj));
        /* adding an affine infinity, XYZZ infinities */
        AFF inf;
        G_(affine_infinity)(&inf);
        G_(xyzz_add_affine)(&y, &x, &inf);
        G_(xyzz_sub_affine)(&y, &y, &inf);
        G_(xyzz_to_jac)(&yj, &y);
        G_(xyzz_to_jac)(&xj, &x);
        assert_true(G_(jac_eq)(&yj, &xj));
        G_(xyzz_infinity)(&t);
        G_(xyzz_add)(&y, &x, &t);
        G_(xyzz_add)(&y, &t, &y);
        G_(xyzz_to_jac)(&yj, &y);
        assert_true(G_(jac_eq)(&yj, &xj));
        G_(xyzz_dbl)(&t, &t);
        G_(xyzz_to_jac)(&tj, &t);
        assert_true(G_(jac_is_infinity)(&tj));
        /* x + (-x) in full XYZZ form */
        G_(xyzz_sub_affine)(&y, &t, &pts[0]);
        G_(xyzz_dbl)(&y, &y);             /* -2P, ZZ != 1 */
        G_(xyzz_add)(&y, &y, &x);         /* -2P + 2P */
        G_(xyzz_to_jac)(&yj, &y);
        assert_true(G_(jac_is_infinity)(&yj));
    }
}

static void T_(test_batch_to_affine)(void **state)
{
    (void)state;
    enum { N = 9 };
    JAC in[N];
    AFF out[N], one;
    for (int i = 0; i < N; i++) {
        if (i % 4 == 1) {
            G_(jac_infinity)(&in[i]);
        } else {
            T_(rand_point)(&in[i]);
            T_(rescale)(&in[i], &in[i]);
        }
    }
    G_(jac_batch_to_affine)(out, in, N);
    for (int i = 0; i < N; i++) {
        G_(jac_to_affine)(&one, &in[i]);
        assert_true(G_(affine_eq)(&one, &out[i]));
        assert_int_equal(G_(affine_is_infinity)(&out[i]), i % 4 == 1);
    }
    G_(jac_batch_to_affine)(out, in, 0);
    G_(jac_batch_to_affine)(out, in + 1, 1);      /* only infinity */
    assert_true(G_(affine_is_infinity)(&out[0]));
}

static void T_(test_scalar_mul)(void **state)
{
    (void)state;
    AFF g;
    JAC gj, o;
    G_(generator)(&g);
    G_(jac_from_affine)(&gj, &g);
    G_(jac_infinity)(&o);
    for (int it = 0; it < cz_test_iters(ITERS / 2 + 1); it++) {
        JAC p, a, b, c;
        cz_fr k1, k2, k3;
        uint64_t l1[4], l2[4], l3[4];
        T_(rand_point)(&p);
        T_(rescale)(&p, &p);
        cz_fr_random(&k1, &g_rng);
        cz_fr_random(&k2, &g_rng);
        cz_fr_add(&k3, &k1, &k2);
        /* k1 P + k2 P == (k1 + k2) P, constant time */
        G_(jac_mul)(&a, &p, &k1);
        G_(jac_mul)(&b, &p, &k2);
        G_(jac_add)(&a, &a, &b);
        G_(jac_mul)(&c, &p, &k3);
        assert_true(G_(jac_eq)(&a, &c));
        /* constant time agrees with variable time */
        cz_fr_to_limbs(l1, &k1);
        cz_fr_to_limbs(l2, &k2);
        cz_fr_to_limbs(l3, &k3);
        G_(jac_mul_var)(&b, &p, l3, 4);
        assert_true(G_(jac_eq)(&b, &c));
        G_(jac_mul)(&a, &p, &k1);
        G_(jac_mul_var)(&b, &p, l1, 4);
        assert_true(G_(jac_eq)(&a, &b));
        /* k and k + r agree in mul_var (5 limbs); short scalars */
        uint64_t kr[5];
        unsigned __int128 carry = 0;
        for (int i = 0; i < 4; i++) {
            carry += (unsigned __int128)l1[i] + r_limbs[i];
            kr[i] = (uint64_t)carry;
            carry >>= 64;
        }
        kr[4] = (uint64_t)carry;
        G_(jac_mul_var)(&b, &p, kr, 5);
        assert_true(G_(jac_eq)(&a, &b));
        uint64_t small = cz_rng_u64(&g_rng) >> (cz_rng_u64(&g_rng) % 64);
        cz_fr ks;
        cz_fr_set_u64(&ks, small);
        G_(jac_mul)(&a, &p, &ks);
        G_(jac_mul_var)(&b, &p, &small, 1);
        assert_true(G_(jac_eq)(&a, &b));
        /* r P == O; k O == O */
        G_(jac_mul_var)(&a, &p, r_limbs, 4);
        assert_true(G_(jac_is_infinity)(&a));
        G_(jac_mul)(&a, &o, &k1);
        assert_true(G_(jac_is_infinity)(&a));
        G_(jac_mul_var)(&a, &o, l1, 4);
        assert_true(G_(jac_is_infinity)(&a));
    }
    /* k = 0, 1, 2, r - 1 */
    cz_fr k;
    JAC a, b;
    cz_fr_zero(&k);
    G_(jac_mul)(&a, &gj, &k);
    assert_true(G_(jac_is_infinity)(&a));
    uint64_t zero[4] = {0};
    G_(jac_mul_var)(&a, &gj, zero, 4);
    assert_true(G_(jac_is_infinity)(&a));
    G_(jac_mul_var)(&a, &gj, zero, 0);
    assert_true(G_(jac_is_infinity)(&a));
    cz_fr_one(&k);
    G_(jac_mul)(&a, &gj, &k);
    assert_true(G_(jac_eq)(&a, &gj));
    cz_fr_set_u64(&k, 2);
    G_(jac_mul)(&a, &gj, &k);
    G_(jac_dbl)(&b, &gj);
    assert_true(G_(jac_eq)(&a, &b));
    cz_fr_one(&k);
    cz_fr_neg(&k, &k);          /* r - 1 */
    G_(jac_mul)(&a, &gj, &k);
    G_(jac_neg)(&b, &gj);
    assert_true(G_(jac_eq)(&a, &b));
    uint64_t rm1[4];
    cz_fr_to_limbs(rm1, &k);
    G_(jac_mul_var)(&a, &gj, rm1, 4);
    assert_true(G_(jac_eq)(&a, &b));
    /* the scalar whose top window is 15 and all the rest 0 */
    cz_fr_set_u64(&k, 15);
    cz_fr kk;
    cz_fr_set_u64(&kk, 1);
    for (int i = 0; i < 248; i++)
        cz_fr_dbl(&kk, &kk);          /* 2^248 */
    cz_fr_mul(&k, &k, &kk);
    uint64_t kl[4];
    cz_fr_to_limbs(kl, &k);
    G_(jac_mul)(&a, &gj, &k);
    G_(jac_mul_var)(&b, &gj, kl, 4);
    assert_true(G_(jac_eq)(&a, &b));
}

/* Points of small order SMALL_L (T = (h / L) r Q for a random curve point
   Q): here m 2^4 T == d T happens inside the constant-time ladder, so its
   complete add must take the doubling and the inverse cases. Checks
   jac_mul against jac_mul_var and against k mod L. */
static void T_(test_small_order)(void **state)
{
    (void)state;
    uint64_t hl[COFACTOR_LIMBS];
    memcpy(hl, COFACTOR, sizeof hl);
    for (;;) {    /* hl = h / L^e with L^e the full power of L in h */
        uint64_t q[COFACTOR_LIMBS];
        unsigned __int128 rem = 0;
        for (int i = COFACTOR_LIMBS; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | hl[i];
            q[i] = (uint64_t)(cur / SMALL_L);
            rem = cur % SMALL_L;
        }
        if (rem != 0)
            break;
        memcpy(hl, q, sizeof hl);
    }
    JAC t, a, b;
    AFF q;
    uint64_t l = SMALL_L;
    int tries = 0;
    do {   /* T = hl r Q has order L^i; scale down to order exactly L */
        JAC qj;
        assert_true(tries++ < 50);
        T_(rand_curve_point)(&q);
        G_(jac_from_affine)(&qj, &q);
        G_(jac_mul_var)(&t, &qj, r_limbs, 4);
        G_(jac_mul_var)(&t, &t, hl, COFACTOR_LIMBS);
        for (;;) {
            G_(jac_mul_var)(&a, &t, &l, 1);
            if (G_(jac_is_infinity)(&a))
                break;
            t = a;
        }
    } while (G_(jac_is_infinity)(&t));
    AFF ta;
    G_(jac_to_affine)(&ta, &t);
    assert_true(G_(affine_is_on_curve)(&ta));
    assert_false(G_(affine_in_subgroup)(&ta));
    for (uint64_t k = 0; k < 3 * SMALL_L; k++) {
        cz_fr kf;
        cz_fr_set_u64(&kf, k);
        G_(jac_mul)(&a, &t, &kf);
        G_(jac_mul_var)(&b, &t, &k, 1);
        assert_true(G_(jac_eq)(&a, &b));
        uint64_t km = k % SMALL_L;
        G_(jac_mul_var)(&b, &t, &km, 1);
        assert_true(G_(jac_eq)(&a, &b));
    }
    for (int it = 0; it < cz_test_iters(4); it++) {
        cz_fr kf;
        uint64_t kl[4];
        cz_fr_random(&kf, &g_rng);
        cz_fr_to_limbs(kl, &kf);
        G_(jac_mul)(&a, &t, &kf);
        G_(jac_mul_var)(&b, &t, kl, 4);
        assert_true(G_(jac_eq)(&a, &b));
        /* and on a mixed point: subgroup part plus small-order part */
        JAC s;
        T_(rand_point)(&s);
        G_(jac_add)(&s, &s, &t);
        G_(jac_mul)(&a, &s, &kf);
        G_(jac_mul_var)(&b, &s, kl, 4);
        assert_true(G_(jac_eq)(&a, &b));
    }
}

/* Fast subgroup checks against r P == O: subgroup points (k G, and h P for
   random curve points P), non-subgroup curve points, and points of small
   order r P (P random), which lie only in the cofactor part. */
static void T_(test_subgroup)(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(ITERS); it++) {
        AFF p, q;
        JAC pj, t;
        T_(rand_point_aff)(&p);
        assert_true(G_(affine_in_subgroup)(&p));
        T_(rand_curve_point)(&q);
        assert_true(G_(affine_is_on_curve)(&q));
        assert_int_equal(G_(affine_in_subgroup)(&q), T_(slow_in_subgroup)(&q));
        assert_false(T_(slow_in_subgroup)(&q));   /* overwhelmingly likely */
        /* h Q is in the subgroup */
        G_(jac_from_affine)(&pj, &q);
        G_(jac_mul_var)(&t, &pj, COFACTOR, COFACTOR_LIMBS);
        G_(jac_to_affine)(&p, &t);
        assert_false(G_(affine_is_infinity)(&p));
        assert_true(T_(slow_in_subgroup)(&p));
        assert_true(G_(affine_in_subgroup)(&p));
        /* r Q has order dividing h: never in the subgroup unless O */
        G_(jac_mul_var)(&t, &pj, r_limbs, 4);
        G_(jac_to_affine)(&p, &t);
        assert_false(G_(affine_is_infinity)(&p));
        assert_true(G_(affine_is_on_curve)(&p));
        assert_false(G_(affine_in_subgroup)(&p));
        /* subgroup point plus small-order point */
        AFF s, u;
        T_(rand_point_aff)(&s);
        G_(jac_add_affine)(&t, &t, &s);
        G_(jac_to_affine)(&u, &t);
        assert_false(G_(affine_in_subgroup)(&u));
    }
}

static void T_(test_encoding_roundtrip)(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(ITERS); it++) {
        AFF p, np, d;
        /* compressed is one coordinate's size: 48 (G1) or 96 (G2) bytes */
        uint8_t c[sizeof(FE)], u[2 * sizeof(FE)], s[sizeof(AFF)];
        if (it == 0)
            G_(affine_infinity)(&p);
        else
            T_(rand_point_aff)(&p);
        G_(affine_neg)(&np, &p);
        for (int sgn = 0; sgn < 2; sgn++) {
            const AFF *a = sgn ? &np : &p;
            G_(to_compressed)(c, a);
            assert_int_equal(c[0] & 0x80, 0x80);
            assert_int_equal(G_(from_compressed)(&d, c), CZ_OK);
            assert_true(G_(affine_eq)(&d, a));
            G_(to_uncompressed)(u, a);
            assert_int_equal(u[0] & 0xa0, 0);
            assert_int_equal(G_(from_uncompressed)(&d, u), CZ_OK);
            assert_true(G_(affine_eq)(&d, a));
            G_(to_snarkjs)(s, a);
            assert_int_equal(G_(from_snarkjs)(&d, s), CZ_OK);
            assert_true(G_(affine_eq)(&d, a));
        }
        uint8_t c2[sizeof c];
        G_(to_compressed)(c, &p);
        G_(to_compressed)(c2, &np);
        if (it == 0) {
            assert_int_equal(c[0], 0xc0);
            assert_memory_equal(c, c2, sizeof c);
            G_(to_uncompressed)(u, &p);
            assert_int_equal(u[0], 0x40);
        } else {
            /* P and -P differ only in the S flag */
            assert_int_equal((c[0] ^ c2[0]), 0x20);
            assert_memory_equal(c + 1, c2 + 1, sizeof c - 1);
        }
    }
}

#endif /* TC_BODY */
