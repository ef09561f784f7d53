/*
 * farm.c: one cuzkd host of a proving farm (see farm.h).
 *
 * DESIGN. The runner thread owns its queue connection and the slots; it
 * loops: heartbeat and housekeeping once a second; for each slot, the
 * local job's state (cz_engine_await with no wait), then the write of a
 * finished result or failure under the lease's epoch, or the renewal of a
 * running one every lease/3; then claims while slots are free and there
 * may be work (a NOTIFY on cz_work, a slot just freed, or every poll_ms);
 * then it waits for a notification (2 ms while partitions run, so results
 * are written promptly; poll_ms when idle). Writes that fail because the
 * database is away stay in their slot and are tried again each loop. The
 * API side borrows pooled connections; each connection is used by one
 * thread at a time.
 */
#include "farm/farm.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

#define POOL_MAX 16
#define LAT_RING 4096
#define KEYS_MAX 64

typedef struct {
    int used;
    cz_farm_lease l;
    char local[24];     /* the local engine's job id */
    double t_claim;     /* monotonic ms at the claim */
    double t_renewed;   /* monotonic ms of the claim or the last renewal that succeeded */
    int expired;        /* by our clock the lease ran out: no renewal, the write will tell */
    char *result;       /* a result to write (kept while the database is away) */
    char *fail_reason;  /* or a failure to report */
    int fail_det;       /* 1 deterministic, 0 retry, -1 give the lease back */
    double lat_ms;      /* claim to local start */
} slot;

/* A key this host could load: from a file of a key folder, or made from a
   preset. */
typedef struct {
    char id[128];
    char path[PATH_MAX]; /* "" for a preset */
    char preset[32];
    uint64_t seed;
    int seeded;
} loadable;

/* A key that failed to load: not tried again before `until`. */
typedef struct {
    char id[128];
    double until;
    char why[256];
} unloadable;

struct cz_farm {
    cz_farm_host_config cfg;
    char *url, *host_id, *password;
    cz_engine *e;
    pthread_t runner;
    int started;
    atomic_int stop;
    pthread_mutex_t mu; /* the pool, the counters, the snapshot, done_gen */
    pthread_cond_t cv_pool, cv_done;
    cz_farm_queue *pool[POOL_MAX];
    int n_pool;         /* idle connections */
    int n_open;         /* connections open (idle, lent, the runner's): at most POOL_MAX */
    uint64_t done_gen;  /* bumped at every cz_done notification the runner receives */
    char ids[KEYS_MAX][128]; /* the runner's: keys the engine holds */
    int slots;
    slot *slot;         /* the runner's */
    json_t *devices;    /* names, for the heartbeat */
    uint64_t claimed, completed, failed, retried, refused, lost, released, db_errors;
    double lat[LAT_RING];
    uint64_t n_lat;
    json_t *running;    /* snapshot of the slots, for the status */
    int db_ok;
    /* claiming only what fits (under mu: the status reads them) */
    char holdback[384]; /* why the last claim round held back; "" when it did not */
    uint64_t held_back, keys_loaded, key_failures;
    int max_running;    /* most leases held at once */
    json_t *admission;  /* per key held: need, room, fits, as of the last claim round */
    json_t *load_view;  /* loadable ids, the key loading, the keys refused */
    /* keys it can load (the runner's) */
    loadable *ld;
    size_t n_ld;
    unloadable bad[KEYS_MAX];
    int n_bad;
    struct {
        pthread_t th;
        int busy;
        atomic_int done;
        loadable what;
        cz_status st;
        char err[512];
        double t0;
    } load;
};

static double mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void cz_farm_host_config_default(cz_farm_host_config *c)
{
    memset(c, 0, sizeof *c);
    cz_farm_config_default(&c->queue);
    c->poll_ms = 250;
    c->key_retry_ms = 60000;
}

/* ------------------------------------------------------------------ */
/* the connection pool                                                  */
/* ------------------------------------------------------------------ */

/* A connection: an idle one, or a new one while fewer than POOL_MAX are
   open, or else the next one given back (at most 10 s: then NULL), so a
   host never holds more than POOL_MAX connections to the database however
   many clients it serves. */
static cz_farm_queue *pool_get(cz_farm *f, char *err, size_t err_len)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 10;
    pthread_mutex_lock(&f->mu);
    while (!f->n_pool && f->n_open >= POOL_MAX)
        if (pthread_cond_timedwait(&f->cv_pool, &f->mu, &dl)) {
            pthread_mutex_unlock(&f->mu);
            snprintf(err, err_len, "all %d database connections of this host are busy", POOL_MAX);
            return NULL;
        }
    cz_farm_queue *q = f->n_pool ? f->pool[--f->n_pool] : NULL;
    if (!q)
        f->n_open++; /* ours to open */
    pthread_mutex_unlock(&f->mu);
    if (q)
        return q;
    cz_farm_config c = f->cfg.queue;
    c.url = f->url;
    c.host_id = f->host_id;
    if (cz_farm_queue_open(&q, &c, err, err_len)) {
        pthread_mutex_lock(&f->mu);
        f->n_open--;
        pthread_cond_signal(&f->cv_pool);
        pthread_mutex_unlock(&f->mu);
        return NULL;
    }
    return q;
}

/* Close a connection that pool_get gave. */
static void pool_close(cz_farm *f, cz_farm_queue *q)
{
    if (!q)
        return;
    cz_farm_queue_close(q);
    pthread_mutex_lock(&f->mu);
    f->n_open--;
    pthread_cond_signal(&f->cv_pool);
    pthread_mutex_unlock(&f->mu);
}

/* Give a connection back (a broken one is closed). */
static void pool_put(cz_farm *f, cz_farm_queue *q)
{
    if (!q)
        return;
    /* notifications for waits that returned pile up in libpq: drop them */
    if (cz_farm_queue_wait(q, 0) < 0) {
        pool_close(f, q);
        return;
    }
    cz_farm_queue_notified(q);
    pthread_mutex_lock(&f->mu);
    f->pool[f->n_pool++] = q; /* n_pool < n_open <= POOL_MAX */
    pthread_cond_signal(&f->cv_pool);
    pthread_mutex_unlock(&f->mu);
}

