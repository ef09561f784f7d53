/*
 * point_impl.h: the group law of curve.h, written once over a coordinate
 * field and included by g1.c (Fp) and g2.c (Fp2).
 *
 * DESIGN. Both curves are y^2 = x^3 + b with a = 0, so one body of formulas
 * serves both; the including file defines
 *   FE, FE_(op)         the coordinate field type and its functions
 *   FEI_(op)            its inline add/sub/dbl/neg (field/fp_inline.h)
 *   G_(op)              the public prefix (cz_g1_ or cz_g2_)
 *   AFF, JAC, XYZZ      the point types
 *   SC, SC_(op)         the scalar field (cz_fr / cz_bn254_fr) and its functions
 *   G_X_ABS             optional: |x| of a BLS curve, for G_(mul_x_abs_affine_)
 * and a `static const FE curve_b` before including this file. BLS12-381
 * (g1.c, g2.c) and BN254 (bn254_g1.c, bn254_g2.c) both include it.
 *
 * Infinity is all zero in every form (affine: x = y = 0, which is never on
 * the curve since b != 0; Jacobian: Z = 0; XYZZ: ZZ = ZZZ = 0), so arrays of
 * points and buckets can be cleared with memset. Neither curve has a point
 * of order 2 (both group orders are odd), so a doubling never meets y = 0
 * except at infinity.
 *
 * Formulas (Explicit-Formulas Database names; M = product, S = square):
 *   Jacobian add    add-1998-cmo-2   12M + 4S
 *   Jacobian madd   (cmo, Z2 = 1)     8M + 3S
 *   Jacobian dbl    (classic, a = 0)  3M + 4S
 *   XYZZ add        add-2008-s       12M + 2S
 *   XYZZ madd       madd-2008-s       8M + 2S
 *   XYZZ dbl        dbl-2008-s-1      6M + 3S
 *   XYZZ mdbl       mdbl-2008-s-1     4M + 3S (madd meeting p == q)
 * The public adds branch on the special cases (infinity, p == q, p == -q):
 * they see public points only (MSM buckets, verification). jac_mul uses a
 * separate branch-free complete add.
 */
#include <string.h>

#include "util/rng.h"

/* ---- helpers ---------------------------------------------------------- */

/* out = m ? a : b, word by word; every point type is an array of uint64_t. */
#define CT_SELECT(out, m, a, b)                                                \
    do {                                                                       \
        uint64_t *o_ = (uint64_t *)(void *)(out);                              \
        const uint64_t *a_ = (const uint64_t *)(const void *)(a);              \
        const uint64_t *b_ = (const uint64_t *)(const void *)(b);              \
        for (size_t i_ = 0; i_ < sizeof *(out) / 8; i_++)                      \
            o_[i_] = (a_[i_] & (m)) | (b_[i_] & ~(m));                         \
    } while (0)

static inline uint64_t G_(mask_)(bool b) { return 0 - (uint64_t)b; }

static inline void G_(fe_triple_)(FE *out, const FE *a)
{
    FE t;
    FEI_(dbl)(&t, a);
    FEI_(add)(out, &t, a);
}

/* ---- affine ------------------------------------------------------------ */

void G_(affine_infinity)(AFF *out) { memset(out, 0, sizeof *out); }

bool G_(affine_is_infinity)(const AFF *p) { return FE_(is_zero)(&p->x) && FE_(is_zero)(&p->y); }

/* y^2 == x^3 + b: 1M + 2S */
bool G_(affine_is_on_curve)(const AFF *p)
{
    if (G_(affine_is_infinity)(p))
        return true;
    FE l, r;
    FE_(sqr)(&l, &p->y);
    FE_(sqr)(&r, &p->x);
    FE_(mul)(&r, &r, &p->x);
    FEI_(add)(&r, &r, &curve_b);
    return FE_(eq)(&l, &r);
}

