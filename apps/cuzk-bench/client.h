/*
 * client.h: a small HTTP/JSON client for cuzkd over libcurl (unix socket
 * or TCP). One cz_client per thread.
 */
#ifndef CZ_BENCH_CLIENT_H
#define CZ_BENCH_CLIENT_H

#include <stddef.h>

#include <jansson.h>

typedef struct {
    void *curl;
    char unix_path[108];
    char base[300];          /* http://host:port or http://localhost */
    char auth[300];          /* "Authorization: Bearer ..." or empty */
} cz_client;

/* addr: unix:/path or HOST:PORT. 0 ok, -1 with err. The bearer token of a
   cuzkd with daemon.token_file comes from the file named by
   $CUZK_TOKEN_FILE (its first line; cuzk-bench --token-file sets it), or
   from $CUZK_TOKEN; never from the command line, where others see it. */
int cz_client_init(cz_client *c, const char *addr, char *err, size_t err_len);
void cz_client_free(cz_client *c);

/* Send a request; body may be NULL. Returns the response body (NUL
   terminated, caller frees) and sets *code, or NULL with err set when no
   answer came (connection refused or lost, timeout). */
char *cz_client_call(cz_client *c, const char *method, const char *path, const void *body,
                     size_t body_len, const char *content_type, long timeout_s, long *code,
                     char *err, size_t err_len);
/* The same, parsing a JSON answer. NULL with err if no JSON came back. */
json_t *cz_client_json(cz_client *c, const char *method, const char *path, json_t *body,
                       long timeout_s, long *code, char *err, size_t err_len);

#endif
