/*
 * mont_impl.h: portable Montgomery arithmetic over N 64-bit limbs.
 *
 * DESIGN. One body of code serves Fp (N = 6) and Fr (N = 4): the including
 * file defines MONT_N, MONT_T (the element type), MONT(name) (the name
 * prefix), MONT_P (modulus limbs) and MONT_N0 (-m^-1 mod 2^64), then
 * includes this file, which defines static inline functions. Both moduli
 * are below 2^(64N-1), so sums and Montgomery products stay below 2m in N
 * limbs and need only one conditional subtraction. All code here is
 * constant time: selections are masks, loops have fixed bounds.
 *
 * Costs (N limbs): mul = 2N^2 + N 64x64 products (CIOS); the portable sqr
 * is the product. Where the compiler targets x86-64 with BMI2 and ADX, the
 * end of this file routes mul, sqr, add and sub to the generated assembly
 * of mont_x86_64.h (tools/gen_mont_asm.py): sqr there takes N^2 + N(N+1)/2
 * products. The portable functions stay compiled (the *_portable_ names)
 * and field_internal.h exports them so the tests compare the two.
 */
typedef unsigned __int128 cz_u128;

static const uint64_t MONT(p_)[MONT_N] = MONT_P;

/* out = t - m if t >= m else t; t < 2m. */
static inline void MONT(reduce_once)(uint64_t out[MONT_N], const uint64_t t[MONT_N])
{
    uint64_t d[MONT_N], borrow = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)t[i] - MONT(p_)[i] - borrow;
        d[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t keep = 0 - borrow; /* all ones: t < m, keep t */
    for (int i = 0; i < MONT_N; i++)
        out[i] = (t[i] & keep) | (d[i] & ~keep);
}

static inline void MONT(add_portable_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    uint64_t s[MONT_N], c = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)a[i] + b[i] + c;
        s[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    MONT(reduce_once)(out, s);
}

static inline void MONT(sub_portable_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    uint64_t d[MONT_N], borrow = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)a[i] - b[i] - borrow;
        d[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t mask = 0 - borrow, c = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)d[i] + (MONT(p_)[i] & mask) + c;
        out[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
}

/* CIOS Montgomery product: out = a*b/R mod m. Needs a*b < m*R (e.g. a < m,
   b < 2^(64N)); the result is then < 2m before the final subtraction. */
