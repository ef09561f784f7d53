/*
 * fuzz_util.h: what the libFuzzer harnesses share. A property violation
 * prints its message and aborts, which libFuzzer records as a crash with
 * the input saved (crash-<sha1>); sanitizer reports do the same.
 */
#ifndef CZ_FUZZ_UTIL_H
#define CZ_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void cz_fuzz_check(const char *msg)
{
    if (msg) {
        fprintf(stderr, "PROPERTY VIOLATED: %s\n", msg);
        abort();
    }
}

/* An exact-size heap copy of the first n bytes (NULL when size < n), so
   ASan catches a decoder reading past its fixed-size input. */
static inline uint8_t *cz_fuzz_take(const uint8_t *data, size_t size, size_t n)
{
    if (size < n)
        return NULL;
    uint8_t *b = malloc(n);
    if (b)
        memcpy(b, data, n);
    return b;
}

/* A NUL-terminated exact-size heap copy of data[0..size). */
static inline char *cz_fuzz_str(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

#endif
