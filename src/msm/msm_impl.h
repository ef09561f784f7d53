/*
 * msm_impl.h: Pippenger and the bit-sum of msm.h, written once over a
 * group and included by msm_g1.c and msm_g2.c, which define
 *   FE, FE_(op)     the coordinate field (cz_fp / cz_fp2) and its functions
 *   FE_IS_ZERO      its inline zero test (field/fp_inline.h)
 *   G_(op)          the curve prefix (cz_g1_ / cz_g2_)
 *   AFF, JAC, XYZZ  the point types
 *   IS_G2           0 or 1
 * and, for a curve other than BLS12-381 (all default to BLS12-381's):
 *   MSM_BF, MSM_BF_(op)   the base field Fp of the batched inversions
 *                         (cz_fp), MSM_BF_ADD_I / MSM_BF_NEG_I its inline
 *                         addition and negation
 *   MSM_X8          whether the eight-lane IFMA flush is compiled
 *                   (CZ_FP_HAVE_X8), and with it
 *   MSM_V8, MSM_V8_(op)   the eight-lane type and its load / store / mont /
 *                   add / sub / add_nr (cz_fp_v8, field/fp_x8.h)
 *   MSM_V8_SHL, MSM_V8_SHIFT   the lanes' shift by 2^s and s (cz_fp_v8_shl32,
 *                   32: the lanes' R' over the cz form's R)
 *   MSM_X8_ON       an expression: take the eight-lane code at run time
 *                   (default 1; BN254's tests switch it off to compare)
 *   MSM_SC          the scalar type of the entry point (cz_fr)
 *   MSM_PREPARE     the scalar preparation (cz_msm_prepare_'s signature,
 *                   over MSM_SC scalars)
 *   MSM_BITS        bits + 1 of the largest reduced scalar (256: r < 2^255)
 *   MSM_GLV_SIGNED  1: G1's GLV split is the curve's G_(glv_split) (signed
 *                   halves below 2^128) on P and G_(endo)(P); 0 (default):
 *                   BLS12-381's k1 + k2 z^2 on P and (beta x, -y)
 *
 * Batched affine additions (per pending pair (B, P), B a bucket, P a point
 * with y possibly negated), after one inversion of the product of all
 * denominators:
 *   den = xP - xB                 (or 2yB when P == B: doubling)
 *   lambda = (yP - yB) / den      (or 3xB^2 / den)
 *   x3 = lambda^2 - xB - xP,  y3 = lambda (xB - x3) - yB
 * Cost 5M + 1S each (prefix product 1M, unwinding 2M, lambda 1M, y3 1M,
 * lambda^2 1S) plus a share of the inversion. P == -B empties the bucket.
 * In G2 the inversion runs over the norms in Fp (binv_push_ below): the
 * prefix and unwinding cost 2S + 5M of Fp instead of 3 Fp2 products.
 * With AVX-512 IFMA (CZ_FP_HAVE_X8; field/bn254_fp_x8.h for BN254) a batch
 * of 64 or more goes through ba_flush_x8_: pair k takes lane k % 8 of
 * eight-lane products (field/fp_x8.h), each lane two prefix chains (the
 * groups of eight, even and odd, interleaved), the sixteen chain products
 * inverted together; the products stay in the lanes' radix-2^52 form
 * from one to the next, the additions and special cases stay scalar.
 * The bucket reductions and bit-sums (batch_add_) take the same code
 * (add_x8_) for 64 or more additions.
 * GLV for G1: G_(msm) below.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/mem.h"

#ifndef MSM_BF
#define MSM_BF cz_fp
#define MSM_BF_(op) cz_fp_##op
#define MSM_BF_ADD_I cz_fp_add_i
#define MSM_BF_NEG_I cz_fp_neg_i
#endif
#ifndef MSM_X8
#define MSM_X8 CZ_FP_HAVE_X8
#endif
#if MSM_X8 && !defined(MSM_V8)
#define MSM_V8 cz_fp_v8
#define MSM_V8_(op) cz_fp_v8_##op
#define MSM_V8_SHL cz_fp_v8_shl32
#define MSM_V8_SHIFT 32
#endif
#ifndef MSM_X8_ON
#define MSM_X8_ON 1
#endif
#ifndef MSM_SC
#define MSM_SC cz_fr
#define MSM_PREPARE cz_msm_prepare_
#endif
#ifndef MSM_BITS
#define MSM_BITS 256
#endif
#ifndef MSM_GLV_SIGNED
#define MSM_GLV_SIGNED 0
#endif

#define OP_NEG 0x80000000u
#define OP_IDX 0x7fffffffu

typedef struct {
    uint32_t bk;   /* bucket */
    uint32_t pt;   /* point index | OP_NEG */
} G_(op_);

/* One task's buckets: affine buckets with batched additions, and XYZZ
   overflow buckets for additions that keep colliding (many equal digits). */
typedef struct {
    const AFF *pts;
    size_t nb;
    AFF *bk;
    uint8_t *has;
    uint32_t *stamp, epoch;
    G_(op_) *batch, *queue;
    size_t b_n, q_n, cap, q_cap;
    FE *pref, *den;
    uint8_t *kind;
#if MSM_X8
    /* per group of eight (flush_x8_): G1 den 2^32, prefix; G2 also
       conj(den) (vd0, vd1); vden holds its norm 2^32 */
    MSM_V8 *vden, *vpref, *vd0, *vd1;
    AFF **Ap;
    const AFF **Pp;
    uint8_t *negf;
#endif
    XYZZ *ov;       /* lazily allocated */
    uint8_t *ov_has;
    bool nomem;
} G_(ba_);

static inline void G_(load_pt_)(FE *x, FE *y, const AFF *pts, uint32_t pt)
{
    const AFF *p = &pts[pt & OP_IDX];
    *x = p->x;
    if (pt & OP_NEG)
        FE_(neg)(y, &p->y);
    else
        *y = p->y;
}

/* The batched inversion runs over Fp in both groups. G1 inverts the
   denominators themselves; G2 inverts their norms N(d) = d0^2 + d1^2 in Fp
   (nonzero for d != 0: -1 is not a square mod p) and takes
   1/d = conj(d) / N(d): per addition 2S + 1M (norm, prefix) and 4M
   (unwinding, conj(d) / N) of Fp instead of 3 Fp2 products (~230 against
   ~310 ns here). slot holds the prefix product before this element (G1),
   or (prefix, norm) as the two Fp halves of an Fp2 (G2). */
#if IS_G2
static inline void G_(binv_push_)(MSM_BF *acc, FE *slot, const FE *den)
{
    MSM_BF t;
    slot->c0 = *acc;
    MSM_BF_(sqr)(&slot->c1, &den->c0);
    MSM_BF_(sqr)(&t, &den->c1);
    MSM_BF_ADD_I(&slot->c1, &slot->c1, &t);
    MSM_BF_(mul)(acc, acc, &slot->c1);
}

/* t = 1/den from inv = 1/(prefix * norm * later norms); inv drops this norm */
static inline void G_(binv_pop_)(FE *t, MSM_BF *inv, const FE *slot, const FE *den)
{
    MSM_BF ti, nd1;
    MSM_BF_(mul)(&ti, inv, &slot->c0);           /* 1/N(den) */
    MSM_BF_(mul)(inv, inv, &slot->c1);
    MSM_BF_NEG_I(&nd1, &den->c1);
    MSM_BF_(mul)(&t->c0, &den->c0, &ti);
    MSM_BF_(mul)(&t->c1, &nd1, &ti);
}
#else
static inline void G_(binv_push_)(MSM_BF *acc, FE *slot, const FE *den)
{
    *slot = *acc;
    MSM_BF_(mul)(acc, acc, den);
}

