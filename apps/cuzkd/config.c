/* config.c: see config.h. */
#include "config.h"

#include <errno.h>
#include <ini.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "io/binfile.h"
#include "util/log.h"

typedef enum { T_INT, T_SIZE, T_BOOL, T_STR, T_ENUM, T_LISTEN } ctype;

typedef struct {
    const char *section, *name;
    ctype type;
    size_t off;
    const char *def;
    long long min, max;     /* T_INT, T_SIZE bounds */
    const char *choices;    /* T_ENUM: "|a|b|c|" */
    const char *help;
} setting;

#define OFF(f) offsetof(cz_daemon_config, f)

static const setting settings[] = {
    {"daemon", "listen", T_LISTEN, 0, NULL, 0, 0, NULL,
     "address to serve the API on: unix:/path/to.sock or HOST:PORT (repeatable; default unix:/tmp/cuzkd.sock)"},
    {"daemon", "max_pending", T_INT, OFF(max_pending), "1024", 1, 1000000, NULL,
     "jobs queued or running at once; more are answered 429"},
    {"daemon", "max_upload", T_SIZE, OFF(max_upload), "1G", 1024, 1LL << 40, NULL,
     "largest request body (an uploaded witness) in bytes; larger: 413"},
    {"daemon", "max_wait_ms", T_INT, OFF(max_wait_ms), "60000", 0, 3600000, NULL,
     "longest long-poll an await may ask for"},
    {"daemon", "max_connections", T_INT, OFF(max_connections), "512", 4, 100000, NULL,
     "connections served at once on each listen address; more are closed at once"},
    {"daemon", "max_connections_per_client", T_INT, OFF(max_connections_per_client), "64", 0, 100000,
     NULL, "connections at once from one peer address on TCP (0: no limit; unix sockets: not applied)"},
    {"daemon", "connection_timeout_s", T_INT, OFF(connection_timeout_s), "10", 1, 3600, NULL,
     "seconds a connection may send nothing (headers, body, keep-alive) before it is closed"},
    {"daemon", "token_file", T_STR, OFF(token_file), NULL, 0, 0, NULL,
     "file holding the bearer token TCP clients must send (Authorization: Bearer ...); required "
     "when a listen address is not loopback; not readable by others (mode 0600 or 0640)"},
    {"daemon", "shutdown_grace_ms", T_INT, OFF(shutdown_grace_ms), "30000", 0, 3600000, NULL,
     "on SIGTERM, how long running jobs may take to finish"},
    {"daemon", "log_level", T_ENUM, OFF(log_level), "info", 0, 0, "|debug|info|warn|error|",
     "least severe messages logged"},
    {"daemon", "log_format", T_ENUM, OFF(log_format), "text", 0, 0, "|text|json|",
     "log lines as text or JSON lines"},
    {"engine", "device", T_ENUM, OFF(device), "auto", 0, 0, "|auto|cpu|cuda|",
     "backend: cuda where built and a GPU exists (auto), or forced"},
    {"engine", "devices", T_INT, OFF(devices), "0", 0, 64, NULL,
     "GPUs to use (0: every GPU found)"},
    {"engine", "gpu_workers_per_device", T_INT, OFF(workers_per_device), "2", 1, 16, NULL,
     "prove workers sharing each device's lock"},
    {"engine", "witness_workers", T_INT, OFF(witness_workers), "2", 1, 256, NULL,
     "threads reading and checking witnesses"},
    {"engine", "witness_queue_per_gpu", T_INT, OFF(witness_queue_per_gpu), "2", 0, 1024, NULL,
     "synthesised witnesses waiting for each prove worker at most, those being made included; the "
     "witness workers wait when they are reached (0: no cap but host_memory_budget)"},
    {"engine", "prove_threads", T_INT, OFF(prove_threads), "0", 0, 4096, NULL,
     "CPU threads per prove worker (0: all cores)"},
    {"engine", "host_memory_budget", T_SIZE, OFF(host_mem_budget), "0", 0, 1LL << 50, NULL,
     "bytes of host memory for keys and jobs (0: 3/4 of RAM)"},
    {"engine", "gpu_safety_margin", T_SIZE, OFF(gpu_margin), "512M", 0, 1LL << 40, NULL,
     "bytes left free on each GPU"},
    {"engine", "gpu_memory_limit", T_SIZE, OFF(gpu_memory_limit), "0", 0, 1LL << 50, NULL,
     "most bytes of each GPU the daemon takes (0: all free memory but the margin)"},
    {"engine", "verify", T_BOOL, OFF(verify), "true", 0, 0, NULL,
     "check every proof before returning it"},
    {"engine", "database", T_STR, OFF(database), NULL, 0, 0, NULL,
     "PostgreSQL URL of a farm's shared queue (postgresql://HOST/DB?user=U; docs/FARM.md); unset: this "
     "host alone. No password in it: PGPASSWORD, ~/.pgpass or farm.password_file"},
    {"farm", "host_id", T_STR, OFF(farm_host_id), NULL, 0, 0, NULL,
     "this host's name in the farm (default: hostname and first listen address)"},
    {"farm", "password_file", T_STR, OFF(farm_password_file), NULL, 0, 0, NULL,
     "file holding the database password (its first line)"},
    {"farm", "lease_ms", T_INT, OFF(farm_lease_ms), "15000", 500, 600000, NULL,
     "a claimed partition's lease; a host silent this long loses it to another"},
    {"farm", "max_attempts", T_INT, OFF(farm_max_attempts), "3", 1, 100, NULL,
     "claims of one partition before it fails its job"},
    {"farm", "backoff_ms", T_INT, OFF(farm_backoff_ms), "500", 0, 600000, NULL,
     "delay before a failed partition is retried, doubling per attempt (at most 30 s)"},
    {"farm", "slots", T_INT, OFF(farm_slots), "0", 0, 4096, NULL,
     "partitions this host runs at once (0: its prove workers + 1)"},
    {"farm", "inline_max", T_SIZE, OFF(farm_inline_max), "64M", 0, 1LL << 30, NULL,
     "largest uploaded witness kept in the database (larger: pass a path on shared storage)"},
    {"farm", "retain_s", T_INT, OFF(farm_retain_s), "86400", 0, 315360000, NULL,
     "seconds a finished job stays in the database"},
    {"farm", "poll_ms", T_INT, OFF(farm_poll_ms), "250", 5, 60000, NULL,
     "how often a host looks for work when no notification comes"},
    {"keys", "presets", T_STR, OFF(key_presets), NULL, 0, 0, NULL,
     "native circuit presets to make development keys of at start, in memory (space- or "
     "comma-separated PRESET or PRESET:SEED, e.g. porep-mini:3; each key's id is its preset's "
     "name; see cuzk circuit list)"},
    {"paths", "keys", T_STR, OFF(paths_keys), NULL, 0, 0, NULL,
     "folders (':'-separated) clients may name key files in (default: the folders of the keys "
     "the configuration and --key load; empty: none)"},
    {"paths", "witnesses", T_STR, OFF(paths_witnesses), NULL, 0, 0, NULL,
     "folders (':'-separated) clients may name witness files in (default: as keys)"},
    {"paths", "tcp", T_BOOL, OFF(tcp_paths), "false", 0, 0, NULL,
     "clients on TCP may name files in those folders too (false: they upload witnesses)"},
};
#define N_SETTINGS (sizeof settings / sizeof settings[0])

