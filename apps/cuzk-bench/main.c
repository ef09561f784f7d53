/*
 * cuzk-bench: drives cuzkd the way a proving farm does.
 *
 *   cuzk-bench [--addr ADDR] batch -t groth16 --key ID --witness FILE
 *              [-c COUNT] [-j CONCURRENCY] [--priority P] [--upload] [--out DIR]
 *   cuzk-bench [--addr ADDR] batch -t porep --c1 FILE [--key ID]
 *              [-c COUNT] [-j CONCURRENCY] [--priority P] [--upload] [--out DIR]
 *   cuzk-bench [--addr ADDR] single --key ID --witness FILE [--out DIR]
 *   cuzk-bench [--addr ADDR] status | metrics
 *   cuzk-bench gen-c1 --preset PRESET [--seed N] --out c1.json   (genc1.c)
 *   cuzk-bench [--addr ADDR] preload --key ID --path FILE
 *   cuzk-bench [--addr ADDR] preload --key PRESET [--id ID] [--seed N]
 *   cuzk-bench [--addr ADDR] timeline --svg FILE [--since-ms T]
 *   cuzk-bench [--addr ADDR] idle -n N [--seconds S]
 *
 * batch keeps CONCURRENCY jobs in flight until COUNT have finished, prints
 * a line per proof and a summary (wall and prove time, throughput), and a
 * JSON line with the same figures for scripts. Only an answer that may
 * change is retried: 429 (queue full) and 503 (shutting down), after the
 * daemon's hint (1 to 10 s), for at most --retry-for seconds (default 300)
 * per job; any other refusal (413: a job larger than max_pending, 4xx: a
 * bad request) can never succeed, so it ends that job at once and no
 * further jobs are sent. A daemon that goes away is a clear error, never
 * a hang.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "genc1.h"
#include "idle.h"
#include "timeline.h"

#define DEFAULT_ADDR "unix:/tmp/cuzkd.sock"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: cuzk-bench [--addr ADDR] [--token-file FILE] COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  batch -t groth16 --key ID --witness FILE [-c COUNT] [-j CONCURRENCY]\n"
            "        [--priority low|normal|high|critical] [--upload] [--partitions N] [--out DIR]\n"
            "                    prove COUNT times (default 10), CONCURRENCY in flight (default 1)\n"
            "  batch -t porep --c1 FILE [--key ID] [-c COUNT] [-j CONCURRENCY] [--upload] [--out DIR]\n"
            "                    prove a commit-1 input (every partition) COUNT times, against\n"
            "                    the key of its preset (or ID); --out also writes vk.json\n"
            "  single --key ID --witness FILE [--upload] [--out DIR]\n"
            "  status            the daemon's status snapshot (JSON)\n"
            "  gen-c1 --preset PRESET [--seed N] --out c1.json\n"
            "                    write a commit-1-like input for a native PoRep preset (local;\n"
            "                    see cuzk circuit list)\n"
            "  metrics           the daemon's Prometheus metrics\n"
            "  preload --key ID --path FILE\n"
            "                    load a proving key into the daemon\n"
            "  preload --key PRESET [--id ID] [--seed N]\n"
            "                    make a development key of a native preset in the daemon's\n"
            "                    memory (minutes at porep-32g; id: the preset's name)\n"
            "  timeline --svg FILE [--since-ms T]\n"
            "                    draw the daemon's recent timeline (spans from daemon time T\n"
            "                    on; /v1/timeline's now_ms) as a waterfall SVG\n"
            "  idle -n N [--seconds S]\n"
            "                    open N connections that send an unfinished request and then\n"
            "                    nothing (a test of the daemon's connection limits and\n"
            "                    timeout); hold them up to S seconds (default 30); report\n"
            "                    how many the daemon refused and when it closed the rest\n"
            "\n"
            "ADDR is unix:/path/to.sock or HOST:PORT (default $CUZK_ADDR or " DEFAULT_ADDR ").\n"
            "--token-file FILE: the bearer token of a cuzkd with daemon.token_file (its first\n"
            "line; or $CUZK_TOKEN_FILE, or the token itself in $CUZK_TOKEN).\n"
            "--upload sends the witness bytes instead of its path (the daemon need not\n"
            "see the file). --partitions N makes each job N partitions of that witness\n"
            "(a proof each, spread over the daemon's devices; prove= sums them; --out\n"
            "writes proof-K-P.json). For porep, --upload sends the c1's content instead\n"
            "of its path, and --out writes proof-K-P.json and public-K-P.json per job K\n"
            "and partition P, and the key's vk.json. --retry-for S bounds the retries of 429 and 503 answers\n"
            "per job (default 300 s); other refusals are not retried. exit status: 0 all\n"
            "proofs completed, 1 some failed or were refused, 2 usage or connection error.\n");
}

typedef struct {
    const char *addr, *key, *witness, *out, *type;
    const char *c1;         /* porep: the c1 file */
    json_t *c1_doc;         /* porep --upload: its content */
    int porep;
    double *part_prove;     /* porep: each partition's prove time (ms), count * max_parts */
    int *n_part;            /* partitions seen per job */
    int max_parts;
    const char *priority;
    int count, conc, upload, parts;
    double retry_for;       /* seconds of 429/503 retries per job */
    uint8_t *wtns;          /* --upload: the witness bytes */
    size_t wtns_len;
    atomic_int next, printed;
    pthread_mutex_t print_mu;
    double t0;
    /* results */
    double *wall, *prove, *queue;
    int *ok;
    atomic_int fatal;       /* daemon unreachable */
    atomic_int refused;     /* a refusal no retry can change: send no more jobs */
} batch;

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = fputs(text, f) < 0 ? -1 : 0;
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b)
        *len = (size_t)n;
    return b;
}

