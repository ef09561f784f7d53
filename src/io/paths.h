/*
 * paths.h: which files a client of the daemon may name.
 *
 * DESIGN. A policy is a list of folders, each resolved with realpath()
 * when it is added. A path a client names is resolved the same way (so
 * `..` and symbolic links are followed to where they really lead) and is
 * allowed when it lies inside one of the folders (at any depth); it is
 * then opened as a regular file only (cz_file_open: non-blocking, fstat,
 * no FIFO, device, directory or socket), without following a link in its
 * last component, and the path of what was actually opened
 * (/proc/self/fd) is checked again, so a link swapped in between the
 * check and the open cannot lead outside. A refusal says one and the same
 * thing whatever lies at the path outside the folders (a file, a
 * directory, a device, nothing at all), names only the path as the client
 * wrote it (never where it resolves), and gives no size and no content:
 * it reveals nothing beyond the folders. Inside them, errors are as
 * precise as anywhere ("is a FIFO (named pipe), not a regular file").
 * A NULL policy is the operator's own: any regular file.
 */
#ifndef CZ_IO_PATHS_H
#define CZ_IO_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

typedef struct {
    char **dirs; /* resolved, without a trailing slash ("/" stays "/") */
    size_t n;
} cz_path_policy;

/* An empty policy (allows nothing) that needs no freeing until added to. */
void cz_path_policy_init(cz_path_policy *p);
/* Add one folder; CZ_ERR_IO naming it when it cannot be resolved or is not
   a directory. Adding a folder twice is harmless. */
cz_status cz_path_policy_add(cz_path_policy *p, const char *dir, char *err, size_t err_len);
/* Add every folder of a ':'-separated list (empty items are skipped). */
cz_status cz_path_policy_add_list(cz_path_policy *p, const char *list, char *err, size_t err_len);
/* Add the folder that holds `file` (which must exist). */
cz_status cz_path_policy_add_dir_of(cz_path_policy *p, const char *file, char *err, size_t err_len);
void cz_path_policy_free(cz_path_policy *p);
/* `real` (an absolute, resolved path) lies inside one of the folders. */
bool cz_path_policy_allows(const cz_path_policy *p, const char *real);

/* Open `path` for reading under `pol` (NULL: any regular file), as the
   file of a `what` ("key", "witness"): *fd_out and *size_out as
   cz_file_open; real_out (may be NULL) gets the resolved path, for
   comparing two names of one file. A refusal is CZ_ERR_IO with the one
   message described above. */
cz_status cz_path_open(int *fd_out, uint64_t *size_out, char *real_out, size_t real_len,
                       const char *path, const cz_path_policy *pol, const char *what, char *err,
                       size_t err_len);
/* The same; *missing (may be NULL) is set when the open failed because
   nothing is at a path the policy allows (in an allowed folder, or any
   path with no policy): a caller may let such a file appear later. */
cz_status cz_path_open_ex(int *fd_out, uint64_t *size_out, char *real_out, size_t real_len,
                          bool *missing, const char *path, const cz_path_policy *pol,
                          const char *what, char *err, size_t err_len);

#endif
