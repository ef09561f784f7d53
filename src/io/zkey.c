/*
 * zkey.c: the snarkjs Groth16 proving key (.zkey) reader.
 *
 * DESIGN. The file is mapped, its container parsed (binfile.c), the
 * header checked (protocol 1, BLS12-381 q and r; a BN254 key is named as
 * such), every section size compared with what the header implies, and
 * every point checked once: coordinates < p and on the curve (infinity,
 * all zero bytes, allowed), in parallel. Points are not converted: the
 * file's affine little-endian Montgomery coordinates are cz_g1_affine /
 * cz_g2_affine bytes, so the arrays point into the mapping, or into an
 * aligned copy when a section's data is not 8-byte aligned (section
 * headers are 12 bytes, so consecutive point sections alternate between
 * 0 and 4 mod 8; about half of them are copied). A key read into memory
 * it owns (cz_zkey_load_fd, the daemon: a mapping would die with SIGBUS
 * when the file is truncated under it) moves such a section's data 4
 * bytes down instead, over its own spent section header, so that key
 * costs its file size and the matrices, nothing more.
 * Sizes are checked before memory is taken: every section's size against
 * what the header implies, then one pass over the coefficients (no
 * allocation) that validates them and finds the highest row, which must
 * reach past half the domain (snarkjs and cuzk setup pick the smallest
 * power of two above the constraints and public inputs, whose rows are
 * always there), so a header that claims a huge domain over a small
 * circuit is refused; and the matrices' bytes against a memory limit.
 * The coefficient section (values coef*R^2 mod r, R = 2^256) becomes two
 * CSR matrices whose values are coef in cuzk Montgomery form, coef*R:
 * that is one Montgomery reduction of the stored integer (x*R^-1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "field/constants.h"
#include "groth16/groth16.h"
#include "groth16/native.h"
#include "io/binfile.h"
#include "util/threadpool.h"

static const uint64_t fp_p[6] = CZ_FP_P;
static const uint64_t fr_p[4] = CZ_FR_P;
/* BN254 base field q, to name a BN254 key in the message */
static const uint64_t bn254_q[4] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                    0xb85045b68181585dULL, 0x30644e72e131a029ULL};

enum { ZK_HEADER = 1, ZK_GROTH = 2, ZK_IC = 3, ZK_COEFS = 4, ZK_A = 5, ZK_B1 = 6,
       ZK_B2 = 7, ZK_C = 8, ZK_H = 9, ZK_CONTRIB = 10 };

#define G1_BYTES 96
#define G2_BYTES 192
#define GROTH_HEADER_BYTES (4 + 48 + 4 + 32 + 12 + 3 * G1_BYTES + 3 * G2_BYTES)

/* ---- point validation ---- */