/* Submit one job; returns its id (caller frees) or NULL with err. Retries
   429 and 503 answers after the daemon's hint, for at most B->retry_for
   seconds; any other refusal sets B->refused. */
static char *submit(cz_client *c, batch *B, char *err, size_t err_len, int *retries)
{
    double t0 = now_s();
    for (;;) {
        long code = 0;
        json_t *ans;
        if (B->upload) {
            char path[512];
            snprintf(path, sizeof path, "/v1/proofs?key=%s&priority=%s", B->key, B->priority);
            char *text = cz_client_call(c, "POST", path, B->wtns, B->wtns_len,
                                        "application/octet-stream", 60, &code, err, err_len);
            if (!text)
                return NULL;
            json_error_t je;
            ans = json_loads(text, 0, &je);
            free(text);
        } else if (B->porep) {
            json_t *body = json_pack("{s:s, s:s}", "type", "porep", "priority", B->priority);
            if (B->key)
                json_object_set_new(body, "key", json_string(B->key));
            if (B->c1_doc) {
                json_object_set(body, "c1", B->c1_doc);
            } else {
                char abs[4096];
                const char *w = B->c1;
                if (w[0] != '/' && realpath(w, abs))
                    w = abs;
                json_object_set_new(body, "c1_path", json_string(w));
            }
            ans = cz_client_json(c, "POST", "/v1/proofs", body, 600, &code, err, err_len);
            json_decref(body);
        } else {
            char abs[4096];
            const char *w = B->witness;
            if (w[0] != '/' && realpath(w, abs))
                w = abs;
            json_t *body = json_pack("{s:s, s:s}", "key", B->key, "priority", B->priority);
            if (B->parts > 1) {
                json_t *a = json_array();
                for (int k = 0; k < B->parts; k++)
                    json_array_append_new(a, json_string(w));
                json_object_set_new(body, "witness_paths", a);
            } else {
                json_object_set_new(body, "witness_path", json_string(w));
            }
            ans = cz_client_json(c, "POST", "/v1/proofs", body, 60, &code, err, err_len);
            json_decref(body);
        }
        if (!ans) {
            if (!err[0])
                snprintf(err, err_len, "bad answer to submit");
            return NULL;
        }
        if (code == 429 || code == 503) {
            json_int_t ms = json_integer_value(json_object_get(ans, "retry_after_ms"));
            ms = ms < 1000 ? 1000 : ms > 10000 ? 10000 : ms;
            if (now_s() + (double)ms / 1e3 - t0 > B->retry_for) {
                const char *e = json_string_value(json_object_get(ans, "error"));
                snprintf(err, err_len, "gave up after %d retries in %.0f s (--retry-for): HTTP %ld: %s",
                         *retries, now_s() - t0, code, e ? e : "?");
                json_decref(ans);
                return NULL;
            }
            json_decref(ans);
            (*retries)++;
            usleep((useconds_t)(ms * 1000));
            continue;
        }
        const char *id = json_string_value(json_object_get(ans, "job_id"));
        char *r = NULL;
        if (code == 202 && id) {
            r = strdup(id);
        } else {
            const char *e = json_string_value(json_object_get(ans, "error"));
            snprintf(err, err_len, "submit refused (HTTP %ld): %s", code, e ? e : "?");
            atomic_store(&B->refused, 1);
        }
        json_decref(ans);
        return r;
    }
}

