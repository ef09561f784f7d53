/*
 * poseidon.c: Poseidon over BLS12-381 Fr with neptune's parameters (the
 * hash of Filecoin's tree_c, tree_r_last and column commitments), native
 * and in circuit. See gadgets.h and docs/CIRCUITS.md.
 *
 * DESIGN. Parameters for arity 2, 8, 11 (t = arity + 1, R_F = 8,
 * R_P = 55 / 57 / 57) are generated once per arity on first use
 * (pthread_once): the round constants by the Grain LFSR of the Poseidon
 * paper (seeded with field 1, S-box 1, n = 255, t, R_F, R_P and 30 ones;
 * 160 bits discarded; self-shrinking output; 255-bit big-endian candidates
 * kept when below r), the Cauchy MDS matrix M[i][j] = 1 / (i + t + j).
 * The textbook permutation adds t constants every round (partial rounds
 * too), applies x^5 to all elements (full) or element 0 (partial), then
 * multiplies by M.
 *
 * Native hashing uses an equivalent, cheaper round form (the same outputs,
 * checked against the textbook form in tests):
 *  - constants of a partial round other than element 0's pass through the
 *    round linearly, so they are pushed forward: d_1 = c_1,
 *    d_{k+1} = c_{k+1} + M (0, d_k[1..]); a partial round adds the scalar
 *    d_k[0] only, and M (0, d_R[1..]) joins the next full round's constants;
 *  - with M = [[m, v], [w, N]] (N the lower-right (t-1)^2 block), a partial
 *    round's M equals diag(1, N) * [[m, v], [N^-1 w, I]], and diag(1, N^j)
 *    commutes with an S-box on element 0 only, so partial round k (1-based)
 *    multiplies by the sparse [[m, v N^(k-1)], [N^-k w, I]] (2t - 1
 *    products instead of t^2) and N^R_P is applied once at the end.
 * For t = 9: about 2,100 products per hash instead of 5,600.
 *
 * The gadget's constraints come from a symbolic run of the textbook form
 * made once with the parameters: every state element is an affine form
 * over the gadget's local variables. An S-box whose input is a constant
 * (the domain tag in round 1) is computed, free; one whose input is
 * 1 * v + c (a hash input in round 1) squares v + c directly: 3
 * constraints (v+c)^2 = x2, x2^2 = x4, x4 (v+c) = x5; any other input is
 * first allocated as y with <form> * 1 = y: 4 constraints. The output,
 * state[1] after the last MDS product, is allocated with one constraint.
 * So the cost is 3 (S - 1) + (S - arity) for S = t R_F + R_P S-boxes:
 * 311 / 505 / 598, neptune's counts (its circuit.rs does the same
 * allocations), and each aux variable has one constraint defining it. The
 * forms are stored as rows over local variables; SHAPE just emits them,
 * WITNESS computes the S-box inputs with the native form (the S-box inputs
 * are the same in both forms), recording y, y^2, y^4, y^5, and allocates
 * them.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "circuit/gadgets.h"

#define POS_RF 8u
#define POS_MAX_T 12u
#define POS_MAX_SBOX (POS_MAX_T * POS_RF + 57u)
/* inputs + 4 per S-box + the output */
#define POS_MAX_LOCAL (POS_MAX_T + 4u * POS_MAX_SBOX + 1u)

enum { SBOX_CONST = 0, SBOX_DIRECT = 1, SBOX_ALLOC = 2 };

typedef struct {
    uint32_t id;  /* local variable */
    cz_fr coef;
} pos_term;

typedef struct {
    uint32_t off, n; /* terms[off .. off + n) */
    cz_fr c;         /* constant part */
} pos_row;

typedef struct {
    uint8_t kind;     /* SBOX_* */
    uint32_t y_id;    /* ALLOC: the allocated input; DIRECT: the input variable */
    uint32_t x2_id;   /* x2, x4, x5 are x2_id, +1, +2 */
    pos_row in;       /* ALLOC: the input form; DIRECT: c of v + c */
} pos_sbox;

