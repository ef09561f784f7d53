/*
 * miller_steps_impl.h: the doubling and addition steps of a Miller loop
 * over a sextic twist in homogeneous projective coordinates, written once
 * for both curves: pairing.c (BLS12-381, M-type twist) and bn254_pairing.c
 * (BN254, D-type) include it. The steps give the same three line
 * coefficients ell[0..2] for either twist type (the formulas and their
 * derivation are in pairing.c's DESIGN comment); the twist type only
 * decides in which Fp12 slots the caller places them:
 *   M-type (BLS12-381): ell0 + ell1 (-xP) w^2 + ell2 yP w^3   (mul_by_014)
 *   D-type (BN254):     ell2 yP + ell1 (-xP) w + ell0 w^3     (mul_by_034)
 * The including file defines PR_FP2 (type), PR_FP2_(op), PR_FP2I_(op)
 * (inline linear operations), PR_G2_AFF (affine twist points) and
 * PR_E_FROM_C(e, c), the statements for e = 3b' c (b' the twist's
 * coefficient: by additions where b' is small).
 */
typedef struct {
    PR_FP2 x, y, z;
} g2_proj;

/* out = 3 * a (2 additions) */
static void fp2_triple(PR_FP2 *out, const PR_FP2 *a)
{
    PR_FP2 t;
    PR_FP2I_(dbl)(&t, a);
    PR_FP2I_(add)(out, &t, a);
}

/* See the DESIGN comment: T <- 2T (scaled by 4), line coefficients out. */
static void dbl_step(PR_FP2 ell[3], g2_proj *t)
{
    PR_FP2 b, c, e, f, h, j, s, xy;
    PR_FP2_(sqr)(&b, &t->y);
    PR_FP2_(sqr)(&c, &t->z);
    PR_E_FROM_C(&e, &c);                      /* E = 3b' C */
    fp2_triple(&f, &e);
    PR_FP2I_(add)(&h, &t->y, &t->z);
    PR_FP2_(sqr)(&h, &h);
    PR_FP2I_(sub)(&h, &h, &b);
    PR_FP2I_(sub)(&h, &h, &c);
    PR_FP2_(sqr)(&j, &t->x);

    PR_FP2I_(sub)(&ell[0], &b, &e);
    fp2_triple(&ell[1], &j);
    ell[2] = h;

    PR_FP2_(mul)(&xy, &t->x, &t->y);
    PR_FP2I_(sub)(&s, &b, &f);
    PR_FP2_(mul)(&xy, &xy, &s);
    PR_FP2I_(dbl)(&t->x, &xy);                 /* X3 = 2XY(B - F) */

    PR_FP2_(sqr)(&e, &e);
    fp2_triple(&e, &e);
    PR_FP2I_(dbl)(&e, &e);
    PR_FP2I_(dbl)(&e, &e);                     /* 12 E^2 */
    PR_FP2I_(add)(&s, &b, &f);
    PR_FP2_(sqr)(&s, &s);
    PR_FP2I_(sub)(&t->y, &s, &e);              /* Y3 = (B + F)^2 - 12E^2 */

    PR_FP2_(mul)(&s, &b, &h);
    PR_FP2I_(dbl)(&s, &s);
    PR_FP2I_(dbl)(&t->z, &s);                  /* Z3 = 4BH */
}

/* T <- T + Q, Q affine; line coefficients out. */
static void add_step(PR_FP2 ell[3], g2_proj *t, const PR_G2_AFF *q)
{
    PR_FP2 theta, lambda, c, d, e, f, g, h, s;
    PR_FP2_(mul)(&s, &q->y, &t->z);
    PR_FP2I_(sub)(&theta, &t->y, &s);
    PR_FP2_(mul)(&s, &q->x, &t->z);
    PR_FP2I_(sub)(&lambda, &t->x, &s);
    PR_FP2_(sqr)(&c, &theta);
    PR_FP2_(sqr)(&d, &lambda);
    PR_FP2_(mul)(&e, &lambda, &d);
    PR_FP2_(mul)(&f, &t->z, &c);
    PR_FP2_(mul)(&g, &t->x, &d);
    PR_FP2I_(dbl)(&s, &g);
    PR_FP2I_(add)(&h, &e, &f);
    PR_FP2I_(sub)(&h, &h, &s);
    PR_FP2_(mul)(&t->x, &lambda, &h);
    PR_FP2I_(sub)(&s, &g, &h);
    PR_FP2_(mul)(&s, &theta, &s);
    PR_FP2_(mul)(&g, &e, &t->y);
    PR_FP2I_(sub)(&t->y, &s, &g);
    PR_FP2_(mul)(&t->z, &t->z, &e);

    PR_FP2_(mul)(&s, &theta, &q->x);
    PR_FP2_(mul)(&g, &lambda, &q->y);
    PR_FP2I_(sub)(&ell[0], &s, &g);
    ell[1] = theta;
    ell[2] = lambda;
}

