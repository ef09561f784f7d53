/*
 * mont_emu.cpp: the device's Montgomery product and square in separated
 * form (cuda/mont.cuh, czd_mont::mul_sos / sqr_sos: Karatsuba, the
 * square's cross products, the reduction) over the four moduli (BLS12-381
 * Fr and Fp, BN254 Fr and Fp), and Fp2's two-reduction product
 * (czd_mont_mul2) over both curves' Fp2, run on the host against the
 * host's field code. Built and run by tests/test_mont_emu.sh.
 *
 * DESIGN. mont.cuh's primitives are one or two PTX instructions on the
 * device and a C emulation of the carry flag here, so this checks the word
 * positions of every chain, which words a chain finds fresh, the pending
 * carries, the bounds that let chains drop their last carry and that no
 * two chains interleave (the emulation stops there), with the same code
 * the device runs. It cannot check the device's own carry flag (that nvcc
 * puts nothing between the instructions of a chain): bench-fpmul's check
 * does that on a GPU. Inputs: every pair of edge
 * values (0, 1, 2, m-1, m-2, (m-1)/2, R mod m, 2^(32k)-1 below m, words of
 * all ones and all zeros mixed) and random elements.
 *
 * Usage: mont_emu [count [seed]] (default 200000 random pairs a modulus);
 * exit 0 when every result matched.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" {
#include "field/bn254.h"
#include "field/field.h"
#include "util/rng.h"
}
#include "mont.cuh"

/* a host field's product and square over raw 32-bit words */
struct host_ops {
    void (*mul)(uint32_t *, const uint32_t *, const uint32_t *);
    void (*sqr)(uint32_t *, const uint32_t *);
    void (*rnd)(uint32_t *, cz_rng *);
};

#define HOST_OPS(F, T)                                                                      \
    static void F##_mul32(uint32_t *o, const uint32_t *a, const uint32_t *b)                \
    {                                                                                       \
        T x, y, z;                                                                          \
        memcpy(&x, a, sizeof x);                                                            \
        memcpy(&y, b, sizeof y);                                                            \
        cz_##F##_mul(&z, &x, &y);                                                           \
        memcpy(o, &z, sizeof z);                                                            \
    }                                                                                       \
    static void F##_sqr32(uint32_t *o, const uint32_t *a)                                   \
    {                                                                                       \
        T x, z;                                                                             \
        memcpy(&x, a, sizeof x);                                                            \
        cz_##F##_sqr(&z, &x);                                                               \
        memcpy(o, &z, sizeof z);                                                            \
    }                                                                                       \
    static void F##_rnd32(uint32_t *o, cz_rng *rng)                                         \
    {                                                                                       \
        T x;                                                                                \
        cz_##F##_random(&x, rng);                                                           \
        memcpy(o, &x, sizeof x);                                                            \
    }                                                                                       \
    static const host_ops F##_ops = {F##_mul32, F##_sqr32, F##_rnd32};

HOST_OPS(fr, cz_fr)
HOST_OPS(fp, cz_fp)
HOST_OPS(bn254_fr, cz_bn254_fr)
HOST_OPS(bn254_fp, cz_bn254_fp)

/* a < m, word by word from the top */
template <class P>
static bool below_m(const uint32_t *a)
{
    for (int i = P::N - 1; i >= 0; i--)
        if (a[i] != P::p(i))
            return a[i] < P::p(i);
    return false;
}

