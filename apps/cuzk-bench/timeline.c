/*
 * timeline.c: a waterfall picture of cuzkd's recent work.
 *
 * One lane per witness worker and per prove worker (which also carries the
 * self-check, drawn lighter), plus a lane for queue waits; one colour per
 * job (hue from the job's sequence number, golden-angle spaced). The busy
 * fraction is the union of the prove spans ("gpu", or "prove" from a
 * daemon that proves on the CPU) over the window from the first prove
 * start to the last prove end: "GPU busy", or "busy" on the CPU. Key
 * loads and makes (spans with a "key" member: a key made from a preset at
 * the daemon's start, say) get a lane of their own, grey (red when they
 * failed), and count neither as jobs nor as busy time.
 */
#include "timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double t0, t1;
} interval;

static int cmp_interval(const void *a, const void *b)
{
    double x = ((const interval *)a)->t0, y = ((const interval *)b)->t0;
    return x < y ? -1 : x > y;
}

static double union_length(interval *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_interval);
    double total = 0, cs = 0, ce = -1;
    for (size_t i = 0; i < n; i++) {
        if (v[i].t0 > ce) {
            if (ce > cs)
                total += ce - cs;
            cs = v[i].t0;
            ce = v[i].t1;
        } else if (v[i].t1 > ce) {
            ce = v[i].t1;
        }
    }
    if (ce > cs)
        total += ce - cs;
    return total;
}