/* ------------------------------------------------------------------ */
/* the runner                                                           */
/* ------------------------------------------------------------------ */

static void count(cz_farm *f, uint64_t *c)
{
    pthread_mutex_lock(&f->mu);
    (*c)++;
    pthread_mutex_unlock(&f->mu);
}

/* A database error: logged when the database goes away and when it is
   back, not at every loop. */
static void db_error(cz_farm *f, const char *what, const char *err)
{
    pthread_mutex_lock(&f->mu);
    f->db_errors++;
    int was_ok = f->db_ok;
    f->db_ok = 0;
    pthread_mutex_unlock(&f->mu);
    if (was_ok)
        cz_log(CZ_LOG_WARN, "farm", "%s: %s (retrying)", what, err);
}

static void db_fine(cz_farm *f)
{
    pthread_mutex_lock(&f->mu);
    int was_ok = f->db_ok;
    f->db_ok = 1;
    pthread_mutex_unlock(&f->mu);
    if (!was_ok)
        cz_log(CZ_LOG_INFO, "farm", "database reachable");
}

/* The ids of the keys the engine holds (at most KEYS_MAX). */
static size_t key_ids(cz_farm *f, char ids[KEYS_MAX][128], json_t **arr_out)
{
    json_t *keys = cz_engine_keys_json(f->e), *arr = json_array();
    size_t n = 0, i;
    json_t *k;
    json_array_foreach(keys, i, k)
    {
        const char *id = json_string_value(json_object_get(k, "id"));
        if (id && n < KEYS_MAX) {
            snprintf(ids[n++], 128, "%s", id);
            json_array_append_new(arr, json_string(id));
        }
    }
    json_decref(keys);
    *arr_out = arr;
    return n;
}

static void slot_free(slot *s)
{
    cz_farm_lease_clear(&s->l);
    free(s->result);
    free(s->fail_reason);
    memset(s, 0, sizeof *s);
}

static int n_used(cz_farm *f)
{
    int n = 0;
    for (int i = 0; i < f->slots; i++)
        n += f->slot[i].used;
    return n;
}

static void set_failure(slot *s, const char *why, int deterministic)
{
    free(s->fail_reason);
    s->fail_reason = strdup(why && *why ? why : "failed");
    s->fail_det = deterministic;
}

/* Give a claimed partition to the local engine. */
static void slot_start(cz_farm *f, slot *s, double t_claim)
{
    cz_job_request jr;
    memset(&jr, 0, sizeof jr);
    jr.key_id = s->l.key_id;
    jr.priority = (cz_priority)s->l.priority;
    jr.origin = (cz_origin)s->l.origin;
    if (s->l.input) {
        jr.witness = s->l.input;
        jr.witness_len = s->l.input_len;
    } else {
        jr.witness_path = s->l.input_path;
    }
    cz_submit_outcome oc = CZ_SUBMIT_REFUSED;
    jr.outcome = &oc;
    char err[512] = "";
    size_t pos = 0;
    cz_status st = cz_engine_submit(f->e, &jr, s->local, &pos, err, sizeof err);
    double t = mono_ms();
    cz_farm_lease_drop_input(&s->l); /* the engine copied the bytes */
    s->t_claim = t_claim;
    s->t_renewed = t_claim;
    if (st == CZ_OK) {
        s->lat_ms = t - t_claim;
        pthread_mutex_lock(&f->mu);
        f->lat[f->n_lat++ % LAT_RING] = s->lat_ms;
        pthread_mutex_unlock(&f->mu);
        cz_log(CZ_LOG_DEBUG, "farm", "j%" PRId64 " partition %d: claimed (epoch %" PRId64 ", attempt %d), local job %s",
               s->l.job, s->l.index, s->l.epoch, s->l.attempt, s->local);
        return;
    }
    s->local[0] = 0;
    if (st == CZ_ERR_BUSY && (oc == CZ_SUBMIT_FULL || oc == CZ_SUBMIT_DRAINING)) {
        /* no room after all, or shutting down: give it back */
        s->fail_det = -1;
        return;
    }
    /* refused at submission: the same input is refused everywhere (a bad
       witness, a path refused or missing), except a lack of memory */
    set_failure(s, err, st != CZ_ERR_NOMEM && st != CZ_ERR_INTERNAL && st != CZ_ERR_BUSY);
}

/* The local job ended: what to write. */
static void slot_collect(cz_farm *f, slot *s, json_t *j)
{
    const char *status = json_string_value(json_object_get(j, "status"));
    if (!strcmp(status, "done")) {
        json_t *r = json_object();
        json_object_set(r, "proof", json_object_get(j, "proof"));
        json_object_set(r, "public", json_object_get(j, "public"));
        json_t *t = json_deep_copy(json_object_get(j, "timings_ms"));
        if (!t)
            t = json_object();
        json_object_set_new(t, "claim_to_start", json_real(s->lat_ms));
        json_object_set_new(r, "timings_ms", t);
        if (json_object_get(j, "device"))
            json_object_set(r, "device", json_object_get(j, "device"));
        json_object_set_new(r, "host", json_string(f->host_id));
        json_object_set_new(r, "epoch", json_integer(s->l.epoch));
        s->result = json_dumps(r, JSON_COMPACT);
        json_decref(r);
        if (!s->result)
            set_failure(s, "out of memory", 0);
        return;
    }
    const char *e = json_string_value(json_object_get(j, "error"));
    if (!e)
        e = status;
    if (strstr(e, "shutting down")) {
        s->fail_det = -1; /* release: another host runs it */
        return;
    }
    /* A failure before the proof ran (reading, parsing, checking the
       witness) repeats with the same input; one in or after the proof (a
       device fault) or a lack of memory may not. */
    double gpu = json_number_value(json_object_get(json_object_get(j, "timings_ms"), "gpu"));
    int det = gpu <= 0 && !strstr(e, "out of memory");
    set_failure(s, e, det);
}

