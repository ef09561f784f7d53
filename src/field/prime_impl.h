/*
 * prime_impl.h: the public prime-field functions of field.h, written once
 * over mont_impl.h and included by fp.c (N = 6) and fr.c (N = 4). The
 * including file defines the MONT_* macros of mont_impl.h, F(name) (the
 * public prefix, cz_fp_ or cz_fr_) and MONT_ONE, MONT_R2, MONT_P_MINUS_2.
 */
#include <string.h>

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
void F(sqr)(MONT_T *out, const MONT_T *a) { MONT(mul_)(out->l, a->l, a->l); }

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
            MONT(mul_)(acc.l, acc.l, acc.l);
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
