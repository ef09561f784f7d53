/*
 * main.c: the cuzk command-line tool (one proof, no daemon).
 *
 *   cuzk prove  [opts] circuit.zkey witness.wtns proof.json public.json
 *   cuzk verify [opts] verification_key.json public.json proof.json
 *   cuzk info   [opts] FILE
 *   cuzk setup  [opts] circuit.r1cs circuit.zkey [verification_key.json]
 *   cuzk export-vk [opts] circuit.zkey verification_key.json
 *   cuzk circuit list | info PRESET | export PRESET --c1 c1.json --partition K r1cs wtns
 *   cuzk setup --circuit PRESET circuit.zkey [verification_key.json]
 *   cuzk setup --circuit PRESET --out key.czk [--format czk|zkey] [verification_key.json]
 *   cuzk prove --circuit PRESET --c1 c1.json --partition K KEY proof.json public.json
 *
 * A proving key is a snarkjs .zkey or a compact key (.czk, io/nkey.h,
 * docs/KEYFORMAT.md), told apart by the file's magic wherever a key is read.
 *
 * Thin: parse the arguments, call the library, print. Stage timings go to
 * stderr as "cuzk: <stage> <ms> ms" (not with --quiet); --json prints one
 * JSON object with the timings on stdout. Exit codes: 0 success, 1 invalid
 * proof (verify) or failed self-check (prove), 2 usage or input error,
 * 3 internal error.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/cuda.h"
#include "circuit.h"
#include "cuzk/cuzk.h"
#include "cuzk/prover.h"
#include "groth16/groth16.h"
#include "groth16/groth16_bn254.h"
#include "groth16/setup_bn254.h"
#include "io/binfile.h"
#include "io/json.h"
#include "io/nkey.h"
#include "pairing/pairing.h"
#include "util/log.h"
#include "util/threadpool.h"
#include "util/version.h"

#define EXIT_INVALID 1
#define EXIT_USAGE 2
#define EXIT_INTERNAL 3

#ifndef CUZK_VERSION
#define CUZK_VERSION "0.1.0"
#endif

typedef struct {
    unsigned threads;
    int quiet, json, no_verify, help;
    const char *device;
    int gpu;
    int have_seed;
    uint64_t seed;
    const char *args[8];
    int n_args;
    const char *circuit, *c1; /* --circuit PRESET, --c1 FILE (native circuits, circuit.c) */
    int partition;            /* --partition K */
    int unchecked_c1;         /* --unchecked-c1 (tests) */
    const char *out;          /* setup --out KEY */
    const char *format;       /* setup --format czk|zkey (default: by KEY's extension) */
} cli;

/* ---- output helpers ---- */

static json_t *g_timings; /* --json: stage -> ms */
static int g_progress;    /* stderr is a TTY and not --quiet */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void progress(const cli *c, const char *stage)
{
    if (g_progress && !c->quiet) {
        fprintf(stderr, "\r\033[Kcuzk: %s ...", stage);
        fflush(stderr);
    }
}

static void stage_done(const cli *c, const char *stage, double ms)
{
    if (g_progress && !c->quiet)
        fprintf(stderr, "\r\033[K");
    if (!c->quiet)
        fprintf(stderr, "cuzk: %s %.1f ms\n", stage, ms);
    if (g_timings)
        json_object_set_new(g_timings, stage, json_real((double)llround(ms * 1000.0) / 1000.0));
}

/* A proof's stages, as the prover timed them (both curves) */
static void prove_stages_done(const cli *c, const cz_prove_timings *tm)
{
    if (g_timings)
        json_object_set_new(g_timings, "tier", json_string(tm->tier));
    if (tm->upload_ms > 0)
        stage_done(c, "key_upload", tm->upload_ms);
    stage_done(c, "eval_abc", tm->eval_abc_ms);
    stage_done(c, "ntt_h", tm->ntt_ms);
    stage_done(c, "msm_a", tm->msm_a_ms);
    stage_done(c, "msm_b1", tm->msm_b1_ms);
    stage_done(c, "msm_b2", tm->msm_b2_ms);
    stage_done(c, "msm_c", tm->msm_c_ms);
    stage_done(c, "msm_h", tm->msm_h_ms);
    stage_done(c, "assemble", tm->assemble_ms);
    stage_done(c, "prove", tm->total_ms);
}

static int status_exit(cz_status st)
{
    switch (st) {
    case CZ_OK: return 0;
    case CZ_ERR_VERIFY: return EXIT_INVALID;
    case CZ_ERR_NOMEM:
    case CZ_ERR_DEVICE:
    case CZ_ERR_INTERNAL:
    case CZ_ERR_BUSY:
    case CZ_ERR_CANCELLED: return EXIT_INTERNAL;
    default: return EXIT_USAGE;
    }
}

static int fail(cz_status st, const char *msg)
{
    fprintf(stderr, "cuzk: %s\n", msg);
    return status_exit(st);
}

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cuzk: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return EXIT_USAGE;
}

static void print_json_result(json_t *o)
{
    if (g_timings)
        json_object_set(o, "timings_ms", g_timings);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    if (s) {
        printf("%s\n", s);
        free(s);
    }
    json_decref(o);
}

/* ---- help ---- */

static const char *main_help =
    "cuzk " CUZK_VERSION ": Groth16 prover for BLS12-381 and BN254 (snarkjs/circom compatible)\n"
    "\n"
    "usage:\n"
    "  cuzk prove  [opts] circuit.zkey witness.wtns proof.json public.json\n"
    "  cuzk verify [opts] verification_key.json public.json proof.json\n"
    "  cuzk info   [opts] FILE   (.zkey, .czk, .wtns, .r1cs, or a vk / proof / public JSON)\n"
    "  cuzk setup  [opts] circuit.r1cs circuit.zkey [verification_key.json]\n"
    "  cuzk export-vk [opts] circuit.zkey|key.czk verification_key.json\n"
    "  cuzk circuit list | info PRESET\n"
    "  cuzk circuit export [opts] PRESET --c1 c1.json --partition K circuit.r1cs witness.wtns\n"
    "  cuzk setup  [opts] --circuit PRESET --out key.czk|circuit.zkey [verification_key.json]\n"
    "  cuzk prove  [opts] --circuit PRESET --c1 c1.json --partition K key.czk|circuit.zkey\n"
    "              proof.json public.json   (witness synthesis in-process)\n"
    "  cuzk --help | cuzk <command> --help | cuzk --version\n"
    "\n"
    "A proving key is a snarkjs .zkey or a compact key (.czk: compressed points,\n"
    "compact matrices, a checksum per section; docs/KEYFORMAT.md), told apart by\n"
    "its first bytes. A snarkjs key for BN254 (bn128) proves on the CPU.\n"
    "\n"
    "common options:\n"
    "  --threads N      CPU threads (default: all cores)\n"
    "  --quiet          no timings or progress on stderr\n"
    "  --json           one JSON object with the result and timings on stdout\n"
    "  --device D       cpu, cuda or auto (default auto: the GPU where one is usable;\n"
    "                   prove takes the CPU for keys of a domain below 2^15, faster\n"
    "                   there than a GPU's first launch)\n"
    "  --gpu N          GPU index for cuda\n"
    "\n"
    "exit codes:\n"
    "  0  success (verify: the proof is valid)\n"
    "  1  verify: the proof is invalid; prove: the new proof failed its self-check\n"
    "  2  usage error, unreadable or malformed input (bad file, wrong curve,\n"
    "     witness of the wrong length, ...)\n"
    "  3  internal error (out of memory, device fault)\n";

