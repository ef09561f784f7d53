/* ctest: labels=unit timeout=300 */
/*
 * test_io.c: the readers and writers of src/io on the committed snarkjs
 * fixtures (tests/fixtures, made by tools/make_fixtures.sh) and on
 * malformed inputs: truncations at every section boundary and at random
 * points, flipped bytes in every section, wrong magic, version, protocol,
 * curve, witness length, an empty file, a directory. Every malformed input
 * must give the right status and a message naming the file, never a crash
 * (the suite also runs under ASan/UBSan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "test_util.h"

#include "field/constants.h"
#include "groth16/groth16.h"
#include "io/binfile.h"
#include "io/json.h"
#include "io/paths.h"

static uint8_t *fixture(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "tests/fixtures/%s", rel);
    uint8_t *b = cz_test_read_file(cz_test_src_path(path), len);
    if (!b)
        fail_msg("missing fixture %s", path);
    return b;
}

static cz_status load(cz_zkey **key, const uint8_t *d, size_t n, char *err, size_t el)
{
    return cz_zkey_load_bytes(key, d, n, true, "t.zkey", 2, err, el);
}

/* ---- container ---- */

static void test_binfile_sections(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_binfile f;
    char err[256];
    assert_int_equal(cz_binfile_parse(&f, z, n, "small.zkey", "zkey", 1, err, sizeof err), CZ_OK);
    assert_int_equal(f.n_sections, 10);
    uint64_t total = 12;
    for (uint32_t i = 0; i < f.n_sections; i++) {
        const cz_bin_section *s;
        assert_int_equal(cz_binfile_section(&s, &f, f.sections[i].id, "x", err, sizeof err), CZ_OK);
        assert_true(s->offset + s->size <= n);
        total += 12 + s->size;
    }
    assert_int_equal(total, n);
    const cz_bin_section *s;
    assert_int_equal(cz_binfile_section(&s, &f, 77, "seventy-seven", err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "small.zkey"));
    assert_non_null(strstr(err, "77"));
    cz_binfile_free(&f);
    free(z);
}

/* ---- .zkey ---- */

static void test_zkey_fixture(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_zkey *key;
    char err[256] = "";
    assert_int_equal(load(&key, z, n, err, sizeof err), CZ_OK);
    assert_int_equal(key->n_vars, 113);
    assert_int_equal(key->n_public, 4);
    assert_int_equal(key->domain_size, 128);
    assert_int_equal(key->log_n, 7);
    /* snarkjs keys: gamma2 is the G2 generator, B1[0]-style infinities allowed */
    cz_g2_affine g2;
    cz_g2_generator(&g2);
    assert_true(cz_g2_affine_eq(&key->gamma2, &g2));
    /* the coefficient section: 392 records, of which nPublic+1 extra A rows */
    assert_int_equal(key->qa.nnz + key->qb.nnz, 392);
    /* every extra row nC+s (the last nPublic+1 used rows) holds w_s with value 1 */
    uint32_t used = 0;
    for (uint32_t r = 0; r < key->domain_size; r++)
        if (key->qa.row_ptr[r + 1] > key->qa.row_ptr[r])
            used = r + 1;
    for (uint32_t s = 0; s <= key->n_public; s++) {
        uint32_t row = used - key->n_public - 1 + s;
        assert_int_equal(key->qa.row_ptr[row + 1] - key->qa.row_ptr[row], 1);
        assert_int_equal(key->qa.col[key->qa.row_ptr[row]], s);
        assert_true(cz_fr_is_one(&key->qa.val[key->qa.row_ptr[row]]));
    }
    /* the key's points are on the curve (checked at load) */
    for (uint32_t i = 0; i < key->n_vars; i++) {
        assert_true(cz_g1_affine_is_on_curve(&key->a[i]));
        assert_true(cz_g2_affine_is_on_curve(&key->b2[i]));
    }
    cz_zkey_free(key);

    /* copied bytes: the key keeps nothing of the caller's buffer */
    uint8_t *dup = malloc(n);
    memcpy(dup, z, n);
    assert_int_equal(cz_zkey_load_bytes(&key, dup, n, true, "d.zkey", 1, err, sizeof err), CZ_OK);
    memset(dup, 0xa5, n);
    free(dup);
    assert_true(cz_g1_affine_is_on_curve(&key->h[key->domain_size - 1]));
    assert_true(cz_g2_affine_is_on_curve(&key->b2[key->n_vars - 1]));
    assert_true(cz_g1_affine_is_on_curve(&key->ic[key->n_public]));
    cz_zkey_free(key);

    /* unaligned bytes, borrowed: sections are copied to aligned memory */
    uint8_t *u = malloc(n + 1);
    memcpy(u + 1, z, n);
    assert_int_equal(cz_zkey_load_bytes(&key, u + 1, n, false, "u.zkey", 1, err, sizeof err), CZ_OK);
    assert_int_equal(key->n_vars, 113);
    assert_int_equal(((uintptr_t)key->a) % 8, 0);
    assert_int_equal(((uintptr_t)key->b2) % 8, 0);
    cz_zkey_free(key);
    free(u);

    /* from a path */
    assert_int_equal(cz_zkey_load(&key, cz_test_src_path("tests/fixtures/small.zkey"), 0, err,
                                  sizeof err), CZ_OK);
    cz_zkey_free(key);
    free(z);
}

