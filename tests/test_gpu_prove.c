/* ctest: labels=gpu timeout=600 */
/*
 * test_gpu_prove.c: Groth16 proofs on the GPU against the CPU prover, the
 * oracle: with the same blinding r, s both must give the same proof bytes,
 * and the proof must verify. Keys: the committed snarkjs fixture and
 * synthetic circuits made at test time (cuzk-synth + cuzk setup) of
 * 2^10 .. 2^16 constraints. Each GPU tier is exercised: "resident" (the
 * key copied to the GPU once, then reused: the second proof takes the
 * cached copy), "streamed" (CUZK_GPU_RESIDENT=0), and a key that does not
 * fit a small arena (CUZK_GPU_ARENA_MB), which must fall back to the
 * streamed tier and still prove right, and the streamed tier in chunks of
 * 3000 points (their copies beside the MSMs, then before them), which
 * must run them in as many chunks. Skips (77) without a GPU.
 *
 * Over the host model of the device (-DCUZK_CUDA=MODEL) two more tests
 * run: a failure injected at each device call of a proof in turn (out of
 * memory: the proof must still come out right, by the streamed tier or
 * the CPU; an error or a sticky fault: that proof fails cleanly and the
 * next ones are right), resident, streamed and streamed in chunks of 40
 * points, and a device that does not come back after a
 * reset (the backend proves on the CPU).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cuda.h"
#include "groth16/groth16.h"

typedef struct {
    cz_zkey *key;
    cz_fr *w;
    uint32_t nw;
    cz_vk *vk;
} circuit;

static void load(circuit *c, const char *zkey, const char *wtns)
{
    char err[512];
    assert_int_equal(cz_zkey_load(&c->key, zkey, 0, err, sizeof err), CZ_OK);
    size_t len;
    uint8_t *b = cz_test_read_file(wtns, &len);
    assert_non_null(b);
    assert_int_equal(cz_wtns_parse(&c->w, &c->nw, b, len, wtns, c->key->n_vars, err, sizeof err),
                     CZ_OK);
    free(b);
    assert_int_equal(cz_vk_from_zkey(&c->vk, c->key), CZ_OK);
}

/* the committed snarkjs fixture */
static void load_fixture(circuit *c)
{
    char zk[1024], wt[1024];
    snprintf(zk, sizeof zk, "%s", cz_test_src_path("tests/fixtures/small.zkey"));
    snprintf(wt, sizeof wt, "%s", cz_test_src_path("tests/fixtures/small.wtns"));
    load(c, zk, wt);
}

static void unload(circuit *c)
{
    cz_vk_free(c->vk);
    cz_wtns_free(c->w, c->nw);
    cz_zkey_free(c->key);
}