static inline void G_(binv_pop_)(FE *t, MSM_BF *inv, const FE *slot, const FE *den)
{
    MSM_BF_(mul)(t, inv, slot);
    MSM_BF_(mul)(inv, inv, den);
}
#endif

#if MSM_X8
/* A batch of affine additions for the eight-lane code: A[k] += P[k], or
   -P[k] where neg[k] (neg may be NULL), for k < n; the A[k] distinct, none
   of the points infinity; an A[k] that cancels becomes infinity and gets
   kind[k] = 2. Scratch: den, kind (n + 8), the v8 arrays (n / 8 + 1;
   vd0, vd1 for G2 only). */
typedef struct {
    size_t n;
    AFF *const *A;
    const AFF *const *P;
    const uint8_t *neg;
    FE *den;
    uint8_t *kind;
    MSM_V8 *vden, *vpref, *vd0, *vd1;
} G_(x8job_);

/* The cz form (MSM_BF, R = 2^(64 limbs)) of 2^(MSM_V8_SHIFT k): lane forms
   are [x]' = x R 2^MSM_V8_SHIFT, so [1]' is the cz value 2^MSM_V8_SHIFT. */
static void G_(x8_pow2_)(MSM_BF *out, int k)
{
    uint64_t l[sizeof(MSM_BF) / 8] = {0};
    int b = MSM_V8_SHIFT * k;
    l[b / 64] = (uint64_t)1 << (b % 64);
    MSM_BF_(from_limbs)(out, l);
}

/* acc = [1]' in every lane (2^416 mod p for BLS12-381, whose cz_fp form
   is 2^32; 2^260 mod p for BN254, 2^4). */
static void G_(x8_prefix_start_)(MSM_V8 *acc)
{
    MSM_BF one_p, c8[8];
    G_(x8_pow2_)(&one_p, 1);
    for (int e = 0; e < 8; e++)
        c8[e] = one_p;
    MSM_V8_(load)(acc, c8, 0);
}

/* The chain products of two interleaved chains of eight lanes (groups
   g even and odd: two independent product chains hide the latency of one
   lane product, which is about twice its throughput), inverted with one
   inversion: lane e of acc[h] holds [A]', which as a cz value is A 2^s
   (s = MSM_V8_SHIFT); its inverse as a cz value, times the cz value of
   2^(2s), is [1/A]', loaded into vinv[h]. */
static void G_(x8_invert_lanes_)(MSM_V8 vinv[2], const MSM_V8 acc[2])
{
    MSM_BF c[16], inv[16], q[16], iv, k2s;
    MSM_V8_(store)(c, &acc[0]);
    MSM_V8_(store)(c + 8, &acc[1]);
    q[0] = c[0];
    for (int e = 1; e < 16; e++)
        MSM_BF_(mul)(&q[e], &q[e - 1], &c[e]);
    G_(x8_pow2_)(&k2s, 2);
    MSM_BF_(inv_var)(&iv, &q[15]);
    MSM_BF_(mul)(&iv, &iv, &k2s);
    for (int e = 15; e > 0; e--) {
        MSM_BF_(mul)(&inv[e], &iv, &q[e - 1]);
        MSM_BF_(mul)(&iv, &iv, &c[e]);
    }
    inv[0] = iv;
    MSM_V8_(load)(&vinv[0], inv, 0);
    MSM_V8_(load)(&vinv[1], inv + 8, 0);
}

/* Pass 1a of both eight-lane flushes: den[k] = x(P) - x(A) and its kind
   (0 an addition, 1 a doubling with den = 2y, 2 a cancellation with den =
   1, 3 a padding lane up to 8 ng with den = 1). */
static void G_(x8_denominators_)(const G_(x8job_) *j, size_t ng)
{
    size_t n = j->n;
    FE one;
    FE_(one)(&one);
    for (size_t k = 0; k < n; k++) {
        if (k + 8 < n) { /* buckets and points are scattered over MiBs: fetch ahead */
            const char *pf = (const char *)j->A[k + 8];
            for (size_t o = 0; o < sizeof(AFF); o += 64)
                __builtin_prefetch(pf + o);
            __builtin_prefetch(pf + sizeof(AFF) - 1);
            pf = (const char *)j->P[k + 8];
            for (size_t o = 0; o < sizeof(AFF); o += 64)
                __builtin_prefetch(pf + o);
            __builtin_prefetch(pf + sizeof(AFF) - 1);
        }
        const AFF *b = j->A[k];
        const AFF *p = j->P[k];
        FE *den = &j->den[k];
        FE_(sub)(den, &p->x, &b->x);
        uint8_t kd = 0;
        if (FE_IS_ZERO(den)) {
            FE y;
            if (j->neg && j->neg[k])
                FE_(neg)(&y, &p->y);
            else
                y = p->y;
            if (FE_(eq)(&y, &b->y)) {
                kd = 1;
                FE_(dbl)(den, &b->y);
            } else {
                kd = 2;
                *den = one;
            }
        }
        j->kind[k] = kd;
    }
    for (size_t k = n; k < 8 * ng; k++) {
        j->den[k] = one;
        j->kind[k] = 3; /* padding */
    }
}
#endif

#if !IS_G2 && MSM_X8
/* G1 with eight-lane Fp products (field/fp_x8.h): pair k belongs to lane
   k % 8, each lane two prefix-product chains (groups 8g..8g+7 with g even,
   g odd: two independent chains of lane products run at about the
   throughput of one, a single chain at its latency) built in pass 1 and
   unwound backwards in pass 2; the sixteen chain products are inverted
   together. Every product
   of an addition (prefix, the two of the unwinding, lambda, lambda^2, y3)
   runs eight at a time, chained in the lanes' form (the prefixes and
   inverses as [x]' = x 2^416 mod p, the rest as cz_fp values, see
   fp_x8.h); the additions and subtractions stay scalar. Lanes padding the
   last group, and pairs P == -B, multiply by one and are skipped. Same
   results as the scalar flush below. */
