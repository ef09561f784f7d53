#!/usr/bin/env bash
# setup.sh: install everything cuzk needs to build and test, idempotently.
#   scripts/setup.sh           install what is missing (needs root for apt)
#   scripts/setup.sh --check   exit 0 if nothing is missing, 1 otherwise
# Debian packages for the build; npm packages (snarkjs, circom2,
# @noble/curves) for the test oracles only, pinned in tools/oracle.
# postgresql + libpq-dev: the farm (cuzkd --db, src/farm) and its tests,
# which start a private server of their own (tests/pg_lib.sh).
# libxxhash-dev: XXH3 checksums of the compact key file (src/io/nkey.c).
set -euo pipefail
cd "$(dirname "$0")/.."

DEBS=(build-essential cmake pkg-config libcmocka-dev libjansson-dev
      libmicrohttpd-dev libinih-dev libcurl4-openssl-dev nodejs npm curl jq bc
      postgresql libpq-dev libxxhash-dev)

missing_debs() {
    local m=()
    for p in "${DEBS[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || m+=("$p")
    done
    # nodejs/npm may come from elsewhere than Debian: accept working binaries
    local out=()
    for p in "${m[@]}"; do
        case "$p" in
            nodejs) command -v node >/dev/null || out+=("$p") ;;
            npm) command -v npm >/dev/null || out+=("$p") ;;
            *) out+=("$p") ;;
        esac
    done
    echo "${out[@]:-}"
}

oracle_ok() {
    [ -f tools/oracle/node_modules/.package-lock.json ] &&
    [ tools/oracle/node_modules/.package-lock.json -nt tools/oracle/package-lock.json ] &&
    [ -d tools/oracle/node_modules/snarkjs ]
}

if [ "${1:-}" = "--check" ]; then
    [ -z "$(missing_debs)" ] && oracle_ok && exit 0
    exit 1
fi

m=$(missing_debs)
if [ -n "$m" ]; then
    echo "setup: installing Debian packages: $m"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $m
fi

if ! oracle_ok; then
    echo "setup: installing the npm test oracles (tools/oracle)"
    (cd tools/oracle && npm ci --no-audit --no-fund --loglevel=error)
    touch tools/oracle/node_modules/.package-lock.json
fi
echo "setup: ok"
