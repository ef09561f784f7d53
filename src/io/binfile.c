/*
 * binfile.c: file mapping and the iden3 binary container. See binfile.h.
 *
 * Layout: 4-byte magic, u32 version, u32 section count, then per section
 * u32 id, u64 size, `size` bytes. Every size is checked against what is
 * left of the blob before it is used.
 */
#include "io/binfile.h"
#include "field/constants.h"
#include "util/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CZ_BIN_MAX_SECTIONS 4096

cz_status cz_io_fail(cz_status st, char *err, size_t err_len, const char *name,
                     const char *fmt, ...)
{
    if (!err || err_len == 0)
        return st;
    int n = snprintf(err, err_len, "%s: ", name ? name : "(input)");
    if (n < 0)
        n = 0;
    if ((size_t)n < err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, err_len - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return st;
}

bool cz_le_bytes_lt(const uint8_t *bytes, const uint64_t *m, size_t limbs)
{
    for (size_t i = limbs; i-- > 0;) {
        uint64_t v = cz_le64(bytes + 8 * i);
        if (v != m[i])
            return v < m[i];
    }
    return false; /* equal */
}

void cz_blob_borrow(cz_blob *out, const void *data, size_t len)
{
    memset(out, 0, sizeof *out);
    out->data = data;
    out->len = len;
}

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a plain file";
}

cz_status cz_file_check_fd(int fd, uint64_t *size_out, const char *name, char *err,
                           size_t err_len)
{
    *size_out = 0;
    struct stat st;
    if (fstat(fd, &st) != 0)
        return cz_io_fail(CZ_ERR_IO, err, err_len, name, "cannot stat: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return cz_io_fail(CZ_ERR_IO, err, err_len, name, "is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        return cz_io_fail(CZ_ERR_IO, err, err_len, name, "is %s, not a regular file",
                          file_kind(st.st_mode));
    *size_out = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return CZ_OK;
}

cz_status cz_file_open(int *fd_out, uint64_t *size_out, const char *path, char *err,
                       size_t err_len)
{
    *fd_out = -1;
    *size_out = 0;
    /* O_NONBLOCK: opening a FIFO with no writer, or some devices, would
       block here; it has no effect on the reads of a regular file. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot open: %s", strerror(errno));
    cz_status s = cz_file_check_fd(fd, size_out, path, err, err_len);
    if (s) {
        close(fd);
        return s;
    }
    *fd_out = fd;
    return CZ_OK;
}

static cz_status blob_map(cz_blob *out, const char *path, int flags, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    int fd;
    uint64_t size;
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    if (size == 0) {
        close(fd);
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, path, "file is empty");
    }
    if (size > SIZE_MAX) {
        close(fd);
        return cz_io_fail(CZ_ERR_RANGE, err, err_len, path, "too large to map");
    }
    size_t len = (size_t)size;
    void *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | flags, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot map: %s", strerror(e));
    out->map = m;
    out->map_len = len;
    out->data = m;
    out->len = len;
    return CZ_OK;
}

cz_status cz_blob_map(cz_blob *out, const char *path, char *err, size_t err_len)
{
    return blob_map(out, path, 0, err, err_len);
}

cz_status cz_blob_map_whole(cz_blob *out, const char *path, char *err, size_t err_len)
{
    return blob_map(out, path, cz_huge_pages() ? MAP_POPULATE : 0, err, err_len);
}

cz_status cz_blob_read_fd(cz_blob *out, int fd, uint64_t size, const char *name, char *err,
                          size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (size == 0)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "file is empty");
    if (size > SIZE_MAX - 64)
        return cz_io_fail(CZ_ERR_RANGE, err, err_len, name, "too large to read");
    size_t len = (size_t)size;
    uint8_t *buf = cz_alloc_big(len);
    if (!buf)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory reading %zu bytes", len);
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got > (1u << 30) ? (1u << 30) : len - got,
                          (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return cz_io_fail(CZ_ERR_IO, err, err_len, name, "cannot read: %s", strerror(e));
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    uint8_t extra;
    ssize_t more = got == len ? pread(fd, &extra, 1, (off_t)len) : 0;
    if (got != len || more != 0) {
        free(buf);
        return cz_io_fail(CZ_ERR_IO, err, err_len, name, "the file changed while it was read");
    }
    out->owned = buf;
    out->data = buf;
    out->len = len;
    return CZ_OK;
}

cz_status cz_blob_read(cz_blob *out, const char *path, uint64_t max, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    int fd;
    uint64_t size;
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    if (max && size > max) {
        close(fd);
        return cz_io_fail(CZ_ERR_RANGE, err, err_len, path,
                          "%llu bytes, more than the %llu-byte limit", (unsigned long long)size,
                          (unsigned long long)max);
    }
    st = cz_blob_read_fd(out, fd, size, path, err, err_len);
    close(fd);
    return st;
}

void cz_blob_release(cz_blob *b)
{
    if (!b)
        return;
    if (b->map)
        munmap(b->map, b->map_len);
    free(b->owned);
    memset(b, 0, sizeof *b);
}

cz_status cz_binfile_parse(cz_binfile *out, const uint8_t *data, size_t len,
                           const char *name, const char *magic, uint32_t version,
                           char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    out->name = name;
    out->data = data;
    out->len = len;
    if (len == 0)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "file is empty");
    if (len < 12 || memcmp(data, magic, 4) != 0) {
        /* the first bytes as hex only: an error never echoes a file's text */
        if (len >= 4 && memcmp(data, magic, 4) != 0)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "not a .%s file (magic bytes %02x %02x %02x %02x, expected \"%s\")",
                              magic, data[0], data[1], data[2], data[3], magic);
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "truncated: %zu bytes, shorter than the 12-byte header", len);
    }
    out->version = cz_le32(data + 4);
    if (out->version != version)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "unsupported %s version %u (expected %u)", magic, out->version, version);
    uint32_t ns = cz_le32(data + 8);
    if (ns > CZ_BIN_MAX_SECTIONS || (uint64_t)ns * 12 > len - 12)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section count %u does not fit in %zu bytes", ns, len);
    out->sections = calloc(ns ? ns : 1, sizeof *out->sections);
    if (!out->sections)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    out->n_sections = ns;
    size_t pos = 12;
    for (uint32_t i = 0; i < ns; i++) {
        if (len - pos < 12) {
            cz_binfile_free(out);
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "truncated: section header %u of %u at byte %zu is cut off", i + 1, ns, pos);
        }
        uint32_t id = cz_le32(data + pos);
        uint64_t size = cz_le64(data + pos + 4);
        pos += 12;
        if (size > len - pos) {
            cz_binfile_free(out);
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "truncated: section %u declares %llu bytes but only %zu remain",
                              id, (unsigned long long)size, len - pos);
        }
        out->sections[i].id = id;
        out->sections[i].offset = pos;
        out->sections[i].size = size;
        pos += (size_t)size;
    }
    if (pos != len) {
        cz_binfile_free(out);
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "%zu stray bytes after the last of the %u sections", len - pos, ns);
    }
    for (uint32_t i = 0; i < ns; i++)
        for (uint32_t j = 0; j < ns; j++)
            if (out->sections[j].id == out->sections[i].id)
                out->sections[i].count++;
    return CZ_OK;
}

