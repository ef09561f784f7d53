/*
 * cs.c: the constraint system of include/cuzk/circuit.h.
 *
 * DESIGN. One struct serves the four modes. Every cs allocates through two
 * cursors (public numbers 1-based, aux numbers 0-based) and returns tagged
 * cz_vars; the final wire of a variable is p for public p and
 * 1 + n_public + a for aux a.
 *
 *  - WITNESS (and CHECK over a caller's buffer) knows n_public from the
 *    start, so an allocation is one store into w at the aux cursor; the bit
 *    forms copy one of two precomputed elements (0, Montgomery 1). enforce,
 *    push and pop return at once. A fork reserves the next slots of both
 *    cursors for a child that writes only there, so children run on other
 *    threads without locks; join checks the child used its reservation.
 *  - COUNT counts. CHECK evaluates <a,w> * <b,w> = <c,w> at each enforce
 *    (values in the caller's buffer or in two growing arrays of its own).
 *    In these modes and in SHAPE a child forwards to the cs it was forked
 *    from (it must finish before the parent records more).
 *  - SHAPE records each of A, B, C as CSR rows: a row's terms are sorted by
 *    (constant, publics, aux) order, terms of one variable merged, zeros
 *    dropped, and each coefficient replaced by its index in a table that a
 *    small open-addressing hash deduplicates (<= 65,535 entries: the
 *    indices are uint16). Columns hold tagged indices while recording; the
 *    public count is final only at the end, when cz_cs_finish remaps them
 *    in place to wires (the order is kept: publics sort before aux in both).
 *    Arrays grow geometrically (realloc of large blocks is an mremap), so
 *    a 130 M-constraint circuit costs 6 bytes per nonzero plus 24 per
 *    constraint.
 *
 * Errors are sticky: the first is kept with its namespace path, later
 * calls still return variables (never out of range of a buffer) but write
 * and record nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuit.h"
#include "field/constants.h"
#include "field/field.h"
#include "groth16/groth16.h"
#include "util/threadpool.h"

#define PUB CZ_VAR_PUBLIC
#define MAX_COEFS 65535u

/* ---- linear combinations ---- */

void cz_lc_init(cz_lc *lc)
{
    lc->t = NULL;
    lc->n = lc->cap = 0;
}

void cz_lc_clear(cz_lc *lc) { lc->n = 0; }

void cz_lc_free(cz_lc *lc)
{
    free(lc->t);
    cz_lc_init(lc);
}

bool cz_lc_add(cz_lc *lc, cz_var v, const cz_fr *coef)
{
    if (lc->n == lc->cap) {
        uint32_t cap = lc->cap ? lc->cap * 2 : 8;
        if (cap < lc->cap)
            return false;
        cz_lc_term *t = realloc(lc->t, (size_t)cap * sizeof *t);
        if (!t)
            return false;
        lc->t = t;
        lc->cap = cap;
    }
    lc->t[lc->n].var = v;
    lc->t[lc->n].coef = *coef;
    lc->n++;
    return true;
}

bool cz_lc_add_i64(cz_lc *lc, cz_var v, int64_t coef)
{
    cz_fr c;
    uint64_t mag = coef < 0 ? (uint64_t)0 - (uint64_t)coef : (uint64_t)coef;
    cz_fr_set_u64(&c, mag);
    if (coef < 0)
        cz_fr_neg(&c, &c);
    return cz_lc_add(lc, v, &c);
}

static cz_fr pow2_tab[255];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static void pow2_init(void)
{
    cz_fr_one(&pow2_tab[0]);
    for (int k = 1; k < 255; k++)
        cz_fr_add(&pow2_tab[k], &pow2_tab[k - 1], &pow2_tab[k - 1]);
}

bool cz_lc_add_pow2(cz_lc *lc, cz_var v, unsigned k, bool neg)
{
    if (k >= 255)
        return false;
    pthread_once(&pow2_once, pow2_init);
    if (!neg)
        return cz_lc_add(lc, v, &pow2_tab[k]);
    cz_fr c;
    cz_fr_neg(&c, &pow2_tab[k]);
    return cz_lc_add(lc, v, &c);
}

/* ---- the recorded matrices (SHAPE) ---- */

typedef struct {
    uint64_t *row_ptr;
    size_t rp_cap;
    uint32_t *col;
    uint16_t *coef;
    uint64_t nnz, cap;
} mat_rec;

typedef struct {
    uint32_t key; /* tagged index ^ PUB: the one, publics, then aux */
    cz_fr coef;
} sterm;

typedef struct {
    mat_rec m[3];
    cz_fr *coefs;
    uint32_t n_coefs, coefs_cap;
    uint32_t *slot; /* 0 empty, else coefficient index + 1 */
    uint32_t slot_mask;
    sterm *scratch;
    size_t scratch_cap;
} recorder;

struct cz_cs {
    cz_cs_mode mode;
    cz_cs *fwd;      /* a forwarding child: the cs it records into */
    bool child;      /* made by cz_cs_fork */
    cz_status st;
    char msg[512];
    /* cursors: public numbers [pub_start, pub_end), aux [aux_start, aux_end) */
    uint64_t pub_start, pub_next, pub_end;
    uint64_t aux_start, aux_next, aux_end;
    uint64_t n_constraints;
    /* a forwarding child: its reservation and the cursors at fork */
    uint64_t res_pub, res_aux, fwd_pub0, fwd_aux0;
    /* values: a buffer in the final layout (WITNESS, CHECK over a buffer) */
    cz_fr *w;
    bool has_buf;
    uint64_t aux_off;          /* 1 + n_public: the wire of aux 0 */
    uint64_t tot_pub, tot_aux; /* the buffer's counts (children: the root's) */
    cz_fr bitval[2];
    /* CHECK without a buffer: values of its own */
    cz_fr *pv, *av;
    size_t pv_cap, av_cap;
    /* SHAPE */
    recorder *rec;
    bool finished;
    /* namespaces (not in WITNESS) */
    char *path;
    size_t path_len, path_cap;
    size_t *marks;
    size_t depth, marks_cap;
};

static cz_cs *target(cz_cs *cs) { return cs->fwd ? cs->fwd : cs; }
static const cz_cs *ctarget(const cz_cs *cs) { return cs->fwd ? cs->fwd : cs; }

