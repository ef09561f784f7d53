/* ctest: labels=gpu timeout=300 */
/*
 * test_gpu_field.c: the device's Fr, Fp, Fp2 arithmetic and G1/G2 point
 * formulas against the host library on random inputs and edge values
 * (0, 1, m - 1, P + P, P + (-P), infinity). Skips (exit 77) without a
 * CUDA build or device.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda.h"
#include "curve/curve.h"
#include "field/field.h"

static cz_cuda_ctx *g_ctx;

#define N_RAND 4096
#define CHECK_ST(st) assert_int_equal_msg((st), CZ_OK)
static void assert_int_equal_msg(cz_status st, cz_status want)
{
    if (st != want)
        fail_msg("CUDA call failed: %s: %s", cz_strerror(st), cz_cuda_ctx_error(g_ctx));
}

/* fill with random elements, then edge values at the front */
#define FIELD_TEST(NAME, T, F, OPFN)                                                         \
    static void NAME(void **state)                                                         \
    {                                                                                      \
        (void)state;                                                                       \
        cz_rng rng;                                                                        \
        cz_test_rng(&rng);                                                                 \
        size_t n = N_RAND;                                                                 \
        T *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);                          \
        T *out = malloc(n * sizeof *out), want;                                            \
        for (size_t i = 0; i < n; i++) {                                                   \
            cz_##F##_random(&a[i], &rng);                                                  \
            cz_##F##_random(&b[i], &rng);                                                  \
        }                                                                                  \
        T zero, one, m1;                                                                   \
        cz_##F##_zero(&zero);                                                              \
        cz_##F##_one(&one);                                                                \
        cz_##F##_neg(&m1, &one);                                                           \
        T edge[3] = {zero, one, m1};                                                       \
        for (int i = 0; i < 3; i++)                                                        \
            for (int j = 0; j < 3; j++) {                                                  \
                a[i * 3 + j] = edge[i];                                                    \
                b[i * 3 + j] = edge[j];                                                    \
            }                                                                              \
        for (int op = 0; op <= 5; op++) {                                                  \
            size_t cnt = op == 5 ? 256 : n; /* inversion is slow per thread */            \
            CHECK_ST(OPFN(g_ctx, op, out, a, b, cnt));                                     \
            for (size_t i = 0; i < cnt; i++) {                                             \
                switch (op) {                                                              \
                case 0: cz_##F##_add(&want, &a[i], &b[i]); break;                          \
                case 1: cz_##F##_sub(&want, &a[i], &b[i]); break;                          \
                case 2: cz_##F##_mul(&want, &a[i], &b[i]); break;                          \
                case 3: cz_##F##_sqr(&want, &a[i]); break;                                 \
                case 4: FROM_MONT_##F(&want, &a[i]); break;                                \
                default: cz_##F##_inv(&want, &a[i]); break;                                \
                }                                                                          \
                if (memcmp(&want, &out[i], sizeof want))                                   \
                    fail_msg(#F " op %d differs at %zu", op, i);                           \
            }                                                                              \
        }                                                                                  \
        free(a);                                                                           \
        free(b);                                                                           \
        free(out);                                                                         \
    }

static void from_mont_fr(cz_fr *o, const cz_fr *a) { cz_fr_to_limbs(o->l, a); }
static void from_mont_fp(cz_fp *o, const cz_fp *a) { cz_fp_to_limbs(o->l, a); }
static void from_mont_fp2(cz_fp2 *o, const cz_fp2 *a)
{
    cz_fp_to_limbs(o->c0.l, &a->c0);
    cz_fp_to_limbs(o->c1.l, &a->c1);
}
#define FROM_MONT_fr from_mont_fr
#define FROM_MONT_fp from_mont_fp
#define FROM_MONT_fp2 from_mont_fp2

FIELD_TEST(test_fr_ops, cz_fr, fr, cz_cuda_fr_op)
FIELD_TEST(test_fp_ops, cz_fp, fp, cz_cuda_fp_op)
FIELD_TEST(test_fp2_ops, cz_fp2, fp2, cz_cuda_fp2_op)

