/*
 * cuzk-gadgets: write one gadget instance as a circom .r1cs and a .wtns,
 * for an independent check (`snarkjs wtns check`, snarkjs groth16).
 *
 *   cuzk-gadgets list
 *   cuzk-gadgets NAME OUT.r1cs OUT.wtns [--seed N]
 *
 * DESIGN. A table of named instances; each is a circuit function whose
 * values come from a seeded generator, so a run is reproducible. The tool
 * runs it in COUNT mode (sizes), SHAPE mode (the matrices) and WITNESS
 * mode (the assignment), checks the witness against the shape itself
 * (cz_shape_check) and writes both files. Each instance makes some of its
 * results public inputs (multipack), so proofs have a statement. To add a
 * gadget, add a function and a row to `gadgets` below.
 *
 * Exit status: 0 written, 1 the instance failed its own check, 2 bad usage
 * or an error writing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"
#include "util/rng.h"

typedef struct {
    const char *name;
    const char *what;
    void (*build)(cz_cs *cs, cz_rng *rng);
} gadget_row;

static cz_bool rand_bit(cz_cs *cs, cz_rng *rng) { return cz_bool_alloc(cs, (int)(cz_rng_u64(rng) & 1)); }

/* Publish bits as public inputs (ceil(n / 254) of them). */
static void publish(cz_cs *cs, const cz_bool *bits, size_t n)
{
    cz_num out[8];
    cz_bits_multipack(cs, out, bits, n);
}

static void g_bool_ops(cz_cs *cs, cz_rng *rng)
{
    cz_bool b[8], r[12];
    for (int i = 0; i < 8; i++)
        b[i] = rand_bit(cs, rng);
    r[0] = cz_bool_xor(cs, b[0], b[1]);
    r[1] = cz_bool_xor(cs, cz_bool_not(b[2]), b[3]);
    r[2] = cz_bool_and(cs, b[4], b[5]);
    r[3] = cz_bool_and(cs, cz_bool_not(b[6]), b[7]);
    r[4] = cz_bool_and(cs, cz_bool_not(b[0]), cz_bool_not(b[7]));
    r[5] = cz_bool_sha256_ch(cs, b[1], b[2], b[3]);
    r[6] = cz_bool_sha256_maj(cs, b[4], b[5], b[6]);
    r[7] = cz_bool_sha256_maj(cs, cz_bool_const(1), b[5], b[6]);
    r[8] = cz_bool_xor(cs, r[0], cz_bool_const(1));
    r[9] = cz_bool_sha256_ch(cs, cz_bool_const(1), r[1], r[2]);
    r[10] = cz_bool_xor(cs, r[5], r[6]);
    r[11] = cz_bool_and(cs, r[10], r[4]);
    cz_bool_enforce_equal(cs, r[11], cz_bool_and(cs, r[4], r[10]));
    publish(cs, r, 12);
}

static void g_u32_ops(cz_cs *cs, cz_rng *rng)
{
    cz_u32 w[4];
    for (int i = 0; i < 4; i++)
        w[i] = cz_u32_alloc(cs, (uint32_t)cz_rng_u64(rng));
    cz_u32 x = cz_u32_xor(cs, cz_u32_rotr(w[0], 7), cz_u32_shr(w[1], 3));
    cz_u32 y = cz_u32_and(cs, w[2], cz_u32_not(w[3]));
    cz_u32 ch = cz_u32_sha256_ch(cs, w[0], w[1], w[2]);
    cz_u32 maj = cz_u32_sha256_maj(cs, w[1], w[2], w[3]);
    cz_u32 ops[6] = {x, y, ch, maj, cz_u32_const(0x428a2f98u), w[3]};
    cz_u32 sum = cz_u32_addmany(cs, ops, 6);
    cz_bool bits[64];
    for (int i = 0; i < 32; i++) {
        bits[i] = sum.bits[i];
        bits[32 + i] = x.bits[i];
    }
    publish(cs, bits, 64);
}

static void g_to_bits_strict(cz_cs *cs, cz_rng *rng)
{
    cz_fr v;
    cz_fr_random(&v, rng);
    cz_num x = cz_num_alloc_input(cs, &v);
    cz_bool bits[255];
    cz_num_to_bits_le_strict(cs, bits, &x);
    cz_num low = cz_bits_pack_le(cs, bits, 200);
    (void)low;
}