static void vfail(cz_cs *cs, cz_status st, const char *fmt, va_list ap)
{
    cs = target(cs);
    if (cs->st != CZ_OK)
        return;
    cs->st = st;
    char body[384];
    vsnprintf(body, sizeof body, fmt, ap);
    if (cs->path_len)
        snprintf(cs->msg, sizeof cs->msg, "%s: %s", cs->path, body);
    else
        snprintf(cs->msg, sizeof cs->msg, "%s", body);
}

cz_status cz_cs_fail(cz_cs *cs, cz_status st, const char *fmt, ...)
{
    if (!cs)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vfail(cs, st == CZ_OK ? CZ_ERR_INTERNAL : st, fmt, ap);
    va_end(ap);
    return st;
}

static void fail(cz_cs *cs, cz_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(cz_cs *cs, cz_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(cs, st, fmt, ap);
    va_end(ap);
}

static void recorder_free(recorder *r)
{
    if (!r)
        return;
    for (int k = 0; k < 3; k++) {
        free(r->m[k].row_ptr);
        free(r->m[k].col);
        free(r->m[k].coef);
    }
    free(r->coefs);
    free(r->slot);
    free(r->scratch);
    free(r);
}

static recorder *recorder_new(void)
{
    recorder *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->coefs_cap = 64;
    r->coefs = malloc(r->coefs_cap * sizeof *r->coefs);
    r->slot_mask = 255;
    r->slot = calloc(r->slot_mask + 1, sizeof *r->slot);
    bool ok = r->coefs && r->slot;
    for (int k = 0; k < 3 && ok; k++) {
        r->m[k].rp_cap = 1024;
        r->m[k].row_ptr = malloc(r->m[k].rp_cap * sizeof(uint64_t));
        r->m[k].cap = 4096;
        r->m[k].col = malloc(r->m[k].cap * sizeof(uint32_t));
        r->m[k].coef = malloc(r->m[k].cap * sizeof(uint16_t));
        ok = r->m[k].row_ptr && r->m[k].col && r->m[k].coef;
        if (ok)
            r->m[k].row_ptr[0] = 0;
    }
    if (!ok) {
        recorder_free(r);
        return NULL;
    }
    cz_fr_one(&r->coefs[0]);
    r->n_coefs = 1;
    return r;
}

static cz_cs *cs_alloc(cz_cs_mode mode)
{
    cz_cs *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->mode = mode;
    cz_fr_zero(&cs->bitval[0]);
    cz_fr_one(&cs->bitval[1]);
    cs->pub_start = cs->pub_next = 1;
    cs->pub_end = UINT64_MAX;
    cs->aux_end = UINT64_MAX;
    return cs;
}

cz_status cz_cs_new(cz_cs **out, cz_cs_mode mode)
{
    if (!out)
        return CZ_ERR_ARG;
    *out = NULL;
    if (mode == CZ_CS_WITNESS)
        return CZ_ERR_ARG; /* needs a buffer: cz_cs_new_witness */
    if (mode == CZ_CS_CHECK)
        return cz_cs_new_check(out, NULL, 0, 0);
    if (mode != CZ_CS_COUNT && mode != CZ_CS_SHAPE)
        return CZ_ERR_ARG;
    cz_cs *cs = cs_alloc(mode);
    if (!cs)
        return CZ_ERR_NOMEM;
    if (mode == CZ_CS_SHAPE && !(cs->rec = recorder_new())) {
        free(cs);
        return CZ_ERR_NOMEM;
    }
    *out = cs;
    return CZ_OK;
}

static cz_status new_buf(cz_cs **out, cz_cs_mode mode, cz_fr *w, uint32_t n_public, uint64_t n_aux)
{
    if (!out)
        return CZ_ERR_ARG;
    *out = NULL;
    if (!w || n_public >= PUB || n_aux >= PUB)
        return CZ_ERR_ARG;
    cz_cs *cs = cs_alloc(mode);
    if (!cs)
        return CZ_ERR_NOMEM;
    cs->w = w;
    cs->has_buf = true;
    cs->pub_end = 1 + (uint64_t)n_public;
    cs->aux_end = n_aux;
    cs->aux_off = 1 + (uint64_t)n_public;
    cs->tot_pub = n_public;
    cs->tot_aux = n_aux;
    w[0] = cs->bitval[1];
    *out = cs;
    return CZ_OK;
}

cz_status cz_cs_new_witness(cz_cs **out, cz_fr *w, uint32_t n_public, uint64_t n_aux)
{
    return new_buf(out, CZ_CS_WITNESS, w, n_public, n_aux);
}

cz_status cz_cs_new_check(cz_cs **out, cz_fr *w, uint32_t n_public, uint64_t n_aux)
{
    if (w)
        return new_buf(out, CZ_CS_CHECK, w, n_public, n_aux);
    if (!out)
        return CZ_ERR_ARG;
    *out = NULL;
    if (n_public || n_aux)
        return CZ_ERR_ARG;
    cz_cs *cs = cs_alloc(CZ_CS_CHECK);
    if (!cs)
        return CZ_ERR_NOMEM;
    cs->pv_cap = 64;
    cs->av_cap = 1024;
    cs->pv = malloc(cs->pv_cap * sizeof *cs->pv);
    cs->av = malloc(cs->av_cap * sizeof *cs->av);
    if (!cs->pv || !cs->av) {
        free(cs->pv);
        free(cs->av);
        free(cs);
        return CZ_ERR_NOMEM;
    }
    cs->pv[0] = cs->bitval[1];
    *out = cs;
    return CZ_OK;
}

void cz_cs_free(cz_cs *cs)
{
    if (!cs)
        return;
    recorder_free(cs->rec);
    free(cs->pv);
    free(cs->av);
    free(cs->path);
    free(cs->marks);
    free(cs);
}

cz_cs_mode cz_cs_mode_of(const cz_cs *cs) { return cs ? cs->mode : CZ_CS_COUNT; }

bool cz_cs_records(const cz_cs *cs)
{
    return cs && (cs->mode == CZ_CS_SHAPE || cs->mode == CZ_CS_CHECK);
}

bool cz_cs_has_values(const cz_cs *cs)
{
    return cs && (cs->mode == CZ_CS_WITNESS || cs->mode == CZ_CS_CHECK);
}

/* ---- allocation ---- */

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c += c / 2 + 64;
    void *q = realloc(*p, c * elem);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static cz_var alloc_slow(cz_cs *cs, const cz_fr *value, bool pub)
{
    if (!cs) {
        cz_var v = {0};
        return v;
    }
    cz_cs *t = target(cs);
    if (t->mode == CZ_CS_SHAPE && t->finished) {
        /* the columns are wires now: a new variable could not be placed */
        fail(t, CZ_ERR_ARG, "a variable allocated after the shape was finished");
        cz_var v = {pub ? PUB : 0};
        return v;
    }
    if (t->mode == CZ_CS_SHAPE || t->mode == CZ_CS_COUNT || !t->has_buf) {
        /* cursors without an end (forwarding children included) */
        uint64_t limit = PUB - 1;
        uint64_t n = pub ? t->pub_next : t->aux_next;
        if (n >= limit) {
            fail(t, CZ_ERR_RANGE, "more than 2^31 - 1 %s variables", pub ? "public" : "aux");
            cz_var v = {pub ? PUB : 0};
            return v;
        }
        if (t->mode == CZ_CS_CHECK && t->st == CZ_OK) {
            if (!value) {
                fail(t, CZ_ERR_ARG, "%s variable %llu allocated without a value in CHECK mode",
                     pub ? "public" : "aux", (unsigned long long)n);
            } else if (pub ? !grow((void **)&t->pv, &t->pv_cap, n + 1, sizeof(cz_fr))
                           : !grow((void **)&t->av, &t->av_cap, n + 1, sizeof(cz_fr))) {
                fail(t, CZ_ERR_NOMEM, "out of memory for the values of CHECK mode");
            } else {
                (pub ? t->pv : t->av)[n] = *value;
            }
        }
        if (pub)
            t->pub_next++;
        else
            t->aux_next++;
        cz_var v = {(uint32_t)n | (pub ? PUB : 0)};
        return v;
    }
    /* over a buffer (WITNESS, CHECK over a buffer) */
    if (pub) {
        uint64_t p = t->pub_next;
        if (p >= t->pub_end) {
            fail(t, CZ_ERR_WITNESS, "allocated more public variables than the %llu %s",
                 (unsigned long long)(t->pub_end - t->pub_start),
                 t->child ? "reserved" : "of the witness buffer");
            cz_var v = {PUB};
            return v;
        }
        if (!value)
            fail(t, CZ_ERR_ARG, "public variable %llu allocated without a value", (unsigned long long)p);
        else
            t->w[p] = *value;
        t->pub_next = p + 1;
        cz_var v = {(uint32_t)p | PUB};
        return v;
    }
    uint64_t a = t->aux_next;
    if (a >= t->aux_end) {
        fail(t, CZ_ERR_WITNESS, "allocated more aux variables than the %llu %s",
             (unsigned long long)(t->aux_end - t->aux_start),
             t->child ? "reserved" : "of the witness buffer");
        cz_var v = {0};
        return v;
    }
    if (!value)
        fail(t, CZ_ERR_ARG, "aux variable %llu allocated without a value", (unsigned long long)a);
    else
        t->w[t->aux_off + a] = *value;
    t->aux_next = a + 1;
    cz_var v = {(uint32_t)a};
    return v;
}

cz_var cz_cs_alloc(cz_cs *cs, const cz_fr *value)
{
    if (cs && cs->mode == CZ_CS_WITNESS && value) {
        uint64_t a = cs->aux_next;
        if (a < cs->aux_end) {
            cs->w[cs->aux_off + a] = *value;
            cs->aux_next = a + 1;
            cz_var v = {(uint32_t)a};
            return v;
        }
    }
    return alloc_slow(cs, value, false);
}

cz_var cz_cs_alloc_bit(cz_cs *cs, int bit)
{
    if (cs && cs->mode == CZ_CS_WITNESS) {
        uint64_t a = cs->aux_next;
        if (a < cs->aux_end) {
            cs->w[cs->aux_off + a] = cs->bitval[bit != 0];
            cs->aux_next = a + 1;
            cz_var v = {(uint32_t)a};
            return v;
        }
    }
    return alloc_slow(cs, cs ? &cs->bitval[bit != 0] : NULL, false);
}

cz_var cz_cs_alloc_input(cz_cs *cs, const cz_fr *value)
{
    return alloc_slow(cs, value, true);
}

cz_var cz_cs_alloc_input_bit(cz_cs *cs, int bit)
{
    return alloc_slow(cs, cs ? &cs->bitval[bit != 0] : NULL, true);
}

/* ---- values ---- */

/* The value of v, or NULL (with an error) when v was never allocated. */
static const cz_fr *value_ptr(const cz_cs *t, cz_var v)
{
    if (v.idx & PUB) {
        uint64_t p = v.idx & ~PUB;
        if (p == 0)
            return &t->bitval[1];
        if (t->has_buf)
            return p <= t->tot_pub ? &t->w[p] : NULL;
        return p < t->pub_next && p < t->pv_cap ? &t->pv[p] : NULL;
    }
    uint64_t a = v.idx;
    if (t->has_buf)
        return a < t->tot_aux ? &t->w[t->aux_off + a] : NULL;
    return a < t->aux_next && a < t->av_cap ? &t->av[a] : NULL;
}

static void var_name(char *buf, size_t n, cz_var v)
{
    if (v.idx & PUB)
        snprintf(buf, n, "public %u", v.idx & ~PUB);
    else
        snprintf(buf, n, "aux %u", v.idx);
}

void cz_cs_value(const cz_cs *cs, cz_fr *out, cz_var v)
{
    cz_fr_zero(out);
    if (!cs)
        return;
    const cz_cs *t = ctarget(cs);
    if (!cz_cs_has_values(t)) {
        fail((cz_cs *)cs, CZ_ERR_ARG, "a value was asked in a mode without values");
        return;
    }
    const cz_fr *p = value_ptr(t, v);
    if (!p) {
        char name[48];
        var_name(name, sizeof name, v);
        fail((cz_cs *)cs, CZ_ERR_ARG, "the value of %s, which was never allocated", name);
        return;
    }
    *out = *p;
}

/* <lc, w>; false for a variable never allocated (named in bad). */
static bool lc_eval(const cz_cs *t, cz_fr *out, const cz_lc *lc, cz_var *bad)
{
    cz_fr acc, x;
    cz_fr_zero(&acc);
    for (uint32_t i = 0; lc && i < lc->n; i++) {
        const cz_fr *p = value_ptr(t, lc->t[i].var);
        if (!p) {
            *bad = lc->t[i].var;
            cz_fr_zero(out);
            return false;
        }
        cz_fr_mul(&x, p, &lc->t[i].coef);
        cz_fr_add(&acc, &acc, &x);
    }
    *out = acc;
    return true;
}

void cz_cs_lc_value(const cz_cs *cs, cz_fr *out, const cz_lc *lc)
{
    cz_fr_zero(out);
    if (!cs)
        return;
    const cz_cs *t = ctarget(cs);
    if (!cz_cs_has_values(t)) {
        fail((cz_cs *)cs, CZ_ERR_ARG, "a value was asked in a mode without values");
        return;
    }
    cz_var bad;
    if (!lc_eval(t, out, lc, &bad)) {
        char name[48];
        var_name(name, sizeof name, bad);
        fail((cz_cs *)cs, CZ_ERR_ARG, "a linear combination uses %s, which was never allocated", name);
    }
}

/* ---- enforce ---- */

static bool var_known(const cz_cs *t, cz_var v)
{
    if (v.idx & PUB)
        return (v.idx & ~PUB) < t->pub_next;
    return v.idx < t->aux_next;
}

static void sort_terms(sterm *s, size_t n);

static uint32_t coef_index(cz_cs *t, recorder *r, const cz_fr *c)
{
    const uint64_t *l = c->l;
    if (l[0] == r->coefs[0].l[0] && l[1] == r->coefs[0].l[1] && l[2] == r->coefs[0].l[2] &&
        l[3] == r->coefs[0].l[3])
        return 0;
    uint64_t h = (l[0] ^ (l[1] * 0x9e3779b97f4a7c15ULL) ^ (l[2] * 0xc2b2ae3d27d4eb4fULL) ^ l[3]) *
                 0xff51afd7ed558ccdULL;
    uint32_t i = (uint32_t)(h >> 40) & r->slot_mask;
    for (;;) {
        uint32_t s = r->slot[i];
        if (!s)
            break;
        if (memcmp(&r->coefs[s - 1], c, sizeof *c) == 0)
            return s - 1;
        i = (i + 1) & r->slot_mask;
    }
    if (r->n_coefs >= MAX_COEFS) {
        fail(t, CZ_ERR_RANGE, "more than %u distinct coefficients (the table's indices are 16-bit)",
             MAX_COEFS);
        return UINT32_MAX;
    }
    if (r->n_coefs == r->coefs_cap) {
        cz_fr *q = realloc(r->coefs, (size_t)r->coefs_cap * 2 * sizeof *q);
        if (!q) {
            fail(t, CZ_ERR_NOMEM, "out of memory for the coefficient table");
            return UINT32_MAX;
        }
        r->coefs = q;
        r->coefs_cap *= 2;
    }
    uint32_t idx = r->n_coefs++;
    r->coefs[idx] = *c;
    r->slot[i] = idx + 1;
    if ((uint64_t)r->n_coefs * 2 > r->slot_mask) {
        /* rehash into twice the slots */
        uint32_t mask = r->slot_mask * 2 + 1;
        uint32_t *ns = calloc((size_t)mask + 1, sizeof *ns);
        if (!ns) {
            fail(t, CZ_ERR_NOMEM, "out of memory for the coefficient table");
            return UINT32_MAX;
        }
        for (uint32_t k = 1; k < r->n_coefs; k++) {
            const uint64_t *m = r->coefs[k].l;
            uint64_t hh = (m[0] ^ (m[1] * 0x9e3779b97f4a7c15ULL) ^ (m[2] * 0xc2b2ae3d27d4eb4fULL) ^
                           m[3]) * 0xff51afd7ed558ccdULL;
            uint32_t j = (uint32_t)(hh >> 40) & mask;
            while (ns[j])
                j = (j + 1) & mask;
            ns[j] = k + 1;
        }
        free(r->slot);
        r->slot = ns;
        r->slot_mask = mask;
    }
    return idx;
}

/* Append one row of matrix k from lc; false on an error (recorded). */
static bool record_row(cz_cs *t, int k, const cz_lc *lc)
{
    recorder *r = t->rec;
    mat_rec *m = &r->m[k];
    uint32_t n = lc ? lc->n : 0;
    if (n > r->scratch_cap) {
        size_t cap = r->scratch_cap;
        if (!grow((void **)&r->scratch, &cap, n, sizeof(sterm))) {
            fail(t, CZ_ERR_NOMEM, "out of memory recording a constraint");
            return false;
        }
        r->scratch_cap = cap;
    }
    sterm *s = r->scratch;
    for (uint32_t i = 0; i < n; i++) {
        s[i].key = lc->t[i].var.idx ^ PUB;
        s[i].coef = lc->t[i].coef;
    }
    sort_terms(s, n);
    /* merge runs of one key, drop zeros: in place */
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        sterm acc = s[i];
        size_t j = i + 1;
        for (; j < n && s[j].key == acc.key; j++)
            cz_fr_add(&acc.coef, &acc.coef, &s[j].coef);
        if (!cz_fr_is_zero(&acc.coef))
            s[out++] = acc;
        i = j;
    }
    if (m->nnz + out > m->cap) {
        uint64_t cap = m->cap;
        while (cap < m->nnz + out)
            cap += cap / 2 + 4096;
        uint32_t *col = realloc(m->col, cap * sizeof *col);
        if (col)
            m->col = col;
        uint16_t *cf = col ? realloc(m->coef, cap * sizeof *cf) : NULL;
        if (cf)
            m->coef = cf;
        if (!col || !cf) {
            fail(t, CZ_ERR_NOMEM, "out of memory recording constraint %llu",
                 (unsigned long long)t->n_constraints);
            return false;
        }
        m->cap = cap;
    }
    for (size_t i = 0; i < out; i++) {
        uint32_t ci = coef_index(t, r, &s[i].coef);
        if (ci == UINT32_MAX)
            return false;
        m->col[m->nnz + i] = s[i].key ^ PUB;
        m->coef[m->nnz + i] = (uint16_t)ci;
    }
    m->nnz += out;
    return true;
}

