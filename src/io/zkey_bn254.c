/*
 * zkey_bn254.c: snarkjs's Groth16 proving key (.zkey) for BN254 ("bn128").
 *
 * DESIGN. zkey.c's reader for snarkjs's other curve (groth16_bn254.h says
 * why the key is a type of its own). The container is parsed by
 * binfile.c; the header is checked here (protocol 1, q and r BN254's,
 * 32-byte elements, nVars, nPublic and the domain consistent), every
 * section's size against what the header implies, then the coefficients
 * in one pass that allocates nothing (matrix 0 or 1, row inside the
 * domain, signal below nVars, value below r, the highest row past half
 * the domain), the matrices' bytes against a memory limit, and every point
 * once, in parallel: coordinates below p and on the curve (infinity, all
 * zero bytes, allowed), the header's G2 points in the subgroup. The point
 * arrays are the file's bytes where 8-byte aligned, else aligned copies.
 * A key from bytes or with private_copy owns a copy of the file (a mapped
 * file truncated under a long-lived process would fault).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve/curves.h"
#include "groth16/groth16_bn254.h"
#include "io/binfile.h"
#include "util/rng.h"
#include "util/threadpool.h"

enum { ZK_HEADER = 1, ZK_GROTH = 2, ZK_IC = 3, ZK_COEFS = 4, ZK_A = 5, ZK_B1 = 6,
       ZK_B2 = 7, ZK_C = 8, ZK_H = 9, ZK_CONTRIB = 10 };

#define FB 32                    /* bytes of an Fp or Fr element */
#define G1B (2 * FB)
#define G2B (4 * FB)
/* n8q, q, n8r, r, nVars, nPublic, domainSize, then alpha1, beta1, beta2,
   gamma2, delta1, delta2 */
#define GROTH_HEADER_BYTES (4 + FB + 4 + FB + 12 + 3 * G1B + 3 * G2B)

static const cz_curve *bn(void) { return cz_curve_get(CZ_CURVE_BN254); }

bool cz_zkey_bytes_are_bn254(const uint8_t *data, size_t len)
{
    cz_zkey_info info;
    if (!data)
        return false;
    /* zkey.c reads the header and names a BN254 key (info.bn254) */
    cz_zkey_read_info(&info, data, len, "zkey", NULL, 0);
    return info.bn254;
}

bool cz_zkey_file_is_bn254(const char *path)
{
    int fd;
    uint64_t size;
    if (!path || cz_file_open(&fd, &size, path, NULL, 0))
        return false;
    cz_zkey_info info;
    uint64_t mem;
    cz_zkey_peek_fd(&info, &mem, fd, size, path, NULL, 0);
    close(fd);
    return info.bn254;
}

/* ---- points ---- */

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

static cz_status point_at(const uint8_t *p, int g2)
{
    if (g2) {
        cz_bn254_g2_affine q;
        return cz_bn254_g2_from_snarkjs(&q, p);
    }
    cz_bn254_g1_affine q;
    return cz_bn254_g1_from_snarkjs(&q, p);
}

static void check_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    check_ctx *ctx = vctx;
    size_t sz = ctx->g2 ? G2B : G1B;
    for (size_t i = begin; i < end; i++) {
        if (atomic_load_explicit(&ctx->first_bad, memory_order_relaxed) < i)
            return;
        if (point_at(ctx->base + i * sz, ctx->g2) != CZ_OK) {
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

static cz_status header_point(void *out, const uint8_t *p, int g2, const char *what,
                              const char *name, char *err, size_t err_len)
{
    cz_status st = g2 ? cz_bn254_g2_from_snarkjs(out, p) : cz_bn254_g1_from_snarkjs(out, p);
    if (st == CZ_ERR_FORMAT)
        return cz_io_fail(st, err, err_len, name, "header point %s has a coordinate >= p", what);
    if (st)
        return cz_io_fail(st, err, err_len, name, "header point %s is not on the curve", what);
    if (g2 && !cz_bn254_g2_affine_in_subgroup(out))
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, name,
                          "header point %s is not in the prime-order subgroup", what);
    return CZ_OK;
}

/* ---- the key ---- */

static void csr_free(cz_bn254_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    if (m->val) {
        cz_wipe(m->val, m->nnz * sizeof *m->val);
        free(m->val);
    }
    memset(m, 0, sizeof *m);
}

void cz_bn254_zkey_free(cz_bn254_zkey *key)
{
    if (!key)
        return;
    for (int i = 0; i < 6; i++)
        free(key->copies[i]);
    csr_free(&key->qa);
    csr_free(&key->qb);
    cz_blob_release(&key->blob);
    free(key);
}

static cz_status expect_size(const cz_bin_section *s, uint64_t want, const char *what,
                             const char *name, char *err, size_t err_len)
{
    if (s->size != want)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section %u (%s) has %llu bytes, expected %llu", s->id, what,
                          (unsigned long long)s->size, (unsigned long long)want);
    return CZ_OK;
}

