/* ctest: labels=unit timeout=180 */
/*
 * test_farm_queue.c: the farm's PostgreSQL queue (src/farm/queue.c)
 * against a real private PostgreSQL: the schema migrates once when hosts
 * start together and refuses a newer one; two claimers never get the same
 * partition; priorities, then age, and keys pick the next claim; the epoch
 * fences a late write; an expired lease is taken over, and fails its job
 * once it had max_attempts; retries back off and stop at the maximum; a
 * deterministic failure fails the job once and cancels its other
 * partitions; cancel; request ids; inline inputs and paths; results
 * joined in partition order; await woken by NOTIFY; retention; a server
 * restart under open connections.
 *
 * Without CZ_PG_DIR in the environment the program runs itself again
 * under tests/pg_with.sh, which starts a private instance (and exits 77,
 * skipped, where the PostgreSQL binaries are missing).
 */
#include "test_util.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef CUZK_HAVE_FARM
#include <libpq-fe.h>

#include "farm/queue.h"

static char g_dir[512];

/* a file of the source tree (the compile-time root unless the environment names one) */
static const char *src_path(const char *rel)
{
    static char buf[1024];
    const char *root = getenv("CZ_SOURCE_DIR");
#ifdef CZ_SOURCE_DIR
    if (!root)
        root = CZ_SOURCE_DIR;
#endif
    snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
    return buf;
}

static void conninfo(char *out, size_t len, const char *db)
{
    snprintf(out, len, "host=%s user=postgres dbname=%s", g_dir, db);
}

static void sql(const char *db, const char *stmt)
{
    char ci[700];
    conninfo(ci, sizeof ci, db);
    PGconn *c = PQconnectdb(ci);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, stmt);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", stmt, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(c);
}

static long sql_long(const char *db, const char *stmt)
{
    char ci[700];
    conninfo(ci, sizeof ci, db);
    PGconn *c = PQconnectdb(ci);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, stmt);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", stmt, PQresultErrorMessage(r));
    long v = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(c);
    return v;
}

static char g_ci[700];

/* A fresh database for each test. */
static int setup(void **state)
{
    static int n;
    char db[32], stmt[96];
    snprintf(db, sizeof db, "farm_t%d", ++n);
    snprintf(stmt, sizeof stmt, "CREATE DATABASE %s", db);
    sql("postgres", stmt);
    conninfo(g_ci, sizeof g_ci, db);
    *state = NULL;
    return 0;
}

static const char *g_db(void)
{
    return strstr(g_ci, "dbname=") + 7;
}

