/*
 * engine.c: the proving engine (see engine.h for the design).
 *
 * Locking: one engine mutex guards every list, counter and job field that
 * more than one thread touches; it is never held across slow work (file
 * reads, witness parsing, proving, verifying). Each device has its own lock
 * that a prove worker holds only around the backend's heavy steps. Order:
 * a device lock is waited for with the engine mutex free only (the status
 * page may trylock one under the engine mutex: it never waits).
 */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/cuda.h"
#include "engine/hostpool.h"
#include "groth16/groth16.h"
#include "io/json.h"
#include "io/paths.h"
#include "util/log.h"
#include "util/rng.h"

/* ------------------------------------------------------------------ */
/* small helpers                                                        */
/* ------------------------------------------------------------------ */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || !err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static void deadline_after(struct timespec *ts, int ms)
{
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += ms / 1000;
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static const char *const prio_names[CZ_PRIO_COUNT] = {"low", "normal", "high", "critical"};

const char *cz_priority_name(cz_priority p)
{
    return (unsigned)p < CZ_PRIO_COUNT ? prio_names[p] : "?";
}

int cz_priority_parse(const char *s, cz_priority *out)
{
    for (int i = 0; i < CZ_PRIO_COUNT; i++)
        if (s && strcmp(s, prio_names[i]) == 0) {
            *out = (cz_priority)i;
            return 0;
        }
    return -1;
}

const char *cz_job_state_name(cz_job_state s)
{
    static const char *const n[] = {"queued",    "witness", "prove_queued", "proving",
                                    "verifying", "done",    "failed",       "cancelled"};
    return (unsigned)s <= CZ_JOB_CANCELLED ? n[s] : "?";
}

static int state_finished(cz_job_state s)
{
    return s == CZ_JOB_DONE || s == CZ_JOB_FAILED || s == CZ_JOB_CANCELLED;
}

/* ------------------------------------------------------------------ */
/* data                                                                 */
/* ------------------------------------------------------------------ */

typedef struct key {
    struct key *next;
    char id[128];
    char path[PATH_MAX];
    cz_zkey *zkey;
    cz_vk *vk;
    uint64_t bytes;
    int users;
    double last_use, loaded_at, load_ms;
    char tier[16]; /* where its last proof ran: "host", "resident", "streamed" */
} key;

/* Stages that make spans and histograms. */
enum { ST_QUEUE, ST_WITNESS, ST_PROVE_QUEUE, ST_PROVE, ST_VERIFY, ST_TOTAL, ST_COUNT };
static const char *const stage_names[ST_COUNT] = {"queue_wait", "witness", "gpu_queue",
                                                  "gpu",        "verify",  "total"};

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
    cz_hostbuf *wbuf;            /* pool buffer holding the parsed witness */
    cz_fr *w;                    /* parsed witness (secret): wbuf->data */
    uint32_t nw;
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
static const double bucket_le[N_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                            1,     2.5,  5,     10,   30,  60,  300};
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
    struct loading *loading;     /* key loads in flight */
    cz_hostpool *pool;           /* witness buffers, pinned on the devices */

    pthread_t *witness_th;
    int n_witness, witness_started;
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
/* queues, spans, metrics (engine mutex held)                           */
/* ------------------------------------------------------------------ */

static void q_push(prio_queue *q, job *j)
{
    j->qnext = NULL;
    if (q->tail[j->prio])
        q->tail[j->prio]->qnext = j;
    else
        q->head[j->prio] = j;
    q->tail[j->prio] = j;
    q->n++;
}

static job *q_peek(prio_queue *q)
{
    for (int p = CZ_PRIO_COUNT - 1; p >= 0; p--)
        if (q->head[p])
            return q->head[p];
    return NULL;
}

static int q_remove(prio_queue *q, job *j)
{
    job *prev = NULL;
    for (job *x = q->head[j->prio]; x; prev = x, x = x->qnext) {
        if (x != j)
            continue;
        if (prev)
            prev->qnext = x->qnext;
        else
            q->head[j->prio] = x->qnext;
        if (q->tail[j->prio] == x)
            q->tail[j->prio] = prev;
        x->qnext = NULL;
        q->n--;
        return 1;
    }
    return 0;
}

/* Number of queued jobs served before j. */
static size_t q_position(prio_queue *q, job *j)
{
    size_t pos = 0;
    for (int p = CZ_PRIO_COUNT - 1; p >= 0; p--)
        for (job *x = q->head[p]; x; x = x->qnext) {
            if (x == j)
                return pos;
            pos++;
        }
    return pos;
}

static void span_add(cz_engine *e, job *j, int stage, int worker)
{
    if (!e->cfg.timeline_cap)
        return;
    size_t i = (e->span_head + e->span_n) % e->cfg.timeline_cap;
    if (e->span_n == e->cfg.timeline_cap)
        e->span_head = (e->span_head + 1) % e->cfg.timeline_cap;
    else
        e->span_n++;
    span *s = &e->spans[i];
    const job *owner = j->parent ? j->parent : j;
    s->seq = owner->seq;
    memcpy(s->job, owner->id, sizeof s->job);
    s->part = j->part;
    s->stage = stage;
    s->worker = worker;
    s->t0 = j->t[stage][0];
    s->t1 = j->t[stage][1];
}

static void hist_add(histogram *h, double seconds)
{
    int b = 0;
    while (b < N_BUCKETS && seconds > bucket_le[b])
        b++;
    h->count[b]++;
    h->sum += seconds;
    h->n++;
}

static void stage_end(cz_engine *e, job *j, int stage, int worker)
{
    j->t[stage][1] = now_ms() - e->t0;
    span_add(e, j, stage, worker);
    hist_add(&e->hist[stage], (j->t[stage][1] - j->t[stage][0]) / 1e3);
}

/* The largest .wtns file accepted for a key of v values: the container
   header and two section headers (12 + 12 + 40 + 12 bytes), the values,
   and 4 KiB for sections that writers may add. */
static uint64_t wtns_file_max(uint64_t v)
{
    return 76 + 32 * v + 4096;
}

static uint64_t job_mem_estimate(const key *k, size_t wtns_len)
{
    /* witness (Montgomery) + a, b, c, h of the domain + the file bytes,
       plus MSM scratch (bounded by a few MiB per thread). */
    uint64_t n = k->zkey->domain_size, v = k->zkey->n_vars;
    /* a witness named by path is read whole before it is decoded: its
       file (at most wtns_file_max bytes, checked before the read) */
    uint64_t file = wtns_len ? (uint64_t)wtns_len : wtns_file_max(v);
    return 32 * (v + 4 * n) + file + (8u << 20);
}

/* Free a job's partitions (all finished, or never queued). */
static void free_parts(job *j)
{
    for (int i = 0; i < j->nparts; i++) {
        if (!j->parts[i])
            continue;
        free(j->parts[i]->wtns_path);
        free(j->parts[i]->proof_json);
        free(j->parts[i]->public_json);
        free(j->parts[i]);
    }
    free(j->parts);
    j->parts = NULL;
    j->nparts = 0;
}

/* Free a finished job (engine mutex held, no waiters). */
static void job_free_locked(cz_engine *e, job *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        e->jobs_head = j->next;
    if (j->next)
        j->next->prev = j->prev;
    else
        e->jobs_tail = j->prev;
    e->n_jobs--;
    e->n_finished--;
    free_parts(j);
    free(j->wtns_path);
    free(j->proof_json);
    free(j->public_json);
    free(j);
}

/* Keep at most retain_jobs finished jobs: forget the oldest. */
static void retain_locked(cz_engine *e)
{
    job *j = e->jobs_head;
    while (e->n_finished > e->cfg.retain_jobs && j) {
        job *nx = j->next;
        if (state_finished(j->state) && j->waiters == 0 && j->parts_left == 0)
            job_free_locked(e, j); /* (a job's partitions may still be running) */
        j = nx;
    }
}

static void finish_locked(cz_engine *e, job *j, cz_job_state st);

/* Ask a job (all its partitions) to stop: queued ones end now, running
   ones at their next stage boundary. */
static void cancel_locked(cz_engine *e, job *j)
{
    j->cancel = 1;
    for (int i = 0; i < j->nparts; i++)
        if (!state_finished(j->parts[i]->state))
            cancel_locked(e, j->parts[i]);
    if ((j->state == CZ_JOB_QUEUED && q_remove(&e->pending, j)) ||
        (j->state == CZ_JOB_PROVE_QUEUED && q_remove(&e->prove, j)))
        finish_locked(e, j, CZ_JOB_CANCELLED);
}

/* A JSON array of the partitions' proofs (publics: their public lists). */
static char *join_parts(const job *j, int publics)
{
    size_t len = 3;
    for (int i = 0; i < j->nparts; i++)
        len += strlen(publics ? j->parts[i]->public_json : j->parts[i]->proof_json) + 1;
    char *out = malloc(len), *p = out;
    if (!out)
        return NULL;
    *p++ = '[';
    for (int i = 0; i < j->nparts; i++) {
        const char *d = publics ? j->parts[i]->public_json : j->parts[i]->proof_json;
        size_t n = strlen(d);
        memcpy(p, d, n);
        p += n;
        if (i + 1 < j->nparts)
            *p++ = ',';
    }
    *p++ = ']';
    *p = 0;
    return out;
}

/* A partition ended: the first failure or cancellation ends its job the
   same way (and cancels the other partitions); the last success makes
   the job done with the proofs in partition order. */
static void part_finished_locked(cz_engine *e, job *c, cz_job_state st)
{
    job *p = c->parent;
    p->parts_left--;
    if (state_finished(p->state))
        return;
    if (st != CZ_JOB_DONE) {
        snprintf(p->err, sizeof p->err, "partition %d: %.600s", c->part,
                 c->err[0] ? c->err : cz_job_state_name(st));
        finish_locked(e, p, st);
    } else if (p->parts_left == 0) {
        p->proof_json = join_parts(p, 0);
        p->public_json = join_parts(p, 1);
        if (!p->proof_json || !p->public_json)
            snprintf(p->err, sizeof p->err, "out of memory joining the proofs");
        finish_locked(e, p, p->err[0] ? CZ_JOB_FAILED : CZ_JOB_DONE);
    }
}

/* Move j to a final state and release what it holds (mutex held). */
static void finish_locked(cz_engine *e, job *j, cz_job_state st)
{
    if (state_finished(j->state))
        return;
    j->state = st;
    j->finished_at = now_ms() - e->t0;
    j->t[ST_TOTAL][1] = j->finished_at;
    if (!j->parent) { /* jobs are counted, not their partitions */
        hist_add(&e->hist[ST_TOTAL], (j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0]) / 1e3);
        e->finished[st == CZ_JOB_DONE ? 0 : st == CZ_JOB_FAILED ? 1 : 2]++;
    }
    if (j->parts) /* the partitions still queued or running stop */
        for (int i = 0; i < j->nparts; i++)
            if (!state_finished(j->parts[i]->state))
                cancel_locked(e, j->parts[i]);
    if (j->wbuf) {
        cz_hostpool_put(e->pool, j->wbuf); /* wipes: the witness is secret */
        j->wbuf = NULL;
        j->w = NULL;
    }
    if (j->mem) {
        e->mem_jobs -= j->mem;
        j->mem = 0;
        pthread_cond_broadcast(&e->cv_pending); /* a waiting head may fit now */
    }
    if (j->key) {
        j->key->users--;
        j->key->last_use = now_ms();
        j->key = NULL;
    }
    if (st == CZ_JOB_DONE)
        cz_log(CZ_LOG_INFO, "engine",
               "%s done in %.1f ms, key tier %s (queue %.1f, witness %.1f, gpu %.1f, verify %.1f)",
               j->id, j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0], j->pt.tier[0] ? j->pt.tier : "-",
               j->t[ST_QUEUE][1] - j->t[ST_QUEUE][0],
               j->t[ST_WITNESS][1] - j->t[ST_WITNESS][0], j->t[ST_PROVE][1] - j->t[ST_PROVE][0],
               j->t[ST_VERIFY][1] - j->t[ST_VERIFY][0]);
    else
        cz_log(st == CZ_JOB_FAILED ? CZ_LOG_WARN : CZ_LOG_INFO, "engine", "%s %s%s%s", j->id,
               cz_job_state_name(st), j->err[0] ? ": " : "", j->err);
    if (!j->parts) /* partitions and one-partition jobs are the active work */
        e->n_active--;
    pthread_cond_broadcast(&e->cv_done);
    if (j->parent) {
        part_finished_locked(e, j, st);
        return;
    }
    e->n_finished++;
    /* A job of partitions ends inside calls that still walk its
       partitions: the next retain_locked (any later end, any await)
       forgets it, not this one. */
    if (!j->parts)
        retain_locked(e);
}