static bool fp_bytes_ok(const uint8_t *b) { return cz_le_bytes_lt(b, fp_p, 6); }

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
    for (size_t i = begin; i < end; i++) {
        if (atomic_load_explicit(&ctx->first_bad, memory_order_relaxed) < i)
            return;
        bool ok;
        if (ctx->g2) {
            const uint8_t *p = ctx->base + i * G2_BYTES;
            ok = fp_bytes_ok(p) && fp_bytes_ok(p + 48) && fp_bytes_ok(p + 96) && fp_bytes_ok(p + 144);
            if (ok) {
                cz_g2_affine q;
                memcpy(&q, p, sizeof q);
                ok = cz_g2_affine_is_on_curve(&q);
            }
        } else {
            const uint8_t *p = ctx->base + i * G1_BYTES;
            ok = fp_bytes_ok(p) && fp_bytes_ok(p + 48);
            if (ok) {
                cz_g1_affine q;
                memcpy(&q, p, sizeof q);
                ok = cz_g1_affine_is_on_curve(&q);
            }
        }
        if (!ok) {
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

/* ---- the key ---- */

void cz_zkey_free(cz_zkey *key)
{
    if (!key)
        return;
    for (int i = 0; i < 6; i++)
        free(key->copies[i]);
    cz_csr_free(&key->qa);
    cz_csr_free(&key->qb);
    cz_cmat_free(&key->ca);
    cz_cmat_free(&key->cb);
    free(key->coefs);
    free(key->b_idx);
    cz_blob_release(&key->blob);
    free(key);
}

/* Points of a section: a pointer into the blob when aligned, else an
   aligned copy kept in key->copies[slot]. */
static cz_status section_points(const void **out, cz_zkey *key, const cz_bin_section *s,
                                int slot, const char *name, char *err, size_t err_len)
{
    const uint8_t *p = key->blob.data + s->offset;
    if (s->size == 0) {
        *out = NULL;
        return CZ_OK;
    }
    if (((uintptr_t)p & 7) == 0 && !key->copy_all) {
        *out = p;
        return CZ_OK;
    }
    if (key->blob.owned && !key->copy_all && ((uintptr_t)p & 7) == 4 && s->offset >= 12) {
        /* Our own copy: slide the data over the last 4 bytes of its section
           header (read already, never again). */
        uint8_t *q = (uint8_t *)key->blob.owned + s->offset - 4;
        memmove(q, q + 4, s->size);
        *out = q;
        return CZ_OK;
    }
    void *c = aligned_alloc(64, (s->size + 63) & ~(size_t)63);
    if (!c)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory copying section %u", s->id);
    memcpy(c, p, s->size);
    key->copies[slot] = c;
    *out = c;
    return CZ_OK;
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

static cz_status read_header_point(void *out, const uint8_t *p, int g2, const char *what,
                                   const char *name, char *err, size_t err_len)
{
    size_t n = g2 ? G2_BYTES : G1_BYTES;
    for (size_t k = 0; k < n; k += 48)
        if (!fp_bytes_ok(p + k))
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "header point %s has a coordinate >= p", what);
    memcpy(out, p, n);
    bool on = g2 ? cz_g2_affine_is_on_curve(out) : cz_g1_affine_is_on_curve(out);
    if (!on)
        return cz_io_fail(CZ_ERR_NOT_ON_CURVE, err, err_len, name,
                          "header point %s is not on the curve", what);
    bool sub = g2 ? cz_g2_affine_in_subgroup(out) : cz_g1_affine_in_subgroup(out);
    if (!sub)
        return cz_io_fail(CZ_ERR_SUBGROUP, err, err_len, name,
                          "header point %s is not in the prime-order subgroup", what);
    return CZ_OK;
}

/* Check the header sections 1 and 2 and fill the scalar facts. */
static cz_status read_header(cz_zkey_info *info, const cz_binfile *f, char *err, size_t err_len)
{
    const char *name = f->name;
    const cz_bin_section *s;
    cz_status st;
    memset(info, 0, sizeof *info);
    if ((st = cz_binfile_section(&s, f, ZK_HEADER, "header", err, err_len)))
        return st;
    if ((st = expect_size(s, 4, "header", name, err, err_len)))
        return st;
    info->protocol = cz_le32(f->data + s->offset);
    if (info->protocol != 1)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "protocol %u is not Groth16 (1)%s", info->protocol,
                          info->protocol == 2 ? ": this is a PLONK key" :
                          info->protocol == 10 ? ": this is an FFLONK key" : "");
    if ((st = cz_binfile_section(&s, f, ZK_GROTH, "Groth16 header", err, err_len)))
        return st;
    const uint8_t *h = f->data + s->offset;
    if (s->size < 4)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 2 (Groth16 header) has %llu bytes, too short",
                          (unsigned long long)s->size);
    uint32_t n8q = cz_le32(h);
    if (n8q == 32 && s->size >= 36) {
        int eq = 1;
        for (int i = 0; i < 4; i++)
            eq &= cz_le64(h + 4 + 8 * i) == bn254_q[i];
        if (eq) {
            info->bn254 = true;
            return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                              "this key is for BN254 (bn128), not BLS12-381: cuzk prove "
                              "and cuzkd take it on the CPU; the GPU backend is "
                              "BLS12-381 only for now");
        }
    }
    if (n8q != 48)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "base field has %u-byte elements, not BLS12-381's 48", n8q);
    if ((st = expect_size(s, GROTH_HEADER_BYTES, "Groth16 header", name, err, err_len)))
        return st;
    for (int i = 0; i < 6; i++)
        if (cz_le64(h + 4 + 8 * i) != fp_p[i])
            return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                              "base field modulus is not BLS12-381's p");
    uint32_t n8r = cz_le32(h + 52);
    if (n8r != 32)
        return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                          "scalar field has %u-byte elements, not 32", n8r);
    for (int i = 0; i < 4; i++)
        if (cz_le64(h + 56 + 8 * i) != fr_p[i])
            return cz_io_fail(CZ_ERR_CURVE, err, err_len, name,
                              "scalar field modulus is not BLS12-381's r");
    info->n_vars = cz_le32(h + 88);
    info->n_public = cz_le32(h + 92);
    info->domain_size = cz_le32(h + 96);
    if (info->n_vars < 1 || info->n_public > info->n_vars - 1)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "nPublic %u does not fit in nVars %u", info->n_public, info->n_vars);
    uint32_t n = info->domain_size;
    if (n < 2 || (n & (n - 1)) != 0 || n > (1u << 30))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is not a power of two in [2, 2^30]", n);
    if (info->n_public + 1 > n)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is smaller than nPublic + 1 = %u", n, info->n_public + 1);
    if (cz_binfile_section(&s, f, ZK_CONTRIB, "contributions", NULL, 0) == CZ_OK &&
        s->size >= 68)
        info->n_contributions = cz_le32(f->data + s->offset + 64);
    if (cz_binfile_section(&s, f, ZK_COEFS, "coefficients", NULL, 0) == CZ_OK && s->size >= 4)
        info->n_coefs = cz_le32(f->data + s->offset);
    return CZ_OK;
}

