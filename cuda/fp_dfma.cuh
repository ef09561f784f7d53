/*
 * fp_dfma.cuh: the BLS12-381 Fp Montgomery product on the FP64 (DFMA) pipe.
 *
 * DESIGN. An operand is split into 8 limbs of 48 bits (8 x 48 = 384, so
 * R = 2^384 as in field.cuh: the Montgomery form is the same number and
 * converting from/to the 12 x 32-bit czd_fp is only a repacking of bits,
 * no multiplication). Each limb is an exact double (< 2^48). The product
 * of two limbs (< 2^96) is split by two DFMAs at 2^48 (Emmart and Weems,
 * ARITH 2018, with the split moved from 2^52 to 2^48):
 *   hi = fma_rd(a, b, 2^100)            = 2^100 + h 2^48, h = floor(ab / 2^48)
 *   lo = fma_rn(a, b, (2^100 + 2^52) - hi) = 2^52 + (ab - h 2^48)
 * The sum a*b + 2^100 lies in [2^100, 2^101), where a double's unit is
 * 2^48, so rounding down gives exactly h; 2^100 + 2^52 - hi = 2^52 - h 2^48
 * is exact, and the second DFMA's exact result lies in [2^52, 2^53), where
 * the unit is 1, so it too is exact. The bit patterns of hi and lo are then
 * E100 + h and E52 + lo (E_k = the pattern of 2^k, a multiple of 2^52):
 * columns are summed as 64-bit integers of these raw patterns, and all the
 * E_k a column will ever receive are known at compile time, so each column
 * starts at minus their sum and ends holding its true value (a column takes
 * at most 32 terms < 2^48 plus a carry: < 2^54, no overflow). No double is
 * ever converted by a conversion instruction.
 * Montgomery reduction is operand scanning over the 16 columns (SOS): the
 * product a*b fills columns 0..15; round i (0..7) takes q = col_i * n0 mod
 * 2^48 (n0 = -p^-1 mod 2^48, one 64-bit integer product), adds q*p at
 * column i and moves col_i / 2^48 into col_{i+1}. The low half of q*p_0 is
 * not computed: it is (-col_i) mod 2^48 by the choice of q, so its carry is
 * (col_i >> 48) + (col_i mod 2^48 != 0). Columns 8..15 are then carried into
 * 8 limbs of 48 bits, repacked to 12 x 32 and reduced once.
 * Bounds: a, b < p (czd_fp's invariant; a < p and any 384-bit b also
 * works) give (ab + qp) / R < ab/R + p < 1.11 p: one subtraction.
 * Since p < 0.102 R, inputs < 2p give results < 4p^2/R + p < 1.41 p < 2p:
 * a form kept in these limbs could skip the final subtraction entirely.
 *
 * Operation counts per product (SASS-independent; the FP64 pipe does 64
 * DFMA/DADD per clock per SM on sm_90, as the IMAD pipe does IMADs):
 *   DFMA: product 64 x 2 = 128; reduction 64 hi + 56 lo = 120;  total 248
 *   DADD: product 64 (the 2^100 + 2^52 - hi), reduction 56, operand
 *         conversion 16, q conversion 8;                          total 144
 *   FP64 pipe: 392 operations (vs 588 32-bit IMADs of czd_fp::mul).
 *   Integer: 248 64-bit additions of raw patterns (about 2 32-bit ALU ops
 *   each, fewer where nvcc merges two terms into IADD3), 8 q products
 *   (3 IMAD each), 8 carries and 8 carry-outs of the final normalisation,
 *   ~40 shifts/masks for the repacking in and out, 12 sub + 12 select of
 *   the final reduction.
 * Two more forms below sum the columns differently: mont_mul_f on the
 * FP64 pipe only (512 FP64 ops, ~150 integer), mont_mul_h with the product
 * on the FP64 pipe and the reduction in integers (456 FP64 ops); which of
 * the three is fastest alone or beside czd_fp::mul is measured by
 * bench/fpmul_gpu.cu (docs/GPU-FP64.md).
 * Staying in this form through a point addition (limbs held as doubles,
 * results < 2p without the final subtraction) would save per product the
 * 16 operand conversions (DADD + LOP each), the repacking (~40 ALU ops)
 * and the final reduction (~24 ops): about 4 % of the FP64 work and 15 %
 * of the integer work; the additions and subtractions would then work on
 * 8 limbs of 48 bits in 64-bit integers, or lazily on doubles.
 */