bool G_(affine_eq)(const AFF *a, const AFF *b)
{
    return FE_(eq)(&a->x, &b->x) && FE_(eq)(&a->y, &b->y);
}

/* -(x, y) = (x, -y); infinity (0, 0) maps to itself. */
void G_(affine_neg)(AFF *out, const AFF *p)
{
    out->x = p->x;
    FEI_(neg)(&out->y, &p->y);
}

/* ---- Jacobian: (X, Y, Z) is (X/Z^2, Y/Z^3) ------------------------------ */

void G_(jac_infinity)(JAC *out) { memset(out, 0, sizeof *out); }

bool G_(jac_is_infinity)(const JAC *p) { return FE_(is_zero)(&p->z); }

/* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3: 6M + 2S */
bool G_(jac_eq)(const JAC *a, const JAC *b)
{
    bool ia = G_(jac_is_infinity)(a), ib = G_(jac_is_infinity)(b);
    if (ia || ib)
        return ia && ib;
    FE z1z1, z2z2, l, r;
    FE_(sqr)(&z1z1, &a->z);
    FE_(sqr)(&z2z2, &b->z);
    FE_(mul)(&l, &a->x, &z2z2);
    FE_(mul)(&r, &b->x, &z1z1);
    if (!FE_(eq)(&l, &r))
        return false;
    FE_(mul)(&z2z2, &z2z2, &b->z);
    FE_(mul)(&z1z1, &z1z1, &a->z);
    FE_(mul)(&l, &a->y, &z2z2);
    FE_(mul)(&r, &b->y, &z1z1);
    return FE_(eq)(&l, &r);
}

/* a == b with b affine: X == x Z^2 and Y == y Z^3. */
static __attribute__((unused)) bool G_(jac_eq_affine_)(const JAC *a, const AFF *b)
{
    bool ia = G_(jac_is_infinity)(a), ib = G_(affine_is_infinity)(b);
    if (ia || ib)
        return ia && ib;
    FE zz, t;
    FE_(sqr)(&zz, &a->z);
    FE_(mul)(&t, &b->x, &zz);
    if (!FE_(eq)(&t, &a->x))
        return false;
    FE_(mul)(&zz, &zz, &a->z);
    FE_(mul)(&t, &b->y, &zz);
    return FE_(eq)(&t, &a->y);
}

void G_(jac_from_affine)(JAC *out, const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        G_(jac_infinity)(out);
        return;
    }
    out->x = p->x;
    out->y = p->y;
    FE_(one)(&out->z);
}

/* Constant-time inversion: the point may derive from secret scalars. */
void G_(jac_to_affine)(AFF *out, const JAC *p)
{
    if (G_(jac_is_infinity)(p)) {
        G_(affine_infinity)(out);
        return;
    }
    FE zi, zi2;
    FE_(inv)(&zi, &p->z);
    FE_(sqr)(&zi2, &zi);
    FE_(mul)(&out->x, &p->x, &zi2);
    FE_(mul)(&zi2, &zi2, &zi);
    FE_(mul)(&out->y, &p->y, &zi2);
}

/* Montgomery's trick with out[i].x as the prefix-product scratch, so no
   allocation: 1 inversion + 3(n-1)M for the inverses, then 3M + 1S per
   point. Infinity (Z = 0) is skipped and written as zeros. out must not
   overlap in. */
void G_(jac_batch_to_affine)(AFF *out, const JAC *in, size_t n)
{
    FE acc, inv, zi, zi2;
    FE_(one)(&acc);
    for (size_t i = 0; i < n; i++) {
        if (G_(jac_is_infinity)(&in[i]))
            continue;
        out[i].x = acc;
        FE_(mul)(&acc, &acc, &in[i].z);
    }
    FE_(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (G_(jac_is_infinity)(&in[i])) {
            G_(affine_infinity)(&out[i]);
            continue;
        }
        FE_(mul)(&zi, &inv, &out[i].x);     /* 1 / Z_i */
        FE_(mul)(&inv, &inv, &in[i].z);     /* 1 / (Z_0 ... Z_{i-1}) */
        FE_(sqr)(&zi2, &zi);
        FE_(mul)(&out[i].x, &in[i].x, &zi2);
        FE_(mul)(&zi2, &zi2, &zi);
        FE_(mul)(&out[i].y, &in[i].y, &zi2);
    }
}

