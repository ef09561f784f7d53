/*
 * queue.h: the farm's shared job queue, in PostgreSQL (through libpq).
 *
 * DESIGN. Several cuzkd hosts share one queue held in PostgreSQL tables:
 * cz_jobs (one row a job: key, priority, state, request id), cz_partitions
 * (one row a partition: its input, in the database as bytea up to
 * `inline_max` bytes or as a path on storage every host sees; its state,
 * owner, lease and fencing epoch; its result) and cz_hosts (one row a
 * host: heartbeat and what it offers). A host claims the next partition it
 * can run now (a key it holds; priority order, then age) with
 * SELECT ... FOR UPDATE SKIP LOCKED, so two hosts never take the same
 * row, and takes a lease (expiry = the server's now() + lease_ms) and a new
 * epoch (incremented at every claim). While it works it renews the lease;
 * its result is written only if the epoch is still the partition's and the
 * lease has not expired, so a host that stalled past its lease (and whose
 * partition another host then took) cannot write a stale result. A lease
 * that expires is taken over by the next claim; a partition that failed
 * for a reason that may pass (a device, a shutdown) goes back to the queue
 * after a backoff (backoff_ms, doubling) until max_attempts; a partition
 * that fails deterministically (a bad witness) fails its job at once, with
 * the reason, and cancels the job's other partitions. A job is done when
 * all its partitions are; its answer joins their results in partition
 * order. Every change others wait for is announced with NOTIFY (channel
 * cz_work: a partition became claimable; cz_done: a job finished), and
 * waiters also poll, so a lost notification costs one poll interval.
 *
 * The schema is versioned (cz_schema_version) and migrated at open, each
 * migration in one transaction under an advisory lock, so hosts starting
 * at once apply it once. All times are the server's, so the hosts' clocks
 * do not matter.
 *
 * A cz_farm_queue is one connection: not thread safe; every thread that
 * talks to the queue opens its own. A lost connection (the server
 * restarted) is detected before the next call and re-opened, with its
 * LISTENs; a call that fails because the connection broke returns
 * CZ_ERR_IO and may be repeated. Status codes: CZ_ERR_BUSY a lease that
 * is no longer ours (epoch fenced or expired), or a request id bound to
 * another request; CZ_ERR_CANCELLED the partition's job was cancelled or
 * failed; CZ_ERR_NOT_FOUND no such job; CZ_ERR_IO the database.
 */
#ifndef CZ_FARM_QUEUE_H
#define CZ_FARM_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cuzk/cuzk.h"

typedef struct {
    const char *url;       /* libpq connection string or postgresql:// URL (no password: see password) */
    const char *password;  /* optional (from a file); else libpq's PGPASSWORD or ~/.pgpass */
    const char *host_id;   /* this host's name in cz_hosts and as partition owner */
    int lease_ms;          /* lease length (default 15000) */
    int max_attempts;      /* claims of one partition before it fails its job (default 3) */
    int backoff_ms;        /* first retry delay, doubling per attempt, at most 30 s (default 500) */
    size_t inline_max;     /* largest input stored in the database (default 64 MiB) */
    int retain_s;          /* finished jobs are deleted this long after they finish (default 86400) */
} cz_farm_config;

void cz_farm_config_default(cz_farm_config *c);

typedef struct cz_farm_queue cz_farm_queue;

/* The schema version this code migrates to. */
#define CZ_FARM_SCHEMA_VERSION 1

/* A URL cuzkd accepts: libpq parses it, and it carries no password
   (credentials come from the environment or a file, never from the
   command line or a configuration others may read). CZ_ERR_ARG otherwise. */
cz_status cz_farm_url_check(const char *url, char *err, size_t err_len);

/* Connect and migrate the schema (under the advisory lock). */
cz_status cz_farm_queue_open(cz_farm_queue **out, const cz_farm_config *cfg, char *err, size_t err_len);
void cz_farm_queue_close(cz_farm_queue *q);
/* The schema version the database is at (-1: unknown). */
int cz_farm_queue_schema_version(cz_farm_queue *q);

/* ---- submission (any host) ---- */
typedef enum { CZ_FARM_NEW, CZ_FARM_EXISTING, CZ_FARM_CONFLICT } cz_farm_outcome;

typedef struct {
    const char *key_id;
    int priority;                 /* cz_priority: 0 low .. 3 critical */
    const void *input;            /* one partition of these bytes ... */
    size_t input_len;
    const char *const *paths;     /* ... or one partition a path */
    size_t n_paths;
    const char *request_id;       /* optional */
    int origin;                   /* cz_origin of the paths, kept for the host that runs them */
} cz_farm_request;

/* Durable when it returns CZ_OK. job_id receives "j<N>" (24 bytes).
   CZ_ERR_RANGE: input larger than inline_max; CZ_ERR_BUSY: request_id bound
   to another request (*outcome CZ_FARM_CONFLICT). */
cz_status cz_farm_queue_submit(cz_farm_queue *q, const cz_farm_request *r, char *job_id,
                               cz_farm_outcome *outcome, char *err, size_t err_len);

