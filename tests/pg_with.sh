#!/usr/bin/env bash
# pg_with.sh: run a command next to a private PostgreSQL (tests/pg_lib.sh).
#   pg_with.sh CMD ARGS...   start one, run CMD with CZ_PG_URL (and
#                            CZ_PG_DIR, CZ_PG_BIN) set, stop it, exit with
#                            CMD's status (77: no PostgreSQL binaries)
#   pg_with.sh --restart | --down | --up
#                            act on the instance named by CZ_PG_DIR (for a
#                            test that restarts the server under its clients)
set -u
# shellcheck source=tests/pg_lib.sh
. "$(dirname "$0")/pg_lib.sh"
case "${1:-}" in
    --restart) cz_pg_restart; exit $? ;;
    --down) cz_pg_down; exit $? ;;
    --up) cz_pg_up; exit $? ;;
    "") echo "usage: pg_with.sh CMD ARGS... | --restart | --down | --up" >&2; exit 2 ;;
esac
cz_pg_start
"$@"
rc=$?
exit $rc
