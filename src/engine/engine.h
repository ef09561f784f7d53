/*
 * engine.h: the proving engine behind cuzkd.
 *
 * DESIGN. A job is a request to prove witnesses against one resident key;
 * it is made of partitions, one proof each (a snarkjs job has one; a job
 * submitted with several witnesses has one per witness; a porep job, one
 * per partition of its commit-1 input, each synthesising its own witness
 * from that input in the witness stage). A partition is the unit of work:
 * it reserves its memory, has its witness read (or made) and is proven on
 * its own, on whichever device is free, so one job's partitions spread
 * over the GPUs. The job is done when all its partitions are; the first
 * that fails or is cancelled fails or cancels the job, and the others are
 * cancelled (a running one stops at its next stage boundary). Work flows
 * through bounded stages:
 *
 *   pending (priority queue) -> witness workers -> prove queue (priority)
 *     -> prove workers (device lock held around the backend's kernels)
 *     -> self-check + JSON on the same worker, lock released -> done
 *
 * The witness stage runs at most witness_queue_per_gpu witnesses per
 * prove worker ahead of the prove workers (made or waiting), so witnesses
 * made faster than they are proven do not pile up in host memory.
 * Priorities are critical > high > normal > low, FIFO within a level, in
 * both queues. Before a job enters the witness stage it reserves its host
 * memory (witness + prover scratch, estimated from the key); a job that
 * does not fit waits, it never fails for lack of memory while others run.
 * Keys are reference counted: a job holds its key, eviction refuses a key
 * in use, loading a key that does not fit evicts idle keys least recently
 * used first. Keys come from files (.zkey, .czk) or are made in memory
 * from a native circuit preset (a development key, its fixed-base work on
 * the first device). On a GPU backend a key, of either curve, is made
 * resident on the devices as soon as it is in (a thread under each
 * device's lock), so that its first proof does not carry the upload.
 * Each device has one lock that its workers share, so two workers never
 * stage into the same card at once (the seeds' lesson); the
 * next worker's witness is parsed while the current one proves. Decoded
 * witnesses live in a pool of host buffers pinned on the devices
 * (hostpool.h), reused across jobs; its free buffers count against the
 * memory budget and are freed first when a reservation would not fit.
 *
 * Every stage records a span (job, partition, stage, worker, start, end)
 * in a bounded in-memory timeline, and updates counters and per-stage
 * duration histograms for the metrics page. Finished jobs are kept for
 * `retain_jobs` completions, then forgotten, so a long-running daemon's
 * memory stays flat. All public functions are thread safe.
 */
#ifndef CZ_ENGINE_H
#define CZ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cuzk/cuzk.h"

typedef enum { CZ_PRIO_LOW, CZ_PRIO_NORMAL, CZ_PRIO_HIGH, CZ_PRIO_CRITICAL, CZ_PRIO_COUNT } cz_priority;

typedef enum {
    CZ_JOB_QUEUED,      /* waiting for a witness worker (and memory) */
    CZ_JOB_WITNESS,     /* witness being read and checked */
    CZ_JOB_PROVE_QUEUED,/* waiting for a prove worker */
    CZ_JOB_PROVING,
    CZ_JOB_VERIFYING,
    CZ_JOB_DONE,
    CZ_JOB_FAILED,
    CZ_JOB_CANCELLED,
} cz_job_state;

typedef struct {
    const char *device;        /* "cpu", "cuda" or "auto" */
    int devices;               /* devices to use (cuda), 0: every GPU found; CPU counts as one */
    int workers_per_device;    /* prove workers sharing each device lock */
    int witness_workers;       /* witness-stage threads */
    /* Synthesised witnesses that may wait for a prove worker, per prove
       worker (0: no cap). The witness workers count the witnesses they are
       making with those waiting in the prove queue, and take no new
       partition while the sum is at the cap: they wait (no polling) until
       a prove worker takes one. Witnesses that only wait hold host memory
       (porep-32g: 4.2 GB each) and run ahead of the GPU for nothing. */
    int witness_queue_per_gpu;
    int prove_threads;         /* CPU threads per prove worker, 0: all */
    int max_pending;           /* jobs queued or running; more: CZ_ERR_BUSY */
    uint64_t host_mem_budget;  /* bytes for keys + jobs; 0: 3/4 of RAM */
    uint64_t gpu_margin;       /* bytes left free on each GPU */
    uint64_t gpu_memory_limit; /* most bytes of each GPU taken; 0: all free but the margin */
    int verify;                /* self-check every proof (default 1) */
    size_t timeline_cap;       /* spans kept (ring) */
    size_t retain_jobs;        /* finished jobs kept for await */
    size_t max_witness_bytes;  /* largest witness accepted */
    /* Files clients may name (see "Files and paths" in docs/DAEMON.md):
       ':'-separated folders for key files and for witness files (NULL or
       "": none), resolved at start; tcp_paths: clients on TCP may name
       files in them too (else they upload witnesses). The operator's own
       keys (cz_engine_key_load) may come from anywhere. */
    const char *key_dirs;
    const char *witness_dirs;
    int tcp_paths;
} cz_engine_config;