cz_status cz_zkey_read_info(cz_zkey_info *info, const uint8_t *data, size_t len,
                            const char *name, char *err, size_t err_len)
{
    memset(info, 0, sizeof *info); /* a refusal leaves it zeroed (bn254 false) */
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, data, len, name, "zkey", 1, err, err_len);
    if (st)
        return st;
    st = read_header(info, &f, err, err_len);
    cz_binfile_free(&f);
    return st;
}

/* What a load may do (see cz_zkey_load_opts). */
typedef struct {
    unsigned threads;
    uint64_t mem_limit; /* the matrices' bytes at most */
    bool no_matrices;
} load_opts;

static uint64_t phys_ram(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

uint64_t cz_zkey_matrix_bytes(uint32_t domain_size, uint64_t nnz)
{
    /* two row pointer arrays of n + 1 entries, a column index and a value
       per nonzero */
    return 2 * ((uint64_t)domain_size + 1) * sizeof(uint64_t) +
           nnz * (sizeof(uint32_t) + sizeof(cz_fr));
}

/* One pass over the coefficient records, allocating nothing: every record
   valid, the nonzeros of each matrix counted, and the highest row. */
static cz_status scan_coefs(uint64_t nnz[2], uint32_t *max_row, const uint8_t *p, uint32_t count,
                            uint32_t n, uint32_t n_vars, const char *name, char *err,
                            size_t err_len)
{
    nnz[0] = nnz[1] = 0;
    *max_row = 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * 44;
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
        if (!cz_le_bytes_lt(r + 12, fr_p, 4))
            return cz_io_fail(CZ_ERR_RANGE, err, err_len, name,
                              "coefficient %u: value is not below r", i);
        nnz[mat]++;
        if (row > *max_row)
            *max_row = row;
    }
    /* snarkjs and cuzk setup write an A entry at row nConstraints + i for
       every public input i (and the constant), and pick the smallest power
       of two domain above nConstraints + nPublic: the highest row always
       reaches past half the domain. */
    if (n > 2 && (count == 0 || *max_row < n / 2))
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "domain size %u is larger than the circuit needs (its highest "
                          "coefficient row is %u, below half the domain): not a key made by "
                          "snarkjs or cuzk setup", n, count ? *max_row : 0);
    return CZ_OK;
}

