/* ctest: labels=gpu timeout=900 */
/*
 * test_gpu_bn254.c: the GPU kernels over BN254 ("bn128") against the CPU
 * BN254 code, bit for bit (cuda.h's _bn254 functions):
 *   - Fr, Fp and Fp2: add, sub, mul, sqr, from Montgomery and inverse on
 *     random inputs and on 0, 1, -1 and p - 1 against field/bn254.h;
 *   - the G1 and G2 points made on the GPU (cz_cuda_bn254_g*_gen_points,
 *     which the large MSMs use) against d_i G on the CPU;
 *   - G1 and G2 MSMs against msm/msm_bn254.h at sizes 1, 2, 3, 128 / 129
 *     (the automatic window changes there), 1000, 2^10, 2^16 and 2^20
 *     (2^20 and CZ_TEST_BN254_MSM_LOG above it through points of known
 *     discrete logarithm: sum s_i P_i = (sum s_i d_i) G), each on random
 *     scalars, on the general and on the bit path; all-zero, all-one,
 *     every scalar equal (one hot bucket), small scalars (hot low
 *     buckets), 0 / 1 / -1 / random mixes, repeated points, a point next
 *     to its negation, infinity points (with equal scalars: P + P and
 *     P + (-P) inside a bucket, the point formulas' special cases),
 *     plain scalars >= r (s + r,
 *     s + 5r, 2^256 - 1), and forced windows (2, 7, 13, 16, 17, 20: 254 is
 *     a multiple of 2, so c = 2 needs the spare carry window);
 *   - NTTs at 2^1 .. 2^20 (forward, inverse, coset forward and inverse,
 *     bit-reversed output) against poly/ntt_bn254.h on snarkjs's roots,
 *     and the H step (cz_cuda_bn254_ntt_h_dev with the domain's
 *     omega_2n) against cz_bn254_ntt_snarkjs_odd_points then a .* b - c.
 *   - a bn128 proof (cz_cuda_bn254_groth16_prove) of the snarkjs fixture's
 *     key and three witnesses: byte for byte the CPU prover's for the same
 *     r, s, accepted by the verifier (fresh r, s too), refused with a
 *     changed public input; the same with the key's points resident
 *     (cz_cuda_bn254_key_upload, cz_cuda_bn254_groth16_prove_dev), a device
 *     key of another shape refused; every proof and the key's free give
 *     the arena back to its first free size.
 * CZ_TEST_BN254_NTT_LOG / CZ_TEST_BN254_MSM_LOG (default 20) bound the
 * largest sizes (quick runs under CZ_TEST_SCALE < 1: 14; over the host
 * model of the device, which checks the glue and not the kernels: 16).
 * Skips (exit 77) without a CUDA build or device.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda.h"
#include "curve/bn254_curve.h"
#include "field/bn254.h"
#include "groth16/groth16_bn254.h"
#include "io/binfile.h"
#include "msm/msm_bn254.h"
#include "poly/ntt_bn254.h"
#include "util/threadpool.h"

static cz_cuda_ctx *g_ctx;

static void check(cz_status st)
{
    if (st != CZ_OK)
        fail_msg("CUDA call failed: %s: %s", cz_strerror(st), cz_cuda_ctx_error(g_ctx));
}

static unsigned env_log(const char *name)
{
    const char *e = getenv(name);
    /* the host model checks the glue, not the kernels: smaller sizes */
    unsigned dflt = !cz_test_full() ? 14 : cz_cuda_is_model() ? 16 : 20;
    unsigned v = e && *e ? (unsigned)atoi(e) : dflt;
    return v < 1 ? 1 : v > 26 ? 26 : v;
}

/* ---- fields ---- */

static const uint64_t k_r[4] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                0xb85045b68181585dULL, 0x30644e72e131a029ULL};

