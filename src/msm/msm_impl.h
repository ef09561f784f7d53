/*
 * msm_impl.h: Pippenger and the bit-sum of msm.h, written once over a
 * group and included by msm_g1.c and msm_g2.c, which define
 *   FE, FE_(op)     the coordinate field (cz_fp / cz_fp2) and its functions
 *   G_(op)          the curve prefix (cz_g1_ / cz_g2_)
 *   AFF, JAC, XYZZ  the point types
 *   IS_G2           0 or 1
 *
 * Batched affine additions (per pending pair (B, P), B a bucket, P a point
 * with y possibly negated), after one inversion of the product of all
 * denominators:
 *   den = xP - xB                 (or 2yB when P == B: doubling)
 *   lambda = (yP - yB) / den      (or 3xB^2 / den)
 *   x3 = lambda^2 - xB - xP,  y3 = lambda (xB - x3) - yB
 * Cost 5M + 1S each (prefix product 1M, unwinding 2M, lambda 1M, y3 1M,
 * lambda^2 1S) plus a share of the inversion. P == -B empties the bucket.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"

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

static void G_(ba_flush_)(G_(ba_) *s)
{
    if (s->b_n == 0)
        return;
    FE acc, inv, t, lam;
    FE_(one)(&acc);
    /* pass 1: denominators and their prefix products */
    for (size_t k = 0; k < s->b_n; k++) {
        if (k + 8 < s->b_n) { /* buckets are scattered over MiBs: fetch ahead */
            const char *pf = (const char *)&s->bk[s->batch[k + 8].bk];
            __builtin_prefetch(pf);
            __builtin_prefetch(pf + 64);
            __builtin_prefetch(pf + sizeof(AFF) - 1);
        }
        const AFF *b = &s->bk[s->batch[k].bk];
        const AFF *p = &s->pts[s->batch[k].pt & OP_IDX];
        FE *den = &s->den[k];
        FE_(sub)(den, &p->x, &b->x);
        uint8_t kd = 0;
        if (FE_(is_zero)(den)) {
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
        s->pref[k] = acc;
        if (kd != 2)
            FE_(mul)(&acc, &acc, den);
    }
    FE_(inv_var)(&inv, &acc);
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
        FE_(mul)(&t, &inv, &s->pref[k]);   /* 1/den */
        FE_(mul)(&inv, &inv, &s->den[k]);
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
    s->pref = malloc(s->cap * sizeof *s->pref);
    s->den = malloc(s->cap * sizeof *s->den);
    s->kind = malloc(s->cap);
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
static void G_(batch_add_)(AFF *const *acc, const AFF *const *add, size_t m, FE *pref, FE *den,
                           uint8_t *kind)
{
    FE a, inv, t, lam;
    FE_(one)(&a);
    for (size_t k = 0; k < m; k++) {
        const AFF *A = acc[k], *B = add[k];
        uint8_t kd = 0;
        if (G_(affine_is_infinity)(B)) {
            kd = 4;                    /* A stays */
        } else if (G_(affine_is_infinity)(A)) {
            kd = 3;                    /* A = B */
        } else {
            FE_(sub)(&den[k], &B->x, &A->x);
            if (FE_(is_zero)(&den[k])) {
                if (FE_(eq)(&A->y, &B->y)) {
                    kd = 1;            /* doubling */
                    FE_(dbl)(&den[k], &A->y);
                } else {
                    kd = 2;            /* A = -B: infinity */
                }
            }
        }
        kind[k] = kd;
        pref[k] = a;
        if (kd <= 1)
            FE_(mul)(&a, &a, &den[k]);
    }
    FE_(inv_var)(&inv, &a);
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
        FE_(mul)(&t, &inv, &pref[k]);
        FE_(mul)(&inv, &inv, &den[k]);
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
    bool affine;
    XYZZ *part;      /* n_win * n_rng window sums */
    atomic_int nomem;
} G_(pip_ctx_);

static void G_(task_affine_)(G_(pip_ctx_) *c, unsigned w, size_t k0, size_t k1, XYZZ *out)
{
    size_t nb = (size_t)1 << (c->c - 1);
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
        m += !FE_(is_zero)(&bk[j].zz);
    if (G_(sparse_ok_)(m, top)) {
        for (size_t j = 0; j < top; j++)
            if (!FE_(is_zero)(&bk[j].zz))
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

cz_status G_(msm)(JAC *out, const AFF *points, const cz_fr *scalars, size_t n,
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
    cz_status st = cz_msm_prepare_(&prep, points, G_(is_inf_cb_), scalars, n, opts->form,
                                   !opts->no_split, pool);
    if (st != CZ_OK)
        return st;
    XYZZ acc;
    G_(xyzz_infinity)(&acc);
    if (prep.n_big) {
        unsigned c = opts->window ? opts->window : cz_msm_window_for(prep.n_big, threads, IS_G2);
        unsigned n_win = (256 + c - 1) / c;
        unsigned n_rng = cz_msm_ranges_(prep.n_big, n_win, threads);
        bool affine;
        if (opts->algo == CZ_MSM_ALGO_XYZZ)
            affine = false;
        else if (opts->algo == CZ_MSM_ALGO_AFFINE)
            affine = true;
        else
            affine = c >= 8 && prep.n_big / n_rng >= 256;
        G_(pip_ctx_) pc = {points, &prep, c, n_win, n_rng, affine,
                           malloc((size_t)n_win * n_rng * sizeof(XYZZ)), 0};
        if (!pc.part) {
            cz_msm_prep_free_(&prep);
            return CZ_ERR_NOMEM;
        }
        cz_parallel_for(pool, (size_t)n_win * n_rng, 1, G_(pip_fn_), &pc);
        if (atomic_load(&pc.nomem)) {
            free(pc.part);
            cz_msm_prep_free_(&prep);
            return CZ_ERR_NOMEM;
        }
        /* Horner over windows, top first: acc = 2^c acc + W_w */
        for (unsigned w = n_win; w-- > 0;) {
            if (w != n_win - 1)
                for (unsigned i = 0; i < c; i++)
                    G_(xyzz_dbl)(&acc, &acc);
            for (unsigned r = 0; r < n_rng; r++)
                G_(xyzz_add)(&acc, &acc, &pc.part[(size_t)w * n_rng + r]);
        }
        free(pc.part);
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
