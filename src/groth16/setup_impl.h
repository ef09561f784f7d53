/*
 * setup_impl.h: a development Groth16 setup that writes snarkjs .zkey
 * files, written once and compiled per curve: setup.c (BLS12-381, also
 * the scalars of native.c's keys), setup_bn254.c (BN254, snarkjs's
 * "bn128").
 *
 * DESIGN. One party draws the toxic waste tau, alpha, beta, delta (gamma
 * = 1, as in every snarkjs key: gamma2 is the G2 generator), so the key
 * is for development and benchmarks only. With n the smallest power of
 * two >= nConstraints + nPublic + 1 and w = snarkjs's n-th root of unity
 * (generator 5), the Lagrange basis at tau is
 *   L_i(tau) = (tau^n - 1)/n * w^i / (tau - w^i)          (one batch inversion)
 * and per wire s, over the constraints c that use it,
 *   u_s = sum_c A_cs L_c + [s <= nPublic] L_{nC+s}     (snarkjs's extra rows)
 *   v_s = sum_c B_cs L_c,   w_s = sum_c C_cs L_c.
 * The key's points are A_s = u_s G1, B1_s = v_s G1, B2_s = v_s G2,
 * IC_s = (beta u_s + alpha v_s + w_s) G1 (s <= nPublic),
 * C_s = (beta u_s + alpha v_s + w_s)/delta G1 (s > nPublic), and, as the
 * prover evaluates a b - c = h Z on the coset x_j = g w^j of the domain
 * (g = the 2n-th root w_2n, so x_j are the odd points of the 2n-domain;
 * BN254's 2^28 domain has no 2n-th root and snarkjs takes g = 25: the
 * domain's omega_2n either way, docs/GROTH16.md, docs/CURVES.md), the
 * Lagrange basis of the coset at tau over Z(x_j) = g^n - 1:
 *   H_j = (tau^n - g^n)(tau^n - 1) / (n g^n (g^n - 1)) x_j/(tau - x_j)/delta G1
 * (with g^n = -1: (tau^2n - 1)/(2n) x_j/(tau - x_j)/delta).
 * With opts->fold_c (native keys from a shape only) the C scalars also
 * carry m w_s, m = -Z(tau) / (Z(g) delta), and cp_s = m w_s for the
 * public signals: C's share of H, so the prover needs no c
 * (docs/GROTH16.md, "C through the key").
 * The scalars (scalars_make; setup.c exports it as cz_setup_scalars_make
 * for native.c, which reads a cz_shape instead of an .r1cs) are made in
 * parallel: the two bases by chunks with one batch inversion each, u/v/w
 * by tasks that each own a range of wires and scan every row. The
 * fixed-base products are fixed_base_impl.h's. Sections are written in
 * snarkjs's order (1, 2, 4, 3, 9, 8, 5, 6, 7, 10) while they are
 * computed, so memory stays at the scalars plus one chunk of points.
 * Section 10 holds a zero circuit hash and no contributions (snarkjs's
 * prover ignores it; `zkey verify` would not accept this key, it has no
 * ceremony transcript). The points are the curve's in-memory bytes
 * (little-endian Montgomery limbs, snarkjs's R: 2^384 for BLS12-381's
 * Fp, 2^256 for BN254's), written limb by limb to stay portable.
 *
 * The includer defines, as names to paste after cz_ (docs/CURVES.md):
 *   SU_FR, SU_G1, SU_G2, SU_FP2       fr, g1, g2, fp2 / bn254_fr, ...
 *   SU_NQ                              limbs of Fp (6 / 4)
 *   SU_FP_P, SU_FR_P, SU_FR_R2         the constants' initialisers
 *   SU_DOM, SU_DOM_CREATE(d, log), SU_DOM_DESTROY(d), SU_MAX_LOG: the NTT
 *                                      domain (omega, omega_2n, n_inv)
 *   SU_R1CS                            the circuit type (cz_r1cs / cz_bn254_r1cs)
 *   SU_SCALARS                         the scalars' type (native.h's layout)
 *   SU_SHAPE                           1: the cz_shape form too (BLS12-381)
 *   SU_FIXED_G1, SU_FIXED_G2           the fixed-base products
 *   SU_FN_SETUP                        the name of the .zkey writer
 *   SU_FN_SCALARS_DROP, SU_FN_SCALARS_FREE  the names of the wipes
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/binfile.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/threadpool.h"

#define SU_CAT_(a, b) a##b
#define SU_CAT(a, b) SU_CAT_(a, b)
#define SU_F(x, op) SU_CAT(SU_CAT(cz_, x), SU_CAT(_, op))
#define FR_(op) SU_F(SU_FR, op)

typedef SU_CAT(cz_, SU_FR) su_fr;
typedef SU_CAT(SU_CAT(cz_, SU_G1), _affine) su_g1_affine;
typedef SU_CAT(SU_CAT(cz_, SU_G2), _affine) su_g2_affine;

#if SU_SHAPE
typedef cz_shape su_shape;
#else
typedef void su_shape; /* only NULL */
#endif

