/* ctest: labels=gpu timeout=900 */
/*
 * test_gpu_decompress.c: compressed G1/G2 points decompressed and checked
 * on the GPU (cuda/decompress.cu through backend/cuda_glue.c), against the
 * host's decoders (src/curve/encode.c).
 *
 *  - valid points: random multiples of the generators (with infinity at
 *    some indices, both signs of y) compressed by encode.c, decompressed
 *    on the device bit for bit as cz_g1/g2_from_compressed does, through
 *    a context in chunks that do and do not divide n (chunk boundaries
 *    crossed) and through the cuda backend's decompress hook;
 *  - bad points, each kind placed among valid ones: flag bits (C clear,
 *    infinity with S, with a low flag bit, with a non-zero byte), x = p and
 *    x = 2^381 - 1 (G2: in c1 and in c0), x with no point (x^3 + b a
 *    non-residue), a point of the curve outside the subgroup (G1: of
 *    order != r; G2: a twist point outside G2): refused with the host's
 *    status and the lowest bad index, also when a second bad point follows
 *    in the same or a later chunk;
 *  - keys: a .czk written from the committed snarkjs key (compacted) and,
 *    in full runs on a GPU (the model: CZ_TEST_SCALE=2), from porep-mini's
 *    development key loads through the GPU
 *    hook (cz_cuda_nkey_decompress) to the same arrays as the CPU load,
 *    and proves the same proof bytes (fixed r, s), which verify; over the
 *    host model a failure injected at each device call of the load falls
 *    back to the CPU and still gives the same key.
 * Seeded (CZ_TEST_SEED). Skips (77) without a GPU.
 */
#include "test_util.h"
#include "gpu_fixture.h"
#include "porep_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cuda.h"
#include "circuit/c1.h"
#include "circuit/porep.h"
#include "curve/curve.h"
#include "groth16/groth16.h"
#include "groth16/native.h"
#include "io/nkey.h"

static cz_backend *g_cpu;
static cz_rng g_rng;

/* n points P_i = P_0 + i Q (random P_0, Q), infinity at every 97th index */
static void g1_points(cz_g1_affine *out, size_t n)
{
    cz_g1_affine g;
    cz_g1_jac p, q;
    cz_fr s;
    cz_g1_generator(&g);
    cz_fr_random(&s, &g_rng);
    cz_g1_jac_from_affine(&p, &g);
    cz_g1_jac_mul(&p, &p, &s);
    cz_g1_affine qa;
    cz_fr_random(&s, &g_rng);
    cz_g1_jac_from_affine(&q, &g);
    cz_g1_jac_mul(&q, &q, &s);
    cz_g1_jac_to_affine(&qa, &q);
    cz_g1_jac *j = malloc(n * sizeof *j);
    assert_non_null(j);
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        cz_g1_jac_add_affine(&p, &p, &qa);
    }
    cz_g1_jac_batch_to_affine(out, j, n);
    for (size_t i = 5; i < n; i += 97)
        cz_g1_affine_infinity(&out[i]);
    free(j);
}

static void g2_points(cz_g2_affine *out, size_t n)
{
    cz_g2_affine g;
    cz_g2_jac p, q;
    cz_fr s;
    cz_g2_generator(&g);
    cz_fr_random(&s, &g_rng);
    cz_g2_jac_from_affine(&p, &g);
    cz_g2_jac_mul(&p, &p, &s);
    cz_g2_affine qa;
    cz_fr_random(&s, &g_rng);
    cz_g2_jac_from_affine(&q, &g);
    cz_g2_jac_mul(&q, &q, &s);
    cz_g2_jac_to_affine(&qa, &q);
    cz_g2_jac *j = malloc(n * sizeof *j);
    assert_non_null(j);
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        cz_g2_jac_add_affine(&p, &p, &qa);
    }
    cz_g2_jac_batch_to_affine(out, j, n);
    for (size_t i = 5; i < n; i += 97)
        cz_g2_affine_infinity(&out[i]);
    free(j);
}

/* compressed bytes of n points (pb: 48 or 96) */
static uint8_t *compress(const void *pts, size_t n, bool g2)
{
    size_t ib = g2 ? 96 : 48;
    uint8_t *c = malloc(n * ib);
    assert_non_null(c);
    for (size_t i = 0; i < n; i++) {
        if (g2)
            cz_g2_to_compressed(c + ib * i, (const cz_g2_affine *)pts + i);
        else
            cz_g1_to_compressed(c + ib * i, (const cz_g1_affine *)pts + i);
    }
    return c;
}