static void G_(add_x8_)(const G_(x8job_) *j)
{
    size_t n = j->n, ng = (n + 7) / 8;
    G_(x8_denominators_)(j, ng); /* pass 1a */
    /* pass 1b: prefix products, lane by lane, in the lanes' radix-2^52
       form (fp_x8.h): the prefixes in the [x]' = x 2^416 form, the
       denominators as [den] 2^32; mont of the two stays in [.]' */
    MSM_V8 acc[2], v, w;
    G_(x8_prefix_start_)(&acc[0]);
    acc[1] = acc[0];
    for (size_t g = 0; g < ng; g++) {
        j->vpref[g] = acc[g & 1];
        MSM_V8_(load)(&j->vden[g], &j->den[8 * g], 1);
        MSM_V8_(mont)(&acc[g & 1], &acc[g & 1], &j->vden[g]);
    }
    MSM_V8 vinv[2], t, lam;
    G_(x8_invert_lanes_)(vinv, acc);
    /* pass 2, backwards group by group (lambda as in the scalar flush) */
    MSM_BF num[8], l2[8], d[8];
    bool flip[8];
    for (size_t g = ng; g-- > 0;) {
        MSM_V8_(mont)(&t, &vinv[g & 1], &j->vpref[g]); /* [1/den]' */
        MSM_V8_(mont)(&vinv[g & 1], &vinv[g & 1], &j->vden[g]);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            uint8_t kd = j->kind[k];
            flip[e] = false;
            if (kd == 0) {
                const AFF *b = j->A[k];
                const AFF *p = j->P[k];
                flip[e] = j->neg && j->neg[k];
                if (flip[e])
                    FE_(add)(&num[e], &p->y, &b->y);
                else
                    FE_(sub)(&num[e], &p->y, &b->y);
            } else if (kd == 1) {
                const AFF *b = j->A[k];
                FE u;
                FE_(sqr)(&num[e], &b->x);
                FE_(dbl)(&u, &num[e]);
                FE_(add)(&num[e], &num[e], &u);
            } else {
                MSM_BF_(zero)(&num[e]);
            }
        }
        MSM_V8_(load)(&v, num, 0);
        MSM_V8_(mont)(&lam, &v, &t);                  /* [lambda] */
        MSM_V8_SHL(&v, &lam);
        MSM_V8_(mont)(&w, &v, &lam);                  /* [lambda^2] */
        MSM_V8_(store)(l2, &w);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            if (j->kind[k] > 1) {
                MSM_BF_(zero)(&d[e]);
                continue;
            }
            const AFF *b = j->A[k];
            const AFF *p = j->P[k];
            FE_(sub)(&l2[e], &l2[e], &b->x);
            FE_(sub)(&l2[e], &l2[e], &p->x);          /* x3 (xP = xB when doubling) */
            if (flip[e])
                FE_(sub)(&d[e], &l2[e], &b->x);
            else
                FE_(sub)(&d[e], &b->x, &l2[e]);
        }
        MSM_V8_(load)(&v, d, 1);
        MSM_V8_(mont)(&w, &v, &lam);                  /* [(xB - x3) lambda] */
        MSM_V8_(store)(d, &w);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            uint8_t kd = j->kind[k];
            if (kd == 3)
                continue;
            AFF *b = j->A[k];
            if (kd == 2) {
                G_(affine_infinity)(b);
                continue;
            }
            FE_(sub)(&b->y, &d[e], &b->y);
            b->x = l2[e];
        }
    }
}
#endif

#if IS_G2 && MSM_X8
/* G2 with eight-lane Fp products, as the G1 flush above: the norms, their
   prefix products and unwinding, 1/den = conj(den) / N, lambda, lambda^2
   and y3 (Fp2 products by Karatsuba, the square as (a0 + a1)(a0 - a1),
   2 a0 a1): 15 Fp products per addition, all in the lanes, with the
   lanes' additions and subtractions between them; the subtractions of x3
   and y3 stay scalar. */
static void G_(add_x8_)(const G_(x8job_) *j)
{
    size_t n = j->n, ng = (n + 7) / 8;
    G_(x8_denominators_)(j, ng); /* pass 1a */
    /* pass 1b: norms N = d0^2 + d1^2 and their prefix products in the
       lanes (fp_x8.h forms: prefixes [.]', norms [N] 2^32), conj(den) kept */
    MSM_BF c8[8], c8b[8];
    MSM_V8 acc[2], v, w, x;
    G_(x8_prefix_start_)(&acc[0]);
    acc[1] = acc[0];
    MSM_V8 zero8;
    memset(&zero8, 0, sizeof zero8);
    for (size_t g = 0; g < ng; g++) {
        for (int e = 0; e < 8; e++) {
            c8[e] = j->den[8 * g + (size_t)e].c0;
            c8b[e] = j->den[8 * g + (size_t)e].c1;
        }
        MSM_V8_(load)(&j->vd0[g], c8, 0);
        MSM_V8_(load)(&v, c8b, 0);
        MSM_V8_SHL(&w, &j->vd0[g]);
        MSM_V8_(mont)(&w, &w, &j->vd0[g]);           /* [d0^2] */
        MSM_V8_SHL(&x, &v);
        MSM_V8_(mont)(&x, &x, &v);                   /* [d1^2] */
        MSM_V8_(sub)(&j->vd1[g], &zero8, &v);        /* [-d1] */
        MSM_V8_(add)(&w, &w, &x);                    /* [N] */
        MSM_V8_SHL(&j->vden[g], &w);
        j->vpref[g] = acc[g & 1];
        MSM_V8_(mont)(&acc[g & 1], &acc[g & 1], &j->vden[g]);
    }
    MSM_V8 vinv[2], t0, t1, l0, l1, n0, n1, v0, v1;
    G_(x8_invert_lanes_)(vinv, acc); /* as in the G1 flush */
    bool flip[8];
    /* pass 2, backwards; Fp2 products by Karatsuba in the lanes:
       (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u,
       the sums unreduced (below 2p, or 2p 2^32 shifted) */
    for (size_t g = ng; g-- > 0;) {
        MSM_V8_(mont)(&v, &vinv[g & 1], &j->vpref[g]); /* [1/N]' */
        MSM_V8_(mont)(&vinv[g & 1], &vinv[g & 1], &j->vden[g]);
        MSM_V8_(mont)(&t0, &j->vd0[g], &v);           /* [1/den] = [conj(den) / N] */
        MSM_V8_(mont)(&t1, &j->vd1[g], &v);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            uint8_t kd = j->kind[k];
            flip[e] = false;
            FE num;
            if (kd == 0) {
                const AFF *b = j->A[k];
                const AFF *p = j->P[k];
                flip[e] = j->neg && j->neg[k];
                if (flip[e])
                    FE_(add)(&num, &p->y, &b->y);
                else
                    FE_(sub)(&num, &p->y, &b->y);
            } else if (kd == 1) {
                const AFF *b = j->A[k];
                FE u;
                FE_(sqr)(&num, &b->x);
                FE_(dbl)(&u, &num);
                FE_(add)(&num, &num, &u);
            } else {
                FE_(zero)(&num);
            }
            c8[e] = num.c0;
            c8b[e] = num.c1;
        }
        MSM_V8_(load)(&n0, c8, 1);
        MSM_V8_(load)(&n1, c8b, 1);
        MSM_V8_(mont)(&v0, &n0, &t0);
        MSM_V8_(mont)(&v1, &n1, &t1);
        MSM_V8_(add_nr)(&n0, &n0, &n1);
        MSM_V8_(add_nr)(&t0, &t0, &t1);
        MSM_V8_(mont)(&v, &n0, &t0);
        MSM_V8_(sub)(&l0, &v0, &v1);                  /* lambda */
        MSM_V8_(sub)(&v, &v, &v0);
        MSM_V8_(sub)(&l1, &v, &v1);
        /* lambda^2 = (l0 + l1)(l0 - l1) + 2 l0 l1 u */
        MSM_V8_(add_nr)(&v, &l0, &l1);
        MSM_V8_SHL(&v, &v);
        MSM_V8_(sub)(&w, &l0, &l1);
        MSM_V8_(mont)(&v, &v, &w);
        MSM_V8_(store)(c8, &v);
        MSM_V8_SHL(&w, &l0);
        MSM_V8_(mont)(&w, &w, &l1);
        MSM_V8_(add)(&w, &w, &w);
        MSM_V8_(store)(c8b, &w);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            if (j->kind[k] > 1) {
                MSM_BF_(zero)(&c8[e]);
                MSM_BF_(zero)(&c8b[e]);
                continue;
            }
            const AFF *b = j->A[k];
            const AFF *p = j->P[k];
            FE x3 = {c8[e], c8b[e]}, d;
            FE_(sub)(&x3, &x3, &b->x);
            FE_(sub)(&x3, &x3, &p->x);                /* x3 (xP = xB when doubling) */
            if (flip[e])
                FE_(sub)(&d, &x3, &b->x);
            else
                FE_(sub)(&d, &b->x, &x3);
            j->den[k] = x3;                           /* den is spent: keep x3 there */
            c8[e] = d.c0;
            c8b[e] = d.c1;
        }
        MSM_V8_(load)(&n0, c8, 1);                    /* (xB - x3) lambda */
        MSM_V8_(load)(&n1, c8b, 1);
        MSM_V8_(mont)(&v0, &n0, &l0);
        MSM_V8_(mont)(&v1, &n1, &l1);
        MSM_V8_(add_nr)(&n0, &n0, &n1);
        MSM_V8_(add_nr)(&l0, &l0, &l1);
        MSM_V8_(mont)(&v, &n0, &l0);
        MSM_V8_(sub)(&w, &v0, &v1);
        MSM_V8_(store)(c8, &w);
        MSM_V8_(sub)(&v, &v, &v0);
        MSM_V8_(sub)(&v, &v, &v1);
        MSM_V8_(store)(c8b, &v);
        for (int e = 0; e < 8; e++) {
            size_t k = 8 * g + (size_t)e;
            uint8_t kd = j->kind[k];
            if (kd == 3)
                continue;
            AFF *b = j->A[k];
            if (kd == 2) {
                G_(affine_infinity)(b);
                continue;
            }
            FE y = {c8[e], c8b[e]};
            FE_(sub)(&b->y, &y, &b->y);
            b->x = j->den[k];
        }
    }
}
#endif