static cz_farm_queue *open_q(const char *host, int lease_ms, int max_attempts, int backoff_ms)
{
    cz_farm_config c;
    cz_farm_config_default(&c);
    c.url = g_ci;
    c.host_id = host;
    if (lease_ms)
        c.lease_ms = lease_ms;
    if (max_attempts)
        c.max_attempts = max_attempts;
    if (backoff_ms >= 0)
        c.backoff_ms = backoff_ms;
    c.inline_max = 4096;
    cz_farm_queue *q = NULL;
    char err[512];
    cz_status st = cz_farm_queue_open(&q, &c, err, sizeof err);
    if (st)
        fail_msg("open: %s", err);
    return q;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void submit_bytes(cz_farm_queue *q, const char *key, int prio, const char *bytes, char *job)
{
    cz_farm_request r = {.key_id = key, .priority = prio, .input = bytes, .input_len = strlen(bytes)};
    char err[512];
    cz_farm_outcome oc;
    if (cz_farm_queue_submit(q, &r, job, &oc, err, sizeof err))
        fail_msg("submit: %s", err);
    assert_int_equal(oc, CZ_FARM_NEW);
}

static void submit_paths(cz_farm_queue *q, const char *key, int prio, size_t n, char *job)
{
    char **paths = calloc(n, sizeof *paths);
    for (size_t i = 0; i < n; i++) {
        paths[i] = malloc(32);
        snprintf(paths[i], 32, "/shared/w%zu.wtns", i);
    }
    cz_farm_request r = {.key_id = key, .priority = prio, .paths = (const char *const *)paths, .n_paths = n};
    char err[512];
    if (cz_farm_queue_submit(q, &r, job, NULL, err, sizeof err))
        fail_msg("submit: %s", err);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

/* Claim into l (what l held before is freed). */
static int claim(cz_farm_queue *q, cz_farm_lease *l)
{
    cz_farm_lease_clear(l);
    int got = 0;
    char err[512];
    if (cz_farm_queue_claim(q, NULL, 0, l, &got, err, sizeof err))
        fail_msg("claim: %s", err);
    return got;
}

static const char *status_of(cz_farm_queue *q, const char *job, char *buf, size_t len)
{
    cz_status st;
    char err[256];
    json_t *o = cz_farm_queue_job_json(q, job, &st, err, sizeof err);
    if (!o)
        fail_msg("job %s: %s", job, err);
    snprintf(buf, len, "%s", json_string_value(json_object_get(o, "status")));
    json_decref(o);
    return buf;
}

static cz_status complete_idx(cz_farm_queue *q, const cz_farm_lease *l, const char *who)
{
    char res[256], err[512];
    snprintf(res, sizeof res,
             "{\"proof\": {\"i\": %d, \"by\": \"%s\"}, \"public\": [\"%d\"], \"timings_ms\": {\"gpu\": 1.5}, "
             "\"device\": 0}",
             l->index, who, l->index);
    return cz_farm_queue_complete(q, l, res, err, sizeof err);
}

/* ---- schema ---- */

typedef struct {
    cz_farm_queue *q;
    char host[16];
} opener;

static void *open_thread(void *arg)
{
    opener *o = arg;
    o->q = open_q(o->host, 0, 0, -1);
    return NULL;
}

static void test_migrate_concurrent(void **state)
{
    (void)state;
    opener o[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        snprintf(o[i].host, sizeof o[i].host, "h%d", i);
        pthread_create(&t[i], NULL, open_thread, &o[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        assert_non_null(o[i].q);
        assert_int_equal(cz_farm_queue_schema_version(o[i].q), CZ_FARM_SCHEMA_VERSION);
        cz_farm_queue_close(o[i].q);
    }
    assert_int_equal(sql_long(g_db(), "SELECT count(*) FROM cz_schema_version"), CZ_FARM_SCHEMA_VERSION);
    /* opening again changes nothing */
    cz_farm_queue_close(open_q("h9", 0, 0, -1));
    assert_int_equal(sql_long(g_db(), "SELECT count(*) FROM cz_schema_version"), CZ_FARM_SCHEMA_VERSION);

    /* a database migrated by a newer cuzkd is refused, not touched */
    sql(g_db(), "INSERT INTO cz_schema_version (version) VALUES (99)");
    cz_farm_config c;
    cz_farm_config_default(&c);
    c.url = g_ci;
    c.host_id = "old";
    cz_farm_queue *q = NULL;
    char err[512];
    assert_int_equal(cz_farm_queue_open(&q, &c, err, sizeof err), CZ_ERR_UNSUPPORTED);
    assert_null(q);
    assert_non_null(strstr(err, "newer"));

    /* URLs: a password in one is refused (the environment or a file holds it) */
    assert_int_equal(cz_farm_url_check(g_ci, err, sizeof err), CZ_OK);
    assert_int_equal(cz_farm_url_check("postgresql:///farm?host=/run/pg", err, sizeof err), CZ_OK);
    assert_int_equal(cz_farm_url_check("postgresql://cuzk:secret@db.example/farm", err, sizeof err), CZ_ERR_ARG);
    assert_non_null(strstr(err, "password"));
    assert_null(strstr(err, "secret"));
    assert_int_equal(cz_farm_url_check("host=/tmp password=secret", err, sizeof err), CZ_ERR_ARG);
    assert_int_equal(cz_farm_url_check("postgresql://[::1", err, sizeof err), CZ_ERR_ARG);
    assert_int_equal(cz_farm_url_check("", err, sizeof err), CZ_ERR_ARG);

    /* no server there: an error, not a crash */
    c.url = "host=/nonexistent/dir user=postgres";
    assert_int_equal(cz_farm_queue_open(&q, &c, err, sizeof err), CZ_ERR_IO);
    c.url = NULL;
    assert_int_equal(cz_farm_queue_open(&q, &c, err, sizeof err), CZ_ERR_ARG);
}

/* ---- claims ---- */

#define CLAIMERS 4
#define CLAIM_PARTS 240

typedef struct {
    int id;
    atomic_int *claims;
    int done;
    int errors;
} claimer;

static void *claim_thread(void *arg)
{
    claimer *c = arg;
    char host[16];
    snprintf(host, sizeof host, "c%d", c->id);
    cz_farm_queue *q = open_q(host, 30000, 0, -1);
    for (;;) {
        cz_farm_lease l = {0};
        int got = 0;
        char err[512];
        if (cz_farm_queue_claim(q, NULL, 0, &l, &got, err, sizeof err)) {
            c->errors++;
            break;
        }
        if (!got)
            break;
        atomic_fetch_add(&c->claims[l.index], 1);
        if (complete_idx(q, &l, host))
            c->errors++;
        else
            c->done++;
        cz_farm_lease_clear(&l);
    }
    cz_farm_queue_close(q);
    return NULL;
}

static void test_claimers_never_share(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("sub", 0, 0, -1);
    char job[24];
    submit_paths(q, "k", 1, CLAIM_PARTS, job);
    atomic_int claims[CLAIM_PARTS];
    for (int i = 0; i < CLAIM_PARTS; i++)
        atomic_init(&claims[i], 0);
    claimer c[CLAIMERS];
    pthread_t t[CLAIMERS];
    for (int i = 0; i < CLAIMERS; i++) {
        c[i] = (claimer){.id = i, .claims = claims};
        pthread_create(&t[i], NULL, claim_thread, &c[i]);
    }
    int total = 0, busy = 0;
    for (int i = 0; i < CLAIMERS; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(c[i].errors, 0);
        total += c[i].done;
        busy += c[i].done > 0;
    }
    assert_int_equal(total, CLAIM_PARTS);
    for (int i = 0; i < CLAIM_PARTS; i++)
        assert_int_equal(atomic_load(&claims[i]), 1);
    print_message("  %d partitions over %d claimers (%d of them claimed)\n", total, CLAIMERS, busy);

    /* done, results joined in partition order */
    cz_status st;
    char err[256];
    json_t *o = cz_farm_queue_job_json(q, job, &st, err, sizeof err);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "done");
    json_t *proofs = json_object_get(o, "proofs"), *publics = json_object_get(o, "publics");
    assert_int_equal(json_array_size(proofs), CLAIM_PARTS);
    assert_int_equal(json_array_size(json_object_get(o, "partitions")), CLAIM_PARTS);
    for (int i = 0; i < CLAIM_PARTS; i++) {
        assert_int_equal(json_integer_value(json_object_get(json_array_get(proofs, i), "i")), i);
        char want[16];
        snprintf(want, sizeof want, "%d", i);
        assert_string_equal(json_string_value(json_array_get(json_array_get(publics, i), 0)), want);
    }
    json_decref(o);
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 0);
    cz_farm_queue_close(q);
}

static void test_priorities_and_keys(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("h", 0, 0, -1);
    char jl[24], jn1[24], jc[24], jh[24], jn2[24], jo[24];
    submit_bytes(q, "k", 0, "low", jl);
    submit_bytes(q, "k", 1, "normal-1", jn1);
    submit_bytes(q, "other", 3, "other-key", jo);
    submit_bytes(q, "k", 3, "critical", jc);
    submit_bytes(q, "k", 2, "high", jh);
    submit_bytes(q, "k", 1, "normal-2", jn2);
    const char *order[] = {"critical", "high", "normal-1", "normal-2", "low"};
    const char *keys[] = {"k", "k2"};
    for (int i = 0; i < 5; i++) {
        cz_farm_lease l = {0};
        int got = 0;
        char err[256];
        assert_int_equal(cz_farm_queue_claim(q, keys, 2, &l, &got, err, sizeof err), CZ_OK);
        assert_int_equal(got, 1);
        assert_string_equal(l.key_id, "k");
        assert_non_null(l.input);
        assert_int_equal(l.input_len, strlen(order[i]));
        assert_memory_equal(l.input, order[i], l.input_len);
        assert_int_equal(l.attempt, 1);
        assert_int_equal(l.epoch, 1);
        assert_int_equal(l.n_partitions, 1);
        cz_farm_lease_clear(&l);
    }
    /* the other key's job waits for a host that holds it */
    cz_farm_lease l = {0};
    int got = 1;
    char err[256];
    assert_int_equal(cz_farm_queue_claim(q, keys, 2, &l, &got, err, sizeof err), CZ_OK);
    assert_int_equal(got, 0);
    const char *other[] = {"other"};
    assert_int_equal(cz_farm_queue_claim(q, other, 1, &l, &got, err, sizeof err), CZ_OK);
    assert_int_equal(got, 1);
    assert_memory_equal(l.input, "other-key", 9);
    cz_farm_lease_clear(&l);
    char buf[32];
    assert_string_equal(status_of(q, jl, buf, sizeof buf), "proving");
    cz_farm_queue_close(q);
}

/* A host that can load keys asks which of them a claimable partition
   waits for, and announces them: a submission names them. */
static void test_wanted_and_loadable(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("h", 0, 0, -1);
    char err[512], want[128] = "x", jf[24], jg[24];
    const char *cand[] = {"folder", "preset"};
    assert_int_equal(cz_farm_queue_wanted(q, cand, 2, want, sizeof want, err, sizeof err), CZ_OK);
    assert_string_equal(want, ""); /* nothing queued */
    submit_bytes(q, "k", 1, "held", jf);
    assert_int_equal(cz_farm_queue_wanted(q, cand, 2, want, sizeof want, err, sizeof err), CZ_OK);
    assert_string_equal(want, ""); /* only a key it does not offer */
    submit_bytes(q, "folder", 1, "f", jf);
    submit_bytes(q, "preset", 3, "p", jg);
    assert_int_equal(cz_farm_queue_wanted(q, cand, 2, want, sizeof want, err, sizeof err), CZ_OK);
    assert_string_equal(want, "preset"); /* the most urgent first */
    /* the lookup claims nothing: the claim takes it */
    const char *pk[] = {"preset"};
    cz_farm_lease l = {0};
    int got = 0;
    assert_int_equal(cz_farm_queue_claim(q, pk, 1, &l, &got, err, sizeof err), CZ_OK);
    assert_int_equal(got, 1);
    assert_string_equal(l.key_id, "preset");
    cz_farm_lease_clear(&l);
    assert_int_equal(cz_farm_queue_wanted(q, cand, 2, want, sizeof want, err, sizeof err), CZ_OK);
    assert_string_equal(want, "folder");
    /* a key a host announces it can load is known to submissions */
    int known = 1;
    assert_int_equal(cz_farm_queue_key_known(q, "folder", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 0);
    json_t *info = json_pack("{s:[s], s:[s]}", "keys", "k", "loadable", "folder");
    assert_int_equal(cz_farm_queue_heartbeat(q, info, err, sizeof err), CZ_OK);
    json_decref(info);
    assert_int_equal(cz_farm_queue_key_known(q, "folder", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 1);
    assert_int_equal(cz_farm_queue_key_known(q, "k", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 1);
    assert_int_equal(cz_farm_queue_key_known(q, "preset", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 0);
    cz_farm_queue_close(q);
}

/* ---- leases and epochs ---- */

static void test_epoch_fences_late_write(void **state)
{
    (void)state;
    cz_farm_queue *a = open_q("a", 300, 5, -1), *b = open_q("b", 300, 5, -1);
    char job[24], err[512];
    submit_bytes(a, "k", 1, "w", job);
    cz_farm_lease la = {0}, lb = {0};
    assert_int_equal(claim(a, &la), 1);
    assert_int_equal(claim(b, &lb), 0); /* held */
    assert_int_equal(cz_farm_queue_renew(a, &la, err, sizeof err), CZ_OK);
    sleep_ms(450); /* a stalls past its lease */
    assert_int_equal(claim(b, &lb), 1); /* taken over */
    assert_int_equal(lb.job, la.job);
    assert_int_equal(lb.epoch, la.epoch + 1);
    assert_int_equal(lb.attempt, 2);
    /* a's late result, renewal and failure are all refused */
    assert_int_equal(complete_idx(a, &la, "a"), CZ_ERR_BUSY);
    assert_int_equal(cz_farm_queue_renew(a, &la, err, sizeof err), CZ_ERR_BUSY);
    assert_non_null(strstr(err, "stale"));
    assert_int_equal(cz_farm_queue_fail(a, &la, "late", 1, err, sizeof err), CZ_ERR_BUSY);
    assert_int_equal(complete_idx(b, &lb, "b"), CZ_OK);
    /* a repeated write of a committed result is not an error; a's still is */
    assert_int_equal(complete_idx(b, &lb, "b"), CZ_OK);
    assert_int_equal(complete_idx(a, &la, "a"), CZ_ERR_BUSY);
    cz_status st;
    json_t *o = cz_farm_queue_job_json(a, job, &st, err, sizeof err);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "done");
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "proof"), "by")), "b");
    assert_string_equal(json_string_value(json_object_get(o, "host")), "b");
    json_decref(o);

    /* an expired lease nobody took is not ours any more either */
    submit_bytes(a, "k", 1, "w2", job);
    assert_int_equal(claim(a, &la), 1);
    sleep_ms(450);
    assert_int_equal(complete_idx(a, &la, "a"), CZ_ERR_BUSY);
    assert_non_null(strstr(err, "") );
    /* renewed in time, it survives several lease lengths */
    assert_int_equal(claim(b, &lb), 1);
    assert_int_equal(lb.epoch, la.epoch + 1);
    for (int i = 0; i < 6; i++) {
        sleep_ms(100);
        assert_int_equal(cz_farm_queue_renew(b, &lb, err, sizeof err), CZ_OK);
    }
    cz_farm_lease lx = {0};
    assert_int_equal(claim(a, &lx), 0);
    assert_int_equal(complete_idx(b, &lb, "b"), CZ_OK);
    cz_farm_lease_clear(&la);
    cz_farm_lease_clear(&lb);
    cz_farm_queue_close(a);
    cz_farm_queue_close(b);
}

static void test_expired_leases_stop_at_max(void **state)
{
    (void)state;
    cz_farm_queue *a = open_q("a", 200, 2, -1);
    char job[24], err[512], buf[32];
    submit_bytes(a, "k", 1, "w", job);
    cz_farm_lease l = {0};
    assert_int_equal(claim(a, &l), 1);
    sleep_ms(300);
    int failed = -1, deleted = -1;
    assert_int_equal(cz_farm_queue_reap(a, &failed, &deleted, err, sizeof err), CZ_OK);
    assert_int_equal(failed, 0); /* one attempt left: it waits for a claim */
    assert_int_equal(claim(a, &l), 1);
    assert_int_equal(l.attempt, 2);
    assert_int_equal(claim(a, &l), 0);
    sleep_ms(300);
    assert_int_equal(claim(a, &l), 0); /* no attempt left: not claimable */
    assert_int_equal(cz_farm_queue_reap(a, &failed, &deleted, err, sizeof err), CZ_OK);
    assert_int_equal(failed, 1);
    assert_string_equal(status_of(a, job, buf, sizeof buf), "failed");
    cz_status st;
    json_t *o = cz_farm_queue_job_json(a, job, &st, err, sizeof err);
    assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "lease expired 2 times"));
    json_decref(o);
    cz_farm_lease_clear(&l);
    cz_farm_queue_close(a);
}

