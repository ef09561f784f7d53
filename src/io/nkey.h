/*
 * nkey.h: the compact proving-key file of native circuits (.czk), laid out
 * field by field in docs/KEYFORMAT.md.
 *
 * DESIGN. A key in compact form (cz_zkey with `compact` set: cz_cmat
 * matrices over one coefficient table, B density) is written as a fixed
 * header, a section table and sixteen sections, each 8-byte aligned and
 * each with its own XXH3-64 checksum: the verification-key points
 * uncompressed, every other point compressed (48 B in G1, 96 B in G2, the
 * zcash/Filecoin encoding of curve.h), the matrices as uint32 row lengths,
 * uint32 columns and uint16 coefficient indices, the coefficient table as
 * canonical little-endian integers. A porep-32g key takes ~28 GB this way
 * instead of ~93 GB as a .zkey. The reader streams the file in chunks
 * (pread, never a mapping: a long-lived process must not die of SIGBUS
 * when the file is cut under it), checks every size against the header
 * before it allocates, hashes each chunk before it uses it, decompresses
 * points in parallel with the curve and subgroup checks, and bounds-checks
 * the matrices; any fault names the file and the section ("key.czk:
 * section H: checksum mismatch"). Decompression is a hook
 * (cz_nkey_load_opts.decompress): the CPU by default, a GPU where one is
 * given.
 */
#ifndef CZ_IO_NKEY_H
#define CZ_IO_NKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "cuzk/cuzk.h"
#include "groth16/groth16.h"

#define CZ_NKEY_MAGIC "cuzknkey" /* 8 bytes, no terminator in the file */
#define CZ_NKEY_VERSION 2u       /* what the writer writes; the reader takes 1 and 2 */
#define CZ_NKEY_SECTIONS 16u     /* sections of a version 2 file (version 1: 15, no C publics) */
#define CZ_NKEY_NAME_MAX 40u     /* bytes of the circuit-name field (NUL padded) */

/* Section ids (in file order). */
enum {
    CZ_NKEY_VK = 1, CZ_NKEY_IC, CZ_NKEY_A, CZ_NKEY_B_IDX, CZ_NKEY_B1, CZ_NKEY_B2, CZ_NKEY_C,
    CZ_NKEY_H, CZ_NKEY_COEFS, CZ_NKEY_A_ROWS, CZ_NKEY_A_COLS, CZ_NKEY_A_COEF,
    CZ_NKEY_B_ROWS, CZ_NKEY_B_COLS, CZ_NKEY_B_COEF, CZ_NKEY_CPUB
};

/* Header flags. */
#define CZ_NKEY_FLAG_DEVELOPMENT 1u /* toxic waste known to one party (cuzk setup) */
#define CZ_NKEY_FLAG_FOLDED_C 2u    /* C folded into the C points (cz_zkey.cpub; version 2):
                                       the writer sets it from the key */

/* What the writer records beside the key. */
typedef struct {
    const char *circuit;         /* the circuit's name (a preset), < CZ_NKEY_NAME_MAX bytes;
                                    NULL: none */
    const uint8_t *shape_digest; /* 16 bytes (cz_nkey_shape_digest), or NULL: unknown (zeros) */
    uint32_t flags;              /* CZ_NKEY_FLAG_* */
    unsigned threads;            /* compression threads; 0: all cores */
} cz_nkey_meta;

/* Write a compact key (key->compact) to `path`: to a temporary name in the
   same folder, renamed over `path` once complete and synced; nothing is left
   behind on failure. */
cz_status cz_nkey_write(const char *path, const cz_zkey *key, const cz_nkey_meta *meta,
                        char *err, size_t err_len);

/* The decompression hook: n points of 48 (G1) or 96 (G2) bytes from `in`
   into `out` (cz_g1_affine / cz_g2_affine), each checked on the curve and in
   the subgroup. CZ_OK, or the status of the first bad point (lowest index)
   with its index in *first_bad. Called with chunks of a section, from one
   thread at a time. Any other status (CZ_ERR_DEVICE, CZ_ERR_NOMEM, ...:
   the hook could not run) makes the reader warn and decompress that chunk
   and the rest of the load on the CPU. */