void G_(jac_neg)(JAC *out, const JAC *p)
{
    out->x = p->x;
    FEI_(neg)(&out->y, &p->y);
    out->z = p->z;
}

/* Doubling for a = 0, 3M + 4S and 10 add/sub (dbl-2009-l saves one
   product for four more additions, a loss while an addition costs over half
   a product):
   U = 2Y^2, S = 2XU (= 4XY^2), M = 3X^2, X3 = M^2 - 2S,
   Y3 = M(S - X3) - 2U^2 (= 8Y^4), Z3 = 2YZ. Infinity stays infinity. */
void G_(jac_dbl)(JAC *out, const JAC *p)
{
    FE u, s, m, t, z3;
    FE_(mul)(&z3, &p->y, &p->z);
    FEI_(dbl)(&z3, &z3);
    FE_(sqr)(&u, &p->y);
    FEI_(dbl)(&u, &u);
    FE_(mul)(&s, &p->x, &u);
    FEI_(dbl)(&s, &s);
    FE_(sqr)(&m, &p->x);
    G_(fe_triple_)(&m, &m);
    FE_(sqr)(&u, &u);
    FEI_(dbl)(&u, &u);                    /* 8Y^4 */
    FE_(sqr)(&t, &m);
    FEI_(sub)(&t, &t, &s);
    FEI_(sub)(&out->x, &t, &s);
    FEI_(sub)(&s, &s, &out->x);
    FE_(mul)(&s, &s, &m);
    FEI_(sub)(&out->y, &s, &u);
    out->z = z3;
}

/* The generic part of add-1998-cmo-2, 12M + 4S, valid when p, q are
   finite and p != +-q:
   U1 = X1 Z2^2, U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3, H = U2 - U1,
   r = S2 - S1, X3 = r^2 - H^3 - 2 U1 H^2, Y3 = r(U1 H^2 - X3) - S1 H^3,
   Z3 = Z1 Z2 H. Also returns H and r, from which the caller tells the
   special cases: H = 0 and r = 0 means p == q; H = 0 alone p == -q (then
   Z3 = 0, infinity, already). out may alias p or q. */
static inline void G_(jac_add_generic_)(JAC *out, FE *h_out, FE *r_out, const JAC *p, const JAC *q)
{
    FE z1z1, z2z2, u1, u2, s1, s2, h, r, hh, hhh, v, t;
    FE_(sqr)(&z1z1, &p->z);
    FE_(sqr)(&z2z2, &q->z);
    FE_(mul)(&u1, &p->x, &z2z2);
    FE_(mul)(&u2, &q->x, &z1z1);
    FE_(mul)(&s1, &p->y, &q->z);
    FE_(mul)(&s1, &s1, &z2z2);
    FE_(mul)(&s2, &q->y, &p->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FEI_(sub)(&h, &u2, &u1);
    FEI_(sub)(&r, &s2, &s1);
    FE_(sqr)(&hh, &h);
    FE_(mul)(&hhh, &hh, &h);
    FE_(mul)(&v, &u1, &hh);
    FE_(mul)(&t, &p->z, &q->z);
    FE_(mul)(&out->z, &t, &h);
    FE_(sqr)(&t, &r);
    FEI_(sub)(&t, &t, &hhh);
    FEI_(sub)(&t, &t, &v);
    FEI_(sub)(&out->x, &t, &v);
    FEI_(sub)(&v, &v, &out->x);
    FE_(mul)(&v, &v, &r);
    FE_(mul)(&s1, &s1, &hhh);
    FEI_(sub)(&out->y, &v, &s1);
    *h_out = h;
    *r_out = r;
}

void G_(jac_add)(JAC *out, const JAC *p, const JAC *q)
{
    if (G_(jac_is_infinity)(p)) {
        *out = *q;
        return;
    }
    if (G_(jac_is_infinity)(q)) {
        *out = *p;
        return;
    }
    JAC res;
    FE h, r;
    G_(jac_add_generic_)(&res, &h, &r, p, q);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&r))
            G_(jac_dbl)(out, p);
        else
            G_(jac_infinity)(out);
        return;
    }
    *out = res;
}

