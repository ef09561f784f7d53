/*
 * api.c: cuzkd's HTTP/JSON API (v1) over libmicrohttpd.
 *
 * DESIGN. Thin: each route parses its request, calls the engine and turns
 * the engine's answer (a cz_status and a message, or a JSON object) into a
 * status code and a JSON body. libmicrohttpd runs a thread per connection,
 * so a long-poll (GET /v1/proofs/ID?wait_ms=N) simply blocks in the engine.
 * Bodies are collected up to max_upload bytes. A larger one is answered
 * 413: at once when the client waits for "100 Continue" (it then sends no
 * body), else after its body has been read and dropped, so that the
 * client, still sending, does not meet a closed connection instead of the
 * answer (a body past 64 x max_upload closes the connection). Errors are {"error": "...",
 * "code": "..."} with a 4xx status (5xx only for the daemon's own faults).
 *
 * Hostile clients. Connections are bounded in total (max_connections) and
 * per peer address on TCP (max_connections_per_client; libmicrohttpd
 * cannot tell unix-socket peers apart, so there a connection's own limits
 * apply: one request at a time, headers within MHD's per-connection
 * memory, a body within max_upload), and a connection that sends nothing
 * for connection_timeout_s seconds is closed, so idle or half-open
 * connections cannot shut new clients out for longer than that. The
 * timeout is lifted while a route works (a long poll, a key load: the
 * client is not idle, the daemon is busy) and restarts for the answer.
 * The raw request line is checked before libmicrohttpd decodes it: a
 * percent-encoded control byte or NUL (%00 would cut an id short) is
 * answered 400. Bodies with duplicate JSON members are 400; a wrong
 * method on a documented path is 405 with an Allow header. With
 * daemon.token_file set, every request on TCP must carry the bearer token
 * (401 otherwise, before its body is read); the unix socket needs none.
 *
 *   GET    /v1/health                     liveness
 *   GET    /v1/status                     jobs, partitions, workers, devices, keys, memory,
 *                                         host witness buffer pool
 *   GET    /v1/timeline                   per-stage spans of recent jobs, key loads and makes
 *   GET    /metrics                       Prometheus text
 *   GET    /v1/keys                       resident keys, those being loaded or made, failed makes
 *   POST   /v1/keys        {id, path}     load (preload) a key
 *                           {preset, id, seed}  make a development key of a preset in memory
 *   GET    /v1/keys/ID/vk                 its verification key (snarkjs JSON)
 *   DELETE /v1/keys/ID                    evict
 *   POST   /v1/proofs      {key, witness_path | witness_base64 | witness_paths, priority,
 *                           request_id} (witness_paths: one partition per witness)
 *                          or a raw .wtns body with ?key=&priority=&request_id=
 *                          or {type: porep, c1 | c1_path, key, priority, request_id}
 *   GET    /v1/proofs/ID[?wait_ms=N]      status; proof and public when done
 *   DELETE /v1/proofs/ID, POST /v1/proofs/ID/cancel
 */
#include "api.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "util/hex.h"
#include "util/log.h"

typedef struct {
    int started;       /* the handler has seen this request */
    int bad_uri;       /* the raw URI holds a percent-encoded control byte */
    char *body;
    size_t len, cap;
    int done;          /* a response was queued early (413) */
    int too_large;     /* the body is past max_upload: drop it, then answer 413 */
    size_t dropped;
    size_t held;       /* bytes of the host memory budget held for the body */
    size_t expect;     /* Content-Length + 1 where given, else 0 */
    int no_memory;     /* the body did not fit the budget: drop it, then 503 (413 if never) */
} request;

/* ---- responses ---- */

/* Answer with text (freed here) and, where hdr is not NULL, one more
   header (Retry-After, Allow, WWW-Authenticate). */