typedef struct {
    cz_poseidon_params pub; /* first: the public view */
    /* native, optimised round form */
    cz_fr *full_rc;   /* R_F * t constants of the full rounds (pushed ones folded in) */
    cz_fr *part_c;    /* R_P scalars */
    cz_fr *sp_row;    /* R_P * t: row 0 of each sparse matrix */
    cz_fr *sp_col;    /* R_P * (t - 1): column 0 below the diagonal */
    cz_fr *n_pow;     /* (t - 1)^2: N^R_P */
    /* gadget */
    pos_sbox *sbox;   /* S */
    unsigned n_sbox;
    pos_term *terms;
    uint32_t n_terms;
    pos_row out;
    uint32_t n_local; /* local variables, the output included */
    uint32_t n_aux;   /* allocated per call (= constraints) */
    uint32_t n_constraints;
    bool ok;
} pos_impl;

/* ---- Grain LFSR (Poseidon paper, appendix F; hadeshash create_rcs_grain.sage) ---- */

typedef struct {
    uint8_t b[80];
    unsigned pos; /* b[pos] is the oldest bit */
} grain;

static int grain_bit(grain *g)
{
    /* b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i */
    const uint8_t *b = g->b;
    unsigned p = g->pos;
    int nb = b[(p + 62) % 80] ^ b[(p + 51) % 80] ^ b[(p + 38) % 80] ^ b[(p + 23) % 80] ^
             b[(p + 13) % 80] ^ b[p];
    g->b[p] = (uint8_t)nb;
    g->pos = (p + 1) % 80;
    return nb;
}

static void grain_put(grain *g, unsigned *k, uint32_t v, unsigned nbits)
{
    for (unsigned i = 0; i < nbits; i++)
        g->b[(*k)++] = (uint8_t)((v >> (nbits - 1 - i)) & 1);
}

static void grain_init(grain *g, unsigned t, unsigned rf, unsigned rp)
{
    unsigned k = 0;
    grain_put(g, &k, 1, 2);    /* field: GF(p) */
    grain_put(g, &k, 1, 4);    /* S-box: as neptune seeds it */
    grain_put(g, &k, 255, 12); /* field size in bits */
    grain_put(g, &k, t, 12);
    grain_put(g, &k, rf, 10);
    grain_put(g, &k, rp, 10);
    while (k < 80)
        g->b[k++] = 1;
    g->pos = 0;
    for (int i = 0; i < 160; i++)
        (void)grain_bit(g);
}

/* Self-shrinking: pairs (a, b), output b when a = 1. */
static int grain_out(grain *g)
{
    for (;;) {
        int a = grain_bit(g);
        int b = grain_bit(g);
        if (a)
            return b;
    }
}

/* The next field element: 255 output bits, most significant first,
   retried while >= r. */
static void grain_field(grain *g, cz_fr *out)
{
    for (;;) {
        uint64_t l[4] = {0, 0, 0, 0};
        for (int i = 254; i >= 0; i--)
            if (grain_out(g))
                l[i / 64] |= 1ull << (i % 64);
        if (cz_fr_from_limbs(out, l))
            return;
    }
}

void cz_poseidon_round_constants(cz_fr *out, unsigned t, unsigned rf, unsigned rp)
{
    grain g;
    grain_init(&g, t, rf, rp);
    for (size_t i = 0; i < (size_t)(rf + rp) * t; i++)
        grain_field(&g, &out[i]);
}

/* ---- small dense linear algebra over Fr ---- */

static void fr_u64(cz_fr *out, uint64_t v) { cz_fr_set_u64(out, v); }

/* x^5 */
static inline void sbox5(cz_fr *x)
{
    cz_fr x2, x4;
    cz_fr_sqr(&x2, x);
    cz_fr_sqr(&x4, &x2);
    cz_fr_mul(x, &x4, x);
}

