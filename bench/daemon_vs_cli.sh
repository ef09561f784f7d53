#!/usr/bin/env bash
# daemon_vs_cli.sh: throughput of cuzkd (cuzk-bench batch) against running
# `cuzk prove` once per proof, on the same key and witness, in one run.
#
#   bench/daemon_vs_cli.sh [BUILD_DIR] [COUNT] [CONSTRAINTS...]
#   defaults: build, 10 proofs, 4090 and 65530 constraints (domains 2^12, 2^16)
#
# Keys come from cuzk-synth + cuzk setup. The CLI pays for loading the key
# and starting its threads on every proof; the daemon keeps the key resident
# and overlaps witness reading, proving and the self-check of different
# jobs. Prints a table and one JSON line per size.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
COUNT=${2:-10}
shift 2 2>/dev/null || shift $#
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(4090 65530)
BIN=$BUILD/bin
TMP=$(mktemp -d /tmp/cuzk-dvc.XXXXXX)
DPID=
trap '[ -n "$DPID" ] && kill "$DPID" 2>/dev/null; rm -rf "$TMP"' EXIT
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
now() { date +%s.%N; }

printf '%-12s %6s %14s %16s %10s %8s\n' constraints count "cli s/proof" "daemon s/proof" speedup jobs
rows=()
for n in "${SIZES[@]}"; do
    "$BIN/cuzk-synth" --constraints "$n" "$TMP/c$n.r1cs" "$TMP/c$n.wtns" >/dev/null
    "$BIN/cuzk" setup --quiet --seed 1 "$TMP/c$n.r1cs" "$TMP/c$n.zkey" "$TMP/c$n.vk.json" 2>/dev/null
    t0=$(now)
    for ((i = 0; i < COUNT; i++)); do
        "$BIN/cuzk" prove --quiet "$TMP/c$n.zkey" "$TMP/c$n.wtns" "$TMP/p.json" "$TMP/u.json"
    done
    cli=$(echo "($(now) - $t0) / $COUNT" | bc -l)
    "$BIN/cuzk" verify --quiet "$TMP/c$n.vk.json" "$TMP/u.json" "$TMP/p.json" >/dev/null

    SOCK=$TMP/d.sock
    "$BIN/cuzkd" --listen "unix:$SOCK" --key "k=$TMP/c$n.zkey" --log-level warn &
    DPID=$!
    for _ in $(seq 1 400); do
        curl -s --unix-socket "$SOCK" http://x/v1/health >/dev/null 2>&1 && break
        sleep 0.05
    done
    out=$("$BIN/cuzk-bench" --addr "unix:$SOCK" batch -t groth16 --key k --witness "$TMP/c$n.wtns" \
        -c "$COUNT" -j 2 --out "$TMP/o$n")
    kill -TERM "$DPID"
    wait "$DPID" || true
    DPID=
    for ((i = 1; i <= COUNT; i++)); do
        "$BIN/cuzk" verify --quiet "$TMP/c$n.vk.json" "$TMP/o$n/public-$i.json" "$TMP/o$n/proof-$i.json" >/dev/null
    done
    dsp=$(printf '%s\n' "$out" | sed -n 's/.*"s_per_proof":\([0-9.]*\).*/\1/p')
    speed=$(echo "$cli / $dsp" | bc -l)
    printf '%-12s %6d %14.3f %16.3f %9.2fx %8s\n' "$n" "$COUNT" "$cli" "$dsp" "$speed" "-j 2"
    rows+=("{\"bench\":\"daemon_vs_cli\",\"constraints\":$n,\"count\":$COUNT,\"cli_s_per_proof\":$(printf '%.4f' "$cli"),\"daemon_s_per_proof\":$dsp,\"speedup\":$(printf '%.3f' "$speed"),\"concurrency\":2,\"machine\":\"$(nproc) cores\",\"commit\":\"$COMMIT\"}")
done
printf '%s\n' "${rows[@]}"
