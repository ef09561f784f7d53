/*
 * nkey.c: the compact proving-key file (.czk) of native circuits: writer,
 * reader, header peek, checksum verification. The layout is
 * docs/KEYFORMAT.md; the contract is nkey.h.
 *
 * DESIGN. Both directions stream: a section is produced or consumed in
 * chunks of at most CHUNK bytes (a whole number of items), so the writer
 * needs the key plus one chunk, and the reader the key it builds plus one
 * chunk, whatever the size of the file (~27 GB for porep-32g). Writer: the
 * points of a chunk are compressed in parallel (threadpool), the chunk
 * hashed (XXH3-64, one streaming state per section) and written with
 * pwrite at its final offset; the header goes last, at offset 0, with the
 * section checksums and its own; then fsync and rename from the temporary
 * name. Reader: the header and table are read and checked first (magic,
 * version, header checksum, counts against each other, every section's
 * offset and length against the counts and against the file's size: a
 * truncated file is refused here, naming the first section that does not
 * fit, before anything is allocated); then the whole key is allocated
 * (checked against a memory limit) and each section read: a chunk is
 * hashed, then used. When a chunk's items are bad (a point off the curve,
 * a column out of range) the rest of the section is still hashed, so a
 * corrupted file reports "checksum mismatch" and only a file with a valid
 * checksum but bad contents (written by a faulty writer) reports the item.
 * Points are decompressed through a hook (a GPU may take it), by default
 * on the CPU in parallel: sqrt, then the subgroup check (~35 us a G1
 * point; the GPU is the fast path for large keys).
 * A failed load frees everything it allocated itself and returns no key;
 * a loaded key owns its arrays as keys made in memory do (groth16/native.h):
 * points in copies[CZ_ZKEY_SLOT_*], the matrices, the table and b_idx as
 * separate allocations, all freed by cz_zkey_free.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "groth16/native.h"
#include "io/binfile.h"
#include "io/nkey.h"
#include "util/log.h"
#include "util/threadpool.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the key file's arrays are copied as little-endian host memory");

#define HDR_FIXED 128u
#define TABLE_ENTRY 32u
#define HDR_BYTES_FOR(nsec) (HDR_FIXED + TABLE_ENTRY * (nsec) + 8u)
#define HDR_BYTES HDR_BYTES_FOR(CZ_NKEY_SECTIONS) /* 648; version 1: 616 */
#define SECTIONS_V1 15u
#define CURVE_BLS12_381 1u
#define CHUNK ((size_t)96 << 20) /* a multiple of every item size (48, 96, 32, 4, 2) */
#define VK_BYTES (3u * 96u + 3u * 192u)
#define MAX_NNZ ((uint64_t)1 << 60)

static const char *const sec_names[CZ_NKEY_SECTIONS + 1] = {
    "?", "vk", "IC", "A", "B index", "B1", "B2", "C", "H", "coefficients",
    "A rows", "A columns", "A coefficient indices", "B rows", "B columns",
    "B coefficient indices", "C publics",
};

const char *cz_nkey_section_name(uint32_t id)
{
    return id >= 1 && id <= CZ_NKEY_SECTIONS ? sec_names[id] : "?";
}

/* bytes per item of a section */
static size_t item_bytes(uint32_t id)
{
    switch (id) {
    case CZ_NKEY_VK: return VK_BYTES;
    case CZ_NKEY_IC: case CZ_NKEY_A: case CZ_NKEY_B1: case CZ_NKEY_C: case CZ_NKEY_H:
    case CZ_NKEY_CPUB: return 48;
    case CZ_NKEY_B2: return 96;
    case CZ_NKEY_COEFS: return 32;
    case CZ_NKEY_A_COEF: case CZ_NKEY_B_COEF: return 2;
    default: return 4; /* B index, rows, columns */
    }
}

/* items of a section, from the header's counts */
static uint64_t item_count(const cz_nkey_info *h, uint32_t id)
{
    switch (id) {
    case CZ_NKEY_VK: return 1;
    case CZ_NKEY_IC: return (uint64_t)h->n_public + 1;
    case CZ_NKEY_A: return h->n_vars;
    case CZ_NKEY_B_IDX: case CZ_NKEY_B1: case CZ_NKEY_B2: return h->n_b;
    case CZ_NKEY_C: return (uint64_t)h->n_vars - h->n_public - 1;
    case CZ_NKEY_H: return h->domain_size;
    case CZ_NKEY_COEFS: return h->n_coefs;
    case CZ_NKEY_A_ROWS: return h->a_rows;
    case CZ_NKEY_A_COLS: case CZ_NKEY_A_COEF: return h->a_nnz;
    case CZ_NKEY_B_ROWS: return h->b_rows;
    case CZ_NKEY_CPUB: return h->flags & CZ_NKEY_FLAG_FOLDED_C ? (uint64_t)h->n_public + 1 : 0;
    default: return h->b_nnz; /* B columns, B coefficient indices */
    }
}

static uint64_t align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t phys_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

static cz_threadpool *pool_for(unsigned threads, cz_threadpool **own)
{
    *own = NULL;
    if (threads == 1)
        return NULL;
    if (threads == 0)
        return cz_threadpool_global();
    return *own = cz_threadpool_create((int)threads);
}

/* ---- the header ---- */

/* Sizes a loaded key takes in memory (nkey.h, cz_nkey_info). */
static void mem_sizes(cz_nkey_info *h)
{
    uint64_t g1 = (uint64_t)h->n_public + 1 + h->n_vars + h->n_b +
                  ((uint64_t)h->n_vars - h->n_public - 1) + h->domain_size +
                  item_count(h, CZ_NKEY_CPUB);
    h->point_bytes = g1 * sizeof(cz_g1_affine) + (uint64_t)h->n_b * sizeof(cz_g2_affine);
    h->matrix_bytes = ((uint64_t)h->a_rows + 1 + (uint64_t)h->b_rows + 1) * sizeof(uint64_t) +
                      (h->a_nnz + h->b_nnz) * (sizeof(uint32_t) + sizeof(uint16_t)) +
                      (uint64_t)h->n_coefs * sizeof(cz_fr) + (uint64_t)h->n_b * sizeof(uint32_t);
    uint64_t largest = 0;
    for (uint32_t i = 0; i < h->n_sections; i++)
        if (h->sections[i].length > largest)
            largest = h->sections[i].length;
    h->mem_bytes = h->point_bytes + h->matrix_bytes + (largest < CHUNK ? largest : CHUNK);
}