/* x^5, recording x, x^2, x^4, x^5 in tr[0..3] when tr is not NULL */
static inline void sbox5_trace(cz_fr *x, cz_fr *tr)
{
    if (!tr) {
        sbox5(x);
        return;
    }
    tr[0] = *x;
    cz_fr_sqr(&tr[1], x);
    cz_fr_sqr(&tr[2], &tr[1]);
    cz_fr_mul(x, &tr[2], x);
    tr[3] = *x;
}

/* out = a (n x n) * b (n x n) */
static void mat_mul(cz_fr *out, const cz_fr *a, const cz_fr *b, unsigned n)
{
    cz_fr tmp[POS_MAX_T * POS_MAX_T];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            cz_fr acc, p;
            cz_fr_zero(&acc);
            for (unsigned k = 0; k < n; k++) {
                cz_fr_mul(&p, &a[i * n + k], &b[k * n + j]);
                cz_fr_add(&acc, &acc, &p);
            }
            tmp[i * n + j] = acc;
        }
    memcpy(out, tmp, (size_t)n * n * sizeof *out);
}

/* Gauss-Jordan inverse; false if singular. */
static bool mat_inv(cz_fr *out, const cz_fr *in, unsigned n)
{
    cz_fr a[POS_MAX_T * POS_MAX_T];
    memcpy(a, in, (size_t)n * n * sizeof *a);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j)
                cz_fr_one(&out[i * n + j]);
            else
                cz_fr_zero(&out[i * n + j]);
        }
    for (unsigned c = 0; c < n; c++) {
        unsigned piv = c;
        while (piv < n && cz_fr_is_zero(&a[piv * n + c]))
            piv++;
        if (piv == n)
            return false;
        if (piv != c)
            for (unsigned j = 0; j < n; j++) {
                cz_fr s = a[c * n + j];
                a[c * n + j] = a[piv * n + j];
                a[piv * n + j] = s;
                s = out[c * n + j];
                out[c * n + j] = out[piv * n + j];
                out[piv * n + j] = s;
            }
        cz_fr inv;
        cz_fr_inv(&inv, &a[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            cz_fr_mul(&a[c * n + j], &a[c * n + j], &inv);
            cz_fr_mul(&out[c * n + j], &out[c * n + j], &inv);
        }
        for (unsigned r = 0; r < n; r++) {
            if (r == c || cz_fr_is_zero(&a[r * n + c]))
                continue;
            cz_fr f = a[r * n + c], p;
            for (unsigned j = 0; j < n; j++) {
                cz_fr_mul(&p, &f, &a[c * n + j]);
                cz_fr_sub(&a[r * n + j], &a[r * n + j], &p);
                cz_fr_mul(&p, &f, &out[c * n + j]);
                cz_fr_sub(&out[r * n + j], &out[r * n + j], &p);
            }
        }
    }
    return true;
}

/* out = M x (t x t, out may not alias x) */
static inline void mds_apply(cz_fr *out, const cz_fr *m, const cz_fr *x, unsigned t)
{
    for (unsigned i = 0; i < t; i++) {
        cz_fr acc, p;
        cz_fr_mul(&acc, &m[i * t], &x[0]);
        for (unsigned j = 1; j < t; j++) {
            cz_fr_mul(&p, &m[i * t + j], &x[j]);
            cz_fr_add(&acc, &acc, &p);
        }
        out[i] = acc;
    }
}

/* ---- the optimised native form ---- */