template <class P>
static std::vector<std::vector<uint32_t>> edge_values()
{
    constexpr int N = P::N;
    std::vector<std::vector<uint32_t>> v;
    std::vector<uint32_t> x(N, 0);
    v.push_back(x); /* 0 */
    x[0] = 1;
    v.push_back(x);
    x[0] = 2;
    v.push_back(x);
    for (int i = 0; i < N; i++)
        x[i] = P::p(i);
    x[0] -= 1; /* m - 1 (every m here is odd) */
    v.push_back(x);
    x[0] -= 1;
    v.push_back(x);
    x[0] += 1; /* (m - 1) / 2 */
    for (int i = 0; i < N; i++)
        x[i] = (x[i] >> 1) | (i + 1 < N ? x[i + 1] << 31 : 0);
    v.push_back(x);
    for (int i = 0; i < N; i++)
        x[i] = P::one(i);
    v.push_back(x); /* R mod m */
    for (int k = 1; k < N; k++) { /* 2^(32k) - 1 */
        for (int i = 0; i < N; i++)
            x[i] = i < k ? ~0u : 0;
        v.push_back(x);
    }
    for (int pat = 0; pat < 4; pat++) { /* all-ones words mixed with zeros, kept below m */
        for (int i = 0; i < N; i++)
            x[i] = ((i + pat) % 3 == 0) ? ~0u : (pat & 1 ? 0 : 0x80000000u);
        x[N - 1] = P::p(N - 1) - 1;
        v.push_back(x);
    }
    std::vector<std::vector<uint32_t>> out;
    for (auto &e : v)
        if (below_m<P>(e.data()))
            out.push_back(e);
    return out;
}

static void print_words(const char *name, const uint32_t *a, int n)
{
    fprintf(stderr, "  %s = 0x", name);
    for (int i = n - 1; i >= 0; i--)
        fprintf(stderr, "%08x", a[i]);
    fprintf(stderr, "\n");
}

template <class P>
static int check_one(const char *name, const host_ops &h, const uint32_t *a, const uint32_t *b, int *shown)
{
    constexpr int N = P::N;
    uint32_t want[N], got[N];
    int bad = 0;
    h.mul(want, a, b);
    czd_mont_mul<P>(got, a, b);
    if (memcmp(want, got, sizeof want)) {
        if ((*shown)++ < 5) {
            fprintf(stderr, "mont_emu: %s product differs\n", name);
            print_words("a   ", a, N);
            print_words("b   ", b, N);
            print_words("host", want, N);
            print_words("emu ", got, N);
        }
        bad++;
    }
    h.sqr(want, a);
    czd_mont_sqr<P>(got, a);
    if (memcmp(want, got, sizeof want)) {
        if ((*shown)++ < 5) {
            fprintf(stderr, "mont_emu: %s square differs\n", name);
            print_words("a   ", a, N);
            print_words("host", want, N);
            print_words("emu ", got, N);
        }
        bad++;
    }
    return bad;
}

template <class P>
static int check_field(const char *name, const host_ops &h, long count, cz_rng *rng)
{
    constexpr int N = P::N;
    int bad = 0, shown = 0;
    long cases = 0;
    auto ev = edge_values<P>();
    for (auto &x : ev)
        for (auto &y : ev) {
            bad += check_one<P>(name, h, x.data(), y.data(), &shown);
            cases++;
        }
    uint32_t a[N], b[N];
    for (long c = 0; c < count; c++) {
        h.rnd(a, rng);
        h.rnd(b, rng);
        if (c % 7 == 0) /* an edge value against a random one */
            memcpy(b, ev[(size_t)c / 7 % ev.size()].data(), sizeof b);
        bad += check_one<P>(name, h, a, b, &shown);
        cases++;
    }
    printf("%s: %ld products and squares (%zu edge values): %s\n", name, cases, ev.size(),
           bad ? "MISMATCH" : "ok");
    return bad;
}

/* a random element of the 12-word (BLS12-381) or 8-word (BN254) Fp */
template <int N>
static void fp_random(uint32_t *out, cz_rng *rng)
{
    if (N == 12)
        fp_rnd32(out, rng);
    else
        bn254_fp_rnd32(out, rng);
}

/* Fp2: czd_mont_mul2 against the host's Fp2 product, on pairs of edge
   values in every coordinate and random elements */
