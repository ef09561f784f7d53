/*
 * prime_impl.h: the public prime-field functions of field.h, written once
 * over mont_impl.h and included by fp.c (N = 6) and fr.c (N = 4). The
 * including file defines the MONT_* macros of mont_impl.h, F(name) (the
 * public prefix, cz_fp_ or cz_fr_) and MONT_ONE, MONT_R2, MONT_R3,
 * MONT_P_MINUS_2 and MONT_DEC_DIGITS_MAX (decimal digits of m).
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

/* Left-to-right square and multiply; the multiply is always done and its
   result selected by mask, so the time does not depend on a. */
void F(pow)(MONT_T *out, const MONT_T *a, const uint64_t *e, size_t e_limbs)
{
    MONT_T acc = MONT(one_), base = *a, t;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            MONT(sqr_)(acc.l, acc.l);
            MONT(mul_)(t.l, acc.l, base.l);
            uint64_t m = 0 - ((e[i] >> b) & 1);
            for (int k = 0; k < MONT_N; k++)
                acc.l[k] = (t.l[k] & m) | (acc.l[k] & ~m);
        }
    }
    *out = acc;
}

/* Fermat: a^(m-2). Constant time; 0 -> 0. */
void F(inv)(MONT_T *out, const MONT_T *a) { F(pow)(out, a, MONT(pm2_), MONT_N); }

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

/* ---- variable-time inversion: binary extended Euclid ----
 * On the plain integer x = a*R mod m (the stored limbs) it keeps
 * u = x1*x (mod m), v = x2*x (mod m) and halves/subtracts until u or v is 1,
 * about 2*log2(m) steps of N-limb shifts and subtractions. That gives
 * x^-1 = a^-1 * R^-1; one Montgomery product with R^3 makes it a^-1 * R. */

static inline bool MONT(is_even_)(const uint64_t a[MONT_N]) { return (a[0] & 1) == 0; }

static inline void MONT(shr1_)(uint64_t a[MONT_N])
{
    for (int i = 0; i < MONT_N - 1; i++)
        a[i] = (a[i] >> 1) | (a[i + 1] << 63);
    a[MONT_N - 1] >>= 1;
}

/* a >= b on plain N-limb integers */
static inline bool MONT(geq_)(const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    for (int i = MONT_N; i-- > 0;)
        if (a[i] != b[i])
            return a[i] > b[i];
    return true;
}

/* a -= b, requires a >= b */
static inline void MONT(sub_plain_)(uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    uint64_t borrow = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)a[i] - b[i] - borrow;
        a[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
}

/* x = x/2 mod m, x < m: add m when odd (x + m < 2^(64N) since m < 2^(64N-1)) */
static inline void MONT(half_)(uint64_t x[MONT_N])
{
    if (x[0] & 1) {
        uint64_t c = 0;
        for (int i = 0; i < MONT_N; i++) {
            cz_u128 t = (cz_u128)x[i] + MONT(p_)[i] + c;
            x[i] = (uint64_t)t;
            c = (uint64_t)(t >> 64);
        }
    }
    MONT(shr1_)(x);
}

static inline bool MONT(is_one_plain_)(const uint64_t a[MONT_N])
{
    uint64_t d = a[0] ^ 1;
    for (int i = 1; i < MONT_N; i++)
        d |= a[i];
    return d == 0;
}

static const MONT_T MONT(r3_) = {MONT_R3};

void F(inv_var)(MONT_T *out, const MONT_T *a)
{
    if (F(is_zero)(a)) {
        F(zero)(out);
        return;
    }
    uint64_t u[MONT_N], v[MONT_N], x1[MONT_N] = {1}, x2[MONT_N] = {0};
    memcpy(u, a->l, sizeof u);
    memcpy(v, MONT(p_), sizeof v);
    while (!MONT(is_one_plain_)(u) && !MONT(is_one_plain_)(v)) {
        while (MONT(is_even_)(u)) {
            MONT(shr1_)(u);
            MONT(half_)(x1);
        }
        while (MONT(is_even_)(v)) {
            MONT(shr1_)(v);
            MONT(half_)(x2);
        }
        if (MONT(geq_)(u, v)) {
            MONT(sub_plain_)(u, v);
            MONT(sub_)(x1, x1, x2);
        } else {
            MONT(sub_plain_)(v, u);
            MONT(sub_)(x2, x2, x1);
        }
    }
    const uint64_t *r = MONT(is_one_plain_)(u) ? x1 : x2;
    MONT(mul_)(out->l, r, MONT(r3_).l);
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

int F(mul_is_asm)(void) { return MONT_HAVE_ASM; }
