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
 *
 * Keys made from a preset ([keys] presets) are made in the background by
 * one engine thread, in the order asked, so that the daemon answers at
 * once: the id is listed as loading (with its stage) from the moment it
 * is asked for, jobs naming it are refused as unavailable (503, retry),
 * and a failure is kept and listed until the id is made, loaded or
 * deleted. Each load and make also leaves a span for the timeline.
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
#include "groth16/native.h"
#include "io/json.h"
#include "io/nkey.h"
#include "io/paths.h"
#include "pairing/pairing.h"
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

/* What making a key of a preset takes, known before anything is held. */
typedef struct {
    const cz_porep_params *p;
    cz_porep_counts c;
    uint64_t domain, points;
} make_plan;

/* A key load or make in flight: its id (a second load of it is refused),
   the bytes it holds in mem_keys until it ends, and what GET /v1/keys
   shows of it. Stage and times are guarded by the engine mutex. */
struct loading {
    struct loading *next;
    char id[128];
    uint64_t bytes;
    char path[PATH_MAX];   /* a load: its file; "" for a make */
    make_plan plan;        /* a make: its preset (plan.p) and sizes */
    uint64_t seed;
    int seeded;
    int background;        /* on the key thread's queue (heap; freed there) */
    const char *stage;     /* "queued", "reading", "recording", "making" */
    double t0, stage_t0;   /* engine ms: asked, stage begun */
};

/* A background make that failed (listed until the id is made, loaded or
   deleted). */
struct key_failure {
    struct key_failure *next;
    char id[128];
    char preset[32];
    uint64_t seed;
    int seeded;
    char error[512];
    double at; /* engine ms */
};

static double engine_ms(const cz_engine *e)
{
    return ce_now_ms() - e->t0;
}

static void set_stage(cz_engine *e, struct loading *l, const char *stage)
{
    pthread_mutex_lock(&e->mu);
    l->stage = stage;
    l->stage_t0 = engine_ms(e);
    pthread_mutex_unlock(&e->mu);
}

/* Forget the failure of id, if any (engine mutex held): 1 if there was one. */
static int forget_failure_locked(cz_engine *e, const char *id)
{
    for (struct key_failure **pp = &e->key_failures; *pp; pp = &(*pp)->next)
        if (!strcmp((*pp)->id, id)) {
            struct key_failure *f = *pp;
            *pp = f->next;
            free(f);
            return 1;
        }
    return 0;
}

static void key_span_add_locked(cz_engine *e, const char *id, const char *what, double t0, int ok)
{
    struct key_span *s = &e->key_spans[e->key_span_n++ % (sizeof e->key_spans / sizeof e->key_spans[0])];
    snprintf(s->id, sizeof s->id, "%s", id);
    s->what = what;
    s->t0 = t0;
    s->t1 = engine_ms(e);
    s->ok = ok;
}

static struct loading *find_loading_locked(cz_engine *e, const char *id)
{
    for (struct loading *l = e->loading; l; l = l->next)
        if (strcmp(l->id, id) == 0)
            return l;
    return NULL;
}

static void admit_key_unlock(cz_engine *e, key *k);

void ce_key_free(key *k)
{
    if (!k)
        return;
    cz_vk_free(k->vk);
    cz_zkey_free(k->zkey);
    cz_bn254_vk_free(k->bvk);
    cz_bn254_zkey_free(k->bzkey);
    free(k);
}

/* The host memory a loaded bn128 key holds: its file's copy, the aligned
   copies of unaligned sections (bounded by the file) and the two
   matrices. */
static uint64_t bn254_key_bytes(const cz_bn254_zkey *z)
{
    uint64_t b = z->blob.len;
    for (size_t i = 0; i < sizeof z->copies / sizeof z->copies[0]; i++)
        if (z->copies[i]) {
            b += z->blob.len; /* an upper bound: a copy is one section */
            break;
        }
    const cz_bn254_csr *m[2] = {&z->qa, &z->qb};
    for (int i = 0; i < 2; i++)
        b += 8 * ((uint64_t)m[i]->n_rows + 1) + m[i]->nnz * (4 + sizeof(cz_bn254_fr));
    return b;
}

/* A .czk's points through the first device's backend (its decompress
   hook: on the GPU), its lock held per chunk (96 MiB of points) as for a
   proof, so proofs running meanwhile interleave with the load. A device
   that cannot (shut down, no hook) answers CZ_ERR_UNSUPPORTED and the
   reader takes the CPU. */