template <class P, class T2>
static int check_fp2(const char *name, void (*mul)(T2 *, const T2 *, const T2 *), long count, cz_rng *rng)
{
    constexpr int N = P::N;
    static_assert(sizeof(T2) == 2 * N * 4, "Fp2 as two N-word elements");
    auto ev = edge_values<P>();
    const size_t ne = ev.size();
    int bad = 0, shown = 0;
    long cases = 0;
    for (long c = 0; c < count + (long)(ne * ne); c++) {
        uint32_t a[2 * N], b[2 * N], want[2 * N], got[2 * N];
        if (c < (long)(ne * ne)) { /* a = (e_i, e_j), b = (e_j, e_i) */
            memcpy(a, ev[(size_t)c / ne].data(), 4 * N);
            memcpy(a + N, ev[(size_t)c % ne].data(), 4 * N);
            memcpy(b, a + N, 4 * N);
            memcpy(b + N, a, 4 * N);
        } else {
            fp_random<N>(a, rng);
            fp_random<N>(a + N, rng);
            fp_random<N>(b, rng);
            fp_random<N>(b + N, rng);
        }
        T2 x, y, z;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        mul(&z, &x, &y);
        memcpy(want, &z, sizeof z);
        czd_mont_mul2<P>(got, got + N, a, a + N, b, b + N);
        if (memcmp(want, got, sizeof want)) {
            if (shown++ < 5) {
                fprintf(stderr, "mont_emu: %s product differs\n", name);
                print_words("a.c0", a, N);
                print_words("a.c1", a + N, N);
                print_words("b.c0", b, N);
                print_words("b.c1", b + N, N);
                print_words("host c0", want, N);
                print_words("emu  c0", got, N);
                print_words("host c1", want + N, N);
                print_words("emu  c1", got + N, N);
            }
            bad++;
        }
        cases++;
    }
    printf("%s: %ld products: %s\n", name, cases, bad ? "MISMATCH" : "ok");
    return bad;
}

/* P::r2 (field.cuh's inversion starts from it) against R mod m doubled
   32N times: R^2 mod m */
template <class P>
static int check_r2(const char *name)
{
    constexpr int N = P::N;
    uint32_t x[N];
    for (int i = 0; i < N; i++)
        x[i] = P::one(i);
    for (int k = 0; k < 32 * N; k++) {
        uint64_t c = 0;
        for (int i = 0; i < N; i++) { /* x = 2x (below 2^(32N + 1)) */
            c += (uint64_t)x[i] << 1;
            x[i] = (uint32_t)c;
            c >>= 32;
        }
        bool geq = c != 0;
        if (!geq) {
            geq = true;
            for (int i = N - 1; i >= 0; i--)
                if (x[i] != P::p(i)) {
                    geq = x[i] > P::p(i);
                    break;
                }
        }
        if (geq) { /* x -= m */
            int64_t b = 0;
            for (int i = 0; i < N; i++) {
                int64_t d = (int64_t)x[i] - P::p(i) + b;
                x[i] = (uint32_t)d;
                b = d < 0 ? -1 : 0;
            }
        }
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad |= x[i] != P::r2(i);
    printf("%s: R^2 mod m: %s\n", name, bad ? "MISMATCH" : "ok");
    return bad;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 200000;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
    if (count < 0) {
        fprintf(stderr, "usage: mont_emu [count [seed]]\n");
        return 2;
    }
    cz_rng rng;
    cz_rng_seed(&rng, seed);
    int bad = 0;
    bad += check_field<czd_fr_params>("bls12-381 fr", fr_ops, count, &rng);
    bad += check_field<czd_fp_params>("bls12-381 fp", fp_ops, count, &rng);
    bad += check_field<czd_fr254_params>("bn254 fr", bn254_fr_ops, count, &rng);
    bad += check_field<czd_fp254_params>("bn254 fp", bn254_fp_ops, count, &rng);
    bad += check_fp2<czd_fp_params, cz_fp2>("bls12-381 fp2", cz_fp2_mul, count / 4, &rng);
    bad += check_fp2<czd_fp254_params, cz_bn254_fp2>("bn254 fp2", cz_bn254_fp2_mul, count / 4, &rng);
    bad += check_r2<czd_fr_params>("bls12-381 fr");
    bad += check_r2<czd_fp_params>("bls12-381 fp");
    bad += check_r2<czd_fr254_params>("bn254 fr");
    bad += check_r2<czd_fp254_params>("bn254 fp");
    return bad ? 1 : 0;
}
