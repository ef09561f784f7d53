/* log.c: see log.h. */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static cz_log_level g_level = CZ_LOG_INFO;
static int g_json;
static const char *const names[] = {"debug", "info", "warn", "error"};

void cz_log_setup(cz_log_level level, int json)
{
    g_level = level;
    g_json = json;
}

int cz_log_level_parse(const char *s, cz_log_level *out)
{
    for (int i = 0; i < 4; i++)
        if (s && strcmp(s, names[i]) == 0) {
            *out = (cz_log_level)i;
            return 0;
        }
    return -1;
}

/* Append s to buf as the inside of a JSON string. */
static size_t json_escape(char *buf, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            buf[n++] = '\\';
            buf[n++] = (char)c;
        } else if (c < 0x20) {
            n += (size_t)snprintf(buf + n, cap - n, "\\u%04x", c);
        } else {
            buf[n++] = (char)c;
        }
    }
    buf[n] = 0;
    return n;
}

/* Copy s to buf with every control byte (and DEL) written as \xNN and a
   backslash as \\, so that text read from a client (a path, an id) can
   never start a new line or rewrite the terminal: one call, one line. */
static size_t text_escape(char *buf, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 5 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", c);
        } else if (c == '\\') {
            buf[n++] = '\\';
            buf[n++] = '\\';
        } else {
            buf[n++] = (char)c;
        }
    }
    buf[n] = 0;
    return n;
}

void cz_log(cz_log_level level, const char *src, const char *fmt, ...)
{
    if (level < g_level || (unsigned)level > CZ_LOG_ERROR)
        return;
    char msg[2048], line[4608], ts[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    size_t k = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + k, sizeof ts - k, ".%03dZ", (int)(tv.tv_usec / 1000));
    int n;
    if (g_json) {
        char esc[4200];
        json_escape(esc, sizeof esc, msg);
        n = snprintf(line, sizeof line, "{\"ts\":\"%s\",\"level\":\"%s\",\"src\":\"%s\",\"msg\":\"%s\"}\n",
                     ts, names[level], src, esc);
    } else {
        char esc[4200];
        text_escape(esc, sizeof esc, msg);
        n = snprintf(line, sizeof line, "%s %s %s: %s\n", ts, names[level], src, esc);
    }
    if (n > (int)sizeof line - 1) { /* cut: still one line */
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    if (n > 0 && write(STDERR_FILENO, line, (size_t)n) < 0) {
        /* nothing sensible to do when stderr is gone */
    }
}
