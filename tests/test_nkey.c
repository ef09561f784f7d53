/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_nkey.c: the compact key file (.czk, src/io/nkey.c, docs/KEYFORMAT.md).
 *
 * A small hand-made circuit (a chain acc' = acc^2 + 3 b over boolean b,
 * the last acc public) is recorded, its key made in memory
 * (cz_zkey_from_shape, seeded), written and loaded back: every point,
 * matrix entry, coefficient and B index is the same, and a proof with the
 * loaded key equals the proof with the original (fixed r, s) and verifies.
 * Then the file is damaged: every section with one byte changed, the file
 * cut at every section boundary and in the middle of every section, every
 * header byte changed: each is refused with the section (or the header)
 * named, never a crash. Points that are off the curve or outside the
 * subgroup, a column or a coefficient index out of range, with the
 * checksums made valid again, are refused too, naming the section and the
 * item. A seeded mutation loop (print the seed, replay with CZ_TEST_SEED)
 * checks that any other damage is refused or gives a consistent key.
 * The key has C folded (cz_setup_opts.fold_c: the C publics section is
 * not empty, the flag is set); the same key without, rewritten as a
 * version 1 file (15 sections), still loads and proves.
 * A snarkjs key (tests/fixtures/small.zkey) compacted round-trips too.
 * CZ_NKEY_WRITE_SEED=PATH writes the small key to PATH (the fuzz corpus's
 * seed, tests/fuzz/seeds/toy.czk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "test_util.h"

#include "backend/backend.h"
#include "cuzk/circuit.h"
#include "groth16/groth16.h"
#include "io/binfile.h"
#include "io/nkey.h"

#define STEPS 24

/* The circuit; vals NULL in SHAPE mode. */
static void toy_circuit(cz_cs *cs, const uint64_t *bits, uint64_t start)
{
    bool v = cz_cs_has_values(cs);
    cz_fr acc, one, three, m3, mone;
    cz_fr_one(&one);
    cz_fr_set_u64(&three, 3);
    cz_fr_neg(&m3, &three);
    cz_fr_neg(&mone, &one);
    cz_fr_set_u64(&acc, start);
    cz_var a = cz_cs_alloc(cs, v ? &acc : NULL);
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc);
    for (int i = 0; i < STEPS; i++) {
        int bit = v ? (int)((bits[0] >> i) & 1) : 0;
        cz_var b = cz_cs_alloc_bit(cs, bit);
        /* b (1 - b) = 0 */
        cz_lc_clear(&la);
        cz_lc_clear(&lb);
        cz_lc_clear(&lc);
        cz_lc_add(&la, b, &one);
        cz_lc_add(&lb, cz_var_one(), &one);
        cz_lc_add(&lb, b, &mone);
        cz_cs_enforce(cs, &la, &lb, &lc);
        /* acc * acc = next - 3 b */
        cz_fr next;
        if (v) {
            cz_fr t;
            cz_fr_sqr(&next, &acc);
            cz_fr_set_u64(&t, (uint64_t)bit * 3);
            cz_fr_add(&next, &next, &t);
        }
        cz_var n = i == STEPS - 1 ? cz_cs_alloc_input(cs, v ? &next : NULL)
                                  : cz_cs_alloc(cs, v ? &next : NULL);
        cz_lc_clear(&la);
        cz_lc_clear(&lb);
        cz_lc_clear(&lc);
        cz_lc_add(&la, a, &one);
        cz_lc_add(&lb, a, &one);
        cz_lc_add(&lc, n, &one);
        cz_lc_add(&lc, b, &m3);
        cz_cs_enforce(cs, &la, &lb, &lc);
        a = n;
        acc = next;
    }
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
}

