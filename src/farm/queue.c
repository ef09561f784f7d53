/*
 * queue.c: the farm's shared job queue over libpq (see queue.h).
 *
 * DESIGN. Every operation is one statement or one short transaction on
 * the caller's connection, with parameters passed apart from the SQL (no
 * value is ever pasted into a statement). The claim is a single statement:
 * a CTE picks the first claimable row in priority order with FOR UPDATE
 * SKIP LOCKED (rows another host is claiming are skipped, not waited for)
 * and an UPDATE takes it, bumping its epoch and setting its lease from the
 * server's clock, so claim-to-start costs one round trip. Writes under a
 * lease name the epoch in their WHERE clause and require lease_expires >
 * now(): a write by a host whose lease was taken over matches no row and
 * is refused. A connection that broke (the server restarted) is noticed
 * before the next statement (PQconsumeInput reads the server's goodbye)
 * and re-opened with its LISTENs; read-only calls are then repeated once.
 */
#include "farm/queue.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#define MAX_LISTEN 4

struct cz_farm_queue {
    PGconn *conn;
    cz_farm_config cfg;
    char *url, *host_id, *password;
    char listen[MAX_LISTEN][32];
    int n_listen;
    unsigned notified; /* bit i: a notification on listen[i] came (cz_farm_queue_notified) */
    int version;
};

static const char *const prio_names[] = {"low", "normal", "high", "critical"};

void cz_farm_config_default(cz_farm_config *c)
{
    memset(c, 0, sizeof *c);
    c->lease_ms = 15000;
    c->max_attempts = 3;
    c->backoff_ms = 500;
    c->inline_max = (size_t)64 << 20;
    c->retain_s = 86400;
}

static void seterr(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    /* libpq messages end with a newline */
    size_t n = strlen(err);
    while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
        err[--n] = 0;
}

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ------------------------------------------------------------------ */
/* connection                                                           */
/* ------------------------------------------------------------------ */

static void quiet_notice(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

static int q_connect(cz_farm_queue *q, char *err, size_t err_len)
{
    if (q->conn)
        PQfinish(q->conn);
    /* Defaults the URL may override (it is expanded after them): a server
       that does not answer is given up after 10 s, and a dead peer on an
       open connection is noticed in about 25 s, so a host never hangs on a
       database that went away. The password, from a file, comes last. */
    const char *keys[] = {"connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
                          "dbname", "password", NULL};
    const char *vals[] = {"10", "10", "5", "3", q->url, q->password, NULL};
    if (!q->password)
        keys[5] = NULL;
    q->conn = PQconnectdbParams(keys, vals, 1); /* dbname may be a URL or a connection string */
    if (!q->conn || PQstatus(q->conn) != CONNECTION_OK) {
        seterr(err, err_len, "database: %s", q->conn ? PQerrorMessage(q->conn) : "out of memory");
        return -1;
    }
    /* notices (e.g. "relation already exists, skipping") are not errors */
    PQsetNoticeProcessor(q->conn, quiet_notice, NULL);
    for (int i = 0; i < q->n_listen; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "LISTEN %s", q->listen[i]);
        PGresult *r = PQexec(q->conn, sql);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (!ok) {
            seterr(err, err_len, "database: LISTEN: %s", PQerrorMessage(q->conn));
            return -1;
        }
    }
    return 0;
}

/* The connection is usable: re-open it if the server went away. */
static int q_ready(cz_farm_queue *q, char *err, size_t err_len)
{
    if (q->conn && PQstatus(q->conn) == CONNECTION_OK) {
        /* A server that shut down sent its goodbye and closed the socket:
           read what is pending (the goodbye, then end of file) so that the
           connection shows as broken before we send on it. */
        int alive = 1;
        for (int i = 0; i < 4 && alive; i++) {
            struct pollfd pf = {.fd = PQsocket(q->conn), .events = POLLIN};
            if (pf.fd < 0 || poll(&pf, 1, 0) <= 0)
                break;
            alive = PQconsumeInput(q->conn) && PQstatus(q->conn) == CONNECTION_OK;
        }
        if (alive && PQstatus(q->conn) == CONNECTION_OK && PQtransactionStatus(q->conn) == PQTRANS_IDLE)
            return 0;
        if (PQstatus(q->conn) == CONNECTION_OK && PQtransactionStatus(q->conn) == PQTRANS_INERROR) {
            PGresult *r = PQexec(q->conn, "ROLLBACK");
            PQclear(r);
            if (PQstatus(q->conn) == CONNECTION_OK)
                return 0;
        }
    }
    return q_connect(q, err, err_len);
}

static cz_status q_fail(cz_farm_queue *q, PGresult *r, const char *what, char *err, size_t err_len)
{
    const char *msg = r ? PQresultErrorMessage(r) : "";
    if (!msg || !*msg)
        msg = PQerrorMessage(q->conn);
    seterr(err, err_len, "database: %s: %s", what, msg);
    int broken = PQstatus(q->conn) != CONNECTION_OK;
    PQclear(r);
    if (!broken && PQtransactionStatus(q->conn) != PQTRANS_IDLE) {
        PGresult *rb = PQexec(q->conn, "ROLLBACK");
        PQclear(rb);
    }
    return broken ? CZ_ERR_IO : CZ_ERR_INTERNAL;
}

/* Run a statement with text parameters (lens/fmts may be NULL: all text).
   NULL on failure with *st and err set. */
static PGresult *q_exec(cz_farm_queue *q, const char *sql, int n, const char *const *vals, const int *lens,
                        const int *fmts, const char *what, cz_status *st, char *err, size_t err_len)
{
    PGresult *r = PQexecParams(q->conn, sql, n, NULL, vals, lens, fmts, 0);
    ExecStatusType s = PQresultStatus(r);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
        *st = CZ_OK;
        return r;
    }
    *st = q_fail(q, r, what, err, err_len);
    return NULL;
}

static cz_status q_cmd(cz_farm_queue *q, const char *sql, char *err, size_t err_len)
{
    cz_status st;
    PGresult *r = q_exec(q, sql, 0, NULL, NULL, NULL, sql, &st, err, err_len);
    PQclear(r);
    return st;
}

static void q_rollback(cz_farm_queue *q)
{
    if (PQstatus(q->conn) == CONNECTION_OK && PQtransactionStatus(q->conn) != PQTRANS_IDLE) {
        PGresult *r = PQexec(q->conn, "ROLLBACK");
        PQclear(r);
    }
}

/* ------------------------------------------------------------------ */
/* schema                                                               */
/* ------------------------------------------------------------------ */

/* Migrations in order; migration i takes the schema to version i + 1.
   Never edit one that shipped: add the next. */
