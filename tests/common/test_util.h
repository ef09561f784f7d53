/*
 * test_util.h: what every cmocka test program shares.
 *
 * Seeds: cz_test_seed() returns CZ_TEST_SEED from the environment when set,
 * else a fresh one, and prints it either way so a failure can be replayed:
 *   CZ_TEST_SEED=1234 ./build/bin/test_field
 */
#ifndef CZ_TEST_UTIL_H
#define CZ_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/rng.h"

uint64_t cz_test_seed(void);
/* A seeded rng from cz_test_seed(), printed once per program. */
void cz_test_rng(cz_rng *rng);
/* Path under the source tree (CZ_SOURCE_DIR); static buffer. */
const char *cz_test_src_path(const char *rel);
/* Read a whole file; NULL on failure. Caller frees. */
uint8_t *cz_test_read_file(const char *path, size_t *len);
/* Hex string (no 0x) to bytes; returns byte count or -1. */
long cz_test_unhex(uint8_t *out, size_t cap, const char *hex);
/* Iteration count scaled by CZ_TEST_SCALE (default 1). */
int cz_test_iters(int base);
/* 0 in a quick run (CZ_TEST_SCALE < 1, as under the sanitizers): tests
   then leave out their largest sizes. */
int cz_test_full(void);

/* The head of the GPU test programs: 77 (ctest's "skipped", after a line
   saying why) where no CUDA device can be used, else 0 with *cpu the CPU
   backend (all cores) that the GPU's results are checked against, or 1
   (after a line saying why) when that cannot be made. */
struct cz_backend;
int cz_test_gpu_setup(struct cz_backend **cpu);

#endif