#ifndef CZ_CUDA_FP_DFMA_CUH
#define CZ_CUDA_FP_DFMA_CUH

#include <stdint.h>

#include "field.cuh"

namespace czd_dfma {

constexpr uint64_t M48 = (1ull << 48) - 1;
constexpr uint64_t E52 = 0x4330000000000000ull;  /* bits of 2^52 */
constexpr uint64_t E100 = 0x4630000000000000ull; /* bits of 2^100 */
constexpr double TWO52 = 4503599627370496.0;     /* 2^52 */
constexpr double TWO100 = 1267650600228229401496703205376.0; /* 2^100 */
constexpr double TWO100_52 = TWO100 + TWO52;     /* exact: 2^52 is a multiple of ulp(2^100) = 2^48 */
constexpr uint64_t N0 = 0xfffcfffcfffdull;       /* -p^-1 mod 2^48 */

/* p in 48-bit limbs (p of src/field/constants.h, little-endian) */
CZD_INLINE double p48(int j)
{
    constexpr double P[8] = {(double)0xffffffffaaabull, (double)0xb153ffffb9feull,
                             (double)0xf6241eabfffeull, (double)0x6730d2a0f6b0ull,
                             (double)0x4b84f38512bfull, (double)0x434bacd76477ull,
                             (double)0xe69a4b1ba7b6ull, (double)0x1a0111ea397full};
    return P[j];
}

/* How many lo (weight 2^52 pattern) and hi (2^100 pattern) terms column k
   receives: the product and the reduction each put one lo at i + j and one
   hi at i + j + 1 for i, j < 8; the reduction's lo at (i, 0) is not added. */
constexpr int pairs_at(int k) { return k < 0 || k > 14 ? 0 : (k < 8 ? k + 1 : 15 - k); }
constexpr uint64_t col_offset(int k)
{
    return (uint64_t)(2 * pairs_at(k) - (k < 8 ? 1 : 0)) * E52 + (uint64_t)(2 * pairs_at(k - 1)) * E100;
}

/* an exact 48-bit integer to a double: 1 LOP + 1 DADD */
CZD_INLINE double u48_to_d(uint64_t x) { return __longlong_as_double((long long)(x | E52)) - TWO52; }

/* 12 x 32-bit limbs -> 8 x 48-bit limbs as doubles */
CZD_INLINE void unpack(double d[8], const uint32_t v[12])
{
#pragma unroll
    for (int m = 0; m < 4; m++) {
        uint64_t l0 = (uint64_t)v[3 * m] | ((uint64_t)(v[3 * m + 1] & 0xffffu) << 32);
        uint64_t l1 = (uint64_t)((v[3 * m + 1] >> 16) | (v[3 * m + 2] << 16)) | ((uint64_t)(v[3 * m + 2] >> 16) << 32);
        d[2 * m] = u48_to_d(l0);
        d[2 * m + 1] = u48_to_d(l1);
    }
}

/* limb i of a 12 x 32-bit value as a double (i a constant after unrolling) */
CZD_INLINE double limb_d(const uint32_t v[12], int i)
{
    const int m = i / 2;
    if (i % 2 == 0)
        return u48_to_d((uint64_t)v[3 * m] | ((uint64_t)(v[3 * m + 1] & 0xffffu) << 32));
    return u48_to_d((uint64_t)((v[3 * m + 1] >> 16) | (v[3 * m + 2] << 16)) | ((uint64_t)(v[3 * m + 2] >> 16) << 32));
}

/* 8 x 48-bit integer limbs -> 12 x 32 */
CZD_INLINE void pack(uint32_t v[12], const uint64_t r[8])
{
#pragma unroll
    for (int m = 0; m < 4; m++) {
        uint64_t l0 = r[2 * m], l1 = r[2 * m + 1];
        v[3 * m] = (uint32_t)l0;
        v[3 * m + 1] = (uint32_t)(l0 >> 32) | ((uint32_t)l1 << 16);
        v[3 * m + 2] = (uint32_t)(l1 >> 16);
    }
}

/* col_lo += low half of a*b, col_hi += high half (raw patterns) */
CZD_INLINE void mac(int64_t &col_lo, int64_t &col_hi, double a, double b)
{
    double hi = __fma_rd(a, b, TWO100);
    double lo = __fma_rn(a, b, TWO100_52 - hi);
    col_lo += __double_as_longlong(lo);
    col_hi += __double_as_longlong(hi);
}
CZD_INLINE void mac_hi(int64_t &col_hi, double a, double b)
{
    col_hi += __double_as_longlong(__fma_rd(a, b, TWO100));
}

/* out = x * y * 2^-384 mod p, fully reduced, for x < p, y < 2^384 */
CZD_INLINE void mont_mul(uint32_t out[12], const uint32_t x[12], const uint32_t y[12])
{
    double b[8];
    unpack(b, y);
    int64_t col[16];
#pragma unroll
    for (int k = 0; k < 16; k++)
        col[k] = -(int64_t)col_offset(k);
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const double ai = limb_d(x, i);
#pragma unroll
        for (int j = 0; j < 8; j++)
            mac(col[i + j], col[i + j + 1], ai, b[j]);
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        /* col_i holds its true value less the low half of q p_0 (its
           start value leaves that term's E52 out, col_offset) */
        uint64_t q = ((uint64_t)col[i] * N0) & M48;
        double qd = u48_to_d(q);
        mac_hi(col[i + 1], qd, p48(0));
#pragma unroll
        for (int j = 1; j < 8; j++)
            mac(col[i + j], col[i + j + 1], qd, p48(j));
        /* with the missing low half lo = -col_i mod 2^48 the column is a
           multiple of 2^48; its carry is col_i / 2^48 + (col_i mod 2^48 != 0) */
        const int64_t t = col[i];
        col[i + 1] += (t >> 48) + ((t & (int64_t)M48) != 0);
    }
    uint64_t r[8];
    int64_t c = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        int64_t s = col[8 + k] + c;
        r[k] = (uint64_t)s & M48;
        c = s >> 48;
    }
    uint32_t t[12];
    pack(t, r);
    czd_fp::reduce_once(out, t);
}