static const char *const migrations[] = {
    /* 1: hosts, jobs, partitions */
    "CREATE TABLE cz_hosts ("
    "  host_id text PRIMARY KEY,"
    "  started_at timestamptz NOT NULL DEFAULT now(),"
    "  heartbeat timestamptz NOT NULL DEFAULT now(),"
    "  info jsonb NOT NULL DEFAULT '{}'::jsonb);"
    "CREATE TABLE cz_jobs ("
    "  job_id bigserial PRIMARY KEY,"
    "  request_id text UNIQUE,"
    "  request_hash text,"
    "  key_id text NOT NULL,"
    "  priority smallint NOT NULL,"
    "  state text NOT NULL DEFAULT 'queued'"
    "    CHECK (state IN ('queued', 'proving', 'done', 'failed', 'cancelled')),"
    "  n_partitions int NOT NULL CHECK (n_partitions > 0),"
    "  n_done int NOT NULL DEFAULT 0,"
    "  error text,"
    "  submitted_at timestamptz NOT NULL DEFAULT now(),"
    "  finished_at timestamptz);"
    "CREATE INDEX cz_jobs_finished ON cz_jobs (finished_at) WHERE finished_at IS NOT NULL;"
    "CREATE TABLE cz_partitions ("
    "  job_id bigint NOT NULL REFERENCES cz_jobs ON DELETE CASCADE,"
    "  idx int NOT NULL,"
    "  key_id text NOT NULL,"
    "  priority smallint NOT NULL,"
    "  origin smallint NOT NULL DEFAULT 0,"
    "  state text NOT NULL DEFAULT 'queued'"
    "    CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),"
    "  input bytea,"
    "  input_path text,"
    "  owner text,"
    "  epoch bigint NOT NULL DEFAULT 0,"
    "  lease_expires timestamptz,"
    "  attempts int NOT NULL DEFAULT 0,"
    "  max_attempts int NOT NULL,"
    "  not_before timestamptz NOT NULL DEFAULT now(),"
    "  queued_at timestamptz NOT NULL DEFAULT now(),"
    "  claimed_at timestamptz,"
    "  finished_at timestamptz,"
    "  error text,"
    "  result json,"
    "  PRIMARY KEY (job_id, idx),"
    "  CHECK ((input IS NULL) <> (input_path IS NULL)));"
    "CREATE INDEX cz_partitions_ready ON cz_partitions (priority DESC, job_id, idx) WHERE state = 'queued';"
    "CREATE INDEX cz_partitions_leased ON cz_partitions (lease_expires) WHERE state = 'running';",
};
#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))
_Static_assert(N_MIGRATIONS == CZ_FARM_SCHEMA_VERSION, "one migration per schema version");

/* An arbitrary constant naming cuzk's migration lock among advisory locks. */
#define MIGRATION_LOCK "7164245839"

