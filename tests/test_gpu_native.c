/* ctest: labels=gpu timeout=900 */
/*
 * test_gpu_native.c: the GPU side of keys in compact form (cuda/native.cu
 * through backend/cuda_glue.c), against the CPU.
 *
 *  - fixed base: s G on the device equals cz_g1/g2_jac_mul of the
 *    generator for random scalars and 0, 1, r - 1 and the digit edges
 *    (511, 512, 4095, 4096, 4097, 8192, 2^247 + ...); over an arena so small that
 *    the points run in several chunks (n not a multiple of the chunk),
 *    checked against a running sum (scalars k0 + i d); the backend's hooks
 *    equal the CPU's cz_fixed_base_g1/g2;
 *  - compact a/b/c and the gather equal a host evaluation, for coefficient
 *    tables read from shared memory (a few entries) and from global memory
 *    (2,000 and 65,536 entries), with matrices shorter than the rows and
 *    long rows among short ones (summed by a warp; and by one thread with
 *    CUZK_ABC_COOP=0); inconsistent matrices are refused (CZ_ERR_ARG);
 *  - keys: the committed snarkjs fixture proves on "cuda" (resident) and on
 *    "cpu" to the same bytes with fixed r, s, before and after
 *    cz_zkey_compact (the GPU's copy of the CSR form is replaced); a key of
 *    porep-mini made by cz_zkey_from_shape with the cuda backend's
 *    fixed-base hooks equals the one made on the CPU (full runs only: the
 *    model's fixed base is slow under the sanitizers), and proves on the
 *    GPU (resident and streamed) as on the CPU, its witness crossing packed
 *    (bitmap of the 1s, list of the others: checked by the bytes sent and
 *    against a whole copy, and packed by the caller as the daemon does);
 *    streamed through a 192 MiB arena, the matrices
 *    in parts of rows and the points in chunks (copies beside the MSMs and
 *    before them), it equals the CPU and the resident sums, the witness
 *    crossing twice, packed. The same key with C folded (no c, 4 NTTs on
 *    the device) proves, resident and streamed, to the same bytes as the
 *    CPU and as the key without. Every proof is verified.
 * Over the host model (-DCUZK_CUDA=MODEL) all of it runs without a GPU,
 * and a failure (out of memory, an error, a sticky fault) is injected at
 * each device call of a compact key's first proof (resident, and streamed
 * in parts and chunks) and of a fixed base.
 * Skips (77) without a GPU.
 */
#include "test_util.h"
#include "gpu_fixture.h"
#include "porep_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cuda.h"
#include "circuit/c1.h"
#include "circuit/porep.h"
#include "groth16/groth16.h"
#include "groth16/native.h"

static cz_backend *g_cpu;
static cz_rng g_rng;

static void ref_g1(cz_g1_affine *out, const cz_fr *s)
{
    cz_g1_affine g;
    cz_g1_jac j;
    cz_g1_generator(&g);
    cz_g1_jac_from_affine(&j, &g);
    cz_g1_jac_mul(&j, &j, s);
    cz_g1_jac_to_affine(out, &j);
}

static void ref_g2(cz_g2_affine *out, const cz_fr *s)
{
    cz_g2_affine g;
    cz_g2_jac j;
    cz_g2_generator(&g);
    cz_g2_jac_from_affine(&j, &g);
    cz_g2_jac_mul(&j, &j, s);
    cz_g2_jac_to_affine(out, &j);
}

/* s = 2^e + add (plain), Montgomery */
static void pow2_plus(cz_fr *s, unsigned e, uint64_t add)
{
    cz_fr two, t;
    cz_fr_one(s);
    cz_fr_set_u64(&two, 2);
    for (unsigned i = 0; i < e; i++)
        cz_fr_mul(s, s, &two);
    cz_fr_set_u64(&t, add);
    cz_fr_add(s, s, &t);
}

