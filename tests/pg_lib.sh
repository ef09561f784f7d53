# shellcheck shell=bash
# pg_lib.sh: a private PostgreSQL for the farm's tests, sourced, not run.
#
# cz_pg_start      initdb + pg_ctl start in a new temporary directory,
#                  listening on a unix socket there only (no TCP), as the
#                  `postgres` user when the test runs as root (PostgreSQL
#                  refuses root); exports CZ_PG_URL, CZ_PG_DIR, CZ_PG_BIN.
#                  Exits 77 (skipped) when the PostgreSQL binaries are
#                  missing (scripts/setup.sh installs them).
# cz_pg_stop       stop it and remove its directory (idempotent; also run
#                  at exit, whatever the exit, through the EXIT trap)
# cz_pg_restart    stop (fast: clients are cut off) and start again, same data
# cz_pg_down / cz_pg_up   the two halves of a restart, for a longer outage
# cz_psql SQL...   run SQL on it (psql -At), output on stdout
#
# Works with or without tests/lib.sh: its EXIT trap (removing $TMP) is
# kept, ours runs first.

cz_pg_find_bin() {
    local d
    if [ -n "${CZ_PG_BIN:-}" ] && [ -x "$CZ_PG_BIN/initdb" ]; then
        echo "$CZ_PG_BIN"; return 0
    fi
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    done
    if command -v pg_config >/dev/null 2>&1; then
        d=$(pg_config --bindir)
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    fi
    return 1
}

# as the database's owner: postgres when we are root, else ourselves
cz_pg_as() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

cz_pg_start() {
    CZ_PG_BIN=$(cz_pg_find_bin) || {
        echo "SKIP: the PostgreSQL server binaries (initdb, pg_ctl) are not installed (scripts/setup.sh installs postgresql)"
        exit 77
    }
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        echo "FAIL: running as root and there is no postgres user to run PostgreSQL as" >&2
        exit 1
    fi
    # not under $TMP: the postgres user must reach the socket's directory
    CZ_PG_DIR=$(mktemp -d /tmp/cuzk-pg.XXXXXX)
    chmod 755 "$CZ_PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$CZ_PG_DIR"
    _cz_pg_prev_trap=$(trap -p EXIT | sed -e "s/^trap -- '//" -e "s/' EXIT\$//")
    # shellcheck disable=SC2064
    trap "cz_pg_stop; $_cz_pg_prev_trap" EXIT
    trap 'exit 130' INT TERM
    if ! cz_pg_as "$CZ_PG_BIN/initdb" -D "$CZ_PG_DIR/data" -U postgres -A trust --no-sync \
        -E UTF8 --locale=C >"$CZ_PG_DIR/initdb.log" 2>&1; then
        echo "FAIL: initdb failed:" >&2
        sed 's/^/    /' "$CZ_PG_DIR/initdb.log" >&2
        exit 1
    fi
    # unix socket only; fsync off: a test database need not survive a power cut
    cat >>"$CZ_PG_DIR/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$CZ_PG_DIR'
unix_socket_permissions = 0777
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF
    cz_pg_up || exit 1
    export CZ_PG_DIR CZ_PG_BIN
    export CZ_PG_URL="postgresql:///postgres?host=$CZ_PG_DIR&user=postgres"
}

cz_pg_up() {
    if ! cz_pg_as "$CZ_PG_BIN/pg_ctl" -D "$CZ_PG_DIR/data" -l "$CZ_PG_DIR/server.log" -w -t 30 start \
        >/dev/null 2>&1; then
        echo "FAIL: PostgreSQL did not start:" >&2
        tail -20 "$CZ_PG_DIR/server.log" | sed 's/^/    /' >&2
        return 1
    fi
}

cz_pg_down() {
    cz_pg_as "$CZ_PG_BIN/pg_ctl" -D "$CZ_PG_DIR/data" -m fast -w -t 30 stop >/dev/null 2>&1
}

cz_pg_restart() {
    cz_pg_down && cz_pg_up
}

cz_pg_stop() {
    [ -n "${CZ_PG_DIR:-}" ] && [ -d "$CZ_PG_DIR" ] || return 0
    if [ -f "$CZ_PG_DIR/data/postmaster.pid" ]; then
        cz_pg_as "$CZ_PG_BIN/pg_ctl" -D "$CZ_PG_DIR/data" -m immediate -w -t 30 stop >/dev/null 2>&1
    fi
    rm -rf "$CZ_PG_DIR"
    CZ_PG_DIR=
}

cz_psql() {
    "$CZ_PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$CZ_PG_URL" -c "$*"
}