int cz_timeline_svg(json_t *tl, const char *path, cz_timeline_summary *sum, char *err, size_t err_len)
{
    json_t *spans = json_object_get(tl, "spans");
    int n_workers = (int)json_integer_value(json_object_get(tl, "workers"));
    int n_witness = (int)json_integer_value(json_object_get(tl, "witness_workers"));
    if (!json_is_array(spans)) {
        snprintf(err, err_len, "the daemon's timeline has no spans array");
        return -1;
    }
    size_t n = json_array_size(spans);
    memset(sum, 0, sizeof *sum);
    sum->spans = (int)n;
    double lo = 1e300, hi = -1e300;
    interval *gpu = calloc(n ? n : 1, sizeof *gpu);
    size_t ng = 0;
    double glo = 1e300, ghi = -1e300;
    long long max_seq = 0, min_seq = 0;
    int n_key = 0;
    if (!gpu) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(spans, i);
        double a = json_number_value(json_object_get(s, "start_ms"));
        double b = json_number_value(json_object_get(s, "end_ms"));
        long long seq = json_integer_value(json_object_get(s, "seq"));
        if (a < lo) lo = a;
        if (b > hi) hi = b;
        if (json_object_get(s, "key")) { /* a key load or make: no job */
            n_key++;
            continue;
        }
        if (!max_seq || seq > max_seq) max_seq = seq;
        if (!min_seq || seq < min_seq) min_seq = seq;
        const char *st = json_string_value(json_object_get(s, "stage"));
        if (st && !strcmp(st, "prove"))
            sum->host = 1;
        if (st && (!strcmp(st, "gpu") || !strcmp(st, "prove"))) {
            gpu[ng].t0 = a;
            gpu[ng].t1 = b;
            ng++;
            if (a < glo) glo = a;
            if (b > ghi) ghi = b;
        }
    }
    sum->jobs = max_seq ? (int)(max_seq - min_seq + 1) : 0;
    sum->span_ms = n ? hi - lo : 0;
    sum->gpu_busy = ng && ghi > glo ? union_length(gpu, ng) / (ghi - glo) : 0;
    free(gpu);

    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, err_len, "%s: cannot write", path);
        return -1;
    }
    int lanes = 1 + (n_witness > 0 ? n_witness : 1) + (n_workers > 0 ? n_workers : 1) + (n_key > 0);
    const int lane_h = 28, left = 150, width = 1200, top = 50;
    int height = top + lanes * lane_h + 60;
    double span = hi > lo ? hi - lo : 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", left + width + 20, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"15\">cuzkd timeline: %d spans, %d jobs, %.0f ms; "
               "%s %.1f%%</text>\n", sum->spans, sum->jobs, sum->span_ms,
            sum->host ? "busy" : "GPU busy", sum->gpu_busy * 100);
    /* lanes */
    for (int l = 0; l < lanes; l++) {
        int y = top + l * lane_h;
        char name[64];
        if (n_key > 0 && l == lanes - 1)
            snprintf(name, sizeof name, "keys");
        else if (l == 0)
            snprintf(name, sizeof name, "queue wait");
        else if (l <= (n_witness > 0 ? n_witness : 1))
            snprintf(name, sizeof name, "witness %d", l - 1);
        else
            snprintf(name, sizeof name, "prove worker %d", l - 1 - (n_witness > 0 ? n_witness : 1));
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", left, y, width,
                lane_h, l % 2 ? "#f4f4f4" : "#fafafa");
        fprintf(f, "<text x=\"10\" y=\"%d\">%s</text>\n", y + 18, name);
    }
    /* ticks */
    double step = pow(10, floor(log10(span / 5)));
    if (span / step > 10)
        step *= 2;
    for (double t = 0; t <= span; t += step) {
        double x = left + t / span * width;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>\n", x, top, x,
                top + lanes * lane_h);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.0f ms</text>\n", x,
                top + lanes * lane_h + 16, t);
    }
    /* spans; witness spans go on the lane of their worker (or spread by job) */
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(spans, i);
        const char *stage = json_string_value(json_object_get(s, "stage"));
        double a = json_number_value(json_object_get(s, "start_ms")) - lo;
        double b = json_number_value(json_object_get(s, "end_ms")) - lo;
        long long seq = json_integer_value(json_object_get(s, "seq"));
        int worker = (int)json_integer_value(json_object_get(s, "worker"));
        const char *job = json_string_value(json_object_get(s, "job"));
        int lane;
        double opacity = 1.0;
        if (!stage)
            continue;
        json_t *kid = json_object_get(s, "key");
        if (kid) { /* the keys lane: grey, red when it failed, open-ended while it runs */
            double x = left + a / span * width, w = (b - a) / span * width;
            int y = top + (lanes - 1) * lane_h + 4;
            int failed = json_is_false(json_object_get(s, "ok"));
            int running = json_is_true(json_object_get(s, "running"));
            fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
                       "fill-opacity=\"0.6\" stroke=\"#333\" stroke-width=\"0.3\"><title>key %s %s "
                       "%.1f-%.1f ms (%.1f ms)%s</title></rect>\n",
                    x, y, w < 0.5 ? 0.5 : w, lane_h - 8, failed ? "#d33" : "#888",
                    json_string_value(kid) ? json_string_value(kid) : "?", stage, a, b, b - a,
                    failed ? ", failed" : running ? ", still running" : "");
            continue;
        }
        if (!strcmp(stage, "queue_wait") || !strcmp(stage, "gpu_queue") ||
            !strcmp(stage, "prove_queue")) {
            lane = 0;
            opacity = 0.35;
        } else if (!strcmp(stage, "witness")) {
            int nw = n_witness > 0 ? n_witness : 1;
            lane = 1 + (worker >= 0 ? worker % nw : (int)(seq % nw));
        } else {
            int nw = n_witness > 0 ? n_witness : 1;
            lane = 1 + nw + (worker >= 0 ? worker : 0);
            if (!strcmp(stage, "verify"))
                opacity = 0.5;
        }
        double hue = fmod((double)seq * 137.508, 360.0);
        double x = left + a / span * width, w = (b - a) / span * width;
        if (w < 0.5)
            w = 0.5;
        int y = top + lane * lane_h + 4;
        fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"hsl(%.0f,65%%,50%%)\" "
                   "fill-opacity=\"%.2f\" stroke=\"#333\" stroke-width=\"0.3\"><title>%s %s %.1f-%.1f ms "
                   "(%.1f ms)</title></rect>\n",
                x, y, w, lane_h - 8, hue, opacity, job ? job : "?", stage, a, b, b - a);
    }
    fprintf(f, "<text x=\"10\" y=\"%d\" fill=\"#555\">one colour per job; prove lanes: solid = "
               "proving on the device, light = self-check; queue lane: waits%s</text>\n",
            height - 12, n_key ? "; keys lane: key loads and makes (grey; red: failed)" : "");
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        snprintf(err, err_len, "%s: write failed", path);
        return -1;
    }
    return 0;
}
