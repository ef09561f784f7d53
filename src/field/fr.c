/* fr.c: the scalar field Fr of BLS12-381 (255-bit r, 4 limbs). See field.h. */
#include "field/field.h"
#include "field/constants.h"

#define MONT_N 4
#define MONT_T cz_fr
#define MONT(x) cz_fr_mont_##x
#define MONT_P CZ_FR_P
#define MONT_N0 CZ_FR_N0
#define MONT_ONE CZ_FR_ONE_MONT
#define MONT_R2 CZ_FR_R2
#define MONT_P_MINUS_2 CZ_FR_P_MINUS_2
#define F(x) cz_fr_##x
#include "field/prime_impl.h"
