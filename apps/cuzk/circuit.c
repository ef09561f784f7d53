/*
 * circuit.c: native circuits in the cuzk CLI.
 *
 *   cuzk circuit list
 *   cuzk circuit info PRESET
 *   cuzk circuit export PRESET --c1 c1.json --partition K circuit.r1cs witness.wtns
 *
 * and the preset side of `cuzk setup --circuit PRESET` and `cuzk prove
 * --circuit PRESET --c1 c1.json --partition K`.
 *
 * DESIGN. Thin, as the rest of the CLI: the circuit (src/circuit/porep.c)
 * counts, records and computes witnesses; its input reader
 * (src/circuit/c1.c) validates a c1 and names its first fault, which
 * becomes one line on stderr and exit 2. `info` prints `key: value` lines
 * from a whole COUNT run (the per-sub-circuit breakdown too) and the share
 * of witness values in {0, 1}, measured on generated inputs of one and two
 * challenges and extrapolated to the preset's count (every challenge has
 * the same shape), so it stays cheap for porep-32g.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuit.h"
#include "circuit/c1.h"
#include "circuit/porep.h"
#include "util/threadpool.h"

#define EXIT_USAGE 2
#define EXIT_INTERNAL 3

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int exit_of(cz_status st)
{
    switch (st) {
    case CZ_OK: return 0;
    case CZ_ERR_NOMEM:
    case CZ_ERR_DEVICE:
    case CZ_ERR_INTERNAL: return EXIT_INTERNAL;
    default: return EXIT_USAGE;
    }
}

static int failmsg(cz_status st, const char *msg)
{
    fprintf(stderr, "cuzk: %s\n", msg);
    return exit_of(st);
}

static const cz_porep_params *find_preset(const char *name, char *err, size_t err_len)
{
    const cz_porep_params *p = cz_porep_preset(name);
    if (!p) {
        size_t k = (size_t)snprintf(err, err_len, "unknown circuit \"%s\" (presets:", name ? name : "");
        for (size_t i = 0; i < cz_porep_preset_count() && k < err_len; i++)
            k += (size_t)snprintf(err + k, err_len - k, " %s", cz_porep_preset_at(i)->name);
        if (k < err_len)
            snprintf(err + k, err_len - k, ")");
    }
    return p;
}

static cz_threadpool *pool_for(unsigned threads)
{
    return threads ? cz_threadpool_create((int)threads) : cz_threadpool_global();
}

static void pool_done(cz_threadpool *pool, unsigned threads)
{
    if (threads)
        cz_threadpool_destroy(pool);
}

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

static int cmd_list(const cz_cli_circuit_opts *o)
{
    json_t *arr = o->json ? json_array() : NULL;
    for (size_t i = 0; i < cz_porep_preset_count(); i++) {
        const cz_porep_params *p = cz_porep_preset_at(i);
        cz_porep_counts c;
        char err[256];
        cz_status st = cz_porep_counts_get(p, &c, err, sizeof err);
        if (st) {
            json_decref(arr);
            return failmsg(st, err);
        }
        if (arr) {
            json_array_append_new(arr, json_pack("{s:s,s:s,s:I,s:I,s:i}", "name", p->name, "like",
                                                 p->like, "constraints", (json_int_t)c.n_constraints,
                                                 "aux", (json_int_t)c.n_aux, "public_inputs",
                                                 (int)c.n_public + 1));
        } else {
            printf("%-11s %s: %u layers, %u + %u parents, %u challenge%s x %u partition%s, "
                   "tree_d depth %u, oct depth %u; %llu constraints per partition\n",
                   p->name, p->like, p->layers, p->drg_parents, p->exp_parents, p->challenges,
                   p->challenges == 1 ? "" : "s", p->partitions, p->partitions == 1 ? "" : "s",
                   p->tree_d_depth, p->oct_depth, (unsigned long long)c.n_constraints);
        }
    }
    if (arr) {
        char *s = json_dumps(arr, JSON_COMPACT | JSON_PRESERVE_ORDER);
        printf("%s\n", s ? s : "[]");
        free(s);
        json_decref(arr);
    }
    return 0;
}

static int cmd_info(const char *name, const cz_cli_circuit_opts *o)
{
    char err[512];
    const cz_porep_params *p = find_preset(name, err, sizeof err);
    if (!p)
        return failmsg(CZ_ERR_ARG, err);
    cz_porep_counts c;
    cz_porep_breakdown bd;
    double t = now_ms();
    cz_status st = cz_porep_count(p, &c, &bd, err, sizeof err);
    if (st)
        return failmsg(st, err);
    double count_ms = now_ms() - t;
    cz_threadpool *pool = pool_for(o->threads);
    double pct = 0;
    t = now_ms();
    st = cz_porep_boolean_share(p, pool, &pct, err, sizeof err);
    double bool_ms = now_ms() - t;
    pool_done(pool, o->threads);
    if (st)
        return failmsg(st, err);
    uint64_t rows = c.n_constraints + c.n_public + 1;
    json_t *obj = json_object();
    json_object_set_new(obj, "circuit", json_string(p->name));
    json_object_set_new(obj, "like", json_string(p->like));
    json_object_set_new(obj, "layers", json_integer(p->layers));
    json_object_set_new(obj, "drg_parents", json_integer(p->drg_parents));
    json_object_set_new(obj, "exp_parents", json_integer(p->exp_parents));
    json_object_set_new(obj, "label_entries", json_integer(p->label_entries));
    json_object_set_new(obj, "challenges", json_integer(p->challenges));
    json_object_set_new(obj, "partitions", json_integer(p->partitions));
    json_object_set_new(obj, "tree_d_depth", json_integer(p->tree_d_depth));
    json_object_set_new(obj, "oct_depth", json_integer(p->oct_depth));
    json_object_set_new(obj, "nodes", json_integer((json_int_t)cz_porep_nodes(p)));
    json_object_set_new(obj, "constraints", json_integer((json_int_t)c.n_constraints));
    json_object_set_new(obj, "public_inputs", json_integer((json_int_t)c.n_public + 1));
    json_object_set_new(obj, "aux", json_integer((json_int_t)c.n_aux));
    json_object_set_new(obj, "variables", json_integer((json_int_t)(1 + c.n_public + c.n_aux)));
    json_object_set_new(obj, "boolean_aux_percent", json_real((double)(long long)(pct * 1000 + 0.5) / 1000));
    json_object_set_new(obj, "domain_size", json_integer((json_int_t)1 << log2_ceil(rows)));
    json_object_set_new(obj, "constraints_per_challenge", json_integer((json_int_t)c.challenge_constraints));
    json_object_set_new(obj, "aux_per_challenge", json_integer((json_int_t)c.challenge_aux));
    json_object_set_new(obj, "constraints_per_proof",
                        json_integer((json_int_t)(c.n_constraints * p->partitions)));
    json_object_set_new(obj, "count_ms", json_real((double)(long long)(count_ms * 10) / 10));
    json_object_set_new(obj, "boolean_measure_ms", json_real((double)(long long)(bool_ms * 10) / 10));
    json_t *subs = json_object();
    for (int k = 0; k < CZ_POREP_SUB_COUNT; k++) {
        double share = 100.0 * (double)bd.constraints[k] / (double)c.n_constraints;
        json_object_set_new(subs, cz_porep_sub_names[k],
                            json_pack("{s:I,s:I,s:I,s:f}", "constraints",
                                      (json_int_t)bd.constraints[k], "aux", (json_int_t)bd.aux[k],
                                      "instances", (json_int_t)bd.calls[k], "percent",
                                      (double)(long long)(share * 100 + 0.5) / 100));
    }
    if (o->json) {
        json_object_set_new(obj, "breakdown", subs);
        char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
        printf("%s\n", s ? s : "{}");
        free(s);
        json_decref(obj);
        return 0;
    }
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (json_is_string(v))
            printf("%s: %s\n", k, json_string_value(v));
        else if (json_is_integer(v))
            printf("%s: %lld\n", k, (long long)json_integer_value(v));
        else if (json_is_real(v))
            printf("%s: %.*f\n", k, strstr(k, "percent") ? 3 : 1, json_real_value(v));
    }
    /* one line per sub-circuit: sub.NAME: constraints, aux, instances, share */
    json_object_foreach(subs, k, v) {
        printf("sub.%s: %lld constraints, %lld aux, %lld instances, %.2f %%\n", k,
               (long long)json_integer_value(json_object_get(v, "constraints")),
               (long long)json_integer_value(json_object_get(v, "aux")),
               (long long)json_integer_value(json_object_get(v, "instances")),
               json_real_value(json_object_get(v, "percent")));
    }
    json_decref(subs);
    json_decref(obj);
    return 0;
}