/* Sections in another order (as `zkey contribute` writes them) load the same. */
static void test_zkey_section_order(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_binfile f;
    char err[256];
    assert_int_equal(cz_binfile_parse(&f, z, n, "z", "zkey", 1, err, sizeof err), CZ_OK);
    uint8_t *r = malloc(n);
    memcpy(r, z, 12);
    size_t at = 12;
    for (uint32_t k = f.n_sections; k-- > 0;) { /* reversed */
        const cz_bin_section *s = &f.sections[k];
        memcpy(r + at, z + s->offset - 12, 12 + s->size);
        at += 12 + s->size;
    }
    assert_int_equal(at, n);
    cz_zkey *a, *b;
    assert_int_equal(load(&a, z, n, err, sizeof err), CZ_OK);
    assert_int_equal(load(&b, r, n, err, sizeof err), CZ_OK);
    assert_memory_equal(a->h, b->h, a->domain_size * sizeof *a->h);
    assert_memory_equal(a->b2, b->b2, a->n_vars * sizeof *a->b2);
    assert_int_equal(a->qa.nnz, b->qa.nnz);
    assert_memory_equal(a->qa.val, b->qa.val, a->qa.nnz * sizeof *a->qa.val);
    cz_zkey_free(a);
    cz_zkey_free(b);
    cz_binfile_free(&f);
    free(r);
    free(z);
}

static void test_zkey_truncated(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_binfile f;
    char err[256];
    assert_int_equal(cz_binfile_parse(&f, z, n, "z", "zkey", 1, err, sizeof err), CZ_OK);
    size_t cuts[256];
    size_t nc = 0;
    cuts[nc++] = 0;
    cuts[nc++] = 3;
    cuts[nc++] = 11;
    for (uint32_t i = 0; i < f.n_sections; i++) {
        size_t o = f.sections[i].offset, s = f.sections[i].size;
        cuts[nc++] = o - 12;
        cuts[nc++] = o - 1;
        cuts[nc++] = o;
        cuts[nc++] = o + s / 2;
        cuts[nc++] = o + s - 1;
    }
    cz_rng rng;
    cz_test_rng(&rng);
    for (int i = 0; i < 60; i++)
        cuts[nc++] = (size_t)(cz_rng_u64(&rng) % n);
    for (size_t i = 0; i < nc; i++) {
        cz_zkey *key = NULL;
        err[0] = 0;
        cz_status st = load(&key, z, cuts[i], err, sizeof err);
        if (st == CZ_OK)
            fail_msg("zkey cut at %zu of %zu loaded", cuts[i], n);
        assert_null(key);
        assert_true(st == CZ_ERR_FORMAT);
        assert_non_null(strstr(err, "t.zkey"));
    }
    /* a stray byte after the last section */
    uint8_t *l = malloc(n + 1);
    memcpy(l, z, n);
    l[n] = 0;
    cz_zkey *key;
    assert_int_equal(load(&key, l, n + 1, err, sizeof err), CZ_ERR_FORMAT);
    free(l);
    cz_binfile_free(&f);
    free(z);
}

/* A flipped byte in every section: headers and sizes must fail with the
   right status; point data must fail (not on the curve); coefficient
   data may be legal; nothing may crash. */
static void test_zkey_flipped(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_binfile f;
    char err[256];
    assert_int_equal(cz_binfile_parse(&f, z, n, "z", "zkey", 1, err, sizeof err), CZ_OK);
    uint8_t *c = malloc(n);
    cz_rng rng;
    cz_test_rng(&rng);
    for (uint32_t i = 0; i < f.n_sections; i++) {
        const cz_bin_section *s = &f.sections[i];
        /* the section size field: always fatal */
        memcpy(c, z, n);
        c[s->offset - 8] ^= 0x04;
        cz_zkey *key = NULL;
        assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
        for (int k = 0; k < 8; k++) {
            size_t at = s->offset + cz_rng_u64(&rng) % s->size;
            memcpy(c, z, n);
            c[at] ^= (uint8_t)(1u << (cz_rng_u64(&rng) % 8));
            err[0] = 0;
            key = NULL;
            cz_status st = load(&key, c, n, err, sizeof err);
            switch (s->id) {
            case 1:
                assert_int_equal(st, CZ_ERR_FORMAT);
                break;
            case 2:
                /* field sizes and primes: curve; counts: format; points: curve or range */
                assert_int_not_equal(st, CZ_OK);
                break;
            case 3: case 5: case 6: case 7: case 8: case 9:
                if (st == CZ_OK)
                    fail_msg("flipped byte %zu of point section %u accepted", at, s->id);
                assert_true(st == CZ_ERR_NOT_ON_CURVE || st == CZ_ERR_FORMAT);
                break;
            case 4:
                assert_true(st == CZ_OK || st == CZ_ERR_FORMAT || st == CZ_ERR_RANGE);
                break;
            default:
                assert_int_equal(st, CZ_OK); /* contributions are ignored */
            }
            if (st != CZ_OK)
                assert_non_null(strstr(err, "t.zkey"));
            cz_zkey_free(key);
        }
    }
    free(c);
    cz_binfile_free(&f);
    free(z);
}

static void test_zkey_header_faults(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    uint8_t *c = malloc(n);
    char err[256];
    cz_zkey *key;
    cz_binfile f;
    assert_int_equal(cz_binfile_parse(&f, z, n, "z", "zkey", 1, err, sizeof err), CZ_OK);
    const cz_bin_section *s1, *s2, *s5;
    cz_binfile_section(&s1, &f, 1, "", err, sizeof err);
    cz_binfile_section(&s2, &f, 2, "", err, sizeof err);
    cz_binfile_section(&s5, &f, 5, "", err, sizeof err);

    memcpy(c, z, n);
    c[0] = 'x';
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "magic"));
    memcpy(c, z, n);
    c[4] = 2;
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "version"));
    memcpy(c, z, n);
    c[s1->offset] = 2;
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "PLONK"));
    memcpy(c, z, n);
    c[s2->offset + 4] ^= 1; /* q */
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_CURVE);
    memcpy(c, z, n);
    c[s2->offset + 56] ^= 1; /* r */
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_CURVE);
    memcpy(c, z, n);
    c[s2->offset + 96] ^= 3; /* domain size 128 -> 131 */
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "power of two"));
    /* section 5 one point short: the message the brief asks for */
    memcpy(c, z, n);
    {
        uint64_t sz = s5->size - 96;
        for (int i = 0; i < 8; i++)
            c[s5->offset - 8 + i] = (uint8_t)(sz >> (8 * i));
    }
    /* the container is now inconsistent (trailing bytes inside): still format */
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    /* a section 5 missing entirely: renamed to id 99 */
    memcpy(c, z, n);
    c[s5->offset - 12] = 99;
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "section 5 (A points) is missing"));
    /* a point moved off the curve: named by section and index */
    memcpy(c, z, n);
    c[s5->offset + 96 * 3 + 1] ^= 1;
    assert_int_equal(load(&key, c, n, err, sizeof err), CZ_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err, "point 3"));
    cz_binfile_free(&f);
    free(c);
    free(z);
}

