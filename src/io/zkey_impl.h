/*
 * zkey_impl.h: the .zkey walk and checks, written once, compiled once per
 * curve (zkey.c for BLS12-381, zkey_bn254.c for BN254).
 *
 * DESIGN. As the curve layer (docs/CURVES.md), the reader of snarkjs's
 * Groth16 key is one text over macros: what differs between the curves is
 * the size of a point, how a point's bytes are checked, the scalar prime
 * and the key's types. Each curve's file defines the macros below and
 * includes this header; every function here is static, so each file gets
 * its own copy and the checks fold each curve's constants. The header
 * section (whose fields and messages differ: the BLS12-381 reader names a
 * BN254 key) stays in each file; what follows it is here: the domain and
 * nPublic checks, the header points, every section's size against what the
 * header implies, the coefficient pass (validate and count without
 * allocating, the matrices' bytes against a memory limit, then the CSR
 * fill), the point sections (aligned in place, else copied) checked in
 * parallel, and the verification key taken from a loaded key.
 *
 * The including file defines:
 *   ZK_KEY, ZK_VK, ZK_CSR, ZK_FR, ZK_OPTS   the key, vk, matrix, Fr and
 *                                           load-option types (ZK_OPTS has
 *                                           threads, mem_limit, no_matrices)
 *   ZK_FR_TO_LIMBS(limbs, v)                Montgomery reduction of v
 *   ZK_R                                    r as 4 little-endian limbs
 *   ZK_G1B, ZK_G2B                          bytes of a G1, G2 point
 *   ZK_MAX_LOG                              the largest domain, 2^ZK_MAX_LOG
 *   ZK_POINT_CHECK(p, g2)                   a section point's bytes: CZ_OK,
 *                                           CZ_ERR_FORMAT (a coordinate >= p),
 *                                           else not on the curve
 *   ZK_HEADER_POINT(out, p, g2)             decode a header point, status as
 *                                           ZK_POINT_CHECK's
 *   ZK_IN_SUBGROUP(pt, g2)                  a decoded header point's subgroup test
 *   ZK_COPY_ALL(key), ZK_SLIDE(key)         copy every point section; slide an
 *                                           unaligned one 4 bytes down in owned
 *                                           memory instead of copying it
 *   ZK_SET_N_COEFS(key, count)              note the coefficient count
 *   ZK_MAKERS                               who makes keys ("snarkjs", ...)
 *   ZK_VK_FROM_ZKEY                         the name of the vk function
 */
#ifndef ZK_KEY
#error "define the ZK_ macros before including zkey_impl.h"
#endif

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/binfile.h"
#include "util/mem.h"
#include "util/threadpool.h"

enum { ZK_HEADER = 1, ZK_GROTH = 2, ZK_IC = 3, ZK_COEFS = 4, ZK_A = 5, ZK_B1 = 6,
       ZK_B2 = 7, ZK_C = 8, ZK_H = 9, ZK_CONTRIB = 10 };

/* bytes of a coefficient record: matrix, row, signal, value */
#define ZK_COEF_BYTES (12 + 32)

/* The six point sections, their names in messages and their group. */
static const struct { int id; const char *what; int g2; } zk_secs[6] = {
    {ZK_IC, "IC points", 0}, {ZK_A, "A points", 0}, {ZK_B1, "B1 points", 0},
    {ZK_B2, "B2 points", 1}, {ZK_C, "C points", 0}, {ZK_H, "H points", 0},
};

/* How many points each section holds, from the header's facts. */
static void zk_counts(uint64_t counts[6], uint32_t n_vars, uint32_t n_public,
                      uint32_t domain_size)
{
    counts[0] = (uint64_t)n_public + 1;
    counts[1] = counts[2] = counts[3] = n_vars;
    counts[4] = (uint64_t)n_vars - n_public - 1;
    counts[5] = domain_size;
}

static size_t zk_point_bytes(int g2) { return g2 ? ZK_G2B : ZK_G1B; }

/* ---- point validation ---- */

typedef struct {
    const uint8_t *base;
    int g2;
    _Atomic size_t first_bad; /* SIZE_MAX: none */
} check_ctx;

static void atomic_min(_Atomic size_t *a, size_t v)
{
    size_t cur = atomic_load(a);
    while (v < cur && !atomic_compare_exchange_weak(a, &cur, v))
        ;
}