/* Long-poll until the job finishes; returns its JSON or NULL with err. */
static json_t *await_job(cz_client *c, const char *id, char *err, size_t err_len)
{
    char path[256];
    snprintf(path, sizeof path, "/v1/proofs/%s?wait_ms=30000", id);
    for (;;) {
        long code = 0;
        json_t *ans = cz_client_json(c, "GET", path, NULL, 90, &code, err, err_len);
        if (!ans)
            return NULL;
        if (code != 200) {
            const char *e = json_string_value(json_object_get(ans, "error"));
            snprintf(err, err_len, "await %s: HTTP %ld: %s", id, code, e ? e : "?");
            json_decref(ans);
            return NULL;
        }
        const char *st = json_string_value(json_object_get(ans, "status"));
        if (st && (!strcmp(st, "done") || !strcmp(st, "failed") || !strcmp(st, "cancelled")))
            return ans;
        json_decref(ans);
    }
}

static double timing(json_t *job, const char *name)
{
    return json_number_value(json_object_get(json_object_get(job, "timings_ms"), name));
}

/* A client for addr, or 0 after printing why not. */
static int connect_to(cz_client *c, const char *addr)
{
    char err[1024];
    if (cz_client_init(c, addr, err, sizeof err) == 0)
        return 1;
    fprintf(stderr, "cuzk-bench: %s\n", err);
    return 0;
}

/* A duration for people: seconds from one second up, milliseconds below
   ("0.0s" said nothing of a 35 ms proof). buf holds 16 bytes. */
static const char *fmt_dur(char *buf, double s)
{
    if (s >= 1.0)
        snprintf(buf, 16, "%.1fs", s);
    else
        snprintf(buf, 16, "%.0fms", s * 1e3);
    return buf;
}

