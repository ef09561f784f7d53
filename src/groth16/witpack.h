/*
 * witpack.h: a witness in packed form, for a device that rebuilds it.
 *
 * DESIGN. Hash circuits' witnesses are mostly 0 and 1 (porep-32g: 98.7 %
 * of 130 M values): a bitmap of the 1s and the list of the other values
 * with their positions (4.2 GB becoming ~80 MB for porep-32g) is what the
 * GPU's whole-proof path copies, and czd_witness_expand rebuilds w on the
 * device. Packing is one pass over w on a thread pool (marking the 1s and
 * the others in two bitmaps, counting the others per block of
 * CZ_WITPACK_BLOCK values), then a pass over the others alone into their
 * slots. It is worth it only at most one value in 8 neither 0 nor 1, and
 * from CZ_WITPACK_BLOCK values up: cz_wit_pack says whether it packed.
 *
 * The daemon packs a partition's witness in its witness stage, beside the
 * GPU's work on earlier partitions; a caller that passes no packed form
 * (cz_groth16_prove) has the backend pack it before its device lock. The
 * packed arrays hold the witness's values: cz_wit_packed_free wipes them.
 */
#ifndef CZ_GROTH16_WITPACK_H
#define CZ_GROTH16_WITPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "field/field.h"
#include "util/threadpool.h"

#define CZ_WITPACK_BLOCK ((size_t)1 << 16) /* values per packing task (a multiple of 32) */

typedef struct cz_wit_packed {
    const cz_fr *w; /* the witness it was packed from (not owned) */
    size_t n;       /* values in w */
    size_t n_other; /* values neither 0 nor 1 */
    uint32_t *bits; /* (n + 31) / 32 words: bit i set where w[i] = 1 */
    uint32_t *idx;  /* n_other positions, ascending */
    cz_fr *vals;    /* their values (Montgomery) */
    /* packing scratch: the others' bitmap, per-block counts then slots */
    uint32_t *oth;
    size_t *cnt, nblk;
} cz_wit_packed;

/* Pack w (n values, Montgomery) on pool (NULL: the global pool). true:
   packed (cz_wit_packed_free it after); false: not worth it (fewer than
   CZ_WITPACK_BLOCK values, more than n / 8 others, n past 2^32) or out of
   memory, and *p is empty: send w whole. */
bool cz_wit_pack(cz_wit_packed *p, const cz_fr *w, size_t n, cz_threadpool *pool);

/* Wipe and free (an empty or zeroed *p: no-op). */
void cz_wit_packed_free(cz_wit_packed *p);

/* Host bytes a packed form of n values takes at most (for budgets). */
uint64_t cz_wit_packed_max_bytes(uint64_t n);

/* Bytes its bitmap, positions and values take (what crosses to a device). */
uint64_t cz_wit_packed_bytes(const cz_wit_packed *p);

#endif