/* The header's fields (not the table) from its 128 bytes, checked against
   each other. */
static cz_status parse_fixed(cz_nkey_info *h, const uint8_t *p, const char *name, char *err,
                             size_t err_len)
{
    h->version = cz_le32(p + 8);
    uint32_t hdr_bytes = cz_le32(p + 12), curve = cz_le32(p + 16);
    h->flags = cz_le32(p + 20);
    h->n_vars = cz_le32(p + 24);
    h->n_public = cz_le32(p + 28);
    h->domain_size = cz_le32(p + 32);
    h->n_b = cz_le32(p + 36);
    h->n_coefs = cz_le32(p + 40);
    h->a_rows = cz_le32(p + 44);
    h->b_rows = cz_le32(p + 48);
    h->n_sections = cz_le32(p + 52);
    h->a_nnz = cz_le64(p + 56);
    h->b_nnz = cz_le64(p + 64);
    memcpy(h->shape_digest, p + 72, 16);
    memcpy(h->circuit, p + 88, CZ_NKEY_NAME_MAX);
    uint32_t want = h->version == 1 ? SECTIONS_V1 : CZ_NKEY_SECTIONS;
    if (h->n_sections != want || hdr_bytes != HDR_BYTES_FOR(want))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "header: %u sections in %u bytes, version %u has %u in %u", h->n_sections,
                          hdr_bytes, h->version, want, HDR_BYTES_FOR(want));
    (void)curve;
    return CZ_OK;
}

static cz_status check_fixed(const cz_nkey_info *h, uint32_t curve, const char *name, char *err,
                             size_t err_len)
{
#define BAD(...) return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "header: " __VA_ARGS__)
    if (curve != CURVE_BLS12_381)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "header: curve %u is not BLS12-381 (1)", curve);
    uint32_t known = CZ_NKEY_FLAG_DEVELOPMENT | (h->version >= 2 ? CZ_NKEY_FLAG_FOLDED_C : 0);
    if (h->flags & ~known)
        BAD("unknown flags 0x%x", h->flags);
    if (h->n_vars < 1 || h->n_public > h->n_vars - 1)
        BAD("%u public inputs do not fit in %u variables", h->n_public, h->n_vars);
    uint32_t n = h->domain_size;
    if (n < 2 || (n & (n - 1)) != 0 || n > (1u << 30))
        BAD("domain size %u is not a power of two in [2, 2^30]", n);
    if (h->n_public + 1 > n)
        BAD("domain size %u is smaller than the %u public inputs and the constant", n,
            h->n_public);
    if (h->n_b > h->n_vars)
        BAD("%u variables in B, more than the %u variables", h->n_b, h->n_vars);
    if (h->n_coefs < 1 || h->n_coefs > 65536)
        BAD("%u coefficients, outside [1, 65536]", h->n_coefs);
    if (h->a_rows > n || h->b_rows > n)
        BAD("A has %u rows and B %u, more than the domain's %u", h->a_rows, h->b_rows, n);
    if (h->a_nnz > MAX_NNZ || h->b_nnz > MAX_NNZ)
        BAD("A has %llu nonzeros and B %llu, implausibly many", (unsigned long long)h->a_nnz,
            (unsigned long long)h->b_nnz);
    size_t nl = strnlen(h->circuit, CZ_NKEY_NAME_MAX);
    if (nl == CZ_NKEY_NAME_MAX)
        BAD("the circuit name is not terminated");
    for (size_t i = 0; i < CZ_NKEY_NAME_MAX; i++) {
        unsigned char ch = (unsigned char)h->circuit[i];
        if (i < nl ? ch < 0x20 || ch > 0x7e : ch != 0)
            BAD("the circuit name has a byte 0x%02x at %zu", ch, i);
    }
#undef BAD
    return CZ_OK;
}

/* Where the bytes come from: an open file (pread) or memory. */
typedef struct {
    int fd; /* -1: mem */
    const uint8_t *mem;
    uint64_t size;
    const char *name;
} source;

