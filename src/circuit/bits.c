/*
 * bits.c: booleans, field elements as bits, packing (gadgets.h).
 *
 * DESIGN. A cz_bool is a constant, an allocated bit, or the negation of
 * one (free), as bellman's Boolean; every operation first folds constants
 * and negations (0 constraints where an operand is constant), then uses
 * bellman's one-constraint forms on the underlying variables:
 *   boolean    (1 - a) * a = 0
 *   xor        (a + a) * b = a + b - c
 *   and        a * b = c;  and-not a * (1 - b) = c;  nor (1 - a) * (1 - b) = c
 *   ch         (b - c) * a = ch - c
 *   maj        b * c = bc (an and), then (2bc - b - c) * a = bc - maj
 * so circuits have the sizes of their bellman twins. Values are computed
 * natively beside the variables; WITNESS mode only allocates.
 *
 * to_bits_le_strict follows bellman's canonical-range check: walking the
 * bits of r - 1 from the top, a bit under a 1 of r - 1 is an ordinary
 * boolean and joins the current run; at a 0 of r - 1 the run (and the
 * previous run's AND) is ANDed into last_run, and the bit is allocated
 * with (1 - last_run - a) * a = 0, which forces a = 0 while every higher
 * bit equals r - 1's (the value would reach r otherwise).
 */
#include <string.h>

#include "circuit/gadgets.h"
#include "circuit/lc_local.h"
#include "field/constants.h"

/* ---- allocated bits ---- */

static void enforce_none(cz_cs *cs) { cz_cs_enforce(cs, NULL, NULL, NULL); }

static void enforce_boolean(cz_cs *cs, cz_var v)
{
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return;
    }
    CZ_LC_LOCAL(a, 2);
    CZ_LC_LOCAL(b, 1);
    CZ_LC_LOCAL(c, 1);
    cz_lcl_var_pm(&a, cz_var_one(), false);
    cz_lcl_var_pm(&a, v, true);
    cz_lcl_var_pm(&b, v, false);
    cz_cs_enforce(cs, &a, &b, &c);
}

cz_bool cz_bool_alloc(cz_cs *cs, int bit)
{
    cz_bool r;
    r.kind = CZ_BOOL_VAR;
    r.value = bit != 0;
    r.var = cz_cs_alloc_bit(cs, r.value);
    enforce_boolean(cs, r.var);
    return r;
}

bool cz_bool_lc_add(cz_lc *lc, cz_bool b, const cz_fr *coef)
{
    if (b.kind == CZ_BOOL_CONST)
        return b.value ? cz_lc_add(lc, cz_var_one(), coef) : true;
    if (b.kind == CZ_BOOL_VAR)
        return cz_lc_add(lc, b.var, coef);
    cz_fr neg;
    cz_fr_neg(&neg, coef);
    uint32_t n0 = lc->n;
    if (!cz_lc_add(lc, cz_var_one(), coef))
        return false;
    if (!cz_lc_add(lc, b.var, &neg)) {
        lc->n = n0;
        return false;
    }
    return true;
}

/* The underlying variable's value (a NOT holds the negation). */
static inline int raw(cz_bool b) { return b.kind == CZ_BOOL_NOT ? !b.value : b.value; }

static cz_bool new_var(cz_cs *cs, int value)
{
    cz_bool r;
    r.kind = CZ_BOOL_VAR;
    r.value = (uint8_t)(value != 0);
    r.var = cz_cs_alloc_bit(cs, r.value);
    return r;
}

/* bellman's AllocatedBit ops on the underlying variables x, y (values
   xv, yv): op 0 xor, 1 and, 2 and-not (x & !y), 3 nor. */
static cz_bool abit_op(cz_cs *cs, int op, cz_var x, int xv, cz_var y, int yv)
{
    int v = op == 0 ? xv ^ yv : op == 1 ? xv & yv : op == 2 ? xv & !yv : !xv & !yv;
    cz_bool r = new_var(cs, v);
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return r;
    }
    CZ_LC_LOCAL(a, 2);
    CZ_LC_LOCAL(b, 2);
    CZ_LC_LOCAL(c, 3);
    cz_fr two;
    cz_fr_set_u64(&two, 2);
    switch (op) {
    case 0: /* (x + x) * y = x + y - r */
        cz_lcl_add(&a, x, &two);
        cz_lcl_var_pm(&b, y, false);
        cz_lcl_var_pm(&c, x, false);
        cz_lcl_var_pm(&c, y, false);
        cz_lcl_var_pm(&c, r.var, true);
        break;
    case 1: /* x * y = r */
        cz_lcl_var_pm(&a, x, false);
        cz_lcl_var_pm(&b, y, false);
        cz_lcl_var_pm(&c, r.var, false);
        break;
    case 2: /* x * (1 - y) = r */
        cz_lcl_var_pm(&a, x, false);
        cz_lcl_var_pm(&b, cz_var_one(), false);
        cz_lcl_var_pm(&b, y, true);
        cz_lcl_var_pm(&c, r.var, false);
        break;
    default: /* (1 - x) * (1 - y) = r */
        cz_lcl_var_pm(&a, cz_var_one(), false);
        cz_lcl_var_pm(&a, x, true);
        cz_lcl_var_pm(&b, cz_var_one(), false);
        cz_lcl_var_pm(&b, y, true);
        cz_lcl_var_pm(&c, r.var, false);
        break;
    }
    cz_cs_enforce(cs, &a, &b, &c);
    return r;
}

