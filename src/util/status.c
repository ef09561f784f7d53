/* status.c: cz_strerror. */
#include "cuzk/cuzk.h"

const char *cz_strerror(cz_status s)
{
    switch (s) {
    case CZ_OK: return "success";
    case CZ_ERR_ARG: return "invalid argument";
    case CZ_ERR_NOMEM: return "out of memory";
    case CZ_ERR_IO: return "input/output error";
    case CZ_ERR_FORMAT: return "malformed input";
    case CZ_ERR_CURVE: return "wrong curve or field";
    case CZ_ERR_NOT_ON_CURVE: return "point not on the curve";
    case CZ_ERR_SUBGROUP: return "point not in the prime-order subgroup";
    case CZ_ERR_RANGE: return "value out of range";
    case CZ_ERR_WITNESS: return "witness does not match";
    case CZ_ERR_VERIFY: return "proof did not verify";
    case CZ_ERR_DEVICE: return "GPU device error";
    case CZ_ERR_UNSUPPORTED: return "not supported";
    case CZ_ERR_CANCELLED: return "cancelled";
    case CZ_ERR_BUSY: return "busy";
    case CZ_ERR_INTERNAL: return "internal error";
    case CZ_ERR_NOT_FOUND: return "not found";
    }
    return "unknown status";
}