#define CURVE_TEST(NAME, G, N)                                                                \
    static void NAME(void **state)                                                            \
    {                                                                                         \
        (void)state;                                                                          \
        cz_rng rng;                                                                           \
        cz_test_rng(&rng);                                                                    \
        size_t n = N;                                                                         \
        cz_##G##_affine gen, *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);            \
        cz_##G##_jac *j = calloc(2 * n, sizeof *j), *madd = calloc(n, sizeof *madd);          \
        cz_##G##_jac *add = calloc(n, sizeof *add), *dbl = calloc(n, sizeof *dbl), g, w;      \
        cz_##G##_generator(&gen);                                                             \
        cz_##G##_jac_from_affine(&g, &gen);                                                   \
        for (size_t i = 0; i < 2 * n; i++) {                                                  \
            cz_fr k;                                                                          \
            cz_fr_random(&k, &rng);                                                           \
            cz_##G##_jac_mul(&j[i], &g, &k);                                                  \
        }                                                                                     \
        cz_##G##_affine *aff = calloc(2 * n, sizeof *aff);                                    \
        cz_##G##_jac_batch_to_affine(aff, j, 2 * n);                                          \
        for (size_t i = 0; i < n; i++) {                                                      \
            a[i] = aff[i];                                                                    \
            b[i] = aff[n + i];                                                                \
        }                                                                                     \
        b[0] = a[0];                                  /* P + P */                             \
        cz_##G##_affine_neg(&b[1], &a[1]);            /* P + (-P) */                          \
        cz_##G##_affine_infinity(&a[2]);              /* inf + Q */                           \
        cz_##G##_affine_infinity(&b[3]);              /* P + inf */                           \
        cz_##G##_affine_infinity(&a[4]);                                                      \
        cz_##G##_affine_infinity(&b[4]);              /* inf + inf */                         \
        CHECK_ST(cz_cuda_##G##_curve_test(g_ctx, madd, add, dbl, a, b, n));                   \
        for (size_t i = 0; i < n; i++) {                                                      \
            cz_##G##_jac ja, jb, t;                                                           \
            cz_##G##_jac_from_affine(&ja, &a[i]);                                             \
            cz_##G##_jac_from_affine(&jb, &b[i]);                                             \
            cz_##G##_jac_add(&w, &ja, &jb);                                                   \
            if (!cz_##G##_jac_eq(&w, &madd[i]))                                               \
                fail_msg(#G " mixed add differs at %zu", i);                                  \
            cz_##G##_jac_dbl(&t, &w);                                                         \
            if (!cz_##G##_jac_eq(&t, &add[i]))                                                \
                fail_msg(#G " add differs at %zu", i);                                        \
            cz_##G##_jac_dbl(&t, &ja);                                                        \
            if (!cz_##G##_jac_eq(&t, &dbl[i]))                                                \
                fail_msg(#G " dbl differs at %zu", i);                                        \
        }                                                                                     \
        free(a), free(b), free(j), free(madd), free(add), free(dbl), free(aff);                \
    }

CURVE_TEST(test_g1_ops, g1, 512)
CURVE_TEST(test_g2_ops, g2, 128)

/* points of known discrete log made on the GPU are the host's d_i G */
static void test_gen_points(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    size_t m = 16, n = 300;
    cz_fr k[16];
    for (size_t i = 0; i < m; i++)
        cz_fr_random(&k[i], &rng);
    cz_cuda_buf buf;
    cz_g1_affine *p = malloc(n * sizeof *p), gen;
    CHECK_ST(cz_cuda_buf_alloc(g_ctx, &buf, n * sizeof *p));
    CHECK_ST(cz_cuda_g1_gen_points(g_ctx, &buf, n, k, m));
    CHECK_ST(cz_cuda_download(g_ctx, p, &buf, 0, n * sizeof *p));
    CHECK_ST(cz_cuda_buf_free(g_ctx, &buf));
    cz_g1_generator(&gen);
    cz_g1_jac g, want;
    cz_g1_jac_from_affine(&g, &gen);
    for (size_t i = 0; i < n; i += (i < 40 ? 1 : 13)) {
        cz_fr d = k[i % m];
        if (i >= m)
            cz_fr_add(&d, &d, &k[(i / m) % m]);
        cz_g1_jac_mul(&want, &g, &d);
        cz_g1_affine wa;
        cz_g1_jac_to_affine(&wa, &want);
        if (!cz_g1_affine_eq(&wa, &p[i]))
            fail_msg("generated point %zu differs", i);
    }
    free(p);
}

int main(void)
{
    if (!cz_cuda_built() || cz_cuda_device_count() == 0) {
        printf("SKIPPED: no CUDA device (%s)\n",
               cz_cuda_built() ? "none found" : "cuzk built without CUDA");
        return 77;
    }
    char err[512];
    cz_status st = cz_cuda_ctx_create(&g_ctx, 0, (size_t)1 << 30, 0, err, sizeof err);
    if (st != CZ_OK) {
        printf("SKIPPED: no CUDA device (%s)\n", err);
        return 77;
    }
    printf("# device: %s\n", cz_cuda_device_name(g_ctx));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fr_ops),   cmocka_unit_test(test_fp_ops),
        cmocka_unit_test(test_fp2_ops),  cmocka_unit_test(test_g1_ops),
        cmocka_unit_test(test_g2_ops),   cmocka_unit_test(test_gen_points),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
