/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_daemon_engine.c: the engine behind cuzkd, driven through its C API
 * (engine.h) with the committed snarkjs fixture (small.zkey, small.wtns).
 *
 * DESIGN. The witness queue's cap (engine.witness_queue_per_gpu): many
 * jobs through an engine whose witness workers outnumber its prove
 * workers, and the count of synthesised witnesses waiting for a prove
 * worker, as the engine saw it at its highest (status "witness_queue":
 * "waiting_max"), never above the cap, while every proof comes back and
 * verifies against the fixture's snarkjs verification key (not the
 * engine's own). The cases that could deadlock a cap: cap 1 with many
 * jobs, priorities (a critical job submitted behind many low ones
 * finishes before them), cancellation of queued and waiting jobs, the
 * memory budget's own wait (a budget of about one job), failing witnesses
 * among good ones, a job of many partitions, and the same on the CUDA
 * backend where it is built (over the host model in CI). Every wait has a
 * deadline: a deadlock fails the test instead of hanging it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "backend/cuda.h"
#include "engine/engine.h"
#include "groth16/groth16.h"
#include "groth16/verify_bn254.h"
#include "io/json.h"
#include "test_util.h"

#define AWAIT_MS 120000

static cz_vk *g_vk;
static cz_fr g_pub[4];
static cz_bn254_vk *g_bvk; /* loaded by the first bn128 test */
static cz_bn254_fr g_bpub[4];

static int setup(void **state)
{
    (void)state;
    size_t len;
    uint8_t *t = cz_test_read_file(cz_test_src_path("tests/fixtures/small_vk.json"), &len);
    assert_non_null(t);
    char err[256];
    assert_int_equal(cz_vk_from_json(&g_vk, (const char *)t, len, "small_vk.json", err, sizeof err), CZ_OK);
    free(t);
    t = cz_test_read_file(cz_test_src_path("tests/fixtures/small_public.json"), &len);
    assert_non_null(t);
    cz_fr *pub;
    size_t n;
    assert_int_equal(cz_public_from_json(&pub, &n, (const char *)t, len, "small_public.json", err,
                                         sizeof err),
                     CZ_OK);
    assert_int_equal(n, 4);
    memcpy(g_pub, pub, sizeof g_pub);
    free(pub);
    free(t);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    cz_vk_free(g_vk);
    cz_bn254_vk_free(g_bvk);
    return 0;
}

static cz_engine *engine(const char *device, int workers, int witness_workers, int cap,
                         uint64_t budget)
{
    cz_engine_config c;
    cz_engine_config_default(&c);
    c.device = device;
    c.devices = 1;
    c.workers_per_device = workers;
    c.witness_workers = witness_workers;
    c.witness_queue_per_gpu = cap;
    c.prove_threads = 1;
    c.host_mem_budget = budget;
    cz_engine *e = NULL;
    char err[512] = "";
    cz_status st = cz_engine_create(&e, &c, err, sizeof err);
    if (st)
        print_message("engine on %s: %s\n", device, err);
    assert_int_equal(st, CZ_OK);
    st = cz_engine_key_load(e, "small", cz_test_src_path("tests/fixtures/small.zkey"), err, sizeof err);
    if (st)
        print_message("key: %s\n", err);
    assert_int_equal(st, CZ_OK);
    return e;
}

static void submit(cz_engine *e, const char *wtns, cz_priority prio, char id[24])
{
    cz_job_request r;
    memset(&r, 0, sizeof r);
    r.key_id = "small";
    r.witness_path = wtns;
    r.priority = prio;
    r.origin = CZ_FROM_OPERATOR;
    char err[512] = "";
    size_t pos;
    cz_status st = cz_engine_submit(e, &r, id, &pos, err, sizeof err);
    if (st)
        print_message("submit: %s\n", err);
    assert_int_equal(st, CZ_OK);
}

/* A proof the job returned, checked against the fixture's snarkjs vk and
   public inputs. */
static void check_proof(json_t *proof)
{
    assert_non_null(proof);
    char *text = json_dumps(proof, JSON_COMPACT);
    assert_non_null(text);
    cz_proof p;
    char err[256];
    assert_int_equal(cz_proof_from_json(&p, text, strlen(text), "proof", err, sizeof err), CZ_OK);
    free(text);
    assert_int_equal(cz_groth16_verify(g_vk, g_pub, 4, &p, err, sizeof err), CZ_OK);
}

/* Wait for the job; its final status (a static string), its proof(s)
   verified when done. */