static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code, char *text, size_t len,
                                 const char *type, const char *hdr, const char *hdr_value)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    if (hdr)
        MHD_add_response_header(r, hdr, hdr_value);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_json_ex(struct MHD_Connection *c, unsigned code, json_t *o,
                                    const char *hdr, const char *hdr_value)
{
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!s)
        s = strdup("{\"error\":\"out of memory\",\"code\":\"internal\"}");
    if (!s)
        return MHD_NO;
    size_t n = strlen(s);
    char *t = realloc(s, n + 2); /* newline-terminated: friendly to curl */
    if (t) {
        s = t;
        s[n++] = '\n';
        s[n] = 0;
    }
    return send_text(c, code, s, n, "application/json", hdr, hdr_value);
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned code, json_t *o)
{
    return send_json_ex(c, code, o, NULL, NULL);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned code, const char *kind,
                                  const char *msg)
{
    return send_json(c, code, json_pack("{s:s, s:s}", "error", msg, "code", kind));
}

/* ---- helpers ---- */

static int b64_value(int ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '+' || ch == '-')
        return 62;
    if (ch == '/' || ch == '_')
        return 63;
    return -1;
}

/* Standard or URL-safe base64, padding optional, whitespace skipped. */
static uint8_t *b64_decode(const char *s, size_t *out_len)
{
    size_t n = strlen(s);
    uint8_t *out = malloc(n / 4 * 3 + 3);
    if (!out)
        return NULL;
    uint32_t acc = 0;
    int bits = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '=' || ch == '\n' || ch == '\r' || ch == ' ')
            continue;
        int v = b64_value(ch);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out_len = k;
    return out;
}

static enum MHD_Result send_405(struct MHD_Connection *c, const char *allow, const char *path)
{
    char msg[160];
    snprintf(msg, sizeof msg, "use %s on %s", allow, path);
    return send_json_ex(c, 405, json_pack("{s:s, s:s}", "error", msg, "code", "method"), "Allow",
                        allow);
}

/* A percent-encoded control byte (NUL included) or DEL in a raw URI: ids,
   keys and paths never hold one, and once decoded a NUL would cut them. */
static int uri_has_control(const char *u)
{
    for (; *u; u++) {
        if ((unsigned char)*u < 0x20 || *u == 0x7f)
            return 1;
        if (*u == '%' && cz_hex_digit(u[1]) >= 0 && cz_hex_digit(u[2]) >= 0) {
            int v = cz_hex_digit(u[1]) * 16 + cz_hex_digit(u[2]);
            if (v < 0x20 || v == 0x7f)
                return 1;
        }
    }
    return 0;
}

static json_t *parse_body(const request *r, char *err, size_t err_len)
{
    json_error_t je;
    json_t *o = r->len ? json_loadb(r->body, r->len, JSON_REJECT_DUPLICATES, &je) : NULL;
    if (!o) {
        snprintf(err, err_len, "request body is not JSON%s%s", r->len ? ": " : " (empty body)",
                 r->len ? je.text : "");
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        snprintf(err, err_len, "request body must be a JSON object");
        return NULL;
    }
    return o;
}

/* A string member or NULL; *bad set when present but not a string. */
static const char *member_str(json_t *o, const char *name, int *bad)
{
    json_t *v = json_object_get(o, name);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        *bad = 1;
        return NULL;
    }
    return json_string_value(v);
}

static unsigned status_code(cz_status st)
{
    switch (st) {
    case CZ_OK: return 200;
    case CZ_ERR_ARG: return 400;
    case CZ_ERR_NOT_FOUND: return 404;
    case CZ_ERR_BUSY: return 409;
    case CZ_ERR_RANGE: return 413;
    case CZ_ERR_IO: return 400;
    case CZ_ERR_FORMAT:
    case CZ_ERR_CURVE:
    case CZ_ERR_NOT_ON_CURVE:
    case CZ_ERR_SUBGROUP:
    case CZ_ERR_WITNESS: return 422;
    case CZ_ERR_NOMEM: return 507;
    default: return 500;
    }
}

/* Who names files in a request: a client on the unix socket or on TCP
   (the path policy of [paths], docs/DAEMON.md "Files and paths"). */