static bool build_native(pos_impl *q)
{
    const unsigned t = q->pub.t, rf = q->pub.rf, rp = q->pub.rp, h = rf / 2, n = t - 1;
    const cz_fr *rc = q->pub.round_constants, *m = q->pub.mds;
    q->full_rc = malloc((size_t)rf * t * sizeof(cz_fr));
    q->part_c = malloc((size_t)rp * sizeof(cz_fr));
    q->sp_row = malloc((size_t)rp * t * sizeof(cz_fr));
    q->sp_col = malloc((size_t)rp * n * sizeof(cz_fr));
    q->n_pow = malloc((size_t)n * n * sizeof(cz_fr));
    if (!q->full_rc || !q->part_c || !q->sp_row || !q->sp_col || !q->n_pow)
        return false;

    /* constants: full rounds as given, partial ones pushed forward */
    memcpy(q->full_rc, rc, (size_t)h * t * sizeof(cz_fr));
    memcpy(q->full_rc + (size_t)h * t, rc + (size_t)(h + rp) * t, (size_t)h * t * sizeof(cz_fr));
    cz_fr d[POS_MAX_T], carry[POS_MAX_T];
    memcpy(d, rc + (size_t)h * t, t * sizeof(cz_fr));
    for (unsigned k = 0; k < rp; k++) {
        q->part_c[k] = d[0];
        cz_fr_zero(&d[0]);
        mds_apply(carry, m, d, t);
        if (k + 1 < rp) {
            for (unsigned i = 0; i < t; i++)
                cz_fr_add(&d[i], &carry[i], &rc[(size_t)(h + k + 1) * t + i]);
        }
    }
    for (unsigned i = 0; i < t; i++)
        cz_fr_add(&q->full_rc[(size_t)h * t + i], &q->full_rc[(size_t)h * t + i], &carry[i]);

    /* sparse factors: M = [[m00, v], [w, N]] */
    cz_fr nmat[POS_MAX_T * POS_MAX_T], ninv[POS_MAX_T * POS_MAX_T];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            nmat[i * n + j] = m[(i + 1) * t + j + 1];
    if (!mat_inv(ninv, nmat, n))
        return false;
    cz_fr v[POS_MAX_T], w[POS_MAX_T], tmp[POS_MAX_T];
    for (unsigned j = 0; j < n; j++) {
        v[j] = m[j + 1];          /* v N^(k-1), starting at k = 1 */
        w[j] = m[(j + 1) * t];    /* N^-k w, computed before use */
    }
    for (unsigned k = 0; k < rp; k++) {
        /* w <- N^-1 w */
        for (unsigned i = 0; i < n; i++) {
            cz_fr acc, p;
            cz_fr_zero(&acc);
            for (unsigned j = 0; j < n; j++) {
                cz_fr_mul(&p, &ninv[i * n + j], &w[j]);
                cz_fr_add(&acc, &acc, &p);
            }
            tmp[i] = acc;
        }
        memcpy(w, tmp, n * sizeof(cz_fr));
        cz_fr *row = q->sp_row + (size_t)k * t;
        row[0] = m[0];
        memcpy(row + 1, v, n * sizeof(cz_fr));
        memcpy(q->sp_col + (size_t)k * n, w, n * sizeof(cz_fr));
        /* v <- v N (a row vector) */
        for (unsigned j = 0; j < n; j++) {
            cz_fr acc, p;
            cz_fr_zero(&acc);
            for (unsigned i = 0; i < n; i++) {
                cz_fr_mul(&p, &v[i], &nmat[i * n + j]);
                cz_fr_add(&acc, &acc, &p);
            }
            tmp[j] = acc;
        }
        memcpy(v, tmp, n * sizeof(cz_fr));
    }
    /* N^R_P */
    memcpy(q->n_pow, nmat, (size_t)n * n * sizeof(cz_fr));
    for (unsigned k = 1; k < rp; k++)
        mat_mul(q->n_pow, q->n_pow, nmat, n);
    return true;
}

/* The permutation in the optimised form; trace (may be NULL) receives, for
   each of the S S-boxes in textbook order (round by round, element by
   element), its input y and y^2, y^4, y^5 (4 S values): both forms share
   the S-box inputs. */