static void test_retries_back_off_and_stop(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 3, 150);
    char job[24], err[512], buf[32];
    submit_bytes(q, "k", 1, "w", job);
    cz_farm_lease l = {0};
    for (int attempt = 1; attempt <= 3; attempt++) {
        assert_int_equal(claim(q, &l), 1);
        assert_int_equal(l.attempt, attempt);
        cz_status fs = cz_farm_queue_fail(q, &l, "device fault", 0, err, sizeof err);
        if (fs)
            fail_msg("fail: %s", err);
        cz_farm_lease_clear(&l);
        if (attempt < 3) {
            assert_string_equal(status_of(q, job, buf, sizeof buf), "proving");
            /* not before its backoff: 150 ms, then 300 ms */
            assert_int_equal(claim(q, &l), 0);
            sleep_ms(150 * (1 << (attempt - 1)) + 60);
        }
    }
    assert_string_equal(status_of(q, job, buf, sizeof buf), "failed");
    assert_int_equal(claim(q, &l), 0);
    cz_status st;
    json_t *o = cz_farm_queue_job_json(q, job, &st, err, sizeof err);
    assert_string_equal(json_string_value(json_object_get(o, "error")), "failed 3 times, last: device fault");
    assert_int_equal(json_integer_value(json_object_get(o, "attempts")), 3);
    json_decref(o);
    cz_farm_queue_close(q);
}