static void check_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    check_ctx *ctx = vctx;
    size_t sz = zk_point_bytes(ctx->g2);
    for (size_t i = begin; i < end; i++) {
        if (atomic_load_explicit(&ctx->first_bad, memory_order_relaxed) < i)
            return;
        if (ZK_POINT_CHECK(ctx->base + i * sz, ctx->g2) != CZ_OK) {
            atomic_min(&ctx->first_bad, i);
            return;
        }
    }
}

/* SIZE_MAX if every point is fine, else the index of the first bad one. */
static size_t check_points(cz_threadpool *pool, const uint8_t *base, size_t n, int g2)
{
    check_ctx ctx = {.base = base, .g2 = g2};
    atomic_init(&ctx.first_bad, SIZE_MAX);
    cz_parallel_for(pool, n, 1024, check_range, &ctx);
    return atomic_load(&ctx.first_bad);
}

static cz_status read_header_point(void *out, const uint8_t *p, int g2, const char *what,
                                   const char *name, char *err, size_t err_len)
{
    cz_status st = ZK_HEADER_POINT(out, p, g2);
    if (st == CZ_ERR_FORMAT)
        return cz_io_fail(st, err, err_len, name, "header point %s has a coordinate >= p", what);
    if (st)
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, name,
                          "header point %s is not on the curve", what);
    if (!ZK_IN_SUBGROUP(out, g2))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, name,
                          "header point %s is not in the prime-order subgroup", what);
    return CZ_OK;
}

/* alpha1, beta1, beta2, gamma2, delta1, delta2 as the Groth16 header
   holds them, from pt on. */
static cz_status read_header_points(ZK_KEY *key, const uint8_t *pt, const char *name, char *err,
                                    size_t err_len)
{
    cz_status st;
    if ((st = read_header_point(&key->alpha1, pt, 0, "alpha1", name, err, err_len)) ||
        (st = read_header_point(&key->beta1, pt + ZK_G1B, 0, "beta1", name, err, err_len)) ||
        (st = read_header_point(&key->beta2, pt + 2 * ZK_G1B, 1, "beta2", name, err, err_len)) ||
        (st = read_header_point(&key->gamma2, pt + 2 * ZK_G1B + ZK_G2B, 1, "gamma2", name, err,
                                err_len)) ||
        (st = read_header_point(&key->delta1, pt + 2 * ZK_G1B + 2 * ZK_G2B, 0, "delta1", name,
                                err, err_len)) ||
        (st = read_header_point(&key->delta2, pt + 3 * ZK_G1B + 2 * ZK_G2B, 1, "delta2", name,
                                err, err_len)))
        return st;
    return CZ_OK;
}

/* ---- sizes ---- */

static cz_status expect_size(const cz_bin_section *s, uint64_t want, const char *what,
                             const char *name, char *err, size_t err_len)
{
    if (s->size != want)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section %u (%s) has %llu bytes, expected %llu", s->id, what,
                          (unsigned long long)s->size, (unsigned long long)want);
    return CZ_OK;
}

/* The header's nVars, nPublic and domain size, consistent. */
static cz_status check_shape(uint32_t n_vars, uint32_t n_public, uint32_t n, const char *name,
                             char *err, size_t err_len)
{
    if (n_vars < 1 || n_public > n_vars - 1)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "nPublic %u does not fit in nVars %u", n_public, n_vars);
    if (n < 2 || (n & (n - 1)) != 0 || n > (1u << ZK_MAX_LOG))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is not a power of two in [2, 2^%d]", n, ZK_MAX_LOG);
    if (n_public + 1 > n)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is smaller than nPublic + 1 = %u", n, n_public + 1);
    return CZ_OK;
}

static uint64_t phys_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

/* two row pointer arrays of n + 1 entries, a column index and a value per
   nonzero */
static uint64_t zk_matrix_bytes(uint32_t domain_size, uint64_t nnz)
{
    return 2 * ((uint64_t)domain_size + 1) * sizeof(uint64_t) +
           nnz * (sizeof(uint32_t) + sizeof(ZK_FR));
}

/* ---- the coefficients ---- */

/* One pass over the coefficient records, allocating nothing: every record
   valid, the nonzeros of each matrix counted, and the highest row. */