static cz_status key_decompress(void *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                                size_t *first_bad)
{
    device *dv = ctx;
    pthread_mutex_lock(&dv->lock);
    double t0 = ce_now_ms();
    cz_status st = dv->be && dv->be->decompress
                       ? dv->be->decompress(dv->be, g2, out, in, n, first_bad)
                       : CZ_ERR_UNSUPPORTED;
    dv->busy_ms += ce_now_ms() - t0;
    pthread_mutex_unlock(&dv->lock);
    return st;
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
    /* A .zkey (snarkjs), or a .czk (the compact key of a native circuit,
       io/nkey.h): its header says what a load takes at its peak (need) and
       what the key then holds (hold). */
    uint8_t magic[8] = {0};
    int nkey = pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
               !memcmp(magic, CZ_NKEY_MAGIC, sizeof magic);
    uint64_t hold;
    int bn254 = 0;
    if (nkey) {
        cz_nkey_info ni;
        st = cz_nkey_peek_fd(&ni, fd, size, path, err, err_len);
        need = ni.mem_bytes;
        hold = ni.point_bytes + ni.matrix_bytes;
    } else {
        cz_zkey_info info;
        st = cz_zkey_peek_fd(&info, &need, fd, size, path, err, err_len);
        hold = need;
        if (st == CZ_ERR_CURVE && info.bn254) {
            /* a snarkjs bn128 key: its loader checks every section; at
               its peak the file is read (size), copied aligned (size)
               and its matrices made (fewer bytes than its H points) */
            bn254 = 1;
            st = CZ_OK;
            hold = need = 3 * size;
        }
    }
    if (st) {
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
    struct loading me = {.next = e->loading, .bytes = need, .stage = "reading"};
    snprintf(me.id, sizeof me.id, "%s", id);
    snprintf(me.path, sizeof me.path, "%s", real);
    me.t0 = me.stage_t0 = engine_ms(e);
    forget_failure_locked(e, id);
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
        cz_nkey_load_opts no = {.threads = (unsigned)e->cfg.prove_threads, .mem_limit = need};
        if (!e->host_prove) { /* a GPU backend (set at the engine's start) */
            no.decompress = key_decompress;
            no.decompress_ctx = &e->devs[0];
            no.decompress_on = "the gpu";
        }
        if (bn254) {
            /* read through the checked descriptor, then validated */
            cz_blob b;
            k->bn254 = 1;
            k->buid = cz_zkey_new_uid();
            st = cz_blob_read_fd(&b, fd, size, path, err, err_len);
            if (!st) {
                st = cz_bn254_zkey_load_bytes(&k->bzkey, b.data, b.len, path,
                                              (unsigned)e->cfg.prove_threads, err, err_len);
                cz_blob_release(&b);
            }
            if (!st && (st = cz_bn254_vk_from_zkey(&k->bvk, k->bzkey)) != CZ_OK)
                ce_set_err(err, err_len, "%s: cannot derive the verification key", path);
            if (!st)
                hold = bn254_key_bytes(k->bzkey);
        } else {
            st = nkey ? cz_nkey_load_fd(&k->zkey, fd, size, path, &no, err, err_len)
                      : cz_zkey_load_fd(&k->zkey, fd, size, path, &lo, err, err_len);
            if (!st && (st = cz_vk_from_zkey(&k->vk, k->zkey)) != CZ_OK)
                ce_set_err(err, err_len, "%s: cannot derive the verification key", path);
        }
    }
    close(fd);

    pthread_mutex_lock(&e->mu);
    for (struct loading **pp = &e->loading; *pp; pp = &(*pp)->next)
        if (*pp == &me) {
            *pp = me.next;
            break;
        }
    e->mem_keys -= need;
    key_span_add_locked(e, id, "key_load", me.t0, st == CZ_OK);
    if (st) {
        pthread_mutex_unlock(&e->mu);
        if (k)
            ce_key_free(k);
        return st;
    }
    k->load_ms = ce_now_ms() - t0;
    k->bytes = hold < need ? hold : need;
    k->loaded_at = k->last_use = ce_now_ms();
    admit_key_unlock(e, k);
    return CZ_OK;
}

/* Put a new key in the list and make room for it: idle pooled buffers
   first, then idle keys, least recently used first, never the new one.
   Called with the engine mutex held; returns with it dropped. */
static void admit_key_unlock(cz_engine *e, key *k)
{
    char id[sizeof k->id]; /* k may be evicted by another thread once the mutex drops */
    memcpy(id, k->id, sizeof id);
    if (k->bzkey) {
        k->n_vars = k->bzkey->n_vars;
        k->n_public = k->bzkey->n_public;
        k->domain_size = k->bzkey->domain_size;
    } else {
        k->n_vars = k->zkey->n_vars;
        k->n_public = k->zkey->n_public;
        k->domain_size = k->zkey->domain_size;
    }
    k->next = e->keys;
    e->keys = k;
    e->mem_keys += k->bytes;
    ce_key_upload_start_locked(e, k);
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
        ce_key_free(v);
    }
    if (over)
        cz_log(CZ_LOG_WARN, "engine", "key %s loaded; host memory is over budget until running "
               "jobs end", id);
}

/* ------------------------------------------------------------------ */
/* keys on the GPUs                                                     */
/* ------------------------------------------------------------------ */