#define CHUNK 4096

static const uint64_t fp_p[SU_NQ] = SU_FP_P;
static const uint64_t fr_p[4] = SU_FR_P;
static const uint64_t fr_r2[4] = SU_FR_R2;

/* ---- writing ---- */

typedef struct {
    FILE *f;
    int ok;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    if (w->ok && fwrite(p, 1, n, w->f) != n)
        w->ok = 0;
}

static void put32(writer *w, uint32_t v)
{
    uint8_t b[4];
    cz_put_le32(b, v);
    put(w, b, 4);
}

static void section_header(writer *w, uint32_t id, uint64_t size)
{
    uint8_t b[12];
    cz_put_le32(b, id);
    cz_put_le64(b + 4, size);
    put(w, b, 12);
}

static void put_limbs(writer *w, const uint64_t *l, int n)
{
    for (int i = 0; i < n; i++) {
        uint8_t b[8];
        cz_put_le64(b, l[i]);
        put(w, b, 8);
    }
}

static void put_g1(writer *w, const su_g1_affine *p)
{
    put_limbs(w, p->x.l, SU_NQ);
    put_limbs(w, p->y.l, SU_NQ);
}

static void put_g2(writer *w, const su_g2_affine *p)
{
    put_limbs(w, p->x.c0.l, SU_NQ);
    put_limbs(w, p->x.c1.l, SU_NQ);
    put_limbs(w, p->y.c0.l, SU_NQ);
    put_limbs(w, p->y.c1.l, SU_NQ);
}

/* Write the section `id` of n points scalars[i] G, a chunk at a time. */
static cz_status write_points(writer *w, uint32_t id, const su_fr *scalars, size_t n, int g2,
                              cz_threadpool *pool)
{
    size_t psz = g2 ? 4 * 8 * SU_NQ : 2 * 8 * SU_NQ;
    section_header(w, id, (uint64_t)n * psz);
    void *aff = malloc(CHUNK * (g2 ? sizeof(su_g2_affine) : sizeof(su_g1_affine)));
    if (!aff)
        return CZ_ERR_NOMEM;
    for (size_t at = 0; at < n; at += CHUNK) {
        size_t m = n - at < CHUNK ? n - at : CHUNK;
        cz_status st = g2 ? SU_FIXED_G2(aff, scalars + at, m, pool)
                          : SU_FIXED_G1(aff, scalars + at, m, pool);
        if (st) {
            free(aff);
            return st;
        }
        for (size_t i = 0; i < m; i++) {
            if (g2)
                put_g2(w, (su_g2_affine *)aff + i);
            else
                put_g1(w, (su_g1_affine *)aff + i);
        }
    }
    free(aff);
    return CZ_OK;
}

/* ---- the scalars ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void fr_pow_u64(su_fr *out, const su_fr *a, uint64_t e)
{
    FR_(pow)(out, a, &e, 1);
}

static cz_status draw(su_fr *out, cz_rng *rng)
{
    for (int i = 0; i < 100; i++) {
        FR_(random)(out, rng);
        if (!FR_(is_zero)(out))
            return CZ_OK;
    }
    return CZ_ERR_INTERNAL;
}

/* out[i] = scale x_i / (tau - x_i), x_i = x0 step^i, for i < n: chunks in
   parallel, each with its own batch inversion (one inversion a chunk). */
typedef struct {
    su_fr *out;
    su_fr tau, x0, step, scale;
    _Atomic int failed;
} basis_job;

