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
 * Everything after the Groth16 header is zkey_impl.h's, written once for
 * this file and zkey_bn254.c (docs/CURVES.md); the header reader, which
 * names a BN254 key, and the .czk-related loads stay here.
 */
#include <errno.h>
#include <fcntl.h>
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

#define G1_BYTES 96
#define G2_BYTES 192
#define GROTH_HEADER_BYTES (4 + 48 + 4 + 32 + 12 + 3 * G1_BYTES + 3 * G2_BYTES)

static bool fp_bytes_ok(const uint8_t *b) { return cz_le_bytes_lt(b, fp_p, 6); }

/* A point's file bytes (affine, little-endian Montgomery: cz_g1_affine /
   cz_g2_affine as they are): every coordinate < p, then on the curve. */
static cz_status point_check(const uint8_t *p, int g2)
{
    for (int k = 0; k < (g2 ? 4 : 2); k++)
        if (!fp_bytes_ok(p + 48 * k))
            return CZ_ERR_FORMAT;
    bool on;
    if (g2) {
        cz_g2_affine q;
        memcpy(&q, p, sizeof q);
        on = cz_g2_affine_is_on_curve(&q);
    } else {
        cz_g1_affine q;
        memcpy(&q, p, sizeof q);
        on = cz_g1_affine_is_on_curve(&q);
    }
    return on ? CZ_OK : CZ_ERR_NOT_ON_CURVE;
}

static cz_status header_point(void *out, const uint8_t *p, int g2)
{
    cz_status st = point_check(p, g2);
    if (!st)
        memcpy(out, p, g2 ? G2_BYTES : G1_BYTES);
    return st;
}

/* What a load may do (see cz_zkey_load_opts). */
typedef struct {
    unsigned threads;
    uint64_t mem_limit; /* the matrices' bytes at most */
    bool no_matrices;
} load_opts;

#define ZK_KEY cz_zkey
#define ZK_VK cz_vk
#define ZK_CSR cz_csr
#define ZK_FR cz_fr
#define ZK_OPTS load_opts
#define ZK_FR_TO_LIMBS cz_fr_to_limbs
#define ZK_R fr_p
#define ZK_G1B G1_BYTES
#define ZK_G2B G2_BYTES
#define ZK_MAX_LOG 30
#define ZK_POINT_CHECK point_check
#define ZK_HEADER_POINT header_point
#define ZK_IN_SUBGROUP(pt, g2) \
    ((g2) ? cz_g2_affine_in_subgroup(pt) : cz_g1_affine_in_subgroup(pt))
#define ZK_COPY_ALL(key) ((key)->copy_all)
#define ZK_SLIDE(key) ((key)->blob.owned != NULL)
#define ZK_SET_N_COEFS(key, count) ((void)0) /* n_coefs is the compact form's */
#define ZK_MAKERS "snarkjs or cuzk setup"
#define ZK_VK_FROM_ZKEY cz_vk_from_zkey
#include "io/zkey_impl.h"

/* ---- the key ---- */

void cz_zkey_free(cz_zkey *key)
{
    if (!key)
        return;
    for (size_t i = 0; i < sizeof key->copies / sizeof *key->copies; i++)
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
                              "this key is for BN254 (bn128), not BLS12-381 (cuzk prove, "
                              "cuzkd and the C API take it through their BN254 path)");
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
    if ((st = check_shape(info->n_vars, info->n_public, info->domain_size, name, err, err_len)))
        return st;
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

uint64_t cz_zkey_matrix_bytes(uint32_t domain_size, uint64_t nnz)
{
    return zk_matrix_bytes(domain_size, nnz);
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
    if ((st = read_header_points(key, key->blob.data + s->offset + 100, name, err, err_len)))
        goto out;
    st = load_sections(key, &f, o, name, err, err_len);
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
    cz_status st = cz_blob_map_whole(&key->blob, path, err, err_len);
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
    uint64_t counts[6];
    zk_counts(counts, info->n_vars, info->n_public, info->domain_size);
    for (int i = 0; i < 6; i++) {
        int id = zk_secs[i].id;
        if (seen[id] != 1)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              seen[id] ? "section %d (%s) appears %u times" : "section %d (%s) is missing",
                              id, zk_secs[i].what, seen[id]);
        uint64_t want = counts[i] * zk_point_bytes(zk_secs[i].g2);
        if (real[id] != want)
            return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                              "section %d (%s) has %llu bytes, expected %llu", id, zk_secs[i].what,
                              (unsigned long long)real[id], (unsigned long long)want);
    }
    if (seen[ZK_COEFS] != 1 || real[ZK_COEFS] != 4 + (uint64_t)info->n_coefs * ZK_COEF_BYTES)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name,
                          "section 4 (coefficients) has %llu bytes, expected %llu",
                          (unsigned long long)real[ZK_COEFS],
                          (unsigned long long)(4 + (uint64_t)info->n_coefs * ZK_COEF_BYTES));
    *mem_bytes = size + cz_zkey_matrix_bytes(info->domain_size, info->n_coefs);
    return CZ_OK;
}

void cz_vk_free(cz_vk *vk)
{
    if (!vk)
        return;
    free(vk->ic);
    free(vk);
}