static void fail_locked(cz_engine *e, job *j, const char *msg)
{
    if (!j->err[0])
        snprintf(j->err, sizeof j->err, "%s", msg);
    finish_locked(e, j, CZ_JOB_FAILED);
}

/* ------------------------------------------------------------------ */
/* workers                                                              */
/* ------------------------------------------------------------------ */

static job *find_job_locked(cz_engine *e, const char *id)
{
    for (job *j = e->jobs_head; j; j = j->next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

/* The policy for files named by `origin`: none for the operator (any
   regular file), the configured folders for local clients, and for
   clients on TCP the same only where tcp_paths allows it. */
static const cz_path_policy *policy_for(cz_engine *e, cz_origin origin, int keys)
{
    if (origin == CZ_FROM_OPERATOR)
        return NULL;
    if (origin == CZ_FROM_REMOTE && !e->cfg.tcp_paths)
        return &e->no_pol;
    return keys ? &e->key_pol : &e->wit_pol;
}

/* Read a witness file named by `origin` for a key of n_vars values: the
   path policy, a regular file only (opened non-blocking: a FIFO never
   hangs a worker), and its size checked against what such a witness
   takes before a byte is read or allocated (the job's reservation counts
   wtns_file_max). */
static uint8_t *read_witness(cz_engine *e, const char *path, cz_origin origin, uint32_t n_vars,
                             size_t *len, cz_status *st, char *err, size_t err_len)
{
    int fd;
    uint64_t size;
    *len = 0;
    *st = cz_path_open(&fd, &size, NULL, 0, path, policy_for(e, origin, 0), "witness", err,
                       err_len);
    if (*st)
        return NULL;
    uint64_t max = wtns_file_max(n_vars);
    if (e->cfg.max_witness_bytes && max > e->cfg.max_witness_bytes)
        max = e->cfg.max_witness_bytes;
    if (size > max) {
        close(fd);
        *st = CZ_ERR_WITNESS;
        set_err(err, err_len, "%s: %llu bytes, more than a witness of the key's %u values takes "
                "(%llu)", path, (unsigned long long)size, n_vars, (unsigned long long)max);
        return NULL;
    }
    cz_blob b;
    *st = cz_blob_read_fd(&b, fd, size, path, err, err_len);
    close(fd);
    if (*st)
        return NULL;
    *len = b.len;
    return b.owned; /* freed with free() */
}

/* The witness stage: take the most urgent pending job once its memory
   fits, read and check its witness, pass it to the prove queue. */
static void *witness_main(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    int me = e->witness_started++;
    for (;;) {
        job *j = NULL;
        while (!e->stopping) {
            j = q_peek(&e->pending);
            if (j) {
                /* An uploaded witness's buffer is held since submission
                   (j->mem): only the rest of the estimate is new. */
                uint64_t held = j->mem;
                uint64_t need = job_mem_estimate(j->key, j->wtns_len) - held;
                /* Pooled witness buffers count too, less the one this job
                   will reuse (its estimate has the witness already). */
                size_t reuse = j->wbuf ? 0 : (size_t)j->key->zkey->n_vars * sizeof(cz_fr);
                uint64_t use = e->mem_jobs + e->mem_keys + cz_hostpool_charge(e->pool, reuse);
                if (use + need > e->mem_budget) {
                    /* Idle pooled buffers give way: free them rather than
                       let the head wait for memory that they hold. */
                    cz_hostbuf *drop = cz_hostpool_trim(e->pool, use + need - e->mem_budget);
                    if (drop) {
                        pthread_mutex_unlock(&e->mu);
                        cz_hostpool_release(e->pool, drop);
                        pthread_mutex_lock(&e->mu);
                        continue; /* look again: the queue may have changed */
                    }
                }
                /* Strict priority: the head waits for memory rather than
                   letting later jobs pass it. A job that alone exceeds
                   the budget still runs once nothing else holds memory,
                   so nothing starves. */
                if (e->mem_jobs == held || use + need <= e->mem_budget) {
                    q_remove(&e->pending, j);
                    j->mem = held + need;
                    e->mem_jobs += need;
                    break;
                }
                j = NULL;
            }
            pthread_cond_wait(&e->cv_pending, &e->mu);
        }
        if (e->stopping)
            break;
        j->state = CZ_JOB_WITNESS;
        j->t[ST_QUEUE][1] = j->t[ST_WITNESS][0] = now_ms() - e->t0;
        span_add(e, j, ST_QUEUE, -1);
        hist_add(&e->hist[ST_QUEUE], (j->t[ST_QUEUE][1] - j->t[ST_QUEUE][0]) / 1e3);
        uint32_t n_vars = j->key->zkey->n_vars;
        char *path = j->wtns_path ? strdup(j->wtns_path) : NULL;
        cz_origin origin = j->origin;
        pthread_mutex_unlock(&e->mu);

        char err[512] = "";
        cz_status st = CZ_OK;
        size_t len = 0;
        uint8_t *data = NULL;
        if (path)
            data = read_witness(e, path, origin, n_vars, &len, &st, err, sizeof err);
        cz_hostbuf *wb = NULL;
        uint32_t nw = 0;
        if (!st && path) {
            /* Decode into a pooled (pinned) buffer; the parser checks the
               count against the key before it writes a value. */
            if (!(wb = cz_hostpool_get(e->pool, (size_t)n_vars * sizeof(cz_fr)))) {
                set_err(err, sizeof err, "%s: out of memory", path);
                st = CZ_ERR_NOMEM;
            } else if ((st = cz_wtns_parse_into(wb->data, n_vars, &nw, data, len, path, n_vars,
                                                err, sizeof err))) {
                cz_hostpool_put(e->pool, wb);
                wb = NULL;
            }
        }
        if (data) {
            cz_wipe(data, len);
            free(data);
        }
        free(path);

        pthread_mutex_lock(&e->mu);
        stage_end(e, j, ST_WITNESS, me);
        if (st) {
            fail_locked(e, j, err);
        } else if (j->cancel) {
            cz_hostpool_put(e->pool, wb); /* wipes */
            finish_locked(e, j, CZ_JOB_CANCELLED);
        } else {
            if (wb) {
                j->wbuf = wb;
                j->w = wb->data;
                j->nw = nw;
            }
            j->state = CZ_JOB_PROVE_QUEUED;
            j->t[ST_PROVE_QUEUE][0] = now_ms() - e->t0;
            q_push(&e->prove, j);
            pthread_cond_signal(&e->cv_prove);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

static void *prove_main(void *arg)
{
    worker *wk = arg;
    cz_engine *e = wk->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j;
        while (!e->stopping && !(j = q_peek(&e->prove)))
            pthread_cond_wait(&e->cv_prove, &e->mu);
        if (e->stopping)
            break;
        q_remove(&e->prove, j);
        j->state = CZ_JOB_PROVING;
        j->worker = wk->index;
        wk->cur = j;
        wk->state = "proving";
        stage_end(e, j, ST_PROVE_QUEUE, wk->index);
        const cz_zkey *zk = j->key->zkey;
        const cz_vk *vk = j->key->vk;
        pthread_mutex_unlock(&e->mu);

        char err[512] = "";
        cz_proof proof;
        cz_prove_timings pt;
        memset(&pt, 0, sizeof pt);
        pthread_mutex_lock(&wk->dev->lock);
        double t0 = now_ms();
        cz_status st = cz_groth16_prove(&proof, zk, j->w, wk->dev->be, NULL, &pt, err, sizeof err);
        double t1 = now_ms();
        wk->dev->busy_ms += t1 - t0;
        pthread_mutex_unlock(&wk->dev->lock);

        pthread_mutex_lock(&e->mu);
        j->t[ST_PROVE][0] = t0 - e->t0;
        j->t[ST_PROVE][1] = t1 - e->t0;
        span_add(e, j, ST_PROVE, wk->index);
        hist_add(&e->hist[ST_PROVE], (t1 - t0) / 1e3);
        j->pt = pt;
        if (!st && pt.tier[0])
            snprintf(j->key->tier, sizeof j->key->tier, "%s", pt.tier);
        int cancel = j->cancel;
        if (!st && !cancel) {
            j->state = CZ_JOB_VERIFYING;
            wk->state = "verifying";
            j->t[ST_VERIFY][0] = now_ms() - e->t0;
        }
        pthread_mutex_unlock(&e->mu);

        char *pj = NULL, *uj = NULL;
        if (!st && !cancel) {
            if (e->cfg.verify &&
                cz_groth16_verify(vk, j->w + 1, zk->n_public, &proof, err, sizeof err) != CZ_OK)
                st = CZ_ERR_VERIFY;
            if (!st) {
                pj = cz_proof_to_json(&proof);
                uj = cz_public_to_json(j->w + 1, zk->n_public);
                if (!pj || !uj) {
                    st = CZ_ERR_NOMEM;
                    snprintf(err, sizeof err, "out of memory writing the proof");
                }
            }
        }

        pthread_mutex_lock(&e->mu);
        if (!st && !cancel)
            stage_end(e, j, ST_VERIFY, wk->index);
        if (j->cancel) {
            finish_locked(e, j, CZ_JOB_CANCELLED);
        } else if (st) {
            char msg[sizeof j->err];
            snprintf(msg, sizeof msg, "%s%.480s", st == CZ_ERR_VERIFY ? "proof failed its self-check: " : "",
                     err[0] ? err : cz_strerror(st));
            fail_locked(e, j, msg);
        } else {
            j->proof_json = pj;
            j->public_json = uj;
            pj = uj = NULL;
            finish_locked(e, j, CZ_JOB_DONE);
        }
        free(pj);
        free(uj);
        wk->cur = NULL;
        wk->state = "idle";
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* life cycle                                                           */
/* ------------------------------------------------------------------ */

void cz_engine_config_default(cz_engine_config *c)
{
    memset(c, 0, sizeof *c);
    c->device = "auto";
    c->devices = 0;
    c->workers_per_device = 2;
    c->witness_workers = 2;
    c->prove_threads = 0;
    c->max_pending = 1024;
    c->host_mem_budget = 0;
    c->gpu_margin = 512ull << 20;
    c->verify = 1;
    c->timeline_cap = 16384;
    c->retain_jobs = 256;
    c->max_witness_bytes = (size_t)1 << 32;
}

static uint64_t ram_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (8ull << 30);
}

cz_status cz_engine_create(cz_engine **out, const cz_engine_config *cfg, char *err, size_t err_len)
{
    *out = NULL;
    cz_engine *e = calloc(1, sizeof *e);
    if (!e)
        return CZ_ERR_NOMEM;
    if (cfg)
        e->cfg = *cfg;
    else
        cz_engine_config_default(&e->cfg);
    cz_engine_config *c = &e->cfg;
    if (c->workers_per_device < 1 || c->witness_workers < 1 || c->devices < 0 ||
        c->max_pending < 1) {
        set_err(err, err_len, "workers, witness workers and max pending must be >= 1, devices >= 0");
        free(e);
        return CZ_ERR_ARG;
    }
    cz_path_policy_init(&e->key_pol);
    cz_path_policy_init(&e->wit_pol);
    cz_path_policy_init(&e->no_pol);
    cz_status pst = cz_path_policy_add_list(&e->key_pol, c->key_dirs, err, err_len);
    if (!pst)
        pst = cz_path_policy_add_list(&e->wit_pol, c->witness_dirs, err, err_len);
    if (pst) {
        cz_path_policy_free(&e->key_pol);
        cz_path_policy_free(&e->wit_pol);
        free(e);
        return CZ_ERR_ARG;
    }
    c->key_dirs = c->witness_dirs = NULL; /* the caller's strings: not kept */
    e->mem_budget = c->host_mem_budget ? c->host_mem_budget : ram_bytes() / 4 * 3;
    e->t0 = now_ms();
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_pending, NULL);
    pthread_cond_init(&e->cv_prove, NULL);
    pthread_cond_init(&e->cv_done, NULL);
    if (c->timeline_cap)
        e->spans = calloc(c->timeline_cap, sizeof *e->spans);

    int ngpu = strcmp(c->device, "cpu") ? cz_cuda_device_count() : 0;
    /* 0: every GPU; one device (the CPU) without */
    size_t ndev = c->devices > 0 ? (size_t)c->devices : ngpu > 0 && ngpu <= 64 ? (size_t)ngpu : 1;
    e->n_devs = (int)ndev;
    e->devs = calloc(ndev, sizeof *e->devs);
    e->n_workers = e->n_devs * c->workers_per_device;
    e->workers = calloc((size_t)e->n_workers, sizeof *e->workers);
    e->witness_th = calloc((size_t)c->witness_workers, sizeof *e->witness_th);
    if ((c->timeline_cap && !e->spans) || !e->devs || !e->workers || !e->witness_th) {
        cz_engine_destroy(e, 0);
        return CZ_ERR_NOMEM;
    }
    cz_cuda_set_margin((size_t)c->gpu_margin);
    cz_cuda_set_arena_cap((size_t)c->gpu_memory_limit);
    for (int d = 0; d < e->n_devs; d++) {
        device *dv = &e->devs[d];
        dv->index = d;
        pthread_mutex_init(&dv->lock, NULL);
        char name[40];
        snprintf(name, sizeof name, "%s:%d", c->device, d);
        cz_status st = cz_backend_create(&dv->be, name, (unsigned)c->prove_threads, err, err_len);
        if (st) {
            cz_engine_destroy(e, 0);
            return st;
        }
        if (dv->be->info)
            dv->be->info(dv->be, &dv->info);
        else
            snprintf(dv->info.device, sizeof dv->info.device, "%s", dv->be->name);
        cz_log(CZ_LOG_INFO, "engine", "device %d: backend %s on %s%s", d, dv->be->name,
               dv->info.device, dv->info.mem_total ? " (memory arena taken)" : "");
    }
    /* Witness buffers: enough stay free for every witness worker and prove
       worker to hold one and as many to wait in the prove queue, plus two. */
    cz_backend **bes = calloc(ndev, sizeof *bes);
    for (int d = 0; bes && d < e->n_devs; d++)
        bes[d] = e->devs[d].be;
    if (bes)
        e->pool = cz_hostpool_create(bes, e->n_devs,
                                     (size_t)c->witness_workers + 2 * (size_t)e->n_workers + 2);
    free(bes);
    if (!e->pool) {
        cz_engine_destroy(e, 0);
        return CZ_ERR_NOMEM;
    }
    for (int i = 0; i < e->n_workers; i++) {
        worker *wk = &e->workers[i];
        wk->e = e;
        wk->index = i;
        wk->dev = &e->devs[i / c->workers_per_device];
        wk->state = "idle";
    }
    for (int i = 0; i < e->n_workers; i++) {
        if (pthread_create(&e->workers[i].th, NULL, prove_main, &e->workers[i]) != 0) {
            set_err(err, err_len, "cannot start worker threads");
            e->n_workers = i;
            cz_engine_destroy(e, 0);
            return CZ_ERR_NOMEM;
        }
    }
    for (int i = 0; i < c->witness_workers; i++) {
        if (pthread_create(&e->witness_th[i], NULL, witness_main, e) != 0) {
            set_err(err, err_len, "cannot start witness threads");
            e->n_witness = i;
            cz_engine_destroy(e, 0);
            return CZ_ERR_NOMEM;
        }
        e->n_witness = i + 1;
    }
    *out = e;
    return CZ_OK;
}

void cz_engine_drain(cz_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->draining = 1;
    pthread_mutex_unlock(&e->mu);
}

void cz_engine_shutdown(cz_engine *e, int grace_ms)
{
    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        return;
    }
    e->draining = 1;
    /* Queued jobs will not run: fail them now so waiters get an answer. */
    job *j;
    while ((j = q_peek(&e->pending))) {
        q_remove(&e->pending, j);
        fail_locked(e, j, "daemon shutting down");
    }
    /* Let running work (witness, prove queue, proving) finish. */
    struct timespec dl;
    deadline_after(&dl, grace_ms > 0 ? grace_ms : 0);
    while (e->n_active > 0 && grace_ms > 0)
        if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) == ETIMEDOUT)
            break;
    while ((j = q_peek(&e->prove))) {
        q_remove(&e->prove, j);
        fail_locked(e, j, "daemon shutting down");
    }
    for (job *x = e->jobs_head; x; x = x->next)
        if (!state_finished(x->state)) {
            x->cancel = 1;
            for (int i = 0; i < x->nparts; i++)
                x->parts[i]->cancel = 1;
        }
    e->stopping = 1;
    pthread_cond_broadcast(&e->cv_pending);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_mutex_unlock(&e->mu);

    /* Workers finish the step they are in (a proof cannot be interrupted
       inside the backend), then exit. */
    for (int i = 0; i < e->n_witness; i++)
        pthread_join(e->witness_th[i], NULL);
    for (int i = 0; i < e->n_workers; i++)
        if (e->workers[i].th)
            pthread_join(e->workers[i].th, NULL);
    cz_hostpool_detach(e->pool); /* unpin while the backends exist */
    for (int d = 0; d < e->n_devs; d++) {
        cz_backend_destroy(e->devs[d].be);
        e->devs[d].be = NULL;
    }

    /* Failing a job may forget older finished ones (retain_locked), so
       the walk starts again from the head after each. */
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *x = e->jobs_head;
        while (x && state_finished(x->state))
            x = x->next;
        if (!x)
            break;
        fail_locked(e, x, "daemon shutting down");
    }
    pthread_mutex_unlock(&e->mu);
}

