/* ctest: labels=unit;sanitize timeout=300 */
/*
 * test_circuit_gadgets.c: booleans, words, SHA-256 and bit decomposition
 * (src/circuit/gadgets.h).
 *
 * Known answers: native SHA-256 against the FIPS 180-4 / NIST examples
 * ("abc", the empty string, the 448- and 896-bit messages, a million
 * 'a'). The gadget equals the native hash on random messages of 0..3
 * blocks (CHECK mode, and WITNESS against the SHAPE recording). Constraint
 * counts are bellman's: 25,840 for a compression over a constant IV (its
 * test_full_block), and the per-operation counts of boolean.rs and
 * uint32.rs; they are printed. Every boolean operation is checked over all
 * kinds (constants, bits, negations) and values; word operations against
 * native ones. to_bits_le_strict cannot be satisfied by the non-canonical
 * encoding x + r; a tampered witness fails the recorded shape.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"
#include "field/constants.h"

static void hex32(char *out, const uint8_t h[32])
{
    for (int i = 0; i < 32; i++)
        sprintf(out + 2 * i, "%02x", h[i]);
}

static void test_sha256_native_kat(void **state)
{
    (void)state;
    static const struct {
        const char *msg, *hex;
    } kat[] = {
        /* FIPS 180-4 examples (NIST CSRC "SHA256.pdf") and the empty string */
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    uint8_t h[32];
    char hx[65];
    for (size_t i = 0; i < sizeof kat / sizeof *kat; i++) {
        cz_sha256(h, (const uint8_t *)kat[i].msg, strlen(kat[i].msg));
        hex32(hx, h);
        assert_string_equal(hx, kat[i].hex);
    }
    size_t n = 1000000;
    uint8_t *a = malloc(n);
    memset(a, 'a', n);
    cz_sha256(h, a, n);
    hex32(hx, h);
    assert_string_equal(hx, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

/* ---- running a circuit in every mode ---- */

typedef void (*circuit_fn)(cz_cs *cs, void *ctx);

/* COUNT, SHAPE, WITNESS + cz_shape_check, CHECK: all agree; returns the
   constraint count; *shape_out / *w_out (optional) keep the results. */
static uint64_t run_all(circuit_fn fn, void *ctx, cz_shape **shape_out, cz_fr **w_out)
{
    char err[256];
    cz_cs *cs;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
    uint32_t np = cz_cs_num_public(cs);
    uint64_t na = cz_cs_num_aux(cs), nc = cz_cs_num_constraints(cs);
    cz_cs_free(cs);

    cz_shape *s;
    assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
    fn(cs, ctx);
    assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
    cz_cs_free(cs);
    assert_int_equal(s->n_constraints, nc);
    assert_int_equal(s->n_aux, na);
    assert_int_equal(s->n_public, np);

    cz_fr *w = malloc((1 + np + na) * sizeof *w);
    assert_int_equal(cz_cs_new_witness(&cs, w, np, na), CZ_OK);
    fn(cs, ctx);
    if (cz_cs_finish(cs, err, sizeof err) != CZ_OK)
        fail_msg("WITNESS: %s", err);
    cz_cs_free(cs);
    if (cz_shape_check(s, w, err, sizeof err) != CZ_OK)
        fail_msg("shape check: %s", err);

    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    fn(cs, ctx);
    if (cz_cs_finish(cs, err, sizeof err) != CZ_OK)
        fail_msg("CHECK: %s", err);
    assert_int_equal(cz_cs_num_constraints(cs), nc);
    cz_cs_free(cs);

    if (shape_out)
        *shape_out = s;
    else
        cz_shape_free(s);
    if (w_out)
        *w_out = w;
    else
        free(w);
    return nc;
}

/* ---- booleans over every kind ---- */

/* kind 0..5: const 0, const 1, bit 0, bit 1, not(bit 0) = 1, not(bit 1) = 0 */
static cz_bool make_bool(cz_cs *cs, int kind)
{
    if (kind < 2)
        return cz_bool_const(kind);
    cz_bool b = cz_bool_alloc(cs, kind & 1);
    return kind >= 4 ? cz_bool_not(b) : b;
}

static int kind_value(int kind) { return kind < 4 ? kind & 1 : !(kind & 1); }

typedef struct {
    int op, ka, kb, kc;
    cz_bool out;
    int ok;
} boolop_ctx;

static void boolop_circuit(cz_cs *cs, void *vctx)
{
    boolop_ctx *c = vctx;
    cz_bool a = make_bool(cs, c->ka), b = make_bool(cs, c->kb), d = make_bool(cs, c->kc);
    switch (c->op) {
    case 0: c->out = cz_bool_xor(cs, a, b); break;
    case 1: c->out = cz_bool_and(cs, a, b); break;
    case 2: c->out = cz_bool_sha256_ch(cs, a, b, d); break;
    default: c->out = cz_bool_sha256_maj(cs, a, b, d); break;
    }
    if (cz_cs_has_values(cs) && c->out.kind != CZ_BOOL_CONST) {
        /* the variable's value agrees with the carried one */
        cz_fr v, want;
        cz_cs_value(cs, &v, c->out.var);
        cz_fr_set_u64(&want, (uint64_t)(c->out.kind == CZ_BOOL_NOT ? !c->out.value : c->out.value));
        c->ok &= cz_fr_eq(&v, &want);
    }
    /* the output is usable in a constraint: enforce it equal to itself */
    cz_bool_enforce_equal(cs, c->out, c->out);
}

static void test_bool_ops(void **state)
{
    (void)state;
    for (int op = 0; op < 4; op++)
        for (int ka = 0; ka < 6; ka++)
            for (int kb = 0; kb < 6; kb++)
                for (int kc = 0; kc < (op >= 2 ? 6 : 1); kc++) {
                    boolop_ctx c = {op, ka, kb, kc, {{0}, 0, 0}, 1};
                    run_all(boolop_circuit, &c, NULL, NULL);
                    assert_true(c.ok);
                    int a = kind_value(ka), b = kind_value(kb), d = kind_value(kc);
                    int want = op == 0 ? a ^ b
                             : op == 1 ? a & b
                             : op == 2 ? (a & b) ^ ((!a) & d)
                                       : (a & b) ^ (a & d) ^ (b & d);
                    assert_int_equal(c.out.value, want);
                }
    /* counts: bellman's one constraint per op on variables, maj two; a
       constant operand folds (0), as do ch/maj with a constant */
    struct {
        int op, ka, kb, kc;
        uint64_t want;
    } counts[] = {
        {0, 2, 3, 0, 1}, {0, 4, 3, 0, 1}, {0, 0, 3, 0, 0}, {0, 1, 5, 0, 0},
        {1, 2, 3, 0, 1}, {1, 2, 5, 0, 1}, {1, 4, 5, 0, 1}, {1, 1, 3, 0, 0},
        {2, 2, 3, 5, 1}, {2, 1, 3, 5, 1}, {2, 2, 0, 3, 1}, {2, 0, 3, 2, 0},
        {3, 2, 3, 5, 2}, {3, 0, 3, 5, 1}, {3, 2, 1, 3, 1}, {3, 0, 1, 3, 0},
    };
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        boolop_ctx c = {counts[i].op, counts[i].ka, counts[i].kb, counts[i].kc, {{0}, 0, 0}, 1};
        int allocs = (c.ka >= 2) + (c.kb >= 2) + (c.op >= 2 && c.kc >= 2);
        uint64_t n = run_all(boolop_circuit, &c, NULL, NULL);
        uint64_t self_eq = c.out.kind != CZ_BOOL_CONST;
        assert_int_equal(n - (uint64_t)allocs - self_eq, counts[i].want);
    }
}

