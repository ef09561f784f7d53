/*
 * hostpool.h: a pool of page-locked ("pinned") host buffers for decoded
 * witnesses.
 *
 * DESIGN. A GPU copies pinned host memory at full bus speed and pageable
 * memory at a fraction of it, but pinning costs milliseconds per call, so
 * the engine pins witness buffers once and reuses them across jobs. get()
 * lends the smallest free buffer that fits (best fit, and at most twice
 * the rounded request, so a small witness never holds a large buffer),
 * else allocates page-aligned memory and pins it on every device backend
 * that has a host_pin hook (one backend per device; the CPU backend has
 * none). A buffer whose pinning fails is kept unpinned (one debug line per
 * pool says so). get(pin = 0) allocates a new buffer unpinned: a witness
 * that never crosses the bus whole (a compact key's witness goes up
 * packed, ~2 % of its bytes) is not worth a pin, which for a 4 GiB buffer
 * takes seconds and stalls the device's other work meanwhile.
 *
 * Wiping: put() hands the buffer to the pool's wiper thread, which wipes
 * the bytes the holder asked for (witnesses are secret) and then keeps the
 * buffer free for the next get(), most recently returned last. So put() is
 * quick even for a 4 GiB witness (the wipe takes ~0.4 s alone, seconds
 * beside a synthesis) and the engine may call it under its mutex. A get()
 * that finds no free buffer but one waiting to be wiped takes that one
 * and wipes it itself; one that only fits the buffer being wiped waits for
 * it. Without a wiper thread (its creation failed) put() wipes inline.
 * get_fill() is for a holder that writes every byte it asked for before it
 * reads any (a synthesised witness): it takes a given-back buffer first
 * and skips the wipe of the bytes it will overwrite, where the wipes of
 * 4 GiB buffers held a porep partition's witness stage for 2 s (median)
 * beside the synthesis. When the only buffer that fits is the one being
 * wiped, get_fill() does not wait for the whole wipe (cuzkd's porep
 * partitions waited 1.5 s, median, on the H200): the wiper wipes in 64 MiB
 * pieces, looks between two for a get_fill() waiting, and if one is, gives
 * the buffer back unwiped (the holder wipes what lies beyond its bytes, as
 * with any given-back buffer) and waits for the waiters to take it.
 *
 * Bounds: at most `max_idle` buffers stay free; put() of one more retires
 * the oldest free one. Unpinning is slow and a backend's pin hooks may wait
 * for a running proof, so put() (called under the engine mutex) never
 * unpins: retired buffers wait in a list that the next get() or trim()
 * frees (destroy() at the end). The engine charges the pool's bytes that no job has
 * reserved (free and retired buffers, and the slack of lent ones) against
 * its host memory budget; when a reservation or a key load would not fit,
 * it trims free buffers (trim() detaches them under the engine mutex,
 * release() frees them after the mutex is dropped), so idle buffers never
 * make a job wait (charge(reuse) leaves out the free buffer that a job
 * about to reserve its memory will take, which its estimate counts).
 *
 * Shutdown: detach() unpins every buffer and forgets the backends (call it
 * before destroying them); later buffers are plain memory. destroy() frees
 * everything. Thread safe: one pool mutex, never held across a pin, an
 * unpin or a free (but in detach(), at shutdown, when no proof runs); it
 * may be taken under the engine mutex, never the other way round. `busy`
 * counts threads pinning or unpinning outside the mutex (and trimmed lists
 * not yet released), so detach() waits for them before the backends go
 * away.
 */
#ifndef CZ_HOSTPOOL_H
#define CZ_HOSTPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

typedef struct cz_hostbuf {
    void *data;                     /* page aligned, `cap` bytes */
    size_t cap;                     /* bytes allocated, a multiple of the page */
    size_t used;                    /* bytes asked for by the holder (wiped on put) */
    uint64_t pinned;                /* bit d: pinned on backend d */
    struct cz_hostbuf *next, *prev; /* the pool's lists */
    int list;                       /* which list (pool-private) */
} cz_hostbuf;

typedef struct {
    uint64_t buffers, bytes;        /* everything the pool holds */
    uint64_t pinned_bytes;          /* of which pinned on at least one device */
    uint64_t in_use, in_use_bytes;  /* lent out */
    uint64_t idle, idle_bytes;      /* free, or retired and waiting to be freed */
    uint64_t charge;                /* bytes no holder has reserved: idle + slack of lent */
    uint64_t allocations;           /* buffers allocated since creation */
    uint64_t handovers;             /* wipes the wiper stopped for a waiting get_fill() */
    uint64_t max_idle;
} cz_hostpool_stats;

typedef struct cz_hostpool cz_hostpool;

/* A pool pinning on bes[0..n_bes) where they have host_pin (the array is
   copied; at most 64 are used). NULL: out of memory. */
cz_hostpool *cz_hostpool_create(cz_backend *const *bes, int n_bes, size_t max_idle);
/* A buffer of at least `bytes` bytes, pinned when new and `pin` (a free
   buffer is lent as it is); NULL: out of memory. */
cz_hostbuf *cz_hostpool_get(cz_hostpool *p, size_t bytes, int pin);
/* get() for a holder that writes all `bytes` bytes before it reads any:
   a given-back buffer is lent first, and without the wipe of those bytes. */
cz_hostbuf *cz_hostpool_get_fill(cz_hostpool *p, size_t bytes, int pin);
/* Give a buffer back (wiped by the wiper thread before it is lent again).
   NULL is ignored. Quick: safe under the engine mutex. */
void cz_hostpool_put(cz_hostpool *p, cz_hostbuf *b);
/* Bytes to count against the host memory budget (see DESIGN). reuse != 0:
   less the bytes of the free buffer that a get(reuse) would lend (a
   reservation about to be made counts them already); 0: everything. */
uint64_t cz_hostpool_charge(cz_hostpool *p, size_t reuse);
/* Detach retired buffers and free ones, oldest first, until at least
   `bytes` bytes are detached or none is left. Fast: the list returned
   (NULL: nothing to drop) must be passed to release(), which unpins and
   frees, outside the engine mutex. */
cz_hostbuf *cz_hostpool_trim(cz_hostpool *p, uint64_t bytes);
void cz_hostpool_release(cz_hostpool *p, cz_hostbuf *list);
void cz_hostpool_stats_get(cz_hostpool *p, cz_hostpool_stats *out);
/* Unpin everything and stop pinning (before the backends are destroyed). */
void cz_hostpool_detach(cz_hostpool *p);
/* Detach (if not yet), wipe and free every buffer. NULL is ignored. */
void cz_hostpool_destroy(cz_hostpool *p);

#endif