static const char *cmd_help(const char *cmd)
{
    if (!strcmp(cmd, "prove"))
        return "usage: cuzk prove [opts] KEY witness.wtns proof.json public.json\n"
               "       cuzk prove [opts] --circuit PRESET --c1 c1.json --partition K KEY\n"
               "                  proof.json public.json\n"
               "\n"
               "KEY is a snarkjs .zkey or a compact .czk (cuzk setup --out key.czk); a .czk\n"
               "made for another circuit than --circuit's is refused.\n"
               "Prove with a snarkjs Groth16 key and a circom witness; writes\n"
               "proof.json and public.json in snarkjs's format. The curve is the key's:\n"
               "BLS12-381, or BN254 (bn128), each on the CPU or the GPU by --device (auto:\n"
               "the GPU from a 2^15 domain, where a device answers). The proof is verified\n"
               "before it is written unless --no-verify. With --circuit the witness of\n"
               "partition K of a native circuit (cuzk circuit list) is computed in-process\n"
               "from a commit-1-like input (cuzk-bench gen-c1), which is checked first.\n"
               "\n"
               "options: --threads N, --quiet, --json, --device cpu|cuda|auto, --gpu N,\n"
               "         --no-verify (skip the self-check), --circuit PRESET, --c1 FILE,\n"
               "         --partition K (default 0)\n"
               "exit: 0 proved, 1 self-check failed, 2 bad input, 3 internal error\n";
    if (!strcmp(cmd, "verify"))
        return "usage: cuzk verify [opts] verification_key.json public.json proof.json\n"
               "\n"
               "Check a Groth16 proof (snarkjs JSON). Prints OK, or INVALID: <reason>.\n"
               "Proof points must be on the curve and in the prime-order subgroup.\n"
               "The curve is the key's \"curve\": BLS12-381, or BN254 (\"bn128\").\n"
               "\n"
               "options: --quiet, --json\n"
               "exit: 0 valid, 1 invalid, 2 unreadable or malformed input\n";
    if (!strcmp(cmd, "info"))
        return "usage: cuzk info [opts] FILE\n"
               "\n"
               "Describe a .zkey, .czk, .wtns or .r1cs file, or a verification key, proof or\n"
               "public-signals JSON file. A .czk is described from its header (counts, the\n"
               "circuit, each section's size, the memory a load takes) and every section's\n"
               "checksum is checked (no point is decompressed).\n"
               "\n"
               "options: --json\n"
               "exit: 0, or 2 if the file is unreadable or malformed\n";
    if (!strcmp(cmd, "setup"))
        return "usage: cuzk setup [opts] circuit.r1cs circuit.zkey [verification_key.json]\n"
               "       cuzk setup [opts] --circuit PRESET KEY [verification_key.json]\n"
               "       cuzk setup [opts] --circuit PRESET --out KEY [verification_key.json]\n"
               "\n"
               "Make a Groth16 proving key from random toxic waste, for an .r1cs or a native\n"
               "circuit's preset (cuzk circuit list). KEY's format is --format, else its\n"
               "extension: .czk is the compact key (docs/KEYFORMAT.md: compressed points,\n"
               "compact matrices, B density; made in memory from the recorded circuit, the\n"
               "fixed-base products on --device), anything else a snarkjs .zkey. A .czk\n"
               "needs --circuit. The same --seed gives the same key in both formats.\n"
               "The .r1cs's prime picks the curve: BLS12-381, or BN254 (circom's default,\n"
               "snarkjs's bn128: a bn128 .zkey and a vk with \"curve\": \"bn128\").\n"
               "FOR DEVELOPMENT AND BENCHMARKS ONLY: one party knows the toxic waste.\n"
               "\n"
               "options: --threads N, --quiet, --json, --circuit PRESET, --out KEY,\n"
               "         --format czk|zkey, --device cpu|cuda|auto, --gpu N (.czk only),\n"
               "         --seed N (deterministic toxic waste; tests and benchmarks only)\n"
               "exit: 0, 2 bad input, 3 internal error\n";
    if (!strcmp(cmd, "export-vk"))
        return "usage: cuzk export-vk [opts] KEY verification_key.json\n"
               "\n"
               "Write the verification key of a proving key (.zkey or .czk), as\n"
               "`snarkjs zkey export verificationkey` does (BLS12-381, or BN254 for a\n"
               "snarkjs bn128 key). Of a .czk only the vk and IC sections are read\n"
               "(and checked).\n"
               "\n"
               "options: --threads N, --quiet, --json\n"
               "exit: 0, 2 bad input, 3 internal error\n";
    if (!strcmp(cmd, "circuit"))
        return "usage: cuzk circuit list\n"
               "       cuzk circuit info [--json] PRESET\n"
               "       cuzk circuit export [opts] PRESET --c1 c1.json --partition K circuit.r1cs\n"
               "                           witness.wtns\n"
               "\n"
               "Native circuits written in C (docs/POREP_CIRCUIT.md): the PoRep-shaped\n"
               "presets porep-32g, porep-512m, porep-8m and porep-mini.\n"
               "  list    the presets, one a line\n"
               "  info    key: value lines: constraints, public_inputs, aux,\n"
               "          boolean_aux_percent, domain_size, ... and sub.NAME lines with\n"
               "          each sub-circuit's constraints (from a COUNT run)\n"
               "  export  the circuit as an .r1cs and partition K's witness as a .wtns,\n"
               "          for snarkjs (wtns check) or cuzk setup / prove\n"
               "The c1 input (cuzk-bench gen-c1 makes one) is checked first: a bad one is\n"
               "refused with one line naming its first fault (partition, challenge, field).\n"
               "\n"
               "options: --threads N, --quiet, --json, --c1 FILE, --partition K (default 0),\n"
               "         --unchecked-c1 (tests only: skip the c1's hash checks, so a bad\n"
               "         input reaches the witness)\n"
               "exit: 0, 2 bad input or usage, 3 internal error\n";
    return NULL;
}

/* ---- argument parsing ---- */

static int parse_uint(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

static int parse_args(cli *c, int argc, char **argv, const char *cmd)
{
    memset(c, 0, sizeof *c);
    c->device = "auto";
    int opts_done = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!opts_done && a[0] == '-' && a[1] == '-' && a[2]) {
            const char *val = NULL;
            char name[32];
            const char *eq = strchr(a, '=');
            size_t nl = eq ? (size_t)(eq - a) : strlen(a);
            if (nl >= sizeof name)
                return usage_error("%s: unknown option %s", cmd, a);
            memcpy(name, a, nl);
            name[nl] = 0;
            int takes = !strcmp(name, "--threads") || !strcmp(name, "--device") ||
                        !strcmp(name, "--gpu") || !strcmp(name, "--seed") ||
                        !strcmp(name, "--circuit") || !strcmp(name, "--c1") ||
                        !strcmp(name, "--partition") || !strcmp(name, "--out") ||
                        !strcmp(name, "--format");
            if (takes) {
                if (eq)
                    val = eq + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return usage_error("%s: %s needs a value", cmd, name);
            } else if (eq) {
                return usage_error("%s: %s takes no value", cmd, name);
            }
            uint64_t v;
            if (!strcmp(name, "--threads")) {
                if (parse_uint(val, &v) || v > 4096)
                    return usage_error("%s: --threads wants a number, got \"%s\"", cmd, val);
                c->threads = (unsigned)v;
            } else if (!strcmp(name, "--device")) {
                if (strcmp(val, "cpu") && strcmp(val, "cuda") && strcmp(val, "auto"))
                    return usage_error("%s: --device wants cpu, cuda or auto, got \"%s\"", cmd, val);
                c->device = val;
            } else if (!strcmp(name, "--gpu")) {
                if (parse_uint(val, &v) || v > 1024)
                    return usage_error("%s: --gpu wants a number, got \"%s\"", cmd, val);
                c->gpu = (int)v;
            } else if (!strcmp(name, "--seed")) {
                if (strcmp(cmd, "setup"))
                    return usage_error("%s: --seed is an option of setup only", cmd);
                if (parse_uint(val, &v))
                    return usage_error("%s: --seed wants a number, got \"%s\"", cmd, val);
                c->seed = v;
                c->have_seed = 1;
            } else if (!strcmp(name, "--out") || !strcmp(name, "--format")) {
                if (strcmp(cmd, "setup"))
                    return usage_error("%s: %s is an option of setup only", cmd, name);
                if (!strcmp(name, "--out")) {
                    c->out = val;
                } else {
                    if (strcmp(val, "czk") && strcmp(val, "zkey"))
                        return usage_error("%s: --format wants czk or zkey, got \"%s\"", cmd, val);
                    c->format = val;
                }
            } else if (!strcmp(name, "--circuit")) {
                if (strcmp(cmd, "setup") && strcmp(cmd, "prove"))
                    return usage_error("%s: --circuit is an option of setup and prove", cmd);
                c->circuit = val;
            } else if (!strcmp(name, "--c1") || !strcmp(name, "--partition") ||
                       !strcmp(name, "--unchecked-c1")) {
                if (strcmp(cmd, "circuit") && strcmp(cmd, "prove"))
                    return usage_error("%s: %s is an option of circuit export and prove", cmd,
                                       name);
                if (!strcmp(name, "--c1")) {
                    c->c1 = val;
                } else if (!strcmp(name, "--unchecked-c1")) {
                    c->unchecked_c1 = 1;
                } else {
                    if (parse_uint(val, &v) || v > 65535)
                        return usage_error("%s: --partition wants a number, got \"%s\"", cmd, val);
                    c->partition = (int)v;
                }
            } else if (!strcmp(name, "--quiet")) {
                c->quiet = 1;
            } else if (!strcmp(name, "--json")) {
                c->json = 1;
            } else if (!strcmp(name, "--no-verify")) {
                if (strcmp(cmd, "prove"))
                    return usage_error("%s: --no-verify is an option of prove only", cmd);
                c->no_verify = 1;
            } else if (!strcmp(name, "--help")) {
                c->help = 1;
            } else {
                return usage_error("%s: unknown option %s (see cuzk %s --help)", cmd, a, cmd);
            }
        } else if (!opts_done && !strcmp(a, "--")) {
            opts_done = 1;
        } else if (!opts_done && !strcmp(a, "-h")) {
            c->help = 1;
        } else if (!opts_done && a[0] == '-' && a[1]) {
            return usage_error("%s: unknown option %s (see cuzk %s --help)", cmd, a, cmd);
        } else {
            if (c->n_args >= 8)
                return usage_error("%s: too many arguments", cmd);
            c->args[c->n_args++] = a;
        }
    }
    return 0;
}