static cz_status load_input(const cz_porep_params *p, const cz_cli_circuit_opts *o, cz_c1 **c1,
                            cz_porep_partition *in, char *err, size_t err_len)
{
    if (!o->c1) {
        snprintf(err, err_len, "--c1 FILE is required (cuzk-bench gen-c1 makes one)");
        return CZ_ERR_ARG;
    }
    if (o->partition < 0 || (unsigned)o->partition >= p->partitions) {
        snprintf(err, err_len, "--partition %d: %s has partitions 0..%u", o->partition, p->name,
                 p->partitions - 1);
        return CZ_ERR_ARG;
    }
    cz_status st = cz_c1_load(c1, o->c1, p, o->unchecked_c1 ? CZ_C1_PARSE_ONLY : o->partition,
                              err, err_len);
    if (!st)
        st = cz_c1_partition(*c1, (unsigned)o->partition, in, err, err_len);
    return st;
}

static int cmd_export(const char *const *args, int n_args, const cz_cli_circuit_opts *o)
{
    char err[512];
    if (n_args != 4)
        return failmsg(CZ_ERR_ARG, "circuit export: expected PRESET circuit.r1cs witness.wtns "
                                   "(usage: cuzk circuit export PRESET --c1 c1.json --partition K "
                                   "circuit.r1cs witness.wtns)");
    const cz_porep_params *p = find_preset(args[1], err, sizeof err);
    if (!p)
        return failmsg(CZ_ERR_ARG, err);
    cz_c1 *c1 = NULL;
    cz_porep_partition in;
    double t = now_ms();
    cz_status st = load_input(p, o, &c1, &in, err, sizeof err);
    if (st) {
        cz_c1_free(c1);
        return failmsg(st, err);
    }
    if (!o->quiet)
        fprintf(stderr, "cuzk: read_c1 %.1f ms\n", now_ms() - t);
    t = now_ms();
    cz_shape *shape = NULL;
    st = cz_porep_shape(p, &shape, err, sizeof err);
    if (!st)
        st = cz_shape_write_r1cs(shape, args[2], err, sizeof err);
    cz_shape_free(shape);
    if (st) {
        cz_c1_free(c1);
        return failmsg(st, err);
    }
    if (!o->quiet)
        fprintf(stderr, "cuzk: shape_r1cs %.1f ms\n", now_ms() - t);
    t = now_ms();
    cz_threadpool *pool = pool_for(o->threads);
    cz_fr *w = NULL;
    uint64_t n = 0;
    st = cz_porep_witness_alloc(p, &in, pool, &w, &n, err, sizeof err);
    pool_done(pool, o->threads);
    cz_c1_free(c1);
    if (!st)
        st = cz_witness_write_wtns(w, n, args[3], err, sizeof err);
    cz_porep_witness_free(w, n);
    if (st)
        return failmsg(st, err);
    if (!o->quiet)
        fprintf(stderr, "cuzk: witness_wtns %.1f ms\n", now_ms() - t);
    if (o->json)
        printf("{\"command\":\"circuit export\",\"ok\":true,\"circuit\":\"%s\",\"partition\":%d,"
               "\"nVars\":%llu}\n",
               p->name, o->partition, (unsigned long long)n);
    return 0;
}