static cz_status src_read(const source *s, void *buf, size_t n, uint64_t off, const char *what,
                          char *err, size_t err_len)
{
    if (s->fd < 0) {
        memcpy(buf, s->mem + off, n);
        return CZ_OK;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(s->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return cz_io_fail(CZ_ERR_IO, err, err_len, s->name, "%s: cannot read: %s", what,
                              r < 0 ? strerror(errno) : "the file changed while it was read");
        got += (size_t)r;
    }
    return CZ_OK;
}

static cz_status peek_src(cz_nkey_info *h, const source *s, char *err, size_t err_len)
{
    memset(h, 0, sizeof *h);
    const char *name = s->name;
    h->file_bytes = s->size;
    uint8_t buf[HDR_BYTES];
    if (s->size >= 8) {
        cz_status st = src_read(s, buf, 8, 0, "header", err, err_len);
        if (st)
            return st;
        if (memcmp(buf, CZ_NKEY_MAGIC, 8) != 0)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "not a cuzk compact key (.czk): the magic is not \"%s\"",
                              CZ_NKEY_MAGIC);
    }
    if (s->size < HDR_FIXED)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          s->size ? "header: truncated: %llu bytes, shorter than the %u-byte header"
                                  : "the file is empty",
                          (unsigned long long)s->size, HDR_FIXED);
    cz_status st = src_read(s, buf, HDR_FIXED, 0, "header", err, err_len);
    if (st)
        return st;
    uint32_t version = cz_le32(buf + 8);
    if (version != 1 && version != CZ_NKEY_VERSION)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "header: version %u; this cuzk reads versions 1 and %u", version,
                          CZ_NKEY_VERSION);
    if ((st = parse_fixed(h, buf, name, err, err_len)))
        return st;
    const uint32_t hb = HDR_BYTES_FOR(h->n_sections);
    if (s->size < hb)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "header: truncated: the header and section table take %u bytes, the "
                          "file has %llu", hb, (unsigned long long)s->size);
    if ((st = src_read(s, buf + HDR_FIXED, hb - HDR_FIXED, HDR_FIXED, "header", err, err_len)))
        return st;
    if (XXH3_64bits(buf, hb - 8) != cz_le64(buf + hb - 8))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "header: checksum mismatch");
    if ((st = check_fixed(h, cz_le32(buf + 16), name, err, err_len)))
        return st;
    uint64_t want_off = hb;
    for (uint32_t i = 0; i < h->n_sections; i++) {
        const uint8_t *e = buf + HDR_FIXED + TABLE_ENTRY * i;
        cz_nkey_section_info *sec = &h->sections[i];
        sec->id = cz_le32(e);
        sec->offset = cz_le64(e + 8);
        sec->length = cz_le64(e + 16);
        sec->checksum = cz_le64(e + 24);
        sec->name = cz_nkey_section_name(i + 1);
        if (sec->id != i + 1 || cz_le32(e + 4) != 0)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section table: entry %u has id %u, expected %u", i, sec->id, i + 1);
        uint64_t want_len = item_count(h, i + 1) * item_bytes(i + 1);
        if (sec->length != want_len)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section %s: %llu bytes, the header implies %llu", sec->name,
                              (unsigned long long)sec->length, (unsigned long long)want_len);
        if (sec->offset != want_off)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section %s: at byte %llu, expected %llu", sec->name,
                              (unsigned long long)sec->offset, (unsigned long long)want_off);
        if (sec->offset > s->size || sec->length > s->size - sec->offset)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section %s: truncated: it takes bytes [%llu, %llu), the file has "
                              "%llu", sec->name, (unsigned long long)sec->offset,
                              (unsigned long long)(sec->offset + sec->length),
                              (unsigned long long)s->size);
        want_off = align8(sec->offset + sec->length);
    }
    const cz_nkey_section_info *last = &h->sections[h->n_sections - 1];
    uint64_t end = last->offset + last->length;
    if (s->size != end)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "%llu stray bytes after the last section (%s)",
                          (unsigned long long)(s->size - end), last->name);
    mem_sizes(h);
    return CZ_OK;
}

cz_status cz_nkey_peek_fd(cz_nkey_info *info, int fd, uint64_t size, const char *name,
                          char *err, size_t err_len)
{
    source s = {.fd = fd, .size = size, .name = name};
    return peek_src(info, &s, err, err_len);
}

cz_status cz_nkey_peek(cz_nkey_info *info, const char *path, char *err, size_t err_len)
{
    int fd;
    uint64_t size;
    memset(info, 0, sizeof *info);
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    st = cz_nkey_peek_fd(info, fd, size, path, err, err_len);
    close(fd);
    return st;
}

bool cz_nkey_is_nkey(const uint8_t *head, size_t n)
{
    return n >= 8 && memcmp(head, CZ_NKEY_MAGIC, 8) == 0;
}

/* ---- reading sections ---- */

typedef struct load_ctx load_ctx;
/* Use n items of section `id` starting at item `first`; on a bad item write
   what is wrong (without the section's name) into msg and return its
   status. */
typedef cz_status (*take_fn)(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first,
                             size_t n, char *msg, size_t msg_len);

struct load_ctx {
    const source *src;
    const cz_nkey_info *h;
    cz_zkey *key;
    cz_threadpool *pool;
    const cz_nkey_load_opts *o;
    uint8_t *buf;
    size_t buf_len;
    XXH3_state_t *xx;
    uint64_t row_sum; /* rows sections: the running sum of row lengths */
    uint32_t prev_b;  /* B index: the previous entry + 1 (0: none yet) */
    bool hook_failed; /* the decompression hook could not run: the CPU from then on */
};

static cz_status read_section(load_ctx *L, uint32_t id, take_fn take, char *err, size_t err_len)
{
    const cz_nkey_section_info *sec = &L->h->sections[id - 1];
    const char *name = L->src->name;
    size_t item = item_bytes(id);
    size_t step = L->buf_len / item * item;
    XXH3_64bits_reset(L->xx);
    uint64_t off = sec->offset, rem = sec->length, first = 0;
    cz_status bad = CZ_OK;
    char msg[200] = "";
    while (rem) {
        size_t n = rem < step ? (size_t)rem : step;
        cz_status st = src_read(L->src, L->buf, n, off, sec->name, err, err_len);
        if (st)
            return st;
        if (L->src->fd >= 0) /* the key has its copy now; the page cache's would double it */
            posix_fadvise(L->src->fd, (off_t)off, (off_t)n, POSIX_FADV_DONTNEED);
        XXH3_64bits_update(L->xx, L->buf, n);
        if (!bad && take)
            bad = take(L, id, L->buf, first, n / item, msg, sizeof msg);
        off += n;
        rem -= n;
        first += n / item;
    }
    if (XXH3_64bits_digest(L->xx) != sec->checksum)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "section %s: checksum mismatch",
                          sec->name);
    if (bad)
        return cz_io_fail(bad, err, err_len, name, "section %s: %s", sec->name, msg);
    /* the padding to the next section is zero */
    uint64_t end = sec->offset + sec->length;
    if (id < L->h->n_sections && align8(end) > end) {
        uint8_t pad[8] = {0};
        size_t np = (size_t)(align8(end) - end);
        cz_status st = src_read(L->src, pad, np, end, sec->name, err, err_len);
        if (st)
            return st;
        for (size_t i = 0; i < np; i++)
            if (pad[i])
                return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                                  "section %s: the padding after it is not zero", sec->name);
    }
    return CZ_OK;
}

/* vk: alpha1, beta1, delta1 (G1), beta2, gamma2, delta2 (G2), uncompressed */
static cz_status take_vk(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first, size_t n,
                         char *msg, size_t msg_len)
{
    cz_zkey *k = L->key;
    uint8_t b[VK_BYTES];
    memcpy(b, in, VK_BYTES);
    static const char *const what[6] = {"alpha1", "beta1", "delta1", "beta2", "gamma2", "delta2"};
    cz_status st[6] = {
        cz_g1_from_uncompressed(&k->alpha1, b), cz_g1_from_uncompressed(&k->beta1, b + 96),
        cz_g1_from_uncompressed(&k->delta1, b + 192), cz_g2_from_uncompressed(&k->beta2, b + 288),
        cz_g2_from_uncompressed(&k->gamma2, b + 480), cz_g2_from_uncompressed(&k->delta2, b + 672),
    };
    for (int i = 0; i < 6; i++)
        if (st[i]) {
            snprintf(msg, msg_len, "%s: %s", what[i], cz_strerror(st[i]));
            return st[i];
        }
    return CZ_OK;
}

