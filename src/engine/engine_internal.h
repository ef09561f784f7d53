/*
 * engine_internal.h: what the engine's files share (not for the daemon,
 * which sees engine.h only).
 *
 * DESIGN. The engine is one object, cz_engine, split by subject over
 * engine.c (helpers, life cycle), engine_jobs.c (queues, submission, job
 * ends, await, cancel), engine_workers.c (witness and prove workers),
 * engine_keys.c (keys and the memory budget) and engine_observe.c (spans,
 * histograms, status, timeline, metrics). This header holds the structs
 * they all touch and the functions that cross files, named ce_*. Locking
 * is engine.c's rule: every field below that more than one thread touches
 * is guarded by the engine mutex (e->mu), and a function whose name ends
 * in _locked, or that a section marks "engine mutex held", is called with
 * it held. A device's lock is waited for with the engine mutex free only.
 */
#ifndef CZ_ENGINE_INTERNAL_H
#define CZ_ENGINE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "backend/backend.h"
#include "circuit/c1.h"
#include "engine/engine.h"
#include "engine/hostpool.h"
#include "groth16/groth16.h"
#include "groth16/groth16_bn254.h"
#include "groth16/witpack.h"
#include "io/json.h"
#include "io/paths.h"

/* ------------------------------------------------------------------ */
/* data                                                                 */
/* ------------------------------------------------------------------ */

typedef struct key {
    struct key *next;
    char id[128];
    char path[PATH_MAX];
    /* A key is of one curve: BLS12-381 (zkey, vk) or, with bn254 set, a
       snarkjs bn128 key (bzkey, bvk), proven on the GPU where the backend
       proves bn128 (prove_bn254), else on the CPU. n_vars, n_public
       and domain_size are the key's, whichever curve. */
    int bn254;
    cz_zkey *zkey;
    cz_vk *vk;
    cz_bn254_zkey *bzkey;
    cz_bn254_vk *bvk;
    uint32_t n_vars, n_public, domain_size;
    uint64_t bytes;
    int users;
    double last_use, loaded_at, load_ms;
    char tier[16]; /* where its last proof ran: "host", "resident", "streamed" */
    /* made from a native circuit preset (cz_engine_key_make): its name and
       seed; preset[0] == 0 for a key loaded from a file (path set) */
    char preset[32];
    uint64_t seed;
    int seeded;
    /* On the GPUs (a cuda backend): the key is uploaded to every device
       when it is loaded or made, by a thread of its own under each device's
       lock (ce_key_upload_start_locked), so that its first proof finds it
       there. gpu: "host" (not on a device: the CPU backend, or it does not
       fit and proofs stream it), "uploading", "resident" (every device),
       "partial" (some); the upload's time and bytes (all devices).
       buid: a bn128 key's number on the devices (cz_zkey_new_uid). */
    char gpu[16];
    double gpu_upload_ms;
    uint64_t gpu_upload_bytes;
    uint64_t buid;
} key;

/* A bn128 key's witness lives in the same pool buffers as a BLS12-381
   one: both fields' elements are four 64-bit limbs. */
_Static_assert(sizeof(cz_bn254_fr) == sizeof(cz_fr), "witness values of both curves are 32 bytes");

/* Stages that make spans and histograms. */
enum { ST_QUEUE, ST_WITNESS, ST_PROVE_QUEUE, ST_PROVE, ST_VERIFY, ST_TOTAL, ST_COUNT };

typedef struct job {
    struct job *qnext;           /* link in a stage queue */
    struct job *next, *prev;     /* all jobs, submission order */
    char id[24];
    char request_id[128];
    uint8_t req_hash[16];        /* the request's content, bound to request_id */
    uint64_t seq;
    key *key;
    cz_priority prio;
    cz_job_state state;
    int cancel;                  /* asked to stop */
    int waiters;                 /* threads in await: not freed meanwhile */
    size_t wtns_len;             /* uploaded witness bytes (parsed at submit) */
    cz_origin origin;            /* who named wtns_path (the path policy that applies) */
    char *wtns_path;
    /* a porep job: its input (owned by the top-level job, read by its
       partitions: freed with the job) and preset; each partition
       synthesises its witness from partition `part` of it */
    cz_c1 *c1;
    const cz_porep_params *porep;
    cz_hostbuf *wbuf;            /* pool buffer holding the parsed witness */
    cz_wit_packed *wpack;        /* w packed for a GPU (a porep partition of a compact
                                    key), made in the witness stage; NULL: none */
    cz_fr *w;                    /* parsed witness (secret): wbuf->data; for a bn128
                                    key it holds cz_bn254_fr values (the same 32 B) */
    uint32_t nw;
    int w_bn254;                 /* an uploaded witness is a bn128 one */
    uint64_t mem;                /* host memory reserved */
    int worker;                  /* prove worker, -1 none */
    double t[ST_COUNT][2];       /* start, end per stage (engine ms) */
    cz_prove_timings pt;
    char *proof_json, *public_json;
    char err[640];
    double finished_at;
    /* partitions: a job of several has parts[] (not in any queue itself);
       each part has parent and part set, and is in no job list */
    struct job *parent;
    int part;
    struct job **parts;
    int nparts, parts_left;
} job;

typedef struct {
    job *head[CZ_PRIO_COUNT], *tail[CZ_PRIO_COUNT];
    size_t n;
} prio_queue;

typedef struct {
    uint64_t seq;
    char job[24];
    int part, stage, worker;
    double t0, t1;
} span;

/* Prometheus histogram over seconds. */
#define N_BUCKETS 14
typedef struct {
    uint64_t count[N_BUCKETS + 1];
    double sum;
    uint64_t n;
} histogram;

typedef struct device device;