static void test_fixed_base_edges(void **state)
{
    (void)state;
    enum { N = 160 };
    cz_fr *sc = malloc(N * sizeof *sc);
    cz_g1_affine *p1 = malloc(N * sizeof *p1), r1;
    cz_g2_affine *p2 = malloc(N * sizeof *p2), r2;
    assert_true(sc && p1 && p2);
    for (int i = 0; i < N; i++)
        cz_fr_random(&sc[i], &g_rng);
    int e = 0;
    cz_fr_zero(&sc[e++]);
    cz_fr_one(&sc[e++]);
    cz_fr_neg(&sc[e], &sc[1]); /* r - 1 */
    e++;
    const uint64_t small[] = {2,    511,  512,      513,       1023,         1024,
                              1025, 4095, 4096,     4097,      8191,         8192,
                              8193, 0x3ff3ff, 0x200200200ULL, 0x1fff1fff1fffULL, 0x1000100010001000ULL};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        cz_fr_set_u64(&sc[e++], small[i]);
    pow2_plus(&sc[e++], 250, 0);   /* the top window's lowest bit */
    pow2_plus(&sc[e++], 254, 513); /* carries up to the top window */
    pow2_plus(&sc[e++], 254, (uint64_t)0x200 << 20);
    pow2_plus(&sc[e++], 247, 4097); /* the top 13-bit window's lowest bit */
    cz_fr_neg(&sc[e], &sc[e - 1]);
    e++;
    sc[e++] = sc[N - 1]; /* equal scalars in one thread's batch */
    cz_fr_neg(&sc[e++], &sc[N - 1]); /* and opposite ones */
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(256);
    assert_int_equal(cz_cuda_g1_fixed_base(ctx, p1, sc, N), CZ_OK);
    assert_int_equal(cz_cuda_g2_fixed_base(ctx, p2, sc, N), CZ_OK);
    for (int i = 0; i < N; i++) {
        ref_g1(&r1, &sc[i]);
        ref_g2(&r2, &sc[i]);
        if (memcmp(&r1, &p1[i], sizeof r1))
            fail_msg("G1 fixed base differs at %d", i);
        if (memcmp(&r2, &p2[i], sizeof r2))
            fail_msg("G2 fixed base differs at %d", i);
    }
    cz_g1_affine inf;
    cz_g1_affine_infinity(&inf);
    assert_memory_equal(&p1[0], &inf, sizeof inf);
    /* n = 0 is nothing; NULL arrays are refused */
    assert_int_equal(cz_cuda_g1_fixed_base(ctx, p1, sc, 0), CZ_OK);
    assert_int_equal(cz_cuda_g1_fixed_base(ctx, NULL, sc, 5), CZ_ERR_ARG);
    assert_int_equal(cz_cuda_g2_fixed_base(ctx, p2, NULL, 5), CZ_ERR_ARG);
    /* an arena that cannot hold 4096 points and the table */
    cz_cuda_ctx_destroy(ctx);
    ctx = cz_test_cuda_ctx(2);
    cz_fr *many = calloc(5000, sizeof *many);
    cz_g2_affine *out2 = malloc(5000 * sizeof *out2);
    assert_true(many && out2);
    assert_int_equal(cz_cuda_g2_fixed_base(ctx, out2, many, 5000), CZ_ERR_NOMEM);
    free(many);
    free(out2);
    cz_cuda_ctx_destroy(ctx);
    free(sc);
    free(p1);
    free(p2);
}

/* Many chunks: arenas of 10 MiB (G1) and 19 MiB (G2) hold the window
   table (7.9 / 15.7 MB) and ~5,800 / ~6,400 points with their scalars and
   scratch, pipelined (two slots), or ~9,000 / ~8,000 one chunk at a time
   (CUZK_GPU_FB_SERIAL=1). Scalars k0 + i d, so the reference is a running
   sum. */
static void test_fixed_base_chunks(void **state)
{
    (void)state;
    size_t n = cz_test_full() ? 50001 : 21001;
    cz_fr *sc = malloc(n * sizeof *sc), d;
    cz_g1_affine *p1 = malloc(n * sizeof *p1), *r1 = malloc(n * sizeof *r1);
    cz_g2_affine *p2 = malloc(n * sizeof *p2), *r2 = malloc(n * sizeof *r2);
    cz_g1_jac *j1 = malloc(n * sizeof *j1);
    cz_g2_jac *j2 = malloc(n * sizeof *j2);
    assert_true(sc && p1 && r1 && p2 && r2 && j1 && j2);
    cz_fr_random(&sc[0], &g_rng);
    cz_fr_random(&d, &g_rng);
    for (size_t i = 1; i < n; i++)
        cz_fr_add(&sc[i], &sc[i - 1], &d);
    cz_g1_affine *q1 = malloc(n * sizeof *q1);
    cz_g2_affine *q2 = malloc(n * sizeof *q2);
    assert_true(q1 && q2);
    for (int serial = 0; serial < 2; serial++) {
        if (serial)
            setenv("CUZK_GPU_FB_SERIAL", "1", 1);
        cz_cuda_ctx *ctx = cz_test_cuda_ctx(10);
        assert_int_equal(cz_cuda_g1_fixed_base(ctx, serial ? q1 : p1, sc, n), CZ_OK);
        cz_cuda_ctx_destroy(ctx);
        ctx = cz_test_cuda_ctx(19);
        assert_int_equal(cz_cuda_g2_fixed_base(ctx, serial ? q2 : p2, sc, n), CZ_OK);
        cz_cuda_ctx_destroy(ctx);
        unsetenv("CUZK_GPU_FB_SERIAL");
    }
    assert_memory_equal(p1, q1, n * sizeof *p1);
    assert_memory_equal(p2, q2, n * sizeof *p2);
    free(q1);
    free(q2);
    cz_g1_affine g1, d1;
    cz_g2_affine g2, d2;
    cz_g1_generator(&g1);
    cz_g2_generator(&g2);
    ref_g1(&d1, &d);
    ref_g2(&d2, &d);
    cz_g1_jac_from_affine(&j1[0], &g1);
    cz_g1_jac_mul(&j1[0], &j1[0], &sc[0]);
    cz_g2_jac_from_affine(&j2[0], &g2);
    cz_g2_jac_mul(&j2[0], &j2[0], &sc[0]);
    for (size_t i = 1; i < n; i++) {
        cz_g1_jac_add_affine(&j1[i], &j1[i - 1], &d1);
        cz_g2_jac_add_affine(&j2[i], &j2[i - 1], &d2);
    }
    cz_g1_jac_batch_to_affine(r1, j1, n);
    cz_g2_jac_batch_to_affine(r2, j2, n);
    for (size_t i = 0; i < n; i++) {
        if (memcmp(&r1[i], &p1[i], sizeof *r1))
            fail_msg("G1 fixed base (chunked) differs at %zu of %zu", i, n);
        if (memcmp(&r2[i], &p2[i], sizeof *r2))
            fail_msg("G2 fixed base (chunked) differs at %zu of %zu", i, n);
    }
    printf("# %zu G1 and G2 points through 10 / 19 MiB arenas, pipelined and serial: equal to the running sums\n", n);
    free(sc);
    free(p1);
    free(r1);
    free(p2);
    free(r2);
    free(j1);
    free(j2);
}