static const char *cmd_usage(const char *cmd)
{
    if (!strcmp(cmd, "prove"))
        return "cuzk prove [opts] circuit.zkey witness.wtns proof.json public.json";
    if (!strcmp(cmd, "verify"))
        return "cuzk verify [opts] verification_key.json public.json proof.json";
    if (!strcmp(cmd, "info"))
        return "cuzk info [opts] FILE";
    if (!strcmp(cmd, "setup"))
        return "cuzk setup [opts] circuit.r1cs circuit.zkey [verification_key.json]";
    return "cuzk export-vk [opts] KEY verification_key.json";
}

static int want_args(const cli *c, const char *cmd, int lo, int hi)
{
    if (c->n_args < lo || c->n_args > hi)
        return usage_error("%s: expected %s%d argument%s, got %d (usage: %s)", cmd,
                           lo == hi ? "" : "at least ", lo, lo == 1 ? "" : "s", c->n_args,
                           cmd_usage(cmd));
    return 0;
}

/* A JSON input (verification key, proof, public signals) is read whole:
   a regular file of at most 256 MiB, checked before it is copied (a vk
   takes about 360 bytes a public input: some 700,000 of them fit). */
#define CZ_JSON_MAX_BYTES (256u << 20)

static char *slurp(const char *path, size_t *len, char *err, size_t err_len, cz_status *st)
{
    cz_blob b;
    *st = cz_blob_map(&b, path, err, err_len);
    if (*st)
        return NULL;
    if (b.len > CZ_JSON_MAX_BYTES) {
        *st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, path,
                         "%zu bytes, more than the %u a JSON input may have", b.len,
                         CZ_JSON_MAX_BYTES);
        cz_blob_release(&b);
        return NULL;
    }
    char *s = malloc(b.len + 1);
    if (!s) {
        cz_blob_release(&b);
        *st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
        return NULL;
    }
    memcpy(s, b.data, b.len);
    s[b.len] = 0;
    *len = b.len;
    cz_blob_release(&b);
    return s;
}

/* e(alpha1, beta2) as snarkjs writes it in vk_alphabeta_12. */
static void alphabeta(cz_fp12 *out, const cz_vk *vk)
{
    cz_pairing(out, &vk->alpha1, &vk->beta2);
}

static cz_status write_vk(const cz_zkey *key, const char *path, char *err, size_t err_len)
{
    cz_vk *vk;
    cz_status st = cz_vk_from_zkey(&vk, key);
    if (st)
        return cz_io_fail(st, err, err_len, path, "out of memory");
    cz_fp12 ab;
    alphabeta(&ab, vk);
    char *s = cz_vk_to_json(vk, &ab);
    cz_vk_free(vk);
    if (!s)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    st = cz_write_text(path, s, err, err_len);
    free(s);
    return st;
}

/* Is `path` a compact key (.czk)? Told by its magic; false for anything
   unreadable (the loader that follows says why). */
static bool is_czk(const char *path)
{
    int fd;
    uint64_t size;
    char err[256];
    if (cz_file_open(&fd, &size, path, err, sizeof err))
        return false;
    uint8_t head[8];
    bool yes = size >= 8 && pread(fd, head, 8, 0) == 8 && cz_nkey_is_nkey(head, 8);
    close(fd);
    return yes;
}

/* Load a proving key, .zkey or .czk. vk_only: what a verification key
   needs (a .czk reads its vk and IC sections only). circuit (may be NULL):
   a .czk whose header names another circuit is refused before it is read. */
/* Whether a .czk load decompresses on GPU `device` (the --device of a
   proof): "cuda", or "auto" where the proof itself will take a GPU. */
static bool load_on_gpu(const char *device, uint64_t domain_size)
{
    if (!device)
        return false;
    if (!strcmp(device, "cuda"))
        return true;
    return !strcmp(device, "auto") && !cz_backend_oneshot_prefers_cpu(domain_size) &&
           cz_cuda_device_count() > 0;
}

#define LOAD_GPU_ARENA ((size_t)512 << 20) /* two 96 MiB chunks of points and their output */

static cz_status load_key(cz_zkey **key, const char *path, unsigned threads, bool vk_only,
                          const char *circuit, const char *device, int gpu, char *err,
                          size_t err_len)
{
    *key = NULL;
    if (!is_czk(path))
        /* Mapped, not read: a one-shot process proving its operator's own
           file, where a copy would double the memory of a large key. A key
           file truncated while this runs faults this process alone
           (SIGBUS), as any tool reading a file cut under it fails; cuzkd,
           which lives long and serves others, reads private copies
           instead. Only regular files are opened (cz_file_open), and the
           matrices' memory is checked against the machine's RAM before it
           is allocated. */
        return cz_zkey_load(key, path, threads, err, err_len);
    /* A .czk is always read into memory the key owns, chunk by chunk
       (its points are decompressed), checksums first. */
    int fd;
    uint64_t size;
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    cz_nkey_info info;
    st = cz_nkey_peek_fd(&info, fd, size, path, err, err_len);
    if (!st && circuit && info.circuit[0] && strcmp(info.circuit, circuit))
        st = cz_io_fail(CZ_ERR_ARG, err, err_len, path,
                        "a key for the circuit %s, not %s (make one with cuzk setup --circuit %s)",
                        info.circuit, circuit, circuit);
    if (!st) {
        cz_nkey_load_opts o = {.threads = threads, .vk_only = vk_only};
        /* Its points decompressed and subgroup-checked on the GPU (minutes
           on the CPU for a large key): a context of its own with a small
           arena, gone before the prover's backend takes its share of the
           card. Without one, the CPU (the reader also falls back to it if
           the GPU fails midway). */
        cz_cuda_ctx *dc = NULL;
        if (!vk_only && load_on_gpu(device, info.domain_size)) {
            char derr[256] = "";
            if (cz_cuda_ctx_create(&dc, gpu, LOAD_GPU_ARENA, 0, derr, sizeof derr) == CZ_OK) {
                o.decompress = cz_cuda_nkey_decompress;
                o.decompress_ctx = dc;
                o.decompress_on = "the gpu";
            } else {
                cz_log(CZ_LOG_WARN, "cuzk", "%s: no GPU for the key's points (%s): decompressing "
                       "on the cpu", path, derr);
            }
        }
        st = cz_nkey_load_fd(key, fd, size, path, &o, err, err_len);
        cz_cuda_ctx_destroy(dc);
    }
    close(fd);
    return st;
}

/* ---- commands ---- */

/* --circuit: the same argument list with the witness slot named after the
   c1 input (argument 1 of prove, argument 0 of setup) */
static int circuit_args(cli *cc, const cli *c, const char *cmd, int slot, int lo, int hi)
{
    *cc = *c;
    if (c->n_args < lo || c->n_args > hi)
        return usage_error("%s --circuit: expected %s, got %d argument%s", cmd,
                           slot ? "circuit.zkey proof.json public.json"
                                : "circuit.zkey [verification_key.json]",
                           c->n_args, c->n_args == 1 ? "" : "s");
    if (slot && !c->c1)
        return usage_error("%s --circuit: --c1 FILE is required", cmd);
    for (int i = 0, j = 0; i <= c->n_args; i++)
        cc->args[i] = i == slot ? (slot ? c->c1 : c->circuit) : c->args[j++];
    cc->n_args = c->n_args + 1;
    return 0;
}