typedef struct worker {
    cz_engine *e;
    device *dev;
    int index;                   /* global prove-worker index */
    pthread_t th;
    job *cur;
    const char *state;           /* idle, proving, verifying */
} worker;

/* One backend per device, shared by the device's workers: they take the
   device lock around every backend call, so the backend (whose GPU arena
   takes the card's memory once) is never used by two threads at once. */
struct device {
    int index;
    pthread_mutex_t lock;        /* held around kernel execution */
    cz_backend *be;
    cz_backend_info info;        /* as of start */
    double busy_ms;
};

struct cz_engine {
    cz_engine_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t cv_pending, cv_prove, cv_done;
    int stopping, draining;
    double t0;

    key *keys;
    job *jobs_head, *jobs_tail;
    size_t n_jobs, n_active, n_finished;
    uint64_t next_seq;
    prio_queue pending, prove;

    uint64_t mem_budget, mem_jobs, mem_keys; /* mem_keys: loaded keys and loads in flight */
    cz_path_policy key_pol, wit_pol, no_pol; /* folders clients may name files in */
    struct loading *loading;     /* key loads and makes in flight */
    /* keys made in the background ([keys] presets at start): one thread
       makes them in the order asked; what failed stays listed until the id
       is made, loaded or deleted; the last KEY_SPANS loads and makes are
       the timeline's key spans */
    struct key_failure *key_failures;
    pthread_t maker_th;
    int maker_started, maker_running;
    struct key_span {
        char id[128];
        const char *what;        /* "key_make", "key_load" */
        double t0, t1;           /* engine ms */
        int ok;
    } key_spans[32];
    size_t key_span_n;           /* spans added in all (the ring holds the last 32) */
    cz_hostpool *pool;           /* witness buffers, pinned on the devices */
    cz_threadpool *synth;        /* porep witness synthesis (prove_threads threads) */
    int host_prove;              /* no GPU: proofs run on the host ("prove" stages) */

    pthread_t *witness_th;
    int n_witness, witness_started;
    /* the witness queue's cap (cfg.witness_queue_per_gpu x prove workers,
       0: none): witnesses being made (witness_busy) plus those waiting in
       the prove queue (prove.n) stay at most witness_cap; the highest
       count of waiting ones seen, and how often a witness worker waited
       for the cap, for the status and the metrics */
    size_t witness_cap, witness_busy, witness_waiting_max;
    uint64_t witness_cap_waits;
    int uploads;                 /* key uploads to the devices running (shutdown waits for them) */
    device *devs;
    int n_devs;
    worker *workers;
    int n_workers;

    span *spans;
    size_t span_head, span_n;

    uint64_t submitted, rejected, finished[3]; /* done, failed, cancelled */
    histogram hist[ST_COUNT];
};

/* ------------------------------------------------------------------ */
/* functions that cross files                                           */
/* ------------------------------------------------------------------ */

/* engine.c: small helpers */
double ce_now_ms(void);
void ce_set_err(char *err, size_t err_len, const char *fmt, ...);
void ce_deadline_after(struct timespec *ts, int ms);
int ce_state_finished(cz_job_state s);

/* engine_jobs.c: queues and job ends (engine mutex held) */
void ce_q_push(prio_queue *q, job *j);
job *ce_q_peek(prio_queue *q);
int ce_q_remove(prio_queue *q, job *j);
void ce_job_free_locked(cz_engine *e, job *j);
void ce_finish_locked(cz_engine *e, job *j, cz_job_state st);
void ce_fail_locked(cz_engine *e, job *j, const char *msg);
cz_job_state ce_shown_state(const job *j);
json_t *ce_partitions_json(cz_engine *e, const job *j, int detail);

/* engine_workers.c */
const cz_path_policy *ce_policy_for(cz_engine *e, cz_origin origin, int keys);
/* The host memory a partition of key k reserves before its witness stage
   (the workers reserve it; the farm's admission check asks for it). */
uint64_t ce_job_mem_estimate(const cz_engine *e, const key *k, const job *j);
void *ce_witness_main(void *arg);
void *ce_prove_main(void *arg);

/* engine_keys.c: put a key just loaded or made on the GPUs in the
   background (engine mutex held; nothing on the CPU backend or while
   stopping): it holds the key (users) until its upload ends. */
void ce_key_upload_start_locked(cz_engine *e, key *k);
/* engine_keys.c: free a key no list holds any more (either curve). */
void ce_key_free(key *k);
/* engine_keys.c (engine mutex held) */
key *ce_find_key_locked(cz_engine *e, const char *id);
json_t *ce_key_json_locked(cz_engine *e, const key *k);
/* A key id that is not loaded: 1 while it is being loaded or made, 2 when
   making it in the background failed, 0 otherwise; err says which. */
int ce_key_unavailable_locked(cz_engine *e, const char *id, char *err, size_t err_len);
/* Append the key spans (loads and makes, those in flight ending now) to
   the timeline's spans. */
void ce_key_spans_json_locked(cz_engine *e, json_t *spans, double now);
/* engine_keys.c: end the background key thread (after the backends are
   gone; it ends the step it is in, then drops the queued makes). */
void ce_keys_stop(cz_engine *e);
/* engine_keys.c: free the failure records (destroy). */
void ce_keys_free_failures(cz_engine *e);

/* engine_observe.c: spans and histograms (engine mutex held) */
void ce_span_add(cz_engine *e, job *j, int stage, int worker);
void ce_hist_add(histogram *h, double seconds);
void ce_stage_end(cz_engine *e, job *j, int stage, int worker);
/* The stage names of spans, logs and metrics: an engine without a GPU
   proves on the host, so there its prove stages are "prove_queue" and
   "prove" rather than "gpu_queue" and "gpu". */
const char *ce_stage_name(const cz_engine *e, int stage);

#endif
