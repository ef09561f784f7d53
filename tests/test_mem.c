/* ctest: labels=unit timeout=60 */
/*
 * test_mem.c: cz_alloc_big's buffers, small and large (across the 2 MiB
 * line where huge pages are asked for), are 64-byte aligned (2 MiB aligned
 * from 2 MiB up when huge pages are on), hold every byte written, and free
 * with free(); an impossible size is refused with NULL. Run by ctest twice:
 * as is, and under CUZK_HUGE_PAGES=0 (ordinary pages).
 */
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"

static void test_sizes(void **state)
{
    (void)state;
    const char *e = getenv("CUZK_HUGE_PAGES");
    int huge = !(e && !strcmp(e, "0"));
    assert_int_equal(cz_huge_pages(), huge);
    const size_t mib = (size_t)1 << 20;
    const size_t sizes[] = {0, 1, 63, 64, 4097, 2 * mib - 1, 2 * mib, 2 * mib + 1, 5 * mib + 3};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t n = sizes[i];
        uint8_t *p = cz_alloc_big(n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 64, 0);
        if (huge && n >= 2 * mib)
            assert_int_equal((uintptr_t)p % (2 * mib), 0);
        for (size_t j = 0; j < n; j++)
            p[j] = (uint8_t)(j * 131 + i);
        size_t bad = 0;
        for (size_t j = 0; j < n; j++)
            bad += p[j] != (uint8_t)(j * 131 + i);
        assert_int_equal(bad, 0);
        free(p);
    }
    assert_null(cz_alloc_big(SIZE_MAX));
    assert_null(cz_alloc_big(SIZE_MAX - ((size_t)1 << 20)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