/* the GPU backend with the given environment knobs (NULL: unset) */
static cz_backend *gpu(const char *resident, const char *arena_mb)
{
    if (resident)
        setenv("CUZK_GPU_RESIDENT", resident, 1);
    else
        unsetenv("CUZK_GPU_RESIDENT");
    /* several backends live at once here: each takes a bounded arena */
    setenv("CUZK_GPU_ARENA_MB", arena_mb ? arena_mb : "8192", 1);
    cz_backend *be = NULL;
    char err[512];
    cz_status st = cz_backend_create(&be, "cuda", 4, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("cuda backend: %s", err);
    unsetenv("CUZK_GPU_RESIDENT");
    unsetenv("CUZK_GPU_ARENA_MB");
    return be;
}

/* prove on `be` and on the CPU with the same r, s; compare; verify */
static void check(const circuit *c, cz_backend *be, cz_backend *cpu, const char *tier,
                  cz_rng *rng)
{
    char err[512];
    cz_fr rs[2];
    cz_fr_random(&rs[0], rng);
    cz_fr_random(&rs[1], rng);
    cz_proof pg, pc;
    cz_prove_timings tg, tc;
    cz_status st = cz_groth16_prove(&pg, c->key, c->w, be, rs, &tg, err, sizeof err);
    if (st != CZ_OK)
        fail_msg("GPU prove: %s", err);
    assert_int_equal(cz_groth16_prove(&pc, c->key, c->w, cpu, rs, &tc, err, sizeof err), CZ_OK);
    printf("# 2^%u, %u signals: tier %s, GPU %.1f ms (upload %.1f, abc %.1f, ntt %.1f, msm %.1f), "
           "CPU %.1f ms\n",
           c->key->log_n, c->key->n_vars, tg.tier, tg.total_ms, tg.upload_ms, tg.eval_abc_ms,
           tg.ntt_ms, tg.msm_ms, tc.total_ms);
    if (tier)
        assert_string_equal(tg.tier, tier);
    if (memcmp(&pg, &pc, sizeof pg) != 0)
        fail_msg("GPU proof differs from the CPU proof (tier %s, 2^%u)", tier, c->key->log_n);
    assert_int_equal(cz_groth16_verify(c->vk, c->w + 1, c->key->n_public, &pg, err, sizeof err),
                     CZ_OK);
}

static cz_backend *g_cpu;
static cz_rng g_rng;

static void test_fixture(void **state)
{
    (void)state;
    circuit c;
    load_fixture(&c);
    cz_backend *be = gpu(NULL, NULL);
    check(&c, be, g_cpu, "resident", &g_rng);
    check(&c, be, g_cpu, "resident", &g_rng); /* the cached copy */
    cz_backend_destroy(be);
    be = gpu("0", NULL);
    check(&c, be, g_cpu, "streamed", &g_rng);
    cz_backend_destroy(be);
    unload(&c);
}

/* a synthetic key of n constraints in dir */
static void make_key(const char *dir, unsigned long n, char *zk, char *wt, size_t cap)
{
    const char *bin = getenv("CZ_BINARY_DIR");
    char r1cs[1024], cmd[8192];
    snprintf(r1cs, sizeof r1cs, "%s/c%lu.r1cs", dir, n);
    snprintf(zk, cap, "%s/c%lu.zkey", dir, n);
    snprintf(wt, cap, "%s/c%lu.wtns", dir, n);
    snprintf(cmd, sizeof cmd,
             "'%s/bin/cuzk-synth' --constraints %lu --seed %lu '%s' '%s' >/dev/null && "
             "'%s/bin/cuzk' setup --quiet --seed 7 '%s' '%s'",
             bin ? bin : ".", n, n, r1cs, wt, bin ? bin : ".", r1cs, zk);
    if (system(cmd) != 0)
        fail_msg("could not make a key: %s", cmd);
}

static void test_synthetic(void **state)
{
    (void)state;
    char dir[] = "/tmp/cz_test_gpu_prove_XXXXXX";
    assert_non_null(mkdtemp(dir));
    cz_backend *res = gpu(NULL, NULL), *str = gpu("0", NULL);
    /* sizes that pick different MSM windows; the last is 2^16 */
    const unsigned long sizes[] = {1000, 4000, 30000, 65000};
    char zk[1024], wt[1024];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        if (sizes[i] == 30000 && !cz_test_full())
            continue; /* a quick run */
        make_key(dir, sizes[i], zk, wt, sizeof zk);
        circuit c;
        load(&c, zk, wt);
        check(&c, res, g_cpu, "resident", &g_rng);
        check(&c, res, g_cpu, "resident", &g_rng);
        check(&c, str, g_cpu, "streamed", &g_rng);
        if (i + 1 == sizeof sizes / sizeof *sizes) {
            /* an arena too small for the key and a proof's scratch: the
               backend must say so and the prover stream the points */
            cz_backend *small = gpu(NULL, "400");
            check(&c, small, g_cpu, "streamed", &g_rng);
            cz_backend_destroy(small);
            /* smaller still: a whole MSM's points and scratch do not fit,
               its halves (or quarters...) do */
            small = gpu(NULL, "124");
            check(&c, small, g_cpu, "streamed", &g_rng);
            cz_backend_destroy(small);
            /* chunks of 3000 points with their scalars, the next one
               copied beside the current MSM, then before it */
            for (int serial = 0; serial < 2; serial++) {
                setenv("CUZK_GPU_STREAM_POINTS", "3000", 1);
                if (serial)
                    setenv("CUZK_GPU_STREAM_SERIAL", "1", 1);
                unsigned long c0 = cz_cuda_stream_chunks();
                check(&c, str, g_cpu, "streamed", &g_rng);
                unsigned long chunks = cz_cuda_stream_chunks() - c0;
                unsetenv("CUZK_GPU_STREAM_POINTS");
                unsetenv("CUZK_GPU_STREAM_SERIAL");
                printf("# streamed in %lu chunks of at most 3000 points%s\n", chunks,
                       serial ? ", copies before the MSMs" : "");
                /* A, B1, B2 and C over n_vars points, H over the domain */
                size_t nv = c.key->n_vars, per = (nv + 2999) / 3000;
                assert_true(chunks >= 3 * per + (c.key->domain_size + 2999) / 3000);
            }
        }
        unload(&c);
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "rm -f '%s'/*", dir);
        (void)!system(cmd);
    }
    cz_backend_destroy(res);
    cz_backend_destroy(str);
    rmdir(dir);
}

