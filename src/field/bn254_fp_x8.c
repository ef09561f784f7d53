/*
 * bn254_fp_x8.c: eight independent BN254 Fp products at once
 * (cz_bn254_fp_mul_x8, bn254_fp_x8.h), for the batched loops of the MSM.
 *
 * DESIGN. fp_x8.c's scheme for BLS12-381, with BN254's sizes. Where the
 * compiler targets AVX-512 IFMA, the eight products run one per 64-bit lane
 * of zmm registers in radix 2^52, five limbs (p < 2^254 < 2^260):
 *   - in: the four words of a, shifted left by 4 bits (a < p gives
 *     a 2^4 < 2^258), and of b, cut into 52-bit limbs;
 *   - a word-by-word Montgomery product with R' = 2^260: 5 rounds of
 *     T += a b_i (5 vpmadd52luq + 5 vpmadd52huq), q = T_0 n0' mod 2^52 (1),
 *     T += q p without the low word of q p_0 (T_0 + lo(q p_0) is T_0
 *     rounded up to a multiple of 2^52: 4 lo + 5 hi), T >>= 52: 20 IFMA
 *     instructions a round, 100 for eight products (12.5 a product, against
 *     fp_x8.c's 256 / 8 = 32 for 8 limbs, and 32 mulx with their add chains
 *     for one scalar 4 x 64-bit product). The lanes keep their carries in
 *     the 12 spare bits (each limb gains below 4 * 2^52 a round, so under
 *     2^57 after five) and settle them at the end. a 2^4 b / 2^260 =
 *     a b / 2^256 is the Montgomery product of bn254.h, below 2p since
 *     a 2^4 b < p^2 2^4 < p 2^260, so one conditional subtraction reduces
 *     it fully;
 *   - out: the 52-bit limbs joined back into four 64-bit words.
 * Loads and stores transpose the 8 x 4 words of the operands and results
 * with two-source permutes (no gathers or scatters). The lane arithmetic
 * is fp_x8_impl.h's, shared with fp_x8.c; the loads and stores are here.
 * The results equal eight cz_bn254_fp_mul calls bit for bit
 * (test_bn254_fp_x8 compares them); elsewhere (no IFMA, CZ_NO_ASM, -O0)
 * it is those eight calls.
 * Constant time: no branches on the values.
 */
#include "field/bn254_fp_x8.h"

#if CZ_BN254_FP_HAVE_X8
#include <immintrin.h>

typedef __m512i V;

static const uint64_t p52[5] = {0x08c16d87cfd47ULL, 0x916871ca8d3c2ULL, 0x181585d97816aULL,
                                0xa029b85045b68ULL, 0x030644e72e131ULL};
#define N0_52 0x20782e4866389ULL /* -p^-1 mod 2^52 */
#define MASK52 0xfffffffffffffULL

#endif

#define X8_HAVE CZ_BN254_FP_HAVE_X8
#define X8_NL 5
#define X8_NW 4
#define X8_P52 p52
#define X8_N0 N0_52
#define X8_FE cz_bn254_fp
#define X8_FE_MUL cz_bn254_fp_mul
#define X8_V8 cz_bn254_fp_v8
#define X8_V8_(op) cz_bn254_fp_v8_##op
#define X8_SHL cz_bn254_fp_v8_shl4
#define X8_SHIFT 4
#define X8_MUL_X8 cz_bn254_fp_mul_x8
#define X8_IS_SIMD cz_bn254_fp_mul_x8_is_simd
#include "field/fp_x8_impl.h"

#if CZ_BN254_FP_HAVE_X8

void cz_bn254_fp_v8_load(cz_bn254_fp_v8 *out, const cz_bn254_fp x[8], int shift)
{
    /* word k of element e is qword 4e + k: elements 0-3 lie in z0|z1,
       4-7 in z2|z3 (16-qword windows); one permute per window and word,
       the two halves blended */
    const uint64_t *q = x[0].l;
    V z0 = _mm512_loadu_si512(q), z1 = _mm512_loadu_si512(q + 8);
    V z2 = _mm512_loadu_si512(q + 16), z3 = _mm512_loadu_si512(q + 24);
    V w[5];
    #pragma GCC unroll 8
    for (int k = 0; k < 4; k++) {
        V idx = _mm512_set_epi64(12 + k, 8 + k, 4 + k, k, 12 + k, 8 + k, 4 + k, k);
        V a = _mm512_permutex2var_epi64(z0, idx, z1);
        V b = _mm512_permutex2var_epi64(z2, idx, z3);
        w[k] = _mm512_mask_blend_epi64(0xf0, a, b);
    }
    limbs_of_words(out, w, shift); /* x 2^4 */
}

void cz_bn254_fp_v8_store(cz_bn254_fp out[8], const cz_bn254_fp_v8 *a)
{
    /* join the limbs into words (col[k]: word k of the eight results) */
    V col[4];
    words_of_limbs(col, a);
    /* transpose 4 x 8 -> 8 x 4: pairs (col0, col1), (col2, col3) interleaved
       (u0: words 0-1 of results 0, 2, 4, 6; u1: of 1, 3, 5, 7; u2, u3: words
       2-3), then 128-bit pieces joined into results' 256-bit rows */
    V u0 = _mm512_unpacklo_epi64(col[0], col[1]);
    V u1 = _mm512_unpackhi_epi64(col[0], col[1]);
    V u2 = _mm512_unpacklo_epi64(col[2], col[3]);
    V u3 = _mm512_unpackhi_epi64(col[2], col[3]);
    const V ilo = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);     /* results 0|2 (1|3) */
    const V ihi = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);   /* results 4|6 (5|7) */
    V r02 = _mm512_permutex2var_epi64(u0, ilo, u2);
    V r46 = _mm512_permutex2var_epi64(u0, ihi, u2);
    V r13 = _mm512_permutex2var_epi64(u1, ilo, u3);
    V r57 = _mm512_permutex2var_epi64(u1, ihi, u3);
    _mm256_storeu_si256((__m256i *)out[0].l, _mm512_castsi512_si256(r02));
    _mm256_storeu_si256((__m256i *)out[2].l, _mm512_extracti64x4_epi64(r02, 1));
    _mm256_storeu_si256((__m256i *)out[1].l, _mm512_castsi512_si256(r13));
    _mm256_storeu_si256((__m256i *)out[3].l, _mm512_extracti64x4_epi64(r13, 1));
    _mm256_storeu_si256((__m256i *)out[4].l, _mm512_castsi512_si256(r46));
    _mm256_storeu_si256((__m256i *)out[6].l, _mm512_extracti64x4_epi64(r46, 1));
    _mm256_storeu_si256((__m256i *)out[5].l, _mm512_castsi512_si256(r57));
    _mm256_storeu_si256((__m256i *)out[7].l, _mm512_extracti64x4_epi64(r57, 1));
}

#endif
