/* ctest: labels=unit timeout=300 */
/*
 * test_bn254_fp_x8.c: BN254's eight-lane Fp product (field/bn254_fp_x8.h)
 * against the scalar product.
 *
 * cz_bn254_fp_mul_x8 against eight cz_bn254_fp_mul and eight portable
 * products, bit for bit, on random values below p mixed with edge values
 * (0, 1, 2, p - 1, p - 2, 2^253, 2^254 - 1 reduced, values with the top
 * limb of p and every other limb all ones, Montgomery one), with out
 * aliasing a and b; on unreduced inputs below 2p (2^254 - 1, 2p - 1 and
 * sums a + b, which the MSM's Fp2 products feed the lanes), against the
 * product of the reduced values. Where built with IFMA, the chained pieces
 * (load with and without the 2^4 shift, shl4, mont in the forms of the
 * header's table, add, sub, add_nr, store) against cz_bn254_fp arithmetic.
 * Seeded (replay with CZ_TEST_SEED).
 */
#include "common/test_util.h"

#include <stdio.h>
#include <string.h>

#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "field/bn254_fp_x8.h"

static cz_rng rng;
static const uint64_t P[4] = CZ_BN254_FP_P;

/* a - p if a >= p (a < 2p) */
static void reduce_once(cz_bn254_fp *out, const cz_bn254_fp *a)
{
    uint64_t d[4], br = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 t = (unsigned __int128)a->l[i] - P[i] - br;
        d[i] = (uint64_t)t;
        br = (uint64_t)(t >> 64) & 1;
    }
    if (!br)
        memcpy(out->l, d, sizeof d);
    else
        *out = *a;
}

static void sub_small(cz_bn254_fp *x, const uint64_t m[4], uint64_t k)
{
    memcpy(x->l, m, 32);
    x->l[0] -= k; /* p's low limb is far above k */
}

/* an element below p: edge values one time in three, else random */
static void rand_elem(cz_bn254_fp *x)
{
    int kind = (int)(cz_rng_u64(&rng) % 24);
    memset(x, 0, sizeof *x);
    switch (kind) {
    case 0: break;                                   /* 0 */
    case 1: x->l[0] = 1; break;
    case 2: x->l[0] = 2; break;
    case 3: sub_small(x, P, 1); break;               /* p - 1 */
    case 4: sub_small(x, P, 2); break;               /* p - 2 */
    case 5: x->l[3] = (uint64_t)1 << 61; break;      /* 2^253 */
    case 6: /* 2^254 - 1 - p: 2^254 - 1 reduced */
    {
        cz_bn254_fp t = {{~0ULL, ~0ULL, ~0ULL, (1ULL << 62) - 1}};
        reduce_once(x, &t);
        break;
    }
    case 7: /* p's top limb, the others all ones, reduced */
    {
        cz_bn254_fp t = {{~0ULL, ~0ULL, ~0ULL, P[3]}};
        reduce_once(x, &t);
        break;
    }
    case 8: cz_bn254_fp_one(x); break;               /* Montgomery one */
    default: cz_bn254_fp_random(x, &rng);
    }
}

/* below 2p, unreduced one time in two */
static void rand_elem_2p(cz_bn254_fp *x)
{
    int kind = (int)(cz_rng_u64(&rng) % 6);
    if (kind == 0) {
        cz_bn254_fp t = {{~0ULL, ~0ULL, ~0ULL, (1ULL << 62) - 1}};  /* 2^254 - 1 */
        *x = t;
    } else if (kind == 1) {
        uint64_t br = 0;                                 /* 2p - 1 */
        for (int i = 0; i < 4; i++) {
            uint64_t hi = P[i] >> 63;
            x->l[i] = (P[i] << 1) | br;
            br = hi;
        }
        x->l[0] -= 1;
    } else if (kind == 2) {
        cz_bn254_fp a, b;
        rand_elem(&a);
        rand_elem(&b);
        cz_bn254_fp_add_nr(x, &a, &b);
    } else {
        rand_elem(x);
    }
}

static void test_mul_x8(void **state)
{
    (void)state;
    printf("# cz_bn254_fp_mul_x8: %s\n", cz_bn254_fp_mul_x8_is_simd() ? "ifma" : "scalar");
    int iters = cz_test_iters(20000);
    for (int it = 0; it < iters; it++) {
        cz_bn254_fp a[8], b[8], o[8], r[8], rp[8];
        for (int e = 0; e < 8; e++) {
            rand_elem(&a[e]);
            rand_elem(&b[e]);
            cz_bn254_fp_mul(&r[e], &a[e], &b[e]);
            cz_bn254_fp_mul_portable(&rp[e], &a[e], &b[e]);
        }
        assert_memory_equal(r, rp, sizeof r);
        cz_bn254_fp_mul_x8(o, a, b);
        assert_memory_equal(o, r, sizeof o);
        memcpy(o, a, sizeof o);
        cz_bn254_fp_mul_x8(o, o, b);
        assert_memory_equal(o, r, sizeof o);
        memcpy(o, b, sizeof o);
        cz_bn254_fp_mul_x8(o, a, o);
        assert_memory_equal(o, r, sizeof o);
        cz_bn254_fp_mul_x8(o, a, a);                  /* squares */
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_sqr(&r[e], &a[e]);
            assert_memory_equal(&o[e], &r[e], sizeof r[e]);
        }
    }
}