static void test_zkey_bn254(void **state)
{
    (void)state;
    size_t n;
    uint8_t *z = fixture("bn254/small.zkey", &n);
    char err[256];
    cz_zkey *key;
    assert_int_equal(cz_zkey_load_bytes(&key, z, n, false, "bn.zkey", 1, err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "bn.zkey"));
    assert_non_null(strstr(err, "BN254"));
    assert_non_null(strstr(err, "BLS12-381"));
    cz_zkey_info info;
    assert_int_equal(cz_zkey_read_info(&info, z, n, "bn.zkey", err, sizeof err), CZ_ERR_CURVE);
    assert_true(info.bn254);
    free(z);
}

static void test_files(void **state)
{
    (void)state;
    char err[256];
    cz_zkey *key;
    /* a directory */
    assert_int_equal(cz_zkey_load(&key, cz_test_src_path("tests/fixtures"), 1, err, sizeof err),
                     CZ_ERR_IO);
    assert_non_null(strstr(err, "directory"));
    /* a missing file */
    assert_int_equal(cz_zkey_load(&key, "/nonexistent/x.zkey", 1, err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "/nonexistent/x.zkey"));
    /* an empty file */
    char path[] = "/tmp/cz_test_io_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(cz_zkey_load(&key, path, 1, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "empty"));
    cz_r1cs *cs;
    assert_int_equal(cz_r1cs_load(&cs, path, err, sizeof err), CZ_ERR_FORMAT);
    unlink(path);
    /* empty bytes */
    assert_int_equal(cz_zkey_load_bytes(&key, "", 0, false, "e.zkey", 1, err, sizeof err),
                     CZ_ERR_FORMAT);
}

/* ---- hostile files (issue 16): FIFOs, devices, sparse headers, paths ---- */

/* A temporary folder; removed by rm_tree. */
static char *tmp_dir(void)
{
    static char d[64];
    snprintf(d, sizeof d, "/tmp/cz_test_io_dXXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static void rm_tree(const char *d)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_not_regular_files(void **state)
{
    (void)state;
    /* Before the fix a FIFO blocked in open() and /dev/zero was read until
       memory ran out: the alarm turns a hang into a failure. */
    alarm(30);
    char *d = tmp_dir(), fifo[128], err[256];
    snprintf(fifo, sizeof fifo, "%s/f", d);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    cz_zkey *key;
    cz_blob b;
    cz_r1cs *cs;
    assert_int_equal(cz_zkey_load(&key, fifo, 1, err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "FIFO"));
    assert_non_null(strstr(err, fifo));
    assert_int_equal(cz_blob_map(&b, fifo, err, sizeof err), CZ_ERR_IO);
    assert_int_equal(cz_blob_read(&b, fifo, 0, err, sizeof err), CZ_ERR_IO);
    assert_int_equal(cz_r1cs_load(&cs, fifo, err, sizeof err), CZ_ERR_IO);
    assert_int_equal(cz_blob_map(&b, "/dev/zero", err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "character device"));
    cz_zkey_load_opts o = {.private_copy = true};
    assert_int_equal(cz_zkey_load_ex(&key, "/dev/zero", &o, err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "character device"));
    int fd;
    uint64_t size;
    assert_int_equal(cz_file_open(&fd, &size, d, err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "directory"));
    alarm(0);
    rm_tree(d);
}

/* The bytes of a file that is not of the format are never echoed: only
   its 4 magic bytes, as hex. */
static void test_magic_not_echoed(void **state)
{
    (void)state;
    const char text[] = "root:x:0:0:root:/root:/bin/bash\n";
    char err[256];
    cz_zkey *key;
    assert_int_equal(cz_zkey_load_bytes(&key, text, sizeof text - 1, false, "t", 1, err, sizeof err),
                     CZ_ERR_FORMAT);
    assert_null(strstr(err, "root"));
    assert_non_null(strstr(err, "72 6f 6f 74"));
    cz_fr *w;
    uint32_t n;
    assert_int_equal(cz_wtns_parse(&w, &n, (const uint8_t *)text, sizeof text - 1, "t", 0, err,
                                   sizeof err), CZ_ERR_FORMAT);
    assert_null(strstr(err, "root"));
}

/* small.zkey with a domain of 2^log in its header and an H section of
   2^log points left as a hole: every section size agrees with the header,
   the file takes a few KB on disk. */
static void write_big_domain(const char *path, unsigned log)
{
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    cz_binfile f;
    char err[256];
    assert_int_equal(cz_binfile_parse(&f, z, n, "z", "zkey", 1, err, sizeof err), CZ_OK);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(z, 1, 12, fp), 12);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < f.n_sections; i++) {
        const cz_bin_section *s = &f.sections[i];
        uint8_t h[12];
        uint64_t size = s->id == 9 ? ((uint64_t)96 << log) : s->size;
        cz_put_le32(h, s->id);
        cz_put_le64(h + 4, size);
        assert_int_equal(fseeko(fp, (off_t)pos, SEEK_SET), 0);
        assert_int_equal(fwrite(h, 1, 12, fp), 12);
        if (s->id != 9) {
            uint8_t *c = malloc(s->size);
            memcpy(c, z + s->offset, s->size);
            if (s->id == 2)
                cz_put_le32(c + 96, 1u << log);
            assert_int_equal(fwrite(c, 1, s->size, fp), s->size);
            free(c);
        }
        pos += 12 + size;
    }
    assert_int_equal(fclose(fp), 0);
    assert_int_equal(truncate(path, (off_t)pos), 0);
    cz_binfile_free(&f);
    free(z);
}

