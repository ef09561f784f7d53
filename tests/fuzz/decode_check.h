/*
 * decode_check.h: the property every decoder must have, for any input
 * bytes: it returns an error, or a valid value that encodes back to the
 * exact bytes it was given (so no two inputs decode to the same value, and
 * nothing unreduced, off the curve or, where the format promises it,
 * outside the subgroup gets in). Shared by the libFuzzer harnesses
 * (tests/fuzz/fuzz_*.c, which abort on a violation) and the seeded ctest
 * mutation test (tests/test_decode_fuzz.c, which counts and prints them).
 *
 * Each cz_chk_* returns NULL when the property holds, else a static
 * message. Where a decoder's contract (field.h, curve.h) says exactly what
 * to accept, the check carries a small reference (a modulus comparison, a
 * digit fold in the field) and demands the same answer.
 */
#ifndef CZ_DECODE_CHECK_H
#define CZ_DECODE_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "curve/curve.h"
#include "field/field.h"

/* A Montgomery element is reduced iff its limbs, read as a plain
   little-endian integer, are < m: from_bytes_le says exactly that. */
static inline bool cz_chk_fp_reduced(const cz_fp *a)
{
    uint8_t b[48];
    cz_fp t;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            b[8 * i + j] = (uint8_t)(a->l[i] >> (8 * j));
    return cz_fp_from_bytes_le(&t, b);
}

static inline bool cz_chk_fp2_reduced(const cz_fp2 *a)
{
    return cz_chk_fp_reduced(&a->c0) && cz_chk_fp_reduced(&a->c1);
}

/* inputs the decoders accepted (for the caller's statistics) */
static unsigned long cz_chk_accepted;

static inline bool cz_chk_status_known(cz_status s)
{
    return s == CZ_ERR_FORMAT || s == CZ_ERR_NOT_ON_CURVE || s == CZ_ERR_SUBGROUP ||
           s == CZ_ERR_RANGE;
}

/* ---- zcash encodings: decoders check curve and subgroup ---- */