int cz_cli_circuit(const char *const *args, int n_args, const cz_cli_circuit_opts *o)
{
    if (n_args < 1)
        return failmsg(CZ_ERR_ARG, "circuit: expected list, info PRESET or export PRESET ... "
                                   "(see cuzk circuit --help)");
    const char *sub = args[0];
    if (!strcmp(sub, "list")) {
        if (n_args != 1)
            return failmsg(CZ_ERR_ARG, "circuit list takes no arguments");
        return cmd_list(o);
    }
    if (!strcmp(sub, "info")) {
        if (n_args != 2)
            return failmsg(CZ_ERR_ARG, "circuit info: expected one PRESET (see cuzk circuit list)");
        return cmd_info(args[1], o);
    }
    if (!strcmp(sub, "export"))
        return cmd_export(args, n_args, o);
    fprintf(stderr, "cuzk: circuit: unknown subcommand \"%s\" (list, info, export)\n", sub);
    return EXIT_USAGE;
}

cz_status cz_cli_circuit_shape(const char *preset, cz_shape **out, char *err, size_t err_len)
{
    *out = NULL;
    const cz_porep_params *p = find_preset(preset, err, err_len);
    if (!p)
        return CZ_ERR_ARG;
    return cz_porep_shape(p, out, err, err_len);
}