static bool bytes_eq_limbs(const uint8_t *b, const uint64_t *m)
{
    for (int i = 0; i < 4; i++)
        if (cz_le64(b + 8 * i) != m[i])
            return false;
    return true;
}

static cz_status read_header(cz_bn254_zkey *key, const cz_binfile *f, char *err, size_t err_len)
{
    const char *name = f->name;
    const cz_bin_section *s;
    cz_status st;
    if ((st = cz_binfile_section(&s, f, ZK_HEADER, "header", err, err_len)) ||
        (st = expect_size(s, 4, "header", name, err, err_len)))
        return st;
    uint32_t protocol = cz_le32(f->data + s->offset);
    if (protocol != 1)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "protocol %u is not Groth16 (1)",
                          protocol);
    if ((st = cz_binfile_section(&s, f, ZK_GROTH, "Groth16 header", err, err_len)))
        return st;
    const uint8_t *h = f->data + s->offset;
    if (s->size < 4 + FB || cz_le32(h) != FB || !bytes_eq_limbs(h + 4, bn()->p))
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "the base field is not BN254's (bn128) q");
    if ((st = expect_size(s, GROTH_HEADER_BYTES, "Groth16 header", name, err, err_len)))
        return st;
    if (cz_le32(h + 4 + FB) != FB || !bytes_eq_limbs(h + 8 + FB, bn()->r))
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "the scalar field is not BN254's (bn128) r");
    const uint8_t *q = h + 8 + 2 * FB;
    key->n_vars = cz_le32(q);
    key->n_public = cz_le32(q + 4);
    key->domain_size = cz_le32(q + 8);
    if (key->n_vars < 1 || key->n_public > key->n_vars - 1)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "nPublic %u does not fit in nVars %u",
                          key->n_public, key->n_vars);
    uint32_t n = key->domain_size;
    if (n < 2 || (n & (n - 1)) != 0 || n > (1u << 28))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is not a power of two in [2, 2^28]", n);
    if (key->n_public + 1 > n)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is smaller than nPublic + 1 = %u", n, key->n_public + 1);
    key->log_n = 0;
    while ((1u << key->log_n) < n)
        key->log_n++;
    const uint8_t *pt = q + 12;
    if ((st = header_point(&key->alpha1, pt, 0, "alpha1", name, err, err_len)) ||
        (st = header_point(&key->beta1, pt + G1B, 0, "beta1", name, err, err_len)) ||
        (st = header_point(&key->beta2, pt + 2 * G1B, 1, "beta2", name, err, err_len)) ||
        (st = header_point(&key->gamma2, pt + 2 * G1B + G2B, 1, "gamma2", name, err, err_len)) ||
        (st = header_point(&key->delta1, pt + 2 * G1B + 2 * G2B, 0, "delta1", name, err,
                           err_len)) ||
        (st = header_point(&key->delta2, pt + 3 * G1B + 2 * G2B, 1, "delta2", name, err,
                           err_len)))
        return st;
    if (cz_binfile_section(&s, f, ZK_CONTRIB, "contributions", NULL, 0) == CZ_OK && s->size >= 68)
        key->n_contributions = cz_le32(f->data + s->offset + 64);
    return CZ_OK;
}

static uint64_t phys_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

