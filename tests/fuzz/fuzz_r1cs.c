/*
 * fuzz_r1cs.c: libFuzzer harness for the .r1cs reader; the property is
 * cz_chk_r1cs in reader_check.h. run.sh seeds the corpus with
 * the .r1cs files of tests/fixtures.
 */
#include "fuzz/fuzz_util.h"
#include "fuzz/reader_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cz_fuzz_check(cz_chk_r1cs(data, size));
    return 0;
}
