/*
 * sha256.c: SHA-256 (FIPS 180-4) natively and in circuit (gadgets.h).
 *
 * DESIGN. One table of round constants and one IV serve both. The gadget
 * is bellman's compression function: the message schedule's sigma
 * functions are word xors (the shifts' constant zeros fold away), its
 * additions addmany of 4; each round's temp1 and temp2 are not added at
 * once but kept as operand lists ("deferred") so that e := d + temp1 and
 * a := temp1 + temp2 become single additions of 6 and 7 operands computed
 * when the next round reads them, and the final h0, h4 additions join the
 * last deferred lists (8 and 7 operands). All additions of a block share
 * one cz_multieq. Count for one block over a constant IV and 512
 * allocated input bits: 25,840, bellman's (test_full_block).
 */
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t cz_sha256_iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* ---- native ---- */

static inline uint32_t rotr(uint32_t x, unsigned k) { return (x >> k) | (x << (32 - k)); }

void cz_sha256_compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + S1 + ch + K[i] + w[i];
        uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void cz_sha256(uint8_t out[32], const uint8_t *msg, size_t len)
{
    uint32_t st[8];
    memcpy(st, cz_sha256_iv, sizeof st);
    size_t off = 0;
    for (; len - off >= 64; off += 64)
        cz_sha256_compress(st, msg + off);
    uint8_t tail[128];
    size_t rest = len - off;
    memset(tail, 0, sizeof tail);
    if (rest)
        memcpy(tail, msg + off, rest);
    tail[rest] = 0x80;
    size_t tl = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tl - 1 - i] = (uint8_t)(bits >> (8 * i));
    cz_sha256_compress(st, tail);
    if (tl == 128)
        cz_sha256_compress(st, tail + 64);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(st[i] >> 24);
        out[4 * i + 1] = (uint8_t)(st[i] >> 16);
        out[4 * i + 2] = (uint8_t)(st[i] >> 8);
        out[4 * i + 3] = (uint8_t)st[i];
    }
}

void cz_bytes_to_bits_be(uint8_t *bits, const uint8_t *bytes, size_t n_bytes)
{
    for (size_t i = 0; i < n_bytes; i++)
        for (int j = 0; j < 8; j++)
            bits[8 * i + j] = (uint8_t)((bytes[i] >> (7 - j)) & 1);
}

/* ---- in circuit ---- */

/* A word that is either known (n == 1: ops[0]) or a pending sum. */
typedef struct {
    cz_u32 ops[8];
    unsigned n;
} deferred;

static cz_u32 xor3(cz_cs *cs, cz_u32 x, cz_u32 y, cz_u32 z)
{
    return cz_u32_xor(cs, cz_u32_xor(cs, x, y), z);
}

/* bellman's Maybe::compute: a known word as is, a pending sum (with any
   extra operand) as one addmany. */
static cz_u32 settle(cz_multieq *m, deferred *d, const cz_u32 *extra)
{
    if (d->n == 1)
        return d->ops[0];
    if (extra)
        d->ops[d->n++] = *extra;
    return cz_u32_addmany_meq(m, d->ops, d->n);
}

