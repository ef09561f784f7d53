/* farm_setup.h: cuzkd joins a farm when engine.database is set (see farm_setup.c). */
#ifndef CZ_DAEMON_FARM_SETUP_H
#define CZ_DAEMON_FARM_SETUP_H

#include <stddef.h>

#include "config.h"
#include "farm/farm.h"

/* *out: the farm this host joined, or NULL when no database is set. 0, or
   -1 with err (a URL with a password, an unreadable password file, a
   database that cannot be reached or migrated, a build without libpq). */
int cz_daemon_farm_start(cz_farm **out, const cz_daemon_config *c, cz_engine *e, char *err, size_t err_len);

#endif