/* the "cuda" backend (bounded arena: several backends live at once) */
static cz_backend *gpu_be_arena(const char *resident, const char *arena_mb)
{
    if (resident)
        setenv("CUZK_GPU_RESIDENT", resident, 1);
    else
        unsetenv("CUZK_GPU_RESIDENT");
    setenv("CUZK_GPU_ARENA_MB", arena_mb, 1);
    cz_backend *be = NULL;
    char err[512];
    cz_status st = cz_backend_create(&be, "cuda", 2, err, sizeof err);
    unsetenv("CUZK_GPU_RESIDENT");
    unsetenv("CUZK_GPU_ARENA_MB");
    if (st != CZ_OK)
        fail_msg("cuda backend: %s", err);
    return be;
}

static cz_backend *gpu_be(const char *resident) { return gpu_be_arena(resident, "4096"); }

static void test_backend_hooks(void **state)
{
    (void)state;
    enum { N = 3000 };
    cz_fr *sc = malloc(N * sizeof *sc);
    cz_g1_affine *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    cz_g2_affine *c = malloc(N * sizeof *c), *d = malloc(N * sizeof *d);
    assert_true(sc && a && b && c && d);
    for (int i = 0; i < N; i++)
        cz_fr_random(&sc[i], &g_rng);
    cz_fr_zero(&sc[17]);
    cz_backend *be = gpu_be(NULL);
    assert_non_null(be->fixed_base_g1);
    assert_non_null(be->fixed_base_g2);
    assert_int_equal(be->fixed_base_g1(be, a, sc, N), CZ_OK);
    assert_int_equal(be->fixed_base_g2(be, c, sc, N), CZ_OK);
    assert_int_equal(cz_fixed_base_g1(b, sc, N, NULL), CZ_OK);
    assert_int_equal(cz_fixed_base_g2(d, sc, N, NULL), CZ_OK);
    assert_memory_equal(a, b, N * sizeof *a);
    assert_memory_equal(c, d, N * sizeof *c);
    cz_backend_destroy(be);
    free(sc);
    free(a);
    free(b);
    free(c);
    free(d);
}

/* ---- compact a/b/c ---- */

/* a random compact matrix: n_rows rows of 0..6 terms (some rows empty)
   and, one in 24, a long row (16..315 terms: one thread's row, or a warp's
   at the device, next to short ones in its warp), columns ascending below
   n_w, indices below n_coefs */
static void cmat_random(cz_cmat *m, uint32_t n_rows, uint32_t n_w, uint32_t n_coefs)
{
    memset(m, 0, sizeof *m);
    m->n_rows = n_rows;
    const size_t cap = (size_t)n_rows * 20 + 320;
    m->row_ptr = malloc(((size_t)n_rows + 1) * sizeof *m->row_ptr);
    m->col = malloc(cap * sizeof *m->col);
    m->coef = malloc(cap * sizeof *m->coef);
    assert_true(m->row_ptr && m->col && m->coef);
    uint64_t k = 0;
    m->row_ptr[0] = 0;
    for (uint32_t i = 0; i < n_rows; i++) {
        unsigned t = (unsigned)(cz_rng_u64(&g_rng) % 7);
        uint32_t step = n_w / 8 + 1;
        if (cz_rng_u64(&g_rng) % 24 == 0 && k + 316 <= (uint64_t)i * 16 + 320) {
            t = 16 + (unsigned)(cz_rng_u64(&g_rng) % 300);
            step = n_w / (2 * t) + 1;
        }
        uint32_t c = 0;
        for (unsigned j = 0; j < t && c < n_w; j++) {
            c += (uint32_t)(cz_rng_u64(&g_rng) % step);
            if (c >= n_w)
                break;
            m->col[k] = c++;
            m->coef[k] = (uint16_t)(cz_rng_u64(&g_rng) % n_coefs);
            k++;
        }
        m->row_ptr[i + 1] = k;
    }
    m->nnz = k;
}

static void cmat_drop(cz_cmat *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->coef);
    memset(m, 0, sizeof *m);
}

static void host_eval(cz_fr *out, const cz_cmat *m, const cz_fr *coefs, const cz_fr *w, size_t rows)
{
    for (size_t i = 0; i < rows; i++) {
        cz_fr_zero(&out[i]);
        if (i >= m->n_rows)
            continue;
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            cz_fr p;
            cz_fr_mul(&p, &coefs[m->coef[k]], &w[m->col[k]]);
            cz_fr_add(&out[i], &out[i], &p);
        }
    }
}

