/*
 * uint32.c: 32-bit words as 32 cz_bools (gadgets.h).
 *
 * DESIGN. A word is its bits (little-endian) and its native value.
 * Rotations and shifts only move bits (shifts bring in constant zeros,
 * which later xors fold for free); xor/and/ch/maj are per-bit cz_bool
 * operations. Addition is bellman's addmany: the sum of n operands
 * (< n * 2^32) is allocated as bits, the low 32 are the result, and one
 * linear equality ties sum(2^j operand bits) to sum(2^i result bits).
 * With a cz_multieq several such equalities share one constraint (each
 * shifted by the bits of those before it, while the total stays under
 * 254 bits, so no wrap-around mod r can make a false one hold): this is
 * what brings SHA-256 to bellman's 25,840 constraints a block.
 */
#include "circuit/gadgets.h"
#include "circuit/lc_local.h"

cz_u32 cz_u32_const(uint32_t v)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_const((int)((v >> i) & 1));
    r.value = v;
    return r;
}

cz_u32 cz_u32_alloc(cz_cs *cs, uint32_t v)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_alloc(cs, (int)((v >> i) & 1));
    r.value = v;
    return r;
}

cz_u32 cz_u32_rotr(cz_u32 a, unsigned k)
{
    k %= 32;
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = a.bits[(i + k) % 32];
    r.value = k ? (a.value >> k) | (a.value << (32 - k)) : a.value;
    return r;
}

cz_u32 cz_u32_shr(cz_u32 a, unsigned k)
{
    k %= 32;
    cz_u32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = i + k < 32 ? a.bits[i + k] : cz_bool_const(0);
    r.value = a.value >> k;
    return r;
}

cz_u32 cz_u32_xor(cz_cs *cs, cz_u32 a, cz_u32 b)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_xor(cs, a.bits[i], b.bits[i]);
    r.value = a.value ^ b.value;
    return r;
}

cz_u32 cz_u32_and(cz_cs *cs, cz_u32 a, cz_u32 b)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_and(cs, a.bits[i], b.bits[i]);
    r.value = a.value & b.value;
    return r;
}

cz_u32 cz_u32_not(cz_u32 a)
{
    for (int i = 0; i < 32; i++)
        a.bits[i] = cz_bool_not(a.bits[i]);
    a.value = ~a.value;
    return a;
}

cz_u32 cz_u32_sha256_ch(cz_cs *cs, cz_u32 a, cz_u32 b, cz_u32 c)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]);
    r.value = (a.value & b.value) ^ (~a.value & c.value);
    return r;
}

cz_u32 cz_u32_sha256_maj(cz_cs *cs, cz_u32 a, cz_u32 b, cz_u32 c)
{
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = cz_bool_sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
    r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    return r;
}

void cz_u32_from_bits_be(cz_u32 *out, const cz_bool bits_be[32])
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) {
        out->bits[31 - i] = bits_be[i];
        v = (v << 1) | (bits_be[i].value & 1);
    }
    out->value = v;
}

void cz_u32_to_bits_be(cz_bool bits_be[32], const cz_u32 *w)
{
    for (int i = 0; i < 32; i++)
        bits_be[i] = w->bits[31 - i];
}

/* ---- addition ---- */

void cz_multieq_init(cz_multieq *m, cz_cs *cs)
{
    m->cs = cs;
    cz_lc_init(&m->lhs);
    cz_lc_init(&m->rhs);
    m->bits_used = 0;
}

/* lhs * 1 = rhs */
static void multieq_flush(cz_multieq *m)
{
    if (cz_cs_records(m->cs)) {
        CZ_LC_LOCAL(one, 1);
        cz_lcl_var_pm(&one, cz_var_one(), false);
        cz_cs_enforce(m->cs, &m->lhs, &one, &m->rhs);
    } else {
        cz_cs_enforce(m->cs, NULL, NULL, NULL);
    }
    cz_lc_clear(&m->lhs);
    cz_lc_clear(&m->rhs);
    m->bits_used = 0;
}

void cz_multieq_finish(cz_multieq *m)
{
    if (m->bits_used)
        multieq_flush(m);
    cz_lc_free(&m->lhs);
    cz_lc_free(&m->rhs);
}

static bool lc_bool_pow2(cz_lc *lc, cz_bool b, unsigned k)
{
    switch (b.kind) {
    case CZ_BOOL_CONST: return b.value ? cz_lc_add_pow2(lc, cz_var_one(), k, false) : true;
    case CZ_BOOL_VAR: return cz_lc_add_pow2(lc, b.var, k, false);
    default:
        return cz_lc_add_pow2(lc, cz_var_one(), k, false) && cz_lc_add_pow2(lc, b.var, k, true);
    }
}

cz_u32 cz_u32_addmany_meq(cz_multieq *m, const cz_u32 *a, unsigned n)
{
    cz_cs *cs = m->cs;
    if (n < 2 || n > 10) {
        cz_cs_fail(cs, CZ_ERR_ARG, "cz_u32_addmany: %u operands (2..10)", n);
        return cz_u32_const(0);
    }
    uint64_t sum = 0;
    bool all_const = true;
    for (unsigned k = 0; k < n; k++) {
        sum += a[k].value;
        for (int i = 0; i < 32 && all_const; i++)
            all_const = a[k].bits[i].kind == CZ_BOOL_CONST;
    }
    if (all_const)
        return cz_u32_const((uint32_t)sum);
    uint64_t max_value = (uint64_t)n * 0xffffffffULL;
    unsigned num_bits = 0;
    while (max_value >> num_bits)
        num_bits++;
    cz_bool res[36];
    for (unsigned i = 0; i < num_bits; i++)
        res[i] = cz_bool_alloc(cs, (int)((sum >> i) & 1));
    if (m->bits_used + num_bits >= 254)
        multieq_flush(m);
    if (cz_cs_records(cs)) {
        bool ok = true;
        for (unsigned k = 0; k < n && ok; k++)
            for (unsigned j = 0; j < 32 && ok; j++)
                ok = lc_bool_pow2(&m->lhs, a[k].bits[j], m->bits_used + j);
        for (unsigned i = 0; i < num_bits && ok; i++)
            ok = cz_lc_add_pow2(&m->rhs, res[i].var, m->bits_used + i, false);
        if (!ok)
            cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory building an addition");
    }
    m->bits_used += num_bits;
    cz_u32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = res[i];
    r.value = (uint32_t)sum;
    return r;
}

cz_u32 cz_u32_addmany(cz_cs *cs, const cz_u32 *a, unsigned n)
{
    cz_multieq m;
    cz_multieq_init(&m, cs);
    cz_u32 r = cz_u32_addmany_meq(&m, a, n);
    cz_multieq_finish(&m);
    return r;
}