cz_bool cz_bool_xor(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (a.kind == CZ_BOOL_CONST && !a.value)
        return b;
    if (b.kind == CZ_BOOL_CONST && !b.value)
        return a;
    if (a.kind == CZ_BOOL_CONST)
        return cz_bool_not(b);
    if (b.kind == CZ_BOOL_CONST)
        return cz_bool_not(a);
    /* a ^ !b = !(a ^ b); !a ^ !b = a ^ b */
    cz_bool r = abit_op(cs, 0, a.var, raw(a), b.var, raw(b));
    return a.kind == b.kind ? r : cz_bool_not(r);
}

cz_bool cz_bool_and(cz_cs *cs, cz_bool a, cz_bool b)
{
    if ((a.kind == CZ_BOOL_CONST && !a.value) || (b.kind == CZ_BOOL_CONST && !b.value))
        return cz_bool_const(0);
    if (a.kind == CZ_BOOL_CONST)
        return b;
    if (b.kind == CZ_BOOL_CONST)
        return a;
    if (a.kind == CZ_BOOL_VAR && b.kind == CZ_BOOL_VAR)
        return abit_op(cs, 1, a.var, a.value, b.var, b.value);
    if (a.kind == CZ_BOOL_VAR) /* a & !b */
        return abit_op(cs, 2, a.var, a.value, b.var, raw(b));
    if (b.kind == CZ_BOOL_VAR)
        return abit_op(cs, 2, b.var, b.value, a.var, raw(a));
    return abit_op(cs, 3, a.var, raw(a), b.var, raw(b));
}

cz_bool cz_bool_sha256_ch(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    int v = (a.value & b.value) ^ ((!a.value) & c.value);
    bool ac = a.kind == CZ_BOOL_CONST, bc = b.kind == CZ_BOOL_CONST, cc = c.kind == CZ_BOOL_CONST;
    if (ac && bc && cc)
        return cz_bool_const(v);
    if (ac && !a.value)
        return c;
    if (bc && !b.value)
        return cz_bool_and(cs, cz_bool_not(a), c);
    if (cc && !c.value)
        return cz_bool_and(cs, a, b);
    if (cc)
        return cz_bool_not(cz_bool_and(cs, a, cz_bool_not(b)));
    if (bc)
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    /* a constant true falls through, as in bellman */
    cz_bool r = new_var(cs, v);
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return r;
    }
    /* (b - c) * a = ch - c */
    CZ_LC_LOCAL(la, 4);
    CZ_LC_LOCAL(lb, 2);
    CZ_LC_LOCAL(lc, 3);
    cz_lcl_bool_pm(&la, b, false);
    cz_lcl_bool_pm(&la, c, true);
    cz_lcl_bool_pm(&lb, a, false);
    cz_lcl_var_pm(&lc, r.var, false);
    cz_lcl_bool_pm(&lc, c, true);
    cz_cs_enforce(cs, &la, &lb, &lc);
    return r;
}

cz_bool cz_bool_sha256_maj(cz_cs *cs, cz_bool a, cz_bool b, cz_bool c)
{
    int v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    bool ac = a.kind == CZ_BOOL_CONST, bc = b.kind == CZ_BOOL_CONST, cc = c.kind == CZ_BOOL_CONST;
    if (ac && bc && cc)
        return cz_bool_const(v);
    if (ac && !a.value)
        return cz_bool_and(cs, b, c);
    if (bc && !b.value)
        return cz_bool_and(cs, a, c);
    if (cc && !c.value)
        return cz_bool_and(cs, a, b);
    if (cc)
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(b)));
    if (bc)
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(a), cz_bool_not(c)));
    if (ac)
        return cz_bool_not(cz_bool_and(cs, cz_bool_not(b), cz_bool_not(c)));
    cz_bool bcv = cz_bool_and(cs, b, c);
    cz_bool r = new_var(cs, v);
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return r;
    }
    /* (2bc - b - c) * a = bc - maj */
    CZ_LC_LOCAL(la, 6);
    CZ_LC_LOCAL(lb, 2);
    CZ_LC_LOCAL(lc, 3);
    cz_fr two;
    cz_fr_set_u64(&two, 2);
    cz_lcl_bool(&la, bcv, &two);
    cz_lcl_bool_pm(&la, b, true);
    cz_lcl_bool_pm(&la, c, true);
    cz_lcl_bool_pm(&lb, a, false);
    cz_lcl_bool_pm(&lc, bcv, false);
    cz_lcl_var_pm(&lc, r.var, true);
    cz_cs_enforce(cs, &la, &lb, &lc);
    return r;
}

