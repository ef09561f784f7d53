/*
 * farm.h: one cuzkd host of a proving farm (the queue: queue.h).
 *
 * DESIGN. The farm sits between the daemon's API and the engine. With a
 * database configured, a proof request becomes rows of the shared queue
 * (durable before the API answers 202) instead of a job of the local
 * engine, and any host answers for any job from those rows (await listens
 * for the job's NOTIFY and polls). Each host runs one runner thread with a
 * connection of its own: it claims partitions while it has free slots (a
 * slot is a partition given to the local engine; `slots` defaults to the
 * engine's workers + 1) and only for keys its engine holds whose partition
 * would get its host memory reservation now (cz_engine_can_admit: running
 * jobs, held uploads, keys and partitions already pending count, idle
 * pooled buffers do not), so a host never holds a lease its engine would
 * make wait for memory while another host has room; when nothing fits it
 * holds back and says why in its status. A host with key folders or
 * presets also announces the keys it could load; when a partition of such
 * a key is claimable it loads the key first (the engine's load path, with
 * its budget check, on a thread of its own so that renewals go on) and
 * then claims like any other; a key that fails to load is not tried again
 * for key_retry_ms (the partitions stay queued for others). It gives each
 * to the local engine as a job
 * of one partition (the witness bytes from the database, or its path on
 * shared storage, with the origin of the request that named it), renews
 * the leases of running ones every lease/3, and writes each result under
 * its epoch. A renewal refused (another host took the partition, or the
 * job was cancelled) cancels the local job at once. A host that was frozen
 * past its lease (SIGSTOP) does not trust its own clock: its proofs run on
 * and their writes are refused by the epoch, which the host logs and
 * counts. A failure that the same input would repeat (a bad witness, a
 * missing or refused file: the local engine refused it at submission or
 * failed it before proving) fails the job at once; any other (out of
 * memory, a device fault, a shutdown) goes back to the queue with backoff.
 * The runner also sends the host's heartbeat (keys, slots, devices) and
 * runs the queue's housekeeping every second. A broken connection (the
 * server restarted) is re-opened by the queue; results not yet written are
 * kept and written when it is back, within their lease.
 *
 * API calls (submit, await, cancel, status) take a connection from a small
 * pool, so the HTTP threads never share one. All functions are thread safe.
 */
#ifndef CZ_FARM_H
#define CZ_FARM_H

#include <jansson.h>

#include "engine/engine.h"
#include "farm/queue.h"

typedef struct {
    cz_farm_config queue; /* url, host_id, lease, attempts, backoff, inline limit, retention */
    int slots;            /* partitions run at once; 0: the engine's workers (witness + prove) */
    int poll_ms;          /* claim poll when no notification comes (default 250) */
    /* Keys this host may load to run partitions of keys it does not hold:
       ':'-separated folders where a key of id ID is ID.zkey or ID.czk
       (the daemon's [paths] keys), and the presets the daemon makes keys
       of ([keys] presets: PRESET or PRESET:SEED, space- or comma-
       separated), made again when evicted. NULL: none. */
    const char *key_dirs;
    const char *presets;
    int key_retry_ms;     /* a key that failed to load is not tried again for this long (default 60000) */
} cz_farm_host_config;

void cz_farm_host_config_default(cz_farm_host_config *c);

typedef struct cz_farm cz_farm;

/* Connect (migrating the schema), announce the host and start its runner.
   The engine must outlive the farm. */
cz_status cz_farm_start(cz_farm **out, const cz_farm_host_config *cfg, cz_engine *e, char *err, size_t err_len);
/* Stop claiming, cancel the local work of unfinished partitions and give
   their leases back (another host takes them at once), join the runner.
   Idempotent. */
void cz_farm_stop(cz_farm *f);
void cz_farm_destroy(cz_farm *f);

/* As cz_engine_submit, into the shared queue: CZ_OK (req->outcome NEW or
   EXISTING), CZ_ERR_BUSY (outcome CONFLICT, or FULL when the database is
   unreachable: retry later), CZ_ERR_NOT_FOUND (no live host holds the
   key), CZ_ERR_RANGE (too large), CZ_ERR_ARG. *position: 0. */
cz_status cz_farm_submit(cz_farm *f, const cz_job_request *req, char *job_id, size_t *position, char *err,
                         size_t err_len);
/* As cz_engine_await; NULL with *st CZ_ERR_NOT_FOUND (unknown job) or
   CZ_ERR_IO (the database stayed unreachable for the whole wait). */
json_t *cz_farm_await(cz_farm *f, const char *job_id, int timeout_ms, cz_status *st);
/* As cz_engine_cancel (CZ_ERR_IO: the database is unreachable). */
cz_status cz_farm_cancel(cz_farm *f, const char *job_id);
/* The farm (hosts, queue depth per priority, leases, jobs) and this host
   (slots, running partitions, counters, claim latency). */
json_t *cz_farm_status_json(cz_farm *f);
/* Prometheus lines (cuzk_farm_*); caller frees. */
char *cz_farm_metrics_text(cz_farm *f);

#endif
