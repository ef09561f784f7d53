#!/usr/bin/env bash
# demo.sh BUILD_DIR: prove and verify the bundled example (`make demo`).
#
#   1. cli:    cuzk prove the snarkjs fixture key + witness (tests/fixtures),
#              cuzk verify the proof; snarkjs verifies it too where node and
#              the npm oracles are installed (an independent verifier).
#   2. setup:  cuzk setup a development key for a second circuit (chain64),
#              prove and verify with it.
#   3. daemon: (planned) start cuzkd, submit the same jobs through it, verify
#              what it returns, stop it. Skipped until apps/cuzkd exists.
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
trap 'rm -rf "$OUT"' EXIT

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
    echo "== 3. the proving daemon"
    if [ ! -x "$BIN/cuzkd" ]; then
        echo "   cuzkd is planned and not built yet: skipped"
        return 0
    fi
    # To be written with the daemon: start "$BIN/cuzkd" on a temporary
    # socket, submit demo_cli's and demo_setup's jobs, verify every proof
    # returned, print its per-job timings, stop it.
    echo "   cuzkd exists but this demo does not drive it yet: skipped"
}

T0=$(ms_now)
demo_cli
demo_setup
demo_daemon
printf '\ndemo: all steps passed in %d ms\n' $(( ($(ms_now) - T0) / 1000000 ))
