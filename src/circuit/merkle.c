/*
 * merkle.c: Merkle inclusion, native and in circuit, for Filecoin's two
 * tree kinds (see gadgets.h):
 *
 *  - tree_d: binary SHA-256, a node sha256(left || right) with the last
 *    byte masked by 0x3f (254 bits, as Filecoin truncates). In circuit the
 *    running node and the sibling are bit strings; the index bit swaps them
 *    (left = b ? sib : cur, right = b ? cur : sib: one allocated bit and one
 *    constraint each, 512 per level), then one SHA-256 of 512 message bits
 *    (two compressions, the second of constant padding). The masked bits
 *    are the constant 0 in the result, free.
 *  - tree_c / tree_r_last: arity-8 Poseidon; the running node is inserted
 *    among its 7 siblings at the position given by 3 index bits (bit 0
 *    least significant), as storage-proofs' insert_8: a nor and an and of
 *    the low two bits and 20 picks (pick: (b - a) * cond = b - c), 22
 *    constraints, then Poseidon arity 8 (505): 527 per level, 530 with the
 *    caller's three index-bit booleanity constraints.
 *
 * DESIGN. Values travel beside variables (cz_bool.value, cz_num.value), so
 * WITNESS mode only allocates; constraints are built only when the cs
 * records. Constant selectors (cz_bool constants) select for free.
 */
#include <stdio.h>
#include <string.h>

#include "circuit/gadgets.h"

/* ---- binary SHA-256 tree ---- */

static void sha_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32])
{
    uint8_t buf[64];
    memcpy(buf, left, 32);
    memcpy(buf + 32, right, 32);
    cz_sha256(out, buf, 64);
    out[31] &= 0x3f;
}

void cz_merkle_sha256_root(uint8_t root[32], const uint8_t leaf[32], const uint8_t (*siblings)[32],
                           const uint8_t *index_bits, unsigned depth)
{
    if (!root)
        return;
    if (!leaf || (depth && (!siblings || !index_bits))) {
        memset(root, 0, 32);
        return;
    }
    uint8_t cur[32];
    memcpy(cur, leaf, 32);
    for (unsigned k = 0; k < depth; k++) {
        if (index_bits[k])
            sha_node(cur, siblings[k], cur);
        else
            sha_node(cur, cur, siblings[k]);
    }
    memcpy(root, cur, 32);
}

/* left = b ? s : c, right = b ? c : s for bits. */
static void bool_swap(cz_cs *cs, cz_bool *left, cz_bool *right, cz_bool b, cz_bool c, cz_bool s)
{
    if (b.kind == CZ_BOOL_CONST) {
        *left = b.value ? s : c;
        *right = b.value ? c : s;
        return;
    }
    if (c.kind == CZ_BOOL_CONST && s.kind == CZ_BOOL_CONST) {
        if (c.value == s.value) {
            *left = c;
            *right = s;
        } else {
            /* c = 0, s = 1: left = b, right = !b; the reverse otherwise */
            *left = s.value ? b : cz_bool_not(b);
            *right = cz_bool_not(*left);
        }
        return;
    }
    int lv = b.value ? s.value : c.value, rv = b.value ? c.value : s.value;
    left->kind = right->kind = CZ_BOOL_VAR;
    left->value = (uint8_t)lv;
    right->value = (uint8_t)rv;
    left->var = cz_cs_alloc_bit(cs, lv);
    right->var = cz_cs_alloc_bit(cs, rv);
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc);
    if (cz_cs_records(cs)) {
        cz_fr one, mone;
        cz_fr_one(&one);
        cz_fr_neg(&mone, &one);
        bool ok = true;
        /* (s - c) * b = left - c */
        ok &= cz_bool_lc_add(&la, s, &one) && cz_bool_lc_add(&la, c, &mone);
        ok &= cz_bool_lc_add(&lb, b, &one);
        ok &= cz_bool_lc_add(&lc, *left, &one) && cz_bool_lc_add(&lc, c, &mone);
        cz_cs_enforce(cs, &la, &lb, &lc);
        /* (c - s) * b = right - s */
        cz_lc_clear(&la);
        cz_lc_clear(&lc);
        ok &= cz_bool_lc_add(&la, c, &one) && cz_bool_lc_add(&la, s, &mone);
        ok &= cz_bool_lc_add(&lc, *right, &one) && cz_bool_lc_add(&lc, s, &mone);
        cz_cs_enforce(cs, &la, &lb, &lc);
        if (!ok)
            cz_cs_fail(cs, CZ_ERR_NOMEM, "merkle swap: out of memory for a linear combination");
    } else {
        cz_cs_enforce(cs, &la, &lb, &lc);
        cz_cs_enforce(cs, &la, &lb, &lc);
    }
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
}