typedef struct {
    cz_shape *shape;
    cz_zkey *key;       /* from the shape, seeded */
    cz_fr *w;
    uint32_t nw;
    uint8_t *file;      /* the key written */
    size_t len;
    cz_nkey_info info;
    char path[256];
    cz_backend *be;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    char err[512];
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    toy_circuit(cs, NULL, 0);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    assert_int_equal(cz_cs_take_shape(cs, &f->shape, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    f->nw = 1 + f->shape->n_public + (uint32_t)f->shape->n_aux;
    f->w = calloc(f->nw, sizeof *f->w);
    uint64_t bits = 0x5a5a3cULL;
    assert_int_equal(cz_cs_new_witness(&cs, f->w, f->shape->n_public, f->shape->n_aux), CZ_OK);
    toy_circuit(cs, &bits, 7);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_int_equal(cz_shape_check(f->shape, f->w, err, sizeof err), CZ_OK);

    cz_setup_opts o = {.seeded = true, .seed = 11, .threads = 2, .fold_c = true};
    cz_status st = cz_zkey_from_shape(&f->key, f->shape, &o, NULL, err, sizeof err);
    if (st)
        fail_msg("cz_zkey_from_shape: %s", err);
    assert_true(f->key->compact);
    snprintf(f->path, sizeof f->path, "%s/test_nkey.%ld.czk", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    uint8_t digest[16];
    cz_nkey_shape_digest(digest, f->shape);
    cz_nkey_meta meta = {.circuit = "toy-chain", .shape_digest = digest,
                         .flags = CZ_NKEY_FLAG_DEVELOPMENT, .threads = 2};
    st = cz_nkey_write(f->path, f->key, &meta, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_write: %s", err);
    f->file = cz_test_read_file(f->path, &f->len);
    assert_non_null(f->file);
    assert_int_equal(cz_nkey_peek(&f->info, f->path, err, sizeof err), CZ_OK);
    assert_memory_equal(f->info.shape_digest, digest, 16);
    const char *seed_out = getenv("CZ_NKEY_WRITE_SEED");
    if (seed_out) {
        FILE *fp = fopen(seed_out, "wb");
        assert_non_null(fp);
        assert_int_equal(fwrite(f->file, 1, f->len, fp), f->len);
        fclose(fp);
    }
    assert_int_equal(cz_backend_create(&f->be, "cpu", 2, err, sizeof err), CZ_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    unlink(f->path);
    cz_backend_destroy(f->be);
    free(f->file);
    free(f->w);
    cz_zkey_free(f->key);
    cz_shape_free(f->shape);
    free(f);
    return 0;
}

static void same_key(const cz_zkey *a, const cz_zkey *b)
{
    assert_int_equal(a->n_vars, b->n_vars);
    assert_int_equal(a->n_public, b->n_public);
    assert_int_equal(a->domain_size, b->domain_size);
    assert_int_equal(a->log_n, b->log_n);
    assert_true(b->compact);
    assert_true(cz_g1_affine_eq(&a->alpha1, &b->alpha1));
    assert_true(cz_g1_affine_eq(&a->beta1, &b->beta1));
    assert_true(cz_g1_affine_eq(&a->delta1, &b->delta1));
    assert_true(cz_g2_affine_eq(&a->beta2, &b->beta2));
    assert_true(cz_g2_affine_eq(&a->gamma2, &b->gamma2));
    assert_true(cz_g2_affine_eq(&a->delta2, &b->delta2));
    uint32_t nb = a->b_idx ? a->n_b : a->n_vars;
    assert_int_equal(b->n_b, nb);
    assert_memory_equal(a->ic, b->ic, (a->n_public + 1) * sizeof *a->ic);
    assert_memory_equal(a->a, b->a, a->n_vars * sizeof *a->a);
    assert_memory_equal(a->b1, b->b1, nb * sizeof *a->b1);
    assert_memory_equal(a->b2, b->b2, nb * sizeof *a->b2);
    assert_memory_equal(a->c, b->c, (a->n_vars - a->n_public - 1) * sizeof *a->c);
    assert_memory_equal(a->h, b->h, a->domain_size * sizeof *a->h);
    assert_int_equal(!a->cpub, !b->cpub);
    if (a->cpub)
        assert_memory_equal(a->cpub, b->cpub, (a->n_public + 1) * sizeof *a->cpub);
    for (uint32_t i = 0; i < nb; i++)
        assert_int_equal(b->b_idx[i], a->b_idx ? a->b_idx[i] : i);
    assert_int_equal(a->n_coefs, b->n_coefs);
    assert_memory_equal(a->coefs, b->coefs, a->n_coefs * sizeof *a->coefs);
    const cz_cmat *ma[2] = {&a->ca, &a->cb}, *mb[2] = {&b->ca, &b->cb};
    for (int m = 0; m < 2; m++) {
        assert_int_equal(ma[m]->n_rows, mb[m]->n_rows);
        assert_int_equal(ma[m]->nnz, mb[m]->nnz);
        assert_memory_equal(ma[m]->row_ptr, mb[m]->row_ptr, (ma[m]->n_rows + 1) * sizeof(uint64_t));
        assert_memory_equal(ma[m]->col, mb[m]->col, ma[m]->nnz * sizeof(uint32_t));
        assert_memory_equal(ma[m]->coef, mb[m]->coef, ma[m]->nnz * sizeof(uint16_t));
    }
    assert_int_not_equal(a->uid, b->uid);
}

static void test_round_trip(void **state)
{
    fixture *f = *state;
    char err[512];
    cz_zkey *k = NULL;
    cz_status st = cz_nkey_load(&k, f->path, NULL, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_load: %s", err);
    same_key(f->key, k);
    /* the header says what the key is */
    assert_string_equal(f->info.circuit, "toy-chain");
    assert_int_equal(f->info.flags, CZ_NKEY_FLAG_DEVELOPMENT | CZ_NKEY_FLAG_FOLDED_C);
    assert_int_equal(f->info.version, CZ_NKEY_VERSION);
    assert_int_equal(f->info.n_sections, CZ_NKEY_SECTIONS);
    assert_non_null(f->key->cpub);
    assert_int_equal(f->info.sections[CZ_NKEY_CPUB - 1].length, 48ull * (f->key->n_public + 1));
    assert_int_equal(f->info.n_vars, f->key->n_vars);
    assert_int_equal(f->info.file_bytes, f->len);
    assert_true(f->info.mem_bytes >= f->info.point_bytes + f->info.matrix_bytes);
    /* points compressed: H takes 48 bytes a point */
    assert_int_equal(f->info.sections[CZ_NKEY_H - 1].length, 48ull * f->key->domain_size);
    /* the whole file verifies */
    cz_nkey_info vi;
    assert_int_equal(cz_nkey_verify(&vi, f->path, err, sizeof err), CZ_OK);
    /* from bytes too */
    cz_zkey *k2 = NULL;
    assert_int_equal(cz_nkey_load_bytes(&k2, f->file, f->len, "toy.czk", NULL, err, sizeof err), CZ_OK);
    same_key(f->key, k2);
    cz_zkey_free(k2);
    /* one thread, and a decompression hook */
    cz_nkey_load_opts o1 = {.threads = 1};
    assert_int_equal(cz_nkey_load_bytes(&k2, f->file, f->len, "toy.czk", &o1, err, sizeof err), CZ_OK);
    same_key(f->key, k2);
    cz_zkey_free(k2);

    /* the same proof from both keys (fixed r, s), and it verifies */
    cz_fr rs[2];
    cz_fr_set_u64(&rs[0], 12345);
    cz_fr_set_u64(&rs[1], 67890);
    cz_proof p1, p2;
    st = cz_groth16_prove(&p1, f->key, f->w, f->be, rs, NULL, err, sizeof err);
    if (st)
        fail_msg("prove (original key): %s", err);
    st = cz_groth16_prove(&p2, k, f->w, f->be, rs, NULL, err, sizeof err);
    if (st)
        fail_msg("prove (loaded key): %s", err);
    assert_memory_equal(&p1, &p2, sizeof p1);
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, k), CZ_OK);
    st = cz_groth16_verify(vk, f->w + 1, k->n_public, &p2, err, sizeof err);
    if (st)
        fail_msg("verify: %s", err);
    /* a wrong public input does not */
    cz_fr bad = f->w[1];
    cz_fr one;
    cz_fr_one(&one);
    cz_fr_add(&bad, &bad, &one);
    assert_int_equal(cz_groth16_verify(vk, &bad, 1, &p2, err, sizeof err), CZ_ERR_VERIFY);
    cz_vk_free(vk);
    cz_zkey_free(k);

    /* the verification key alone */
    cz_nkey_load_opts vo = {.vk_only = true};
    cz_zkey *kv = NULL;
    assert_int_equal(cz_nkey_load_bytes(&kv, f->file, f->len, "toy.czk", &vo, err, sizeof err), CZ_OK);
    assert_null(kv->a);
    assert_null(kv->h);
    cz_vk *vk1, *vk2;
    assert_int_equal(cz_vk_from_zkey(&vk1, f->key), CZ_OK);
    assert_int_equal(cz_vk_from_zkey(&vk2, kv), CZ_OK);
    assert_int_equal(vk1->n_public, vk2->n_public);
    assert_true(cz_g1_affine_eq(&vk1->alpha1, &vk2->alpha1));
    assert_true(cz_g2_affine_eq(&vk1->beta2, &vk2->beta2));
    assert_true(cz_g2_affine_eq(&vk1->gamma2, &vk2->gamma2));
    assert_true(cz_g2_affine_eq(&vk1->delta2, &vk2->delta2));
    assert_memory_equal(vk1->ic, vk2->ic, (vk1->n_public + 1) * sizeof *vk1->ic);
    cz_vk_free(vk1);
    cz_vk_free(vk2);
    cz_zkey_free(kv);

    /* a mem_limit below what the header says is refused before allocation */
    cz_nkey_load_opts small = {.mem_limit = f->info.mem_bytes - 1};
    assert_int_equal(cz_nkey_load_bytes(&k, f->file, f->len, "toy.czk", &small, err, sizeof err),
                     CZ_ERR_NOMEM);
    assert_null(k);
    assert_non_null(strstr(err, "more than the"));
}

/* The hook: count the points it is given and decompress them on the CPU. */
static size_t hook_points;
static cz_status count_hook(void *ctx, bool g2, void *out, const uint8_t *in, size_t n,
                            size_t *first_bad)
{
    (void)ctx;
    hook_points += n;
    for (size_t i = 0; i < n; i++) {
        cz_status st = g2 ? cz_g2_from_compressed((cz_g2_affine *)out + i, in + 96 * i)
                          : cz_g1_from_compressed((cz_g1_affine *)out + i, in + 48 * i);
        if (st) {
            *first_bad = i;
            return st;
        }
    }
    return CZ_OK;
}

static void test_hook(void **state)
{
    fixture *f = *state;
    char err[512];
    cz_zkey *k = NULL;
    hook_points = 0;
    cz_nkey_load_opts o = {.decompress = count_hook};
    assert_int_equal(cz_nkey_load_bytes(&k, f->file, f->len, "toy.czk", &o, err, sizeof err), CZ_OK);
    same_key(f->key, k);
    size_t want = 2 * (f->key->n_public + 1) + f->key->n_vars + 2 * (size_t)k->n_b +
                  (f->key->n_vars - f->key->n_public - 1) + f->key->domain_size;
    assert_int_equal(hook_points, want);
    cz_zkey_free(k);
}

/* Load damaged bytes: refused, no key, and the message holds `want`. */
static void refused(const uint8_t *data, size_t len, const char *want, const char *what)
{
    char err[512] = "";
    cz_zkey *k = (cz_zkey *)1;
    cz_status st = cz_nkey_load_bytes(&k, data, len, "key.czk", NULL, err, sizeof err);
    if (st == CZ_OK)
        fail_msg("%s: accepted", what);
    assert_null(k);
    if (!strstr(err, want))
        fail_msg("%s: message \"%s\" does not say \"%s\"", what, err, want);
    if (strncmp(err, "key.czk: ", 9) != 0)
        fail_msg("%s: message \"%s\" does not start with the file's name", what, err);
}

static void test_corrupt_sections(void **state)
{
    fixture *f = *state;
    uint8_t *b = malloc(f->len);
    for (uint32_t i = 0; i < CZ_NKEY_SECTIONS; i++) {
        const cz_nkey_section_info *s = &f->info.sections[i];
        if (s->length == 0)
            continue;
        uint64_t at[3] = {s->offset, s->offset + s->length / 2, s->offset + s->length - 1};
        for (int j = 0; j < 3; j++) {
            memcpy(b, f->file, f->len);
            b[at[j]] ^= 0x10;
            char want[96], what[96];
            snprintf(want, sizeof want, "section %s: checksum mismatch", s->name);
            snprintf(what, sizeof what, "byte %llu of section %s changed",
                     (unsigned long long)(at[j] - s->offset), s->name);
            refused(b, f->len, want, what);
        }
    }
    /* the same through a file (pread) */
    const cz_nkey_section_info *h = &f->info.sections[CZ_NKEY_H - 1];
    memcpy(b, f->file, f->len);
    b[h->offset + 5] ^= 1;
    char path[300], err[512];
    snprintf(path, sizeof path, "%s.bad", f->path);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(b, 1, f->len, fp), f->len);
    fclose(fp);
    cz_zkey *k = NULL;
    assert_int_equal(cz_nkey_load(&k, path, NULL, err, sizeof err), CZ_ERR_FORMAT);
    assert_null(k);
    char want[400];
    snprintf(want, sizeof want, "%s: section H: checksum mismatch", path);
    assert_string_equal(err, want);
    cz_nkey_info vi;
    assert_int_equal(cz_nkey_verify(&vi, path, err, sizeof err), CZ_ERR_FORMAT);
    assert_string_equal(err, want);
    unlink(path);
    /* nonzero padding between sections */
    for (uint32_t i = 0; i + 1 < CZ_NKEY_SECTIONS; i++) {
        const cz_nkey_section_info *s = &f->info.sections[i];
        uint64_t end = s->offset + s->length;
        if (f->info.sections[i + 1].offset > end) {
            memcpy(b, f->file, f->len);
            b[end] = 1;
            char w2[96];
            snprintf(w2, sizeof w2, "section %s: the padding after it is not zero", s->name);
            refused(b, f->len, w2, "padding");
        }
    }
    free(b);
}

static void test_truncated(void **state)
{
    fixture *f = *state;
    for (uint32_t i = 0; i < CZ_NKEY_SECTIONS; i++) {
        const cz_nkey_section_info *s = &f->info.sections[i];
        if (s->length == 0)
            continue;
        char want[96], what[96];
        snprintf(want, sizeof want, "section %s: truncated", s->name);
        /* at the boundary before it (the padding of the previous section
           kept or not), and in its middle */
        uint64_t cuts[3] = {s->offset, s->offset + s->length / 2, s->offset + s->length - 1};
        for (int j = 0; j < 3; j++) {
            snprintf(what, sizeof what, "cut at byte %llu (section %s)", (unsigned long long)cuts[j],
                     s->name);
            refused(f->file, cuts[j], want, what);
        }
        if (i > 0) {
            const cz_nkey_section_info *p = &f->info.sections[i - 1];
            refused(f->file, p->offset + p->length, want, "cut after the previous section's data");
        }
    }
    /* in the header */
    static const size_t hcuts[] = {1, 7, 8, 100, 127, 128, 400, 615, 647};
    for (size_t j = 0; j < sizeof hcuts / sizeof *hcuts; j++)
        refused(f->file, hcuts[j], "header", "cut in the header");
    refused(f->file, 0, "empty", "empty");
    /* stray bytes at the end */
    uint8_t *b = malloc(f->len + 8);
    memcpy(b, f->file, f->len);
    memset(b + f->len, 0, 8);
    refused(b, f->len + 8, "stray bytes", "8 bytes appended");
    free(b);
}

static void test_header_bytes(void **state)
{
    fixture *f = *state;
    uint8_t *b = malloc(f->len);
    for (size_t i = 0; i < f->info.sections[0].offset; i++) {
        memcpy(b, f->file, f->len);
        b[i] ^= 0x01;
        char err[512] = "";
        cz_zkey *k = NULL;
        cz_status st = cz_nkey_load_bytes(&k, b, f->len, "key.czk", NULL, err, sizeof err);
        if (st == CZ_OK)
            fail_msg("header byte %zu changed: accepted", i);
        assert_null(k);
        if (!strstr(err, "header") && !strstr(err, "magic"))
            fail_msg("header byte %zu changed: \"%s\" names neither the header nor the magic", i,
                     err);
    }
    free(b);
}

/* Rewrite the checksum of section i and the header's: damage that a
   faulty writer could make, which the checksums cannot catch. */
static void reseal(uint8_t *b, const cz_nkey_info *info, uint32_t id)
{
    const cz_nkey_section_info *s = &info->sections[id - 1];
    uint64_t sum = XXH3_64bits(b + s->offset, s->length);
    uint8_t *e = b + 128 + 32 * (id - 1);
    cz_put_le64(e + 24, sum);
    uint64_t hs = XXH3_64bits(b, 648 - 8);
    cz_put_le64(b + 648 - 8, hs);
}

/* A version 1 file (15 sections, a 616-byte header, no C publics) from a
   version 2 file without them: the sections move 32 bytes down, and the
   file ends with section 15 (no padding after the last section). */
static uint8_t *to_version1(const uint8_t *v2, size_t len, size_t *out_len)
{
    const uint8_t *e15 = v2 + 128 + 32 * 14;
    size_t end = (size_t)(cz_le64(e15 + 8) + cz_le64(e15 + 16));
    assert_true(end <= len && len - end < 8);
    len = end;
    uint8_t *b = malloc(len - 32);
    assert_non_null(b);
    assert_int_equal(cz_le32(v2 + 20) & CZ_NKEY_FLAG_FOLDED_C, 0);
    memcpy(b, v2, 128 + 15 * 32);
    cz_put_le32(b + 8, 1);
    cz_put_le32(b + 12, 616);
    cz_put_le32(b + 52, 15);
    for (int i = 0; i < 15; i++) {
        uint8_t *e = b + 128 + 32 * i;
        cz_put_le64(e + 8, cz_le64(e + 8) - 32);
    }
    memcpy(b + 616, v2 + 648, len - 648);
    cz_put_le64(b + 608, XXH3_64bits(b, 608));
    *out_len = len - 32;
    return b;
}

static void test_version1(void **state)
{
    fixture *f = *state;
    char err[512], path[300];
    cz_setup_opts o = {.seeded = true, .seed = 11, .threads = 2};
    cz_zkey *plain = NULL, *k = NULL;
    assert_int_equal(cz_zkey_from_shape(&plain, f->shape, &o, NULL, err, sizeof err), CZ_OK);
    assert_null(plain->cpub);
    snprintf(path, sizeof path, "%s.v2", f->path);
    assert_int_equal(cz_nkey_write(path, plain, NULL, err, sizeof err), CZ_OK);
    size_t len, len1;
    uint8_t *v2 = cz_test_read_file(path, &len);
    assert_non_null(v2);
    unlink(path);
    assert_int_equal(cz_le32(v2 + 20), 0); /* no flag: the C publics section is empty */
    uint8_t *v1 = to_version1(v2, len, &len1);
    cz_status st = cz_nkey_load_bytes(&k, v1, len1, "v1.czk", NULL, err, sizeof err);
    if (st)
        fail_msg("version 1: %s", err);
    same_key(plain, k);
    assert_null(k->cpub);
    /* its proof equals the folded key's (fixed r, s) */
    cz_fr rs[2];
    cz_fr_set_u64(&rs[0], 5);
    cz_fr_set_u64(&rs[1], 6);
    cz_proof p1, p2;
    assert_int_equal(cz_groth16_prove(&p1, k, f->w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_int_equal(cz_groth16_prove(&p2, f->key, f->w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_equal(&p1, &p2, sizeof p1);
    cz_zkey_free(k);
    /* a version 1 header cannot carry the folded flag */
    cz_put_le32(v1 + 20, CZ_NKEY_FLAG_FOLDED_C);
    cz_put_le64(v1 + 608, XXH3_64bits(v1, 608));
    refused(v1, len1, "unknown flags", "version 1 with C folded");
    free(v1);
    free(v2);
    cz_zkey_free(plain);
}

static void test_bad_contents(void **state)
{
    fixture *f = *state;
    uint8_t *b = malloc(f->len);
    const cz_nkey_section_info *a = &f->info.sections[CZ_NKEY_A - 1];
    /* A point 1 (not infinity: a private variable) moved off the curve, then
       into the wrong subgroup */
    int found_off = 0, found_sub = 0;
    for (int t = 1; t < 4000 && !(found_off && found_sub); t++) {
        memcpy(b, f->file, f->len);
        uint8_t *p = b + a->offset + 48;
        if (p[0] & 0x40)
            fail_msg("A point 1 is infinity");
        p[47] = (uint8_t)(p[47] + t);
        p[46] = (uint8_t)(p[46] + (t >> 8));
        cz_g1_affine q;
        cz_status st = cz_g1_from_compressed(&q, p);
        if (st == CZ_ERR_NOT_ON_CURVE && !found_off) {
            reseal(b, &f->info, CZ_NKEY_A);
            refused(b, f->len, "section A: point 1: ", "A point off the curve, resealed");
            char err[512];
            cz_zkey *k = NULL;
            assert_int_equal(cz_nkey_load_bytes(&k, b, f->len, "key.czk", NULL, err, sizeof err),
                             CZ_ERR_NOT_ON_CURVE);
            found_off = 1;
        } else if (st == CZ_ERR_SUBGROUP && !found_sub) {
            reseal(b, &f->info, CZ_NKEY_A);
            char err[512];
            cz_zkey *k = NULL;
            assert_int_equal(cz_nkey_load_bytes(&k, b, f->len, "key.czk", NULL, err, sizeof err),
                             CZ_ERR_SUBGROUP);
            assert_non_null(strstr(err, "section A: point 1: "));
            found_sub = 1;
        }
    }
    assert_true(found_off && found_sub);

    /* a B2 point off the curve */
    const cz_nkey_section_info *b2 = &f->info.sections[CZ_NKEY_B2 - 1];
    for (int t = 1; t < 4000; t++) {
        memcpy(b, f->file, f->len);
        uint8_t *p = b + b2->offset + 96 * (f->info.n_b - 1);
        p[95] = (uint8_t)(p[95] + t);
        cz_g2_affine q;
        if (cz_g2_from_compressed(&q, p) == CZ_ERR_NOT_ON_CURVE) {
            reseal(b, &f->info, CZ_NKEY_B2);
            char want[64];
            snprintf(want, sizeof want, "section B2: point %u: ", f->info.n_b - 1);
            refused(b, f->len, want, "B2 point off the curve, resealed");
            break;
        }
        assert_true(t < 3999);
    }

    /* a column out of range */
    const cz_nkey_section_info *ac = &f->info.sections[CZ_NKEY_A_COLS - 1];
    memcpy(b, f->file, f->len);
    cz_put_le32(b + ac->offset + 4 * 3, f->info.n_vars);
    reseal(b, &f->info, CZ_NKEY_A_COLS);
    refused(b, f->len, "section A columns: entry 3: column", "column = n_vars");
    /* a coefficient index out of range */
    const cz_nkey_section_info *bc = &f->info.sections[CZ_NKEY_B_COEF - 1];
    memcpy(b, f->file, f->len);
    b[bc->offset] = 0xff;
    b[bc->offset + 1] = 0xff;
    reseal(b, &f->info, CZ_NKEY_B_COEF);
    refused(b, f->len, "section B coefficient indices: entry 0", "coefficient index 65535");
    /* row lengths that do not add up */
    const cz_nkey_section_info *ar = &f->info.sections[CZ_NKEY_A_ROWS - 1];
    memcpy(b, f->file, f->len);
    cz_put_le32(b + ar->offset, cz_le32(b + ar->offset) + 1);
    reseal(b, &f->info, CZ_NKEY_A_ROWS);
    refused(b, f->len, "section A rows:", "row lengths one too many");
    /* a coefficient not below r */
    const cz_nkey_section_info *co = &f->info.sections[CZ_NKEY_COEFS - 1];
    memcpy(b, f->file, f->len);
    memset(b + co->offset + 32, 0xff, 32);
    reseal(b, &f->info, CZ_NKEY_COEFS);
    refused(b, f->len, "section coefficients: coefficient 1 is not below r", "coefficient >= r");
    /* B index not ascending */
    const cz_nkey_section_info *bi = &f->info.sections[CZ_NKEY_B_IDX - 1];
    if (f->info.n_b >= 2) {
        memcpy(b, f->file, f->len);
        memcpy(b + bi->offset + 4, b + bi->offset, 4);
        reseal(b, &f->info, CZ_NKEY_B_IDX);
        refused(b, f->len, "section B index: entry 1", "B index repeated");
    }
    /* a vk point off the curve */
    const cz_nkey_section_info *vk = &f->info.sections[CZ_NKEY_VK - 1];
    memcpy(b, f->file, f->len);
    b[vk->offset + 95] ^= 1;
    reseal(b, &f->info, CZ_NKEY_VK);
    refused(b, f->len, "section vk: alpha1", "alpha1 changed, resealed");
    free(b);
}

/* Seeded mutations: refused with a message, or a key whose arrays are
   consistent (the checks of the reader hold). */
static void test_mutations(void **state)
{
    fixture *f = *state;
    cz_rng rng;
    cz_test_rng(&rng);
    uint8_t *b = malloc(f->len);
    int iters = cz_test_iters(300), accepted = 0;
    for (int it = 0; it < iters; it++) {
        memcpy(b, f->file, f->len);
        size_t len = f->len;
        int kind = (int)(cz_rng_u64(&rng) % 4);
        int nflip = 1 + (int)(cz_rng_u64(&rng) % 4);
        for (int j = 0; j < nflip; j++)
            b[cz_rng_u64(&rng) % len] ^= (uint8_t)(1 + cz_rng_u64(&rng) % 255);
        if (kind == 1)
            len = cz_rng_u64(&rng) % len;
        if (kind >= 2) /* reseal every section and the header */
            for (uint32_t id = 1; id <= CZ_NKEY_SECTIONS; id++)
                reseal(b, &f->info, id);
        char err[512] = "";
        cz_zkey *k = NULL;
        cz_status st = cz_nkey_load_bytes(&k, b, len, "key.czk", NULL, err, sizeof err);
        if (st) {
            assert_null(k);
            if (strncmp(err, "key.czk: ", 9) != 0)
                fail_msg("iteration %d: refused with \"%s\"", it, err);
            continue;
        }
        accepted++;
        for (uint64_t i = 0; i < k->ca.nnz; i++)
            assert_true(k->ca.col[i] < k->n_vars && k->ca.coef[i] < k->n_coefs);
        for (uint64_t i = 0; i < k->cb.nnz; i++)
            assert_true(k->cb.col[i] < k->n_vars && k->cb.coef[i] < k->n_coefs);
        for (uint32_t r = 0; r < k->ca.n_rows; r++)
            assert_true(k->ca.row_ptr[r] <= k->ca.row_ptr[r + 1]);
        assert_int_equal(k->ca.row_ptr[k->ca.n_rows], k->ca.nnz);
        for (uint32_t i = 0; i < k->n_vars; i++)
            assert_true(cz_g1_affine_in_subgroup(&k->a[i]));
        cz_zkey_free(k);
    }
    print_message("mutations: %d of %d accepted (resealed flips of unchecked bits)\n", accepted,
                  iters);
    free(b);
}

static void test_writer_refuses(void **state)
{
    fixture *f = *state;
    char err[512], path[300];
    snprintf(path, sizeof path, "%s.w", f->path);
    /* a key not in compact form */
    cz_zkey k = *f->key;
    k.compact = false;
    assert_int_equal(cz_nkey_write(path, &k, NULL, err, sizeof err), CZ_ERR_ARG);
    assert_non_null(strstr(err, "compact"));
    assert_int_equal(access(path, F_OK), -1);
    /* a name too long */
    cz_nkey_meta m = {.circuit = "a-circuit-name-that-is-far-too-long-for-the-field"};
    assert_int_equal(cz_nkey_write(path, f->key, &m, err, sizeof err), CZ_ERR_ARG);
    /* a folder that does not exist: nothing left behind */
    assert_int_equal(cz_nkey_write("/nonexistent-dir/x.czk", f->key, NULL, err, sizeof err),
                     CZ_ERR_IO);
    /* no meta: no name, zero digest */
    assert_int_equal(cz_nkey_write(path, f->key, NULL, err, sizeof err), CZ_OK);
    cz_nkey_info info;
    assert_int_equal(cz_nkey_peek(&info, path, err, sizeof err), CZ_OK);
    assert_string_equal(info.circuit, "");
    static const uint8_t zero[16];
    assert_memory_equal(info.shape_digest, zero, 16);
    /* not a key file */
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("zkey, or rather not a key at all\n", fp);
    fclose(fp);
    assert_int_equal(cz_nkey_peek(&info, path, err, sizeof err), CZ_ERR_FORMAT);
    assert_non_null(strstr(err, "magic"));
    unlink(path);
}

static void test_shape_digest(void **state)
{
    fixture *f = *state;
    uint8_t d1[16], d2[16];
    cz_nkey_shape_digest(d1, f->shape);
    cz_nkey_shape_digest(d2, f->shape);
    assert_memory_equal(d1, d2, 16);
    /* another coefficient index changes it */
    uint16_t save = f->shape->m[1].coef[0];
    f->shape->m[1].coef[0] = (uint16_t)(save ^ 1);
    cz_nkey_shape_digest(d2, f->shape);
    f->shape->m[1].coef[0] = save;
    assert_memory_not_equal(d1, d2, 16);
}

/* A snarkjs key (tests/fixtures/small.zkey, from circom), compacted
   (cz_zkey_compact), written and loaded: the same key, the same proof. */
static void test_snarkjs_key(void **state)
{
    fixture *f = *state;
    char err[512], path[300];
    cz_zkey *z = NULL, *k = NULL;
    cz_status st = cz_zkey_load(&z, cz_test_src_path("tests/fixtures/small.zkey"), 2, err, sizeof err);
    if (st)
        fail_msg("small.zkey: %s", err);
    size_t wl;
    uint8_t *wb = cz_test_read_file(cz_test_src_path("tests/fixtures/small.wtns"), &wl);
    assert_non_null(wb);
    cz_fr *w;
    uint32_t nw;
    assert_int_equal(cz_wtns_parse(&w, &nw, wb, wl, "small.wtns", z->n_vars, err, sizeof err), CZ_OK);
    free(wb);
    cz_fr rs[2];
    cz_fr_set_u64(&rs[0], 5);
    cz_fr_set_u64(&rs[1], 7);
    cz_proof p0, p1, p2;
    assert_int_equal(cz_groth16_prove(&p0, z, w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    st = cz_zkey_compact(z, err, sizeof err);
    if (st)
        fail_msg("cz_zkey_compact: %s", err);
    assert_int_equal(cz_groth16_prove(&p1, z, w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_equal(&p0, &p1, sizeof p0);
    snprintf(path, sizeof path, "%s.small.czk", f->path);
    st = cz_nkey_write(path, z, NULL, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_write: %s", err);
    st = cz_nkey_load(&k, path, NULL, err, sizeof err);
    if (st)
        fail_msg("cz_nkey_load: %s", err);
    unlink(path);
    same_key(z, k);
    assert_int_equal(cz_groth16_prove(&p2, k, w, f->be, rs, NULL, err, sizeof err), CZ_OK);
    assert_memory_equal(&p0, &p2, sizeof p0);
    cz_vk *vk;
    assert_int_equal(cz_vk_from_zkey(&vk, k), CZ_OK);
    st = cz_groth16_verify(vk, w + 1, k->n_public, &p2, err, sizeof err);
    if (st)
        fail_msg("verify: %s", err);
    cz_vk_free(vk);
    cz_wtns_free(w, nw);
    cz_zkey_free(k);
    cz_zkey_free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_hook),
        cmocka_unit_test(test_corrupt_sections),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_header_bytes),
        cmocka_unit_test(test_bad_contents),
        cmocka_unit_test(test_version1),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_writer_refuses),
        cmocka_unit_test(test_shape_digest),
        cmocka_unit_test(test_snarkjs_key),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