/* ---- the same product with the columns summed on the FP64 pipe ----
   mont_mul's integer column sums (248 64-bit additions) load the ALU pipe
   more than its 392 FP64 operations load the FP64 pipe. Here the columns
   stay in doubles: column k keeps H_k = 2^100 + 2^48 * (sum of the high
   halves landing there) and L_k = sum of the low halves. A high half is
   accumulated by the DFMA itself: hnew = fma_rd(a, b, H) is exactly
   H + floor(ab / 2^48) 2^48, because H is a multiple of 2^48, the unit of
   [2^100, 2^101) (at most 16 halves < 2^48 each keep H below 2^101); the
   low half is lo = fma_rn(a, b, -(hnew - H)) in [0, 2^48), and L_k (at most
   16 of them, < 2^52) is an exact double sum. A column is read as an
   integer (for q and for the carries) from the patterns of H_k and
   L_k + 2^52. Per product: DFMA 248, DADD 64 + 56 (hnew - H) + 49 + 56
   (L sums; the first low half of each column starts its sum) + 16 operand
   + 8 q + 15 column conversions = 264; FP64 pipe 512 operations (the PTX
   of a kernel has these counts); integer about
   16 column reads, 8 q products, 16 carries, the repacking and the final
   subtraction (~150 ALU ops). */