void cz_merkle_sha256_gadget(cz_cs *cs, cz_bool root_bits[256], const cz_bool leaf_bits[256],
                             const cz_bool (*sibling_bits)[256], const cz_bool *index_bits,
                             unsigned depth)
{
    cz_bool cur[256], msg[512];
    if (!root_bits || !leaf_bits || (depth && (!sibling_bits || !index_bits))) {
        cz_cs_fail(cs, CZ_ERR_ARG, "merkle sha256 gadget: a NULL argument");
        if (root_bits)
            for (int i = 0; i < 256; i++)
                root_bits[i] = cz_bool_const(0);
        return;
    }
    memcpy(cur, leaf_bits, sizeof cur);
    char name[32];
    for (unsigned k = 0; k < depth; k++) {
        bool named = cz_cs_mode_of(cs) != CZ_CS_WITNESS; /* push is a no-op there */
        if (named) {
            snprintf(name, sizeof name, "sha256 level %u", k);
            cz_cs_push(cs, name);
        }
        for (unsigned i = 0; i < 256; i++)
            bool_swap(cs, &msg[i], &msg[256 + i], index_bits[k], cur[i], sibling_bits[k][i]);
        cz_sha256_gadget(cs, cur, msg, 512);
        /* Filecoin's truncation: the last byte's two most significant bits */
        cur[248] = cz_bool_const(0);
        cur[249] = cz_bool_const(0);
        if (named)
            cz_cs_pop(cs);
    }
    memcpy(root_bits, cur, sizeof cur);
}

/* ---- arity-8 Poseidon tree ---- */

/* out[n] = element, the others the siblings in order, n = b0 + 2 b1 + 4 b2 */
static void insert8_native(cz_fr out[8], const cz_fr *element, const cz_fr sib[7], unsigned n)
{
    for (unsigned p = 0, s = 0; p < 8; p++)
        out[p] = p == n ? *element : sib[s++];
}

void cz_merkle_poseidon8_root(cz_fr *root, const cz_fr *leaf, const cz_fr (*siblings)[7],
                              const uint8_t *index_bits, unsigned depth)
{
    if (!root)
        return;
    const cz_poseidon_params *p = cz_poseidon_params_get(8);
    if (!p || !leaf || (depth && (!siblings || !index_bits))) {
        cz_fr_zero(root);
        return;
    }
    cz_fr cur = *leaf, in[8];
    for (unsigned k = 0; k < depth; k++) {
        unsigned n = (index_bits[3 * k] & 1u) | (index_bits[3 * k + 1] & 1u) << 1 |
                     (index_bits[3 * k + 2] & 1u) << 2;
        insert8_native(in, &cur, siblings[k], n);
        cz_poseidon_hash(p, &cur, in);
    }
    *root = cur;
}

/* c = cond ? a : b; (b - a) * cond = b - c: 1 constraint (none for a
   constant condition). */