static cz_origin origin_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct sockaddr_storage ss;
    socklen_t l = sizeof ss;
    if (ci && getsockname(ci->connect_fd, (struct sockaddr *)&ss, &l) == 0 &&
        ss.ss_family == AF_UNIX)
        return CZ_FROM_LOCAL;
    return CZ_FROM_REMOTE;
}

/* Equal strings, in time that depends on the lengths only. */
static int token_equal(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned char d = (unsigned char)(na != nb);
    for (size_t i = 0; i < na; i++)
        d |= (unsigned char)(a[i] ^ b[i < nb ? i : 0]);
    return d == 0;
}

/* Clients on TCP must show the bearer token of daemon.token_file; the
   unix socket is guarded by its file mode (0660) instead. A refusal is
   401 with WWW-Authenticate, and is logged with the peer's address. */
static int authorized(const cz_api *A, struct MHD_Connection *c)
{
    if (!A->token || origin_of(c) == CZ_FROM_LOCAL)
        return 1;
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    if (h && !strncasecmp(h, "Bearer ", 7) && token_equal(h + 7, A->token))
        return 1;
    char peer[64] = "?";
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, peer, sizeof peer);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, peer, sizeof peer);
    }
    cz_log(CZ_LOG_WARN, "api", "401: %s bearer token from %s", h ? "a wrong" : "no", peer);
    return 0;
}

static enum MHD_Result send_401(struct MHD_Connection *c)
{
    return send_json_ex(c, 401,
                        json_pack("{s:s, s:s}", "error",
                                  "this listener needs the daemon's bearer token (Authorization: "
                                  "Bearer ...)", "code", "unauthorized"),
                        "WWW-Authenticate", "Bearer realm=\"cuzkd\"");
}

/* ---- routes ---- */

static enum MHD_Result post_key(cz_api *A, struct MHD_Connection *c, const request *r)
{
    char err[512];
    json_t *o = parse_body(r, err, sizeof err);
    if (!o)
        return send_error(c, 400, "bad_request", err);
    int bad = 0;
    const char *id = member_str(o, "id", &bad), *path = member_str(o, "path", &bad);
    const char *preset = member_str(o, "preset", &bad);
    json_t *seed = json_object_get(o, "seed");
    enum MHD_Result ret;
    if (preset && !bad && !path) {
        /* a development key made from a native circuit preset, in memory;
           minutes at porep-32g: the client waits (no idle timeout meanwhile) */
        if (seed && !json_is_null(seed) && (!json_is_integer(seed) || json_integer_value(seed) < 0)) {
            json_decref(o);
            return send_error(c, 400, "bad_request", "seed must be a non-negative integer");
        }
        int seeded = seed && json_is_integer(seed);
        if (!id)
            id = preset;
        cz_status st = cz_engine_key_make(A->engine, id, preset,
                                          seeded ? (uint64_t)json_integer_value(seed) : 0, seeded,
                                          err, sizeof err);
        if (st) {
            cz_log(CZ_LOG_WARN, "api", "make key %s from preset %s: %s", id, preset, err);
            ret = send_error(c, status_code(st), "key_make", err);
        } else {
            cz_log(CZ_LOG_INFO, "api", "key %s made from preset %s", id, preset);
            ret = send_json(c, 201, json_pack("{s:s, s:s, s:s}", "id", id, "preset", preset,
                                              "status", "loaded"));
        }
    } else if (bad || !id || !path || preset) {
        ret = send_error(c, 400, "bad_request", "a key needs string members \"id\" and \"path\" "
                                                "(a file), or \"preset\" with optional \"id\" and "
                                                "\"seed\" (made in memory), not both");
    } else {
        cz_status st = cz_engine_key_load_from(A->engine, id, path, origin_of(c), err, sizeof err);
        if (st) {
            cz_log(CZ_LOG_WARN, "api", "load key %s from %s: %s", id, path, err);
            ret = send_error(c, status_code(st), "key_load", err);
        } else {
            cz_log(CZ_LOG_INFO, "api", "key %s loaded from %s", id, path);
            ret = send_json(c, 201, json_pack("{s:s, s:s}", "id", id, "status", "loaded"));
        }
    }
    json_decref(o);
    return ret;
}