static void *batch_worker(void *arg)
{
    batch *B = arg;
    cz_client c;
    char err[1024];
    if (!connect_to(&c, B->addr)) {
        atomic_store(&B->fatal, 1);
        return NULL;
    }
    for (;;) {
        int i = atomic_fetch_add(&B->next, 1);
        if (i >= B->count || atomic_load(&B->fatal) || atomic_load(&B->refused))
            break;
        double t0 = now_s();
        int retries = 0;
        err[0] = 0;
        char *id = submit(&c, B, err, sizeof err, &retries);
        json_t *job = id ? await_job(&c, id, err, sizeof err) : NULL;
        double t1 = now_s();
        const char *st = job ? json_string_value(json_object_get(job, "status")) : NULL;
        int ok = st && !strcmp(st, "done");
        B->wall[i] = t1 - t0;
        B->ok[i] = ok;
        json_t *parts = job ? json_object_get(job, "partitions") : NULL;
        if (job && json_is_array(parts)) { /* prove: all partitions; queue: the longest wait */
            size_t k;
            json_t *pt;
            json_array_foreach(parts, k, pt) {
                B->prove[i] += timing(pt, "gpu");
                double q = timing(pt, "queue_wait") + timing(pt, "gpu_queue");
                if (q > B->queue[i])
                    B->queue[i] = q;
                if (B->part_prove && (int)k < B->max_parts && ok) {
                    B->part_prove[(size_t)i * B->max_parts + k] = timing(pt, "gpu");
                    B->n_part[i] = (int)k + 1;
                }
            }
        } else if (job) {
            B->prove[i] = timing(job, "gpu");
            B->queue[i] = timing(job, "queue_wait") + timing(job, "gpu_queue");
            if (B->part_prove && ok) {
                B->part_prove[(size_t)i * B->max_parts] = B->prove[i];
                B->n_part[i] = 1;
            }
        }
        json_t *proofs = job ? json_object_get(job, "proofs") : NULL;
        if (ok && B->out && json_is_array(proofs)) {
            for (size_t k = 0; k < json_array_size(proofs); k++) {
                char p[4096];
                const char *what[2] = {"proof", "public"}, *from[2] = {"proofs", "publics"};
                for (int d = 0; d < 2; d++) {
                    char *t = json_dumps(json_array_get(json_object_get(job, from[d]), k), JSON_INDENT(1));
                    snprintf(p, sizeof p, "%s/%s-%d-%zu.json", B->out, what[d], i + 1, k + 1);
                    if (!t || write_file(p, t))
                        fprintf(stderr, "cuzk-bench: cannot write %s\n", p);
                    free(t);
                }
            }
        } else if (ok && B->out) {
            char p[4096];
            char *pj = json_dumps(json_object_get(job, "proof"), JSON_INDENT(1));
            char *uj = json_dumps(json_object_get(job, "public"), JSON_INDENT(1));
            snprintf(p, sizeof p, "%s/proof-%d.json", B->out, i + 1);
            if (!pj || write_file(p, pj))
                fprintf(stderr, "cuzk-bench: cannot write %s\n", p);
            snprintf(p, sizeof p, "%s/public-%d.json", B->out, i + 1);
            if (!uj || write_file(p, uj))
                fprintf(stderr, "cuzk-bench: cannot write %s\n", p);
            free(pj);
            free(uj);
        }
        pthread_mutex_lock(&B->print_mu);
        int n = atomic_fetch_add(&B->printed, 1) + 1;
        if (ok) {
            char wt[16];
            printf("[%d/%d] COMPLETED — %s (prove=%.0f ms, queue=%.0f ms)%s\n", n, B->count,
                   fmt_dur(wt, B->wall[i]), B->prove[i], B->queue[i], retries ? " (retried after 429/503)" : "");
        } else {
            const char *e = job ? json_string_value(json_object_get(job, "error")) : NULL;
            printf("[%d/%d] %s — %.1fs (prove=%.0f ms, queue=%.0f ms): %s\n", n, B->count,
                   st && !strcmp(st, "cancelled") ? "CANCELLED" : "FAILED", B->wall[i],
                   B->prove[i], B->queue[i], e ? e : err);
        }
        fflush(stdout);
        pthread_mutex_unlock(&B->print_mu);
        if (!job && !id && strstr(err, "no answer"))
            atomic_store(&B->fatal, 1);
        if (!job && id && strstr(err, "no answer"))
            atomic_store(&B->fatal, 1);
        free(id);
        json_decref(job);
    }
    cz_client_free(&c);
    return NULL;
}

static void stats(const double *v, const int *ok, int n, int want_ok, double *avg, double *mn,
                  double *mx)
{
    int k = 0;
    double s = 0;
    *mn = 0;
    *mx = 0;
    for (int i = 0; i < n; i++) {
        if (want_ok && !ok[i])
            continue;
        if (!k || v[i] < *mn)
            *mn = v[i];
        if (!k || v[i] > *mx)
            *mx = v[i];
        s += v[i];
        k++;
    }
    *avg = k ? s / k : 0;
}

