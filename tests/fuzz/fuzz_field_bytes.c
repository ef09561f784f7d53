/*
 * fuzz_field_bytes.c: libFuzzer harness for cz_{fp,fr}_from_bytes_{be,le}.
 * Property (decode_check.h): accepted iff the integer is < m, and then the
 * value encodes back to the same bytes.
 */
#include "fuzz/decode_check.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *p = cz_fuzz_take(data, size, 48);
    if (p) {
        cz_fuzz_check(cz_chk_fp_bytes(p));
        free(p);
    }
    uint8_t *r = cz_fuzz_take(data, size, 32);
    if (r) {
        cz_fuzz_check(cz_chk_fr_bytes(r));
        free(r);
    }
    return 0;
}
