/*
 * gadgets.h: circuit building blocks over the cz_cs API (include/cuzk/circuit.h)
 * and their native (out-of-circuit) twins, which share the constants.
 *
 * DESIGN. Gadgets carry their values beside their variables (cz_bool.value,
 * cz_u32.value, cz_num.value), so WITNESS mode never reads the witness back
 * and never builds a linear combination: every gadget computes values
 * natively and only allocates, and records constraints when
 * cz_cs_records(cs). A gadget's constraint count is the same in every mode
 * and is documented beside it (bellman's gadgets are the reference: the
 * same counts, so circuits have the sizes of Filecoin's). Bits are
 * little-endian (bit 0 least significant) unless a name says _be.
 *
 * Files: bits.c (cz_bool, to_bits, packing), uint32.c (cz_u32),
 * sha256.c (native + gadget), poseidon.c (Grain-LFSR constants, native +
 * gadget), merkle.c (binary SHA-256 and arity-8 Poseidon inclusion).
 */
#ifndef CZ_CIRCUIT_GADGETS_H
#define CZ_CIRCUIT_GADGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/circuit.h"
#include "field/field.h"

/* ---- booleans (bits.c) ---- */

typedef enum {
    CZ_BOOL_CONST = 0, /* a constant: value only, no variable */
    CZ_BOOL_VAR = 1,   /* an allocated bit: var (constrained boolean) */
    CZ_BOOL_NOT = 2,   /* 1 - var (free) */
} cz_bool_kind;

typedef struct {
    cz_var var;
    uint8_t kind;  /* cz_bool_kind */
    uint8_t value; /* 0/1 in WITNESS and CHECK (and for constants) */
} cz_bool;

static inline cz_bool cz_bool_const(int b) { cz_bool r = {{0}, CZ_BOOL_CONST, (uint8_t)(b != 0)}; return r; }
static inline cz_bool cz_bool_not(cz_bool a)
{
    if (a.kind == CZ_BOOL_CONST) { a.value ^= 1; return a; }
    a.kind = a.kind == CZ_BOOL_VAR ? CZ_BOOL_NOT : CZ_BOOL_VAR;
    a.value ^= 1;
    return a;
}

/* An allocated bit with its booleanity constraint b * (1 - b) = 0:
   1 constraint. (Bits that another constraint already forces to 0/1 may
   use cz_cs_alloc_bit directly.) */
cz_bool cz_bool_alloc(cz_cs *cs, int bit);
/* Add the bit to an lc with a coefficient (handles NOT and constants). */
bool cz_bool_lc_add(cz_lc *lc, cz_bool b, const cz_fr *coef);
/* xor, and, and-not (a & !b), nor (!a & !b): 1 constraint each unless an
   operand is constant (0 then). */
cz_bool cz_bool_xor(cz_cs *cs, cz_bool a, cz_bool b);
cz_bool cz_bool_and(cz_cs *cs, cz_bool a, cz_bool b);
/* SHA-256's ch(a, b, c) = (a & b) ^ (!a & c): 1 constraint for three
   variables; maj(a, b, c) = (a & b) ^ (a & c) ^ (b & c): 2 (b & c, then
   the majority), as bellman's forms; fewer where an operand is constant. */
cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);
cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c);
/* Enforce a == b (1 constraint). */
void cz_bool_enforce_equal(cz_cs *cs, cz_bool a, cz_bool b);

/* An allocated field element with its value. */
typedef struct {
    cz_var var;
    cz_fr value; /* WITNESS and CHECK */
} cz_num;

cz_num cz_num_alloc(cz_cs *cs, const cz_fr *value);
cz_num cz_num_alloc_input(cz_cs *cs, const cz_fr *value);
/* Enforce a == b (1 constraint). */
void cz_num_enforce_equal(cz_cs *cs, const cz_num *a, const cz_num *b);

/* The 255 bits of x (little-endian) with the canonical-range check
   (the bits encode a value < r), as bellman's to_bits_le_strict:
   255 booleans + the range check + 1 packing constraint. */