static int run_batch(batch *B)
{
    if (B->upload && !(B->wtns = slurp(B->witness, &B->wtns_len))) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", B->witness, strerror(errno));
        return 2;
    }
    if (B->out && mkdir(B->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk-bench: %s: %s\n", B->out, strerror(errno));
        return 2;
    }
    B->wall = calloc((size_t)B->count, sizeof(double));
    B->prove = calloc((size_t)B->count, sizeof(double));
    B->queue = calloc((size_t)B->count, sizeof(double));
    B->ok = calloc((size_t)B->count, sizeof(int));
    if (B->porep) {
        B->max_parts = 1024;
        B->part_prove = calloc((size_t)B->count * (size_t)B->max_parts, sizeof(double));
        B->n_part = calloc((size_t)B->count, sizeof(int));
    }
    pthread_t *th = calloc((size_t)B->conc, sizeof *th);
    if (!B->wall || !B->prove || !B->queue || !B->ok || !th ||
        (B->porep && (!B->part_prove || !B->n_part))) {
        fprintf(stderr, "cuzk-bench: out of memory\n");
        return 2;
    }
    pthread_mutex_init(&B->print_mu, NULL);
    printf("=== Batch Benchmark ===\nproof type: %s\nkey: %s\n", B->type, B->key);
    if (B->porep)
        printf("c1: %s (%s)\n", B->c1, B->c1_doc ? "uploaded" : "by path");
    printf("count: %d\nconcurrency: %d\n", B->count, B->conc);
    if (B->parts > 1)
        printf("partitions per proof: %d\n", B->parts);
    printf("\n");
    fflush(stdout);
    B->t0 = now_s();
    for (int i = 0; i < B->conc; i++)
        pthread_create(&th[i], NULL, batch_worker, B);
    for (int i = 0; i < B->conc; i++)
        pthread_join(th[i], NULL);
    double total = now_s() - B->t0;
    if (B->porep && B->out) { /* the key's verification key, to check the proofs with */
        cz_client c;
        if (connect_to(&c, B->addr)) {
            char path[512], err[1024], vkp[4096];
            snprintf(path, sizeof path, "/v1/keys/%s/vk", B->key);
            snprintf(vkp, sizeof vkp, "%s/vk.json", B->out);
            long code = 0;
            char *t = cz_client_call(&c, "GET", path, NULL, 0, NULL, 60, &code, err, sizeof err);
            if (!t || code != 200 || write_file(vkp, t))
                fprintf(stderr, "cuzk-bench: cannot write %s (GET %s: %s)\n", vkp, path,
                        t ? (code == 200 ? "write failed" : t) : err);
            free(t);
            cz_client_free(&c);
        }
    }
    int done = 0;
    for (int i = 0; i < B->count; i++)
        done += B->ok[i];
    int failed = atomic_load(&B->printed) - done;
    int missing = B->count - atomic_load(&B->printed);
    double wa, wmn, wmx, pa, pmn, pmx;
    stats(B->wall, B->ok, B->count, 1, &wa, &wmn, &wmx);
    stats(B->prove, B->ok, B->count, 1, &pa, &pmn, &pmx);
    printf("\n=== Batch Summary ===\n");
    char tt[16];
    printf("total time: %s\n", fmt_dur(tt, total));
    printf("completed: %d\nfailed: %d\n", done, failed + missing);
    if (missing)
        printf("not run: %d (%s)\n", missing,
               atomic_load(&B->fatal) ? "the daemon could not be reached"
                                      : "the daemon refused a job, and would refuse them all");
    char f[6][16];
    printf("wall time: avg=%s min=%s max=%s\n", fmt_dur(f[0], wa), fmt_dur(f[1], wmn), fmt_dur(f[2], wmx));
    printf("prove time: avg=%s min=%s max=%s\n", fmt_dur(f[3], pa / 1e3), fmt_dur(f[4], pmn / 1e3),
           fmt_dur(f[5], pmx / 1e3));
    double ppm = done && total > 0 ? done / total * 60 : 0;
    printf("throughput: %.2f proofs/min (%s/proof)\n", ppm, fmt_dur(f[0], done ? total / done : 0.0));
    int np_all = 0;
    double pp_avg = 0, pp_min = 0, pp_max = 0;
    if (B->porep) { /* every partition's prove time, over the completed jobs */
        for (int i = 0; i < B->count; i++)
            for (int k = 0; B->ok[i] && k < B->n_part[i]; k++) {
                double v = B->part_prove[(size_t)i * B->max_parts + k];
                if (!np_all || v < pp_min)
                    pp_min = v;
                if (!np_all || v > pp_max)
                    pp_max = v;
                pp_avg += v;
                np_all++;
            }
        pp_avg = np_all ? pp_avg / np_all : 0;
        printf("partitions proven: %d (%.2f partition proofs/min)\n", np_all,
               total > 0 ? np_all / total * 60 : 0.0);
        printf("prove time per partition: avg=%s min=%s max=%s\n", fmt_dur(f[0], pp_avg / 1e3),
               fmt_dur(f[1], pp_min / 1e3), fmt_dur(f[2], pp_max / 1e3));
    }
    printf("{\"bench\":\"batch\",\"type\":\"%s\",\"key\":\"%s\",\"count\":%d,\"concurrency\":%d,"
           "\"partitions\":%d,\"completed\":%d,\"failed\":%d,\"total_s\":%.3f,\"wall_avg_s\":%.3f,\"prove_avg_ms\":%.1f,"
           "\"proofs_per_min\":%.3f,\"s_per_proof\":%.4f}\n",
           B->type, B->key ? B->key : "", B->count, B->conc, B->porep ? (done ? np_all / done : 0)
           : B->parts > 1 ? B->parts : 1, done, failed + missing, total, wa, pa, ppm,
           done ? total / done : 0.0);
    if (B->porep)
        printf("{\"bench\":\"batch_partitions\",\"type\":\"porep\",\"partitions\":%d,"
               "\"prove_avg_ms\":%.1f,\"prove_min_ms\":%.1f,\"prove_max_ms\":%.1f}\n",
               np_all, pp_avg, pp_min, pp_max);
    free(th);
    free(B->wall);
    free(B->prove);
    free(B->queue);
    free(B->ok);
    free(B->part_prove);
    free(B->n_part);
    free(B->wtns);
    pthread_mutex_destroy(&B->print_mu);
    if (atomic_load(&B->fatal)) {
        fprintf(stderr, "cuzk-bench: lost the daemon (see the errors above)\n");
        return 2;
    }
    return done == B->count ? 0 : 1;
}

