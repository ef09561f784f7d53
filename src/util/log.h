/*
 * log.h: level-gated logging to stderr, as text or JSON lines.
 *
 * DESIGN. One process-wide level and format, set once at start (cuzkd's
 * config). Text: "2026-11-29T10:00:00.123Z info engine: message". JSON:
 * {"ts":"...","level":"info","src":"engine","msg":"..."}. A line is
 * written with one write(2), so lines from threads do not interleave.
 * Control bytes in a message (a client's path or id may hold a newline)
 * are escaped in both formats (\x0a in text, \u000a in JSON), so a
 * message is always exactly one line and cannot forge another.
 */
#ifndef CZ_LOG_H
#define CZ_LOG_H

typedef enum { CZ_LOG_DEBUG, CZ_LOG_INFO, CZ_LOG_WARN, CZ_LOG_ERROR } cz_log_level;

void cz_log_setup(cz_log_level level, int json);
int cz_log_level_parse(const char *s, cz_log_level *out); /* 0 ok, -1 bad */
void cz_log(cz_log_level level, const char *src, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
