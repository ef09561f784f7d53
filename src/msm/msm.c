/*
 * msm.c: the parts of the MSM that do not depend on the group: scalar
 * preparation (Montgomery or plain, reduced mod r, sorted into 0 / 1 /
 * other) and the window choice. See msm.h for the design.
 */
#include "msm/msm_internal.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "util/mem.h"

static const uint64_t r_limbs[4] = CZ_FR_P;

/* x mod r for any 256-bit x: 2^256 < 3r, so at most two subtractions. */
static void reduce_r(uint64_t x[4])
{
    for (int it = 0; it < 2; it++) {
        uint64_t d[4], borrow = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 t = (unsigned __int128)x[i] - r_limbs[i] - borrow;
            d[i] = (uint64_t)t;
            borrow = (uint64_t)(t >> 64) & 1;
        }
        if (borrow)
            return; /* x < r */
        memcpy(x, d, sizeof d);
    }
}

typedef struct {
    cz_msm_prep_ *p;
    const void *points;
    cz_msm_is_inf_fn_ is_inf;
    const cz_fr *scalars;
    cz_msm_scalar_form form;
    bool split;
    uint8_t *cls;   /* 0 skip, 1 one, 2 big */
} prep_ctx;

static void prep_fn(void *vctx, size_t b, size_t e, int worker)
{
    prep_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        uint64_t *s = c->p->sc[i].l;
        if (c->form == CZ_MSM_SCALAR_MONT) {
            cz_fr_to_limbs(s, &c->scalars[i]);
        } else {
            memcpy(s, c->scalars[i].l, 32);
            reduce_r(s);
        }
        uint8_t k;
        if ((s[0] | s[1] | s[2] | s[3]) == 0)
            k = 0;
        else if (c->split && s[0] == 1 && (s[1] | s[2] | s[3]) == 0)
            k = 1;
        else
            k = 2;
        if (k && c->is_inf(c->points, i))
            k = 0;
        c->cls[i] = k;
    }
}

cz_status cz_msm_prepare_(cz_msm_prep_ *p, const void *points, cz_msm_is_inf_fn_ is_inf,
                          const cz_fr *scalars, size_t n, cz_msm_scalar_form form, bool split,
                          cz_threadpool *pool)
{
    memset(p, 0, sizeof *p);
    size_t m = n ? n : 1;
    p->sc = cz_alloc_big(m * sizeof *p->sc);
    uint8_t *cls = malloc(m);
    if (!p->sc || !cls) {
        free(cls);
        cz_msm_prep_free_(p);
        return CZ_ERR_NOMEM;
    }
    prep_ctx c = {p, points, is_inf, scalars, form, split, cls};
    cz_parallel_for(pool, n, 1 << 14, prep_fn, &c);
    size_t nb = 0, no = 0;
    for (size_t i = 0; i < n; i++) {
        nb += cls[i] == 2;
        no += cls[i] == 1;
    }
    p->big = malloc((nb ? nb : 1) * sizeof *p->big);
    p->ones = malloc((no ? no : 1) * sizeof *p->ones);
    if (!p->big || !p->ones) {
        free(cls);
        cz_msm_prep_free_(p);
        return CZ_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (cls[i] == 2)
            p->big[p->n_big++] = (uint32_t)i;
        else if (cls[i] == 1)
            p->ones[p->n_ones++] = (uint32_t)i;
    }
    free(cls);
    return CZ_OK;
}

void cz_msm_prep_free_(cz_msm_prep_ *p)
{
    free(p->sc);
    free(p->big);
    free(p->ones);
    memset(p, 0, sizeof *p);
}

/* z^2 = 0xac45a4010001a402_0000000100000000 (bit 127 set) and
   mu = floor(2^256 / z^2) (129 bits): Barrett's estimate
   q = floor(floor(k / 2^126) mu / 2^130) is at most floor(k / z^2) (every
   step rounds down) and short of it by at most 2; the loop adds the rest. */
static const uint64_t glv_z2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
static const uint64_t glv_mu[3] = {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x1ULL};

/* out (na + nb words) = a * b, schoolbook */
static void mul_words(uint64_t *out, const uint64_t *a, int na, const uint64_t *b, int nb)
{
    typedef unsigned __int128 u128;
    for (int i = 0; i < na + nb; i++)
        out[i] = 0;
    for (int i = 0; i < na; i++) {
        uint64_t c = 0;
        for (int j = 0; j < nb; j++) {
            u128 x = (u128)a[i] * b[j] + out[i + j] + c;
            out[i + j] = (uint64_t)x;
            c = (uint64_t)(x >> 64);
        }
        out[i + nb] = c;
    }
}