void cz_engine_destroy(cz_engine *e, int grace_ms)
{
    if (!e)
        return;
    cz_engine_shutdown(e, grace_ms);
    job *j;
    pthread_mutex_lock(&e->mu);
    while ((j = e->jobs_head)) {
        j->waiters = 0;
        job_free_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    cz_hostpool_destroy(e->pool);
    cz_path_policy_free(&e->key_pol);
    cz_path_policy_free(&e->wit_pol);
    for (key *k = e->keys, *nx; k; k = nx) {
        nx = k->next;
        cz_vk_free(k->vk);
        cz_zkey_free(k->zkey);
        free(k);
    }
    for (int d = 0; e->devs && d < e->n_devs; d++)
        pthread_mutex_destroy(&e->devs[d].lock);
    free(e->devs);
    free(e->workers);
    free(e->witness_th);
    free(e->spans);
    pthread_cond_destroy(&e->cv_pending);
    pthread_cond_destroy(&e->cv_prove);
    pthread_cond_destroy(&e->cv_done);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

/* ------------------------------------------------------------------ */
/* keys                                                                 */
/* ------------------------------------------------------------------ */

static key *find_key_locked(cz_engine *e, const char *id)
{
    for (key *k = e->keys; k; k = k->next)
        if (strcmp(k->id, id) == 0)
            return k;
    return NULL;
}

static int valid_id(const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n >= max)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.'))
            return 0;
    }
    return 1;
}