/* CPU decompression, in parallel: the first bad index. */
typedef struct {
    bool g2;
    uint8_t *out;
    const uint8_t *in;
    _Atomic size_t first_bad;
} dec_ctx;

static void atomic_min(_Atomic size_t *a, size_t v)
{
    size_t cur = atomic_load(a);
    while (v < cur && !atomic_compare_exchange_weak(a, &cur, v))
        ;
}

static cz_status dec_one(bool g2, uint8_t *out, const uint8_t *in, size_t i)
{
    if (g2)
        return cz_g2_from_compressed((cz_g2_affine *)out + i, in + 96 * i);
    return cz_g1_from_compressed((cz_g1_affine *)out + i, in + 48 * i);
}

static void dec_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    dec_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        if (atomic_load_explicit(&c->first_bad, memory_order_relaxed) < i)
            return;
        if (dec_one(c->g2, c->out, c->in, i)) {
            atomic_min(&c->first_bad, i);
            return;
        }
    }
}

static cz_status cpu_decompress(cz_threadpool *pool, bool g2, void *out, const uint8_t *in,
                                size_t n, size_t *first_bad)
{
    dec_ctx c = {.g2 = g2, .out = out, .in = in};
    atomic_init(&c.first_bad, SIZE_MAX);
    cz_parallel_for(pool, n, 256, dec_range, &c);
    size_t bad = atomic_load(&c.first_bad);
    if (bad == SIZE_MAX)
        return CZ_OK;
    *first_bad = bad;
    return dec_one(g2, out, in, bad);
}

/* Which array a point section fills. */
static void *point_dst(cz_zkey *k, uint32_t id)
{
    /* in the order of the CZ_ZKEY_SLOT_* slots */
    static const uint32_t ids[7] = {CZ_NKEY_IC, CZ_NKEY_A, CZ_NKEY_B1, CZ_NKEY_B2, CZ_NKEY_C,
                                    CZ_NKEY_H, CZ_NKEY_CPUB};
    for (int i = 0; i < 7; i++)
        if (ids[i] == id)
            return k->copies[i];
    return NULL;
}

static cz_status take_points(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first,
                             size_t n, char *msg, size_t msg_len)
{
    bool g2 = id == CZ_NKEY_B2;
    uint8_t *out = (uint8_t *)point_dst(L->key, id) +
                   first * (g2 ? sizeof(cz_g2_affine) : sizeof(cz_g1_affine));
    size_t bad = 0;
    cz_status st = CZ_ERR_UNSUPPORTED;
    if (L->o->decompress && !L->hook_failed) {
        st = L->o->decompress(L->o->decompress_ctx, g2, out, in, n, &bad);
        /* a point's own fault, or the hook's (a device error): that chunk
           and the rest go to the CPU, so a load never fails for it */
        if (st != CZ_OK && st != CZ_ERR_FORMAT && st != CZ_ERR_NOT_ON_CURVE &&
            st != CZ_ERR_SUBGROUP) {
            cz_log(CZ_LOG_WARN, "nkey", "section %s: decompression on %s failed (%s): "
                   "decompressing on the cpu instead", cz_nkey_section_name(id),
                   L->o->decompress_on ? L->o->decompress_on : "the hook", cz_strerror(st));
            L->hook_failed = true;
        }
    }
    if (!L->o->decompress || L->hook_failed)
        st = cpu_decompress(L->pool, g2, out, in, n, &bad);
    if (st)
        snprintf(msg, msg_len, "point %llu: %s", (unsigned long long)(first + bad),
                 cz_strerror(st));
    return st;
}

static cz_status take_b_idx(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first,
                            size_t n, char *msg, size_t msg_len)
{
    uint32_t *out = L->key->b_idx + first;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = cz_le32(in + 4 * i);
        if (v >= L->h->n_vars || (first + i > 0 && v < L->prev_b)) {
            snprintf(msg, msg_len, "entry %llu: variable %u is %s",
                     (unsigned long long)(first + i), v,
                     v >= L->h->n_vars ? "not below the variable count" : "not above the last");
            return CZ_ERR_FORMAT;
        }
        out[i] = v;
        L->prev_b = v + 1;
    }
    return CZ_OK;
}

static cz_status take_coefs(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first,
                            size_t n, char *msg, size_t msg_len)
{
    for (size_t i = 0; i < n; i++)
        if (!cz_fr_from_bytes_le(&L->key->coefs[first + i], in + 32 * i)) {
            snprintf(msg, msg_len, "coefficient %llu is not below r",
                     (unsigned long long)(first + i));
            return CZ_ERR_RANGE;
        }
    return CZ_OK;
}

static cz_status take_rows(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first,
                           size_t n, char *msg, size_t msg_len)
{
    cz_cmat *m = id == CZ_NKEY_A_ROWS ? &L->key->ca : &L->key->cb;
    uint64_t nnz = id == CZ_NKEY_A_ROWS ? L->h->a_nnz : L->h->b_nnz;
    if (first == 0) {
        L->row_sum = 0;
        m->row_ptr[0] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        L->row_sum += cz_le32(in + 4 * i);
        if (L->row_sum > nnz) {
            snprintf(msg, msg_len, "rows 0..%llu hold more than the header's %llu nonzeros",
                     (unsigned long long)(first + i), (unsigned long long)nnz);
            return CZ_ERR_FORMAT;
        }
        m->row_ptr[first + i + 1] = L->row_sum;
    }
    return CZ_OK;
}

typedef struct {
    const uint8_t *in;
    void *out;
    uint32_t limit;
    bool u16;
    _Atomic size_t first_bad;
} idx_ctx;

