/*
 * paths.c: the folders a client may name files in. See paths.h.
 */
#include "io/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/binfile.h"

void cz_path_policy_init(cz_path_policy *p)
{
    p->dirs = NULL;
    p->n = 0;
}

void cz_path_policy_free(cz_path_policy *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->dirs[i]);
    free(p->dirs);
    cz_path_policy_init(p);
}

static cz_status add_real(cz_path_policy *p, char *real, char *err, size_t err_len)
{
    size_t l = strlen(real);
    while (l > 1 && real[l - 1] == '/')
        real[--l] = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->dirs[i], real)) {
            free(real);
            return CZ_OK;
        }
    char **d = realloc(p->dirs, (p->n + 1) * sizeof *d);
    if (!d) {
        free(real);
        return cz_io_fail(CZ_ERR_NOMEM, err, err_len, "paths", "out of memory");
    }
    p->dirs = d;
    p->dirs[p->n++] = real;
    return CZ_OK;
}

cz_status cz_path_policy_add(cz_path_policy *p, const char *dir, char *err, size_t err_len)
{
    char *real = realpath(dir, NULL);
    if (!real)
        return cz_io_fail(CZ_ERR_IO, err, err_len, dir, "cannot resolve the folder: %s",
                          strerror(errno));
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(real);
        return cz_io_fail(CZ_ERR_IO, err, err_len, dir, "is not a folder");
    }
    return add_real(p, real, err, err_len);
}

cz_status cz_path_policy_add_list(cz_path_policy *p, const char *list, char *err, size_t err_len)
{
    if (!list)
        return CZ_OK;
    const char *s = list;
    while (*s) {
        const char *c = strchr(s, ':');
        size_t n = c ? (size_t)(c - s) : strlen(s);
        if (n >= PATH_MAX)
            return cz_io_fail(CZ_ERR_ARG, err, err_len, "paths", "a folder name is too long");
        if (n) {
            char dir[PATH_MAX];
            memcpy(dir, s, n);
            dir[n] = 0;
            cz_status st = cz_path_policy_add(p, dir, err, err_len);
            if (st)
                return st;
        }
        s += n;
        if (*s == ':')
            s++;
    }
    return CZ_OK;
}

cz_status cz_path_policy_add_dir_of(cz_path_policy *p, const char *file, char *err, size_t err_len)
{
    char *real = realpath(file, NULL);
    if (!real)
        return cz_io_fail(CZ_ERR_IO, err, err_len, file, "cannot resolve: %s", strerror(errno));
    char *slash = strrchr(real, '/');
    if (slash == real)
        slash[1] = 0; /* a file in "/" */
    else if (slash)
        *slash = 0;
    return add_real(p, real, err, err_len);
}

bool cz_path_policy_allows(const cz_path_policy *p, const char *real)
{
    if (!p || !real || real[0] != '/')
        return false;
    for (size_t i = 0; i < p->n; i++) {
        const char *d = p->dirs[i];
        size_t l = strlen(d);
        if (l == 1 && d[0] == '/')
            return true;
        if (!strncmp(real, d, l) && (real[l] == '/' || real[l] == 0))
            return true;
    }
    return false;
}

static cz_status refuse(const char *path, const cz_path_policy *pol, const char *what, char *err,
                        size_t err_len)
{
    if (!pol->n)
        return cz_io_fail(CZ_ERR_IO, err, err_len, path,
                          "refused: this client may not name %s files ([paths] in the daemon's "
                          "configuration)", what);
    return cz_io_fail(CZ_ERR_IO, err, err_len, path,
                      "refused: not a readable file in the folders allowed for %s files ([paths] "
                      "in the daemon's configuration)", what);
}

cz_status cz_path_open(int *fd_out, uint64_t *size_out, char *real_out, size_t real_len,
                       const char *path, const cz_path_policy *pol, const char *what, char *err,
                       size_t err_len)
{
    return cz_path_open_ex(fd_out, size_out, real_out, real_len, NULL, path, pol, what, err,
                           err_len);
}

cz_status cz_path_open_ex(int *fd_out, uint64_t *size_out, char *real_out, size_t real_len,
                          bool *missing, const char *path, const cz_path_policy *pol,
                          const char *what, char *err, size_t err_len)
{
    bool dummy;
    if (!missing)
        missing = &dummy;
    *missing = false;
    *fd_out = -1;
    *size_out = 0;
    if (real_out && real_len)
        real_out[0] = 0;
    if (!path || !*path)
        return cz_io_fail(CZ_ERR_ARG, err, err_len, "(no path)", "an empty path");
    if (!pol) { /* the operator's own path */
        struct stat ls;
        *missing = lstat(path, &ls) != 0 && errno == ENOENT;
        cz_status st = cz_file_open(fd_out, size_out, path, err, err_len);
        if (!st && real_out && real_len) {
            char *r = realpath(path, NULL);
            snprintf(real_out, real_len, "%s", r ? r : path);
            free(r);
        }
        return st;
    }
    if (!pol->n)
        return refuse(path, pol, what, err, err_len);
    char *real = realpath(path, NULL);
    if (!real) {
        /* Say why only when the folder it names is an allowed one: outside,
           a missing file must look like any other refusal. */
        int e = errno;
        char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
        char *rdir = NULL;
        if (slash) {
            if (slash == dir)
                slash[1] = 0;
            else
                *slash = 0;
            rdir = realpath(dir, NULL);
        } else if (dir) {
            rdir = realpath(".", NULL);
        }
        /* a dangling link in the folder tells nothing of where it points */
        struct stat ls;
        bool link = lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);
        bool inside = rdir && cz_path_policy_allows(pol, rdir) && !link;
        free(rdir);
        free(dir);
        if (inside) {
            *missing = e == ENOENT;
            return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot open: %s", strerror(e));
        }
        return refuse(path, pol, what, err, err_len);
    }
    if (!cz_path_policy_allows(pol, real)) {
        free(real);
        return refuse(path, pol, what, err, err_len);
    }
    /* Inside: open what realpath found, never through a link it did not
       see (O_NOFOLLOW), as a regular file only. */
    int fd = open(real, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        int e = errno;
        free(real);
        if (e == ELOOP)
            return refuse(path, pol, what, err, err_len);
        return cz_io_fail(CZ_ERR_IO, err, err_len, path, "cannot open: %s", strerror(e));
    }
    /* What was opened, by the kernel's account: a folder renamed or a link
       swapped since realpath cannot have led elsewhere. */
    cz_status st;
    char proc[64], now[PATH_MAX];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(proc, now, sizeof now - 1);
    if (n > 0) {
        now[n] = 0;
        if (!cz_path_policy_allows(pol, now)) {
            close(fd);
            free(real);
            return refuse(path, pol, what, err, err_len);
        }
    }
    st = cz_file_check_fd(fd, size_out, path, err, err_len);
    if (st) {
        close(fd);
        free(real);
        return st;
    }
    *fd_out = fd;
    if (real_out && real_len)
        snprintf(real_out, real_len, "%s", real);
    free(real);
    return CZ_OK;
}