static int simple_get(const char *addr, const char *path, int raw)
{
    cz_client c;
    char err[1024];
    if (!connect_to(&c, addr))
        return 2;
    long code = 0;
    char *text = cz_client_call(&c, "GET", path, NULL, 0, NULL, 30, &code, err, sizeof err);
    cz_client_free(&c);
    if (!text) {
        fprintf(stderr, "cuzk-bench: %s\n", err);
        return 2;
    }
    if (raw) {
        fputs(text, stdout);
    } else {
        json_error_t je;
        json_t *o = json_loads(text, 0, &je);
        char *pretty = o ? json_dumps(o, JSON_INDENT(2)) : NULL;
        puts(pretty ? pretty : text);
        free(pretty);
        json_decref(o);
    }
    free(text);
    return code == 200 ? 0 : 1;
}

/* Load a key file (path), or make a key of a preset (path NULL: key is
   the preset, id its id or NULL, seed < 0: none). */
static int preload(const char *addr, const char *key, const char *path, const char *id,
                   long long seed)
{
    cz_client c;
    char err[1024], abs[4096];
    if (!connect_to(&c, addr))
        return 2;
    if (path && path[0] != '/' && realpath(path, abs))
        path = abs;
    json_t *body = path ? json_pack("{s:s, s:s}", "id", key, "path", path)
                        : json_pack("{s:s}", "preset", key);
    if (!path && id)
        json_object_set_new(body, "id", json_string(id));
    if (!path && seed >= 0)
        json_object_set_new(body, "seed", json_integer(seed));
    double t0 = now_s();
    long code = 0;
    json_t *ans = cz_client_json(&c, "POST", "/v1/keys", body, 600, &code, err, sizeof err);
    json_decref(body);
    cz_client_free(&c);
    if (!ans) {
        fprintf(stderr, "cuzk-bench: %s\n", err);
        return 2;
    }
    int rc = code == 201 ? 0 : 1;
    if (rc) {
        const char *e = json_string_value(json_object_get(ans, "error"));
        fprintf(stderr, "cuzk-bench: preload %s: HTTP %ld: %s\n", key, code, e ? e : "?");
    } else if (path) {
        printf("key %s loaded from %s\n", key, path);
    } else {
        printf("key %s made from preset %s in %.1f s\n", id ? id : key, key, now_s() - t0);
    }
    json_decref(ans);
    return rc;
}

