/*
 * setup_bn254.c: BN254's development Groth16 setup (cz_bn254_groth16_setup,
 * a snarkjs bn128 .zkey) and its fixed-base products.
 *
 * DESIGN. setup_impl.h and fixed_base_impl.h, the algorithms setup.c and
 * fixed_base.c compile for BLS12-381, instantiated over BN254's Fr, G1, G2
 * and NTT domain (snarkjs's roots, generator 5; docs/CURVES.md). The
 * .zkey differs only in data: n8q = 32 and BN254's q and r in the header,
 * 64- and 128-byte points (Montgomery, R = 2^256, as snarkjs stores bn128
 * points). The native-circuit (cz_shape) form is BLS12-381's only.
 */
#include "field/bn254_constants.h"
#include "groth16/setup_bn254.h"
#include "poly/ntt_bn254.h"

#define FB_G1 bn254_g1
#define FB_G2 bn254_g2
#define FB_FP bn254_fp
#define FB_FP2 bn254_fp2
#define FB_FR bn254_fr
#define FB_FN_G1 cz_bn254_fixed_base_g1
#define FB_FN_G2 cz_bn254_fixed_base_g2
#include "groth16/fixed_base_impl.h"

#define SU_FR bn254_fr
#define SU_G1 bn254_g1
#define SU_G2 bn254_g2
#define SU_NQ 4
#define SU_FP_P CZ_BN254_FP_P
#define SU_FR_P CZ_BN254_FR_P
#define SU_FR_R2 CZ_BN254_FR_R2
#define SU_DOM cz_bn254_ntt_domain
#define SU_DOM_CREATE(d, log_n) cz_bn254_ntt_domain_create(d, log_n, CZ_NTT_ROOT_5)
#define SU_DOM_DESTROY(d) cz_bn254_ntt_domain_destroy(d)
#define SU_MAX_LOG CZ_BN254_NTT_MAX_LOG
#define SU_R1CS cz_bn254_r1cs
#define SU_SCALARS cz_bn254_setup_scalars
#define SU_SHAPE 0
#define SU_FIXED_G1 cz_bn254_fixed_base_g1
#define SU_FIXED_G2 cz_bn254_fixed_base_g2
#define SU_FN_SETUP cz_bn254_groth16_setup
#define SU_FN_SCALARS_DROP cz_bn254_setup_scalars_drop
#define SU_FN_SCALARS_FREE cz_bn254_setup_scalars_free
#include "groth16/setup_impl.h"