static void idx_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    idx_ctx *c = vctx;
    if (c->u16) {
        uint16_t *o = c->out;
        for (size_t i = begin; i < end; i++) {
            o[i] = (uint16_t)(c->in[2 * i] | c->in[2 * i + 1] << 8);
            if (o[i] >= c->limit) {
                atomic_min(&c->first_bad, i);
                return;
            }
        }
    } else {
        uint32_t *o = c->out;
        for (size_t i = begin; i < end; i++) {
            o[i] = cz_le32(c->in + 4 * i);
            if (o[i] >= c->limit) {
                atomic_min(&c->first_bad, i);
                return;
            }
        }
    }
}

/* columns (< n_vars) and coefficient indices (< n_coefs) */
static cz_status take_idx(load_ctx *L, uint32_t id, const uint8_t *in, uint64_t first, size_t n,
                          char *msg, size_t msg_len)
{
    cz_cmat *m = id == CZ_NKEY_A_COLS || id == CZ_NKEY_A_COEF ? &L->key->ca : &L->key->cb;
    bool u16 = id == CZ_NKEY_A_COEF || id == CZ_NKEY_B_COEF;
    idx_ctx c = {.in = in, .u16 = u16,
                 .out = u16 ? (void *)(m->coef + first) : (void *)(m->col + first),
                 .limit = u16 ? L->h->n_coefs : L->h->n_vars};
    atomic_init(&c.first_bad, SIZE_MAX);
    cz_parallel_for(L->pool, n, 1 << 16, idx_range, &c);
    size_t bad = atomic_load(&c.first_bad);
    if (bad == SIZE_MAX)
        return CZ_OK;
    uint32_t v = u16 ? (uint32_t)(in[2 * bad] | in[2 * bad + 1] << 8) : cz_le32(in + 4 * bad);
    snprintf(msg, msg_len, "entry %llu: %s %u is not below %s %u",
             (unsigned long long)(first + bad), u16 ? "coefficient index" : "column", v,
             u16 ? "the table's" : "the variable count", c.limit);
    return CZ_ERR_FORMAT;
}

/* Free what a load allocated: cz_zkey_free frees every owned array. */
static void free_partial(cz_zkey *k)
{
    cz_zkey_free(k);
}

static void *alloc_bytes(uint64_t n)
{
    if (n == 0)
        n = 1;
    if (n > SIZE_MAX - 63)
        return NULL;
    return aligned_alloc(64, (size_t)((n + 63) & ~(uint64_t)63));
}

static cz_status alloc_key(cz_zkey **out, const cz_nkey_info *h, bool vk_only)
{
    cz_zkey *k = calloc(1, sizeof *k);
    if (!k)
        return CZ_ERR_NOMEM;
    if (vk_only) {
        k->copies[CZ_ZKEY_SLOT_IC] = alloc_bytes(((uint64_t)h->n_public + 1) * sizeof(cz_g1_affine));
        if (!k->copies[CZ_ZKEY_SLOT_IC]) {
            free(k);
            return CZ_ERR_NOMEM;
        }
        *out = k;
        return CZ_OK;
    }
    /* slots CZ_ZKEY_SLOT_IC .. CZ_ZKEY_SLOT_CPUB */
    uint64_t counts[7] = {(uint64_t)h->n_public + 1, h->n_vars, h->n_b, h->n_b,
                          (uint64_t)h->n_vars - h->n_public - 1, h->domain_size,
                          item_count(h, CZ_NKEY_CPUB)};
    bool ok = true;
    for (int i = 0; i < 7; i++)
        ok &= (k->copies[i] = alloc_bytes(counts[i] * (i == CZ_ZKEY_SLOT_B2 ? sizeof(cz_g2_affine)
                                                              : sizeof(cz_g1_affine)))) != NULL;
    ok &= (k->ca.row_ptr = alloc_bytes(((uint64_t)h->a_rows + 1) * sizeof(uint64_t))) != NULL;
    ok &= (k->ca.col = alloc_bytes(h->a_nnz * sizeof(uint32_t))) != NULL;
    ok &= (k->ca.coef = alloc_bytes(h->a_nnz * sizeof(uint16_t))) != NULL;
    ok &= (k->cb.row_ptr = alloc_bytes(((uint64_t)h->b_rows + 1) * sizeof(uint64_t))) != NULL;
    ok &= (k->cb.col = alloc_bytes(h->b_nnz * sizeof(uint32_t))) != NULL;
    ok &= (k->cb.coef = alloc_bytes(h->b_nnz * sizeof(uint16_t))) != NULL;
    ok &= (k->coefs = alloc_bytes((uint64_t)h->n_coefs * sizeof(cz_fr))) != NULL;
    ok &= (k->b_idx = alloc_bytes((uint64_t)h->n_b * sizeof(uint32_t))) != NULL;
    if (!ok) {
        free_partial(k);
        return CZ_ERR_NOMEM;
    }
    k->ca.row_ptr[0] = k->cb.row_ptr[0] = 0;
    *out = k;
    return CZ_OK;
}