void cz_num_to_bits_le_strict(cz_cs *cs, cz_bool out[255], const cz_num *x);
/* n <= 254 bits of x (x < 2^n, no range check needed): n + 1 constraints. */
void cz_num_to_bits_le(cz_cs *cs, cz_bool *out, unsigned n, const cz_num *x);
/* Pack n <= 254 bits into a new allocated num: 1 constraint. */
cz_num cz_bits_pack_le(cz_cs *cs, const cz_bool *bits, unsigned n);
/* Pack bits into ceil(n / 254) public inputs, 254 bits per num except the
   last: 1 constraint each (bellman's multipack::pack_into_inputs). */
void cz_bits_multipack(cz_cs *cs, cz_num *out, const cz_bool *bits, size_t n);
/* Tests: to_bits_le_strict allocating the bits of raw_limbs (plain
   integer, < 2^255) instead of x's canonical bits, to show that a
   non-canonical encoding (x + r) cannot satisfy the range check. */
void cz_num_to_bits_le_strict_raw(cz_cs *cs, cz_bool out[255], const cz_num *x,
                                  const uint64_t raw_limbs[4]);

/* ---- 32-bit words (uint32.c) ---- */

typedef struct {
    cz_bool bits[32]; /* little-endian */
    uint32_t value;
} cz_u32;

cz_u32 cz_u32_const(uint32_t v);
cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v); /* 32 constraints */
cz_u32 cz_u32_rotr(cz_u32 a, unsigned k);  /* free */
cz_u32 cz_u32_shr(cz_u32 a, unsigned k);   /* free */
cz_u32 cz_u32_xor(cz_cs *cs, cz_u32 a, cz_u32 b); /* <= 32 constraints */
cz_u32 cz_u32_and(cz_cs *cs, cz_u32 a, cz_u32 b);
cz_u32 cz_u32_not(cz_u32 a);               /* free */
/* (a_0 + ... + a_{n-1}) mod 2^32, 2 <= n <= 10: the result's bits and
   carries are allocated (the bit length of n * (2^32 - 1): 33..36
   booleans) and one constraint ties them to the sum (bellman's addmany;
   all-constant operands give a constant, free). */
cz_u32 cz_u32_addmany(cz_cs *cs, const cz_u32 *a, unsigned n);
/* bellman's MultiEq: the equalities of several additions share one
   constraint, each shifted past the bits of the ones before, while they
   fit 253 bits (SHA-256 packs 7 additions a constraint). Init, add, and
   finish (which enforces what is pending: 1 constraint, and frees). */
typedef struct {
    cz_cs *cs;
    cz_lc lhs, rhs;
    unsigned bits_used;
} cz_multieq;
void cz_multieq_init(cz_multieq *m, cz_cs *cs);
cz_u32 cz_u32_addmany_meq(cz_multieq *m, const cz_u32 *a, unsigned n);
void cz_multieq_finish(cz_multieq *m);
/* Bitwise ch and maj of SHA-256 (cz_bool_sha256_ch / _maj per bit). */
cz_u32 cz_u32_sha256_ch(cz_cs *cs, cz_u32 a, cz_u32 b, cz_u32 c);
cz_u32 cz_u32_sha256_maj(cz_cs *cs, cz_u32 a, cz_u32 b, cz_u32 c);
/* Big-endian bytes <-> words (SHA-256's convention). */
void cz_u32_from_bits_be(cz_u32 *out, const cz_bool bits_be[32]);
void cz_u32_to_bits_be(cz_bool bits_be[32], const cz_u32 *w);

/* ---- SHA-256 (sha256.c) ---- */

/* Native. */
void cz_sha256_compress(uint32_t state[8], const uint8_t block[64]);
void cz_sha256(uint8_t out[32], const uint8_t *msg, size_t len);
extern const uint32_t cz_sha256_iv[8];

/* In circuit: one compression of 512 input bits (big-endian bit order
   within bytes, as the message is read) with a state of 8 words:
   ~25,840 constraints (bellman's count for a block). */
void cz_sha256_compress_gadget(cz_cs *cs, cz_u32 state[8], const cz_bool block_bits[512]);
/* The whole hash of n_bits (a multiple of 8) message bits, padded as
   FIPS 180-4 says (the padding is constants, free): 256 output bits in the
   message's bit order (byte 0's most significant bit first).
   Multi-block: each block's compression as above (a padding block of
   constants costs less). */