static void insertion_sort(sterm *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (s[i - 1].key <= s[i].key)
            continue;
        sterm x = s[i];
        size_t j = i;
        while (j > 0 && s[j - 1].key > x.key) {
            s[j] = s[j - 1];
            j--;
        }
        s[j] = x;
    }
}

static inline void sterm_swap(sterm *a, sterm *b)
{
    sterm t = *a;
    *a = *b;
    *b = t;
}

/* Short rows (most) are often in order already: insertion sort. Long ones
   (MultiEq sums of ~1,500 terms, packings) by quicksort on the key with a
   median of three, the smaller side first by recursion (depth <= log n),
   insertion sort below 24. */
static void sort_terms(sterm *s, size_t n)
{
    while (n > 24) {
        size_t m = n / 2;
        if (s[m].key < s[0].key)
            sterm_swap(&s[m], &s[0]);
        if (s[n - 1].key < s[0].key)
            sterm_swap(&s[n - 1], &s[0]);
        if (s[n - 1].key < s[m].key)
            sterm_swap(&s[n - 1], &s[m]);
        uint32_t pivot = s[m].key;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (s[i].key < pivot)
                i++;
            while (s[j].key > pivot)
                j--;
            if (i >= j)
                break;
            sterm_swap(&s[i], &s[j]);
            i++;
            j--;
        }
        /* [0, j] <= pivot <= [j + 1, n) */
        size_t left = j + 1;
        if (left < n - left) {
            sort_terms(s, left);
            s += left;
            n -= left;
        } else {
            sort_terms(s + left, n - left);
            n = left;
        }
    }
    insertion_sort(s, n);
}