/* the host's answer for n compressed points: CZ_OK and out, or the first
   bad point's status and index */
static cz_status host_decode(void *out, const uint8_t *in, size_t n, bool g2, size_t *first_bad)
{
    for (size_t i = 0; i < n; i++) {
        cz_status st = g2 ? cz_g2_from_compressed((cz_g2_affine *)out + i, in + 96 * i)
                          : cz_g1_from_compressed((cz_g1_affine *)out + i, in + 48 * i);
        if (st != CZ_OK) {
            *first_bad = i;
            return st;
        }
    }
    return CZ_OK;
}

static void valid_points(bool g2, size_t n)
{
    size_t ob = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *pts = malloc(n * ob), *ref = malloc(n * ob), *got = malloc(n * ob);
    assert_true(pts && ref && got);
    if (g2)
        g2_points(pts, n);
    else
        g1_points(pts, n);
    uint8_t *c = compress(pts, n, g2);
    size_t bad = SIZE_MAX;
    assert_int_equal(host_decode(ref, c, n, g2, &bad), CZ_OK);
    assert_memory_equal(ref, pts, n * ob); /* encode.c round-trips */
    unsigned sign = 0;
    for (size_t i = 0; i < n; i++)
        sign += (c[(g2 ? 96 : 48) * i] & 0x20) != 0;
    assert_true(sign > n / 4 && sign < 3 * n / 4); /* both roots occur */
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(256);
    const size_t chunks[4] = {0, 1024, 777, n};
    for (int k = 0; k < 4; k++) {
        memset(got, 0xa5, n * ob);
        cz_status st = cz_cuda_decompress(ctx, g2, got, c, n, &bad, chunks[k]);
        if (st != CZ_OK)
            fail_msg("%s, chunk %zu: %s", g2 ? "G2" : "G1", chunks[k], cz_cuda_ctx_error(ctx));
        assert_memory_equal(got, ref, n * ob);
    }
    /* n = 1 and n = 0 */
    memset(got, 0xa5, ob);
    assert_int_equal(cz_cuda_decompress(ctx, g2, got, c + (g2 ? 96 : 48) * 3, 1, &bad, 0), CZ_OK);
    assert_memory_equal(got, (char *)ref + 3 * ob, ob);
    assert_int_equal(cz_cuda_decompress(ctx, g2, got, c, 0, &bad, 0), CZ_OK);
    cz_cuda_ctx_destroy(ctx);
    /* the backend's hook */
    cz_backend *be = NULL;
    char err[512];
    setenv("CUZK_GPU_ARENA_MB", "1024", 1);
    cz_status bst = cz_backend_create(&be, "cuda", 2, err, sizeof err);
    unsetenv("CUZK_GPU_ARENA_MB");
    if (bst != CZ_OK)
        fail_msg("cuda backend: %s", err);
    assert_non_null(be->decompress);
    memset(got, 0xa5, n * ob);
    assert_int_equal(be->decompress(be, g2, got, c, n, &bad), CZ_OK);
    assert_memory_equal(got, ref, n * ob);
    cz_backend_destroy(be);
    printf("# %s: %zu points (%u with S) equal the host's\n", g2 ? "G2" : "G1", n, sign);
    free(c);
    free(pts);
    free(ref);
    free(got);
}

static void test_g1_valid(void **state)
{
    (void)state;
    valid_points(false, cz_test_full() ? 5000 : 2100);
}

static void test_g2_valid(void **state)
{
    (void)state;
    valid_points(true, cz_test_full() ? 3000 : 1600);
}

/* ---- bad points ---- */

/* x (Montgomery) as a compressed coordinate with flag bits `flags` */
static void put_x(uint8_t *out, const cz_fp *x, uint8_t flags)
{
    cz_fp_to_bytes_be(out, x);
    out[0] |= flags;
}

/* a G1 x for which x^3 + 4 is (want_square) or is not a square */
static void g1_x(cz_fp *x, bool want_square)
{
    cz_fp four, rhs, y;
    cz_fp_set_u64(&four, 4);
    for (;;) {
        cz_fp_random(x, &g_rng);
        cz_fp_sqr(&rhs, x);
        cz_fp_mul(&rhs, &rhs, x);
        cz_fp_add(&rhs, &rhs, &four);
        if (cz_fp_sqrt(&y, &rhs) == want_square)
            return;
    }
}