static void unlink_key_locked(cz_engine *e, key *k)
{
    for (key **pp = &e->keys; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            e->mem_keys -= k->bytes;
            return;
        }
}

/* A key load in flight: its id (a second load of it is refused) and the
   bytes it holds in mem_keys until it ends. */
struct loading {
    struct loading *next;
    char id[128];
    uint64_t bytes;
};

static struct loading *find_loading_locked(cz_engine *e, const char *id)
{
    for (struct loading *l = e->loading; l; l = l->next)
        if (strcmp(l->id, id) == 0)
            return l;
    return NULL;
}

static void free_key(key *k)
{
    cz_vk_free(k->vk);
    cz_zkey_free(k->zkey);
    free(k);
}

cz_status cz_engine_key_load(cz_engine *e, const char *id, const char *path, char *err, size_t err_len)
{
    return cz_engine_key_load_from(e, id, path, CZ_FROM_OPERATOR, err, err_len);
}

cz_status cz_engine_key_load_from(cz_engine *e, const char *id, const char *path, cz_origin origin,
                                  char *err, size_t err_len)
{
    if (!valid_id(id, sizeof ((key *)0)->id)) {
        set_err(err, err_len, "key id must be 1-127 characters of [A-Za-z0-9._-]");
        return CZ_ERR_ARG;
    }
    if (!path || !*path || strlen(path) >= PATH_MAX) {
        set_err(err, err_len, "key path missing or too long");
        return CZ_ERR_ARG;
    }
    /* The file: allowed to this client, a regular file (never blocks),
       its header and every section size checked, and the memory a copy of
       it and its matrices take known, all before it is read. */
    int fd;
    uint64_t size, need;
    char real[PATH_MAX];
    cz_status st = cz_path_open(&fd, &size, real, sizeof real, path, policy_for(e, origin, 1),
                                "key", err, err_len);
    if (st)
        return st;
    cz_zkey_info info;
    if ((st = cz_zkey_peek_fd(&info, &need, fd, size, path, err, err_len))) {
        close(fd);
        return st;
    }

    pthread_mutex_lock(&e->mu);
    key *old = find_key_locked(e, id);
    if (old || find_loading_locked(e, id)) {
        int same = old && strcmp(old->path, real) == 0;
        pthread_mutex_unlock(&e->mu);
        close(fd);
        if (same)
            return CZ_OK; /* preload is idempotent */
        if (old)
            set_err(err, err_len, "key '%s' is already loaded from another file; evict it first", id);
        else
            set_err(err, err_len, "key '%s' is being loaded; wait for that load to end", id);
        return CZ_ERR_BUSY;
    }
    /* What cannot give way: running jobs, keys in use, loads in flight.
       Idle keys and idle pooled buffers can, but nothing is evicted or
       freed here: only once the new key is in, and only as far as needed,
       so a load that fails loses nothing. */
    uint64_t idle = 0;
    for (key *k = e->keys; k; k = k->next)
        if (k->users == 0)
            idle += k->bytes;
    uint64_t fixed = e->mem_jobs + e->mem_keys - idle;
    if (need > e->mem_budget || fixed + need > e->mem_budget) {
        pthread_mutex_unlock(&e->mu);
        close(fd);
        set_err(err, err_len, "%s: the key needs %llu MiB of host memory (file and matrices), "
                "more than the budget of %llu MiB leaves next to the %llu MiB that running "
                "jobs and keys in use hold", path, (unsigned long long)(need >> 20),
                (unsigned long long)(e->mem_budget >> 20), (unsigned long long)(fixed >> 20));
        return CZ_ERR_NOMEM;
    }
    struct loading me = {.next = e->loading, .bytes = need};
    snprintf(me.id, sizeof me.id, "%s", id);
    e->loading = &me;
    e->mem_keys += need;
    pthread_mutex_unlock(&e->mu);

    key *k = calloc(1, sizeof *k);
    double t0 = now_ms();
    if (!k) {
        st = CZ_ERR_NOMEM;
        set_err(err, err_len, "out of memory");
    } else {
        snprintf(k->id, sizeof k->id, "%s", id);
        snprintf(k->path, sizeof k->path, "%s", real);
        snprintf(k->tier, sizeof k->tier, "host");
        /* A private copy, never a mapping: truncating or rewriting the
           file later cannot reach the key (a mapping would fault). */
        cz_zkey_load_opts lo = {.threads = (unsigned)e->cfg.prove_threads, .private_copy = true,
                                .max_file_bytes = size, .mem_limit = need};
        st = cz_zkey_load_fd(&k->zkey, fd, size, path, &lo, err, err_len);
        if (!st && (st = cz_vk_from_zkey(&k->vk, k->zkey)) != CZ_OK)
            set_err(err, err_len, "%s: cannot derive the verification key", path);
    }
    close(fd);

    pthread_mutex_lock(&e->mu);
    for (struct loading **pp = &e->loading; *pp; pp = &(*pp)->next)
        if (*pp == &me) {
            *pp = me.next;
            break;
        }
    e->mem_keys -= need;
    if (st) {
        pthread_mutex_unlock(&e->mu);
        if (k)
            free_key(k);
        return st;
    }
    k->load_ms = now_ms() - t0;
    k->bytes = need;
    k->loaded_at = k->last_use = now_ms();
    k->next = e->keys;
    e->keys = k;
    e->mem_keys += k->bytes;
    /* Now make room: idle pooled buffers first, then idle keys, least
       recently used first, never the new one. */
    uint64_t pool = cz_hostpool_charge(e->pool, 0);
    cz_hostbuf *drop = NULL;
    if (e->mem_keys + e->mem_jobs + pool > e->mem_budget)
        drop = cz_hostpool_trim(e->pool, e->mem_keys + e->mem_jobs + pool - e->mem_budget);
    pool = cz_hostpool_charge(e->pool, 0);
    key *victims = NULL;
    while (e->mem_keys + e->mem_jobs + pool > e->mem_budget) {
        key *lru = NULL;
        for (key *x = e->keys; x; x = x->next)
            if (x != k && x->users == 0 && (!lru || x->last_use < lru->last_use))
                lru = x;
        if (!lru)
            break;
        unlink_key_locked(e, lru);
        lru->next = victims;
        victims = lru;
    }
    int over = e->mem_keys + e->mem_jobs + pool > e->mem_budget;
    pthread_mutex_unlock(&e->mu);
    cz_hostpool_release(e->pool, drop);
    for (key *v = victims, *nx; v; v = nx) {
        nx = v->next;
        cz_log(CZ_LOG_INFO, "engine", "key %s evicted to make room for %s", v->id, id);
        free_key(v);
    }
    if (over)
        cz_log(CZ_LOG_WARN, "engine", "key %s loaded; host memory is over budget until running "
               "jobs end", id);
    return CZ_OK;
}