static int parse_size(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    unsigned long long m = 1;
    if (*end) {
        switch (*end == 'k' ? 'K' : *end) {
        case 'K': m = 1ull << 10; break;
        case 'M': m = 1ull << 20; break;
        case 'G': m = 1ull << 30; break;
        case 'T': m = 1ull << 40; break;
        default: return -1;
        }
        end++;
        if (*end == 'i')
            end++;
        if (*end == 'B')
            end++;
        if (*end)
            return -1;
    }
    if (v > ~0ull / m)
        return -1;
    *out = v * m;
    return 0;
}

static int apply(cz_daemon_config *c, const setting *s, const char *value, char *err, size_t err_len)
{
    char *base = (char *)c;
    switch (s->type) {
    case T_INT: {
        char *end;
        errno = 0;
        long long v = strtoll(value, &end, 10);
        if (end == value || *end || errno || v < s->min || v > s->max) {
            snprintf(err, err_len, "%s.%s = '%s': expected an integer in [%lld, %lld]", s->section,
                     s->name, value, s->min, s->max);
            return -1;
        }
        *(int *)(base + s->off) = (int)v;
        return 0;
    }
    case T_SIZE: {
        unsigned long long v;
        if (parse_size(value, &v) || v < (unsigned long long)s->min || v > (unsigned long long)s->max) {
            snprintf(err, err_len, "%s.%s = '%s': expected a byte size (e.g. 512M, 8G) in [%lld, %lld]",
                     s->section, s->name, value, s->min, s->max);
            return -1;
        }
        *(unsigned long long *)(base + s->off) = v;
        return 0;
    }
    case T_BOOL: {
        int v;
        if (!strcasecmp(value, "true") || !strcasecmp(value, "yes") || !strcmp(value, "1") ||
            !strcasecmp(value, "on"))
            v = 1;
        else if (!strcasecmp(value, "false") || !strcasecmp(value, "no") || !strcmp(value, "0") ||
                 !strcasecmp(value, "off"))
            v = 0;
        else {
            snprintf(err, err_len, "%s.%s = '%s': expected true or false", s->section, s->name, value);
            return -1;
        }
        *(int *)(base + s->off) = v;
        return 0;
    }
    case T_ENUM: {
        char pat[40];
        snprintf(pat, sizeof pat, "|%s|", value);
        if (strlen(value) >= 16 || !strstr(s->choices, pat)) {
            snprintf(err, err_len, "%s.%s = '%s': expected one of %s", s->section, s->name, value,
                     s->choices);
            return -1;
        }
        snprintf(base + s->off, 16, "%s", value);
        return 0;
    }
    case T_STR: {
        char **dst = (char **)(base + s->off), *v = strdup(value);
        if (!v) {
            snprintf(err, err_len, "%s.%s: out of memory", s->section, s->name);
            return -1;
        }
        free(*dst);
        *dst = v;
        return 0;
    }
    case T_LISTEN:
        if (c->n_listen >= CZ_MAX_LISTEN) {
            snprintf(err, err_len, "daemon.listen: at most %d addresses", CZ_MAX_LISTEN);
            return -1;
        }
        if (strncmp(value, "unix:", 5) != 0 && !strchr(value, ':')) {
            snprintf(err, err_len, "daemon.listen = '%s': expected unix:/path or HOST:PORT", value);
            return -1;
        }
        c->listen[c->n_listen++] = strdup(value);
        return 0;
    }
    return -1;
}

