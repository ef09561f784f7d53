/*
 * genc1.c: `cuzk-bench gen-c1 --preset P --seed N --out c1.json`, the
 * generator of commit-1-like inputs for the PoRep-shaped circuit
 * (src/circuit/c1.c; the format: docs/POREP_CIRCUIT.md).
 *
 * DESIGN. Local work only (no daemon): generate every partition of the
 * preset from the seed, check the result with the same reader the provers
 * use (so a file this writes is one they accept), write it, and say what it
 * holds. Exit 0, or 2 for a usage error or an unwritable file, 3 for an
 * internal fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuit/c1.h"
#include "circuit/porep.h"
#include "genc1.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int gen_usage(FILE *f, int rc)
{
    fprintf(f, "usage: cuzk-bench gen-c1 --preset PRESET [--seed N] --out c1.json [--no-check]\n"
               "  a commit-1-like input for every partition of a native PoRep preset\n"
               "  (porep-32g, porep-512m, porep-8m, porep-mini); --seed (default 1) makes it\n"
               "  reproducible; the file is read back and checked unless --no-check\n");
    return rc;
}

int cz_bench_gen_c1(int argc, char **argv)
{
    const char *preset = NULL, *out = NULL;
    unsigned long long seed = 1;
    int check = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--preset") && v) {
            preset = argv[++i];
        } else if (!strcmp(a, "--out") && v) {
            out = argv[++i];
        } else if (!strcmp(a, "--seed") && v) {
            char *end;
            seed = strtoull(v, &end, 0);
            if (!*v || *end || v[0] == '-') {
                fprintf(stderr, "cuzk-bench: gen-c1: --seed wants a number, got \"%s\"\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--no-check")) {
            check = 0;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            return gen_usage(stdout, 0);
        } else {
            fprintf(stderr, "cuzk-bench: gen-c1: unknown or incomplete option '%s'\n", a);
            return gen_usage(stderr, 2);
        }
    }
    if (!preset || !out)
        return gen_usage(stderr, 2);
    const cz_porep_params *p = cz_porep_preset(preset);
    if (!p) {
        fprintf(stderr, "cuzk-bench: gen-c1: unknown preset \"%s\" (cuzk circuit list)\n", preset);
        return 2;
    }
    char err[512];
    double t = now_ms();
    cz_c1 *c1;
    cz_status st = cz_c1_generate(&c1, p, seed, err, sizeof err);
    if (st) {
        fprintf(stderr, "cuzk-bench: gen-c1: %s\n", err);
        return st == CZ_ERR_NOMEM ? 3 : 2;
    }
    double gen_ms = now_ms() - t;
    t = now_ms();
    st = cz_c1_write(c1, out, err, sizeof err);
    cz_c1_free(c1);
    if (st) {
        fprintf(stderr, "cuzk-bench: gen-c1: %s\n", err);
        return 2;
    }
    double write_ms = now_ms() - t, check_ms = 0;
    if (check) {
        t = now_ms();
        st = cz_c1_load(&c1, out, p, -1, err, sizeof err);
        cz_c1_free(c1);
        if (st) {
            fprintf(stderr, "cuzk-bench: gen-c1: the file written does not read back: %s\n", err);
            return 3;
        }
        check_ms = now_ms() - t;
    }
    printf("%s: %s, seed %llu, %u partition%s x %u challenge%s (generate %.1f ms, write %.1f ms%s",
           out, p->name, seed, p->partitions, p->partitions == 1 ? "" : "s", p->challenges,
           p->challenges == 1 ? "" : "s", gen_ms, write_ms, check ? ", check " : ")\n");
    if (check)
        printf("%.1f ms)\n", check_ms);
    return 0;
}
