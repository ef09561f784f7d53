/*
 * cuzkd: the cuzk proving daemon.
 *
 *   cuzkd [--config FILE] [--listen ADDR]... [--set SECTION.NAME=VALUE]...
 *
 * Reads the configuration (built-in defaults, then the INI file, then the
 * flags), starts the engine, loads the [keys] of the config, serves the
 * HTTP/JSON API on every listen address, and on SIGTERM or SIGINT drains:
 * new proofs are answered 503, queued jobs fail with "daemon shutting
 * down", running ones get shutdown_grace_ms to finish. SIGHUP is logged and
 * otherwise ignored (the configuration is read once, at start): nothing
 * stops, every job carries on.
 *
 * A unix socket path is taken only when no other daemon serves it: a lock
 * file beside it (PATH.lock, flock'ed for the process's life, holding its
 * pid) and a connect() to an existing socket (a live listener answers)
 * both refuse the start with exit 2; a stale socket (nobody listening, no
 * lock held) is replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "api.h"
#include "farm_setup.h"
#include "config.h"
#include "circuit/porep.h"
#include "io/binfile.h"
#include "util/log.h"
#include "util/version.h"

/* The configuration read when no --config is given (the build sets the
   installed path: CUZK_CONFIG in CMakeLists.txt). */
#ifndef CUZK_DEFAULT_CONFIG
#define CUZK_DEFAULT_CONFIG "/etc/cuzk/cuzkd.ini"
#endif

#define DEFAULT_LISTEN "unix:/tmp/cuzkd.sock"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzkd [options]\n"
            "\n"
            "The cuzk proving daemon: keeps Groth16 proving keys resident and proves\n"
            "jobs submitted over an HTTP/JSON API (see docs/DAEMON.md).\n"
            "\n"
            "options:\n"
            "  --config FILE          INI configuration (docs/cuzkd.example.ini); without it,\n"
            "                         " CUZK_DEFAULT_CONFIG " where that exists\n"
            "  --check-config FILE    check a configuration (and that its keys are readable),\n"
            "                         print the result and exit: 0 valid, 2 not\n"
            "  --listen ADDR          unix:/path/to.sock or HOST:PORT; repeatable; replaces\n"
            "                         the config's addresses (default " DEFAULT_LISTEN ")\n"
            "  --set SEC.NAME=VALUE   override one setting (see --help-config)\n"
            "  --key ID=PATH          load a key at start (like [keys] in the config)\n"
            "  --db URL               join a farm: its PostgreSQL queue (engine.database; no password\n"
            "                         in the URL: PGPASSWORD, ~/.pgpass or farm.password_file)\n"
            "  --device cpu|cuda|auto backend (engine.device)\n"
            "  --log-level LEVEL      debug, info, warn or error\n"
            "  --log-format FMT       text or json\n"
            "  --help, --help-config, --version\n"
            "\n"
            "exit status: 0 after a clean shutdown, 2 for a bad configuration or a\n"
            "listen address that cannot be bound, 3 for an internal fault.\n");
}

/* glibc raises its mmap threshold to the size of each large block freed
   (up to 32 MiB) and from then on serves blocks up to that size from the
   arena of the thread that asks, where they stay when freed: the request
   bodies and uploaded witnesses of connection threads (a thread each) made
   the RSS climb, by steps, with every new size and thread (docs/PERF.md,
   "cuzkd memory over 20,000 jobs"). A fixed threshold keeps blocks of
   1 MiB and more in mmap, given back on free. A threshold set in
   GLIBC_TUNABLES wins. */