static void permute_fast(const pos_impl *q, cz_fr *s, cz_fr *trace)
{
    const unsigned t = q->pub.t, h = q->pub.rf / 2, rp = q->pub.rp, n = t - 1;
    const cz_fr *m = q->pub.mds;
    cz_fr x[POS_MAX_T];
    for (unsigned r = 0; r < q->pub.rf; r++) {
        if (r == h) {
            /* the partial rounds */
            for (unsigned k = 0; k < rp; k++) {
                const cz_fr *row = q->sp_row + (size_t)k * t, *col = q->sp_col + (size_t)k * n;
                cz_fr_add(&s[0], &s[0], &q->part_c[k]);
                sbox5_trace(&s[0], trace);
                if (trace)
                    trace += 4;
                cz_fr acc, p;
                cz_fr_mul(&acc, &row[0], &s[0]);
                for (unsigned j = 1; j < t; j++) {
                    cz_fr_mul(&p, &row[j], &s[j]);
                    cz_fr_add(&acc, &acc, &p);
                    cz_fr_mul(&p, &col[j - 1], &s[0]);
                    cz_fr_add(&s[j], &s[j], &p);
                }
                s[0] = acc;
            }
            for (unsigned i = 0; i < n; i++) {
                cz_fr acc, p;
                cz_fr_zero(&acc);
                for (unsigned j = 0; j < n; j++) {
                    cz_fr_mul(&p, &q->n_pow[i * n + j], &s[j + 1]);
                    cz_fr_add(&acc, &acc, &p);
                }
                x[i] = acc;
            }
            memcpy(s + 1, x, n * sizeof(cz_fr));
        }
        const cz_fr *c = q->full_rc + (size_t)r * t;
        for (unsigned i = 0; i < t; i++) {
            cz_fr_add(&x[i], &s[i], &c[i]);
            sbox5_trace(&x[i], trace);
            if (trace)
                trace += 4;
        }
        mds_apply(s, m, x, t);
    }
}

/* ---- the symbolic run for the gadget ---- */

static bool push_term(pos_impl *q, uint32_t *cap, uint32_t id, const cz_fr *c)
{
    if (q->n_terms == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 1024;
        pos_term *p = realloc(q->terms, nc * sizeof *p);
        if (!p)
            return false;
        q->terms = p;
        *cap = nc;
    }
    q->terms[q->n_terms].id = id;
    q->terms[q->n_terms].coef = *c;
    q->n_terms++;
    return true;
}

/* Store form f (width entries, constant at 0, local id i at i + 1) as a row
   over ids >= lo. */
static bool store_row(pos_impl *q, uint32_t *cap, pos_row *row, const cz_fr *f, uint32_t lo,
                      uint32_t hi)
{
    row->off = q->n_terms;
    row->c = f[0];
    for (uint32_t id = lo; id < hi; id++)
        if (!cz_fr_is_zero(&f[id + 1]) && !push_term(q, cap, id, &f[id + 1]))
            return false;
    row->n = q->n_terms - row->off;
    return true;
}

