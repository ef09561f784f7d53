/* ctest: labels=unit timeout=300 */
/*
 * test_pairing.c: the optimal ate pairing (src/pairing/).
 *
 * Seeded property tests: bilinearity e(aP, bQ) = e(P, Q)^(ab) = e(abP, Q)
 * = e(P, abQ), non-degeneracy, e(P, Q)^r = 1, the product check on
 * e(-P, Q) e(P, Q) and on a Groth16-shaped 4-pair equation, the point at
 * infinity, a multi-pair Miller loop (also across the 16-pair block size)
 * against single pairings, prepared G2 against affine G2. One known
 * answer: e(G1, G2) from @noble/curves 2.0.1 (bls12_381.pairing(G1.Point.BASE,
 * G2.Point.BASE), serialised by Fp12.toBytes; run through tools/oracle),
 * which also pins the byte order of cz_fp12_to_bytes_be.
 * Replay with CZ_TEST_SEED; CZ_TEST_SCALE scales the iteration counts.
 */
#include "common/test_util.h"

#include <string.h>

#include "curve/curve.h"
#include "field/constants.h"
#include "field/field.h"
#include "pairing/pairing.h"

static cz_rng rng;
static const uint64_t r_limbs[4] = CZ_FR_P;

static int setup_rng(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    return 0;
}

static void g1_mul(cz_g1_affine *out, const cz_g1_affine *p, const cz_fr *k)
{
    cz_g1_jac j;
    cz_g1_jac_from_affine(&j, p);
    cz_g1_jac_mul(&j, &j, k);
    cz_g1_jac_to_affine(out, &j);
}

static void g2_mul(cz_g2_affine *out, const cz_g2_affine *q, const cz_fr *k)
{
    cz_g2_jac j;
    cz_g2_jac_from_affine(&j, q);
    cz_g2_jac_mul(&j, &j, k);
    cz_g2_jac_to_affine(out, &j);
}

static void random_g1(cz_g1_affine *out)
{
    cz_g1_affine g;
    cz_fr k;
    cz_g1_generator(&g);
    cz_fr_random(&k, &rng);
    g1_mul(out, &g, &k);
}

static void random_g2(cz_g2_affine *out)
{
    cz_g2_affine g;
    cz_fr k;
    cz_g2_generator(&g);
    cz_fr_random(&k, &rng);
    g2_mul(out, &g, &k);
}

static const char *const kat_e_g1_g2 =
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6"
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f"
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87"
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f"
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5"
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6"
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d"
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a"
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57"
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2"
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef"
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631";

static void test_pairing_kat(void **state)
{
    (void)state;
    cz_g1_affine p;
    cz_g2_affine q;
    cz_fp12 e;
    uint8_t got[576], want[576];
    assert_int_equal(cz_test_unhex(want, sizeof want, kat_e_g1_g2), 576);
    cz_g1_generator(&p);
    cz_g2_generator(&q);
    cz_pairing(&e, &p, &q);
    cz_fp12_to_bytes_be(got, &e);
    assert_memory_equal(got, want, 576);
}

static void test_pairing_bilinear(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(2); it++) {
        cz_g1_affine p, ap, abp;
        cz_g2_affine q, bq, abq;
        cz_fr a, b, ab;
        cz_fp12 e, x, y;
        uint64_t ab_limbs[4];
        random_g1(&p);
        random_g2(&q);
        cz_fr_random(&a, &rng);
        cz_fr_random(&b, &rng);
        cz_fr_mul(&ab, &a, &b);
        cz_fr_to_limbs(ab_limbs, &ab);
        g1_mul(&ap, &p, &a);
        g2_mul(&bq, &q, &b);
        g1_mul(&abp, &p, &ab);
        g2_mul(&abq, &q, &ab);

        cz_pairing(&e, &p, &q);
        cz_fp12_pow(&y, &e, ab_limbs, 4);
        cz_pairing(&x, &ap, &bq);
        assert_true(cz_fp12_eq(&x, &y));
        cz_pairing(&x, &abp, &q);
        assert_true(cz_fp12_eq(&x, &y));
        cz_pairing(&x, &p, &abq);
        assert_true(cz_fp12_eq(&x, &y));
        /* e(P1 + P2, Q) = e(P1, Q) e(P2, Q) */
        cz_g1_jac j;
        cz_g1_affine s;
        cz_g1_jac_from_affine(&j, &p);
        cz_g1_jac_add_affine(&j, &j, &ap);
        cz_g1_jac_to_affine(&s, &j);
        cz_pairing(&x, &s, &q);
        cz_pairing(&y, &ap, &q);
        cz_fp12_mul(&y, &y, &e);
        assert_true(cz_fp12_eq(&x, &y));
    }
}