static void g2_x(cz_fp2 *x, bool want_square)
{
    cz_fp2 b, rhs, y;
    cz_fp_set_u64(&b.c0, 4);
    cz_fp_set_u64(&b.c1, 4);
    for (;;) {
        cz_fp2_random(x, &g_rng);
        cz_fp2_sqr(&rhs, x);
        cz_fp2_mul(&rhs, &rhs, x);
        cz_fp2_add(&rhs, &rhs, &b);
        if (cz_fp2_sqrt(&y, &rhs) == want_square)
            return;
    }
}

/* One bad point of each kind, written into `at` (48 or 96 bytes); its
   expected status. kind < n_kinds(g2). */
enum { K_NO_C, K_INF_S, K_INF_LOW, K_INF_BYTE, K_X_P, K_X_MAX, K_X_P_C0, K_NO_ROOT, K_SUBGROUP,
       K_COUNT };
static const char *const kind_name[K_COUNT] = {
    "compressed flag clear", "infinity with S", "infinity with a low flag bit",
    "infinity with a non-zero byte", "x = p", "x = 2^381 - 1", "x.c0 = p (G2)",
    "no square root", "outside the subgroup"};

static bool bad_point(uint8_t *at, int kind, bool g2, const uint8_t *valid, cz_status *want)
{
    size_t ib = g2 ? 96 : 48;
    static const uint8_t p_be[48] = {
        0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7,
        0x64, 0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24,
        0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab};
    *want = CZ_ERR_FORMAT;
    memcpy(at, valid, ib);
    switch (kind) {
    case K_NO_C:
        at[0] &= 0x7f;
        break;
    case K_INF_S:
        memset(at, 0, ib);
        at[0] = 0xe0;
        break;
    case K_INF_LOW:
        memset(at, 0, ib);
        at[0] = 0xc1;
        break;
    case K_INF_BYTE:
        memset(at, 0, ib);
        at[0] = 0xc0;
        at[ib - 1] = 1;
        break;
    case K_X_P:
        memcpy(at, p_be, 48);
        at[0] |= 0x80;
        break;
    case K_X_MAX:
        memset(at, 0xff, 48);
        at[0] = 0x9f;
        break;
    case K_X_P_C0:
        if (!g2)
            return false;
        memcpy(at + 48, p_be, 48);
        break;
    case K_NO_ROOT:
        *want = CZ_ERR_NOT_ON_CURVE;
        if (g2) {
            cz_fp2 x;
            g2_x(&x, false);
            put_x(at, &x.c1, 0x80);
            cz_fp_to_bytes_be(at + 48, &x.c0);
        } else {
            cz_fp x;
            g1_x(&x, false);
            put_x(at, &x, 0x80);
        }
        break;
    case K_SUBGROUP:
        *want = CZ_ERR_SUBGROUP;
        if (g2) {
            cz_fp2 x;
            g2_x(&x, true);
            put_x(at, &x.c1, 0x80 | (cz_rng_u64(&g_rng) & 1 ? 0x20 : 0));
            cz_fp_to_bytes_be(at + 48, &x.c0);
        } else {
            cz_fp x;
            g1_x(&x, true);
            put_x(at, &x, 0x80 | (cz_rng_u64(&g_rng) & 1 ? 0x20 : 0));
        }
        break;
    }
    return true;
}