/* What prove_output does with a curve's key, witness and proof. */
typedef struct {
    /* the self-check: the key's vk accepts the proof for these inputs */
    cz_status (*verify)(const void *key, const void *pub, size_t n_pub, const void *proof,
                        char *err, size_t err_len);
    char *(*proof_json)(const void *proof);
    char *(*public_json)(const void *pub, size_t n);
} prove_curve;

/* The end of both curves' prove paths: the self-check (unless
   --no-verify), then proof.json and public.json. CZ_OK with *invalid set
   when the proof failed its self-check (said on stderr, nothing written);
   else the write's status, with err filled. */
static cz_status prove_output(const cli *c, const prove_curve *pc, const void *key,
                              const void *proof, const void *pub, uint32_t n_public,
                              const char *wtns_path, const char *proof_path,
                              const char *pub_path, int *invalid, char *err, size_t err_len)
{
    cz_status st = CZ_OK;
    double t;
    *invalid = 0;
    if (!c->no_verify) {
        progress(c, "verify");
        t = now_ms();
        st = pc->verify(key, pub, n_public, proof, err, err_len);
        if (st) {
            fprintf(stderr,
                    "cuzk: %s: the new proof failed its self-check (%s): does the witness "
                    "satisfy the circuit? (not written)\n", wtns_path, err);
            *invalid = 1;
            return CZ_OK;
        }
        stage_done(c, "verify", now_ms() - t);
    }
    t = now_ms();
    char *pj = pc->proof_json(proof), *uj = pc->public_json(pub, n_public);
    if (!pj || !uj)
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, proof_path, "out of memory");
    if (!st)
        st = cz_write_text(proof_path, pj, err, err_len);
    if (!st)
        st = cz_write_text(pub_path, uj, err, err_len);
    if (!st)
        stage_done(c, "write", now_ms() - t);
    free(pj);
    free(uj);
    return st;
}

static cz_status bn254_self_check(const void *key, const void *pub, size_t n_pub,
                                  const void *proof, char *err, size_t err_len)
{
    cz_bn254_vk *vk;
    cz_status st = cz_bn254_vk_from_zkey(&vk, key);
    if (!st) {
        st = cz_bn254_groth16_verify(vk, pub, n_pub, proof, err, err_len);
        cz_bn254_vk_free(vk);
    }
    return st;
}
static char *bn254_proof_json(const void *p) { return cz_bn254_proof_to_json(p); }
static char *bn254_public_json(const void *pub, size_t n) { return cz_bn254_public_to_json(pub, n); }
static const prove_curve prove_bn254 = {bn254_self_check, bn254_proof_json, bn254_public_json};

static cz_status bls_self_check(const void *key, const void *pub, size_t n_pub, const void *proof,
                                char *err, size_t err_len)
{
    cz_vk *vk;
    cz_status st = cz_vk_from_zkey(&vk, key);
    if (!st) {
        st = cz_groth16_verify(vk, pub, n_pub, proof, err, err_len);
        cz_vk_free(vk);
    }
    return st;
}
static char *bls_proof_json(const void *p) { return cz_proof_to_json(p); }
static char *bls_public_json(const void *pub, size_t n) { return cz_public_to_json(pub, n); }
static const prove_curve prove_bls = {bls_self_check, bls_proof_json, bls_public_json};

/* prove with a snarkjs bn128 key over BN254: on the GPU
   (cz_cuda_bn254_groth16_prove) under --device cuda, and under auto by
   BLS12-381's one-shot rule (backend.h: a domain of at least
   CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN, where a CUDA device answers); else
   on the CPU (groth16_bn254.h). --device cuda without a usable GPU exits
   3, as for BLS12-381 keys; a device failure during the proof is said on
   stderr and the proof made again on the CPU. */
static int cmd_prove_bn254(const cli *c)
{
    const char *zkey_path = c->args[0], *wtns_path = c->args[1];
    const char *proof_path = c->args[2], *pub_path = c->args[3];
    char err[512];
    cz_status st;
    double t0 = now_ms(), t;
    progress(c, "load key");
    t = now_ms();
    cz_bn254_zkey *key = NULL;
    cz_zkey_load_opts lo = {.threads = c->threads};
    st = cz_bn254_zkey_load_ex(&key, zkey_path, &lo, err, sizeof err);
    if (st)
        return fail(st, err);
    stage_done(c, "load_key", now_ms() - t);

    /* the device, before the witness (as BLS12-381's path) */
    int is_auto = !strcmp(c->device, "auto"), want_gpu = !strcmp(c->device, "cuda");
    int auto_small = is_auto && cz_backend_oneshot_prefers_cpu(key->domain_size);
    cz_cuda_ctx *gpu = NULL;
    if (want_gpu || (is_auto && !auto_small)) {
        char derr[256] = "";
        /* a one-shot prover takes the GPU memory its key needs, not the card */
        st = cz_cuda_ctx_create(&gpu, c->gpu, cz_cuda_bn254_arena_for_key(key), 0, derr,
                                sizeof derr);
        if (st && want_gpu) {
            cz_bn254_zkey_free(key);
            fprintf(stderr, "cuzk: --device cuda:%d: %s\n", c->gpu, derr[0] ? derr : cz_strerror(st));
            return EXIT_INTERNAL;
        }
        if (st)
            gpu = NULL;
    }
    cz_threadpool *own = c->threads == 1 ? NULL
                         : c->threads ? cz_threadpool_create((int)c->threads) : NULL;
    cz_threadpool *pool = c->threads == 1 ? NULL : own ? own : cz_threadpool_global();
    int threads = pool ? cz_threadpool_size(pool) : 1;
    if (!c->quiet) {
        if (gpu)
            fprintf(stderr, "cuzk: curve BN254 (bn128), device cuda %d\n", c->gpu);
        else if (auto_small)
            fprintf(stderr, "cuzk: curve BN254 (bn128), device cpu, %d threads (auto: domain %u "
                    "is below %llu, where the CPU is faster than a GPU's first launch)\n", threads,
                    key->domain_size, (unsigned long long)CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN);
        else
            fprintf(stderr, "cuzk: curve BN254 (bn128), device cpu, %d threads%s\n", threads,
                    is_auto ? " (auto: no CUDA device)" : "");
    }

    progress(c, "read witness");
    t = now_ms();
    cz_blob wb;
    cz_bn254_fr *w = NULL;
    uint32_t nw = 0;
    st = cz_blob_map_whole(&wb, wtns_path, err, sizeof err);
    if (!st) {
        st = cz_bn254_wtns_parse(&w, &nw, wb.data, wb.len, wtns_path, key->n_vars, err,
                                 sizeof err);
        cz_blob_release(&wb);
    }
    if (st) {
        cz_cuda_ctx_destroy(gpu);
        cz_bn254_zkey_free(key);
        cz_threadpool_destroy(own);
        return fail(st, err);
    }
    stage_done(c, "read_witness", now_ms() - t);

    progress(c, "prove");
    cz_bn254_proof proof;
    cz_prove_timings tm;
    const char *dev_used = gpu ? "cuda" : "cpu";
    if (gpu) {
        st = cz_cuda_bn254_groth16_prove(gpu, &proof, key, w, pool, NULL, &tm, err, sizeof err);
        if (st == CZ_ERR_DEVICE || st == CZ_ERR_NOMEM) {
            /* the card failed or ran short (another process): the CPU proves */
            fprintf(stderr, "cuzk: warning: GPU %d: %s; proving on the cpu instead\n", c->gpu,
                    err);
            dev_used = "cpu";
        }
        cz_cuda_ctx_destroy(gpu);
    }
    if (!strcmp(dev_used, "cpu"))
        st = cz_bn254_groth16_prove(&proof, key, w, pool, NULL, &tm, err, sizeof err);
    cz_threadpool_destroy(own);
    if (st) {
        cz_bn254_wtns_free(w, nw);
        cz_bn254_zkey_free(key);
        return fail(st == CZ_ERR_VERIFY ? CZ_ERR_INTERNAL : st, err);
    }
    if (!c->quiet && strcmp(tm.tier, "host"))
        fprintf(stderr, "cuzk: key tier %s\n", tm.tier);
    prove_stages_done(c, &tm);

    int self_check_failed;
    st = prove_output(c, &prove_bn254, key, &proof, w + 1, key->n_public, wtns_path, proof_path,
                      pub_path, &self_check_failed, err, sizeof err);
    cz_bn254_wtns_free(w, nw);
    uint32_t n_vars = key->n_vars, dom = key->domain_size;
    cz_bn254_zkey_free(key);
    if (self_check_failed)
        return EXIT_INVALID;
    if (st)
        return fail(st, err);
    stage_done(c, "total", now_ms() - t0);
    if (c->json) {
        json_t *o = json_pack("{s:s,s:b,s:s,s:s,s:i,s:I,s:I,s:b}", "command", "prove", "ok", 1,
                              "curve", "bn128", "device", dev_used, "threads", threads, "nVars",
                              (json_int_t)n_vars, "domainSize", (json_int_t)dom, "verified",
                              !c->no_verify);
        print_json_result(o);
    }
    return 0;
}

