/*
 * bn254_fp2.c: BN254's Fp2 = Fp[u]/(u^2 + 1).
 *
 * DESIGN. The shared code of fp2_impl.h (BLS12-381's fp2.c compiles the
 * same) over BN254's Fp; the parameters are in bn254_inline.h.
 */
#include "field/bn254.h"
#include "field/bn254_constants.h"
#include "field/bn254_inline.h"

#include "field/fp2_impl.h"