static void G_(ba_flush_)(G_(ba_) *s)
{
    if (s->b_n == 0)
        return;
#if MSM_X8
    if (MSM_X8_ON && s->b_n >= 64) {
        for (size_t k = 0; k < s->b_n; k++) {
            s->Ap[k] = &s->bk[s->batch[k].bk];
            s->Pp[k] = &s->pts[s->batch[k].pt & OP_IDX];
            s->negf[k] = (s->batch[k].pt & OP_NEG) != 0;
        }
        G_(x8job_) j = {s->b_n, s->Ap, s->Pp, s->negf, s->den, s->kind,
                        s->vden, s->vpref, s->vd0, s->vd1};
        G_(add_x8_)(&j);
        for (size_t k = 0; k < s->b_n; k++)
            if (s->kind[k] == 2)
                s->has[s->batch[k].bk] = 0;
        s->b_n = 0;
        s->epoch++;
        return;
    }
#endif
    FE t, lam;
    MSM_BF acc, inv;
    MSM_BF_(one)(&acc);
    /* pass 1: denominators and their prefix products */
    for (size_t k = 0; k < s->b_n; k++) {
        if (k + 8 < s->b_n) { /* buckets and points are scattered over MiBs: fetch ahead */
            const char *pf = (const char *)&s->bk[s->batch[k + 8].bk];
            __builtin_prefetch(pf);
            __builtin_prefetch(pf + 64);
            __builtin_prefetch(pf + sizeof(AFF) - 1);
            pf = (const char *)&s->pts[s->batch[k + 8].pt & OP_IDX];
            __builtin_prefetch(pf);
            __builtin_prefetch(pf + 64);
            __builtin_prefetch(pf + sizeof(AFF) - 1);
        }
        const AFF *b = &s->bk[s->batch[k].bk];
        const AFF *p = &s->pts[s->batch[k].pt & OP_IDX];
        FE *den = &s->den[k];
        FE_(sub)(den, &p->x, &b->x);
        uint8_t kd = 0;
        if (FE_IS_ZERO(den)) {
            FE y;
            if (s->batch[k].pt & OP_NEG)
                FE_(neg)(&y, &p->y);
            else
                y = p->y;
            if (FE_(eq)(&y, &b->y)) {
                kd = 1;
                FE_(dbl)(den, &b->y);
            } else {
                kd = 2;
            }
        }
        s->kind[k] = kd;
        if (kd != 2)
            G_(binv_push_)(&acc, &s->pref[k], den);
    }
    MSM_BF_(inv_var)(&inv, &acc);
    /* pass 2, backwards: 1/den_k = inv * pref_k, then inv *= den_k.
       With P = (xP, +-yP): lambda = (+-yP - yB)/den; for -yP we keep
       lambda' = -lambda = (yP + yB)/den and flip the last subtraction. */
    for (size_t k = s->b_n; k-- > 0;) {
        uint32_t bi = s->batch[k].bk, pt = s->batch[k].pt;
        AFF *b = &s->bk[bi];
        const AFF *p = &s->pts[pt & OP_IDX];
        uint8_t kd = s->kind[k];
        if (kd == 2) {
            s->has[bi] = 0;
            continue;
        }
        G_(binv_pop_)(&t, &inv, &s->pref[k], &s->den[k]);   /* t = 1/den */
        bool flip = false;
        if (kd == 0) {
            flip = (pt & OP_NEG) != 0;
            if (flip)
                FE_(add)(&lam, &p->y, &b->y);
            else
                FE_(sub)(&lam, &p->y, &b->y);
        } else {
            FE u;
            FE_(sqr)(&lam, &b->x);
            FE_(dbl)(&u, &lam);
            FE_(add)(&lam, &lam, &u);
        }
        FE_(mul)(&lam, &lam, &t);
        FE_(sqr)(&t, &lam);
        FE_(sub)(&t, &t, &b->x);
        FE_(sub)(&t, &t, &p->x);            /* x3 (xP = xB when doubling) */
        FE d;
        if (flip)
            FE_(sub)(&d, &t, &b->x);
        else
            FE_(sub)(&d, &b->x, &t);
        FE_(mul)(&d, &d, &lam);
        FE_(sub)(&b->y, &d, &b->y);
        b->x = t;
    }
    s->b_n = 0;
    s->epoch++;
}

/* Put op into a bucket or the batch; false if its bucket is busy. */
static inline bool G_(ba_try_)(G_(ba_) *s, G_(op_) op)
{
    if (s->stamp[op.bk] == s->epoch)
        return false;
    if (!s->has[op.bk]) {
        AFF *b = &s->bk[op.bk];
        G_(load_pt_)(&b->x, &b->y, s->pts, op.pt);
        s->has[op.bk] = 1;
        return true;
    }
    s->stamp[op.bk] = s->epoch;
    s->batch[s->b_n++] = op;
    if (s->b_n == s->cap)
        G_(ba_flush_)(s);
    return true;
}

/* Retry the queued ops; those still colliding stay queued. */
static void G_(ba_drain_)(G_(ba_) *s)
{
    size_t keep = 0;
    for (size_t i = 0; i < s->q_n; i++)
        if (!G_(ba_try_)(s, s->queue[i]))
            s->queue[keep++] = s->queue[i];
    s->q_n = keep;
}

/* Move the queue into the XYZZ overflow buckets. */
static void G_(ba_overflow_)(G_(ba_) *s)
{
    if (!s->ov) {
        s->ov = malloc(s->nb * sizeof *s->ov);
        s->ov_has = calloc(s->nb, 1);
        if (!s->ov || !s->ov_has) {
            s->nomem = true;
            s->q_n = 0;
            return;
        }
    }
    for (size_t i = 0; i < s->q_n; i++) {
        G_(op_) op = s->queue[i];
        AFF p;
        G_(load_pt_)(&p.x, &p.y, s->pts, op.pt);
        if (!s->ov_has[op.bk]) {
            G_(xyzz_from_affine)(&s->ov[op.bk], &p);
            s->ov_has[op.bk] = 1;
        } else {
            G_(xyzz_add_affine)(&s->ov[op.bk], &s->ov[op.bk], &p);
        }
    }
    s->q_n = 0;
}

