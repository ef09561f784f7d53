#!/usr/bin/env bash
# demo.sh BUILD_DIR: prove and verify the bundled example (`make demo`).
#
#   1. cli:    cuzk prove the snarkjs fixture key + witness (tests/fixtures),
#              cuzk verify the proof; snarkjs verifies it too where node and
#              the npm oracles are installed (an independent verifier).
#   2. setup:  cuzk setup a development key for a second circuit (chain64),
#              prove and verify with it.
#   3. daemon: start cuzkd (a small INI config) with the key resident,
#              submit 20 proofs with cuzk-bench (4 in flight), verify every
#              proof it returns, draw its timeline (BUILD_DIR/demo-timeline.svg),
#              stop cuzkd with SIGTERM. Skipped where they are not built.
# Each step prints what it runs and the time it took; cuzk's own stage
# timings ("cuzk: <stage> <ms> ms") are shown as it prints them.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BIN=$BUILD/bin
CUZK=$BIN/cuzk
FIX=$ROOT/tests/fixtures
SNARKJS_CLI=$ROOT/tools/oracle/node_modules/snarkjs/build/cli.cjs
OUT=$(mktemp -d /tmp/cuzk-demo.XXXXXX)
DPID=
trap '[ -n "$DPID" ] && kill "$DPID" 2>/dev/null; rm -rf "$OUT"' EXIT

[ -x "$CUZK" ] || { echo "demo: $CUZK not found: build first (make)" >&2; exit 1; }

ms_now() { date +%s%N; }
# run DESC CMD...: print, run, time; stop the demo on failure.
run() {
    local desc=$1 t0 rc
    shift
    printf '\n$ %s\n' "$*"
    t0=$(ms_now)
    "$@" && rc=0 || rc=$?
    printf '   -> %s: exit %d, %d ms\n' "$desc" "$rc" $(( ($(ms_now) - t0) / 1000000 ))
    [ "$rc" = 0 ] || { echo "demo: FAILED: $desc" >&2; exit 1; }
}

have_snarkjs() { command -v node >/dev/null && [ -f "$SNARKJS_CLI" ]; }

demo_cli() {
    echo "== 1. prove a snarkjs/circom circuit with the cuzk CLI"
    echo "   circuit: tests/circuits/small.circom (108 constraints, BLS12-381),"
    echo "   key and witness made by snarkjs (tests/fixtures/README.md)"
    run "cuzk info" "$CUZK" info "$FIX/small.zkey"
    run "cuzk prove" "$CUZK" prove "$FIX/small.zkey" "$FIX/small.wtns" "$OUT/proof.json" "$OUT/public.json"
    echo "   public signals: $(tr -d ' \n' <"$OUT/public.json")"
    run "cuzk verify" "$CUZK" verify "$FIX/small_vk.json" "$OUT/public.json" "$OUT/proof.json"
    if have_snarkjs; then
        run "snarkjs groth16 verify (independent check)" \
            node "$SNARKJS_CLI" groth16 verify "$FIX/small_vk.json" "$OUT/public.json" "$OUT/proof.json"
    else
        echo "   (snarkjs not installed: skipping the independent check; scripts/setup.sh installs it)"
    fi
}

demo_setup() {
    echo
    echo "== 2. a development key from cuzk setup (never for production)"
    run "cuzk setup" "$CUZK" setup --seed 1 "$FIX/chain64.r1cs" "$OUT/chain.zkey" "$OUT/chain_vk.json"
    run "cuzk prove" "$CUZK" prove "$OUT/chain.zkey" "$FIX/chain64.wtns" "$OUT/chain_proof.json" "$OUT/chain_public.json"
    run "cuzk verify" "$CUZK" verify "$OUT/chain_vk.json" "$OUT/chain_public.json" "$OUT/chain_proof.json"
}

demo_daemon() {
    echo
    echo "== 3. the proving daemon: cuzkd keeps the key resident, cuzk-bench submits jobs"
    if [ ! -x "$BIN/cuzkd" ] || [ ! -x "$BIN/cuzk-bench" ]; then
        echo "   cuzkd or cuzk-bench is not built (their libraries missing?): skipped"
        return 0
    fi
    local sock=$OUT/cuzkd.sock addr i f n=0 rc=0
    addr=unix:$sock
    # A minimal configuration (every setting: docs/cuzkd.example.ini).
    cat >"$OUT/cuzkd.ini" <<INI
[daemon]
listen = $addr
log_level = info

[keys]
small = $FIX/small.zkey
INI
    printf '\n$ cuzkd --config %s &\n' "$OUT/cuzkd.ini"
    sed 's/^/   | /' "$OUT/cuzkd.ini"
    "$BIN/cuzkd" --config "$OUT/cuzkd.ini" >"$OUT/cuzkd.log" 2>&1 &
    DPID=$!
    for ((i = 0; i < 100; i++)); do
        "$BIN/cuzk-bench" --addr "$addr" status >/dev/null 2>&1 && break
        kill -0 "$DPID" 2>/dev/null || { cat "$OUT/cuzkd.log" >&2; echo "demo: FAILED: cuzkd exited" >&2; exit 1; }
        sleep 0.1
    done
    run "cuzk-bench batch (20 proofs, 4 in flight)" "$BIN/cuzk-bench" --addr "$addr" batch -t groth16 \
        --key small --witness "$FIX/small.wtns" -c 20 -j 4 --out "$OUT/proofs"
    for f in "$OUT"/proofs/proof-*.json; do
        [ -e "$f" ] || break
        "$CUZK" verify --quiet "$FIX/small_vk.json" "${f/proof-/public-}" "$f" >/dev/null ||
            { echo "demo: FAILED: cuzk verify rejects $f" >&2; exit 1; }
        n=$((n + 1))
    done
    [ "$n" = 20 ] || { echo "demo: FAILED: cuzkd returned $n proofs, not 20" >&2; exit 1; }
    echo "   cuzk verify accepts all $n proofs returned by cuzkd"
    if have_snarkjs; then
        run "snarkjs groth16 verify of a daemon proof" \
            node "$SNARKJS_CLI" groth16 verify "$FIX/small_vk.json" "$OUT/proofs/public-1.json" "$OUT/proofs/proof-1.json"
    fi
    run "cuzk-bench timeline --svg" "$BIN/cuzk-bench" --addr "$addr" timeline --svg "$OUT/timeline.svg"
    cp "$OUT/timeline.svg" "$BUILD/demo-timeline.svg"
    echo "   timeline of the batch (one lane per worker): $BUILD/demo-timeline.svg"
    printf '\n$ kill -TERM %s   (cuzkd drains its queue and exits 0)\n' "$DPID"
    kill -TERM "$DPID"
    wait "$DPID" || rc=$?
    DPID=
    echo "   -> cuzkd exit $rc"
    [ "$rc" = 0 ] || { cat "$OUT/cuzkd.log" >&2; echo "demo: FAILED: cuzkd exit $rc" >&2; exit 1; }
    sed 's/^/   cuzkd: /' "$OUT/cuzkd.log"
}

T0=$(ms_now)
demo_cli
demo_setup
demo_daemon
printf '\ndemo: all steps passed in %d ms\n' $(( ($(ms_now) - T0) / 1000000 ))