CZD_INLINE void mont_mul_f(uint32_t out[12], const uint32_t x[12], const uint32_t y[12])
{
    double b[8];
    unpack(b, y);
    double H[16], L[16];
    bool has_l[16];
#pragma unroll
    for (int k = 0; k < 16; k++) {
        H[k] = TWO100;
        L[k] = 0.0;
        has_l[k] = false;
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const double ai = limb_d(x, i); /* unpacked by rows: fewer live registers */
#pragma unroll
        for (int j = 0; j < 8; j++) {
            const int k = i + j;
            double hn = __fma_rd(ai, b[j], H[k + 1]);
            double lo = __fma_rn(ai, b[j], -(hn - H[k + 1]));
            H[k + 1] = hn;
            L[k] = has_l[k] ? L[k] + lo : lo;
            has_l[k] = true;
        }
    }
    int64_t carry = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        /* column i less the low half of q p_0 */
        const int64_t t = (__double_as_longlong(H[i]) - (int64_t)E100) +
                          (__double_as_longlong(L[i] + TWO52) - (int64_t)E52) + carry;
        uint64_t q = ((uint64_t)t * N0) & M48;
        double qd = u48_to_d(q);
        H[i + 1] = __fma_rd(qd, p48(0), H[i + 1]);
#pragma unroll
        for (int j = 1; j < 8; j++) {
            const int k = i + j;
            double hn = __fma_rd(qd, p48(j), H[k + 1]);
            double lo = __fma_rn(qd, p48(j), -(hn - H[k + 1]));
            H[k + 1] = hn;
            L[k] = L[k] + lo;
        }
        carry = (t >> 48) + ((t & (int64_t)M48) != 0);
    }
    uint64_t r[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const int64_t s = (__double_as_longlong(H[8 + k]) - (int64_t)E100) +
                          (__double_as_longlong(L[8 + k] + TWO52) - (int64_t)E52) + carry;
        r[k] = (uint64_t)s & M48;
        carry = s >> 48;
    }
    uint32_t t[12];
    pack(t, r);
    czd_fp::reduce_once(out, t);
}

/* ---- the hybrid: product columns on the FP64 pipe, reduction in integers ----
   The product a*b is summed as in mont_mul_f (H_k, L_k doubles, no integer
   work), each column is then read once into a 64-bit integer, and the
   reduction runs as in mont_mul (raw patterns added as integers). This
   puts the work between the two pipes: DFMA 248; DADD 64 + 49 (product)
   + 15 (column reads) + 56 (reduction) + 16 + 8 (conversions) = 208; FP64
   pipe 456; integer 30 column reads and 120 pattern additions (64-bit),
   plus the ~150 ops the others share. The product is summed column by
   column, so its live state is 16 integer columns and two doubles, not
   mont_mul_f's 30 doubles. */
constexpr uint64_t red_offset(int k)
{
    return (uint64_t)(pairs_at(k) - (k < 8 ? 1 : 0)) * E52 + (uint64_t)pairs_at(k - 1) * E100;
}

CZD_INLINE void mont_mul_h(uint32_t out[12], const uint32_t x[12], const uint32_t y[12])
{
    double a[8], b[8];
    unpack(a, x);
    unpack(b, y);
    /* product scanning: the pairs i + j = k form one chain for the high
       halves (into column k + 1) and one sum of the low halves (column k),
       read into the integer columns as soon as they are done, so that only
       two doubles of sums are live at a time. Each integer column starts
       less the offsets of the patterns the reduction will add (as
       mont_mul's col_offset). */
    int64_t col[16];
#pragma unroll
    for (int k = 0; k < 16; k++)
        col[k] = -(int64_t)red_offset(k);
#pragma unroll
    for (int k = 0; k < 15; k++) {
        double h = TWO100, l = 0.0;
#pragma unroll
        for (int i = 0; i < 8; i++) { /* constant bounds: fully unrolled */
            const int j = k - i;
            if (j < 0 || j > 7)
                continue;
            double hn = __fma_rd(a[i], b[j], h);
            double lo = __fma_rn(a[i], b[j], -(hn - h));
            h = hn;
            l = (i == (k < 8 ? 0 : k - 7)) ? lo : l + lo;
        }
        col[k] += __double_as_longlong(l + TWO52) - (int64_t)E52;
        col[k + 1] += __double_as_longlong(h) - (int64_t)E100;
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        uint64_t q = ((uint64_t)col[i] * N0) & M48;
        double qd = u48_to_d(q);
        mac_hi(col[i + 1], qd, p48(0));
#pragma unroll
        for (int j = 1; j < 8; j++)
            mac(col[i + j], col[i + j + 1], qd, p48(j));
        const int64_t t = col[i];
        col[i + 1] += (t >> 48) + ((t & (int64_t)M48) != 0);
    }
    uint64_t r[8];
    int64_t c = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        int64_t s = col[8 + k] + c;
        r[k] = (uint64_t)s & M48;
        c = s >> 48;
    }
    uint32_t t[12];
    pack(t, r);
    czd_fp::reduce_once(out, t);
}

} /* namespace czd_dfma */

