/*
 * select.c: which backend a device name gives (backend.h).
 *
 * DESIGN. The one place that knows both backends. cz_backend_create reads
 * "cpu", "cuda", "auto" (optionally ":N", GPU N) and makes the backend:
 * "auto" is the GPU where the CUDA backend is built and a device answers,
 * else the CPU; "cuda" never falls back. The CUDA backend runs the steps
 * it does not take (and those that fail on the device) on a CPU backend
 * made here and handed to it, so cpu.c and cuda_glue.c know nothing of
 * each other. cz_backend_create_oneshot adds the rule for a process that
 * proves once (the CLI): there "auto" takes the CPU for small keys, where
 * the GPU's first-launch cost is more than the whole proof on the CPU (the
 * threshold and its measurements: CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN in
 * backend.h). A daemon or a long-lived prover pays that cost once and
 * keeps cz_backend_create's rule: the GPU for every size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"

void cz_backend_destroy(cz_backend *be)
{
    if (be && be->destroy)
        be->destroy(be);
}

/* "cuda:N" -> "cuda" and N; "auto" when device is NULL. */
static cz_status parse_device(const char *device, char *dev, size_t dev_len, int *gpu, char *err,
                              size_t err_len)
{
    *gpu = 0;
    snprintf(dev, dev_len, "auto");
    if (!device)
        return CZ_OK;
    const char *colon = strchr(device, ':');
    size_t len = colon ? (size_t)(colon - device) : strlen(device);
    if (len >= dev_len)
        len = dev_len - 1;
    memcpy(dev, device, len);
    dev[len] = 0;
    if (colon) {
        char *end;
        long g = strtol(colon + 1, &end, 10);
        if (*end || g < 0 || g > 1024 || end == colon + 1) {
            if (err && err_len)
                snprintf(err, err_len, "bad GPU index in device \"%s\"", device);
            return CZ_ERR_ARG;
        }
        *gpu = (int)g;
    }
    if (strcmp(dev, "auto") && strcmp(dev, "cpu") && strcmp(dev, "cuda")) {
        if (err && err_len)
            snprintf(err, err_len, "unknown device \"%s\" (cpu, cuda or auto)", device);
        return CZ_ERR_ARG;
    }
    return CZ_OK;
}

/* The CUDA backend on GPU gpu over a CPU backend of `threads` threads. */
static cz_status make_cuda(cz_backend **out, int gpu, unsigned threads, char *err, size_t err_len)
{
#ifdef CUZK_HAVE_CUDA
    cz_backend *host;
    cz_status st = cz_backend_cpu_create(&host, threads);
    if (st) {
        if (err && err_len)
            snprintf(err, err_len, "out of memory");
        return st;
    }
    st = cz_backend_cuda_create(out, gpu, host, err, err_len);
    if (st)
        cz_backend_destroy(host);
    return st;
#else
    (void)out;
    (void)gpu;
    (void)threads;
    if (err && err_len)
        snprintf(err, err_len, "device cuda: this build has no CUDA backend");
    return CZ_ERR_UNSUPPORTED;
#endif
}

cz_status cz_backend_create(cz_backend **out, const char *device, unsigned threads,
                            char *err, size_t err_len)
{
    *out = NULL;
    char dev[16];
    int gpu;
    cz_status st = parse_device(device, dev, sizeof dev, &gpu, err, err_len);
    if (st)
        return st;
    if (!strcmp(dev, "cuda"))
        return make_cuda(out, gpu, threads, err, err_len);
    if (!strcmp(dev, "auto") && make_cuda(out, gpu, threads, NULL, 0) == CZ_OK)
        return CZ_OK;
    return cz_backend_cpu_create(out, threads);
}

int cz_backend_oneshot_prefers_cpu(uint64_t domain_size)
{
    return domain_size < CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN;
}

cz_status cz_backend_create_oneshot(cz_backend **out, const char *device, unsigned threads,
                                    uint64_t domain_size, char *err, size_t err_len)
{
    *out = NULL;
    char dev[16];
    int gpu;
    cz_status st = parse_device(device, dev, sizeof dev, &gpu, err, err_len);
    if (st)
        return st;
    /* before any CUDA call: making a context costs time of its own */
    if (!strcmp(dev, "auto") && cz_backend_oneshot_prefers_cpu(domain_size))
        return cz_backend_cpu_create(out, threads);
    return cz_backend_create(out, device, threads, err, err_len);
}
