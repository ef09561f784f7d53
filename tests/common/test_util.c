/* test_util.c: see test_util.h. */
#include "test_util.h"

#include "backend/backend.h"
#include "backend/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t cz_test_seed(void)
{
    static int done;
    static uint64_t seed;
    if (!done) {
        const char *s = getenv("CZ_TEST_SEED");
        if (s && *s) {
            seed = strtoull(s, NULL, 0);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
        }
        printf("# CZ_TEST_SEED=%llu\n", (unsigned long long)seed);
        fflush(stdout);
        done = 1;
    }
    return seed;
}

void cz_test_rng(cz_rng *rng) { cz_rng_seed(rng, cz_test_seed()); }

const char *cz_test_src_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("CZ_SOURCE_DIR");
#ifdef CZ_SOURCE_DIR
    if (!root)
        root = CZ_SOURCE_DIR;
#endif
    if (!root)
        root = ".";
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    return buf;
}

uint8_t *cz_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n > 0 ? n : 0] = 0;
        *len = (size_t)(n > 0 ? n : 0);
    }
    return buf;
}

long cz_test_unhex(uint8_t *out, size_t cap, const char *hex)
{
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
        hex += 2;
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    return (long)(n / 2);
}

int cz_test_full(void)
{
    const char *s = getenv("CZ_TEST_SCALE");
    return !s || atof(s) >= 1.0;
}

int cz_test_iters(int base)
{
    const char *s = getenv("CZ_TEST_SCALE");
    double k = s ? atof(s) : 1.0;
    int n = (int)(base * k);
    return n > 0 ? n : 1;
}

int cz_test_gpu_setup(cz_backend **cpu)
{
    *cpu = NULL;
    if (!cz_cuda_built() || cz_cuda_device_count() == 0) {
        printf("SKIPPED: no CUDA device (%s)\n",
               cz_cuda_built() ? "none found" : "cuzk built without CUDA");
        return 77;
    }
    char err[256] = "";
    if (cz_backend_create(cpu, "cpu", 0, err, sizeof err) != CZ_OK) {
        printf("cpu backend: %s\n", err);
        return 1;
    }
    return 0;
}