static void enforce_shape(cz_cs *t, const cz_lc *a, const cz_lc *b, const cz_lc *c)
{
    const cz_lc *lcs[3] = {a, b, c};
    recorder *r = t->rec;
    if (t->finished || !r) {
        fail(t, CZ_ERR_ARG, "a constraint after the shape was finished");
        return;
    }
    for (int k = 0; k < 3; k++) {
        for (uint32_t i = 0; lcs[k] && i < lcs[k]->n; i++) {
            if (!var_known(t, lcs[k]->t[i].var)) {
                char name[48];
                var_name(name, sizeof name, lcs[k]->t[i].var);
                fail(t, CZ_ERR_ARG, "constraint %llu uses %s, which was never allocated",
                     (unsigned long long)t->n_constraints, name);
                return;
            }
        }
    }
    for (int k = 0; k < 3; k++) {
        mat_rec *m = &r->m[k];
        if (t->n_constraints + 2 > m->rp_cap &&
            !grow((void **)&m->row_ptr, &m->rp_cap, t->n_constraints + 2, sizeof(uint64_t))) {
            fail(t, CZ_ERR_NOMEM, "out of memory recording constraint %llu",
                 (unsigned long long)t->n_constraints);
            return;
        }
    }
    uint64_t nnz0[3] = {r->m[0].nnz, r->m[1].nnz, r->m[2].nnz};
    for (int k = 0; k < 3; k++) {
        if (!record_row(t, k, lcs[k])) {
            for (int j = 0; j < 3; j++)
                r->m[j].nnz = nnz0[j];
            return;
        }
    }
    t->n_constraints++;
    for (int k = 0; k < 3; k++)
        r->m[k].row_ptr[t->n_constraints] = r->m[k].nnz;
}

