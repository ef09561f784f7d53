/* ctest: labels=unit timeout=300 */
/*
 * test_field.c: Fp, Fr and Fp2.
 *
 * Seeded property tests (ring axioms, inverses, square roots, powers,
 * encodings) plus a comparison of the Montgomery arithmetic against a slow,
 * independent big-integer reference written here (schoolbook products and
 * bit-by-bit long division), on random and edge values. Where the x86-64
 * assembly is compiled in, it is compared with the portable products.
 * Known answers come from /work/shared/FORMATS.md (the moduli and the snarkjs
 * 2^32-th root of unity 5^((r-1)/2^32)).
 */
#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "field/field.h"
#include "field/field_internal.h"
#include "field/fp_x8.h"

static cz_rng rng;

static int setup_rng(void **state)
{
    (void)state;
    cz_test_rng(&rng);
    return 0;
}

/* ---------------- reference big integers (plain, little-endian limbs) ---- */

#define REF_MAX 16

/* r = x mod m by shift-and-subtract over every bit of x; n limbs in x, k in m */
static void ref_mod(uint64_t *r, const uint64_t *x, int n, const uint64_t *m, int k)
{
    uint64_t acc[REF_MAX + 1] = {0};
    for (int bit = 64 * n - 1; bit >= 0; bit--) {
        /* acc = 2 acc + bit */
        uint64_t carry = (x[bit / 64] >> (bit % 64)) & 1;
        for (int i = 0; i <= k; i++) {
            uint64_t nc = acc[i] >> 63;
            acc[i] = (acc[i] << 1) | carry;
            carry = nc;
        }
        /* if acc >= m: acc -= m */
        int ge = 1;
        if (acc[k] == 0) {
            for (int i = k - 1; i >= 0; i--) {
                if (acc[i] != m[i]) {
                    ge = acc[i] > m[i];
                    break;
                }
            }
        }
        if (ge) {
            uint64_t borrow = 0;
            for (int i = 0; i <= k; i++) {
                uint64_t mi = i < k ? m[i] : 0;
                uint64_t d = acc[i] - mi - borrow;
                borrow = (acc[i] < mi) || (acc[i] - mi < borrow);
                acc[i] = d;
            }
        }
    }
    memcpy(r, acc, (size_t)k * 8);
}

/* out (2k limbs) = a * b, schoolbook with 32-bit halves (no __int128) */
static void ref_mul_wide(uint64_t *out, const uint64_t *a, const uint64_t *b, int k)
{
    uint32_t a32[2 * REF_MAX], b32[2 * REF_MAX];
    uint32_t o32[4 * REF_MAX] = {0};
    for (int i = 0; i < k; i++) {
        a32[2 * i] = (uint32_t)a[i];
        a32[2 * i + 1] = (uint32_t)(a[i] >> 32);
        b32[2 * i] = (uint32_t)b[i];
        b32[2 * i + 1] = (uint32_t)(b[i] >> 32);
    }
    for (int i = 0; i < 2 * k; i++) {
        uint64_t c = 0;
        for (int j = 0; j < 2 * k; j++) {
            uint64_t t = (uint64_t)a32[i] * b32[j] + o32[i + j] + c;
            o32[i + j] = (uint32_t)t;
            c = t >> 32;
        }
        o32[i + 2 * k] = (uint32_t)c;
    }
    for (int i = 0; i < 2 * k; i++)
        out[i] = (uint64_t)o32[2 * i] | ((uint64_t)o32[2 * i + 1] << 32);
}

static void ref_mulmod(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int k)
{
    uint64_t w[2 * REF_MAX];
    ref_mul_wide(w, a, b, k);
    ref_mod(r, w, 2 * k, m, k);
}

/* r = a + b mod m (a, b < m); k limbs */
static void ref_addmod(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int k)
{
    uint64_t w[REF_MAX + 1] = {0};
    uint64_t c = 0;
    for (int i = 0; i < k; i++) {
        uint64_t s = a[i] + c;
        uint64_t c1 = s < c;
        w[i] = s + b[i];
        c = c1 + (w[i] < s);
    }
    w[k] = c;
    ref_mod(r, w, k + 1, m, k);
}

/* r = x * 2^(64k) mod m: the Montgomery form of x */
static void ref_to_mont(uint64_t *r, const uint64_t *x, const uint64_t *m, int k)
{
    uint64_t w[2 * REF_MAX] = {0};
    memcpy(w + k, x, (size_t)k * 8);
    ref_mod(r, w, 2 * k, m, k);
}

/* decimal string of a k-limb value by repeated division by 10 */
static void ref_to_dec(char *buf, const uint64_t *x, int k)
{
    uint32_t w[2 * REF_MAX];
    char tmp[400];
    int n = 0;
    for (int i = 0; i < k; i++) {
        w[2 * i] = (uint32_t)x[i];
        w[2 * i + 1] = (uint32_t)(x[i] >> 32);
    }
    for (;;) {
        int zero = 1;
        uint64_t rem = 0;
        for (int i = 2 * k - 1; i >= 0; i--) {
            uint64_t cur = (rem << 32) | w[i];
            w[i] = (uint32_t)(cur / 10);
            rem = cur % 10;
            if (w[i])
                zero = 0;
        }
        tmp[n++] = (char)('0' + rem);
        if (zero)
            break;
    }
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
}

static void rand_limbs(uint64_t *x, int k)
{
    for (int i = 0; i < k; i++)
        x[i] = cz_rng_u64(&rng);
}

/* random plain value < m: mostly uniform, sometimes an edge value */
static void rand_below(uint64_t *x, const uint64_t *m, int k)
{
    uint64_t w[REF_MAX];
    int kind = (int)(cz_rng_u64(&rng) % 8);
    memset(x, 0, (size_t)k * 8);
    switch (kind) {
    case 0: /* small */
        x[0] = cz_rng_u64(&rng) % 3;
        break;
    case 1: /* m - 1 - small */
        memcpy(x, m, (size_t)k * 8);
        x[0] -= 1 + cz_rng_u64(&rng) % 3; /* low limb of both moduli is > 3 */
        break;
    case 2: /* a power of two below m */
    {
        int bit = (int)(cz_rng_u64(&rng) % (uint64_t)(64 * k - 4));
        x[bit / 64] = 1ULL << (bit % 64);
        ref_mod(x, x, k, m, k);
        break;
    }
    case 3: /* many all-ones limbs, reduced */
        for (int i = 0; i < k; i++)
            w[i] = (cz_rng_u64(&rng) & 1) ? ~0ULL : cz_rng_u64(&rng);
        ref_mod(x, w, k, m, k);
        break;
    default:
        rand_limbs(w, k);
        ref_mod(x, w, k, m, k);
    }
}

static int limbs_eq(const uint64_t *a, const uint64_t *b, int k)
{
    return memcmp(a, b, (size_t)k * 8) == 0;
}

static void print_limbs(const char *name, const uint64_t *a, int k)
{
    printf("%s = 0x", name);
    for (int i = k - 1; i >= 0; i--)
        printf("%016llx", (unsigned long long)a[i]);
    printf("\n");
}

/* ---------------- tests written once for Fp and Fr ------------------------ */