/* ---- words ---- */

typedef struct {
    uint32_t x[10];
    int consts; /* bit mask: operand k constant */
    unsigned n;
    uint32_t got[8];
} u32_ctx;

static cz_u32 word(cz_cs *cs, const u32_ctx *c, unsigned k)
{
    return (c->consts >> k) & 1 ? cz_u32_const(c->x[k]) : cz_u32_alloc(cs, c->x[k]);
}

static uint32_t word_value(cz_cs *cs, const cz_u32 *w)
{
    uint32_t v = 0;
    for (int i = 31; i >= 0; i--) {
        int b = w->bits[i].value;
        if (cz_cs_has_values(cs) && w->bits[i].kind != CZ_BOOL_CONST) {
            cz_fr f, one;
            cz_cs_value(cs, &f, w->bits[i].var);
            cz_fr_one(&one);
            int raw = cz_fr_eq(&f, &one);
            b = w->bits[i].kind == CZ_BOOL_NOT ? !raw : raw;
        }
        v = (v << 1) | (uint32_t)b;
    }
    return v;
}

static void u32_circuit(cz_cs *cs, void *vctx)
{
    u32_ctx *c = vctx;
    cz_u32 a = word(cs, c, 0), b = word(cs, c, 1), d = word(cs, c, 2);
    cz_u32 r[8];
    r[0] = cz_u32_xor(cs, cz_u32_rotr(a, 7), cz_u32_shr(b, 3));
    r[1] = cz_u32_and(cs, a, cz_u32_not(b));
    r[2] = cz_u32_sha256_ch(cs, a, b, d);
    r[3] = cz_u32_sha256_maj(cs, a, b, d);
    cz_u32 ops[10];
    for (unsigned k = 0; k < c->n; k++)
        ops[k] = k < 3 ? (k == 0 ? a : k == 1 ? b : d) : word(cs, c, k);
    r[4] = cz_u32_addmany(cs, ops, c->n);
    cz_bool be[32];
    cz_u32_to_bits_be(be, &a);
    cz_u32_from_bits_be(&r[5], be);
    r[6] = cz_u32_rotr(d, 0);
    r[7] = cz_u32_shr(d, 31);
    for (int i = 0; i < 8; i++)
        c->got[i] = cz_cs_has_values(cs) ? word_value(cs, &r[i]) : r[i].value;
}

