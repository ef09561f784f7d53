/*
 * engine_workers.c: the witness and prove workers.
 *
 * DESIGN. A witness worker takes the most urgent pending job once its
 * host memory fits the budget, reads and decodes its witness into a pooled
 * buffer and passes it to the prove queue; a prove worker takes the most
 * urgent proving job, proves it on its device and checks the proof.
 * Locking: a worker holds the engine mutex only to take a job and to
 * record what happened; it reads files, decodes, proves and verifies with
 * it free. The device lock is taken with the engine mutex free and held
 * only around the backend's prove call. See engine.c for the rule.
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
/* workers                                                              */
/* ------------------------------------------------------------------ */

/* The largest .wtns file accepted for a key of v values: the container
   header and two section headers (12 + 12 + 40 + 12 bytes), the values,
   and 4 KiB for sections that writers may add. */
static uint64_t wtns_file_max(uint64_t v)
{
    return 76 + 32 * v + 4096;
}

uint64_t ce_job_mem_estimate(const cz_engine *e, const key *k, const job *j)
{
    /* witness (Montgomery) + a, b, c, h of the domain + the file bytes,
       plus MSM scratch (bounded by a few MiB per thread). A key that its
       last proof found resident on a GPU (every device a GPU) is proven
       there whole, a, b, c and h in device memory: the host then holds the
       witness only (should the key have left the device since, the proof
       takes its vectors on the host for that once). */
    uint64_t n = k->domain_size, v = k->n_vars;
    if (!e->host_prove && !k->bn254 && !strcmp(k->tier, "resident"))
        n = 0;
    /* a witness named by path is read whole before it is decoded: its
       file (at most wtns_file_max bytes, checked before the read); a
       porep partition synthesises into the witness buffer itself, with
       per-challenge scratch (a few MiB a thread: 32 MiB in all) */
    uint64_t file = j->porep ? (32u << 20) : j->wtns_len ? (uint64_t)j->wtns_len : wtns_file_max(v);
    /* a partition of a compact key proved on a GPU: its packed form too */
    uint64_t pack = j->porep && !e->host_prove && k->zkey && k->zkey->compact
                        ? cz_wit_packed_max_bytes(v) : 0;
    return 32 * (v + 4 * n) + file + pack + (8u << 20);
}

/* The policy for files named by `origin`: none for the operator (any
   regular file), the configured folders for local clients, and for
   clients on TCP the same only where tcp_paths allows it. */
const cz_path_policy *ce_policy_for(cz_engine *e, cz_origin origin, int keys)
{
    if (origin == CZ_FROM_OPERATOR)
        return NULL;
    if (origin == CZ_FROM_REMOTE && !e->cfg.tcp_paths)
        return &e->no_pol;
    return keys ? &e->key_pol : &e->wit_pol;
}

/* Read a witness file named by `origin` for a key of n_vars values: the
   path policy, a regular file only (opened non-blocking: a FIFO never
   hangs a worker), and its size checked against what such a witness
   takes before a byte is read or allocated (the job's reservation counts
   wtns_file_max). */
static uint8_t *read_witness(cz_engine *e, const char *path, cz_origin origin, uint32_t n_vars,
                             size_t *len, cz_status *st, char *err, size_t err_len)
{
    int fd;
    uint64_t size;
    *len = 0;
    *st = cz_path_open(&fd, &size, NULL, 0, path, ce_policy_for(e, origin, 0), "witness", err,
                       err_len);
    if (*st)
        return NULL;
    uint64_t max = wtns_file_max(n_vars);
    if (e->cfg.max_witness_bytes && max > e->cfg.max_witness_bytes)
        max = e->cfg.max_witness_bytes;
    if (size > max) {
        close(fd);
        *st = CZ_ERR_WITNESS;
        ce_set_err(err, err_len, "%s: %llu bytes, more than a witness of the key's %u values takes "
                "(%llu)", path, (unsigned long long)size, n_vars, (unsigned long long)max);
        return NULL;
    }
    cz_blob b;
    *st = cz_blob_read_fd(&b, fd, size, path, err, err_len);
    close(fd);
    if (*st)
        return NULL;
    *len = b.len;
    return b.owned; /* freed with free() */
}