static inline void G_(ba_add_)(G_(ba_) *s, G_(op_) op)
{
    if (G_(ba_try_)(s, op))
        return;
    s->queue[s->q_n++] = op;
    if (s->q_n == s->q_cap) {
        G_(ba_flush_)(s);
        G_(ba_drain_)(s);
        if (s->q_n >= s->q_cap / 2) /* hot buckets: stop batching them */
            G_(ba_overflow_)(s);
    }
}

static void G_(ba_finish_)(G_(ba_) *s)
{
    for (int round = 0; round < 4 && (s->b_n || s->q_n); round++) {
        G_(ba_flush_)(s);
        G_(ba_drain_)(s);
    }
    G_(ba_flush_)(s);
    if (s->q_n)
        G_(ba_overflow_)(s);
}

static void G_(ba_free_)(G_(ba_) *s)
{
    free(s->bk);
    free(s->has);
    free(s->stamp);
    free(s->batch);
    free(s->queue);
    free(s->pref);
    free(s->den);
    free(s->kind);
    free(s->ov);
    free(s->ov_has);
#if MSM_X8
    free(s->vden);
    free(s->vpref);
    free(s->vd0);
    free(s->vd1);
    free(s->Ap);
    free(s->Pp);
    free(s->negf);
#endif
}

static bool G_(ba_init_)(G_(ba_) *s, const AFF *pts, size_t nb)
{
    memset(s, 0, sizeof *s);
    s->pts = pts;
    s->nb = nb;
    s->cap = nb / 4;   /* batch fill vs collisions (~1/8 of inserts collide) */
    if (s->cap < 16)
        s->cap = 16;
    if (s->cap > 2048)
        s->cap = 2048;
    s->epoch = 1;
    s->bk = malloc(nb * sizeof *s->bk);
    s->has = calloc(nb, 1);
    s->stamp = calloc(nb, sizeof *s->stamp);
    s->batch = malloc(s->cap * sizeof *s->batch);
    s->q_cap = 4 * s->cap;  /* collisions wait here; flushes come from a full batch */
    s->queue = malloc(s->q_cap * sizeof *s->queue);
    /* + 8: the eight-lane flush pads its last group */
    s->pref = malloc((s->cap + 8) * sizeof *s->pref);
    s->den = malloc((s->cap + 8) * sizeof *s->den);
    s->kind = malloc(s->cap + 8);
#if MSM_X8
    size_t vg = (s->cap + 7) / 8 + 1;
    s->vden = aligned_alloc(64, vg * sizeof *s->vden);
    s->vpref = aligned_alloc(64, vg * sizeof *s->vpref);
    s->vd0 = IS_G2 ? aligned_alloc(64, vg * sizeof *s->vd0) : NULL;
    s->vd1 = IS_G2 ? aligned_alloc(64, vg * sizeof *s->vd1) : NULL;
    s->Ap = malloc(s->cap * sizeof *s->Ap);
    s->Pp = malloc(s->cap * sizeof *s->Pp);
    s->negf = malloc(s->cap);
    if (!s->vden || !s->vpref || (IS_G2 && (!s->vd0 || !s->vd1)) || !s->Ap || !s->Pp || !s->negf) {
        G_(ba_free_)(s);
        return false;
    }
#endif
    if (!s->bk || !s->has || !s->stamp || !s->batch || !s->queue || !s->pref || !s->den || !s->kind) {
        G_(ba_free_)(s);
        return false;
    }
    return true;
}


/* acc[k] += add[k] for k < m in affine coordinates with one inversion
   (the formulas at the top of this file); the acc[k] are distinct, either
   side may be infinity (all zero), and P + P / P + (-P) are handled.
   Scratch: pref, den (m FE each), kind (m bytes). 6M + ~6 add/sub each. */
#if MSM_X8
/* batch_add_ through add_x8_: the infinity cases here, the rest there.
   false (nothing done) when out of memory. */
static bool G_(batch_add_x8_)(AFF *const *acc, const AFF *const *add, size_t m)
{
    size_t vg = m / 8 + 2;
    AFF **A = malloc(m * sizeof *A);
    const AFF **P = malloc(m * sizeof *P);
    FE *den = malloc((m + 8) * sizeof *den);
    uint8_t *kind = malloc(m + 8);
    MSM_V8 *v = aligned_alloc(64, 4 * vg * sizeof *v);
    bool ok = A && P && den && kind && v;
    if (ok) {
        size_t n = 0;
        for (size_t k = 0; k < m; k++) {
            if (G_(affine_is_infinity)(add[k]))
                continue;                      /* acc stays */
            if (G_(affine_is_infinity)(acc[k])) {
                *acc[k] = *add[k];
                continue;
            }
            A[n] = acc[k];
            P[n++] = add[k];
        }
        if (n) {
            G_(x8job_) j = {n, A, P, NULL, den, kind, v, v + vg, v + 2 * vg, v + 3 * vg};
            G_(add_x8_)(&j);
        }
    }
    free(A);
    free(P);
    free(den);
    free(kind);
    free(v);
    return ok;
}
#endif

static void G_(batch_add_)(AFF *const *acc, const AFF *const *add, size_t m, FE *pref, FE *den,
                           uint8_t *kind)
{
#if MSM_X8
    if (MSM_X8_ON && m >= 64 && G_(batch_add_x8_)(acc, add, m))
        return;
#endif
    FE t, lam;
    MSM_BF a, inv;
    MSM_BF_(one)(&a);
    for (size_t k = 0; k < m; k++) {
        const AFF *A = acc[k], *B = add[k];
        uint8_t kd = 0;
        if (G_(affine_is_infinity)(B)) {
            kd = 4;                    /* A stays */
        } else if (G_(affine_is_infinity)(A)) {
            kd = 3;                    /* A = B */
        } else {
            FE_(sub)(&den[k], &B->x, &A->x);
            if (FE_IS_ZERO(&den[k])) {
                if (FE_(eq)(&A->y, &B->y)) {
                    kd = 1;            /* doubling */
                    FE_(dbl)(&den[k], &A->y);
                } else {
                    kd = 2;            /* A = -B: infinity */
                }
            }
        }
        kind[k] = kd;
        if (kd <= 1)
            G_(binv_push_)(&a, &pref[k], &den[k]);
    }
    MSM_BF_(inv_var)(&inv, &a);
    for (size_t k = m; k-- > 0;) {
        AFF *A = acc[k];
        const AFF *B = add[k];
        uint8_t kd = kind[k];
        if (kd == 4)
            continue;
        if (kd == 3) {
            *A = *B;
            continue;
        }
        if (kd == 2) {
            G_(affine_infinity)(A);
            continue;
        }
        G_(binv_pop_)(&t, &inv, &pref[k], &den[k]);   /* t = 1/den */
        if (kd == 0) {
            FE_(sub)(&lam, &B->y, &A->y);
        } else {
            FE u;
            FE_(sqr)(&lam, &A->x);
            FE_(dbl)(&u, &lam);
            FE_(add)(&lam, &lam, &u);
        }
        FE_(mul)(&lam, &lam, &t);
        FE_(sqr)(&t, &lam);
        FE_(sub)(&t, &t, &A->x);
        FE_(sub)(&t, &t, &B->x);
        FE d;
        FE_(sub)(&d, &A->x, &t);
        FE_(mul)(&d, &d, &lam);
        FE_(sub)(&A->y, &d, &A->y);
        A->x = t;
    }
}

