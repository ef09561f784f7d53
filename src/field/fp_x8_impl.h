/*
 * fp_x8_impl.h: the eight-lane radix-2^52 arithmetic of fp_x8.c (BLS12-381)
 * and bn254_fp_x8.c (BN254), written once over the number of limbs and
 * included by both, which define first
 *   X8_NL          the limbs of a lane (8 for BLS12-381, 5 for BN254)
 *   X8_NW          the 64-bit words of an element (6, 4)
 *   X8_P52         the name of the modulus' X8_NL 52-bit limbs (uint64_t[])
 *   X8_N0          -p^-1 mod 2^52
 *   X8_FE          the field element type (cz_fp, cz_bn254_fp)
 *   X8_FE_MUL      its scalar product (the fallback without IFMA)
 *   X8_V8          the eight-lane type (cz_fp_v8, cz_bn254_fp_v8)
 *   X8_V8_(op)     its functions' prefix (cz_fp_v8_, cz_bn254_fp_v8_)
 *   X8_SHL, X8_SHIFT   the shift by 2^s and s (cz_fp_v8_shl32, 32: R' / R,
 *                  the lanes' Montgomery radix over the scalar form's)
 *   X8_MUL_X8, X8_IS_SIMD   the entry points (cz_fp_mul_x8, ..._is_simd)
 *   X8_HAVE        whether IFMA is compiled (CZ_FP_HAVE_X8, ...)
 * and, where X8_HAVE, the type V (__m512i) and MASK52. The curve's file
 * defines X8_V8_(load) and X8_V8_(store) after it (their transposes
 * depend on the words of an element; they use limbs_of_words and
 * words_of_limbs from here). The scheme (a word-by-word Montgomery
 * product with R' = 2^(52 X8_NL), carries kept in the lanes' 12 spare
 * bits) is described at the top of fp_x8.c; bn254_fp_x8.c counts its
 * instructions. Every loop is unrolled completely (GCC's own limits left
 * the product's rounds rolled, its limbs in memory: 2x slower).
 */

#if X8_HAVE

/* bits [start, start + 52) of the integer with words w[0..nw) (start may be
   negative: zeros below bit 0) */
static inline __attribute__((always_inline)) V ext52(const V *w, int nw, int start)
{
    V r = _mm512_setzero_si512();
    #pragma GCC unroll 8
    for (int k = 0; k < nw; k++) {
        int sh = 64 * k - start; /* where word k's bit 0 lands in the limb */
        if (sh >= 52 || sh <= -64)
            continue;
        r = _mm512_or_si512(r, sh >= 0 ? _mm512_slli_epi64(w[k], (unsigned)sh)
                                       : _mm512_srli_epi64(w[k], (unsigned)-sh));
    }
    return _mm512_and_si512(r, _mm512_set1_epi64((long long)MASK52));
}

/* out = the limbs of the eight elements whose words are w[0..X8_NW)
   (word k of element e in lane e of w[k]), times 2^X8_SHIFT when shift
   (w has room for one more word) */
static inline __attribute__((always_inline)) void limbs_of_words(X8_V8 *out, V w[X8_NW + 1],
                                                                 int shift)
{
    int nw = X8_NW;
    if (shift) { /* the words shifted up by X8_SHIFT bits */
        w[X8_NW] = _mm512_srli_epi64(w[X8_NW - 1], 64 - X8_SHIFT);
        #pragma GCC unroll 8
        for (int k = X8_NW - 1; k > 0; k--)
            w[k] = _mm512_or_si512(_mm512_slli_epi64(w[k], X8_SHIFT),
                                   _mm512_srli_epi64(w[k - 1], 64 - X8_SHIFT));
        w[0] = _mm512_slli_epi64(w[0], X8_SHIFT);
        nw = X8_NW + 1;
    }
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        out->l[j] = ext52(w, nw, 52 * j);
}

/* col[k] = word k of the eight elements of a (fully reduced), k < X8_NW */
static inline __attribute__((always_inline)) void words_of_limbs(V col[X8_NW], const X8_V8 *a)
{
    V t[X8_NL];
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        t[j] = a->l[j];
    #pragma GCC unroll 8
    for (int k = 0; k < X8_NW; k++) {
        V r = _mm512_setzero_si512();
        #pragma GCC unroll 8
        for (int j = 0; j < X8_NL; j++) {
            int sh = 52 * j - 64 * k; /* where limb j's bit 0 lands in word k */
            if (sh >= 64 || sh <= -52)
                continue;
            r = _mm512_or_si512(r, sh >= 0 ? _mm512_slli_epi64(t[j], (unsigned)sh)
                                           : _mm512_srli_epi64(t[j], (unsigned)-sh));
        }
        col[k] = r;
    }
}

void X8_SHL(X8_V8 *out, const X8_V8 *a)
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    V prev = _mm512_setzero_si512();
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++) {
        V cur = a->l[j];
        out->l[j] = _mm512_and_si512(_mm512_or_si512(_mm512_slli_epi64(cur, X8_SHIFT),
                                                     _mm512_srli_epi64(prev, 52 - X8_SHIFT)),
                                     mask);
        prev = cur;
    }
}