/* czd_fp with a DFMA product (V = 0: mont_mul, 1: mont_mul_f, 2: mont_mul_h): the same
   bytes and the same add/sub, so czd_xyzz<czd_fp_dfma> is the MSM's point
   formula with its products on the FP64 pipe. */
template <int V>
struct czd_fp_dfma_t {
    czd_fp f;
    static CZD_INLINE czd_fp_dfma_t wrap(const czd_fp &x)
    {
        czd_fp_dfma_t r;
        r.f = x;
        return r;
    }
    static CZD_INLINE czd_fp_dfma_t zero() { return wrap(czd_fp::zero()); }
    static CZD_INLINE czd_fp_dfma_t one() { return wrap(czd_fp::one()); }
    CZD_INLINE bool is_zero() const { return f.is_zero(); }
    CZD_INLINE bool eq(const czd_fp_dfma_t &b) const { return f.eq(b.f); }
    static CZD_INLINE czd_fp_dfma_t add(const czd_fp_dfma_t &a, const czd_fp_dfma_t &b) { return wrap(czd_fp::add(a.f, b.f)); }
    static CZD_INLINE czd_fp_dfma_t sub(const czd_fp_dfma_t &a, const czd_fp_dfma_t &b) { return wrap(czd_fp::sub(a.f, b.f)); }
    static CZD_INLINE czd_fp_dfma_t dbl(const czd_fp_dfma_t &a) { return add(a, a); }
    static CZD_INLINE czd_fp_dfma_t neg(const czd_fp_dfma_t &a) { return wrap(czd_fp::neg(a.f)); }
    static CZD_INLINE czd_fp_dfma_t mul(const czd_fp_dfma_t &a, const czd_fp_dfma_t &b)
    {
        czd_fp_dfma_t r;
        if (V == 0)
            czd_dfma::mont_mul(r.f.v, a.f.v, b.f.v);
        else if (V == 1)
            czd_dfma::mont_mul_f(r.f.v, a.f.v, b.f.v);
        else
            czd_dfma::mont_mul_h(r.f.v, a.f.v, b.f.v);
        return r;
    }
    static CZD_INLINE czd_fp_dfma_t sqr(const czd_fp_dfma_t &a) { return mul(a, a); }
    CZD_INLINE czd_fp_dfma_t operator+(const czd_fp_dfma_t &b) const { return add(*this, b); }
    CZD_INLINE czd_fp_dfma_t operator-(const czd_fp_dfma_t &b) const { return sub(*this, b); }
    CZD_INLINE czd_fp_dfma_t operator*(const czd_fp_dfma_t &b) const { return mul(*this, b); }
};
typedef czd_fp_dfma_t<0> czd_fp_dfma;
typedef czd_fp_dfma_t<1> czd_fp_dfmaf;
typedef czd_fp_dfma_t<2> czd_fp_dfmah;

static_assert(sizeof(czd_fp_dfma) == 48 && sizeof(czd_fp_dfmaf) == 48 && sizeof(czd_fp_dfmah) == 48,
              "czd_fp_dfma must be the bytes of cz_fp");

#endif