static const char *await_job(cz_engine *e, const char *id)
{
    json_t *o = cz_engine_await(e, id, AWAIT_MS);
    assert_non_null(o);
    const char *s = json_string_value(json_object_get(o, "status"));
    assert_non_null(s);
    static const char *const known[] = {"done", "failed", "cancelled"};
    const char *out = NULL;
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, known[i]))
            out = known[i];
    if (!out)
        print_message("%s still %s after %d ms: deadlock?\n", id, s, AWAIT_MS);
    assert_non_null(out);
    if (!strcmp(out, "done")) {
        json_t *proofs = json_object_get(o, "proofs");
        if (proofs) {
            size_t i;
            json_t *p;
            json_array_foreach(proofs, i, p) check_proof(p);
        } else {
            check_proof(json_object_get(o, "proof"));
        }
    }
    json_decref(o);
    return out;
}

static json_int_t wq(cz_engine *e, const char *field)
{
    json_t *s = cz_engine_status_json(e);
    json_int_t v = json_integer_value(json_object_get(json_object_get(s, "witness_queue"), field));
    assert_non_null(json_object_get(json_object_get(s, "witness_queue"), field));
    json_decref(s);
    return v;
}

/* The metrics page's cuzk_witness_waiting_max. */
static long metric_waiting_max(cz_engine *e)
{
    char *m = cz_engine_metrics_text(e);
    assert_non_null(m);
    const char *p = strstr(m, "\ncuzk_witness_waiting_max ");
    assert_non_null(p);
    long v = strtol(p + strlen("\ncuzk_witness_waiting_max "), NULL, 10);
    assert_non_null(strstr(m, "\ncuzk_witness_waiting "));
    free(m);
    return v;
}

#define NJOBS 48

/* n jobs through an engine of `workers` prove workers and 4 witness
   workers with the cap: all done and verified, the peak within the cap. */
static void run_cap(const char *device, int workers, int cap, int n)
{
    cz_engine *e = engine(device, workers, 4, cap, 0);
    assert_int_equal(wq(e, "cap"), (json_int_t)cap * workers);
    char ids[NJOBS][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < n; i++)
        submit(e, wpath, (cz_priority)(i % CZ_PRIO_COUNT), ids[i]);
    for (int i = 0; i < n; i++)
        assert_string_equal(await_job(e, ids[i]), "done");
    json_int_t max = wq(e, "waiting_max");
    print_message("%s, %d worker(s), cap %d per worker: %d jobs, most waiting %lld, cap waits %lld\n",
                  device, workers, cap, n, (long long)max, (long long)wq(e, "cap_waits"));
    assert_true(max >= 1); /* witnesses did wait: the bound below means something */
    assert_true(max <= (json_int_t)cap * workers);
    assert_int_equal(metric_waiting_max(e), (long)max);
    assert_int_equal(wq(e, "waiting"), 0);
    assert_int_equal(wq(e, "in_progress"), 0);
    cz_engine_destroy(e, 1000);
}

static void test_cap_one_cpu(void **state)
{
    (void)state;
    run_cap("cpu", 1, 1, NJOBS);
}

static void test_cap_two_workers_cpu(void **state)
{
    (void)state;
    run_cap("cpu", 2, 1, NJOBS);
    run_cap("cpu", 1, 2, NJOBS / 2);
}

/* No cap (0): the witnesses run ahead of the one prove worker. */
static void test_no_cap(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 4, 0, 0);
    assert_int_equal(wq(e, "cap"), 0);
    char ids[16][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < 16; i++)
        submit(e, wpath, CZ_PRIO_NORMAL, ids[i]);
    for (int i = 0; i < 16; i++)
        assert_string_equal(await_job(e, ids[i]), "done");
    assert_int_equal(wq(e, "cap_waits"), 0);
    /* witnesses take ~0.1 ms here and proofs ~20: uncapped, the four
       witness workers run ahead (what the capped runs above must not) */
    print_message("no cap: most waiting %lld\n", (long long)wq(e, "waiting_max"));
    assert_true(wq(e, "waiting_max") > 1);
    cz_engine_destroy(e, 1000);
}

/* A critical job behind many low ones with cap 1 finishes while low ones
   are still queued: the cap does not make it wait behind them. */