static void g_pack(cz_cs *cs, cz_rng *rng)
{
    uint64_t l[4] = {cz_rng_u64(rng), cz_rng_u64(rng), cz_rng_u64(rng) & 0xfffffffffULL, 0};
    cz_fr v;
    cz_fr_from_limbs(&v, l);
    cz_num x = cz_num_alloc(cs, &v);
    cz_bool bits[164];
    cz_num_to_bits_le(cs, bits, 164, &x);
    cz_num y = cz_bits_pack_le(cs, bits, 164);
    cz_num_enforce_equal(cs, &x, &y);
    cz_bool many[400];
    for (int i = 0; i < 400; i++)
        many[i] = i % 5 == 4 ? cz_bool_const(i & 1) : bits[(i * 7) % 164];
    publish(cs, many, 400);
}

static void sha_out(cz_cs *cs, const cz_u32 st[8])
{
    cz_bool out[256];
    for (int i = 0; i < 8; i++)
        cz_u32_to_bits_be(out + 32 * i, &st[i]);
    publish(cs, out, 256);
}

static void g_sha256_1block(cz_cs *cs, cz_rng *rng)
{
    cz_bool in[512];
    for (int i = 0; i < 512; i++)
        in[i] = rand_bit(cs, rng);
    cz_u32 st[8];
    for (int i = 0; i < 8; i++)
        st[i] = cz_u32_const(cz_sha256_iv[i]);
    cz_sha256_compress_gadget(cs, st, in);
    sha_out(cs, st);
}

static void g_sha256_64bytes(cz_cs *cs, cz_rng *rng)
{
    cz_bool in[512], out[256];
    for (int i = 0; i < 512; i++)
        in[i] = rand_bit(cs, rng);
    cz_sha256_gadget(cs, out, in, 512);
    publish(cs, out, 256);
}

static cz_num rand_num(cz_cs *cs, cz_rng *rng)
{
    cz_fr v;
    cz_fr_random(&v, rng);
    return cz_num_alloc(cs, &v);
}

/* Poseidon (neptune's parameters) of random inputs; the digest public. */
static void poseidon_row(cz_cs *cs, cz_rng *rng, unsigned arity)
{
    cz_num in[11];
    for (unsigned i = 0; i < arity; i++)
        in[i] = rand_num(cs, rng);
    cz_num h = cz_poseidon_gadget(cs, cz_poseidon_params_get(arity), in);
    cz_num pub = cz_num_alloc_input(cs, &h.value);
    cz_num_enforce_equal(cs, &pub, &h);
}

static void g_poseidon2(cz_cs *cs, cz_rng *rng) { poseidon_row(cs, rng, 2); }
static void g_poseidon8(cz_cs *cs, cz_rng *rng) { poseidon_row(cs, rng, 8); }
static void g_poseidon11(cz_cs *cs, cz_rng *rng) { poseidon_row(cs, rng, 11); }

/* A binary SHA-256 path of depth 3 from random bits; the root public. */
static void g_merkle_sha256(cz_cs *cs, cz_rng *rng)
{
    cz_bool leaf[256], sib[3][256], idx[3], root[256];
    for (int i = 0; i < 256; i++)
        leaf[i] = rand_bit(cs, rng);
    for (int l = 0; l < 3; l++) {
        for (int i = 0; i < 256; i++)
            sib[l][i] = rand_bit(cs, rng);
        idx[l] = rand_bit(cs, rng);
    }
    cz_merkle_sha256_gadget(cs, root, leaf, (const cz_bool(*)[256])sib, idx, 3);
    publish(cs, root, 256);
}

/* An arity-8 Poseidon path of depth 2 from random nodes; the root public. */
static void g_merkle_poseidon8(cz_cs *cs, cz_rng *rng)
{
    cz_num leaf = rand_num(cs, rng), sib[2][7];
    cz_bool idx[6];
    for (int l = 0; l < 2; l++)
        for (int j = 0; j < 7; j++)
            sib[l][j] = rand_num(cs, rng);
    for (int i = 0; i < 6; i++)
        idx[i] = rand_bit(cs, rng);
    cz_num root = cz_merkle_poseidon8_gadget(cs, &leaf, (const cz_num(*)[7])sib, idx, 2);
    cz_num pub = cz_num_alloc_input(cs, &root.value);
    cz_num_enforce_equal(cs, &pub, &root);
}

