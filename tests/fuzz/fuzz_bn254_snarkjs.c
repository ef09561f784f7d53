/*
 * fuzz_bn254_snarkjs.c: libFuzzer harness for cz_bn254_g1_from_snarkjs and
 * cz_bn254_g2_from_snarkjs (bn128 .zkey points: 32-byte little-endian
 * Montgomery coordinates). Inputs of 64..127 bytes feed G1, longer ones
 * G2 (their first 128 bytes). Property (bn254_check.h): an error, or a
 * reduced point on the curve that re-encodes to the input. Build and run
 * with tests/fuzz/run.sh.
 */
#include "fuzz/bn254_check.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size >= 128 ? 128 : 64;
    uint8_t *in = cz_fuzz_take(data, size, n);
    if (!in)
        return 0;
    cz_fuzz_check(n == 64 ? cz_chk_bn254_g1_snarkjs(in) : cz_chk_bn254_g2_snarkjs(in));
    free(in);
    return 0;
}