cz_status cz_engine_mem_hold(cz_engine *e, uint64_t bytes)
{
    pthread_mutex_lock(&e->mu);
    uint64_t use = e->mem_jobs + e->mem_keys + cz_hostpool_charge(e->pool, 0);
    cz_hostbuf *drop = NULL;
    if (use + bytes > e->mem_budget) { /* idle pooled buffers give way */
        drop = cz_hostpool_trim(e->pool, use + bytes - e->mem_budget);
        use = e->mem_jobs + e->mem_keys + cz_hostpool_charge(e->pool, 0);
    }
    int ok = use + bytes <= e->mem_budget;
    if (ok)
        e->mem_jobs += bytes;
    pthread_mutex_unlock(&e->mu);
    cz_hostpool_release(e->pool, drop);
    return ok ? CZ_OK : CZ_ERR_NOMEM;
}

void cz_engine_mem_release(cz_engine *e, uint64_t bytes)
{
    if (!bytes)
        return;
    pthread_mutex_lock(&e->mu);
    e->mem_jobs -= bytes < e->mem_jobs ? bytes : e->mem_jobs;
    pthread_cond_broadcast(&e->cv_pending); /* a waiting head may fit now */
    pthread_mutex_unlock(&e->mu);
}

uint64_t cz_engine_mem_budget(cz_engine *e)
{
    return e->mem_budget; /* fixed at creation */
}

cz_status cz_engine_key_evict(cz_engine *e, const char *id, char *err, size_t err_len)
{
    pthread_mutex_lock(&e->mu);
    key *k = find_key_locked(e, id ? id : "");
    if (!k) {
        pthread_mutex_unlock(&e->mu);
        set_err(err, err_len, "unknown key '%s'", id ? id : "");
        return CZ_ERR_NOT_FOUND;
    }
    if (k->users > 0) {
        int u = k->users;
        pthread_mutex_unlock(&e->mu);
        set_err(err, err_len, "key '%s' is in use by %d job(s)", id, u);
        return CZ_ERR_BUSY;
    }
    unlink_key_locked(e, k);
    pthread_mutex_unlock(&e->mu);
    cz_vk_free(k->vk);
    cz_zkey_free(k->zkey);
    free(k);
    return CZ_OK;
}

static json_t *key_json_locked(cz_engine *e, const key *k)
{
    return json_pack("{s:s, s:s, s:s, s:I, s:i, s:f, s:f, s:I, s:I, s:I, s:f}", "id", k->id,
                     "path", k->path, "tier", k->tier, "bytes", (json_int_t)k->bytes, "users",
                     k->users, "last_use_s_ago", (now_ms() - k->last_use) / 1e3, "load_ms",
                     k->load_ms, "n_vars", (json_int_t)k->zkey->n_vars, "n_public",
                     (json_int_t)k->zkey->n_public, "domain_size",
                     (json_int_t)k->zkey->domain_size, "loaded_s_ago",
                     (now_ms() - k->loaded_at) / 1e3);
}

json_t *cz_engine_keys_json(cz_engine *e)
{
    json_t *a = json_array();
    pthread_mutex_lock(&e->mu);
    for (key *k = e->keys; k; k = k->next)
        json_array_append_new(a, key_json_locked(e, k));
    pthread_mutex_unlock(&e->mu);
    return a;
}

/* ------------------------------------------------------------------ */
/* jobs                                                                 */
/* ------------------------------------------------------------------ */

/* A 128-bit digest of what a request asks for: key, priority and the
   witness (its paths, or the uploaded bytes). A request_id is bound to it,
   so a repeat of one request finds its job and another request that
   reuses the id is refused. Two FNV-1a lanes with different bases: this
   tells a repeat from a client's mistake; it is not a cryptographic
   binding, and needs none (job ids are no secret, so a crafted collision
   reveals nothing that GET /v1/proofs/ID does not). */
typedef struct {
    uint64_t a, b;
} req_digest;

static void digest_bytes(req_digest *d, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        d->a = (d->a ^ b[i]) * 0x100000001b3ull;
        d->b = (d->b ^ b[i]) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
}