static void enforce_check(cz_cs *t, const cz_lc *a, const cz_lc *b, const cz_lc *c)
{
    cz_fr va, vb, vc, ab;
    cz_var bad;
    const cz_lc *lcs[3] = {a, b, c};
    cz_fr *vals[3] = {&va, &vb, &vc};
    for (int k = 0; k < 3; k++) {
        if (!lc_eval(t, vals[k], lcs[k], &bad)) {
            char name[48];
            var_name(name, sizeof name, bad);
            fail(t, CZ_ERR_ARG, "constraint %llu uses %s, which was never allocated",
                 (unsigned long long)t->n_constraints, name);
            return;
        }
    }
    cz_fr_mul(&ab, &va, &vb);
    if (!cz_fr_eq(&ab, &vc)) {
        fail(t, CZ_ERR_WITNESS, "constraint %llu is not satisfied (a * b != c)",
             (unsigned long long)t->n_constraints);
        return;
    }
    t->n_constraints++;
}

void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c)
{
    if (!cs || cs->mode == CZ_CS_WITNESS)
        return;
    cz_cs *t = target(cs);
    if (t->st != CZ_OK)
        return;
    switch (t->mode) {
    case CZ_CS_COUNT: t->n_constraints++; break;
    case CZ_CS_SHAPE: enforce_shape(t, a, b, c); break;
    case CZ_CS_CHECK: enforce_check(t, a, b, c); break;
    default: break;
    }
}

/* ---- namespaces ---- */

void cz_cs_push(cz_cs *cs, const char *name)
{
    if (!cs || cs->mode == CZ_CS_WITNESS)
        return;
    cz_cs *t = target(cs);
    size_t len = name ? strlen(name) : 0;
    size_t mc = t->marks_cap;
    size_t pc = t->path_cap;
    if (!grow((void **)&t->marks, &mc, t->depth + 1, sizeof(size_t)))
        return;
    t->marks_cap = mc;
    if (!grow((void **)&t->path, &pc, t->path_len + len + 2, 1))
        return;
    t->path_cap = pc;
    t->marks[t->depth++] = t->path_len;
    if (t->path_len)
        t->path[t->path_len++] = '/';
    memcpy(t->path + t->path_len, name ? name : "", len);
    t->path_len += len;
    t->path[t->path_len] = 0;
}

void cz_cs_pop(cz_cs *cs)
{
    if (!cs || cs->mode == CZ_CS_WITNESS)
        return;
    cz_cs *t = target(cs);
    if (!t->depth) {
        fail(t, CZ_ERR_ARG, "cz_cs_pop without a namespace");
        return;
    }
    t->path_len = t->marks[--t->depth];
    t->path[t->path_len] = 0;
}

