/*
 * config.h: cuzkd's configuration: an INI file (see docs/cuzkd.example.ini)
 * read with inih, then command-line flags on top.
 *
 * DESIGN. One table lists every setting with its section, name, type,
 * default, bounds and help, in the manner of redis's config.c: parsing,
 * validation, defaults and `cuzkd --help-config` all come from it. A bad
 * value is an error naming the file, line, key and the accepted range.
 */
#ifndef CZ_DAEMON_CONFIG_H
#define CZ_DAEMON_CONFIG_H

#include <stddef.h>

#include "engine/engine.h"

#define CZ_MAX_LISTEN 8
#define CZ_MAX_PRELOAD 64

typedef struct {
    char *listen[CZ_MAX_LISTEN];
    int n_listen;
    struct {
        char *id, *path;
    } preload[CZ_MAX_PRELOAD];
    int n_preload;
    char *key_presets; /* [keys] presets: "PRESET[:SEED] ..." made at start (NULL: none) */
    char device[16];
    int devices, workers_per_device, witness_workers, witness_queue_per_gpu, prove_threads,
        max_pending;
    int verify, shutdown_grace_ms, max_wait_ms;
    int max_connections, max_connections_per_client, connection_timeout_s;
    unsigned long long host_mem_budget, gpu_margin, gpu_memory_limit, max_upload;
    char log_level[16], log_format[16];
    char *token_file; /* daemon.token_file: the TCP clients' bearer token (NULL: none) */
    /* [paths]: folders clients may name files in (NULL: the folders of
       the keys in [keys] and --key, kept in paths_default) */
    char *paths_keys, *paths_witnesses, *paths_default;
    int tcp_paths;
    /* the farm (engine.database and [farm]; docs/FARM.md) */
    char *database, *farm_host_id, *farm_password_file;
    int farm_lease_ms, farm_max_attempts, farm_backoff_ms, farm_slots, farm_retain_s, farm_poll_ms;
    unsigned long long farm_inline_max;
} cz_daemon_config;

void cz_daemon_config_default(cz_daemon_config *c);
/* Read an INI file over c. Returns 0, or -1 with err filled. */
int cz_daemon_config_load(cz_daemon_config *c, const char *path, char *err, size_t err_len);
/* Set one "section.name" (or bare "name") = value; for flags. */
int cz_daemon_config_set(cz_daemon_config *c, const char *name, const char *value, char *err,
                         size_t err_len);
void cz_daemon_config_free(cz_daemon_config *c);
/* The engine's settings; the [paths] folders stay owned by c. */
void cz_daemon_config_to_engine(cz_daemon_config *c, cz_engine_config *e);
/* Print the table (name, default, range, help) to stdout. */
void cz_daemon_config_help(void);

#endif