void cz_msm_glv_split_(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4])
{
    typedef unsigned __int128 u128;
    uint64_t t[3] = {(k[1] >> 62) | (k[2] << 2), (k[2] >> 62) | (k[3] << 2), k[3] >> 62};
    uint64_t pr[6];
    mul_words(pr, t, 3, glv_mu, 3);
    /* q = pr >> 130 <= k / z^2 < 2^128 for k < r (the callers' scalars) */
    uint64_t q[2] = {(pr[2] >> 2) | (pr[3] << 62), (pr[3] >> 2) | (pr[4] << 62)};
    /* rem = k - q z^2 */
    uint64_t qz[4];
    mul_words(qz, q, 2, glv_z2, 2);
    uint64_t rem[4], borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 x = (u128)k[i] - qz[i] - borrow;
        rem[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    /* while rem >= z^2: rem -= z^2, q += 1 */
    while (rem[2] | rem[3] || rem[1] > glv_z2[1] || (rem[1] == glv_z2[1] && rem[0] >= glv_z2[0])) {
        borrow = 0;
        for (int i = 0; i < 4; i++) {
            u128 x = (u128)rem[i] - (i < 2 ? glv_z2[i] : 0) - borrow;
            rem[i] = (uint64_t)x;
            borrow = (uint64_t)(x >> 64) & 1;
        }
        if (++q[0] == 0)
            q[1]++;
    }
    k1[0] = rem[0];
    k1[1] = rem[1];
    k2[0] = q[0];
    k2[1] = q[1];
}

/* Tasks are (window, range of points) pairs: ranges split the points only
   when there are too few windows to keep every thread busy. */
unsigned cz_msm_ranges_(size_t n, unsigned n_win, int threads)
{
    unsigned r = 1;
    if (n_win < (unsigned)(4 * threads))
        r = (unsigned)((4 * threads + (int)n_win - 1) / (int)n_win);
    if (r > 1 && n / r < 1024)
        r = n / 1024 ? (unsigned)(n / 1024) : 1;
    return r;
}

/* Minimise rounds * (n/ranges + k 2^(c-1)): per task n/ranges bucket
   additions (batched affine, ~6M + 6 add/sub) and a running-sum reduction
   of 2^(c-1) buckets, rounds = ceil(tasks / threads). Below 2^17 points
   k = 1: the segmented batched-affine reduction costs 2 additions per
   bucket, but a bucket's first point is a copy, not an addition, so about
   1 net; measured best with it on the dev VM (G1 and G2,
   2^11..2^16, one thread: the old k = 3 picked c 1-2 too small, 5-20%
   slower); from 2^17 on k = 3 (as before: larger windows there spill the
   L2 cache). G2 takes G1's window below 2^17 (measured: 2^13..2^16 within
   2% of the best, c = 13 at 2^15 and 2^16 3-4% faster than 12) and one bit
   less from 2^17 on (its buckets are twice as big; 12 and 13 measured equal
   at 2^17). Capped at 16 (G1) / 15 (G2); beyond, bucket arrays spill the
   L2 cache. */
unsigned cz_msm_window_for(size_t n, int threads, int g2)
{
    return cz_msm_window_for_bits_(n, threads, g2, 256);
}

unsigned cz_msm_window_for_bits_(size_t n, int threads, int g2, unsigned bits)
{
    unsigned c;
    cz_msm_plan_(n, threads, g2, bits, &c);
    return c;
}

double cz_msm_plan_(size_t n, int threads, int g2, unsigned bits, unsigned *c_out)
{
    if (threads < 1)
        threads = 1;
    *c_out = 2;
    if (n < 4)
        return (double)n * bits;
    bool small = n < ((size_t)1 << 17);
    double k = small ? 1.0 : 3.0;
    unsigned best = 2, cap = g2 ? 15 : 16;
    double best_cost = 0;
    for (unsigned c = 2; c <= cap; c++) {
        unsigned w = (bits + c - 1) / c;
        unsigned r = cz_msm_ranges_(n, w, threads);
        double rounds = (double)(((size_t)w * r + (size_t)threads - 1) / (size_t)threads);
        double cost = rounds * ((double)n / r + k * (double)((size_t)1 << (c - 1)));
        if (c == 2 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    if (g2 && !small && best > 2)
        best--;
    *c_out = best;
    return best_cost;
}