static void test_zkey_huge_domain(void **state)
{
    (void)state;
    alarm(60);
    char *d = tmp_dir(), path[128], err[256];
    snprintf(path, sizeof path, "%s/big.zkey", d);
    write_big_domain(path, 24); /* 1.6 GB apparent; before the fix: 3.4 GB of RSS and loaded */
    cz_zkey *key;
    assert_int_equal(cz_zkey_load(&key, path, 1, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "larger than the circuit needs"));
    cz_zkey_load_opts info_only = {.threads = 1, .no_matrices = true};
    assert_int_equal(cz_zkey_load_ex(&key, path, &info_only, err, sizeof err), CZ_ERR_FORMAT);
    /* the header and the memory a private copy needs, from the file's
       section table alone: more than its (sparse) size */
    int fd;
    uint64_t size, mem;
    cz_zkey_info info;
    assert_int_equal(cz_file_open(&fd, &size, path, err, sizeof err), CZ_OK);
    assert_int_equal(cz_zkey_peek_fd(&info, &mem, fd, size, path, err, sizeof err), CZ_OK);
    assert_int_equal(info.domain_size, 1u << 24);
    assert_true(mem >= size + cz_zkey_matrix_bytes(1u << 24, info.n_coefs));
    close(fd);
    /* a header whose H section is one point short: refused by the peek */
    write_big_domain(path, 24);
    {
        FILE *fp = fopen(path, "r+b");
        uint8_t h[8];
        cz_put_le64(h, ((uint64_t)96 << 24) - 96);
        assert_int_equal(fseeko(fp, 72580 - 8, SEEK_SET), 0); /* section 9's size field */
        assert_int_equal(fwrite(h, 1, 8, fp), 8);
        fclose(fp);
    }
    assert_int_equal(cz_file_open(&fd, &size, path, err, sizeof err), CZ_OK);
    assert_int_equal(cz_zkey_peek_fd(&info, &mem, fd, size, path, err, sizeof err), CZ_ERR_FORMAT);
    close(fd);
    alarm(0);
    rm_tree(d);
}

/* A private copy: the key owns its bytes (no mapping, no extra aligned
   copies: unaligned sections slide into place), proves the same, and a
   matrices limit is checked before anything is allocated. */
static void test_zkey_private_copy(void **state)
{
    (void)state;
    char *d = tmp_dir(), path[128], err[256];
    snprintf(path, sizeof path, "%s/k.zkey", d);
    size_t n;
    uint8_t *z = fixture("small.zkey", &n);
    write_file(path, z, n);
    cz_zkey *a, *b;
    assert_int_equal(cz_zkey_load(&a, cz_test_src_path("tests/fixtures/small.zkey"), 1, err,
                                  sizeof err), CZ_OK);
    cz_zkey_load_opts o = {.threads = 1, .private_copy = true};
    assert_int_equal(cz_zkey_load_ex(&b, path, &o, err, sizeof err), CZ_OK);
    assert_null(b->blob.map);
    assert_non_null(b->blob.owned);
    for (int i = 0; i < 6; i++)
        assert_null(b->copies[i]);
    assert_true(((uintptr_t)b->a & 7) == 0 && ((uintptr_t)b->b2 & 7) == 0 &&
                ((uintptr_t)b->h & 7) == 0 && ((uintptr_t)b->ic & 7) == 0);
    /* the file changing now cannot reach the key */
    assert_int_equal(truncate(path, 0), 0);
    assert_memory_equal(a->a, b->a, a->n_vars * sizeof *a->a);
    assert_memory_equal(a->b1, b->b1, a->n_vars * sizeof *a->b1);
    assert_memory_equal(a->b2, b->b2, a->n_vars * sizeof *a->b2);
    assert_memory_equal(a->c, b->c, (a->n_vars - a->n_public - 1) * sizeof *a->c);
    assert_memory_equal(a->h, b->h, a->domain_size * sizeof *a->h);
    assert_memory_equal(a->ic, b->ic, (a->n_public + 1) * sizeof *a->ic);
    assert_int_equal(a->qa.nnz, b->qa.nnz);
    assert_memory_equal(a->qa.row_ptr, b->qa.row_ptr, (a->domain_size + 1) * sizeof *a->qa.row_ptr);
    assert_memory_equal(a->qb.col, b->qb.col, a->qb.nnz * sizeof *a->qb.col);
    assert_memory_equal(a->qb.val, b->qb.val, a->qb.nnz * sizeof *a->qb.val);
    cz_zkey_free(b);
    /* the matrices' limit */
    write_file(path, z, n);
    cz_zkey_load_opts tight = {.threads = 1, .private_copy = true, .mem_limit = 4096};
    assert_int_equal(cz_zkey_load_ex(&b, path, &tight, err, sizeof err), CZ_ERR_NOMEM);
    assert_non_null(strstr(err, "matrices"));
    cz_zkey_load_opts small = {.threads = 1, .private_copy = true, .max_file_bytes = n - 1};
    assert_int_equal(cz_zkey_load_ex(&b, path, &small, err, sizeof err), CZ_ERR_NOMEM);
    /* cz_blob_read: a limit, and a private copy */
    cz_blob bl;
    assert_int_equal(cz_blob_read(&bl, path, n - 1, err, sizeof err), CZ_ERR_RANGE);
    assert_int_equal(cz_blob_read(&bl, path, n, err, sizeof err), CZ_OK);
    assert_int_equal(truncate(path, 10), 0);
    assert_memory_equal(bl.data, z, n);
    cz_blob_release(&bl);
    cz_zkey_free(a);
    free(z);
    rm_tree(d);
}