/* Branch-free complete add for the constant-time ladder: the generic sum,
   the double of p, and masked selection between them, p and q. */
static void G_(jac_add_ct_)(JAC *out, const JAC *p, const JAC *q)
{
    JAC sum, d;
    FE h, r;
    G_(jac_add_generic_)(&sum, &h, &r, p, q);
    G_(jac_dbl)(&d, p);
    uint64_t m_eq = G_(mask_)(FE_(is_zero)(&h)) & G_(mask_)(FE_(is_zero)(&r));
    uint64_t m_pinf = G_(mask_)(G_(jac_is_infinity)(p));
    uint64_t m_qinf = G_(mask_)(G_(jac_is_infinity)(q));
    CT_SELECT(&sum, m_eq, &d, &sum);
    CT_SELECT(&sum, m_qinf, p, &sum);
    CT_SELECT(&sum, m_pinf, q, &sum);
    *out = sum;
}

/* Mixed add (cmo with Z2 = 1), 8M + 3S:
   U2 = x2 Z1^2, S2 = y2 Z1^3, H = U2 - X1, r = S2 - Y1,
   X3 = r^2 - H^3 - 2 X1 H^2, Y3 = r(X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H. */
void G_(jac_add_affine)(JAC *out, const JAC *p, const AFF *q)
{
    if (G_(affine_is_infinity)(q)) {
        *out = *p;
        return;
    }
    if (G_(jac_is_infinity)(p)) {
        G_(jac_from_affine)(out, q);
        return;
    }
    FE z1z1, u2, s2, h, r, hh, hhh, v, t;
    FE_(sqr)(&z1z1, &p->z);
    FE_(mul)(&u2, &q->x, &z1z1);
    FE_(mul)(&s2, &q->y, &p->z);
    FE_(mul)(&s2, &s2, &z1z1);
    FEI_(sub)(&h, &u2, &p->x);
    FEI_(sub)(&r, &s2, &p->y);
    if (FE_(is_zero)(&h)) {
        if (FE_(is_zero)(&r))
            G_(jac_dbl)(out, p);
        else
            G_(jac_infinity)(out);
        return;
    }
    FE_(sqr)(&hh, &h);
    FE_(mul)(&hhh, &hh, &h);
    FE_(mul)(&v, &p->x, &hh);
    FE_(mul)(&t, &p->y, &hhh);       /* Y1 H^3, before out may overwrite p */
    FE_(mul)(&out->z, &p->z, &h);
    FE_(sqr)(&s2, &r);
    FEI_(sub)(&s2, &s2, &hhh);
    FEI_(sub)(&s2, &s2, &v);
    FEI_(sub)(&out->x, &s2, &v);
    FEI_(sub)(&v, &v, &out->x);
    FE_(mul)(&v, &v, &r);
    FEI_(sub)(&out->y, &v, &t);
}

/* ---- scalar multiplication -------------------------------------------- */

/* Constant time in k: fixed 4-bit windows over the 256-bit canonical k
   (64 windows), a 16-entry table 0..15 P read by a full masked scan, and
   the branch-free complete add. 252 dbl + 64 complete adds. */
