/*
 * mem.h: large buffers on transparent huge pages.
 *
 * DESIGN. A buffer of megabytes that is filled once from its start (a
 * key's points, a proof's polynomials, an MSM's scalars and points) costs
 * one page fault a 4 KiB page when first written: on the 2-core
 * development VM a 2^16-constraint bn128 proof spent about a tenth of its
 * CPU time in those faults. Where the kernel gives transparent huge pages
 * on request (its default "madvise" mode), cz_alloc_big puts a buffer of
 * 2 MiB or more on 2 MiB boundaries and asks for them: one fault a 2 MiB
 * page. Smaller buffers, and systems without them, get ordinary memory.
 * Either way the buffer is 64-byte aligned and freed with free(). A key
 * or witness file is likewise mapped whole in one call (io/binfile.h's
 * cz_blob_map_whole). CUZK_HUGE_PAGES=0 turns both off (ordinary pages, a
 * fault a page: for comparison, or where huge pages are unwanted).
 */
#ifndef CZ_MEM_H
#define CZ_MEM_H

#include <stddef.h>

/* n bytes (at least 1), uninitialised, 64-byte aligned; NULL when out of
   memory. Free with free(). */
void *cz_alloc_big(size_t n);

/* 1 unless CUZK_HUGE_PAGES=0 (read once) */
int cz_huge_pages(void);

#endif