/* ---- counts ---- */

uint32_t cz_cs_num_public(const cz_cs *cs)
{
    if (!cs)
        return 0;
    if (cs->fwd)
        return (uint32_t)(cs->fwd->pub_next - cs->fwd_pub0);
    return (uint32_t)(cs->pub_next - cs->pub_start);
}

uint64_t cz_cs_num_aux(const cz_cs *cs)
{
    if (!cs)
        return 0;
    if (cs->fwd)
        return cs->fwd->aux_next - cs->fwd_aux0;
    return cs->aux_next - cs->aux_start;
}

uint64_t cz_cs_num_constraints(const cz_cs *cs)
{
    if (!cs)
        return 0;
    return ctarget(cs)->n_constraints;
}

/* ---- fork / join ---- */

cz_status cz_cs_fork(cz_cs *parent, cz_cs **child, uint32_t n_public, uint64_t n_aux)
{
    if (!child)
        return parent ? cz_cs_fail(parent, CZ_ERR_ARG, "cz_cs_fork without a child pointer") : CZ_ERR_ARG;
    *child = NULL;
    if (!parent)
        return CZ_ERR_ARG;
    cz_cs *c = cs_alloc(parent->mode);
    if (!c)
        return cz_cs_fail(parent, CZ_ERR_NOMEM, "out of memory forking a child");
    c->child = true;
    if (parent->mode != CZ_CS_WITNESS) {
        c->fwd = target(parent);
        c->res_pub = n_public;
        c->res_aux = n_aux;
        c->fwd_pub0 = c->fwd->pub_next;
        c->fwd_aux0 = c->fwd->aux_next;
        *child = c;
        return CZ_OK;
    }
    c->w = parent->w;
    c->has_buf = true;
    c->aux_off = parent->aux_off;
    c->tot_pub = parent->tot_pub;
    c->tot_aux = parent->tot_aux;
    c->res_pub = n_public;
    c->res_aux = n_aux;
    if (parent->st != CZ_OK || n_public > parent->pub_end - parent->pub_next ||
        n_aux > parent->aux_end - parent->aux_next) {
        /* an empty child: its allocations fail, its join reports */
        c->pub_start = c->pub_next = c->pub_end = parent->pub_next;
        c->aux_start = c->aux_next = c->aux_end = parent->aux_next;
        if (parent->st == CZ_OK)
            fail(parent, CZ_ERR_WITNESS,
                 "a fork reserved %u public and %llu aux variables, past the %llu and %llu left",
                 n_public, (unsigned long long)n_aux,
                 (unsigned long long)(parent->pub_end - parent->pub_next),
                 (unsigned long long)(parent->aux_end - parent->aux_next));
        c->st = parent->st;
        snprintf(c->msg, sizeof c->msg, "%s", parent->msg);
        *child = c;
        return parent->st;
    }
    c->pub_start = c->pub_next = parent->pub_next;
    c->pub_end = parent->pub_next + n_public;
    c->aux_start = c->aux_next = parent->aux_next;
    c->aux_end = parent->aux_next + n_aux;
    parent->pub_next += n_public;
    parent->aux_next += n_aux;
    *child = c;
    return CZ_OK;
}

cz_status cz_cs_join(cz_cs *parent, cz_cs *child)
{
    if (!parent) {
        cz_cs_free(child);
        return CZ_ERR_ARG;
    }
    if (!child)
        return cz_cs_fail(parent, CZ_ERR_ARG, "cz_cs_join of no child");
    uint64_t used_pub = cz_cs_num_public(child), used_aux = cz_cs_num_aux(child);
    if (child->fwd) {
        /* everything already went to the target; check the counts */
        if (used_pub != child->res_pub || used_aux != child->res_aux)
            fail(parent, CZ_ERR_WITNESS,
                 "a child reserved %llu public and %llu aux variables but allocated %llu and %llu",
                 (unsigned long long)child->res_pub, (unsigned long long)child->res_aux,
                 (unsigned long long)used_pub, (unsigned long long)used_aux);
    } else if (child->st != CZ_OK) {
        fail(parent, child->st, "%s", child->msg);
    } else if (used_pub != child->res_pub || used_aux != child->res_aux) {
        fail(parent, CZ_ERR_WITNESS,
             "a child reserved %llu public and %llu aux variables but allocated %llu and %llu",
             (unsigned long long)child->res_pub, (unsigned long long)child->res_aux,
             (unsigned long long)used_pub, (unsigned long long)used_aux);
    }
    cz_cs_free(child);
    return target(parent)->st;
}

/* ---- status, layout, finish ---- */

cz_status cz_cs_status(const cz_cs *cs, char *err, size_t err_len)
{
    if (!cs) {
        if (err && err_len)
            snprintf(err, err_len, "no constraint system");
        return CZ_ERR_ARG;
    }
    const cz_cs *t = ctarget(cs);
    if (t->st != CZ_OK && err && err_len)
        snprintf(err, err_len, "%s", t->msg);
    return t->st;
}

uint64_t cz_cs_wire(const cz_cs *cs, cz_var v)
{
    if (!cs)
        return UINT64_MAX;
    const cz_cs *t = ctarget(cs);
    if (v.idx & PUB)
        return v.idx & ~PUB;
    if (t->has_buf)
        return t->aux_off + v.idx;
    if (t->finished)
        return t->pub_next + v.idx; /* 1 + n_public + a */
    return UINT64_MAX;
}

static void remap_columns(cz_cs *t)
{
    recorder *r = t->rec;
    uint32_t off = (uint32_t)t->pub_next; /* 1 + n_public */
    for (int k = 0; k < 3; k++) {
        uint32_t *col = r->m[k].col;
        uint64_t nnz = r->m[k].nnz;
        for (uint64_t i = 0; i < nnz; i++) {
            uint32_t c = col[i];
            col[i] = (c & PUB) ? (c & ~PUB) : c + off;
        }
    }
}

