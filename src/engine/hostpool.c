/*
 * hostpool.c: the pinned host buffer pool (see hostpool.h for the design).
 */
#include "engine/hostpool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/log.h"
#include "util/rng.h"

#define HP_PAGE ((size_t)4096)
#define HP_MAX_BES 64
/* the wiper wipes in pieces of this size, and between two looks whether a
   get_fill() waits for the buffer it holds */
#define HP_WIPE_PIECE ((size_t)64 << 20)

/* L_DIRTY: given back, not yet wiped (the wiper's queue) */
enum { L_NONE, L_USE, L_IDLE, L_RETIRED, L_DIRTY, L_COUNT };

typedef struct {
    cz_hostbuf *head, *tail;
    uint64_t n, bytes;
} hp_list;

struct cz_hostpool {
    pthread_mutex_t mu;
    pthread_cond_t cv;              /* busy dropped, or a wipe done */
    pthread_cond_t cv_dirty;        /* the wiper has work, or stop */
    pthread_t wiper;
    int wiper_on, stop;
    cz_hostbuf *in_wipe;            /* the buffer the wiper is wiping (on no list) */
    int claims;                     /* get_fill() callers waiting for in_wipe */
    cz_backend *bes[HP_MAX_BES];
    int n_bes, n_pin;               /* backends; of which with host_pin */
    int detached, busy, pin_fail_logged;
    size_t max_idle;
    hp_list lists[L_COUNT];         /* indexed by L_* */
    uint64_t used_bytes;            /* sum of `used` over lent buffers */
    uint64_t pinned_bytes, allocations;
    uint64_t handovers;             /* wipes stopped for a get_fill() */
};

/* ---- lists (pool mutex held) ---- */

static void l_push(cz_hostpool *p, int which, cz_hostbuf *b)
{
    hp_list *l = &p->lists[which];
    b->list = which;
    b->next = NULL;
    b->prev = l->tail;
    if (l->tail)
        l->tail->next = b;
    else
        l->head = b;
    l->tail = b;
    l->n++;
    l->bytes += b->cap;
}

static void l_unlink(cz_hostpool *p, cz_hostbuf *b)
{
    hp_list *l = &p->lists[b->list];
    if (b->prev)
        b->prev->next = b->next;
    else
        l->head = b->next;
    if (b->next)
        b->next->prev = b->prev;
    else
        l->tail = b->prev;
    l->n--;
    l->bytes -= b->cap;
    b->next = b->prev = NULL;
    b->list = L_NONE;
}

static size_t round_page(size_t bytes)
{
    return bytes ? (bytes + HP_PAGE - 1) / HP_PAGE * HP_PAGE : HP_PAGE;
}

/* The free buffer get() lends for `need` (page-rounded) bytes: the
   smallest that fits, at most twice the size. */
static bool fits(const cz_hostbuf *b, size_t need)
{
    return b->cap >= need && b->cap / 2 <= need;
}

static cz_hostbuf *best_fit_in(cz_hostpool *p, int which, size_t need)
{
    cz_hostbuf *best = NULL;
    for (cz_hostbuf *b = p->lists[which].head; b; b = b->next)
        if (fits(b, need) && (!best || b->cap < best->cap))
            best = b;
    return best;
}

static cz_hostbuf *best_fit_locked(cz_hostpool *p, size_t need)
{
    return best_fit_in(p, L_IDLE, need);
}

/* b (on no list, wiped) becomes free; the oldest free ones beyond
   max_idle retire */
static void make_idle_locked(cz_hostpool *p, cz_hostbuf *b)
{
    l_push(p, L_IDLE, b);
    while (p->lists[L_IDLE].n > p->max_idle) { /* retire the oldest: freed later */
        cz_hostbuf *old = p->lists[L_IDLE].head;
        l_unlink(p, old);
        l_push(p, L_RETIRED, old);
    }
}

/* The wiper: wipes given-back buffers, then frees them for get(). At
   stop it ends once its queue is empty. */