static void compact_case(cz_cuda_ctx *ctx, uint32_t n_coefs, size_t rows, uint32_t na, uint32_t nb,
                         uint32_t n_w)
{
    cz_fr *coefs = malloc((size_t)n_coefs * sizeof *coefs), *w = malloc((size_t)n_w * sizeof *w);
    cz_fr *abc = malloc(6 * rows * sizeof *abc);
    assert_true(coefs && w && abc);
    for (uint32_t i = 0; i < n_coefs; i++)
        cz_fr_random(&coefs[i], &g_rng);
    if (n_coefs > 1)
        cz_fr_one(&coefs[1]);
    for (uint32_t i = 0; i < n_w; i++) {
        uint64_t r = cz_rng_u64(&g_rng) % 4; /* mostly 0 and 1, as PoRep's witnesses */
        if (r < 2)
            cz_fr_set_u64(&w[i], r);
        else
            cz_fr_random(&w[i], &g_rng);
    }
    cz_cmat ma, mb;
    cmat_random(&ma, na, n_w, n_coefs);
    cmat_random(&mb, nb, n_w, n_coefs);
    cz_fr *a = abc, *b = abc + rows, *c = abc + 2 * rows;
    cz_fr *ra = abc + 3 * rows, *rb = abc + 4 * rows, *rc = abc + 5 * rows;
    memset(abc, 0xa5, 3 * rows * sizeof *abc); /* stale values must be overwritten */
    cz_status st = cz_cuda_eval_abc_compact(ctx, a, b, c, &ma, &mb, coefs, n_coefs, w, n_w, rows);
    if (st != CZ_OK)
        fail_msg("compact a/b/c: %s", cz_cuda_ctx_error(ctx));
    host_eval(ra, &ma, coefs, w, rows);
    host_eval(rb, &mb, coefs, w, rows);
    for (size_t i = 0; i < rows; i++)
        cz_fr_mul(&rc[i], &ra[i], &rb[i]);
    assert_memory_equal(a, ra, rows * sizeof *a);
    assert_memory_equal(b, rb, rows * sizeof *b);
    assert_memory_equal(c, rc, rows * sizeof *c);
    printf("# compact a/b/c: %zu rows (A %u, B %u), %llu + %llu terms, %u coefficients: equal\n",
           rows, na, nb, (unsigned long long)ma.nnz, (unsigned long long)mb.nnz, n_coefs);
    /* inconsistent input: a column past w, an index past the table, more
       matrix rows than rows */
    if (ma.nnz) {
        uint32_t col = ma.col[0];
        ma.col[0] = n_w;
        assert_int_equal(cz_cuda_eval_abc_compact(ctx, a, b, c, &ma, &mb, coefs, n_coefs, w, n_w,
                                                  rows), CZ_ERR_ARG);
        ma.col[0] = col;
        if (n_coefs < 65536) {
            uint16_t k = ma.coef[0];
            ma.coef[0] = (uint16_t)n_coefs;
            assert_int_equal(cz_cuda_eval_abc_compact(ctx, a, b, c, &ma, &mb, coefs, n_coefs, w,
                                                      n_w, rows), CZ_ERR_ARG);
            ma.coef[0] = k;
        }
    }
    assert_int_equal(cz_cuda_eval_abc_compact(ctx, a, b, c, &ma, &mb, coefs, n_coefs, w, n_w,
                                              na - 1), CZ_ERR_ARG);
    cmat_drop(&ma);
    cmat_drop(&mb);
    free(coefs);
    free(w);
    free(abc);
}

static void test_compact_eval(void **state)
{
    (void)state;
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(512);
    compact_case(ctx, 3, 1000, 1000, 700, 500);           /* the table in shared memory */
    compact_case(ctx, 1024, 4096, 3000, 4096, 3000);     /* the largest shared table */
    compact_case(ctx, 2000, 5000, 4100, 3900, 2000);     /* from global memory */
    compact_case(ctx, 65536, 3000, 2500, 3000, 70000);   /* every index valid */
    setenv("CUZK_ABC_COOP", "0", 1); /* long rows by one thread too (the device's A/B knob) */
    compact_case(ctx, 2000, 5000, 4100, 3900, 2000);
    unsetenv("CUZK_ABC_COOP");
    cz_cuda_ctx_destroy(ctx);
}