void cz_sha256_compress_gadget(cz_cs *cs, cz_u32 state[8], const cz_bool block_bits[512])
{
    cz_u32 *w = malloc(64 * sizeof *w);
    deferred *da = malloc(sizeof *da), *de = malloc(sizeof *de);
    if (!w || !da || !de) {
        free(w);
        free(da);
        free(de);
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory in the SHA-256 gadget");
        return;
    }
    for (int i = 0; i < 16; i++)
        cz_u32_from_bits_be(&w[i], block_bits + 32 * i);
    cz_multieq m;
    cz_multieq_init(&m, cs);
    for (int i = 16; i < 64; i++) {
        cz_u32 s0 = xor3(cs, cz_u32_rotr(w[i - 15], 7), cz_u32_rotr(w[i - 15], 18),
                         cz_u32_shr(w[i - 15], 3));
        cz_u32 s1 = xor3(cs, cz_u32_rotr(w[i - 2], 17), cz_u32_rotr(w[i - 2], 19),
                         cz_u32_shr(w[i - 2], 10));
        cz_u32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w[i] = cz_u32_addmany_meq(&m, ops, 4);
    }
    da->ops[0] = state[0];
    da->n = 1;
    de->ops[0] = state[4];
    de->n = 1;
    cz_u32 b = state[1], c = state[2], d = state[3];
    cz_u32 f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        cz_u32 new_e = settle(&m, de, NULL);
        cz_u32 S1 = xor3(cs, cz_u32_rotr(new_e, 6), cz_u32_rotr(new_e, 11), cz_u32_rotr(new_e, 25));
        cz_u32 ch = cz_u32_sha256_ch(cs, new_e, f, g);
        cz_u32 new_a = settle(&m, da, NULL);
        cz_u32 S0 = xor3(cs, cz_u32_rotr(new_a, 2), cz_u32_rotr(new_a, 13), cz_u32_rotr(new_a, 22));
        cz_u32 maj = cz_u32_sha256_maj(cs, new_a, b, c);
        /* temp1 = h + S1 + ch + K[i] + w[i]; e = temp1 + d; a = temp1 + S0 + maj */
        cz_u32 t1[5] = {h, S1, ch, cz_u32_const(K[i]), w[i]};
        h = g;
        g = f;
        f = new_e;
        memcpy(de->ops, t1, sizeof t1);
        de->ops[5] = d;
        de->n = 6;
        d = c;
        c = b;
        b = new_a;
        memcpy(da->ops, t1, sizeof t1);
        da->ops[5] = S0;
        da->ops[6] = maj;
        da->n = 7;
    }
    cz_u32 out[8];
    out[0] = settle(&m, da, &state[0]);
    cz_u32 pair[2];
    cz_u32 *mid[3] = {&b, &c, &d};
    for (int k = 0; k < 3; k++) {
        pair[0] = state[1 + k];
        pair[1] = *mid[k];
        out[1 + k] = cz_u32_addmany_meq(&m, pair, 2);
    }
    out[4] = settle(&m, de, &state[4]);
    cz_u32 *tail[3] = {&f, &g, &h};
    for (int k = 0; k < 3; k++) {
        pair[0] = state[5 + k];
        pair[1] = *tail[k];
        out[5 + k] = cz_u32_addmany_meq(&m, pair, 2);
    }
    cz_multieq_finish(&m);
    memcpy(state, out, sizeof out);
    free(w);
    free(da);
    free(de);
}

void cz_sha256_gadget(cz_cs *cs, cz_bool out_bits[256], const cz_bool *msg_bits, size_t n_bits)
{
    if (n_bits % 8) {
        cz_cs_fail(cs, CZ_ERR_ARG, "cz_sha256_gadget: %zu bits, not whole bytes", n_bits);
        for (int i = 0; i < 256; i++)
            out_bits[i] = cz_bool_const(0);
        return;
    }
    size_t total = (n_bits + 1 + 64 + 511) / 512 * 512;
    cz_bool *p = malloc(total * sizeof *p);
    if (!p) {
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory in the SHA-256 gadget");
        for (int i = 0; i < 256; i++)
            out_bits[i] = cz_bool_const(0);
        return;
    }
    if (n_bits)
        memcpy(p, msg_bits, n_bits * sizeof *p);
    p[n_bits] = cz_bool_const(1);
    for (size_t i = n_bits + 1; i < total - 64; i++)
        p[i] = cz_bool_const(0);
    for (int i = 0; i < 64; i++)
        p[total - 64 + i] = cz_bool_const((int)(((uint64_t)n_bits >> (63 - i)) & 1));
    cz_u32 st[8];
    for (int i = 0; i < 8; i++)
        st[i] = cz_u32_const(cz_sha256_iv[i]);
    for (size_t blk = 0; blk < total / 512; blk++)
        cz_sha256_compress_gadget(cs, st, p + 512 * blk);
    for (int i = 0; i < 8; i++)
        cz_u32_to_bits_be(out_bits + 32 * i, &st[i]);
    free(p);
}