static void test_cap_priority(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 2, 1, 0);
    char ids[NJOBS][24], crit[24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < NJOBS; i++)
        submit(e, wpath, CZ_PRIO_LOW, ids[i]);
    submit(e, wpath, CZ_PRIO_CRITICAL, crit);
    assert_string_equal(await_job(e, crit), "done");
    int unfinished = 0;
    for (int i = 0; i < NJOBS; i++) {
        json_t *o = cz_engine_await(e, ids[i], 0);
        const char *s = json_string_value(json_object_get(o, "status"));
        unfinished += strcmp(s, "done") != 0;
        json_decref(o);
    }
    print_message("critical job done with %d of %d low jobs unfinished\n", unfinished, NJOBS);
    assert_true(unfinished > NJOBS / 2);
    for (int i = 0; i < NJOBS; i++)
        assert_string_equal(await_job(e, ids[i]), "done");
    assert_true(wq(e, "waiting_max") <= 1);
    cz_engine_destroy(e, 1000);
}

/* Cancel every other job while they are queued, waiting or running; the
   rest complete, and the places of the cancelled ones free up (no
   deadlock with cap 1). */
static void test_cap_cancel(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 3, 1, 0);
    char ids[NJOBS][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < NJOBS; i++)
        submit(e, wpath, CZ_PRIO_NORMAL, ids[i]);
    for (int i = 0; i < NJOBS; i += 2)
        (void)cz_engine_cancel(e, ids[i]); /* CZ_ERR_BUSY when it finished already */
    int done = 0, cancelled = 0;
    for (int i = 0; i < NJOBS; i++) {
        const char *s = await_job(e, ids[i]);
        if (i % 2)
            assert_string_equal(s, "done");
        done += !strcmp(s, "done");
        cancelled += !strcmp(s, "cancelled");
    }
    print_message("cancel: %d done, %d cancelled\n", done, cancelled);
    assert_true(cancelled >= 1);
    assert_true(wq(e, "waiting_max") <= 1);
    assert_int_equal(wq(e, "waiting"), 0);
    assert_int_equal(wq(e, "in_progress"), 0);
    cz_engine_destroy(e, 1000);
}

/* Failing witnesses (a missing file) among good ones: the failures give
   their places back; the good jobs complete. */
static void test_cap_failures(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 3, 1, 0);
    char ids[24][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char good[4096], bad[4200];
    snprintf(good, sizeof good, "%s", w);
    snprintf(bad, sizeof bad, "%s.missing", good);
    for (int i = 0; i < 24; i++)
        submit(e, i % 3 == 0 ? bad : good, CZ_PRIO_NORMAL, ids[i]);
    for (int i = 0; i < 24; i++)
        assert_string_equal(await_job(e, ids[i]), i % 3 == 0 ? "failed" : "done");
    assert_true(wq(e, "waiting_max") <= 1);
    assert_int_equal(wq(e, "in_progress"), 0);
    cz_engine_destroy(e, 1000);
}

/* The memory budget's wait and the cap together: a budget of about one
   job (the key's memory and one job's witness and vectors), cap 1. */
static void test_cap_budget(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 2, 4, 1, 0);
    uint64_t need = 0, room = 0;
    char err[256];
    cz_status st = cz_engine_can_admit(e, "small", &need, &room, err, sizeof err);
    assert_int_equal(st, CZ_OK);
    json_t *s = cz_engine_status_json(e);
    uint64_t keys = (uint64_t)json_integer_value(json_object_get(json_object_get(s, "memory"), "keys"));
    json_decref(s);
    cz_engine_destroy(e, 0);
    e = engine("cpu", 2, 4, 1, keys + need + need / 2);
    char ids[24][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < 24; i++)
        submit(e, wpath, (cz_priority)(i % CZ_PRIO_COUNT), ids[i]);
    for (int i = 0; i < 24; i++)
        assert_string_equal(await_job(e, ids[i]), "done");
    assert_true(wq(e, "waiting_max") <= 2);
    cz_engine_destroy(e, 1000);
}

/* A job of many partitions (one witness each) through cap 1. */
static void test_cap_partitions(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 4, 1, 0);
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    const char *paths[12];
    for (int i = 0; i < 12; i++)
        paths[i] = wpath;
    cz_job_request r;
    memset(&r, 0, sizeof r);
    r.key_id = "small";
    r.witness_paths = paths;
    r.n_partitions = 12;
    r.priority = CZ_PRIO_HIGH;
    r.origin = CZ_FROM_OPERATOR;
    char id[24], id2[24], err[512] = "";
    size_t pos;
    assert_int_equal(cz_engine_submit(e, &r, id, &pos, err, sizeof err), CZ_OK);
    submit(e, wpath, CZ_PRIO_LOW, id2);
    assert_string_equal(await_job(e, id), "done");
    assert_string_equal(await_job(e, id2), "done");
    assert_true(wq(e, "waiting_max") <= 1);
    cz_engine_destroy(e, 1000);
}