void X8_V8_(mont)(X8_V8 *out, const X8_V8 *a, const X8_V8 *b)
{
    V A[X8_NL], B[X8_NL], P[X8_NL], t[X8_NL + 1];
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++) {
        A[j] = a->l[j];
        B[j] = b->l[j];
        P[j] = _mm512_set1_epi64((long long)X8_P52[j]);
    }
    const V zero = _mm512_setzero_si512(), n0 = _mm512_set1_epi64((long long)X8_N0);
    const V mask = _mm512_set1_epi64((long long)MASK52);
    #pragma GCC unroll 9
    for (int j = 0; j < X8_NL + 1; j++)
        t[j] = zero;
    #pragma GCC unroll 8
    for (int i = 0; i < X8_NL; i++) {
        #pragma GCC unroll 8
        for (int j = 0; j < X8_NL; j++) {
            t[j] = _mm512_madd52lo_epu64(t[j], A[j], B[i]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], A[j], B[i]);
        }
        V q = _mm512_madd52lo_epu64(zero, t[0], n0);
        /* t[0] + lo(q p0) is t[0] rounded up to a multiple of 2^52: carry
           ceil(t[0] / 2^52) up without that product, shift down a limb */
        t[1] = _mm512_madd52hi_epu64(t[1], q, P[0]);
        #pragma GCC unroll 8
        for (int j = 1; j < X8_NL; j++) {
            t[j] = _mm512_madd52lo_epu64(t[j], q, P[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], q, P[j]);
        }
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(_mm512_add_epi64(t[0], mask), 52));
        #pragma GCC unroll 8
        for (int j = 0; j < X8_NL; j++)
            t[j] = t[j + 1];
        t[X8_NL] = zero;
    }
    /* settle the carries (T < 2p: the top limb takes the rest), then
       T - p; keep T where that borrows */
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL - 1; j++) {
        t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
        t[j] = _mm512_and_si512(t[j], mask);
    }
    V d[X8_NL], c = zero;
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++) {
        V s = _mm512_add_epi64(_mm512_sub_epi64(t[j], P[j]), c);
        c = _mm512_srai_epi64(s, 52);
        d[j] = _mm512_and_si512(s, mask);
    }
    __mmask8 keep = _mm512_cmplt_epi64_mask(c, zero); /* T < p */
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        out->l[j] = _mm512_mask_blend_epi64(keep, d[j], t[j]);
}

/* carries of signed limbs up the lanes; returns the last carry (0 or -1
   for the callers' values) */
static inline __attribute__((always_inline)) V settle(V t[X8_NL])
{
    const V mask = _mm512_set1_epi64((long long)MASK52);
    V c = _mm512_setzero_si512();
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++) {
        V s = _mm512_add_epi64(t[j], c);
        c = _mm512_srai_epi64(s, 52);
        t[j] = _mm512_and_si512(s, mask);
    }
    return c;
}

void X8_V8_(add_nr)(X8_V8 *out, const X8_V8 *a, const X8_V8 *b)
{
    V t[X8_NL];
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        t[j] = _mm512_add_epi64(a->l[j], b->l[j]);
    settle(t);
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        out->l[j] = t[j];
}

void X8_V8_(add)(X8_V8 *out, const X8_V8 *a, const X8_V8 *b)
{
    V t[X8_NL], d[X8_NL];
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        t[j] = _mm512_add_epi64(a->l[j], b->l[j]);
    settle(t);
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        d[j] = _mm512_sub_epi64(t[j], _mm512_set1_epi64((long long)X8_P52[j]));
    V c = settle(d);
    __mmask8 keep = _mm512_cmplt_epi64_mask(c, _mm512_setzero_si512()); /* a + b < p */
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        out->l[j] = _mm512_mask_blend_epi64(keep, d[j], t[j]);
}

void X8_V8_(sub)(X8_V8 *out, const X8_V8 *a, const X8_V8 *b)
{
    V t[X8_NL], d[X8_NL];
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        t[j] = _mm512_sub_epi64(a->l[j], b->l[j]);
    V c = settle(t);
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        d[j] = _mm512_add_epi64(t[j], _mm512_set1_epi64((long long)X8_P52[j]));
    settle(d);
    __mmask8 neg = _mm512_cmplt_epi64_mask(c, _mm512_setzero_si512()); /* a < b */
    #pragma GCC unroll 8
    for (int j = 0; j < X8_NL; j++)
        out->l[j] = _mm512_mask_blend_epi64(neg, t[j], d[j]);
}

void X8_MUL_X8(X8_FE out[8], const X8_FE a[8], const X8_FE b[8])
{
    X8_V8 A, B;
    X8_V8_(load)(&A, a, 1);
    X8_V8_(load)(&B, b, 0);
    X8_V8_(mont)(&A, &A, &B);
    X8_V8_(store)(out, &A);
}

int X8_IS_SIMD(void) { return 1; }

#else

void X8_MUL_X8(X8_FE out[8], const X8_FE a[8], const X8_FE b[8])
{
    for (int e = 0; e < 8; e++)
        X8_FE_MUL(&out[e], &a[e], &b[e]);
}

int X8_IS_SIMD(void) { return 0; }

#endif