void cz_sha256_gadget(cz_cs *cs, cz_bool out_bits[256], const cz_bool *msg_bits, size_t n_bits);
/* Bytes <-> bits in SHA-256's order (byte 0 first, MSB first). */
void cz_bytes_to_bits_be(uint8_t *bits, const uint8_t *bytes, size_t n_bytes);

/* ---- Poseidon (poseidon.c): neptune's parameters over BLS12-381 Fr ---- */

typedef struct {
    unsigned arity, t;        /* t = arity + 1 */
    unsigned rf, rp;          /* full rounds (half before, half after), partial rounds */
    cz_fr *round_constants;   /* (rf + rp) * t, Grain LFSR */
    cz_fr *mds;               /* t * t, M[i][j] = 1 / (i + (t + j)) */
    cz_fr domain_tag;         /* 2^arity - 1: state[0] of a Merkle-tree hash */
} cz_poseidon_params;

/* The parameters for arity 2, 8 or 11 (generated once, thread-safe; NULL
   for another arity or out of memory). */
const cz_poseidon_params *cz_poseidon_params_get(unsigned arity);
/* Native: the Merkle-tree hash of exactly `arity` inputs (state[1] out).
   Parameters from cz_poseidon_params_get take the fast round form, a copy
   of them the textbook form (the same digest); invalid ones give 0. */
void cz_poseidon_hash(const cz_poseidon_params *p, cz_fr *out, const cz_fr *in);
/* In circuit: 311 / 505 / 598 constraints for arity 2 / 8 / 11. */
cz_num cz_poseidon_gadget(cz_cs *cs, const cz_poseidon_params *p, const cz_num *in);
/* The same hash in the textbook round form (every round adds t constants
   and multiplies by the full MDS matrix): slower, the reference of tests. */
void cz_poseidon_hash_plain(const cz_poseidon_params *p, cz_fr *out, const cz_fr *in);
/* The Grain LFSR's (rf + rp) * t round constants for width t (field 1,
   S-box 1, 255 bits: neptune's seeding). */
void cz_poseidon_round_constants(cz_fr *out, unsigned t, unsigned rf, unsigned rp);
/* Constraints (= aux variables) of one cz_poseidon_gadget call; 0 for
   parameters not from cz_poseidon_params_get. */
unsigned cz_poseidon_constraints(const cz_poseidon_params *p);

/* ---- Merkle inclusion (merkle.c) ---- */

/* Binary SHA-256 tree (Filecoin's tree_d): a node is sha256(left || right)
   of two 32-byte values with the result's last byte masked to 254 bits
   (& 0x3f), as Filecoin truncates. Native root from a leaf, siblings and
   index bits (bit k = 1: the running node is the right child at level k). */
void cz_merkle_sha256_root(uint8_t root[32], const uint8_t leaf[32], const uint8_t (*siblings)[32],
                           const uint8_t *index_bits, unsigned depth);
/* In circuit: leaf and siblings as 256-bit strings (SHA-256 order), index
   bits allocated by the caller; returns the root's bits (bits 248 and 249,
   the masked ones, are the constant 0). Per level: 512 for the swap (one
   allocated bit and one constraint per bit and side) + one SHA-256 of 512
   bits: 45,386 with sha256.c's counts. */
void cz_merkle_sha256_gadget(cz_cs *cs, cz_bool root_bits[256], const cz_bool leaf_bits[256],
                             const cz_bool (*sibling_bits)[256], const cz_bool *index_bits,
                             unsigned depth);

/* Arity-8 Poseidon tree (tree_c / tree_r): each level hashes 8 children,
   the running node inserted at the position given by 3 index bits.
   Native root, then in circuit: 527 constraints per level (22 for the
   insertion, as storage-proofs' insert_8, + 505 Poseidon), 530 with the
   caller's 3 index-bit allocations (cz_bool_alloc). siblings: 7 per level;
   index_bits: 3 per level, bit 0 the least significant of the position. */
void cz_merkle_poseidon8_root(cz_fr *root, const cz_fr *leaf, const cz_fr (*siblings)[7],
                              const uint8_t *index_bits, unsigned depth);
cz_num cz_merkle_poseidon8_gadget(cz_cs *cs, const cz_num *leaf, const cz_num (*siblings)[7],
                                  const cz_bool *index_bits, unsigned depth);

#endif