typedef cz_status (*cz_nkey_decompress_fn)(void *ctx, bool g2, void *out, const uint8_t *in,
                                           size_t n, size_t *first_bad);

typedef struct {
    unsigned threads;                 /* 0: all cores */
    uint64_t mem_limit;               /* host bytes a load may take (cz_nkey_info.mem_bytes),
                                         refused before anything is allocated (CZ_ERR_NOMEM);
                                         0: the machine's RAM */
    cz_nkey_decompress_fn decompress; /* NULL: on the CPU, with `threads` */
    void *decompress_ctx;
    const char *decompress_on;        /* where the hook runs, for the log ("the gpu");
                                         NULL: "the hook" */
    bool vk_only;                     /* read the vk and IC sections only (their checksums
                                         and points checked; the header and every section's
                                         size too): the key has alpha1..delta2 and ic, no
                                         other array; for cz_vk_from_zkey, never to prove */
} cz_nkey_load_opts;

/* Load and check a .czk into a compact key that owns its memory (free with
   cz_zkey_free). `name` names the file in messages. */
cz_status cz_nkey_load(cz_zkey **out, const char *path, const cz_nkey_load_opts *opts,
                       char *err, size_t err_len);
/* The same from an open regular file of `size` bytes (cz_file_open); the fd
   stays open. */
cz_status cz_nkey_load_fd(cz_zkey **out, int fd, uint64_t size, const char *name,
                          const cz_nkey_load_opts *opts, char *err, size_t err_len);
/* The same from bytes in memory (copied into the key; tests, fuzzing). */
cz_status cz_nkey_load_bytes(cz_zkey **out, const void *data, size_t len, const char *name,
                             const cz_nkey_load_opts *opts, char *err, size_t err_len);

typedef struct {
    uint32_t id;
    const char *name; /* "H", "A columns", ... */
    uint64_t offset, length, checksum;
} cz_nkey_section_info;

/* What the header says, checked (sizes against the file and each other). */
typedef struct {
    uint32_t version, flags;
    uint32_t n_vars, n_public, domain_size, n_b, n_coefs, a_rows, b_rows;
    uint64_t a_nnz, b_nnz;
    char circuit[CZ_NKEY_NAME_MAX];
    uint8_t shape_digest[16];
    uint64_t file_bytes;
    uint64_t point_bytes;  /* the points in memory (affine, uncompressed) */
    uint64_t matrix_bytes; /* matrices, coefficient table and B index in memory */
    uint64_t mem_bytes;    /* host memory a load takes at its peak */
    uint32_t n_sections;
    cz_nkey_section_info sections[CZ_NKEY_SECTIONS];
} cz_nkey_info;

/* Read and check the header and section table of an open file (a few
   hundred bytes, pread): for budgets and `cuzk info`. */
cz_status cz_nkey_peek_fd(cz_nkey_info *info, int fd, uint64_t size, const char *name,
                          char *err, size_t err_len);
cz_status cz_nkey_peek(cz_nkey_info *info, const char *path, char *err, size_t err_len);
/* Peek, then read every section and check its checksum, allocating one
   chunk buffer only (points are not decompressed). */
cz_status cz_nkey_verify(cz_nkey_info *info, const char *path, char *err, size_t err_len);

/* Does a file start with the .czk magic? (n: bytes available) */
bool cz_nkey_is_nkey(const uint8_t *head, size_t n);

/* A digest of a recorded circuit (counts, A, B and C, the coefficient
   table): XXH3-128, written big-endian. Identifies the circuit a key was
   made for without the key's points. */
void cz_nkey_shape_digest(uint8_t out[16], const cz_shape *shape);

/* The name of a section id ("H"), or "?" . */
const char *cz_nkey_section_name(uint32_t id);

#endif
