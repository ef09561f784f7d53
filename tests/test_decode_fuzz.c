/* ctest: labels=unit timeout=300 */
/*
 * test_decode_fuzz.c: seeded mutation testing of every point and field
 * decoder, the ctest companion of the libFuzzer harnesses in tests/fuzz/.
 *
 * Valid encodings (generator, infinity, random multiples k*G and their
 * negations) are mutated thousands of times: bit flips, random bytes, flag
 * bits, shifts (the fixed-size analogue of truncation and extension),
 * coordinates replaced by boundary values (0, p-1, p, p+1, 2^381-1), chunk
 * swaps, whole random buffers; decimal and hex strings are truncated,
 * extended, spliced with junk characters, zero-padded and re-prefixed. Every
 * result goes through tests/fuzz/decode_check.h: a decoder must return an
 * error, or a valid value that encodes back to the input. Inputs live in
 * exactly-sized heap buffers so the sanitizer pass (make test-san) catches
 * any read past the end. Replay a failure with the printed CZ_TEST_SEED;
 * CZ_TEST_SCALE scales the iteration counts.
 */
#include "common/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/field.h"
#include "fuzz/decode_check.h"
#include "fuzz/reader_check.h"

static cz_rng g_rng;
static int g_fails;

static uint64_t rnd(uint64_t n) { return n ? cz_rng_u64(&g_rng) % n : 0; }

static void report(const char *msg, const uint8_t *in, size_t n, const char *s)
{
    if (!msg)
        return;
    g_fails++;
    if (g_fails > 20)
        return;
    printf("VIOLATION: %s\n  input: ", msg);
    if (s) {
        printf("\"%s\"", s);
    } else {
        for (size_t i = 0; i < n; i++)
            printf("%02x", in[i]);
    }
    printf("\n");
}

static int setup(void **state)
{
    (void)state;
    cz_test_rng(&g_rng);
    return 0;
}

/* ---- byte mutations ---- */

/* big-endian boundary values of a w-byte coordinate: w = 48 (mod p) or
   w = 32 (mod r) */