#define FIELD_TESTS(F, T, N, MOD)                                                \
    static const uint64_t F##_m[N] = MOD;                                        \
                                                                                 \
    /* raw Montgomery limbs of the products against the reference: a, b are  \
       stored forms (any value < m), c = mul(a, b) must satisfy               \
       c * 2^(64N) = a * b (mod m). */                                        \
    static void test_##F##_mont_vs_ref(void **state)                             \
    {                                                                            \
        (void)state;                                                             \
        int iters = cz_test_iters(1500);                                          \
        for (int it = 0; it < iters; it++) {                                     \
            T a, b, c;                                                           \
            uint64_t lhs[N], rhs[N], s[N];                                       \
            rand_below(a.l, F##_m, N);                                           \
            rand_below(b.l, F##_m, N);                                           \
            cz_##F##_mul(&c, &a, &b);                                            \
            ref_to_mont(lhs, c.l, F##_m, N);                                     \
            ref_mulmod(rhs, a.l, b.l, F##_m, N);                                 \
            if (!limbs_eq(lhs, rhs, N)) {                                        \
                print_limbs("a", a.l, N);                                        \
                print_limbs("b", b.l, N);                                        \
                print_limbs("c", c.l, N);                                        \
            }                                                                    \
            assert_true(limbs_eq(lhs, rhs, N));                                  \
            T c2;                                                                \
            cz_##F##_mul_portable(&c2, &a, &b);                                  \
            assert_memory_equal(c2.l, c.l, sizeof c.l);                          \
            cz_##F##_sqr(&c, &a);                                                \
            ref_to_mont(lhs, c.l, F##_m, N);                                     \
            ref_mulmod(rhs, a.l, a.l, F##_m, N);                                 \
            assert_true(limbs_eq(lhs, rhs, N));                                  \
            cz_##F##_add(&c, &a, &b);                                            \
            ref_addmod(s, a.l, b.l, F##_m, N);                                   \
            assert_true(limbs_eq(c.l, s, N));                                    \
            cz_##F##_dbl(&c, &a);                                                \
            ref_addmod(s, a.l, a.l, F##_m, N);                                   \
            assert_true(limbs_eq(c.l, s, N));                                    \
            cz_##F##_sub(&c, &a, &b); /* c + b = a */                            \
            ref_addmod(s, c.l, b.l, F##_m, N);                                   \
            assert_true(limbs_eq(a.l, s, N));                                    \
            cz_##F##_neg(&c, &a); /* c + a = 0, c < m */                         \
            ref_addmod(s, c.l, a.l, F##_m, N);                                   \
            for (int i = 0; i < N; i++)                                          \
                assert_int_equal(s[i], 0);                                       \
        }                                                                        \
    }                                                                            \
                                                                                 \
    /* asm (where built) against portable on many random inputs */            \
    static void test_##F##_asm_vs_portable(void **state)                         \
    {                                                                            \
        (void)state;                                                             \
        printf("# cz_" #F "_mul: %s\n", cz_##F##_mul_is_asm() ? "asm" : "portable"); \
        int iters = cz_test_iters(50000);                                        \
        for (int it = 0; it < iters; it++) {                                     \
            T a, b, c, d;                                                        \
            rand_below(a.l, F##_m, N);                                           \
            rand_below(b.l, F##_m, N);                                           \
            cz_##F##_mul(&c, &a, &b);                                            \
            cz_##F##_mul_portable(&d, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            cz_##F##_sqr(&c, &a);                                                \
            cz_##F##_mul_portable(&d, &a, &a);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            cz_##F##_add(&c, &a, &b);                                            \
            cz_##F##_add_portable(&d, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            cz_##F##_sub(&c, &a, &b);                                            \
            cz_##F##_sub_portable(&d, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a; /* aliasing: out = a, out = b, out = a = b */                \
            cz_##F##_mul(&d, &d, &b);                                            \
            cz_##F##_mul_portable(&c, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = b;                                                               \
            cz_##F##_sub(&d, &a, &d);                                            \
            cz_##F##_sub_portable(&c, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a;                                                               \
            cz_##F##_add(&d, &d, &d);                                            \
            cz_##F##_add_portable(&c, &a, &a);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = b; /* the asm stores the result itself: more aliasing */         \
            cz_##F##_mul(&d, &a, &d);                                            \
            cz_##F##_mul_portable(&c, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a;                                                               \
            cz_##F##_mul(&d, &d, &d);                                            \
            cz_##F##_mul_portable(&c, &a, &a);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a;                                                               \
            cz_##F##_sqr(&d, &d);                                                \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a;                                                               \
            cz_##F##_sub(&d, &d, &b);                                            \
            cz_##F##_sub_portable(&c, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = b;                                                               \
            cz_##F##_add(&d, &a, &d);                                            \
            cz_##F##_add_portable(&c, &a, &b);                                   \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            cz_##F##_add_nr(&c, &a, &b); /* plain sum, < 2m */                   \
            cz_##F##_add_nr_portable(&d, &a, &b);                                \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            d = a;                                                               \
            cz_##F##_add_nr(&d, &d, &b);                                         \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            {   /* sum - b = a in plain integers */                              \
                uint64_t br = 0;                                                 \
                for (int i = 0; i < N; i++) {                                    \
                    unsigned __int128 x = (unsigned __int128)c.l[i] - b.l[i] - br; \
                    assert_int_equal((uint64_t)x, a.l[i]);                        \
                    br = (uint64_t)(x >> 64) & 1;                                \
                }                                                                \
                assert_int_equal(br, 0);                                         \
            }                                                                    \
        }                                                                        \
    }                                                                            \
                                                                                 \
    /* lazy reduction: mul_wide against the schoolbook reference (any      \
       64N-bit inputs), redc(v) * 2^(64N) = v (mod m) and redc(v) < m for    \
       v < m 2^(64N), asm against portable, redc(mul_wide) = mul */         \
    static void test_##F##_wide_redc(void **state)                              \
    {                                                                            \
        (void)state;                                                             \
        for (int it = 0; it < cz_test_iters(1500); it++) {                       \
            T a, b, c, d;                                                        \
            uint64_t w[2 * N], w2[2 * N], ref[2 * N], r1[N], r2[N];              \
            if (it % 3 == 0) { /* unreduced operands, up to all ones */         \
                rand_limbs(a.l, N);                                              \
                rand_limbs(b.l, N);                                              \
                if (it % 9 == 0)                                                 \
                    memset(a.l, 0xff, sizeof a.l);                               \
            } else {                                                             \
                rand_below(a.l, F##_m, N);                                       \
                rand_below(b.l, F##_m, N);                                       \
            }                                                                    \
            cz_##F##_mul_wide(w, &a, &b);                                        \
            cz_##F##_mul_wide_portable(w2, &a, &b);                              \
            ref_mul_wide(ref, a.l, b.l, N);                                      \
            assert_memory_equal(w, ref, sizeof w);                               \
            assert_memory_equal(w2, ref, sizeof w);                              \
            if (it % 3 != 0) { /* reduced: redc(a b) = mul(a, b) */              \
                cz_##F##_redc(&c, w);                                            \
                cz_##F##_mul(&d, &a, &b);                                        \
                assert_memory_equal(c.l, d.l, sizeof c.l);                       \
            }                                                                    \
            /* random v < m 2^(64N): high half < m, low half anything */        \
            rand_below(w + N, F##_m, N);                                         \
            rand_limbs(w, N);                                                    \
            if (it % 7 == 0) memset(w, 0xff, N * 8);                             \
            if (it % 11 == 0) memset(w, 0, N * 8);                               \
            cz_##F##_redc(&c, w);                                                \
            cz_##F##_redc_portable(&d, w);                                       \
            assert_memory_equal(c.l, d.l, sizeof c.l);                           \
            ref_to_mont(r1, c.l, F##_m, N);                                      \
            ref_mod(r2, w, 2 * N, F##_m, N);                                     \
            assert_true(limbs_eq(r1, r2, N));                                    \
            assert_true(cz_##F##_from_limbs(&d, c.l)); /* c < m */               \
            /* sub_wide: redc(x - y) = redc(x) - redc(y), result < m 2^(64N) */ \
            uint64_t x2[2 * N], y2[2 * N], z[2 * N], z2[2 * N];                  \
            rand_below(x2 + N, F##_m, N);                                        \
            rand_limbs(x2, N);                                                   \
            rand_below(y2 + N, F##_m, N);                                        \
            rand_limbs(y2, N);                                                   \
            if (it % 5 == 0) memcpy(y2, x2, sizeof x2);                          \
            if (it % 5 == 1) { memcpy(y2 + N, x2 + N, N * 8); }                  \
            cz_##F##_sub_wide(z, x2, y2);                                        \
            cz_##F##_sub_wide_portable(z2, x2, y2);                              \
            assert_memory_equal(z, z2, sizeof z);                                \
            T rx, ry, rz, e2;                                                    \
            cz_##F##_redc(&rx, x2);                                              \
            cz_##F##_redc(&ry, y2);                                              \
            cz_##F##_redc(&rz, z);                                               \
            cz_##F##_sub(&e2, &rx, &ry);                                         \
            assert_true(cz_##F##_eq(&rz, &e2));                                  \
            assert_true(cz_##F##_from_limbs(&e2, z + N)); /* high half < m */    \
            cz_##F##_sub_wide(x2, x2, x2); /* aliasing: zero */                  \
            for (int i = 0; i < 2 * N; i++)                                      \
                assert_int_equal(x2[i], 0);                                      \
        }                                                                        \
        /* the largest input m 2^(64N) - 1 and zero */                          \
        uint64_t w[2 * N], r1[N], r2[N];                                         \
        T c;                                                                     \
        memset(w, 0xff, N * 8);                                                  \
        memcpy(w + N, F##_m, N * 8);                                             \
        w[N]--;                                                                  \
        cz_##F##_redc(&c, w);                                                    \
        ref_to_mont(r1, c.l, F##_m, N);                                          \
        ref_mod(r2, w, 2 * N, F##_m, N);                                         \
        assert_true(limbs_eq(r1, r2, N));                                        \
        memset(w, 0, sizeof w);                                                  \
        cz_##F##_redc(&c, w);                                                    \
        assert_true(cz_##F##_is_zero(&c));                                       \
    }                                                                            \
                                                                                 \
    static void test_##F##_limbs(void **state)                                   \
    {                                                                            \
        (void)state;                                                             \
        T a;                                                                     \
        uint64_t x[N], y[N], r[N];                                               \
        for (int it = 0; it < cz_test_iters(200); it++) {                        \
            rand_below(x, F##_m, N);                                             \
            assert_true(cz_##F##_from_limbs(&a, x));                             \
            ref_to_mont(r, x, F##_m, N);                                         \
            assert_true(limbs_eq(a.l, r, N));                                    \
            cz_##F##_to_limbs(y, &a);                                            \
            assert_true(limbs_eq(x, y, N));                                      \
            /* any 64N-bit value reduces */                                      \
            rand_limbs(x, N);                                                    \
            if (it % 4 == 0)                                                     \
                for (int i = 0; i < N; i++)                                      \
                    x[i] = ~0ULL - (it % 3 == 0 ? 0 : cz_rng_u64(&rng) % 5);     \
            cz_##F##_from_limbs_reduce(&a, x);                                   \
            cz_##F##_to_limbs(y, &a);                                            \
            ref_mod(r, x, N, F##_m, N);                                          \
            assert_true(limbs_eq(y, r, N));                                      \
        }                                                                        \
        /* rejects m, m + 1, all ones; accepts m - 1 */                         \
        memcpy(x, F##_m, sizeof x);                                              \
        assert_false(cz_##F##_from_limbs(&a, x));                                \
        x[0]++;                                                                  \
        assert_false(cz_##F##_from_limbs(&a, x));                                \
        memset(x, 0xff, sizeof x);                                               \
        assert_false(cz_##F##_from_limbs(&a, x));                                \
        memcpy(x, F##_m, sizeof x);                                              \
        x[0]--;                                                                  \
        assert_true(cz_##F##_from_limbs(&a, x));                                 \
        T one;                                                                   \
        cz_##F##_one(&one);                                                      \
        cz_##F##_add(&a, &a, &one);                                              \
        assert_true(cz_##F##_is_zero(&a));                                       \
        /* m itself reduces to 0, all ones to 2^(64N)-1 mod m */                \
        memcpy(x, F##_m, sizeof x);                                              \
        cz_##F##_from_limbs_reduce(&a, x);                                       \
        assert_true(cz_##F##_is_zero(&a));                                       \
    }                                                                            \
                                                                                 \
    static void test_##F##_ring(void **state)                                    \
    {                                                                            \
        (void)state;                                                             \
        T zero, one;                                                             \
        cz_##F##_zero(&zero);                                                    \
        cz_##F##_one(&one);                                                      \
        assert_true(cz_##F##_is_zero(&zero));                                    \
        assert_true(cz_##F##_is_one(&one));                                      \
        assert_false(cz_##F##_is_zero(&one));                                    \
        assert_false(cz_##F##_eq(&zero, &one));                                  \
        for (int it = 0; it < cz_test_iters(300); it++) {                        \
            T a, b, c, t, u, v;                                                  \
            cz_##F##_random(&a, &rng);                                           \
            cz_##F##_random(&b, &rng);                                           \
            cz_##F##_random(&c, &rng);                                           \
            cz_##F##_add(&t, &a, &b);                                            \
            cz_##F##_add(&u, &b, &a);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_mul(&t, &a, &b);                                            \
            cz_##F##_mul(&u, &b, &a);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_mul(&t, &t, &c); /* (ab)c = a(bc) */                        \
            cz_##F##_mul(&u, &b, &c);                                            \
            cz_##F##_mul(&u, &a, &u);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_add(&t, &b, &c); /* a(b+c) = ab + ac */                     \
            cz_##F##_mul(&t, &a, &t);                                            \
            cz_##F##_mul(&u, &a, &b);                                            \
            cz_##F##_mul(&v, &a, &c);                                            \
            cz_##F##_add(&u, &u, &v);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_add(&t, &a, &b); /* (a+b)+c = a+(b+c) */                    \
            cz_##F##_add(&t, &t, &c);                                            \
            cz_##F##_add(&u, &b, &c);                                            \
            cz_##F##_add(&u, &a, &u);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_mul(&t, &a, &one);                                          \
            assert_true(cz_##F##_eq(&t, &a));                                    \
            cz_##F##_add(&t, &a, &zero);                                         \
            assert_true(cz_##F##_eq(&t, &a));                                    \
            cz_##F##_mul(&t, &a, &zero);                                         \
            assert_true(cz_##F##_is_zero(&t));                                   \
            cz_##F##_sub(&t, &a, &a);                                            \
            assert_true(cz_##F##_is_zero(&t));                                   \
            cz_##F##_neg(&t, &a);                                                \
            cz_##F##_add(&t, &t, &a);                                            \
            assert_true(cz_##F##_is_zero(&t));                                   \
            cz_##F##_sub(&t, &a, &b); /* a - b = a + (-b) */                     \
            cz_##F##_neg(&u, &b);                                                \
            cz_##F##_add(&u, &a, &u);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_dbl(&t, &a);                                                \
            cz_##F##_add(&u, &a, &a);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_sqr(&t, &a);                                                \
            cz_##F##_mul(&u, &a, &a);                                            \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            t = a; /* cmov */                                                    \
            cz_##F##_cmov(&t, &b, false);                                        \
            assert_true(cz_##F##_eq(&t, &a));                                    \
            cz_##F##_cmov(&t, &b, true);                                         \
            assert_true(cz_##F##_eq(&t, &b));                                    \
        }                                                                        \
        T t;                                                                     \
        cz_##F##_neg(&t, &zero);                                                 \
        assert_true(cz_##F##_is_zero(&t));                                       \
        for (uint64_t v = 0; v < 50; v++) { /* set_u64 = 1 + 1 + ... */         \
            T s, w;                                                              \
            cz_##F##_zero(&s);                                                   \
            for (uint64_t i = 0; i < v; i++)                                     \
                cz_##F##_add(&s, &s, &one);                                      \
            cz_##F##_set_u64(&w, v);                                             \
            assert_true(cz_##F##_eq(&s, &w));                                    \
        }                                                                        \
        T big;                                                                   \
        uint64_t x[N] = {0}, y[N];                                               \
        cz_##F##_set_u64(&big, ~0ULL);                                           \
        cz_##F##_to_limbs(y, &big);                                              \
        x[0] = ~0ULL;                                                            \
        assert_true(limbs_eq(x, y, N));                                          \
    }                                                                            \
                                                                                 \
    static void test_##F##_inv(void **state)                                     \
    {                                                                            \
        (void)state;                                                             \
        T zero, one, t, u;                                                       \
        cz_##F##_zero(&zero);                                                    \
        cz_##F##_one(&one);                                                      \
        cz_##F##_inv(&t, &zero);                                                 \
        assert_true(cz_##F##_is_zero(&t));                                       \
        cz_##F##_inv_var(&t, &zero);                                             \
        assert_true(cz_##F##_is_zero(&t));                                       \
        cz_##F##_inv_var(&t, &one);                                              \
        assert_true(cz_##F##_is_one(&t));                                        \
        for (int it = 0; it < cz_test_iters(40); it++) {                         \
            T a;                                                                 \
            if (it < 4) { /* edge: raw limbs 1, m-1, small values */            \
                uint64_t x[N] = {0};                                             \
                if (it == 0) x[0] = 1;                                           \
                if (it == 1) { memcpy(x, F##_m, sizeof x); x[0]--; }             \
                if (it == 2) x[0] = 2;                                           \
                if (it == 3) x[N - 1] = 1;                                       \
                memcpy(a.l, x, sizeof x);                                        \
            } else {                                                             \
                cz_##F##_random(&a, &rng);                                       \
            }                                                                    \
            cz_##F##_inv(&t, &a);                                                \
            cz_##F##_mul(&u, &t, &a);                                            \
            assert_true(cz_##F##_is_one(&u));                                    \
            cz_##F##_inv_fermat(&u, &a);                                         \
            assert_true(cz_##F##_eq(&u, &t));                                    \
            cz_##F##_inv_var(&u, &a);                                            \
            assert_true(cz_##F##_eq(&u, &t));                                    \
            cz_##F##_inv_var(&u, &u); /* aliasing, involution */                 \
            assert_true(cz_##F##_eq(&u, &a));                                    \
        }                                                                        \
        /* inv_var and inv on many values, edge-heavy (rand_below) */            \
        for (int it = 0; it < cz_test_iters(2000); it++) {                       \
            T a;                                                                 \
            rand_below(a.l, F##_m, N);                                           \
            cz_##F##_inv_var(&t, &a);                                            \
            cz_##F##_inv(&u, &a); /* constant-time divsteps agree */            \
            assert_true(cz_##F##_eq(&u, &t));                                    \
            cz_##F##_mul(&u, &t, &a);                                            \
            if (cz_##F##_is_zero(&a))                                            \
                assert_true(cz_##F##_is_zero(&t));                               \
            else                                                                 \
                assert_true(cz_##F##_is_one(&u));                                \
        }                                                                        \
        /* batch with zeros, out of place and in place */                       \
        enum { BN = 37 };                                                        \
        T in[BN], out[BN], scratch[BN];                                          \
        for (int i = 0; i < BN; i++) {                                           \
            if (i % 5 == 0 || i == BN - 1)                                       \
                cz_##F##_zero(&in[i]);                                           \
            else                                                                 \
                cz_##F##_random(&in[i], &rng);                                   \
        }                                                                        \
        cz_##F##_batch_inv_var(out, in, BN, scratch);                            \
        for (int i = 0; i < BN; i++) {                                           \
            cz_##F##_inv_var(&t, &in[i]);                                        \
            assert_true(cz_##F##_eq(&t, &out[i]));                               \
        }                                                                        \
        memcpy(scratch, in, sizeof in);                                          \
        T scratch2[BN];                                                          \
        cz_##F##_batch_inv_var(in, in, BN, scratch2);                            \
        assert_memory_equal(in, out, sizeof out);                                \
        cz_##F##_batch_inv_var(in, in, 0, scratch2); /* n = 0 is a no-op */      \
        cz_##F##_zero(&in[0]);                                                   \
        cz_##F##_batch_inv_var(out, in, 1, scratch2);                            \
        assert_true(cz_##F##_is_zero(&out[0]));                                  \
    }                                                                            \
                                                                                 \
    static void test_##F##_pow(void **state)                                     \
    {                                                                            \
        (void)state;                                                             \
        T a, t, u, one;                                                          \
        cz_##F##_one(&one);                                                      \
        for (int it = 0; it < cz_test_iters(20); it++) {                         \
            cz_##F##_random(&a, &rng);                                           \
            /* small exponents against repeated products */                     \
            cz_##F##_one(&u);                                                    \
            for (uint64_t e = 0; e < 20; e++) {                                  \
                cz_##F##_pow(&t, &a, &e, 1);                                     \
                assert_true(cz_##F##_eq(&t, &u));                                \
                cz_##F##_mul(&u, &u, &a);                                        \
            }                                                                    \
            /* a^(m-1) = 1 (Fermat) */                                          \
            uint64_t e[N];                                                       \
            memcpy(e, F##_m, sizeof e);                                          \
            e[0]--;                                                              \
            cz_##F##_pow(&t, &a, e, N);                                          \
            assert_true(cz_##F##_is_one(&t));                                    \
            /* a^(e1 + e2) = a^e1 a^e2 with e1, e2 < 2^127 */                    \
            uint64_t e1[2], e2[2], e3[3];                                        \
            rand_limbs(e1, 2);                                                   \
            rand_limbs(e2, 2);                                                   \
            e1[1] >>= 1;                                                         \
            e2[1] >>= 1;                                                         \
            e3[0] = e1[0] + e2[0];                                               \
            e3[1] = e1[1] + e2[1] + (e3[0] < e1[0]);                             \
            e3[2] = 0; /* exponents with leading zero limbs too */               \
            cz_##F##_pow(&t, &a, e1, 2);                                         \
            cz_##F##_pow(&u, &a, e2, 2);                                         \
            cz_##F##_mul(&t, &t, &u);                                            \
            cz_##F##_pow(&u, &a, e3, 3);                                         \
            assert_true(cz_##F##_eq(&t, &u));                                    \
            cz_##F##_pow(&a, &a, e3, 0); /* empty exponent: 1 */                 \
            assert_true(cz_##F##_is_one(&a));                                    \
        }                                                                        \
    }                                                                            \
                                                                                 \
    static void test_##F##_bytes(void **state)                                   \
    {                                                                            \
        (void)state;                                                             \
        uint8_t le[8 * N], be[8 * N];                                            \
        T a, b;                                                                  \
        for (int it = 0; it < cz_test_iters(200); it++) {                        \
            cz_##F##_random(&a, &rng);                                           \
            uint64_t x[N];                                                       \
            cz_##F##_to_limbs(x, &a);                                            \
            cz_##F##_to_bytes_le(le, &a);                                        \
            cz_##F##_to_bytes_be(be, &a);                                        \
            for (int i = 0; i < 8 * N; i++) {                                    \
                assert_int_equal(le[i], (uint8_t)(x[i / 8] >> (8 * (i % 8))));   \
                assert_int_equal(be[8 * N - 1 - i], le[i]);                      \
            }                                                                    \
            assert_true(cz_##F##_from_bytes_le(&b, le));                         \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            assert_true(cz_##F##_from_bytes_be(&b, be));                         \
            assert_true(cz_##F##_eq(&a, &b));                                    \
        }                                                                        \
        /* m itself, m + small, all ones rejected; m - 1 accepted */            \
        for (int i = 0; i < 8 * N; i++)                                          \
            le[i] = (uint8_t)(F##_m[i / 8] >> (8 * (i % 8)));                    \
        for (int i = 0; i < 8 * N; i++)                                          \
            be[8 * N - 1 - i] = le[i];                                           \
        assert_false(cz_##F##_from_bytes_le(&b, le));                            \
        assert_false(cz_##F##_from_bytes_be(&b, be));                            \
        le[0]++;                                                                 \
        be[8 * N - 1]++;                                                         \
        assert_false(cz_##F##_from_bytes_le(&b, le));                            \
        assert_false(cz_##F##_from_bytes_be(&b, be));                            \
        le[0] -= 2;                                                              \
        be[8 * N - 1] -= 2;                                                      \
        assert_true(cz_##F##_from_bytes_le(&a, le));                             \
        assert_true(cz_##F##_from_bytes_be(&b, be));                             \
        assert_true(cz_##F##_eq(&a, &b));                                        \
        memset(le, 0xff, sizeof le);                                             \
        assert_false(cz_##F##_from_bytes_le(&b, le));                            \
        assert_false(cz_##F##_from_bytes_be(&b, le));                            \
    }                                                                            \
                                                                                 \
    static void test_##F##_strings(void **state)                                 \
    {                                                                            \
        (void)state;                                                             \
        char buf[CZ_FP_STR_MAX + 8], ref[400];                                   \
        T a, b, c;                                                               \
        for (int it = 0; it < cz_test_iters(200); it++) {                        \
            uint64_t x[N];                                                       \
            rand_below(x, F##_m, N);                                             \
            assert_true(cz_##F##_from_limbs(&a, x));                             \
            cz_##F##_to_dec(buf, &a);                                            \
            ref_to_dec(ref, x, N);                                               \
            assert_string_equal(buf, ref);                                       \
            assert_true(cz_##F##_from_dec(&b, buf));                             \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            assert_true(cz_##F##_from_str(&b, buf));                             \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            cz_##F##_to_hex(buf, &a);                                            \
            assert_true(strlen(buf) <= 2 + 16 * N);                              \
            assert_true(buf[0] == '0' && buf[1] == 'x');                         \
            assert_true(buf[2] != '0' || buf[3] == 0);                           \
            assert_true(cz_##F##_from_hex(&b, buf));                             \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            assert_true(cz_##F##_from_str(&b, buf));                             \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            assert_true(cz_##F##_from_hex(&b, buf + 2)); /* bare digits */       \
            assert_true(cz_##F##_eq(&a, &b));                                    \
            for (char *p = buf; *p; p++) /* upper case */                        \
                if (*p >= 'a' && *p <= 'f') *p = (char)(*p - 'a' + 'A');         \
            buf[1] = 'X';                                                        \
            assert_true(cz_##F##_from_str(&b, buf));                             \
            assert_true(cz_##F##_eq(&a, &b));                                    \
        }                                                                        \
        cz_##F##_set_u64(&c, 123);                                               \
        assert_true(cz_##F##_from_str(&a, "123"));                               \
        assert_true(cz_##F##_eq(&a, &c));                                        \
        assert_true(cz_##F##_from_str(&a, "0x7b"));                              \
        assert_true(cz_##F##_eq(&a, &c));                                        \
        assert_true(cz_##F##_from_str(&a, "000123"));                            \
        assert_true(cz_##F##_eq(&a, &c));                                        \
        cz_##F##_to_dec(buf, &c);                                                \
        assert_string_equal(buf, "123");                                         \
        cz_##F##_to_hex(buf, &c);                                                \
        assert_string_equal(buf, "0x7b");                                        \
        cz_##F##_zero(&c);                                                       \
        cz_##F##_to_dec(buf, &c);                                                \
        assert_string_equal(buf, "0");                                           \
        cz_##F##_to_hex(buf, &c);                                                \
        assert_string_equal(buf, "0x0");                                         \
        assert_true(cz_##F##_from_str(&a, "0"));                                 \
        assert_true(cz_##F##_is_zero(&a));                                       \
        /* rejects */                                                           \
        static const char *bad[] = {"", "-1", "+1", " 1", "1 ", "12a", "0x",     \
                                    "0xg1", "0x-1", "1.5", "0x 1", "x12", "--",   \
                                    "1e5", "0b101"};                              \
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {                \
            assert_false(cz_##F##_from_str(&a, bad[i]));                         \
        }                                                                        \
        assert_false(cz_##F##_from_dec(&a, "0x10"));                             \
        assert_false(cz_##F##_from_hex(&a, ""));                                 \
        assert_false(cz_##F##_from_hex(&a, "12z"));                              \
        assert_false(cz_##F##_from_str(&a, NULL));                               \
        /* m and m + 1 in decimal and hex are rejected, m - 1 accepted */      \
        uint64_t x[N];                                                           \
        memcpy(x, F##_m, sizeof x);                                              \
        ref_to_dec(ref, x, N);                                                   \
        assert_false(cz_##F##_from_dec(&a, ref));                                \
        x[0]--;                                                                  \
        ref_to_dec(ref, x, N);                                                   \
        assert_true(cz_##F##_from_dec(&a, ref));                                 \
        cz_##F##_to_dec(buf, &a);                                                \
        assert_string_equal(buf, ref);                                           \
        assert_true(strlen(buf) < sizeof buf);                                   \
        x[0] += 2;                                                               \
        ref_to_dec(ref, x, N);                                                   \
        assert_false(cz_##F##_from_dec(&a, ref));                                \
        char *p = ref;                                                           \
        p += sprintf(p, "0x");                                                   \
        for (int i = N - 1; i >= 0; i--)                                         \
            p += sprintf(p, "%016llx", (unsigned long long)F##_m[i]);            \
        assert_false(cz_##F##_from_hex(&a, ref));                                \
        assert_false(cz_##F##_from_str(&a, ref));                                \
        /* too long: 10^(digits) and hex with too many digits */                \
        memset(ref, '9', 200);                                                   \
        ref[200] = 0;                                                            \
        assert_false(cz_##F##_from_dec(&a, ref));                                \
        memset(ref, '0', 200); /* many leading zeros: too long as well */       \
        ref[199] = '1';                                                          \
        assert_false(cz_##F##_from_dec(&a, ref));                                \
        ref[0] = '0';                                                            \
        ref[1] = 'x';                                                            \
        assert_false(cz_##F##_from_hex(&a, ref));                                \
        memset(ref, 'f', 16 * N + 1);                                            \
        ref[16 * N + 1] = 0;                                                     \
        assert_false(cz_##F##_from_hex(&a, ref));                                \
        ref[16 * N] = 0;                                                         \
        assert_false(cz_##F##_from_hex(&a, ref)); /* 2^(64N)-1 >= m */           \
    }                                                                            \
                                                                                 \
    static void test_##F##_random(void **state)                                  \
    {                                                                            \
        (void)state;                                                             \
        /* values are reduced and spread: the top bit of m's top limb is hit */ \
        uint64_t top = F##_m[N - 1], hibit = 1;                                  \
        while (hibit * 2 <= top) hibit *= 2;                                     \
        int hi = 0, lo = 0;                                                      \
        T prev;                                                                  \
        cz_##F##_zero(&prev);                                                    \
        for (int it = 0; it < 400; it++) {                                       \
            T a;                                                                 \
            uint64_t x[N];                                                       \
            cz_##F##_random(&a, &rng);                                           \
            assert_false(cz_##F##_eq(&a, &prev));                                \
            prev = a;                                                            \
            cz_##F##_to_limbs(x, &a);                                            \
            T b;                                                                 \
            assert_true(cz_##F##_from_limbs(&b, x));                             \
            if (x[N - 1] & hibit) hi++; else lo++;                               \
        }                                                                        \
        assert_true(hi > 20 && lo > 20);                                         \
    }

FIELD_TESTS(fp, cz_fp, 6, CZ_FP_P)
FIELD_TESTS(fr, cz_fr, 4, CZ_FR_P)

/* ---------------- Fp only ------------------------------------------------- */

static const uint64_t fp_half_m1[6] = CZ_FP_P_MINUS_1_HALF;

/* Euler's criterion: a^((p-1)/2) */
static void fp_legendre(cz_fp *out, const cz_fp *a) { cz_fp_pow(out, a, fp_half_m1, 6); }

/* eight-lane products (AVX-512 IFMA where built) against the portable
   product, on edge-heavy reduced inputs and on unreduced sums below 2p
   (the Fp2 products of the MSM feed those), with out aliasing a and b */
static void test_fp_mul_x8(void **state)
{
    (void)state;
    printf("# cz_fp_mul_x8: %s\n", cz_fp_mul_x8_is_simd() ? "ifma" : "scalar");
    int iters = cz_test_iters(20000);
    for (int it = 0; it < iters; it++) {
        cz_fp a[8], b[8], o[8], r[8];
        for (int e = 0; e < 8; e++) {
            rand_below(a[e].l, fp_m, 6);
            rand_below(b[e].l, fp_m, 6);
            if (it % 3 == 1 && e % 2) {
                cz_fp c;
                rand_below(c.l, fp_m, 6);
                cz_fp_add_nr(&a[e], &a[e], &c);       /* < 2p */
                rand_below(c.l, fp_m, 6);
                cz_fp_add_nr(&b[e], &b[e], &c);
            }
            cz_fp_mul_portable(&r[e], &a[e], &b[e]);
        }
        cz_fp_mul_x8(o, a, b);
        assert_memory_equal(o, r, sizeof o);
        memcpy(o, a, sizeof o);
        cz_fp_mul_x8(o, o, b);
        assert_memory_equal(o, r, sizeof o);
        memcpy(o, b, sizeof o);
        cz_fp_mul_x8(o, a, o);
        assert_memory_equal(o, r, sizeof o);
    }
}

#if CZ_FP_HAVE_X8
/* the chained pieces of fp_x8.h against cz_fp arithmetic: the forms of
   fp_x8.h's table, shl32, add_nr / add / sub (reduced inputs) */
static void test_fp_v8(void **state)
{
    (void)state;
    int iters = cz_test_iters(5000);
    cz_fp one_p;
    const uint64_t l32[6] = {(uint64_t)1 << 32, 0, 0, 0, 0, 0};
    assert_true(cz_fp_from_limbs(&one_p, l32));   /* [1]' as a cz_fp */
    for (int it = 0; it < iters; it++) {
        cz_fp a[8], b[8], r[8], o[8], ap[8];
        for (int e = 0; e < 8; e++) {
            rand_below(a[e].l, fp_m, 6);
            rand_below(b[e].l, fp_m, 6);
            cz_fp_mul(&ap[e], &a[e], &one_p);          /* [a]' */
        }
        cz_fp_v8 A, As, B, Ap, X, Y;
        cz_fp_v8_load(&A, a, 0);
        cz_fp_v8_load(&As, a, 1);
        cz_fp_v8_load(&B, b, 0);
        cz_fp_v8_load(&Ap, ap, 0);
        /* mont([a] 2^32, [b]) = [ab] */
        cz_fp_v8_mont(&X, &As, &B);
        cz_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++)
            cz_fp_mul(&r[e], &a[e], &b[e]);
        assert_memory_equal(o, r, sizeof o);
        /* shl32 = load(.., 1) */
        cz_fp_v8_shl32(&Y, &A);
        assert_memory_equal(&Y, &As, sizeof Y);
        /* mont([a]', [b]) = [ab]; mont([a]', [b] 2^32) = [ab]' */
        cz_fp_v8_mont(&X, &Ap, &B);
        cz_fp_v8_store(o, &X);
        assert_memory_equal(o, r, sizeof o);
        cz_fp_v8_load(&Y, b, 1);
        cz_fp_v8_mont(&X, &Ap, &Y);
        cz_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_fp_mul(&r[e], &r[e], &one_p);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        /* add / sub / add_nr */
        cz_fp_v8_add(&X, &A, &B);
        cz_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_fp_add(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        cz_fp_v8_sub(&X, &A, &B);
        cz_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_fp_sub(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        cz_fp_v8_add_nr(&X, &A, &B);
        cz_fp_v8_store(o, &X);
        for (int e = 0; e < 8; e++) {
            cz_fp_add_nr(&r[e], &a[e], &b[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
        /* the sum below 2p as a shifted operand, and [x]' -> [x] by k64 */
        cz_fp_v8_shl32(&Y, &X);
        cz_fp_v8_mont(&Y, &Y, &A);
        cz_fp_v8_store(o, &Y);
        for (int e = 0; e < 8; e++) {
            cz_fp_mul_portable(&r[e], &r[e], &a[e]);
            assert_memory_equal(&o[e], &r[e], sizeof o[e]);
        }
    }
}
#endif

static void test_fp_sqrt(void **state)
{
    (void)state;
    cz_fp a, s, r, t, one, minus_one;
    cz_fp_one(&one);
    cz_fp_neg(&minus_one, &one);
    int nonres = 0;
    for (int it = 0; it < cz_test_iters(60); it++) {
        cz_fp_random(&a, &rng);
        cz_fp_sqr(&s, &a);
        assert_true(cz_fp_sqrt(&r, &s));
        cz_fp_sqr(&t, &r);
        assert_true(cz_fp_eq(&t, &s));
        cz_fp_neg(&t, &a);
        assert_true(cz_fp_eq(&r, &a) || cz_fp_eq(&r, &t));
        /* random element: a root exists iff Euler says 1 */
        cz_fp_random(&a, &rng);
        fp_legendre(&t, &a);
        r = one;
        bool ok = cz_fp_sqrt(&r, &a);
        assert_int_equal(ok, cz_fp_is_one(&t));
        if (!ok) {
            nonres++;
            assert_true(cz_fp_eq(&t, &minus_one));
            assert_true(cz_fp_is_one(&r)); /* unchanged on failure */
        }
    }
    assert_true(nonres > 0 || cz_test_iters(60) < 20);
    /* -1 is a non-residue (p = 3 mod 4); 0 has root 0; in place */
    assert_false(cz_fp_sqrt(&r, &minus_one));
    cz_fp_zero(&a);
    assert_true(cz_fp_sqrt(&r, &a));
    assert_true(cz_fp_is_zero(&r));
    cz_fp_set_u64(&a, 4);
    assert_true(cz_fp_sqrt(&a, &a));
    cz_fp_set_u64(&t, 2);
    cz_fp_neg(&s, &t);
    assert_true(cz_fp_eq(&a, &t) || cz_fp_eq(&a, &s));
}

static void test_fp_lex(void **state)
{
    (void)state;
    cz_fp a, b;
    uint64_t x[6];
    memcpy(x, fp_half_m1, sizeof x);
    assert_true(cz_fp_from_limbs(&a, x)); /* (p-1)/2: not largest */
    assert_false(cz_fp_is_lex_largest(&a));
    x[0]++; /* (p+1)/2: largest */
    assert_true(cz_fp_from_limbs(&a, x));
    assert_true(cz_fp_is_lex_largest(&a));
    cz_fp_zero(&a);
    assert_false(cz_fp_is_lex_largest(&a));
    cz_fp_one(&a);
    assert_false(cz_fp_is_lex_largest(&a));
    cz_fp_neg(&a, &a);
    assert_true(cz_fp_is_lex_largest(&a));
    for (int it = 0; it < cz_test_iters(200); it++) {
        cz_fp_random(&a, &rng);
        cz_fp_neg(&b, &a);
        if (!cz_fp_is_zero(&a))
            assert_true(cz_fp_is_lex_largest(&a) != cz_fp_is_lex_largest(&b));
    }
}

/* ---------------- Fr only ------------------------------------------------- */

static void test_fr_sqrt(void **state)
{
    (void)state;
    static const uint64_t r_half[4] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                       0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
    cz_fr a, s, r, t, one, minus_one;
    cz_fr_one(&one);
    cz_fr_neg(&minus_one, &one);
    /* r_half = (r - 1) / 2, checked: 2 r_half + 1 = r */
    {
        uint64_t m[4] = CZ_FR_P, d[4], c = 1;
        for (int i = 0; i < 4; i++) {
            d[i] = (r_half[i] << 1) | (i ? r_half[i - 1] >> 63 : 0);
            uint64_t s2 = d[i] + c;
            c = s2 < c;
            d[i] = s2;
        }
        assert_memory_equal(d, m, sizeof d);
    }
    int nonres = 0;
    for (int it = 0; it < cz_test_iters(40); it++) {
        cz_fr_random(&a, &rng);
        cz_fr_sqr(&s, &a);
        assert_true(cz_fr_sqrt(&r, &s));
        cz_fr_sqr(&t, &r);
        assert_true(cz_fr_eq(&t, &s));
        cz_fr_random(&a, &rng);
        cz_fr_pow(&t, &a, r_half, 4);
        r = one;
        bool ok = cz_fr_sqrt(&r, &a);
        assert_int_equal(ok, cz_fr_is_one(&t));
        if (!ok) {
            nonres++;
            assert_true(cz_fr_eq(&t, &minus_one));
            assert_true(cz_fr_is_one(&r));
        }
    }
    assert_true(nonres > 0 || cz_test_iters(40) < 20);
    /* 5 and 7 are non-residues; 0 -> 0; a square of high 2-adic order */
    cz_fr_set_u64(&a, 5);
    assert_false(cz_fr_sqrt(&r, &a));
    cz_fr_set_u64(&a, 7);
    assert_false(cz_fr_sqrt(&r, &a));
    cz_fr_zero(&a);
    assert_true(cz_fr_sqrt(&r, &a));
    assert_true(cz_fr_is_zero(&r));
    cz_fr w = {CZ_FR_ROOT_OF_UNITY_5_MONT};
    cz_fr_sqr(&s, &w); /* order 2^31: its roots are +-w */
    assert_true(cz_fr_sqrt(&r, &s));
    cz_fr_neg(&t, &w);
    assert_true(cz_fr_eq(&r, &w) || cz_fr_eq(&r, &t));
    assert_true(cz_fr_sqrt(&r, &minus_one)); /* r = 1 mod 4 */
    cz_fr_sqr(&t, &r);
    assert_true(cz_fr_eq(&t, &minus_one));
}

/* FORMATS.md: snarkjs's 2^32-th root is 5^((r-1)/2^32) with this value. */
static void test_fr_root_of_unity(void **state)
{
    (void)state;
    cz_fr w, w5, five, t, one, minus_one;
    cz_fr_one(&one);
    cz_fr_neg(&minus_one, &one);
    assert_true(cz_fr_from_hex(&w, "0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"));
    cz_fr c5 = {CZ_FR_ROOT_OF_UNITY_5_MONT};
    assert_true(cz_fr_eq(&w, &c5));
    /* (r - 1) / 2^32 from the modulus */
    uint64_t e[4] = CZ_FR_P;
    e[0]--;
    for (int i = 0; i < 4; i++)
        e[i] = (e[i] >> 32) | (i < 3 ? e[i + 1] << 32 : 0);
    cz_fr_set_u64(&five, 5);
    cz_fr_pow(&w5, &five, e, 4);
    assert_true(cz_fr_eq(&w5, &w));
    t = w;
    for (int i = 0; i < 31; i++)
        cz_fr_sqr(&t, &t);
    assert_true(cz_fr_eq(&t, &minus_one)); /* order exactly 2^32 */
    cz_fr_sqr(&t, &t);
    assert_true(cz_fr_is_one(&t));
    /* the 7-based root too */
    cz_fr w7 = {CZ_FR_ROOT_OF_UNITY_7_MONT}, seven;
    cz_fr_set_u64(&seven, 7);
    cz_fr_pow(&t, &seven, e, 4);
    assert_true(cz_fr_eq(&t, &w7));
    /* the modulus itself in decimal (FORMATS.md gives hex) */
    char buf[CZ_FR_STR_MAX];
    cz_fr_neg(&t, &one);
    cz_fr_to_hex(buf, &t);
    assert_string_equal(buf, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000");
    cz_fp tp, op;
    char bp[CZ_FP_STR_MAX];
    cz_fp_one(&op);
    cz_fp_neg(&tp, &op);
    cz_fp_to_hex(bp, &tp);
    assert_string_equal(bp, "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa");
}

/* FORMATS.md: the G1 generator and 123456789 G1 lie on y^2 = x^3 + 4; the
   generated constants match the hex there; the G2 generator (constants.h,
   from the zcash/IETF spec values in tools/gen_constants.py) lies on
   y^2 = x^3 + 4(u + 1). Exercises parsing, Fp and Fp2 arithmetic together. */
static void test_curve_constants_kat(void **state)
{
    (void)state;
    static const char *pts[2][2] = {
        {"0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
         "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"},
        {"0x0f95b8218cbee2f4fa48e6b6f1df4e8ee46fee73c270dba395dad523d10c9b35295ccfc92cf0a9db8a065e16dafbfaad",
         "0x198a99c756b5a6e9f5917aa7c3e7f6191a38b1f0f348f6be14a15814c15ce2417ade0a03dc5595abac997da5f5fc5338"}};
    cz_fp x, y, l, r, four, b = {CZ_FP_B_MONT};
    cz_fp_set_u64(&four, 4);
    assert_true(cz_fp_eq(&four, &b));
    for (int i = 0; i < 2; i++) {
        assert_true(cz_fp_from_hex(&x, pts[i][0]));
        assert_true(cz_fp_from_hex(&y, pts[i][1]));
        cz_fp_sqr(&l, &y);
        cz_fp_sqr(&r, &x);
        cz_fp_mul(&r, &r, &x);
        cz_fp_add(&r, &r, &four);
        assert_true(cz_fp_eq(&l, &r));
        /* and a point off the curve is not */
        cz_fp_add(&r, &r, &four);
        assert_false(cz_fp_eq(&l, &r));
        /* the root of x^3 + 4 is +-y */
        cz_fp_sub(&r, &r, &four);
        assert_true(cz_fp_sqrt(&l, &r));
        cz_fp_neg(&r, &y);
        assert_true(cz_fp_eq(&l, &y) || cz_fp_eq(&l, &r));
    }
    cz_fp gx = {CZ_G1_GEN_X_MONT}, gy = {CZ_G1_GEN_Y_MONT};
    assert_true(cz_fp_from_hex(&x, pts[0][0]));
    assert_true(cz_fp_from_hex(&y, pts[0][1]));
    assert_true(cz_fp_eq(&x, &gx) && cz_fp_eq(&y, &gy));
    cz_fp2 X = {{CZ_G2_GEN_X0_MONT}, {CZ_G2_GEN_X1_MONT}}, Y = {{CZ_G2_GEN_Y0_MONT}, {CZ_G2_GEN_Y1_MONT}};
    cz_fp2 L, Rr, b2 = {four, four}; /* 4(u + 1) */
    cz_fp2_sqr(&L, &Y);
    cz_fp2_sqr(&Rr, &X);
    cz_fp2_mul(&Rr, &Rr, &X);
    cz_fp2_add(&Rr, &Rr, &b2);
    assert_true(cz_fp2_eq(&L, &Rr));
    assert_true(cz_fp2_sqrt(&L, &Rr));
    cz_fp2_neg(&Rr, &Y);
    assert_true(cz_fp2_eq(&L, &Y) || cz_fp2_eq(&L, &Rr));
}

/* ---------------- Fp2 ----------------------------------------------------- */

static void fp2_mul_schoolbook(cz_fp2 *out, const cz_fp2 *a, const cz_fp2 *b)
{
    cz_fp t0, t1, t2, t3;
    cz_fp_mul(&t0, &a->c0, &b->c0);
    cz_fp_mul(&t1, &a->c1, &b->c1);
    cz_fp_mul(&t2, &a->c0, &b->c1);
    cz_fp_mul(&t3, &a->c1, &b->c0);
    cz_fp_sub(&out->c0, &t0, &t1);
    cz_fp_add(&out->c1, &t2, &t3);
}

static void test_fp2_ring(void **state)
{
    (void)state;
    cz_fp2 zero, one, u_, t, v, w;
    cz_fp2_zero(&zero);
    cz_fp2_one(&one);
    assert_true(cz_fp2_is_zero(&zero));
    assert_true(cz_fp2_is_one(&one));
    assert_false(cz_fp2_is_one(&zero));
    cz_fp_zero(&u_.c0);
    cz_fp_one(&u_.c1);
    cz_fp2_sqr(&t, &u_); /* u^2 = -1 */
    cz_fp2_neg(&v, &one);
    assert_true(cz_fp2_eq(&t, &v));
    for (int it = 0; it < cz_test_iters(200); it++) {
        cz_fp2 a, b, c;
        cz_fp2_random(&a, &rng);
        cz_fp2_random(&b, &rng);
        cz_fp2_random(&c, &rng);
        if (it == 0)
            cz_fp2_zero(&b);
        if (it == 1) { /* coefficients p - 1 */
            cz_fp_one(&a.c0);
            cz_fp_neg(&a.c0, &a.c0);
            a.c1 = a.c0;
            b = a;
        }
        cz_fp2_mul(&t, &a, &b);
        fp2_mul_schoolbook(&v, &a, &b);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_mul(&v, &b, &a);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_mul(&t, &t, &c);
        cz_fp2_mul(&v, &b, &c);
        cz_fp2_mul(&v, &a, &v);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_add(&t, &b, &c);
        cz_fp2_mul(&t, &a, &t);
        cz_fp2_mul(&v, &a, &b);
        cz_fp2_mul(&w, &a, &c);
        cz_fp2_add(&v, &v, &w);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_sqr(&t, &a);
        cz_fp2_mul(&v, &a, &a);
        assert_true(cz_fp2_eq(&t, &v));
        t = a;
        cz_fp2_sqr(&t, &t); /* in place */
        assert_true(cz_fp2_eq(&t, &v));
        t = a;
        cz_fp2_mul(&t, &t, &t);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_sub(&t, &a, &b);
        cz_fp2_add(&t, &t, &b);
        assert_true(cz_fp2_eq(&t, &a));
        cz_fp2_neg(&t, &a);
        cz_fp2_add(&t, &t, &a);
        assert_true(cz_fp2_is_zero(&t));
        cz_fp2_dbl(&t, &a);
        cz_fp2_add(&v, &a, &a);
        assert_true(cz_fp2_eq(&t, &v));
        /* mul_fp against mul by (b0 + 0u) */
        cz_fp2 bf = {b.c0, zero.c0};
        cz_fp2_mul_fp(&t, &a, &b.c0);
        cz_fp2_mul(&v, &a, &bf);
        assert_true(cz_fp2_eq(&t, &v));
        t = a; /* b aliasing a coefficient of out */
        cz_fp2_mul_fp(&t, &t, &t.c0);
        cz_fp2 a0f = {a.c0, zero.c0};
        cz_fp2_mul(&v, &a, &a0f);
        assert_true(cz_fp2_eq(&t, &v));
        t = a; /* aliasing for every binary operation */
        cz_fp2_mul(&t, &t, &b);
        cz_fp2_mul(&v, &a, &b);
        assert_true(cz_fp2_eq(&t, &v));
        t = b;
        cz_fp2_mul(&t, &a, &t);
        assert_true(cz_fp2_eq(&t, &v));
        t = a;
        cz_fp2_sub(&t, &b, &t);
        cz_fp2_sub(&v, &b, &a);
        assert_true(cz_fp2_eq(&t, &v));
        /* nonresidue is 1 + u */
        cz_fp2 xi;
        cz_fp_one(&xi.c0);
        cz_fp_one(&xi.c1);
        cz_fp2_mul_by_nonresidue(&t, &a);
        cz_fp2_mul(&v, &a, &xi);
        assert_true(cz_fp2_eq(&t, &v));
        t = a;
        cz_fp2_mul_by_nonresidue(&t, &t);
        assert_true(cz_fp2_eq(&t, &v));
        /* conj: a conj(a) = a0^2 + a1^2 in Fp */
        cz_fp2_conj(&t, &a);
        cz_fp2_mul(&v, &t, &a);
        assert_true(cz_fp_is_zero(&v.c1));
        cz_fp n0, n1;
        cz_fp_sqr(&n0, &a.c0);
        cz_fp_sqr(&n1, &a.c1);
        cz_fp_add(&n0, &n0, &n1);
        assert_true(cz_fp_eq(&v.c0, &n0));
        /* cmov */
        t = a;
        cz_fp2_cmov(&t, &b, false);
        assert_true(cz_fp2_eq(&t, &a));
        cz_fp2_cmov(&t, &b, true);
        assert_true(cz_fp2_eq(&t, &b));
    }
}

static void test_fp2_inv_pow_frob(void **state)
{
    (void)state;
    cz_fp2 a, t, v, zero;
    cz_fp2_zero(&zero);
    cz_fp2_inv(&t, &zero);
    assert_true(cz_fp2_is_zero(&t));
    cz_fp2_inv_var(&t, &zero);
    assert_true(cz_fp2_is_zero(&t));
    uint64_t p[6] = CZ_FP_P;
    for (int it = 0; it < cz_test_iters(10); it++) {
        cz_fp2_random(&a, &rng);
        if (it == 0)
            cz_fp_zero(&a.c1);
        if (it == 1)
            cz_fp_zero(&a.c0);
        cz_fp2_inv(&t, &a);
        cz_fp2_mul(&v, &t, &a);
        assert_true(cz_fp2_is_one(&v));
        cz_fp2_inv_var(&v, &a);
        assert_true(cz_fp2_eq(&v, &t));
        /* Frobenius: a^p = conj(a) */
        cz_fp2_pow(&t, &a, p, 6);
        cz_fp2_frobenius(&v, &a);
        assert_true(cz_fp2_eq(&t, &v));
        cz_fp2_conj(&t, &a);
        assert_true(cz_fp2_eq(&t, &v));
        /* small exponents */
        cz_fp2_one(&v);
        for (uint64_t e = 0; e < 10; e++) {
            cz_fp2_pow(&t, &a, &e, 1);
            assert_true(cz_fp2_eq(&t, &v));
            cz_fp2_mul(&v, &v, &a);
        }
    }
}

/* a is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp */
static bool fp2_is_square_by_norm(const cz_fp2 *a)
{
    cz_fp n0, n1, l;
    cz_fp_sqr(&n0, &a->c0);
    cz_fp_sqr(&n1, &a->c1);
    cz_fp_add(&n0, &n0, &n1);
    if (cz_fp_is_zero(&n0))
        return true; /* only a = 0, as -1 is not a square in Fp */
    fp_legendre(&l, &n0);
    return cz_fp_is_one(&l);
}

static void test_fp2_sqrt(void **state)
{
    (void)state;
    cz_fp2 a, s, r, t, one;
    cz_fp2_one(&one);
    int nonres = 0;
    for (int it = 0; it < cz_test_iters(20); it++) {
        cz_fp2_random(&a, &rng);
        if (it == 0)
            cz_fp_zero(&a.c1); /* a in Fp: a^2 has a root in Fp */
        if (it == 1)
            cz_fp_zero(&a.c0); /* (a1 u)^2 = -a1^2: the alpha = -1 branch */
        cz_fp2_sqr(&s, &a);
        assert_true(cz_fp2_sqrt(&r, &s));
        cz_fp2_sqr(&t, &r);
        assert_true(cz_fp2_eq(&t, &s));
        cz_fp2_neg(&t, &a);
        assert_true(cz_fp2_eq(&r, &a) || cz_fp2_eq(&r, &t));
        cz_fp2_random(&a, &rng);
        r = one;
        bool ok = cz_fp2_sqrt(&r, &a);
        assert_int_equal(ok, fp2_is_square_by_norm(&a));
        if (!ok) {
            nonres++;
            assert_true(cz_fp2_is_one(&r));
        }
    }
    /* 1 + u (norm 2, a non-residue mod p = 3 mod 8) and u * 1 + ... */
    cz_fp2 xi;
    cz_fp_one(&xi.c0);
    cz_fp_one(&xi.c1);
    assert_false(cz_fp2_sqrt(&r, &xi));
    /* every element of Fp is a square in Fp2, -1 included: sqrt(-1) = +-u */
    cz_fp2_neg(&a, &one);
    assert_true(cz_fp2_sqrt(&r, &a));
    assert_true(cz_fp_is_zero(&r.c0));
    cz_fp2_sqr(&t, &r);
    assert_true(cz_fp2_eq(&t, &a));
    cz_fp2_zero(&a);
    assert_true(cz_fp2_sqrt(&r, &a));
    assert_true(cz_fp2_is_zero(&r));
    (void)nonres;
}

static void test_fp2_lex(void **state)
{
    (void)state;
    cz_fp2 a, b;
    for (int it = 0; it < cz_test_iters(100); it++) {
        cz_fp2_random(&a, &rng);
        if (it % 4 == 0)
            cz_fp_zero(&a.c1);
        bool want = cz_fp_is_zero(&a.c1) ? cz_fp_is_lex_largest(&a.c0) : cz_fp_is_lex_largest(&a.c1);
        assert_int_equal(cz_fp2_is_lex_largest(&a), want);
        cz_fp2_neg(&b, &a);
        if (!cz_fp2_is_zero(&a))
            assert_true(cz_fp2_is_lex_largest(&a) != cz_fp2_is_lex_largest(&b));
    }
    cz_fp2_zero(&a);
    assert_false(cz_fp2_is_lex_largest(&a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_mont_vs_ref),
        cmocka_unit_test(test_fr_mont_vs_ref),
        cmocka_unit_test(test_fp_asm_vs_portable),
        cmocka_unit_test(test_fr_asm_vs_portable),
        cmocka_unit_test(test_fp_wide_redc),
        cmocka_unit_test(test_fr_wide_redc),
        cmocka_unit_test(test_fp_limbs),
        cmocka_unit_test(test_fr_limbs),
        cmocka_unit_test(test_fp_ring),
        cmocka_unit_test(test_fr_ring),
        cmocka_unit_test(test_fp_inv),
        cmocka_unit_test(test_fr_inv),
        cmocka_unit_test(test_fp_pow),
        cmocka_unit_test(test_fr_pow),
        cmocka_unit_test(test_fp_bytes),
        cmocka_unit_test(test_fr_bytes),
        cmocka_unit_test(test_fp_strings),
        cmocka_unit_test(test_fr_strings),
        cmocka_unit_test(test_fp_random),
        cmocka_unit_test(test_fr_random),
        cmocka_unit_test(test_fp_mul_x8),
#if CZ_FP_HAVE_X8
        cmocka_unit_test(test_fp_v8),
#endif
        cmocka_unit_test(test_fp_sqrt),
        cmocka_unit_test(test_fp_lex),
        cmocka_unit_test(test_fr_sqrt),
        cmocka_unit_test(test_fr_root_of_unity),
        cmocka_unit_test(test_curve_constants_kat),
        cmocka_unit_test(test_fp2_ring),
        cmocka_unit_test(test_fp2_inv_pow_frob),
        cmocka_unit_test(test_fp2_sqrt),
        cmocka_unit_test(test_fp2_lex),
    };
    return cmocka_run_group_tests(tests, setup_rng, NULL);
}