static cz_status load_src(cz_zkey **out, const source *s, const cz_nkey_load_opts *opts,
                          char *err, size_t err_len)
{
    *out = NULL;
    cz_nkey_load_opts def = {0};
    if (!opts)
        opts = &def;
    cz_nkey_info h;
    cz_status st = peek_src(&h, s, err, err_len);
    if (st)
        return st;
    uint64_t limit = opts->mem_limit ? opts->mem_limit : phys_ram();
    if (h.mem_bytes > limit && !opts->vk_only)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, s->name,
                          "loading this key takes %llu bytes of memory, more than the %llu "
                          "allowed", (unsigned long long)h.mem_bytes, (unsigned long long)limit);
    cz_zkey *k = NULL;
    double t0 = now_ms(), t_points = 0;
    if (alloc_key(&k, &h, opts->vk_only))
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, s->name,
                          "out of memory for a key of %llu bytes", (unsigned long long)h.mem_bytes);
    load_ctx L = {.src = s, .h = &h, .key = k, .o = opts};
    cz_threadpool *own;
    L.pool = pool_for(opts->threads, &own);
    uint64_t largest = 0;
    uint32_t n_read = opts->vk_only ? CZ_NKEY_IC : h.n_sections;
    for (uint32_t i = 0; i < n_read; i++)
        if (h.sections[i].length > largest)
            largest = h.sections[i].length;
    L.buf_len = largest < CHUNK ? (size_t)align8(largest ? largest : 8) : CHUNK;
    L.buf = malloc(L.buf_len);
    L.xx = XXH3_createState();
    if (!L.buf || !L.xx) {
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, s->name, "out of memory");
        goto out;
    }
    static const take_fn takes[CZ_NKEY_SECTIONS + 1] = {
        NULL, take_vk, take_points, take_points, take_b_idx, take_points, take_points,
        take_points, take_points, take_coefs, take_rows, take_idx, take_idx, take_rows,
        take_idx, take_idx, take_points,
    };
    for (uint32_t id = 1; id <= n_read && !st; id++) {
        if (id == CZ_NKEY_A_ROWS || id == CZ_NKEY_B_ROWS)
            L.row_sum = 0;
        double t = now_ms();
        st = read_section(&L, id, takes[id], err, err_len);
        if (takes[id] == take_points) {
            t_points += now_ms() - t;
            if (!st)
                cz_log(CZ_LOG_DEBUG, "nkey", "%s: section %s: %llu points in %.0f ms", s->name,
                       cz_nkey_section_name(id), (unsigned long long)item_count(&h, id),
                       now_ms() - t);
        }
        if (!st && (id == CZ_NKEY_A_ROWS || id == CZ_NKEY_B_ROWS)) {
            uint64_t want = id == CZ_NKEY_A_ROWS ? h.a_nnz : h.b_nnz;
            if (L.row_sum != want)
                st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, s->name,
                                "section %s: the rows hold %llu nonzeros, the header says %llu",
                                cz_nkey_section_name(id), (unsigned long long)L.row_sum,
                                (unsigned long long)want);
        }
    }
out:
    free(L.buf);
    XXH3_freeState(L.xx);
    cz_threadpool_destroy(own);
    if (st) {
        free_partial(k);
        return st;
    }
    k->n_vars = h.n_vars;
    k->n_public = h.n_public;
    k->domain_size = h.domain_size;
    k->log_n = 0;
    while ((1u << k->log_n) < k->domain_size)
        k->log_n++;
    cz_log(CZ_LOG_INFO, "nkey", "%s: loaded in %.0f ms (points decompressed and checked on %s "
           "in %.0f ms%s)", s->name, now_ms() - t0,
           !opts->decompress ? "the cpu" : opts->decompress_on ? opts->decompress_on : "the hook",
           t_points, L.hook_failed ? "; on the cpu after a failure of the hook" : "");
    k->ic = k->copies[CZ_ZKEY_SLOT_IC];
    k->uid = cz_zkey_new_uid();
    if (opts->vk_only) {
        *out = k;
        return CZ_OK;
    }
    k->a = k->copies[CZ_ZKEY_SLOT_A];
    k->b1 = k->copies[CZ_ZKEY_SLOT_B1];
    k->b2 = k->copies[CZ_ZKEY_SLOT_B2];
    k->c = h.n_vars - h.n_public - 1 ? k->copies[CZ_ZKEY_SLOT_C] : NULL;
    k->h = k->copies[CZ_ZKEY_SLOT_H];
    k->cpub = h.flags & CZ_NKEY_FLAG_FOLDED_C ? k->copies[CZ_ZKEY_SLOT_CPUB] : NULL;
    k->compact = true;
    k->ca.n_rows = h.a_rows;
    k->ca.nnz = h.a_nnz;
    k->cb.n_rows = h.b_rows;
    k->cb.nnz = h.b_nnz;
    k->n_coefs = h.n_coefs;
    k->n_b = h.n_b;
    *out = k;
    return CZ_OK;
}

cz_status cz_nkey_load_fd(cz_zkey **out, int fd, uint64_t size, const char *name,
                          const cz_nkey_load_opts *opts, char *err, size_t err_len)
{
    source s = {.fd = fd, .size = size, .name = name ? name : "(key file)"};
    return load_src(out, &s, opts, err, err_len);
}

cz_status cz_nkey_load(cz_zkey **out, const char *path, const cz_nkey_load_opts *opts,
                       char *err, size_t err_len)
{
    *out = NULL;
    int fd;
    uint64_t size;
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    st = cz_nkey_load_fd(out, fd, size, path, opts, err, err_len);
    close(fd);
    return st;
}

cz_status cz_nkey_load_bytes(cz_zkey **out, const void *data, size_t len, const char *name,
                             const cz_nkey_load_opts *opts, char *err, size_t err_len)
{
    *out = NULL;
    if (!name)
        name = "(key bytes)";
    if (!data && len)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL data");
    source s = {.fd = -1, .mem = data, .size = len, .name = name};
    return load_src(out, &s, opts, err, err_len);
}

cz_status cz_nkey_verify(cz_nkey_info *info, const char *path, char *err, size_t err_len)
{
    int fd;
    uint64_t size;
    memset(info, 0, sizeof *info);
    cz_status st = cz_file_open(&fd, &size, path, err, err_len);
    if (st)
        return st;
    source s = {.fd = fd, .size = size, .name = path};
    st = peek_src(info, &s, err, err_len);
    load_ctx L = {.src = &s, .h = info};
    if (!st) {
        uint64_t largest = 8;
        for (uint32_t i = 0; i < info->n_sections; i++)
            if (info->sections[i].length > largest)
                largest = info->sections[i].length;
        L.buf_len = largest < CHUNK ? (size_t)align8(largest) : CHUNK;
        L.buf = malloc(L.buf_len);
        L.xx = XXH3_createState();
        if (!L.buf || !L.xx)
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    }
    for (uint32_t id = 1; !st && id <= info->n_sections; id++)
        st = read_section(&L, id, NULL, err, err_len);
    free(L.buf);
    XXH3_freeState(L.xx);
    close(fd);
    return st;
}

/* ---- writing ---- */

typedef struct {
    const cz_zkey *key;
    uint32_t id;
    uint8_t *out;
    uint64_t first;
} fill_ctx;