static void malloc_setup(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    const char *t = getenv("GLIBC_TUNABLES");
    if (!t || !strstr(t, "mmap_threshold"))
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

/* The next PRESET[:SEED] of a [keys] presets list (space- or comma-
   separated) from *cur: 1 with name and seed set, 0 at the end, -1 with
   err for an unknown preset or a bad seed. */
static int next_preset(const char **cur, char *name, size_t name_len, long long *seed, char *err,
                       size_t err_len)
{
    const char *p = *cur;
    while (*p == ' ' || *p == ',' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    size_t n = strcspn(p, " ,\t");
    *cur = p + n;
    const char *colon = memchr(p, ':', n);
    size_t nl = colon ? (size_t)(colon - p) : n;
    snprintf(name, name_len, "%.*s", (int)(nl < name_len ? nl : name_len - 1), p);
    *seed = -1;
    if (colon) {
        char buf[32], *end;
        snprintf(buf, sizeof buf, "%.*s", (int)(n - nl - 1), colon + 1);
        *seed = strtoll(buf, &end, 10);
        if (!buf[0] || *end || *seed < 0) {
            snprintf(err, err_len, "keys.presets: %.*s: the seed is not an integer >= 0", (int)n, p);
            return -1;
        }
    }
    if (!cz_porep_preset(name)) {
        snprintf(err, err_len, "keys.presets: unknown preset '%s' (cuzk circuit list names them)",
                 name);
        return -1;
    }
    return 1;
}

/* Take PATH.lock (created if need be) for the life of the process: -1
   with err when another process holds it. *lock_fd keeps it. */
static int lock_socket_path(const char *path, int *lock_fd, char *err, size_t err_len)
{
    char lp[sizeof ((struct sockaddr_un *)0)->sun_path + 8];
    snprintf(lp, sizeof lp, "%s.lock", path);
    int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        snprintf(err, err_len, "%s: %s", lp, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        snprintf(err, err_len, "%s is in use by another cuzkd%s%s (its lock %s is held); stop it or "
                 "choose another --listen path", path, pid[0] ? " pid " : "", pid, lp);
        close(fd);
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* the pid is for the message above only */
    }
    *lock_fd = fd;
    return 0;
}

/* Whether something accepts connections on the unix socket at sa. */
static int socket_is_live(const struct sockaddr_un *sa)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    int rc = connect(fd, (const struct sockaddr *)sa, sizeof *sa);
    int e = errno;
    close(fd);
    /* refused or gone: stale; accepted, or a full backlog (EAGAIN): live */
    return rc == 0 || e == EAGAIN;
}

/* Bind and listen on unix:/path or HOST:PORT. -1 with err on failure.
   For a unix path, *lock_fd receives the held lock (see above). */
static int open_listener(const char *addr, int *lock_fd, char *err, size_t err_len)
{
    if (!strncmp(addr, "unix:", 5)) {
        const char *path = addr + 5;
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof sa);
        sa.sun_family = AF_UNIX;
        if (!*path || strlen(path) >= sizeof sa.sun_path) {
            snprintf(err, err_len, "%s: socket path empty or too long", addr);
            return -1;
        }
        strcpy(sa.sun_path, path);
        if (lock_socket_path(path, lock_fd, err, err_len))
            return -1;
        struct stat st;
        if (lstat(path, &st) == 0) {
            if (!S_ISSOCK(st.st_mode)) {
                snprintf(err, err_len, "%s: exists and is not a socket", path);
                return -1;
            }
            if (socket_is_live(&sa)) {
                snprintf(err, err_len, "%s: another process is listening on it; stop it or choose "
                         "another --listen path", path);
                return -1;
            }
            unlink(path); /* a stale socket of an earlier run */
        }
        /* 0660: the owner and its group may connect, nobody else */
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || chmod(path, 0660) != 0 ||
            listen(fd, 256) != 0) {
            snprintf(err, err_len, "%s: %s", addr, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return fd;
    }
    char host[256], *port;
    snprintf(host, sizeof host, "%s", addr);
    port = strrchr(host, ':');
    if (!port) {
        snprintf(err, err_len, "%s: expected unix:/path or HOST:PORT", addr);
        return -1;
    }
    *port++ = 0;
    char *h = host;
    if (*h == '[') { /* [::1]:9710 */
        h++;
        char *rb = strchr(h, ']');
        if (rb)
            *rb = 0;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int rc = getaddrinfo(*h ? h : "127.0.0.1", port, &hints, &res);
    if (rc) {
        snprintf(err, err_len, "%s: %s", addr, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 256) == 0)
            break;
        snprintf(err, err_len, "%s: %s", addr, strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

/* Is a listen address reachable from this machine only? unix:... and TCP
   addresses whose every resolved address is loopback (127/8, ::1). */
static bool listen_is_local(const char *addr)
{
    if (!strncmp(addr, "unix:", 5))
        return true;
    char host[256];
    snprintf(host, sizeof host, "%s", addr);
    char *colon = strrchr(host, ':'), *h = host;
    if (!colon)
        return false;
    *colon = 0;
    if (*h == '[') {
        h++;
        char *rb = strchr(h, ']');
        if (rb)
            *rb = 0;
    }
    if (!*h)
        return true; /* open_listener binds an empty host to 127.0.0.1 */
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(h, NULL, &hints, &res) != 0)
        return false;
    bool local = res != NULL;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family == AF_INET)
            local &= (ntohl(((struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127;
        else if (ai->ai_family == AF_INET6)
            local &= IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
        else
            local = false;
    }
    freeaddrinfo(res);
    return local;
}

/* The bearer token of daemon.token_file (its first line, 16 to 255
   printable characters, no spaces), from a regular file that others cannot
   read; and no TCP listener off loopback without one. 0, or -1 with err. */
static int load_access(const cz_daemon_config *cfg, char *token, size_t cap, char *err,
                       size_t err_len)
{
    token[0] = 0;
    if (cfg->token_file) {
        int fd;
        uint64_t size;
        if (cz_file_open(&fd, &size, cfg->token_file, err, err_len) != CZ_OK)
            return -1;
        struct stat st;
        if (fstat(fd, &st) != 0 || (st.st_mode & (S_IROTH | S_IWOTH))) {
            close(fd);
            snprintf(err, err_len, "daemon.token_file %s: readable or writable by others (chmod 0600)",
                     cfg->token_file);
            return -1;
        }
        ssize_t n = read(fd, token, cap - 1);
        close(fd);
        token[n > 0 ? n : 0] = 0;
        token[strcspn(token, "\r\n")] = 0;
        size_t len = strlen(token);
        bool ok = len >= 16 && len < cap - 1;
        for (size_t i = 0; ok && i < len; i++)
            ok = token[i] > ' ' && token[i] < 0x7f;
        if (!ok) {
            memset(token, 0, cap);
            snprintf(err, err_len, "daemon.token_file %s: the first line must be 16 to %zu printable "
                     "characters without spaces", cfg->token_file, cap - 2);
            return -1;
        }
    }
    for (int i = 0; i < cfg->n_listen; i++)
        if (!token[0] && !listen_is_local(cfg->listen[i])) {
            snprintf(err, err_len, "listen %s is not a loopback address: set daemon.token_file, so "
                     "that clients must show a bearer token (docs/DAEMON.md)", cfg->listen[i]);
            return -1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    cz_daemon_config cfg;
    cz_daemon_config_default(&cfg);
    char err[1024];
    const char *config_path = NULL;
    char *flag_listen[CZ_MAX_LISTEN];
    int n_flag_listen = 0;

    /* The config file first, so that flags override it wherever they are.
       Without --config, the installed default is read where it exists. */
    bool check_only = false;
    for (int i = 1; i < argc; i++)
        if ((!strcmp(argv[i], "--config") || !strcmp(argv[i], "--check-config")) && i + 1 < argc) {
            check_only |= !strcmp(argv[i], "--check-config");
            config_path = argv[++i];
        }
    if (!config_path && access(CUZK_DEFAULT_CONFIG, F_OK) == 0)
        config_path = CUZK_DEFAULT_CONFIG;
    if (config_path && cz_daemon_config_load(&cfg, config_path, err, sizeof err)) {
        fprintf(stderr, "cuzkd: %s\n", err);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--help-config")) {
            cz_daemon_config_help();
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("cuzkd %s (commit %s)\nbackends: %s\n", cz_build_version(), cz_build_commit(),
                   cz_build_backends());
            return 0;
        } else if ((!strcmp(a, "--config") || !strcmp(a, "--check-config")) && v) {
            i++;
        } else if (!strcmp(a, "--listen") && v) {
            if (n_flag_listen == CZ_MAX_LISTEN) {
                fprintf(stderr, "cuzkd: at most %d --listen addresses\n", CZ_MAX_LISTEN);
                return 2;
            }
            flag_listen[n_flag_listen++] = argv[++i];
        } else if (!strcmp(a, "--set") && v) {
            char name[128];
            const char *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) >= sizeof name) {
                fprintf(stderr, "cuzkd: --set expects SECTION.NAME=VALUE, got '%s'\n", v);
                return 2;
            }
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = 0;
            rc = cz_daemon_config_set(&cfg, name, eq + 1, err, sizeof err);
            i++;
        } else if (!strcmp(a, "--key") && v) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || cfg.n_preload >= CZ_MAX_PRELOAD) {
                fprintf(stderr, "cuzkd: --key expects ID=PATH, got '%s'\n", v);
                return 2;
            }
            cfg.preload[cfg.n_preload].id = strndup(v, (size_t)(eq - v));
            cfg.preload[cfg.n_preload].path = strdup(eq + 1);
            cfg.n_preload++;
            i++;
        } else if (!strcmp(a, "--db") && v) {
            rc = cz_daemon_config_set(&cfg, "engine.database", v, err, sizeof err);
            i++;
        } else if (!strcmp(a, "--device") && v) {
            rc = cz_daemon_config_set(&cfg, "engine.device", v, err, sizeof err);
            i++;
        } else if (!strcmp(a, "--log-level") && v) {
            rc = cz_daemon_config_set(&cfg, "daemon.log_level", v, err, sizeof err);
            i++;
        } else if (!strcmp(a, "--log-format") && v) {
            rc = cz_daemon_config_set(&cfg, "daemon.log_format", v, err, sizeof err);
            i++;
        } else {
            fprintf(stderr, "cuzkd: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        }
        if (rc) {
            fprintf(stderr, "cuzkd: %s\n", err);
            return 2;
        }
    }
    if (n_flag_listen) {
        for (int i = 0; i < cfg.n_listen; i++)
            free(cfg.listen[i]);
        cfg.n_listen = 0;
        for (int i = 0; i < n_flag_listen; i++)
            if (cz_daemon_config_set(&cfg, "daemon.listen", flag_listen[i], err, sizeof err)) {
                fprintf(stderr, "cuzkd: %s\n", err);
                return 2;
            }
    }
    if (!cfg.n_listen)
        cz_daemon_config_set(&cfg, "daemon.listen", DEFAULT_LISTEN, err, sizeof err);
    char token[256];
    if (load_access(&cfg, token, sizeof token, err, sizeof err)) {
        fprintf(stderr, "cuzkd: %s%s%s\n", config_path && check_only ? config_path : "",
                config_path && check_only ? ": " : "", err);
        cz_daemon_config_free(&cfg);
        return 2;
    }
    { /* the presets of [keys] presets are known names, with good seeds */
        const char *pc = cfg.key_presets ? cfg.key_presets : "";
        char pname[64];
        long long pseed;
        int r;
        while ((r = next_preset(&pc, pname, sizeof pname, &pseed, err, sizeof err)) > 0) {
        }
        if (r < 0) {
            fprintf(stderr, "cuzkd: %s%s%s\n", config_path ? config_path : "", config_path ? ": " : "",
                    err);
            cz_daemon_config_free(&cfg);
            return 2;
        }
    }
    if (check_only) {
        /* Every setting parsed and in range (the load and the flags above),
           the token and listen addresses agree (load_access); the key files
           must be there too. Nothing is started. */
        for (int i = 0; i < cfg.n_preload; i++)
            if (access(cfg.preload[i].path, R_OK) != 0) {
                fprintf(stderr, "cuzkd: %s: key '%s': cannot read %s: %s\n", config_path,
                        cfg.preload[i].id, cfg.preload[i].path, strerror(errno));
                cz_daemon_config_free(&cfg);
                return 2;
            }

        printf("cuzkd: %s: configuration ok (%d address(es), %d key(s))\n", config_path,
               cfg.n_listen, cfg.n_preload);
        cz_daemon_config_free(&cfg);
        return 0;
    }

    cz_log_level lvl = CZ_LOG_INFO;
    cz_log_level_parse(cfg.log_level, &lvl);
    cz_log_setup(lvl, !strcmp(cfg.log_format, "json"));
    malloc_setup();

    /* Signals are taken by sigwait in this thread only; every thread
       started from here on inherits the mask. SIGPIPE: a client that hung
       up must not kill the daemon. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGPIPE);
    sigaddset(&sigs, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);

    int listen_fd[CZ_MAX_LISTEN], lock_fd[CZ_MAX_LISTEN];
    for (int i = 0; i < cfg.n_listen; i++) {
        lock_fd[i] = -1;
        listen_fd[i] = open_listener(cfg.listen[i], &lock_fd[i], err, sizeof err);
        if (listen_fd[i] < 0) {
            cz_log(CZ_LOG_ERROR, "cuzkd", "cannot listen: %s", err);
            cz_daemon_config_free(&cfg); /* the lock fds close with the process */
            return 2;
        }
    }

    cz_engine_config ecfg;
    cz_daemon_config_to_engine(&cfg, &ecfg);
    cz_engine *engine;
    cz_status st = cz_engine_create(&engine, &ecfg, err, sizeof err);
    if (st) {
        cz_log(CZ_LOG_ERROR, "cuzkd", "cannot start the engine: %s", err[0] ? err : cz_strerror(st));
        cz_daemon_config_free(&cfg);
        return st == CZ_ERR_ARG || st == CZ_ERR_UNSUPPORTED ? 2 : 3;
    }
    json_t *status = cz_engine_status_json(engine);
    json_t *d0 = json_array_get(json_object_get(status, "devices"), 0);
    /* the devices the engine took (engine.devices = 0 means all of them;
       the CPU backend is one device) and the backend on them */
    size_t n_dev = json_array_size(json_object_get(status, "devices"));
    cz_log(CZ_LOG_INFO, "cuzkd", "engine started: backend %s on %s, %zu device%s x %d worker(s), %d witness worker(s) (witness queue %d per worker), host budget %lld MiB",
           json_string_value(json_object_get(d0, "backend")),
           json_string_value(json_object_get(d0, "name")), n_dev, n_dev == 1 ? "" : "s",
           ecfg.workers_per_device, ecfg.witness_workers, ecfg.witness_queue_per_gpu,
           (long long)(json_integer_value(json_object_get(json_object_get(status, "memory"), "budget")) >> 20));
    json_decref(status);

    for (int i = 0; i < cfg.n_preload; i++) {
        st = cz_engine_key_load(engine, cfg.preload[i].id, cfg.preload[i].path, err, sizeof err);
        if (st) {
            cz_log(CZ_LOG_ERROR, "cuzkd", "key %s: %s", cfg.preload[i].id, err);
            cz_engine_destroy(engine, 0);
            cz_daemon_config_free(&cfg);
            return 2;
        }
        cz_log(CZ_LOG_INFO, "cuzkd", "key %s loaded from %s (tier: host)", cfg.preload[i].id,
               cfg.preload[i].path);
    }
    /* development keys made from presets ([keys] presets), in the
       background: the API answers meanwhile, GET /v1/keys shows them
       loading, jobs naming them are 503 until they are made, and a key
       that cannot be made is logged and listed as failed. Only a preset
       that cannot be asked for (an id another key holds) stops the start. */
    const char *pcur = cfg.key_presets ? cfg.key_presets : "";
    char pname[64];
    long long pseed;
    int pr;
    while ((pr = next_preset(&pcur, pname, sizeof pname, &pseed, err, sizeof err)) != 0) {
        if (pr > 0)
            st = cz_engine_key_make_background(engine, NULL, pname, pseed < 0 ? 0 : (uint64_t)pseed,
                                               pseed >= 0, err, sizeof err);
        if (pr < 0 || st) {
            cz_log(CZ_LOG_ERROR, "cuzkd", "%s%s%s", pr > 0 ? pname : "", pr > 0 ? ": " : "", err);
            cz_engine_destroy(engine, 0);
            cz_daemon_config_free(&cfg);
            return 2;
        }
        cz_log(CZ_LOG_INFO, "cuzkd", "key %s: being made from its preset in the background (GET /v1/keys "
               "shows its stage)", pname);
    }

    cz_farm *farm = NULL;
    if (cz_daemon_farm_start(&farm, &cfg, engine, err, sizeof err)) {
        cz_log(CZ_LOG_ERROR, "cuzkd", "farm: %s", err);
        cz_engine_destroy(engine, 0);
        cz_daemon_config_free(&cfg);
        return 2;
    }

    cz_api api;
    memset(&api, 0, sizeof api);
    api.engine = engine;
    api.farm = farm;
    api.max_upload = cfg.max_upload;
    api.max_wait_ms = cfg.max_wait_ms;
    api.max_connections = cfg.max_connections;
    api.max_connections_per_client = cfg.max_connections_per_client;
    api.conn_timeout_s = cfg.connection_timeout_s;
    api.token = token[0] ? token : NULL;
    atomic_init(&api.shutting_down, 0);
    for (int i = 0; i < cfg.n_listen; i++) {
        if (cz_api_start(&api, listen_fd[i], err, sizeof err)) {
            cz_log(CZ_LOG_ERROR, "cuzkd", "%s: %s", cfg.listen[i], err);
            cz_api_stop(&api);
            cz_engine_destroy(engine, 0);
            cz_daemon_config_free(&cfg);
            return 2;
        }
        cz_log(CZ_LOG_INFO, "cuzkd", "listening on %s", cfg.listen[i]);
    }

    int sig = 0;
    for (;;) {
        if (sigwait(&sigs, &sig) != 0)
            continue;
        if (sig == SIGTERM || sig == SIGINT)
            break;
        if (sig == SIGHUP)
            cz_log(CZ_LOG_INFO, "cuzkd", "SIGHUP: ignored (the configuration is read only at start; "
                   "restart the daemon to change it); jobs carry on");
    }
    cz_log(CZ_LOG_INFO, "cuzkd", "%s: draining (grace %d ms)", sig == SIGTERM ? "SIGTERM" : "SIGINT",
           cfg.shutdown_grace_ms);
    atomic_store(&api.shutting_down, 1);
    cz_farm_stop(farm); /* its unfinished partitions go back to the queue for other hosts */
    cz_engine_drain(engine);
    cz_engine_shutdown(engine, cfg.shutdown_grace_ms);
    cz_api_stop(&api);
    cz_farm_destroy(farm);
    cz_engine_destroy(engine, 0);
    for (int i = 0; i < cfg.n_listen; i++) {
        close(listen_fd[i]);
        if (!strncmp(cfg.listen[i], "unix:", 5))
            unlink(cfg.listen[i] + 5);
        if (lock_fd[i] >= 0)
            close(lock_fd[i]); /* the lock file stays: removing it would race a new start */
    }
    cz_log(CZ_LOG_INFO, "cuzkd", "stopped");
    cz_daemon_config_free(&cfg);
    return 0;
}
