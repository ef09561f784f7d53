/*
 * binfile.h: files in, and the iden3 binary container (.zkey, .wtns, .r1cs).
 *
 * DESIGN. A cz_blob is the bytes of one input: a read-only mmap of a file,
 * a private copy read into memory the blob owns, or a caller's buffer
 * borrowed as is (the C API proves from bytes). Files are opened by one
 * function, cz_file_open: non-blocking (a FIFO never blocks the open), no
 * controlling terminal, close-on-exec, then fstat'd, and anything but a
 * regular file (FIFO, device, directory, socket) is refused before a byte
 * is read, so a size is always known before memory is taken for it. A
 * mapping dies with SIGBUS when its file is truncated under it: a process
 * that lives long (the daemon) reads private copies (cz_blob_read), the
 * one-shot CLI may map. The
 * container parser indexes the sections by id (snarkjs writes them in
 * different orders) after checking every header and size against the
 * length of the blob, so the readers above it never read past the buffer.
 * Errors are a cz_status plus one sentence that starts with the file's
 * name: "circuit.zkey: section 5 (A points) has 9600 bytes, expected 9696".
 */
#ifndef CZ_IO_BINFILE_H
#define CZ_IO_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

/* The bytes of an input file or buffer. */
typedef struct {
    const uint8_t *data;
    size_t len;
    void *map;       /* mmap base, or NULL */
    size_t map_len;
    void *owned;     /* malloc'd copy, or NULL */
} cz_blob;

/* Open `path` read-only as a regular file: O_NONBLOCK | O_NOCTTY |
   O_CLOEXEC, fstat, and CZ_ERR_IO naming what it is otherwise ("is a FIFO
   (named pipe), not a regular file"). *size_out: its size in bytes. */
cz_status cz_file_open(int *fd_out, uint64_t *size_out, const char *path, char *err,
                       size_t err_len);
/* fstat an open descriptor: a regular file, else CZ_ERR_IO naming what it
   is. `name` is for messages. */
cz_status cz_file_check_fd(int fd, uint64_t *size_out, const char *name, char *err,
                           size_t err_len);
/* Map `path` read-only (a regular file only, as cz_file_open). A directory,
   an unreadable or an empty file fail with CZ_ERR_IO (empty: CZ_ERR_FORMAT)
   and a message naming `path`. The mapping shares the file: truncating the
   file under it faults (SIGBUS) on the next access, so only a short-lived
   process that reads its own inputs should map. */
cz_status cz_blob_map(cz_blob *out, const char *path, char *err, size_t err_len);
/* The same for a file that is read whole (a key, a witness): every page
   mapped in the one call (MAP_POPULATE), not a fault a page on first read;
   as cz_blob_map under CUZK_HUGE_PAGES=0 (util/mem.h). */
cz_status cz_blob_map_whole(cz_blob *out, const char *path, char *err, size_t err_len);
/* Read a private copy of the open regular file `fd` of `size` bytes into
   64-byte aligned memory that the blob owns (writable through `owned`):
   later changes to the file cannot reach it. A file that is shorter or
   longer than `size` by the time it is read fails (CZ_ERR_IO, "changed
   while it was read"). `name` is for messages. The fd is not closed. */
cz_status cz_blob_read_fd(cz_blob *out, int fd, uint64_t size, const char *name, char *err,
                          size_t err_len);
/* Open (cz_file_open) and read `path` whole. More than `max` bytes (0: no
   limit) is refused with CZ_ERR_RANGE before anything is allocated. */
cz_status cz_blob_read(cz_blob *out, const char *path, uint64_t max, char *err, size_t err_len);
/* Borrow `data` (not copied; the caller keeps it alive). */
void cz_blob_borrow(cz_blob *out, const void *data, size_t len);
void cz_blob_release(cz_blob *b);

typedef struct {
    uint32_t id;
    uint32_t count;  /* how many sections carry this id */
    uint64_t offset; /* of the data, from the start of the blob */
    uint64_t size;
} cz_bin_section;

typedef struct {
    const uint8_t *data;
    size_t len;
    uint32_t version;
    uint32_t n_sections;
    cz_bin_section *sections; /* n_sections entries, in file order */
    const char *name;         /* for messages; not owned */
} cz_binfile;

/* Parse the container header and section table. `magic` is 4 chars;
   `version` the only version accepted. */
cz_status cz_binfile_parse(cz_binfile *out, const uint8_t *data, size_t len,
                           const char *name, const char *magic, uint32_t version,
                           char *err, size_t err_len);
void cz_binfile_free(cz_binfile *f);
/* The unique section `id`: CZ_ERR_FORMAT if absent or repeated. `what`
   names it in the message ("A points"). */
cz_status cz_binfile_section(const cz_bin_section **out, const cz_binfile *f,
                             uint32_t id, const char *what, char *err, size_t err_len);

/* Little-endian loads from possibly unaligned bytes. */
static inline uint32_t cz_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t cz_le64(const uint8_t *p)
{
    return (uint64_t)cz_le32(p) | (uint64_t)cz_le32(p + 4) << 32;
}
static inline void cz_put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void cz_put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Write "<name>: <formatted>" into err (err may be NULL); returns st. */
cz_status cz_io_fail(cz_status st, char *err, size_t err_len, const char *name,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Compare n little-endian 64-bit limbs read from bytes with a modulus:
   true when the integer is < m. */
bool cz_le_bytes_lt(const uint8_t *bytes, const uint64_t *m, size_t limbs);
/* The 32-byte little-endian prime of a .wtns / .r1cs header must be
   BLS12-381's r: CZ_ERR_CURVE otherwise, with a message that names BN254
   when it is BN254's r. `what` names the file's kind ("witness"). */
cz_status cz_io_check_prime_r(const uint8_t *prime, const char *name, const char *what,
                              char *err, size_t err_len);

#endif