static bool build_gadget(pos_impl *q)
{
    const unsigned t = q->pub.t, rf = q->pub.rf, rp = q->pub.rp, h = rf / 2;
    const unsigned S = t * rf + rp, W = POS_MAX_LOCAL + 1;
    const cz_fr *rc = q->pub.round_constants, *m = q->pub.mds;
    cz_fr *f = calloc((size_t)2 * t * W, sizeof(cz_fr));
    q->sbox = calloc(S, sizeof *q->sbox);
    uint32_t cap = 0;
    bool ok = f && q->sbox;
    cz_fr *g = f ? f + (size_t)t * W : NULL;
    uint32_t lo = 0, next = q->pub.arity; /* live ids are in [lo, next) */
    unsigned si = 0;
    cz_fr one;
    cz_fr_one(&one);
    if (ok) {
        q->n_sbox = S;
        /* state: [tag, in_0 .. in_{arity-1}] */
        f[0] = q->pub.domain_tag;
        for (unsigned i = 1; i < t; i++)
            f[(size_t)i * W + i] = one; /* id i - 1 */
    }
    for (unsigned r = 0; ok && r < rf + rp; r++) {
        bool full = r < h || r >= h + rp;
        uint32_t round_lo = next;
        for (unsigned i = 0; i < t; i++) {
            cz_fr *fi = f + (size_t)i * W;
            cz_fr_add(&fi[0], &fi[0], &rc[(size_t)r * t + i]);
            if (!full && i > 0)
                continue;
            pos_sbox *sb = &q->sbox[si++];
            /* classify the input form */
            uint32_t nz = 0, last = 0;
            bool unit = false;
            for (uint32_t id = lo; id < next; id++)
                if (!cz_fr_is_zero(&fi[id + 1])) {
                    nz++;
                    last = id;
                }
            if (nz == 1)
                unit = cz_fr_eq(&fi[last + 1], &one);
            if (nz == 0) {
                sb->kind = SBOX_CONST;
                sbox5(&fi[0]);
                continue;
            }
            if (unit) {
                sb->kind = SBOX_DIRECT;
                sb->y_id = last;
                sb->in.c = fi[0];
                sb->in.n = 0;
                sb->in.off = q->n_terms;
            } else {
                sb->kind = SBOX_ALLOC;
                sb->y_id = next++;
                if (!store_row(q, &cap, &sb->in, fi, lo, sb->y_id)) {
                    ok = false;
                    break;
                }
            }
            sb->x2_id = next;
            next += 3;
            /* the element becomes x5 */
            memset(fi, 0, W * sizeof(cz_fr));
            fi[sb->x2_id + 2 + 1] = one;
        }
        if (!ok)
            break;
        if (full)
            lo = round_lo; /* every element is now a fresh x5 */
        /* MDS: g = M f over the live window and the constant */
        for (unsigned i = 0; i < t; i++) {
            cz_fr *gi = g + (size_t)i * W;
            memset(gi, 0, W * sizeof(cz_fr));
            for (unsigned j = 0; j < t; j++) {
                const cz_fr *fj = f + (size_t)j * W, *mij = &m[i * t + j];
                cz_fr p;
                cz_fr_mul(&p, mij, &fj[0]);
                cz_fr_add(&gi[0], &gi[0], &p);
                for (uint32_t id = lo; id < next; id++) {
                    if (cz_fr_is_zero(&fj[id + 1]))
                        continue;
                    cz_fr_mul(&p, mij, &fj[id + 1]);
                    cz_fr_add(&gi[id + 1], &gi[id + 1], &p);
                }
            }
        }
        cz_fr *sw = f;
        f = g;
        g = sw;
    }
    if (ok) {
        ok = store_row(q, &cap, &q->out, f + W, lo, next);
        q->n_local = next + 1;
        unsigned nc = 1, na = 1;
        for (unsigned k = 0; k < S; k++) {
            if (q->sbox[k].kind == SBOX_DIRECT) {
                nc += 3;
                na += 3;
            } else if (q->sbox[k].kind == SBOX_ALLOC) {
                nc += 4;
                na += 4;
            }
        }
        q->n_constraints = nc;
        q->n_aux = na;
    }
    free(f < g ? f : g);
    return ok && si == S && q->n_local <= POS_MAX_LOCAL;
}

/* ---- parameters ---- */

static pos_impl pos_tab[3];
static pthread_once_t pos_once[3] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void pos_build(pos_impl *q, unsigned arity, unsigned rp)
{
    cz_poseidon_params *p = &q->pub;
    p->arity = arity;
    p->t = arity + 1;
    p->rf = POS_RF;
    p->rp = rp;
    unsigned t = p->t;
    p->round_constants = malloc((size_t)(p->rf + rp) * t * sizeof(cz_fr));
    p->mds = malloc((size_t)t * t * sizeof(cz_fr));
    if (!p->round_constants || !p->mds)
        return;
    cz_poseidon_round_constants(p->round_constants, t, p->rf, rp);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_u64(&p->mds[i * t + j], (uint64_t)i + t + j);
            cz_fr_inv(&p->mds[i * t + j], &p->mds[i * t + j]);
        }
    fr_u64(&p->domain_tag, (1ull << arity) - 1);
    q->ok = build_native(q) && build_gadget(q);
}