static void basis_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    basis_job *j = vctx;
    size_t m = end - begin;
    su_fr *xs = malloc(m * sizeof *xs), *scr = malloc(m * sizeof *scr);
    if (!xs || !scr) {
        atomic_store(&j->failed, 1);
        free(xs);
        free(scr);
        return;
    }
    su_fr x, *o = j->out + begin;
    fr_pow_u64(&x, &j->step, begin);
    FR_(mul)(&x, &x, &j->x0);
    for (size_t i = 0; i < m; i++) {
        FR_(sub)(&o[i], &j->tau, &x);
        xs[i] = x;
        FR_(mul)(&x, &x, &j->step);
    }
    FR_(batch_inv_var)(o, o, m, scr);
    for (size_t i = 0; i < m; i++) {
        FR_(mul)(&o[i], &o[i], &xs[i]);
        FR_(mul)(&o[i], &o[i], &j->scale);
    }
    cz_wipe(xs, m * sizeof *xs);
    cz_wipe(scr, m * sizeof *scr);
    free(xs);
    free(scr);
}

static cz_status basis(su_fr *out, size_t n, const su_fr *tau, const su_fr *x0,
                       const su_fr *step, const su_fr *scale, cz_threadpool *pool)
{
    basis_job j = {.out = out, .tau = *tau, .x0 = *x0, .step = *step, .scale = *scale};
    atomic_init(&j.failed, 0);
    cz_parallel_for(pool, n, 8192, basis_range, &j);
    cz_wipe(&j.tau, sizeof j.tau);
    cz_wipe(&j.scale, sizeof j.scale);
    return atomic_load(&j.failed) ? CZ_ERR_NOMEM : CZ_OK;
}

/* u, v, w per wire: each task owns a range of wires (columns) and scans
   every row of A, B and C, so no two threads write one sum and the pass
   needs no scratch beyond the sums. Field addition is exact, so the order
   does not matter: the same sums as a serial pass. */
typedef struct {
    const SU_R1CS *cs;
    const su_shape *shape;
    const uint8_t *is_one; /* shape: per coefficient index, is it 1 */
    const su_fr *lag;
    su_fr *dst[3];
    uint8_t *in_b;
    uint32_t nc, n_vars;
    size_t n_ranges;
} uvw_job;

static void uvw_add(su_fr *d, const su_fr *coef, bool one, const su_fr *l)
{
    if (one) {
        FR_(add)(d, d, l);
    } else {
        su_fr p;
        FR_(mul)(&p, coef, l);
        FR_(add)(d, d, &p);
    }
}

static void uvw_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    uvw_job *j = vctx;
    for (size_t r = begin; r < end; r++) {
        uint32_t lo = (uint32_t)((uint64_t)j->n_vars * r / j->n_ranges);
        uint32_t hi = (uint32_t)((uint64_t)j->n_vars * (r + 1) / j->n_ranges);
#if SU_SHAPE
        if (j->shape) {
            for (int m = 0; m < 3; m++) {
                const cz_shape_matrix *mx = &j->shape->m[m];
                su_fr *dst = j->dst[m];
                uint8_t *in_b = m == 1 ? j->in_b : NULL;
                for (uint32_t c = 0; c < j->nc; c++)
                    for (uint64_t t = mx->row_ptr[c]; t < mx->row_ptr[c + 1]; t++) {
                        uint32_t s = mx->col[t];
                        if (s < lo || s >= hi)
                            continue;
                        uint16_t ci = mx->coef[t];
                        uvw_add(&dst[s], &j->shape->coefs[ci], j->is_one[ci], &j->lag[c]);
                        if (in_b)
                            in_b[s] = 1;
                    }
            }
            continue;
        }
#endif
        const SU_R1CS *cs = j->cs;
        for (uint32_t c = 0; c < j->nc; c++)
            for (int m = 0; m < 3; m++)
                for (uint64_t t = cs->start[3 * (uint64_t)c + m];
                     t < cs->start[3 * (uint64_t)c + m + 1]; t++) {
                    uint32_t s = cs->terms[t].wire;
                    if (s < lo || s >= hi)
                        continue;
                    uvw_add(&j->dst[m][s], &cs->terms[t].coef,
                            FR_(is_one)(&cs->terms[t].coef), &j->lag[c]);
                    if (m == 1 && j->in_b)
                        j->in_b[s] = 1;
                }
    }
}

/* k_s = beta u_s + alpha v_s + w_s, over delta past the public signals;
   in place of w. With C folded (cp set, m = -Z(tau) / (Z(g) delta)): the
   C scalars gain w_s m, and cp_s = w_s m for the public signals. */
typedef struct {
    su_fr *k;
    const su_fr *u, *v;
    su_fr alpha, beta, dinv, m;
    su_fr *cp;
    uint32_t npub;
} k_job;