static void test_gather(void **state)
{
    (void)state;
    enum { NIN = 5000, N = 3333 };
    cz_fr *in = malloc(NIN * sizeof *in), *out = malloc(N * sizeof *out);
    uint32_t *idx = malloc(N * sizeof *idx);
    assert_true(in && out && idx);
    for (int i = 0; i < NIN; i++)
        cz_fr_random(&in[i], &g_rng);
    for (int k = 0; k < N; k++)
        idx[k] = (uint32_t)(cz_rng_u64(&g_rng) % NIN);
    idx[0] = 0;
    idx[N - 1] = NIN - 1;
    cz_cuda_ctx *ctx = cz_test_cuda_ctx(64);
    cz_cuda_buf bi, bx, bo;
    assert_int_equal(cz_cuda_buf_alloc(ctx, &bi, NIN * sizeof *in), CZ_OK);
    assert_int_equal(cz_cuda_buf_alloc(ctx, &bx, N * sizeof *idx), CZ_OK);
    assert_int_equal(cz_cuda_buf_alloc(ctx, &bo, N * sizeof *out), CZ_OK);
    assert_int_equal(cz_cuda_upload(ctx, &bi, 0, in, NIN * sizeof *in), CZ_OK);
    assert_int_equal(cz_cuda_upload(ctx, &bx, 0, idx, N * sizeof *idx), CZ_OK);
    assert_int_equal(cz_cuda_gather_dev(ctx, &bo, &bi, &bx, N), CZ_OK);
    assert_int_equal(cz_cuda_download(ctx, out, &bo, 0, N * sizeof *out), CZ_OK);
    for (int k = 0; k < N; k++)
        if (memcmp(&out[k], &in[idx[k]], sizeof *out))
            fail_msg("gather differs at %d", k);
    assert_int_equal(cz_cuda_gather_dev(ctx, &bo, &bi, &bx, N + 1), CZ_ERR_ARG);
    cz_cuda_buf_free(ctx, &bo);
    cz_cuda_buf_free(ctx, &bx);
    cz_cuda_buf_free(ctx, &bi);
    cz_cuda_ctx_destroy(ctx);
    free(in);
    free(out);
    free(idx);
}

/* ---- keys ---- */