cz_status cz_cs_finish(cz_cs *cs, char *err, size_t err_len)
{
    if (!cs)
        return cz_cs_status(cs, err, err_len);
    cz_cs *t = target(cs);
    if (t->st == CZ_OK && t->depth)
        fail(t, CZ_ERR_ARG, "%zu namespace(s) still pushed at the end", t->depth);
    if (t->st == CZ_OK && t->has_buf && !cs->fwd &&
        (t->pub_next != t->pub_end || t->aux_next != t->aux_end))
        fail(t, CZ_ERR_WITNESS,
             "the circuit allocated %llu public and %llu aux variables, the buffer holds %llu and %llu",
             (unsigned long long)(t->pub_next - t->pub_start),
             (unsigned long long)(t->aux_next - t->aux_start),
             (unsigned long long)(t->pub_end - t->pub_start),
             (unsigned long long)(t->aux_end - t->aux_start));
    if (t->st == CZ_OK && !t->finished && t->mode == CZ_CS_SHAPE) {
        if (t->pub_next + t->aux_next > (uint64_t)UINT32_MAX + 1)
            fail(t, CZ_ERR_RANGE, "%llu wires do not fit 32-bit columns",
                 (unsigned long long)(t->pub_next + t->aux_next));
        else
            remap_columns(t);
    }
    if (t->st == CZ_OK)
        t->finished = true;
    return cz_cs_status(cs, err, err_len);
}

/* ---- recorded circuits ---- */

cz_status cz_cs_take_shape(cz_cs *cs, cz_shape **out, char *err, size_t err_len)
{
    if (!out) {
        if (err && err_len)
            snprintf(err, err_len, "cz_cs_take_shape without an output");
        return CZ_ERR_ARG;
    }
    *out = NULL;
    if (!cs || cs->fwd || cs->mode != CZ_CS_SHAPE || !cs->rec) {
        if (err && err_len)
            snprintf(err, err_len, "cz_cs_take_shape needs a SHAPE constraint system (not a child) "
                                   "whose shape was not taken yet");
        return CZ_ERR_ARG;
    }
    cz_status st = cz_cs_finish(cs, err, err_len);
    if (st != CZ_OK)
        return st;
    cz_shape *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && err_len)
            snprintf(err, err_len, "out of memory");
        return CZ_ERR_NOMEM;
    }
    recorder *r = cs->rec;
    s->n_public = (uint32_t)(cs->pub_next - 1);
    s->n_aux = cs->aux_next;
    s->n_constraints = cs->n_constraints;
    for (int k = 0; k < 3; k++) {
        mat_rec *m = &r->m[k];
        s->m[k].row_ptr = m->row_ptr;
        s->m[k].col = m->col;
        s->m[k].coef = m->coef;
        s->m[k].nnz = m->nnz;
        /* give back the slack of geometric growth */
        uint64_t *rp = realloc(m->row_ptr, (s->n_constraints + 1) * sizeof *rp);
        if (rp)
            s->m[k].row_ptr = rp;
        if (m->nnz) {
            uint32_t *c = realloc(m->col, m->nnz * sizeof *c);
            if (c)
                s->m[k].col = c;
            uint16_t *cf = realloc(m->coef, m->nnz * sizeof *cf);
            if (cf)
                s->m[k].coef = cf;
        }
        m->row_ptr = NULL;
        m->col = NULL;
        m->coef = NULL;
    }
    s->coefs = r->coefs;
    s->n_coefs = r->n_coefs;
    r->coefs = NULL;
    recorder_free(r);
    cs->rec = NULL;
    *out = s;
    return CZ_OK;
}

void cz_shape_free(cz_shape *shape)
{
    if (!shape)
        return;
    for (int k = 0; k < 3; k++) {
        free(shape->m[k].row_ptr);
        free(shape->m[k].col);
        free(shape->m[k].coef);
    }
    free(shape->coefs);
    free(shape);
}