static int cmd_prove(const cli *c0)
{
    int rc;
    cli cc;
    const cli *c = c0;
    if (c0->circuit) {
        if ((rc = circuit_args(&cc, c0, "prove", 1, 3, 3)))
            return rc;
        c = &cc;
    }
    if ((rc = want_args(c, "prove", 4, 4)))
        return rc;
    const char *zkey_path = c->args[0], *wtns_path = c->args[1];
    const char *proof_path = c->args[2], *pub_path = c->args[3];
    char err[512];
    cz_status st;
    double t0 = now_ms(), t;
    /* the curve is the key's: a snarkjs bn128 key proves over BN254 */
    if (!c->circuit && cz_zkey_file_is_bn254(zkey_path))
        return cmd_prove_bn254(c);

    progress(c, "load key");
    t = now_ms();
    cz_zkey *key;
    st = load_key(&key, zkey_path, c->threads, false, c->circuit, c->device, c->gpu, err,
                  sizeof err);
    if (st)
        return fail(st, err);
    stage_done(c, "load_key", now_ms() - t);

    cz_backend *be;
    char dev[32];
    snprintf(dev, sizeof dev, "%s:%d", c->device, c->gpu);
    /* a one-shot prover takes the GPU memory its key needs, not the card */
    cz_cuda_set_arena_cap(cz_cuda_arena_for_key(key));
    /* one proof per process: "auto" takes the CPU where the GPU's first
       launch costs more than the proof (backend.h) */
    st = cz_backend_create_oneshot(&be, dev, c->threads, key->domain_size, err, sizeof err);
    if (st) { /* --device cuda where no GPU can be used: say so, never fall back */
        cz_zkey_free(key);
        fprintf(stderr, "cuzk: --device %s: %s\n", dev, err[0] ? err : cz_strerror(st));
        return EXIT_INTERNAL;
    }
    int auto_small = !strcmp(c->device, "auto") && cz_backend_oneshot_prefers_cpu(key->domain_size);
    if (!c->quiet) {
        if (!strcmp(be->name, "cpu") && auto_small)
            fprintf(stderr, "cuzk: device cpu, %d threads (auto: domain %u is below %llu, where "
                    "the CPU is faster than a GPU's first launch)\n",
                    c->threads ? (int)c->threads : cz_threadpool_size(cz_threadpool_global()),
                    key->domain_size, (unsigned long long)CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN);
        else if (!strcmp(be->name, "cpu"))
            fprintf(stderr, "cuzk: device cpu, %d threads%s\n",
                    c->threads ? (int)c->threads : cz_threadpool_size(cz_threadpool_global()),
                    strcmp(c->device, "auto") ? "" : " (auto: no CUDA device)");
        else
            fprintf(stderr, "cuzk: device %s %d\n", be->name, c->gpu);
    }

    progress(c, "read witness");
    t = now_ms();
    cz_blob wb;
    cz_fr *w = NULL;
    uint32_t nw = 0;
    double cms[2];
    if (c->circuit) {
        cz_cli_circuit_opts co = {c->c1, c->partition, c->threads, c->quiet, c->json,
                                  c->unchecked_c1};
        st = cz_cli_circuit_witness(c->circuit, &co, key->n_vars, key->n_public, &w, &nw, cms,
                                    err, sizeof err);
    } else {
        st = cz_blob_map_whole(&wb, wtns_path, err, sizeof err);
        if (!st) {
            st = cz_wtns_parse(&w, &nw, wb.data, wb.len, wtns_path, key->n_vars, err, sizeof err);
            cz_blob_release(&wb);
        }
    }
    if (st) {
        cz_zkey_free(key);
        cz_backend_destroy(be);
        return fail(st, err);
    }
    if (c->circuit) {
        stage_done(c, "read_c1", cms[0]);
        stage_done(c, "synthesize", cms[1]);
    } else {
        stage_done(c, "read_witness", now_ms() - t);
    }

    progress(c, "prove");
    cz_proof proof;
    cz_prove_timings tm;
    st = cz_groth16_prove(&proof, key, w, be, NULL, &tm, err, sizeof err);
    if (st) {
        cz_wtns_free(w, nw);
        cz_zkey_free(key);
        cz_backend_destroy(be);
        return fail(st == CZ_ERR_VERIFY ? CZ_ERR_INTERNAL : st, err);
    }
    if (!c->quiet)
        fprintf(stderr, "cuzk: key tier %s\n", tm.tier);
    prove_stages_done(c, &tm);

    int self_check_failed;
    st = prove_output(c, &prove_bls, key, &proof, w + 1, key->n_public, wtns_path, proof_path,
                      pub_path, &self_check_failed, err, sizeof err);
    cz_wtns_free(w, nw);
    uint32_t n_vars = key->n_vars, dom = key->domain_size;
    cz_zkey_free(key);
    const char *be_name = be->name;
    if (self_check_failed) {
        cz_backend_destroy(be);
        return EXIT_INVALID;
    }
    if (st) {
        cz_backend_destroy(be);
        return fail(st, err);
    }
    stage_done(c, "total", now_ms() - t0);
    if (c->json) {
        json_t *o = json_pack("{s:s,s:b,s:s,s:i,s:I,s:I,s:b}", "command", "prove", "ok", 1,
                              "device", be_name, "threads",
                              c->threads ? (int)c->threads : cz_threadpool_size(cz_threadpool_global()),
                              "nVars",
                              (json_int_t)n_vars, "domainSize", (json_int_t)dom, "verified",
                              !c->no_verify);
        print_json_result(o);
    }
    cz_backend_destroy(be);
    return 0;
}

static int cmd_verify(const cli *c)
{
    int rc;
    if ((rc = want_args(c, "verify", 3, 3)))
        return rc;
    char err[512];
    cz_status st;
    size_t l1 = 0, l2 = 0, l3 = 0;
    double t = now_ms();
    char *vk = slurp(c->args[0], &l1, err, sizeof err, &st);
    char *pub = st ? NULL : slurp(c->args[1], &l2, err, sizeof err, &st);
    char *pr = st ? NULL : slurp(c->args[2], &l3, err, sizeof err, &st);
    if (!st)
        st = cz_verify_json_named(vk, l1, c->args[0], pub, l2, c->args[1], pr, l3, c->args[2],
                                  err, sizeof err);
    free(vk);
    free(pub);
    free(pr);
    if (st && st != CZ_ERR_VERIFY)
        return fail(st, err);
    stage_done(c, "verify", now_ms() - t);
    if (c->json) {
        json_t *o = json_pack("{s:s,s:b,s:s}", "command", "verify", "valid", st == CZ_OK, "result",
                              st == CZ_OK ? "OK" : "INVALID");
        if (st)
            json_object_set_new(o, "reason", json_string(err));
        print_json_result(o);
    } else if (st == CZ_OK) {
        printf("OK\n");
    } else {
        printf("INVALID: %s\n", err);
    }
    return st == CZ_OK ? 0 : EXIT_INVALID;
}

