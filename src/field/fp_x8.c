/*
 * fp_x8.c: eight independent Fp products at once (cz_fp_mul_x8), for the
 * batched loops of the MSM.
 *
 * DESIGN. Where the compiler targets AVX-512 IFMA (vpmadd52luq/huq: eight
 * 52x52-bit products a cycle on Zen 4, against about one 64x64 mulx), the
 * eight products run one per 64-bit lane of zmm registers, in radix 2^52
 * (8 limbs: p < 2^381 < 2^416):
 *   - in: the limbs of a, shifted left by 32 bits, and of b, cut into 52-bit
 *     limbs (a < p gives a 2^32 < 2^413);
 *   - a word-by-word Montgomery product with R' = 2^416 (8 rounds of
 *     T += a b_i, q = T_0 n0' mod 2^52, T += q p, T >>= 52, where the low
 *     word of q p is not multiplied out: T_0 + lo(q p_0) is T_0 rounded up
 *     to a multiple of 2^52; the lanes keep their carries in the 12 spare
 *     bits and settle them at the end), which
 *     gives a 2^32 b / 2^416 = a b / 2^384: the Montgomery product of field.h,
 *     below 2p since a 2^32 b < p^2 2^32 < p 2^416, so one conditional
 *     subtraction reduces it fully;
 *   - out: the 52-bit limbs joined back into six 64-bit words.
 * Loads and stores transpose the 8 x 6 words of the operands and results
 * with permutes (no gathers or scatters).
 * The lane arithmetic is fp_x8_impl.h's (shared with bn254_fp_x8.c); the
 * loads and stores are here.
 * The results equal eight cz_fp_mul calls bit for bit (test_field compares
 * them); elsewhere (no IFMA, CZ_NO_ASM, -O0) it is those eight calls.
 * Constant time: no branches on the values.
 */
#include "field/field.h"
#include "field/fp_x8.h"

#if CZ_FP_HAVE_X8
#include <immintrin.h>

typedef __m512i V;

static const uint64_t p52[8] = {0xeffffffffaaabULL, 0xfeb153ffffb9fULL, 0x6b0f6241eabffULL,
                                0x12bf6730d2a0fULL, 0x764774b84f385ULL, 0x1ba7b6434bacdULL,
                                0x1ea397fe69a4bULL, 0x000000001a011ULL};
#define N0_52 0x3fffcfffcfffdULL /* -p^-1 mod 2^52 */
#define MASK52 0xfffffffffffffULL

#endif

#define X8_HAVE CZ_FP_HAVE_X8
#define X8_NL 8
#define X8_NW 6
#define X8_P52 p52
#define X8_N0 N0_52
#define X8_FE cz_fp
#define X8_FE_MUL cz_fp_mul
#define X8_V8 cz_fp_v8
#define X8_V8_(op) cz_fp_v8_##op
#define X8_SHL cz_fp_v8_shl32
#define X8_SHIFT 32
#define X8_MUL_X8 cz_fp_mul_x8
#define X8_IS_SIMD cz_fp_mul_x8_is_simd
#include "field/fp_x8_impl.h"

#if CZ_FP_HAVE_X8

/* the six words of eight elements, word k of element e in lane e */
static inline __attribute__((always_inline)) void load_t(V w[6], const cz_fp x[8])
{
    /* 8 x 6 -> 6 x 8 qwords by two-source permutes */
    const uint64_t *q = x[0].l;
    V z0 = _mm512_loadu_si512(q), z1 = _mm512_loadu_si512(q + 8);
    V z2 = _mm512_loadu_si512(q + 16), z3 = _mm512_loadu_si512(q + 24);
    V z4 = _mm512_loadu_si512(q + 32), z5 = _mm512_loadu_si512(q + 40);
    /* word k of element e is qword 6e + k: elements 0-1 lie in z0|z1,
       2-3 in z1|z2, 4-5 in z3|z4, 6-7 in z4|z5 (16-qword windows) */
    #pragma GCC unroll 8
    for (int k = 0; k < 6; k++) {
        V a = _mm512_permutex2var_epi64(z0, _mm512_set_epi64(0, 0, 0, 0, 0, 0, 6 + k, k), z1);
        V b = _mm512_permutex2var_epi64(z1, _mm512_set_epi64(0, 0, 0, 0, 10 + k, 4 + k, 0, 0), z2);
        V c = _mm512_permutex2var_epi64(z3, _mm512_set_epi64(0, 0, 6 + k, k, 0, 0, 0, 0), z4);
        V d = _mm512_permutex2var_epi64(z4, _mm512_set_epi64(10 + k, 4 + k, 0, 0, 0, 0, 0, 0), z5);
        w[k] = _mm512_mask_blend_epi64(0xf0, _mm512_mask_blend_epi64(0x0c, a, b),
                                       _mm512_mask_blend_epi64(0xc0, c, d));
    }
}

void cz_fp_v8_load(cz_fp_v8 *out, const cz_fp x[8], int shift32)
{
    V w[7];
    load_t(w, x);
    limbs_of_words(out, w, shift32); /* x 2^32: words shifted by half a word */
}

void cz_fp_v8_store(cz_fp out[8], const cz_fp_v8 *a)
{
    const V zero = _mm512_setzero_si512();
    /* join the 52-bit limbs into words (column k: word k of the eight
       results), then transpose 8 x 8 (two zero columns) and store six
       words per result */
    V col[8];
    words_of_limbs(col, a);
    col[6] = col[7] = zero;
    /* stage 1: 2x2 blocks of qwords; stage 2: 2x2 blocks of pairs; stage 3:
       of quads (unpack / permutes within and across 128-bit lanes) */
    V u[8], v[8];
    #pragma GCC unroll 8
    for (int k = 0; k < 8; k += 2) {
        u[k] = _mm512_unpacklo_epi64(col[k], col[k + 1]);
        u[k + 1] = _mm512_unpackhi_epi64(col[k], col[k + 1]);
    }
    const V i2lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const V i2hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    #pragma GCC unroll 8
    for (int k = 0; k < 8; k += 4) {
        #pragma GCC unroll 8
        for (int h = 0; h < 2; h++) {
            v[k + h] = _mm512_permutex2var_epi64(u[k + h], i2lo, u[k + h + 2]);
            v[k + h + 2] = _mm512_permutex2var_epi64(u[k + h], i2hi, u[k + h + 2]);
        }
    }
    const V i4lo = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    const V i4hi = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    #pragma GCC unroll 8
    for (int h = 0; h < 4; h++) {
        u[h] = _mm512_permutex2var_epi64(v[h], i4lo, v[h + 4]);
        u[h + 4] = _mm512_permutex2var_epi64(v[h], i4hi, v[h + 4]);
    }
    #pragma GCC unroll 8
    for (int e = 0; e < 8; e++) /* u[e]: the words of result e */
        _mm512_mask_storeu_epi64(out[e].l, 0x3f, u[e]);
}

#endif