static void k_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    k_job *j = vctx;
    for (size_t s = begin; s < end; s++) {
        su_fr a, t, wm;
        if (j->cp)
            FR_(mul)(&wm, &j->k[s], &j->m);
        FR_(mul)(&a, &j->beta, &j->u[s]);
        FR_(mul)(&t, &j->alpha, &j->v[s]);
        FR_(add)(&a, &a, &t);
        FR_(add)(&a, &a, &j->k[s]);
        if (s > j->npub) {
            FR_(mul)(&a, &a, &j->dinv);
            if (j->cp)
                FR_(add)(&a, &a, &wm);
        } else if (j->cp) {
            j->cp[s] = wm;
        }
        j->k[s] = a;
    }
}

static void wipe_range(void *vctx, size_t begin, size_t end, int worker)
{
    (void)worker;
    cz_wipe((su_fr *)vctx + begin, (end - begin) * sizeof(su_fr));
}

void SU_FN_SCALARS_DROP(su_fr **arr, size_t count, cz_threadpool *pool)
{
    if (!*arr)
        return;
    cz_parallel_for(pool, count, 1 << 18, wipe_range, *arr); /* GBs at full scale */
    free(*arr);
    *arr = NULL;
}

void SU_FN_SCALARS_FREE(SU_SCALARS *s)
{
    if (!s)
        return;
    SU_FN_SCALARS_DROP(&s->u, s->n_vars, s->pool);
    SU_FN_SCALARS_DROP(&s->v, s->n_vars, s->pool);
    SU_FN_SCALARS_DROP(&s->k, s->n_vars, s->pool);
    SU_FN_SCALARS_DROP(&s->h, s->n, s->pool);
#if SU_SHAPE
    SU_FN_SCALARS_DROP(&s->cp, (size_t)s->n_public + 1, s->pool);
#endif
    free(s->in_b);
    s->in_b = NULL;
    cz_wipe(&s->alpha, sizeof s->alpha);
    cz_wipe(&s->beta, sizeof s->beta);
    cz_wipe(&s->delta, sizeof s->delta);
}

static cz_status scalars_make(SU_SCALARS *out, const SU_R1CS *cs, const su_shape *shape,
                              const cz_setup_opts *opts, bool want_in_b, cz_threadpool *pool,
                              const char *name, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (!!cs == !!shape)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "setup: one circuit, r1cs or shape");
    uint64_t nvars64 = 0, npub64 = 0, nc64 = 0;
    if (cs) {
        nvars64 = cs->n_wires;
        npub64 = (uint64_t)cs->n_pub_out + cs->n_pub_in;
        nc64 = cs->n_constraints;
    }
#if SU_SHAPE
    else {
        nvars64 = 1 + (uint64_t)shape->n_public + shape->n_aux;
        npub64 = shape->n_public;
        nc64 = shape->n_constraints;
        if (shape->n_aux > UINT32_MAX || nvars64 > UINT32_MAX || nc64 > UINT32_MAX)
            return cz_io_fail(CZ_ERR_UNSUPPORTED, err, err_len, name,
                              "circuit too large: %llu variables, %llu constraints (at most 2^32)",
                              (unsigned long long)nvars64, (unsigned long long)nc64);
        if (shape->n_coefs == 0 || shape->n_coefs > 65536 || !shape->coefs)
            return cz_io_fail(CZ_ERR_ARG, err, err_len, name, "the shape has %u coefficients",
                              shape->n_coefs);
    }
