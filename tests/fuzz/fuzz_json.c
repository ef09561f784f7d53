/*
 * fuzz_json.c: libFuzzer harness for the snarkjs JSON readers
 * (cz_proof_from_json, cz_public_from_json, cz_vk_from_json; each gets
 * every input); the property is cz_chk_json in reader_check.h. run.sh
 * seeds the corpus with the .json files of tests/fixtures.
 */
#include "fuzz/fuzz_util.h"
#include "fuzz/reader_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    /* an exact-size copy without a terminator: ASan sees over-reads */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    cz_fuzz_check(cz_chk_json(text, size));
    free(text);
    return 0;
}