static void test_u32_ops(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    for (int it = 0; it < cz_test_iters(40); it++) {
        u32_ctx c;
        for (int k = 0; k < 10; k++)
            c.x[k] = (uint32_t)cz_rng_u64(&rng);
        if (it == 0)
            c.x[0] = c.x[1] = c.x[2] = 0xffffffffu;
        c.consts = (int)(cz_rng_u64(&rng) & 0x3ff);
        if (it == 1)
            c.consts = 0x3ff; /* all constant: the sum is a constant */
        c.n = 2 + (unsigned)(cz_rng_u64(&rng) % 9);
        run_all(u32_circuit, &c, NULL, NULL);
        uint32_t a = c.x[0], b = c.x[1], d = c.x[2];
        uint32_t sum = 0;
        for (unsigned k = 0; k < c.n; k++)
            sum += c.x[k];
        assert_int_equal(c.got[0], ((a >> 7) | (a << 25)) ^ (b >> 3));
        assert_int_equal(c.got[1], a & ~b);
        assert_int_equal(c.got[2], (a & b) ^ (~a & d));
        assert_int_equal(c.got[3], (a & b) ^ (a & d) ^ (b & d));
        assert_int_equal(c.got[4], sum);
        assert_int_equal(c.got[5], a);
        assert_int_equal(c.got[6], d);
        assert_int_equal(c.got[7], d >> 31);
    }
}

/* addmany's cost: the bit length of n * (2^32 - 1) booleans + 1 */
typedef struct {
    unsigned n;
} add_ctx;

static void add_circuit(cz_cs *cs, void *vctx)
{
    add_ctx *c = vctx;
    cz_u32 ops[10];
    for (unsigned k = 0; k < c->n; k++)
        ops[k] = k == 1 ? cz_u32_const(0x12345678u * k) : cz_u32_alloc(cs, 0x9e3779b9u * (k + 1));
    cz_u32_addmany(cs, ops, c->n);
}