/* ---- work (the host that claims) ---- */
typedef struct {
    int64_t job;          /* the job's number (its id is "j<job>") */
    int index;            /* partition index */
    int64_t epoch;        /* fencing token of this claim */
    int attempt;          /* 1 for the first claim */
    int n_partitions;
    int priority;
    int origin;
    char key_id[128];
    uint8_t *input;       /* owned; NULL when input_path is set */
    size_t input_len;
    char *input_path;     /* owned */
    double waited_ms;     /* from submission (or release) to this claim */
} cz_farm_lease;

/* Claim the next partition whose key is one of keys[0..n_keys) (all keys
   when n_keys is 0): *got 1 and *out filled (free with
   cz_farm_lease_clear), or *got 0 when nothing is claimable now. */
cz_status cz_farm_queue_claim(cz_farm_queue *q, const char *const *keys, size_t n_keys,
                              cz_farm_lease *out, int *got, char *err, size_t err_len);
void cz_farm_lease_clear(cz_farm_lease *l);
/* Which of keys[0..n_keys) has a partition claimable now (the most
   urgent one's key, into out; "" when none): a host asks before it loads
   a key it does not hold, so that it loads only what is wanted. Nothing is
   claimed or locked. */
cz_status cz_farm_queue_wanted(cz_farm_queue *q, const char *const *keys, size_t n_keys, char *out,
                               size_t out_len, char *err, size_t err_len);
/* Wipe and free the lease's input (bytes or path), keeping the rest. */
void cz_farm_lease_drop_input(cz_farm_lease *l);
/* Extend the lease to now() + lease_ms. CZ_ERR_BUSY: no longer ours;
   CZ_ERR_CANCELLED: its job was cancelled or failed (stop working). */
cz_status cz_farm_queue_renew(cz_farm_queue *q, const cz_farm_lease *l, char *err, size_t err_len);
/* Write the result (a JSON object: proof, public, timings_ms, device) under
   the lease's epoch. CZ_ERR_BUSY: refused (stale epoch or expired lease);
   CZ_ERR_CANCELLED: its job was cancelled or failed meanwhile. Repeating
   a write that did commit answers CZ_OK. */
cz_status cz_farm_queue_complete(cz_farm_queue *q, const cz_farm_lease *l, const char *result_json,
                                 char *err, size_t err_len);
/* Report a failure under the lease's epoch. deterministic: the job fails
   now with "partition I: reason"; otherwise the partition is queued again
   after the backoff, or fails its job once it has had max_attempts. */
cz_status cz_farm_queue_fail(cz_farm_queue *q, const cz_farm_lease *l, const char *reason, int deterministic,
                             char *err, size_t err_len);
/* Give the lease back at once without counting the attempt (shutdown). */
cz_status cz_farm_queue_release(cz_farm_queue *q, const cz_farm_lease *l, char *err, size_t err_len);

/* Housekeeping any host may run (every host does, every second): expired
   leases of partitions that had max_attempts fail their jobs (the others
   are taken over by the next claim), finished jobs older than retain_s and
   hosts silent for an hour are deleted. */
cz_status cz_farm_queue_reap(cz_farm_queue *q, int *failed, int *deleted, char *err, size_t err_len);

/* ---- clients (any host) ---- */
/* The job's answer in cuzkd's /v1 format, or NULL with CZ_ERR_NOT_FOUND
   (unknown) or CZ_ERR_IO in *st. */
json_t *cz_farm_queue_job_json(cz_farm_queue *q, const char *job_id, cz_status *st, char *err, size_t err_len);
/* Wait up to timeout_ms for the job to finish (LISTEN cz_done, polling
   every poll_ms as well); the answer as cz_farm_queue_job_json. */
json_t *cz_farm_queue_await(cz_farm_queue *q, const char *job_id, int timeout_ms, cz_status *st, char *err,
                            size_t err_len);
/* CZ_OK, CZ_ERR_NOT_FOUND, or CZ_ERR_BUSY (already finished). */
cz_status cz_farm_queue_cancel(cz_farm_queue *q, const char *job_id, char *err, size_t err_len);

/* ---- hosts and observation ---- */
/* Insert or refresh this host's row: heartbeat = now(), info = *info. */
cz_status cz_farm_queue_heartbeat(cz_farm_queue *q, json_t *info, char *err, size_t err_len);
/* Whether a host whose heartbeat is younger than alive_ms holds the key
   or can load it (its info's "keys" or "loadable"). */
cz_status cz_farm_queue_key_known(cz_farm_queue *q, const char *key_id, int alive_ms, int *known, char *err,
                                  size_t err_len);
/* {"hosts": [...], "queue": {"low": n, ...}, "leases": n, "jobs": {...}} */
json_t *cz_farm_queue_status_json(cz_farm_queue *q, char *err, size_t err_len);

/* LISTEN on channel (kept across reconnects). */
cz_status cz_farm_queue_listen(cz_farm_queue *q, const char *channel, char *err, size_t err_len);
/* Wait up to timeout_ms for a notification on a channel this connection
   listens on: 1 one came, 0 timeout, -1 the connection is broken. */
int cz_farm_queue_wait(cz_farm_queue *q, int timeout_ms);
/* Which channels notified since the last call: bit i for the i-th channel
   listened to (in the order of cz_farm_queue_listen); clears them. */
unsigned cz_farm_queue_notified(cz_farm_queue *q);

/* Job ids: "j<N>" <-> N; -1 for a malformed id. */
int64_t cz_farm_job_number(const char *job_id);

#endif
