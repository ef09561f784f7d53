/* rng.c: see rng.h. */
#include "util/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cz_rng_seed(cz_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
    rng->os = 0;
}

void cz_rng_os(cz_rng *rng)
{
    memset(rng->s, 0, sizeof rng->s);
    rng->os = 1;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xoshiro_next(uint64_t s[4])
{
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

cz_status cz_os_random(void *buf, size_t len)
{
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return CZ_ERR_IO;
        }
        p += n;
        len -= (size_t)n;
    }
    return CZ_OK;
}

uint64_t cz_rng_u64(cz_rng *rng)
{
    if (rng->os) {
        uint64_t v = 0;
        /* getrandom(2) cannot fail for 8 bytes once the pool is ready,
           and it blocks until then; a failure means a broken kernel. */
        if (cz_os_random(&v, sizeof v) != CZ_OK)
            __builtin_trap();
        return v;
    }
    return xoshiro_next(rng->s);
}

cz_status cz_rng_bytes(cz_rng *rng, void *buf, size_t len)
{
    if (rng->os)
        return cz_os_random(buf, len);
    uint8_t *p = buf;
    while (len > 0) {
        uint64_t v = xoshiro_next(rng->s);
        size_t k = len < 8 ? len : 8;
        memcpy(p, &v, k);
        p += k;
        len -= k;
    }
    return CZ_OK;
}

void cz_wipe(void *p, size_t len)
{
    volatile uint8_t *v = p;
    while (len--)
        *v++ = 0;
}
