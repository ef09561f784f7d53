/*
 * native.c: a native circuit's whole path in one process (bench-native):
 * record the shape, make a development key in memory, generate a c1, and
 * prove and verify partitions.
 *
 *   bench-native [--preset P] [--device cpu|cuda|auto] [--partitions K]
 *                [--seed N] [--threads T]
 *
 * Per preset (default porep-mini):
 *   shape     the SHAPE recording (cz_porep_shape);
 *   setup     cz_zkey_from_shape on the backend (its fixed-base products on
 *             the GPU where the backend has them), and the key's size;
 *   c1        cz_c1_generate of every partition;
 *   witness   partition k's witness (all threads);
 *   prove     cz_groth16_prove of it (the first proof of a GPU backend
 *             includes the key's upload; its timings say so), with the
 *             prover's own split (a/b/c, NTT, the five MSMs);
 *   verify    cz_groth16_verify against the key's vk, public inputs
 *             w[1..n_public]: a proof that fails makes the run fail.
 * Output: a table and a JSON line per figure (bench, preset, partition, ms,
 * commit, machine) as the other benches, and a summary: the median prove
 * time of the partitions after the first, and the time of a whole proof
 * (every partition) if witness and prove overlap (max of the two sums)
 * and if they do not (their sum).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "groth16/groth16.h"
#include "util/log.h"
#include "util/threadpool.h"

#include "bench_util.h"

static char g_commit[64] = "unknown", g_machine[160] = "cpu";

static double peak_rss_gib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / (1024.0 * 1024.0);
}

static void emit(const char *bench, const char *preset, int partition, double ms,
                 const char *extra_txt, const char *extra_json)
{
    printf("%-8s %-11s %4d %11.1f ms  %s\n", bench, preset, partition, ms,
           extra_txt ? extra_txt : "");
    printf("{\"bench\":\"native-%s\",\"preset\":\"%s\",\"partition\":%d,\"ms\":%.3f,%s"
           "\"commit\":\"%s\",\"machine\":\"%s\"}\n",
           bench, preset, partition, ms, extra_json ? extra_json : "", g_commit, g_machine);
    fflush(stdout);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run(const cz_porep_params *p, const char *device, int partitions, uint64_t seed,
               int threads)
{
    char err[1024] = "", txt[512], js[1024];
    int rc = 1;
    cz_shape *shape = NULL;
    cz_zkey *key = NULL;
    cz_vk *vk = NULL;
    cz_c1 *c1 = NULL;
    cz_backend *be = NULL;
    cz_fr *w = NULL;
    double *prove_ms = NULL;
    uint64_t n_w = 0;
    cz_threadpool *pool = cz_threadpool_create(threads);

    if (cz_backend_create(&be, device, (unsigned)threads, err, sizeof err)) {
        fprintf(stderr, "bench-native: backend %s: %s\n", device, err);
        goto out;
    }
    cz_backend_info bi;
    memset(&bi, 0, sizeof bi);
    if (be->info)
        be->info(be, &bi);
    printf("# preset %s, backend %s (%s)\n", p->name, be->name, bi.device[0] ? bi.device : "-");

    double t = cz_bench_wall_now();
    if (cz_porep_shape(p, &shape, err, sizeof err)) {
        fprintf(stderr, "bench-native: shape: %s\n", err);
        goto out;
    }
    uint64_t nnz = shape->m[0].nnz + shape->m[1].nnz + shape->m[2].nnz;
    snprintf(txt, sizeof txt, "%llu constraints, %llu nonzeros, peak RSS %.2f GiB",
             (unsigned long long)shape->n_constraints, (unsigned long long)nnz, peak_rss_gib());
    snprintf(js, sizeof js, "\"constraints\":%llu,\"nnz\":%llu,\"rss_gib\":%.3f,",
             (unsigned long long)shape->n_constraints, (unsigned long long)nnz, peak_rss_gib());
    emit("shape", p->name, -1, (cz_bench_wall_now() - t) * 1e3, txt, js);

    t = cz_bench_wall_now();
    cz_setup_opts so = {.seeded = true, .seed = seed, .threads = (unsigned)threads};
    if (cz_zkey_from_shape(&key, shape, &so, be, err, sizeof err)) {
        fprintf(stderr, "bench-native: setup: %s\n", err);
        goto out;
    }
    double setup_ms = (cz_bench_wall_now() - t) * 1e3;
    cz_shape_free(shape);
    shape = NULL;
    {
        size_t g1 = sizeof(cz_g1_affine), g2 = sizeof(cz_g2_affine);
        double pts = (double)key->n_vars * g1 + (double)key->n_b * (g1 + g2) +
                     (double)(key->n_vars - key->n_public - 1) * g1 + (double)key->domain_size * g1;
        double mat = (double)(key->ca.nnz + key->cb.nnz) * 6 +
                     ((double)key->ca.n_rows + key->cb.n_rows + 2) * 8;
        snprintf(txt, sizeof txt,
                 "n_vars %u, n_b %u, domain 2^%u, points %.2f GB, matrices %.2f GB, peak RSS %.2f GiB",
                 key->n_vars, key->n_b, key->log_n, pts / 1e9, mat / 1e9, peak_rss_gib());
        snprintf(js, sizeof js,
                 "\"n_vars\":%u,\"n_b\":%u,\"log_n\":%u,\"points_bytes\":%.0f,\"matrix_bytes\":%.0f,"
                 "\"rss_gib\":%.3f,\"device\":\"%s\",",
                 key->n_vars, key->n_b, key->log_n, pts, mat, peak_rss_gib(), be->name);
        emit("setup", p->name, -1, setup_ms, txt, js);
    }
    if (cz_vk_from_zkey(&vk, key)) {
        fprintf(stderr, "bench-native: vk failed\n");
        goto out;
    }

    t = cz_bench_wall_now();
    if (cz_c1_generate(&c1, p, seed, err, sizeof err)) {
        fprintf(stderr, "bench-native: c1: %s\n", err);
        goto out;
    }
    emit("c1", p->name, -1, (cz_bench_wall_now() - t) * 1e3, "", "");
    if (partitions <= 0 || (unsigned)partitions > c1->n_partitions)
        partitions = (int)c1->n_partitions;

    cz_porep_counts cnt;
    if (cz_porep_counts_get(p, &cnt, err, sizeof err)) {
        fprintf(stderr, "bench-native: counts: %s\n", err);
        goto out;
    }
    n_w = 1 + (uint64_t)cnt.n_public + cnt.n_aux;
    if (n_w != key->n_vars) {
        fprintf(stderr, "bench-native: the key has %u variables, the circuit %llu\n", key->n_vars,
                (unsigned long long)n_w);
        goto out;
    }
    w = malloc(n_w * sizeof *w);
    prove_ms = calloc((size_t)partitions, sizeof *prove_ms);
    if (!w || !prove_ms) {
        fprintf(stderr, "bench-native: out of memory for the witness\n");
        goto out;
    }
    if (be->host_pin)
        be->host_pin(be, w, n_w * sizeof *w); /* as the daemon's pool buffers are */
    double sum_w = 0, sum_p = 0;
    for (int k = 0; k < partitions; k++) {
        cz_porep_partition in;
        if (cz_c1_partition(c1, (unsigned)k, &in, err, sizeof err)) {
            fprintf(stderr, "bench-native: partition %d: %s\n", k, err);
            goto out;
        }
        t = cz_bench_wall_now();
        if (cz_porep_witness(p, &in, pool, w, n_w, err, sizeof err)) {
            fprintf(stderr, "bench-native: witness %d: %s\n", k, err);
            goto out;
        }
        double wms = (cz_bench_wall_now() - t) * 1e3;
        sum_w += wms;
        emit("witness", p->name, k, wms, "", "");

        cz_proof proof;
        cz_prove_timings tm;
        memset(&tm, 0, sizeof tm);
        t = cz_bench_wall_now();
        if (cz_groth16_prove(&proof, key, w, be, NULL, &tm, err, sizeof err)) {
            fprintf(stderr, "bench-native: prove %d: %s\n", k, err);
            goto out;
        }
        double pms = (cz_bench_wall_now() - t) * 1e3;
        prove_ms[k] = pms;
        sum_p += pms;
        snprintf(txt, sizeof txt,
                 "%s: abc %.1f, ntt %.1f, msm %.1f (a %.1f b1 %.1f b2 %.1f c %.1f h %.1f), upload %.1f, "
                 "to the device %.1f MB",
                 tm.tier, tm.eval_abc_ms, tm.ntt_ms, tm.msm_ms, tm.msm_a_ms, tm.msm_b1_ms,
                 tm.msm_b2_ms, tm.msm_c_ms, tm.msm_h_ms, tm.upload_ms, tm.h2d_bytes / 1e6);
        snprintf(js, sizeof js,
                 "\"tier\":\"%s\",\"eval_abc_ms\":%.3f,\"ntt_ms\":%.3f,\"msm_ms\":%.3f,"
                 "\"msm_a_ms\":%.3f,\"msm_b1_ms\":%.3f,\"msm_b2_ms\":%.3f,\"msm_c_ms\":%.3f,"
                 "\"msm_h_ms\":%.3f,\"upload_ms\":%.3f,\"h2d_bytes\":%llu,\"device\":\"%s\",",
                 tm.tier, tm.eval_abc_ms, tm.ntt_ms, tm.msm_ms, tm.msm_a_ms, tm.msm_b1_ms,
                 tm.msm_b2_ms, tm.msm_c_ms, tm.msm_h_ms, tm.upload_ms,
                 (unsigned long long)tm.h2d_bytes, be->name);
        emit("prove", p->name, k, pms, txt, js);

        t = cz_bench_wall_now();
        cz_status vs = cz_groth16_verify(vk, w + 1, key->n_public, &proof, err, sizeof err);
        emit("verify", p->name, k, (cz_bench_wall_now() - t) * 1e3, vs ? "FAILED" : "ok",
             vs ? "\"ok\":false," : "\"ok\":true,");
        if (vs) {
            fprintf(stderr, "bench-native: partition %d does not verify: %s\n", k, err);
            goto out;
        }
    }
    {
        double med = prove_ms[0];
        if (partitions > 1) {
            qsort(prove_ms + 1, (size_t)partitions - 1, sizeof *prove_ms, cmp_double);
            med = prove_ms[1 + (partitions - 1) / 2];
        }
        snprintf(txt, sizeof txt,
                 "%d partitions: witness %.0f ms + prove %.0f ms; overlapped %.0f ms; "
                 "median prove after the first %.1f ms; peak RSS %.2f GiB",
                 partitions, sum_w, sum_p, sum_w > sum_p ? sum_w : sum_p, med, peak_rss_gib());
        snprintf(js, sizeof js,
                 "\"partitions\":%d,\"witness_ms\":%.3f,\"prove_ms\":%.3f,\"overlapped_ms\":%.3f,"
                 "\"median_prove_ms\":%.3f,\"rss_gib\":%.3f,\"device\":\"%s\",",
                 partitions, sum_w, sum_p, sum_w > sum_p ? sum_w : sum_p, med, peak_rss_gib(),
                 be->name);
        emit("proof", p->name, partitions, sum_w + sum_p, txt, js);
    }
    rc = 0;