static void test_path_policy(void **state)
{
    (void)state;
    alarm(30);
    char *d = tmp_dir(), sub[128], p[256], err[256], real[4096];
    snprintf(sub, sizeof sub, "%s/allowed", d);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(p, sizeof p, "%s/k.zkey", sub);
    write_file(p, "zkey", 4);
    snprintf(p, sizeof p, "%s/outside.txt", d);
    write_file(p, "root:secret", 11);
    snprintf(p, sizeof p, "%s/fifo", sub);
    assert_int_equal(mkfifo(p, 0600), 0);
    snprintf(p, sizeof p, "%s/out-link", sub);
    char target[160];
    snprintf(target, sizeof target, "%s/outside.txt", d);
    assert_int_equal(symlink(target, p), 0);
    snprintf(p, sizeof p, "%s/in-link", sub);
    assert_int_equal(symlink("k.zkey", p), 0);

    cz_path_policy pol;
    cz_path_policy_init(&pol);
    assert_int_equal(cz_path_policy_add_list(&pol, sub, err, sizeof err), CZ_OK);
    assert_int_equal(cz_path_policy_add(&pol, sub, err, sizeof err), CZ_OK); /* twice: harmless */
    assert_int_equal(pol.n, 1);
    assert_int_not_equal(cz_path_policy_add(&pol, "/no/such/folder", err, sizeof err), CZ_OK);

    int fd;
    uint64_t size;
    /* inside, directly and through a link that stays inside */
    snprintf(p, sizeof p, "%s/k.zkey", sub);
    assert_int_equal(cz_path_open(&fd, &size, real, sizeof real, p, &pol, "key", err, sizeof err),
                     CZ_OK);
    assert_int_equal(size, 4);
    close(fd);
    snprintf(p, sizeof p, "%s/in-link", sub);
    assert_int_equal(cz_path_open(&fd, &size, real, sizeof real, p, &pol, "key", err, sizeof err),
                     CZ_OK);
    assert_non_null(strstr(real, "/allowed/k.zkey"));
    close(fd);
    /* inside but a FIFO: said so, at once */
    snprintf(p, sizeof p, "%s/fifo", sub);
    assert_int_equal(cz_path_open(&fd, &size, NULL, 0, p, &pol, "key", err, sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "FIFO"));
    /* inside but missing: said so, and told apart for a caller that lets
       such a file come later */
    bool missing = false;
    snprintf(p, sizeof p, "%s/missing", sub);
    assert_int_equal(cz_path_open_ex(&fd, &size, NULL, 0, &missing, p, &pol, "key", err,
                                     sizeof err), CZ_ERR_IO);
    assert_non_null(strstr(err, "No such file"));
    assert_true(missing);
    snprintf(p, sizeof p, "%s/missing", d);
    assert_int_equal(cz_path_open_ex(&fd, &size, NULL, 0, &missing, p, &pol, "key", err,
                                     sizeof err), CZ_ERR_IO);
    assert_false(missing);
    /* outside, whatever it is: one message, naming only the path given */
    snprintf(p, sizeof p, "%s/dangling", sub);
    assert_int_equal(symlink("/no/such/file/anywhere", p), 0);
    const char *outs[] = {"%s/outside.txt", "%s/allowed/../outside.txt", "%s/allowed/out-link",
                          "%s/nothing-here", "%s", "/dev/zero", "/etc/passwd", "%s/no/dir/x",
                          "%s/allowed/dangling"};
    char first[256] = "";
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) {
        snprintf(p, sizeof p, outs[i], d);
        assert_int_equal(cz_path_open(&fd, &size, NULL, 0, p, &pol, "key", err, sizeof err),
                         CZ_ERR_IO);
        assert_int_equal(fd, -1);
        assert_null(strstr(err, "secret"));
        const char *rest = err + strlen(p);
        assert_true(!strncmp(err, p, strlen(p)));
        if (!first[0])
            snprintf(first, sizeof first, "%s", rest);
        assert_string_equal(rest, first);
    }
    assert_non_null(strstr(first, "refused"));
    /* an empty policy allows nothing; no policy (the operator) any regular file */
    cz_path_policy none;
    cz_path_policy_init(&none);
    snprintf(p, sizeof p, "%s/k.zkey", sub);
    assert_int_equal(cz_path_open(&fd, &size, NULL, 0, p, &none, "key", err, sizeof err), CZ_ERR_IO);
    snprintf(p, sizeof p, "%s/outside.txt", d);
    assert_int_equal(cz_path_open(&fd, &size, NULL, 0, p, NULL, "key", err, sizeof err), CZ_OK);
    close(fd);
    assert_int_equal(cz_path_open(&fd, &size, NULL, 0, "/dev/zero", NULL, "key", err, sizeof err),
                     CZ_ERR_IO);
    assert_non_null(strstr(err, "character device"));
    cz_path_policy_free(&pol);
    alarm(0);
    rm_tree(d);
}

/* ---- .wtns ---- */