#define CZ_CHK_ZCASH(G, T, FORM, N, RED)                                         \
    static inline const char *cz_chk_##G##_##FORM(const uint8_t *in)             \
    {                                                                            \
        T p;                                                                     \
        uint8_t out[N];                                                          \
        cz_status s = cz_##G##_from_##FORM(&p, in);                              \
        if (s != CZ_OK)                                                          \
            return cz_chk_status_known(s) ? NULL                                 \
                                          : #G "_from_" #FORM ": unexpected status"; \
        cz_chk_accepted++;                                                       \
        if (!cz_##G##_affine_is_infinity(&p)) {                                  \
            if (!RED(&p.x) || !RED(&p.y))                                        \
                return #G "_from_" #FORM ": accepted, coordinates not reduced";  \
            if (!cz_##G##_affine_is_on_curve(&p))                                \
                return #G "_from_" #FORM ": accepted a point off the curve";     \
            if (!cz_##G##_affine_in_subgroup(&p))                                \
                return #G "_from_" #FORM ": accepted a point outside the subgroup"; \
        }                                                                        \
        cz_##G##_to_##FORM(out, &p);                                             \
        if (memcmp(out, in, N) != 0)                                             \
            return #G "_from_" #FORM ": accepted bytes that do not re-encode to themselves"; \
        return NULL;                                                             \
    }

CZ_CHK_ZCASH(g1, cz_g1_affine, compressed, 48, cz_chk_fp_reduced)
CZ_CHK_ZCASH(g1, cz_g1_affine, uncompressed, 96, cz_chk_fp_reduced)
CZ_CHK_ZCASH(g2, cz_g2_affine, compressed, 96, cz_chk_fp2_reduced)
CZ_CHK_ZCASH(g2, cz_g2_affine, uncompressed, 192, cz_chk_fp2_reduced)

/* ---- snarkjs binary: checks the curve and range, not the subgroup ---- */

#define CZ_CHK_SNARKJS(G, T, N, RED)                                             \
    static inline const char *cz_chk_##G##_snarkjs(const uint8_t *in)           \
    {                                                                            \
        T p;                                                                     \
        uint8_t out[N];                                                          \
        cz_status s = cz_##G##_from_snarkjs(&p, in);                             \
        if (s != CZ_OK)                                                          \
            return cz_chk_status_known(s) ? NULL : #G "_from_snarkjs: unexpected status"; \
        cz_chk_accepted++;                                                       \
        if (!cz_##G##_affine_is_infinity(&p)) {                                  \
            if (!RED(&p.x) || !RED(&p.y))                                        \
                return #G "_from_snarkjs: accepted, coordinates not reduced";    \
            if (!cz_##G##_affine_is_on_curve(&p))                                \
                return #G "_from_snarkjs: accepted a point off the curve";       \
        }                                                                        \
        cz_##G##_to_snarkjs(out, &p);                                            \
        if (memcmp(out, in, N) != 0)                                             \
            return #G "_from_snarkjs: accepted bytes that do not re-encode to themselves"; \
        return NULL;                                                             \
    }

CZ_CHK_SNARKJS(g1, cz_g1_affine, 96, cz_chk_fp_reduced)
CZ_CHK_SNARKJS(g2, cz_g2_affine, 192, cz_chk_fp2_reduced)

/* ---- snarkjs decimal points: valid or refused; the canonical decimal
   of what was decoded decodes to the same point ---- */

static inline const char *cz_chk_g1_dec(const char *x, const char *y, const char *z)
{
    cz_g1_affine p, q;
    cz_status s = cz_g1_from_dec(&p, x, y, z);
    if (s != CZ_OK)
        return cz_chk_status_known(s) ? NULL : "g1_from_dec: unexpected status";
    cz_chk_accepted++;
    if (cz_g1_affine_is_infinity(&p))
        return cz_g1_from_dec(&q, "0", "1", "0") == CZ_OK && cz_g1_affine_eq(&p, &q)
                   ? NULL : "g1_from_dec: accepted infinity, canonical form differs";
    if (!cz_chk_fp_reduced(&p.x) || !cz_chk_fp_reduced(&p.y))
        return "g1_from_dec: accepted, coordinates not reduced";
    if (!cz_g1_affine_is_on_curve(&p))
        return "g1_from_dec: accepted a point off the curve";
    char bx[CZ_FP_STR_MAX], by[CZ_FP_STR_MAX];
    cz_fp_to_dec(bx, &p.x);
    cz_fp_to_dec(by, &p.y);
    if (cz_g1_from_dec(&q, bx, by, "1") != CZ_OK || !cz_g1_affine_eq(&p, &q))
        return "g1_from_dec: canonical decimal of the result decodes differently";
    return NULL;
}

static inline const char *cz_chk_g2_dec(const char *s6[6])
{
    cz_g2_affine p, q;
    cz_status s = cz_g2_from_dec(&p, s6[0], s6[1], s6[2], s6[3], s6[4], s6[5]);
    if (s != CZ_OK)
        return cz_chk_status_known(s) ? NULL : "g2_from_dec: unexpected status";
    cz_chk_accepted++;
    if (cz_g2_affine_is_infinity(&p))
        return NULL;
    if (!cz_chk_fp2_reduced(&p.x) || !cz_chk_fp2_reduced(&p.y))
        return "g2_from_dec: accepted, coordinates not reduced";
    if (!cz_g2_affine_is_on_curve(&p))
        return "g2_from_dec: accepted a point off the curve";
    char b[4][CZ_FP_STR_MAX];
    cz_fp_to_dec(b[0], &p.x.c0);
    cz_fp_to_dec(b[1], &p.x.c1);
    cz_fp_to_dec(b[2], &p.y.c0);
    cz_fp_to_dec(b[3], &p.y.c1);
    if (cz_g2_from_dec(&q, b[0], b[1], b[2], b[3], "1", "0") != CZ_OK || !cz_g2_affine_eq(&p, &q))
        return "g2_from_dec: canonical decimal of the result decodes differently";
    return NULL;
}

/* ---- field strings and bytes, F in {fp, fr}: a reference decision ----
 * decimal: reject empty, any non-digit, or a value > m-1; accept digits
 *          without leading zeros whose value is <= m-1; an accepted value
 *          equals the digits folded in the field (acc = 10 acc + d).
 * hex:     after an optional 0x/0X, the same with hex digits; "0x" + 1..2N
 *          digits of a value <= m-1 must be accepted.
 * str:     agrees with dec or hex.
 * bytes:   accept iff the integer is <= m-1, and then re-encode exactly.
 */
static inline int cz_chk_digit(char c, int base)
{
    int d = -1;
    if (c >= '0' && c <= '9')
        d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
    return d;
}

/* compare digit strings without leading zeros: <0, 0, >0 (case-insensitive hex) */
static inline int cz_chk_numcmp(const char *a, size_t na, const char *b, size_t nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    for (size_t i = 0; i < na; i++) {
        int da = cz_chk_digit(a[i], 16), db = cz_chk_digit(b[i], 16);
        if (da != db)
            return da < db ? -1 : 1;
    }
    return 0;
}

#define CZ_CHK_FIELD(F, T, NB)                                                    \
    /* 0: malformed; 1: well formed, value <= m-1; 2: well formed, >= m */       \
    static inline int cz_chk_##F##_ref(T *val, bool *canonical, const char *d,   \
                                       size_t n, int base)                       \
    {                                                                            \
        T acc, k, t;                                                             \
        if (n == 0)                                                              \
            return 0;                                                            \
        cz_##F##_zero(&acc);                                                     \
        cz_##F##_set_u64(&k, (uint64_t)base);                                    \
        for (size_t i = 0; i < n; i++) {                                         \
            int v = cz_chk_digit(d[i], base);                                    \
            if (v < 0)                                                           \
                return 0;                                                        \
            cz_##F##_mul(&acc, &acc, &k);                                        \
            cz_##F##_set_u64(&t, (uint64_t)v);                                   \
            cz_##F##_add(&acc, &acc, &t);                                        \
        }                                                                        \
        *val = acc;                                                              \
        *canonical = (n == 1 || d[0] != '0');                                    \
        size_t z = 0;                                                            \
        while (z + 1 < n && d[z] == '0')                                         \
            z++;                                                                 \
        /* m-1 in the same base, from the encoders the KAT checks; made   \
           once (the fuzzers call this millions of times) */               \
        static char mdec[CZ_FP_STR_MAX], mhex[2 * NB + 1];                   \
        if (!mdec[0]) {                                                      \
            T m1;                                                            \
            uint8_t b[NB];                                                   \
            cz_##F##_one(&m1);                                               \
            cz_##F##_neg(&m1, &m1);                                          \
            cz_##F##_to_dec(mdec, &m1);                                      \
            cz_##F##_to_bytes_be(b, &m1);                                    \
            for (int i = 0; i < NB; i++) {                                   \
                mhex[2 * i] = "0123456789abcdef"[b[i] >> 4];                 \
                mhex[2 * i + 1] = "0123456789abcdef"[b[i] & 15];             \
            }                                                                \
        }                                                                    \
        const char *ms = base == 10 ? mdec : mhex;                           \
        while (ms[0] == '0' && ms[1])                                        \
            ms++;                                                            \
        return cz_chk_numcmp(d + z, n - z, ms, strlen(ms)) <= 0 ? 1 : 2;         \
    }                                                                            \
    static inline const char *cz_chk_##F##_dec(const char *s)                    \
    {                                                                            \
        T got, ref;                                                              \
        bool canon = false;                                                      \
        bool ok = cz_##F##_from_dec(&got, s);                                    \
        cz_chk_accepted += ok;                                                   \
        int r = cz_chk_##F##_ref(&ref, &canon, s, strlen(s), 10);                \
        if (ok && r != 1)                                                        \
            return #F "_from_dec: accepted junk or a value >= m";                \
        if (!ok && r == 1 && canon)                                              \
            return #F "_from_dec: refused a canonical value < m";                \
        if (ok && !cz_##F##_eq(&got, &ref))                                      \
            return #F "_from_dec: wrong value";                                  \
        return NULL;                                                             \
    }                                                                            \
    static inline const char *cz_chk_##F##_hex(const char *s)                    \
    {                                                                            \
        T got, ref;                                                              \
        bool canon = false;                                                      \
        bool ok = cz_##F##_from_hex(&got, s);                                    \
        bool prefix = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');               \
        const char *d = prefix ? s + 2 : s;                                      \
        int r = cz_chk_##F##_ref(&ref, &canon, d, strlen(d), 16);                \
        if (ok && r != 1)                                                        \
            return #F "_from_hex: accepted junk or a value >= m";                \
        if (!ok && r == 1 && prefix && strlen(d) <= 2 * NB)                      \
            return #F "_from_hex: refused 0x + a value < m";                     \
        if (ok && !cz_##F##_eq(&got, &ref))                                      \
            return #F "_from_hex: wrong value";                                  \
        return NULL;                                                             \
    }                                                                            \
    static inline const char *cz_chk_##F##_str(const char *s)                    \
    {                                                                            \
        T got, viadec, viahex;                                                   \
        bool ok = cz_##F##_from_str(&got, s);                                    \
        bool okd = cz_##F##_from_dec(&viadec, s);                                \
        bool okh = cz_##F##_from_hex(&viahex, s);                                \
        if (ok && !((okd && cz_##F##_eq(&got, &viadec)) || (okh && cz_##F##_eq(&got, &viahex)))) \
            return #F "_from_str: accepted what neither from_dec nor from_hex accepts"; \
        if (!ok && (okd || (okh && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))) \
            return #F "_from_str: refused what from_dec or from_hex accepts";    \
        return NULL;                                                             \
    }                                                                            \
    static inline const char *cz_chk_##F##_bytes(const uint8_t *in)              \
    {                                                                            \
        T a, m1;                                                                 \
        uint8_t mb[NB], out[NB], rev[NB];                                        \
        cz_##F##_one(&m1);                                                       \
        cz_##F##_neg(&m1, &m1);                                                  \
        cz_##F##_to_bytes_be(mb, &m1);                                           \
        bool below = memcmp(in, mb, NB) <= 0;                                    \
        bool ok = cz_##F##_from_bytes_be(&a, in);                                \
        cz_chk_accepted += ok;                                                   \
        if (ok != below)                                                         \
            return below ? #F "_from_bytes_be: refused a value < m"              \
                         : #F "_from_bytes_be: accepted a value >= m";           \
        if (ok) {                                                                \
            cz_##F##_to_bytes_be(out, &a);                                       \
            if (memcmp(out, in, NB) != 0)                                        \
                return #F "_from_bytes_be: does not re-encode";                  \
        }                                                                        \
        for (int i = 0; i < NB; i++)                                             \
            rev[i] = in[NB - 1 - i];                                             \
        ok = cz_##F##_from_bytes_le(&a, rev);                                    \
        if (ok != below)                                                         \
            return #F "_from_bytes_le: disagrees with from_bytes_be";            \
        if (ok) {                                                                \
            cz_##F##_to_bytes_le(out, &a);                                       \
            if (memcmp(out, rev, NB) != 0)                                       \
                return #F "_from_bytes_le: does not re-encode";                  \
        }                                                                        \
        return NULL;                                                             \
    }

CZ_CHK_FIELD(fp, cz_fp, 48)
CZ_CHK_FIELD(fr, cz_fr, 32)

#endif