static void bad_points(bool g2)
{
    const size_t n = 2500, chunk = 1000, ib = g2 ? 96 : 48;
    const size_t ob = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    void *pts = malloc(n * ob), *got = malloc(n * ob), *ref = malloc(n * ob);
    assert_true(pts && got && ref);
    if (g2)
        g2_points(pts, n);
    else
        g1_points(pts, n);
    uint8_t *good = compress(pts, n, g2), *c = malloc(n * ib);
    assert_non_null(c);
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(256);
    /* where the bad point goes, and a second one after it (none, same
       chunk, a later chunk) */
    const size_t at1[3] = {1700, 0, 999}, at2[3] = {SIZE_MAX, 40, 2400};
    int tried = 0;
    for (int kind = 0; kind < K_COUNT; kind++) {
        for (int pl = 0; pl < 3; pl++) {
            memcpy(c, good, n * ib);
            cz_status want, want2;
            if (!bad_point(c + ib * at1[pl], kind, g2, good + ib * at1[pl], &want))
                continue;
            if (at2[pl] != SIZE_MAX)
                bad_point(c + ib * at2[pl], (kind + 3) % K_COUNT == K_X_P_C0 && !g2 ? K_NO_C
                                                                                    : (kind + 3) % K_COUNT,
                          g2, good + ib * at2[pl], &want2);
            size_t hb = SIZE_MAX, gb = SIZE_MAX;
            cz_status hs = host_decode(ref, c, n, g2, &hb);
            if (hs != want || hb != at1[pl])
                fail_msg("%s, %s at %zu: the host says %s at %zu", g2 ? "G2" : "G1",
                         kind_name[kind], at1[pl], cz_strerror(hs), hb);
            cz_status gs = cz_cuda_decompress(ctx, g2, got, c, n, &gb, chunk);
            if (gs != hs || gb != hb)
                fail_msg("%s, %s at %zu (second bad at %zu): the GPU says %s at %zu (%s), the "
                         "host %s at %zu", g2 ? "G2" : "G1", kind_name[kind], at1[pl],
                         at2[pl], cz_strerror(gs), gb, cz_cuda_ctx_error(ctx), cz_strerror(hs), hb);
            /* the good points before it came out right */
            assert_memory_equal(got, ref, (at1[pl] / chunk) * chunk * ob);
            tried++;
        }
    }
    printf("# %s: %d bad-point placements refused as the host refuses them\n", g2 ? "G2" : "G1",
           tried);
    /* the context is still good */
    size_t gb = SIZE_MAX;
    assert_int_equal(cz_cuda_decompress(ctx, g2, got, good, n, &gb, chunk), CZ_OK);
    assert_memory_equal(got, pts, n * ob);
    cz_cuda_ctx_destroy(ctx);
    free(c);
    free(good);
    free(pts);
    free(got);
    free(ref);
}

static void test_g1_bad(void **state)
{
    (void)state;
    bad_points(false);
}

static void test_g2_bad(void **state)
{
    (void)state;
    bad_points(true);
}

/* ---- keys through the reader's hook ---- */

static void same_points(const cz_zkey *a, const cz_zkey *b)
{
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_b, b->n_b);
    assert_int_equal(a->domain_size, b->domain_size);
    assert_memory_equal(a->ic, b->ic, (a->n_public + 1) * sizeof *a->ic);
    assert_memory_equal(a->a, b->a, a->n_vars * sizeof *a->a);
    assert_memory_equal(a->b1, b->b1, a->n_b * sizeof *a->b1);
    assert_memory_equal(a->b2, b->b2, a->n_b * sizeof *a->b2);
    if (a->n_vars - a->n_public - 1)
        assert_memory_equal(a->c, b->c, (a->n_vars - a->n_public - 1) * sizeof *a->c);
    assert_memory_equal(a->h, b->h, a->domain_size * sizeof *a->h);
    assert_memory_equal(&a->delta2, &b->delta2, sizeof a->delta2);
}

/* load `path` on the CPU and through the GPU hook; same arrays, same
   proof bytes for fixed r, s, which verify */
static void load_both(const char *path, const cz_fr *w, const char *what)
{
    char err[512];
    cz_zkey *kc = NULL, *kg = NULL;
    cz_status st = cz_nkey_load(&kc, path, NULL, err, sizeof err);
    if (st)
        fail_msg("%s: CPU load: %s", what, err);
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(512);
    cz_nkey_load_opts o = {.decompress = cz_cuda_nkey_decompress, .decompress_ctx = ctx,
                           .decompress_on = "the gpu"};
    st = cz_nkey_load(&kg, path, &o, err, sizeof err);
    if (st)
        fail_msg("%s: GPU load: %s", what, err);
    same_points(kc, kg);
    cz_fr rs[2];
    cz_fr_random(&rs[0], &g_rng);
    cz_fr_random(&rs[1], &g_rng);
    cz_proof pc, pg;
    assert_int_equal(cz_groth16_prove(&pc, kc, w, g_cpu, rs, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_prove(&pg, kg, w, g_cpu, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_equal(&pc, &pg, sizeof pc);
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, kg), CZ_OK);
    st = cz_groth16_verify(vk, w + 1, kg->n_public, &pg, err, sizeof err);
    if (st)
        fail_msg("%s: verify: %s", what, err);
    cz_vk_free(vk);
    /* model: a failure at each device call of the load falls back to the
       CPU (a warning), the key the same */
    if (cz_cuda_is_model()) {
        int fell = 0;
        for (unsigned long k = 1; k <= 12; k++) {
            for (int kind = 0; kind < 2; kind++) {
                cz_zkey *kf = NULL;
                cz_cuda_ctx *c2 = cz_test_cuda_ctx(64);
                o.decompress_ctx = c2;
                cz_cuda_model_fail_after(k, kind ? CZ_ERR_NOMEM : CZ_ERR_DEVICE, false);
                unsigned long before = cz_cuda_model_calls();
                st = cz_nkey_load(&kf, path, &o, err, sizeof err);
                unsigned long used = cz_cuda_model_calls() - before;
                cz_cuda_model_fail_after(0, CZ_OK, false);
                if (st)
                    fail_msg("%s: load with a failure at device call %lu: %s", what, k, err);
                same_points(kc, kf);
                fell += used >= k;
                cz_zkey_free(kf);
                cz_cuda_ctx_destroy(c2);
            }
        }
        assert_true(fell > 0);
        printf("# %s: %d loads met an injected device failure and took the CPU\n", what, fell);
    }
    cz_cuda_ctx_destroy(ctx);
    cz_zkey_free(kg);
    cz_zkey_free(kc);
}

static void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/test_gpu_decompress.%ld.%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid(), name);
}

