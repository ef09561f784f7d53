/*
 * fp2_inline_impl.h: Fp dbl/neg and the Fp2 linear operations (add, sub,
 * dbl, neg, conj, times xi) as static inline functions, written once for
 * both curves. Included by fp_inline.h (BLS12-381) and bn254_inline.h
 * (BN254), which define IL_FP, IL_FP2 (types), IL_FPI_(op), IL_FP2I_(op)
 * (names of the inline functions: the includer provides IL_FPI_(add) and
 * IL_FPI_(sub)) and IL_XI_C0 (xi = IL_XI_C0 + u); the macros are undefined
 * at the end.
 */
static inline void IL_FPI_(dbl)(IL_FP *out, const IL_FP *a) { IL_FPI_(add)(out, a, a); }

static inline void IL_FPI_(neg)(IL_FP *out, const IL_FP *a)
{
    static const IL_FP zero = {{0}};
    IL_FPI_(sub)(out, &zero, a);
}

static inline void IL_FP2I_(add)(IL_FP2 *out, const IL_FP2 *a, const IL_FP2 *b)
{
    IL_FPI_(add)(&out->c0, &a->c0, &b->c0);
    IL_FPI_(add)(&out->c1, &a->c1, &b->c1);
}

static inline void IL_FP2I_(sub)(IL_FP2 *out, const IL_FP2 *a, const IL_FP2 *b)
{
    IL_FPI_(sub)(&out->c0, &a->c0, &b->c0);
    IL_FPI_(sub)(&out->c1, &a->c1, &b->c1);
}

static inline void IL_FP2I_(dbl)(IL_FP2 *out, const IL_FP2 *a)
{
    IL_FPI_(add)(&out->c0, &a->c0, &a->c0);
    IL_FPI_(add)(&out->c1, &a->c1, &a->c1);
}

static inline void IL_FP2I_(neg)(IL_FP2 *out, const IL_FP2 *a)
{
    IL_FPI_(neg)(&out->c0, &a->c0);
    IL_FPI_(neg)(&out->c1, &a->c1);
}

static inline void IL_FP2I_(conj)(IL_FP2 *out, const IL_FP2 *a)
{
    out->c0 = a->c0;
    IL_FPI_(neg)(&out->c1, &a->c1);
}

#if IL_XI_C0 == 1
/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
static inline void IL_FP2I_(mul_by_nonresidue)(IL_FP2 *out, const IL_FP2 *a)
{
    IL_FP t0, t1;
    IL_FPI_(sub)(&t0, &a->c0, &a->c1);
    IL_FPI_(add)(&t1, &a->c0, &a->c1);
    out->c0 = t0;
    out->c1 = t1;
}
#elif IL_XI_C0 == 9
/* (a0 + a1 u)(9 + u) = (9 a0 - a1) + (a0 + 9 a1) u, 9x = 8x + x:
   8 additions and 2 subtractions (BN254) */
static inline void IL_FP2I_(mul_by_nonresidue)(IL_FP2 *out, const IL_FP2 *a)
{
    IL_FP t0, t1;
    IL_FPI_(add)(&t0, &a->c0, &a->c0);
    IL_FPI_(add)(&t1, &a->c1, &a->c1);
    IL_FPI_(add)(&t0, &t0, &t0);
    IL_FPI_(add)(&t1, &t1, &t1);
    IL_FPI_(add)(&t0, &t0, &t0);
    IL_FPI_(add)(&t1, &t1, &t1);
    IL_FPI_(add)(&t0, &t0, &a->c0);
    IL_FPI_(add)(&t1, &t1, &a->c1);
    IL_FPI_(sub)(&t0, &t0, &a->c1);
    IL_FPI_(add)(&out->c1, &t1, &a->c0);
    out->c0 = t0;
}
#else
#error "fp2_inline_impl.h: xi = IL_XI_C0 + u for IL_XI_C0 in {1, 9}"
#endif

#undef IL_FP
#undef IL_FP2
#undef IL_FPI_
#undef IL_FP2I_
#undef IL_XI_C0