#endif
    if (npub64 + 1 > nvars64)
        return cz_io_fail(CZ_ERR_FORMAT, err, err_len, name, "the circuit has more public signals than wires");
    const uint32_t nvars = (uint32_t)nvars64, npub = (uint32_t)npub64, nc = (uint32_t)nc64;
    unsigned log_n = 1;
    while (((uint64_t)1 << log_n) < (uint64_t)nc + npub + 1)
        log_n++;
    if (log_n > SU_MAX_LOG)
        return cz_io_fail(CZ_ERR_UNSUPPORTED, err, err_len, name,
                          "circuit too large: domain 2^%u (at most 2^%u)", log_n, SU_MAX_LOG);
    const size_t n = (size_t)1 << log_n;
    out->n_vars = nvars;
    out->n_public = npub;
    out->n_constraints = nc;
    out->log_n = log_n;
    out->n = n;
    out->pool = pool;

    cz_status st = CZ_OK;
    SU_DOM *dom = NULL;
    su_fr *lag = NULL, *w = NULL;
    uint8_t *is_one = NULL;
    su_fr tau, dinv, one, zn, c, gn, tn;
    FR_(one)(&one);
    double t0 = now_ms(), t;

    cz_rng rng;
    if (opts && opts->seeded)
        cz_rng_seed(&rng, opts->seed ^ 0x63757a6b2d736574ULL); /* "cuzk-set" */
    else
        cz_rng_os(&rng);
    if ((st = SU_DOM_CREATE(&dom, log_n)))
        goto out;
    /* tau must avoid the 2n-th roots of unity (probability ~2n/r) and the
       coset of the H points (x^n = g^n) */
    fr_pow_u64(&gn, &dom->omega_2n, n);
    for (;;) {
        su_fr t2n;
        if ((st = draw(&tau, &rng)))
            goto out;
        fr_pow_u64(&t2n, &tau, 2 * (uint64_t)n);
        fr_pow_u64(&tn, &tau, n);
        if (!FR_(eq)(&t2n, &one) && !FR_(eq)(&tn, &gn))
            break;
    }
    if ((st = draw(&out->alpha, &rng)) || (st = draw(&out->beta, &rng)) ||
        (st = draw(&out->delta, &rng)))
        goto out;
    FR_(inv)(&dinv, &out->delta);

    lag = malloc(n * sizeof *lag);
    out->u = calloc(nvars, sizeof *out->u);
    out->v = calloc(nvars, sizeof *out->v);
    w = calloc(nvars, sizeof *w);
    if (want_in_b)
        out->in_b = calloc(nvars, 1);
#if SU_SHAPE
    if (shape)
        is_one = calloc(shape->n_coefs, 1);
#endif
    if (!lag || !out->u || !out->v || !w || (want_in_b && !out->in_b) || (shape && !is_one)) {
        st = CZ_ERR_NOMEM;
        goto out;
    }

    /* Lagrange basis of the n-domain at tau: L_i = (tau^n - 1)/n w^i / (tau - w^i) */
    t = now_ms();
    FR_(sub)(&zn, &tn, &one);
    FR_(mul)(&zn, &zn, &dom->n_inv);
    if ((st = basis(lag, n, &tau, &one, &dom->omega, &zn, pool)))
        goto out;
    cz_log(CZ_LOG_INFO, "setup", "%s: Lagrange basis of 2^%u at tau: %.0f ms", name, log_n,
           now_ms() - t);

    /* u, v, w per wire */
    t = now_ms();
#if SU_SHAPE
    if (shape)
        for (uint32_t i = 0; i < shape->n_coefs; i++)
            is_one[i] = FR_(is_one)(&shape->coefs[i]);
#endif
    int nt = cz_threadpool_size(pool);
    uvw_job uj = {cs, shape, is_one, lag, {out->u, out->v, w}, out->in_b, nc, nvars,
                  (size_t)(nt < 1 ? 1 : nt)};
    if (uj.n_ranges > nvars)
        uj.n_ranges = nvars;
    cz_parallel_for(pool, uj.n_ranges, 1, uvw_range, &uj);
    /* snarkjs's extra A rows nC + s: w_s = 1 */
    for (uint32_t s = 0; s <= npub; s++)
        FR_(add)(&out->u[s], &out->u[s], &lag[nc + s]);
    SU_FN_SCALARS_DROP(&lag, n, pool);
    cz_log(CZ_LOG_INFO, "setup", "%s: u, v, w of %u wires: %.0f ms", name, nvars, now_ms() - t);

    /* IC and C scalars, in place of w; with C folded, m = -(tau^n - 1) /
       ((g^n - 1) delta): the prover's sum h_j H_j over h_j = a_j b_j - c_j
       on the coset is sum a_j b_j H_j - C(tau) Z(tau) / (Z(g) delta), and
       C(tau) = sum_s w_s w_s(tau) (docs/GROTH16.md, "C through the key") */
    t = now_ms();
    k_job kj = {w, out->u, out->v, out->alpha, out->beta, dinv, one, NULL, npub};