static int timeline(const char *addr, const char *svg, double since_ms)
{
    cz_client c;
    char err[1024];
    if (!connect_to(&c, addr))
        return 2;
    long code = 0;
    json_t *tl = cz_client_json(&c, "GET", "/v1/timeline", NULL, 30, &code, err, sizeof err);
    cz_client_free(&c);
    if (!tl) {
        fprintf(stderr, "cuzk-bench: %s\n", err);
        return 2;
    }
    if (since_ms > 0) { /* keep the spans that start at or after since_ms */
        json_t *spans = json_object_get(tl, "spans"), *keep = json_array();
        size_t i;
        json_t *s;
        json_array_foreach(spans, i, s)
            if (json_number_value(json_object_get(s, "start_ms")) >= since_ms)
                json_array_append(keep, s);
        json_object_set_new(tl, "spans", keep);
    }
    cz_timeline_summary sum;
    int rc = cz_timeline_svg(tl, svg, &sum, err, sizeof err);
    json_decref(tl);
    if (rc) {
        fprintf(stderr, "cuzk-bench: %s\n", err);
        return 2;
    }
    const char *dev = sum.host ? "" : "GPU ";
    printf("timeline: %d spans over %.1f ms, %d jobs; %sbusy %.1f%% of the span from the first "
           "%sprove start to the last %sprove end\nwrote %s\n",
           sum.spans, sum.span_ms, sum.jobs, dev, sum.gpu_busy * 100, dev, dev, svg);
    printf("{\"bench\":\"timeline\",\"spans\":%d,\"jobs\":%d,\"window_ms\":%.1f,\"gpu_busy_fraction\":%.4f}\n",
           sum.spans, sum.jobs, sum.span_ms, sum.gpu_busy);
    return 0;
}