/* sum_{j < top, has[j]} (j+1) bk[j] with the running sums run in L
   segments of len = 2^e buckets side by side, so that each step's L
   additions share one inversion (batched affine, ~6M each instead of the
   10M + 14M of the XYZZ pair). Segment s, buckets [s len, (s+1) len),
   ends with S_s = sum B_j and T_s = sum (j - s len + 1) B_j, and
   sum_j (j+1) B_j = sum_s T_s + len * sum_s s S_s; the last sum is a
   short XYZZ running sum over s, then e doublings. false: no memory. */
static bool G_(reduce_segmented_)(XYZZ *out, const AFF *bk, const uint8_t *has, size_t top)
{
    unsigned e = 4;
    while (((top + ((size_t)1 << e) - 1) >> e) > 256)
        e++;
    size_t len = (size_t)1 << e, L = (top + len - 1) >> e;
    AFF *S = calloc(2 * L, sizeof *S), *T = S + L;      /* zero: infinity */
    AFF **acc = malloc(L * sizeof *acc);
    const AFF **add = malloc(L * sizeof *add);
    FE *pref = malloc(2 * L * sizeof *pref), *den = pref + L;
    uint8_t *kind = malloc(L);
    bool ok = S && acc && add && pref && kind;
    if (ok) {
        for (size_t i = len; i-- > 0;) {
            size_t m = 0;
            for (size_t sg = 0; sg < L; sg++) {
                size_t j = sg * len + i;
                if (j < top && has[j]) {
                    acc[m] = &S[sg];
                    add[m++] = &bk[j];
                }
            }
            G_(batch_add_)(acc, add, m, pref, den, kind);
            m = 0;
            for (size_t sg = 0; sg < L; sg++) {
                if (!G_(affine_is_infinity)(&S[sg])) {
                    acc[m] = &T[sg];
                    add[m++] = &S[sg];
                }
            }
            G_(batch_add_)(acc, add, m, pref, den, kind);
        }
        XYZZ tsum, r, u;
        G_(xyzz_infinity)(&tsum);
        G_(xyzz_infinity)(&r);
        G_(xyzz_infinity)(&u);
        for (size_t sg = L; sg-- > 0;) {
            G_(xyzz_add_affine)(&tsum, &tsum, &T[sg]);
            if (sg == 0)
                break;
            G_(xyzz_add_affine)(&r, &r, &S[sg]);
            G_(xyzz_add)(&u, &u, &r);            /* u = sum_s s S_s */
        }
        for (unsigned b = 0; b < e; b++)
            G_(xyzz_dbl)(&u, &u);
        G_(xyzz_add)(out, &tsum, &u);
    }
    free(S);
    free(acc);
    free(add);
    free(pref);
    free(kind);
    return ok;
}

/* ---- window sums ---- */

static void G_(jac_to_xyzz_)(XYZZ *out, const JAC *p)
{
    /* (X/Z^2, Y/Z^3) = (X/ZZ, Y/ZZZ) with ZZ = Z^2, ZZZ = Z^3: 1M + 1S */
    out->x = p->x;
    out->y = p->y;
    FE_(sqr)(&out->zz, &p->z);
    FE_(mul)(&out->zzz, &out->zz, &p->z);
}

/* out = sum_{j < top} (j+1) * bucket_j over few non-empty buckets, each by
   a small scalar multiplication (~log2(top) doublings): cheaper than the
   running sums (2 additions per bucket, empty or not) when m log(top) is
   well below top. get(j, &pt) fills pt and returns whether bucket j is
   non-empty. */
static bool G_(sparse_ok_)(size_t m, size_t top)
{
    unsigned bits = 1;
    while (((size_t)1 << bits) < top)
        bits++;
    return m * (size_t)(2 * bits + 4) < top;
}

static void G_(add_multiple_)(XYZZ *acc, const XYZZ *b, size_t j1)
{
    JAC t, r;
    uint64_t k = j1;
    G_(xyzz_to_jac)(&t, b);
    G_(jac_mul_var)(&r, &t, &k, 1);
    XYZZ x;
    if (G_(jac_is_infinity)(&r))
        return;
    G_(jac_to_xyzz_)(&x, &r);
    G_(xyzz_add)(acc, acc, &x);
}

/* ---- one task: window w over big[k0..k1) ---- */

typedef struct {
    const AFF *pts;
    const cz_msm_prep_ *prep;
    unsigned c, n_win, n_rng;
    unsigned sbits;  /* scalars < 2^sbits */
    bool affine;
    XYZZ *part;      /* n_win * n_rng window sums */
    atomic_int nomem;
} G_(pip_ctx_);

static void G_(task_affine_)(G_(pip_ctx_) *c, unsigned w, size_t k0, size_t k1, XYZZ *out)
{
    /* The top window sees e < c bits of the scalars (digits 0..2^e): only
       2^e buckets, and the batch sized for them (a batch sized for 2^(c-1)
       would keep colliding and spill into the XYZZ overflow buckets). */
    size_t nb = (size_t)1 << (c->c - 1);
    if (c->sbits > w * c->c && c->sbits - w * c->c < c->c - 1)
        nb = (size_t)1 << (c->sbits - w * c->c);
    G_(ba_) s;
    if (!G_(ba_init_)(&s, c->pts, nb)) {
        atomic_store(&c->nomem, 1);
        return;
    }
    size_t top = 0;
    for (size_t k = k0; k < k1; k++) {
        uint32_t i = c->prep->big[k];
        int32_t d = cz_msm_digit_(c->prep->sc[i].l, w, c->c);
        if (d == 0)
            continue;
        G_(op_) op;
        if (d > 0) {
            op.bk = (uint32_t)d - 1;
            op.pt = i;
        } else {
            op.bk = (uint32_t)(-d) - 1;
            op.pt = i | OP_NEG;
        }
        if (op.bk >= top)
            top = op.bk + 1;
        G_(ba_add_)(&s, op);
    }
    G_(ba_finish_)(&s);
    if (s.nomem)
        atomic_store(&c->nomem, 1);
    /* sum_j (j+1) B_j: sparse buckets one by one, many by segmented
       batched-affine running sums, the rest by XYZZ running sums; the
       overflow buckets (rare) apart the same way */
    XYZZ S, T;
    G_(xyzz_infinity)(&S);
    G_(xyzz_infinity)(&T);
    size_t m = 0, m_ov = 0;
    for (size_t j = 0; j < top; j++) {
        m += s.has[j];
        m_ov += s.ov ? s.ov_has[j] : 0;
    }
    if (G_(sparse_ok_)(m, top)) {
        for (size_t j = 0; j < top; j++) {
            if (s.has[j]) {
                G_(xyzz_from_affine)(&S, &s.bk[j]);
                G_(add_multiple_)(&T, &S, j + 1);
            }
        }
    } else if (top < 256 || !G_(reduce_segmented_)(&T, s.bk, s.has, top)) {
        for (size_t j = top; j-- > 0;) {
            if (s.has[j])
                G_(xyzz_add_affine)(&S, &S, &s.bk[j]);
            G_(xyzz_add)(&T, &T, &S);
        }
    }
    if (m_ov && G_(sparse_ok_)(m_ov, top)) {
        for (size_t j = 0; j < top; j++)
            if (s.ov_has[j])
                G_(add_multiple_)(&T, &s.ov[j], j + 1);
    } else if (m_ov) {
        XYZZ S2, T2;
        G_(xyzz_infinity)(&S2);
        G_(xyzz_infinity)(&T2);
        for (size_t j = top; j-- > 0;) {
            if (s.ov_has[j])
                G_(xyzz_add)(&S2, &S2, &s.ov[j]);
            G_(xyzz_add)(&T2, &T2, &S2);
        }
        G_(xyzz_add)(&T, &T, &T2);
    }
    *out = T;
    G_(ba_free_)(&s);
}