#if SU_SHAPE
    if (shape && opts && opts->fold_c) {
        if (!(out->cp = calloc((size_t)npub + 1, sizeof *out->cp))) {
            st = CZ_ERR_NOMEM;
            goto out;
        }
        FR_(sub)(&c, &tn, &one); /* Z(tau) */
        FR_(sub)(&kj.m, &gn, &one); /* Z(g) */
        FR_(mul)(&kj.m, &kj.m, &out->delta);
        FR_(inv)(&kj.m, &kj.m);
        FR_(mul)(&kj.m, &kj.m, &c);
        FR_(neg)(&kj.m, &kj.m);
        kj.cp = out->cp;
    }
#endif
    cz_parallel_for(pool, nvars, 16384, k_range, &kj);
    cz_wipe(&kj, sizeof kj);
    out->k = w;
    w = NULL;

    /* H_j = (tau^n - g^n)(tau^n - 1) / (n g^n (g^n - 1)) x_j / (tau - x_j) / delta,
       x_j = g w^j, g = omega_2n */
    out->h = malloc(n * sizeof *out->h);
    if (!out->h) {
        st = CZ_ERR_NOMEM;
        goto out;
    }
    FR_(sub)(&zn, &tn, &gn);         /* tau^n - g^n */
    FR_(sub)(&c, &tn, &one);         /* tau^n - 1 */
    FR_(mul)(&zn, &zn, &c);
    FR_(sub)(&c, &gn, &one);         /* g^n - 1 */
    FR_(mul)(&c, &c, &gn);
    FR_(inv)(&c, &c);
    FR_(mul)(&zn, &zn, &c);
    FR_(mul)(&zn, &zn, &dom->n_inv);
    FR_(mul)(&zn, &zn, &dinv);
    if ((st = basis(out->h, n, &tau, &dom->omega_2n, &dom->omega, &zn, pool)))
        goto out;
    cz_log(CZ_LOG_INFO, "setup", "%s: IC, C and H scalars: %.0f ms (scalars in all %.0f ms)",
           name, now_ms() - t, now_ms() - t0);

out:
    if (st && err && err_len && !err[0])
        cz_io_fail(st, err, err_len, name, "setup failed: %s", cz_strerror(st));
    cz_wipe(&tau, sizeof tau);
    cz_wipe(&tn, sizeof tn);
    cz_wipe(&dinv, sizeof dinv);
    cz_wipe(&zn, sizeof zn);
    cz_wipe(&c, sizeof c);
    cz_wipe(&rng, sizeof rng);
    SU_FN_SCALARS_DROP(&lag, n, pool);
    SU_FN_SCALARS_DROP(&w, nvars, pool);
    free(is_one);
    SU_DOM_DESTROY(dom);
    if (st)
        SU_FN_SCALARS_FREE(out);
    return st;
}

/* ---- the .zkey writer ---- */