out:
    if (w) {
        if (be && be->host_unpin)
            be->host_unpin(be, w);
        free(w);
    }
    free(prove_ms);
    cz_c1_free(c1);
    cz_vk_free(vk);
    cz_zkey_free(key);
    cz_shape_free(shape);
    cz_backend_destroy(be);
    cz_threadpool_destroy(pool);
    return rc;
}

int main(int argc, char **argv)
{
    const char *presets[8];
    int np = 0, partitions = 0, threads = 0;
    const char *device = "auto";
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc && np < 8)
            presets[np++] = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = argv[++i];
        else if (!strcmp(argv[i], "--partitions") && i + 1 < argc)
            partitions = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--verbose"))
            cz_log_setup(CZ_LOG_DEBUG, 0);
        else {
            fprintf(stderr,
                    "usage: bench-native [--preset P]... [--device cpu|cuda|auto] "
                    "[--partitions K] [--seed N] [--threads T] [--verbose]\n");
            return 2;
        }
    }
    if (np == 0)
        presets[np++] = "porep-mini";
    if (threads <= 0)
        threads = cz_cpu_count();
    cz_bench_commit(g_commit, sizeof g_commit);
    cz_bench_machine(g_machine, sizeof g_machine);
    int rc = 0;
    for (int i = 0; i < np; i++) {
        const cz_porep_params *p = cz_porep_preset(presets[i]);
        if (!p) {
            fprintf(stderr, "bench-native: unknown preset %s\n", presets[i]);
            return 2;
        }
        rc |= run(p, device, partitions, seed, threads);
    }
    return rc;
}