void cz_engine_config_default(cz_engine_config *cfg);

typedef struct cz_engine cz_engine;

cz_status cz_engine_create(cz_engine **out, const cz_engine_config *cfg, char *err, size_t err_len);
/* Stop accepting, fail queued jobs, let running work finish for up to
   grace_ms, fail the rest with "daemon shutting down" and join the
   workers. Jobs stay readable (await answers at once) until destroy. */
void cz_engine_shutdown(cz_engine *e, int grace_ms);
/* Shut down (if not yet) and free everything. No await may be running. */
void cz_engine_destroy(cz_engine *e, int grace_ms);
/* Stop accepting new jobs (submit answers CZ_ERR_BUSY from now on). */
void cz_engine_drain(cz_engine *e);

/* Who names a file: the operator (configuration, command line, the C
   API), a client on the unix socket, or a client on TCP. */
typedef enum { CZ_FROM_OPERATOR, CZ_FROM_LOCAL, CZ_FROM_REMOTE } cz_origin;

/* ---- keys ---- */
/* Load a key as the operator (any regular file). */
cz_status cz_engine_key_load(cz_engine *e, const char *id, const char *path, char *err, size_t err_len);
/* Load a key named by `origin`: its path must be allowed to it (CZ_ERR_IO,
   a refusal that reveals nothing, otherwise). The file is read into memory
   the engine owns (a change to the file later cannot reach the key), after
   its header is checked and the memory it needs (file and matrices) is
   found to fit the host budget next to what running jobs and keys in use
   hold (CZ_ERR_NOMEM, nothing evicted, otherwise). Idle keys are evicted,
   least recently used first, only once the new key is in and only as far
   as needed. The same id loading already: CZ_ERR_BUSY; loaded from the
   same file: CZ_OK; from another: CZ_ERR_BUSY. */
cz_status cz_engine_key_load_from(cz_engine *e, const char *id, const char *path, cz_origin origin,
                                  char *err, size_t err_len);
/* Make a development key for a native circuit preset (porep-mini ...
   porep-32g, see cuzk circuit list) in memory: the circuit is recorded
   (cz_porep_shape) and the key made from it (cz_zkey_from_shape, its
   fixed-base products on the first device's backend), with the toxic
   waste drawn from `seed` when `seeded` (else from the OS). id NULL: the
   preset's name. The memory it takes (points, matrices, and the recorded
   circuit while it is made) is checked against the host budget first and
   held while it is made (CZ_ERR_NOMEM, nothing evicted, when it does not
   fit); the engine mutex is not held meanwhile (minutes at porep-32g).
   The key is then registered like a loaded one (reference counted,
   evictable) and remembers its preset, so that porep jobs find it. The
   same id being made or loaded: CZ_ERR_BUSY; made already from the same
   preset and seed: CZ_OK; anything else under that id: CZ_ERR_BUSY. */
cz_status cz_engine_key_make(cz_engine *e, const char *id, const char *preset, uint64_t seed,
                             int seeded, char *err, size_t err_len);
/* The same in the background (the daemon's [keys] presets): checks the
   preset and id, registers the id as being made and returns at once; an
   engine thread makes the keys so asked one at a time, in order. Until
   the key is made, cz_engine_keys_list_json shows it "loading" with its
   stage, and submissions naming it are CZ_ERR_BUSY with
   CZ_SUBMIT_UNAVAILABLE; a failure is logged and listed ("failed", with
   the error) until the id is made, loaded or deleted. The same id being
   made from the same preset and seed: CZ_OK; otherwise as
   cz_engine_key_make. */
cz_status cz_engine_key_make_background(cz_engine *e, const char *id, const char *preset,
                                        uint64_t seed, int seeded, char *err, size_t err_len);
/* The verification key of a loaded key in snarkjs's JSON (vk_alphabeta_12
   included); NULL for an unknown key. Caller frees. */
char *cz_engine_key_vk_json(cz_engine *e, const char *id);
/* CZ_ERR_BUSY: in use; CZ_ERR_NOT_FOUND: unknown. */
cz_status cz_engine_key_evict(cz_engine *e, const char *id, char *err, size_t err_len);
json_t *cz_engine_keys_json(cz_engine *e);
/* The keys loaded ("state": "ready"), then those being loaded or made
   ("loading", with "stage" and "elapsed_s") and those whose background
   make failed ("failed", with "error"): GET /v1/keys. */
json_t *cz_engine_keys_list_json(cz_engine *e);

/* ---- memory held by requests ---- */
/* Hold `bytes` of the host memory budget for a request's body as it
   arrives (an uploaded witness), so that uploads count next to keys and
   jobs: CZ_ERR_NOMEM when they do not fit now. Give them back with
   cz_engine_mem_release. The status shows them with the jobs' memory. */