/* prove on be and on the CPU with the same r, s: same bytes, verified */
static void prove_both(const cz_zkey *key, const cz_fr *w, cz_backend *be, const char *tier,
                       const cz_fr rs[2], cz_proof *out)
{
    char err[512];
    cz_proof pg, pc;
    cz_prove_timings tg, tc;
    cz_status st = cz_groth16_prove(&pg, key, w, be, rs, &tg, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("GPU prove: %s", err);
    st = cz_groth16_prove(&pc, key, w, g_cpu, rs, &tc, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("CPU prove: %s", err);
    printf("# %s key, 2^%u, %u signals, %u in B: tier %s, GPU %.1f ms (abc %.1f, ntt %.1f, msm "
           "%.1f), CPU %.1f ms\n",
           key->compact ? "compact" : "CSR", key->log_n, key->n_vars,
           key->b_idx ? key->n_b : key->n_vars, tg.tier, tg.total_ms, tg.eval_abc_ms, tg.ntt_ms,
           tg.msm_ms, tc.total_ms);
    if (tier)
        assert_string_equal(tg.tier, tier);
    if (memcmp(&pg, &pc, sizeof pg))
        fail_msg("GPU proof differs from the CPU proof (%s key, tier %s)",
                 key->compact ? "compact" : "CSR", tg.tier);
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, key), CZ_OK);
    st = cz_groth16_verify(vk, w + 1, key->n_public, &pg, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("the proof does not verify: %s", err);
    cz_vk_free(vk);
    if (out)
        *out = pg;
}

static void test_fixture_compact(void **state)
{
    (void)state;
    char err[512];
    cz_zkey *key;
    cz_fr *w;
    uint32_t nw;
    cz_test_key_witness(&key, &w, &nw, "tests/fixtures/small.zkey", "tests/fixtures/small.wtns");
    cz_fr rs[2];
    cz_fr_random(&rs[0], &g_rng);
    cz_fr_random(&rs[1], &g_rng);
    cz_backend *be = gpu_be(NULL);
    cz_proof p1, p2, p3;
    prove_both(key, w, be, "resident", rs, &p1);
    assert_int_equal(cz_zkey_compact(key, err, sizeof err), CZ_OK);
    assert_true(key->compact);
    prove_both(key, w, be, "resident", rs, &p2); /* the CSR copy on the GPU is replaced */
    prove_both(key, w, be, "resident", rs, &p3); /* the compact copy is reused */
    assert_memory_equal(&p1, &p2, sizeof p1);
    assert_memory_equal(&p1, &p3, sizeof p1);
    cz_backend_destroy(be);
    be = gpu_be("0");
    prove_both(key, w, be, "streamed", rs, NULL);
    cz_backend_destroy(be);
    cz_wtns_free(w, nw);
    cz_zkey_free(key);
}

/* The streamed tier of a compact key (CUZK_GPU_RESIDENT=0) over an arena
   that holds none of the points beside an MSM's scratch at once: the
   matrices go in parts of rows (CUZK_GPU_STREAM_ROWS), the points in
   chunks (the arena alone, then CUZK_GPU_STREAM_POINTS with the copies
   beside the MSMs and before them); every proof equals the CPU's, the
   sums equal the resident tier's (ref) and the witness crosses twice,
   packed, however many MSMs and chunks there are. */
static void streamed_mini(const cz_zkey *k, const cz_fr *w, const cz_fr rs[2], const cz_msm_sums *ref,
                          uint64_t packed)
{
    /* the model's MSM of 2^17 G1 points takes ~140 MiB of scratch, the
       GPU's a little more */
    const char *arena = cz_cuda_is_model() ? "192" : "512";
    const char *points[] = {NULL, "20000", "20000"};
    size_t nv = k->n_vars, np = k->n_public, nb = k->n_b, n = k->domain_size;
    uint64_t pts = (uint64_t)(nv + nb + (nv - np - 1) + n) * sizeof(cz_g1_affine) +
                   (uint64_t)nb * sizeof(cz_g2_affine);
    uint64_t mats = (uint64_t)(k->ca.nnz + k->cb.nnz) * 6 + (uint64_t)k->n_coefs * sizeof(cz_fr) +
                    (uint64_t)nb * 4;
    for (int run = 0; run < 3; run++) {
        setenv("CUZK_GPU_STREAM_ROWS", "50000", 1);
        if (points[run])
            setenv("CUZK_GPU_STREAM_POINTS", points[run], 1);
        if (run == 2)
            setenv("CUZK_GPU_STREAM_SERIAL", "1", 1);
        cz_backend *be = gpu_be_arena("0", arena);
        unsigned long c0 = cz_cuda_stream_chunks();
        prove_both(k, w, be, "streamed", rs, NULL);
        unsigned long chunks = cz_cuda_stream_chunks() - c0;
        cz_msm_sums s;
        cz_core_timings ct;
        memset(&ct, 0, sizeof ct);
        assert_int_equal(be->prove_core(be, k, w, NULL, &s, &ct), CZ_OK);
        assert_string_equal(ct.tier, "streamed");
        assert_true(cz_g1_jac_eq(&s.a, &ref->a) && cz_g1_jac_eq(&s.b1, &ref->b1) &&
                    cz_g2_jac_eq(&s.b2, &ref->b2) && cz_g1_jac_eq(&s.c, &ref->c) &&
                    cz_g1_jac_eq(&s.h, &ref->h));
        /* the row pointers of each part besides the points, the matrices'
           entries, the table, b_idx and the packed witness twice */
        uint64_t rest = ct.h2d_bytes - pts - mats;
        printf("# porep-mini streamed through a %s MiB arena (points a chunk: %s%s): %lu MSM "
               "chunks, %llu bytes sent (points %llu, matrices %llu, witness and row pointers "
               "%llu)\n",
               arena, points[run] ? points[run] : "as the arena allows",
               run == 2 ? ", copies before the MSMs" : "", chunks,
               (unsigned long long)ct.h2d_bytes, (unsigned long long)pts,
               (unsigned long long)mats, (unsigned long long)rest);
        assert_true(ct.h2d_bytes > pts + mats);
        assert_true(rest >= 2 * packed);
        if (cz_cuda_is_model()) /* no chunk copied twice (an MSM short of scratch, retried) */
            assert_true(rest <= 2 * packed + ((uint64_t)k->ca.n_rows + k->cb.n_rows + 64) * 8);
        else
            assert_true(rest < nv * sizeof(cz_fr));
        /* five MSMs, in the model's arena some of them in several chunks
           (the GPU's MSM scratch is not the model's: there the cap does it) */
        assert_true(cz_cuda_is_model() || points[run] ? chunks > 5 : chunks >= 5);
        if (points[run]) /* A alone: ceil(nv / 20000) */
            assert_true(chunks >= (nv + 19999) / 20000 + 4);
        cz_backend_destroy(be);
        unsetenv("CUZK_GPU_STREAM_ROWS");
        unsetenv("CUZK_GPU_STREAM_POINTS");
        unsetenv("CUZK_GPU_STREAM_SERIAL");
    }
}

static void test_porep_mini(void **state)
{
    (void)state;
    char err[512];
    cz_test_porep t;
    cz_test_porep_make(&t, "porep-mini", &g_rng);
    const cz_fr *w = t.w;
    cz_status st;
    cz_setup_opts o = {.seeded = true, .seed = t.seed, .threads = 2};
    cz_backend *be = gpu_be(NULL);
    cz_zkey *kg, *kc;
    st = cz_zkey_from_shape(&kc, t.shape, &o, NULL, err, sizeof err);
    if (st)
        fail_msg("key from shape on the CPU: %s", err);
    /* a quick run (the sanitizers, over the model's slow fixed base)
       proves with the CPU's key only */
    kg = NULL;
    if (cz_test_full()) {
        st = cz_zkey_from_shape(&kg, t.shape, &o, be, err, sizeof err);
        if (st)
            fail_msg("key from shape on the GPU: %s", err);
        assert_true(kg->compact);
        assert_memory_equal(kg->a, kc->a, kg->n_vars * sizeof *kg->a);
        assert_int_equal(kg->n_b, kc->n_b);
        assert_memory_equal(kg->b1, kc->b1, kg->n_b * sizeof *kg->b1);
        assert_memory_equal(kg->b2, kc->b2, kg->n_b * sizeof *kg->b2);
        assert_memory_equal(kg->c, kc->c, (kg->n_vars - kg->n_public - 1) * sizeof *kg->c);
        assert_memory_equal(kg->h, kc->h, kg->domain_size * sizeof *kg->h);
        assert_memory_equal(kg->ic, kc->ic, (kg->n_public + 1) * sizeof *kg->ic);
        assert_memory_equal(&kg->delta2, &kc->delta2, sizeof kg->delta2);
    } else {
        kg = kc;
        kc = NULL;
    }
    printf("# porep-mini: %u wires, %u in B, A %u rows, B %u rows, domain %u, %u coefficients\n",
           kg->n_vars, kg->n_b, kg->ca.n_rows, kg->cb.n_rows, kg->domain_size, kg->n_coefs);
    cz_fr rs[2];
    cz_fr_random(&rs[0], &g_rng);
    cz_fr_random(&rs[1], &g_rng);
    cz_proof pr, pf;
    prove_both(kg, w, be, "resident", rs, &pr);
    prove_both(kg, w, be, "resident", rs, NULL);
    /* C folded into the key: the same proof, resident and streamed */
    cz_setup_opts of = o;
    of.fold_c = true;
    cz_zkey *kf;
    st = cz_zkey_from_shape(&kf, t.shape, &of, NULL, err, sizeof err);
    if (st)
        fail_msg("folded key from shape: %s", err);
    assert_non_null(kf->cpub);
    prove_both(kf, w, be, "resident", rs, &pf);
    assert_memory_equal(&pr, &pf, sizeof pr);
    cz_backend *bs = gpu_be("0");
    prove_both(kf, w, bs, "streamed", rs, &pf);
    assert_memory_equal(&pr, &pf, sizeof pr);
    cz_backend_destroy(bs);
    cz_zkey_free(kf);
    /* the witness crosses packed (a bitmap of the 1s and the other
       values): far fewer bytes than n_vars values; CUZK_GPU_WITNESS=full
       sends it whole, and both give the same sums */
    cz_msm_sums s1, s2;
    cz_core_timings ct;
    memset(&ct, 0, sizeof ct);
    assert_int_equal(be->prove_core(be, kg, w, NULL, &s1, &ct), CZ_OK);
    uint64_t whole = (uint64_t)kg->n_vars * sizeof(cz_fr);
    printf("# porep-mini witness to the GPU: %llu bytes packed, %llu whole\n",
           (unsigned long long)ct.h2d_bytes, (unsigned long long)whole);
    assert_true(ct.h2d_bytes > 0 && ct.h2d_bytes < whole / 4);
    uint64_t packed = ct.h2d_bytes;
    setenv("CUZK_GPU_WITNESS", "full", 1);
    memset(&ct, 0, sizeof ct);
    assert_int_equal(be->prove_core(be, kg, w, NULL, &s2, &ct), CZ_OK);
    unsetenv("CUZK_GPU_WITNESS");
    assert_int_equal(ct.h2d_bytes, whole);
    assert_true(cz_g1_jac_eq(&s1.a, &s2.a) && cz_g1_jac_eq(&s1.b1, &s2.b1) &&
                cz_g2_jac_eq(&s1.b2, &s2.b2) && cz_g1_jac_eq(&s1.c, &s2.c) &&
                cz_g1_jac_eq(&s1.h, &s2.h));
    /* packed by the caller (the daemon's witness stage): the same bytes
       cross and the same sums come back; a packed form of another w is
       not used (the backend packs this one itself) */
    cz_wit_packed pw;
    assert_true(cz_wit_pack(&pw, w, kg->n_vars, NULL));
    assert_int_equal(cz_wit_packed_bytes(&pw), packed);
    memset(&ct, 0, sizeof ct);
    assert_int_equal(be->prove_core(be, kg, w, &pw, &s2, &ct), CZ_OK);
    assert_int_equal(ct.h2d_bytes, packed);
    assert_true(cz_g1_jac_eq(&s1.a, &s2.a) && cz_g1_jac_eq(&s1.h, &s2.h) &&
                cz_g2_jac_eq(&s1.b2, &s2.b2));
    cz_fr *w2 = malloc((size_t)kg->n_vars * sizeof *w2);
    assert_non_null(w2);
    memcpy(w2, w, (size_t)kg->n_vars * sizeof *w2);
    pw.w = w2; /* as if packed from another buffer, and its bits lost: not to be used */
    memset(pw.bits, 0, (kg->n_vars + 31) / 32 * sizeof *pw.bits);
    memset(&ct, 0, sizeof ct);
    assert_int_equal(be->prove_core(be, kg, w, &pw, &s2, &ct), CZ_OK);
    assert_int_equal(ct.h2d_bytes, packed);
    assert_true(cz_g1_jac_eq(&s1.a, &s2.a) && cz_g1_jac_eq(&s1.c, &s2.c) &&
                cz_g1_jac_eq(&s1.h, &s2.h));
    pw.w = w;
    cz_wit_packed_free(&pw);
    free(w2);
    cz_backend_destroy(be);
    be = gpu_be("0");
    prove_both(kg, w, be, "streamed", rs, NULL);
    cz_backend_destroy(be);
    streamed_mini(kg, w, rs, &s1, packed);
    cz_zkey_free(kg);
    cz_zkey_free(kc);
    cz_test_porep_free(&t);
}

/* Model only: a failure injected at device call k of a compact key's
   first proof (resident; streamed, in parts and chunks) and of a
   fixed-base call, for every k: out of
   memory never fails them (streamed steps, or the CPU's fixed base); an
   error or a sticky fault fails that call cleanly, and the next ones on
   the same backend are right. */
static void test_model_failures(void **state)
{
    (void)state;
    if (!cz_cuda_is_model()) {
        printf("# (the host model of the device only)\n");
        return;
    }
    char err[512];
    cz_zkey *key;
    cz_fr *w;
    uint32_t nw;
    cz_test_key_witness(&key, &w, &nw, "tests/fixtures/small.zkey", "tests/fixtures/small.wtns");
    assert_int_equal(cz_zkey_compact(key, err, sizeof err), CZ_OK);
    cz_fr rs[2];
    cz_fr_random(&rs[0], &g_rng);
    cz_fr_random(&rs[1], &g_rng);
    cz_proof ref, p;
    assert_int_equal(cz_groth16_prove(&ref, key, w, g_cpu, rs, NULL, err, sizeof err), CZ_OK);
    enum { NF = 300 };
    cz_fr sc[NF];
    cz_g1_affine f1[NF], r1[NF];
    for (int i = 0; i < NF; i++)
        cz_fr_random(&sc[i], &g_rng);
    assert_int_equal(cz_fixed_base_g1(r1, sc, NF, NULL), CZ_OK);
    const struct {
        cz_status st;
        bool sticky;
        const char *name;
    } kinds[] = {{CZ_ERR_NOMEM, false, "out of memory"},
                 {CZ_ERR_DEVICE, false, "a device error"},
                 {CZ_ERR_DEVICE, true, "a sticky fault"}};
    /* resident, then streamed in parts of 40 rows and chunks of 32 points
       (the fixture has 113 wires, 2^7 rows) */
    for (int tier = 0; tier < 2; tier++) {
        const char *res = tier ? "0" : NULL;
        if (tier) {
            setenv("CUZK_GPU_STREAM_POINTS", "32", 1);
            setenv("CUZK_GPU_STREAM_ROWS", "40", 1);
        }
        for (size_t f = 0; f < sizeof kinds / sizeof *kinds; f++) {
            cz_backend *be = gpu_be(res);
            unsigned long c0 = cz_cuda_model_calls();
            assert_int_equal(cz_groth16_prove(&p, key, w, be, rs, NULL, err, sizeof err), CZ_OK);
            unsigned long calls = cz_cuda_model_calls() - c0;
            c0 = cz_cuda_model_calls();
            assert_int_equal(be->fixed_base_g1(be, f1, sc, NF), CZ_OK);
            unsigned long fcalls = cz_cuda_model_calls() - c0;
            cz_backend_destroy(be);
            int failed = 0;
            for (unsigned long k = 1; k <= calls + fcalls; k++) {
                bool fb = k > calls; /* the fixed base's calls after the proof's */
                be = gpu_be(res);
                assert_int_equal(cz_cuda_model_fail_after(fb ? k - calls : k, kinds[f].st,
                                                          kinds[f].sticky), CZ_OK);
                cz_prove_timings tm;
                memset(f1, 0, sizeof f1);
                cz_status st = fb ? be->fixed_base_g1(be, f1, sc, NF)
                                  : cz_groth16_prove(&p, key, w, be, rs, &tm, err, sizeof err);
                cz_cuda_model_fail_after(0, CZ_OK, false);
                if (st == CZ_OK) {
                    if (fb ? memcmp(f1, r1, sizeof f1) != 0 : memcmp(&p, &ref, sizeof p) != 0)
                        fail_msg("%s at call %lu: the %s differs from the CPU's", kinds[f].name, k,
                                 fb ? "fixed base" : "proof");
                } else {
                    failed++;
                    if (kinds[f].st == CZ_ERR_NOMEM || st != CZ_ERR_DEVICE)
                        fail_msg("%s at call %lu: %s (%s)", kinds[f].name, k, cz_strerror(st),
                                 fb ? "fixed base" : err);
                }
                /* the backend carries on */
                st = cz_groth16_prove(&p, key, w, be, rs, &tm, err, sizeof err);
                if (st != CZ_OK || memcmp(&p, &ref, sizeof p) != 0)
                    fail_msg("%s at call %lu: the next proof: %s (%s)", kinds[f].name, k,
                             cz_strerror(st), err);
                memset(f1, 0, sizeof f1);
                assert_int_equal(be->fixed_base_g1(be, f1, sc, NF), CZ_OK);
                assert_memory_equal(f1, r1, sizeof f1);
                cz_backend_destroy(be);
            }
            printf("# %s at each of the %lu device calls of a compact key's first %s proof and the "
                   "%lu of a fixed base: %d failed cleanly, the rest were right\n",
                   kinds[f].name, calls, tier ? "streamed (chunked)" : "resident", fcalls, failed);
            if (kinds[f].st != CZ_ERR_NOMEM && failed == 0)
                fail_msg("%s: no injected failure reached a call", kinds[f].name);
        }
    }
    unsetenv("CUZK_GPU_STREAM_POINTS");
    unsetenv("CUZK_GPU_STREAM_ROWS");
    cz_wtns_free(w, nw);
    cz_zkey_free(key);
}

int main(void)
{
    int skip = cz_test_gpu_setup(&g_cpu); /* no GPU: 77 */
    if (skip)
        return skip;
    cz_test_rng(&g_rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_base_edges),
        cmocka_unit_test(test_fixed_base_chunks),
        cmocka_unit_test(test_backend_hooks),
        cmocka_unit_test(test_compact_eval),
        cmocka_unit_test(test_gather),
        cmocka_unit_test(test_fixture_compact),
        cmocka_unit_test(test_porep_mini),
        cmocka_unit_test(test_model_failures),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_backend_destroy(g_cpu);
    return rc;
}
