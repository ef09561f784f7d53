/*
 * fuzz_g1_compressed.c: libFuzzer harness for cz_g1_from_compressed:
 *   G1, zcash compressed (48 bytes).
 * Property (decode_check.h): an error, or a valid point that re-encodes to
 * the input. Build and run with tests/fuzz/run.sh.
 */
#include "fuzz/decode_check.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *in = cz_fuzz_take(data, size, 48);
    if (!in)
        return 0;
    cz_fuzz_check(cz_chk_g1_compressed(in));
    free(in);
    return 0;
}
