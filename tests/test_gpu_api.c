/* ctest: labels=unit timeout=120 */
/*
 * test_gpu_api.c: the CUDA API's behaviour where it cannot compute: in a
 * build without CUDA, or on a machine without a GPU (CI), every entry point
 * reports CZ_ERR_UNSUPPORTED with a message and the "auto" backend falls
 * back to the CPU; "cuda" is refused cleanly. Where a GPU exists, the
 * argument checks and the arena's rules (LIFO buffers, exhaustion as
 * CZ_ERR_NOMEM) are checked instead. Runs everywhere (label unit).
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cuda.h"

static void test_without_device(void **state)
{
    (void)state;
    if (cz_cuda_built() && cz_cuda_device_count() > 0)
        skip();
    cz_cuda_ctx *ctx = (cz_cuda_ctx *)&ctx; /* must be overwritten */
    char err[256] = "";
    cz_status st = cz_cuda_ctx_create(&ctx, 0, 0, 0, err, sizeof err);
    assert_int_equal(st, CZ_ERR_UNSUPPORTED);
    assert_null(ctx);
    assert_true(strlen(err) > 0);
    printf("# cz_cuda_ctx_create: %s\n", err);
    cz_cuda_ctx_destroy(NULL);
    cz_backend *be = NULL;
    err[0] = 0;
    st = cz_backend_create(&be, "cuda", 1, err, sizeof err);
    assert_int_not_equal(st, CZ_OK);
    assert_null(be);
    st = cz_backend_create(&be, "auto", 1, err, sizeof err);
    assert_int_equal(st, CZ_OK);
    assert_non_null(be);
    assert_string_equal(be->name, "cpu");
    cz_backend_destroy(be);
}

static void test_with_device(void **state)
{
    (void)state;
    if (!cz_cuda_built() || cz_cuda_device_count() == 0)
        skip();
    cz_cuda_ctx *ctx;
    char err[256];
    assert_int_equal(cz_cuda_ctx_create(&ctx, 0, (size_t)64 << 20, 0, err, sizeof err), CZ_OK);
    size_t total = cz_cuda_arena_bytes(ctx);
    assert_true(total > 0 && total <= ((size_t)64 << 20));
    cz_cuda_buf a, b, big;
    assert_int_equal(cz_cuda_buf_alloc(ctx, &a, 1000), CZ_OK);
    assert_int_equal(cz_cuda_buf_alloc(ctx, &b, 5000), CZ_OK);
    assert_true(cz_cuda_arena_free(ctx) < total);
    /* out of order, out of range, too big */
    assert_int_equal(cz_cuda_buf_free(ctx, &a), CZ_ERR_ARG);
    uint8_t host[64] = {0};
    assert_int_equal(cz_cuda_upload(ctx, &a, 990, host, 64), CZ_ERR_ARG);
    assert_int_equal(cz_cuda_buf_alloc(ctx, &big, total), CZ_ERR_NOMEM);
    assert_true(strlen(cz_cuda_ctx_error(ctx)) > 0);
    assert_int_equal(cz_cuda_upload(ctx, &a, 0, host, 64), CZ_OK);
    assert_int_equal(cz_cuda_buf_free(ctx, &b), CZ_OK);
    assert_int_equal(cz_cuda_buf_free(ctx, &a), CZ_OK);
    assert_int_equal(cz_cuda_arena_free(ctx), total);
    /* an MSM too big for the 64 MiB arena fails cleanly (before any
       kernel reads the points; the scalars are 32 MiB of arena bytes) */
    cz_g1_jac out;
    cz_cuda_buf fake_pts = {a.dev, (size_t)96 << 20}, fake_sc = {a.dev, (size_t)32 << 20};
    assert_int_equal(cz_cuda_g1_msm_dev(ctx, &out, &fake_pts, NULL, &fake_sc, (size_t)1 << 20, 0, 0),
                     CZ_ERR_NOMEM);
    cz_cuda_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_without_device),
        cmocka_unit_test(test_with_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