static cz_status read_coefs(cz_bn254_zkey *key, const cz_binfile *f, const cz_zkey_load_opts *o,
                            char *err, size_t err_len)
{
    const char *name = f->name;
    const cz_bin_section *s;
    cz_status st = cz_binfile_section(&s, f, ZK_COEFS, "coefficients", err, err_len);
    if (st)
        return st;
    const uint8_t *p = f->data + s->offset;
    if (s->size < 4)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 4 (coefficients) has %llu bytes, too short",
                          (unsigned long long)s->size);
    uint32_t count = cz_le32(p);
    if ((st = expect_size(s, 4 + (uint64_t)count * (12 + FB), "coefficients", name, err, err_len)))
        return st;
    key->n_coefs = count;
    const uint32_t n = key->domain_size;
    uint64_t nnz[2] = {0, 0};
    uint32_t max_row = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * (12 + FB);
        uint32_t mat = cz_le32(r), row = cz_le32(r + 4), sig = cz_le32(r + 8);
        if (mat > 1)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: matrix %u is not 0 (A) or 1 (B)", i, mat);
        if (row >= n)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: row %u is outside the domain of %u", i, row, n);
        if (sig >= key->n_vars)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "coefficient %u: signal %u >= nVars %u", i, sig, key->n_vars);
        if (!cz_le_bytes_lt(r + 12, bn()->r, 4))
            return cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                              "coefficient %u: value is not below r", i);
        nnz[mat]++;
        if (row > max_row)
            max_row = row;
    }
    /* snarkjs writes an A entry at row nConstraints + i for every public
       input and the constant, and takes the smallest power of two domain
       above nConstraints + nPublic + 1: the highest row reaches past half */
    if (n > 2 && (count == 0 || max_row < n / 2))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is larger than the circuit needs (its highest "
                          "coefficient row is %u, below half the domain): not a key made by "
                          "snarkjs", n, count ? max_row : 0);
    key->qa.n_rows = key->qb.n_rows = n;
    key->qa.nnz = nnz[0];
    key->qb.nnz = nnz[1];
    if (o->no_matrices)
        return CZ_OK;
    uint64_t bytes = 2 * ((uint64_t)n + 1) * sizeof(uint64_t) +
                     (nnz[0] + nnz[1]) * (sizeof(uint32_t) + sizeof(cz_bn254_fr));
    uint64_t limit = o->mem_limit ? o->mem_limit : phys_ram();
    if (bytes > limit || bytes > SIZE_MAX / 2)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name,
                          "its A and B matrices need %llu MiB, more than the %llu MiB allowed",
                          (unsigned long long)(bytes >> 20), (unsigned long long)(limit >> 20));
    cz_bn254_csr *m[2] = {&key->qa, &key->qb};
    for (int k = 0; k < 2; k++) {
        m[k]->row_ptr = calloc((size_t)n + 1, sizeof *m[k]->row_ptr);
        m[k]->col = malloc((nnz[k] ? nnz[k] : 1) * sizeof *m[k]->col);
        m[k]->val = malloc((nnz[k] ? nnz[k] : 1) * sizeof *m[k]->val);
        if (!m[k]->row_ptr || !m[k]->col || !m[k]->val)
            return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * (12 + FB);
        m[cz_le32(r)]->row_ptr[cz_le32(r + 4) + 1]++;
    }
    for (int k = 0; k < 2; k++)
        for (uint32_t r = 0; r < n; r++)
            m[k]->row_ptr[r + 1] += m[k]->row_ptr[r];
    /* fill in file order with row_ptr[row] as the row's cursor, then shift
       the ends back into starts */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * (12 + FB);
        uint32_t mat = cz_le32(r), row = cz_le32(r + 4);
        uint64_t at = m[mat]->row_ptr[row]++;
        cz_bn254_fr v;
        uint64_t limbs[4];
        for (int l = 0; l < 4; l++)
            v.l[l] = cz_le64(r + 12 + 8 * l);
        /* stored coef R^2; a Montgomery reduction gives coef R = mont(coef) */
        cz_bn254_fr_to_limbs(limbs, &v);
        memcpy(m[mat]->val[at].l, limbs, sizeof limbs);
        m[mat]->col[at] = cz_le32(r + 8);
    }
    for (int k = 0; k < 2; k++) {
        for (uint32_t r = n; r-- > 1;)
            m[k]->row_ptr[r] = m[k]->row_ptr[r - 1];
        m[k]->row_ptr[0] = 0;
    }
    return CZ_OK;
}

/* The points of a section: into the blob when aligned, else a copy. */
static cz_status section_points(const void **out, cz_bn254_zkey *key, const cz_bin_section *s,
                                int slot, const char *name, char *err, size_t err_len)
{
    const uint8_t *p = key->blob.data + s->offset;
    *out = NULL;
    if (s->size == 0)
        return CZ_OK;
    if (((uintptr_t)p & 7) == 0) {
        *out = p;
        return CZ_OK;
    }
    void *c = aligned_alloc(64, (s->size + 63) & ~(size_t)63);
    if (!c)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory copying section %u",
                          s->id);
    memcpy(c, p, s->size);
    key->copies[slot] = c;
    *out = c;
    return CZ_OK;
}