/* Write what the slot holds; returns 1 when the slot is done with. */
static int slot_write(cz_farm *f, cz_farm_queue *q, slot *s)
{
    char err[512] = "";
    cz_status st;
    const char *what;
    if (s->result) {
        what = "result";
        st = cz_farm_queue_complete(q, &s->l, s->result, err, sizeof err);
    } else if (s->fail_det < 0) {
        what = "release";
        st = cz_farm_queue_release(q, &s->l, err, sizeof err);
    } else {
        what = "failure";
        st = cz_farm_queue_fail(q, &s->l, s->fail_reason, s->fail_det, err, sizeof err);
    }
    if (st == CZ_ERR_IO || st == CZ_ERR_INTERNAL) {
        db_error(f, what, err);
        return 0;
    }
    db_fine(f);
    if (st == CZ_OK) {
        if (s->result)
            count(f, &f->completed);
        else if (s->fail_det < 0)
            count(f, &f->released);
        else if (s->fail_det)
            count(f, &f->failed);
        else
            count(f, &f->retried);
        if (!s->result && s->fail_det >= 0)
            cz_log(CZ_LOG_WARN, "farm", "j%" PRId64 " partition %d (attempt %d): %s%s", s->l.job, s->l.index,
                   s->l.attempt, s->fail_reason, s->fail_det ? "" : " (will be retried)");
    } else if (st == CZ_ERR_BUSY) {
        count(f, &f->refused);
        cz_log(CZ_LOG_WARN, "farm", "late %s refused: %s", what, err);
    } else {
        /* CZ_ERR_CANCELLED: the job ended meanwhile */
        cz_log(CZ_LOG_INFO, "farm", "%s not written: %s", what, err);
    }
    return 1;
}

static void slot_step(cz_farm *f, cz_farm_queue *q, slot *s, double now)
{
    if (!s->result && !s->fail_reason && s->fail_det >= 0 && s->local[0]) {
        json_t *j = cz_engine_await(f->e, s->local, 0);
        const char *status = j ? json_string_value(json_object_get(j, "status")) : NULL;
        if (!j) {
            set_failure(s, "the local job was lost", 0);
        } else if (!strcmp(status, "done") || !strcmp(status, "failed")) {
            slot_collect(f, s, j);
        } else if (!strcmp(status, "cancelled")) {
            json_decref(j);
            slot_free(s);
            return;
        }
        json_decref(j);
    }
    if (s->result || s->fail_reason || s->fail_det < 0) {
        if (slot_write(f, q, s))
            slot_free(s);
        return;
    }
    /* running: renew every lease/3, unless our lease has certainly run
       out already (we were frozen or cut off): then another host may hold
       it, and the epoch decides at the write */
    int lease = f->cfg.queue.lease_ms;
    if (s->expired || now - s->t_renewed < lease / 3.0)
        return;
    if (now - s->t_renewed > lease) {
        s->expired = 1;
        cz_log(CZ_LOG_WARN, "farm",
               "j%" PRId64 " partition %d: no renewal for %.0f ms (longer than the %d ms lease): the write will "
               "tell whether it is still ours",
               s->l.job, s->l.index, now - s->t_renewed, lease);
        return;
    }
    char err[512] = "";
    cz_status st = cz_farm_queue_renew(q, &s->l, err, sizeof err);
    if (st == CZ_OK) {
        s->t_renewed = now;
        db_fine(f);
    } else if (st == CZ_ERR_BUSY || st == CZ_ERR_CANCELLED) {
        db_fine(f);
        if (st == CZ_ERR_BUSY)
            count(f, &f->lost);
        cz_log(st == CZ_ERR_BUSY ? CZ_LOG_WARN : CZ_LOG_INFO, "farm", "%s: stopping local job %s", err, s->local);
        cz_engine_cancel(f->e, s->local);
        slot_free(s);
    } else {
        db_error(f, "renew", err);
    }
}

/* ------------------------------------------------------------------ */
/* keys it can load                                                     */
/* ------------------------------------------------------------------ */

static int is_held(char ids[KEYS_MAX][128], size_t n_ids, const char *id)
{
    for (size_t i = 0; i < n_ids; i++)
        if (!strcmp(ids[i], id))
            return 1;
    return 0;
}

static int ld_has(const cz_farm *f, const char *id)
{
    for (size_t i = 0; i < f->n_ld; i++)
        if (!strcmp(f->ld[i].id, id))
            return 1;
    return 0;
}

/* An id a file name gives: no control bytes, no leading dot, 1..127 bytes. */
static int id_ok(const char *id, size_t n)
{
    if (!n || n > 127 || id[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)id[i] < 0x20 || id[i] == 0x7f)
            return 0;
    return 1;
}

/* The keys it could load, found again (every heartbeat): ID.zkey and
   ID.czk in the key folders (the first folder naming an id wins), then
   the presets. At most KEYS_MAX. */
static void scan_loadable(cz_farm *f)
{
    f->n_ld = 0;
    if (!f->ld)
        return;
    if (f->cfg.key_dirs && *f->cfg.key_dirs) {
        char *dirs = strdup(f->cfg.key_dirs), *save = NULL;
        for (char *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
            DIR *dh = opendir(d);
            if (!dh)
                continue;
            struct dirent *de;
            while ((de = readdir(dh)) && f->n_ld < KEYS_MAX) {
                size_t len = strlen(de->d_name), n;
                if (len > 5 && !strcmp(de->d_name + len - 5, ".zkey"))
                    n = len - 5;
                else if (len > 4 && !strcmp(de->d_name + len - 4, ".czk"))
                    n = len - 4;
                else
                    continue;
                if (!id_ok(de->d_name, n))
                    continue;
                loadable *l = &f->ld[f->n_ld];
                memset(l, 0, sizeof *l);
                memcpy(l->id, de->d_name, n);
                if (ld_has(f, l->id))
                    continue;
                if ((size_t)snprintf(l->path, sizeof l->path, "%s/%s", d, de->d_name) >= sizeof l->path)
                    continue;
                f->n_ld++;
            }
            closedir(dh);
        }
        free(dirs);
    }
    /* presets: PRESET or PRESET:SEED, space- or comma-separated (the
       daemon checked the names and seeds at start) */
    const char *p = f->cfg.presets ? f->cfg.presets : "";
    while (*p && f->n_ld < KEYS_MAX) {
        p += strspn(p, " ,\t");
        size_t n = strcspn(p, " ,\t");
        if (!n)
            break;
        loadable *l = &f->ld[f->n_ld];
        memset(l, 0, sizeof *l);
        const char *colon = memchr(p, ':', n);
        size_t nn = colon ? (size_t)(colon - p) : n;
        if (nn && nn < sizeof l->preset) {
            memcpy(l->preset, p, nn);
            memcpy(l->id, p, nn);
            if (colon) {
                l->seed = strtoull(colon + 1, NULL, 10);
                l->seeded = 1;
            }
            if (!ld_has(f, l->id))
                f->n_ld++;
        }
        p += n;
    }
}