void cz_daemon_config_default(cz_daemon_config *c)
{
    memset(c, 0, sizeof *c);
    char err[256];
    for (size_t i = 0; i < N_SETTINGS; i++)
        if (settings[i].def)
            apply(c, &settings[i], settings[i].def, err, sizeof err);
}

static const setting *find(const char *section, const char *name)
{
    for (size_t i = 0; i < N_SETTINGS; i++)
        if ((!section || !strcmp(settings[i].section, section)) && !strcmp(settings[i].name, name))
            return &settings[i];
    return NULL;
}

int cz_daemon_config_set(cz_daemon_config *c, const char *name, const char *value, char *err,
                         size_t err_len)
{
    char sec[64] = "";
    const char *dot = strchr(name, '.');
    if (dot && (size_t)(dot - name) < sizeof sec) {
        memcpy(sec, name, (size_t)(dot - name));
        sec[dot - name] = 0;
        name = dot + 1;
    }
    const setting *s = find(sec[0] ? sec : NULL, name);
    if (!s) {
        snprintf(err, err_len, "unknown setting '%s'", name);
        return -1;
    }
    return apply(c, s, value, err, err_len);
}

typedef struct {
    cz_daemon_config *c;
    char *err;
    size_t err_len;
    const char *path;
} load_ctx;

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
    load_ctx *L = user;
    char e[320];
    if (!strcmp(section, "keys") && strcmp(name, "presets")) {
        if (L->c->n_preload >= CZ_MAX_PRELOAD) {
            snprintf(L->err, L->err_len, "%s: [keys]: at most %d keys", L->path, CZ_MAX_PRELOAD);
            return 0;
        }
        L->c->preload[L->c->n_preload].id = strdup(name);
        L->c->preload[L->c->n_preload].path = strdup(value);
        L->c->n_preload++;
        return 1;
    }
    const setting *s = find(section, name);
    if (!s) {
        snprintf(L->err, L->err_len, "%s: unknown setting [%s] %s", L->path, section, name);
        return 0;
    }
    if (apply(L->c, s, value, e, sizeof e)) {
        snprintf(L->err, L->err_len, "%s: %s", L->path, e);
        return 0;
    }
    return 1;
}