/* Build both CSR matrices from the coefficient records: validate and count
   without allocating, check the bytes against the limit, then count per
   row and fill, with the row pointers as the fill cursors. */
static cz_status read_coefs(cz_zkey *key, const cz_bin_section *s, const load_opts *o,
                            const char *name, char *err, size_t err_len)
{
    const uint8_t *p = key->blob.data + s->offset;
    if (s->size < 4)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 4 (coefficients) has %llu bytes, too short",
                          (unsigned long long)s->size);
    uint32_t count = cz_le32(p);
    cz_status st = expect_size(s, 4 + (uint64_t)count * 44, "coefficients", name, err, err_len);
    if (st)
        return st;
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
    uint64_t bytes = cz_zkey_matrix_bytes(n, nnz[0] + nnz[1]);
    uint64_t limit = o->mem_limit ? o->mem_limit : phys_ram();
    if (bytes > limit || bytes > SIZE_MAX / 2)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name,
                          "its A and B matrices need %llu MiB, more than the %llu MiB allowed",
                          (unsigned long long)(bytes >> 20), (unsigned long long)(limit >> 20));
    cz_csr *m[2] = {&key->qa, &key->qb};
    for (int k = 0; k < 2; k++) {
        m[k]->row_ptr = calloc((size_t)n + 1, sizeof *m[k]->row_ptr);
        m[k]->col = malloc((nnz[k] ? nnz[k] : 1) * sizeof *m[k]->col);
        m[k]->val = malloc((nnz[k] ? nnz[k] : 1) * sizeof *m[k]->val);
        if (!m[k]->row_ptr || !m[k]->col || !m[k]->val)
            return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * 44;
        m[cz_le32(r)]->row_ptr[cz_le32(r + 4) + 1]++;
    }
    for (int k = 0; k < 2; k++)
        for (uint32_t r = 0; r < n; r++)
            m[k]->row_ptr[r + 1] += m[k]->row_ptr[r];
    /* fill in file order: row_ptr[row] is the next free slot of the row;
       afterwards row_ptr[r] is the end of row r, shifted back below */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *r = p + 4 + (size_t)i * 44;
        uint32_t mat = cz_le32(r), row = cz_le32(r + 4), sig = cz_le32(r + 8);
        uint64_t at = m[mat]->row_ptr[row]++;
        cz_fr v;
        for (int l = 0; l < 4; l++)
            v.l[l] = cz_le64(r + 12 + 8 * l);
        /* stored coef*R^2; Montgomery reduction gives coef*R = mont(coef) */
        uint64_t limbs[4];
        cz_fr_to_limbs(limbs, &v);
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