static int cmd_export_vk(const cli *c)
{
    int rc;
    if ((rc = want_args(c, "export-vk", 2, 2)))
        return rc;
    char err[512];
    double t = now_ms();
    cz_status st;
    uint32_t npub;
    if (cz_zkey_file_is_bn254(c->args[0])) {
        /* a snarkjs bn128 key: its vk as snarkjs exports it */
        cz_bn254_zkey *bkey = NULL;
        cz_zkey_load_opts lo = {.threads = c->threads, .no_matrices = true};
        if ((st = cz_bn254_zkey_load_ex(&bkey, c->args[0], &lo, err, sizeof err)))
            return fail(st, err);
        stage_done(c, "load_key", now_ms() - t);
        t = now_ms();
        cz_bn254_vk *vk = NULL;
        char *text = NULL;
        if (cz_bn254_vk_from_zkey(&vk, bkey) || !(text = cz_bn254_vk_to_json(vk)))
            st = cz_io_fail(CZ_ERR_NOMEM, err, sizeof err, c->args[1], "out of memory");
        else
            st = cz_write_text(c->args[1], text, err, sizeof err);
        free(text);
        cz_bn254_vk_free(vk);
        npub = bkey->n_public;
        cz_bn254_zkey_free(bkey);
    } else {
        cz_zkey *key;
        st = load_key(&key, c->args[0], c->threads, true, NULL, NULL, 0, err, sizeof err);
        if (st)
            return fail(st, err);
        stage_done(c, "load_key", now_ms() - t);
        t = now_ms();
        st = write_vk(key, c->args[1], err, sizeof err);
        npub = key->n_public;
        cz_zkey_free(key);
    }
    if (st)
        return fail(st, err);
    stage_done(c, "export_vk", now_ms() - t);
    if (c->json)
        print_json_result(json_pack("{s:s,s:b,s:I}", "command", "export-vk", "ok", 1, "nPublic",
                                    (json_int_t)npub));
    return 0;
}

/* Does the key path ask for a .czk (--format, else the extension)? */
static bool wants_czk(const cli *c, const char *key_path)
{
    if (c->format)
        return !strcmp(c->format, "czk");
    size_t n = strlen(key_path);
    return n >= 4 && !strcmp(key_path + n - 4, ".czk");
}

/* setup of a compact key: the recorded circuit, the key made in memory
   (fixed-base products on the chosen device), written as .czk. */
static int setup_czk(const cli *c)
{
    const char *key_path = c->args[1];
    const char *vk_path = c->n_args == 3 ? c->args[2] : NULL;
    char err[512];
    double t0 = now_ms(), t = t0;
    progress(c, "shape");
    cz_shape *shape;
    cz_status st = cz_cli_circuit_shape(c->circuit, &shape, err, sizeof err);
    if (st)
        return fail(st, err);
    stage_done(c, "shape", now_ms() - t);
    cz_backend *be;
    char dev[32];
    snprintf(dev, sizeof dev, "%s:%d", c->device, c->gpu);
    st = cz_backend_create(&be, dev, c->threads, err, sizeof err);
    if (st) {
        cz_shape_free(shape);
        fprintf(stderr, "cuzk: --device %s: %s\n", dev, err[0] ? err : cz_strerror(st));
        return EXIT_INTERNAL;
    }
    if (!c->quiet)
        fprintf(stderr, "cuzk: fixed-base products on %s\n", be->name);
    progress(c, "setup");
    t = now_ms();
    cz_setup_opts o = {.seeded = c->have_seed != 0, .seed = c->seed, .threads = c->threads,
                       .fold_c = true};
    cz_zkey *key = NULL;
    st = cz_zkey_from_shape(&key, shape, &o, be, err, sizeof err);
    uint8_t digest[16];
    cz_nkey_shape_digest(digest, shape);
    uint64_t nc = shape->n_constraints, nw = 1 + shape->n_public + shape->n_aux;
    cz_shape_free(shape);
    const char *be_name = be->name;
    if (st) {
        cz_backend_destroy(be);
        return fail(st, err);
    }
    stage_done(c, "setup", now_ms() - t);
    progress(c, "write key");
    t = now_ms();
    cz_nkey_meta meta = {.circuit = c->circuit, .shape_digest = digest,
                         .flags = CZ_NKEY_FLAG_DEVELOPMENT, .threads = c->threads};
    st = cz_nkey_write(key_path, key, &meta, err, sizeof err);
    if (!st)
        stage_done(c, "write_key", now_ms() - t);
    if (!st && vk_path) {
        t = now_ms();
        st = write_vk(key, vk_path, err, sizeof err);
        if (!st)
            stage_done(c, "export_vk", now_ms() - t);
    }
    cz_zkey_free(key);
    int json = c->json;
    if (st) {
        cz_backend_destroy(be);
        return fail(st, err);
    }
    cz_nkey_info info;
    st = cz_nkey_peek(&info, key_path, err, sizeof err);
    if (st) {
        cz_backend_destroy(be);
        return fail(st, err);
    }
    stage_done(c, "total", now_ms() - t0);
    if (!c->quiet)
        fprintf(stderr, "cuzk: %s: %llu bytes (compact key; %llu bytes in memory)\n", key_path,
                (unsigned long long)info.file_bytes, (unsigned long long)info.mem_bytes);
    if (json)
        print_json_result(json_pack("{s:s,s:b,s:s,s:s,s:I,s:I,s:b,s:s,s:I}", "command", "setup",
                                    "ok", 1, "format", "czk", "circuit", c->circuit,
                                    "nConstraints", (json_int_t)nc, "nVars", (json_int_t)nw,
                                    "seeded", c->have_seed != 0, "device", be_name, "fileBytes",
                                    (json_int_t)info.file_bytes));
    cz_backend_destroy(be);
    return 0;
}

/* setup of a bn128 circuit (its .r1cs's prime is BN254's r): a snarkjs
   bn128 .zkey (setup_bn254.h) and its vk as snarkjs exports it */
static int setup_bn254(const cli *c)
{
    char err[512];
    double t0 = now_ms(), t = t0;
    cz_bn254_r1cs *cs;
    cz_status st = cz_bn254_r1cs_load(&cs, c->args[0], err, sizeof err);
    if (st)
        return fail(st, err);
    stage_done(c, "read_r1cs", now_ms() - t);
    progress(c, "setup");
    t = now_ms();
    cz_setup_opts o = {.seeded = c->have_seed != 0, .seed = c->seed, .threads = c->threads};
    st = cz_bn254_groth16_setup(cs, c->args[1], &o, err, sizeof err);
    uint32_t nc = cs->n_constraints, nw = cs->n_wires;
    cz_bn254_r1cs_free(cs);
    if (st)
        return fail(st, err);
    stage_done(c, "setup", now_ms() - t);
    if (c->n_args == 3) {
        /* read back with every check of the key reader, then exported */
        t = now_ms();
        cz_bn254_zkey *key = NULL;
        cz_zkey_load_opts lo = {.threads = c->threads, .no_matrices = true};
        if ((st = cz_bn254_zkey_load_ex(&key, c->args[1], &lo, err, sizeof err)))
            return fail(st, err);
        cz_bn254_vk *vk = NULL;
        char *text = NULL;
        if (cz_bn254_vk_from_zkey(&vk, key) || !(text = cz_bn254_vk_to_json(vk)))
            st = cz_io_fail(CZ_ERR_NOMEM, err, sizeof err, c->args[2], "out of memory");
        else
            st = cz_write_text(c->args[2], text, err, sizeof err);
        free(text);
        cz_bn254_vk_free(vk);
        cz_bn254_zkey_free(key);
        if (st)
            return fail(st, err);
        stage_done(c, "export_vk", now_ms() - t);
    }
    stage_done(c, "total", now_ms() - t0);
    if (c->json)
        print_json_result(json_pack("{s:s,s:b,s:s,s:I,s:I,s:b}", "command", "setup", "ok", 1,
                                    "curve", "bn128", "nConstraints", (json_int_t)nc, "nVars",
                                    (json_int_t)nw, "seeded", c->have_seed != 0));
    return 0;
}