static void test_u32_counts(void **state)
{
    (void)state;
    printf("# gadget                         constraints (bellman)\n");
    for (unsigned n = 2; n <= 10; n++) {
        add_ctx c = {n};
        uint64_t got = run_all(add_circuit, &c, NULL, NULL) - 32 * (n - 1);
        uint64_t bits = n <= 2 ? 33 : n <= 4 ? 34 : n <= 8 ? 35 : 36;
        printf("# u32 addmany of %2u              %5llu (%llu)\n", n, (unsigned long long)got,
               (unsigned long long)(bits + 1));
        assert_int_equal(got, bits + 1);
    }
}

/* ---- SHA-256 ---- */

typedef struct {
    const uint8_t *msg;
    size_t len;
    int compress_only;
    uint8_t out[32];
} sha_ctx;

static void sha_circuit(cz_cs *cs, void *vctx)
{
    sha_ctx *c = vctx;
    uint8_t *bits = malloc(8 * c->len + 1);
    cz_bool *in = malloc((8 * c->len + 1) * sizeof *in);
    cz_bool out[256];
    cz_bytes_to_bits_be(bits, c->msg, c->len);
    for (size_t i = 0; i < 8 * c->len; i++)
        in[i] = cz_bool_alloc(cs, bits[i]);
    if (c->compress_only) {
        cz_u32 st[8];
        for (int i = 0; i < 8; i++)
            st[i] = cz_u32_const(cz_sha256_iv[i]);
        cz_sha256_compress_gadget(cs, st, in);
        for (int i = 0; i < 8; i++)
            cz_u32_to_bits_be(out + 32 * i, &st[i]);
    } else {
        cz_sha256_gadget(cs, out, in, 8 * c->len);
    }
    memset(c->out, 0, 32);
    for (int i = 0; i < 256; i++) {
        int b = out[i].value;
        if (cz_cs_has_values(cs) && out[i].kind != CZ_BOOL_CONST) {
            cz_fr f, one;
            cz_cs_value(cs, &f, out[i].var);
            cz_fr_one(&one);
            b = cz_fr_eq(&f, &one) ^ (out[i].kind == CZ_BOOL_NOT);
        }
        c->out[i / 8] |= (uint8_t)(b << (7 - i % 8));
    }
    free(bits);
    free(in);
}

static void test_sha256_gadget(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    uint8_t msg[192];
    /* "abc" and the empty string, then random lengths of 0..3 blocks */
    size_t lens[] = {3, 0, 55, 56, 64, 119, 128, 192, 0, 0, 0};
    int n = cz_test_full() ? 11 : 9;
    for (int it = 0; it < n; it++) {
        size_t len = lens[it];
        if (it >= 8)
            len = (size_t)(cz_rng_u64(&rng) % 193);
        if (it == 0)
            memcpy(msg, "abc", 3);
        else
            cz_rng_bytes(&rng, msg, len);
        sha_ctx c = {msg, len, 0, {0}};
        uint64_t nc = run_all(sha_circuit, &c, NULL, NULL);
        uint8_t want[32];
        cz_sha256(want, msg, len);
        assert_memory_equal(c.out, want, 32);
        printf("# sha256 of %3zu bytes (%zu blocks) %6llu constraints\n", len, (len + 9 + 63) / 64,
               (unsigned long long)(nc - 8 * len));
    }
}

