/* version.h: the build's version, git commit and backends (version.c). */
#ifndef CZ_UTIL_VERSION_H
#define CZ_UTIL_VERSION_H

const char *cz_build_version(void);  /* "0.1.0" */
const char *cz_build_commit(void);   /* short hash, or "unknown" */
const char *cz_build_backends(void); /* "cpu" or "cpu, cuda" */

#endif
