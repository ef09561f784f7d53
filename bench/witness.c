/*
 * witness.c: the PoRep-shaped circuit's CPU costs (bench-witness).
 *
 *   bench-witness [--preset P]... [--threads N[,N...]] [--rounds R]
 *                 [--no-witness] [--shape] [--count] [--check] [--values]
 *
 * Per preset (default porep-mini and porep-8m):
 *   count    a whole COUNT run (every challenge, with the breakdown);
 *   witness  one partition's witness from a generated c1, into a buffer
 *            allocated and touched beforehand (the prover's case: the
 *            pinned witness buffer is reused), best of R rounds, for each
 *            thread count; rate = constraints per second per thread;
 *   shape    a SHAPE run in a child process: its time and the child's peak
 *            resident memory (getrusage RUSAGE_CHILDREN, ru_maxrss), so
 *            the figure is the recording's own;
 *   check    shape and witness agree: the SHAPE recording, one
 *            partition's witness (all threads), and cz_shape_check of it,
 *            in this process (the preset's whole memory at once);
 *   values   (--values, with check) how many of w's values and of the
 *            rows' a = A w, b = B w, c = C w are 0, 1, -1, another small
 *            integer ("small": |v| < 16; "mid": |v| < 2^16) or anything
 *            else: what the MSMs' bit path and the H step are given.
 * Output: a table and a JSON line per figure (bench, preset, size =
 * constraints, threads, ms, cpu_ms, commit, machine), as the other
 * benches. DESIGN: wall time is the figure (the witness is a parallel
 * job); process CPU time is printed beside it because the machine is
 * shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "util/threadpool.h"

#include "bench_util.h"

static char g_commit[64] = "unknown", g_machine[160] = "cpu";

static void emit(const char *bench, const char *preset, uint64_t size, int threads, double ms,
                 double cpu_ms, const char *extra_txt, const char *extra_json)
{
    printf("%-8s %-11s %11llu %3d %11.1f ms %11.1f cpu-ms  %s\n", bench, preset,
           (unsigned long long)size, threads, ms, cpu_ms, extra_txt ? extra_txt : "");
    printf("{\"bench\":\"%s\",\"preset\":\"%s\",\"size\":%llu,\"threads\":%d,\"ms\":%.3f,"
           "\"cpu_ms\":%.3f,%s\"commit\":\"%s\",\"machine\":\"%s\"}\n",
           bench, preset, (unsigned long long)size, threads, ms, cpu_ms,
           extra_json ? extra_json : "", g_commit, g_machine);
    fflush(stdout);
}

static int bench_count(const cz_porep_params *p)
{
    char err[512];
    cz_porep_counts c;
    cz_porep_breakdown bd;
    cz_porep_counts_get(p, &c, err, sizeof err); /* the model, cached: not timed */
    double t = cz_bench_wall_now(), tc = cz_bench_process_cpu_now();
    if (cz_porep_count(p, &c, &bd, err, sizeof err)) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        return 1;
    }
    double ms = (cz_bench_wall_now() - t) * 1e3, cms = (cz_bench_process_cpu_now() - tc) * 1e3;
    char txt[128], js[128];
    snprintf(txt, sizeof txt, "%.0f M constraints/s", (double)c.n_constraints / ms / 1e3);
    snprintf(js, sizeof js, "\"constraints_per_s\":%.0f,", (double)c.n_constraints / ms * 1e3);
    emit("count", p->name, c.n_constraints, 1, ms, cms, txt, js);
    return 0;
}