static unloadable *bad_find(cz_farm *f, const char *id, double now)
{
    for (int i = 0; i < f->n_bad; i++)
        if (!strcmp(f->bad[i].id, id))
            return f->bad[i].until > now ? &f->bad[i] : NULL;
    return NULL;
}

static void bad_add(cz_farm *f, const char *id, double until, const char *why)
{
    int i = 0;
    while (i < f->n_bad && strcmp(f->bad[i].id, id))
        i++;
    if (i == f->n_bad) {
        if (f->n_bad == KEYS_MAX) { /* the entry that ends first gives way */
            i = 0;
            for (int k = 1; k < f->n_bad; k++)
                if (f->bad[k].until < f->bad[i].until)
                    i = k;
        } else {
            f->n_bad++;
        }
    }
    snprintf(f->bad[i].id, sizeof f->bad[i].id, "%s", id);
    snprintf(f->bad[i].why, sizeof f->bad[i].why, "%s", why);
    f->bad[i].until = until;
}

/* The ids it offers to load now: loadable, not held, not refused lately. */
static json_t *loadable_ids(cz_farm *f, char ids[KEYS_MAX][128], size_t n_ids, double now)
{
    json_t *a = json_array();
    for (size_t i = 0; i < f->n_ld; i++)
        if (!is_held(ids, n_ids, f->ld[i].id) && !bad_find(f, f->ld[i].id, now))
            json_array_append_new(a, json_string(f->ld[i].id));
    return a;
}

static void *loader_main(void *arg)
{
    cz_farm *f = arg;
    loadable *w = &f->load.what;
    if (w->preset[0])
        f->load.st = cz_engine_key_make(f->e, w->id, w->preset, w->seed, w->seeded, f->load.err,
                                        sizeof f->load.err);
    else
        f->load.st = cz_engine_key_load_from(f->e, w->id, w->path, CZ_FROM_LOCAL, f->load.err,
                                             sizeof f->load.err);
    atomic_store(&f->load.done, 1);
    return NULL;
}

/* A load that ended: 1 when the key is in (claim again at once). */
static int loader_poll(cz_farm *f, double now)
{
    if (!f->load.busy || !atomic_load(&f->load.done))
        return 0;
    pthread_join(f->load.th, NULL);
    f->load.busy = 0;
    loadable *w = &f->load.what;
    if (f->load.st == CZ_OK) {
        count(f, &f->keys_loaded);
        cz_log(CZ_LOG_INFO, "farm", "key %s %s %s for the farm's partitions (%.0f ms)", w->id,
               w->preset[0] ? "made from preset" : "loaded from", w->preset[0] ? w->preset : w->path,
               now - f->load.t0);
        return 1;
    }
    /* out of memory now may pass soon; anything else (a bad file) not */
    int retry = f->load.st == CZ_ERR_NOMEM || f->load.st == CZ_ERR_BUSY ? 5000 : f->cfg.key_retry_ms;
    count(f, &f->key_failures);
    bad_add(f, w->id, now + retry, f->load.err[0] ? f->load.err : cz_strerror(f->load.st));
    cz_log(CZ_LOG_WARN, "farm", "key %s: cannot load it (%s): its partitions are left to other hosts for %d s",
           w->id, f->load.err[0] ? f->load.err : cz_strerror(f->load.st), retry / 1000);
    return 0;
}

/* When a partition of a key it can load (and does not hold) is claimable
   and no load runs: start loading that key. */
static void maybe_load(cz_farm *f, cz_farm_queue *q, char ids[KEYS_MAX][128], size_t n_ids, double now)
{
    if (f->load.busy || !f->n_ld)
        return;
    const char *cand[KEYS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < f->n_ld; i++)
        if (!is_held(ids, n_ids, f->ld[i].id) && !bad_find(f, f->ld[i].id, now))
            cand[n++] = f->ld[i].id;
    if (!n)
        return;
    char want[128], err[512] = "";
    if (cz_farm_queue_wanted(q, cand, n, want, sizeof want, err, sizeof err)) {
        db_error(f, "wanted keys", err);
        return;
    }
    if (!want[0])
        return;
    for (size_t i = 0; i < f->n_ld; i++)
        if (!strcmp(f->ld[i].id, want)) {
            f->load.what = f->ld[i];
            break;
        }
    f->load.st = CZ_OK;
    f->load.err[0] = 0;
    f->load.t0 = now;
    atomic_store(&f->load.done, 0);
    if (pthread_create(&f->load.th, NULL, loader_main, f)) {
        bad_add(f, want, now + 5000, "cannot start a loading thread");
        return;
    }
    f->load.busy = 1;
    cz_log(CZ_LOG_INFO, "farm", "key %s: a partition is waiting for it; loading it", want);
}

/* What the status shows of the keys it can load. */
static void load_view(cz_farm *f, char ids[KEYS_MAX][128], size_t n_ids, double now)
{
    json_t *bad = json_object();
    for (int i = 0; i < f->n_bad; i++)
        if (f->bad[i].until > now)
            json_object_set_new(bad, f->bad[i].id, json_pack("{s:s, s:f}", "error", f->bad[i].why, "retry_in_s",
                                                             (f->bad[i].until - now) / 1e3));
    json_t *v = json_pack("{s:o, s:o, s:o}", "loadable", loadable_ids(f, ids, n_ids, now), "loading",
                          f->load.busy ? json_string(f->load.what.id) : json_null(), "refused", bad);
    pthread_mutex_lock(&f->mu);
    json_decref(f->load_view);
    f->load_view = v;
    pthread_mutex_unlock(&f->mu);
}