static void once2(void) { pos_build(&pos_tab[0], 2, 55); }
static void once8(void) { pos_build(&pos_tab[1], 8, 57); }
static void once11(void) { pos_build(&pos_tab[2], 11, 57); }

const cz_poseidon_params *cz_poseidon_params_get(unsigned arity)
{
    int k;
    switch (arity) {
    case 2: pthread_once(&pos_once[0], once2); k = 0; break;
    case 8: pthread_once(&pos_once[1], once8); k = 1; break;
    case 11: pthread_once(&pos_once[2], once11); k = 2; break;
    default: return NULL;
    }
    return pos_tab[k].ok ? &pos_tab[k].pub : NULL;
}

static const pos_impl *impl_of(const cz_poseidon_params *p)
{
    for (int k = 0; k < 3; k++)
        if (p == &pos_tab[k].pub)
            return &pos_tab[k];
    return NULL;
}

unsigned cz_poseidon_constraints(const cz_poseidon_params *p)
{
    const pos_impl *q = p ? impl_of(p) : NULL;
    return q ? q->n_constraints : 0;
}

/* ---- native ---- */

void cz_poseidon_hash(const cz_poseidon_params *p, cz_fr *out, const cz_fr *in)
{
    const pos_impl *q = p ? impl_of(p) : NULL;
    if (!q) { /* a copy of the parameters: the textbook form needs no more */
        cz_poseidon_hash_plain(p, out, in);
        return;
    }
    if (!in || !out) {
        if (out)
            cz_fr_zero(out);
        return;
    }
    cz_fr s[POS_MAX_T];
    s[0] = p->domain_tag;
    memcpy(s + 1, in, p->arity * sizeof(cz_fr));
    permute_fast(q, s, NULL);
    *out = s[1];
}

void cz_poseidon_hash_plain(const cz_poseidon_params *p, cz_fr *out, const cz_fr *in)
{
    if (!p || !in || p->t > POS_MAX_T || p->t != p->arity + 1 || !p->round_constants || !p->mds) {
        if (out)
            cz_fr_zero(out);
        return;
    }
    const unsigned t = p->t, h = p->rf / 2;
    cz_fr s[POS_MAX_T], x[POS_MAX_T];
    s[0] = p->domain_tag;
    memcpy(s + 1, in, p->arity * sizeof(cz_fr));
    for (unsigned r = 0; r < p->rf + p->rp; r++) {
        bool full = r < h || r >= h + p->rp;
        for (unsigned i = 0; i < t; i++) {
            cz_fr_add(&x[i], &s[i], &p->round_constants[(size_t)r * t + i]);
            if (full || i == 0)
                sbox5(&x[i]);
        }
        mds_apply(s, p->mds, x, t);
    }
    *out = s[1];
}

/* ---- gadget ---- */

static void lc_row(cz_lc *lc, const pos_impl *q, const pos_row *row, const cz_var *vars, bool *ok)
{
    cz_lc_clear(lc);
    for (uint32_t k = 0; k < row->n; k++) {
        const pos_term *tm = &q->terms[row->off + k];
        *ok &= cz_lc_add(lc, vars[tm->id], &tm->coef);
    }
    if (!cz_fr_is_zero(&row->c))
        *ok &= cz_lc_add(lc, cz_var_one(), &row->c);
}

static void lc_var(cz_lc *lc, cz_var v, const cz_fr *c, bool *ok)
{
    cz_fr one;
    cz_fr_one(&one);
    cz_lc_clear(lc);
    *ok &= cz_lc_add(lc, v, &one);
    if (c && !cz_fr_is_zero(c))
        *ok &= cz_lc_add(lc, cz_var_one(), c);
}