static void test_pairing_nondegenerate_order(void **state)
{
    (void)state;
    cz_g1_affine p;
    cz_g2_affine q;
    cz_fp12 e, x;
    cz_g1_generator(&p);
    cz_g2_generator(&q);
    cz_pairing(&e, &p, &q);
    assert_false(cz_fp12_is_one(&e));
    cz_fp12_pow(&x, &e, r_limbs, 4);
    assert_true(cz_fp12_is_one(&x));
    for (int it = 0; it < cz_test_iters(2); it++) {
        random_g1(&p);
        random_g2(&q);
        cz_pairing(&e, &p, &q);
        assert_false(cz_fp12_is_one(&e));
        cz_fp12_pow(&x, &e, r_limbs, 4);
        assert_true(cz_fp12_is_one(&x));
        /* the Miller loop value alone is not of order r: the final
           exponentiation does the work */
        cz_miller_loop(&x, &p, &q, 1);
        cz_fp12_pow(&x, &x, r_limbs, 4);
        assert_false(cz_fp12_is_one(&x));
    }
}

static void test_pairing_product_check(void **state)
{
    (void)state;
    for (int it = 0; it < cz_test_iters(2); it++) {
        cz_g1_affine ps[4];
        cz_g2_affine qs[4];
        random_g1(&ps[0]);
        random_g2(&qs[0]);
        cz_g1_affine_neg(&ps[1], &ps[0]);
        qs[1] = qs[0];
        assert_true(cz_pairing_product_is_one(ps, qs, 2));
        ps[1] = ps[0];
        assert_false(cz_pairing_product_is_one(ps, qs, 2));

        /* Groth16 shape: e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) = 1
           with A = a G1, B = b G2, alpha = al G1, beta = be G2, gamma = ga G2,
           delta = de G2, L = l G1, C = c G1 and c = (ab - al be - l ga)/de. */
        cz_fr a, b, al, be, ga, de, l, c, t, u;
        cz_g1_affine g1;
        cz_g2_affine g2;
        cz_g1_generator(&g1);
        cz_g2_generator(&g2);
        cz_fr_random(&a, &rng);
        cz_fr_random(&b, &rng);
        cz_fr_random(&al, &rng);
        cz_fr_random(&be, &rng);
        cz_fr_random(&ga, &rng);
        cz_fr_random(&de, &rng);
        cz_fr_random(&l, &rng);
        cz_fr_mul(&t, &a, &b);
        cz_fr_mul(&u, &al, &be);
        cz_fr_sub(&t, &t, &u);
        cz_fr_mul(&u, &l, &ga);
        cz_fr_sub(&t, &t, &u);
        cz_fr_inv(&u, &de);
        cz_fr_mul(&c, &t, &u);
        cz_fr_neg(&a, &a);
        g1_mul(&ps[0], &g1, &a);
        g2_mul(&qs[0], &g2, &b);
        g1_mul(&ps[1], &g1, &al);
        g2_mul(&qs[1], &g2, &be);
        g1_mul(&ps[2], &g1, &l);
        g2_mul(&qs[2], &g2, &ga);
        g1_mul(&ps[3], &g1, &c);
        g2_mul(&qs[3], &g2, &de);
        assert_true(cz_pairing_product_is_one(ps, qs, 4));
        /* prepared G2 (the verifying key's side) agrees */
        cz_g2_prepared pre[4];
        for (int i = 0; i < 4; i++)
            cz_g2_prepare(&pre[i], &qs[i]);
        assert_true(cz_pairing_product_is_one_prepared(ps, pre, 4));
        assert_true(cz_pairing_product_is_one_mixed(ps, qs, 1, ps + 1, pre + 1, 3));
        assert_true(cz_pairing_product_is_one_mixed(ps, qs, 3, ps + 3, pre + 3, 1));
        /* a wrong C fails */
        cz_fr_add(&c, &c, &u);
        g1_mul(&ps[3], &g1, &c);
        assert_false(cz_pairing_product_is_one(ps, qs, 4));
        assert_false(cz_pairing_product_is_one_prepared(ps, pre, 4));
        assert_false(cz_pairing_product_is_one_mixed(ps, qs, 1, ps + 1, pre + 1, 3));
    }
}