static inline void MONT(mul_portable_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    uint64_t t[MONT_N + 1] = {0};
    for (int i = 0; i < MONT_N; i++) {
        uint64_t c = 0;
        for (int j = 0; j < MONT_N; j++) {
            cz_u128 x = (cz_u128)a[j] * b[i] + t[j] + c;
            t[j] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        uint64_t top = t[MONT_N] + c; /* no overflow: t < 2m < 2^(64N) */
        uint64_t q = t[0] * MONT_N0;
        cz_u128 x = (cz_u128)q * MONT(p_)[0] + t[0];
        c = (uint64_t)(x >> 64);
        for (int j = 1; j < MONT_N; j++) {
            x = (cz_u128)q * MONT(p_)[j] + t[j] + c;
            t[j - 1] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        x = (cz_u128)top + c;
        t[MONT_N - 1] = (uint64_t)x;
        t[MONT_N] = (uint64_t)(x >> 64);
    }
    MONT(reduce_once)(out, t);
}

/* out (2N words) = a * b, schoolbook; any a, b < 2^(64N). */
static inline void MONT(mul_wide_portable_)(uint64_t out[2 * MONT_N], const uint64_t a[MONT_N],
                                            const uint64_t b[MONT_N])
{
    for (int i = 0; i < 2 * MONT_N; i++)
        out[i] = 0;
    for (int i = 0; i < MONT_N; i++) {
        uint64_t c = 0;
        for (int j = 0; j < MONT_N; j++) {
            cz_u128 x = (cz_u128)a[j] * b[i] + out[i + j] + c;
            out[i + j] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        out[i + MONT_N] = c;
    }
}

/* out = in / R mod m for in < m R: N reduction rounds on the low half give
   (L + Q m) / R <= m, plus the high half H < m: < 2m, one subtraction. */
static inline void MONT(redc_portable_)(uint64_t out[MONT_N], const uint64_t in[2 * MONT_N])
{
    uint64_t t[MONT_N];
    for (int i = 0; i < MONT_N; i++)
        t[i] = in[i];
    for (int i = 0; i < MONT_N; i++) {
        uint64_t q = t[0] * MONT_N0, c;
        cz_u128 x = (cz_u128)q * MONT(p_)[0] + t[0];
        c = (uint64_t)(x >> 64);
        for (int j = 1; j < MONT_N; j++) {
            x = (cz_u128)q * MONT(p_)[j] + t[j] + c;
            t[j - 1] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        t[MONT_N - 1] = c; /* (T + q m) / 2^64 < 2^(64(N-1)) + m: N words */
    }
    uint64_t s[MONT_N], c = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)t[i] + in[MONT_N + i] + c;
        s[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
    MONT(reduce_once)(out, s);
}

/* out (2N words) = a - b mod m * 2^(64N), for a, b < m * 2^(64N) */
static inline void MONT(wsub_portable_)(uint64_t out[2 * MONT_N], const uint64_t a[2 * MONT_N],
                                        const uint64_t b[2 * MONT_N])
{
    uint64_t borrow = 0, c = 0;
    for (int i = 0; i < 2 * MONT_N; i++) {
        cz_u128 x = (cz_u128)a[i] - b[i] - borrow;
        out[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t mask = 0 - borrow;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)out[MONT_N + i] + (MONT(p_)[i] & mask) + c;
        out[MONT_N + i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
}

/* out = a + b as plain integers (no reduction); a + b < 2^(64N) */
static inline void MONT(add_nr_portable_)(uint64_t out[MONT_N], const uint64_t a[MONT_N],
                                          const uint64_t b[MONT_N])
{
    uint64_t c = 0;
    for (int i = 0; i < MONT_N; i++) {
        cz_u128 x = (cz_u128)a[i] + b[i] + c;
        out[i] = (uint64_t)x;
        c = (uint64_t)(x >> 64);
    }
}

/* The add, subtract and product every other function uses: the mulx/adx
   assembly of mont_x86_64.h where the compiler targets BMI2 + ADX on x86-64
   (the including file names it with MONT_ASM(op)), else the portable code
   above. Defining CZ_NO_ASM forces the portable path; so does -O0, where
   GCC cannot fit the assembly's 13 registers (it gives memory operands
   registers of their own). */
#if defined(MONT_ASM) && defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && \
    defined(__OPTIMIZE__) && !defined(CZ_NO_ASM)
#ifdef MONT_ASM_HEADER
#include MONT_ASM_HEADER /* another curve's generated assembly (bn254_fp.c) */
#else
#include "field/mont_x86_64.h"
#endif
#define MONT_HAVE_ASM 1
#define MONT_PICK(op) MONT_ASM(op)
#else
#define MONT_HAVE_ASM 0
#define MONT_PICK(op) MONT(op##_portable_)
#endif

static inline void MONT(mul_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    MONT_PICK(mul)(out, a, b);
}

/* a^2: the dedicated assembly square where built, else the product */
static inline void MONT(sqr_)(uint64_t out[MONT_N], const uint64_t a[MONT_N])
{
#if MONT_HAVE_ASM
    MONT_ASM(sqr)(out, a);
#else
    MONT(mul_portable_)(out, a, a);
#endif
}

static inline void MONT(mul_wide_)(uint64_t out[2 * MONT_N], const uint64_t a[MONT_N],
                                   const uint64_t b[MONT_N])
{
    MONT_PICK(mul_wide)(out, a, b);
}

static inline void MONT(redc_)(uint64_t out[MONT_N], const uint64_t in[2 * MONT_N])
{
    MONT_PICK(redc)(out, in);
}

static inline void MONT(wsub_)(uint64_t out[2 * MONT_N], const uint64_t a[2 * MONT_N],
                                const uint64_t b[2 * MONT_N])
{
    MONT_PICK(wsub)(out, a, b);
}

static inline void MONT(add_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    MONT_PICK(add)(out, a, b);
}

static inline void MONT(sub_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    MONT_PICK(sub)(out, a, b);
}

static inline void MONT(add_nr_)(uint64_t out[MONT_N], const uint64_t a[MONT_N], const uint64_t b[MONT_N])
{
    MONT_PICK(add_nr)(out, a, b);
}