static enum MHD_Result post_proof(cz_api *A, struct MHD_Connection *c, const request *r)
{
    char err[512];
    cz_job_request jr;
    memset(&jr, 0, sizeof jr);
    jr.priority = CZ_PRIO_NORMAL;
    jr.origin = origin_of(c);
    const char *ctype = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    json_t *o = NULL;
    uint8_t *bytes = NULL;
    const char *prio = NULL;
    const char **paths = NULL;
    char *c1_text = NULL;
    if (ctype && strncmp(ctype, "application/octet-stream", 24) == 0) {
        jr.key_id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "key");
        prio = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "priority");
        jr.request_id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "request_id");
        jr.witness = r->body ? r->body : "";
        jr.witness_len = r->len;
    } else {
        if (!(o = parse_body(r, err, sizeof err)))
            return send_error(c, 400, "bad_request", err);
        int bad = 0;
        jr.key_id = member_str(o, "key", &bad);
        jr.witness_path = member_str(o, "witness_path", &bad);
        const char *b64 = member_str(o, "witness_base64", &bad);
        prio = member_str(o, "priority", &bad);
        jr.request_id = member_str(o, "request_id", &bad);
        const char *type = member_str(o, "type", &bad);
        jr.c1_path = member_str(o, "c1_path", &bad);
        if (bad) {
            json_decref(o);
            return send_error(c, 400, "bad_request",
                              "type, key, witness_path, witness_base64, c1_path, priority and "
                              "request_id must be strings");
        }
        if (type && strcmp(type, "groth16") && strcmp(type, "porep")) {
            json_decref(o);
            return send_error(c, 400, "bad_request", "type is \"groth16\" (a witness) or \"porep\" (a c1)");
        }
        json_t *c1 = json_object_get(o, "c1");
        int porep = (type && !strcmp(type, "porep")) || (c1 && !json_is_null(c1)) || jr.c1_path;
        if (porep) {
            /* the c1 object goes to the engine as text; its reader checks it */
            const char *why = NULL;
            if (type && strcmp(type, "porep"))
                why = "c1 and c1_path belong to a job of type \"porep\"";
            else if (jr.witness_path || b64 || json_object_get(o, "witness_paths"))
                why = "a porep job takes a c1, not a witness";
            else if ((c1 && !json_is_null(c1)) == (jr.c1_path != NULL))
                why = "a porep job needs one of \"c1\" (the c1 object) and \"c1_path\"";
            else if (c1 && !json_is_object(c1))
                why = "c1: not a JSON object (the c1 file's content, as cuzk-bench gen-c1 writes it)";
            else if (A->farm)
                why = "porep jobs are not run by a farm yet: submit them to a daemon without --db";
            if (why) {
                json_decref(o);
                return send_error(c, 400, "bad_request", why);
            }
            if (c1 && !(c1_text = json_dumps(c1, JSON_COMPACT))) {
                json_decref(o);
                return send_error(c, 500, "internal", "out of memory");
            }
            jr.c1_json = c1_text;
            jr.c1_len = c1_text ? strlen(c1_text) : 0;
        }
        json_t *wp = json_object_get(o, "witness_paths");
        if (wp && !json_is_null(wp)) {
            size_t n = json_is_array(wp) ? json_array_size(wp) : 0;
            if (n == 0 || n > CZ_MAX_PARTITIONS || jr.witness_path || b64) {
                json_decref(o);
                return send_error(c, 400, "bad_request",
                                  "witness_paths is an array of 1 to 1024 paths (one per partition); "
                                  "give one of witness_path, witness_base64, witness_paths, not several");
            }
            if (!(paths = calloc(n, sizeof *paths))) {
                free(c1_text);
                json_decref(o);
                return send_error(c, 500, "internal", "out of memory");
            }
            for (size_t i = 0; i < n; i++)
                if (!(paths[i] = json_string_value(json_array_get(wp, i)))) {
                    free(paths);
                    json_decref(o);
                    return send_error(c, 400, "bad_request", "witness_paths must hold strings");
                }
            jr.witness_paths = paths;
            jr.n_partitions = n;
        }
        if (b64 && jr.witness_path) {
            json_decref(o);
            free(paths);
            return send_error(c, 400, "bad_request",
                              "give one of witness_path, witness_base64, witness_paths, not several");
        }
        if (b64) {
            if (!(bytes = b64_decode(b64, &jr.witness_len))) {
                free(paths);
                json_decref(o);
                return send_error(c, 400, "bad_request", "witness_base64 is not valid base64");
            }
            jr.witness = bytes;
            jr.witness_path = NULL;
        }
    }
    cz_submit_outcome outcome = CZ_SUBMIT_REFUSED;
    jr.outcome = &outcome;
    enum MHD_Result ret;
    if (prio && cz_priority_parse(prio, &jr.priority)) {
        ret = send_error(c, 400, "bad_request", "priority must be low, normal, high or critical");
    } else if (!jr.c1_json && !jr.c1_path &&
               (!jr.key_id || (!jr.witness && !jr.witness_path && !jr.witness_paths))) {
        ret = send_error(c, 400, "bad_request",
                         "a proof request needs \"key\" and one of \"witness_path\", \"witness_base64\", "
                         "\"witness_paths\" (or a raw .wtns body with ?key=)");
    } else if (atomic_load(&A->shutting_down)) {
        ret = send_error(c, 503, "shutting_down", "the daemon is shutting down");
    } else {
        char id[24];
        size_t pos = 0;
        cz_status st = A->farm ? cz_farm_submit(A->farm, &jr, id, &pos, err, sizeof err)
                               : cz_engine_submit(A->engine, &jr, id, &pos, err, sizeof err);
        if (st == CZ_ERR_BUSY && outcome == CZ_SUBMIT_CONFLICT) {
            ret = send_error(c, 409, "request_id_conflict", err);
        } else if (st == CZ_ERR_BUSY && outcome == CZ_SUBMIT_DRAINING) {
            ret = send_error(c, 503, "shutting_down", err);
        } else if (st == CZ_ERR_BUSY && outcome == CZ_SUBMIT_UNAVAILABLE) {
            /* the key is being made or loaded (GET /v1/keys shows its stage) */
            ret = send_json_ex(c, 503, json_pack("{s:s, s:s, s:i}", "error", err, "code", "key_loading",
                                                 "retry_after_ms", 5000), "Retry-After", "5");
        } else if (st == CZ_ERR_BUSY) {
            ret = send_json_ex(c, 429, json_pack("{s:s, s:s, s:i}", "error", err, "code", "queue_full",
                                                 "retry_after_ms", 1000), "Retry-After", "1");
        } else if (st == CZ_ERR_RANGE) {
            ret = send_error(c, 413, "too_large", err);
        } else if (st) {
            ret = send_error(c, status_code(st), "bad_request", err);
        } else if (outcome == CZ_SUBMIT_EXISTING) {
            /* the job this request made before, as it stands now */
            json_t *j = A->farm ? cz_farm_await(A->farm, id, 0, NULL) : cz_engine_await(A->engine, id, 0);
            if (j) {
                json_object_set_new(j, "position", json_integer((json_int_t)pos));
                json_object_set_new(j, "existing", json_true());
                ret = send_json(c, 200, j);
            } else {
                ret = send_error(c, 404, "not_found", "the job of this request_id was just forgotten");
            }
        } else {
            ret = send_json(c, 202, json_pack("{s:s, s:I, s:s}", "job_id", id, "position",
                                              (json_int_t)pos, "status", "queued"));
        }
    }
    free(bytes);
    free(paths);
    free(c1_text);
    json_decref(o);
    return ret;
}

