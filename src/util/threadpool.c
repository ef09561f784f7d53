/*
 * threadpool.c: the pthread pool of threadpool.h.
 *
 * DESIGN. Loops are jobs living on their caller's stack, linked into the
 * pool's queue under one mutex. A worker takes the oldest job that still
 * has unclaimed chunks, registers itself (refs, a worker index), claims
 * chunks with an atomic counter without the lock, and deregisters. The
 * caller claims chunks of its own job the same way, then unlinks the job
 * (so no new worker can join) and waits until refs drops to zero: every
 * claimed chunk has then finished, and the job's memory may go.
 */
#include "util/threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct cz_job {
    cz_parallel_fn fn;
    void *ctx;
    size_t n_items, chunk, n_chunks;
    atomic_size_t next;      /* next chunk to claim */
    int refs;                /* workers inside (under pool->mu) */
    int next_id;             /* worker index for the next joiner */
    struct cz_job *link;     /* queue order */
} cz_job;

struct cz_threadpool {
    int n;                   /* threads, caller included */
    pthread_t *threads;      /* n - 1 of them */
    pthread_mutex_t mu;
    pthread_cond_t work;     /* a job was queued, or stop */
    pthread_cond_t done;     /* a worker left a job */
    cz_job *head;
    bool stop;
};

/* > 0 on pool workers and on callers inside their own loop: nested loops
   then run inline. */
static _Thread_local int tl_depth;

int cz_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void run_chunks(cz_job *job, int worker)
{
    size_t c;
    while ((c = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed)) < job->n_chunks) {
        size_t b = c * job->chunk;
        size_t e = b + job->chunk < job->n_items ? b + job->chunk : job->n_items;
        job->fn(job->ctx, b, e, worker);
    }
}

static bool job_exhausted(cz_job *job)
{
    return atomic_load_explicit(&job->next, memory_order_relaxed) >= job->n_chunks;
}

/* Unlink `job` from the queue; pool->mu held. */
static void unlink_job(cz_threadpool *p, cz_job *job)
{
    for (cz_job **pp = &p->head; *pp; pp = &(*pp)->link) {
        if (*pp == job) {
            *pp = job->link;
            return;
        }
    }
}

/* The oldest job with chunks left, dropping exhausted ones; pool->mu held. */
static cz_job *take_job(cz_threadpool *p)
{
    while (p->head && job_exhausted(p->head))
        p->head = p->head->link;
    return p->head;
}

static void *worker_main(void *arg)
{
    cz_threadpool *p = arg;
    tl_depth = 1;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        cz_job *job = NULL;
        while (!p->stop && !(job = take_job(p)))
            pthread_cond_wait(&p->work, &p->mu);
        if (p->stop)
            break;
        int id = job->next_id++;
        job->refs++;
        pthread_mutex_unlock(&p->mu);
        run_chunks(job, id);
        pthread_mutex_lock(&p->mu);
        job->refs--;
        if (job->refs == 0)
            pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cz_threadpool *cz_threadpool_create(int n_threads)
{
    if (n_threads <= 0)
        n_threads = cz_cpu_count();
    cz_threadpool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n_threads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    if (n_threads > 1) {
        p->threads = calloc((size_t)n_threads - 1, sizeof *p->threads);
        if (!p->threads) {
            free(p);
            return NULL;
        }
        for (int i = 0; i < n_threads - 1; i++) {
            if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0) {
                p->n = i + 1; /* join the ones started */
                cz_threadpool_destroy(p);
                return NULL;
            }
        }
    }
    return p;
}

static cz_threadpool *g_pool;

void cz_threadpool_destroy(cz_threadpool *p)
{
    if (!p || p == g_pool) /* the global pool lives as long as the process */
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n - 1; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p);
}

int cz_threadpool_size(const cz_threadpool *p) { return p ? p->n : 1; }
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void global_init(void)
{
    int n = 0;
    const char *env = getenv("CZ_THREADS");
    if (env && *env)
        n = atoi(env);
    g_pool = cz_threadpool_create(n);
}

cz_threadpool *cz_threadpool_global(void)
{
    pthread_once(&g_once, global_init);
    return g_pool;
}

void cz_parallel_for(cz_threadpool *p, size_t n_items, size_t chunk,
                     cz_parallel_fn fn, void *ctx)
{
    if (n_items == 0)
        return;
    int n = cz_threadpool_size(p);
    if (chunk == 0) {
        chunk = n_items / ((size_t)n * 8);
        if (chunk == 0)
            chunk = 1;
    }
    if (n == 1 || tl_depth > 0 || n_items <= chunk) {
        tl_depth++;
        for (size_t b = 0; b < n_items; b += chunk)
            fn(ctx, b, b + chunk < n_items ? b + chunk : n_items, 0);
        tl_depth--;
        return;
    }
    cz_job job = {
        .fn = fn, .ctx = ctx, .n_items = n_items, .chunk = chunk,
        .n_chunks = (n_items + chunk - 1) / chunk, .refs = 0, .next_id = 1,
        .link = NULL,
    };
    atomic_init(&job.next, 0);
    pthread_mutex_lock(&p->mu);
    cz_job **pp = &p->head;
    while (*pp)
        pp = &(*pp)->link;
    *pp = &job;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);

    tl_depth++;
    run_chunks(&job, 0);
    tl_depth--;

    pthread_mutex_lock(&p->mu);
    unlink_job(p, &job);
    while (job.refs > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