/* every pair of edge values, lane by lane */
static void test_mul_x8_edges(void **state)
{
    (void)state;
    cz_bn254_fp ed[9];
    for (int k = 0; k < 9; k++) {
        memset(&ed[k], 0, sizeof ed[k]);
    }
    ed[1].l[0] = 1;
    ed[2].l[0] = 2;
    sub_small(&ed[3], P, 1);
    sub_small(&ed[4], P, 2);
    ed[5].l[3] = (uint64_t)1 << 61;
    {
        cz_bn254_fp t = {{~0ULL, ~0ULL, ~0ULL, (1ULL << 62) - 1}};
        reduce_once(&ed[6], &t);
        cz_bn254_fp u = {{~0ULL, ~0ULL, ~0ULL, P[3]}};
        reduce_once(&ed[7], &u);
    }
    cz_bn254_fp_one(&ed[8]);
    for (int i = 0; i < 9; i++) {
        cz_bn254_fp a[8], b[8], o[8], r;
        for (int e = 0; e < 8; e++) {
            a[e] = ed[i];
            b[e] = ed[(e + (int)i) % 9];
        }
        cz_bn254_fp_mul_x8(o, a, b);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_mul_portable(&r, &a[e], &b[e]);
            assert_memory_equal(&o[e], &r, sizeof r);
        }
        for (int e = 0; e < 8; e++)
            b[e] = ed[(e + (int)i + 8) % 9];
        cz_bn254_fp_mul_x8(o, a, b);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_mul_portable(&r, &a[e], &b[e]);
            assert_memory_equal(&o[e], &r, sizeof r);
        }
    }
}

/* inputs below 2p: the fully reduced product of the reduced values */
static void test_mul_x8_unreduced(void **state)
{
    (void)state;
    int iters = cz_test_iters(10000);
    for (int it = 0; it < iters; it++) {
        cz_bn254_fp a[8], b[8], o[8], r, ar, br;
        for (int e = 0; e < 8; e++) {
            rand_elem_2p(&a[e]);
            rand_elem_2p(&b[e]);
        }
        cz_bn254_fp_mul_x8(o, a, b);
        for (int e = 0; e < 8; e++) {
            reduce_once(&ar, &a[e]);
            reduce_once(&br, &b[e]);
            cz_bn254_fp_mul_portable(&r, &ar, &br);
            assert_memory_equal(&o[e], &r, sizeof r);
        }
    }
}

#if CZ_BN254_FP_HAVE_X8
/* the chained pieces against cz_bn254_fp arithmetic (the header's forms) */
static void test_v8(void **state)
{
    (void)state;
    int iters = cz_test_iters(5000);
    cz_bn254_fp one_p; /* [1]' as a cz_bn254_fp: 2^4 */
    const uint64_t l4[4] = {(uint64_t)1 << CZ_BN254_FP_V8_SHIFT, 0, 0, 0};
    assert_true(cz_bn254_fp_from_limbs(&one_p, l4));
    for (int it = 0; it < iters; it++) {
        cz_bn254_fp a[8], b[8], r[8], o[8], ap[8];
        for (int e = 0; e < 8; e++) {
            rand_elem(&a[e]);
            rand_elem(&b[e]);
            cz_bn254_fp_mul(&ap[e], &a[e], &one_p);   /* [a]' */
        }
        cz_bn254_fp_v8 A, As, B, Ap, X, Y;
        cz_bn254_fp_v8_load(&A, a, 0);
        cz_bn254_fp_v8_load(&As, a, 1);
        cz_bn254_fp_v8_load(&B, b, 0);
        cz_bn254_fp_v8_load(&Ap, ap, 0);
        cz_bn254_fp_v8_store(o, &A);                  /* store(load) */
        assert_memory_equal(o, a, sizeof o);
        cz_bn254_fp_v8_mont(&X, &As, &B);             /* mont([a] 2^4, [b]) = [ab] */
        cz_bn254_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++)
            cz_bn254_fp_mul(&r[e], &a[e], &b[e]);
        assert_memory_equal(o, r, sizeof o);
        cz_bn254_fp_v8_shl4(&Y, &A);                  /* shl4 = load(.., 1) */
        assert_memory_equal(&Y, &As, sizeof Y);
        cz_bn254_fp_v8_mont(&X, &Ap, &B);             /* mont([a]', [b]) = [ab] */
        cz_bn254_fp_v8_store(o, &X);
        assert_memory_equal(o, r, sizeof o);
        cz_bn254_fp_v8_load(&Y, b, 1);                /* mont([a]', [b] 2^4) = [ab]' */
        cz_bn254_fp_v8_mont(&X, &Ap, &Y);
        cz_bn254_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_mul(&r[e], &r[e], &one_p);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        cz_bn254_fp_v8_add(&X, &A, &B);
        cz_bn254_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_add(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        cz_bn254_fp_v8_sub(&X, &A, &B);
        cz_bn254_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_sub(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        cz_bn254_fp_v8_add_nr(&X, &A, &B);
        cz_bn254_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp_add_nr(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        /* Karatsuba's shape: mont((a + b) 2^4, a + b) with both sums
           unreduced (below 2p), as the G2 flush runs it */
        cz_bn254_fp_v8_shl4(&Y, &X);
        cz_bn254_fp_v8_mont(&Y, &Y, &X);
        cz_bn254_fp_v8_store(o, &Y);
        for (int e = 0; e < 8; e++) {
            cz_bn254_fp s;
            cz_bn254_fp_add(&s, &a[e], &b[e]);
            cz_bn254_fp_sqr(&r[e], &s);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
    }
}
#endif

static int setup_rng(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mul_x8),
        cmocka_unit_test(test_mul_x8_edges),
        cmocka_unit_test(test_mul_x8_unreduced),
#if CZ_BN254_FP_HAVE_X8
        cmocka_unit_test(test_v8),
#endif
    };
    return cmocka_run_group_tests(tests, setup_rng, NULL);
}
