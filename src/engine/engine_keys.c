/*
 * engine_keys.c: proving keys and the host memory budget.
 *
 * DESIGN. Keys are loaded from files under the path policy into memory the
 * engine owns, counted against the budget before they are read, reference
 * counted by the jobs that use them and evicted (idle ones, least recently
 * used first) only once a new key is in. Also the budget holds that the
 * daemon takes for uploads. Locking: the engine mutex guards the key list,
 * loads in flight and the memory counters; a key file is read with it
 * free, and evicted keys and trimmed pool buffers are freed after it is
 * dropped. See engine.c for the rule.
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
/* keys                                                                 */
/* ------------------------------------------------------------------ */

key *ce_find_key_locked(cz_engine *e, const char *id)
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
        ce_set_err(err, err_len, "key id must be 1-127 characters of [A-Za-z0-9._-]");
        return CZ_ERR_ARG;
    }
    if (!path || !*path || strlen(path) >= PATH_MAX) {
        ce_set_err(err, err_len, "key path missing or too long");
        return CZ_ERR_ARG;
    }
    /* The file: allowed to this client, a regular file (never blocks),
       its header and every section size checked, and the memory a copy of
       it and its matrices take known, all before it is read. */
    int fd;
    uint64_t size, need;
    char real[PATH_MAX];
    cz_status st = cz_path_open(&fd, &size, real, sizeof real, path, ce_policy_for(e, origin, 1),
                                "key", err, err_len);
    if (st)
        return st;
    cz_zkey_info info;
    if ((st = cz_zkey_peek_fd(&info, &need, fd, size, path, err, err_len))) {
        close(fd);
        return st;
    }

    pthread_mutex_lock(&e->mu);
    key *old = ce_find_key_locked(e, id);
    if (old || find_loading_locked(e, id)) {
        int same = old && strcmp(old->path, real) == 0;
        pthread_mutex_unlock(&e->mu);
        close(fd);
        if (same)
            return CZ_OK; /* preload is idempotent */
        if (old)
            ce_set_err(err, err_len, "key '%s' is already loaded from another file; evict it first", id);
        else
            ce_set_err(err, err_len, "key '%s' is being loaded; wait for that load to end", id);
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
        ce_set_err(err, err_len, "%s: the key needs %llu MiB of host memory (file and matrices), "
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
    double t0 = ce_now_ms();
    if (!k) {
        st = CZ_ERR_NOMEM;
        ce_set_err(err, err_len, "out of memory");
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
            ce_set_err(err, err_len, "%s: cannot derive the verification key", path);
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
    k->load_ms = ce_now_ms() - t0;
    k->bytes = need;
    k->loaded_at = k->last_use = ce_now_ms();
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
    key *k = ce_find_key_locked(e, id ? id : "");
    if (!k) {
        pthread_mutex_unlock(&e->mu);
        ce_set_err(err, err_len, "unknown key '%s'", id ? id : "");
        return CZ_ERR_NOT_FOUND;
    }
    if (k->users > 0) {
        int u = k->users;
        pthread_mutex_unlock(&e->mu);
        ce_set_err(err, err_len, "key '%s' is in use by %d job(s)", id, u);
        return CZ_ERR_BUSY;
    }
    unlink_key_locked(e, k);
    pthread_mutex_unlock(&e->mu);
    cz_vk_free(k->vk);
    cz_zkey_free(k->zkey);
    free(k);
    return CZ_OK;
}

json_t *ce_key_json_locked(cz_engine *e, const key *k)
{
    return json_pack("{s:s, s:s, s:s, s:I, s:i, s:f, s:f, s:I, s:I, s:I, s:f}", "id", k->id,
                     "path", k->path, "tier", k->tier, "bytes", (json_int_t)k->bytes, "users",
                     k->users, "last_use_s_ago", (ce_now_ms() - k->last_use) / 1e3, "load_ms",
                     k->load_ms, "n_vars", (json_int_t)k->zkey->n_vars, "n_public",
                     (json_int_t)k->zkey->n_public, "domain_size",
                     (json_int_t)k->zkey->domain_size, "loaded_s_ago",
                     (ce_now_ms() - k->loaded_at) / 1e3);
}

json_t *cz_engine_keys_json(cz_engine *e)
{
    json_t *a = json_array();
    pthread_mutex_lock(&e->mu);
    for (key *k = e->keys; k; k = k->next)
        json_array_append_new(a, ce_key_json_locked(e, k));
    pthread_mutex_unlock(&e->mu);
    return a;
}