static void test_wtns(void **state)
{
    (void)state;
    size_t n;
    uint8_t *w = fixture("small.wtns", &n);
    char err[256];
    cz_fr *v;
    uint32_t cnt;
    assert_int_equal(cz_wtns_parse(&v, &cnt, w, n, "s.wtns", 113, err, sizeof err), CZ_OK);
    assert_int_equal(cnt, 113);
    assert_true(cz_fr_is_one(&v[0]));
    /* public signals as snarkjs printed them */
    size_t pl;
    char *pub = (char *)fixture("small_public.json", &pl);
    cz_fr *p;
    size_t np;
    assert_int_equal(cz_public_from_json(&p, &np, pub, pl, "pub", err, sizeof err), CZ_OK);
    assert_int_equal(np, 4);
    for (size_t i = 0; i < np; i++)
        assert_true(cz_fr_eq(&p[i], &v[i + 1]));
    free(p);
    free(pub);
    cz_wtns_free(v, cnt);

    /* the wrong length for the key */
    assert_int_equal(cz_wtns_parse(&v, &cnt, w, n, "s.wtns", 114, err, sizeof err), CZ_ERR_WITNESS);
    assert_non_null(strstr(err, "113"));
    assert_non_null(strstr(err, "114"));
    /* truncations */
    for (size_t cut = 0; cut < n; cut += (cut < 80 ? 1 : 97)) {
        v = NULL;
        assert_int_not_equal(cz_wtns_parse(&v, &cnt, w, cut, "s.wtns", 0, err, sizeof err), CZ_OK);
        assert_null(v);
    }
    uint8_t *c = malloc(n);
    cz_binfile f;
    assert_int_equal(cz_binfile_parse(&f, w, n, "w", "wtns", 2, err, sizeof err), CZ_OK);
    const cz_bin_section *s1, *s2;
    cz_binfile_section(&s1, &f, 1, "", err, sizeof err);
    cz_binfile_section(&s2, &f, 2, "", err, sizeof err);
    /* a value >= r */
    memcpy(c, w, n);
    memset(c + s2->offset + 32 * 5, 0xff, 32);
    assert_int_equal(cz_wtns_parse(&v, &cnt, c, n, "s.wtns", 0, err, sizeof err), CZ_ERR_RANGE);
    assert_non_null(strstr(err, "value 5"));
    /* w[0] != 1 */
    memcpy(c, w, n);
    c[s2->offset] = 2;
    assert_int_equal(cz_wtns_parse(&v, &cnt, c, n, "s.wtns", 0, err, sizeof err), CZ_ERR_WITNESS);
    /* another prime */
    memcpy(c, w, n);
    c[s1->offset + 4] ^= 1;
    assert_int_equal(cz_wtns_parse(&v, &cnt, c, n, "s.wtns", 0, err, sizeof err), CZ_ERR_CURVE);
    /* version 1 */
    memcpy(c, w, n);
    c[4] = 1;
    assert_int_equal(cz_wtns_parse(&v, &cnt, c, n, "s.wtns", 0, err, sizeof err), CZ_ERR_FORMAT);
    /* a zkey is not a witness */
    size_t zn;
    uint8_t *z = fixture("small.zkey", &zn);
    assert_int_equal(cz_wtns_parse(&v, &cnt, z, zn, "z.wtns", 0, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "magic"));
    free(z);
    cz_binfile_free(&f);
    free(c);
    free(w);

    /* BN254 */
    w = fixture("bn254/small.wtns", &n);
    assert_int_equal(cz_wtns_parse(&v, &cnt, w, n, "bn.wtns", 0, err, sizeof err), CZ_ERR_CURVE);
    assert_non_null(strstr(err, "BN254"));
    free(w);
}

/* Decoding into a caller's buffer (the daemon's pinned pool): the same
   values as cz_wtns_parse, the header-only count, a buffer too small, and
   a bad witness leaving the buffer wiped. */
static void test_wtns_parse_into(void **state)
{
    (void)state;
    size_t n;
    uint8_t *w = fixture("small.wtns", &n);
    char err[256];
    cz_fr *v;
    uint32_t cnt = 0, cnt2 = 0;
    assert_int_equal(cz_wtns_parse(&v, &cnt, w, n, "s.wtns", 0, err, sizeof err), CZ_OK);
    /* header only */
    assert_int_equal(cz_wtns_parse_into(NULL, 0, &cnt2, w, n, "s.wtns", 0, err, sizeof err), CZ_OK);
    assert_int_equal(cnt2, cnt);
    /* exact fit, one more slot than needed */
    cz_fr *buf = malloc((cnt + 1) * sizeof *buf);
    for (size_t cap = cnt; cap <= (size_t)cnt + 1; cap++) {
        memset(buf, 0xa5, (cnt + 1) * sizeof *buf);
        cnt2 = 0;
        assert_int_equal(cz_wtns_parse_into(buf, cap, &cnt2, w, n, "s.wtns", cnt, err, sizeof err),
                         CZ_OK);
        assert_int_equal(cnt2, cnt);
        assert_memory_equal(buf, v, cnt * sizeof *buf);
    }
    /* too small: an error naming the count, nothing decoded */
    assert_int_not_equal(cz_wtns_parse_into(buf, cnt - 1, &cnt2, w, n, "s.wtns", 0, err, sizeof err),
                         CZ_OK);
    printf("# cap %u for %u values: %s\n", cnt - 1, cnt, err);
    /* the wrong length for the key, as cz_wtns_parse says it */
    assert_int_equal(cz_wtns_parse_into(buf, cnt + 1, &cnt2, w, n, "s.wtns", cnt + 1, err, sizeof err),
                     CZ_ERR_WITNESS);
    /* a value >= r: an error, and the buffer holds no part of the witness */
    cz_binfile f;
    assert_int_equal(cz_binfile_parse(&f, w, n, "w", "wtns", 2, err, sizeof err), CZ_OK);
    const cz_bin_section *s2;
    cz_binfile_section(&s2, &f, 2, "", err, sizeof err);
    uint8_t *c = malloc(n);
    memcpy(c, w, n);
    memset(c + s2->offset + 32 * (cnt - 1), 0xff, 32);
    assert_int_equal(cz_wtns_parse_into(buf, cnt, &cnt2, c, n, "s.wtns", 0, err, sizeof err),
                     CZ_ERR_RANGE);
    static const cz_fr zero;
    for (uint32_t i = 0; i < cnt; i++)
        assert_memory_equal(&buf[i], &zero, sizeof zero);
    /* truncated files fail the same way through both entry points */
    for (size_t cut = 0; cut < n; cut += 97) {
        cz_fr *v2 = NULL;
        uint32_t c1, c2;
        cz_status a = cz_wtns_parse(&v2, &c1, w, cut, "s.wtns", 0, err, sizeof err);
        cz_status b = cz_wtns_parse_into(buf, cnt, &c2, w, cut, "s.wtns", 0, err, sizeof err);
        assert_int_not_equal(a, CZ_OK);
        assert_int_equal(a, b);
    }
    cz_binfile_free(&f);
    free(c);
    free(buf);
    cz_wtns_free(v, cnt);
    free(w);
}

