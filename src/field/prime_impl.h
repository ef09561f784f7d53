/*
 * prime_impl.h: the public prime-field functions of field.h, written once
 * over mont_impl.h and included by fp.c (N = 6) and fr.c (N = 4). The
 * including file defines the MONT_* macros of mont_impl.h, F(name) (the
 * public prefix, cz_fp_ or cz_fr_) and MONT_ONE, MONT_R2, MONT_R3,
 * MONT_P_MINUS_2, MONT_BITS (bit length of m), MONT_DEC_DIGITS_MAX (decimal
 * digits of m) and, for the assembly, MONT_ASM(op).
 *
 * Square roots, one of two kinds, where the including file asks:
 *   MONT_SQRT_EXP ((m+1)/4, for m = 3 mod 4) and MONT_P_MINUS_1_HALF give
 *     F(sqrt) by one exponentiation and F(is_lex_largest) (BLS12-381 and
 *     BN254 Fp);
 *   MONT_TS_T_MINUS_1_HALF, MONT_TS_C (z^t, z a non-residue) and
 *     MONT_TWO_ADICITY (m - 1 = 2^s t) give F(sqrt) by Tonelli-Shanks
 *     (BLS12-381 and BN254 Fr).
 * BN254 instantiates this file again (bn254_fp.c, bn254_fr.c; N = 4).
 *
 * Constant time: everything but the _var functions, the string parsers
 * (public input; time depends on the length) and the exponent of pow (the
 * exponents are public constants; no branch or address depends on the base).
 */
#include <stdio.h>
#include <string.h>

#include "field/field_internal.h"
#include "field/mont_impl.h"

static const MONT_T MONT(one_) = {MONT_ONE};
static const MONT_T MONT(r2_) = {MONT_R2};
static const uint64_t MONT(pm2_)[MONT_N] = MONT_P_MINUS_2;

void F(zero)(MONT_T *out) { memset(out, 0, sizeof *out); }
void F(one)(MONT_T *out) { *out = MONT(one_); }

void F(set_u64)(MONT_T *out, uint64_t v)
{
    MONT_T t = {{0}};
    t.l[0] = v;  /* v < 2^64 < m */
    MONT(mul_)(out->l, t.l, MONT(r2_).l);
}

bool F(eq)(const MONT_T *a, const MONT_T *b)
{
    uint64_t d = 0;
    for (int i = 0; i < MONT_N; i++)
        d |= a->l[i] ^ b->l[i];
    return d == 0;
}

bool F(is_zero)(const MONT_T *a)
{
    uint64_t d = 0;
    for (int i = 0; i < MONT_N; i++)
        d |= a->l[i];
    return d == 0;
}

bool F(is_one)(const MONT_T *a) { return F(eq)(a, &MONT(one_)); }

void F(add)(MONT_T *out, const MONT_T *a, const MONT_T *b) { MONT(add_)(out->l, a->l, b->l); }
void F(sub)(MONT_T *out, const MONT_T *a, const MONT_T *b) { MONT(sub_)(out->l, a->l, b->l); }
void F(dbl)(MONT_T *out, const MONT_T *a) { MONT(add_)(out->l, a->l, a->l); }
void F(mul)(MONT_T *out, const MONT_T *a, const MONT_T *b) { MONT(mul_)(out->l, a->l, b->l); }
void F(sqr)(MONT_T *out, const MONT_T *a) { MONT(sqr_)(out->l, a->l); }

void F(neg)(MONT_T *out, const MONT_T *a)
{
    static const MONT_T zero = {{0}};
    MONT(sub_)(out->l, zero.l, a->l);
}

/* Fixed 4-bit windows, left to right: a table of a^0 .. a^15 (14
   products), then per window 4 squarings and one product. The exponent is
   public: its bits choose the table entry and skip zero windows, but no
   branch or address depends on a. For a 381-bit e: 380 S + 95 M + 14 M.
   The table is wiped afterwards (the base may be a secret scalar). */