static void test_deterministic_failure(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 5, -1), *b = open_q("b", 0, 5, -1);
    char job[24], err[512], buf[32];
    submit_paths(q, "k", 1, 3, job);
    cz_farm_lease l0 = {0}, l1 = {0};
    assert_int_equal(claim(q, &l0), 1);
    assert_int_equal(claim(b, &l1), 1);
    assert_int_equal(l0.index, 0);
    assert_int_equal(l1.index, 1);
    assert_string_equal(l1.input_path, "/shared/w1.wtns");
    assert_null(l1.input);
    assert_int_equal(l0.n_partitions, 3);
    assert_int_equal(cz_farm_queue_fail(b, &l1, "witness of 10 values, the key needs 12", 1, err, sizeof err),
                     CZ_OK);
    assert_string_equal(status_of(q, job, buf, sizeof buf), "failed");
    cz_status st;
    json_t *o = cz_farm_queue_job_json(q, job, &st, err, sizeof err);
    assert_string_equal(json_string_value(json_object_get(o, "error")),
                        "partition 1: witness of 10 values, the key needs 12");
    json_t *parts = json_object_get(o, "partitions");
    assert_string_equal(json_string_value(json_object_get(json_array_get(parts, 0), "state")), "cancelled");
    assert_string_equal(json_string_value(json_object_get(json_array_get(parts, 1), "state")), "failed");
    assert_string_equal(json_string_value(json_object_get(json_array_get(parts, 2), "state")), "cancelled");
    json_decref(o);
    /* never retried; the running partition learns at its next renewal */
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 0);
    assert_int_equal(cz_farm_queue_renew(q, &l0, err, sizeof err), CZ_ERR_CANCELLED);
    assert_int_equal(complete_idx(q, &l0, "a"), CZ_ERR_CANCELLED);
    assert_int_equal(sql_long(g_db(), "SELECT attempts FROM cz_partitions WHERE idx = 1"), 1);
    cz_farm_lease_clear(&l0);
    cz_farm_lease_clear(&l1);
    cz_farm_queue_close(q);
    cz_farm_queue_close(b);
}

