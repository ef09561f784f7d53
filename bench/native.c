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
 *   pack      on a GPU, a compact key's witness packed (groth16/witpack.h),
 *             as the daemon's witness stage does before the device is taken;
 *   prove     cz_groth16_prove of it (the first proof of a GPU backend
 *             includes the key's upload; its timings say so), with the
 *             prover's own split (a/b/c, NTT, the five MSMs);
 *   verify    cz_groth16_verify against the key's vk, public inputs
 *             w[1..n_public]: a proof that fails makes the run fail;
 *   decomp    loading a .czk of this key: its G1 (A) and G2 (B2) points
 *             compressed, then decompressed and subgroup-checked through
 *             the backend's hook (the GPU; up to 2^23 G1 and 2^21 G2
 *             points, checked equal to the key's) and on the CPU (all
 *             threads, up to 2^16 / 2^14 points): points per second of
 *             each, and the time the key's points (IC, A, B1, B2, C, H)
 *             take to load at those rates.
 * Output: a table and a JSON line per figure (bench, preset, partition, ms,
 * commit, machine) as the other benches, and a summary: the median prove
 * time of the partitions after the first, and the time of a whole proof
 * (every partition) if witness and prove overlap (max of the two sums)
 * and if they do not (their sum).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "backend/backend.h"
#include "groth16/groth16.h"
#include "groth16/witpack.h"
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

/* ---- decomp: a .czk's points decompressed on the backend and the CPU ---- */

typedef struct {
    bool g2;
    const void *pts;
    uint8_t *c;
    void *out;
    _Atomic int bad;
} dc_job;

static void dc_compress(void *arg, size_t b, size_t e, int worker)
{
    (void)worker;
    dc_job *j = arg;
    for (size_t i = b; i < e; i++) {
        if (j->g2)
            cz_g2_to_compressed(j->c + 96 * i, (const cz_g2_affine *)j->pts + i);
        else
            cz_g1_to_compressed(j->c + 48 * i, (const cz_g1_affine *)j->pts + i);
    }
}

static void dc_cpu(void *arg, size_t b, size_t e, int worker)
{
    (void)worker;
    dc_job *j = arg;
    for (size_t i = b; i < e; i++) {
        cz_status st = j->g2 ? cz_g2_from_compressed((cz_g2_affine *)j->out + i, j->c + 96 * i)
                             : cz_g1_from_compressed((cz_g1_affine *)j->out + i, j->c + 48 * i);
        if (st != CZ_OK)
            j->bad = 1;
    }
}

/* points per second of the backend's hook (0: none) and of the CPU, for
   the first n points of pts; -1 on a wrong result */
static int dc_rates(cz_backend *be, cz_threadpool *pool, bool g2, const void *pts, size_t n,
                    double *gpu_pps, double *cpu_pps)
{
    size_t ib = g2 ? 96 : 48, ob = g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine);
    size_t ng = n < ((size_t)1 << (g2 ? 21 : 23)) ? n : ((size_t)1 << (g2 ? 21 : 23));
    size_t nc = n < ((size_t)1 << (g2 ? 14 : 16)) ? n : ((size_t)1 << (g2 ? 14 : 16));
    dc_job j = {.g2 = g2, .pts = pts, .c = malloc(ng * ib), .out = malloc(ng * ob)};
    int rc = 0;
    *gpu_pps = *cpu_pps = 0;
    if (!j.c || !j.out || ng == 0) {
        rc = ng ? -1 : 0;
        goto out;
    }
    cz_parallel_for(pool, ng, 4096, dc_compress, &j);
    if (be->decompress) {
        size_t first_bad = 0;
        cz_status st = be->decompress(be, g2, j.out, j.c, ng > 4096 ? 4096 : ng, &first_bad);
        double t = cz_bench_wall_now(); /* after a warm-up call (the module's load) */
        if (st == CZ_OK)
            st = be->decompress(be, g2, j.out, j.c, ng, &first_bad);
        double s = cz_bench_wall_now() - t;
        if (st != CZ_OK || memcmp(j.out, pts, ng * ob) != 0) {
            fprintf(stderr, "bench-native: decomp: the backend's %s points are wrong (%s)\n",
                    g2 ? "G2" : "G1", cz_strerror(st));
            rc = -1;
            goto out;
        }
        *gpu_pps = (double)ng / s;
    }
    double t = cz_bench_wall_now();
    cz_parallel_for(pool, nc, 64, dc_cpu, &j);
    double s = cz_bench_wall_now() - t;
    if (j.bad || memcmp(j.out, pts, nc * ob) != 0) {
        fprintf(stderr, "bench-native: decomp: the CPU's %s points are wrong\n", g2 ? "G2" : "G1");
        rc = -1;
        goto out;
    }
    *cpu_pps = (double)nc / s;
