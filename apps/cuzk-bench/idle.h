/* idle.h: cuzk-bench idle (see idle.c). */
#ifndef CZ_BENCH_IDLE_H
#define CZ_BENCH_IDLE_H

/* Open n connections to addr that send an unfinished request and then
   nothing; hold them up to `seconds`; print what the daemon did with them
   (a text line and a JSON line). 0, or 2 for bad arguments. */
int cz_bench_idle(const char *addr, int n, double seconds);

#endif
