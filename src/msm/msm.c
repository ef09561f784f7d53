/*
 * msm.c: the parts of the MSM that do not depend on the group: scalar
 * preparation (Montgomery or plain, reduced mod r, sorted into 0 / 1 /
 * other) and the window choice. See msm.h for the design.
 */
#include "msm/msm_internal.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"

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
    p->sc = malloc(m * sizeof *p->sc);
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
   of 2^(c-1) buckets (an XYZZ mixed add and a full add, ~22M: k = 3 as
   measured), rounds = ceil(tasks / threads). G2 takes one bit less: its
   buckets are twice as big and the measurements favour it. Capped at 16
   (G1) / 14 (G2); beyond, bucket arrays spill the L2 cache. */
unsigned cz_msm_window_for(size_t n, int threads, int g2)
{
    if (threads < 1)
        threads = 1;
    if (n < 4)
        return 2;
    unsigned best = 2, cap = g2 ? 15 : 16;
    double best_cost = 0;
    for (unsigned c = 2; c <= cap; c++) {
        unsigned w = (256 + c - 1) / c;
        unsigned r = cz_msm_ranges_(n, w, threads);
        double rounds = (double)(((size_t)w * r + (size_t)threads - 1) / (size_t)threads);
        double cost = rounds * ((double)n / r + 3.0 * (double)((size_t)1 << (c - 1)));
        if (c == 2 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    if (g2 && best > 2)
        best--;
    return best;
}
