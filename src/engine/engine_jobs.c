/*
 * engine_jobs.c: jobs, from submission to their end.
 *
 * DESIGN. The two priority queues (pending, prove), submission (checks,
 * request_id binding, partitions, the queue bound), how a job or one of
 * its partitions ends (ce_finish_locked releases its buffer, memory and key,
 * and a partition's end may end its job), the retention of finished
 * jobs, and await, cancel and a job's JSON. Locking: every function here
 * named *_locked, and the queues, run with the engine mutex held; submit
 * checks a request and parses an uploaded witness before taking it, and
 * frees what it refused after dropping it. See engine.c for the rule.
 */
#include "engine/engine_internal.h"

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
/* queues (engine mutex held)                                           */
/* ------------------------------------------------------------------ */

void ce_q_push(prio_queue *q, job *j)
{
    j->qnext = NULL;
    if (q->tail[j->prio])
        q->tail[j->prio]->qnext = j;
    else
        q->head[j->prio] = j;
    q->tail[j->prio] = j;
    q->n++;
}

job *ce_q_peek(prio_queue *q)
{
    for (int p = CZ_PRIO_COUNT - 1; p >= 0; p--)
        if (q->head[p])
            return q->head[p];
    return NULL;
}

int ce_q_remove(prio_queue *q, job *j)
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

/* ------------------------------------------------------------------ */
/* job ends (engine mutex held)                                         */
/* ------------------------------------------------------------------ */

static job *find_job_locked(cz_engine *e, const char *id)
{
    for (job *j = e->jobs_head; j; j = j->next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
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
void ce_job_free_locked(cz_engine *e, job *j)
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
    cz_c1_free(j->c1);
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
        if (ce_state_finished(j->state) && j->waiters == 0 && j->parts_left == 0)
            ce_job_free_locked(e, j); /* (a job's partitions may still be running) */
        j = nx;
    }
}

/* Ask a job (all its partitions) to stop: queued ones end now, running
   ones at their next stage boundary. */