cz_num cz_poseidon_gadget(cz_cs *cs, const cz_poseidon_params *p, const cz_num *in)
{
    cz_num res;
    memset(&res, 0, sizeof res);
    const pos_impl *q = p ? impl_of(p) : NULL;
    if (!q || !in) {
        cz_cs_fail(cs, CZ_ERR_ARG, "poseidon gadget: %s", q ? "no inputs" : "unknown parameters");
        return res;
    }
    const bool rec = cz_cs_records(cs), vals = cz_cs_has_values(cs);
    cz_var vars[POS_MAX_LOCAL];
    cz_fr trace[4 * POS_MAX_SBOX]; /* y, y^2, y^4, y^5 per S-box */
    for (unsigned i = 0; i < p->arity; i++)
        vars[i] = in[i].var;
    if (vals) {
        cz_fr s[POS_MAX_T];
        s[0] = p->domain_tag;
        for (unsigned i = 0; i < p->arity; i++)
            s[i + 1] = in[i].value;
        permute_fast(q, s, trace);
        res.value = s[1];
    }
    cz_lc a, b, c;
    cz_lc_init(&a);
    cz_lc_init(&b);
    cz_lc_init(&c);
    bool ok = true;
    cz_fr one;
    cz_fr_one(&one);
    cz_cs_push(cs, "poseidon");
    for (unsigned k = 0; k < q->n_sbox; k++) {
        const pos_sbox *sb = &q->sbox[k];
        if (sb->kind == SBOX_CONST)
            continue;
        const cz_fr *tr = vals ? &trace[4 * k] : NULL; /* y, x2, x4, x5 */
        if (sb->kind == SBOX_ALLOC) {
            vars[sb->y_id] = cz_cs_alloc(cs, tr);
            if (rec) {
                lc_row(&a, q, &sb->in, vars, &ok);
                lc_var(&b, cz_var_one(), NULL, &ok);
                lc_var(&c, vars[sb->y_id], NULL, &ok);
            }
            cz_cs_enforce(cs, &a, &b, &c);
        }
        vars[sb->x2_id] = cz_cs_alloc(cs, tr ? tr + 1 : NULL);
        vars[sb->x2_id + 1] = cz_cs_alloc(cs, tr ? tr + 2 : NULL);
        vars[sb->x2_id + 2] = cz_cs_alloc(cs, tr ? tr + 3 : NULL);
        const cz_fr *yc = sb->kind == SBOX_DIRECT ? &sb->in.c : NULL;
        if (rec) {
            lc_var(&a, vars[sb->y_id], yc, &ok);
            lc_var(&c, vars[sb->x2_id], NULL, &ok);
        }
        cz_cs_enforce(cs, &a, &a, &c); /* y^2 = x2 */
        if (rec) {
            lc_var(&a, vars[sb->x2_id], NULL, &ok);
            lc_var(&c, vars[sb->x2_id + 1], NULL, &ok);
        }
        cz_cs_enforce(cs, &a, &a, &c); /* x2^2 = x4 */
        if (rec) {
            lc_var(&a, vars[sb->x2_id + 1], NULL, &ok);
            lc_var(&b, vars[sb->y_id], yc, &ok);
            lc_var(&c, vars[sb->x2_id + 2], NULL, &ok);
        }
        cz_cs_enforce(cs, &a, &b, &c); /* x4 y = x5 */
    }
    res.var = cz_cs_alloc(cs, vals ? &res.value : NULL);
    if (rec) {
        lc_row(&a, q, &q->out, vars, &ok);
        lc_var(&b, cz_var_one(), NULL, &ok);
        lc_var(&c, res.var, NULL, &ok);
    }
    cz_cs_enforce(cs, &a, &b, &c);
    cz_cs_pop(cs);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
    if (!ok)
        cz_cs_fail(cs, CZ_ERR_NOMEM, "poseidon gadget: out of memory for a linear combination");
    return res;
}
