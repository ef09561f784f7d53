/* mem.c: see mem.h. */
#include "util/mem.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

int cz_huge_pages(void)
{
    static atomic_int on = -1; /* -1: not read yet */
    int v = atomic_load(&on);
    if (v < 0) {
        const char *e = getenv("CUZK_HUGE_PAGES");
        v = !(e && !strcmp(e, "0"));
        atomic_store(&on, v);
    }
    return v;
}

void *cz_alloc_big(size_t n)
{
    if (n > SIZE_MAX - HUGE_PAGE)
        return NULL;
    if (n < HUGE_PAGE || !cz_huge_pages())
        return aligned_alloc(64, n ? (n + 63) & ~(size_t)63 : 64);
    size_t len = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, len);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, len, MADV_HUGEPAGE); /* a hint: without THP, ordinary pages */
#endif
    return p;
}