static void cancel_locked(cz_engine *e, job *j)
{
    j->cancel = 1;
    for (int i = 0; i < j->nparts; i++)
        if (!ce_state_finished(j->parts[i]->state))
            cancel_locked(e, j->parts[i]);
    if (j->state == CZ_JOB_PROVE_QUEUED && ce_q_remove(&e->prove, j)) {
        pthread_cond_broadcast(&e->cv_pending); /* a place in the witness queue is free */
        ce_finish_locked(e, j, CZ_JOB_CANCELLED);
    } else if (j->state == CZ_JOB_QUEUED && ce_q_remove(&e->pending, j)) {
        ce_finish_locked(e, j, CZ_JOB_CANCELLED);
    }
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

/* A porep job's c1 goes once the job has ended and none of its partitions
   still reads it (a finished job is kept for retain_jobs completions: its
   input need not be; porep-32g's is tens of MB). */
static void release_c1_locked(job *j)
{
    if (j->c1 && ce_state_finished(j->state) && j->parts_left == 0) {
        cz_c1_free(j->c1);
        j->c1 = NULL;
    }
}

/* A partition ended: the first failure or cancellation ends its job the
   same way (and cancels the other partitions); the last success makes
   the job done with the proofs in partition order. */
static void part_finished_locked(cz_engine *e, job *c, cz_job_state st)
{
    job *p = c->parent;
    p->parts_left--;
    if (ce_state_finished(p->state)) {
        release_c1_locked(p);
        return;
    }
    if (st != CZ_JOB_DONE) {
        snprintf(p->err, sizeof p->err, "partition %d: %.600s", c->part,
                 c->err[0] ? c->err : cz_job_state_name(st));
        ce_finish_locked(e, p, st);
    } else if (p->parts_left == 0) {
        p->proof_json = join_parts(p, 0);
        p->public_json = join_parts(p, 1);
        if (!p->proof_json || !p->public_json)
            snprintf(p->err, sizeof p->err, "out of memory joining the proofs");
        ce_finish_locked(e, p, p->err[0] ? CZ_JOB_FAILED : CZ_JOB_DONE);
    }
    release_c1_locked(p);
}

/* Move j to a final state and release what it holds (mutex held). */
void ce_finish_locked(cz_engine *e, job *j, cz_job_state st)
{
    if (ce_state_finished(j->state))
        return;
    j->state = st;
    j->finished_at = ce_now_ms() - e->t0;
    j->t[ST_TOTAL][1] = j->finished_at;
    if (!j->parent) { /* jobs are counted, not their partitions */
        ce_hist_add(&e->hist[ST_TOTAL], (j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0]) / 1e3);
        e->finished[st == CZ_JOB_DONE ? 0 : st == CZ_JOB_FAILED ? 1 : 2]++;
    }
    if (j->parts) /* the partitions still queued or running stop */
        for (int i = 0; i < j->nparts; i++)
            if (!ce_state_finished(j->parts[i]->state))
                cancel_locked(e, j->parts[i]);
    if (j->wbuf) {
        cz_hostpool_put(e->pool, j->wbuf); /* wipes: the witness is secret */
        j->wbuf = NULL;
        j->w = NULL;
    }
    if (j->wpack) { /* packed but never proved (cancelled while queued) */
        cz_wit_packed_free(j->wpack);
        free(j->wpack);
        j->wpack = NULL;
    }
    if (j->mem) {
        e->mem_jobs -= j->mem;
        j->mem = 0;
        pthread_cond_broadcast(&e->cv_pending); /* a waiting head may fit now */
    }
    if (j->key) {
        j->key->users--;
        j->key->last_use = ce_now_ms();
        j->key = NULL;
    }
    if (st == CZ_JOB_DONE && j->parts) { /* its partitions logged their stages */
        double prove = 0;
        for (int i = 0; i < j->nparts; i++)
            prove += j->parts[i]->t[ST_PROVE][1] - j->parts[i]->t[ST_PROVE][0];
        cz_log(CZ_LOG_INFO, "engine", "%s done in %.1f ms: %d partitions%s%s (%s %.1f ms in all)",
               j->id, j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0], j->nparts,
               j->porep ? " of " : "", j->porep ? j->porep->name : "", ce_stage_name(e, ST_PROVE),
               prove);
    } else if (st == CZ_JOB_DONE)
        cz_log(CZ_LOG_INFO, "engine",
               "%s done in %.1f ms, key tier %s (queue %.1f, witness %.1f, %s %.1f, verify %.1f)",
               j->id, j->t[ST_TOTAL][1] - j->t[ST_TOTAL][0], j->pt.tier[0] ? j->pt.tier : "-",
               j->t[ST_QUEUE][1] - j->t[ST_QUEUE][0],
               j->t[ST_WITNESS][1] - j->t[ST_WITNESS][0], ce_stage_name(e, ST_PROVE),
               j->t[ST_PROVE][1] - j->t[ST_PROVE][0],
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
    release_c1_locked(j); /* a job of one partition; or of several, none still running */
    /* A job of partitions ends inside calls that still walk its
       partitions: the next retain_locked (any later end, any await)
       forgets it, not this one. */
    if (!j->parts)
        retain_locked(e);
}