static void request_hash(const cz_job_request *req, uint8_t out[16])
{
    req_digest d = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    size_t np = req->witness_paths ? req->n_partitions : (req->witness_path ? 1 : 0);
    digest_bytes(&d, req->key_id, strlen(req->key_id) + 1);
    uint8_t head[2] = {(uint8_t)req->priority, req->witness ? 'b' : 'p'};
    digest_bytes(&d, head, sizeof head);
    if (req->witness) {
        uint64_t n = req->witness_len;
        digest_bytes(&d, &n, sizeof n);
        digest_bytes(&d, req->witness, req->witness_len);
    } else {
        for (size_t i = 0; i < np; i++) {
            const char *w = req->witness_paths ? req->witness_paths[i] : req->witness_path;
            digest_bytes(&d, w, strlen(w) + 1);
        }
    }
    memcpy(out, &d.a, 8);
    memcpy(out + 8, &d.b, 8);
}

static int has_control_bytes(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

cz_status cz_engine_submit(cz_engine *e, const cz_job_request *req, char *job_id, size_t *position,
                           char *err, size_t err_len)
{
    cz_submit_outcome dummy;
    cz_submit_outcome *outcome = req && req->outcome ? req->outcome : &dummy;
    *outcome = CZ_SUBMIT_REFUSED;
    if (!req || !req->key_id || (!req->witness_path && !req->witness && !req->witness_paths) ||
        (unsigned)req->priority >= CZ_PRIO_COUNT) {
        set_err(err, err_len, "a job needs a key id and a witness (path or bytes)");
        return CZ_ERR_ARG;
    }
    size_t np = req->witness_paths ? req->n_partitions : 0;
    if (req->witness_paths) {
        if (np < 1 || np > CZ_MAX_PARTITIONS) {
            set_err(err, err_len, "a job has 1 to %d partitions (witness paths), not %zu",
                    CZ_MAX_PARTITIONS, np);
            return CZ_ERR_ARG;
        }
        for (size_t i = 0; i < np; i++)
            if (!req->witness_paths[i]) {
                set_err(err, err_len, "witness path %zu is missing", i);
                return CZ_ERR_ARG;
            }
    }
    if (req->witness && req->witness_len > e->cfg.max_witness_bytes) {
        set_err(err, err_len, "witness of %zu bytes exceeds the %zu-byte limit", req->witness_len,
                e->cfg.max_witness_bytes);
        return CZ_ERR_RANGE;
    }
    /* A job of more partitions than can ever be pending would be refused
       as "queue full" forever: say so once, with a status not retried. */
    if ((np ? np : 1) > (size_t)e->cfg.max_pending) {
        set_err(err, err_len, "job of %zu partitions exceeds max_pending %d", np ? np : 1,
                e->cfg.max_pending);
        return CZ_ERR_RANGE;
    }
    if (req->request_id && strlen(req->request_id) >= sizeof ((job *)0)->request_id) {
        set_err(err, err_len, "request_id longer than 127 bytes");
        return CZ_ERR_ARG;
    }
    if (req->request_id && (!req->request_id[0] || has_control_bytes(req->request_id))) {
        set_err(err, err_len, "request_id is empty or holds control bytes");
        return CZ_ERR_ARG;
    }
    if (has_control_bytes(req->key_id)) {
        set_err(err, err_len, "key id holds control bytes");
        return CZ_ERR_ARG;
    }
    /* Witness paths meet the path policy now, so that a refusal (or a
       FIFO, a folder) is answered at once; the witness stage opens them
       again the same way. A file not there yet in an allowed folder may
       still come: its job fails at the witness stage if it has not. */
    for (size_t i = 0, n = np ? np : req->witness ? 0 : 1; i < n; i++) {
        int fd;
        uint64_t size;
        bool missing;
        cz_status ps = cz_path_open_ex(&fd, &size, NULL, 0, &missing,
                                       np ? req->witness_paths[i] : req->witness_path,
                                       policy_for(e, req->origin, 0), "witness", err, err_len);
        if (ps && !missing)
            return ps;
        if (!ps)
            close(fd);
    }
    job *j = calloc(1, sizeof *j);
    if (!j)
        return CZ_ERR_NOMEM;
    if (req->request_id)
        request_hash(req, j->req_hash);
    if (req->witness) {
        /* Uploaded bytes are checked now, so a malformed witness or one of
           the wrong length is answered at once (4xx) rather than as a
           failed job; the witness stage then has nothing left to do. */
        uint32_t n = 0;
        cz_status ws = cz_wtns_parse_into(NULL, 0, &n, req->witness, req->witness_len,
                                          "uploaded witness", 0, err, err_len);
        if (!ws && !(j->wbuf = cz_hostpool_get(e->pool, (size_t)n * sizeof(cz_fr)))) {
            set_err(err, err_len, "uploaded witness: out of memory");
            ws = CZ_ERR_NOMEM;
        }
        if (!ws)
            ws = cz_wtns_parse_into(j->wbuf->data, n, &j->nw, req->witness, req->witness_len,
                                    "uploaded witness", 0, err, err_len);
        if (ws) {
            cz_hostpool_put(e->pool, j->wbuf); /* wipes */
            free(j);
            return ws;
        }
        j->w = j->wbuf->data;
        j->wtns_len = req->witness_len;
    } else if (np > 1) { /* one partition per witness */
        if (!(j->parts = calloc(np, sizeof *j->parts))) {
            free(j);
            return CZ_ERR_NOMEM;
        }
        j->nparts = (int)np;
        for (size_t i = 0; i < np; i++) {
            job *c = calloc(1, sizeof *c);
            j->parts[i] = c;
            if (!c || !(c->wtns_path = strdup(req->witness_paths[i]))) {
                free_parts(j);
                free(j);
                return CZ_ERR_NOMEM;
            }
            c->parent = j;
            c->part = (int)i;
            c->prio = req->priority;
            c->origin = req->origin;
            c->worker = -1;
        }
    } else if (!(j->wtns_path = strdup(req->witness_paths ? req->witness_paths[0]
                                                          : req->witness_path))) {
        free(j);
        return CZ_ERR_NOMEM;
    }
    j->prio = req->priority;
    j->origin = req->origin;
    j->worker = -1;
    if (req->request_id)
        snprintf(j->request_id, sizeof j->request_id, "%s", req->request_id);

    cz_status st = CZ_OK;
    pthread_mutex_lock(&e->mu);
    job *dup = NULL;
    if (j->request_id[0])
        for (job *x = e->jobs_head; x && !dup; x = x->next)
            if (strcmp(x->request_id, j->request_id) == 0)
                dup = x;
    key *k = find_key_locked(e, req->key_id);
    if (dup && memcmp(dup->req_hash, j->req_hash, sizeof j->req_hash) != 0) {
        set_err(err, err_len, "request_id '%s' was used for a different request (job %s)",
                j->request_id, dup->id);
        *outcome = CZ_SUBMIT_CONFLICT;
        st = CZ_ERR_BUSY;
    } else if (dup) {
        snprintf(job_id, 24, "%s", dup->id);
        *position = dup->state == CZ_JOB_QUEUED && !dup->parts ? q_position(&e->pending, dup)
                    : dup->parts && dup->parts[0]->state == CZ_JOB_QUEUED
                        ? q_position(&e->pending, dup->parts[0])
                        : 0;
        *outcome = CZ_SUBMIT_EXISTING;
    } else if (e->draining) {
        set_err(err, err_len, "the daemon is shutting down");
        *outcome = CZ_SUBMIT_DRAINING;
        st = CZ_ERR_BUSY;
    } else if (!k) {
        set_err(err, err_len, "unknown key '%s' (load it first)", req->key_id);
        st = CZ_ERR_NOT_FOUND;
    } else if (j->w && j->nw != k->zkey->n_vars) {
        set_err(err, err_len, "uploaded witness has %u values, key '%s' expects %u", j->nw,
                req->key_id, k->zkey->n_vars);
        st = CZ_ERR_WITNESS;
    } else if (e->n_active + (j->nparts ? (size_t)j->nparts : 1) > (size_t)e->cfg.max_pending) {
        set_err(err, err_len, "queue full: %zu partitions pending (max_pending %d)", e->n_active,
                e->cfg.max_pending);
        e->rejected++;
        *outcome = CZ_SUBMIT_FULL;
        st = CZ_ERR_BUSY;
    } else {
        *outcome = CZ_SUBMIT_NEW;
        if (j->wbuf) { /* an uploaded witness waits in memory: it counts from now */
            j->mem = (uint64_t)j->nw * sizeof(cz_fr);
            e->mem_jobs += j->mem;
        }
        j->key = k;
        k->users++;
        k->last_use = now_ms();
        j->seq = ++e->next_seq;
        snprintf(j->id, sizeof j->id, "j%llu", (unsigned long long)j->seq);
        j->state = CZ_JOB_QUEUED;
        j->t[ST_QUEUE][0] = j->t[ST_TOTAL][0] = now_ms() - e->t0;
        j->prev = e->jobs_tail;
        if (e->jobs_tail)
            e->jobs_tail->next = j;
        else
            e->jobs_head = j;
        e->jobs_tail = j;
        e->n_jobs++;
        e->submitted++;
        snprintf(job_id, 24, "%s", j->id);
        if (j->nparts) { /* the partitions are the queued work */
            j->parts_left = j->nparts;
            for (int i = 0; i < j->nparts; i++) {
                job *c = j->parts[i];
                c->key = k;
                k->users++;
                c->seq = j->seq;
                snprintf(c->id, sizeof c->id, "%.12s.p%u", j->id, (unsigned)i & 0xffffu);
                c->state = CZ_JOB_QUEUED;
                c->t[ST_QUEUE][0] = c->t[ST_TOTAL][0] = j->t[ST_TOTAL][0];
                e->n_active++;
                q_push(&e->pending, c);
            }
            *position = q_position(&e->pending, j->parts[0]);
            pthread_cond_broadcast(&e->cv_pending);
        } else {
            e->n_active++;
            q_push(&e->pending, j);
            *position = q_position(&e->pending, j);
            pthread_cond_signal(&e->cv_pending);
        }
        j = NULL; /* owned by the engine now */
    }
    pthread_mutex_unlock(&e->mu);
    if (j) {
        cz_hostpool_put(e->pool, j->wbuf); /* wipes */
        free_parts(j);
        free(j->wtns_path);
        free(j);
    }
    return st;
}

static json_t *timings_json(const job *j)
{
    double q = j->t[ST_QUEUE][1] > 0 ? j->t[ST_QUEUE][1] - j->t[ST_QUEUE][0] : 0;
    double w = j->t[ST_WITNESS][1] > 0 ? j->t[ST_WITNESS][1] - j->t[ST_WITNESS][0] : 0;
    double gq = j->t[ST_PROVE_QUEUE][1] > 0 ? j->t[ST_PROVE_QUEUE][1] - j->t[ST_PROVE_QUEUE][0] : 0;
    double g = j->t[ST_PROVE][1] > 0 ? j->t[ST_PROVE][1] - j->t[ST_PROVE][0] : 0;
    double v = j->t[ST_VERIFY][1] > 0 ? j->t[ST_VERIFY][1] - j->t[ST_VERIFY][0] : 0;
    double tot = j->t[ST_TOTAL][1] > 0 ? j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0] : 0;
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:{s:s, s:f, s:f, s:f, s:f, s:f}}",
                     "queue_wait", q, "key_load", 0.0, "witness", w, "gpu_queue", gq, "gpu", g,
                     "verify", v, "total", tot, "prove_detail", "tier",
                     j->pt.tier[0] ? j->pt.tier : "-", "upload", j->pt.upload_ms, "eval_abc",
                     j->pt.eval_abc_ms, "ntt", j->pt.ntt_ms, "msm", j->pt.msm_ms, "assemble",
                     j->pt.assemble_ms);
}

