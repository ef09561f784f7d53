/*
 * lc_local.h: small linear combinations on the stack for the gadgets.
 *
 * DESIGN. A gadget's constraint has a handful of terms known in advance,
 * so its cz_lc points at a fixed array on the stack (no malloc per
 * constraint in SHAPE mode); the helpers here write terms without growing,
 * and every caller sizes its array for the most terms it can add.
 * Only used where cz_cs_records(cs) is true.
 */
#ifndef CZ_CIRCUIT_LC_LOCAL_H
#define CZ_CIRCUIT_LC_LOCAL_H

#include "circuit/gadgets.h"

#define CZ_LC_LOCAL(name, n)         \
    cz_lc_term name##_buf[n];        \
    cz_lc name = {name##_buf, 0, n}

/* Append coef * v; the array was sized for it. */
static inline void cz_lcl_add(cz_lc *lc, cz_var v, const cz_fr *coef)
{
    lc->t[lc->n].var = v;
    lc->t[lc->n].coef = *coef;
    lc->n++;
}

/* Append coef * b (a NOT adds two terms, a constant one or none). */
static inline void cz_lcl_bool(cz_lc *lc, cz_bool b, const cz_fr *coef)
{
    if (b.kind == CZ_BOOL_CONST) {
        if (b.value)
            cz_lcl_add(lc, cz_var_one(), coef);
    } else if (b.kind == CZ_BOOL_VAR) {
        cz_lcl_add(lc, b.var, coef);
    } else {
        cz_fr neg;
        cz_fr_neg(&neg, coef);
        cz_lcl_add(lc, cz_var_one(), coef);
        cz_lcl_add(lc, b.var, &neg);
    }
}

/* +-1 */
static inline void cz_lcl_bool_pm(cz_lc *lc, cz_bool b, bool neg)
{
    cz_fr c;
    cz_fr_one(&c);
    if (neg)
        cz_fr_neg(&c, &c);
    cz_lcl_bool(lc, b, &c);
}

static inline void cz_lcl_var_pm(cz_lc *lc, cz_var v, bool neg)
{
    cz_fr c;
    cz_fr_one(&c);
    if (neg)
        cz_fr_neg(&c, &c);
    cz_lcl_add(lc, v, &c);
}

#endif