static int bench_witness(const cz_porep_params *p, const int *threads, int n_threads, int rounds)
{
    char err[512];
    cz_porep_counts c;
    if (cz_porep_counts_get(p, &c, err, sizeof err)) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        return 1;
    }
    double t = cz_bench_wall_now();
    cz_c1 *c1;
    if (cz_c1_generate(&c1, p, 1, err, sizeof err)) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        return 1;
    }
    fprintf(stderr, "# %s: c1 of %u partitions generated in %.2f s\n", p->name, p->partitions,
            cz_bench_wall_now() - t);
    cz_porep_partition in;
    cz_c1_partition(c1, 0, &in, err, sizeof err);
    uint64_t n = 1 + (uint64_t)c.n_public + c.n_aux;
    cz_fr *w = malloc(n * sizeof *w);
    if (!w) {
        fprintf(stderr, "bench-witness: %s: out of memory for %llu values\n", p->name,
                (unsigned long long)n);
        cz_c1_free(c1);
        return 1;
    }
    memset(w, 0, n * sizeof *w); /* touched: a reused buffer */
    int rc = 0;
    for (int k = 0; k < n_threads && !rc; k++) {
        cz_threadpool *pool = cz_threadpool_create(threads[k]);
        double best = 1e30, best_cpu = 0;
        for (int r = 0; r < rounds; r++) {
            double t0 = cz_bench_wall_now(), c0 = cz_bench_process_cpu_now();
            if (cz_porep_witness(p, &in, pool, w, n, err, sizeof err)) {
                fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
                rc = 1;
                break;
            }
            double dt = cz_bench_wall_now() - t0;
            if (dt < best) {
                best = dt;
                best_cpu = cz_bench_process_cpu_now() - c0;
            }
        }
        cz_threadpool_destroy(pool);
        if (rc)
            break;
        char txt[160], js[160];
        double rate = (double)c.n_constraints / best / threads[k];
        snprintf(txt, sizeof txt, "%.2f M constraints/s per thread, %.0f M aux values/s",
                 rate / 1e6, (double)c.n_aux / best / 1e6);
        snprintf(js, sizeof js, "\"constraints_per_s_per_thread\":%.0f,\"aux\":%llu,", rate,
                 (unsigned long long)c.n_aux);
        emit("witness", p->name, c.n_constraints, threads[k], best * 1e3, best_cpu * 1e3, txt, js);
    }
    cz_wipe(w, n * sizeof *w);
    free(w);
    cz_c1_free(c1);
    return rc;
}

