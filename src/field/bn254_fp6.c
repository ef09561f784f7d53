/*
 * bn254_fp6.c: BN254's Fp6 = Fp2[v]/(v^3 - (9 + u)).
 *
 * DESIGN. The shared code of fp6_impl.h over tower_wide.h (BLS12-381's
 * fp6.c compiles the same) with xi = 9 + u and BN254's Frobenius tables;
 * the parameters are in bn254_inline.h.
 */
#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#include "field/tower_wide.h"
#include "field/fp6_impl.h"
