/*
 * ntt_bn254.c: the NTT over BN254's Fr, ntt_impl.h compiled for it. See
 * ntt_bn254.h (roots: snarkjs's, 5^((r-1)/2^28); at 2^28 the odd-point
 * shift is snarkjs's Fr.shift = 25) and ntt.c (the algorithm).
 */
#include "poly/ntt_bn254.h"

#include "field/bn254_constants.h"

#define FR cz_bn254_fr
#define FR_(op) cz_bn254_fr_##op
#define NTT_DOM cz_bn254_ntt_domain
#define NTT_(op) cz_bn254_ntt_##op
#define NTT_SCALE_POWERS cz_bn254_fr_scale_powers
#define NTT_MAX_LOG CZ_BN254_NTT_MAX_LOG
#define NTT_TWO_ADICITY CZ_BN254_FR_TWO_ADICITY
#define NTT_ROOT_VALID(root) ((root) == CZ_NTT_ROOT_5)
#define NTT_ROOT_DECL static const cz_bn254_fr r5 = {CZ_BN254_FR_ROOT_OF_UNITY_5_MONT};
#define NTT_ROOT(root) ((void)(root), r5)
#define NTT_FULL_SHIFT(out) cz_bn254_fr_set_u64((out), 25)

#include "poly/ntt_impl.h"