static void test_cancel(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 0, -1);
    char job[24], err[512], buf[32];
    submit_paths(q, "k", 1, 2, job);
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 1);
    assert_int_equal(cz_farm_queue_cancel(q, job, err, sizeof err), CZ_OK);
    assert_string_equal(status_of(q, job, buf, sizeof buf), "cancelled");
    assert_int_equal(cz_farm_queue_renew(q, &l, err, sizeof err), CZ_ERR_CANCELLED);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_ERR_CANCELLED);
    cz_farm_lease lx = {0};
    assert_int_equal(claim(q, &lx), 0);
    assert_int_equal(cz_farm_queue_cancel(q, job, err, sizeof err), CZ_ERR_BUSY);
    assert_int_equal(cz_farm_queue_cancel(q, "j999999", err, sizeof err), CZ_ERR_NOT_FOUND);
    assert_int_equal(cz_farm_queue_cancel(q, "x1", err, sizeof err), CZ_ERR_NOT_FOUND);
    assert_int_equal(cz_farm_queue_cancel(q, "j1'; DROP TABLE cz_jobs; --", err, sizeof err), CZ_ERR_NOT_FOUND);
    cz_status st;
    assert_null(cz_farm_queue_job_json(q, "j424242", &st, err, sizeof err));
    assert_int_equal(st, CZ_ERR_NOT_FOUND);
    /* a finished job cannot be cancelled */
    submit_bytes(q, "k", 1, "w", job);
    assert_int_equal(claim(q, &l), 1);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_OK);
    assert_int_equal(cz_farm_queue_cancel(q, job, err, sizeof err), CZ_ERR_BUSY);
    assert_string_equal(status_of(q, job, buf, sizeof buf), "done");
    cz_farm_lease_clear(&l);
    cz_farm_queue_close(q);
}