/* Produce items [first + begin, first + end) of a section into out. */
static void fill_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    const fill_ctx *c = vctx;
    const cz_zkey *k = c->key;
    size_t ib = item_bytes(c->id);
    for (size_t j = begin; j < end; j++) {
        uint64_t i = c->first + j;
        uint8_t *o = c->out + j * ib;
        switch (c->id) {
        case CZ_NKEY_IC: cz_g1_to_compressed(o, &k->ic[i]); break;
        case CZ_NKEY_A: cz_g1_to_compressed(o, &k->a[i]); break;
        case CZ_NKEY_B1: cz_g1_to_compressed(o, &k->b1[i]); break;
        case CZ_NKEY_B2: cz_g2_to_compressed(o, &k->b2[i]); break;
        case CZ_NKEY_C: cz_g1_to_compressed(o, &k->c[i]); break;
        case CZ_NKEY_H: cz_g1_to_compressed(o, &k->h[i]); break;
        case CZ_NKEY_CPUB: cz_g1_to_compressed(o, &k->cpub[i]); break;
        case CZ_NKEY_B_IDX: cz_put_le32(o, k->b_idx ? k->b_idx[i] : (uint32_t)i); break;
        case CZ_NKEY_COEFS: cz_fr_to_bytes_le(o, &k->coefs[i]); break;
        case CZ_NKEY_A_ROWS:
            cz_put_le32(o, (uint32_t)(k->ca.row_ptr[i + 1] - k->ca.row_ptr[i]));
            break;
        case CZ_NKEY_B_ROWS:
            cz_put_le32(o, (uint32_t)(k->cb.row_ptr[i + 1] - k->cb.row_ptr[i]));
            break;
        case CZ_NKEY_A_COLS: cz_put_le32(o, k->ca.col[i]); break;
        case CZ_NKEY_B_COLS: cz_put_le32(o, k->cb.col[i]); break;
        case CZ_NKEY_A_COEF: o[0] = (uint8_t)k->ca.coef[i]; o[1] = (uint8_t)(k->ca.coef[i] >> 8); break;
        case CZ_NKEY_B_COEF: o[0] = (uint8_t)k->cb.coef[i]; o[1] = (uint8_t)(k->cb.coef[i] >> 8); break;
        case CZ_NKEY_VK:
            cz_g1_to_uncompressed(o, &k->alpha1);
            cz_g1_to_uncompressed(o + 96, &k->beta1);
            cz_g1_to_uncompressed(o + 192, &k->delta1);
            cz_g2_to_uncompressed(o + 288, &k->beta2);
            cz_g2_to_uncompressed(o + 480, &k->gamma2);
            cz_g2_to_uncompressed(o + 672, &k->delta2);
            break;
        }
    }
}

static cz_status pwrite_all(int fd, const void *buf, size_t n, uint64_t off, const char *name,
                            char *err, size_t err_len)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = pwrite(fd, (const uint8_t *)buf + done, n - done, (off_t)(off + done));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return cz_io_fail(CZ_ERR_IO, err, err_len, name, "cannot write: %s",
                              w < 0 ? strerror(errno) : "no progress");
        done += (size_t)w;
    }
    return CZ_OK;
}

/* The counts of a compact key, checked so that every array it names is
   there and the lengths fit the format. */
static cz_status key_counts(cz_nkey_info *h, const cz_zkey *k, const char *name, char *err,
                            size_t err_len)
{
    memset(h, 0, sizeof *h);
#define NO(...) return cz_io_fail(CZ_ERR_ARG, err, err_len, name, __VA_ARGS__)
    if (!k->compact)
        NO("only a key in compact form can be written as .czk (cz_zkey_from_shape, "
           "cz_zkey_compact)");
    if (k->n_vars < 1 || k->n_public >= k->n_vars)
        NO("the key's counts are inconsistent");
    h->n_vars = k->n_vars;
    h->n_public = k->n_public;
    h->domain_size = k->domain_size;
    h->n_b = k->b_idx ? k->n_b : k->n_vars;
    h->n_coefs = k->n_coefs;
    h->a_rows = k->ca.n_rows;
    h->b_rows = k->cb.n_rows;
    h->a_nnz = k->ca.nnz;
    h->b_nnz = k->cb.nnz;
    h->n_sections = CZ_NKEY_SECTIONS;
    if (!k->ic || !k->a || !k->h || (h->n_b && (!k->b1 || !k->b2)) ||
        (k->n_vars - k->n_public - 1 && !k->c) || !k->coefs || !k->ca.row_ptr ||
        !k->cb.row_ptr || (h->a_nnz && (!k->ca.col || !k->ca.coef)) ||
        (h->b_nnz && (!k->cb.col || !k->cb.coef)))
        NO("the key is missing an array");
    if (k->ca.row_ptr[h->a_rows] != h->a_nnz || k->cb.row_ptr[h->b_rows] != h->b_nnz)
        NO("the matrices' row pointers do not end at their nonzero counts");
    for (uint32_t r = 0; r < h->a_rows; r++)
        if (k->ca.row_ptr[r + 1] - k->ca.row_ptr[r] > UINT32_MAX)
            NO("row %u of A has more than 2^32 nonzeros", r);
    for (uint32_t r = 0; r < h->b_rows; r++)
        if (k->cb.row_ptr[r + 1] - k->cb.row_ptr[r] > UINT32_MAX)
            NO("row %u of B has more than 2^32 nonzeros", r);
#undef NO
    return CZ_OK;
}

