/*
 * setup.c: BLS12-381's development Groth16 setup (cz_groth16_setup, a
 * snarkjs .zkey) and the scalars of native.c's in-memory keys
 * (cz_setup_scalars_make).
 *
 * DESIGN. The algorithm is setup_impl.h's (its DESIGN paragraph says what
 * the key's points are), written once over the curve's names and compiled
 * per curve (docs/CURVES.md): this file instantiates it for BLS12-381,
 * with the cz_shape form of native circuits; setup_bn254.c does BN254.
 */
#include "field/constants.h"
#include "groth16/native.h"
#include "poly/ntt.h"

#define SU_FR fr
#define SU_G1 g1
#define SU_G2 g2
#define SU_NQ 6
#define SU_FP_P CZ_FP_P
#define SU_FR_P CZ_FR_P
#define SU_FR_R2 CZ_FR_R2
#define SU_DOM cz_ntt_domain
#define SU_DOM_CREATE(d, log_n) cz_ntt_domain_create(d, log_n, CZ_NTT_ROOT_5)
#define SU_DOM_DESTROY(d) cz_ntt_domain_destroy(d)
#define SU_MAX_LOG CZ_NTT_MAX_LOG
#define SU_R1CS cz_r1cs
#define SU_SCALARS cz_setup_scalars
#define SU_SHAPE 1
#define SU_FIXED_G1 cz_fixed_base_g1
#define SU_FIXED_G2 cz_fixed_base_g2
#define SU_FN_SETUP cz_groth16_setup
#define SU_FN_SCALARS_DROP cz_setup_scalars_drop
#define SU_FN_SCALARS_FREE cz_setup_scalars_free
#include "groth16/setup_impl.h"

cz_status cz_setup_scalars_make(cz_setup_scalars *out, const cz_r1cs *cs, const cz_shape *shape,
                                const cz_setup_opts *opts, bool want_in_b, cz_threadpool *pool,
                                const char *name, char *err, size_t err_len)
{
    return scalars_make(out, cs, shape, opts, want_in_b, pool, name, err, err_len);
}