static cz_status load_key(cz_bn254_zkey *key, const char *name, const cz_zkey_load_opts *o,
                          char *err, size_t err_len)
{
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, key->blob.data, key->blob.len, name, "zkey", 1, err,
                                    err_len);
    if (st)
        return st;
    if ((st = read_header(key, &f, err, err_len)))
        goto out;
    static const struct { int id; const char *what; int g2; } secs[] = {
        {ZK_IC, "IC points", 0}, {ZK_A, "A points", 0}, {ZK_B1, "B1 points", 0},
        {ZK_B2, "B2 points", 1}, {ZK_C, "C points", 0}, {ZK_H, "H points", 0},
    };
    const uint64_t counts[6] = {
        (uint64_t)key->n_public + 1, key->n_vars, key->n_vars, key->n_vars,
        (uint64_t)key->n_vars - key->n_public - 1, key->domain_size,
    };
    const void **dst[6] = {
        (const void **)&key->ic, (const void **)&key->a, (const void **)&key->b1,
        (const void **)&key->b2, (const void **)&key->c, (const void **)&key->h,
    };
    const cz_bin_section *ps[6];
    for (int i = 0; i < 6; i++)
        if ((st = cz_binfile_section(&ps[i], &f, (uint32_t)secs[i].id, secs[i].what, err,
                                     err_len)) ||
            (st = expect_size(ps[i], counts[i] * (secs[i].g2 ? G2B : G1B), secs[i].what, name,
                              err, err_len)))
            goto out;
    if ((st = read_coefs(key, &f, o, err, err_len)))
        goto out;
    cz_threadpool *pool = NULL, *own = NULL;
    if (o->threads == 0)
        pool = cz_threadpool_global();
    else if (o->threads > 1)
        pool = own = cz_threadpool_create((int)o->threads);
    for (int i = 0; i < 6 && !st; i++) {
        if ((st = section_points(dst[i], key, ps[i], i, name, err, err_len)))
            break;
        size_t bad = *dst[i] ? check_points(pool, *dst[i], counts[i], secs[i].g2) : SIZE_MAX;
        if (bad != SIZE_MAX) {
            const uint8_t *pt = (const uint8_t *)*dst[i] + bad * (secs[i].g2 ? G2B : G1B);
            bool range = point_at(pt, secs[i].g2) != CZ_ERR_FORMAT;
            st = cz_io_fail(range ? CZ_ERR_NOT_ON_CURVE : CZ_ERR_FORMAT, err, err_len, name,
                            "section %d (%s): point %zu %s", secs[i].id, secs[i].what, bad,
                            range ? "is not on the curve" : "has a coordinate >= p");
        }
    }
    cz_threadpool_destroy(own);
out:
    cz_binfile_free(&f);
    return st;
}

static cz_status finish(cz_bn254_zkey **out, cz_bn254_zkey *key, const char *name,
                        const cz_zkey_load_opts *o, char *err, size_t err_len)
{
    cz_status st = load_key(key, name, o, err, err_len);
    if (st) {
        cz_bn254_zkey_free(key);
        return st;
    }
    *out = key;
    return CZ_OK;
}

cz_status cz_bn254_zkey_load_ex(cz_bn254_zkey **out, const char *path,
                                const cz_zkey_load_opts *opts, char *err, size_t err_len)
{
    if (!out || !path)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "zkey", "NULL argument");
    *out = NULL;
    cz_zkey_load_opts def = {0};
    if (!opts)
        opts = &def;
    cz_bn254_zkey *key = calloc(1, sizeof *key);
    if (!key)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    cz_status st;
    if (opts->private_copy) {
        st = cz_blob_read(&key->blob, path, opts->max_file_bytes, err, err_len);
        if (st == CZ_ERR_RANGE)
            st = CZ_ERR_NOMEM;
    } else {
        st = cz_blob_map(&key->blob, path, err, err_len);
        if (!st && opts->max_file_bytes && key->blob.len > opts->max_file_bytes)
            st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, path,
                            "%zu bytes, more than the %llu allowed", key->blob.len,
                            (unsigned long long)opts->max_file_bytes);
    }
    if (st) {
        cz_bn254_zkey_free(key);
        return st;
    }
    return finish(out, key, path, opts, err, err_len);
}

cz_status cz_bn254_zkey_load_bytes(cz_bn254_zkey **out, const void *data, size_t len,
                                   const char *name, unsigned threads, char *err,
                                   size_t err_len)
{
    if (!name)
        name = "(zkey bytes)";
    if (!out || (!data && len))
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL argument");
    *out = NULL;
    cz_bn254_zkey *key = calloc(1, sizeof *key);
    void *copy = aligned_alloc(64, (len + 64) & ~(size_t)63);
    if (!key || !copy) {
        free(key);
        free(copy);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    if (len)
        memcpy(copy, data, len);
    key->blob.data = copy;
    key->blob.len = len;
    key->blob.owned = copy;
    cz_zkey_load_opts o = {.threads = threads};
    return finish(out, key, name, &o, err, err_len);
}

cz_status cz_bn254_vk_from_zkey(cz_bn254_vk **out, const cz_bn254_zkey *key)
{
    *out = NULL;
    cz_bn254_vk *vk = calloc(1, sizeof *vk);
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