static void *wiper_main(void *arg)
{
    cz_hostpool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && !p->lists[L_DIRTY].head)
            pthread_cond_wait(&p->cv_dirty, &p->mu);
        cz_hostbuf *b = p->lists[L_DIRTY].head;
        if (!b)
            break; /* stop, and nothing left to wipe */
        l_unlink(p, b);
        p->in_wipe = b;
        pthread_mutex_unlock(&p->mu);
        /* the witness is secret: wiped piece by piece, and given back
           unwiped to a get_fill() that waits for it (its holder
           overwrites what it asked for and wipes the rest itself) */
        size_t done = 0;
        int claimed = 0;
        while (done < b->used && !claimed) {
            size_t n = b->used - done < HP_WIPE_PIECE ? b->used - done : HP_WIPE_PIECE;
            cz_wipe((char *)b->data + done, n);
            done += n;
            pthread_mutex_lock(&p->mu);
            claimed = done < b->used && p->claims > 0;
            pthread_mutex_unlock(&p->mu);
        }
        pthread_mutex_lock(&p->mu);
        p->in_wipe = NULL;
        if (claimed) {
            p->handovers++;
            l_push(p, L_DIRTY, b); /* `used` unchanged: the next holder wipes beyond its bytes */
            pthread_cond_broadcast(&p->cv);
            /* the claimers take it (or give up) before the wiper looks again */
            while (p->claims > 0 && !p->stop)
                pthread_cond_wait(&p->cv_dirty, &p->mu);
        } else {
            b->used = 0;
            make_idle_locked(p, b);
            pthread_cond_broadcast(&p->cv);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Take b out of the pool onto *out (a singly linked list for release). */
static void drop_locked(cz_hostpool *p, cz_hostbuf *b, cz_hostbuf **out)
{
    l_unlink(p, b);
    if (b->pinned)
        p->pinned_bytes -= b->cap;
    b->next = *out;
    *out = b;
}

/* Detach every retired buffer and, while fewer than `bytes` bytes are
   detached and `idle` is set, the oldest free ones. A non-empty list
   counts as busy until released. */
static cz_hostbuf *detach_locked(cz_hostpool *p, uint64_t bytes, int idle)
{
    cz_hostbuf *out = NULL;
    uint64_t got = 0;
    while (p->lists[L_RETIRED].head) {
        got += p->lists[L_RETIRED].head->cap;
        drop_locked(p, p->lists[L_RETIRED].head, &out);
    }
    while (idle && got < bytes && p->lists[L_IDLE].head) {
        got += p->lists[L_IDLE].head->cap;
        drop_locked(p, p->lists[L_IDLE].head, &out);
    }
    if (out)
        p->busy++;
    return out;
}

static void unpin(cz_hostpool *p, cz_hostbuf *b)
{
    for (int d = 0; d < p->n_bes && b->pinned; d++)
        if (b->pinned & (1ull << d)) {
            p->bes[d]->host_unpin(p->bes[d], b->data);
            b->pinned &= ~(1ull << d);
        }
}

static void buf_free(cz_hostbuf *b)
{
    free(b->data);
    free(b);
}

/* ---- public ---- */

cz_hostpool *cz_hostpool_create(cz_backend *const *bes, int n_bes, size_t max_idle)
{
    cz_hostpool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_cond_init(&p->cv_dirty, NULL);
    p->max_idle = max_idle;
    p->wiper_on = pthread_create(&p->wiper, NULL, wiper_main, p) == 0; /* else put() wipes */
    for (int d = 0; d < n_bes && p->n_bes < HP_MAX_BES; d++) {
        p->bes[p->n_bes++] = bes[d];
        if (bes[d] && bes[d]->host_pin && bes[d]->host_unpin)
            p->n_pin++;
    }
    return p;
}

static cz_hostbuf *get_impl(cz_hostpool *p, size_t bytes, int pin, int fill)
{
    if (bytes > SIZE_MAX - HP_PAGE)
        return NULL;
    size_t need = round_page(bytes);

    pthread_mutex_lock(&p->mu);
    cz_hostbuf *dead = detach_locked(p, 0, 0); /* retired buffers: free them now */
    cz_hostbuf *best;
    size_t from = 0, stale = 0; /* bytes [from, stale) of a given-back buffer to wipe here */
    int claiming = 0;           /* a get_fill() waiting for the wiper's buffer asks for it */
    for (;;) {
        /* a holder that overwrites `bytes` bytes takes a given-back
           buffer first (its wipe is then only of the tail beyond) */
        if (fill && (best = best_fit_in(p, L_DIRTY, need))) {
            from = bytes;
            stale = best->used > bytes ? best->used : 0;
            break;
        }
        if ((best = best_fit_locked(p, need)))
            break;
        if ((best = best_fit_in(p, L_DIRTY, need))) { /* not wiped yet: wipe it here */
            stale = best->used;
            break;
        }
        if (!p->in_wipe || !fits(p->in_wipe, need))
            break;
        if (fill && !claiming) { /* the wiper stops and gives it back unwiped */
            claiming = 1;
            p->claims++;
        }
        pthread_cond_wait(&p->cv, &p->mu); /* the wiper frees it in a moment */
    }
    if (claiming && --p->claims == 0)
        pthread_cond_signal(&p->cv_dirty); /* the wiper may go on */
    if (best) {
        l_unlink(p, best);
        l_push(p, L_USE, best);
        best->used = bytes;
        p->used_bytes += bytes;
        pthread_mutex_unlock(&p->mu);
        cz_hostpool_release(p, dead);
        if (stale > from)
            cz_wipe((char *)best->data + from, stale - from); /* the last holder's witness */
        return best;
    }
    pin = pin && !p->detached && p->n_pin > 0;
    if (pin)
        p->busy++; /* the backends stay until this pin is recorded */
    pthread_mutex_unlock(&p->mu);
    cz_hostpool_release(p, dead);

    cz_hostbuf *b = calloc(1, sizeof *b);
    void *data = b ? aligned_alloc(HP_PAGE, need) : NULL;
    cz_status fail = CZ_OK;
    int fail_dev = -1;
    if (data && pin) {
        for (int d = 0; d < p->n_bes; d++) {
            cz_backend *be = p->bes[d];
            if (!be || !be->host_pin || !be->host_unpin)
                continue;
            cz_status st = be->host_pin(be, data, need);
            if (st == CZ_OK) {
                b->pinned |= 1ull << d;
            } else if (!fail) {
                fail = st;
                fail_dev = d;
            }
        }
    }
    pthread_mutex_lock(&p->mu);
    int log_fail = fail && !p->pin_fail_logged;
    if (log_fail)
        p->pin_fail_logged = 1;
    if (data) {
        b->data = data;
        b->cap = need;
        b->used = bytes;
        l_push(p, L_USE, b);
        p->used_bytes += bytes;
        p->allocations++;
        if (b->pinned)
            p->pinned_bytes += need;
    }
    if (pin && --p->busy == 0)
        pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (log_fail)
        cz_log(CZ_LOG_DEBUG, "hostpool",
               "pinning a %zu-byte witness buffer on device %d failed (%s): that device "
               "reads it unpinned (logged once)", need, fail_dev, cz_strerror(fail));
    if (!data) {
        free(b);
        return NULL;
    }
    return b;
}

cz_hostbuf *cz_hostpool_get(cz_hostpool *p, size_t bytes, int pin)
{
    return get_impl(p, bytes, pin, 0);
}

cz_hostbuf *cz_hostpool_get_fill(cz_hostpool *p, size_t bytes, int pin)
{
    return get_impl(p, bytes, pin, 1);
}

void cz_hostpool_put(cz_hostpool *p, cz_hostbuf *b)
{
    if (!b)
        return;
    if (!p->wiper_on)
        cz_wipe(b->data, b->used); /* the witness is secret */
    pthread_mutex_lock(&p->mu);
    l_unlink(p, b);
    p->used_bytes -= b->used;
    if (p->wiper_on) { /* wiped before it is lent again; b->used says how much */
        l_push(p, L_DIRTY, b);
        pthread_cond_signal(&p->cv_dirty);
    } else {
        b->used = 0;
        make_idle_locked(p, b);
    }
    pthread_mutex_unlock(&p->mu);
}

/* bytes given back and not yet free: queued for the wiper or in its hands */
static uint64_t waiting_locked(const cz_hostpool *p)
{
    return p->lists[L_DIRTY].bytes + (p->in_wipe ? p->in_wipe->cap : 0);
}

uint64_t cz_hostpool_charge(cz_hostpool *p, size_t reuse)
{
    pthread_mutex_lock(&p->mu);
    uint64_t c = p->lists[L_IDLE].bytes + p->lists[L_RETIRED].bytes + waiting_locked(p) +
                 (p->lists[L_USE].bytes - p->used_bytes);
    if (reuse && reuse <= SIZE_MAX - HP_PAGE) {
        const cz_hostbuf *b = best_fit_locked(p, round_page(reuse));
        if (b)
            c -= reuse < b->cap ? reuse : b->cap; /* its slack stays counted */
    }
    pthread_mutex_unlock(&p->mu);
    return c;
}

cz_hostbuf *cz_hostpool_trim(cz_hostpool *p, uint64_t bytes)
{
    pthread_mutex_lock(&p->mu);
    cz_hostbuf *out = detach_locked(p, bytes, 1);
    pthread_mutex_unlock(&p->mu);
    return out;
}

void cz_hostpool_release(cz_hostpool *p, cz_hostbuf *list)
{
    if (!list)
        return;
    while (list) {
        cz_hostbuf *nx = list->next;
        unpin(p, list); /* the backends are alive: detach() waits for busy */
        buf_free(list);
        list = nx;
    }
    pthread_mutex_lock(&p->mu);
    if (--p->busy == 0)
        pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void cz_hostpool_stats_get(cz_hostpool *p, cz_hostpool_stats *o)
{
    pthread_mutex_lock(&p->mu);
    const hp_list *u = &p->lists[L_USE], *i = &p->lists[L_IDLE], *r = &p->lists[L_RETIRED];
    uint64_t wn = p->lists[L_DIRTY].n + (p->in_wipe != NULL), wb = waiting_locked(p);
    o->buffers = u->n + i->n + r->n + wn;
    o->bytes = u->bytes + i->bytes + r->bytes + wb;
    o->pinned_bytes = p->pinned_bytes;
    o->in_use = u->n;
    o->in_use_bytes = u->bytes;
    o->idle = i->n + r->n + wn;
    o->idle_bytes = i->bytes + r->bytes + wb;
    o->charge = i->bytes + r->bytes + wb + (u->bytes - p->used_bytes);
    o->allocations = p->allocations;
    o->handovers = p->handovers;
    o->max_idle = p->max_idle;
    pthread_mutex_unlock(&p->mu);
}

void cz_hostpool_detach(cz_hostpool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (p->detached) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    p->detached = 1;
    while (p->busy > 0 || p->in_wipe) /* the wiper's buffer is on no list: let it land */
        pthread_cond_wait(&p->cv, &p->mu);
    /* At shutdown only (no proof runs): unpinning under the pool mutex
       keeps a concurrent put or get from seeing a half-unpinned buffer. */
    for (int l = L_USE; l < L_COUNT; l++)
        for (cz_hostbuf *b = p->lists[l].head; b; b = b->next)
            unpin(p, b);
    p->pinned_bytes = 0;
    pthread_mutex_unlock(&p->mu);
}

void cz_hostpool_destroy(cz_hostpool *p)
{
    if (!p)
        return;
    cz_hostpool_detach(p);
    if (p->wiper_on) { /* it wipes what is queued, then ends */
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_signal(&p->cv_dirty);
        pthread_mutex_unlock(&p->mu);
        pthread_join(p->wiper, NULL);
    }
    for (int l = L_USE; l < L_COUNT; l++) {
        cz_hostbuf *b = p->lists[l].head;
        while (b) {
            cz_hostbuf *nx = b->next;
            cz_wipe(b->data, b->used); /* a buffer still lent: wipe it too */
            buf_free(b);
            b = nx;
        }
    }
    pthread_cond_destroy(&p->cv);
    pthread_cond_destroy(&p->cv_dirty);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