static cz_status load_key(cz_zkey *key, const char *name, const load_opts *o,
                          char *err, size_t err_len)
{
    cz_binfile f;
    cz_status st = cz_binfile_parse(&f, key->blob.data, key->blob.len, name, "zkey", 1, err, err_len);
    if (st)
        return st;
    cz_zkey_info info;
    if ((st = read_header(&info, &f, err, err_len)))
        goto out;
    key->n_vars = info.n_vars;
    key->n_public = info.n_public;
    key->domain_size = info.domain_size;
    key->log_n = 0;
    while ((1u << key->log_n) < key->domain_size)
        key->log_n++;

    const cz_bin_section *s;
    cz_binfile_section(&s, &f, ZK_GROTH, "", NULL, 0);
    const uint8_t *h = key->blob.data + s->offset + 100;
    if ((st = read_header_point(&key->alpha1, h, 0, "alpha1", name, err, err_len)) ||
        (st = read_header_point(&key->beta1, h + 96, 0, "beta1", name, err, err_len)) ||
        (st = read_header_point(&key->beta2, h + 192, 1, "beta2", name, err, err_len)) ||
        (st = read_header_point(&key->gamma2, h + 384, 1, "gamma2", name, err, err_len)) ||
        (st = read_header_point(&key->delta1, h + 576, 0, "delta1", name, err, err_len)) ||
        (st = read_header_point(&key->delta2, h + 672, 1, "delta2", name, err, err_len)))
        goto out;

    static const struct { int id; const char *what; int g2; } secs[] = {
        {ZK_IC, "IC points", 0}, {ZK_A, "A points", 0}, {ZK_B1, "B1 points", 0},
        {ZK_B2, "B2 points", 1}, {ZK_C, "C points", 0}, {ZK_H, "H points", 0},
    };
    uint64_t counts[6] = {
        (uint64_t)info.n_public + 1, info.n_vars, info.n_vars, info.n_vars,
        (uint64_t)info.n_vars - info.n_public - 1, info.domain_size,
    };
    const void **dst[6] = {
        (const void **)&key->ic, (const void **)&key->a, (const void **)&key->b1,
        (const void **)&key->b2, (const void **)&key->c, (const void **)&key->h,
    };
    const cz_bin_section *ps[6];
    for (int i = 0; i < 6; i++) {
        if ((st = cz_binfile_section(&ps[i], &f, (uint32_t)secs[i].id, secs[i].what, err, err_len)))
            goto out;
        if ((st = expect_size(ps[i], counts[i] * (secs[i].g2 ? G2_BYTES : G1_BYTES), secs[i].what,
                              name, err, err_len)))
            goto out;
    }
    const cz_bin_section *cs;
    if ((st = cz_binfile_section(&cs, &f, ZK_COEFS, "coefficients", err, err_len)))
        goto out;
    if ((st = read_coefs(key, cs, o, name, err, err_len)))
        goto out;

    cz_threadpool *pool = NULL, *own = NULL;
    if (o->threads == 1)
        pool = NULL;
    else if (o->threads == 0)
        pool = cz_threadpool_global();
    else
        pool = own = cz_threadpool_create((int)o->threads);
    for (int i = 0; i < 6 && !st; i++) {
        if ((st = section_points(dst[i], key, ps[i], i, name, err, err_len)))
            break;
        size_t bad = check_points(pool, *dst[i], counts[i], secs[i].g2);
        if (bad != SIZE_MAX) {
            const uint8_t *pt = (const uint8_t *)*dst[i] + bad * (secs[i].g2 ? G2_BYTES : G1_BYTES);
            bool range = true;
            for (int k = 0; k < (secs[i].g2 ? 4 : 2); k++)
                range &= fp_bytes_ok(pt + 48 * k);
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

/* Keys get a process-wide unique id: device-side caches are keyed on it,
   never on an address that a later key may reuse. */
uint64_t cz_zkey_new_uid(void)
{
    static _Atomic uint64_t counter;
    return ++counter;
}

static cz_status load_blob(cz_zkey **out, cz_zkey *key, const char *name, const load_opts *o,
                           char *err, size_t err_len)
{
    cz_status st = load_key(key, name, o, err, err_len);
    if (st) {
        cz_zkey_free(key);
        return st;
    }
    *out = key;
    return CZ_OK;
}

static cz_zkey *new_key(void)
{
    cz_zkey *key = calloc(1, sizeof *key);
    if (key)
        key->uid = cz_zkey_new_uid();
    return key;
}

cz_status cz_zkey_load_bytes(cz_zkey **out, const void *data, size_t len, bool copy,
                             const char *name, unsigned threads, char *err, size_t err_len)
{
    *out = NULL;
    if (!name)
        name = "(zkey bytes)";
    if (!data && len)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "NULL data");
    cz_zkey *key = new_key();
    if (!key)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    /* copy: every point section is copied to aligned memory during the
       load (a whole-file copy would be copied again in part: sections sit
       4 bytes apart modulo 8 because section headers are 12 bytes), and
       the caller's bytes are dropped afterwards. */
    cz_blob_borrow(&key->blob, data, len);
    key->copy_all = copy;
    load_opts o = {.threads = threads};
    cz_status st = load_blob(out, key, name, &o, err, err_len);
    if (!st && copy)
        memset(&(*out)->blob, 0, sizeof (*out)->blob); /* nothing points into it now */
    return st;
}

cz_status cz_zkey_load_fd(cz_zkey **out, int fd, uint64_t size, const char *name,
                          const cz_zkey_load_opts *opts, char *err, size_t err_len)
{
    *out = NULL;
    cz_zkey_load_opts def = {0};
    if (!opts)
        opts = &def;
    if (opts->max_file_bytes && size > opts->max_file_bytes)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name,
                          "%llu bytes, more than the %llu allowed", (unsigned long long)size,
                          (unsigned long long)opts->max_file_bytes);
    cz_zkey *key = new_key();
    if (!key)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    cz_status st = cz_blob_read_fd(&key->blob, fd, size, name, err, err_len);
    if (st) {
        cz_zkey_free(key);
        return st;
    }
    /* The key has its own copy now: the page cache's would double a large
       key's memory until the kernel needs it back. */
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    load_opts o = {.threads = opts->threads, .mem_limit = opts->mem_limit,
                   .no_matrices = opts->no_matrices};
    return load_blob(out, key, name, &o, err, err_len);
}

cz_status cz_zkey_load_ex(cz_zkey **out, const char *path, const cz_zkey_load_opts *opts,
                          char *err, size_t err_len)
{
    *out = NULL;
    cz_zkey_load_opts def = {0};
    if (!opts)
        opts = &def;
    if (opts->private_copy) {
        int fd;
        uint64_t size;
        cz_status st = cz_file_open(&fd, &size, path, err, err_len);
        if (st)
            return st;
        st = cz_zkey_load_fd(out, fd, size, path, opts, err, err_len);
        close(fd);
        return st;
    }
    cz_zkey *key = new_key();
    if (!key)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "out of memory");
    cz_status st = cz_blob_map(&key->blob, path, err, err_len);
    if (!st && opts->max_file_bytes && key->blob.len > opts->max_file_bytes)
        st = cz_io_fail(CZ_ERR_NOMEM, err, err_len, path, "%zu bytes, more than the %llu allowed",
                        key->blob.len, (unsigned long long)opts->max_file_bytes);
    if (st) {
        cz_zkey_free(key);
        return st;
    }
    load_opts o = {.threads = opts->threads, .mem_limit = opts->mem_limit,
                   .no_matrices = opts->no_matrices};
    return load_blob(out, key, path, &o, err, err_len);
}

