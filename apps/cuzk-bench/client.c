/* client.c: see client.h. */
#include "client.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *buf;
    size_t len, cap;
} sink;

static size_t on_data(char *p, size_t size, size_t n, void *user)
{
    sink *s = user;
    size_t k = size * n;
    if (s->len + k + 1 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        while (cap < s->len + k + 1)
            cap *= 2;
        char *nb = realloc(s->buf, cap);
        if (!nb)
            return 0;
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, k);
    s->len += k;
    s->buf[s->len] = 0;
    return k;
}

int cz_client_init(cz_client *c, const char *addr, char *err, size_t err_len)
{
    memset(c, 0, sizeof *c);
    static int global_done;
    if (!global_done) { /* called from main before threads start */
        curl_global_init(CURL_GLOBAL_DEFAULT);
        global_done = 1;
    }
    if (!strncmp(addr, "unix:", 5)) {
        if (strlen(addr + 5) >= sizeof c->unix_path || !addr[5]) {
            snprintf(err, err_len, "%s: socket path empty or too long", addr);
            return -1;
        }
        strcpy(c->unix_path, addr + 5);
        snprintf(c->base, sizeof c->base, "http://localhost");
    } else {
        if (!strchr(addr, ':')) {
            snprintf(err, err_len, "%s: expected unix:/path or HOST:PORT", addr);
            return -1;
        }
        snprintf(c->base, sizeof c->base, "http://%s", addr);
    }
    c->auth[0] = 0;
    const char *tf = getenv("CUZK_TOKEN_FILE"), *tv = getenv("CUZK_TOKEN");
    char tok[256] = "";
    if (tf && *tf) {
        FILE *f = fopen(tf, "r");
        if (!f || !fgets(tok, sizeof tok, f)) {
            snprintf(err, err_len, "token file %s: %s", tf, f ? "empty" : strerror(errno));
            if (f)
                fclose(f);
            return -1;
        }
        fclose(f);
    } else if (tv && *tv) {
        snprintf(tok, sizeof tok, "%s", tv);
    }
    tok[strcspn(tok, "\r\n")] = 0;
    if (tok[0])
        snprintf(c->auth, sizeof c->auth, "Authorization: Bearer %s", tok);
    if (!(c->curl = curl_easy_init())) {
        snprintf(err, err_len, "libcurl initialisation failed");
        return -1;
    }
    return 0;
}

void cz_client_free(cz_client *c)
{
    if (c->curl)
        curl_easy_cleanup(c->curl);
    c->curl = NULL;
}

char *cz_client_call(cz_client *c, const char *method, const char *path, const void *body,
                     size_t body_len, const char *content_type, long timeout_s, long *code,
                     char *err, size_t err_len)
{
    CURL *h = c->curl;
    char url[1024];
    snprintf(url, sizeof url, "%s%s", c->base, path);
    sink s = {0};
    struct curl_slist *hdr = NULL;
    char ct[128];
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    if (c->unix_path[0])
        curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, c->unix_path);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s > 0 ? timeout_s : 60L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    if (c->auth[0])
        hdr = curl_slist_append(hdr, c->auth);
    if (body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
        snprintf(ct, sizeof ct, "Content-Type: %s", content_type ? content_type : "application/json");
        hdr = curl_slist_append(hdr, ct);
        hdr = curl_slist_append(hdr, "Expect:");
    }
    if (hdr)
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(hdr);
    if (rc != CURLE_OK) {
        snprintf(err, err_len, "no answer from cuzkd at %s%s: %s", c->unix_path[0] ? "unix:" : "",
                 c->unix_path[0] ? c->unix_path : c->base, curl_easy_strerror(rc));
        free(s.buf);
        return NULL;
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, code);
    if (!s.buf)
        s.buf = calloc(1, 1);
    return s.buf;
}

json_t *cz_client_json(cz_client *c, const char *method, const char *path, json_t *body,
                       long timeout_s, long *code, char *err, size_t err_len)
{
    char *b = body ? json_dumps(body, JSON_COMPACT) : NULL;
    char *text = cz_client_call(c, method, path, b, b ? strlen(b) : 0, "application/json",
                                timeout_s, code, err, err_len);
    free(b);
    if (!text)
        return NULL;
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!o)
        snprintf(err, err_len, "cuzkd answered HTTP %ld with something that is not JSON: %.80s",
                 *code, text);
    free(text);
    return o;
}