static void test_requests_and_inputs(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 0, -1);
    char j1[24], j2[24], err[512];
    cz_farm_outcome oc;
    cz_farm_request r = {.key_id = "k", .priority = 1, .input = "abc", .input_len = 3, .request_id = "req-1"};
    assert_int_equal(cz_farm_queue_submit(q, &r, j1, &oc, err, sizeof err), CZ_OK);
    assert_int_equal(oc, CZ_FARM_NEW);
    assert_int_equal(cz_farm_queue_submit(q, &r, j2, &oc, err, sizeof err), CZ_OK);
    assert_int_equal(oc, CZ_FARM_EXISTING);
    assert_string_equal(j1, j2);
    r.input = "abd";
    assert_int_equal(cz_farm_queue_submit(q, &r, j2, &oc, err, sizeof err), CZ_ERR_BUSY);
    assert_int_equal(oc, CZ_FARM_CONFLICT);
    r.input = "abc";
    r.priority = 2;
    assert_int_equal(cz_farm_queue_submit(q, &r, j2, &oc, err, sizeof err), CZ_ERR_BUSY);
    assert_int_equal(sql_long(g_db(), "SELECT count(*) FROM cz_jobs"), 1);

    /* bytes beyond the inline limit are refused (paths go by path) */
    static char big[5000];
    memset(big, 7, sizeof big);
    cz_farm_request rb = {.key_id = "k", .priority = 1, .input = big, .input_len = sizeof big};
    assert_int_equal(cz_farm_queue_submit(q, &rb, j2, NULL, err, sizeof err), CZ_ERR_RANGE);
    /* binary bytes survive the round trip */
    uint8_t bin[256];
    for (int i = 0; i < 256; i++)
        bin[i] = (uint8_t)i;
    cz_farm_request rbin = {.key_id = "k", .priority = 3, .input = bin, .input_len = sizeof bin};
    assert_int_equal(cz_farm_queue_submit(q, &rbin, j2, NULL, err, sizeof err), CZ_OK);
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 1);
    assert_int_equal(l.input_len, 256);
    assert_memory_equal(l.input, bin, 256);
    cz_farm_lease_clear(&l);
    /* bad requests */
    cz_farm_request bad = {.key_id = "k", .priority = 9, .input = "a", .input_len = 1};
    assert_int_equal(cz_farm_queue_submit(q, &bad, j2, NULL, err, sizeof err), CZ_ERR_ARG);
    const char *paths[] = {"a", ""};
    cz_farm_request badp = {.key_id = "k", .priority = 1, .paths = paths, .n_paths = 2};
    assert_int_equal(cz_farm_queue_submit(q, &badp, j2, NULL, err, sizeof err), CZ_ERR_ARG);
    /* a path with quotes and commas is one path */
    const char *odd[] = {"/s/a,\"b\\c}{"};
    cz_farm_request rp = {.key_id = "k'1", .priority = 1, .paths = odd, .n_paths = 1};
    assert_int_equal(cz_farm_queue_submit(q, &rp, j2, NULL, err, sizeof err), CZ_OK);
    const char *keys[] = {"k'1"};
    int got = 0;
    assert_int_equal(cz_farm_queue_claim(q, keys, 1, &l, &got, err, sizeof err), CZ_OK);
    assert_int_equal(got, 1);
    assert_string_equal(l.input_path, odd[0]);
    cz_farm_lease_clear(&l);
    cz_farm_queue_close(q);
}