static void test_wtns_roundtrip(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    cz_fr w[17];
    cz_fr_one(&w[0]);
    for (int i = 1; i < 17; i++)
        cz_fr_random(&w[i], &rng);
    char path[] = "/tmp/cz_test_wtns_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    char err[256];
    assert_int_equal(cz_wtns_write(path, w, 17, err, sizeof err), CZ_OK);
    size_t n;
    uint8_t *b = cz_test_read_file(path, &n);
    cz_fr *v;
    uint32_t cnt;
    assert_int_equal(cz_wtns_parse(&v, &cnt, b, n, path, 17, err, sizeof err), CZ_OK);
    assert_memory_equal(v, w, sizeof w);
    cz_wtns_free(v, cnt);
    free(b);
    unlink(path);
}

/* ---- .r1cs ---- */

static void test_r1cs(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = fixture("small.r1cs", &n);
    char err[256];
    cz_r1cs *cs;
    assert_int_equal(cz_r1cs_parse(&cs, b, n, "s.r1cs", err, sizeof err), CZ_OK);
    assert_int_equal(cs->n_wires, 113);
    assert_int_equal(cs->n_constraints, 108);
    assert_int_equal(cs->n_pub_out + cs->n_pub_in, 4);
    /* the A and B terms are the zkey's coefficient records, less the extra rows */
    size_t zn;
    uint8_t *z = fixture("small.zkey", &zn);
    cz_zkey *key;
    assert_int_equal(load(&key, z, zn, err, sizeof err), CZ_OK);
    uint64_t na = 0, nb = 0;
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        na += cs->start[3 * c + 1] - cs->start[3 * c];
        nb += cs->start[3 * c + 2] - cs->start[3 * c + 1];
    }
    assert_int_equal(na + cs->n_pub_out + cs->n_pub_in + 1, key->qa.nnz);
    assert_int_equal(nb, key->qb.nnz);
    /* and the satisfied witness: (A w)(B w) = C w for every constraint */
    size_t wn;
    uint8_t *wb = fixture("small.wtns", &wn);
    cz_fr *w;
    uint32_t cnt;
    assert_int_equal(cz_wtns_parse(&w, &cnt, wb, wn, "w", cs->n_wires, err, sizeof err), CZ_OK);
    for (uint32_t c = 0; c < cs->n_constraints; c++) {
        cz_fr v[3];
        for (int m = 0; m < 3; m++) {
            cz_fr_zero(&v[m]);
            for (uint64_t t = cs->start[3 * c + m]; t < cs->start[3 * c + m + 1]; t++) {
                cz_fr p;
                cz_fr_mul(&p, &cs->terms[t].coef, &w[cs->terms[t].wire]);
                cz_fr_add(&v[m], &v[m], &p);
            }
        }
        cz_fr ab;
        cz_fr_mul(&ab, &v[0], &v[1]);
        assert_true(cz_fr_eq(&ab, &v[2]));
    }
    /* write and read back */
    char path[] = "/tmp/cz_test_r1cs_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    assert_int_equal(cz_r1cs_write(path, cs, err, sizeof err), CZ_OK);
    cz_r1cs *cs2;
    assert_int_equal(cz_r1cs_load(&cs2, path, err, sizeof err), CZ_OK);
    assert_int_equal(cs2->n_terms, cs->n_terms);
    for (uint64_t t = 0; t < cs->n_terms; t++) { /* field by field: the struct has padding */
        assert_int_equal(cs2->terms[t].wire, cs->terms[t].wire);
        assert_true(cz_fr_eq(&cs2->terms[t].coef, &cs->terms[t].coef));
    }
    assert_memory_equal(cs2->start, cs->start, (3 * cs->n_constraints + 1) * sizeof *cs->start);
    unlink(path);
    /* truncations never crash */
    for (size_t cut = 0; cut < n; cut += (cut < 100 ? 1 : 331)) {
        cz_r1cs *t = NULL;
        assert_int_not_equal(cz_r1cs_parse(&t, b, cut, "s.r1cs", err, sizeof err), CZ_OK);
        assert_null(t);
    }
    cz_r1cs_free(cs2);
    cz_wtns_free(w, cnt);
    free(wb);
    cz_zkey_free(key);
    free(z);
    cz_r1cs_free(cs);
    free(b);
}

/* ---- JSON ---- */