/* A job of several partitions shows, until it ends, the state of its most
   advanced partition still at work. */
static cz_job_state shown_state(const job *j)
{
    if (!j->parts || state_finished(j->state))
        return j->state;
    cz_job_state st = CZ_JOB_QUEUED;
    for (int i = 0; i < j->nparts; i++)
        if (!state_finished(j->parts[i]->state) && j->parts[i]->state > st)
            st = j->parts[i]->state;
    return st;
}

static json_t *partitions_json(cz_engine *e, const job *j, int detail)
{
    json_t *a = json_array();
    if (!j->parts) {
        json_array_append_new(a, json_pack("{s:i, s:s}", "index", 0, "state",
                                           cz_job_state_name(j->state)));
        return a;
    }
    for (int i = 0; i < j->nparts; i++) {
        const job *c = j->parts[i];
        json_t *o = json_pack("{s:i, s:s}", "index", i, "state", cz_job_state_name(c->state));
        if (c->t[ST_PROVE][0] > 0)
            json_object_set_new(o, "device", json_integer(c->worker / e->cfg.workers_per_device));
        if (detail) {
            json_object_set_new(o, "timings_ms", timings_json(c));
            if (c->err[0])
                json_object_set_new(o, "error", json_string(c->err));
        }
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *job_json_locked(cz_engine *e, const job *j)
{
    json_t *o = json_pack("{s:s, s:s, s:s}", "job_id", j->id, "status",
                          cz_job_state_name(shown_state(j)), "priority", cz_priority_name(j->prio));
    if (j->request_id[0])
        json_object_set_new(o, "request_id", json_string(j->request_id));
    json_object_set_new(o, "timings_ms", timings_json(j));
    if (j->parts)
        json_object_set_new(o, "partitions", partitions_json(e, j, 1));
    if (j->state == CZ_JOB_DONE) {
        json_error_t je;
        json_object_set_new(o, j->parts ? "proofs" : "proof", json_loads(j->proof_json, 0, &je));
        json_object_set_new(o, j->parts ? "publics" : "public", json_loads(j->public_json, 0, &je));
    }
    if (j->err[0])
        json_object_set_new(o, "error", json_string(j->err));
    if (j->t[ST_PROVE][0] > 0) /* the device that proved it */
        json_object_set_new(o, "device", json_integer(j->worker / e->cfg.workers_per_device));
    if (j->state == CZ_JOB_QUEUED && !j->parts)
        json_object_set_new(o, "position", json_integer((json_int_t)q_position(&e->pending, (job *)j)));
    return o;
}

json_t *cz_engine_await(cz_engine *e, const char *job_id, int timeout_ms)
{
    pthread_mutex_lock(&e->mu);
    job *j = find_job_locked(e, job_id ? job_id : "");
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    j->waiters++;
    struct timespec dl;
    deadline_after(&dl, timeout_ms > 0 ? timeout_ms : 0);
    while (!state_finished(j->state) && timeout_ms > 0 && !e->stopping)
        if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) == ETIMEDOUT)
            break;
    j->waiters--;
    json_t *o = job_json_locked(e, j);
    retain_locked(e);
    pthread_mutex_unlock(&e->mu);
    return o;
}

cz_status cz_engine_cancel(cz_engine *e, const char *job_id)
{
    pthread_mutex_lock(&e->mu);
    job *j = find_job_locked(e, job_id ? job_id : "");
    cz_status st = CZ_OK;
    if (!j) {
        st = CZ_ERR_NOT_FOUND;
    } else if (state_finished(j->state)) {
        st = CZ_ERR_BUSY;
    } else {
        /* running partitions see `cancel` at their next boundary */
        cancel_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* ------------------------------------------------------------------ */
/* observation                                                          */
/* ------------------------------------------------------------------ */

json_t *cz_engine_status_json(cz_engine *e)
{
    pthread_mutex_lock(&e->mu);
    double t = now_ms() - e->t0;
    json_t *jobs = json_array();
    for (job *j = e->jobs_head; j; j = j->next) {
        if (state_finished(j->state))
            continue;
        json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:f}", "job_id", j->id, "state",
                              cz_job_state_name(shown_state(j)), "priority", cz_priority_name(j->prio),
                              "partitions", partitions_json(e, j, 0), "age_ms", t - j->t[ST_TOTAL][0]);
        json_object_set_new(o, "key", json_string(j->key ? j->key->id : ""));
        json_array_append_new(jobs, o);
    }
    json_t *workers = json_array();
    for (int i = 0; i < e->n_workers; i++) {
        worker *wk = &e->workers[i];
        json_t *o = json_pack("{s:i, s:i, s:s}", "index", wk->index, "device", wk->dev->index,
                              "state", wk->state);
        if (wk->cur)
            json_object_set_new(o, "job", json_string(wk->cur->id));
        json_array_append_new(workers, o);
    }
    json_t *devices = json_array();
    for (int d = 0; d < e->n_devs; d++) {
        device *dv = &e->devs[d];
        cz_backend_info info = dv->info;
        if (dv->be && dv->be->info && pthread_mutex_trylock(&dv->lock) == 0) {
            dv->be->info(dv->be, &info); /* fresh free memory when idle */
            pthread_mutex_unlock(&dv->lock);
        }
        json_array_append_new(devices,
                              json_pack("{s:i, s:s, s:s, s:I, s:I, s:i, s:f, s:f}", "index", d,
                                        "backend", dv->be ? dv->be->name : "stopped", "name",
                                        info.device, "memory_total", (json_int_t)info.mem_total,
                                        "memory_free", (json_int_t)info.mem_free, "workers",
                                        e->cfg.workers_per_device, "busy_ms", dv->busy_ms,
                                        "busy_fraction", t > 0 ? dv->busy_ms / t : 0.0));
    }
    json_t *keys = json_array();
    for (key *k = e->keys; k; k = k->next)
        json_array_append_new(keys, key_json_locked(e, k));
    cz_hostpool_stats ps;
    cz_hostpool_stats_get(e->pool, &ps);
    json_t *o = json_pack(
        "{s:f, s:b, s:{s:I, s:I}, s:o, s:o, s:o, s:o, s:{s:I, s:I, s:I, s:I},"
        " s:{s:I, s:I, s:I, s:I, s:I}}",
        "uptime_s", t / 1e3, "draining", e->draining, "queues", "pending", (json_int_t)e->pending.n,
        "prove", (json_int_t)e->prove.n, "jobs", jobs, "workers", workers, "devices", devices,
        "keys", keys, "memory", "budget", (json_int_t)e->mem_budget, "keys", (json_int_t)e->mem_keys,
        "jobs", (json_int_t)e->mem_jobs, "pool", (json_int_t)ps.charge, "counts", "submitted",
        (json_int_t)e->submitted, "done", (json_int_t)e->finished[0], "failed",
        (json_int_t)e->finished[1], "cancelled", (json_int_t)e->finished[2], "rejected",
        (json_int_t)e->rejected);
    json_object_set_new(o, "host_pool",
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "buffers",
                                  (json_int_t)ps.buffers, "bytes", (json_int_t)ps.bytes,
                                  "pinned_bytes", (json_int_t)ps.pinned_bytes, "in_use",
                                  (json_int_t)ps.in_use, "in_use_bytes",
                                  (json_int_t)ps.in_use_bytes, "idle", (json_int_t)ps.idle,
                                  "max_idle", (json_int_t)ps.max_idle, "allocations",
                                  (json_int_t)ps.allocations));
    pthread_mutex_unlock(&e->mu);
    return o;
}

