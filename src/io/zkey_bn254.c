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
 * file truncated under a long-lived process would fault). The checks after
 * the Groth16 header are zkey_impl.h's, compiled here over BN254 (zkey.c
 * compiles them over BLS12-381).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "curve/curves.h"
#include "groth16/groth16_bn254.h"
#include "io/binfile.h"
#include "util/rng.h"
#include "util/threadpool.h"

#define FB 32                    /* bytes of an Fp or Fr element */
#define G1B (2 * FB)
#define G2B (4 * FB)
/* n8q, q, n8r, r, nVars, nPublic, domainSize, then alpha1, beta1, beta2,
   gamma2, delta1, delta2 */
#define GROTH_HEADER_BYTES (4 + FB + 4 + FB + 12 + 3 * G1B + 3 * G2B)

static const cz_curve *bn(void) { return cz_curve_get(CZ_CURVE_BN254); }

/* A point's file bytes, decoded (coordinates below p, on the curve). */
static cz_status point_at(const uint8_t *p, int g2)
{
    if (g2) {
        cz_bn254_g2_affine q;
        return cz_bn254_g2_from_snarkjs(&q, p);
    }
    cz_bn254_g1_affine q;
    return cz_bn254_g1_from_snarkjs(&q, p);
}

/* G1 is the whole curve (cofactor 1): only G2 needs a subgroup test. */
#define ZK_KEY cz_bn254_zkey
#define ZK_VK cz_bn254_vk
#define ZK_CSR cz_bn254_csr
#define ZK_FR cz_bn254_fr
#define ZK_OPTS cz_zkey_load_opts
#define ZK_FR_TO_LIMBS cz_bn254_fr_to_limbs
#define ZK_R (bn()->r)
#define ZK_G1B G1B
#define ZK_G2B G2B
#define ZK_MAX_LOG 28
#define ZK_POINT_CHECK point_at
#define ZK_HEADER_POINT(out, p, g2) \
    ((g2) ? cz_bn254_g2_from_snarkjs(out, p) : cz_bn254_g1_from_snarkjs(out, p))
#define ZK_IN_SUBGROUP(pt, g2) (!(g2) || cz_bn254_g2_affine_in_subgroup(pt))
#define ZK_COPY_ALL(key) false
#define ZK_SLIDE(key) false
#define ZK_SET_N_COEFS(key, count) ((key)->n_coefs = (count))
#define ZK_MAKERS "snarkjs"
#define ZK_VK_FROM_ZKEY cz_bn254_vk_from_zkey
#include "io/zkey_impl.h"

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
    if ((st = check_shape(key->n_vars, key->n_public, key->domain_size, name, err, err_len)))
        return st;
    key->log_n = 0;
    while ((1u << key->log_n) < key->domain_size)
        key->log_n++;
    if ((st = read_header_points(key, q + 12, name, err, err_len)))
        return st;
    if (cz_binfile_section(&s, f, ZK_CONTRIB, "contributions", NULL, 0) == CZ_OK && s->size >= 68)
        key->n_contributions = cz_le32(f->data + s->offset + 64);
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
    st = load_sections(key, &f, o, name, err, err_len);
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
        st = cz_blob_map_whole(&key->blob, path, err, err_len);
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