#define FIELD_CASE(F, T, OPFN, N_EDGE)                                                         \
    static void field_##F(cz_rng *rng)                                                         \
    {                                                                                          \
        size_t n = 4096;                                                                       \
        T *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *got = malloc(n * sizeof *got); \
        for (size_t i = 0; i < n; i++) {                                                       \
            cz_bn254_##F##_random(&a[i], rng);                                                 \
            cz_bn254_##F##_random(&b[i], rng);                                                 \
        }                                                                                      \
        T z, o, m1;                                                                            \
        cz_bn254_##F##_zero(&z);                                                               \
        cz_bn254_##F##_one(&o);                                                                \
        cz_bn254_##F##_neg(&m1, &o);                                                           \
        T edge[4] = {z, o, m1, m1};                                                            \
        cz_bn254_##F##_add(&edge[3], &m1, &m1); /* -2 */                                       \
        for (int i = 0; i < 4; i++)                                                            \
            for (int j = 0; j < 4; j++) {                                                      \
                a[4 * i + j] = edge[i];                                                        \
                b[4 * i + j] = edge[j];                                                        \
            }                                                                                  \
        for (int op = 0; op <= 5; op++) {                                                      \
            check(OPFN(g_ctx, op, got, a, b, n));                                              \
            for (size_t i = 0; i < n; i++) {                                                   \
                T want;                                                                        \
                switch (op) {                                                                  \
                case 0: cz_bn254_##F##_add(&want, &a[i], &b[i]); break;                        \
                case 1: cz_bn254_##F##_sub(&want, &a[i], &b[i]); break;                        \
                case 2: cz_bn254_##F##_mul(&want, &a[i], &b[i]); break;                        \
                case 3: cz_bn254_##F##_sqr(&want, &a[i]); break;                               \
                case 4: cz_bn254_##F##_to_limbs((uint64_t *)&want, &a[i]); break;              \
                default: cz_bn254_##F##_inv(&want, &a[i]); break;                              \
                }                                                                              \
                if (memcmp(&want, &got[i], sizeof want) != 0)                                  \
                    fail_msg("BN254 " #F " op %d differs from the host at %zu", op, i);        \
            }                                                                                  \
        }                                                                                      \
        free(a);                                                                               \
        free(b);                                                                               \
        free(got);                                                                             \
    }
FIELD_CASE(fr, cz_bn254_fr, cz_cuda_bn254_fr_op, 4)
FIELD_CASE(fp, cz_bn254_fp, cz_cuda_bn254_fp_op, 4)

static void field_fp2(cz_rng *rng)
{
    size_t n = 2048;
    cz_bn254_fp2 *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *got = malloc(n * sizeof *got);
    for (size_t i = 0; i < n; i++) {
        cz_bn254_fp2_random(&a[i], rng);
        cz_bn254_fp2_random(&b[i], rng);
    }
    cz_bn254_fp2_zero(&a[0]);
    cz_bn254_fp2_one(&b[1]);
    a[2] = b[2];
    for (int op = 0; op <= 5; op++) {
        check(cz_cuda_bn254_fp2_op(g_ctx, op, got, a, b, n));
        for (size_t i = 0; i < n; i++) {
            cz_bn254_fp2 want;
            switch (op) {
            case 0: cz_bn254_fp2_add(&want, &a[i], &b[i]); break;
            case 1: cz_bn254_fp2_sub(&want, &a[i], &b[i]); break;
            case 2: cz_bn254_fp2_mul(&want, &a[i], &b[i]); break;
            case 3: cz_bn254_fp2_sqr(&want, &a[i]); break;
            case 4:
                cz_bn254_fp_to_limbs((uint64_t *)&want.c0, &a[i].c0);
                cz_bn254_fp_to_limbs((uint64_t *)&want.c1, &a[i].c1);
                break;
            default: cz_bn254_fp2_inv(&want, &a[i]); break;
            }
            if (memcmp(&want, &got[i], sizeof want) != 0)
                fail_msg("BN254 fp2 op %d differs from the host at %zu", op, i);
        }
    }
    free(a);
    free(b);
    free(got);
}

static void test_fields(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    field_fr(&rng);
    field_fp(&rng);
    field_fp2(&rng);
}

/* ---- points ---- */

/* n points d_i G with d_i known (host copy when d_out), made on the GPU */
#define GEN_POINTS(G)                                                                          \
    static cz_bn254_##G##_affine *G##_points(size_t n, cz_bn254_fr *d_out, cz_rng *rng)         \
    {                                                                                          \
        size_t m = n < 64 ? n : 64;                                                            \
        cz_bn254_fr k[64];                                                                     \
        for (size_t i = 0; i < m; i++)                                                         \
            cz_bn254_fr_random(&k[i], rng);                                                    \
        cz_cuda_buf buf;                                                                       \
        cz_bn254_##G##_affine *p = malloc(n * sizeof *p);                                      \
        check(cz_cuda_buf_alloc(g_ctx, &buf, n * sizeof *p));                                  \
        check(cz_cuda_bn254_##G##_gen_points(g_ctx, &buf, n, k, m));                           \
        check(cz_cuda_download(g_ctx, p, &buf, 0, n * sizeof *p));                             \
        check(cz_cuda_buf_free(g_ctx, &buf));                                                  \
        if (d_out)                                                                             \
            for (size_t i = 0; i < n; i++) {                                                   \
                d_out[i] = k[i % m];                                                           \
                if (i >= m)                                                                    \
                    cz_bn254_fr_add(&d_out[i], &d_out[i], &k[(i / m) % m]);                    \
            }                                                                                  \
        return p;                                                                              \
    }
GEN_POINTS(g1)
GEN_POINTS(g2)

/* the points made on the GPU are d_i G (checked on a few) and on the curve */
#define CHECK_GEN(G)                                                                           \
    static void check_gen_##G(cz_rng *rng)                                                     \
    {                                                                                          \
        size_t n = 200;                                                                        \
        cz_bn254_fr d[200];                                                                    \
        cz_bn254_##G##_affine *p = G##_points(n, d, rng), g;                                   \
        cz_bn254_##G##_generator(&g);                                                          \
        cz_bn254_##G##_jac gj;                                                                 \
        cz_bn254_##G##_jac_from_affine(&gj, &g);                                               \
        for (size_t i = 0; i < n; i += 37) {                                                   \
            cz_bn254_##G##_jac want, got;                                                      \
            cz_bn254_##G##_jac_mul(&want, &gj, &d[i]);                                         \
            cz_bn254_##G##_jac_from_affine(&got, &p[i]);                                       \
            if (!cz_bn254_##G##_jac_eq(&want, &got))                                           \
                fail_msg("BN254 " #G " point %zu made on the GPU is not d_i G", i);            \
        }                                                                                      \
        free(p);                                                                               \
    }
CHECK_GEN(g1)
CHECK_GEN(g2)

static void test_gen_points(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    check_gen_g1(&rng);
    check_gen_g2(&rng);
}

/* ---- MSM ---- */

enum { SC_RANDOM, SC_ZERO, SC_ONE, SC_EQUAL, SC_SMALL, SC_MIX, SC_BITS, SC_KINDS };
static const char *const k_kind[SC_KINDS] = {"random", "all-zero", "all-one", "equal",
                                              "small", "mix", "bits"};

static void fill_scalars(cz_bn254_fr *s, size_t n, int kind, cz_rng *rng)
{
    cz_bn254_fr one, m1, eq;
    cz_bn254_fr_one(&one);
    cz_bn254_fr_neg(&m1, &one);
    cz_bn254_fr_random(&eq, rng);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case SC_RANDOM: cz_bn254_fr_random(&s[i], rng); break;
        case SC_ZERO: cz_bn254_fr_zero(&s[i]); break;
        case SC_ONE: s[i] = one; break;
        case SC_EQUAL: s[i] = eq; break;
        case SC_SMALL: cz_bn254_fr_set_u64(&s[i], cz_rng_u64(rng) & 7); break;
        case SC_BITS: /* PoRep-like: half 0, half 1, 1 % random */
            if (cz_rng_u64(rng) % 100 == 0)
                cz_bn254_fr_random(&s[i], rng);
            else if (cz_rng_u64(rng) & 1)
                s[i] = one;
            else
                cz_bn254_fr_zero(&s[i]);
            break;
        default:
            switch (cz_rng_u64(rng) % 5) {
            case 0: cz_bn254_fr_zero(&s[i]); break;
            case 1: s[i] = one; break;
            case 2: s[i] = m1; break;
            default: cz_bn254_fr_random(&s[i], rng); break;
            }
        }
    }
}

/* Montgomery scalars to plain integers (CZ_CUDA_MSM_PLAIN), a third of
   them >= r: s + r, s + 5 r where that fits 256 bits, or 2^256 - 1 */
static void plain_scalars(cz_bn254_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[4];
        cz_bn254_fr_to_limbs(l, &s[i]);
        memcpy(s[i].l, l, sizeof l);
    }
    for (size_t i = 0; i < n; i += 3) {
        if (i % 9 == 6) {
            memset(s[i].l, 0xff, sizeof s[i].l);
            continue;
        }
        int times = i % 9 == 3 ? 5 : 1;
        uint64_t v[4];
        memcpy(v, s[i].l, sizeof v);
        int over = 0;
        for (int t = 0; t < times && !over; t++) {
            unsigned __int128 c = 0;
            for (int j = 0; j < 4; j++) {
                c += (unsigned __int128)v[j] + k_r[j];
                v[j] = (uint64_t)c;
                c >>= 64;
            }
            over = c != 0;
        }
        if (!over)
            memcpy(s[i].l, v, sizeof v);
    }
}

/* the CPU's MSM (plain or Montgomery scalars) */
#define CPU_MSM(G)                                                                             \
    static void cpu_msm_##G(cz_bn254_##G##_jac *out, const cz_bn254_##G##_affine *p,            \
                            const cz_bn254_fr *s, size_t n, int plain)                         \
    {                                                                                          \
        cz_msm_opts o = {.pool = cz_threadpool_global(),                                       \
                         .form = plain ? CZ_MSM_SCALAR_PLAIN : CZ_MSM_SCALAR_MONT};            \
        if (cz_bn254_##G##_msm(out, p, s, n, &o) != CZ_OK)                                     \
            fail_msg("CPU BN254 " #G " MSM failed");                                           \
    }
CPU_MSM(g1)
CPU_MSM(g2)

/* the GPU's MSM through the device-resident entry (window c, flags) */
#define GPU_MSM(G)                                                                             \
    static void gpu_msm_##G(cz_bn254_##G##_jac *out, const cz_bn254_##G##_affine *p,            \
                            const cz_bn254_fr *s, size_t n, unsigned flags, unsigned c)        \
    {                                                                                          \
        cz_cuda_buf b;                                                                         \
        check(cz_cuda_buf_alloc(g_ctx, &b, (n ? n : 1) * sizeof *p));                          \
        check(cz_cuda_upload(g_ctx, &b, 0, p, n * sizeof *p));                                 \
        check(cz_cuda_bn254_##G##_msm_dev(g_ctx, out, &b, s, NULL, n, flags, c));              \
        check(cz_cuda_buf_free(g_ctx, &b));                                                    \
    }
GPU_MSM(g1)
GPU_MSM(g2)

static const unsigned k_paths[3] = {0, CZ_CUDA_MSM_GENERAL, CZ_CUDA_MSM_BITS};

/* one size: every kind of scalars, on every path, Montgomery and plain;
   points with repeats, a negated neighbour and infinity when edges */
#define MSM_SIZE(G)                                                                            \
    static void msm_size_##G(size_t n, int edges, int kinds_all, cz_rng *rng)                  \
    {                                                                                          \
        cz_bn254_##G##_affine *p = G##_points(n, NULL, rng);                                   \
        if (edges && n >= 8) {                                                                 \
            p[1] = p[0];                                                                       \
            cz_bn254_##G##_affine_neg(&p[3], &p[2]);                                           \
            memset(&p[4], 0, sizeof p[4]);                                                     \
            p[n - 1] = p[0];                                                                   \
        }                                                                                      \
        cz_bn254_fr *s = malloc((n ? n : 1) * sizeof *s);                                      \
        for (int kind = 0; kind < SC_KINDS; kind++) {                                          \
            if (!kinds_all && kind != SC_RANDOM && kind != SC_MIX)                             \
                continue;                                                                      \
            fill_scalars(s, n, kind, rng);                                                     \
            for (int plain = 0; plain < 2; plain++) {                                          \
                if (plain)                                                                     \
                    plain_scalars(s, n);                                                       \
                cz_bn254_##G##_jac want, got;                                                  \
                cpu_msm_##G(&want, p, s, n, plain);                                            \
                for (int path = 0; path < 3; path++) {                                         \
                    unsigned f = k_paths[path] | (plain ? CZ_CUDA_MSM_PLAIN : 0);              \
                    gpu_msm_##G(&got, p, s, n, f, 0);                                          \
                    if (!cz_bn254_##G##_jac_eq(&got, &want))                                   \
                        fail_msg("BN254 " #G " MSM of %zu (%s scalars, %s, path %d) differs "  \
                                 "from the CPU",                                               \
                                 n, k_kind[kind], plain ? "plain" : "Montgomery", path);       \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        free(s);                                                                               \
        free(p);                                                                               \
    }
MSM_SIZE(g1)
MSM_SIZE(g2)

/* forced windows on one size */
#define MSM_WINDOWS(G)                                                                         \
    static void msm_windows_##G(size_t n, cz_rng *rng)                                         \
    {                                                                                          \
        static const unsigned cs[] = {2, 7, 13, 16, 17, 20};                                   \
        cz_bn254_##G##_affine *p = G##_points(n, NULL, rng);                                   \
        cz_bn254_fr *s = malloc(n * sizeof *s);                                                \
        fill_scalars(s, n, SC_MIX, rng);                                                       \
        cz_bn254_##G##_jac want, got;                                                          \
        cpu_msm_##G(&want, p, s, n, 0);                                                        \
        for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {                                \
            gpu_msm_##G(&got, p, s, n, CZ_CUDA_MSM_GENERAL, cs[k]);                            \
            if (!cz_bn254_##G##_jac_eq(&got, &want))                                           \
                fail_msg("BN254 " #G " MSM of %zu with c = %u differs from the CPU", n, cs[k]); \
        }                                                                                      \
        free(s);                                                                               \
        free(p);                                                                               \
    }
MSM_WINDOWS(g1)
MSM_WINDOWS(g2)

/* large: points of known logarithm, sum s_i P_i = (sum s_i d_i) G */
#define MSM_LARGE(G)                                                                           \
    static void msm_large_##G(size_t n, int kind, unsigned flags, cz_rng *rng)                 \
    {                                                                                          \
        cz_bn254_fr *d = malloc(n * sizeof *d), *s = malloc(n * sizeof *s), acc, t;            \
        cz_bn254_##G##_affine *p = G##_points(n, d, rng), g;                                   \
        fill_scalars(s, n, kind, rng);                                                         \
        cz_bn254_fr_zero(&acc);                                                                \
        for (size_t i = 0; i < n; i++) {                                                       \
            cz_bn254_fr_mul(&t, &s[i], &d[i]);                                                 \
            cz_bn254_fr_add(&acc, &acc, &t);                                                   \
        }                                                                                      \
        cz_bn254_##G##_generator(&g);                                                          \
        cz_bn254_##G##_jac gj, want, got;                                                      \
        cz_bn254_##G##_jac_from_affine(&gj, &g);                                               \
        cz_bn254_##G##_jac_mul(&want, &gj, &acc);                                              \
        gpu_msm_##G(&got, p, s, n, flags, 0);                                                  \
        if (!cz_bn254_##G##_jac_eq(&got, &want))                                               \
            fail_msg("BN254 " #G " MSM of %zu (%s scalars, flags %u) differs from (sum s_i d_i) G", \
                     n, k_kind[kind], flags);                                                  \
        free(p);                                                                               \
        free(s);                                                                               \
        free(d);                                                                               \
    }
MSM_LARGE(g1)
MSM_LARGE(g2)

/* the large sizes' cases per group: G1 the bit path's and small
   scalars' (the general path forced), G2 one hot bucket */
typedef struct {
    int kind;
    unsigned flags;
} large_case;
static const large_case k_large_g1[] = {
    {SC_RANDOM, 0}, {SC_BITS, 0}, {SC_SMALL, CZ_CUDA_MSM_GENERAL}};
static const large_case k_large_g2[] = {{SC_RANDOM, 0}, {SC_EQUAL, 0}};

/* sizes 1 .. 1024 with every kind of scalars and the edge points, forced
   windows at 3000, 2^16, then the large cases at 2^20 and the top size */
#define TEST_MSM(G)                                                                            \
    static void test_msm_##G(void **state)                                                     \
    {                                                                                          \
        (void)state;                                                                           \
        cz_rng rng;                                                                            \
        cz_test_rng(&rng);                                                                     \
        static const size_t small[] = {1, 2, 3, 8, 128, 129, 1000, 1024};                      \
        for (size_t k = 0; k < sizeof small / sizeof small[0]; k++)                            \
            msm_size_##G(small[k], 1, 1, &rng);                                                \
        msm_windows_##G(3000, &rng);                                                           \
        unsigned top = env_log("CZ_TEST_BN254_MSM_LOG");                                       \
        if (top >= 16)                                                                         \
            msm_size_##G((size_t)1 << 16, 1, 0, &rng);                                         \
        for (unsigned lg = 17; lg <= top; lg++) {                                              \
            if (lg != 20 && lg != top)                                                         \
                continue;                                                                      \
            for (size_t k = 0; k < sizeof k_large_##G / sizeof k_large_##G[0]; k++)            \
                msm_large_##G((size_t)1 << lg, k_large_##G[k].kind, k_large_##G[k].flags,      \
                              &rng);                                                           \
        }                                                                                      \
    }
TEST_MSM(g1)
TEST_MSM(g2)

static void test_msm_empty(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    size_t n = 777;
    cz_bn254_g1_affine *p = g1_points(n, NULL, &rng);
    cz_bn254_fr *s = malloc(n * sizeof *s);
    fill_scalars(s, n, SC_RANDOM, &rng);
    /* no points: infinity */
    cz_bn254_g1_jac j;
    check(cz_cuda_bn254_g1_msm(g_ctx, &j, p, s, 0, 0));
    assert_true(cz_bn254_g1_jac_is_infinity(&j));
    cz_bn254_g2_jac j2;
    cz_bn254_g2_affine q2;
    cz_bn254_g2_generator(&q2);
    check(cz_cuda_bn254_g2_msm(g_ctx, &j2, &q2, s, 0, 0));
    assert_true(cz_bn254_g2_jac_is_infinity(&j2));
    /* the host-array entry agrees with the CPU */
    cz_bn254_g1_jac want;
    cpu_msm_g1(&want, p, s, n, 0);
    check(cz_cuda_bn254_g1_msm(g_ctx, &j, p, s, n, 0));
    if (!cz_bn254_g1_jac_eq(&j, &want))
        fail_msg("cz_cuda_bn254_g1_msm differs from the CPU");
    free(s);
    free(p);
}

/* ---- NTT ---- */

static cz_bn254_fr *rand_vec(size_t n, cz_rng *rng)
{
    cz_bn254_fr *a = malloc(n * sizeof *a);
    for (size_t i = 0; i < n; i++)
        cz_bn254_fr_random(&a[i], rng);
    return a;
}

static unsigned brev(size_t x, unsigned bits)
{
    unsigned r = 0;
    for (unsigned i = 0; i < bits; i++)
        r |= (unsigned)((x >> i) & 1) << (bits - 1 - i);
    return r;
}

static void ntt_case(unsigned lg, cz_rng *rng)
{
    size_t n = (size_t)1 << lg;
    cz_bn254_ntt_domain *d;
    if (cz_bn254_ntt_domain_create(&d, lg, CZ_NTT_ROOT_5) != CZ_OK)
        fail_msg("BN254 NTT domain 2^%u", lg);
    cz_threadpool *pool = cz_threadpool_global();
    cz_bn254_fr *x = rand_vec(n, rng), *want = malloc(n * sizeof *want),
                *got = malloc(n * sizeof *got), g;
    cz_bn254_fr_random(&g, rng);
    for (int kind = 0; kind < 4; kind++) {
        memcpy(want, x, n * sizeof *x);
        memcpy(got, x, n * sizeof *x);
        switch (kind) {
        case CZ_CUDA_NTT_FORWARD: cz_bn254_ntt_forward(d, want, pool); break;
        case CZ_CUDA_NTT_INVERSE: cz_bn254_ntt_inverse(d, want, pool); break;
        case CZ_CUDA_NTT_COSET_FORWARD: cz_bn254_ntt_coset_forward(d, want, &g, pool); break;
        default: cz_bn254_ntt_coset_inverse(d, want, &g, pool); break;
        }
        check(cz_cuda_bn254_ntt(g_ctx, got, lg, &d->omega, (cz_cuda_ntt_kind)kind, &g));
        if (memcmp(got, want, n * sizeof *got) != 0)
            fail_msg("BN254 NTT 2^%u kind %d differs from the CPU", lg, kind);
    }
    /* forward, bit-reversed out, device-resident */
    memcpy(want, x, n * sizeof *x);
    cz_bn254_ntt_forward(d, want, pool);
    cz_cuda_buf b;
    check(cz_cuda_buf_alloc(g_ctx, &b, n * sizeof *x));
    check(cz_cuda_upload(g_ctx, &b, 0, x, n * sizeof *x));
    check(cz_cuda_bn254_ntt_dev(g_ctx, &b, lg, &d->omega, CZ_CUDA_NTT_FORWARD, NULL,
                                CZ_CUDA_NTT_BITREV_OUT));
    check(cz_cuda_download(g_ctx, got, &b, 0, n * sizeof *x));
    check(cz_cuda_buf_free(g_ctx, &b));
    for (size_t i = 0; i < n; i++)
        if (memcmp(&got[brev(i, lg)], &want[i], sizeof want[i]) != 0)
            fail_msg("BN254 NTT 2^%u bit-reversed output differs at %zu", lg, i);
    free(x);
    free(want);
    free(got);
    cz_bn254_ntt_domain_destroy(d);
}

static void h_case(unsigned lg, cz_rng *rng)
{
    size_t n = (size_t)1 << lg;
    cz_bn254_ntt_domain *d;
    if (cz_bn254_ntt_domain_create(&d, lg, CZ_NTT_ROOT_5) != CZ_OK)
        fail_msg("BN254 NTT domain 2^%u", lg);
    cz_threadpool *pool = cz_threadpool_global();
    cz_bn254_fr *v[3], *w[3];
    cz_cuda_buf abc[3];
    for (int i = 0; i < 3; i++) {
        v[i] = rand_vec(n, rng);
        w[i] = malloc(n * sizeof *w[i]);
        memcpy(w[i], v[i], n * sizeof *v[i]);
        cz_bn254_ntt_snarkjs_odd_points(d, w[i], pool);
    }
    for (size_t j = 0; j < n; j++) {
        cz_bn254_fr_mul(&w[0][j], &w[0][j], &w[1][j]);
        cz_bn254_fr_sub(&w[0][j], &w[0][j], &w[2][j]);
    }
    for (int i = 0; i < 3; i++) {
        check(cz_cuda_buf_alloc(g_ctx, &abc[i], n * sizeof *v[i]));
        check(cz_cuda_upload(g_ctx, &abc[i], 0, v[i], n * sizeof *v[i]));
    }
    check(cz_cuda_bn254_ntt_h_dev(g_ctx, abc, lg, &d->omega, &d->omega_2n));
    check(cz_cuda_download(g_ctx, v[0], &abc[0], 0, n * sizeof *v[0]));
    for (int i = 2; i >= 0; i--)
        check(cz_cuda_buf_free(g_ctx, &abc[i]));
    if (memcmp(v[0], w[0], n * sizeof *v[0]) != 0)
        fail_msg("BN254 H step 2^%u differs from snarkjs's odd points on the CPU", lg);
    for (int i = 0; i < 3; i++) {
        free(v[i]);
        free(w[i]);
    }
    cz_bn254_ntt_domain_destroy(d);
}

static void test_ntt(void **state)
{
    (void)state;
    cz_rng rng;
    cz_test_rng(&rng);
    unsigned top = env_log("CZ_TEST_BN254_NTT_LOG");
    if (top > 24)
        top = 24;
    for (unsigned lg = 1; lg <= top; lg++)
        ntt_case(lg, &rng);
    for (unsigned lg = 1; lg <= top; lg++)
        h_case(lg, &rng);
    /* past BN254's 2-adicity */
    cz_bn254_fr one;
    cz_bn254_fr_one(&one);
    cz_cuda_buf b = {NULL, 0};
    assert_int_equal(cz_cuda_bn254_ntt_dev(g_ctx, &b, 29, &one, CZ_CUDA_NTT_FORWARD, NULL, 0),
                     CZ_ERR_ARG);
}

/* ---- a bn128 proof ---- */

/* the snarkjs fixture's key and witnesses proved on the GPU and on the CPU
   with the same r, s: the same proof bytes (so snarkjs accepts it, as
   test_bn254_prove.sh checks the CPU's), accepted by the BN254 verifier;
   a changed public input is refused */
static void test_prove(void **state)
{
    (void)state;
    char err[512];
    cz_bn254_zkey *key = NULL;
    if (cz_bn254_zkey_load_ex(&key, cz_test_src_path("tests/fixtures/bn254/small.zkey"), NULL, err,
                              sizeof err) != CZ_OK)
        fail_msg("small.zkey: %s", err);
    cz_bn254_vk *vk = NULL;
    assert_int_equal(cz_bn254_vk_from_zkey(&vk, key), CZ_OK);
    static const char *const wt[] = {"small.wtns", "small_2.wtns", "small_3.wtns"};
    cz_rng rng;
    cz_test_rng(&rng);
    const size_t free0 = cz_cuda_arena_free(g_ctx); /* each proof gives its buffers back */
    for (size_t k = 0; k < sizeof wt / sizeof wt[0]; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "tests/fixtures/bn254/%s", wt[k]);
        cz_blob wb;
        cz_bn254_fr *w = NULL;
        uint32_t nw = 0;
        if (cz_blob_map(&wb, cz_test_src_path(rel), err, sizeof err) != CZ_OK)
            fail_msg("%s: %s", rel, err);
        if (cz_bn254_wtns_parse(&w, &nw, wb.data, wb.len, rel, key->n_vars, err, sizeof err) != CZ_OK)
            fail_msg("%s: %s", rel, err);
        cz_blob_release(&wb);
        cz_bn254_fr rs[2];
        cz_bn254_fr_random(&rs[0], &rng);
        cz_bn254_fr_random(&rs[1], &rng);
        cz_bn254_proof cpu, gpu;
        cz_prove_timings tm;
        if (cz_bn254_groth16_prove(&cpu, key, w, cz_threadpool_global(), rs, NULL, err,
                                   sizeof err) != CZ_OK)
            fail_msg("CPU proof of %s: %s", rel, err);
        if (cz_cuda_bn254_groth16_prove(g_ctx, &gpu, key, w, cz_threadpool_global(), rs, &tm, err,
                                        sizeof err) != CZ_OK)
            fail_msg("GPU proof of %s: %s", rel, err);
        if (memcmp(&cpu, &gpu, sizeof cpu) != 0)
            fail_msg("the GPU's proof of %s differs from the CPU's for the same r, s", rel);
        assert_string_equal(tm.tier, "streamed");
        if (cz_cuda_arena_free(g_ctx) != free0)
            fail_msg("the streamed proof of %s left %zu device bytes taken", rel,
                     free0 - cz_cuda_arena_free(g_ctx));
        /* the key's points resident: the same proof, and the arena back */
        cz_cuda_bn254_dkey dk, other;
        check(cz_cuda_bn254_key_upload(g_ctx, &dk, key));
        assert_int_equal(cz_cuda_arena_free(g_ctx) + cz_cuda_bn254_key_bytes(key) >= free0, 1);
        memset(&gpu, 0, sizeof gpu);
        if (cz_cuda_bn254_groth16_prove_dev(g_ctx, &gpu, key, &dk, w, cz_threadpool_global(), rs,
                                            &tm, err, sizeof err) != CZ_OK)
            fail_msg("GPU proof of %s, key resident: %s", rel, err);
        assert_string_equal(tm.tier, "resident");
        /* only w went in: a, b, c were made on the device from the matrices */
        assert_int_equal(tm.h2d_bytes, (uint64_t)key->n_vars * sizeof(cz_bn254_fr));
        if (memcmp(&cpu, &gpu, sizeof cpu) != 0)
            fail_msg("the resident-key proof of %s differs from the CPU's for the same r, s", rel);
        other = dk; /* another key's shape is refused */
        other.n_vars++;
        assert_int_equal(cz_cuda_bn254_groth16_prove_dev(g_ctx, &gpu, key, &other, w, NULL, rs,
                                                         &tm, err, sizeof err),
                         CZ_ERR_ARG);
        check(cz_cuda_bn254_key_free(g_ctx, &dk));
        assert_null(dk.a.dev);
        assert_int_equal(cz_cuda_arena_free(g_ctx), free0);
        if (cz_bn254_groth16_verify(vk, w + 1, key->n_public, &gpu, err, sizeof err) != CZ_OK)
            fail_msg("the GPU's proof of %s is refused: %s", rel, err);
        /* fresh r, s: still a valid proof */
        if (cz_cuda_bn254_groth16_prove(g_ctx, &gpu, key, w, NULL, NULL, &tm, err, sizeof err) !=
                CZ_OK ||
            cz_bn254_groth16_verify(vk, w + 1, key->n_public, &gpu, err, sizeof err) != CZ_OK)
            fail_msg("GPU proof of %s with fresh r, s: %s", rel, err);
        if (key->n_public) {
            cz_bn254_fr one;
            cz_bn254_fr_one(&one);
            cz_bn254_fr_add(&w[1], &w[1], &one);
            assert_int_not_equal(
                cz_bn254_groth16_verify(vk, w + 1, key->n_public, &gpu, err, sizeof err), CZ_OK);
        }
        printf("# %s: GPU proof in %.1f ms (a/b/c %.1f, H %.1f, MSMs %.1f)\n", rel, tm.total_ms,
               tm.eval_abc_ms, tm.ntt_ms, tm.msm_ms);
        cz_bn254_wtns_free(w, nw);
    }
    cz_bn254_vk_free(vk);
    cz_bn254_zkey_free(key);
}

int main(void)
{
    if (!cz_cuda_built() || cz_cuda_device_count() == 0) {
        printf("SKIPPED: no CUDA device (%s)\n",
               cz_cuda_built() ? "none found" : "cuzk built without CUDA");
        return 77;
    }
    char err[512];
    /* 8 GiB, and room for the large MSMs' points, scalars and sort above
       2^22 (G2 at 2^26: 8 GiB of points alone) */
    unsigned top = env_log("CZ_TEST_BN254_MSM_LOG");
    size_t arena = ((size_t)8 << 30) + (top > 22 ? ((size_t)1 << top) * 384 : 0);
    if (cz_cuda_ctx_create(&g_ctx, 0, arena, 0, err, sizeof err) != CZ_OK) {
        printf("SKIPPED: no CUDA device (%s)\n", err);
        return 77;
    }
    printf("# device: %s\n", cz_cuda_device_name(g_ctx));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields), cmocka_unit_test(test_gen_points),
        cmocka_unit_test(test_msm_empty), cmocka_unit_test(test_msm_g1),
        cmocka_unit_test(test_msm_g2), cmocka_unit_test(test_ntt),
        cmocka_unit_test(test_prove),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cz_cuda_ctx_destroy(g_ctx);
    return rc;
}