static void boundary_be(uint8_t *out, size_t w, int which)
{
    if (w == 48) {
        cz_fp m1;
        cz_fp_one(&m1);
        cz_fp_neg(&m1, &m1);
        cz_fp_to_bytes_be(out, &m1); /* p - 1 */
    } else {
        cz_fr m1;
        cz_fr_one(&m1);
        cz_fr_neg(&m1, &m1);
        cz_fr_to_bytes_be(out, &m1); /* r - 1 */
    }
    int carry;
    switch (which) {
    case 0: /* m - 1 */
        break;
    case 1: /* m */
    case 2: /* m + 1 */
        carry = which;
        for (int i = (int)w - 1; i >= 0 && carry; i--) {
            int v = out[i] + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
        break;
    case 3: /* 0 */
        memset(out, 0, w);
        break;
    case 4: /* all value bits below the zcash flags */
        memset(out, 0xff, w);
        out[0] = 0x1f;
        break;
    default: /* 1 */
        memset(out, 0, w);
        out[w - 1] = 1;
        break;
    }
}

/*
 * Mutate buf (n bytes, a copy of a valid encoding). le: coordinates are
 * little-endian (snarkjs), so boundary values go in reversed and the flag
 * mutation is skipped.
 */
static void mutate(uint8_t *buf, size_t n, bool le)
{
    int rounds = 1 + (int)rnd(3);
    for (int r = 0; r < rounds; r++) {
        switch (rnd(9)) {
        case 0: { /* flip 1..4 bits */
            int k = 1 + (int)rnd(4);
            for (int i = 0; i < k; i++)
                buf[rnd(n)] ^= (uint8_t)(1u << rnd(8));
            break;
        }
        case 1: /* a random byte */
            buf[rnd(n)] = (uint8_t)rnd(256);
            break;
        case 2: /* the three zcash flag bits (compressed, infinity, sort) */
            if (!le)
                buf[0] = (uint8_t)((buf[0] & 0x1f) | (rnd(8) << 5));
            else
                buf[n - 1] ^= (uint8_t)(1u << rnd(8));
            break;
        case 3: { /* truncate the front, pad the end */
            size_t k = 1 + rnd(n - 1);
            memmove(buf, buf + k, n - k);
            uint8_t fill = rnd(2) ? 0 : (uint8_t)rnd(256);
            memset(buf + n - k, fill, k);
            break;
        }
        case 4: { /* extend the front, drop the end */
            size_t k = 1 + rnd(n - 1);
            memmove(buf + k, buf, n - k);
            for (size_t i = 0; i < k; i++)
                buf[i] = rnd(2) ? 0 : (uint8_t)rnd(256);
            break;
        }
        case 5: /* all random */
            for (size_t i = 0; i < n; i++)
                buf[i] = (uint8_t)rnd(256);
            break;
        case 6: { /* a coordinate set to a boundary value */
            uint8_t v[48];
            size_t w = n % 48 ? 32 : 48; /* Fr bytes are 32 long */
            size_t chunk = w * rnd(n / w);
            boundary_be(v, w, (int)rnd(6));
            uint8_t flags = buf[0] & 0xe0;
            for (size_t i = 0; i < w; i++)
                buf[chunk + i] = le ? v[w - 1 - i] : v[i];
            if (!le && chunk == 0 && rnd(2))
                buf[0] |= flags; /* keep the flags: hits x >= p paths */
            break;
        }
        case 7: { /* swap two 48-byte chunks */
            if (n >= 96) {
                size_t a = 48 * rnd(n / 48), b = 48 * rnd(n / 48);
                uint8_t t[48];
                memcpy(t, buf + a, 48);
                memmove(buf + a, buf + b, 48);
                memcpy(buf + b, t, 48);
            }
            break;
        }
        default: /* all zero or all 0xff with random flags */
            memset(buf, rnd(2) ? 0 : 0xff, n);
            if (!le)
                buf[0] = (uint8_t)((buf[0] & 0x1f) | (rnd(8) << 5));
            break;
        }
    }
}

/* Feed `iters` mutations of each base to chk. */
static void fuzz_bytes(const char *name, const char *(*chk)(const uint8_t *),
                       uint8_t *const *bases, int nbases, size_t n, bool le, int iters)
{
    unsigned long acc0 = cz_chk_accepted;
    for (int b = 0; b < nbases; b++) {
        uint8_t *in = malloc(n);
        assert_non_null(in);
        memcpy(in, bases[b], n);
        report(chk(in), in, n, NULL); /* the base itself is valid */
        free(in);
    }
    for (int i = 0; i < iters; i++) {
        uint8_t *in = malloc(n); /* exact size: ASan sees any over-read */
        assert_non_null(in);
        memcpy(in, bases[rnd((uint64_t)nbases)], n);
        mutate(in, n, le);
        report(chk(in), in, n, NULL);
        free(in);
    }
    printf("# %-22s %6d mutations, %6lu accepted\n", name, iters,
           cz_chk_accepted - acc0 - (unsigned long)nbases);
}

/* ---- valid bases ---- */

#define NB 8

static void g1_bases(cz_g1_affine pts[NB])
{
    cz_g1_jac gj, pj;
    cz_g1_generator(&pts[0]);
    cz_g1_affine_infinity(&pts[1]);
    cz_g1_jac_from_affine(&gj, &pts[0]);
    for (int i = 2; i < NB; i += 2) {
        cz_fr k;
        cz_fr_random(&k, &g_rng);
        cz_g1_jac_mul(&pj, &gj, &k);
        cz_g1_jac_to_affine(&pts[i], &pj);
        cz_g1_affine_neg(&pts[i + 1], &pts[i]);
    }
}

static void g2_bases(cz_g2_affine pts[NB])
{
    cz_g2_jac gj, pj;
    cz_g2_generator(&pts[0]);
    cz_g2_affine_infinity(&pts[1]);
    cz_g2_jac_from_affine(&gj, &pts[0]);
    for (int i = 2; i < NB; i += 2) {
        cz_fr k;
        cz_fr_random(&k, &g_rng);
        cz_g2_jac_mul(&pj, &gj, &k);
        cz_g2_jac_to_affine(&pts[i], &pj);
        cz_g2_affine_neg(&pts[i + 1], &pts[i]);
    }
}

static const char *chk_g1c(const uint8_t *in) { return cz_chk_g1_compressed(in); }
static const char *chk_g1u(const uint8_t *in) { return cz_chk_g1_uncompressed(in); }
static const char *chk_g1s(const uint8_t *in) { return cz_chk_g1_snarkjs(in); }
static const char *chk_g2c(const uint8_t *in) { return cz_chk_g2_compressed(in); }
static const char *chk_g2u(const uint8_t *in) { return cz_chk_g2_uncompressed(in); }
static const char *chk_g2s(const uint8_t *in) { return cz_chk_g2_snarkjs(in); }
static const char *chk_fpb(const uint8_t *in) { return cz_chk_fp_bytes(in); }
static const char *chk_frb(const uint8_t *in) { return cz_chk_fr_bytes(in); }

static void test_g1_bytes(void **state)
{
    (void)state;
    cz_g1_affine pts[NB];
    static uint8_t c[NB][48], u[NB][96], s[NB][96];
    uint8_t *cb[NB], *ub[NB], *sb[NB];
    g1_bases(pts);
    for (int i = 0; i < NB; i++) {
        cz_g1_to_compressed(c[i], &pts[i]);
        cz_g1_to_uncompressed(u[i], &pts[i]);
        cz_g1_to_snarkjs(s[i], &pts[i]);
        cb[i] = c[i];
        ub[i] = u[i];
        sb[i] = s[i];
    }
    g_fails = 0;
    int it = cz_test_iters(20000);
    fuzz_bytes("g1_from_compressed", chk_g1c, cb, NB, 48, false, it);
    fuzz_bytes("g1_from_uncompressed", chk_g1u, ub, NB, 96, false, it);
    fuzz_bytes("g1_from_snarkjs", chk_g1s, sb, NB, 96, true, it);
    if (g_fails)
        printf("g1 decoders: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

static void test_g2_bytes(void **state)
{
    (void)state;
    cz_g2_affine pts[NB];
    static uint8_t c[NB][96], u[NB][192], s[NB][192];
    uint8_t *cb[NB], *ub[NB], *sb[NB];
    g2_bases(pts);
    for (int i = 0; i < NB; i++) {
        cz_g2_to_compressed(c[i], &pts[i]);
        cz_g2_to_uncompressed(u[i], &pts[i]);
        cz_g2_to_snarkjs(s[i], &pts[i]);
        cb[i] = c[i];
        ub[i] = u[i];
        sb[i] = s[i];
    }
    g_fails = 0;
    int it = cz_test_iters(8000); /* G2 decoding costs several times G1 */
    fuzz_bytes("g2_from_compressed", chk_g2c, cb, NB, 96, false, it);
    fuzz_bytes("g2_from_uncompressed", chk_g2u, ub, NB, 192, false, it);
    fuzz_bytes("g2_from_snarkjs", chk_g2s, sb, NB, 192, true, it);
    if (g_fails)
        printf("g2 decoders: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

static void test_field_bytes(void **state)
{
    (void)state;
    static uint8_t p[NB][48], r[NB][32];
    uint8_t *pb[NB], *rb[NB];
    for (int i = 0; i < NB; i++) {
        cz_fp a;
        cz_fr b;
        cz_fp_random(&a, &g_rng);
        cz_fr_random(&b, &g_rng);
        if (i == 0) {
            cz_fp_one(&a); /* p - 1 */
            cz_fp_neg(&a, &a);
            cz_fr_one(&b);
            cz_fr_neg(&b, &b);
        }
        cz_fp_to_bytes_be(p[i], &a);
        cz_fr_to_bytes_be(r[i], &b);
        pb[i] = p[i];
        rb[i] = r[i];
    }
    g_fails = 0;
    int it = cz_test_iters(20000);
    fuzz_bytes("fp_from_bytes", chk_fpb, pb, NB, 48, false, it);
    fuzz_bytes("fr_from_bytes", chk_frb, rb, NB, 32, false, it);
    if (g_fails)
        printf("field byte decoders: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

/* ---- string mutations ---- */

#define SMAX 400

static const char junk[] = "0123456789abcdefABCDEFxX +-_.,eEgG\t\n\"'\x7f\xff";

/* Mutate the NUL-terminated string s (capacity SMAX) in place. */
static void mutate_str(char *s)
{
    size_t n = strlen(s);
    int rounds = 1 + (int)rnd(2);
    for (int r = 0; r < rounds; r++) {
        switch (rnd(10)) {
        case 0: /* truncate */
            s[n = rnd(n + 1)] = 0;
            break;
        case 1: { /* extend with digits */
            size_t k = 1 + rnd(80);
            for (size_t i = 0; i < k && n + 1 < SMAX; i++)
                s[n++] = (char)('0' + rnd(10));
            s[n] = 0;
            break;
        }
        case 2: /* replace a character */
            if (n)
                s[rnd(n)] = junk[rnd(sizeof junk - 1)];
            break;
        case 3: /* insert a character */
            if (n + 1 < SMAX) {
                size_t at = rnd(n + 1);
                memmove(s + at + 1, s + at, n - at + 1);
                s[at] = junk[rnd(sizeof junk - 1)];
                n++;
            }
            break;
        case 4: /* delete a character */
            if (n) {
                size_t at = rnd(n);
                memmove(s + at, s + at + 1, n - at);
                n--;
            }
            break;
        case 5: { /* leading zeros */
            size_t k = 1 + rnd(5);
            if (n + k < SMAX) {
                memmove(s + k, s, n + 1);
                memset(s, '0', k);
                n += k;
            }
            break;
        }
        case 6: /* toggle a 0x prefix */
            if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
                memmove(s, s + 2, n - 1);
                n -= 2;
            } else if (n + 2 < SMAX) {
                memmove(s + 2, s, n + 1);
                s[0] = '0';
                s[1] = rnd(2) ? 'x' : 'X';
                n += 2;
            }
            break;
        case 7: /* bump the last digit (crosses m when s is m - 1) */
            if (n && s[n - 1] >= '0' && s[n - 1] < '9')
                s[n - 1]++;
            break;
        case 8: /* empty, or a very long run of digits */
            if (rnd(2)) {
                s[n = 0] = 0;
            } else {
                n = 100 + rnd(SMAX - 101);
                for (size_t i = 0; i < n; i++)
                    s[i] = (char)('0' + rnd(10));
                s[n] = 0;
            }
            break;
        default: /* a sign or whitespace in front */
            if (n + 1 < SMAX) {
                memmove(s + 1, s, n + 1);
                s[0] = " -+\t"[rnd(4)];
                n++;
            }
            break;
        }
    }
}

/* a heap copy of exactly strlen+1 bytes, for ASan */
static char *dup_exact(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    assert_non_null(d);
    memcpy(d, s, n);
    return d;
}

static void test_field_strings(void **state)
{
    (void)state;
    g_fails = 0;
    unsigned long acc0 = cz_chk_accepted;
    int it = cz_test_iters(20000);
    for (int i = 0; i < it; i++) {
        char s[SMAX];
        cz_fp a;
        cz_fr b;
        bool fp = rnd(2);
        int kind = (int)rnd(4);
        if (fp) {
            cz_fp_random(&a, &g_rng);
            if (kind == 0) {
                cz_fp_one(&a);
                cz_fp_neg(&a, &a);
            } else if (kind == 1) {
                cz_fp_set_u64(&a, rnd(1000));
            }
            if (rnd(2))
                cz_fp_to_dec(s, &a);
            else
                cz_fp_to_hex(s, &a);
        } else {
            cz_fr_random(&b, &g_rng);
            if (kind == 0) {
                cz_fr_one(&b);
                cz_fr_neg(&b, &b);
            } else if (kind == 1) {
                cz_fr_set_u64(&b, rnd(1000));
            }
            if (rnd(2))
                cz_fr_to_dec(s, &b);
            else
                cz_fr_to_hex(s, &b);
        }
        if (i % 8) /* one in eight unmutated: the encoders' own output */
            mutate_str(s);
        char *in = dup_exact(s);
        if (fp) {
            report(cz_chk_fp_dec(in), NULL, 0, in);
            report(cz_chk_fp_hex(in), NULL, 0, in);
            report(cz_chk_fp_str(in), NULL, 0, in);
        } else {
            report(cz_chk_fr_dec(in), NULL, 0, in);
            report(cz_chk_fr_hex(in), NULL, 0, in);
            report(cz_chk_fr_str(in), NULL, 0, in);
        }
        free(in);
    }
    printf("# %-22s %6d mutations, %6lu accepted by from_dec\n", "fp/fr strings", it,
           cz_chk_accepted - acc0);
    if (g_fails)
        printf("field string decoders: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

/* snarkjs JSON points: mutate one of the coordinate strings */
static void test_point_dec(void **state)
{
    (void)state;
    cz_g1_affine p1[NB];
    cz_g2_affine p2[NB];
    g1_bases(p1);
    g2_bases(p2);
    g_fails = 0;
    unsigned long acc0 = cz_chk_accepted;
    int it = cz_test_iters(8000);
    for (int i = 0; i < it; i++) {
        char s[6][SMAX];
        bool g1 = rnd(2);
        int b = (int)rnd(NB);
        int nc = g1 ? 3 : 6;
        if (g1) {
            if (cz_g1_affine_is_infinity(&p1[b])) {
                strcpy(s[0], "0"), strcpy(s[1], "1"), strcpy(s[2], "0");
            } else {
                cz_fp_to_dec(s[0], &p1[b].x);
                cz_fp_to_dec(s[1], &p1[b].y);
                strcpy(s[2], "1");
            }
        } else {
            if (cz_g2_affine_is_infinity(&p2[b])) {
                strcpy(s[0], "0"), strcpy(s[1], "0"), strcpy(s[2], "1");
                strcpy(s[3], "0"), strcpy(s[4], "0"), strcpy(s[5], "0");
            } else {
                cz_fp_to_dec(s[0], &p2[b].x.c0);
                cz_fp_to_dec(s[1], &p2[b].x.c1);
                cz_fp_to_dec(s[2], &p2[b].y.c0);
                cz_fp_to_dec(s[3], &p2[b].y.c1);
                strcpy(s[4], "1"), strcpy(s[5], "0");
            }
        }
        int k = 1 + (int)rnd(2);
        for (int j = 0; j < k; j++) {
            int c = (int)rnd((uint64_t)nc);
            if (rnd(4) == 0)
                strcpy(s[c], (const char *[]){"0", "1", "2", "", "-1", "00"}[rnd(6)]);
            else
                mutate_str(s[c]);
        }
        char *in[6];
        for (int j = 0; j < nc; j++)
            in[j] = dup_exact(s[j]);
        const char *msg = g1 ? cz_chk_g1_dec(in[0], in[1], in[2])
                             : cz_chk_g2_dec((const char **)in);
        if (msg) {
            char all[6 * SMAX + 64] = "";
            for (int j = 0; j < nc; j++) {
                strcat(all, in[j]);
                strcat(all, j + 1 < nc ? "\", \"" : "");
            }
            report(msg, NULL, 0, all);
        }
        for (int j = 0; j < nc; j++)
            free(in[j]);
    }
    printf("# %-22s %6d mutations, %6lu accepted\n", "g1/g2_from_dec", it,
           cz_chk_accepted - acc0);
    if (g_fails)
        printf("point decimal decoders: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

/* ---- file readers: mutations of the committed fixtures ---- */

static uint8_t *load_fixture(const char *rel, size_t *len)
{
    char path[4096];
    const char *root = getenv("CZ_SOURCE_DIR");
#ifdef CZ_SOURCE_DIR
    if (!root)
        root = CZ_SOURCE_DIR;
#endif
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
    uint8_t *b = cz_test_read_file(path, len);
    if (!b)
        printf("missing fixture %s\n", path);
    return b;
}

/*
 * Mutate a file image: bit flips, random bytes, a 32- or 64-bit field set
 * to a boundary value (the container's counts, ids and sizes are u32/u64
 * little-endian), truncation, extension, a deleted or duplicated run.
 * *len may change; buf has room for cap bytes.
 */
static void mutate_file(uint8_t *buf, size_t *len, size_t cap)
{
    size_t n = *len;
    int rounds = 1 + (int)rnd(3);
    for (int r = 0; r < rounds && n > 0; r++) {
        /* most structure is near the start: bias positions there */
        size_t pos = rnd(2) ? rnd(n < 256 ? n : 256) : rnd(n);
        switch (rnd(7)) {
        case 0:
            buf[pos] ^= (uint8_t)(1u << rnd(8));
            break;
        case 1:
            buf[pos] = (uint8_t)rnd(256);
            break;
        case 2: { /* a little-endian field set to a boundary value */
            static const uint64_t vals[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff,
                                            0xffffffffffffffffULL, 0x100000000ULL, 1u << 20};
            uint64_t v = vals[rnd(sizeof vals / sizeof vals[0])];
            size_t w = rnd(2) ? 4 : 8;
            pos &= ~(size_t)3;
            for (size_t i = 0; i < w && pos + i < n; i++)
                buf[pos + i] = (uint8_t)(v >> (8 * i));
            break;
        }
        case 3: /* truncate */
            n = rnd(n);
            break;
        case 4: { /* extend with random bytes */
            size_t k = 1 + rnd(64);
            for (size_t i = 0; i < k && n < cap; i++)
                buf[n++] = (uint8_t)rnd(256);
            break;
        }
        case 5: { /* delete a run */
            size_t k = 1 + rnd(16);
            if (pos + k <= n) {
                memmove(buf + pos, buf + pos + k, n - pos - k);
                n -= k;
            }
            break;
        }
        default: { /* duplicate a run */
            size_t k = 1 + rnd(16);
            if (pos + k <= n && n + k <= cap) {
                memmove(buf + pos + k, buf + pos, n - pos);
                n += k;
            }
            break;
        }
        }
    }
    *len = n;
}

static void check_fixture_accepted(bool ok, const char *rel)
{
    if (!ok)
        report("the reader refuses the unmutated fixture", NULL, 0, rel);
}

static void fuzz_reader(const char *rel, const char *(*chk)(const uint8_t *, size_t), int iters)
{
    size_t len;
    uint8_t *base = load_fixture(rel, &len);
    assert_non_null(base);
    unsigned long acc0 = cz_chk_accepted;
    report(chk(base, len), NULL, 0, rel); /* the fixture itself */
    bool base_ok = cz_chk_accepted > acc0;
    acc0 = cz_chk_accepted;
    size_t cap = len + 4096;
    uint8_t *work = malloc(cap);
    assert_non_null(work);
    for (int i = 0; i < iters; i++) {
        size_t n = len;
        memcpy(work, base, len);
        mutate_file(work, &n, cap);
        uint8_t *in = malloc(n ? n : 1); /* exact size for ASan */
        assert_non_null(in);
        memcpy(in, work, n);
        const char *msg = chk(in, n);
        if (msg) {
            char what[256];
            snprintf(what, sizeof what, "%s mutation %d (%zu bytes)", rel, i, n);
            report(msg, NULL, 0, what);
        }
        free(in);
    }
    printf("# %-22s %6d mutations, %6lu accepted (the fixture itself: %s)\n",
           strrchr(rel, '/') + 1, iters, cz_chk_accepted - acc0,
           base_ok ? "accepted" : "REFUSED");
    /* a reader that refuses its own fixture would make every mutation
       trivially "safe" */
    check_fixture_accepted(base_ok, rel);
    free(work);
    free(base);
}

static const char *chk_json_bytes(const uint8_t *d, size_t n)
{
    return cz_chk_json((const char *)d, n);
}

static void test_readers(void **state)
{
    (void)state;
    g_fails = 0;
    /* tests/fuzz/seeds: a one-constraint circuit, cheap enough for many
       iterations; then the snarkjs fixtures */
    fuzz_reader("tests/fuzz/seeds/tiny.zkey", cz_chk_zkey, cz_test_iters(1500));
    fuzz_reader("tests/fuzz/seeds/tiny.r1cs", cz_chk_r1cs, cz_test_iters(1500));
    fuzz_reader("tests/fuzz/seeds/tiny.wtns", cz_chk_wtns, cz_test_iters(1500));
    fuzz_reader("tests/fuzz/seeds/tiny_vk.json", chk_json_bytes, cz_test_iters(800));
    fuzz_reader("tests/fixtures/small.wtns", cz_chk_wtns, cz_test_iters(1500));
    fuzz_reader("tests/fixtures/small.r1cs", cz_chk_r1cs, cz_test_iters(600));
    fuzz_reader("tests/fixtures/small.zkey", cz_chk_zkey, cz_test_iters(300));
    fuzz_reader("tests/fixtures/small_proof.json", chk_json_bytes, cz_test_iters(800));
    fuzz_reader("tests/fixtures/small_public.json", chk_json_bytes, cz_test_iters(400));
    fuzz_reader("tests/fixtures/small_vk.json", chk_json_bytes, cz_test_iters(400));
    if (g_fails)
        printf("file readers: %d violations\n", g_fails);
    assert_int_equal(g_fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_bytes), cmocka_unit_test(test_field_strings),
        cmocka_unit_test(test_g1_bytes),    cmocka_unit_test(test_g2_bytes),
        cmocka_unit_test(test_point_dec),   cmocka_unit_test(test_readers),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