static enum MHD_Result get_proof(cz_api *A, struct MHD_Connection *c, const char *id)
{
    const char *w = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "wait_ms");
    long wait = 0;
    if (w) {
        char *end;
        wait = strtol(w, &end, 10);
        if (end == w || *end || wait < 0)
            return send_error(c, 400, "bad_request", "wait_ms must be a non-negative integer");
        if (wait > A->max_wait_ms)
            wait = A->max_wait_ms;
    }
    /* no idle timeout while it waits: see handler() */
    cz_status fst = CZ_OK;
    json_t *o = A->farm ? cz_farm_await(A->farm, id, (int)wait, &fst) : cz_engine_await(A->engine, id, (int)wait);
    if (!o && fst == CZ_ERR_IO)
        return send_error(c, 503, "database_unavailable", "the farm's database is unreachable; retry");
    if (!o)
        return send_error(c, 404, "not_found", "unknown job (or finished long ago and forgotten)");
    return send_json(c, 200, o);
}

static enum MHD_Result cancel_proof(cz_api *A, struct MHD_Connection *c, const char *id)
{
    cz_status st = A->farm ? cz_farm_cancel(A->farm, id) : cz_engine_cancel(A->engine, id);
    if (st == CZ_ERR_IO)
        return send_error(c, 503, "database_unavailable", "the farm's database is unreachable; retry");
    if (st == CZ_ERR_NOT_FOUND)
        return send_error(c, 404, "not_found", "unknown job");
    if (st == CZ_ERR_BUSY)
        return send_error(c, 409, "finished", "the job has already finished");
    json_t *o = A->farm ? cz_farm_await(A->farm, id, 0, NULL) : cz_engine_await(A->engine, id, 0);
    return send_json(c, 200, o ? o : json_pack("{s:s}", "job_id", id));
}