/* The witness stage: take the most urgent pending job once its memory
   fits, read and check its witness, pass it to the prove queue. */
void *ce_witness_main(void *arg)
{
    cz_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    int me = e->witness_started++;
    for (;;) {
        job *j = NULL;
        while (!e->stopping) {
            j = ce_q_peek(&e->pending);
            /* The witness queue's cap: no new witness while those being
               made and those waiting for a prove worker fill it. A prove
               worker taking one (or a queued one ending) wakes us; the
               prove workers never wait for the witness stage, so the
               queue always drains. The most urgent pending job is the
               one taken when a place frees, so none starves. */
            if (j && e->witness_cap && e->witness_busy + e->prove.n >= e->witness_cap) {
                e->witness_cap_waits++;
                j = NULL;
            }
            if (j) {
                /* An uploaded witness's buffer is held since submission
                   (j->mem): only the rest of the estimate is new. */
                uint64_t held = j->mem;
                uint64_t need = ce_job_mem_estimate(e, j->key, j) - held;
                /* Pooled witness buffers count too, less the one this job
                   will reuse (its estimate has the witness already). */
                size_t reuse = j->wbuf ? 0 : (size_t)j->key->n_vars * sizeof(cz_fr);
                uint64_t use = e->mem_jobs + e->mem_keys + cz_hostpool_charge(e->pool, reuse);
                if (use + need > e->mem_budget) {
                    /* Idle pooled buffers give way: free them rather than
                       let the head wait for memory that they hold. */
                    cz_hostbuf *drop = cz_hostpool_trim(e->pool, use + need - e->mem_budget);
                    if (drop) {
                        pthread_mutex_unlock(&e->mu);
                        cz_hostpool_release(e->pool, drop);
                        pthread_mutex_lock(&e->mu);
                        continue; /* look again: the queue may have changed */
                    }
                }
                /* Strict priority: the head waits for memory rather than
                   letting later jobs pass it. A job that alone exceeds
                   the budget still runs once nothing else holds memory,
                   so nothing starves. */
                if (e->mem_jobs == held || use + need <= e->mem_budget) {
                    ce_q_remove(&e->pending, j);
                    j->mem = held + need;
                    e->mem_jobs += need;
                    e->witness_busy++;
                    break;
                }
                j = NULL;
            }
            pthread_cond_wait(&e->cv_pending, &e->mu);
        }
        if (e->stopping)
            break;
        j->state = CZ_JOB_WITNESS;
        j->t[ST_QUEUE][1] = j->t[ST_WITNESS][0] = ce_now_ms() - e->t0;
        ce_span_add(e, j, ST_QUEUE, -1);
        ce_hist_add(&e->hist[ST_QUEUE], (j->t[ST_QUEUE][1] - j->t[ST_QUEUE][0]) / 1e3);
        uint32_t n_vars = j->key->n_vars;
        int bn254 = j->key->bn254;
        /* a compact key's witness goes to a GPU packed, a bn128 key's to
           the CPU: neither is worth a pin */
        int pin = !bn254 && !j->key->zkey->compact;
        /* ... and is packed here, beside the GPU's work on other proofs,
           rather than by the backend while it holds the device */
        int pack = !bn254 && !e->host_prove && j->key->zkey->compact;
        char *path = j->wtns_path ? strdup(j->wtns_path) : NULL;
        cz_origin origin = j->origin;
        /* a porep partition: the job's c1 (kept until all its partitions
           end, so readable with the mutex free) */
        const cz_porep_params *porep = j->porep;
        const cz_c1 *c1 = j->parent ? j->parent->c1 : j->c1;
        unsigned part = (unsigned)j->part;
        pthread_mutex_unlock(&e->mu);

        char err[512] = "";
        cz_status st = CZ_OK;
        size_t len = 0;
        uint8_t *data = NULL;
        if (path)
            data = read_witness(e, path, origin, n_vars, &len, &st, err, sizeof err);
        cz_hostbuf *wb = NULL;
        cz_wit_packed *wp = NULL;
        uint32_t nw = 0;
        if (porep) {
            /* Synthesise partition `part` into a pooled (pinned) buffer,
               the challenges in parallel on the engine's pool. The
               synthesis assigns every value (cz_cs_finish checks the
               count), so the buffer needs no wipe first: get_fill. */
            cz_porep_partition in;
            double t0 = ce_now_ms();
            if (!(wb = cz_hostpool_get_fill(e->pool, (size_t)n_vars * sizeof(cz_fr), pin))) {
                ce_set_err(err, sizeof err, "partition %u: out of memory", part);
                st = CZ_ERR_NOMEM;
            } else {
                double t1 = ce_now_ms();
                if ((st = cz_c1_partition(c1, part, &in, err, sizeof err)) ||
                    (st = cz_porep_witness(porep, &in, e->synth, wb->data, n_vars, err, sizeof err))) {
                    cz_hostpool_put(e->pool, wb); /* wipes */
                    wb = NULL;
                } else {
                    nw = n_vars;
                    double t2 = ce_now_ms();
                    if (pack && (wp = malloc(sizeof *wp)) && !cz_wit_pack(wp, wb->data, nw, e->synth)) {
                        free(wp); /* not worth packing: the backend sends it whole */
                        wp = NULL;
                    }
                    /* where the stage's time goes: getting the buffer (a
                       wait for the wiper, or a fresh allocation), the
                       synthesis on the shared pool (a fresh buffer's pages
                       fault in as it writes) and the packing */
                    cz_log(CZ_LOG_INFO, "engine",
                           "partition %u: witness buffer %.1f ms, synthesis %.1f ms, packed %.1f ms (%zu others)",
                           part, t1 - t0, t2 - t1, ce_now_ms() - t2, wp ? wp->n_other : (size_t)0);
                }
            }
        }
        if (!st && path) {
            /* Decode into a pooled (pinned) buffer; the parser checks the
               count against the key before it writes a value. */
            cz_bn254_fr *bw = NULL;
            if (!(wb = cz_hostpool_get(e->pool, (size_t)n_vars * sizeof(cz_fr), pin))) {
                ce_set_err(err, sizeof err, "%s: out of memory", path);
                st = CZ_ERR_NOMEM;
            } else if (bn254) { /* a bn128 key: a bn128 witness of its n_vars values */
                if ((st = cz_bn254_wtns_parse(&bw, &nw, data, len, path, n_vars, err,
                                              sizeof err))) {
                    cz_hostpool_put(e->pool, wb);
                    wb = NULL;
                } else {
                    memcpy(wb->data, bw, (size_t)nw * sizeof *bw);
                }
                cz_bn254_wtns_free(bw, nw);
            } else if ((st = cz_wtns_parse_into(wb->data, n_vars, &nw, data, len, path, n_vars,
                                                err, sizeof err))) {
                cz_hostpool_put(e->pool, wb);
                wb = NULL;
            }
        }
        if (data) {
            cz_wipe(data, len);
            free(data);
        }
        free(path);

        pthread_mutex_lock(&e->mu);
        ce_stage_end(e, j, ST_WITNESS, me);
        e->witness_busy--;
        if (st || j->cancel) /* its place in the witness queue is free: another worker may take one */
            pthread_cond_broadcast(&e->cv_pending);
        if (st) {
            ce_fail_locked(e, j, err);
        } else if (j->cancel) {
            cz_hostpool_put(e->pool, wb); /* wipes */
            cz_wit_packed_free(wp);
            free(wp);
            ce_finish_locked(e, j, CZ_JOB_CANCELLED);
        } else {
            if (wb) {
                j->wbuf = wb;
                j->w = wb->data;
                j->nw = nw;
                j->wpack = wp;
            }
            j->state = CZ_JOB_PROVE_QUEUED;
            j->t[ST_PROVE_QUEUE][0] = ce_now_ms() - e->t0;
            ce_q_push(&e->prove, j);
            if (e->prove.n > e->witness_waiting_max)
                e->witness_waiting_max = e->prove.n;
            pthread_cond_signal(&e->cv_prove);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

void *ce_prove_main(void *arg)
{
    worker *wk = arg;
    cz_engine *e = wk->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j = NULL; /* set below before use (NULL: the compiler cannot see that) */
        while (!e->stopping && !(j = ce_q_peek(&e->prove)))
            pthread_cond_wait(&e->cv_prove, &e->mu);
        if (e->stopping)
            break;
        ce_q_remove(&e->prove, j);
        if (e->witness_cap) /* a place in the witness queue is free */
            pthread_cond_broadcast(&e->cv_pending);
        j->state = CZ_JOB_PROVING;
        j->worker = wk->index;
        wk->cur = j;
        wk->state = "proving";
        ce_stage_end(e, j, ST_PROVE_QUEUE, wk->index);
        const cz_zkey *zk = j->key->zkey;
        const cz_vk *vk = j->key->vk;
        const cz_bn254_zkey *bzk = j->key->bzkey;
        const cz_bn254_vk *bvk = j->key->bvk;
        const cz_bn254_fr *bw = (const cz_bn254_fr *)(const void *)j->w;
        uint64_t buid = j->key->buid;
        cz_wit_packed *wpack = j->wpack; /* this worker's now: freed after the proof */
        j->wpack = NULL;
        const char *kid = j->key->id; /* the job holds its key: readable until it ends */
        uint32_t n_public = j->key->n_public;
        pthread_mutex_unlock(&e->mu);

        char err[512] = "";
        cz_proof proof;
        cz_bn254_proof bproof;
        cz_prove_timings pt;
        memset(&pt, 0, sizeof pt);
        double t0, t1;
        cz_status st;
        if (bzk) {
            /* a bn128 key: on the device where the backend proves bn128
               (its lock held, the key resident by its number, next to
               BLS12-381 keys); else, or when the device fails, the CPU
               prover on the engine's pool */
            device *dv = wk->dev;
            st = CZ_ERR_UNSUPPORTED;
            t0 = ce_now_ms();
            if (!e->host_prove && dv->be && dv->be->prove_bn254) {
                cz_core_timings ct;
                memset(&ct, 0, sizeof ct);
                pthread_mutex_lock(&dv->lock);
                t0 = ce_now_ms();
                st = dv->be ? dv->be->prove_bn254(dv->be, &bproof, bzk, buid, bw, e->synth, &ct, err,
                                                  sizeof err)
                            : CZ_ERR_UNSUPPORTED;
                t1 = ce_now_ms();
                dv->busy_ms += t1 - t0;
                pthread_mutex_unlock(&dv->lock);
                if (st == CZ_OK) {
                    pt.eval_abc_ms = ct.eval_abc_ms;
                    pt.ntt_ms = ct.ntt_ms;
                    pt.msm_ms = ct.msm_ms;
                    pt.msm_a_ms = ct.msm_a_ms;
                    pt.msm_b1_ms = ct.msm_b1_ms;
                    pt.msm_b2_ms = ct.msm_b2_ms;
                    pt.msm_c_ms = ct.msm_c_ms;
                    pt.msm_h_ms = ct.msm_h_ms;
                    pt.upload_ms = ct.upload_ms;
                    pt.h2d_bytes = ct.h2d_bytes;
                    pt.total_ms = t1 - t0;
                    snprintf(pt.tier, sizeof pt.tier, "%s", ct.tier);
                } else {
                    cz_log(CZ_LOG_WARN, "engine", "%s: bn128 proof of key %s on device %d failed "
                           "(%s: %s); proving it on the CPU", j->id, kid, dv->index,
                           cz_strerror(st), err[0] ? err : ct.error);
                    err[0] = 0;
                }
            }
            if (st != CZ_OK) {
                st = cz_bn254_groth16_prove(&bproof, bzk, bw, e->synth, NULL, &pt, err, sizeof err);
                t1 = ce_now_ms();
            }
        } else {
            pthread_mutex_lock(&wk->dev->lock);
            t0 = ce_now_ms();
            st = cz_groth16_prove_packed(&proof, zk, j->w, wpack, wk->dev->be, NULL, &pt, err,
                                         sizeof err);
            t1 = ce_now_ms();
            wk->dev->busy_ms += t1 - t0;
            pthread_mutex_unlock(&wk->dev->lock);
            if (j->parent) /* where a partition's device time goes */
                cz_log(CZ_LOG_INFO, "engine",
                       "partition %d: prove %.1f ms on device %d (%s): a/b/c %.1f, H step %.1f, "
                       "MSMs %.1f (A %.1f, B1 %.1f, B2 %.1f, C %.1f, H %.1f), assembly %.1f, "
                       "h2d %llu bytes",
                       j->part, t1 - t0, wk->dev->index, pt.tier, pt.eval_abc_ms, pt.ntt_ms,
                       pt.msm_ms, pt.msm_a_ms, pt.msm_b1_ms, pt.msm_b2_ms, pt.msm_c_ms,
                       pt.msm_h_ms, pt.assemble_ms, (unsigned long long)pt.h2d_bytes);
        }
        if (wpack) { /* done with: wiped, outside the device lock */
            cz_wit_packed_free(wpack);
            free(wpack);
        }

        pthread_mutex_lock(&e->mu);
        j->t[ST_PROVE][0] = t0 - e->t0;
        j->t[ST_PROVE][1] = t1 - e->t0;
        ce_span_add(e, j, ST_PROVE, wk->index);
        ce_hist_add(&e->hist[ST_PROVE], (t1 - t0) / 1e3);
        j->pt = pt;
        if (!st && pt.tier[0])
            snprintf(j->key->tier, sizeof j->key->tier, "%s", pt.tier);
        int cancel = j->cancel;
        if (!st && !cancel) {
            j->state = CZ_JOB_VERIFYING;
            wk->state = "verifying";
            j->t[ST_VERIFY][0] = ce_now_ms() - e->t0;
        }
        pthread_mutex_unlock(&e->mu);

        char *pj = NULL, *uj = NULL;
        if (!st && !cancel) {
            if (e->cfg.verify &&
                (bzk ? cz_bn254_groth16_verify(bvk, bw + 1, n_public, &bproof, err, sizeof err)
                     : cz_groth16_verify(vk, j->w + 1, n_public, &proof, err, sizeof err)) != CZ_OK)
                st = CZ_ERR_VERIFY;
            if (!st) {
                pj = bzk ? cz_bn254_proof_to_json(&bproof) : cz_proof_to_json(&proof);
                uj = bzk ? cz_bn254_public_to_json(bw + 1, n_public)
                         : cz_public_to_json(j->w + 1, n_public);
                if (!pj || !uj) {
                    st = CZ_ERR_NOMEM;
                    snprintf(err, sizeof err, "out of memory writing the proof");
                }
            }
        }

        pthread_mutex_lock(&e->mu);
        if (!st && !cancel)
            ce_stage_end(e, j, ST_VERIFY, wk->index);
        if (j->cancel) {
            ce_finish_locked(e, j, CZ_JOB_CANCELLED);
        } else if (st) {
            char msg[sizeof j->err];
            snprintf(msg, sizeof msg, "%s%.480s", st == CZ_ERR_VERIFY ? "proof failed its self-check: " : "",
                     err[0] ? err : cz_strerror(st));
            ce_fail_locked(e, j, msg);
        } else {
            j->proof_json = pj;
            j->public_json = uj;
            pj = uj = NULL;
            ce_finish_locked(e, j, CZ_JOB_DONE);
        }
        free(pj);
        free(uj);
        wk->cur = NULL;
        wk->state = "idle";
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