static int cmd_setup(const cli *c0)
{
    int rc;
    cli cc, co;
    if (c0->out) {
        /* --out KEY: KEY in its place among the arguments (after the .r1cs,
           or first with --circuit) */
        int slot = c0->circuit ? 0 : 1;
        if (c0->n_args < slot || c0->n_args >= 8)
            return usage_error("setup --out: expected %s", c0->circuit ? "[verification_key.json]"
                                                                       : "circuit.r1cs "
                                                                         "[verification_key.json]");
        co = *c0;
        for (int i = c0->n_args; i > slot; i--)
            co.args[i] = co.args[i - 1];
        co.args[slot] = c0->out;
        co.n_args++;
        c0 = &co;
    }
    const cli *c = c0;
    if (c0->circuit) {
        if ((rc = circuit_args(&cc, c0, "setup", 0, 1, 2)))
            return rc;
        c = &cc;
    }
    if ((rc = want_args(c, "setup", 2, 3)))
        return rc;
    if (wants_czk(c, c->args[1])) {
        if (!c->circuit)
            return usage_error("setup: a compact key (.czk) is made from a native circuit: "
                               "--circuit PRESET (cuzk circuit list)");
        fprintf(stderr, "cuzk: WARNING: this key is for development and benchmarks only: its "
                        "toxic waste was made by one party%s\n",
                c->have_seed ? " from a fixed seed (anyone can forge proofs)" : "");
        return setup_czk(c);
    }
    const cz_curve *curve = NULL;
    if (!c->circuit) {
        /* the .r1cs header's prime picks the curve */
        char perr[512];
        cz_status pst = cz_r1cs_file_curve(c->args[0], &curve, perr, sizeof perr);
        if (pst)
            return fail(pst, perr);
    }
    fprintf(stderr, "cuzk: WARNING: this key is for development and benchmarks only: its toxic "
                    "waste was made by one party%s\n",
            c->have_seed ? " from a fixed seed (anyone can forge proofs)" : "");
    if (curve && curve->id == CZ_CURVE_BN254)
        return setup_bn254(c);
    char err[512];
    double t0 = now_ms(), t = t0;
    cz_r1cs *cs;
    cz_status st = c->circuit ? cz_cli_circuit_r1cs(c->circuit, c->threads, &cs, err, sizeof err)
                              : cz_r1cs_load(&cs, c->args[0], err, sizeof err);
    if (st)
        return fail(st, err);
    stage_done(c, c->circuit ? "shape" : "read_r1cs", now_ms() - t);
    progress(c, "setup");
    t = now_ms();
    cz_setup_opts o = {.seeded = c->have_seed != 0, .seed = c->seed, .threads = c->threads};
    st = cz_groth16_setup(cs, c->args[1], &o, err, sizeof err);
    uint32_t nc = cs->n_constraints, nw = cs->n_wires;
    cz_r1cs_free(cs);
    if (st)
        return fail(st, err);
    stage_done(c, "setup", now_ms() - t);
    if (c->n_args == 3) {
        t = now_ms();
        cz_zkey *key;
        st = cz_zkey_load(&key, c->args[1], c->threads, err, sizeof err);
        if (!st) {
            st = write_vk(key, c->args[2], err, sizeof err);
            cz_zkey_free(key);
        }
        if (st)
            return fail(st, err);
        stage_done(c, "export_vk", now_ms() - t);
    }
    stage_done(c, "total", now_ms() - t0);
    if (c->json)
        print_json_result(json_pack("{s:s,s:b,s:I,s:I,s:b}", "command", "setup", "ok", 1,
                                    "nConstraints", (json_int_t)nc, "nVars", (json_int_t)nw,
                                    "seeded", c->have_seed != 0));
    return 0;
}

/* info: one "key: value" per line, or a JSON object. */
static void info_out(json_t *o, const char *k, json_t *v)
{
    json_object_set_new(o, k, v);
}