void cz_bool_enforce_equal(cz_cs *cs, cz_bool a, cz_bool b)
{
    if (a.kind == CZ_BOOL_CONST && b.kind == CZ_BOOL_CONST) {
        if (a.value != b.value)
            cz_cs_fail(cs, CZ_ERR_WITNESS, "two constant booleans enforced equal differ");
        return;
    }
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return;
    }
    /* 0 * 0 = a - b (a constant folds into the one) */
    CZ_LC_LOCAL(la, 1);
    CZ_LC_LOCAL(lb, 1);
    CZ_LC_LOCAL(lc, 4);
    cz_lcl_bool_pm(&lc, a, false);
    cz_lcl_bool_pm(&lc, b, true);
    cz_cs_enforce(cs, &la, &lb, &lc);
}

/* ---- numbers ---- */

cz_num cz_num_alloc(cz_cs *cs, const cz_fr *value)
{
    cz_num r;
    if (value)
        r.value = *value;
    else
        cz_fr_zero(&r.value);
    r.var = cz_cs_alloc(cs, value);
    return r;
}

cz_num cz_num_alloc_input(cz_cs *cs, const cz_fr *value)
{
    cz_num r;
    if (value)
        r.value = *value;
    else
        cz_fr_zero(&r.value);
    r.var = cz_cs_alloc_input(cs, value);
    return r;
}

void cz_num_enforce_equal(cz_cs *cs, const cz_num *a, const cz_num *b)
{
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return;
    }
    /* a * 1 = b */
    CZ_LC_LOCAL(la, 1);
    CZ_LC_LOCAL(lb, 1);
    CZ_LC_LOCAL(lc, 1);
    cz_lcl_var_pm(&la, a->var, false);
    cz_lcl_var_pm(&lb, cz_var_one(), false);
    cz_lcl_var_pm(&lc, b->var, false);
    cz_cs_enforce(cs, &la, &lb, &lc);
}

/* 0 * 0 = sum 2^i bits[i] - x: n <= 255 bits, any kinds. */
static void enforce_packing(cz_cs *cs, const cz_bool *bits, unsigned n, cz_var x)
{
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return;
    }
    cz_lc la, lb, lc;
    cz_lc_init(&la);
    cz_lc_init(&lb);
    cz_lc_init(&lc); /* la, lb stay empty: no storage */
    cz_fr c, m1;
    cz_fr_one(&c);
    cz_fr_neg(&m1, &c);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++) {
        ok = cz_bool_lc_add(&lc, bits[i], &c);
        cz_fr_add(&c, &c, &c);
    }
    ok = ok && cz_lc_add(&lc, x, &m1);
    if (ok)
        cz_cs_enforce(cs, &la, &lb, &lc);
    else
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory building a packing constraint");
    cz_lc_free(&lc);
}

/* bellman's AllocatedBit::alloc_conditionally: (1 - must_be_false - a) * a = 0 */
static cz_bool alloc_conditionally(cz_cs *cs, int bit, cz_bool must_be_false)
{
    cz_bool r = new_var(cs, bit);
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return r;
    }
    CZ_LC_LOCAL(la, 3);
    CZ_LC_LOCAL(lb, 1);
    CZ_LC_LOCAL(lc, 1);
    cz_lcl_var_pm(&la, cz_var_one(), false);
    cz_lcl_var_pm(&la, must_be_false.var, true);
    cz_lcl_var_pm(&la, r.var, true);
    cz_lcl_var_pm(&lb, r.var, false);
    cz_cs_enforce(cs, &la, &lb, &lc);
    return r;
}