static cz_num pick(cz_cs *cs, cz_bool cond, const cz_num *a, const cz_num *b)
{
    if (cond.kind == CZ_BOOL_CONST)
        return cond.value ? *a : *b;
    cz_num c;
    bool vals = cz_cs_has_values(cs);
    if (vals)
        c.value = cond.value ? a->value : b->value;
    else
        cz_fr_zero(&c.value);
    c.var = cz_cs_alloc(cs, vals ? &c.value : NULL);
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc);
    if (cz_cs_records(cs)) {
        bool ok = cz_lc_add_i64(&la, b->var, 1) && cz_lc_add_i64(&la, a->var, -1);
        cz_fr one;
        cz_fr_one(&one);
        ok &= cz_bool_lc_add(&lb, cond, &one);
        ok &= cz_lc_add_i64(&lc, b->var, 1) && cz_lc_add_i64(&lc, c.var, -1);
        if (!ok)
            cz_cs_fail(cs, CZ_ERR_NOMEM, "merkle pick: out of memory for a linear combination");
    }
    cz_cs_enforce(cs, &la, &lb, &lc);
    cz_lc_free(&la);
    cz_lc_free(&lb);
    cz_lc_free(&lc);
    return c;
}

/* storage-proofs' insert_8: `a` into [b .. h] at position b0 + 2 b1 + 4 b2. */
static void insert8_gadget(cz_cs *cs, cz_num out[8], const cz_num *a, const cz_num sib[7],
                           const cz_bool bits[3])
{
    const cz_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    const cz_num *b = &sib[0], *c = &sib[1], *d = &sib[2], *e = &sib[3], *f = &sib[4],
                 *g = &sib[5], *h = &sib[6];
    cz_bool nor01 = cz_bool_and(cs, cz_bool_not(b0), cz_bool_not(b1));
    cz_bool and01 = cz_bool_and(cs, b0, b1);
    cz_num t1, t2;

    t1 = pick(cs, nor01, a, b);
    out[0] = pick(cs, b2, b, &t1);

    t1 = pick(cs, b0, a, b);
    t2 = pick(cs, b1, c, &t1);
    out[1] = pick(cs, b2, c, &t2);

    t1 = pick(cs, b0, d, a);
    t2 = pick(cs, b1, &t1, c);
    out[2] = pick(cs, b2, d, &t2);

    t1 = pick(cs, and01, a, d);
    out[3] = pick(cs, b2, e, &t1);

    t1 = pick(cs, nor01, a, f);
    out[4] = pick(cs, b2, &t1, e);

    t1 = pick(cs, b0, a, f);
    t2 = pick(cs, b1, g, &t1);
    out[5] = pick(cs, b2, &t2, f);

    t1 = pick(cs, b0, h, a);
    t2 = pick(cs, b1, &t1, g);
    out[6] = pick(cs, b2, &t2, g);

    t1 = pick(cs, and01, a, h);
    out[7] = pick(cs, b2, &t1, h);
}

cz_num cz_merkle_poseidon8_gadget(cz_cs *cs, const cz_num *leaf, const cz_num (*siblings)[7],
                                  const cz_bool *index_bits, unsigned depth)
{
    cz_num cur, in[8];
    memset(&cur, 0, sizeof cur);
    if (!leaf || (depth && (!siblings || !index_bits))) {
        cz_cs_fail(cs, CZ_ERR_ARG, "merkle poseidon8 gadget: a NULL argument");
        return cur;
    }
    cur = *leaf;
    const cz_poseidon_params *p = cz_poseidon_params_get(8);
    if (!p) {
        cz_cs_fail(cs, CZ_ERR_NOMEM, "merkle poseidon8: no Poseidon parameters (out of memory)");
        return cur;
    }
    char name[32];
    for (unsigned k = 0; k < depth; k++) {
        bool named = cz_cs_mode_of(cs) != CZ_CS_WITNESS;
        if (named) {
            snprintf(name, sizeof name, "poseidon8 level %u", k);
            cz_cs_push(cs, name);
        }
        insert8_gadget(cs, in, &cur, siblings[k], &index_bits[3 * k]);
        cur = cz_poseidon_gadget(cs, p, in);
        if (named)
            cz_cs_pop(cs);
    }
    return cur;
}