void G_(jac_mul)(JAC *out, const JAC *p, const SC *k)
{
    uint64_t e[4];
    JAC table[16], acc, t;
    SC_(to_limbs)(e, k);
    G_(jac_infinity)(&table[0]);
    table[1] = *p;
    for (int i = 2; i < 16; i++) {
        if (i & 1)
            G_(jac_add)(&table[i], &table[i - 1], p);
        else
            G_(jac_dbl)(&table[i], &table[i / 2]);
    }
    G_(jac_infinity)(&acc);
    for (int w = 63; w >= 0; w--) {
        if (w != 63)
            for (int j = 0; j < 4; j++)
                G_(jac_dbl)(&acc, &acc);
        uint64_t d = (e[w / 16] >> (4 * (w % 16))) & 15;
        G_(jac_infinity)(&t);
        for (uint64_t j = 0; j < 16; j++) {
            uint64_t m = 0 - (((j ^ d) - 1) >> 63);   /* all ones iff j == d */
            CT_SELECT(&t, m, &table[j], &t);
        }
        G_(jac_add_ct_)(&acc, &acc, &t);
    }
    *out = acc;
    cz_wipe(e, sizeof e);
    cz_wipe(&t, sizeof t);
}

/* Variable time: left-to-right sliding window over odd multiples
   P, 3P, ..., (2^w - 1)P, w chosen from the bit length (about n/(w+1)
   adds plus 2^(w-1) for the table). */
void G_(jac_mul_var)(JAC *out, const JAC *p, const uint64_t *k, size_t k_limbs)
{
    size_t nbits = 0;
    for (size_t i = k_limbs; i-- > 0;)
        if (k[i]) {
            nbits = 64 * i + 64 - (size_t)__builtin_clzll(k[i]);
            break;
        }
    if (nbits == 0 || G_(jac_is_infinity)(p)) {
        G_(jac_infinity)(out);
        return;
    }
    int w = nbits >= 192 ? 5 : nbits >= 48 ? 4 : nbits >= 12 ? 3 : 1;
    JAC table[16], p2, acc;
    table[0] = *p;
    if (w > 1) {
        G_(jac_dbl)(&p2, p);
        for (int i = 1; i < (1 << (w - 1)); i++)
            G_(jac_add)(&table[i], &table[i - 1], &p2);
    }
#define BIT_(i) ((k[(i) / 64] >> ((i) % 64)) & 1)
    bool started = false;
    long i = (long)nbits - 1;
    G_(jac_infinity)(&acc);
    while (i >= 0) {
        if (!BIT_((size_t)i)) {
            if (started)
                G_(jac_dbl)(&acc, &acc);
            i--;
            continue;
        }
        long j = i - w + 1 > 0 ? i - w + 1 : 0;
        while (!BIT_((size_t)j))
            j++;
        unsigned val = 0;
        for (long b = i; b >= j; b--)
            val = (val << 1) | (unsigned)BIT_((size_t)b);
        if (started) {
            for (long b = i; b >= j; b--)
                G_(jac_dbl)(&acc, &acc);
            G_(jac_add)(&acc, &acc, &table[val >> 1]);
        } else {
            acc = table[val >> 1];
            started = true;
        }
        i = j - 1;
    }
#undef BIT_
    *out = acc;
}

#ifdef G_X_ABS
/* out = |x| p for the BLS parameter |x| = 0xd201000000010000 (64 bits,
   6 set): double-and-add with mixed adds, 63 dbl + 5 madd. */
static void G_(mul_x_abs_affine_)(JAC *out, const AFF *p)
{
    const uint64_t x = G_X_ABS;
    JAC acc;
    G_(jac_from_affine)(&acc, p);
    for (int b = 62; b >= 0; b--) {
        G_(jac_dbl)(&acc, &acc);
        if ((x >> b) & 1)
            G_(jac_add_affine)(&acc, &acc, p);
    }
    *out = acc;
}
#endif

/* ---- XYZZ: (X, Y, ZZ, ZZZ) is (X/ZZ, Y/ZZZ) ----------------------------- */