static int bench_shape(const cz_porep_params *p)
{
    fflush(stdout);
    int fd[2];
    if (pipe(fd))
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        close(fd[0]);
        char err[512];
        double res[3] = {0, 0, 0};
        double t = cz_bench_wall_now(), tc = cz_bench_process_cpu_now();
        cz_shape *s;
        if (cz_porep_shape(p, &s, err, sizeof err)) {
            fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
            _exit(1);
        }
        res[0] = (cz_bench_wall_now() - t) * 1e3;
        res[1] = (cz_bench_process_cpu_now() - tc) * 1e3;
        res[2] = (double)(s->m[0].nnz + s->m[1].nnz + s->m[2].nnz);
        if (write(fd[1], res, sizeof res) != (ssize_t)sizeof res)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    double res[3];
    ssize_t got = read(fd[0], res, sizeof res);
    close(fd[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
        got != (ssize_t)sizeof res) {
        fprintf(stderr, "bench-witness: %s: the shape run failed\n", p->name);
        return 1;
    }
    cz_porep_counts c;
    char err[256];
    cz_porep_counts_get(p, &c, err, sizeof err);
    double gib = (double)ru.ru_maxrss * 1024.0 / (1u << 30);
    char txt[160], js[160];
    snprintf(txt, sizeof txt, "peak RSS %.2f GiB, %.0f M nonzeros", gib, res[2] / 1e6);
    snprintf(js, sizeof js, "\"peak_rss_kib\":%ld,\"nnz\":%.0f,", ru.ru_maxrss, res[2]);
    emit("shape", p->name, c.n_constraints, 1, res[0], res[1], txt, js);
    return 0;
}

/* What the MSMs and the H step see: the classes of the witness w and of
   the row values a = A w, b = B w, c = C w (cz_shape_row_value): 0, 1,
   -1, other small integers (|v| < 16), larger ones (|v| < 2^16), the
   rest. The GPU MSM's bit path takes exact 0s and 1s
   (cuda/msm_bits.cuh); a vector of mostly small values could take such a
   path too. */
enum { VC_ZERO, VC_ONE, VC_MINUS_ONE, VC_SMALL, VC_MID, VC_OTHER, VC_N };

static int value_class(const cz_fr *v)
{
    uint8_t b[32], nb[32];
    cz_fr_to_bytes_le(b, v);
    cz_fr n;
    cz_fr_neg(&n, v);
    cz_fr_to_bytes_le(nb, &n);
    int hi = 0, nhi = 0;
    for (int i = 2; i < 32; i++)
        hi |= b[i], nhi |= nb[i];
    unsigned lo = b[0] | (unsigned)b[1] << 8, nlo = nb[0] | (unsigned)nb[1] << 8;
    if (!hi)
        return lo == 0 ? VC_ZERO : lo == 1 ? VC_ONE : lo < 16 ? VC_SMALL : VC_MID;
    if (!nhi)
        return nlo == 1 ? VC_MINUS_ONE : nlo < 16 ? VC_SMALL : VC_MID;
    return VC_OTHER;
}

static void values_report(const cz_porep_params *p, const cz_shape *s, const cz_fr *w, uint64_t n_w)
{
    static const char *names[VC_N] = {"0", "1", "-1", "small", "mid", "other"};
    uint64_t h[4][VC_N] = {{0}};
    for (uint64_t i = 0; i < n_w; i++)
        h[0][value_class(&w[i])]++;
    for (int m = 0; m < 3; m++) {
        const cz_shape_matrix *mx = &s->m[m];
        for (uint64_t r = 0; r < s->n_constraints; r++) {
            cz_fr v;
            cz_shape_row_value(&v, s, mx, r, w);
            h[1 + m][value_class(&v)]++;
        }
    }
    static const char *vec[4] = {"w", "a", "b", "c"};
    for (int v = 0; v < 4; v++) {
        uint64_t tot = v ? s->n_constraints : n_w;
        char txt[400], js[400];
        int o = snprintf(txt, sizeof txt, "%s:", vec[v]), oj = 0;
        for (int k = 0; k < VC_N; k++) {
            o += snprintf(txt + o, sizeof txt - (size_t)o, " %s %.2f %%", names[k],
                          100.0 * (double)h[v][k] / (double)tot);
            oj += snprintf(js + oj, sizeof js - (size_t)oj, "\"%s\":%llu,", names[k],
                           (unsigned long long)h[v][k]);
        }
        oj += snprintf(js + oj, sizeof js - (size_t)oj, "\"vector\":\"%s\",", vec[v]);
        emit("values", p->name, tot, 1, 0, 0, txt, js);
    }
}

static int bench_check(const cz_porep_params *p, int threads, int do_values)
{
    char err[512];
    double t = cz_bench_wall_now();
    cz_shape *s;
    if (cz_porep_shape(p, &s, err, sizeof err)) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        return 1;
    }
    double t_shape = cz_bench_wall_now() - t;
    cz_c1 *c1;
    if (cz_c1_generate(&c1, p, 2, err, sizeof err)) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        cz_shape_free(s);
        return 1;
    }
    cz_porep_partition in;
    cz_c1_partition(c1, p->partitions - 1, &in, err, sizeof err);
    cz_threadpool *pool = cz_threadpool_create(threads);
    cz_fr *w;
    uint64_t n;
    t = cz_bench_wall_now();
    cz_status st = cz_porep_witness_alloc(p, &in, pool, &w, &n, err, sizeof err);
    double t_wit = cz_bench_wall_now() - t;
    cz_threadpool_destroy(pool);
    cz_c1_free(c1);
    if (st) {
        fprintf(stderr, "bench-witness: %s: %s\n", p->name, err);
        cz_shape_free(s);
        return 1;
    }
    t = cz_bench_wall_now();
    double c0 = cz_bench_process_cpu_now();
    st = cz_shape_check(s, w, err, sizeof err);
    double ms = (cz_bench_wall_now() - t) * 1e3, cms = (cz_bench_process_cpu_now() - c0) * 1e3;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    char txt[800], js[200];
    snprintf(txt, sizeof txt, "%s (shape %.1f s, witness %.1f s, peak RSS %.2f GiB)%s%s",
             st ? "DISAGREE" : "the witness satisfies the shape", t_shape, t_wit,
             (double)ru.ru_maxrss * 1024.0 / (1u << 30), st ? ": " : "", st ? err : "");
    snprintf(js, sizeof js, "\"agree\":%s,\"shape_ms\":%.1f,\"witness_ms\":%.1f,\"peak_rss_kib\":%ld,",
             st ? "false" : "true", t_shape * 1e3, t_wit * 1e3, ru.ru_maxrss);
    emit("check", p->name, s->n_constraints, threads, ms, cms, txt, js);
    if (do_values && !st)
        values_report(p, s, w, n);
    cz_porep_witness_free(w, n);
    cz_shape_free(s);
    return st ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *presets[8];
    int n_presets = 0, threads[16], n_threads = 0, rounds = 3;
    int do_witness = 1, do_shape = 0, do_count = 0, do_check = 0, do_values = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--preset") && v && n_presets < 8) {
            presets[n_presets++] = argv[++i];
        } else if (!strcmp(a, "--threads") && v) {
            for (char *s = argv[++i]; *s && n_threads < 16;) {
                threads[n_threads++] = (int)strtol(s, &s, 10);
                if (*s == ',')
                    s++;
                else if (*s)
                    break;
            }
        } else if (!strcmp(a, "--rounds") && v) {
            rounds = atoi(argv[++i]);
        } else if (!strcmp(a, "--no-witness")) {
            do_witness = 0;
        } else if (!strcmp(a, "--shape")) {
            do_shape = 1;
        } else if (!strcmp(a, "--count")) {
            do_count = 1;
        } else if (!strcmp(a, "--check")) {
            do_check = 1;
        } else if (!strcmp(a, "--values")) {
            do_check = do_values = 1;
        } else {
            fprintf(stderr,
                    "usage: bench-witness [--preset P]... [--threads N[,N...]] [--rounds R]\n"
                    "                     [--no-witness] [--shape] [--count] [--check] [--values]\n");
            return 2;
        }
    }
    if (!n_presets) {
        presets[n_presets++] = "porep-mini";
        presets[n_presets++] = "porep-8m";
    }
    if (!n_threads) {
        threads[n_threads++] = 1;
        if (cz_cpu_count() > 1)
            threads[n_threads++] = cz_cpu_count();
    }
    for (int k = 0; k < n_threads; k++)
        if (threads[k] < 1 || threads[k] > 1024) {
            fprintf(stderr, "bench-witness: --threads wants numbers 1..1024\n");
            return 2;
        }
    if (rounds < 1)
        rounds = 1;
    cz_bench_commit(g_commit, sizeof g_commit);
    cz_bench_machine(g_machine, sizeof g_machine);
    printf("# bench-witness commit %s, machine %s\n", g_commit, g_machine);
    printf("%-8s %-11s %11s %3s %14s %18s\n", "bench", "preset", "constraints", "thr", "wall",
           "cpu");
    int rc = 0;
    for (int i = 0; i < n_presets; i++) {
        const cz_porep_params *p = cz_porep_preset(presets[i]);
        if (!p) {
            fprintf(stderr, "bench-witness: unknown preset %s\n", presets[i]);
            return 2;
        }
        if (do_count)
            rc |= bench_count(p);
        if (do_shape)
            rc |= bench_shape(p);
        if (do_witness)
            rc |= bench_witness(p, threads, n_threads, rounds);
        if (do_check)
            rc |= bench_check(p, threads[n_threads - 1], do_values);
    }
    return rc;
}
