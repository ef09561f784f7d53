/*
 * idle.c: cuzk-bench idle: hold many half-open connections to cuzkd.
 *
 * DESIGN. The hostile client a daemon must outlive: it opens N connections,
 * sends each the first line of a request and one header but never the
 * blank line that ends the headers, and then sends nothing. cuzkd must
 * bound how many such connections it keeps (max_connections, and per peer
 * address on TCP) and close them after connection_timeout_s, so that new
 * clients are served again. This command measures that from the client's
 * side: how many connections were closed at once (refused at the limit),
 * how many the daemon kept, and when it closed those (its timeout). It
 * holds at most --seconds, then closes what is left; it never retries, so
 * the count of connections it makes is N. Loopback and unix sockets are
 * what it is for; it is a test tool, not a load generator.
 */
#include "idle.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A connected socket to addr (unix:/path or HOST:PORT), or -1. */
static int dial(const char *addr, char *err, size_t err_len)
{
    if (!strncmp(addr, "unix:", 5)) {
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof sa);
        sa.sun_family = AF_UNIX;
        if (!addr[5] || strlen(addr + 5) >= sizeof sa.sun_path) {
            snprintf(err, err_len, "%s: socket path empty or too long", addr);
            return -1;
        }
        strcpy(sa.sun_path, addr + 5);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            snprintf(err, err_len, "%s: %s", addr, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return fd;
    }
    char host[256];
    snprintf(host, sizeof host, "%s", addr);
    char *port = strrchr(host, ':');
    if (!port) {
        snprintf(err, err_len, "%s: expected unix:/path or HOST:PORT", addr);
        return -1;
    }
    *port++ = 0;
    char *h = host;
    if (*h == '[') {
        h++;
        char *rb = strchr(h, ']');
        if (rb)
            *rb = 0;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int rc = getaddrinfo(*h ? h : "127.0.0.1", port, &hints, &res);
    if (rc) {
        snprintf(err, err_len, "%s: %s", addr, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            snprintf(err, err_len, "%s: %s", addr, strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

int cz_bench_idle(const char *addr, int n, double seconds)
{
    if (n < 1 || n > 100000 || seconds <= 0 || seconds > 3600) {
        fprintf(stderr, "cuzk-bench: idle needs -n 1..100000 and --seconds in (0, 3600]\n");
        return 2;
    }
    /* each connection is a descriptor: raise the soft limit to the hard one */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    struct pollfd *p = calloc((size_t)n, sizeof *p);
    if (!p) {
        fprintf(stderr, "cuzk-bench: out of memory\n");
        return 2;
    }
    static const char partial[] = "GET /v1/health HTTP/1.1\r\nHost: localhost\r\n";
    char err[512] = "";
    int opened = 0, failed = 0, open_now = 0;
    double t0 = now_s();
    for (int i = 0; i < n; i++) {
        p[i].fd = dial(addr, err, sizeof err);
        p[i].events = POLLIN;
        if (p[i].fd < 0) {
            failed++;
            continue;
        }
        opened++;
        open_now++;
        if (send(p[i].fd, partial, sizeof partial - 1, MSG_NOSIGNAL) < 0) {
            /* closed already: poll sees it */
        }
    }
    double t_open = now_s() - t0;
    int at_once = 0, later = 0;
    double first_close = -1, last_close = -1;
    while (open_now > 0 && now_s() - t0 < seconds) {
        int r = poll(p, (nfds_t)n, 100);
        if (r < 0 && errno != EINTR)
            break;
        for (int i = 0; r > 0 && i < n; i++) {
            if (p[i].fd < 0 || !p[i].revents)
                continue;
            char buf[512];
            ssize_t k = recv(p[i].fd, buf, sizeof buf, MSG_DONTWAIT);
            if (k > 0)
                continue; /* an answer (e.g. 408): the close follows */
            if (k < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            double t = now_s() - t0;
            close(p[i].fd);
            p[i].fd = -1;
            open_now--;
            if (t <= t_open + 1.0) {
                at_once++;
            } else {
                later++;
                if (first_close < 0)
                    first_close = t;
                last_close = t;
            }
        }
    }
    double held = now_s() - t0;
    for (int i = 0; i < n; i++)
        if (p[i].fd >= 0)
            close(p[i].fd);
    printf("idle: %d connections asked, %d opened (%d failed to connect%s%s), %d closed by the "
           "daemon within 1 s of opening (over its limits), %d closed later (first %.1f s, last "
           "%.1f s), %d still open when it stopped after %.1f s\n",
           n, opened, failed, failed ? ": " : "", failed ? err : "", at_once, later, first_close,
           last_close, open_now, held);
    printf("{\"bench\":\"idle\",\"asked\":%d,\"opened\":%d,\"connect_failed\":%d,\"closed_at_once\":%d,"
           "\"closed_later\":%d,\"first_close_s\":%.3f,\"last_close_s\":%.3f,\"still_open\":%d,"
           "\"open_s\":%.3f,\"held_s\":%.3f}\n",
           n, opened, failed, at_once, later, first_close, last_close, open_now, t_open, held);
    fflush(stdout);
    free(p);
    return 0;
}