static void test_pairing_infinity(void **state)
{
    (void)state;
    cz_g1_affine p, o1;
    cz_g2_affine q, o2;
    cz_fp12 e, x;
    random_g1(&p);
    random_g2(&q);
    cz_g1_affine_infinity(&o1);
    cz_g2_affine_infinity(&o2);
    cz_pairing(&e, &o1, &q);
    assert_true(cz_fp12_is_one(&e));
    cz_pairing(&e, &p, &o2);
    assert_true(cz_fp12_is_one(&e));
    cz_pairing(&e, &o1, &o2);
    assert_true(cz_fp12_is_one(&e));
    cz_miller_loop(&e, &p, &q, 0);
    assert_true(cz_fp12_is_one(&e));
    assert_true(cz_pairing_product_is_one(&p, &q, 0));
    /* infinity pairs are skipped inside a product */
    cz_g1_affine ps[3] = {p, o1, p};
    cz_g2_affine qs[3] = {q, q, o2};
    cz_miller_loop(&e, ps, qs, 3);
    cz_miller_loop(&x, &p, &q, 1);
    assert_true(cz_fp12_eq(&e, &x));
    cz_g2_prepared pre[3];
    for (int i = 0; i < 3; i++)
        cz_g2_prepare(&pre[i], &qs[i]);
    cz_miller_loop_prepared(&e, ps, pre, 3);
    assert_true(cz_fp12_eq(&e, &x));
    cz_miller_loop_mixed(&e, ps, qs, 2, ps + 2, pre + 2, 1);
    assert_true(cz_fp12_eq(&e, &x));
    /* all infinity */
    cz_miller_loop_mixed(&e, ps + 1, qs + 1, 1, ps + 2, pre + 2, 1);
    assert_true(cz_fp12_is_one(&e));
    assert_false(cz_pairing_product_is_one(ps, qs, 3));
}

/* n pairs in one Miller loop = product of n single pairings; n = 18 crosses
   the 16-pair block of the implementation. */
static void test_pairing_multi(void **state)
{
    (void)state;
    enum { N = 18 };
    cz_g1_affine ps[N];
    cz_g2_affine qs[N];
    cz_g2_prepared *pre = test_malloc(N * sizeof *pre);
    cz_fp12 e, f;
    random_g1(&ps[0]);
    random_g2(&qs[0]);
    for (int i = 0; i < N; i++) {
        /* cheap distinct points: doublings of the first ones */
        if (i > 0) {
            cz_g1_jac j1;
            cz_g2_jac j2;
            cz_g1_jac_from_affine(&j1, &ps[i - 1]);
            cz_g1_jac_dbl(&j1, &j1);
            cz_g1_jac_to_affine(&ps[i], &j1);
            cz_g2_jac_from_affine(&j2, &qs[i - 1]);
            cz_g2_jac_add_affine(&j2, &j2, &qs[0]);
            cz_g2_jac_to_affine(&qs[i], &j2);
        }
        cz_g2_prepare(&pre[i], &qs[i]);
    }
    for (size_t n = 2; n <= N; n += N - 2) {
        cz_fp12 want;
        cz_fp12_one(&want);
        for (size_t i = 0; i < n; i++) {
            cz_pairing(&e, &ps[i], &qs[i]);
            cz_fp12_mul(&want, &want, &e);
        }
        cz_miller_loop(&f, ps, qs, n);
        cz_final_exp(&e, &f);
        assert_true(cz_fp12_eq(&e, &want));
        cz_miller_loop_prepared(&f, ps, pre, n);
        cz_final_exp(&e, &f);
        assert_true(cz_fp12_eq(&e, &want));
        /* mixed, split anywhere: the Miller value itself must agree */
        cz_fp12 g;
        size_t split = (size_t)(cz_rng_u64(&rng) % (n + 1));
        cz_miller_loop(&g, ps, qs, n);
        cz_miller_loop_mixed(&f, ps, qs, split, ps + split, pre + split, n - split);
        if (n <= 16) /* one block: identical values, not only after final exp */
            assert_true(cz_fp12_eq(&f, &g));
        cz_final_exp(&e, &f);
        assert_true(cz_fp12_eq(&e, &want));
    }
    test_free(pre);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairing_kat),
        cmocka_unit_test(test_pairing_bilinear),
        cmocka_unit_test(test_pairing_nondegenerate_order),
        cmocka_unit_test(test_pairing_product_check),
        cmocka_unit_test(test_pairing_infinity),
        cmocka_unit_test(test_pairing_multi),
    };
    return cmocka_run_group_tests(tests, setup_rng, NULL);
}