static int cmd_info(const cli *c)
{
    int rc;
    if ((rc = want_args(c, "info", 1, 1)))
        return rc;
    const char *path = c->args[0];
    char err[512];
    cz_blob b;
    cz_status st = cz_blob_map(&b, path, err, sizeof err);
    if (st)
        return fail(st, err);
    json_t *o = json_object();
    info_out(o, "file", json_string(path));
    if (cz_nkey_is_nkey(b.data, b.len)) {
        /* the header, and every section's checksum (streamed; no point is
           decompressed, so this stays quick for a porep-32g key) */
        cz_nkey_info ni;
        st = cz_nkey_verify(&ni, path, err, sizeof err);
        if (!st) {
            char hex[33];
            for (int i = 0; i < 16; i++)
                snprintf(hex + 2 * i, 3, "%02x", ni.shape_digest[i]);
            info_out(o, "type", json_string("czk"));
            info_out(o, "version", json_integer(ni.version));
            info_out(o, "protocol", json_string("groth16"));
            info_out(o, "curve", json_string("BLS12-381"));
            info_out(o, "circuit", json_string(ni.circuit));
            info_out(o, "development", json_boolean(ni.flags & CZ_NKEY_FLAG_DEVELOPMENT));
            info_out(o, "foldedC", json_boolean(ni.flags & CZ_NKEY_FLAG_FOLDED_C));
            info_out(o, "shapeDigest", json_string(hex));
            info_out(o, "nVars", json_integer(ni.n_vars));
            info_out(o, "nPublic", json_integer(ni.n_public));
            info_out(o, "domainSize", json_integer(ni.domain_size));
            info_out(o, "nB", json_integer(ni.n_b));
            info_out(o, "nCoefficients", json_integer(ni.n_coefs));
            info_out(o, "rowsA", json_integer(ni.a_rows));
            info_out(o, "rowsB", json_integer(ni.b_rows));
            info_out(o, "nonzerosA", json_integer((json_int_t)ni.a_nnz));
            info_out(o, "nonzerosB", json_integer((json_int_t)ni.b_nnz));
            info_out(o, "fileBytes", json_integer((json_int_t)ni.file_bytes));
            info_out(o, "pointBytes", json_integer((json_int_t)ni.point_bytes));
            info_out(o, "matrixBytes", json_integer((json_int_t)ni.matrix_bytes));
            info_out(o, "memoryBytes", json_integer((json_int_t)ni.mem_bytes));
            for (uint32_t i = 0; i < ni.n_sections; i++) {
                char k[64];
                int n = snprintf(k, sizeof k, "section.%s", ni.sections[i].name);
                for (int j = 0; j < n; j++)
                    if (k[j] == ' ')
                        k[j] = '_';
                info_out(o, k, json_integer((json_int_t)ni.sections[i].length));
            }
            info_out(o, "checksums", json_string("ok"));
        }
    } else if (b.len >= 4 && !memcmp(b.data, "zkey", 4) && cz_zkey_bytes_are_bn254(b.data, b.len)) {
        /* a snarkjs bn128 key: every check of a load, no matrices */
        cz_bn254_zkey *key = NULL;
        cz_zkey_load_opts lo = {.threads = c->threads, .no_matrices = true};
        st = cz_bn254_zkey_load_ex(&key, path, &lo, err, sizeof err);
        if (!st) {
            info_out(o, "type", json_string("zkey"));
            info_out(o, "protocol", json_string("groth16"));
            info_out(o, "curve", json_string("BN254"));
            info_out(o, "snarkjsCurve", json_string("bn128"));
            info_out(o, "nVars", json_integer(key->n_vars));
            info_out(o, "nPublic", json_integer(key->n_public));
            info_out(o, "domainSize", json_integer(key->domain_size));
            info_out(o, "nCoefficients", json_integer(key->n_coefs));
            info_out(o, "nonzerosA", json_integer((json_int_t)key->qa.nnz));
            info_out(o, "nonzerosB", json_integer((json_int_t)key->qb.nnz));
            info_out(o, "contributions", json_integer(key->n_contributions));
        }
        cz_bn254_zkey_free(key);
    } else if (b.len >= 4 && !memcmp(b.data, "wtns", 4) && cz_wtns_bytes_are_bn254(b.data, b.len)) {
        cz_bn254_fr *w;
        uint32_t n;
        st = cz_bn254_wtns_parse(&w, &n, b.data, b.len, path, 0, err, sizeof err);
        if (!st) {
            size_t zeros = 0, ones = 0;
            for (uint32_t i = 0; i < n; i++) {
                zeros += cz_bn254_fr_is_zero(&w[i]);
                ones += cz_bn254_fr_is_one(&w[i]);
            }
            info_out(o, "type", json_string("wtns"));
            info_out(o, "curve", json_string("BN254"));
            info_out(o, "snarkjsCurve", json_string("bn128"));
            info_out(o, "nValues", json_integer(n));
            info_out(o, "zeros", json_integer((json_int_t)zeros));
            info_out(o, "ones", json_integer((json_int_t)ones));
            cz_bn254_wtns_free(w, n);
        }
    } else if (b.len >= 4 && !memcmp(b.data, "zkey", 4)) {
        cz_zkey_info zi;
        st = cz_zkey_read_info(&zi, b.data, b.len, path, err, sizeof err);
        cz_zkey *key = NULL;
        /* every check of a load, but no matrices: describing a key never
           allocates by what its header claims */
        cz_zkey_load_opts lo = {.threads = c->threads, .no_matrices = true};
        if (!st)
            st = cz_zkey_load_ex(&key, path, &lo, err, sizeof err);
        if (!st) {
            info_out(o, "type", json_string("zkey"));
            info_out(o, "protocol", json_string("groth16"));
            info_out(o, "curve", json_string("BLS12-381"));
            info_out(o, "nVars", json_integer(zi.n_vars));
            info_out(o, "nPublic", json_integer(zi.n_public));
            info_out(o, "domainSize", json_integer(zi.domain_size));
            info_out(o, "nCoefficients", json_integer(zi.n_coefs));
            info_out(o, "nonzerosA", json_integer((json_int_t)key->qa.nnz));
            info_out(o, "nonzerosB", json_integer((json_int_t)key->qb.nnz));
            info_out(o, "contributions", json_integer(zi.n_contributions));
        }
        cz_zkey_free(key);
    } else if (b.len >= 4 && !memcmp(b.data, "wtns", 4)) {
        cz_fr *w;
        uint32_t n;
        st = cz_wtns_parse(&w, &n, b.data, b.len, path, 0, err, sizeof err);
        if (!st) {
            size_t zeros = 0, ones = 0;
            for (uint32_t i = 0; i < n; i++) {
                zeros += cz_fr_is_zero(&w[i]);
                ones += cz_fr_is_one(&w[i]);
            }
            info_out(o, "type", json_string("wtns"));
            info_out(o, "curve", json_string("BLS12-381"));
            info_out(o, "nValues", json_integer(n));
            info_out(o, "zeros", json_integer((json_int_t)zeros));
            info_out(o, "ones", json_integer((json_int_t)ones));
            cz_wtns_free(w, n);
        }
    } else if (b.len >= 4 && !memcmp(b.data, "r1cs", 4)) {
        /* BLS12-381's reader, else (its prime is another curve's) BN254's */
        cz_r1cs *cs = NULL;
        cz_bn254_r1cs *bcs = NULL;
        char berr[512];
        st = cz_r1cs_parse(&cs, b.data, b.len, path, err, sizeof err);
        if (st == CZ_ERR_CURVE &&
            !cz_bn254_r1cs_parse(&bcs, b.data, b.len, path, berr, sizeof berr))
            st = CZ_OK;
        if (!st) {
            uint32_t nw = cs ? cs->n_wires : bcs->n_wires;
            uint32_t nc = cs ? cs->n_constraints : bcs->n_constraints;
            uint32_t po = cs ? cs->n_pub_out : bcs->n_pub_out;
            uint32_t pi = cs ? cs->n_pub_in : bcs->n_pub_in;
            uint32_t pr = cs ? cs->n_prv_in : bcs->n_prv_in;
            uint64_t nt = cs ? cs->n_terms : bcs->n_terms;
            info_out(o, "type", json_string("r1cs"));
            info_out(o, "curve", json_string(cs ? "BLS12-381" : "BN254"));
            if (bcs)
                info_out(o, "snarkjsCurve", json_string("bn128"));
            info_out(o, "nWires", json_integer(nw));
            info_out(o, "nConstraints", json_integer(nc));
            info_out(o, "nPubOut", json_integer(po));
            info_out(o, "nPubIn", json_integer(pi));
            info_out(o, "nPrvIn", json_integer(pr));
            info_out(o, "nTerms", json_integer((json_int_t)nt));
            uint32_t npub = po + pi;
            uint32_t d = 1;
            while (d < (uint64_t)nc + npub + 1)
                d <<= 1;
            info_out(o, "domainSize", json_integer(d));
            cz_r1cs_free(cs);
            cz_bn254_r1cs_free(bcs);
        }
    } else {
        /* JSON: a verification key, a proof, or public signals */
        const char *txt = (const char *)b.data;
        json_error_t je;
        json_t *doc = json_loadb(txt, b.len, 0, &je);
        if (!doc) {
            st = cz_io_fail(CZ_ERR_FORMAT, err, sizeof err, path,
                            "not a .zkey, .czk, .wtns, .r1cs or JSON file");
        } else if (json_is_array(doc)) {
            cz_fr *pub;
            size_t n;
            st = cz_public_from_json(&pub, &n, txt, b.len, path, err, sizeof err);
            if (!st) {
                info_out(o, "type", json_string("public"));
                info_out(o, "nPublic", json_integer((json_int_t)n));
                free(pub);
            }
        } else if (json_is_object(doc) && json_object_get(doc, "IC")) {
            cz_vk *vk;
            st = cz_vk_from_json(&vk, txt, b.len, path, err, sizeof err);
            if (!st) {
                info_out(o, "type", json_string("verification_key"));
                info_out(o, "protocol", json_string("groth16"));
                info_out(o, "curve", json_string("BLS12-381"));
                info_out(o, "nPublic", json_integer(vk->n_public));
                cz_vk_free(vk);
            }
        } else if (json_is_object(doc) && json_object_get(doc, "pi_a")) {
            cz_proof p;
            st = cz_proof_from_json(&p, txt, b.len, path, err, sizeof err);
            if (!st) {
                bool sub = cz_g1_affine_in_subgroup(&p.a) && cz_g2_affine_in_subgroup(&p.b) &&
                           cz_g1_affine_in_subgroup(&p.c);
                info_out(o, "type", json_string("proof"));
                info_out(o, "protocol", json_string("groth16"));
                info_out(o, "curve", json_string("BLS12-381"));
                info_out(o, "pointsInSubgroup", json_boolean(sub));
            }
        } else {
            st = cz_io_fail(CZ_ERR_FORMAT, err, sizeof err, path,
                            "JSON that is neither a verification key, a proof nor public signals");
        }
        json_decref(doc);
    }
    cz_blob_release(&b);
    if (st) {
        json_decref(o);
        return fail(st, err);
    }
    if (c->json) {
        print_json_result(o);
    } else {
        const char *k;
        json_t *v;
        json_object_foreach(o, k, v) {
            if (json_is_string(v))
                printf("%s: %s\n", k, json_string_value(v));
            else if (json_is_integer(v))
                printf("%s: %lld\n", k, (long long)json_integer_value(v));
            else if (json_is_boolean(v))
                printf("%s: %s\n", k, json_is_true(v) ? "yes" : "no");
        }
        json_decref(o);
    }
    return 0;
}

static int cmd_circuit(const cli *c)
{
    cz_cli_circuit_opts o = {c->c1, c->partition, c->threads, c->quiet, c->json, c->unchecked_c1};
    return cz_cli_circuit(c->args, c->n_args, &o);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given (usage: cuzk prove|verify|info|setup|export-vk|circuit "
                           "[opts] args..., see cuzk --help)");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (argc > 2 && cmd_help(argv[2]))
            fputs(cmd_help(argv[2]), stdout);
        else
            fputs(main_help, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("cuzk %s (commit %s)\nbackends: %s\n", cz_build_version(), cz_build_commit(),
               cz_build_backends());
        if (!cz_cuda_built())
            printf("CUDA backend: not built\n");
        else
            printf("CUDA backend: %s, %d device(s)\n",
                   cz_cuda_is_model() ? "over the host model of the device (tests)" : "built",
                   cz_cuda_device_count());
        return 0;
    }
    int (*fn)(const cli *) = NULL;
    if (!strcmp(cmd, "prove"))
        fn = cmd_prove;
    else if (!strcmp(cmd, "verify"))
        fn = cmd_verify;
    else if (!strcmp(cmd, "info"))
        fn = cmd_info;
    else if (!strcmp(cmd, "setup"))
        fn = cmd_setup;
    else if (!strcmp(cmd, "export-vk"))
        fn = cmd_export_vk;
    else if (!strcmp(cmd, "circuit"))
        fn = cmd_circuit;
    else {
        fprintf(stderr, "cuzk: unknown command \"%s\" (see cuzk --help)\n", cmd);
        return EXIT_USAGE;
    }
    cli c;
    int rc = parse_args(&c, argc - 2, argv + 2, cmd);
    if (rc)
        return rc;
    if (c.help) {
        fputs(cmd_help(cmd), stdout);
        return 0;
    }
    g_progress = !c.quiet && !c.json && isatty(2);
    if (c.quiet) /* the backends' information lines too (warnings stay) */
        cz_log_setup(CZ_LOG_WARN, 0);
    if (c.json)
        g_timings = json_object();
    rc = fn(&c);
    json_decref(g_timings);
    return rc;
}