out:
    free(j.c);
    free(j.out);
    return rc;
}

static int bench_decomp(const cz_zkey *key, cz_backend *be, cz_threadpool *pool, const char *preset)
{
    double g1g, g1c, g2g, g2c;
    if (dc_rates(be, pool, false, key->a, key->n_vars, &g1g, &g1c) ||
        dc_rates(be, pool, true, key->b2, key->n_b, &g2g, &g2c))
        return -1;
    double n1 = (double)key->n_public + 1 + key->n_vars + key->n_b +
                (key->n_vars - key->n_public - 1) + key->domain_size;
    double n2 = key->n_b;
    double load_gpu = g1g > 0 && g2g > 0 ? n1 / g1g + n2 / g2g : 0, load_cpu = n1 / g1c + n2 / g2c;
    char txt[512], js[512];
    snprintf(txt, sizeof txt,
             "G1 %s %.3g pts/s, cpu %.3g pts/s (%d threads); G2 %s %.3g, cpu %.3g; this key's "
             "%.0f G1 + %.0f G2 points: %s %.1f s, cpu %.1f s",
             be->name, g1g, g1c, cz_threadpool_size(pool), be->name, g2g, g2c, n1, n2, be->name,
             load_gpu, load_cpu);
    snprintf(js, sizeof js,
             "\"device\":\"%s\",\"g1_pps\":%.1f,\"g1_cpu_pps\":%.1f,\"g2_pps\":%.1f,"
             "\"g2_cpu_pps\":%.1f,\"cpu_threads\":%d,\"key_g1\":%.0f,\"key_g2\":%.0f,"
             "\"key_load_s\":%.3f,\"key_load_cpu_s\":%.3f,",
             be->name, g1g, g1c, g2g, g2c, cz_threadpool_size(pool), n1, n2, load_gpu, load_cpu);
    emit("decomp", preset, -1, (load_gpu > 0 ? load_gpu : load_cpu) * 1e3, txt, js);
    return 0;
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
    cz_setup_opts so = {.seeded = true, .seed = seed, .threads = (unsigned)threads, .fold_c = true};
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
    if (bench_decomp(key, be, pool, p->name))
        goto out;

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

        /* a GPU's witness packed first, as the daemon's witness stage does
           (its own figure: the prove figure is then the device's) */
        cz_wit_packed pw;
        bool packed = false;
        if (be->prove_core && key->compact) {
            t = cz_bench_wall_now();
            packed = cz_wit_pack(&pw, w, n_w, pool);
            snprintf(txt, sizeof txt, "%s: %zu values neither 0 nor 1, %.1f MB",
                     packed ? "packed" : "not packed", packed ? pw.n_other : (size_t)0,
                     packed ? cz_wit_packed_bytes(&pw) / 1e6 : 0.0);
            emit("pack", p->name, k, (cz_bench_wall_now() - t) * 1e3, txt, "");
        }
        cz_proof proof;
        cz_prove_timings tm;
        memset(&tm, 0, sizeof tm);
        t = cz_bench_wall_now();
        cz_status ps = cz_groth16_prove_packed(&proof, key, w, packed ? &pw : NULL, be, NULL, &tm,
                                               err, sizeof err);
        if (packed)
            cz_wit_packed_free(&pw);
        if (ps) {
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