void G_(xyzz_infinity)(XYZZ *out) { memset(out, 0, sizeof *out); }

void G_(xyzz_from_affine)(XYZZ *out, const AFF *p)
{
    if (G_(affine_is_infinity)(p)) {
        G_(xyzz_infinity)(out);
        return;
    }
    out->x = p->x;
    out->y = p->y;
    FE_(one)(&out->zz);
    FE_(one)(&out->zzz);
}

/* With Z = ZZZ/ZZ (ZZ = Z^2, ZZZ = Z^3 up to the common scale), Jacobian
   (X ZZ^2, Y ZZZ^2, ZZZ) is the same point: 2M + 2S. */
void G_(xyzz_to_jac)(JAC *out, const XYZZ *p)
{
    if (FE_(is_zero)(&p->zz)) {
        G_(jac_infinity)(out);
        return;
    }
    FE t;
    JAC r;
    FE_(sqr)(&t, &p->zz);
    FE_(mul)(&r.x, &p->x, &t);
    FE_(sqr)(&t, &p->zzz);
    FE_(mul)(&r.y, &p->y, &t);
    r.z = p->zzz;
    *out = r;
}

/* dbl-2008-s-1 (a = 0), 6M + 3S:
   U = 2Y, V = U^2, W = U V, S = X V, M = 3X^2, X3 = M^2 - 2S,
   Y3 = M(S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ. Infinity stays. */
void G_(xyzz_dbl)(XYZZ *out, const XYZZ *p)
{
    FE u, v, w, s, m, t;
    FEI_(dbl)(&u, &p->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &p->x, &v);
    FE_(sqr)(&m, &p->x);
    G_(fe_triple_)(&m, &m);
    FE_(mul)(&t, &w, &p->y);             /* W Y */
    FE_(mul)(&out->zz, &v, &p->zz);
    FE_(mul)(&out->zzz, &w, &p->zzz);
    FE_(sqr)(&u, &m);
    FEI_(sub)(&u, &u, &s);
    FEI_(sub)(&out->x, &u, &s);
    FEI_(sub)(&s, &s, &out->x);
    FE_(mul)(&s, &s, &m);
    FEI_(sub)(&out->y, &s, &t);
}

/* mdbl-2008-s-1: 2 (x, y) for affine input, 4M + 3S (ZZ = ZZZ = 1). */
static void G_(xyzz_dbl_affine_)(XYZZ *out, const AFF *q)
{
    FE u, v, w, s, m, t;
    FEI_(dbl)(&u, &q->y);
    FE_(sqr)(&v, &u);
    FE_(mul)(&w, &u, &v);
    FE_(mul)(&s, &q->x, &v);
    FE_(sqr)(&m, &q->x);
    G_(fe_triple_)(&m, &m);
    FE_(mul)(&t, &w, &q->y);
    out->zz = v;
    out->zzz = w;
    FE_(sqr)(&u, &m);
    FEI_(sub)(&u, &u, &s);
    FEI_(sub)(&out->x, &u, &s);
    FEI_(sub)(&s, &s, &out->x);
    FE_(mul)(&s, &s, &m);
    FEI_(sub)(&out->y, &s, &t);
}

/* add-2008-s, 12M + 2S:
   U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1,
   R = S2 - S1, PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q,
   Y3 = R(Q - X3) - S1 PPP, ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP. */
