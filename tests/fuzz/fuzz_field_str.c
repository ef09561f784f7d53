/*
 * fuzz_field_str.c: libFuzzer harness for the field string decoders
 * cz_{fp,fr}_from_{dec,hex,str}. Property (decode_check.h): the decoders
 * agree with a reference (digits only, value < m, value = the digits
 * folded in the field); junk, empty strings and values >= m are refused.
 */
#include "fuzz/decode_check.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024)
        return 0;
    char *s = cz_fuzz_str(data, size);
    cz_fuzz_check(cz_chk_fp_dec(s));
    cz_fuzz_check(cz_chk_fp_hex(s));
    cz_fuzz_check(cz_chk_fp_str(s));
    cz_fuzz_check(cz_chk_fr_dec(s));
    cz_fuzz_check(cz_chk_fr_hex(s));
    cz_fuzz_check(cz_chk_fr_str(s));
    free(s);
    return 0;
}
