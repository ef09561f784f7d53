/*
 * threadpool.h: a small pthread pool with one operation, a blocking
 * parallel for-loop.
 *
 * DESIGN. A pool of n threads is n - 1 worker threads plus the caller: the
 * thread that calls cz_parallel_for works on its own loop too, so a pool of
 * 1 starts no thread and runs everything inline. A loop over n_items is cut
 * into chunks of `chunk` items; each call of fn gets one chunk [begin, end)
 * (begin a multiple of chunk) and a worker index in [0, pool size) that is
 * unique among the threads running that loop at that moment, so per-worker
 * scratch can be indexed by it. Chunks are handed out by an atomic counter
 * (dynamic load balance). Several threads may run loops on one pool at once:
 * loops queue and workers help the oldest first; each caller always makes
 * progress on its own loop. A cz_parallel_for called from inside fn (nested)
 * runs inline on the calling thread with worker index 0, so layered code
 * (prover -> MSM -> field batch) can use the pool without deadlock.
 *
 * Passing "threads = N" down: functions that can run in parallel take a
 * `cz_threadpool *pool` argument; NULL means one thread (inline). Callers
 * that want N threads create a pool of N, or use cz_threadpool_global()
 * (sized from the CZ_THREADS environment variable, else the number of
 * online CPUs; created on first use, never destroyed).
 */
#ifndef CZ_THREADPOOL_H
#define CZ_THREADPOOL_H

#include <stddef.h>

typedef struct cz_threadpool cz_threadpool;

/* fn(ctx, begin, end, worker): process items [begin, end). */
typedef void (*cz_parallel_fn)(void *ctx, size_t begin, size_t end, int worker);

/* A pool of n_threads (caller included); n_threads <= 0: the number of
   online CPUs. NULL if threads or memory cannot be had. */
cz_threadpool *cz_threadpool_create(int n_threads);
/* Joins the workers. No loop may be running on it. NULL and the global
   pool are no-ops. */
void cz_threadpool_destroy(cz_threadpool *pool);
/* Number of threads, caller included; 1 for NULL. */
int cz_threadpool_size(const cz_threadpool *pool);
/* The process-wide pool (CZ_THREADS or nproc threads), created on first
   use; NULL only if it could not be created. */
cz_threadpool *cz_threadpool_global(void);
/* The number of online CPUs (at least 1). */
int cz_cpu_count(void);

/* Run fn over [0, n_items) in chunks of `chunk` items (0 = pick one that
   gives each thread several chunks) and return when all are done. pool
   NULL, a pool of 1, or a nested call: runs inline, in order. */
void cz_parallel_for(cz_threadpool *pool, size_t n_items, size_t chunk,
                     cz_parallel_fn fn, void *ctx);

#endif