void G_(xyzz_add)(XYZZ *out, const XYZZ *p, const XYZZ *q)
{
    if (FE_(is_zero)(&p->zz)) {
        *out = *q;
        return;
    }
    if (FE_(is_zero)(&q->zz)) {
        *out = *p;
        return;
    }
    FE u1, u2, s1, s2, pd, r, pp, ppp, qq, t;
    FE_(mul)(&u1, &p->x, &q->zz);
    FE_(mul)(&u2, &q->x, &p->zz);
    FE_(mul)(&s1, &p->y, &q->zzz);
    FE_(mul)(&s2, &q->y, &p->zzz);
    FEI_(sub)(&pd, &u2, &u1);
    FEI_(sub)(&r, &s2, &s1);
    if (FE_(is_zero)(&pd)) {
        if (FE_(is_zero)(&r))
            G_(xyzz_dbl)(out, p);
        else
            G_(xyzz_infinity)(out);
        return;
    }
    FE_(sqr)(&pp, &pd);
    FE_(mul)(&ppp, &pp, &pd);
    FE_(mul)(&qq, &u1, &pp);
    FE_(mul)(&t, &p->zz, &q->zz);
    FE_(mul)(&out->zz, &t, &pp);
    FE_(mul)(&t, &p->zzz, &q->zzz);
    FE_(mul)(&out->zzz, &t, &ppp);
    FE_(sqr)(&t, &r);
    FEI_(sub)(&t, &t, &ppp);
    FEI_(sub)(&t, &t, &qq);
    FEI_(sub)(&out->x, &t, &qq);
    FEI_(sub)(&qq, &qq, &out->x);
    FE_(mul)(&qq, &qq, &r);
    FE_(mul)(&s1, &s1, &ppp);
    FEI_(sub)(&out->y, &qq, &s1);
}

/* madd-2008-s, 8M + 2S, with q's y given separately (q.y or -q.y):
   U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2,
   PPP = P PP, Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1 PPP,
   ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP. */
static inline void G_(xyzz_madd_)(XYZZ *out, const XYZZ *p, const FE *qx, const FE *qy)
{
    FE u2, s2, pd, r, pp, ppp, qq, t;
    FE_(mul)(&u2, qx, &p->zz);
    FE_(mul)(&s2, qy, &p->zzz);
    FEI_(sub)(&pd, &u2, &p->x);
    FEI_(sub)(&r, &s2, &p->y);
    if (FE_(is_zero)(&pd)) {
        if (FE_(is_zero)(&r)) {
            AFF a;
            a.x = *qx;
            a.y = *qy;
            G_(xyzz_dbl_affine_)(out, &a);
        } else {
            G_(xyzz_infinity)(out);
        }
        return;
    }
    FE_(sqr)(&pp, &pd);
    FE_(mul)(&ppp, &pp, &pd);
    FE_(mul)(&qq, &p->x, &pp);
    FE_(mul)(&t, &p->y, &ppp);           /* Y1 PPP */
    FE_(mul)(&out->zz, &p->zz, &pp);
    FE_(mul)(&out->zzz, &p->zzz, &ppp);
    FE_(sqr)(&s2, &r);
    FEI_(sub)(&s2, &s2, &ppp);
    FEI_(sub)(&s2, &s2, &qq);
    FEI_(sub)(&out->x, &s2, &qq);
    FEI_(sub)(&qq, &qq, &out->x);
    FE_(mul)(&qq, &qq, &r);
    FEI_(sub)(&out->y, &qq, &t);
}

void G_(xyzz_add_affine)(XYZZ *out, const XYZZ *p, const AFF *q)
{
    if (G_(affine_is_infinity)(q)) {
        *out = *p;
        return;
    }
    if (FE_(is_zero)(&p->zz)) {
        G_(xyzz_from_affine)(out, q);
        return;
    }
    G_(xyzz_madd_)(out, p, &q->x, &q->y);
}

void G_(xyzz_sub_affine)(XYZZ *out, const XYZZ *p, const AFF *q)
{
    if (G_(affine_is_infinity)(q)) {
        *out = *p;
        return;
    }
    FE ny;
    FEI_(neg)(&ny, &q->y);
    if (FE_(is_zero)(&p->zz)) {
        out->x = q->x;
        out->y = ny;
        FE_(one)(&out->zz);
        FE_(one)(&out->zzz);
        return;
    }
    G_(xyzz_madd_)(out, p, &q->x, &ny);
}