static void test_sha256_counts_and_tamper(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    uint8_t msg[64];
    cz_rng_bytes(&rng, msg, 64);
    sha_ctx c = {msg, 64, 1, {0}};
    cz_shape *s;
    cz_fr *w;
    uint64_t nc = run_all(sha_circuit, &c, &s, &w);
    /* bellman's test_full_block: 25,840 besides the 512 input booleans */
    printf("# sha256 compression (constant IV) %llu (25840)\n", (unsigned long long)(nc - 512));
    assert_int_equal(nc - 512, 25840);
    /* native compression of the same block */
    uint32_t st[8];
    memcpy(st, cz_sha256_iv, sizeof st);
    cz_sha256_compress(st, msg);
    for (int i = 0; i < 8; i++) {
        uint32_t got = (uint32_t)c.out[4 * i] << 24 | (uint32_t)c.out[4 * i + 1] << 16 |
                       (uint32_t)c.out[4 * i + 2] << 8 | c.out[4 * i + 3];
        assert_int_equal(got, st[i]);
    }
    /* any changed aux value fails the recorded shape */
    char err[256];
    for (int t = 0; t < 20; t++) {
        uint64_t j = 1 + s->n_public + cz_rng_u64(&rng) % s->n_aux;
        cz_fr saved = w[j], one;
        cz_fr_one(&one);
        if (cz_fr_is_zero(&w[j]))
            w[j] = one;
        else if (cz_fr_eq(&w[j], &one))
            cz_fr_zero(&w[j]);
        else
            cz_fr_add(&w[j], &w[j], &one);
        assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_ERR_WITNESS);
        w[j] = saved;
    }
    assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_OK);
    free(w);
    cz_shape_free(s);
}

/* ---- field elements as bits ---- */

typedef struct {
    cz_fr x;
    int use_raw;
    uint64_t raw[4];
    cz_bool bits[255];
    int mode; /* 0 strict, 1 to_bits_le(n), 2 pack, 3 multipack */
    unsigned n;
    cz_num packed[3];
} bits_ctx;

static void bits_circuit(cz_cs *cs, void *vctx)
{
    bits_ctx *c = vctx;
    cz_num x = cz_num_alloc(cs, &c->x);
    if (c->mode == 0) {
        if (c->use_raw)
            cz_num_to_bits_le_strict_raw(cs, c->bits, &x, c->raw);
        else
            cz_num_to_bits_le_strict(cs, c->bits, &x);
    } else {
        cz_num_to_bits_le(cs, c->bits, c->n, &x);
        if (c->mode == 2) {
            c->packed[0] = cz_bits_pack_le(cs, c->bits, c->n);
            cz_num_enforce_equal(cs, &c->packed[0], &x);
        } else if (c->mode == 3) {
            cz_bool all[600];
            for (int k = 0; k < 600; k++)
                all[k] = k % 3 == 0 ? cz_bool_const(k % 2) : c->bits[k % c->n];
            cz_bits_multipack(cs, c->packed, all, 600);
        }
    }
}

/* The strict decomposition's cost from the bits of r - 1: 255 booleans,
   one AND per extra member of each run of ones (the previous run's AND
   included), and the packing constraint. */
static uint64_t strict_cost(void)
{
    static const uint64_t rp[4] = CZ_FR_P;
    uint64_t rm1[4] = {rp[0] - 1, rp[1], rp[2], rp[3]};
    uint64_t ands = 0, run = 0;
    int have_last = 0;
    for (int i = 254; i >= 0; i--) {
        if ((rm1[i / 64] >> (i % 64)) & 1) {
            run++;
        } else if (run) {
            ands += run + (uint64_t)have_last - 1;
            have_last = 1;
            run = 0;
        }
    }
    return 255 + ands + 1;
}