static void G_(task_xyzz_)(G_(pip_ctx_) *c, unsigned w, size_t k0, size_t k1, XYZZ *out)
{
    size_t nb = (size_t)1 << (c->c - 1);
    XYZZ *bk = calloc(nb, sizeof *bk); /* all zero: infinity */
    if (!bk) {
        atomic_store(&c->nomem, 1);
        return;
    }
    size_t top = 0;
    for (size_t k = k0; k < k1; k++) {
        uint32_t i = c->prep->big[k];
        int32_t d = cz_msm_digit_(c->prep->sc[i].l, w, c->c);
        if (d > 0) {
            G_(xyzz_add_affine)(&bk[d - 1], &bk[d - 1], &c->pts[i]);
            if ((size_t)d > top)
                top = (size_t)d;
        } else if (d < 0) {
            G_(xyzz_sub_affine)(&bk[-d - 1], &bk[-d - 1], &c->pts[i]);
            if ((size_t)-d > top)
                top = (size_t)-d;
        }
    }
    XYZZ S, T;
    G_(xyzz_infinity)(&S);
    G_(xyzz_infinity)(&T);
    size_t m = 0;
    for (size_t j = 0; j < top; j++)
        m += !FE_IS_ZERO(&bk[j].zz);
    if (G_(sparse_ok_)(m, top)) {
        for (size_t j = 0; j < top; j++)
            if (!FE_IS_ZERO(&bk[j].zz))
                G_(add_multiple_)(&T, &bk[j], j + 1);
    } else {
        for (size_t j = top; j-- > 0;) {
            G_(xyzz_add)(&S, &S, &bk[j]);
            G_(xyzz_add)(&T, &T, &S);
        }
    }
    *out = T;
    free(bk);
}

static void G_(pip_fn_)(void *vctx, size_t b, size_t e, int worker)
{
    G_(pip_ctx_) *c = vctx;
    size_t n = c->prep->n_big;
    for (size_t t = b; t < e; t++) {
        unsigned w = (unsigned)(t / c->n_rng), r = (unsigned)(t % c->n_rng);
        size_t k0 = n * r / c->n_rng, k1 = n * (r + 1) / c->n_rng;
        G_(xyzz_infinity)(&c->part[t]);
        if (c->affine)
            G_(task_affine_)(c, w, k0, k1, &c->part[t]);
        else
            G_(task_xyzz_)(c, w, k0, k1, &c->part[t]);
    }
}

/* ---- sum of a list of points by a tree of batched affine additions ---- */

/* buf[k] = buf[2k] + buf[2k+1] for k < m/2 (then the odd one moved);
   returns the new length. Scratch of SUM_CHUNK entries. */
#define SUM_CHUNK 1024
typedef struct {
    AFF *acc[SUM_CHUNK];
    const AFF *add[SUM_CHUNK];
    FE pref[SUM_CHUNK], den[SUM_CHUNK];
    uint8_t kind[SUM_CHUNK];
} G_(sum_scratch_);

static size_t G_(sum_level_)(AFF *buf, size_t m, G_(sum_scratch_) *sc)
{
    size_t half = m / 2;
    for (size_t k0 = 0; k0 < half; k0 += SUM_CHUNK) {
        size_t k1 = k0 + SUM_CHUNK < half ? k0 + SUM_CHUNK : half;
        for (size_t k = k0; k < k1; k++) {
            sc->acc[k - k0] = &buf[2 * k];
            sc->add[k - k0] = &buf[2 * k + 1];
        }
        G_(batch_add_)(sc->acc, sc->add, k1 - k0, sc->pref, sc->den, sc->kind);
    }
    for (size_t k = 1; k < half; k++)
        buf[k] = buf[2 * k];
    if (m & 1)
        buf[half] = buf[m - 1];
    return half + (m & 1);
}

typedef struct {
    const AFF *pts;
    const uint32_t *idx;
    size_t m, per;
    XYZZ *part;
    atomic_int nomem;
} G_(sum_ctx_);

static void G_(sum_fn_)(void *vctx, size_t b, size_t e, int worker)
{
    G_(sum_ctx_) *c = vctx;
    for (size_t t = b; t < e; t++) {
        size_t i0 = t * c->per, i1 = i0 + c->per < c->m ? i0 + c->per : c->m;
        size_t m = i1 - i0;
        AFF *buf = malloc(m * sizeof *buf);
        G_(sum_scratch_) *sc = malloc(sizeof *sc);
        G_(xyzz_infinity)(&c->part[t]);
        if (!buf || !sc) {
            atomic_store(&c->nomem, 1);
        } else {
            for (size_t i = 0; i < m; i++)
                buf[i] = c->pts[c->idx[i0 + i]];
            while (m > 1)
                m = G_(sum_level_)(buf, m, sc);
            if (m == 1)
                G_(xyzz_from_affine)(&c->part[t], &buf[0]);
        }
        free(buf);
        free(sc);
    }
}

/* out += sum of pts[idx[i]], i < m */
static cz_status G_(sum_idx_)(XYZZ *out, const AFF *pts, const uint32_t *idx, size_t m,
                             cz_threadpool *pool)
{
    if (m == 0)
        return CZ_OK;
    size_t per = 1 << 14;
    size_t nt = (m + per - 1) / per;
    size_t want = (size_t)cz_threadpool_size(pool) * 2;
    if (nt < want && m >= want * 256) {
        per = (m + want - 1) / want;
        nt = (m + per - 1) / per;
    }
    G_(sum_ctx_) c = {pts, idx, m, per, calloc(nt, sizeof(XYZZ)), 0};
    if (!c.part)
        return CZ_ERR_NOMEM;
    cz_parallel_for(pool, nt, 1, G_(sum_fn_), &c);
    for (size_t t = 0; t < nt; t++)
        G_(xyzz_add)(out, out, &c.part[t]);
    free(c.part);
    return atomic_load(&c.nomem) ? CZ_ERR_NOMEM : CZ_OK;
}

static bool G_(is_inf_cb_)(const void *points, size_t i)
{
    return G_(affine_is_infinity)(&((const AFF *)points)[i]);
}

/* ---- public ---- */

/* Pippenger over prep's big scalars (below 2^(bits-1)): acc += the sum.
   bits = MSM_BITS for scalars below r (256: BLS12-381's r < 2^255; 255:
   BN254's r < 2^254), CZ_MSM_GLV_BITS for the GLV
   halves (< 2^128). */
