/* timeline.h: cuzkd's timeline (GET /v1/timeline) drawn as a waterfall SVG. */
#ifndef CZ_BENCH_TIMELINE_H
#define CZ_BENCH_TIMELINE_H

#include <stddef.h>

#include <jansson.h>

typedef struct {
    int spans, jobs;
    double span_ms;   /* from the first span's start to the last span's end */
    double gpu_busy;  /* fraction of [first prove start, last prove end] with a prove span
                         running ("gpu" spans, or "prove" where the daemon proves on the CPU) */
    int host;         /* the daemon proves on the CPU: its spans say "prove", not "gpu" */
} cz_timeline_summary;

/* Write the SVG; 0 ok, -1 with err. */
int cz_timeline_svg(json_t *timeline, const char *path, cz_timeline_summary *sum, char *err,
                    size_t err_len);

#endif
