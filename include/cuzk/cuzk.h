/*
 * cuzk.h: the public C API of cuzk, a Groth16 proving engine for BLS12-381.
 *
 * Functions return cz_status (CZ_OK = 0) and, where they take one, fill a
 * caller-provided message buffer with a sentence naming the fault.
 */
#ifndef CUZK_H
#define CUZK_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CZ_OK = 0,
    CZ_ERR_ARG,          /* API misuse: bad argument */
    CZ_ERR_NOMEM,        /* host allocation failed */
    CZ_ERR_IO,           /* open/read/write/mmap failed */
    CZ_ERR_FORMAT,       /* malformed file or message */
    CZ_ERR_CURVE,        /* wrong curve or field (e.g. a BN254 file) */
    CZ_ERR_NOT_ON_CURVE, /* point not on the curve */
    CZ_ERR_SUBGROUP,     /* point not in the prime-order subgroup */
    CZ_ERR_RANGE,        /* integer or field element out of range */
    CZ_ERR_WITNESS,      /* witness does not match the key or circuit */
    CZ_ERR_VERIFY,       /* a proof did not verify */
    CZ_ERR_DEVICE,       /* GPU fault */
    CZ_ERR_UNSUPPORTED,  /* feature not built or not available */
    CZ_ERR_CANCELLED,
    CZ_ERR_BUSY,
    CZ_ERR_INTERNAL,
    CZ_ERR_NOT_FOUND,    /* no such key, job or entry */
} cz_status;

/* A static English description of a status code. */
const char *cz_strerror(cz_status s);

#ifdef __cplusplus
}
#endif
#endif