static cz_status q_migrate(cz_farm_queue *q, char *err, size_t err_len)
{
    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    /* held to the end of the transaction: a second host starting now waits
       here, then finds the schema current */
    if ((st = q_cmd(q, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", err, err_len)) ||
        (st = q_cmd(q,
                    "CREATE TABLE IF NOT EXISTS cz_schema_version ("
                    "  version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                    err, err_len)))
        return st;
    PGresult *r = q_exec(q, "SELECT coalesce(max(version), 0) FROM cz_schema_version", 0, NULL, NULL, NULL,
                         "schema version", &st, err, err_len);
    if (!r)
        return st;
    int v = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (v > N_MIGRATIONS) {
        q_rollback(q);
        seterr(err, err_len,
               "database: schema version %d is newer than this cuzkd's (%d): upgrade cuzkd", v, N_MIGRATIONS);
        return CZ_ERR_UNSUPPORTED;
    }
    for (int i = v; i < N_MIGRATIONS; i++) {
        char what[48], ver[16];
        snprintf(what, sizeof what, "migration to schema version %d", i + 1);
        snprintf(ver, sizeof ver, "%d", i + 1);
        const char *vals[1] = {ver};
        PGresult *m = PQexec(q->conn, migrations[i]);
        if (PQresultStatus(m) != PGRES_COMMAND_OK)
            return q_fail(q, m, what, err, err_len);
        PQclear(m);
        m = q_exec(q, "INSERT INTO cz_schema_version (version) VALUES ($1::int)", 1, vals, NULL, NULL, what, &st,
                   err, err_len);
        if (!m)
            return st;
        PQclear(m);
    }
    if ((st = q_cmd(q, "COMMIT", err, err_len)))
        return st;
    q->version = N_MIGRATIONS;
    return CZ_OK;
}

cz_status cz_farm_queue_open(cz_farm_queue **out, const cz_farm_config *cfg, char *err, size_t err_len)
{
    *out = NULL;
    if (!cfg || !cfg->url || !*cfg->url || !cfg->host_id || !*cfg->host_id) {
        seterr(err, err_len, "farm: a database URL and a host id are needed");
        return CZ_ERR_ARG;
    }
    if (cfg->lease_ms < 100 || cfg->max_attempts < 1 || cfg->backoff_ms < 0) {
        seterr(err, err_len, "farm: lease_ms must be >= 100, max_attempts >= 1, backoff_ms >= 0");
        return CZ_ERR_ARG;
    }
    cz_farm_queue *q = calloc(1, sizeof *q);
    if (!q) {
        seterr(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    q->cfg = *cfg;
    q->url = strdup(cfg->url);
    q->host_id = strdup(cfg->host_id);
    q->password = cfg->password ? strdup(cfg->password) : NULL;
    q->version = -1;
    if (!q->url || !q->host_id || (cfg->password && !q->password)) {
        cz_farm_queue_close(q);
        seterr(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    q->cfg.url = q->url;
    q->cfg.host_id = q->host_id;
    q->cfg.password = q->password;
    if (q_connect(q, err, err_len)) {
        cz_farm_queue_close(q);
        return CZ_ERR_IO;
    }
    cz_status st = q_migrate(q, err, err_len);
    if (st) {
        cz_farm_queue_close(q);
        return st;
    }
    *out = q;
    return CZ_OK;
}

void cz_farm_queue_close(cz_farm_queue *q)
{
    if (!q)
        return;
    if (q->conn)
        PQfinish(q->conn);
    free(q->url);
    free(q->host_id);
    if (q->password) {
        memset(q->password, 0, strlen(q->password));
        free(q->password);
    }
    free(q);
}

cz_status cz_farm_url_check(const char *url, char *err, size_t err_len)
{
    if (!url || !*url) {
        seterr(err, err_len, "the database URL is empty");
        return CZ_ERR_ARG;
    }
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(url, &perr);
    if (!opts) {
        seterr(err, err_len, "database URL: %s", perr ? perr : "out of memory");
        PQfreemem(perr);
        return CZ_ERR_ARG;
    }
    cz_status st = CZ_OK;
    for (PQconninfoOption *o = opts; o->keyword; o++)
        if (!strcmp(o->keyword, "password") && o->val && *o->val) {
            seterr(err, err_len,
                   "the database URL carries a password: give it in PGPASSWORD, ~/.pgpass (PGPASSFILE) or "
                   "farm.password_file instead");
            st = CZ_ERR_ARG;
        }
    PQconninfoFree(opts);
    return st;
}

int cz_farm_queue_schema_version(cz_farm_queue *q)
{
    return q ? q->version : -1;
}

/* ------------------------------------------------------------------ */
/* helpers                                                              */
/* ------------------------------------------------------------------ */

int64_t cz_farm_job_number(const char *job_id)
{
    if (!job_id || job_id[0] != 'j' || !job_id[1] || strlen(job_id) > 19)
        return -1;
    int64_t n = 0;
    for (const char *p = job_id + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n;
}

/* A PostgreSQL array literal of strings: {"a","b\"c"}. Caller frees. */
static char *array_literal(const char *const *v, size_t n)
{
    size_t cap = 3;
    for (size_t i = 0; i < n; i++)
        cap += 2 * strlen(v[i] ? v[i] : "") + 3;
    char *s = malloc(cap), *p = s;
    if (!s)
        return NULL;
    *p++ = '{';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        *p++ = '"';
        for (const char *c = v[i] ? v[i] : ""; *c; c++) {
            if (*c == '"' || *c == '\\')
                *p++ = '\\';
            *p++ = *c;
        }
        *p++ = '"';
    }
    *p++ = '}';
    *p = 0;
    return s;
}

/* FNV-1a over the request's content: binds a request_id to its request. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void request_hash(const cz_farm_request *r, char out[40])
{
    uint64_t h = 0xcbf29ce484222325ull, g = 0x84222325cbf29ce4ull;
    char prio = (char)('0' + r->priority);
    h = fnv(h, r->key_id, strlen(r->key_id) + 1);
    h = fnv(h, &prio, 1);
    if (r->paths) {
        for (size_t i = 0; i < r->n_paths; i++)
            h = fnv(h, r->paths[i], strlen(r->paths[i]) + 1);
    } else {
        h = fnv(h, "\x01", 1);
        h = fnv(h, r->input, r->input_len);
    }
    g = fnv(g, &h, sizeof h);
    g = fnv(g, r->input ? r->input : (const void *)"", r->input ? r->input_len : 0);
    snprintf(out, 40, "%016" PRIx64 "%016" PRIx64, h, g);
}

/* ------------------------------------------------------------------ */
/* submission                                                           */
/* ------------------------------------------------------------------ */

cz_status cz_farm_queue_submit(cz_farm_queue *q, const cz_farm_request *r, char *job_id,
                               cz_farm_outcome *outcome, char *err, size_t err_len)
{
    cz_farm_outcome dummy;
    if (!outcome)
        outcome = &dummy;
    *outcome = CZ_FARM_NEW;
    job_id[0] = 0;
    if (!r || !r->key_id || !*r->key_id || r->priority < 0 || r->priority > 3 ||
        (!r->paths && !r->input) || (r->paths && (r->input || r->n_paths == 0))) {
        seterr(err, err_len, "farm: a job needs a key, a priority and either bytes or paths");
        return CZ_ERR_ARG;
    }
    for (size_t i = 0; r->paths && i < r->n_paths; i++)
        if (!r->paths[i] || !*r->paths[i]) {
            seterr(err, err_len, "farm: partition %zu has an empty path", i);
            return CZ_ERR_ARG;
        }
    if (r->input && r->input_len > q->cfg.inline_max) {
        seterr(err, err_len,
               "witness of %zu bytes exceeds the farm's inline limit (%zu bytes): pass a path on shared storage",
               r->input_len, q->cfg.inline_max);
        return CZ_ERR_RANGE;
    }
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;

    char prio[8], nparts[16], hash[40], maxa[16], origin[8];
    snprintf(prio, sizeof prio, "%d", r->priority);
    snprintf(nparts, sizeof nparts, "%zu", r->paths ? r->n_paths : (size_t)1);
    snprintf(maxa, sizeof maxa, "%d", q->cfg.max_attempts);
    snprintf(origin, sizeof origin, "%d", r->origin);
    request_hash(r, hash);

    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    PGresult *res;
    const char *rid = r->request_id && *r->request_id ? r->request_id : NULL;
    const char *jv[5] = {rid, rid ? hash : NULL, r->key_id, prio, nparts};
    res = q_exec(q,
                 "INSERT INTO cz_jobs (request_id, request_hash, key_id, priority, n_partitions)"
                 " VALUES ($1, $2, $3, $4::smallint, $5::int)"
                 " ON CONFLICT (request_id) DO NOTHING RETURNING job_id",
                 5, jv, NULL, NULL, "submit", &st, err, err_len);
    if (!res)
        return st;
    if (PQntuples(res) == 0) {
        /* the request id is taken: the same request gets its job back */
        PQclear(res);
        const char *v[1] = {rid};
        res = q_exec(q, "SELECT job_id, request_hash FROM cz_jobs WHERE request_id = $1", 1, v, NULL, NULL,
                     "submit", &st, err, err_len);
        if (!res)
            return st;
        q_rollback(q);
        if (PQntuples(res) == 0) { /* deleted meanwhile: let the client retry */
            PQclear(res);
            seterr(err, err_len, "request_id %s: its job was just removed; retry", rid);
            return CZ_ERR_IO;
        }
        snprintf(job_id, 24, "j%s", PQgetvalue(res, 0, 0));
        int same = strcmp(PQgetvalue(res, 0, 1), hash) == 0;
        PQclear(res);
        if (!same) {
            *outcome = CZ_FARM_CONFLICT;
            seterr(err, err_len, "request_id %s is bound to another request (job %s)", rid, job_id);
            job_id[0] = 0;
            return CZ_ERR_BUSY;
        }
        *outcome = CZ_FARM_EXISTING;
        return CZ_OK;
    }
    char jnum[22];
    snprintf(jnum, sizeof jnum, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);

    if (r->paths) {
        char *arr = array_literal(r->paths, r->n_paths);
        if (!arr) {
            q_rollback(q);
            seterr(err, err_len, "out of memory");
            return CZ_ERR_NOMEM;
        }
        const char *v[6] = {jnum, r->key_id, prio, origin, maxa, arr};
        res = q_exec(q,
                     "INSERT INTO cz_partitions (job_id, idx, key_id, priority, origin, max_attempts, input_path)"
                     " SELECT $1::bigint, (u.ord - 1)::int, $2, $3::smallint, $4::smallint, $5::int, u.p"
                     " FROM unnest($6::text[]) WITH ORDINALITY AS u(p, ord)",
                     6, v, NULL, NULL, "submit", &st, err, err_len);
        free(arr);
    } else {
        const char *v[6] = {jnum, r->key_id, prio, origin, maxa, (const char *)r->input};
        int lens[6] = {0, 0, 0, 0, 0, (int)r->input_len};
        int fmts[6] = {0, 0, 0, 0, 0, 1};
        res = q_exec(q,
                     "INSERT INTO cz_partitions (job_id, idx, key_id, priority, origin, max_attempts, input)"
                     " VALUES ($1::bigint, 0, $2, $3::smallint, $4::smallint, $5::int, $6::bytea)",
                     6, v, lens, fmts, "submit", &st, err, err_len);
    }
    if (!res)
        return st;
    PQclear(res);
    if ((st = q_cmd(q, "NOTIFY cz_work", err, err_len)) || (st = q_cmd(q, "COMMIT", err, err_len)))
        return st;
    snprintf(job_id, 24, "j%s", jnum);
    return CZ_OK;
}

/* ------------------------------------------------------------------ */
/* work                                                                 */
/* ------------------------------------------------------------------ */

void cz_farm_lease_drop_input(cz_farm_lease *l)
{
    if (!l)
        return;
    if (l->input) {
        memset(l->input, 0, l->input_len); /* a witness is secret */
        PQfreemem(l->input);
    }
    free(l->input_path);
    l->input = NULL;
    l->input_len = 0;
    l->input_path = NULL;
}

void cz_farm_lease_clear(cz_farm_lease *l)
{
    if (!l)
        return;
    cz_farm_lease_drop_input(l);
    memset(l, 0, sizeof *l);
}

cz_status cz_farm_queue_claim(cz_farm_queue *q, const char *const *keys, size_t n_keys, cz_farm_lease *out,
                              int *got, char *err, size_t err_len)
{
    *got = 0;
    memset(out, 0, sizeof *out);
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char *arr = n_keys ? array_literal(keys, n_keys) : NULL;
    if (n_keys && !arr) {
        seterr(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    char lease[16];
    snprintf(lease, sizeof lease, "%d", q->cfg.lease_ms);
    const char *v[3] = {q->host_id, arr, lease};
    cz_status st;
    /* One statement: pick (skipping rows other hosts are claiming), take,
       and mark the job started. A running row whose lease expired is taken
       over here as well, while it has attempts left (cz_farm_queue_reap
       fails the others). */
    PGresult *r = q_exec(
        q,
        "WITH c AS ("
        "  SELECT job_id, idx FROM cz_partitions"
        "   WHERE ((state = 'queued' AND not_before <= now())"
        "       OR (state = 'running' AND lease_expires < now() AND attempts < max_attempts))"
        "     AND ($2::text[] IS NULL OR key_id = ANY($2::text[]))"
        "   ORDER BY priority DESC, job_id, idx"
        "   LIMIT 1 FOR UPDATE SKIP LOCKED),"
        " u AS ("
        "  UPDATE cz_partitions p SET state = 'running', owner = $1, epoch = p.epoch + 1,"
        "         attempts = p.attempts + 1, claimed_at = now(),"
        "         lease_expires = now() + $3::int * interval '1 millisecond'"
        "    FROM c WHERE p.job_id = c.job_id AND p.idx = c.idx"
        "  RETURNING p.job_id, p.idx, p.epoch, p.attempts, p.priority, p.origin, p.key_id, p.input,"
        "            p.input_path, extract(epoch FROM now() - p.queued_at) * 1000 AS waited),"
        " j AS ("
        "  UPDATE cz_jobs SET state = 'proving' FROM u"
        "   WHERE cz_jobs.job_id = u.job_id AND cz_jobs.state = 'queued')"
        " SELECT u.*, (SELECT n_partitions FROM cz_jobs WHERE cz_jobs.job_id = u.job_id) FROM u",
        3, v, NULL, NULL, "claim", &st, err, err_len);
    free(arr);
    if (!r)
        return st;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return CZ_OK;
    }
    out->job = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    out->index = atoi(PQgetvalue(r, 0, 1));
    out->epoch = strtoll(PQgetvalue(r, 0, 2), NULL, 10);
    out->attempt = atoi(PQgetvalue(r, 0, 3));
    out->priority = atoi(PQgetvalue(r, 0, 4));
    out->origin = atoi(PQgetvalue(r, 0, 5));
    snprintf(out->key_id, sizeof out->key_id, "%s", PQgetvalue(r, 0, 6));
    if (!PQgetisnull(r, 0, 7)) {
        size_t n = 0;
        out->input = PQunescapeBytea((const unsigned char *)PQgetvalue(r, 0, 7), &n);
        out->input_len = n;
        if (!out->input) {
            PQclear(r);
            seterr(err, err_len, "out of memory");
            return CZ_ERR_NOMEM; /* the lease expires and the partition goes to another claim */
        }
    } else {
        out->input_path = strdup(PQgetvalue(r, 0, 8));
    }
    out->waited_ms = atof(PQgetvalue(r, 0, 9));
    out->n_partitions = atoi(PQgetvalue(r, 0, 10));
    PQclear(r);
    *got = 1;
    return CZ_OK;
}

cz_status cz_farm_queue_wanted(cz_farm_queue *q, const char *const *keys, size_t n_keys, char *out,
                               size_t out_len, char *err, size_t err_len)
{
    if (out_len)
        out[0] = 0;
    if (!n_keys)
        return CZ_OK;
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char *arr = array_literal(keys, n_keys);
    if (!arr) {
        seterr(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    const char *v[1] = {arr};
    cz_status st;
    /* the claim's condition, without the lock: the most urgent first */
    PGresult *r = q_exec(q,
                         "SELECT key_id FROM cz_partitions"
                         " WHERE ((state = 'queued' AND not_before <= now())"
                         "     OR (state = 'running' AND lease_expires < now() AND attempts < max_attempts))"
                         "   AND key_id = ANY($1::text[])"
                         " ORDER BY priority DESC, job_id, idx LIMIT 1",
                         1, v, NULL, NULL, "wanted keys", &st, err, err_len);
    free(arr);
    if (!r)
        return st;
    if (PQntuples(r) > 0 && out_len)
        snprintf(out, out_len, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return CZ_OK;
}

static void lease_params(const cz_farm_lease *l, char job[24], char idx[16], char epoch[24])
{
    snprintf(job, 24, "%" PRId64, l->job);
    snprintf(idx, 16, "%d", l->index);
    snprintf(epoch, 24, "%" PRId64, l->epoch);
}

/* Why a write under lease l matched no row: CZ_ERR_CANCELLED (the job
   ended), CZ_ERR_BUSY (fenced or expired), or CZ_OK when the same epoch
   already wrote `done_state` (a repeated write that had committed). */
static cz_status lease_lost(cz_farm_queue *q, const cz_farm_lease *l, const char *done_state, char *err,
                            size_t err_len)
{
    char job[24], idx[16], epoch[24];
    lease_params(l, job, idx, epoch);
    const char *v[2] = {job, idx};
    cz_status st;
    PGresult *r = q_exec(q,
                         "SELECT state, epoch, owner, lease_expires < now() FROM cz_partitions"
                         " WHERE job_id = $1::bigint AND idx = $2::int",
                         2, v, NULL, NULL, "lease check", &st, err, err_len);
    if (!r)
        return st;
    if (PQntuples(r) == 0) {
        PQclear(r);
        seterr(err, err_len, "j%" PRId64 " partition %d: the job is gone", l->job, l->index);
        return CZ_ERR_CANCELLED;
    }
    const char *state = PQgetvalue(r, 0, 0);
    int64_t ep = strtoll(PQgetvalue(r, 0, 1), NULL, 10);
    cz_status out;
    if (done_state && ep == l->epoch && strcmp(state, done_state) == 0) {
        out = CZ_OK;
    } else if (strcmp(state, "cancelled") == 0 || (strcmp(state, "failed") == 0 && ep == l->epoch)) {
        seterr(err, err_len, "j%" PRId64 " partition %d: its job was %s", l->job, l->index,
               strcmp(state, "cancelled") == 0 ? "cancelled or failed" : "failed");
        out = CZ_ERR_CANCELLED;
    } else if (ep != l->epoch) {
        seterr(err, err_len,
               "j%" PRId64 " partition %d: epoch %" PRId64 " is stale (now %" PRId64 ", %s by %s): write refused",
               l->job, l->index, l->epoch, ep, state, PQgetisnull(r, 0, 2) ? "-" : PQgetvalue(r, 0, 2));
        out = CZ_ERR_BUSY;
    } else {
        seterr(err, err_len, "j%" PRId64 " partition %d: lease of epoch %" PRId64 " expired (%s): write refused",
               l->job, l->index, l->epoch, state);
        out = CZ_ERR_BUSY;
    }
    PQclear(r);
    return out;
}

cz_status cz_farm_queue_renew(cz_farm_queue *q, const cz_farm_lease *l, char *err, size_t err_len)
{
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char job[24], idx[16], epoch[24], lease[16];
    lease_params(l, job, idx, epoch);
    snprintf(lease, sizeof lease, "%d", q->cfg.lease_ms);
    const char *v[4] = {job, idx, epoch, lease};
    cz_status st;
    PGresult *r = q_exec(q,
                         "UPDATE cz_partitions SET lease_expires = now() + $4::int * interval '1 millisecond'"
                         " WHERE job_id = $1::bigint AND idx = $2::int AND epoch = $3::bigint"
                         "   AND state = 'running' AND lease_expires > now()",
                         4, v, NULL, NULL, "renew", &st, err, err_len);
    if (!r)
        return st;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    return n == 1 ? CZ_OK : lease_lost(q, l, NULL, err, err_len);
}

/* The job fails with `why` (its first failure wins) and its other
   partitions are cancelled. Inside the caller's transaction. */
static cz_status fail_job(cz_farm_queue *q, const char *job, const char *why, char *err, size_t err_len)
{
    const char *v[2] = {job, why};
    cz_status st;
    PGresult *r = q_exec(q,
                         "UPDATE cz_jobs SET state = 'failed', error = $2, finished_at = now()"
                         " WHERE job_id = $1::bigint AND state IN ('queued', 'proving')",
                         2, v, NULL, NULL, "fail job", &st, err, err_len);
    if (!r)
        return st;
    PQclear(r);
    r = q_exec(q,
               "UPDATE cz_partitions SET state = 'cancelled', lease_expires = NULL, finished_at = now()"
               " WHERE job_id = $1::bigint AND state IN ('queued', 'running')",
               1, v, NULL, NULL, "fail job", &st, err, err_len);
    if (!r)
        return st;
    PQclear(r);
    r = q_exec(q, "SELECT pg_notify('cz_done', 'j' || $1)", 1, v, NULL, NULL, "notify", &st, err, err_len);
    PQclear(r);
    return st;
}

cz_status cz_farm_queue_complete(cz_farm_queue *q, const cz_farm_lease *l, const char *result_json, char *err,
                                 size_t err_len)
{
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char job[24], idx[16], epoch[24];
    lease_params(l, job, idx, epoch);
    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    const char *v[4] = {job, idx, epoch, result_json};
    PGresult *r = q_exec(q,
                         "UPDATE cz_partitions SET state = 'done', result = $4::json, lease_expires = NULL,"
                         "       finished_at = now(), error = NULL"
                         " WHERE job_id = $1::bigint AND idx = $2::int AND epoch = $3::bigint"
                         "   AND state = 'running' AND lease_expires > now()",
                         4, v, NULL, NULL, "complete", &st, err, err_len);
    if (!r)
        return st;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    if (n != 1) {
        q_rollback(q);
        return lease_lost(q, l, "done", err, err_len);
    }
    r = q_exec(q,
               "UPDATE cz_jobs SET n_done = n_done + 1,"
               "       state = CASE WHEN n_done + 1 = n_partitions THEN 'done' ELSE state END,"
               "       finished_at = CASE WHEN n_done + 1 = n_partitions THEN now() END"
               " WHERE job_id = $1::bigint AND state IN ('queued', 'proving')"
               " RETURNING state",
               1, v, NULL, NULL, "complete", &st, err, err_len);
    if (!r)
        return st;
    int finished = PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "done") == 0;
    PQclear(r);
    if (finished) {
        r = q_exec(q, "SELECT pg_notify('cz_done', 'j' || $1)", 1, v, NULL, NULL, "notify", &st, err, err_len);
        if (!r)
            return st;
        PQclear(r);
    }
    return q_cmd(q, "COMMIT", err, err_len);
}

cz_status cz_farm_queue_fail(cz_farm_queue *q, const cz_farm_lease *l, const char *reason, int deterministic,
                             char *err, size_t err_len)
{
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char job[24], idx[16], epoch[24];
    lease_params(l, job, idx, epoch);
    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    const char *v[4] = {job, idx, epoch, reason ? reason : "failed"};
    PGresult *r = q_exec(q,
                         "SELECT p.attempts, p.max_attempts, j.n_partitions FROM cz_partitions p"
                         "  JOIN cz_jobs j USING (job_id)"
                         " WHERE p.job_id = $1::bigint AND p.idx = $2::int AND p.epoch = $3::bigint"
                         "   AND p.state = 'running' AND p.lease_expires > now()"
                         " FOR UPDATE OF p",
                         3, v, NULL, NULL, "fail", &st, err, err_len);
    if (!r)
        return st;
    if (PQntuples(r) == 0) {
        PQclear(r);
        q_rollback(q);
        return lease_lost(q, l, "failed", err, err_len);
    }
    int attempts = atoi(PQgetvalue(r, 0, 0)), max = atoi(PQgetvalue(r, 0, 1)), nparts = atoi(PQgetvalue(r, 0, 2));
    PQclear(r);
    if (deterministic || attempts >= max) {
        char why[1024];
        char tries[64] = "";
        if (!deterministic)
            snprintf(tries, sizeof tries, "failed %d times, last: ", attempts);
        if (nparts > 1)
            snprintf(why, sizeof why, "partition %d: %s%s", l->index, tries, v[3]);
        else
            snprintf(why, sizeof why, "%s%s", tries, v[3]);
        const char *w[3] = {job, idx, v[3]};
        r = q_exec(q,
                   "UPDATE cz_partitions SET state = 'failed', error = $3, lease_expires = NULL, finished_at = now()"
                   " WHERE job_id = $1::bigint AND idx = $2::int",
                   3, w, NULL, NULL, "fail", &st, err, err_len);
        if (!r)
            return st;
        PQclear(r);
        if ((st = fail_job(q, job, why, err, err_len)))
            return st;
    } else {
        /* backoff_ms * 2^(attempts - 1), at most 30 s */
        long delay = q->cfg.backoff_ms;
        for (int i = 1; i < attempts && delay < 30000; i++)
            delay *= 2;
        if (delay > 30000)
            delay = 30000;
        char d[24];
        snprintf(d, sizeof d, "%ld", delay);
        const char *w[5] = {job, idx, epoch, v[3], d};
        r = q_exec(q,
                   "UPDATE cz_partitions SET state = 'queued', owner = NULL, lease_expires = NULL, error = $4,"
                   "       not_before = now() + $5::int * interval '1 millisecond', queued_at = now()"
                   " WHERE job_id = $1::bigint AND idx = $2::int AND epoch = $3::bigint",
                   5, w, NULL, NULL, "fail", &st, err, err_len);
        if (!r)
            return st;
        PQclear(r);
    }
    return q_cmd(q, "COMMIT", err, err_len);
}

cz_status cz_farm_queue_release(cz_farm_queue *q, const cz_farm_lease *l, char *err, size_t err_len)
{
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char job[24], idx[16], epoch[24];
    lease_params(l, job, idx, epoch);
    const char *v[3] = {job, idx, epoch};
    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    PGresult *r = q_exec(q,
                         "UPDATE cz_partitions SET state = 'queued', owner = NULL, lease_expires = NULL,"
                         "       attempts = greatest(attempts - 1, 0), queued_at = now()"
                         " WHERE job_id = $1::bigint AND idx = $2::int AND epoch = $3::bigint"
                         "   AND state = 'running'",
                         3, v, NULL, NULL, "release", &st, err, err_len);
    if (!r)
        return st;
    PQclear(r);
    if ((st = q_cmd(q, "NOTIFY cz_work", err, err_len)))
        return st;
    return q_cmd(q, "COMMIT", err, err_len);
}

cz_status cz_farm_queue_reap(cz_farm_queue *q, int *failed, int *deleted, char *err, size_t err_len)
{
    if (failed)
        *failed = 0;
    if (deleted)
        *deleted = 0;
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    cz_status st;
    /* expired leases with no attempt left: one transaction each */
    for (int round = 0; round < 64; round++) {
        if ((st = q_cmd(q, "BEGIN", err, err_len)))
            return st;
        PGresult *r = q_exec(q,
                             "SELECT p.job_id, p.idx, p.attempts, coalesce(p.owner, '-'), j.n_partitions"
                             "  FROM cz_partitions p JOIN cz_jobs j USING (job_id)"
                             " WHERE p.state = 'running' AND p.lease_expires < now()"
                             "   AND p.attempts >= p.max_attempts"
                             " LIMIT 1 FOR UPDATE OF p SKIP LOCKED",
                             0, NULL, NULL, NULL, "reap", &st, err, err_len);
        if (!r)
            return st;
        if (PQntuples(r) == 0) {
            PQclear(r);
            q_rollback(q);
            break;
        }
        char job[24], idx[16], why[512];
        snprintf(job, sizeof job, "%s", PQgetvalue(r, 0, 0));
        snprintf(idx, sizeof idx, "%s", PQgetvalue(r, 0, 1));
        char reason[256];
        snprintf(reason, sizeof reason, "lease expired %s times (last on host %s)", PQgetvalue(r, 0, 2),
                 PQgetvalue(r, 0, 3));
        if (atoi(PQgetvalue(r, 0, 4)) > 1)
            snprintf(why, sizeof why, "partition %s: %s", idx, reason);
        else
            snprintf(why, sizeof why, "%s", reason);
        PQclear(r);
        const char *v[3] = {job, idx, reason};
        r = q_exec(q,
                   "UPDATE cz_partitions SET state = 'failed', error = $3, lease_expires = NULL, finished_at = now()"
                   " WHERE job_id = $1::bigint AND idx = $2::int",
                   3, v, NULL, NULL, "reap", &st, err, err_len);
        if (!r)
            return st;
        PQclear(r);
        if ((st = fail_job(q, job, why, err, err_len)) || (st = q_cmd(q, "COMMIT", err, err_len)))
            return st;
        if (failed)
            (*failed)++;
    }
    char retain[24];
    snprintf(retain, sizeof retain, "%d", q->cfg.retain_s);
    const char *v[1] = {retain};
    PGresult *r = q_exec(q,
                         "DELETE FROM cz_jobs WHERE finished_at < now() - $1::int * interval '1 second'",
                         1, v, NULL, NULL, "reap", &st, err, err_len);
    if (!r)
        return st;
    if (deleted)
        *deleted = atoi(PQcmdTuples(r));
    PQclear(r);
    return q_cmd(q, "DELETE FROM cz_hosts WHERE heartbeat < now() - interval '1 hour'", err, err_len);
}

/* ------------------------------------------------------------------ */
/* clients                                                              */
/* ------------------------------------------------------------------ */

static json_t *parse_json(const char *s)
{
    json_error_t je;
    return s ? json_loads(s, JSON_DECODE_ANY, &je) : NULL;
}

static json_t *job_json_once(cz_farm_queue *q, int64_t num, cz_status *st, char *err, size_t err_len)
{
    char job[24];
    snprintf(job, sizeof job, "%" PRId64, num);
    const char *v[1] = {job};
    PGresult *r = q_exec(q,
                         "SELECT request_id, key_id, priority, state, n_partitions, error,"
                         "       extract(epoch FROM coalesce(finished_at, now()) - submitted_at) * 1000"
                         "  FROM cz_jobs WHERE job_id = $1::bigint",
                         1, v, NULL, NULL, "job", st, err, err_len);
    if (!r)
        return NULL;
    if (PQntuples(r) == 0) {
        PQclear(r);
        *st = CZ_ERR_NOT_FOUND;
        seterr(err, err_len, "no job j%s", job);
        return NULL;
    }
    char id[32];
    snprintf(id, sizeof id, "j%s", job);
    int prio = atoi(PQgetvalue(r, 0, 2));
    const char *state = PQgetvalue(r, 0, 3);
    int nparts = atoi(PQgetvalue(r, 0, 4));
    json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "job_id", id, "status", state, "priority",
                          prio_names[prio >= 0 && prio < 4 ? prio : 1], "key", PQgetvalue(r, 0, 1));
    if (!PQgetisnull(r, 0, 0))
        json_object_set_new(o, "request_id", json_string(PQgetvalue(r, 0, 0)));
    if (!PQgetisnull(r, 0, 5))
        json_object_set_new(o, "error", json_string(PQgetvalue(r, 0, 5)));
    double total = atof(PQgetvalue(r, 0, 6));
    int done = strcmp(state, "done") == 0;
    PQclear(r);

    r = q_exec(q,
               "SELECT idx, state, owner, attempts, error, result::text FROM cz_partitions"
               " WHERE job_id = $1::bigint ORDER BY idx",
               1, v, NULL, NULL, "job", st, err, err_len);
    if (!r) {
        json_decref(o);
        return NULL;
    }
    json_t *parts = json_array(), *proofs = json_array(), *publics = json_array();
    json_t *first_timings = NULL, *first_device = NULL;
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *p = json_pack("{s:i, s:s, s:i}", "index", atoi(PQgetvalue(r, i, 0)), "state", PQgetvalue(r, i, 1),
                              "attempts", atoi(PQgetvalue(r, i, 3)));
        if (!PQgetisnull(r, i, 2))
            json_object_set_new(p, "host", json_string(PQgetvalue(r, i, 2)));
        if (!PQgetisnull(r, i, 4))
            json_object_set_new(p, "error", json_string(PQgetvalue(r, i, 4)));
        json_t *res = PQgetisnull(r, i, 5) ? NULL : parse_json(PQgetvalue(r, i, 5));
        if (res) {
            json_t *t = json_object_get(res, "timings_ms"), *d = json_object_get(res, "device");
            if (t)
                json_object_set(p, "timings_ms", t);
            if (d)
                json_object_set(p, "device", d);
            if (i == 0) {
                first_timings = t ? json_deep_copy(t) : NULL;
                first_device = d ? json_incref(d) : NULL;
            }
            if (done) {
                json_t *pf = json_object_get(res, "proof"), *pb = json_object_get(res, "public");
                json_array_append(proofs, pf ? pf : json_null());
                json_array_append(publics, pb ? pb : json_null());
            }
            json_decref(res);
        }
        json_array_append_new(parts, p);
    }
    PQclear(r);
    if (nparts > 1) {
        json_object_set_new(o, "partitions", parts);
        json_object_set_new(o, "timings_ms", json_pack("{s:f}", "total", total));
        if (done) {
            json_object_set_new(o, "proofs", proofs);
            json_object_set_new(o, "publics", publics);
        } else {
            json_decref(proofs);
            json_decref(publics);
        }
        json_decref(first_timings);
        json_decref(first_device);
    } else {
        /* one partition: the shape of a local job, plus the host that proved it */
        json_t *p0 = json_array_get(parts, 0);
        if (p0 && json_object_get(p0, "host"))
            json_object_set(o, "host", json_object_get(p0, "host"));
        if (p0)
            json_object_set(o, "attempts", json_object_get(p0, "attempts"));
        if (!first_timings)
            first_timings = json_object();
        json_object_set_new(first_timings, "farm_total", json_real(total));
        json_object_set_new(o, "timings_ms", first_timings);
        if (first_device)
            json_object_set_new(o, "device", first_device);
        if (done) {
            json_object_set(o, "proof", json_array_get(proofs, 0));
            json_object_set(o, "public", json_array_get(publics, 0));
        }
        json_decref(parts);
        json_decref(proofs);
        json_decref(publics);
    }
    return o;
}

json_t *cz_farm_queue_job_json(cz_farm_queue *q, const char *job_id, cz_status *st, char *err, size_t err_len)
{
    cz_status dummy;
    if (!st)
        st = &dummy;
    int64_t num = cz_farm_job_number(job_id);
    if (num < 0) {
        *st = CZ_ERR_NOT_FOUND;
        seterr(err, err_len, "no job %s", job_id ? job_id : "");
        return NULL;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
        if (q_ready(q, err, err_len)) {
            *st = CZ_ERR_IO;
            return NULL;
        }
        json_t *o = job_json_once(q, num, st, err, err_len);
        if (o || *st != CZ_ERR_IO)
            return o;
    }
    return NULL;
}

static int finished_state(const char *s)
{
    return s && (!strcmp(s, "done") || !strcmp(s, "failed") || !strcmp(s, "cancelled"));
}

json_t *cz_farm_queue_await(cz_farm_queue *q, const char *job_id, int timeout_ms, cz_status *st, char *err,
                            size_t err_len)
{
    cz_status dummy;
    if (!st)
        st = &dummy;
    double end = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    if (cz_farm_queue_listen(q, "cz_done", err, err_len)) {
        *st = CZ_ERR_IO;
        return NULL;
    }
    for (;;) {
        json_t *o = cz_farm_queue_job_json(q, job_id, st, err, err_len);
        if (!o)
            return NULL;
        double left = end - mono_ms();
        if (finished_state(json_string_value(json_object_get(o, "status"))) || left <= 0)
            return o;
        json_decref(o);
        /* a notification wakes us at once; polling covers a lost one */
        cz_farm_queue_wait(q, left < 250 ? (int)left + 1 : 250);
    }
}

cz_status cz_farm_queue_cancel(cz_farm_queue *q, const char *job_id, char *err, size_t err_len)
{
    int64_t num = cz_farm_job_number(job_id);
    if (num < 0) {
        seterr(err, err_len, "no job %s", job_id ? job_id : "");
        return CZ_ERR_NOT_FOUND;
    }
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char job[24];
    snprintf(job, sizeof job, "%" PRId64, num);
    const char *v[1] = {job};
    cz_status st = q_cmd(q, "BEGIN", err, err_len);
    if (st)
        return st;
    PGresult *r = q_exec(q,
                         "UPDATE cz_jobs SET state = 'cancelled', error = 'cancelled', finished_at = now()"
                         " WHERE job_id = $1::bigint AND state IN ('queued', 'proving')",
                         1, v, NULL, NULL, "cancel", &st, err, err_len);
    if (!r)
        return st;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    if (n == 0) {
        r = q_exec(q, "SELECT 1 FROM cz_jobs WHERE job_id = $1::bigint", 1, v, NULL, NULL, "cancel", &st, err,
                   err_len);
        if (!r)
            return st;
        int exists = PQntuples(r) > 0;
        PQclear(r);
        q_rollback(q);
        seterr(err, err_len, exists ? "job %s already finished" : "no job %s", job_id);
        return exists ? CZ_ERR_BUSY : CZ_ERR_NOT_FOUND;
    }
    r = q_exec(q,
               "UPDATE cz_partitions SET state = 'cancelled', lease_expires = NULL, finished_at = now()"
               " WHERE job_id = $1::bigint AND state IN ('queued', 'running')",
               1, v, NULL, NULL, "cancel", &st, err, err_len);
    if (!r)
        return st;
    PQclear(r);
    r = q_exec(q, "SELECT pg_notify('cz_done', 'j' || $1)", 1, v, NULL, NULL, "notify", &st, err, err_len);
    if (!r)
        return st;
    PQclear(r);
    return q_cmd(q, "COMMIT", err, err_len);
}

/* ------------------------------------------------------------------ */
/* hosts and observation                                                */
/* ------------------------------------------------------------------ */

cz_status cz_farm_queue_heartbeat(cz_farm_queue *q, json_t *info, char *err, size_t err_len)
{
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char *s = json_dumps(info ? info : json_object(), JSON_COMPACT);
    if (!s) {
        seterr(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    const char *v[2] = {q->host_id, s};
    cz_status st;
    PGresult *r = q_exec(q,
                         "INSERT INTO cz_hosts (host_id, info) VALUES ($1, $2::jsonb)"
                         " ON CONFLICT (host_id) DO UPDATE SET heartbeat = now(), info = EXCLUDED.info",
                         2, v, NULL, NULL, "heartbeat", &st, err, err_len);
    free(s);
    PQclear(r);
    return st;
}

cz_status cz_farm_queue_key_known(cz_farm_queue *q, const char *key_id, int alive_ms, int *known, char *err,
                                  size_t err_len)
{
    *known = 0;
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO;
    char alive[16];
    snprintf(alive, sizeof alive, "%d", alive_ms);
    const char *v[2] = {key_id, alive};
    cz_status st;
    PGresult *r = q_exec(q,
                         "SELECT EXISTS (SELECT 1 FROM cz_hosts"
                         " WHERE heartbeat > now() - $2::int * interval '1 millisecond'"
                         "   AND (info->'keys' ? $1 OR info->'loadable' ? $1))",
                         2, v, NULL, NULL, "key lookup", &st, err, err_len);
    if (!r)
        return st;
    *known = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return CZ_OK;
}

json_t *cz_farm_queue_status_json(cz_farm_queue *q, char *err, size_t err_len)
{
    if (q_ready(q, err, err_len))
        return NULL;
    cz_status st;
    PGresult *r = q_exec(q,
                         "SELECT h.host_id, extract(epoch FROM now() - h.heartbeat) * 1000, h.info::text,"
                         "       (SELECT count(*) FROM cz_partitions p WHERE p.state = 'running'"
                         "          AND p.owner = h.host_id AND p.lease_expires > now())"
                         "  FROM cz_hosts h ORDER BY h.host_id",
                         0, NULL, NULL, NULL, "status", &st, err, err_len);
    if (!r)
        return NULL;
    json_t *hosts = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        json_t *h = json_pack("{s:s, s:f, s:i}", "host", PQgetvalue(r, i, 0), "heartbeat_ms_ago",
                              atof(PQgetvalue(r, i, 1)), "leases", atoi(PQgetvalue(r, i, 3)));
        json_t *info = parse_json(PQgetvalue(r, i, 2));
        if (info)
            json_object_set_new(h, "info", info);
        json_array_append_new(hosts, h);
    }
    PQclear(r);
    json_t *o = json_pack("{s:s, s:i, s:i, s:o}", "host", q->host_id, "schema_version", q->version,
                          "lease_ms", q->cfg.lease_ms, "hosts", hosts);
    json_t *queue = json_object();
    for (int p = 0; p < 4; p++)
        json_object_set_new(queue, prio_names[p], json_integer(0));
    r = q_exec(q, "SELECT priority, count(*) FROM cz_partitions WHERE state = 'queued' GROUP BY priority", 0,
               NULL, NULL, NULL, "status", &st, err, err_len);
    if (!r) {
        json_decref(o);
        json_decref(queue);
        return NULL;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        int p = atoi(PQgetvalue(r, i, 0));
        if (p >= 0 && p < 4)
            json_object_set_new(queue, prio_names[p], json_integer(atoll(PQgetvalue(r, i, 1))));
    }
    PQclear(r);
    json_object_set_new(o, "queue", queue);
    r = q_exec(q,
               "SELECT (SELECT count(*) FROM cz_partitions WHERE state = 'running' AND lease_expires > now()),"
               "       (SELECT count(*) FROM cz_partitions WHERE state = 'running' AND lease_expires <= now())",
               0, NULL, NULL, NULL, "status", &st, err, err_len);
    if (!r) {
        json_decref(o);
        return NULL;
    }
    json_object_set_new(o, "leases", json_integer(atoll(PQgetvalue(r, 0, 0))));
    json_object_set_new(o, "leases_expired", json_integer(atoll(PQgetvalue(r, 0, 1))));
    PQclear(r);
    r = q_exec(q, "SELECT state, count(*) FROM cz_jobs GROUP BY state ORDER BY state", 0, NULL, NULL, NULL,
               "status", &st, err, err_len);
    if (!r) {
        json_decref(o);
        return NULL;
    }
    json_t *jobs = json_object();
    for (int i = 0; i < PQntuples(r); i++)
        json_object_set_new(jobs, PQgetvalue(r, i, 0), json_integer(atoll(PQgetvalue(r, i, 1))));
    PQclear(r);
    json_object_set_new(o, "jobs", jobs);
    return o;
}

cz_status cz_farm_queue_listen(cz_farm_queue *q, const char *channel, char *err, size_t err_len)
{
    for (int i = 0; i < q->n_listen; i++)
        if (strcmp(q->listen[i], channel) == 0)
            return CZ_OK;
    /* channels are our own constants; refuse anything else */
    if (q->n_listen == MAX_LISTEN || strlen(channel) >= sizeof q->listen[0] ||
        strspn(channel, "abcdefghijklmnopqrstuvwxyz_") != strlen(channel)) {
        seterr(err, err_len, "farm: cannot listen on %s", channel);
        return CZ_ERR_ARG;
    }
    snprintf(q->listen[q->n_listen++], sizeof q->listen[0], "%s", channel);
    if (q_ready(q, err, err_len))
        return CZ_ERR_IO; /* the LISTEN is issued at the reconnect */
    char sql[64];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    return q_cmd(q, sql, err, err_len);
}

unsigned cz_farm_queue_notified(cz_farm_queue *q)
{
    unsigned n = q->notified;
    q->notified = 0;
    return n;
}

int cz_farm_queue_wait(cz_farm_queue *q, int timeout_ms)
{
    double end = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    if (q_ready(q, NULL, 0))
        return -1;
    for (;;) {
        int got = 0;
        PGnotify *n;
        while ((n = PQnotifies(q->conn))) {
            got = 1;
            for (int i = 0; i < q->n_listen; i++)
                if (!strcmp(n->relname, q->listen[i]))
                    q->notified |= 1u << i;
            PQfreemem(n);
        }
        if (got)
            return 1;
        double left = end - mono_ms();
        if (left <= 0)
            return 0;
        struct pollfd pf = {.fd = PQsocket(q->conn), .events = POLLIN};
        if (pf.fd < 0)
            return -1;
        int rc = poll(&pf, 1, (int)left + 1);
        if (rc < 0 && errno != EINTR)
            return -1;
        if (rc > 0 && (!PQconsumeInput(q->conn) || PQstatus(q->conn) != CONNECTION_OK))
            return -1;
    }
}
