/* api.h: cuzkd's HTTP/JSON API (see api.c). */
#ifndef CZ_DAEMON_API_H
#define CZ_DAEMON_API_H

#include <stdatomic.h>

#include "engine/engine.h"
#include "farm/farm.h"

#define CZ_API_MAX_LISTEN 8

typedef struct {
    cz_engine *engine;
    cz_farm *farm;                /* the farm's shared queue (engine.database), or NULL: this host alone */
    unsigned long long max_upload;
    long max_wait_ms;
    int max_connections;          /* in total, per listener */
    int max_connections_per_client; /* per peer address on TCP (0: no limit) */
    int conn_timeout_s;           /* a connection idle this long is closed (0: never) */
    const char *token;            /* bearer token every TCP request must carry (NULL: none) */
    atomic_int shutting_down;    /* new proofs answered 503 */
    struct MHD_Daemon *daemons[CZ_API_MAX_LISTEN];
    int n_daemons;
} cz_api;

/* Serve the API on an already listening socket. 0 ok, -1 with err. */
int cz_api_start(cz_api *A, int listen_fd, char *err, size_t err_len);
/* Stop every listener, waiting for their connections to finish. */
void cz_api_stop(cz_api *A);

#endif