/* The first proof of a key on a GPU used to carry the key's upload
   (porep-32g: 49.8 GB, 8-11 s). A key just loaded or made goes to every
   device at once instead, from a thread of its own that takes each
   device's lock in turn (the lock its proofs take): a job that arrives
   meanwhile waits for that lock and finds the key resident, so the key
   is never uploaded twice. The thread holds the key (users) so that it
   is not evicted under it; shutdown waits for it (uploads). A key that
   does not fit a device stays on the host there (its proofs stream it);
   a device error leaves it on the host too (the next proof tries again). */

typedef struct {
    cz_engine *e;
    key *k;
} upload_task;

static void *upload_main(void *arg)
{
    upload_task *u = arg;
    cz_engine *e = u->e;
    key *k = u->k;
    free(u);
    double t0 = ce_now_ms();
    int resident = 0;
    double ms = 0;
    uint64_t bytes = 0;
    for (int d = 0; d < e->n_devs; d++) {
        device *dv = &e->devs[d];
        cz_core_timings tm;
        memset(&tm, 0, sizeof tm);
        cz_status st = CZ_ERR_UNSUPPORTED;
        pthread_mutex_lock(&dv->lock);
        double t = ce_now_ms();
        if (dv->be && k->bn254 && dv->be->key_upload_bn254)
            st = dv->be->key_upload_bn254(dv->be, k->bzkey, k->buid, &tm);
        else if (dv->be && !k->bn254 && dv->be->key_upload)
            st = dv->be->key_upload(dv->be, k->zkey, &tm);
        double el = ce_now_ms() - t;
        pthread_mutex_unlock(&dv->lock);
        if (st == CZ_OK && tm.h2d_bytes) {
            resident++;
            ms += tm.upload_ms;
            bytes += tm.h2d_bytes;
            cz_log(CZ_LOG_INFO, "engine",
                   "key %s resident on device %d: %.1f MiB in %.1f ms (%.2f GB/s; %.1f ms with the "
                   "device's lock)",
                   k->id, d, tm.h2d_bytes / 1048576.0, tm.upload_ms,
                   tm.upload_ms > 0 ? tm.h2d_bytes / tm.upload_ms / 1e6 : 0.0, el);
        } else if (st == CZ_OK) {
            resident++;
            cz_log(CZ_LOG_INFO, "engine", "key %s was resident on device %d already", k->id, d);
        } else if (st == CZ_ERR_UNSUPPORTED) {
            cz_log(CZ_LOG_INFO, "engine",
                   "key %s stays on the host for device %d (it does not fit beside a proof's "
                   "memory: proofs stream it)", k->id, d);
        } else {
            cz_log(CZ_LOG_WARN, "engine", "key %s: upload to device %d failed (%s: %s); it stays on "
                   "the host", k->id, d, cz_strerror(st), tm.error[0] ? tm.error : "-");
        }
    }
    pthread_mutex_lock(&e->mu);
    snprintf(k->gpu, sizeof k->gpu, "%s",
             resident == e->n_devs ? "resident" : resident ? "partial" : "host");
    if (resident == e->n_devs) /* its jobs' host reservations: the witness alone */
        snprintf(k->tier, sizeof k->tier, "resident");
    k->gpu_upload_ms = ms;
    k->gpu_upload_bytes = bytes;
    key_span_add_locked(e, k->id, "key_upload", t0 - e->t0, resident > 0);
    k->users--;
    k->last_use = ce_now_ms();
    e->uploads--;
    pthread_cond_broadcast(&e->cv_done);    /* shutdown may wait for it */
    pthread_cond_broadcast(&e->cv_pending); /* reservations may be smaller now */
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

void ce_key_upload_start_locked(cz_engine *e, key *k)
{
    snprintf(k->gpu, sizeof k->gpu, "host");
    if (e->host_prove || e->stopping)
        return;
    int any = 0;
    for (int d = 0; d < e->n_devs; d++) {
        const cz_backend *be = e->devs[d].be;
        any |= be && (k->bn254 ? be->key_upload_bn254 != NULL : be->key_upload != NULL);
    }
    upload_task *u = any ? malloc(sizeof *u) : NULL;
    if (!u)
        return; /* its first proof uploads it, as before */
    u->e = e;
    u->k = k;
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    k->users++;
    e->uploads++;
    snprintf(k->gpu, sizeof k->gpu, "uploading");
    if (pthread_create(&th, &attr, upload_main, u) != 0) {
        k->users--;
        e->uploads--;
        snprintf(k->gpu, sizeof k->gpu, "host");
        free(u);
        cz_log(CZ_LOG_WARN, "engine", "key %s: no thread to upload it; its first proof will", k->id);
    }
    pthread_attr_destroy(&attr);
}

/* ------------------------------------------------------------------ */
/* keys made from a preset                                              */
/* ------------------------------------------------------------------ */

/* The host memory of a key of the preset's counts, before what needs the
   recorded circuit: G1 points of A (every variable), C (aux variables), H
   (the domain) and IC, 96 B each. B's points and the matrices come once
   the circuit is recorded (shape_key_bytes). */
static uint64_t preset_points_bytes(const cz_porep_counts *c, uint64_t domain)
{
    uint64_t nv = 1 + (uint64_t)c->n_public + c->n_aux;
    return 96 * (nv + c->n_aux + domain + c->n_public + 1);
}

/* What the recorded circuit adds to a key: B1 + B2 points (96 + 192 B)
   and an index (4 B) per variable that occurs in B, and the A and B
   matrices at 14 B a nonzero (compact: 6; the margin covers a key made
   in CSR form) with their row pointers. */
static uint64_t shape_key_bytes(const cz_shape *s, uint64_t domain)
{
    uint64_t nv = 1 + (uint64_t)s->n_public + s->n_aux, n_b = 0;
    uint8_t *seen = calloc(nv / 8 + 1, 1);
    if (!seen)
        n_b = nv; /* the bound */
    for (uint64_t i = 0; seen && i < s->m[1].nnz; i++) {
        uint32_t v = s->m[1].col[i];
        if (v < nv && !(seen[v / 8] & (1u << (v % 8)))) {
            seen[v / 8] |= (uint8_t)(1u << (v % 8));
            n_b++;
        }
    }
    free(seen);
    return (96 + 192 + 4) * n_b + 14 * (s->m[0].nnz + s->m[1].nnz) + 16 * (domain + 1);
}

/* The bytes a made key holds: its points and matrices as they are. */
static uint64_t zkey_bytes(const cz_zkey *z)
{
    if (!z->compact) /* a key file read into memory: the file holds the points */
        return z->blob.len + 8 * ((uint64_t)z->qa.n_rows + z->qb.n_rows + 2) +
               36 * (z->qa.nnz + z->qb.nnz);
    uint64_t nb = z->b_idx ? z->n_b : z->n_vars;
    return 96 * ((uint64_t)z->n_vars + (z->n_vars - z->n_public - 1) + z->domain_size +
                 z->n_public + 1) + (96 + 192 + (z->b_idx ? 4 : 0)) * nb +
           8 * ((uint64_t)z->ca.n_rows + z->cb.n_rows + 2) + 6 * (z->ca.nnz + z->cb.nnz) +
           32ull * z->n_coefs;
}

/* The smallest power of two of at least the constraints and snarkjs's
   n_public + 1 input rows: the key's domain. */
static uint64_t preset_domain(const cz_porep_counts *c)
{
    uint64_t rows = c->n_constraints + c->n_public + 1, n = 1;
    while (n < rows)
        n <<= 1;
    return n;
}

/* The bytes of a recorded circuit (its three matrices). */
static uint64_t shape_bytes(const cz_shape *s)
{
    uint64_t b = 0;
    for (int m = 0; m < 3; m++)
        b += 8 * (s->n_constraints + 1) + 6 * s->m[m].nnz;
    return b + 32ull * s->n_coefs;
}

/* The key from the recorded circuit; the fixed-base products go to the
   first device's backend (its hooks put them on the GPU), whose lock is
   held as for a proof. */
static cz_status key_from_shape(cz_engine *e, cz_zkey **out, const cz_shape *shape,
                                const cz_setup_opts *opts, char *err, size_t err_len)
{
    device *dv = &e->devs[0];
    pthread_mutex_lock(&dv->lock);
    if (!dv->be) { /* the engine has shut down */
        pthread_mutex_unlock(&dv->lock);
        ce_set_err(err, err_len, "the daemon is shutting down");
        return CZ_ERR_BUSY;
    }
    double t0 = ce_now_ms();
    cz_status st = cz_zkey_from_shape(out, shape, opts, dv->be, err, err_len);
    dv->busy_ms += ce_now_ms() - t0;
    pthread_mutex_unlock(&dv->lock);
    return st;
}

/* Grow (or shrink) a load in flight's hold on the budget: 0, or -1 when
   the growth does not fit next to running jobs and keys in use. */
static int loading_resize(cz_engine *e, struct loading *l, uint64_t bytes, uint64_t *fixed_out)
{
    pthread_mutex_lock(&e->mu);
    uint64_t idle = 0;
    for (key *k = e->keys; k; k = k->next)
        if (k->users == 0)
            idle += k->bytes;
    uint64_t fixed = e->mem_jobs + e->mem_keys - idle - l->bytes;
    int ok = bytes <= l->bytes || (bytes <= e->mem_budget && fixed + bytes <= e->mem_budget);
    if (ok) {
        e->mem_keys = e->mem_keys - l->bytes + bytes;
        l->bytes = bytes;
    }
    pthread_mutex_unlock(&e->mu);
    if (fixed_out)
        *fixed_out = fixed;
    return ok ? 0 : -1;
}

static cz_status plan_make(make_plan *m, const char *preset, char *err, size_t err_len)
{
    memset(m, 0, sizeof *m);
    m->p = preset ? cz_porep_preset(preset) : NULL;
    if (!m->p) {
        ce_set_err(err, err_len, "unknown preset '%s' (cuzk circuit list names them)",
                   preset ? preset : "");
        return CZ_ERR_ARG;
    }
    cz_status st = cz_porep_counts_get(m->p, &m->c, err, err_len);
    if (st)
        return st;
    m->domain = preset_domain(&m->c);
    m->points = preset_points_bytes(&m->c, m->domain);
    if (m->domain > ((uint64_t)1 << 28)) {
        ce_set_err(err, err_len, "%s: a domain of %llu rows is past what a key holds", m->p->name,
                   (unsigned long long)m->domain);
        return CZ_ERR_RANGE;
    }
    return CZ_OK;
}

/* Register me as the make of id (engine mutex held). *same: nothing to do,
   that key is loaded already (or, for a background make, is being made
   the same way). */
static cz_status make_register_locked(cz_engine *e, struct loading *me, const char *id,
                                      const make_plan *m, uint64_t seed, int seeded, int *same,
                                      char *err, size_t err_len)
{
    *same = 0;
    key *old = ce_find_key_locked(e, id);
    struct loading *ld = find_loading_locked(e, id);
    if (old || ld) {
        if (old && !strcmp(old->preset, m->p->name) && old->seeded == (seeded != 0) &&
            (!seeded || old->seed == seed)) {
            *same = 1; /* preload is idempotent */
            return CZ_OK;
        }
        if (me->background && ld && ld->background && ld->plan.p == m->p &&
            ld->seeded == (seeded != 0) && (!seeded || ld->seed == seed)) {
            *same = 1;
            return CZ_OK;
        }
        if (old)
            ce_set_err(err, err_len, "key '%s' is already loaded (%s%s); evict it first", id,
                       old->preset[0] ? "made from preset " : "from ",
                       old->preset[0] ? old->preset : old->path);
        else
            ce_set_err(err, err_len, "key '%s' is being made or loaded; wait for that to end", id);
        return CZ_ERR_BUSY;
    }
    snprintf(me->id, sizeof me->id, "%s", id);
    me->plan = *m;
    me->seed = seed;
    me->seeded = seeded != 0;
    me->t0 = me->stage_t0 = engine_ms(e);
    forget_failure_locked(e, id);
    me->next = e->loading;
    e->loading = me;
    return CZ_OK;
}

/* Make the key me was registered for, then unregister me: the key is
   admitted, or (a background make) the failure recorded. */
static cz_status make_run(cz_engine *e, struct loading *me, char *err, size_t err_len)
{
    const make_plan *m = &me->plan;
    const cz_porep_params *p = m->p;
    const char *id = me->id;
    uint64_t domain = m->domain, points = m->points;
    cz_status st = CZ_OK;
    /* First the points (known from the counts), then, once the circuit is
       recorded, its matrices and the recording itself while the key is
       made; the recording is given back when the key is made. */
    uint64_t fixed = 0, mats = 0, rec = 0;
    cz_shape *shape = NULL;
    cz_zkey *zk = NULL;
    cz_vk *vk = NULL;
    double t0 = ce_now_ms();
    if (loading_resize(e, me, points, &fixed)) {
        st = CZ_ERR_NOMEM;
        ce_set_err(err, err_len, "preset %s: the key needs %llu MiB of host memory for its "
                   "A, C and H points alone, more than the budget of %llu MiB leaves next to the %llu MiB "
                   "that running jobs and keys in use hold", p->name,
                   (unsigned long long)(points >> 20), (unsigned long long)(e->mem_budget >> 20),
                   (unsigned long long)(fixed >> 20));
    }
    if (!st) {
        cz_log(CZ_LOG_INFO, "engine", "key %s: recording preset %s (%llu constraints)", id,
               p->name, (unsigned long long)m->c.n_constraints);
        set_stage(e, me, "recording");
        st = cz_porep_shape(p, &shape, err, err_len);
    }
    if (!st) {
        mats = shape_key_bytes(shape, domain);
        rec = shape_bytes(shape);
        if (loading_resize(e, me, points + mats + rec, &fixed)) {
            st = CZ_ERR_NOMEM;
            ce_set_err(err, err_len, "preset %s: the key needs %llu MiB of host memory (points "
                       "and matrices) and %llu MiB for the recorded circuit while it is made, "
                       "more than the budget of %llu MiB leaves next to the %llu MiB that "
                       "running jobs and keys in use hold", p->name,
                       (unsigned long long)((points + mats) >> 20),
                       (unsigned long long)(rec >> 20), (unsigned long long)(e->mem_budget >> 20),
                       (unsigned long long)(fixed >> 20));
        }
    }
    if (!st) {
        pthread_mutex_lock(&e->mu);
        int stopping = e->stopping;
        pthread_mutex_unlock(&e->mu);
        if (stopping) {
            st = CZ_ERR_BUSY;
            ce_set_err(err, err_len, "the daemon is shutting down");
        }
    }
    if (!st) {
        cz_log(CZ_LOG_INFO, "engine", "key %s: recorded in %.0f ms; making the key (%llu MiB)",
               id, ce_now_ms() - t0, (unsigned long long)((points + mats) >> 20));
        set_stage(e, me, "making");
        cz_setup_opts so = {.seeded = me->seeded != 0, .seed = me->seed,
                            .threads = (unsigned)e->cfg.prove_threads, .fold_c = true};
        st = key_from_shape(e, &zk, shape, &so, err, err_len);
    }
    cz_shape_free(shape);
    if (!st && (st = cz_vk_from_zkey(&vk, zk)) != CZ_OK)
        ce_set_err(err, err_len, "preset %s: cannot derive the verification key", p->name);
    key *k = NULL;
    if (!st && !(k = calloc(1, sizeof *k))) {
        st = CZ_ERR_NOMEM;
        ce_set_err(err, err_len, "out of memory");
    }

    pthread_mutex_lock(&e->mu);
    for (struct loading **pp = &e->loading; *pp; pp = &(*pp)->next)
        if (*pp == me) {
            *pp = me->next;
            break;
        }
    e->mem_keys -= me->bytes;
    key_span_add_locked(e, id, "key_make", me->t0, st == CZ_OK);
    if (st) {
        struct key_failure *f = me->background ? calloc(1, sizeof *f) : NULL;
        if (f) {
            snprintf(f->id, sizeof f->id, "%s", id);
            snprintf(f->preset, sizeof f->preset, "%s", p->name);
            f->seed = me->seed;
            f->seeded = me->seeded;
            snprintf(f->error, sizeof f->error, "%s", err && err[0] ? err : cz_strerror(st));
            f->at = engine_ms(e);
            f->next = e->key_failures;
            e->key_failures = f;
        }
        pthread_mutex_unlock(&e->mu);
        cz_vk_free(vk);
        cz_zkey_free(zk);
        return st;
    }
    snprintf(k->id, sizeof k->id, "%s", id);
    snprintf(k->tier, sizeof k->tier, "host");
    snprintf(k->preset, sizeof k->preset, "%s", p->name);
    k->seed = me->seed;
    k->seeded = me->seeded;
    k->zkey = zk;
    k->vk = vk;
    k->load_ms = ce_now_ms() - t0;
    /* what it holds, where that is known better than the estimate */
    k->bytes = zkey_bytes(zk);
    if (k->bytes > points + mats)
        cz_log(CZ_LOG_WARN, "engine", "key %s holds %llu MiB, more than the %llu MiB estimated",
               id, (unsigned long long)(k->bytes >> 20),
               (unsigned long long)((points + mats) >> 20));
    k->loaded_at = k->last_use = ce_now_ms();
    double ms = k->load_ms;
    char idc[sizeof me->id];
    memcpy(idc, me->id, sizeof idc);
    admit_key_unlock(e, k);
    cz_log(CZ_LOG_INFO, "engine", "key %s made from preset %s in %.0f ms", idc, p->name, ms);
    return CZ_OK;
}

cz_status cz_engine_key_make(cz_engine *e, const char *id, const char *preset, uint64_t seed,
                             int seeded, char *err, size_t err_len)
{
    make_plan m;
    cz_status st = plan_make(&m, preset, err, err_len);
    if (st)
        return st;
    if (!id)
        id = m.p->name;
    if (!valid_id(id, sizeof ((key *)0)->id)) {
        ce_set_err(err, err_len, "key id must be 1-127 characters of [A-Za-z0-9._-]");
        return CZ_ERR_ARG;
    }
    struct loading me;
    memset(&me, 0, sizeof me);
    me.stage = "recording";
    int same;
    pthread_mutex_lock(&e->mu);
    st = make_register_locked(e, &me, id, &m, seed, seeded, &same, err, err_len);
    pthread_mutex_unlock(&e->mu);
    if (st || same)
        return st;
    return make_run(e, &me, err, err_len);
}

/* The key thread: makes the queued keys one at a time, oldest first; once
   the engine stops, drops the rest. */
static void *maker_main(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        struct loading *me = NULL;
        for (struct loading *l = e->loading; l; l = l->next)
            if (l->background && !strcmp(l->stage, "queued"))
                me = l; /* the list is newest first: the last is the oldest */
        if (!me)
            break;
        if (e->stopping) {
            for (struct loading **pp = &e->loading; *pp; pp = &(*pp)->next)
                if (*pp == me) {
                    *pp = me->next;
                    break;
                }
            cz_log(CZ_LOG_INFO, "engine", "key %s: not made (the daemon is stopping)", me->id);
            free(me);
            continue;
        }
        me->stage = "recording"; /* make_run moves it on */
        pthread_mutex_unlock(&e->mu);
        char err[512] = "";
        cz_status st = make_run(e, me, err, sizeof err);
        if (st)
            cz_log(CZ_LOG_ERROR, "engine", "key %s: making it from preset %s failed: %s", me->id,
                   me->plan.p->name, err[0] ? err : cz_strerror(st));
        free(me);
        pthread_mutex_lock(&e->mu);
    }
    e->maker_running = 0;
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

cz_status cz_engine_key_make_background(cz_engine *e, const char *id, const char *preset,
                                        uint64_t seed, int seeded, char *err, size_t err_len)
{
    make_plan m;
    cz_status st = plan_make(&m, preset, err, err_len);
    if (st)
        return st;
    if (!id)
        id = m.p->name;
    if (!valid_id(id, sizeof ((key *)0)->id)) {
        ce_set_err(err, err_len, "key id must be 1-127 characters of [A-Za-z0-9._-]");
        return CZ_ERR_ARG;
    }
    struct loading *me = calloc(1, sizeof *me);
    if (!me) {
        ce_set_err(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    me->background = 1;
    me->stage = "queued";
    int same = 0;
    pthread_mutex_lock(&e->mu);
    if (e->stopping || e->draining) {
        ce_set_err(err, err_len, "the daemon is shutting down");
        st = CZ_ERR_BUSY;
    } else {
        st = make_register_locked(e, me, id, &m, seed, seeded, &same, err, err_len);
    }
    if (!st && !same && !e->maker_running) {
        /* a thread that ran dry has left the mutex for good: join it */
        if (e->maker_started)
            pthread_join(e->maker_th, NULL);
        e->maker_started = 0;
        if (pthread_create(&e->maker_th, NULL, maker_main, e) != 0) {
            for (struct loading **pp = &e->loading; *pp; pp = &(*pp)->next)
                if (*pp == me) {
                    *pp = me->next;
                    break;
                }
            ce_set_err(err, err_len, "cannot start the key thread");
            st = CZ_ERR_NOMEM;
        } else {
            e->maker_started = e->maker_running = 1;
        }
    }
    pthread_mutex_unlock(&e->mu);
    if (st || same)
        free(me);
    return st;
}

void ce_keys_stop(cz_engine *e)
{
    pthread_mutex_lock(&e->mu);
    int started = e->maker_started;
    e->maker_started = 0;
    pthread_mutex_unlock(&e->mu);
    if (started)
        pthread_join(e->maker_th, NULL);
}

void ce_keys_free_failures(cz_engine *e)
{
    for (struct key_failure *f = e->key_failures, *nx; f; f = nx) {
        nx = f->next;
        free(f);
    }
    e->key_failures = NULL;
}

int ce_key_unavailable_locked(cz_engine *e, const char *id, char *err, size_t err_len)
{
    struct loading *l = find_loading_locked(e, id);
    if (l) {
        double now = engine_ms(e);
        if (l->plan.p)
            ce_set_err(err, err_len, "key '%s' is being made from preset %s (%s, %.0f s so far); "
                       "retry later", id, l->plan.p->name, l->stage, (now - l->t0) / 1e3);
        else
            ce_set_err(err, err_len, "key '%s' is being loaded (%.0f s so far); retry later", id,
                       (now - l->t0) / 1e3);
        return 1;
    }
    for (struct key_failure *f = e->key_failures; f; f = f->next)
        if (!strcmp(f->id, id)) {
            ce_set_err(err, err_len, "key '%s': making it from preset %s failed: %s", id,
                       f->preset, f->error);
            return 2;
        }
    return 0;
}

void ce_key_spans_json_locked(cz_engine *e, json_t *spans, double now)
{
    size_t cap = sizeof e->key_spans / sizeof e->key_spans[0];
    size_t n = e->key_span_n < cap ? e->key_span_n : cap;
    for (size_t i = e->key_span_n - n; i < e->key_span_n; i++) {
        const struct key_span *s = &e->key_spans[i % cap];
        json_array_append_new(spans, json_pack("{s:s, s:s, s:s, s:I, s:i, s:i, s:f, s:f, s:b}",
                                               "job", "", "key", s->id, "stage", s->what, "seq",
                                               (json_int_t)0, "partition", -1, "worker", -1,
                                               "start_ms", s->t0, "end_ms", s->t1, "ok", s->ok));
    }
    for (struct loading *l = e->loading; l; l = l->next)
        if (strcmp(l->stage, "queued"))
            json_array_append_new(spans, json_pack("{s:s, s:s, s:s, s:I, s:i, s:i, s:f, s:f, s:b}",
                                                   "job", "", "key", l->id, "stage",
                                                   l->plan.p ? "key_make" : "key_load", "seq",
                                                   (json_int_t)0, "partition", -1, "worker", -1,
                                                   "start_ms", l->t0, "end_ms", now, "running", 1));
}

char *cz_engine_key_vk_json(cz_engine *e, const char *id)
{
    pthread_mutex_lock(&e->mu);
    key *k = ce_find_key_locked(e, id ? id : "");
    if (k && k->bn254) {
        cz_bn254_vk b = *k->bvk;
        b.ic = malloc(((size_t)b.n_public + 1) * sizeof *b.ic);
        if (b.ic)
            memcpy(b.ic, k->bvk->ic, ((size_t)b.n_public + 1) * sizeof *b.ic);
        pthread_mutex_unlock(&e->mu);
        char *s = b.ic ? cz_bn254_vk_to_json(&b) : NULL;
        free(b.ic);
        return s;
    }
    cz_vk v = {0};
    if (k) {
        v = *k->vk;
        v.ic = malloc(((size_t)v.n_public + 1) * sizeof *v.ic);
        if (v.ic)
            memcpy(v.ic, k->vk->ic, ((size_t)v.n_public + 1) * sizeof *v.ic);
    }
    pthread_mutex_unlock(&e->mu);
    if (!k || !v.ic)
        return NULL;
    cz_fp12 ab;
    cz_pairing(&ab, &v.alpha1, &v.beta2);
    char *s = cz_vk_to_json(&v, &ab);
    free(v.ic);
    return s;
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
    if (!k && find_loading_locked(e, id ? id : "")) {
        pthread_mutex_unlock(&e->mu);
        ce_set_err(err, err_len, "key '%s' is being loaded or made; delete it once it is in", id);
        return CZ_ERR_BUSY;
    }
    if (!k) {
        int had = forget_failure_locked(e, id ? id : ""); /* a failed make: its record */
        pthread_mutex_unlock(&e->mu);
        if (had)
            return CZ_OK;
        ce_set_err(err, err_len, "unknown key '%s'", id ? id : "");
        return CZ_ERR_NOT_FOUND;
    }
    if (k->users > 0) {
        int u = k->users, up = !strcmp(k->gpu, "uploading");
        pthread_mutex_unlock(&e->mu);
        if (up && u == 1)
            ce_set_err(err, err_len, "key '%s' is being uploaded to the GPU; delete it once it is there", id);
        else
            ce_set_err(err, err_len, "key '%s' is in use by %d job(s)", id, u - up);
        return CZ_ERR_BUSY;
    }
    unlink_key_locked(e, k);
    pthread_mutex_unlock(&e->mu);
    ce_key_free(k);
    return CZ_OK;
}

json_t *ce_key_json_locked(cz_engine *e, const key *k)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:i, s:f, s:f, s:I, s:I, s:I, s:f}", "id", k->id,
                     "path", k->path, "tier", k->tier, "bytes", (json_int_t)k->bytes, "users",
                     k->users, "last_use_s_ago", (ce_now_ms() - k->last_use) / 1e3, "load_ms",
                     k->load_ms, "n_vars", (json_int_t)k->n_vars, "n_public",
                     (json_int_t)k->n_public, "domain_size",
                     (json_int_t)k->domain_size, "loaded_s_ago",
                     (ce_now_ms() - k->loaded_at) / 1e3);
    if (k->preset[0]) { /* made from a preset: no file */
        json_object_set_new(o, "path", json_null());
        json_object_set_new(o, "preset", json_string(k->preset));
        json_object_set_new(o, "seed", k->seeded ? json_integer((json_int_t)k->seed) : json_null());
    } else {
        json_object_set_new(o, "preset", json_null());
    }
    json_object_set_new(o, "compact", json_boolean(k->zkey && k->zkey->compact));
    json_object_set_new(o, "curve", json_string(k->bn254 ? "bn128" : "bls12381"));
    json_object_set_new(o, "state", json_string("ready"));
    json_object_set_new(o, "gpu", json_string(k->gpu[0] ? k->gpu : "host"));
    json_object_set_new(o, "gpu_upload_ms", json_real(k->gpu_upload_ms));
    json_object_set_new(o, "gpu_upload_bytes", json_integer((json_int_t)k->gpu_upload_bytes));
    return o;
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

json_t *cz_engine_keys_list_json(cz_engine *e)
{
    json_t *a = json_array();
    pthread_mutex_lock(&e->mu);
    double now = engine_ms(e);
    for (key *k = e->keys; k; k = k->next)
        json_array_append_new(a, ce_key_json_locked(e, k));
    for (struct loading *l = e->loading; l; l = l->next) {
        json_t *o = json_pack("{s:s, s:s, s:s, s:f, s:f, s:I}", "id", l->id, "state", "loading",
                              "stage", l->stage, "elapsed_s", (now - l->t0) / 1e3, "stage_s",
                              (now - l->stage_t0) / 1e3, "bytes", (json_int_t)l->bytes);
        json_object_set_new(o, "path", l->path[0] ? json_string(l->path) : json_null());
        json_object_set_new(o, "preset", l->plan.p ? json_string(l->plan.p->name) : json_null());
        if (l->plan.p)
            json_object_set_new(o, "seed", l->seeded ? json_integer((json_int_t)l->seed) : json_null());
        json_array_append_new(a, o);
    }
    for (struct key_failure *f = e->key_failures; f; f = f->next)
        json_array_append_new(a, json_pack("{s:s, s:s, s:n, s:s, s:o, s:s, s:f}", "id", f->id,
                                           "state", "failed", "path", "preset", f->preset, "seed",
                                           f->seeded ? json_integer((json_int_t)f->seed) : json_null(),
                                           "error", f->error, "failed_s_ago", (now - f->at) / 1e3));
    pthread_mutex_unlock(&e->mu);
    return a;
}