/* ---- waiting, hosts, retention ---- */

typedef struct {
    char job[24];
    double waited_ms;
    char status[32];
} awaiter;

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *await_thread(void *arg)
{
    awaiter *w = arg;
    cz_farm_queue *q = open_q("w", 0, 0, -1);
    double t0 = mono_ms();
    cz_status st;
    char err[256];
    json_t *o = cz_farm_queue_await(q, w->job, 10000, &st, err, sizeof err);
    w->waited_ms = mono_ms() - t0;
    snprintf(w->status, sizeof w->status, "%s", o ? json_string_value(json_object_get(o, "status")) : "?");
    json_decref(o);
    cz_farm_queue_close(q);
    return NULL;
}

static void test_await_hosts_retention(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 0, -1);
    char err[512];
    awaiter w;
    submit_bytes(q, "k", 1, "w", w.job);
    pthread_t t;
    pthread_create(&t, NULL, await_thread, &w);
    sleep_ms(300);
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 1);
    double t0 = mono_ms();
    assert_int_equal(complete_idx(q, &l, "a"), CZ_OK);
    pthread_join(t, NULL);
    assert_string_equal(w.status, "done");
    print_message("  await returned %.1f ms after the result\n", mono_ms() - t0);
    cz_farm_lease_clear(&l);
    /* await of an unfinished job returns at its timeout */
    char j2[24];
    submit_bytes(q, "k", 1, "w2", j2);
    cz_status st;
    t0 = mono_ms();
    json_t *o = cz_farm_queue_await(q, j2, 300, &st, err, sizeof err);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "status")), "queued");
    assert_true(mono_ms() - t0 >= 290);
    json_decref(o);

    /* hosts: heartbeat, keys, leases in the status */
    json_t *info = json_pack("{s:[s], s:i}", "keys", "small", "devices", 1);
    assert_int_equal(cz_farm_queue_heartbeat(q, info, err, sizeof err), CZ_OK);
    assert_int_equal(cz_farm_queue_heartbeat(q, info, err, sizeof err), CZ_OK);
    json_decref(info);
    int known = 0;
    assert_int_equal(cz_farm_queue_key_known(q, "small", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 1);
    assert_int_equal(cz_farm_queue_key_known(q, "big", 5000, &known, err, sizeof err), CZ_OK);
    assert_int_equal(known, 0);
    assert_int_equal(claim(q, &l), 1);
    o = cz_farm_queue_status_json(q, err, sizeof err);
    assert_non_null(o);
    assert_int_equal(json_array_size(json_object_get(o, "hosts")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(o, "hosts"), 0), "leases")),
                     1);
    assert_int_equal(json_integer_value(json_object_get(o, "leases")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "jobs"), "done")), 1);
    json_decref(o);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_OK);
    cz_farm_lease_clear(&l);
    cz_farm_queue_close(q);

    /* finished jobs are deleted after retain_s, with their partitions */
    cz_farm_config c;
    cz_farm_config_default(&c);
    c.url = g_ci;
    c.host_id = "r";
    c.retain_s = 0;
    assert_int_equal(cz_farm_queue_open(&q, &c, err, sizeof err), CZ_OK);
    char j3[24];
    submit_bytes(q, "k", 1, "w3", j3); /* not finished: kept */
    sleep_ms(20);
    int failed = 0, deleted = 0;
    assert_int_equal(cz_farm_queue_reap(q, &failed, &deleted, err, sizeof err), CZ_OK);
    assert_int_equal(deleted, 2);
    assert_null(cz_farm_queue_job_json(q, w.job, &st, err, sizeof err));
    assert_int_equal(st, CZ_ERR_NOT_FOUND);
    assert_int_equal(sql_long(g_db(), "SELECT count(*) FROM cz_partitions"), 1);
    assert_int_equal(sql_long(g_db(), "SELECT count(*) FROM cz_jobs"), 1);
    cz_farm_queue_close(q);
}