/* A sticky device fault (a kernel that traps) fails that proof with
   CZ_ERR_DEVICE and a message; the backend resets the device, and the next
   proofs on the same backend are right again (on the GPU, or on the CPU
   where the device does not come back). */
static void test_fault_recovery(void **state)
{
    (void)state;
    circuit c;
    char err[512];
    load_fixture(&c);
    setenv("CUZK_GPU_INJECT_FAULT", "1", 1); /* armed for the backend's first proof */
    cz_backend *be = gpu(NULL, NULL);
    unsetenv("CUZK_GPU_INJECT_FAULT");
    cz_proof p;
    cz_status st = cz_groth16_prove(&p, c.key, c.w, be, NULL, NULL, err, sizeof err);
    printf("# injected fault: %s (%s)\n", cz_strerror(st), err);
    assert_int_equal(st, CZ_ERR_DEVICE);
    assert_non_null(strstr(err, "cuda"));
    /* then right proofs: on the GPU again after the reset ("resident"), or,
       where the driver does not give the device back to this process, on
       the CPU ("host") */
    check(&c, be, g_cpu, NULL, &g_rng);
    check(&c, be, g_cpu, NULL, &g_rng);
    cz_backend_info bi;
    be->info(be, &bi);
    printf("# after the fault: %s\n", bi.device);
    cz_backend_destroy(be);
    unload(&c);
}