json_t *cz_engine_timeline_json(cz_engine *e)
{
    json_t *a = json_array();
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < e->span_n; i++) {
        const span *s = &e->spans[(e->span_head + i) % e->cfg.timeline_cap];
        json_array_append_new(a, json_pack("{s:s, s:I, s:i, s:s, s:i, s:f, s:f}", "job", s->job,
                                           "seq", (json_int_t)s->seq, "partition", s->part,
                                           "stage", stage_names[s->stage], "worker", s->worker,
                                           "start_ms", s->t0, "end_ms", s->t1));
    }
    json_t *o = json_pack("{s:f, s:i, s:i, s:o}", "now_ms", now_ms() - e->t0, "workers",
                          e->n_workers, "witness_workers", e->n_witness, "spans", a);
    pthread_mutex_unlock(&e->mu);
    return o;
}

typedef struct {
    char *buf;
    size_t len, cap;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf ? b->buf + b->len : NULL, b->buf ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if (b->buf && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *nb = realloc(b->buf, cap);
        if (!nb)
            return;
        b->buf = nb;
        b->cap = cap;
    }
}

char *cz_engine_metrics_text(cz_engine *e)
{
    strbuf b = {0};
    pthread_mutex_lock(&e->mu);
    double t = now_ms() - e->t0;
    sb_printf(&b, "# HELP cuzk_uptime_seconds Seconds since the engine started.\n"
                  "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %.3f\n", t / 1e3);
    sb_printf(&b, "# HELP cuzk_jobs_submitted_total Jobs accepted.\n"
                  "# TYPE cuzk_jobs_submitted_total counter\ncuzk_jobs_submitted_total %llu\n",
              (unsigned long long)e->submitted);
    sb_printf(&b, "# HELP cuzk_jobs_rejected_total Jobs refused because the queue was full.\n"
                  "# TYPE cuzk_jobs_rejected_total counter\ncuzk_jobs_rejected_total %llu\n",
              (unsigned long long)e->rejected);
    sb_printf(&b, "# HELP cuzk_jobs_finished_total Jobs finished, by outcome.\n"
                  "# TYPE cuzk_jobs_finished_total counter\n");
    static const char *const outcome[3] = {"done", "failed", "cancelled"};
    for (int i = 0; i < 3; i++)
        sb_printf(&b, "cuzk_jobs_finished_total{status=\"%s\"} %llu\n", outcome[i],
                  (unsigned long long)e->finished[i]);
    sb_printf(&b, "# HELP cuzk_queue_depth Jobs waiting, by stage.\n# TYPE cuzk_queue_depth gauge\n"
                  "cuzk_queue_depth{stage=\"pending\"} %zu\ncuzk_queue_depth{stage=\"prove\"} %zu\n",
              e->pending.n, e->prove.n);
    sb_printf(&b, "# HELP cuzk_jobs_active Jobs queued or running.\n# TYPE cuzk_jobs_active gauge\n"
                  "cuzk_jobs_active %zu\n", e->n_active);
    cz_hostpool_stats ps;
    cz_hostpool_stats_get(e->pool, &ps);
    sb_printf(&b, "# HELP cuzk_host_memory_bytes Host memory budget and reservations.\n"
                  "# TYPE cuzk_host_memory_bytes gauge\n"
                  "cuzk_host_memory_bytes{use=\"budget\"} %llu\n"
                  "cuzk_host_memory_bytes{use=\"keys\"} %llu\n"
                  "cuzk_host_memory_bytes{use=\"jobs\"} %llu\n"
                  "cuzk_host_memory_bytes{use=\"pool\"} %llu\n",
              (unsigned long long)e->mem_budget, (unsigned long long)e->mem_keys,
              (unsigned long long)e->mem_jobs, (unsigned long long)ps.charge);
    sb_printf(&b, "# HELP cuzk_host_pool_buffers Witness buffers in the host pool, free and lent.\n"
                  "# TYPE cuzk_host_pool_buffers gauge\ncuzk_host_pool_buffers %llu\n"
                  "# HELP cuzk_host_pool_buffers_in_use Host pool buffers lent to jobs.\n"
                  "# TYPE cuzk_host_pool_buffers_in_use gauge\ncuzk_host_pool_buffers_in_use %llu\n"
                  "# HELP cuzk_host_pool_bytes Bytes of the host pool's buffers.\n"
                  "# TYPE cuzk_host_pool_bytes gauge\ncuzk_host_pool_bytes %llu\n"
                  "# HELP cuzk_host_pool_pinned_bytes Host pool bytes page-locked for a device.\n"
                  "# TYPE cuzk_host_pool_pinned_bytes gauge\ncuzk_host_pool_pinned_bytes %llu\n"
                  "# HELP cuzk_host_pool_allocations_total Host pool buffers allocated in all.\n"
                  "# TYPE cuzk_host_pool_allocations_total counter\n"
                  "cuzk_host_pool_allocations_total %llu\n",
              (unsigned long long)ps.buffers, (unsigned long long)ps.in_use,
              (unsigned long long)ps.bytes, (unsigned long long)ps.pinned_bytes,
              (unsigned long long)ps.allocations);
    size_t nk = 0;
    for (key *k = e->keys; k; k = k->next)
        nk++;
    sb_printf(&b, "# HELP cuzk_keys_resident Proving keys loaded.\n# TYPE cuzk_keys_resident gauge\n"
                  "cuzk_keys_resident %zu\n", nk);
    sb_printf(&b, "# HELP cuzk_device_busy_seconds_total Seconds each device spent proving.\n"
                  "# TYPE cuzk_device_busy_seconds_total counter\n");
    for (int d = 0; d < e->n_devs; d++)
        sb_printf(&b, "cuzk_device_busy_seconds_total{device=\"%d\"} %.3f\n", d,
                  e->devs[d].busy_ms / 1e3);
    sb_printf(&b, "# HELP cuzk_stage_duration_seconds Duration of each job stage.\n"
                  "# TYPE cuzk_stage_duration_seconds histogram\n");
    for (int s = 0; s < ST_COUNT; s++) {
        const histogram *h = &e->hist[s];
        uint64_t cum = 0;
        for (int i = 0; i < N_BUCKETS; i++) {
            cum += h->count[i];
            sb_printf(&b, "cuzk_stage_duration_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n",
                      stage_names[s], bucket_le[i], (unsigned long long)cum);
        }
        sb_printf(&b, "cuzk_stage_duration_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n",
                  stage_names[s], (unsigned long long)h->n);
        sb_printf(&b, "cuzk_stage_duration_seconds_sum{stage=\"%s\"} %.6f\n", stage_names[s], h->sum);
        sb_printf(&b, "cuzk_stage_duration_seconds_count{stage=\"%s\"} %llu\n", stage_names[s],
                  (unsigned long long)h->n);
    }
    pthread_mutex_unlock(&e->mu);
    return b.buf;
}