void cz_num_to_bits_le_strict_raw(cz_cs *cs, cz_bool out[255], const cz_num *x,
                                  const uint64_t raw_limbs[4])
{
    static const uint64_t rp[4] = CZ_FR_P;
    uint64_t rm1[4] = {rp[0] - 1, rp[1], rp[2], rp[3]}; /* r is odd: no borrow */
    cz_bool run[255];
    unsigned n_run = 0;
    cz_bool last_run;
    bool have_last = false;
    for (int i = 254; i >= 0; i--) {
        int rb = (int)((rm1[i / 64] >> (i % 64)) & 1);
        int ab = (int)((raw_limbs[i / 64] >> (i % 64)) & 1);
        if (rb) {
            out[i] = cz_bool_alloc(cs, ab);
            run[n_run++] = out[i];
            continue;
        }
        if (n_run) {
            if (have_last)
                run[n_run++] = last_run;
            cz_bool cur = run[0];
            for (unsigned k = 1; k < n_run; k++)
                cur = abit_op(cs, 1, cur.var, cur.value, run[k].var, run[k].value);
            last_run = cur;
            have_last = true;
            n_run = 0;
        }
        /* r - 1's top bit is 1, so a run precedes every 0 */
        out[i] = alloc_conditionally(cs, ab, last_run);
    }
    enforce_packing(cs, out, 255, x->var);
}

void cz_num_to_bits_le_strict(cz_cs *cs, cz_bool out[255], const cz_num *x)
{
    uint64_t l[4];
    cz_fr_to_limbs(l, &x->value);
    cz_num_to_bits_le_strict_raw(cs, out, x, l);
}

void cz_num_to_bits_le(cz_cs *cs, cz_bool *out, unsigned n, const cz_num *x)
{
    if (n == 0 || n > 254) {
        cz_cs_fail(cs, CZ_ERR_ARG, "cz_num_to_bits_le: %u bits (1..254)", n);
        for (unsigned i = 0; i < n && i < 255; i++)
            out[i] = cz_bool_const(0);
        return;
    }
    uint64_t l[4];
    cz_fr_to_limbs(l, &x->value);
    if (cz_cs_has_values(cs)) {
        for (unsigned i = n; i < 256; i++) {
            if ((l[i / 64] >> (i % 64)) & 1) {
                cz_cs_fail(cs, CZ_ERR_RANGE, "a value does not fit %u bits", n);
                break;
            }
        }
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = cz_bool_alloc(cs, (int)((l[i / 64] >> (i % 64)) & 1));
    enforce_packing(cs, out, n, x->var);
}

static cz_fr bits_value(const cz_bool *bits, unsigned n)
{
    uint64_t l[4] = {0, 0, 0, 0};
    for (unsigned i = 0; i < n; i++)
        l[i / 64] |= (uint64_t)(bits[i].value & 1) << (i % 64);
    cz_fr r;
    cz_fr_from_limbs(&r, l); /* n <= 254 */
    return r;
}

/* num_in_a: num * 1 = (sum) (bellman's pack_into_inputs); else (sum) * 1 = num */
static void enforce_pack(cz_cs *cs, const cz_bool *bits, unsigned n, cz_var num, bool num_in_a)
{
    if (!cz_cs_records(cs)) {
        enforce_none(cs);
        return;
    }
    cz_lc sum;
    cz_lc_init(&sum);
    cz_fr c;
    cz_fr_one(&c);
    CZ_LC_LOCAL(lo, 1);
    CZ_LC_LOCAL(ln, 1);
    cz_lcl_var_pm(&lo, cz_var_one(), false);
    cz_lcl_var_pm(&ln, num, false);
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++) {
        ok = cz_bool_lc_add(&sum, bits[i], &c);
        cz_fr_add(&c, &c, &c);
    }
    if (!ok)
        cz_cs_fail(cs, CZ_ERR_NOMEM, "out of memory building a packing constraint");
    else if (num_in_a)
        cz_cs_enforce(cs, &ln, &lo, &sum);
    else
        cz_cs_enforce(cs, &sum, &lo, &ln);
    cz_lc_free(&sum);
}

cz_num cz_bits_pack_le(cz_cs *cs, const cz_bool *bits, unsigned n)
{
    cz_num r;
    cz_fr_zero(&r.value);
    r.var.idx = 0;
    if (n == 0 || n > 254) {
        cz_cs_fail(cs, CZ_ERR_ARG, "cz_bits_pack_le: %u bits (1..254)", n);
        return r;
    }
    r.value = bits_value(bits, n);
    r.var = cz_cs_alloc(cs, &r.value);
    enforce_pack(cs, bits, n, r.var, false);
    return r;
}

void cz_bits_multipack(cz_cs *cs, cz_num *out, const cz_bool *bits, size_t n)
{
    for (size_t k = 0; k * 254 < n; k++) {
        unsigned m = (unsigned)(n - k * 254 < 254 ? n - k * 254 : 254);
        out[k].value = bits_value(bits + k * 254, m);
        out[k].var = cz_cs_alloc_input(cs, &out[k].value);
        enforce_pack(cs, bits + k * 254, m, out[k].var, true);
    }
}