/* The same on the CUDA backend (the host model where no GPU is built in
   the test's build; skipped without CUDA). */
static void test_cap_cuda(void **state)
{
    (void)state;
    if (!cz_cuda_built() || cz_cuda_device_count() < 1) {
        print_message("no CUDA device (nor the host model): skipped\n");
        skip();
    }
    run_cap("cuda", 2, 1, 24);
}

/* ---- keys on the GPU at load, and bn128 keys on the GPU ---- */

/* The key's entry in the key list (a new reference), NULL if absent. */
static json_t *key_entry(cz_engine *e, const char *id)
{
    json_t *a = cz_engine_keys_list_json(e), *out = NULL;
    size_t i;
    json_t *k;
    json_array_foreach(a, i, k) if (!strcmp(json_string_value(json_object_get(k, "id")), id))
        out = json_incref(k);
    json_decref(a);
    return out;
}

/* Wait (up to 60 s) for the key's "gpu" to leave "uploading"; its value. */
static const char *await_gpu(cz_engine *e, const char *id, json_int_t *bytes)
{
    static char gpu[32];
    for (int i = 0; i < 6000; i++) {
        json_t *k = key_entry(e, id);
        assert_non_null(k);
        snprintf(gpu, sizeof gpu, "%s", json_string_value(json_object_get(k, "gpu")));
        if (bytes)
            *bytes = json_integer_value(json_object_get(k, "gpu_upload_bytes"));
        json_decref(k);
        if (strcmp(gpu, "uploading"))
            return gpu;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    fail_msg("key %s still uploading after 60 s", id);
    return NULL;
}

static int have_cuda(void)
{
    if (!cz_cuda_built() || cz_cuda_device_count() < 1) {
        print_message("no CUDA device (nor the host model): skipped\n");
        return 0;
    }
    return 1;
}

/* On the CPU backend a key is on the host ("gpu": "host"), nothing uploaded. */
static void test_key_gpu_cpu(void **state)
{
    (void)state;
    cz_engine *e = engine("cpu", 1, 1, 2, 0);
    json_int_t bytes = -1;
    assert_string_equal(await_gpu(e, "small", &bytes), "host");
    assert_int_equal(bytes, 0);
    cz_engine_destroy(e, 1000);
}

/* The prove detail of a finished job. */
static json_t *prove_detail(cz_engine *e, const char *id)
{
    json_t *o = cz_engine_await(e, id, AWAIT_MS);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "done");
    json_t *d = json_incref(json_object_get(json_object_get(o, "timings_ms"), "prove_detail"));
    json_decref(o);
    return d;
}

/* With a cuda backend the key goes to the device when it is loaded: the
   list says "resident" with the bytes moved, and the first proof finds
   it there (no upload in its timings, only the witness moved). */