static cz_status scan_coefs(uint64_t nnz[2], uint32_t *max_row, const uint8_t *p, uint32_t count,
                            uint32_t n, uint32_t n_vars, const char *name, char *err,
                            size_t err_len)
{
    nnz[0] = nnz[1] = 0;
    *max_row = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * ZK_COEF_BYTES;
        uint32_t mat = cz_le32(r), row = cz_le32(r + 4), sig = cz_le32(r + 8);
        if (mat > 1)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: matrix %u is not 0 (A) or 1 (B)", i, mat);
        if (row >= n)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: row %u is outside the domain of %u", i, row, n);
        if (sig >= n_vars)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: signal %u >= nVars %u", i, sig, n_vars);
        if (!cz_le_bytes_lt(r + 12, ZK_R, 4))
            return cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                              "coefficient %u: value is not below r", i);
        nnz[mat]++;
        if (row > *max_row)
            *max_row = row;
    }
    /* snarkjs (and cuzk setup) write an A entry at row nConstraints + i
       for every public input i and the constant, and pick the smallest
       power of two domain above nConstraints + nPublic: the highest row
       always reaches past half the domain. */
    if (n > 2 && (count == 0 || *max_row < n / 2))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is larger than the circuit needs (its highest "
                          "coefficient row is %u, below half the domain): not a key made by "
                          ZK_MAKERS, n, count ? *max_row : 0);
    return CZ_OK;
}

/* Build both CSR matrices from the coefficient records: validate and count
   without allocating, check the bytes against the limit, then count per
   row and fill, with the row pointers as the fill cursors. */
static cz_status read_coefs(ZK_KEY *key, const cz_bin_section *s, const ZK_OPTS *o,
                            const char *name, char *err, size_t err_len)
{
    const uint8_t *p = key->blob.data + s->offset;
    if (s->size < 4)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 4 (coefficients) has %llu bytes, too short",
                          (unsigned long long)s->size);
    uint32_t count = cz_le32(p);
    cz_status st = expect_size(s, 4 + (uint64_t)count * ZK_COEF_BYTES, "coefficients", name, err,
                               err_len);
    if (st)
        return st;
    ZK_SET_N_COEFS(key, count);
    const uint32_t n = key->domain_size;
    uint64_t nnz[2];
    uint32_t max_row;
    if ((st = scan_coefs(nnz, &max_row, p, count, n, key->n_vars, name, err, err_len)))
        return st;
    key->qa.nnz = nnz[0];
    key->qb.nnz = nnz[1];
    key->qa.n_rows = key->qb.n_rows = n;
    if (o->no_matrices)
        return CZ_OK;
    uint64_t bytes = zk_matrix_bytes(n, nnz[0] + nnz[1]);
    uint64_t limit = o->mem_limit ? o->mem_limit : phys_ram();
    if (bytes > limit || bytes > SIZE_MAX / 2)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name,
                          "its A and B matrices need %llu MiB, more than the %llu MiB allowed",
                          (unsigned long long)(bytes >> 20), (unsigned long long)(limit >> 20));
    ZK_CSR *m[2] = {&key->qa, &key->qb};
    for (int k = 0; k < 2; k++) {
        m[k]->row_ptr = calloc((size_t)n + 1, sizeof *m[k]->row_ptr);
        m[k]->col = cz_alloc_big(nnz[k] * sizeof *m[k]->col);
        m[k]->val = cz_alloc_big(nnz[k] * sizeof *m[k]->val);
        if (!m[k]->row_ptr || !m[k]->col || !m[k]->val)
            return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * ZK_COEF_BYTES;
        m[cz_le32(r)]->row_ptr[cz_le32(r + 4) + 1]++;
    }
    for (int k = 0; k < 2; k++)
        for (uint32_t r = 0; r < n; r++)
            m[k]->row_ptr[r + 1] += m[k]->row_ptr[r];
    /* fill in file order: row_ptr[row] is the next free slot of the row;
       afterwards row_ptr[r] is the end of row r, shifted back below */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * ZK_COEF_BYTES;
        uint32_t mat = cz_le32(r), row = cz_le32(r + 4), sig = cz_le32(r + 8);
        uint64_t at = m[mat]->row_ptr[row]++;
        ZK_FR v;
        for (int l = 0; l < 4; l++)
            v.l[l] = cz_le64(r + 12 + 8 * l);
        /* stored coef*R^2; Montgomery reduction gives coef*R = mont(coef) */
        uint64_t limbs[4];
        ZK_FR_TO_LIMBS(limbs, &v);
        memcpy(m[mat]->val[at].l, limbs, sizeof limbs);
        m[mat]->col[at] = sig;
    }
    for (int k = 0; k < 2; k++) {
        for (uint32_t r = n; r-- > 1;)
            m[k]->row_ptr[r] = m[k]->row_ptr[r - 1];
        m[k]->row_ptr[0] = 0;
    }
    return CZ_OK;
}

/* ---- the point sections ---- */

