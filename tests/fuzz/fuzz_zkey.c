/*
 * fuzz_zkey.c: libFuzzer harness for the .zkey reader; the property is
 * cz_chk_zkey in reader_check.h. run.sh seeds the corpus with
 * the .zkey files of tests/fixtures.
 */
#include "fuzz/fuzz_util.h"
#include "fuzz/reader_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_fuzz_check(cz_chk_zkey(data, size));
    return 0;
}