cz_status cz_engine_mem_hold(cz_engine *e, uint64_t bytes);
void cz_engine_mem_release(cz_engine *e, uint64_t bytes);
/* The host memory budget in bytes (fixed at creation). */
uint64_t cz_engine_mem_budget(cz_engine *e);
/* Would a new partition of key key_id (its witness named by path: the
   largest file the key takes) get its host reservation now? It counts
   what jobs reserved and uploads hold, keys (loads in flight included),
   pooled buffers in use, and what the partitions already pending will
   reserve first; idle pooled buffers count as free (they give way). A
   partition larger than the budget is admitted when nothing else holds
   or awaits memory (it then runs alone). CZ_OK: yes; CZ_ERR_NOMEM: not
   now (err says why); CZ_ERR_NOT_FOUND: no such key; CZ_ERR_BUSY:
   shutting down. *need (its reservation) and *room (the budget left
   free), in bytes, may be NULL. */
cz_status cz_engine_can_admit(cz_engine *e, const char *key_id, uint64_t *need, uint64_t *room, char *err,
                              size_t err_len);

/* ---- jobs ---- */

/* What cz_engine_submit made of a request (an optional out of the request),
   so that the daemon answers with the right status. */
typedef enum {
    CZ_SUBMIT_NEW,       /* CZ_OK: a new job */
    CZ_SUBMIT_EXISTING,  /* CZ_OK: request_id named a job made for this same request (same key,
                            priority and witness); job_id is that job, whatever its state */
    CZ_SUBMIT_CONFLICT,  /* CZ_ERR_BUSY: request_id names a job made for a different request */
    CZ_SUBMIT_FULL,      /* CZ_ERR_BUSY: max_pending partitions pending now; retry later */
    CZ_SUBMIT_DRAINING,  /* CZ_ERR_BUSY: the engine is shutting down */
    CZ_SUBMIT_UNAVAILABLE, /* CZ_ERR_BUSY: the key is being loaded or made; retry later */
    CZ_SUBMIT_REFUSED,   /* any other error: retrying the same request cannot succeed (a job of
                            more partitions than max_pending is CZ_ERR_RANGE) */
} cz_submit_outcome;

typedef struct {
    const char *key_id;
    const char *witness_path;    /* either a path ... */
    const void *witness;         /* ... or bytes (copied) ... */
    size_t witness_len;
    /* ... or one path per partition (n_partitions of them, at most
       CZ_MAX_PARTITIONS): a job of several proofs against the same key,
       each proven on its own (on any device), done when all are */
    const char *const *witness_paths;
    size_t n_partitions;
    cz_priority priority;
    const char *request_id;      /* optional: resubmission returns the same job; no control bytes */
    /* ... or a porep job: a commit-1 input (c1.h) as JSON text, or its
       path (the policy of witness paths). It is parsed and validated at
       submission; the job has one partition per c1 partition, each
       synthesising its witness (cz_porep_witness). key_id may be NULL:
       the c1's preset. The key must be of that preset (made from it, or a
       file key of its n_vars, n_public and domain): CZ_ERR_ARG otherwise,
       naming both, as for a malformed or inconsistent c1. */
    const char *c1_json;
    size_t c1_len;
    const char *c1_path;
    cz_origin origin;            /* who names the witness paths (policy of the daemon's [paths]) */
    cz_submit_outcome *outcome;  /* optional out */
} cz_job_request;

#define CZ_MAX_PARTITIONS 1024

/* job_id receives "j<N>" (at least 24 bytes); *position the number of
   jobs ahead of it (of its first partition). CZ_ERR_BUSY: queue full, draining, or a
   request_id of another request (err and req->outcome say which); CZ_ERR_RANGE: more
   partitions than max_pending, or too large a witness; CZ_ERR_NOT_FOUND: unknown key;
   CZ_ERR_ARG: bad request. A request_id is bound to its request's content (key, priority,
   witness paths or uploaded bytes) for as long as the job is retained. */
cz_status cz_engine_submit(cz_engine *e, const cz_job_request *req, char *job_id, size_t *position,
                           char *err, size_t err_len);
/* Wait up to timeout_ms for the job to finish; return its JSON (status,
   proof, public, timings, error) or NULL for an unknown job. Caller
   decrefs. */
json_t *cz_engine_await(cz_engine *e, const char *job_id, int timeout_ms);
/* Cancel a queued or running job: CZ_OK, CZ_ERR_NOT_FOUND, or
   CZ_ERR_BUSY (already finished). A running job stops at its next stage
   boundary and reports "cancelled". */
cz_status cz_engine_cancel(cz_engine *e, const char *job_id);

/* ---- observation ---- */
json_t *cz_engine_status_json(cz_engine *e);
json_t *cz_engine_timeline_json(cz_engine *e);
/* Prometheus text exposition; caller frees. */
char *cz_engine_metrics_text(cz_engine *e);

const char *cz_priority_name(cz_priority p);
int cz_priority_parse(const char *s, cz_priority *out); /* 0 ok, -1 bad */
const char *cz_job_state_name(cz_job_state s);

#endif