/* Points of a section: a pointer into the blob when aligned, else an
   aligned copy kept in key->copies[slot]. */
static cz_status section_points(const void **out, ZK_KEY *key, const cz_bin_section *s,
                                int slot, const char *name, char *err, size_t err_len)
{
    const uint8_t *p = key->blob.data + s->offset;
    *out = NULL;
    if (s->size == 0)
        return CZ_OK;
    if (((uintptr_t)p & 7) == 0 && !ZK_COPY_ALL(key)) {
        *out = p;
        return CZ_OK;
    }
    if (ZK_SLIDE(key) && !ZK_COPY_ALL(key) && ((uintptr_t)p & 7) == 4 && s->offset >= 12) {
        /* Our own copy: slide the data over the last 4 bytes of its section
           header (read already, never again). */
        uint8_t *q = (uint8_t *)key->blob.owned + s->offset - 4;
        memmove(q, q + 4, s->size);
        *out = q;
        return CZ_OK;
    }
    void *c = cz_alloc_big(s->size);
    if (!c)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory copying section %u",
                          s->id);
    memcpy(c, p, s->size);
    key->copies[slot] = c;
    *out = c;
    return CZ_OK;
}

/* Everything after the Groth16 header (key's n_vars, n_public and
   domain_size set): every point section's size, the coefficients, then
   every point, in parallel. */
static cz_status load_sections(ZK_KEY *key, const cz_binfile *f, const ZK_OPTS *o,
                               const char *name, char *err, size_t err_len)
{
    cz_status st;
    uint64_t counts[6];
    zk_counts(counts, key->n_vars, key->n_public, key->domain_size);
    const void **dst[6] = {
        (const void **)&key->ic, (const void **)&key->a, (const void **)&key->b1,
        (const void **)&key->b2, (const void **)&key->c, (const void **)&key->h,
    };
    const cz_bin_section *ps[6];
    for (int i = 0; i < 6; i++)
        if ((st = cz_binfile_section(&ps[i], f, (uint32_t)zk_secs[i].id, zk_secs[i].what, err,
                                     err_len)) ||
            (st = expect_size(ps[i], counts[i] * zk_point_bytes(zk_secs[i].g2), zk_secs[i].what,
                              name, err, err_len)))
            return st;
    const cz_bin_section *cs;
    if ((st = cz_binfile_section(&cs, f, ZK_COEFS, "coefficients", err, err_len)) ||
        (st = read_coefs(key, cs, o, name, err, err_len)))
        return st;
    cz_threadpool *pool = NULL, *own = NULL;
    if (o->threads == 0)
        pool = cz_threadpool_global();
    else if (o->threads > 1)
        pool = own = cz_threadpool_create((int)o->threads);
    for (int i = 0; i < 6 && !st; i++) {
        if ((st = section_points(dst[i], key, ps[i], i, name, err, err_len)))
            break;
        int g2 = zk_secs[i].g2;
        size_t bad = *dst[i] ? check_points(pool, *dst[i], counts[i], g2) : SIZE_MAX;
        if (bad != SIZE_MAX) {
            const uint8_t *pt = (const uint8_t *)*dst[i] + bad * zk_point_bytes(g2);
            bool range = ZK_POINT_CHECK(pt, g2) != CZ_ERR_FORMAT;
            st = cz_io_fail(range ? CZ_ERR_NOT_ON_CURVE : CZ_ERR_FORMAT, err, err_len, name,
                            "section %d (%s): point %zu %s", zk_secs[i].id, zk_secs[i].what, bad,
                            range ? "is not on the curve" : "has a coordinate >= p");
        }
    }
    cz_threadpool_destroy(own);
    return st;
}

/* ---- the verification key of a loaded key ---- */

cz_status ZK_VK_FROM_ZKEY(ZK_VK **out, const ZK_KEY *key)
{
    *out = NULL;
    ZK_VK *vk = calloc(1, sizeof *vk);
    if (!vk)
        return CZ_ERR_NOMEM;
    vk->ic = malloc(((size_t)key->n_public + 1) * sizeof *vk->ic);
    if (!vk->ic) {
        free(vk);
        return CZ_ERR_NOMEM;
    }
    memcpy(vk->ic, key->ic, ((size_t)key->n_public + 1) * sizeof *vk->ic);
    vk->n_public = key->n_public;
    vk->alpha1 = key->alpha1;
    vk->beta2 = key->beta2;
    vk->gamma2 = key->gamma2;
    vk->delta2 = key->delta2;
    *out = vk;
    return CZ_OK;
}