static void test_snarkjs_key(void **state)
{
    (void)state;
    char err[512], path[512];
    cz_zkey *z = NULL;
    cz_status st = cz_zkey_load(&z, cz_test_src_path("tests/fixtures/small.zkey"), 2, err, sizeof err);
    if (st)
        fail_msg("small.zkey: %s", err);
    size_t wl;
    uint8_t *wb = cz_test_read_file(cz_test_src_path("tests/fixtures/small.wtns"), &wl);
    assert_non_null(wb);
    cz_fr *w;
    uint32_t nw;
    assert_int_equal(cz_wtns_parse(&w, &nw, wb, wl, "small.wtns", z->n_vars, err, sizeof err), CZ_OK);
    free(wb);
    assert_int_equal(cz_zkey_compact(z, err, sizeof err), CZ_OK);
    tmp_path(path, sizeof path, "small.czk");
    st = cz_nkey_write(path, z, NULL, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_write: %s", err);
    load_both(path, w, "small.czk");
    unlink(path);
    cz_wtns_free(w, nw);
    cz_zkey_free(z);
}

static void test_porep_mini_key(void **state)
{
    (void)state;
    /* the host model decodes on the CPU, as slow as the reference load:
       there only with CZ_TEST_SCALE >= 2 */
    if (!cz_test_full() || (cz_cuda_is_model() && cz_test_iters(1) < 2)) {
        printf("# porep-mini: full runs on a GPU only (or the model with CZ_TEST_SCALE=2)\n");
        return;
    }
    char err[512], path[512];
    cz_test_porep t;
    cz_test_porep_make(&t, "porep-mini", &g_rng);
    const cz_fr *w = t.w;
    cz_status st;
    cz_setup_opts o = {.seeded = true, .seed = t.seed};
    cz_zkey *k;
    st = cz_zkey_from_shape(&k, t.shape, &o, g_cpu, err, sizeof err);
    if (st)
        fail_msg("key from shape: %s", err);
    tmp_path(path, sizeof path, "porep-mini.czk");
    uint8_t digest[16];
    cz_nkey_shape_digest(digest, t.shape);
    cz_nkey_meta meta = {.circuit = "porep-mini", .shape_digest = digest,
                         .flags = CZ_NKEY_FLAG_DEVELOPMENT};
    st = cz_nkey_write(path, k, &meta, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_write: %s", err);
    printf("# porep-mini: %u wires, %u in B, domain %u\n", k->n_vars, k->n_b, k->domain_size);
    load_both(path, w, "porep-mini.czk");
    unlink(path);
    cz_zkey_free(k);
    cz_test_porep_free(&t);
}

int main(void)
{
    int rc = cz_test_gpu_setup(&g_cpu);
    if (rc)
        return rc;
    cz_test_rng(&g_rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1_valid),     cmocka_unit_test(test_g2_valid),
        cmocka_unit_test(test_g1_bad),       cmocka_unit_test(test_g2_bad),
        cmocka_unit_test(test_snarkjs_key),  cmocka_unit_test(test_porep_mini_key),
    };
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_backend_destroy(g_cpu);
    return rc;
}