/* Model only: a failure at device call k of a proof, for every k. */
static void sweep(const circuit *c, const char *resident, cz_status kind, bool sticky,
                  const char *name)
{
    char err[512];
    cz_fr rs[2];
    cz_fr_random(&rs[0], &g_rng);
    cz_fr_random(&rs[1], &g_rng);
    cz_proof ref, p;
    assert_int_equal(cz_groth16_prove(&ref, c->key, c->w, g_cpu, rs, NULL, err, sizeof err), CZ_OK);
    /* the calls a first proof makes (key upload included) */
    cz_backend *be = gpu(resident, NULL);
    unsigned long c0 = cz_cuda_model_calls();
    assert_int_equal(cz_groth16_prove(&p, c->key, c->w, be, rs, NULL, err, sizeof err), CZ_OK);
    unsigned long calls = cz_cuda_model_calls() - c0;
    cz_backend_destroy(be);
    int failed = 0;
    for (unsigned long k = 1; k <= calls; k++) {
        be = gpu(resident, NULL);
        cz_prove_timings tm;
        assert_int_equal(cz_cuda_model_fail_after(k, kind, sticky), CZ_OK);
        cz_status st = cz_groth16_prove(&p, c->key, c->w, be, rs, &tm, err, sizeof err);
        cz_cuda_model_fail_after(0, CZ_OK, false);
        if (st == CZ_OK) {
            if (memcmp(&p, &ref, sizeof p) != 0)
                fail_msg("%s at call %lu: the proof (tier %s) differs from the CPU's", name, k, tm.tier);
        } else {
            failed++;
            if (kind == CZ_ERR_NOMEM)
                fail_msg("%s at call %lu: the proof failed: %s", name, k, err);
            if (st != CZ_ERR_DEVICE || !strstr(err, "cuda model"))
                fail_msg("%s at call %lu: %s (%s)", name, k, cz_strerror(st), err);
        }
        /* the backend carries on: the next two proofs are right */
        for (int i = 0; i < 2; i++) {
            st = cz_groth16_prove(&p, c->key, c->w, be, rs, &tm, err, sizeof err);
            if (st != CZ_OK || memcmp(&p, &ref, sizeof p) != 0)
                fail_msg("%s at call %lu: proof %d after it: %s (%s)", name, k, i + 1,
                         cz_strerror(st), err);
        }
        cz_backend_destroy(be);
    }
    printf("# %s at each of the %lu device calls of a %s proof: %d proofs failed cleanly, the "
           "rest were right; every later proof was right\n",
           name, calls,
           !resident                           ? "resident"
           : getenv("CUZK_GPU_STREAM_POINTS") ? "streamed (chunked)"
                                               : "streamed",
           failed);
    if (kind != CZ_ERR_NOMEM && failed == 0)
        fail_msg("%s: no injected failure reached a proof", name);
}

static void test_model_failures(void **state)
{
    (void)state;
    if (!cz_cuda_is_model()) {
        printf("# (the host model of the device only)\n");
        return;
    }
    circuit c;
    load_fixture(&c);
    /* resident; streamed; streamed in chunks of 40 points (113 signals) */
    for (int streamed = 0; streamed < 3; streamed++) {
        const char *res = streamed ? "0" : NULL;
        if (streamed == 2)
            setenv("CUZK_GPU_STREAM_POINTS", "40", 1);
        sweep(&c, res, CZ_ERR_NOMEM, false, "out of memory");
        sweep(&c, res, CZ_ERR_DEVICE, false, "a device error");
        sweep(&c, res, CZ_ERR_DEVICE, true, "a sticky fault");
    }
    unsetenv("CUZK_GPU_STREAM_POINTS");
    unload(&c);
}

/* Model only: after a sticky fault the device does not come back (as on
   the H200 machine): the backend says so and proves on the CPU. Last,
   since the reset it makes lasts for the process. */
static void test_model_device_lost(void **state)
{
    (void)state;
    if (!cz_cuda_is_model()) {
        printf("# (the host model of the device only)\n");
        return;
    }
    circuit c;
    char err[512];
    load_fixture(&c);
    cz_backend *be = gpu(NULL, NULL);
    check(&c, be, g_cpu, "resident", &g_rng);
    setenv("CUZK_GPU_MODEL_RESET", "fail", 1);
    cz_cuda_model_fail_after(1, CZ_ERR_DEVICE, true);
    cz_proof p;
    cz_status st = cz_groth16_prove(&p, c.key, c.w, be, NULL, NULL, err, sizeof err);
    assert_int_equal(st, CZ_ERR_DEVICE);
    check(&c, be, g_cpu, "host", &g_rng);
    check(&c, be, g_cpu, "host", &g_rng);
    cz_backend_info bi;
    be->info(be, &bi);
    printf("# after the device was lost: %s\n", bi.device);
    assert_non_null(strstr(bi.device, "unusable"));
    cz_backend_destroy(be);
    unsetenv("CUZK_GPU_MODEL_RESET");
    unload(&c);
}

int main(void)
{
    int skip = cz_test_gpu_setup(&g_cpu); /* no GPU: 77 */
    if (skip)
        return skip;
    cz_test_rng(&g_rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_fault_recovery),
        cmocka_unit_test(test_model_failures),
        cmocka_unit_test(test_model_device_lost),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_backend_destroy(g_cpu);
    return rc;
}