void F(pow)(MONT_T *out, const MONT_T *a, const uint64_t *e, size_t e_limbs)
{
    MONT_T tab[16], acc = MONT(one_);
    tab[0] = MONT(one_);
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        MONT(mul_)(tab[i].l, tab[i - 1].l, a->l);
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 60; b >= 0; b -= 4) {
            unsigned w = (unsigned)(e[i] >> b) & 15;
            if (started)
                for (int k = 0; k < 4; k++)
                    MONT(sqr_)(acc.l, acc.l);
            if (w) {
                if (started)
                    MONT(mul_)(acc.l, acc.l, tab[w].l);
                else
                    acc = tab[w];
                started = true;
            }
        }
    }
    *out = acc;
    cz_wipe(tab, sizeof tab); /* powers of a possibly secret base */
}

/* Fermat: a^(m-2), 0 -> 0; the reference for the tests (cz_*_inv uses the
   constant-time divsteps below). */
void F(inv_fermat)(MONT_T *out, const MONT_T *a) { F(pow)(out, a, MONT(pm2_), MONT_N); }

bool F(from_limbs)(MONT_T *out, const uint64_t in[MONT_N])
{
    uint64_t borrow = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)in[i] - MONT(p_)[i] - borrow;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    if (!borrow)
        return false; /* in >= m */
    MONT(mul_)(out->l, in, MONT(r2_).l);
    return true;
}

void F(to_limbs)(uint64_t out[MONT_N], const MONT_T *a)
{
    uint64_t one[MONT_N] = {1};
    MONT(mul_)(out, a->l, one);
}

/* out = flag ? a : out, by mask. */
void F(cmov)(MONT_T *out, const MONT_T *a, bool flag)
{
    uint64_t m = 0 - (uint64_t)(flag != 0);
    for (int i = 0; i < MONT_N; i++)
        out->l[i] = (a->l[i] & m) | (out->l[i] & ~m);
}

/* ---- variable-time inversion: Bernstein-Yang divsteps ----
 * The safegcd algorithm ("Fast constant-time gcd computation and modular
 * inversion", Bernstein and Yang 2019) in its variable-time form, written
 * after the description in bitcoin-core/secp256k1's doc/safegcd_implementation.md:
 * f = m, g = x (the stored limbs x = a*R), d = 0, e = 1, with g = e*x and
 * f = d*x (mod m) kept invariant. Batches of 62 divsteps run on the low 64
 * bits of f and g alone and yield a 2x2 matrix T scaled by 2^62; it is then
 * applied to (f, g) (exact division by 2^62) and to (d, e) (mod m, adding
 * the multiple of m that makes the division exact). When g reaches 0,
 * f = +-1 and d = +-x^-1. Numbers are held in signed 62-bit limbs. About
 * 1.5 * log2(m) / 62 + 1 batches (10 for Fp). The result x^-1 = a^-1 R^-1
 * becomes a^-1 R with one Montgomery product by R^3. */

#define SG_L ((MONT_N * 64 + 61) / 62) /* 62-bit limbs: 7 for Fp, 5 for Fr */
#define SG_M62 (UINT64_MAX >> 2)

typedef struct { int64_t v[SG_L]; } MONT(s62_);
typedef __int128 cz_i128;

static void MONT(to_s62_)(MONT(s62_) *r, const uint64_t a[MONT_N])
{
    for (int i = 0; i < SG_L; i++) {
        int bit = 62 * i, w = bit / 64, o = bit % 64;
        uint64_t x = a[w] >> o;
        if (o > 2 && w + 1 < MONT_N)
            x |= a[w + 1] << (64 - o);
        r->v[i] = (int64_t)(x & SG_M62);
    }
}

/* r has limbs in [0, 2^62) and value < 2^(64N) */
static void MONT(from_s62_)(uint64_t a[MONT_N], const MONT(s62_) *r)
{
    memset(a, 0, MONT_N * sizeof a[0]);
    for (int i = 0; i < SG_L; i++) {
        uint64_t x = (uint64_t)r->v[i];
        int bit = 62 * i, w = bit / 64, o = bit % 64;
        if (w < MONT_N)
            a[w] |= x << o;
        if (o > 2 && w + 1 < MONT_N)
            a[w + 1] |= x >> (64 - o);
    }
}

/* 62 divsteps on the low bits of f and g (f odd); returns the new eta and
   the matrix t = (u, v; q, r) with 2^62 (f', g') = t (f, g). */