/* ------------------------------------------------------------------ */
/* claiming only what fits                                              */
/* ------------------------------------------------------------------ */

/* The held keys whose partition the engine would admit now, into kp;
   *why the first refusal. Records the answers for the status. */
static size_t admissible(cz_farm *f, char ids[KEYS_MAX][128], size_t n_ids, const char *kp[KEYS_MAX], char *why,
                         size_t why_len)
{
    size_t n = 0;
    json_t *adm = json_object();
    why[0] = 0;
    for (size_t k = 0; k < n_ids; k++) {
        uint64_t need = 0, room = 0;
        char e2[384] = "";
        cz_status st = cz_engine_can_admit(f->e, ids[k], &need, &room, e2, sizeof e2);
        if (st == CZ_OK)
            kp[n++] = ids[k];
        else if (!why[0])
            snprintf(why, why_len, "%s", e2);
        if (st == CZ_OK || st == CZ_ERR_NOMEM)
            json_object_set_new(adm, ids[k], json_pack("{s:I, s:I, s:b}", "need", (json_int_t)need, "room",
                                                       (json_int_t)room, "fits", st == CZ_OK));
    }
    pthread_mutex_lock(&f->mu);
    json_decref(f->admission);
    f->admission = adm;
    pthread_mutex_unlock(&f->mu);
    return n;
}

/* Record why it holds back ("" when it claims again); logged as it
   starts holding back, not at every poll while it does. */
static void set_holdback(cz_farm *f, const char *why)
{
    pthread_mutex_lock(&f->mu);
    int was = f->holdback[0] != 0;
    snprintf(f->holdback, sizeof f->holdback, "%s", why);
    if (why[0] && !was)
        f->held_back++;
    pthread_mutex_unlock(&f->mu);
    if (why[0] && !was)
        cz_log(CZ_LOG_INFO, "farm", "holding back: %s", why);
    else if (!why[0] && was)
        cz_log(CZ_LOG_DEBUG, "farm", "claiming again: memory is free");
}

static void heartbeat(cz_farm *f, cz_farm_queue *q, char ids[KEYS_MAX][128], size_t *n_ids)
{
    json_t *keys;
    *n_ids = key_ids(f, ids, &keys);
    double now = mono_ms();
    scan_loadable(f);
    load_view(f, ids, *n_ids, now);
    json_t *info = json_pack("{s:o, s:o, s:i, s:i, s:O, s:i}", "keys", keys, "loadable",
                             loadable_ids(f, ids, *n_ids, now), "slots", f->slots, "running", n_used(f),
                             "devices", f->devices, "pid", (int)getpid());
    char err[512] = "";
    cz_status st = cz_farm_queue_heartbeat(q, info, err, sizeof err);
    json_decref(info);
    if (st) {
        db_error(f, "heartbeat", err);
        return;
    }
    int failed = 0, deleted = 0;
    if ((st = cz_farm_queue_reap(q, &failed, &deleted, err, sizeof err))) {
        db_error(f, "housekeeping", err);
        return;
    }
    db_fine(f);
    if (failed)
        cz_log(CZ_LOG_WARN, "farm", "%d partition(s) failed their jobs: their leases expired too often", failed);
}

static void snapshot(cz_farm *f, double now)
{
    json_t *run = json_array();
    for (int i = 0; i < f->slots; i++) {
        slot *s = &f->slot[i];
        if (!s->used)
            continue;
        char job[32];
        snprintf(job, sizeof job, "j%" PRId64, s->l.job);
        json_array_append_new(run, json_pack("{s:s, s:i, s:I, s:i, s:s, s:f, s:b}", "job", job, "partition",
                                             s->l.index, "epoch", (json_int_t)s->l.epoch, "attempt", s->l.attempt,
                                             "local_job", s->local, "age_ms", now - s->t_claim, "lease_expired",
                                             s->expired));
    }
    pthread_mutex_lock(&f->mu);
    json_decref(f->running);
    f->running = run;
    pthread_mutex_unlock(&f->mu);
}