void ce_fail_locked(cz_engine *e, job *j, const char *msg)
{
    if (!j->err[0])
        snprintf(j->err, sizeof j->err, "%s", msg);
    ce_finish_locked(e, j, CZ_JOB_FAILED);
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

static void request_hash(const cz_job_request *req, const char *key_id, uint8_t out[16])
{
    req_digest d = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    size_t np = req->witness_paths ? req->n_partitions : (req->witness_path ? 1 : 0);
    digest_bytes(&d, key_id, strlen(key_id) + 1);
    uint8_t head[2] = {(uint8_t)req->priority, req->c1_json ? 'c' : req->c1_path ? 'f'
                                               : req->witness ? 'b' : 'p'};
    digest_bytes(&d, head, sizeof head);
    if (req->c1_json) {
        uint64_t n = req->c1_len;
        digest_bytes(&d, &n, sizeof n);
        digest_bytes(&d, req->c1_json, req->c1_len);
    } else if (req->c1_path) {
        digest_bytes(&d, req->c1_path, strlen(req->c1_path) + 1);
    } else if (req->witness) {
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

/* ------------------------------------------------------------------ */
/* porep jobs: the c1 at submission                                      */
/* ------------------------------------------------------------------ */

/* Read a porep job's c1 (its text, or its file under the policy of witness
   paths) and parse and validate it whole; expect: the preset of the key
   the request names, if it was made from one. Every fault of the c1 is
   CZ_ERR_ARG (a 400: the request is wrong), with the reader's message
   naming partition, challenge and field. */
static cz_status porep_input(cz_engine *e, const cz_job_request *req, const cz_porep_params *expect,
                             cz_c1 **out, char *err, size_t err_len)
{
    *out = NULL;
    cz_blob b = {0};
    const char *text = req->c1_json, *name = "c1";
    size_t len = req->c1_len;
    if (req->c1_path) {
        int fd;
        uint64_t size;
        cz_status st = cz_path_open(&fd, &size, NULL, 0, req->c1_path,
                                    ce_policy_for(e, req->origin, 0), "witness", err, err_len);
        if (st)
            return st;
        if (e->cfg.max_witness_bytes && size > e->cfg.max_witness_bytes) {
            close(fd);
            ce_set_err(err, err_len, "%s: %llu bytes, more than the %zu-byte limit of inputs",
                       req->c1_path, (unsigned long long)size, e->cfg.max_witness_bytes);
            return CZ_ERR_RANGE;
        }
        st = cz_blob_read_fd(&b, fd, size, req->c1_path, err, err_len);
        close(fd);
        if (st)
            return st;
        text = (const char *)b.data;
        len = b.len;
        name = req->c1_path;
    } else if (e->cfg.max_witness_bytes && len > e->cfg.max_witness_bytes) {
        ce_set_err(err, err_len, "c1 of %zu bytes exceeds the %zu-byte limit of inputs", len,
                   e->cfg.max_witness_bytes);
        return CZ_ERR_RANGE;
    }
    cz_status st = cz_c1_parse(out, text ? text : "", len, name, expect, -1, err, err_len);
    cz_blob_release(&b);
    return st == CZ_OK || st == CZ_ERR_NOMEM ? st : CZ_ERR_ARG;
}

/* Does key k prove the preset's circuit? A key made from a preset must be
   of that preset; a file key must have its variables, public inputs and
   domain. Engine mutex held. */
static int porep_key_fits(const key *k, const cz_porep_params *p, const cz_porep_counts *c,
                          char *err, size_t err_len)
{
    if (k->preset[0]) {
        if (!strcmp(k->preset, p->name))
            return 1;
        ce_set_err(err, err_len, "key '%s' was made from preset %s, and the c1 is of preset %s "
                   "(its registered_proof)", k->id, k->preset, p->name);
        return 0;
    }
    uint64_t nv = 1 + (uint64_t)c->n_public + c->n_aux, rows = c->n_constraints + c->n_public + 1,
             dom = 1;
    while (dom < rows)
        dom <<= 1;
    if (k->bn254) {
        ce_set_err(err, err_len, "key '%s' is a BN254 (bn128) key, and a c1 of preset %s is "
                   "proven with a BLS12-381 key", k->id, p->name);
        return 0;
    }
    if (k->n_vars == nv && k->n_public == c->n_public && k->domain_size == dom)
        return 1;
    ce_set_err(err, err_len, "key '%s' (%u variables, %u public inputs, domain %u) is not a key of "
               "preset %s, the c1's registered_proof (%llu variables, %u public inputs, domain "
               "%llu)", k->id, k->n_vars, k->n_public, k->domain_size, p->name,
               (unsigned long long)nv, c->n_public, (unsigned long long)dom);
    return 0;
}

/* A refused request: its parsed c1 goes. */
static cz_status refuse(cz_c1 *c1, cz_status st)
{
    cz_c1_free(c1);
    return st;
}

cz_status cz_engine_submit(cz_engine *e, const cz_job_request *req, char *job_id, size_t *position,
                           char *err, size_t err_len)
{
    cz_submit_outcome dummy;
    cz_submit_outcome *outcome = req && req->outcome ? req->outcome : &dummy;
    *outcome = CZ_SUBMIT_REFUSED;
    int porep = req && (req->c1_json || req->c1_path);
    if (!req || (!porep && !req->key_id) ||
        (!req->witness_path && !req->witness && !req->witness_paths && !porep) ||
        (unsigned)req->priority >= CZ_PRIO_COUNT) {
        ce_set_err(err, err_len, "a job needs a key id and a witness (path or bytes), or a c1");
        return CZ_ERR_ARG;
    }
    if (porep && (req->witness_path || req->witness || req->witness_paths ||
                  (req->c1_json && req->c1_path))) {
        ce_set_err(err, err_len, "a porep job takes one c1 (its JSON or its path) and no witness");
        return CZ_ERR_ARG;
    }
    cz_c1 *c1 = NULL;
    cz_porep_counts counts;
    const char *key_id = req->key_id;
    if (porep) {
        /* The key's preset, where it was made from one, is the preset the
           c1 must be of (the reader then names both); a file key is
           checked against the c1's preset below. */
        const cz_porep_params *expect = NULL;
        if (key_id) {
            pthread_mutex_lock(&e->mu);
            key *k = ce_find_key_locked(e, key_id);
            if (k && k->preset[0])
                expect = cz_porep_preset(k->preset);
            pthread_mutex_unlock(&e->mu);
        }
        cz_status ps = porep_input(e, req, expect, &c1, err, err_len);
        if (ps == CZ_ERR_ARG && expect && strstr(err, "registered_proof: the file is for")) {
            size_t n = strlen(err);
            ce_set_err(err + n, err_len - n, " (key '%s' was made from preset %s)", key_id,
                       expect->name);
        }
        if (!ps)
            ps = cz_porep_counts_get(c1->params, &counts, err, err_len);
        if (ps) {
            cz_c1_free(c1);
            return ps;
        }
        if (!key_id)
            key_id = c1->params->name;
    }
    size_t np = porep ? (c1->n_partitions > 1 ? c1->n_partitions : 0)
                : req->witness_paths ? req->n_partitions : 0;
    if (req->witness_paths && !porep) {
        if (np < 1 || np > CZ_MAX_PARTITIONS) {
            ce_set_err(err, err_len, "a job has 1 to %d partitions (witness paths), not %zu",
                    CZ_MAX_PARTITIONS, np);
            return refuse(c1, CZ_ERR_ARG);
        }
        for (size_t i = 0; i < np; i++)
            if (!req->witness_paths[i]) {
                ce_set_err(err, err_len, "witness path %zu is missing", i);
                return refuse(c1, CZ_ERR_ARG);
            }
    }
    if (req->witness && req->witness_len > e->cfg.max_witness_bytes) {
        ce_set_err(err, err_len, "witness of %zu bytes exceeds the %zu-byte limit", req->witness_len,
                e->cfg.max_witness_bytes);
        return refuse(c1, CZ_ERR_RANGE);
    }
    /* A job of more partitions than can ever be pending would be refused
       as "queue full" forever: say so once, with a status not retried. */
    if ((np ? np : 1) > (size_t)e->cfg.max_pending) {
        ce_set_err(err, err_len, "job of %zu partitions exceeds max_pending %d", np ? np : 1,
                e->cfg.max_pending);
        return refuse(c1, CZ_ERR_RANGE);
    }
    if (req->request_id && strlen(req->request_id) >= sizeof ((job *)0)->request_id) {
        ce_set_err(err, err_len, "request_id longer than 127 bytes");
        return refuse(c1, CZ_ERR_ARG);
    }
    if (req->request_id && (!req->request_id[0] || has_control_bytes(req->request_id))) {
        ce_set_err(err, err_len, "request_id is empty or holds control bytes");
        return refuse(c1, CZ_ERR_ARG);
    }
    if (has_control_bytes(key_id)) {
        ce_set_err(err, err_len, "key id holds control bytes");
        return refuse(c1, CZ_ERR_ARG);
    }
    /* Witness paths meet the path policy now, so that a refusal (or a
       FIFO, a folder) is answered at once; the witness stage opens them
       again the same way. A file not there yet in an allowed folder may
       still come: its job fails at the witness stage if it has not. */
    for (size_t i = 0, n = porep ? 0 : np ? np : req->witness ? 0 : 1; i < n; i++) {
        int fd;
        uint64_t size;
        bool missing;
        cz_status ps = cz_path_open_ex(&fd, &size, NULL, 0, &missing,
                                       np ? req->witness_paths[i] : req->witness_path,
                                       ce_policy_for(e, req->origin, 0), "witness", err, err_len);
        if (ps && !missing)
            return refuse(c1, ps);
        if (!ps)
            close(fd);
    }
    job *j = calloc(1, sizeof *j);
    if (!j)
        return refuse(c1, CZ_ERR_NOMEM);
    if (req->request_id)
        request_hash(req, key_id, j->req_hash);
    if (porep) { /* one partition per c1 partition, each synthesising its witness */
        j->c1 = c1;
        j->porep = c1->params;
        c1 = NULL;
        if (np && !(j->parts = calloc(np, sizeof *j->parts))) {
            cz_c1_free(j->c1);
            free(j);
            return CZ_ERR_NOMEM;
        }
        j->nparts = (int)np;
        for (size_t i = 0; i < np; i++) {
            job *c = calloc(1, sizeof *c);
            if (!(j->parts[i] = c)) {
                free_parts(j);
                cz_c1_free(j->c1);
                free(j);
                return CZ_ERR_NOMEM;
            }
            c->parent = j;
            c->part = (int)i;
            c->porep = j->porep;
            c->prio = req->priority;
            c->origin = req->origin;
            c->worker = -1;
        }
    } else if (req->witness) {
        /* Uploaded bytes are checked now, so a malformed witness or one of
           the wrong length is answered at once (4xx) rather than as a
           failed job; the witness stage then has nothing left to do. */
        uint32_t n = 0;
        cz_status ws;
        if (cz_wtns_bytes_are_bn254(req->witness, req->witness_len)) {
            /* a bn128 witness (for a bn128 key: checked below), decoded
               into a pool buffer of the same 32-byte values */
            cz_bn254_fr *bw = NULL;
            ws = cz_bn254_wtns_parse(&bw, &n, req->witness, req->witness_len,
                                     "uploaded witness", 0, err, err_len);
            if (!ws && !(j->wbuf = cz_hostpool_get(e->pool, (size_t)n * sizeof(cz_fr), 1))) {
                ce_set_err(err, err_len, "uploaded witness: out of memory");
                ws = CZ_ERR_NOMEM;
            }
            if (!ws) {
                memcpy(j->wbuf->data, bw, (size_t)n * sizeof *bw);
                j->nw = n;
                j->w_bn254 = 1;
            }
            cz_bn254_wtns_free(bw, n);
            if (ws) {
                cz_hostpool_put(e->pool, j->wbuf); /* wipes */
                free(j);
                return ws;
            }
        } else { /* BLS12-381 */
            ws = cz_wtns_parse_into(NULL, 0, &n, req->witness, req->witness_len,
                                    "uploaded witness", 0, err, err_len);
            /* pinned: the key is not known yet (a compact key's witness
               would not need it) */
            if (!ws && !(j->wbuf = cz_hostpool_get(e->pool, (size_t)n * sizeof(cz_fr), 1))) {
                ce_set_err(err, err_len, "uploaded witness: out of memory");
                ws = CZ_ERR_NOMEM;
            }
            if (!ws)
                ws = cz_wtns_parse_into(j->wbuf->data, n, &j->nw, req->witness,
                                        req->witness_len, "uploaded witness", 0, err, err_len);
            if (ws) {
                cz_hostpool_put(e->pool, j->wbuf); /* wipes */
                free(j);
                return ws;
            }
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
    key *k = ce_find_key_locked(e, key_id);
    if (dup && memcmp(dup->req_hash, j->req_hash, sizeof j->req_hash) != 0) {
        ce_set_err(err, err_len, "request_id '%s' was used for a different request (job %s)",
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
        ce_set_err(err, err_len, "the daemon is shutting down");
        *outcome = CZ_SUBMIT_DRAINING;
        st = CZ_ERR_BUSY;
    } else if (!k && ce_key_unavailable_locked(e, key_id, err, err_len) == 1) {
        *outcome = CZ_SUBMIT_UNAVAILABLE; /* being loaded or made: retry */
        st = CZ_ERR_BUSY;
    } else if (!k && ce_key_unavailable_locked(e, key_id, err, err_len) == 2) {
        st = CZ_ERR_NOT_FOUND; /* its make failed: err says why */
    } else if (!k) {
        ce_set_err(err, err_len, "unknown key '%s' (%s)", key_id,
                   porep && !req->key_id ? "the c1's registered_proof: make it with POST /v1/keys "
                                           "{\"preset\"} or load one of that preset"
                                         : "load it first");
        st = CZ_ERR_NOT_FOUND;
    } else if (j->w && j->w_bn254 != k->bn254) {
        ce_set_err(err, err_len, "uploaded witness is a %s witness, and key '%s' is a %s key",
                   j->w_bn254 ? "BN254 (bn128)" : "BLS12-381", key_id,
                   k->bn254 ? "BN254 (bn128)" : "BLS12-381");
        st = CZ_ERR_CURVE;
    } else if (j->w && j->nw != k->n_vars) {
        ce_set_err(err, err_len, "uploaded witness has %u values, key '%s' expects %u", j->nw,
                key_id, k->n_vars);
        st = CZ_ERR_WITNESS;
    } else if (porep && !porep_key_fits(k, j->porep, &counts, err, err_len)) {
        st = CZ_ERR_ARG;
    } else if (e->n_active + (j->nparts ? (size_t)j->nparts : 1) > (size_t)e->cfg.max_pending) {
        ce_set_err(err, err_len, "queue full: %zu partitions pending (max_pending %d)", e->n_active,
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
        k->last_use = ce_now_ms();
        j->seq = ++e->next_seq;
        snprintf(j->id, sizeof j->id, "j%llu", (unsigned long long)j->seq);
        j->state = CZ_JOB_QUEUED;
        j->t[ST_QUEUE][0] = j->t[ST_TOTAL][0] = ce_now_ms() - e->t0;
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
                ce_q_push(&e->pending, c);
            }
            *position = q_position(&e->pending, j->parts[0]);
            pthread_cond_broadcast(&e->cv_pending);
        } else {
            e->n_active++;
            ce_q_push(&e->pending, j);
            *position = q_position(&e->pending, j);
            pthread_cond_signal(&e->cv_pending);
        }
        j = NULL; /* owned by the engine now */
    }
    pthread_mutex_unlock(&e->mu);
    if (j) {
        cz_hostpool_put(e->pool, j->wbuf); /* wipes */
        free_parts(j);
        cz_c1_free(j->c1);
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
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:{s:s, s:f, s:f, s:f, s:f, s:f, s:I}}",
                     "queue_wait", q, "key_load", 0.0, "witness", w, "gpu_queue", gq, "gpu", g,
                     "verify", v, "total", tot, "prove_detail", "tier",
                     j->pt.tier[0] ? j->pt.tier : "-", "upload", j->pt.upload_ms, "eval_abc",
                     j->pt.eval_abc_ms, "ntt", j->pt.ntt_ms, "msm", j->pt.msm_ms, "assemble",
                     j->pt.assemble_ms, "h2d_bytes", (json_int_t)j->pt.h2d_bytes);
}

/* A job of several partitions shows, until it ends, the state of its most
   advanced partition still at work. */
cz_job_state ce_shown_state(const job *j)
{
    if (!j->parts || ce_state_finished(j->state))
        return j->state;
    cz_job_state st = CZ_JOB_QUEUED;
    for (int i = 0; i < j->nparts; i++)
        if (!ce_state_finished(j->parts[i]->state) && j->parts[i]->state > st)
            st = j->parts[i]->state;
    return st;
}

json_t *ce_partitions_json(cz_engine *e, const job *j, int detail)
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
                          cz_job_state_name(ce_shown_state(j)), "priority", cz_priority_name(j->prio));
    if (j->request_id[0])
        json_object_set_new(o, "request_id", json_string(j->request_id));
    json_object_set_new(o, "type", json_string(j->porep ? "porep" : "groth16"));
    if (j->porep)
        json_object_set_new(o, "preset", json_string(j->porep->name));
    json_object_set_new(o, "timings_ms", timings_json(j));
    if (j->parts)
        json_object_set_new(o, "partitions", ce_partitions_json(e, j, 1));
    if (j->state == CZ_JOB_DONE) {
        json_error_t je;
        json_t *pr = json_loads(j->proof_json, 0, &je), *pu = json_loads(j->public_json, 0, &je);
        if (j->porep && !j->parts) { /* a porep job answers arrays, one partition or ten */
            pr = json_pack("[o]", pr);
            pu = json_pack("[o]", pu);
        }
        int arrays = j->parts || j->porep;
        json_object_set_new(o, arrays ? "proofs" : "proof", pr);
        json_object_set_new(o, arrays ? "publics" : "public", pu);
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
    ce_deadline_after(&dl, timeout_ms > 0 ? timeout_ms : 0);
    while (!ce_state_finished(j->state) && timeout_ms > 0 && !e->stopping)
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
    } else if (ce_state_finished(j->state)) {
        st = CZ_ERR_BUSY;
    } else {
        /* running partitions see `cancel` at their next boundary */
        cancel_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* ------------------------------------------------------------------ */
/* admission (for a farm deciding whether to claim)                     */
/* ------------------------------------------------------------------ */

cz_status cz_engine_can_admit(cz_engine *e, const char *key_id, uint64_t *need_out, uint64_t *room_out,
                              char *err, size_t err_len)
{
    if (need_out)
        *need_out = 0;
    if (room_out)
        *room_out = 0;
    pthread_mutex_lock(&e->mu);
    key *k = ce_find_key_locked(e, key_id ? key_id : "");
    if (!k) {
        pthread_mutex_unlock(&e->mu);
        ce_set_err(err, err_len, "unknown key '%s'", key_id ? key_id : "");
        return CZ_ERR_NOT_FOUND;
    }
    if (e->draining || e->stopping) {
        pthread_mutex_unlock(&e->mu);
        ce_set_err(err, err_len, "the engine is shutting down");
        return CZ_ERR_BUSY;
    }
    job probe;
    memset(&probe, 0, sizeof probe);
    probe.key = k; /* a witness named by path: the largest file the key takes */
    uint64_t need = ce_job_mem_estimate(e, k, &probe);
    /* partitions pending that have not reserved yet (an uploaded witness
       holds its buffer already, j->mem): what they will take first */
    uint64_t ahead = 0;
    for (int p = 0; p < CZ_PRIO_COUNT; p++)
        for (job *j = e->pending.head[p]; j; j = j->qnext) {
            uint64_t x = ce_job_mem_estimate(e, j->key, j);
            ahead += x > j->mem ? x - j->mem : 0;
        }
    /* held: reservations, keys (and loads in flight), pooled buffers
       but the idle ones, which are freed when a reservation needs them */
    cz_hostpool_stats ps;
    cz_hostpool_stats_get(e->pool, &ps);
    uint64_t pool = ps.charge > ps.idle_bytes ? ps.charge - ps.idle_bytes : 0;
    uint64_t use = e->mem_jobs + e->mem_keys + pool + ahead;
    uint64_t room = use < e->mem_budget ? e->mem_budget - use : 0;
    /* a partition larger than the budget still runs alone (the witness
       stage's rule): admitted when nothing else holds or awaits memory */
    int ok = need <= room || (e->mem_jobs == 0 && e->pending.n == 0);
    pthread_mutex_unlock(&e->mu);
    if (need_out)
        *need_out = need;
    if (room_out)
        *room_out = room;
    if (ok)
        return CZ_OK;
    ce_set_err(err, err_len,
               "a partition of key '%s' needs %llu MiB of host memory, %llu MiB of the budget are free now",
               key_id, (unsigned long long)(need >> 20), (unsigned long long)(room >> 20));
    return CZ_ERR_NOMEM;
}
