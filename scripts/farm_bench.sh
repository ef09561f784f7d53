#!/usr/bin/env bash
# farm_bench.sh: the farm's figures (docs/PERF.md, "The farm"), on a private
# PostgreSQL (tests/pg_lib.sh) and the CPU backend with the fixture key.
#
#   scripts/farm_bench.sh [BUILD] [COUNT]    (default: build, 120 proofs)
#
# For 1 host alone (no database), and 1 and 3 hosts of a farm: a batch of
# COUNT proofs with 12 in flight (throughput), then COUNT/4 one at a time
# (wall time per proof: the queue's overhead is the difference to the host
# alone); the claim-to-start latency (claim statement to the local engine's
# acceptance, median and p99 from /v1/status). Then the time from kill -9
# of a host holding leases to its partitions running elsewhere, with the
# default 15 s lease. Prints a table and one JSON line per configuration.
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
COUNT=${2:-120}
BIN=$BUILD/bin
KEY=$SRC/tests/fixtures/small.zkey
WTNS=$SRC/tests/fixtures/small.wtns
# shellcheck source=tests/pg_lib.sh
. "$SRC/tests/pg_lib.sh"
cz_pg_start
W=$(mktemp -d /tmp/cuzk-farm-bench.XXXXXX)
PIDS=()
stop_hosts() {
    local p
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
    PIDS=()
}
trap 'stop_hosts; cz_pg_stop; rm -rf "$W"' EXIT

start_host() { # NAME [cuzkd args]
    local name=$1
    shift
    "$BIN/cuzkd" --listen "unix:$W/$name.sock" --key small="$KEY" --set engine.prove_threads=1 "$@" \
        >"$W/$name.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 200); do
        curl -s --unix-socket "$W/$name.sock" http://x/v1/health >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    echo "farm_bench: host $name did not start" >&2
    cat "$W/$name.log" >&2
    exit 1
}

batch() { # SOCK COUNT CONC -> the bench's JSON line
    "$BIN/cuzk-bench" --addr "unix:$1" batch -t groth16 --key small --witness "$WTNS" -c "$2" -j "$3" |
        grep '^{'
}

row() { # LABEL HOSTS... (the first is asked)
    local label=$1 first=$2 tp seq lat
    tp=$(batch "$W/$first.sock" "$COUNT" 12)
    seq=$(batch "$W/$first.sock" $((COUNT / 4)) 1)
    lat=null
    if [ "$label" != alone ]; then
        lat=$(for h in "${@:2}"; do
            curl -s --unix-socket "$W/$h.sock" http://x/v1/status | jq -c '.farm.this_host.claim_to_start_ms'
        done | jq -s -c '{median: (map(.median) | add / length), p99: (map(.p99) | max), n: (map(.n) | add)}')
    fi
    printf '%-8s %10.1f %12.1f %14s\n' "$label" "$(jq .proofs_per_min <<<"$tp")" \
        "$(jq '.wall_avg_s * 1000' <<<"$seq")" "$(jq -r 'if . == null then "-" else "\(.median*1000|round/1000) / \(.p99*1000|round/1000)" end' <<<"$lat")"
    jq -c -n --arg cfg "$label" --argjson tp "$tp" --argjson seq "$seq" --argjson lat "$lat" \
        '{bench: "farm", config: $cfg, proofs_per_min: $tp.proofs_per_min, wall_ms_one_at_a_time: ($seq.wall_avg_s * 1000), claim_to_start_ms: $lat}' \
        >>"$W/json"
}

echo "farm_bench: $COUNT proofs of the fixture key, CPU backend, one prove thread a worker, $(nproc) cores"
printf '%-8s %10s %12s %14s\n' config proofs/min "ms/proof(1)" "claim ms p50/p99"
start_host alone
row alone alone
stop_hosts

URL=$CZ_PG_URL
start_host h1 --db "$URL" --set farm.host_id=h1
row 1-host h1
stop_hosts
cz_psql "SET client_min_messages = warning; TRUNCATE cz_jobs, cz_hosts CASCADE"
for h in h1 h2 h3; do start_host $h --db "$URL" --set farm.host_id=$h; done
row 3-hosts h1 h2 h3
stop_hosts
cat "$W/json"

# kill -9 with the default lease: a batch of slower proofs (8000
# constraints, a few hundred ms each) keeps every host busy
"$BIN/cuzk-synth" --constraints 8000 "$W/slow.r1cs" "$W/slow.wtns" >/dev/null
"$BIN/cuzk" setup --quiet --seed 3 "$W/slow.r1cs" "$W/slow.zkey" >/dev/null 2>&1
cz_psql "SET client_min_messages = warning; TRUNCATE cz_jobs, cz_hosts CASCADE"
for h in h1 h2 h3; do start_host $h --db "$URL" --set farm.host_id=$h --key slow="$W/slow.zkey"; done
for _ in $(seq 1 30); do
    curl -s --unix-socket "$W/h3.sock" http://x/v1/proofs -H 'Content-Type: application/json' \
        -d "{\"key\":\"slow\",\"witness_path\":\"$W/slow.wtns\"}" >/dev/null
done
for _ in $(seq 1 200); do
    [ "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE owner = 'h1' AND state = 'running'")" -gt 0 ] && break
    sleep 0.05
done
kill -9 "${PIDS[0]}"
wait "${PIDS[0]}" 2>/dev/null
PIDS=("${PIDS[@]:1}")
T_KILL=$(cz_psql "SELECT extract(epoch FROM now())")
cz_psql "SELECT job_id || ',' || idx FROM cz_partitions WHERE owner = 'h1' AND state = 'running'" >"$W/orphans"
for _ in $(seq 1 400); do
    [ "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE state IN ('queued', 'running')")" = 0 ] && break
    sleep 0.1
done
while IFS=, read -r j i; do
    cz_psql "SELECT round((extract(epoch FROM claimed_at) - $T_KILL)::numeric, 2), owner, state
             FROM cz_partitions WHERE job_id = $j AND idx = $i"
done <"$W/orphans" | sort -n >"$W/rerun"
echo "kill -9 of h1 holding $(wc -l <"$W/orphans") lease(s) (lease 15 s): re-claimed after (s | by | state):"
sed 's/^/  /' "$W/rerun"
