/*
 * farm_setup.c: cuzkd joins a farm when engine.database is set.
 *
 * DESIGN. The daemon stays thin: this file turns the configuration into
 * the farm's (src/farm/farm.h): the URL (checked to carry no password),
 * the password from farm.password_file (else libpq's PGPASSWORD or
 * ~/.pgpass), the host id (farm.host_id, else the hostname and the first
 * listen address, so hosts sharing a machine differ and a restarted host
 * keeps its name), the lease, retries, slots and limits, and the keys it
 * may load for the farm ([paths] keys, [keys] presets). Built without
 * libpq, the farm's functions below answer that it is not built, so a
 * configured database stops the daemon at start and every other path of
 * the daemon is unchanged.
 */
#include "farm_setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef CUZK_HAVE_FARM

static int read_password(const char *path, char *out, size_t len, char *err, size_t err_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "farm.password_file %s: cannot read it", path);
        return -1;
    }
    if (!fgets(out, (int)len, f))
        out[0] = 0;
    fclose(f);
    out[strcspn(out, "\r\n")] = 0;
    if (!out[0]) {
        snprintf(err, err_len, "farm.password_file %s: empty", path);
        return -1;
    }
    return 0;
}

int cz_daemon_farm_start(cz_farm **out, const cz_daemon_config *c, cz_engine *e, char *err, size_t err_len)
{
    *out = NULL;
    if (!c->database || !*c->database)
        return 0;
    if (cz_farm_url_check(c->database, err, err_len))
        return -1;
    cz_farm_host_config fc;
    cz_farm_host_config_default(&fc);
    char password[512] = "", host[512];
    if (c->farm_password_file && read_password(c->farm_password_file, password, sizeof password, err, err_len))
        return -1;
    if (c->farm_host_id && *c->farm_host_id) {
        snprintf(host, sizeof host, "%s", c->farm_host_id);
    } else {
        char name[256] = "localhost";
        gethostname(name, sizeof name - 1);
        name[sizeof name - 1] = 0;
        snprintf(host, sizeof host, "%s/%s", name, c->n_listen ? c->listen[0] : "-");
    }
    fc.queue.url = c->database;
    fc.queue.password = password[0] ? password : NULL;
    fc.queue.host_id = host;
    fc.queue.lease_ms = c->farm_lease_ms;
    fc.queue.max_attempts = c->farm_max_attempts;
    fc.queue.backoff_ms = c->farm_backoff_ms;
    fc.queue.inline_max = (size_t)c->farm_inline_max;
    fc.queue.retain_s = c->farm_retain_s;
    fc.slots = c->farm_slots;
    fc.poll_ms = c->farm_poll_ms;
    /* keys it may load for the farm: the folders [paths] keys names (set
       explicitly: not the default made of the preloaded keys' folders),
       and the presets of [keys] presets */
    fc.key_dirs = c->paths_keys;
    fc.presets = c->key_presets;
    cz_status st = cz_farm_start(out, &fc, e, err, err_len);
    memset(password, 0, sizeof password);
    return st ? -1 : 0;
}

#else /* built without libpq: no farm */

int cz_daemon_farm_start(cz_farm **out, const cz_daemon_config *c, cz_engine *e, char *err, size_t err_len)
{
    (void)e;
    *out = NULL;
    if (!c->database || !*c->database)
        return 0;
    snprintf(err, err_len, "engine.database is set but this cuzkd is built without the farm (libpq was missing; "
                           "scripts/setup.sh installs libpq-dev)");
    return -1;
}

/* never called with a farm: cuzkd has none */
void cz_farm_stop(cz_farm *f) { (void)f; }
void cz_farm_destroy(cz_farm *f) { (void)f; }
cz_status cz_farm_submit(cz_farm *f, const cz_job_request *req, char *job_id, size_t *position, char *err,
                         size_t err_len)
{
    (void)f, (void)req, (void)job_id, (void)position;
    snprintf(err, err_len, "built without the farm");
    return CZ_ERR_UNSUPPORTED;
}
json_t *cz_farm_await(cz_farm *f, const char *job_id, int timeout_ms, cz_status *st)
{
    (void)f, (void)job_id, (void)timeout_ms;
    if (st)
        *st = CZ_ERR_UNSUPPORTED;
    return NULL;
}
cz_status cz_farm_cancel(cz_farm *f, const char *job_id)
{
    (void)f, (void)job_id;
    return CZ_ERR_UNSUPPORTED;
}
json_t *cz_farm_status_json(cz_farm *f)
{
    (void)f;
    return json_object();
}
char *cz_farm_metrics_text(cz_farm *f)
{
    (void)f;
    return NULL;
}

#endif