static enum MHD_Result route(cz_api *A, struct MHD_Connection *c, const char *url,
                             const char *method, const request *r)
{
    int get = !strcmp(method, "GET"), post = !strcmp(method, "POST"), del = !strcmp(method, "DELETE");
    int head = !strcmp(method, "HEAD"); /* MHD sends a GET's headers without the body */
    get |= head;
    if (!strcmp(url, "/v1/health") || !strcmp(url, "/v1/status") || !strcmp(url, "/v1/timeline") ||
        !strcmp(url, "/metrics")) {
        if (!get)
            return send_405(c, "GET, HEAD", url);
    }
    if (!strcmp(url, "/v1/health"))
        return send_json(c, 200, json_pack("{s:b}", "ok", 1));
    if (!strcmp(url, "/v1/status")) {
        json_t *o = cz_engine_status_json(A->engine);
        if (A->farm)
            json_object_set_new(o, "farm", cz_farm_status_json(A->farm));
        return send_json(c, 200, o);
    }
    if (!strcmp(url, "/v1/timeline"))
        return send_json(c, 200, cz_engine_timeline_json(A->engine));
    if (!strcmp(url, "/metrics")) {
        char *t = cz_engine_metrics_text(A->engine);
        if (t && A->farm) {
            char *ft = cz_farm_metrics_text(A->farm);
            char *both = ft ? malloc(strlen(t) + strlen(ft) + 1) : NULL;
            if (both) {
                strcpy(stpcpy(both, t), ft);
                free(t);
                t = both;
            }
            free(ft);
        }
        if (!t)
            return send_error(c, 500, "internal", "out of memory");
        return send_text(c, 200, t, strlen(t), "text/plain; version=0.0.4", NULL, NULL);
    }
    if (!strcmp(url, "/v1/keys")) {
        if (get)
            return send_json(c, 200, cz_engine_keys_list_json(A->engine));
        if (post)
            return post_key(A, c, r);
        return send_405(c, "GET, HEAD, POST", "/v1/keys");
    }
    if (!strncmp(url, "/v1/keys/", 9) && url[9] && strchr(url + 9, '/')) {
        const char *slash = strchr(url + 9, '/');
        if (strcmp(slash, "/vk"))
            return send_error(c, 404, "not_found", "no such endpoint (see /v1/keys/ID, /v1/keys/ID/vk)");
        if (!get)
            return send_405(c, "GET, HEAD", "/v1/keys/ID/vk");
        char id[128];
        size_t n = (size_t)(slash - (url + 9));
        if (n >= sizeof id)
            return send_error(c, 404, "not_found", "unknown key");
        memcpy(id, url + 9, n);
        id[n] = 0;
        char *vk = cz_engine_key_vk_json(A->engine, id);
        if (!vk)
            return send_error(c, 404, "not_found", "unknown key");
        return send_text(c, 200, vk, strlen(vk), "application/json", NULL, NULL);
    }
    if (!strncmp(url, "/v1/keys/", 9) && url[9]) {
        if (!del)
            return send_405(c, "DELETE", "/v1/keys/ID");
        char err[512];
        cz_status st = cz_engine_key_evict(A->engine, url + 9, err, sizeof err);
        if (st)
            return send_error(c, status_code(st), st == CZ_ERR_BUSY ? "in_use" : "not_found", err);
        cz_log(CZ_LOG_INFO, "api", "key %s evicted", url + 9);
        return send_json(c, 200, json_pack("{s:s, s:s}", "id", url + 9, "status", "evicted"));
    }
    if (!strcmp(url, "/v1/proofs")) {
        if (post)
            return post_proof(A, c, r);
        return send_405(c, "POST", "/v1/proofs");
    }
    if (!strncmp(url, "/v1/proofs/", 11) && url[11]) {
        char id[64];
        const char *rest = url + 11, *slash = strchr(rest, '/');
        size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
        if (n >= sizeof id)
            return send_error(c, 404, "not_found", "unknown job");
        memcpy(id, rest, n);
        id[n] = 0;
        if (!slash && get)
            return get_proof(A, c, id);
        if ((!slash && del) || (slash && !strcmp(slash, "/cancel") && post))
            return cancel_proof(A, c, id);
        if (!slash)
            return send_405(c, "GET, HEAD, DELETE", "/v1/proofs/ID");
        if (!strcmp(slash, "/cancel"))
            return send_405(c, "POST", "/v1/proofs/ID/cancel");
        return send_error(c, 404, "not_found", "no such endpoint (see /v1/proofs/ID, /v1/proofs/ID/cancel)");
    }
    return send_error(c, 404, "not_found", "no such endpoint (see /v1/status, /v1/keys, /v1/proofs, /metrics)");
}