int cz_daemon_config_load(cz_daemon_config *c, const char *path, char *err, size_t err_len)
{
    load_ctx L = {c, err, err_len, path};
    err[0] = 0;
    /* A regular file only, opened without blocking: a FIFO or a device
       (/dev/zero) as the configuration is refused at once, never read. */
    int fd;
    uint64_t size;
    if (cz_file_open(&fd, &size, path, err, err_len))
        return -1;
    if (size > (1u << 20)) {
        close(fd);
        snprintf(err, err_len, "%s: %llu bytes: too large for a configuration (1 MiB at most)",
                 path, (unsigned long long)size);
        return -1;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    int line = ini_parse_file(f, on_ini, &L);
    fclose(f);
    if (line != 0) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s (line %d)", err[0] ? err : "syntax error", line);
        snprintf(err, err_len, "%s", tmp);
        if (!strstr(err, path)) {
            snprintf(tmp, sizeof tmp, "%s: %s", path, err);
            snprintf(err, err_len, "%s", tmp);
        }
        return -1;
    }
    return 0;
}

void cz_daemon_config_free(cz_daemon_config *c)
{
    for (int i = 0; i < c->n_listen; i++)
        free(c->listen[i]);
    for (int i = 0; i < c->n_preload; i++) {
        free(c->preload[i].id);
        free(c->preload[i].path);
    }
    c->n_listen = c->n_preload = 0;
    free(c->paths_keys);
    free(c->paths_witnesses);
    free(c->paths_default);
    c->paths_keys = c->paths_witnesses = c->paths_default = NULL;
    free(c->database);
    free(c->key_presets);
    c->key_presets = NULL;
    free(c->token_file);
    free(c->farm_host_id);
    free(c->farm_password_file);
    c->database = c->farm_host_id = c->farm_password_file = NULL;
}

/* The folders of the keys the operator names: "dir1:dir2...". */
static char *key_folders(const cz_daemon_config *c)
{
    size_t len = 1;
    for (int i = 0; i < c->n_preload; i++)
        len += strlen(c->preload[i].path) + 3;
    char *out = calloc(1, len), *p = out;
    for (int i = 0; out && i < c->n_preload; i++) {
        const char *path = c->preload[i].path, *slash = strrchr(path, '/');
        if (p != out)
            *p++ = ':';
        if (!slash) {
            *p++ = '.';
        } else if (slash == path) {
            *p++ = '/';
        } else {
            memcpy(p, path, (size_t)(slash - path));
            p += slash - path;
        }
    }
    return out;
}

void cz_daemon_config_to_engine(cz_daemon_config *c, cz_engine_config *e)
{
    cz_engine_config_default(e);
    e->device = c->device;
    e->devices = c->devices;
    e->workers_per_device = c->workers_per_device;
    e->witness_workers = c->witness_workers;
    e->witness_queue_per_gpu = c->witness_queue_per_gpu;
    e->prove_threads = c->prove_threads;
    e->max_pending = c->max_pending;
    e->host_mem_budget = c->host_mem_budget;
    e->gpu_margin = c->gpu_margin;
    e->gpu_memory_limit = c->gpu_memory_limit;
    e->verify = c->verify;
    if (!c->paths_keys || !c->paths_witnesses) {
        free(c->paths_default);
        c->paths_default = key_folders(c);
    }
    e->key_dirs = c->paths_keys ? c->paths_keys : c->paths_default;
    e->witness_dirs = c->paths_witnesses ? c->paths_witnesses : e->key_dirs;
    e->tcp_paths = c->tcp_paths;
}

void cz_daemon_config_help(void)
{
    printf("Settings (INI file sections; flags --set section.name=value):\n\n");
    for (size_t i = 0; i < N_SETTINGS; i++) {
        const setting *s = &settings[i];
        printf("  [%s] %-24s default %-8s %s\n", s->section, s->name, s->def ? s->def : "-", s->help);
    }
    printf("  [keys] ID = PATH                                 a .zkey to load at start (any ID\n"
           "                                                   but \"presets\")\n");
}
