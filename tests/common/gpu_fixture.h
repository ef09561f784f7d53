/*
 * gpu_fixture.h: what the GPU test programs (test_gpu_native,
 * test_gpu_decompress) make the same way.
 *
 * DESIGN. Each helper fails the running cmocka test with the step's
 * message when it cannot make what it is asked for, so a caller reads as
 * its test and not its set-up. The GPU calls work in every build: on the
 * host model of the device (CUZK_CUDA=MODEL), on a GPU, and as the
 * refusals of a build without CUDA (whose GPU tests skip first).
 */
#ifndef CZ_TEST_GPU_FIXTURE_H
#define CZ_TEST_GPU_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/cuda.h"
#include "groth16/groth16.h"

/* A context on device 0 with an arena of arena_mb MiB. */
cz_cuda_ctx *cz_test_cuda_ctx(size_t arena_mb);

/* A snarkjs key and its witness from the source tree (paths relative to
   it, e.g. "tests/fixtures/small.zkey"): free with cz_zkey_free and
   cz_wtns_free(*w, *nw). */
void cz_test_key_witness(cz_zkey **key, cz_fr **w, uint32_t *nw, const char *zkey_rel,
                         const char *wtns_rel);

#endif