static const gadget_row gadgets[] = {
    {"bool-ops", "xor, and, and-not, nor, ch, maj, constants, enforce_equal", g_bool_ops},
    {"u32-ops", "32-bit xor, and, not, rotr, shr, ch, maj, addmany of 6", g_u32_ops},
    {"to-bits-strict", "a public field element to 255 bits with the range check, 200 packed back", g_to_bits_strict},
    {"pack", "164-bit decomposition, packing, multipack of 400 bits into inputs", g_pack},
    {"sha256-1block", "one SHA-256 compression of 512 bits over the IV (25,840 + 512 + 2)", g_sha256_1block},
    {"sha256-64bytes", "SHA-256 of a 64-byte message (two compressions, the second of padding)", g_sha256_64bytes},
    {"poseidon-2", "Poseidon arity 2, neptune's parameters (311 constraints)", g_poseidon2},
    {"poseidon-8", "Poseidon arity 8, neptune's parameters (505 constraints)", g_poseidon8},
    {"poseidon-11", "Poseidon arity 11, neptune's parameters (598 constraints)", g_poseidon11},
    {"merkle-sha256", "binary SHA-256 Merkle path of depth 3, 254-bit nodes (45,386 a level)", g_merkle_sha256},
    {"merkle-poseidon8", "arity-8 Poseidon Merkle path of depth 2, insert_8 (527 a level + 3 index bits)", g_merkle_poseidon8},
};

static int usage(void)
{
    fprintf(stderr, "usage: cuzk-gadgets list\n"
                    "       cuzk-gadgets NAME OUT.r1cs OUT.wtns [--seed N]\n");
    return 2;
}

static int run(const gadget_row *g, const char *r1cs, const char *wtns, uint64_t seed)
{
    char err[512];
    cz_rng rng;
    cz_cs *cs;
    cz_status st;
    if ((st = cz_cs_new(&cs, CZ_CS_COUNT)) != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s\n", cz_strerror(st));
        return 2;
    }
    cz_rng_seed(&rng, seed);
    g->build(cs, &rng);
    st = cz_cs_finish(cs, err, sizeof err);
    uint32_t np = cz_cs_num_public(cs);
    uint64_t na = cz_cs_num_aux(cs);
    cz_cs_free(cs);
    if (st != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s: %s\n", g->name, err);
        return 1;
    }
    cz_shape *shape = NULL;
    if ((st = cz_cs_new(&cs, CZ_CS_SHAPE)) != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s\n", cz_strerror(st));
        return 2;
    }
    cz_rng_seed(&rng, seed);
    g->build(cs, &rng);
    st = cz_cs_take_shape(cs, &shape, err, sizeof err);
    cz_cs_free(cs);
    if (st != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s: %s\n", g->name, err);
        return 1;
    }
    uint64_t nw = 1 + (uint64_t)np + na;
    cz_fr *w = malloc(nw * sizeof *w);
    if (!w || (st = cz_cs_new_witness(&cs, w, np, na)) != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: out of memory\n");
        free(w);
        cz_shape_free(shape);
        return 2;
    }
    cz_rng_seed(&rng, seed);
    g->build(cs, &rng);
    st = cz_cs_finish(cs, err, sizeof err);
    cz_cs_free(cs);
    if (st == CZ_OK)
        st = cz_shape_check(shape, w, err, sizeof err);
    if (st != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s: %s\n", g->name, err);
        free(w);
        cz_shape_free(shape);
        return 1;
    }
    int rc = 0;
    if ((st = cz_shape_write_r1cs(shape, r1cs, err, sizeof err)) != CZ_OK ||
        (st = cz_witness_write_wtns(w, nw, wtns, err, sizeof err)) != CZ_OK) {
        fprintf(stderr, "cuzk-gadgets: %s\n", err);
        rc = 2;
    } else {
        printf("%s: constraints %llu, public %u, aux %llu, coefficients %u\n", g->name,
               (unsigned long long)shape->n_constraints, np, (unsigned long long)na, shape->n_coefs);
    }
    cz_wipe(w, nw * sizeof *w);
    free(w);
    cz_shape_free(shape);
    return rc;
}

int main(int argc, char **argv)
{
    size_t n_g = sizeof gadgets / sizeof *gadgets;
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; i < n_g; i++)
            printf("%-16s %s\n", gadgets[i].name, gadgets[i].what);
        return 0;
    }
    if (argc != 4 && argc != 6)
        return usage();
    uint64_t seed = 1;
    if (argc == 6) {
        char *end;
        if (strcmp(argv[4], "--seed") != 0)
            return usage();
        seed = strtoull(argv[5], &end, 10);
        if (!*argv[5] || *end) {
            fprintf(stderr, "cuzk-gadgets: --seed wants a number, not '%s'\n", argv[5]);
            return 2;
        }
    }
    for (size_t i = 0; i < n_g; i++)
        if (strcmp(argv[1], gadgets[i].name) == 0)
            return run(&gadgets[i], argv[2], argv[3], seed);
    fprintf(stderr, "cuzk-gadgets: no gadget '%s' (cuzk-gadgets list names them)\n", argv[1]);
    return 2;
}