static cz_status G_(pippenger_)(XYZZ *acc, const AFF *points, const cz_msm_prep_ *prep,
                                unsigned bits, const cz_msm_opts *opts, int threads)
{
    unsigned sbits = bits - 1;
    unsigned c = opts->window ? opts->window
                              : cz_msm_window_for_bits_(prep->n_big, threads, IS_G2, bits);
    unsigned n_win = (bits + c - 1) / c;
    unsigned n_rng = cz_msm_ranges_(prep->n_big, n_win, threads);
    bool affine;
    if (opts->algo == CZ_MSM_ALGO_XYZZ)
        affine = false;
    else if (opts->algo == CZ_MSM_ALGO_AFFINE)
        affine = true;
    else
        affine = c >= 8 && prep->n_big / n_rng >= 256;
    G_(pip_ctx_) pc = {points, prep, c, n_win, n_rng, sbits, affine,
                       malloc((size_t)n_win * n_rng * sizeof(XYZZ)), 0};
    if (!pc.part)
        return CZ_ERR_NOMEM;
    cz_parallel_for(opts->pool, (size_t)n_win * n_rng, 1, G_(pip_fn_), &pc);
    if (atomic_load(&pc.nomem)) {
        free(pc.part);
        return CZ_ERR_NOMEM;
    }
    /* Horner over windows, top first: acc = 2^c acc + W_w */
    XYZZ h;
    G_(xyzz_infinity)(&h);
    for (unsigned w = n_win; w-- > 0;) {
        if (w != n_win - 1)
            for (unsigned i = 0; i < c; i++)
                G_(xyzz_dbl)(&h, &h);
        for (unsigned r = 0; r < n_rng; r++)
            G_(xyzz_add)(&h, &h, &pc.part[(size_t)w * n_rng + r]);
    }
    G_(xyzz_add)(acc, acc, &h);
    free(pc.part);
    return CZ_OK;
}

#if !IS_G2
/* ---- GLV (G1): every big scalar k becomes k1 on P and k2 on (beta x, -y),
   both below 2^128 (cz_msm_glv_split_): twice the points over half the
   windows, so the same bucket additions and half the bucket reductions. */

#if !MSM_GLV_SIGNED
static const cz_fp G_(glv_beta_) = {CZ_G1_BETA_MONT};
#endif

typedef struct {
    const AFF *pts;
    const cz_msm_prep_ *in;
    AFF *epts;
    cz_msm_prep_ *out;
} G_(glv_ctx_);

static void G_(glv_fn_)(void *vctx, size_t b, size_t e, int worker)
{
    (void)worker;
    G_(glv_ctx_) *c = vctx;
    for (size_t k = b; k < e; k++) {
        uint32_t i = c->in->big[k];
        const AFF *p = &c->pts[i];
        AFF *q = &c->epts[2 * k];
#if MSM_GLV_SIGNED
        cz_msm_sc_ *s = &c->out->sc[2 * k];
        memset(s, 0, 2 * sizeof *s);
        bool n1, n2;
        G_(glv_split)(s[0].l, &n1, s[1].l, &n2, c->in->sc[i].l);
        q[0] = *p;
        G_(endo)(&q[1], p);
        if (n1)
            FE_(neg)(&q[0].y, &q[0].y);
        if (n2)
            FE_(neg)(&q[1].y, &q[1].y);
#else
        q[0] = *p;
        FE_(mul)(&q[1].x, &p->x, &G_(glv_beta_));
        FE_(neg)(&q[1].y, &p->y);
        cz_msm_sc_ *s = &c->out->sc[2 * k];
        memset(s, 0, 2 * sizeof *s);
        cz_msm_glv_split_(s[0].l, s[1].l, c->in->sc[i].l);
#endif
        c->out->big[2 * k] = (uint32_t)(2 * k);
        c->out->big[2 * k + 1] = (uint32_t)(2 * k + 1);
    }
}

/* Whether the split pays: the window model's cost of 2n halves of 129 bits
   against n scalars of 256, plus the setup (a product, two point copies
   and the split per scalar: about 0.3 bucket additions). It pays where the
   bucket reductions are a large share (measured, G1 one thread, with the
   mulx products: 2^15 scalars 3% faster, 2^16 1%); an explicit window
   always takes it. */
static bool G_(glv_pays_)(size_t n_big, const cz_msm_opts *opts, int threads)
{
    if (opts->no_glv || n_big < 256 || n_big >= ((size_t)1 << 30))
        return false;
    if (opts->window)
        return true;
    unsigned c;
    double plain = cz_msm_plan_(n_big, threads, 0, MSM_BITS, &c);
    double glv = cz_msm_plan_(2 * n_big, threads, 0, CZ_MSM_GLV_BITS, &c) +
                 0.3 * (double)n_big / threads;
    return glv < plain;
}
#endif

cz_status G_(msm)(JAC *out, const AFF *points, const MSM_SC *scalars, size_t n,
                  const cz_msm_opts *opts)
{
    static const cz_msm_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    G_(jac_infinity)(out);
    if (n >= ((size_t)1 << 31) || opts->window > CZ_MSM_MAX_WINDOW)
        return CZ_ERR_ARG;
    if (n == 0)
        return CZ_OK;
    cz_threadpool *pool = opts->pool;
    int threads = cz_threadpool_size(pool);
    cz_msm_prep_ prep;
    cz_status st = MSM_PREPARE(&prep, points, G_(is_inf_cb_), scalars, n, opts->form,
                                   !opts->no_split, pool);
    if (st != CZ_OK)
        return st;
    XYZZ acc;
    G_(xyzz_infinity)(&acc);
    if (prep.n_big) {
#if !IS_G2
        if (G_(glv_pays_)(prep.n_big, opts, threads)) {
            size_t m = 2 * prep.n_big;
            cz_msm_prep_ ge = {cz_alloc_big(m * sizeof *ge.sc), cz_alloc_big(m * sizeof *ge.big), NULL, m, 0};
            AFF *epts = cz_alloc_big(m * sizeof *epts);
            if (!ge.sc || !ge.big || !epts) {
                st = CZ_ERR_NOMEM;
            } else {
                G_(glv_ctx_) gc = {points, &prep, epts, &ge};
                cz_parallel_for(pool, prep.n_big, 4096, G_(glv_fn_), &gc);
                st = G_(pippenger_)(&acc, epts, &ge, CZ_MSM_GLV_BITS, opts, threads);
            }
            free(epts);
            cz_msm_prep_free_(&ge);
        } else
#endif
        {
            st = G_(pippenger_)(&acc, points, &prep, MSM_BITS, opts, threads);
        }
        if (st != CZ_OK) {
            cz_msm_prep_free_(&prep);
            return st;
        }
    }
    st = G_(sum_idx_)(&acc, points, prep.ones, prep.n_ones, pool);
    cz_msm_prep_free_(&prep);
    G_(xyzz_to_jac)(out, &acc);
    return st;
}

cz_status G_(sum_bitmap)(JAC *out, const AFF *points, const uint64_t *bitmap, size_t n,
                         cz_threadpool *pool)
{
    G_(jac_infinity)(out);
    if (n >= ((size_t)1 << 32))
        return CZ_ERR_ARG;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += (bitmap[i / 64] >> (i % 64)) & 1;
    uint32_t *idx = malloc((m ? m : 1) * sizeof *idx);
    if (!idx)
        return CZ_ERR_NOMEM;
    m = 0;
    for (size_t i = 0; i < n; i++)
        if (((bitmap[i / 64] >> (i % 64)) & 1) && !G_(affine_is_infinity)(&points[i]))
            idx[m++] = (uint32_t)i;
    XYZZ acc;
    G_(xyzz_infinity)(&acc);
    cz_status st = G_(sum_idx_)(&acc, points, idx, m, pool);
    free(idx);
    G_(xyzz_to_jac)(out, &acc);
    return st;
}