cz_status SU_FN_SETUP(const SU_R1CS *cs, const char *path, const cz_setup_opts *opts,
                      char *err, size_t err_len)
{
    if (err && err_len)
        err[0] = 0;
    cz_threadpool *pool = NULL, *own = NULL;
    unsigned threads = opts ? opts->threads : 0;
    if (threads == 0)
        pool = cz_threadpool_global();
    else if (threads > 1)
        pool = own = cz_threadpool_create((int)threads);

    writer wr = {NULL, 1};
    SU_SCALARS sc;
    cz_status st = scalars_make(&sc, cs, NULL, opts, false, pool, path, err, err_len);
    if (st) {
        cz_threadpool_destroy(own);
        return st;
    }
    const uint32_t nvars = sc.n_vars, npub = sc.n_public, nc = sc.n_constraints;
    const size_t n = sc.n;
    const uint32_t g1b = 2 * 8 * SU_NQ, g2b = 4 * 8 * SU_NQ;

    wr.f = fopen(path, "wb");
    if (!wr.f) {
        st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot create the file");
        goto out_noerr;
    }
    /* container: 10 sections */
    put(&wr, "zkey", 4);
    put32(&wr, 1);
    put32(&wr, 10);
    /* 1: protocol */
    section_header(&wr, 1, 4);
    put32(&wr, 1);
    /* 2: Groth16 header */
    section_header(&wr, 2, 4 + 8 * SU_NQ + 4 + 32 + 12 + 3 * g1b + 3 * g2b);
    put32(&wr, 8 * SU_NQ);
    put_limbs(&wr, fp_p, SU_NQ);
    put32(&wr, 32);
    put_limbs(&wr, fr_p, 4);
    put32(&wr, nvars);
    put32(&wr, npub);
    put32(&wr, (uint32_t)n);
    {
        su_fr s3[3] = {sc.alpha, sc.beta, sc.delta}, s2[2] = {sc.beta, sc.delta};
        su_g1_affine p1[3];
        su_g2_affine p2[2], g2;
        SU_F(SU_G2, generator)(&g2);
        st = SU_FIXED_G1(p1, s3, 3, NULL);
        if (!st)
            st = SU_FIXED_G2(p2, s2, 2, NULL);
        cz_wipe(s3, sizeof s3);
        cz_wipe(s2, sizeof s2);
        if (st)
            goto out;
        put_g1(&wr, &p1[0]); /* alpha1 */
        put_g1(&wr, &p1[1]); /* beta1 */
        put_g2(&wr, &p2[0]); /* beta2 */
        put_g2(&wr, &g2);    /* gamma2 = G2 */
        put_g1(&wr, &p1[2]); /* delta1 */
        put_g2(&wr, &p2[1]); /* delta2 */
    }
    /* 4: coefficients, values coef * R^2 mod r, then the nPublic + 1 extra A rows */
    {
        uint64_t ncoef = 0;
        for (uint32_t c = 0; c < nc; c++)
            ncoef += cs->start[3 * (uint64_t)c + 2] - cs->start[3 * (uint64_t)c];
        ncoef += npub + 1;
        if (ncoef > UINT32_MAX) {
            st = cz_io_fail(CZ_ERR_UNSUPPORTED, err, err_len, path, "too many coefficients");
            goto out_noerr;
        }
        section_header(&wr, 4, 4 + ncoef * 44);
        put32(&wr, (uint32_t)ncoef);
        su_fr r2;
        FR_(from_limbs)(&r2, fr_r2);
        uint8_t rec[44];
        for (uint32_t c = 0; c < nc; c++)
            for (int m = 0; m < 2; m++)
                for (uint64_t t = cs->start[3 * (uint64_t)c + m]; t < cs->start[3 * (uint64_t)c + m + 1]; t++) {
                    su_fr val;
                    uint64_t l[4];
                    FR_(mul)(&val, &cs->terms[t].coef, &r2);
                    FR_(to_limbs)(l, &val);
                    cz_put_le32(rec, (uint32_t)m);
                    cz_put_le32(rec + 4, c);
                    cz_put_le32(rec + 8, cs->terms[t].wire);
                    for (int i = 0; i < 4; i++)
                        cz_put_le64(rec + 12 + 8 * i, l[i]);
                    put(&wr, rec, 44);
                }
        for (uint32_t s = 0; s <= npub; s++) {
            uint64_t l[4];
            FR_(to_limbs)(l, &r2);
            cz_put_le32(rec, 0);
            cz_put_le32(rec + 4, nc + s);
            cz_put_le32(rec + 8, s);
            for (int i = 0; i < 4; i++)
                cz_put_le64(rec + 12 + 8 * i, l[i]);
            put(&wr, rec, 44);
        }
    }
    /* 3 IC, 9 H, 8 C, 5 A, 6 B1, 7 B2 */
    if ((st = write_points(&wr, 3, sc.k, npub + 1, 0, pool)) ||
        (st = write_points(&wr, 9, sc.h, n, 0, pool)) ||
        (st = write_points(&wr, 8, sc.k + npub + 1, nvars - npub - 1, 0, pool)) ||
        (st = write_points(&wr, 5, sc.u, nvars, 0, pool)) ||
        (st = write_points(&wr, 6, sc.v, nvars, 0, pool)) ||
        (st = write_points(&wr, 7, sc.v, nvars, 1, pool)))
        goto out;
    /* 10: contributions: a (zero) 64-byte circuit hash, no contributions */
    {
        uint8_t z[64] = {0};
        section_header(&wr, 10, 68);
        put(&wr, z, 64);
        put32(&wr, 0);
    }
out:
    if (st && err && err_len && !(err[0]))
        cz_io_fail(st, err, err_len, path, "setup failed: %s", cz_strerror(st));
out_noerr:
    if (wr.f) {
        if (fclose(wr.f) != 0)
            wr.ok = 0;
        if (!st && !wr.ok)
            st = cz_io_fail(CZ_ERR_IO, err, err_len, path, "write failed (disk full?)");
        if (st)
            remove(path);
    }
    SU_FN_SCALARS_FREE(&sc);
    cz_threadpool_destroy(own);
    return st;
}

#undef CHUNK
#undef FR_