int main(int argc, char **argv)
{
    const char *addr = getenv("CUZK_ADDR");
    if (!addr || !*addr)
        addr = DEFAULT_ADDR;
    int i = 1;
    while (i < argc && argv[i][0] == '-') {
        if (!strcmp(argv[i], "--addr") && i + 1 < argc) {
            addr = argv[i + 1];
            i += 2;
        } else if (!strcmp(argv[i], "--token-file") && i + 1 < argc) {
            setenv("CUZK_TOKEN_FILE", argv[i + 1], 1); /* read by cz_client_init */
            i += 2;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench: unknown option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[i++];
    if (!strcmp(cmd, "gen-c1")) /* local: no daemon */
        return cz_bench_gen_c1(argc - i, argv + i);
    batch B;
    memset(&B, 0, sizeof B);
    B.addr = addr;
    B.type = "groth16";
    B.priority = "normal";
    B.count = !strcmp(cmd, "single") ? 1 : 10;
    B.conc = 1;
    B.retry_for = 300;
    const char *path = NULL, *svg = NULL, *key_id = NULL;
    long long seed = -1;
    double since_ms = 0, idle_s = 30;
    int idle_n = 0;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if ((!strcmp(a, "-t") || !strcmp(a, "--type")) && v)
            B.type = argv[++i];
        else if (!strcmp(a, "--key") && v)
            B.key = argv[++i];
        else if (!strcmp(a, "--witness") && v)
            B.witness = argv[++i];
        else if ((!strcmp(a, "-c") || !strcmp(a, "--count")) && v)
            B.count = atoi(argv[++i]);
        else if ((!strcmp(a, "-j") || !strcmp(a, "--concurrency")) && v)
            B.conc = atoi(argv[++i]);
        else if (!strcmp(a, "--priority") && v)
            B.priority = argv[++i];
        else if (!strcmp(a, "--out") && v)
            B.out = argv[++i];
        else if (!strcmp(a, "--upload"))
            B.upload = 1;
        else if (!strcmp(a, "--partitions") && v)
            B.parts = atoi(argv[++i]);
        else if (!strcmp(a, "--path") && v)
            path = argv[++i];
        else if (!strcmp(a, "--c1") && v)
            B.c1 = argv[++i];
        else if (!strcmp(a, "--id") && v)
            key_id = argv[++i];
        else if (!strcmp(a, "--seed") && v) {
            char *end;
            seed = strtoll(argv[++i], &end, 10);
            if (end == argv[i] || *end || seed < 0) {
                fprintf(stderr, "cuzk-bench: --seed takes an integer >= 0\n");
                return 2;
            }
        }
        else if (!strcmp(a, "--svg") && v)
            svg = argv[++i];
        else if (!strcmp(a, "--since-ms") && v)
            since_ms = atof(argv[++i]);
        else if (!strcmp(a, "--retry-for") && v)
            B.retry_for = atof(argv[++i]);
        else if (!strcmp(a, "-n") && v)
            idle_n = atoi(argv[++i]);
        else if (!strcmp(a, "--seconds") && v)
            idle_s = atof(argv[++i]);
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "cuzk-bench: %s: unknown or incomplete option '%s' (see --help)\n", cmd, a);
            return 2;
        }
    }
    if (!strcmp(cmd, "batch") || !strcmp(cmd, "single")) {
        if (strcmp(B.type, "groth16") != 0 && strcmp(B.type, "porep") != 0) {
            fprintf(stderr, "cuzk-bench: proof type '%s' is not available (groth16: a witness; "
                            "porep: a c1)\n", B.type);
            return 2;
        }
        B.porep = !strcmp(B.type, "porep");
        if (B.porep) {
            if (!B.c1 || B.witness || B.parts > 1 || B.count < 1 || B.conc < 1) {
                fprintf(stderr, "cuzk-bench: %s -t porep needs --c1 FILE (not --witness or "
                                "--partitions: a c1 has its partitions; -c, -j >= 1)\n", cmd);
                return 2;
            }
            json_error_t je;
            json_t *doc = json_load_file(B.c1, 0, &je);
            const char *rp = doc ? json_string_value(json_object_get(doc, "registered_proof")) : NULL;
            if (!rp) {
                fprintf(stderr, "cuzk-bench: %s: %s\n", B.c1,
                        doc ? "no registered_proof: not a c1 (cuzk-bench gen-c1 writes one)" : je.text);
                json_decref(doc);
                return 2;
            }
            static char preset[64];
            snprintf(preset, sizeof preset, "%s", rp);
            if (!B.key) /* the daemon's default too: the key of the c1's preset */
                B.key = preset;
            if (B.upload)
                B.c1_doc = doc;
            else
                json_decref(doc);
            B.upload = 0; /* the c1 rides in the JSON body, not as a raw upload */
            B.witness = B.c1;
        }
        if (!B.key || !B.witness || B.count < 1 || B.conc < 1) {
            fprintf(stderr, "cuzk-bench: %s needs --key ID --witness FILE (and -c, -j >= 1)\n", cmd);
            return 2;
        }
        if (B.parts < 0 || B.parts > 1024 || (B.parts > 1 && B.upload)) {
            fprintf(stderr, "cuzk-bench: --partitions is 1 to 1024, and takes the witness by path "
                            "(not with --upload)\n");
            return 2;
        }
        if (strcmp(B.priority, "low") && strcmp(B.priority, "normal") && strcmp(B.priority, "high") &&
            strcmp(B.priority, "critical")) {
            fprintf(stderr, "cuzk-bench: --priority must be low, normal, high or critical\n");
            return 2;
        }
        if (!(B.retry_for >= 0)) {
            fprintf(stderr, "cuzk-bench: --retry-for takes seconds >= 0\n");
            return 2;
        }
        if (B.conc > B.count)
            B.conc = B.count;
        cz_client probe; /* checks the address; also runs curl_global_init before threads */
        if (!connect_to(&probe, addr)) {
            json_decref(B.c1_doc);
            return 2;
        }
        cz_client_free(&probe);
        int rc = run_batch(&B);
        json_decref(B.c1_doc);
        return rc;
    }
    if (!strcmp(cmd, "idle"))
        return cz_bench_idle(addr, idle_n, idle_s);
    if (!strcmp(cmd, "status"))
        return simple_get(addr, "/v1/status", 0);
    if (!strcmp(cmd, "metrics"))
        return simple_get(addr, "/metrics", 1);
    if (!strcmp(cmd, "preload")) {
        if (!B.key || (path && (key_id || seed >= 0))) {
            fprintf(stderr, "cuzk-bench: preload needs --key ID --path FILE, or --key PRESET "
                            "[--id ID] [--seed N]\n");
            return 2;
        }
        return preload(addr, B.key, path, key_id, seed);
    }
    if (!strcmp(cmd, "timeline")) {
        if (!svg) {
            fprintf(stderr, "cuzk-bench: timeline needs --svg FILE\n");
            return 2;
        }
        return timeline(addr, svg, since_ms);
    }
    fprintf(stderr, "cuzk-bench: unknown command '%s' (see --help)\n", cmd);
    return 2;
}
