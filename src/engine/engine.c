/*
 * engine.c: the proving engine (see engine.h for the design).
 *
 * Locking: one engine mutex guards every list, counter and job field that
 * more than one thread touches; it is never held across slow work (file
 * reads, witness parsing, proving, verifying). Each device has its own lock
 * that a prove worker holds only around the backend's heavy steps. Order:
 * a device lock is waited for with the engine mutex free only (the status
 * page may trylock one under the engine mutex: it never waits).
 *
 * This file holds the small helpers and the life cycle (create, drain,
 * shutdown, destroy). The rest of the engine: engine_jobs.c (queues,
 * submission, job ends), engine_workers.c (witness and prove workers),
 * engine_keys.c (keys, memory budget), engine_observe.c (spans, metrics,
 * status pages); engine_internal.h holds what they share.
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
#include "util/threadpool.h"

/* ------------------------------------------------------------------ */
/* small helpers                                                        */
/* ------------------------------------------------------------------ */

double ce_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void ce_set_err(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || !err_len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

void ce_deadline_after(struct timespec *ts, int ms)
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

int ce_state_finished(cz_job_state s)
{
    return s == CZ_JOB_DONE || s == CZ_JOB_FAILED || s == CZ_JOB_CANCELLED;
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
    c->witness_queue_per_gpu = 2;
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
        c->max_pending < 1 || c->witness_queue_per_gpu < 0) {
        ce_set_err(err, err_len, "workers, witness workers and max pending must be >= 1, devices and "
                   "the witness queue per GPU >= 0");
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
    e->t0 = ce_now_ms();
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
    e->witness_cap = (size_t)c->witness_queue_per_gpu * (size_t)e->n_workers;
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
    e->host_prove = !strcmp(e->devs[0].be->name, "cpu");
    /* porep partitions synthesise their witnesses on a pool of their own
       (threads wait on it only while a porep job runs) */
    if (!(e->synth = cz_threadpool_create(c->prove_threads))) {
        ce_set_err(err, err_len, "cannot start the synthesis threads");
        cz_engine_destroy(e, 0);
        return CZ_ERR_NOMEM;
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
        if (pthread_create(&e->workers[i].th, NULL, ce_prove_main, &e->workers[i]) != 0) {
            ce_set_err(err, err_len, "cannot start worker threads");
            e->n_workers = i;
            cz_engine_destroy(e, 0);
            return CZ_ERR_NOMEM;
        }
    }
    for (int i = 0; i < c->witness_workers; i++) {
        if (pthread_create(&e->witness_th[i], NULL, ce_witness_main, e) != 0) {
            ce_set_err(err, err_len, "cannot start witness threads");
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
    while ((j = ce_q_peek(&e->pending))) {
        ce_q_remove(&e->pending, j);
        ce_fail_locked(e, j, "daemon shutting down");
    }
    /* Let running work (witness, prove queue, proving) finish. */
    struct timespec dl;
    ce_deadline_after(&dl, grace_ms > 0 ? grace_ms : 0);
    while (e->n_active > 0 && grace_ms > 0)
        if (pthread_cond_timedwait(&e->cv_done, &e->mu, &dl) == ETIMEDOUT)
            break;
    while ((j = ce_q_peek(&e->prove))) {
        ce_q_remove(&e->prove, j);
        ce_fail_locked(e, j, "daemon shutting down");
    }
    for (job *x = e->jobs_head; x; x = x->next)
        if (!ce_state_finished(x->state)) {
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
    /* Key uploads to the devices end before the backends go (none starts
       once stopping is set). */
    pthread_mutex_lock(&e->mu);
    while (e->uploads > 0)
        pthread_cond_wait(&e->cv_done, &e->mu);
    pthread_mutex_unlock(&e->mu);
    /* A key being made from a preset may hold a device's lock (its
       fixed-base products cannot be interrupted): wait for it. */
    for (int d = 0; d < e->n_devs; d++) {
        pthread_mutex_lock(&e->devs[d].lock);
        cz_backend_destroy(e->devs[d].be);
        e->devs[d].be = NULL;
        pthread_mutex_unlock(&e->devs[d].lock);
    }
    /* the key thread ends the step it is in (a recording cannot be
       interrupted; the fixed-base step now finds no backend) */
    ce_keys_stop(e);

    /* Failing a job may forget older finished ones (retain_locked), so
       the walk starts again from the head after each. */
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *x = e->jobs_head;
        while (x && ce_state_finished(x->state))
            x = x->next;
        if (!x)
            break;
        ce_fail_locked(e, x, "daemon shutting down");
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
        ce_job_free_locked(e, j);
    }
    pthread_mutex_unlock(&e->mu);
    cz_hostpool_destroy(e->pool);
    cz_threadpool_destroy(e->synth);
    cz_path_policy_free(&e->key_pol);
    cz_path_policy_free(&e->wit_pol);
    ce_keys_free_failures(e);
    for (key *k = e->keys, *nx; k; k = nx) {
        nx = k->next;
        ce_key_free(k);
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