cz_status cz_nkey_write(const char *path, const cz_zkey *key, const cz_nkey_meta *meta,
                        char *err, size_t err_len)
{
    cz_nkey_meta def = {0};
    if (!meta)
        meta = &def;
    if (!path || !key)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, path ? path : "(null)", "no key or path");
    cz_nkey_info h;
    cz_status st = key_counts(&h, key, path, err, err_len);
    if (st)
        return st;
    char circuit[CZ_NKEY_NAME_MAX] = {0};
    if (meta->circuit) {
        size_t nl = strlen(meta->circuit);
        if (nl >= CZ_NKEY_NAME_MAX)
            return cz_io_fail(CZ_ERR_ARG, err, err_len, path,
                              "circuit name \"%s\" is longer than %u bytes", meta->circuit,
                              CZ_NKEY_NAME_MAX - 1);
        for (size_t i = 0; i < nl; i++)
            if ((unsigned char)meta->circuit[i] < 0x20 || (unsigned char)meta->circuit[i] > 0x7e)
                return cz_io_fail(CZ_ERR_ARG, err, err_len, path,
                                  "circuit name has a byte outside printable ASCII");
        memcpy(circuit, meta->circuit, nl);
    }
    if (meta->flags & ~CZ_NKEY_FLAG_DEVELOPMENT)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, path, "unknown flags 0x%x", meta->flags);

    /* the header, table filled as the sections are written */
    uint8_t hdr[HDR_BYTES] = {0};
    memcpy(hdr, CZ_NKEY_MAGIC, 8);
    cz_put_le32(hdr + 8, CZ_NKEY_VERSION);
    cz_put_le32(hdr + 12, HDR_BYTES);
    cz_put_le32(hdr + 16, CURVE_BLS12_381);
    cz_put_le32(hdr + 20, meta->flags | (key->cpub ? CZ_NKEY_FLAG_FOLDED_C : 0));
    cz_put_le32(hdr + 24, h.n_vars);
    cz_put_le32(hdr + 28, h.n_public);
    cz_put_le32(hdr + 32, h.domain_size);
    cz_put_le32(hdr + 36, h.n_b);
    cz_put_le32(hdr + 40, h.n_coefs);
    cz_put_le32(hdr + 44, h.a_rows);
    cz_put_le32(hdr + 48, h.b_rows);
    cz_put_le32(hdr + 52, CZ_NKEY_SECTIONS);
    cz_put_le64(hdr + 56, h.a_nnz);
    cz_put_le64(hdr + 64, h.b_nnz);
    if (meta->shape_digest)
        memcpy(hdr + 72, meta->shape_digest, 16);
    memcpy(hdr + 88, circuit, CZ_NKEY_NAME_MAX);
    /* the reader's checks, on what is about to be written */
    char why[256];
    if ((st = parse_fixed(&h, hdr, "", why, sizeof why)) ||
        (st = check_fixed(&h, CURVE_BLS12_381, "", why, sizeof why)))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, path, "cannot write this key%s", why);

    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create %s: %s", tmp,
                        strerror(errno));
        free(tmp);
        return st;
    }
    cz_threadpool *own;
    cz_threadpool *pool = pool_for(meta->threads, &own);
    uint8_t *buf = malloc(CHUNK);
    XXH3_state_t *xx = XXH3_createState();
    if (!buf || !xx)
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    uint64_t off = HDR_BYTES;
    static const uint8_t zeros[8] = {0};
    for (uint32_t id = 1; id <= CZ_NKEY_SECTIONS && !st; id++) {
        size_t ib = item_bytes(id), step = CHUNK / ib;
        uint64_t n = item_count(&h, id);
        XXH3_64bits_reset(xx);
        uint8_t *e = hdr + HDR_FIXED + TABLE_ENTRY * (id - 1);
        cz_put_le32(e, id);
        cz_put_le64(e + 8, off);
        cz_put_le64(e + 16, n * ib);
        for (uint64_t first = 0; first < n && !st; first += step) {
            size_t cnt = n - first < step ? (size_t)(n - first) : step;
            fill_ctx fc = {.key = key, .id = id, .out = buf, .first = first};
            bool points = id == CZ_NKEY_IC || id == CZ_NKEY_A || id == CZ_NKEY_B1 ||
                          id == CZ_NKEY_B2 || id == CZ_NKEY_C || id == CZ_NKEY_H ||
                          id == CZ_NKEY_CPUB;
            cz_parallel_for(points ? pool : NULL, cnt, points ? 1024 : cnt, fill_range, &fc);
            XXH3_64bits_update(xx, buf, cnt * ib);
            st = pwrite_all(fd, buf, cnt * ib, off, tmp, err, err_len);
            off += cnt * ib;
        }
        cz_put_le64(e + 24, XXH3_64bits_digest(xx));
        if (!st && id < CZ_NKEY_SECTIONS && align8(off) > off) {
            st = pwrite_all(fd, zeros, (size_t)(align8(off) - off), off, tmp, err, err_len);
            off = align8(off);
        }
    }
    if (!st) {
        cz_put_le64(hdr + HDR_BYTES - 8, XXH3_64bits(hdr, HDR_BYTES - 8));
        st = pwrite_all(fd, hdr, HDR_BYTES, 0, tmp, err, err_len);
    }
    if (!st && fsync(fd) != 0)
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot sync %s: %s", tmp, strerror(errno));
    if (!st)
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (close(fd) != 0 && !st)
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot close %s: %s", tmp, strerror(errno));
    if (!st && rename(tmp, path) != 0)
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot rename %s to it: %s", tmp,
                        strerror(errno));
    if (st)
        unlink(tmp);
    free(tmp);
    free(buf);
    XXH3_freeState(xx);
    cz_threadpool_destroy(own);
    return st;
}

/* ---- the shape's digest ---- */

void cz_nkey_shape_digest(uint8_t out[16], const cz_shape *s)
{
    XXH3_state_t *x = XXH3_createState();
    if (!x) {
        memset(out, 0, 16);
        return;
    }
    XXH3_128bits_reset(x);
    uint8_t head[48] = "cuzk shape v1";
    cz_put_le32(head + 16, s->n_public);
    cz_put_le64(head + 20, s->n_aux);
    cz_put_le64(head + 28, s->n_constraints);
    cz_put_le32(head + 36, s->n_coefs);
    XXH3_128bits_update(x, head, sizeof head);
    for (int m = 0; m < 3; m++) {
        const cz_shape_matrix *mx = &s->m[m];
        uint8_t nnz[8];
        cz_put_le64(nnz, mx->nnz);
        XXH3_128bits_update(x, nnz, 8);
        if (mx->row_ptr)
            XXH3_128bits_update(x, mx->row_ptr, (s->n_constraints + 1) * sizeof(uint64_t));
        if (mx->nnz) {
            XXH3_128bits_update(x, mx->col, mx->nnz * sizeof(uint32_t));
            XXH3_128bits_update(x, mx->coef, mx->nnz * sizeof(uint16_t));
        }
    }
    for (uint32_t i = 0; i < s->n_coefs; i++) {
        uint8_t b[32];
        cz_fr_to_bytes_le(b, &s->coefs[i]);
        XXH3_128bits_update(x, b, 32);
    }
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(x));
    memcpy(out, c.digest, 16);
    XXH3_freeState(x);
}