static int64_t MONT(divsteps_62_var_)(int64_t eta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1, m, w, tmp;
    int i = 62, limit, zeros;
    for (;;) {
        /* divide g by 2 as often as it is even (up to the remaining steps) */
        zeros = __builtin_ctzll(g | (UINT64_MAX << i));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        i -= zeros;
        if (i == 0)
            break;
        /* g odd: if eta < 0, swap so that (f, g) = (g, -f) */
        if (eta < 0) {
            eta = -eta;
            tmp = f; f = g; g = 0 - tmp;
            tmp = u; u = q; q = 0 - tmp;
            tmp = v; v = r; r = 0 - tmp;
            /* cancel up to 6 low bits of g: w = -g/f mod 2^6, 1/f = -f(f^2-2) mod 64 */
            limit = ((int)eta + 1) > i ? i : ((int)eta + 1);
            m = (UINT64_MAX >> (64 - limit)) & 63U;
            w = (f * g * (f * f - 2)) & m;
        } else {
            /* cancel up to 4 low bits: 1/f mod 16 = f + ((f + 1) & 4) * 2 */
            limit = ((int)eta + 1) > i ? i : ((int)eta + 1);
            m = (UINT64_MAX >> (64 - limit)) & 15U;
            w = f + (((f + 1) & 4) << 1);
            w = (0 - w * g) & m;
        }
        g += f * w;
        q += u * w;
        r += v * w;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return eta;
}

/* (f, g) = t (f, g) / 2^62 on the first len limbs (exact division) */
static void MONT(update_fg_var_)(int len, MONT(s62_) *f, MONT(s62_) *g, const int64_t t[4])
{
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    cz_i128 cf = (cz_i128)u * f->v[0] + (cz_i128)v * g->v[0];
    cz_i128 cg = (cz_i128)q * f->v[0] + (cz_i128)r * g->v[0];
    cf >>= 62; /* the low 62 bits are zero */
    cg >>= 62;
    for (int i = 1; i < len; i++) {
        cf += (cz_i128)u * f->v[i] + (cz_i128)v * g->v[i];
        cg += (cz_i128)q * f->v[i] + (cz_i128)r * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & SG_M62);
        g->v[i - 1] = (int64_t)((uint64_t)cg & SG_M62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[len - 1] = (int64_t)cf;
    g->v[len - 1] = (int64_t)cg;
}

/* (d, e) = (t (d, e) + m (md, me)) / 2^62 with md, me chosen to make the
   division exact; d, e stay in (-2m, m). */
static void MONT(update_de_)(MONT(s62_) *d, MONT(s62_) *e, const int64_t t[4],
                             const MONT(s62_) *mod, uint64_t mod_inv62)
{
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    int64_t sd = d->v[SG_L - 1] >> 63, se = e->v[SG_L - 1] >> 63;
    int64_t md = (u & sd) + (v & se), me = (q & sd) + (r & se);
    cz_i128 cd = (cz_i128)u * d->v[0] + (cz_i128)v * e->v[0];
    cz_i128 ce = (cz_i128)q * d->v[0] + (cz_i128)r * e->v[0];
    md -= (int64_t)((mod_inv62 * (uint64_t)cd + (uint64_t)md) & SG_M62);
    me -= (int64_t)((mod_inv62 * (uint64_t)ce + (uint64_t)me) & SG_M62);
    cd += (cz_i128)mod->v[0] * md;
    ce += (cz_i128)mod->v[0] * me;
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < SG_L; i++) {
        cd += (cz_i128)u * d->v[i] + (cz_i128)v * e->v[i] + (cz_i128)mod->v[i] * md;
        ce += (cz_i128)q * d->v[i] + (cz_i128)r * e->v[i] + (cz_i128)mod->v[i] * me;
        d->v[i - 1] = (int64_t)((uint64_t)cd & SG_M62);
        e->v[i - 1] = (int64_t)((uint64_t)ce & SG_M62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[SG_L - 1] = (int64_t)cd;
    e->v[SG_L - 1] = (int64_t)ce;
}

/* r in (-2m, m) -> sign * r mod m in [0, m), limbs in [0, 2^62) */
static void MONT(normalize_)(MONT(s62_) *r, int64_t sign, const MONT(s62_) *mod)
{
    int64_t c = r->v[SG_L - 1] >> 63;
    for (int i = 0; i < SG_L; i++)
        r->v[i] += mod->v[i] & c;
    c = sign >> 63;
    for (int i = 0; i < SG_L; i++)
        r->v[i] = (r->v[i] ^ c) - c;
    for (int i = 0; i < SG_L - 1; i++) {
        r->v[i + 1] += r->v[i] >> 62;
        r->v[i] = (int64_t)((uint64_t)r->v[i] & SG_M62);
    }
    c = r->v[SG_L - 1] >> 63;
    for (int i = 0; i < SG_L; i++)
        r->v[i] += mod->v[i] & c;
    for (int i = 0; i < SG_L - 1; i++) {
        r->v[i + 1] += r->v[i] >> 62;
        r->v[i] = (int64_t)((uint64_t)r->v[i] & SG_M62);
    }
}

static const MONT_T MONT(r3_) = {MONT_R3};

void F(inv_var)(MONT_T *out, const MONT_T *a)
{
    MONT(s62_) mod, d = {{0}}, e = {{1}}, f, g;
    const uint64_t mod_inv62 = (0 - (uint64_t)MONT_N0) & SG_M62; /* m^-1 mod 2^62 */
    MONT(to_s62_)(&mod, MONT(p_));
    f = mod;
    MONT(to_s62_)(&g, a->l);
    int len = SG_L;
    int64_t eta = -1, t[4];
    for (;;) {
        bool gz = true;
        for (int j = 0; j < len; j++)
            gz = gz && g.v[j] == 0;
        if (gz)
            break; /* also catches a = 0: d = 0 */
        eta = MONT(divsteps_62_var_)(eta, (uint64_t)f.v[0], (uint64_t)g.v[0], t);
        MONT(update_de_)(&d, &e, t, &mod, mod_inv62);
        MONT(update_fg_var_)(len, &f, &g, t);
        /* drop the top limb once it is only sign for both f and g */
        int64_t fn = f.v[len - 1], gn = g.v[len - 1];
        if (len > 1 && (fn ^ (fn >> 63)) == 0 && (gn ^ (gn >> 63)) == 0) {
            f.v[len - 2] = (int64_t)((uint64_t)f.v[len - 2] | ((uint64_t)fn << 62));
            g.v[len - 2] = (int64_t)((uint64_t)g.v[len - 2] | ((uint64_t)gn << 62));
            len--;
        }
    }
    MONT(normalize_)(&d, f.v[len - 1], &mod);
    uint64_t x[MONT_N];
    MONT(from_s62_)(x, &d);
    MONT(mul_)(out->l, x, MONT(r3_).l);
}

/* ---- constant-time inversion: the same divsteps, branch-free ----
 * The original divstep of Bernstein and Yang, (delta, f, g) ->
 * (1 - delta, g, (g - f)/2) if delta > 0 and g odd, else
 * (1 + delta, f, (g + (g mod 2) f)/2), done with masks, 62 per batch, for
 * a fixed number of batches: by their theorem 11.2, g = 0 after
 * floor((49 d + 80) / 17) steps for d-bit inputs (d >= 46): 1102 for Fp
 * (d = 381, 18 batches), 739 for Fr (d = 255, 12 batches). No branch or
 * address depends on the input. */
#define SG_BATCHES ((((49 * MONT_BITS + 80) / 17) + 61) / 62)

static int64_t MONT(divsteps_62_)(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1, c, c2, x;
    for (int i = 0; i < 62; i++) {
        c2 = 0 - (g & 1);                                /* g odd */
        c = (uint64_t)((0 - (uint64_t)delta) >> 63) & c2; /* delta > 0 and g odd */
        c = 0 - (c & 1);
        /* on c: (f, g) = (g, -f), (u, v, q, r) = (q, r, -u, -v), delta = -delta */
        x = (f ^ g) & c; f ^= x; g ^= x; g = (g ^ c) - c;
        x = (u ^ q) & c; u ^= x; q ^= x; q = (q ^ c) - c;
        x = (v ^ r) & c; v ^= x; r ^= x; r = (r ^ c) - c;
        delta = (int64_t)(((uint64_t)delta ^ c) - c);
        /* g odd: g += f (now even); then g /= 2, kept exact by doubling the f row */
        g += f & c2;
        q += u & c2;
        r += v & c2;
        g >>= 1;
        u <<= 1;
        v <<= 1;
        delta += 1;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return delta;
}

void F(inv)(MONT_T *out, const MONT_T *a)
{
    MONT(s62_) mod, d = {{0}}, e = {{1}}, f, g;
    const uint64_t mod_inv62 = (0 - (uint64_t)MONT_N0) & SG_M62;
    MONT(to_s62_)(&mod, MONT(p_));
    f = mod;
    MONT(to_s62_)(&g, a->l);
    int64_t delta = 1, t[4];
    for (int i = 0; i < SG_BATCHES; i++) {
        delta = MONT(divsteps_62_)(delta, (uint64_t)f.v[0], (uint64_t)g.v[0], t);
        MONT(update_de_)(&d, &e, t, &mod, mod_inv62);
        MONT(update_fg_var_)(SG_L, &f, &g, t); /* full length: constant time */
    }
    /* g = 0, f = +-1 (for a = 0: f = +-m and d = 0) */
    MONT(normalize_)(&d, f.v[SG_L - 1], &mod);
    uint64_t x[MONT_N];
    MONT(from_s62_)(x, &d);
    MONT(mul_)(out->l, x, MONT(r3_).l);
    cz_wipe(&d, sizeof d);
    cz_wipe(&e, sizeof e);
    cz_wipe(&g, sizeof g);
    cz_wipe(x, sizeof x);
}

/* Montgomery's trick: 3(n-1) products and one inversion. scratch[i] holds
   the product of the nonzero in[0..i-1]. */
void F(batch_inv_var)(MONT_T *out, const MONT_T *in, size_t n, MONT_T *scratch)
{
    MONT_T acc = MONT(one_), inv, t;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!F(is_zero)(&in[i]))
            MONT(mul_)(acc.l, acc.l, in[i].l);
    }
    F(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (F(is_zero)(&in[i])) {
            F(zero)(&out[i]);
            continue;
        }
        t = in[i]; /* out may alias in */
        MONT(mul_)(out[i].l, inv.l, scratch[i].l);
        MONT(mul_)(inv.l, inv.l, t.l);
    }
}

/* R2 goes in the first operand: with a < m and b < 2^(64N) the Montgomery
   product stays below 2m, so any 64N-bit input is reduced correctly. */
void F(from_limbs_reduce)(MONT_T *out, const uint64_t in[MONT_N])
{
    uint64_t t[MONT_N];
    memcpy(t, in, sizeof t);
    MONT(mul_portable_)(out->l, MONT(r2_).l, t);
}

/* ---- bytes ---- */
bool F(from_bytes_le)(MONT_T *out, const uint8_t *in)
{
    uint64_t l[MONT_N] = {0};
    for (int i = 0; i < MONT_N * 8; i++)
        l[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));
    return F(from_limbs)(out, l);
}

bool F(from_bytes_be)(MONT_T *out, const uint8_t *in)
{
    uint64_t l[MONT_N] = {0};
    for (int i = 0; i < MONT_N * 8; i++)
        l[i / 8] |= (uint64_t)in[MONT_N * 8 - 1 - i] << (8 * (i % 8));
    return F(from_limbs)(out, l);
}

void F(to_bytes_le)(uint8_t *out, const MONT_T *a)
{
    uint64_t l[MONT_N];
    F(to_limbs)(l, a);
    for (int i = 0; i < MONT_N * 8; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

void F(to_bytes_be)(uint8_t *out, const MONT_T *a)
{
    uint64_t l[MONT_N];
    F(to_limbs)(l, a);
    for (int i = 0; i < MONT_N * 8; i++)
        out[MONT_N * 8 - 1 - i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

/* ---- strings (public data: parsing time depends on the length) ---- */

/* l = l*k + d; false on overflow past 64N bits */
static bool MONT(muladd_small_)(uint64_t l[MONT_N], uint64_t k, uint64_t d)
{
    uint64_t c = d;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)l[i] * k + c;
        l[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    return c == 0;
}

bool F(from_dec)(MONT_T *out, const char *s)
{
    if (!s || !*s)
        return false;
    uint64_t l[MONT_N] = {0};
    size_t n = 0;
    for (; s[n]; n++) {
        if (s[n] < '0' || s[n] > '9' || n >= MONT_DEC_DIGITS_MAX)
            return false;
        if (!MONT(muladd_small_)(l, 10, (uint64_t)(s[n] - '0')))
            return false;
    }
    return F(from_limbs)(out, l);
}

static int MONT(hexval_)(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "0x..." or bare hex digits; at most 16N digits (leading zeros count). */
bool F(from_hex)(MONT_T *out, const char *s)
{
    if (!s)
        return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    if (!*s)
        return false;
    uint64_t l[MONT_N] = {0};
    size_t n = 0;
    for (; s[n]; n++) {
        int v = MONT(hexval_)(s[n]);
        if (v < 0 || n >= 16 * MONT_N)
            return false;
        MONT(muladd_small_)(l, 16, (uint64_t)v); /* cannot overflow: <= 16N digits */
    }
    return F(from_limbs)(out, l);
}

bool F(from_str)(MONT_T *out, const char *s)
{
    if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return F(from_hex)(out, s);
    return F(from_dec)(out, s);
}

/* Decimal by repeated division by 10^19 (chunks of 19 digits). */
void F(to_dec)(char *buf, const MONT_T *a)
{
    const uint64_t base = 10000000000000000000ULL;
    uint64_t l[MONT_N], chunks[MONT_N * 2];
    int nc = 0;
    F(to_limbs)(l, a);
    for (;;) {
        bool zero = true;
        for (int i = 0; i < MONT_N; i++)
            zero = zero && l[i] == 0;
        if (zero && nc > 0)
            break;
        uint64_t rem = 0;
        for (int i = MONT_N; i-- > 0;) {
            cz_u128 x = ((cz_u128)rem << 64) | l[i];
            l[i] = (uint64_t)(x / base);
            rem = (uint64_t)(x % base);
        }
        chunks[nc++] = rem;
        if (zero)
            break;
    }
    char *p = buf;
    p += sprintf(p, "%llu", (unsigned long long)chunks[nc - 1]);
    for (int i = nc - 2; i >= 0; i--)
        p += sprintf(p, "%019llu", (unsigned long long)chunks[i]);
}

/* "0x" and lower-case hex without leading zeros ("0x0" for zero). */
void F(to_hex)(char *buf, const MONT_T *a)
{
    static const char dig[] = "0123456789abcdef";
    uint64_t l[MONT_N];
    F(to_limbs)(l, a);
    char *p = buf;
    *p++ = '0';
    *p++ = 'x';
    bool started = false;
    for (int i = MONT_N * 16; i-- > 0;) {
        int v = (int)((l[i / 16] >> (4 * (i % 16))) & 15);
        if (v || started || i == 0) {
            *p++ = dig[v];
            started = true;
        }
    }
    *p = 0;
}

/* Uniform in [0, m): draw 64N-bit values masked to the bit length of m and
   reject those >= m (acceptance > 1/2), then convert to Montgomery form. */
void F(random)(MONT_T *out, cz_rng *rng)
{
    uint64_t top = MONT(p_)[MONT_N - 1], mask = top;
    for (int s = 1; s < 64; s <<= 1)
        mask |= mask >> s;
    uint64_t l[MONT_N];
    do {
        for (int i = 0; i < MONT_N; i++)
            l[i] = cz_rng_u64(rng);
        l[MONT_N - 1] &= mask;
    } while (!F(from_limbs)(out, l));
}

/* ---- internals for tests (field_internal.h) ---- */
void F(mul_portable)(MONT_T *out, const MONT_T *a, const MONT_T *b)
{
    MONT(mul_portable_)(out->l, a->l, b->l);
}

void F(add_portable)(MONT_T *out, const MONT_T *a, const MONT_T *b)
{
    MONT(add_portable_)(out->l, a->l, b->l);
}

void F(sub_portable)(MONT_T *out, const MONT_T *a, const MONT_T *b)
{
    MONT(sub_portable_)(out->l, a->l, b->l);
}

void F(mul_wide)(uint64_t out[2 * MONT_N], const MONT_T *a, const MONT_T *b)
{
    MONT(mul_wide_)(out, a->l, b->l);
}

void F(redc)(MONT_T *out, const uint64_t in[2 * MONT_N]) { MONT(redc_)(out->l, in); }

void F(sub_wide)(uint64_t out[2 * MONT_N], const uint64_t a[2 * MONT_N],
                 const uint64_t b[2 * MONT_N])
{
    MONT(wsub_)(out, a, b);
}

void F(sub_wide_portable)(uint64_t out[2 * MONT_N], const uint64_t a[2 * MONT_N],
                          const uint64_t b[2 * MONT_N])
{
    MONT(wsub_portable_)(out, a, b);
}

/* out = a + b as plain integers (no reduction); a + b < 2^(64N). The
   assembly stores the words itself (compiler stores got packed into slow
   vector inserts under -march=znver4; see tools/gen_mont_asm.py). */
void F(add_nr)(MONT_T *out, const MONT_T *a, const MONT_T *b)
{
    MONT(add_nr_)(out->l, a->l, b->l);
}

void F(add_nr_portable)(MONT_T *out, const MONT_T *a, const MONT_T *b)
{
    MONT(add_nr_portable_)(out->l, a->l, b->l);
}

void F(mul_wide_portable)(uint64_t out[2 * MONT_N], const MONT_T *a, const MONT_T *b)
{
    MONT(mul_wide_portable_)(out, a->l, b->l);
}

void F(redc_portable)(MONT_T *out, const uint64_t in[2 * MONT_N])
{
    MONT(redc_portable_)(out->l, in);
}

int F(mul_is_asm)(void) { return MONT_HAVE_ASM; }

#ifdef MONT_SQRT_EXP
static const uint64_t MONT(sqrt_exp_)[MONT_N] = MONT_SQRT_EXP;
static const uint64_t MONT(half_)[MONT_N] = MONT_P_MINUS_1_HALF;

/* m = 3 mod 4: a root, if any, is a^((m+1)/4); check it by squaring.
   On false out is left unchanged. Constant time. */
bool F(sqrt)(MONT_T *out, const MONT_T *a)
{
    MONT_T r, s;
    F(pow)(&r, a, MONT(sqrt_exp_), MONT_N);
    F(sqr)(&s, &r);
    bool ok = F(eq)(&s, a);
    F(cmov)(out, &r, ok);
    return ok;
}

/* plain(a) > (m-1)/2, by a constant-time subtraction (m-1)/2 - plain(a). */
bool F(is_lex_largest)(const MONT_T *a)
{
    uint64_t l[MONT_N], borrow = 0;
    F(to_limbs)(l, a);
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)MONT(half_)[i] - l[i] - borrow;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    return borrow != 0;
}
#endif

#ifdef MONT_TS_T_MINUS_1_HALF
static const uint64_t MONT(ts_c3_)[MONT_N] = MONT_TS_T_MINUS_1_HALF;
static const MONT_T MONT(ts_c5_) = {MONT_TS_C};

/* Constant-time Tonelli-Shanks (RFC 9380, appendix I.4), m - 1 = 2^s t:
 *   z = x^((t-1)/2), t' = z^2 x, z = z x, b = t', c = c5 (= w^t, w a
 *   non-residue); for k = s .. 2: b = t'^(2^(k-2)); e = (b == 1);
 *     z = e ? z : z c; c = c^2; t' = e ? t' : t' c.
 * For s = 32 (BLS12-381 r) about 250 + 2*31 products and 465 squarings.
 * The result is checked by squaring; on false out is left unchanged. */
bool F(sqrt)(MONT_T *out, const MONT_T *x)
{
    MONT_T z, t, b, c = MONT(ts_c5_), tmp;
    F(pow)(&z, x, MONT(ts_c3_), MONT_N);
    F(sqr)(&t, &z);
    F(mul)(&t, &t, x);
    F(mul)(&z, &z, x);
    for (int k = MONT_TWO_ADICITY; k >= 2; k--) {
        b = t;
        for (int i = 1; i <= k - 2; i++)
            F(sqr)(&b, &b);
        bool e = F(is_one)(&b);
        F(mul)(&tmp, &z, &c);
        F(cmov)(&z, &tmp, !e);
        F(sqr)(&c, &c);
        F(mul)(&tmp, &t, &c);
        F(cmov)(&t, &tmp, !e);
    }
    F(sqr)(&tmp, &z);
    bool ok = F(eq)(&tmp, x);
    F(cmov)(out, &z, ok);
    return ok;
}
#endif