cz_status cz_cli_circuit_r1cs(const char *preset, unsigned threads, cz_r1cs **out, char *err,
                              size_t err_len)
{
    *out = NULL;
    const cz_porep_params *p = find_preset(preset, err, err_len);
    if (!p)
        return CZ_ERR_ARG;
    cz_shape *shape;
    cz_status st = cz_porep_shape(p, &shape, err, err_len);
    if (st)
        return st;
    st = cz_shape_to_r1cs(shape, out, err, err_len);
    cz_shape_free(shape);
    return st;
}

cz_status cz_cli_circuit_witness(const char *preset, const cz_cli_circuit_opts *o,
                                 uint32_t n_vars, uint32_t n_public, cz_fr **w, uint32_t *nw,
                                 double ms[2], char *err, size_t err_len)
{
    *w = NULL;
    *nw = 0;
    const cz_porep_params *p = find_preset(preset, err, err_len);
    if (!p)
        return CZ_ERR_ARG;
    cz_porep_counts c;
    cz_status st = cz_porep_counts_get(p, &c, err, err_len);
    if (st)
        return st;
    if (n_vars != 1 + (uint64_t)c.n_public + c.n_aux || n_public != c.n_public) {
        snprintf(err, err_len,
                 "the key is for a circuit of %u variables and %u public inputs, %s has %llu "
                 "and %u (make its key with cuzk setup --circuit %s)",
                 n_vars, n_public, p->name, (unsigned long long)(1 + c.n_public + c.n_aux),
                 c.n_public, p->name);
        return CZ_ERR_WITNESS;
    }
    cz_c1 *c1 = NULL;
    cz_porep_partition in;
    double t = now_ms();
    st = load_input(p, o, &c1, &in, err, err_len);
    ms[0] = now_ms() - t;
    if (st) {
        cz_c1_free(c1);
        return st;
    }
    t = now_ms();
    cz_threadpool *pool = pool_for(o->threads);
    uint64_t n = 0;
    st = cz_porep_witness_alloc(p, &in, pool, w, &n, err, err_len);
    pool_done(pool, o->threads);
    ms[1] = now_ms() - t;
    cz_c1_free(c1);
    *nw = (uint32_t)n;
    return st;
}