cz_status cz_zkey_load(cz_zkey **out, const char *path, unsigned threads,
                       char *err, size_t err_len)
{
    cz_zkey_load_opts o = {.threads = threads};
    return cz_zkey_load_ex(out, path, &o, err, err_len);
}

/* ---- the header of an open file, before it is read ---- */

static cz_status pread_all(int fd, void *buf, size_t n, uint64_t off, const char *name,
                           char *err, size_t err_len)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return cz_io_fail(CZ_ERR_IO, err, err_len, name, "cannot read: %s",
                              r < 0 ? strerror(errno) : "the file changed while it was read");
        got += (size_t)r;
    }
    return CZ_OK;
}

cz_status cz_zkey_peek_fd(cz_zkey_info *info, uint64_t *mem_bytes, int fd, uint64_t size,
                          const char *name, char *err, size_t err_len)
{
    memset(info, 0, sizeof *info);
    *mem_bytes = 0;
    uint8_t hdr[12];
    if (size < 12)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, size ? "truncated: %llu bytes, "
                          "shorter than the 12-byte header" : "file is empty",
                          (unsigned long long)size);
    cz_status st = pread_all(fd, hdr, 12, 0, name, err, err_len);
    if (st)
        return st;
    /* A compact container of the small sections read_header needs (1, 2
       whole; the first bytes of 4 and 10), sizes of the others noted. */
    enum { KEEP = 4096 };
    uint8_t *mini = malloc(12 + 8 * (12 + KEEP));
    if (!mini)
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, name, "out of memory");
    memcpy(mini, hdr, 12);
    uint32_t ns = cz_le32(hdr + 8), kept = 0;
    size_t mlen = 12;
    uint64_t real[11] = {0};
    uint32_t seen[11] = {0};
    uint64_t pos = 12;
    if (memcmp(hdr, "zkey", 4) != 0 || cz_le32(hdr + 4) != 1 || ns > 4096) {
        /* the parser says what is wrong, from the 12 bytes */
        cz_binfile f;
        st = cz_binfile_parse(&f, hdr, 12, name, "zkey", 1, err, err_len);
        cz_binfile_free(&f);
        free(mini);
        return st ? st : cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "too many sections");
    }
    for (uint32_t i = 0; i < ns && !st; i++) {
        uint8_t sh[12];
        if (size - pos < 12) {
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                            "truncated: section header %u of %u at byte %llu is cut off", i + 1,
                            ns, (unsigned long long)pos);
            break;
        }
        if ((st = pread_all(fd, sh, 12, pos, name, err, err_len)))
            break;
        uint32_t id = cz_le32(sh);
        uint64_t sz = cz_le64(sh + 4);
        pos += 12;
        if (sz > size - pos) {
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                            "truncated: section %u declares %llu bytes but only %llu remain", id,
                            (unsigned long long)sz, (unsigned long long)(size - pos));
            break;
        }
        if (id <= 10) {
            real[id] = sz;
            seen[id]++;
        }
        if ((id == 1 || id == 2) && sz > KEEP) {
            st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                            "section %u (a header) has %llu bytes, too many", id,
                            (unsigned long long)sz);
            break;
        }
        uint64_t keep = id == 1 || id == 2 ? sz : id == 4 ? 4 : id == 10 ? 68 : 0;
        if (keep > sz)
            keep = sz;
        if ((id == 1 || id == 2 || id == 4 || id == 10) && kept < 8 && keep <= KEEP) {
            cz_put_le32(mini + mlen, id);
            cz_put_le64(mini + mlen + 4, keep);
            if ((st = pread_all(fd, mini + mlen + 12, (size_t)keep, pos, name, err, err_len)))
                break;
            mlen += 12 + (size_t)keep;
            kept++;
        }
        pos += sz;
    }
    if (!st && pos != size)
        st = cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                        "%llu stray bytes after the last of the %u sections",
                        (unsigned long long)(size - pos), ns);
    if (!st) {
        cz_put_le32(mini + 8, kept);
        cz_binfile f;
        st = cz_binfile_parse(&f, mini, mlen, name, "zkey", 1, err, err_len);
        if (!st) {
            st = read_header(info, &f, err, err_len);
            cz_binfile_free(&f);
        }
    }
    free(mini);
    if (st)
        return st;
    /* every section's real size against what the header implies */
    static const struct { int id; const char *what; int g2; } secs[] = {
        {ZK_IC, "IC points", 0}, {ZK_A, "A points", 0}, {ZK_B1, "B1 points", 0},
        {ZK_B2, "B2 points", 1}, {ZK_C, "C points", 0}, {ZK_H, "H points", 0},
    };
    uint64_t counts[6] = {
        (uint64_t)info->n_public + 1, info->n_vars, info->n_vars, info->n_vars,
        (uint64_t)info->n_vars - info->n_public - 1, info->domain_size,
    };
    for (int i = 0; i < 6; i++) {
        int id = secs[i].id;
        if (seen[id] != 1)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              seen[id] ? "section %d (%s) appears %u times" : "section %d (%s) is missing",
                              id, secs[i].what, seen[id]);
        uint64_t want = counts[i] * (secs[i].g2 ? G2_BYTES : G1_BYTES);
        if (real[id] != want)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section %d (%s) has %llu bytes, expected %llu", id, secs[i].what,
                              (unsigned long long)real[id], (unsigned long long)want);
    }
    if (seen[ZK_COEFS] != 1 || real[ZK_COEFS] != 4 + (uint64_t)info->n_coefs * 44)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 4 (coefficients) has %llu bytes, expected %llu",
                          (unsigned long long)real[ZK_COEFS],
                          (unsigned long long)(4 + (uint64_t)info->n_coefs * 44));
    *mem_bytes = size + cz_zkey_matrix_bytes(info->domain_size, info->n_coefs);
    return CZ_OK;
}

cz_status cz_vk_from_zkey(cz_vk **out, const cz_zkey *key)
{
    *out = NULL;
    cz_vk *vk = calloc(1, sizeof *vk);
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

void cz_vk_free(cz_vk *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    free(vk);
}
