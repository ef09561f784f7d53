/* hex.h: the value of one hexadecimal digit (0..15), or -1. */
#ifndef CZ_UTIL_HEX_H
#define CZ_UTIL_HEX_H

static inline int cz_hex_digit(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

#endif