static enum MHD_Result send_too_large(cz_api *A, struct MHD_Connection *c)
{
    char msg[128];
    snprintf(msg, sizeof msg, "request body larger than the %llu-byte limit (max_upload)",
             A->max_upload);
    return send_error(c, 413, "too_large", msg);
}

/* A body that the host memory budget cannot hold: 503 with Retry-After
   while others hold it, 413 when it is larger than the whole budget. */
static enum MHD_Result send_no_memory(cz_api *A, struct MHD_Connection *c, size_t bytes)
{
    if (bytes > cz_engine_mem_budget(A->engine))
        return send_error(c, 413, "too_large",
                          "request body larger than the host memory budget (engine.host_memory_budget)");
    return send_json_ex(c, 503, json_pack("{s:s, s:s, s:i}", "error",
                                          "the host memory budget is full: the body does not fit "
                                          "now (retry later)", "code", "no_memory",
                                          "retry_after_ms", 1000), "Retry-After", "1");
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload,
                               size_t *upload_size, void **con_cls)
{
    cz_api *A = cls;
    request *r = *con_cls;
    if (!r) { /* the URI callback could not allocate */
        return MHD_NO;
    }
    if (!r->started) {
        r->started = 1;
        if (r->bad_uri) {
            r->done = 1;
            return send_error(c, 400, "bad_request",
                              "the URL holds a control byte or NUL (percent-encoded or not)");
        }
        if (!authorized(A, c)) { /* before any body is read or memory held */
            r->done = 1;
            return send_401(c);
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        const char *ex = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Expect");
        if (cl && strtoull(cl, NULL, 10) > A->max_upload) {
            r->too_large = 1;
            if (ex && strcasestr(ex, "100-continue")) { /* no body will come */
                r->done = 1;
                return send_too_large(A, c);
            }
        } else if (cl && strtoull(cl, NULL, 10) > 0) {
            /* The whole body's memory is held from the host budget before
               a byte of it is read, so that concurrent uploads never each
               hold a part and all fail: one that does not fit now is
               dropped as it comes and answered 503 (413: never). */
            r->expect = (size_t)strtoull(cl, NULL, 10) + 1;
            if (cz_engine_mem_hold(A->engine, r->expect) != CZ_OK) {
                r->no_memory = 1;
                if (ex && strcasestr(ex, "100-continue")) {
                    r->done = 1;
                    return send_no_memory(A, c, r->expect);
                }
            } else {
                r->held = r->expect;
            }
        }
        return MHD_YES;
    }
    if (r->done)
        return MHD_YES;
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (r->too_large || r->len + n > A->max_upload) {
            r->too_large = 1;
            r->dropped += n;
            return r->dropped / 64 > A->max_upload ? MHD_NO : MHD_YES;
        }
        if (r->no_memory) {
            r->dropped += n;
            return r->dropped / 64 > A->max_upload ? MHD_NO : MHD_YES;
        }
        if (r->len + n + 1 > r->cap) {
            size_t cap = r->cap ? r->cap : 4096;
            while (cap < r->len + n + 1)
                cap *= 2;
            if (r->expect >= r->len + n + 1)
                cap = r->expect; /* the size held for it */
            /* a body in memory counts in the host memory budget (a body
               without a Content-Length: as it grows) */
            if (cap > r->held && cz_engine_mem_hold(A->engine, cap - r->held) != CZ_OK) {
                r->no_memory = 1;
                r->dropped += r->len + n;
                free(r->body);
                r->body = NULL;
                r->len = r->cap = 0;
                cz_engine_mem_release(A->engine, r->held);
                r->held = 0;
                return MHD_YES;
            }
            if (cap > r->held)
                r->held = cap;
            char *nb = realloc(r->body, cap);
            if (!nb)
                return MHD_NO;
            r->body = nb;
            r->cap = cap;
        }
        memcpy(r->body + r->len, upload, n);
        r->len += n;
        r->body[r->len] = 0;
        return MHD_YES;
    }
    if (r->too_large)
        return send_too_large(A, c);
    if (r->no_memory)
        return send_no_memory(A, c, r->dropped + 1);
    /* The daemon, not the client, is busy while a route works (a long
       poll, a key load, a large upload parsed): lift the idle timeout
       meanwhile, and restart it (from now) for sending the answer. */
    if (A->conn_timeout_s)
        MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, 0u);
    enum MHD_Result ret = route(A, c, url, method, r);
    if (A->conn_timeout_s)
        MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)A->conn_timeout_s);
    return ret;
}