static void test_to_bits(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    uint64_t cost = strict_cost();
    for (int it = 0; it < cz_test_iters(6); it++) {
        bits_ctx c;
        memset(&c, 0, sizeof c);
        if (it == 0) {
            cz_fr_one(&c.x);
            cz_fr_neg(&c.x, &c.x); /* r - 1: every bit of the bound */
        } else if (it == 1) {
            cz_fr_zero(&c.x);
        } else {
            cz_fr_random(&c.x, &rng);
        }
        uint64_t nc = run_all(bits_circuit, &c, NULL, NULL);
        assert_int_equal(nc, cost);
        uint64_t l[4], got[4] = {0, 0, 0, 0};
        cz_fr_to_limbs(l, &c.x);
        for (int i = 0; i < 255; i++)
            got[i / 64] |= (uint64_t)c.bits[i].value << (i % 64);
        assert_memory_equal(l, got, sizeof l);
    }
    printf("# to_bits_le_strict               %llu\n", (unsigned long long)cost);

    /* x + r: the same x in the packing constraint, but not canonical */
    static const uint64_t rp[4] = CZ_FR_P;
    for (uint64_t small = 0; small < 6; small += 5) {
        bits_ctx c;
        memset(&c, 0, sizeof c);
        cz_fr_set_u64(&c.x, small);
        c.use_raw = 1;
        unsigned __int128 carry = small;
        for (int i = 0; i < 4; i++) {
            carry += rp[i];
            c.raw[i] = (uint64_t)carry;
            carry >>= 64;
        }
        char err[256];
        cz_cs *cs;
        assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
        bits_circuit(cs, &c);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_WITNESS);
        cz_cs_free(cs);
        /* the witness of the raw bits against the honest shape */
        c.use_raw = 0;
        assert_int_equal(cz_cs_new(&cs, CZ_CS_SHAPE), CZ_OK);
        bits_circuit(cs, &c);
        cz_shape *s;
        assert_int_equal(cz_cs_take_shape(cs, &s, err, sizeof err), CZ_OK);
        cz_cs_free(cs);
        cz_fr *w = malloc((1 + s->n_aux) * sizeof *w);
        c.use_raw = 1;
        assert_int_equal(cz_cs_new_witness(&cs, w, 0, s->n_aux), CZ_OK);
        bits_circuit(cs, &c);
        assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_OK);
        cz_cs_free(cs);
        assert_int_equal(cz_shape_check(s, w, err, sizeof err), CZ_ERR_WITNESS);
        /* the packing constraint alone holds (x + r = x mod r): the range
           check is what fails */
        assert_int_not_equal(strtoull(strstr(err, "constraint ") + 11, NULL, 10), s->n_constraints - 1);
        free(w);
        cz_shape_free(s);
    }

    /* n bits, packing, multipack */
    for (unsigned n = 1; n <= 254; n += 31) {
        bits_ctx c;
        memset(&c, 0, sizeof c);
        c.n = n;
        uint64_t l[4] = {0, 0, 0, 0};
        for (unsigned i = 0; i < n; i++)
            l[i / 64] |= (cz_rng_u64(&rng) & 1) << (i % 64);
        cz_fr_from_limbs(&c.x, l);
        c.mode = 1;
        assert_int_equal(run_all(bits_circuit, &c, NULL, NULL), n + 1);
        c.mode = 2;
        assert_int_equal(run_all(bits_circuit, &c, NULL, NULL), n + 1 + 1 + 1);
        assert_true(cz_fr_eq(&c.packed[0].value, &c.x));
        c.mode = 3;
        assert_int_equal(run_all(bits_circuit, &c, NULL, NULL), n + 1 + 3);
        cz_cs *cs;
        assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
        bits_circuit(cs, &c);
        assert_int_equal(cz_cs_num_public(cs), 3); /* 254 + 254 + 92 bits as inputs */
        cz_cs_free(cs);
    }
    /* a value wider than n bits */
    bits_ctx c;
    memset(&c, 0, sizeof c);
    c.n = 8;
    c.mode = 1;
    cz_fr_set_u64(&c.x, 256);
    cz_cs *cs;
    char err[256];
    assert_int_equal(cz_cs_new(&cs, CZ_CS_CHECK), CZ_OK);
    bits_circuit(cs, &c);
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_RANGE);
    cz_cs_free(cs);
    /* enforce_equal of differing constants */
    assert_int_equal(cz_cs_new(&cs, CZ_CS_COUNT), CZ_OK);
    cz_bool_enforce_equal(cs, cz_bool_const(0), cz_bool_const(1));
    assert_int_equal(cz_cs_finish(cs, err, sizeof err), CZ_ERR_WITNESS);
    cz_cs_free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_native_kat),
        cmocka_unit_test(test_bool_ops),
        cmocka_unit_test(test_u32_ops),
        cmocka_unit_test(test_u32_counts),
        cmocka_unit_test(test_sha256_gadget),
        cmocka_unit_test(test_sha256_counts_and_tamper),
        cmocka_unit_test(test_to_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