static void test_key_preload_cuda(void **state)
{
    (void)state;
    if (!have_cuda())
        skip();
    cz_engine *e = engine("cuda", 2, 2, 2, 0);
    json_int_t bytes = 0;
    assert_string_equal(await_gpu(e, "small", &bytes), "resident");
    assert_true(bytes > 0);
    char id[24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    submit(e, wpath, CZ_PRIO_NORMAL, id);
    assert_string_equal(await_job(e, id), "done");
    json_t *d = prove_detail(e, id);
    print_message("preloaded key: %lld bytes on the device; first proof: tier %s, upload %.3f ms, "
                  "%lld bytes to the device\n", (long long)bytes,
                  json_string_value(json_object_get(d, "tier")),
                  json_real_value(json_object_get(d, "upload")),
                  (long long)json_integer_value(json_object_get(d, "h2d_bytes")));
    assert_string_equal(json_string_value(json_object_get(d, "tier")), "resident");
    assert_true(json_real_value(json_object_get(d, "upload")) == 0.0);
    assert_true(json_integer_value(json_object_get(d, "h2d_bytes")) < bytes);
    json_decref(d);
    /* the timeline has the upload's span */
    json_t *tl = cz_engine_timeline_json(e);
    size_t i;
    json_t *sp;
    int seen = 0;
    json_array_foreach(json_object_get(tl, "spans"), i, sp) seen +=
        !strcmp(json_string_value(json_object_get(sp, "stage")), "key_upload");
    json_decref(tl);
    assert_int_equal(seen, 1);
    cz_engine_destroy(e, 1000);
}

/* Jobs submitted at once with the load (while the key may still be
   uploading) complete, and the key was uploaded once: by the load's
   upload thread (then no proof carried it), or, where a job took the
   device's lock first, by that job's proof alone (the thread then found
   it resident and moved nothing). */
static void test_key_preload_jobs_meanwhile(void **state)
{
    (void)state;
    if (!have_cuda())
        skip();
    cz_engine *e = engine("cuda", 2, 2, 2, 0);
    char ids[8][24];
    const char *w = cz_test_src_path("tests/fixtures/small.wtns");
    char wpath[4096];
    snprintf(wpath, sizeof wpath, "%s", w);
    for (int i = 0; i < 8; i++)
        submit(e, wpath, CZ_PRIO_NORMAL, ids[i]);
    json_int_t key_bytes = 0, h2d[8], least = -1;
    assert_string_equal(await_gpu(e, "small", &key_bytes), "resident");
    for (int i = 0; i < 8; i++) {
        assert_string_equal(await_job(e, ids[i]), "done");
        json_t *d = prove_detail(e, ids[i]);
        h2d[i] = json_integer_value(json_object_get(d, "h2d_bytes"));
        json_decref(d);
        if (least < 0 || h2d[i] < least)
            least = h2d[i];
    }
    /* a proof that carried the key moved its 85 KB beside a 3.6 KB witness */
    int carried = 0;
    for (int i = 0; i < 8; i++)
        carried += h2d[i] > 4 * least;
    print_message("upload thread moved %lld bytes; proofs that carried the key: %d\n",
                  (long long)key_bytes, carried);
    assert_int_equal(carried, key_bytes > 0 ? 0 : 1);
    cz_engine_destroy(e, 1000);
}

static void load_bn254_fixture(void)
{
    if (g_bvk)
        return;
    size_t len;
    char err[256];
    uint8_t *t = cz_test_read_file(cz_test_src_path("tests/fixtures/bn254/small_vk.json"), &len);
    assert_non_null(t);
    assert_int_equal(cz_bn254_vk_from_json(&g_bvk, (const char *)t, len, "vk", err, sizeof err), CZ_OK);
    free(t);
    t = cz_test_read_file(cz_test_src_path("tests/fixtures/bn254/small_public.json"), &len);
    assert_non_null(t);
    cz_bn254_fr *pub;
    size_t n;
    assert_int_equal(cz_bn254_public_from_json(&pub, &n, (const char *)t, len, "public", err,
                                               sizeof err),
                     CZ_OK);
    assert_int_equal(n, 4);
    memcpy(g_bpub, pub, sizeof g_bpub);
    free(pub);
    free(t);
}

/* A bn128 job's answer: done, its proof verified against the fixture's
   snarkjs vk and public inputs; the prove detail's tier returned. */
static void check_bn254_job(cz_engine *e, const char *id, char *tier, size_t tier_len)
{
    json_t *o = cz_engine_await(e, id, AWAIT_MS);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "done");
    char *text = json_dumps(json_object_get(o, "proof"), JSON_COMPACT);
    assert_non_null(text);
    cz_bn254_proof p;
    char err[256];
    assert_int_equal(cz_bn254_proof_from_json(&p, text, strlen(text), "proof", err, sizeof err), CZ_OK);
    free(text);
    assert_int_equal(cz_bn254_groth16_verify(g_bvk, g_bpub, 4, &p, err, sizeof err), CZ_OK);
    p.a.x.l[0] ^= 1; /* a changed proof is refused (the check above can fail) */
    assert_int_not_equal(cz_bn254_groth16_verify(g_bvk, g_bpub, 4, &p, err, sizeof err), CZ_OK);
    snprintf(tier, tier_len, "%s",
             json_string_value(json_object_get(json_object_get(json_object_get(o, "timings_ms"),
                                                               "prove_detail"), "tier")));
    json_decref(o);
}

/* A BLS12-381 key and a bn128 key resident on the device at once, a job
   of each proven there and verified. */