/* Called with the raw request line's URI, before libmicrohttpd decodes it;
   what it returns is the request's context (freed by completed()). */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    request *r = calloc(1, sizeof *r);
    if (r)
        r->bad_uri = uri_has_control(uri);
    return r;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    request *r = *con_cls;
    if (r) {
        cz_api *A = cls;
        cz_engine_mem_release(A->engine, r->held);
        free(r->body);
        free(r);
        *con_cls = NULL;
    }
}

int cz_api_start(cz_api *A, int listen_fd, char *err, size_t err_len)
{
    if (A->n_daemons >= CZ_API_MAX_LISTEN) {
        snprintf(err, err_len, "too many listeners");
        return -1;
    }
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL,
        NULL, handler, A, MHD_OPTION_LISTEN_SOCKET, listen_fd, MHD_OPTION_NOTIFY_COMPLETED,
        completed, A, MHD_OPTION_URI_LOG_CALLBACK, on_uri, NULL,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)A->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)A->max_connections_per_client,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)A->conn_timeout_s, MHD_OPTION_END);
    if (!d) {
        snprintf(err, err_len, "libmicrohttpd could not start on the listening socket");
        return -1;
    }
    A->daemons[A->n_daemons++] = d;
    return 0;
}

void cz_api_stop(cz_api *A)
{
    for (int i = 0; i < A->n_daemons; i++)
        MHD_stop_daemon(A->daemons[i]);
    A->n_daemons = 0;
}