/* ---- the server restarts under open connections ---- */

static int pg_ctl(const char *what)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "bash '%s' %s", src_path("tests/pg_with.sh"), what);
    return system(cmd);
}

static void test_server_restart(void **state)
{
    (void)state;
    cz_farm_queue *q = open_q("a", 0, 0, -1);
    char job[24], j2[24], err[512], buf[32];
    submit_paths(q, "k", 1, 2, job);
    cz_farm_lease l = {0};
    assert_int_equal(claim(q, &l), 1);
    assert_int_equal(cz_farm_queue_listen(q, "cz_work", err, sizeof err), CZ_OK);

    assert_int_equal(pg_ctl("--restart"), 0);
    /* the broken connection is noticed and re-opened: nothing is lost */
    cz_status rs = cz_farm_queue_renew(q, &l, err, sizeof err);
    if (rs)
        fail_msg("renew after restart: %s", err);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_OK);
    cz_farm_lease_clear(&l);
    assert_int_equal(claim(q, &l), 1);
    assert_int_equal(l.index, 1);

    /* while it is down: errors that say so, then recovery */
    assert_int_equal(pg_ctl("--down"), 0);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_ERR_IO);
    cz_status st;
    assert_null(cz_farm_queue_job_json(q, job, &st, err, sizeof err));
    assert_int_equal(st, CZ_ERR_IO);
    assert_int_equal(cz_farm_queue_wait(q, 10), -1);
    assert_int_equal(pg_ctl("--up"), 0);
    assert_int_equal(complete_idx(q, &l, "a"), CZ_OK);
    assert_string_equal(status_of(q, job, buf, sizeof buf), "done");
    cz_farm_lease_clear(&l);

    /* the LISTEN came back with the connection */
    cz_farm_queue *o = open_q("b", 0, 0, -1);
    submit_bytes(o, "k", 1, "w", j2);
    assert_int_equal(cz_farm_queue_wait(q, 2000), 1);
    cz_farm_queue_close(o);
    cz_farm_queue_close(q);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *dir = getenv("CZ_PG_DIR");
    if (!dir || !*dir) {
        /* start a private PostgreSQL and run again under it */
        const char *wrapper = src_path("tests/pg_with.sh");
        execl("/bin/bash", "bash", wrapper, argv[0], (char *)NULL);
        perror("exec tests/pg_with.sh");
        return 1;
    }
    snprintf(g_dir, sizeof g_dir, "%s", dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_migrate_concurrent, setup),
        cmocka_unit_test_setup(test_claimers_never_share, setup),
        cmocka_unit_test_setup(test_priorities_and_keys, setup),
        cmocka_unit_test_setup(test_wanted_and_loadable, setup),
        cmocka_unit_test_setup(test_epoch_fences_late_write, setup),
        cmocka_unit_test_setup(test_expired_leases_stop_at_max, setup),
        cmocka_unit_test_setup(test_retries_back_off_and_stop, setup),
        cmocka_unit_test_setup(test_deterministic_failure, setup),
        cmocka_unit_test_setup(test_cancel, setup),
        cmocka_unit_test_setup(test_requests_and_inputs, setup),
        cmocka_unit_test_setup(test_await_hosts_retention, setup),
        cmocka_unit_test_setup(test_server_restart, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

int main(void)
{
    printf("SKIP: built without libpq: the farm is left out (scripts/setup.sh installs libpq-dev)\n");
    return 77;
}

#endif