static void test_both_curves_cuda(void **state)
{
    (void)state;
    if (!have_cuda())
        skip();
    load_bn254_fixture();
    cz_engine *e = engine("cuda", 1, 2, 2, 0);
    char err[512] = "";
    cz_status st = cz_engine_key_load(e, "small254", cz_test_src_path("tests/fixtures/bn254/small.zkey"),
                                      err, sizeof err);
    if (st)
        print_message("bn254 key: %s\n", err);
    assert_int_equal(st, CZ_OK);
    json_int_t b1 = 0, b2 = 0;
    assert_string_equal(await_gpu(e, "small", &b1), "resident");
    assert_string_equal(await_gpu(e, "small254", &b2), "resident");
    assert_true(b1 > 0 && b2 > 0);
    char w381[4096], w254[4096], id1[24], id2[24], tier[32];
    snprintf(w381, sizeof w381, "%s", cz_test_src_path("tests/fixtures/small.wtns"));
    snprintf(w254, sizeof w254, "%s", cz_test_src_path("tests/fixtures/bn254/small.wtns"));
    for (int round = 0; round < 2; round++) {
        submit(e, w381, CZ_PRIO_NORMAL, id1);
        cz_job_request r;
        memset(&r, 0, sizeof r);
        r.key_id = "small254";
        r.witness_path = w254;
        r.priority = CZ_PRIO_NORMAL;
        r.origin = CZ_FROM_OPERATOR;
        size_t pos;
        assert_int_equal(cz_engine_submit(e, &r, id2, &pos, err, sizeof err), CZ_OK);
        assert_string_equal(await_job(e, id1), "done");
        json_t *d = prove_detail(e, id1);
        assert_string_equal(json_string_value(json_object_get(d, "tier")), "resident");
        json_decref(d);
        check_bn254_job(e, id2, tier, sizeof tier);
        print_message("round %d: bn128 job on the device, tier %s\n", round, tier);
        assert_string_equal(tier, "resident"); /* proven on the device, the key found there */
    }
    /* both still resident after the proofs of each */
    assert_string_equal(await_gpu(e, "small", NULL), "resident");
    assert_string_equal(await_gpu(e, "small254", NULL), "resident");
    cz_engine_destroy(e, 1000);
}

/* A device error in a bn128 proof: the job is proven again on the CPU. */
static void test_bn254_device_fault(void **state)
{
    (void)state;
    if (!have_cuda() || !cz_cuda_is_model()) {
        print_message("fault injection needs the host model: skipped\n");
        skip();
    }
    load_bn254_fixture();
    cz_engine *e = engine("cuda", 1, 1, 2, 0);
    char err[512] = "";
    assert_int_equal(cz_engine_key_load(e, "small254",
                                        cz_test_src_path("tests/fixtures/bn254/small.zkey"), err,
                                        sizeof err),
                     CZ_OK);
    assert_string_equal(await_gpu(e, "small254", NULL), "resident");
    char w254[4096], id[24], tier[32];
    snprintf(w254, sizeof w254, "%s", cz_test_src_path("tests/fixtures/bn254/small.wtns"));
    assert_int_equal(cz_cuda_model_fail_after(3, CZ_ERR_DEVICE, false), CZ_OK);
    cz_job_request r;
    memset(&r, 0, sizeof r);
    r.key_id = "small254";
    r.witness_path = w254;
    r.priority = CZ_PRIO_NORMAL;
    r.origin = CZ_FROM_OPERATOR;
    size_t pos;
    assert_int_equal(cz_engine_submit(e, &r, id, &pos, err, sizeof err), CZ_OK);
    check_bn254_job(e, id, tier, sizeof tier);
    print_message("after a device fault: tier %s\n", tier);
    assert_string_not_equal(tier, "resident"); /* the CPU's */
    cz_cuda_model_fail_after(0, CZ_OK, false);
    /* the next one is on the device again */
    assert_int_equal(cz_engine_submit(e, &r, id, &pos, err, sizeof err), CZ_OK);
    check_bn254_job(e, id, tier, sizeof tier);
    assert_string_equal(tier, "resident");
    cz_engine_destroy(e, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_one_cpu),     cmocka_unit_test(test_cap_two_workers_cpu),
        cmocka_unit_test(test_no_cap),          cmocka_unit_test(test_cap_priority),
        cmocka_unit_test(test_cap_cancel),      cmocka_unit_test(test_cap_failures),
        cmocka_unit_test(test_cap_budget),      cmocka_unit_test(test_cap_partitions),
        cmocka_unit_test(test_cap_cuda),        cmocka_unit_test(test_key_gpu_cpu),
        cmocka_unit_test(test_key_preload_cuda), cmocka_unit_test(test_key_preload_jobs_meanwhile),
        cmocka_unit_test(test_both_curves_cuda), cmocka_unit_test(test_bn254_device_fault),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