void cz_binfile_free(cz_binfile *f)
{
    if (!f)
        return;
    free(f->sections);
    f->sections = NULL;
    f->n_sections = 0;
}

cz_status cz_binfile_section(const cz_bin_section **out, const cz_binfile *f,
                             uint32_t id, const char *what, char *err, size_t err_len)
{
    *out = NULL;
    for (uint32_t i = 0; i < f->n_sections; i++) {
        if (f->sections[i].id != id)
            continue;
        if (f->sections[i].count > 1)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, f->name,
                              "section %u (%s) appears %u times", id, what, f->sections[i].count);
        *out = &f->sections[i];
        return CZ_OK;
    }
    return cz_io_fail(CZ_ERR_FORMAT, err, err_len, f->name, "section %u (%s) is missing", id, what);
}

cz_status cz_io_check_prime_r(const uint8_t *prime, const char *name, const char *what,
                              char *err, size_t err_len)
{
    static const uint64_t r[4] = CZ_FR_P;
    static const uint64_t bn254_r[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                        0xb85045b68181585dULL, 0x30644e72e131a029ULL};
    int is_r = 1, is_bn = 1;
    for (int i = 0; i < 4; i++) {
        uint64_t v = cz_le64(prime + 8 * i);
        is_r &= v == r[i];
        is_bn &= v == bn254_r[i];
    }
    if (is_r)
        return CZ_OK;
    if (is_bn)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "this %s is for BN254 (bn128), not BLS12-381", what);
    return cz_io_fail(CZ_ERR_CURVE, err, err_len, name, "the %s prime is not BLS12-381's r", what);
}