static void *runner_main(void *arg)
{
    cz_farm *f = arg;
    char err[512];
    cz_farm_queue *q = NULL;
    while (!q && !atomic_load(&f->stop)) {
        if (!(q = pool_get(f, err, sizeof err))) {
            db_error(f, "connect", err);
            sleep_ms(500);
        }
    }
    /* channel 0: work to claim; 1: a job finished (wakes this host's awaits) */
    if (q && (cz_farm_queue_listen(q, "cz_work", err, sizeof err) || cz_farm_queue_listen(q, "cz_done", err, sizeof err)))
        db_error(f, "listen", err);
    char(*ids)[128] = f->ids;
    size_t n_ids = 0;
    double last_hb = -1e9, last_claim = -1e9;
    int want_claim = 1;
    while (q && !atomic_load(&f->stop)) {
        double now = mono_ms();
        if (now - last_hb >= 1000) {
            heartbeat(f, q, ids, &n_ids);
            last_hb = now;
        }
        int freed = 0;
        for (int i = 0; i < f->slots; i++)
            if (f->slot[i].used) {
                slot_step(f, q, &f->slot[i], now);
                freed |= !f->slot[i].used;
            }
        if (freed || now - last_claim >= f->cfg.poll_ms)
            want_claim = 1;
        if (loader_poll(f, now)) { /* a key just loaded: hold it, and say so */
            json_t *ka;
            n_ids = key_ids(f, ids, &ka);
            json_decref(ka);
            last_hb = -1e9;
            want_claim = 1;
        }
        if (want_claim && n_used(f) < f->slots && !atomic_load(&f->stop))
            maybe_load(f, q, ids, n_ids, now);
        while (want_claim && n_ids && !atomic_load(&f->stop)) {
            int free_i = -1;
            for (int i = 0; i < f->slots && free_i < 0; i++)
                if (!f->slot[i].used)
                    free_i = i;
            if (free_i < 0)
                break; /* full: claim again when a slot frees */
            slot *s = &f->slot[free_i];
            /* only keys whose partition the engine would admit now; then
               partitions that ended meanwhile are written first, so a
               lease is never held beside one whose job has given its
               memory back already */
            const char *kp[KEYS_MAX];
            char why[384];
            size_t n_ok = admissible(f, ids, n_ids, kp, why, sizeof why);
            for (int i = 0; i < f->slots; i++)
                if (f->slot[i].used)
                    slot_step(f, q, &f->slot[i], now);
            if (!n_ok) {
                /* say so only when a partition of a key it holds waits */
                const char *all[KEYS_MAX];
                char want[128] = "";
                for (size_t k = 0; k < n_ids; k++)
                    all[k] = ids[k];
                if (!cz_farm_queue_wanted(q, all, n_ids, want, sizeof want, err, sizeof err))
                    set_holdback(f, want[0] ? why : "");
                want_claim = 0;
                break;
            }
            set_holdback(f, "");
            double t0 = mono_ms();
            int got = 0;
            cz_status st = cz_farm_queue_claim(q, kp, n_ok, &s->l, &got, err, sizeof err);
            last_claim = now;
            if (st) {
                db_error(f, "claim", err);
                want_claim = 0;
                break;
            }
            db_fine(f);
            if (!got) {
                want_claim = 0;
                break;
            }
            s->used = 1;
            count(f, &f->claimed);
            int nu = n_used(f);
            pthread_mutex_lock(&f->mu);
            if (nu > f->max_running)
                f->max_running = nu;
            pthread_mutex_unlock(&f->mu);
            slot_start(f, s, t0);
            if (s->fail_reason || s->fail_det < 0) {
                int release = s->fail_det < 0;
                if (slot_write(f, q, s))
                    slot_free(s);
                if (release) { /* the engine is full or stopping: not now */
                    want_claim = 0;
                    break;
                }
            }
        }
        snapshot(f, now);
        int w = cz_farm_queue_wait(q, n_used(f) ? 2 : f->cfg.poll_ms);
        unsigned ch = cz_farm_queue_notified(q);
        if (ch & 1)
            want_claim = 1;
        if (ch & 2) {
            pthread_mutex_lock(&f->mu);
            f->done_gen++;
            pthread_cond_broadcast(&f->cv_done);
            pthread_mutex_unlock(&f->mu);
        }
        if (w < 0)
            sleep_ms(100); /* the database is away: the next call reconnects */
    }
    if (f->load.busy) { /* a key loading: let it end */
        pthread_join(f->load.th, NULL);
        f->load.busy = 0;
    }
    /* stopping: our unfinished partitions go back to the queue at once */
    for (int i = 0; q && i < f->slots; i++) {
        slot *s = &f->slot[i];
        if (!s->used)
            continue;
        if (s->local[0] && !s->result)
            cz_engine_cancel(f->e, s->local);
        if (!s->result && !s->fail_reason)
            s->fail_det = -1;
        slot_write(f, q, s);
        slot_free(s);
    }
    snapshot(f, mono_ms());
    pool_close(f, q);
    pthread_mutex_lock(&f->mu);
    pthread_cond_broadcast(&f->cv_done); /* awaits answer now */
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* life                                                                 */
/* ------------------------------------------------------------------ */

cz_status cz_farm_start(cz_farm **out, const cz_farm_host_config *cfg, cz_engine *e, char *err, size_t err_len)
{
    *out = NULL;
    cz_farm *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    f->cfg = *cfg;
    if (f->cfg.poll_ms < 1)
        f->cfg.poll_ms = 250;
    f->e = e;
    f->url = strdup(cfg->queue.url ? cfg->queue.url : "");
    f->host_id = strdup(cfg->queue.host_id ? cfg->queue.host_id : "");
    f->password = cfg->queue.password ? strdup(cfg->queue.password) : NULL;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv_pool, NULL);
    pthread_cond_init(&f->cv_done, NULL);
    atomic_init(&f->stop, 0);
    f->db_ok = 1;
    json_t *status = cz_engine_status_json(e);
    int workers = (int)json_array_size(json_object_get(status, "workers"));
    f->devices = json_array();
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(status, "devices"), i, d)
    {
        json_array_append_new(f->devices, json_pack("{s:s, s:s}", "backend",
                                                     json_string_value(json_object_get(d, "backend")), "name",
                                                     json_string_value(json_object_get(d, "name"))));
    }
    json_decref(status);
    f->slots = cfg->slots > 0 ? cfg->slots : workers + 1;
    f->slot = calloc((size_t)f->slots, sizeof *f->slot);
    f->ld = calloc(KEYS_MAX, sizeof *f->ld);
    if (f->cfg.key_retry_ms < 1)
        f->cfg.key_retry_ms = 60000;
    f->cfg.key_dirs = cfg->key_dirs ? strdup(cfg->key_dirs) : NULL;
    f->cfg.presets = cfg->presets ? strdup(cfg->presets) : NULL;
    if (!f->url || !f->host_id || !f->slot || !f->ld || (cfg->key_dirs && !f->cfg.key_dirs) ||
        (cfg->presets && !f->cfg.presets)) {
        cz_farm_destroy(f);
        snprintf(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    f->cfg.queue.url = f->url;
    f->cfg.queue.host_id = f->host_id;
    f->cfg.queue.password = f->password;
    /* connect and migrate now, so that a wrong URL stops the daemon at
       start; announce the host (its keys) before the API can take a job */
    cz_farm_queue *q = pool_get(f, err, err_len);
    if (!q) {
        cz_farm_destroy(f);
        return CZ_ERR_IO;
    }
    size_t n_ids;
    heartbeat(f, q, f->ids, &n_ids);
    pool_put(f, q);
    if (pthread_create(&f->runner, NULL, runner_main, f)) {
        cz_farm_destroy(f);
        snprintf(err, err_len, "cannot start the farm's runner thread");
        return CZ_ERR_INTERNAL;
    }
    f->started = 1;
    cz_log(CZ_LOG_INFO, "farm", "host %s: %d slot(s), lease %d ms, at most %d attempts; %zu more key(s) it can load",
           f->host_id, f->slots, f->cfg.queue.lease_ms, f->cfg.queue.max_attempts, f->n_ld);
    *out = f;
    return CZ_OK;
}

void cz_farm_stop(cz_farm *f)
{
    if (!f || !f->started)
        return;
    atomic_store(&f->stop, 1);
    pthread_join(f->runner, NULL);
    f->started = 0;
}

void cz_farm_destroy(cz_farm *f)
{
    if (!f)
        return;
    cz_farm_stop(f);
    for (int i = 0; i < f->n_pool; i++)
        cz_farm_queue_close(f->pool[i]);
    for (int i = 0; f->slot && i < f->slots; i++)
        slot_free(&f->slot[i]);
    free(f->slot);
    free(f->ld);
    free((char *)f->cfg.key_dirs);
    free((char *)f->cfg.presets);
    json_decref(f->devices);
    json_decref(f->running);
    json_decref(f->admission);
    json_decref(f->load_view);
    pthread_cond_destroy(&f->cv_pool);
    pthread_cond_destroy(&f->cv_done);
    pthread_mutex_destroy(&f->mu);
    free(f->url);
    free(f->host_id);
    if (f->password) {
        memset(f->password, 0, strlen(f->password));
        free(f->password);
    }
    free(f);
}

/* ------------------------------------------------------------------ */
/* the API side                                                         */
/* ------------------------------------------------------------------ */

static int has_control(const char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

cz_status cz_farm_submit(cz_farm *f, const cz_job_request *req, char *job_id, size_t *position, char *err,
                         size_t err_len)
{
    cz_submit_outcome dummy;
    cz_submit_outcome *oc = req && req->outcome ? req->outcome : &dummy;
    *oc = CZ_SUBMIT_REFUSED;
    if (position)
        *position = 0;
    job_id[0] = 0;
    int n_ways = req ? (req->witness_path != NULL) + (req->witness != NULL) + (req->witness_paths != NULL) : 0;
    if (!req || !req->key_id || !*req->key_id || n_ways != 1) {
        snprintf(err, err_len, "a job needs a key id and a witness (path or bytes)");
        return CZ_ERR_ARG;
    }
    if (has_control(req->key_id) || strlen(req->key_id) > 127) {
        snprintf(err, err_len, "key id holds control bytes or is too long");
        return CZ_ERR_ARG;
    }
    if (req->request_id && (strlen(req->request_id) > 127 || !*req->request_id || has_control(req->request_id))) {
        snprintf(err, err_len, "request_id is empty, longer than 127 bytes or holds control bytes");
        return CZ_ERR_ARG;
    }
    if (req->witness_paths && (req->n_partitions < 1 || req->n_partitions > CZ_MAX_PARTITIONS)) {
        snprintf(err, err_len, "a job has 1 to %d partitions (witness paths), not %zu", CZ_MAX_PARTITIONS,
                 req->n_partitions);
        return CZ_ERR_RANGE;
    }
    cz_farm_request r = {.key_id = req->key_id, .priority = (int)req->priority, .request_id = req->request_id,
                         .origin = (int)req->origin};
    const char *one[1] = {req->witness_path};
    if (req->witness) {
        r.input = req->witness;
        r.input_len = req->witness_len;
    } else if (req->witness_paths) {
        r.paths = req->witness_paths;
        r.n_paths = req->n_partitions;
    } else {
        r.paths = one;
        r.n_paths = 1;
    }
    /* ride out a short outage (a restart of the server) before answering */
    double end = mono_ms() + 5000;
    for (;;) {
        cz_status st = CZ_ERR_IO;
        cz_farm_queue *q = pool_get(f, err, err_len);
        if (q) {
            int known = 0;
            st = cz_farm_queue_key_known(q, req->key_id, f->cfg.queue.lease_ms + 5000, &known, err, err_len);
            if (!st && !known) {
                pool_put(f, q);
                snprintf(err, err_len, "unknown key '%s' (no live host of the farm holds it or can load it)",
                         req->key_id);
                return CZ_ERR_NOT_FOUND;
            }
            cz_farm_outcome fo = CZ_FARM_NEW;
            if (!st)
                st = cz_farm_queue_submit(q, &r, job_id, &fo, err, err_len);
            if (st == CZ_ERR_IO) {
                pool_close(f, q);
            } else {
                pool_put(f, q);
                if (st == CZ_OK)
                    *oc = fo == CZ_FARM_EXISTING ? CZ_SUBMIT_EXISTING : CZ_SUBMIT_NEW;
                else if (fo == CZ_FARM_CONFLICT)
                    *oc = CZ_SUBMIT_CONFLICT;
                if (st == CZ_ERR_INTERNAL) { /* a database error other than a lost connection */
                    *oc = CZ_SUBMIT_FULL;
                    return CZ_ERR_BUSY;
                }
                return st;
            }
        }
        if (mono_ms() > end) {
            db_error(f, "submit", err);
            *oc = CZ_SUBMIT_FULL;
            char e2[600];
            snprintf(e2, sizeof e2, "the farm's database is unreachable (%s); retry later", err);
            snprintf(err, err_len, "%s", e2);
            return CZ_ERR_BUSY;
        }
        sleep_ms(200);
    }
}

static int finished(json_t *o)
{
    const char *s = json_string_value(json_object_get(o, "status"));
    return s && (!strcmp(s, "done") || !strcmp(s, "failed") || !strcmp(s, "cancelled"));
}

/* A read of the job (a connection held for one query), then a wait for the
   runner's next cz_done notification, or a poll interval, and again: a
   waiting client holds no connection. */
json_t *cz_farm_await(cz_farm *f, const char *job_id, int timeout_ms, cz_status *st)
{
    cz_status dummy;
    if (!st)
        st = &dummy;
    double end = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    char err[512];
    for (;;) {
        pthread_mutex_lock(&f->mu);
        uint64_t gen = f->done_gen;
        pthread_mutex_unlock(&f->mu);
        json_t *o = NULL;
        cz_farm_queue *q = pool_get(f, err, sizeof err);
        *st = CZ_ERR_IO;
        if (q) {
            o = cz_farm_queue_job_json(q, job_id, st, err, sizeof err);
            if (*st == CZ_ERR_IO)
                pool_close(f, q);
            else
                pool_put(f, q);
            if (!o && *st == CZ_ERR_NOT_FOUND)
                return NULL;
        }
        double left = end - mono_ms();
        if (o && (finished(o) || left <= 0 || atomic_load(&f->stop)))
            return o;
        json_decref(o);
        if (left <= 0)
            return NULL; /* the database stayed away for the whole wait */
        /* the database away: try again in 200 ms; else at the next
           notification, or after poll_ms (a lost notification) */
        int slice = o ? f->cfg.poll_ms : 200;
        if (slice > left)
            slice = (int)left + 1;
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_nsec += (long)slice * 1000000L;
        dl.tv_sec += dl.tv_nsec / 1000000000L;
        dl.tv_nsec %= 1000000000L;
        pthread_mutex_lock(&f->mu);
        while (f->done_gen == gen && !atomic_load(&f->stop))
            if (pthread_cond_timedwait(&f->cv_done, &f->mu, &dl))
                break;
        pthread_mutex_unlock(&f->mu);
    }
}

cz_status cz_farm_cancel(cz_farm *f, const char *job_id)
{
    char err[512];
    cz_farm_queue *q = pool_get(f, err, sizeof err);
    if (!q)
        return CZ_ERR_IO;
    cz_status st = cz_farm_queue_cancel(q, job_id, err, sizeof err);
    if (st == CZ_ERR_IO)
        pool_close(f, q);
    else
        pool_put(f, q);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

json_t *cz_farm_status_json(cz_farm *f)
{
    pthread_mutex_lock(&f->mu);
    size_t n = f->n_lat < LAT_RING ? (size_t)f->n_lat : LAT_RING;
    double *lat = malloc((n ? n : 1) * sizeof *lat);
    if (lat)
        memcpy(lat, f->lat, n * sizeof *lat);
    json_t *host = json_pack(
        "{s:s, s:i, s:b, s:O, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}}", "host", f->host_id, "slots", f->slots,
        "database_reachable", f->db_ok, "running", f->running ? f->running : json_array(), "counts", "claimed",
        (json_int_t)f->claimed, "completed", (json_int_t)f->completed, "failed", (json_int_t)f->failed, "retried",
        (json_int_t)f->retried, "writes_refused", (json_int_t)f->refused, "leases_lost", (json_int_t)f->lost,
        "released", (json_int_t)f->released, "database_errors", (json_int_t)f->db_errors);
    json_t *c = json_object_get(host, "counts");
    json_object_set_new(c, "held_back", json_integer((json_int_t)f->held_back));
    json_object_set_new(c, "keys_loaded", json_integer((json_int_t)f->keys_loaded));
    json_object_set_new(c, "key_load_failures", json_integer((json_int_t)f->key_failures));
    json_object_set_new(host, "max_running", json_integer(f->max_running));
    json_object_set_new(host, "holding_back", f->holdback[0] ? json_string(f->holdback) : json_null());
    json_object_set_new(host, "admission", f->admission ? json_deep_copy(f->admission) : json_object());
    json_object_set_new(host, "keys", f->load_view ? json_deep_copy(f->load_view) : json_object());
    pthread_mutex_unlock(&f->mu);
    if (lat && n) {
        qsort(lat, n, sizeof *lat, cmp_double);
        json_object_set_new(host, "claim_to_start_ms",
                            json_pack("{s:I, s:f, s:f, s:f}", "n", (json_int_t)n, "median", lat[n / 2], "p99",
                                      lat[(size_t)((double)(n - 1) * 0.99)], "max", lat[n - 1]));
    }
    free(lat);
    char err[512] = "";
    cz_farm_queue *q = pool_get(f, err, sizeof err);
    json_t *farm = q ? cz_farm_queue_status_json(q, err, sizeof err) : NULL;
    if (q && !farm)
        pool_close(f, q);
    else
        pool_put(f, q);
    if (!farm)
        farm = json_pack("{s:s}", "error", err);
    json_object_set_new(farm, "this_host", host);
    return farm;
}

char *cz_farm_metrics_text(cz_farm *f)
{
    json_t *s = cz_farm_status_json(f);
    json_t *h = json_object_get(s, "this_host"), *c = json_object_get(h, "counts");
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    if (!out) {
        json_decref(s);
        return NULL;
    }
    out[0] = 0;
#define EMIT(...)                                                                 \
    do {                                                                          \
        int k_ = snprintf(out + len, cap - len, __VA_ARGS__);                     \
        if (k_ > 0 && (size_t)k_ < cap - len)                                     \
            len += (size_t)k_;                                                    \
    } while (0)
    static const char *const names[] = {"claimed", "completed", "failed", "retried",
                                        "writes_refused", "leases_lost", "released", "database_errors",
                                        "held_back", "keys_loaded", "key_load_failures"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        EMIT("# TYPE cuzk_farm_%s_total counter\ncuzk_farm_%s_total %" PRId64 "\n", names[i], names[i],
             (int64_t)json_integer_value(json_object_get(c, names[i])));
    EMIT("# TYPE cuzk_farm_slots gauge\ncuzk_farm_slots %d\n", (int)json_integer_value(json_object_get(h, "slots")));
    EMIT("# TYPE cuzk_farm_running gauge\ncuzk_farm_running %zu\n", json_array_size(json_object_get(h, "running")));
    EMIT("# TYPE cuzk_farm_holding_back gauge\ncuzk_farm_holding_back %d\n",
         json_is_string(json_object_get(h, "holding_back")));
    EMIT("# TYPE cuzk_farm_database_up gauge\ncuzk_farm_database_up %d\n",
         json_is_true(json_object_get(h, "database_reachable")) && !json_object_get(s, "error"));
    if (!json_object_get(s, "error")) {
        EMIT("# TYPE cuzk_farm_hosts gauge\ncuzk_farm_hosts %zu\n", json_array_size(json_object_get(s, "hosts")));
        EMIT("# TYPE cuzk_farm_leases gauge\ncuzk_farm_leases %" PRId64 "\n",
             (int64_t)json_integer_value(json_object_get(s, "leases")));
        EMIT("# TYPE cuzk_farm_queue_depth gauge\n");
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(s, "queue"), k, v)
            EMIT("cuzk_farm_queue_depth{priority=\"%s\"} %" PRId64 "\n", k, (int64_t)json_integer_value(v));
    }
#undef EMIT
    json_decref(s);
    return out;
}