static void test_json_vk(void **state)
{
    (void)state;
    size_t n, zn;
    char *txt = (char *)fixture("small_vk.json", &n);
    uint8_t *z = fixture("small.zkey", &zn);
    char err[256];
    cz_vk *vk, *vk2;
    cz_zkey *key;
    assert_int_equal(cz_vk_from_json(&vk, txt, n, "vk.json", err, sizeof err), CZ_OK);
    assert_int_equal(load(&key, z, zn, err, sizeof err), CZ_OK);
    assert_int_equal(cz_vk_from_zkey(&vk2, key), CZ_OK);
    assert_int_equal(vk->n_public, 4);
    assert_true(cz_g1_affine_eq(&vk->alpha1, &vk2->alpha1));
    assert_true(cz_g2_affine_eq(&vk->beta2, &vk2->beta2));
    assert_true(cz_g2_affine_eq(&vk->gamma2, &vk2->gamma2));
    assert_true(cz_g2_affine_eq(&vk->delta2, &vk2->delta2));
    for (uint32_t i = 0; i <= vk->n_public; i++)
        assert_true(cz_g1_affine_eq(&vk->ic[i], &vk2->ic[i]));
    /* writer -> reader round trip */
    char *out = cz_vk_to_json(vk2, NULL);
    assert_non_null(out);
    cz_vk *vk3;
    assert_int_equal(cz_vk_from_json(&vk3, out, strlen(out), "out", err, sizeof err), CZ_OK);
    assert_true(cz_g2_affine_eq(&vk3->delta2, &vk2->delta2));
    assert_true(cz_g1_affine_eq(&vk3->ic[4], &vk2->ic[4]));
    cz_vk_free(vk3);
    free(out);
    /* BN254 vk: curve error */
    size_t bn;
    char *b = (char *)fixture("bn254/small_vk.json", &bn);
    assert_int_equal(cz_vk_from_json(&vk3, b, bn, "bn.json", err, sizeof err), CZ_ERR_CURVE);
    free(b);
    /* garbage, wrong shapes */
    assert_int_equal(cz_vk_from_json(&vk3, "garbage", 7, "g", err, sizeof err), CZ_ERR_FORMAT);
    assert_int_equal(cz_vk_from_json(&vk3, "[]", 2, "g", err, sizeof err), CZ_ERR_FORMAT);
    assert_int_equal(cz_vk_from_json(&vk3, "{}", 2, "g", err, sizeof err), CZ_ERR_FORMAT);
    cz_vk_free(vk);
    cz_vk_free(vk2);
    cz_zkey_free(key);
    free(z);
    free(txt);
}

static void test_json_proof(void **state)
{
    (void)state;
    size_t n;
    char *txt = (char *)fixture("small_proof.json", &n);
    char err[256];
    cz_proof p, q;
    assert_int_equal(cz_proof_from_json(&p, txt, n, "proof.json", err, sizeof err), CZ_OK);
    char *out = cz_proof_to_json(&p);
    assert_non_null(out);
    assert_non_null(strstr(out, "\"protocol\": \"groth16\""));
    assert_non_null(strstr(out, "\"curve\": \"bls12381\""));
    assert_int_equal(cz_proof_from_json(&q, out, strlen(out), "out", err, sizeof err), CZ_OK);
    assert_memory_equal(&p, &q, sizeof p);
    free(out);
    /* off the curve: y + 1 */
    char *bad = strdup(txt);
    char *y = strstr(bad, "pi_a");
    y = strchr(y, ',');
    y = strchr(y, '"') + 1; /* first digit of y */
    char *e = strchr(y, '"') - 1;
    *e = (char)(*e == '9' ? '8' : *e + 1);
    assert_int_equal(cz_proof_from_json(&q, bad, strlen(bad), "bad.json", err, sizeof err),
                     CZ_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(err, "bad.json"));
    assert_non_null(strstr(err, "pi_a"));
    free(bad);
    assert_int_equal(cz_proof_from_json(&q, "{\"pi_a\": [1, 2", 14, "c", err, sizeof err), CZ_ERR_FORMAT);
    assert_int_equal(cz_proof_from_json(&q, "{}", 2, "c", err, sizeof err), CZ_ERR_FORMAT);
    free(txt);
}

static void test_json_public(void **state)
{
    (void)state;
    char err[256];
    cz_fr *v;
    size_t n;
    const char *ok = "[\"1\", \"0\", \"52435875175126190479447740508185965837690552500527637822603658699938581184512\"]";
    assert_int_equal(cz_public_from_json(&v, &n, ok, strlen(ok), "p", err, sizeof err), CZ_OK);
    assert_int_equal(n, 3);
    cz_fr m1;
    cz_fr_one(&m1);
    cz_fr_neg(&m1, &m1);
    assert_true(cz_fr_eq(&v[2], &m1)); /* r - 1 */
    char *out = cz_public_to_json(v, n);
    assert_non_null(strstr(out, "\"52435875175126190479447740508185965837690552500527637822603658699938581184512\""));
    free(out);
    free(v);
    const char *r = "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]";
    assert_int_equal(cz_public_from_json(&v, &n, r, strlen(r), "p", err, sizeof err), CZ_ERR_RANGE);
    assert_int_equal(cz_public_from_json(&v, &n, "[\"12x\"]", 7, "p", err, sizeof err), CZ_ERR_FORMAT);
    assert_int_equal(cz_public_from_json(&v, &n, "{}", 2, "p", err, sizeof err), CZ_ERR_FORMAT);
    assert_int_equal(cz_public_from_json(&v, &n, "[]", 2, "p", err, sizeof err), CZ_OK);
    assert_int_equal(n, 0);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binfile_sections),
        cmocka_unit_test(test_zkey_fixture),
        cmocka_unit_test(test_zkey_section_order),
        cmocka_unit_test(test_zkey_truncated),
        cmocka_unit_test(test_zkey_flipped),
        cmocka_unit_test(test_zkey_header_faults),
        cmocka_unit_test(test_zkey_bn254),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_not_regular_files),
        cmocka_unit_test(test_magic_not_echoed),
        cmocka_unit_test(test_zkey_huge_domain),
        cmocka_unit_test(test_zkey_private_copy),
        cmocka_unit_test(test_path_policy),
        cmocka_unit_test(test_wtns),
        cmocka_unit_test(test_wtns_parse_into),
        cmocka_unit_test(test_wtns_roundtrip),
        cmocka_unit_test(test_r1cs),
        cmocka_unit_test(test_json_vk),
        cmocka_unit_test(test_json_proof),
        cmocka_unit_test(test_json_public),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