static cz_status shape_fail(char *err, size_t err_len, cz_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static cz_status shape_fail(char *err, size_t err_len, cz_status st, const char *fmt, ...)
{
    if (err && err_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_len, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* Structural checks of a shape: row pointers, columns, coefficient indices. */
static cz_status shape_validate(const cz_shape *s, char *err, size_t err_len)
{
    uint64_t n_wires = 1 + (uint64_t)s->n_public + s->n_aux;
    if (!s->coefs || s->n_coefs == 0 || s->n_coefs > MAX_COEFS + 1)
        return shape_fail(err, err_len, CZ_ERR_FORMAT, "the shape has no coefficient table");
    for (int k = 0; k < 3; k++) {
        const cz_shape_matrix *m = &s->m[k];
        if (!m->row_ptr || m->row_ptr[0] != 0 || m->row_ptr[s->n_constraints] != m->nnz)
            return shape_fail(err, err_len, CZ_ERR_FORMAT, "matrix %c: bad row pointers", "ABC"[k]);
        for (uint64_t r = 0; r < s->n_constraints; r++) {
            if (m->row_ptr[r + 1] < m->row_ptr[r])
                return shape_fail(err, err_len, CZ_ERR_FORMAT, "matrix %c: row %llu ends before it starts",
                                  "ABC"[k], (unsigned long long)r);
            for (uint64_t i = m->row_ptr[r]; i < m->row_ptr[r + 1]; i++) {
                if (m->col[i] >= n_wires || m->coef[i] >= s->n_coefs)
                    return shape_fail(err, err_len, CZ_ERR_FORMAT,
                                      "matrix %c: row %llu has a column or coefficient out of range",
                                      "ABC"[k], (unsigned long long)r);
            }
        }
    }
    return CZ_OK;
}

void cz_shape_row_value(cz_fr *out, const cz_shape *s, const cz_shape_matrix *m, uint64_t r,
                        const cz_fr *w)
{
    cz_fr acc, x;
    cz_fr_zero(&acc);
    for (uint64_t i = m->row_ptr[r]; i < m->row_ptr[r + 1]; i++) {
        if (m->coef[i] == 0) {
            cz_fr_add(&acc, &acc, &w[m->col[i]]);
        } else {
            cz_fr_mul(&x, &w[m->col[i]], &s->coefs[m->coef[i]]);
            cz_fr_add(&acc, &acc, &x);
        }
    }
    *out = acc;
}

typedef struct {
    const cz_shape *s;
    const cz_fr *w;
    _Atomic uint64_t first_bad; /* the lowest unsatisfied row found; UINT64_MAX none */
} check_ctx;

static void check_rows(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    check_ctx *x = vctx;
    for (size_t r = begin; r < end; r++) {
        if (r >= atomic_load_explicit(&x->first_bad, memory_order_relaxed))
            return; /* a lower row already failed */
        cz_fr a, b, c;
        cz_shape_row_value(&a, x->s, &x->s->m[0], r, x->w);
        cz_shape_row_value(&b, x->s, &x->s->m[1], r, x->w);
        cz_shape_row_value(&c, x->s, &x->s->m[2], r, x->w);
        cz_fr_mul(&a, &a, &b);
        if (!cz_fr_eq(&a, &c)) {
            uint64_t cur = atomic_load(&x->first_bad);
            while (r < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, (uint64_t)r))
                ;
            return;
        }
    }
}

/* Rows are checked in parallel on the global pool (inline where called
   from inside it); the reported row is the lowest that fails. */
cz_status cz_shape_check(const cz_shape *shape, const cz_fr *w, char *err, size_t err_len)
{
    if (!shape || !w)
        return shape_fail(err, err_len, CZ_ERR_ARG, "cz_shape_check needs a shape and a witness");
    cz_status st = shape_validate(shape, err, err_len);
    if (st != CZ_OK)
        return st;
    cz_fr one;
    cz_fr_one(&one);
    if (!cz_fr_eq(&w[0], &one))
        return shape_fail(err, err_len, CZ_ERR_WITNESS, "w[0] is not 1");
    check_ctx x = {shape, w, UINT64_MAX};
    cz_threadpool *pool = shape->n_constraints >= 65536 ? cz_threadpool_global() : NULL;
    cz_parallel_for(pool, shape->n_constraints, 8192, check_rows, &x);
    uint64_t bad = atomic_load(&x.first_bad);
    if (bad != UINT64_MAX)
        return shape_fail(err, err_len, CZ_ERR_WITNESS, "constraint %llu is not satisfied",
                          (unsigned long long)bad);
    return CZ_OK;
}

/* ---- export ---- */

static void put32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* Streams the shape as an .r1cs (version 1): the header section, the
   constraints (per constraint A, B, C: a term count, then (wire u32, coef
   32 bytes plain little-endian) per term), the wire-to-label map. */
cz_status cz_shape_write_r1cs(const cz_shape *shape, const char *path, char *err, size_t err_len)
{
    if (!shape || !path)
        return shape_fail(err, err_len, CZ_ERR_ARG, "cz_shape_write_r1cs needs a shape and a path");
    uint64_t n_wires = 1 + (uint64_t)shape->n_public + shape->n_aux;
    if (n_wires > UINT32_MAX || shape->n_constraints > UINT32_MAX)
        return shape_fail(err, err_len, CZ_ERR_RANGE,
                          "%llu wires and %llu constraints do not fit the .r1cs format's 32-bit counts",
                          (unsigned long long)n_wires, (unsigned long long)shape->n_constraints);
    cz_status st = shape_validate(shape, err, err_len);
    if (st != CZ_OK)
        return st;
    uint8_t(*plain)[32] = malloc((size_t)shape->n_coefs * 32);
    if (!plain)
        return shape_fail(err, err_len, CZ_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < shape->n_coefs; i++)
        cz_fr_to_bytes_le(plain[i], &shape->coefs[i]);
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        free(plain);
        return shape_fail(err, err_len, CZ_ERR_IO, "%s: cannot create", path);
    }
    static const uint64_t r_limbs[4] = CZ_FR_P;
    uint64_t nnz = shape->m[0].nnz + shape->m[1].nnz + shape->m[2].nnz;
    uint8_t b[80];
    memcpy(b, "r1cs", 4);
    put32(b + 4, 1);
    put32(b + 8, 3);
    bool ok = fwrite(b, 1, 12, fp) == 12;
    put32(b, 1);
    put64(b + 4, 64);
    put32(b + 12, 32);
    for (int i = 0; i < 4; i++)
        put64(b + 16 + 8 * i, r_limbs[i]);
    put32(b + 48, (uint32_t)n_wires);
    put32(b + 52, 0);                /* outputs: none, every public is an input */
    put32(b + 56, shape->n_public);
    put32(b + 60, 0);                /* private inputs: aux are intermediate */
    put64(b + 64, n_wires);          /* labels */
    put32(b + 72, (uint32_t)shape->n_constraints);
    ok = ok && fwrite(b, 1, 76, fp) == 76;
    put32(b, 2);
    put64(b + 4, shape->n_constraints * 12 + nnz * 36);
    ok = ok && fwrite(b, 1, 12, fp) == 12;
    for (uint64_t r = 0; r < shape->n_constraints && ok; r++) {
        for (int k = 0; k < 3 && ok; k++) {
            const cz_shape_matrix *m = &shape->m[k];
            put32(b, (uint32_t)(m->row_ptr[r + 1] - m->row_ptr[r]));
            ok = fwrite(b, 1, 4, fp) == 4;
            for (uint64_t i = m->row_ptr[r]; i < m->row_ptr[r + 1] && ok; i++) {
                put32(b, m->col[i]);
                memcpy(b + 4, plain[m->coef[i]], 32);
                ok = fwrite(b, 1, 36, fp) == 36;
            }
        }
    }
    put32(b, 3);
    put64(b + 4, n_wires * 8);
    ok = ok && fwrite(b, 1, 12, fp) == 12;
    for (uint64_t i = 0; i < n_wires && ok; i++) {
        put64(b, i);
        ok = fwrite(b, 1, 8, fp) == 8;
    }
    free(plain);
    if (fclose(fp) != 0)
        ok = false;
    return ok ? CZ_OK : shape_fail(err, err_len, CZ_ERR_IO, "%s: write failed", path);
}

cz_status cz_witness_write_wtns(const cz_fr *w, uint64_t n, const char *path, char *err,
                                size_t err_len)
{
    if (!w || !path || n == 0)
        return shape_fail(err, err_len, CZ_ERR_ARG, "cz_witness_write_wtns needs a witness and a path");
    if (n > UINT32_MAX)
        return shape_fail(err, err_len, CZ_ERR_RANGE,
                          "%llu values do not fit the .wtns format's 32-bit count",
                          (unsigned long long)n);
    return cz_wtns_write(path, w, (uint32_t)n, err, err_len);
}
