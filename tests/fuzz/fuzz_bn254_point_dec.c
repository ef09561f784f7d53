/*
 * fuzz_bn254_point_dec.c: libFuzzer harness for cz_bn254_g1_from_dec and
 * cz_bn254_g2_from_dec, the bn128 JSON decimal point decoders, split as
 * fuzz_point_dec.c splits: at ',' into strings, three for G1, six for G2,
 * other counts feed both with the missing strings empty. Property
 * (bn254_check.h): an error, or a valid point whose canonical decimal
 * decodes to the same point.
 */
#include "fuzz/bn254_check.h"
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *parts[6];
    int n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size && n < 6; i++) {
        if (i == size || data[i] == ',') {
            parts[n++] = cz_fuzz_str(data + start, i - start);
            start = i + 1;
        }
    }
    int given = n;
    while (n < 6)
        parts[n++] = cz_fuzz_str(data, 0);
    if (given != 6)
        cz_fuzz_check(cz_chk_bn254_g1_dec(parts[0], parts[1], parts[2]));
    if (given != 3)
        cz_fuzz_check(cz_chk_bn254_g2_dec((const char **)parts));
    for (int i = 0; i < 6; i++)
        free(parts[i]);
    return 0;
}
