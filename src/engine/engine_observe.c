/*
 * engine_observe.c: what the engine shows of itself.
 *
 * DESIGN. Stage spans in a bounded ring (the timeline), per-stage duration
 * histograms, and the status JSON, timeline JSON and Prometheus text built
 * from them. Locking: each page is built under the engine mutex in one
 * pass, so it is a consistent snapshot; a device lock is only tried
 * (trylock) for fresh free memory, never waited for. See engine.c for the
 * rule.
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
/* spans and metrics (engine mutex held)                                */
/* ------------------------------------------------------------------ */

/* Stage names, as spans and metrics show them. */
static const char *const stage_names[ST_COUNT] = {"queue_wait", "witness", "gpu_queue",
                                                  "gpu",        "verify",  "total"};

/* The prove stages where no GPU proves (the CPU backend). Metrics keep
   the names above, so that dashboards see one series whatever proves. */
static const char *const host_stage_names[ST_COUNT] = {"queue_wait", "witness", "prove_queue",
                                                       "prove",      "verify",  "total"};

const char *ce_stage_name(const cz_engine *e, int stage)
{
    return (e->host_prove ? host_stage_names : stage_names)[stage];
}

/* Prometheus histogram buckets (seconds). */
static const double bucket_le[N_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                            1,     2.5,  5,     10,   30,  60,  300};

void ce_span_add(cz_engine *e, job *j, int stage, int worker)
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

void ce_hist_add(histogram *h, double seconds)
{
    int b = 0;
    while (b < N_BUCKETS && seconds > bucket_le[b])
        b++;
    h->count[b]++;
    h->sum += seconds;
    h->n++;
}

void ce_stage_end(cz_engine *e, job *j, int stage, int worker)
{
    j->t[stage][1] = ce_now_ms() - e->t0;
    ce_span_add(e, j, stage, worker);
    ce_hist_add(&e->hist[stage], (j->t[stage][1] - j->t[stage][0]) / 1e3);
}
/* ------------------------------------------------------------------ */
/* observation                                                          */
/* ------------------------------------------------------------------ */

json_t *cz_engine_status_json(cz_engine *e)
{
    pthread_mutex_lock(&e->mu);
    double t = ce_now_ms() - e->t0;
    json_t *jobs = json_array();
    for (job *j = e->jobs_head; j; j = j->next) {
        if (ce_state_finished(j->state))
            continue;
        json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:f}", "job_id", j->id, "state",
                              cz_job_state_name(ce_shown_state(j)), "priority", cz_priority_name(j->prio),
                              "partitions", ce_partitions_json(e, j, 0), "age_ms", t - j->t[ST_TOTAL][0]);
        json_object_set_new(o, "key", json_string(j->key ? j->key->id : ""));
        json_object_set_new(o, "type", json_string(j->porep ? "porep" : "groth16"));
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
        json_array_append_new(keys, ce_key_json_locked(e, k));
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
    /* the witness queue: synthesised witnesses waiting for a prove
       worker, those being made, the cap on both (0: none), the most seen
       waiting, and how often a witness worker found the cap reached */
    json_object_set_new(o, "witness_queue",
                        json_pack("{s:I, s:I, s:I, s:I, s:I}", "waiting", (json_int_t)e->prove.n,
                                  "in_progress", (json_int_t)e->witness_busy, "cap",
                                  (json_int_t)e->witness_cap, "waiting_max",
                                  (json_int_t)e->witness_waiting_max, "cap_waits",
                                  (json_int_t)e->witness_cap_waits));
    json_object_set_new(o, "host_pool",
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "buffers",
                                  (json_int_t)ps.buffers, "bytes", (json_int_t)ps.bytes,
                                  "pinned_bytes", (json_int_t)ps.pinned_bytes, "in_use",
                                  (json_int_t)ps.in_use, "in_use_bytes",
                                  (json_int_t)ps.in_use_bytes, "idle", (json_int_t)ps.idle,
                                  "max_idle", (json_int_t)ps.max_idle, "allocations",
                                  (json_int_t)ps.allocations, "wipe_handovers",
                                  (json_int_t)ps.handovers));
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
                                           "stage", ce_stage_name(e, s->stage), "worker", s->worker,
                                           "start_ms", s->t0, "end_ms", s->t1));
    }
    ce_key_spans_json_locked(e, a, ce_now_ms() - e->t0);
    json_t *o = json_pack("{s:f, s:i, s:i, s:o}", "now_ms", ce_now_ms() - e->t0, "workers",
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
    double t = ce_now_ms() - e->t0;
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
    sb_printf(&b, "# HELP cuzk_witness_waiting Synthesised witnesses waiting for a prove worker.\n"
                  "# TYPE cuzk_witness_waiting gauge\ncuzk_witness_waiting %zu\n"
                  "# HELP cuzk_witness_in_progress Witnesses being read or synthesised.\n"
                  "# TYPE cuzk_witness_in_progress gauge\ncuzk_witness_in_progress %zu\n"
                  "# HELP cuzk_witness_waiting_max Most synthesised witnesses seen waiting at once.\n"
                  "# TYPE cuzk_witness_waiting_max gauge\ncuzk_witness_waiting_max %zu\n"
                  "# HELP cuzk_witness_queue_cap Witnesses made or waiting at most (0: no cap).\n"
                  "# TYPE cuzk_witness_queue_cap gauge\ncuzk_witness_queue_cap %zu\n"
                  "# HELP cuzk_witness_cap_waits_total Times a witness worker waited for the cap.\n"
                  "# TYPE cuzk_witness_cap_waits_total counter\ncuzk_witness_cap_waits_total %llu\n",
              e->prove.n, e->witness_busy, e->witness_waiting_max, e->witness_cap,
              (unsigned long long)e->witness_cap_waits);
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
                  "cuzk_host_pool_allocations_total %llu\n"
                  "# HELP cuzk_host_pool_wipe_handovers_total Wipes stopped to lend the buffer to a "
                  "synthesis at once.\n"
                  "# TYPE cuzk_host_pool_wipe_handovers_total counter\n"
                  "cuzk_host_pool_wipe_handovers_total %llu\n",
              (unsigned long long)ps.buffers, (unsigned long long)ps.in_use,
              (unsigned long long)ps.bytes, (unsigned long long)ps.pinned_bytes,
              (unsigned long long)ps.allocations, (unsigned long long)ps.handovers);
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
