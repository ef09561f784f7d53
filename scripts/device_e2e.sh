#!/usr/bin/env bash
# device_e2e.sh: end-to-end figures on a GPU machine, in one call: build
# everything with CUDA, make keys with cuzk-synth + cuzk setup, time
# `cuzk prove` on the GPU (and the CPU for reference), then drive cuzkd
# with cuzk-bench at several concurrencies and GPU worker counts and read
# the GPU busy fraction from the timeline. Every proof is verified.
#
#   scripts/device_e2e.sh [LOG2_SIZES...]      default: 16 20
#
# Logs, JSON lines and the -j 4 timelines go under $OUT (at most 7 files,
# since the device tool brings back 8).
# Dependencies: .debs/ unpacked into a private prefix (scripts/device_deps.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/cuzk-e2e-out}
BUILD=${BUILD:-/tmp/cuzk-build}
PFX=${PFX:-/tmp/cuzk-deps}
DEV=${DEV:-cuda}            # DEV=cpu SKIP_BUILD=1 BUILD=build: a dry run without a GPU
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(16 20)
mkdir -p "$OUT"
exec > >(tee -a "$OUT/e2e.log") 2>&1
echo "== device_e2e $(date -u +%FT%TZ) commit ${CZ_COMMIT:-unknown} sizes ${SIZES[*]}"

. "$ROOT/scripts/device_deps.sh"
cz_device_build_deps "$PFX"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
t0=$(date +%s)
[ -n "${SKIP_BUILD:-}" ] || {
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON >"$OUT/configure.log" 2>&1 ||
    { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target cuzk-cli cuzk-synth >"$OUT/build.log" 2>&1 ||
    { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target cuzkd cuzk-bench >>"$OUT/build.log" 2>&1 ||
    { grep -E "error" "$OUT/build.log" | head -10; echo "daemon not built: its figures are skipped"; }
}
echo "build: $(($(date +%s) - t0)) s"
BIN=$BUILD/bin
W=/tmp/cuzk-e2e
mkdir -p "$W"

for lg in "${SIZES[@]}"; do
    n=$(((1 << lg) - 8)) # leave room for the public inputs in the 2^lg domain
    t0=$(date +%s)
    "$BIN/cuzk-synth" --constraints "$n" "$W/c$lg.r1cs" "$W/c$lg.wtns" >/dev/null &&
        "$BIN/cuzk" setup --quiet --seed 1 "$W/c$lg.r1cs" "$W/c$lg.zkey" "$W/c$lg.vk.json" ||
        { echo "setup 2^$lg failed"; continue; }
    echo "key 2^$lg: $(($(date +%s) - t0)) s, $(du -h "$W/c$lg.zkey" | cut -f1)"
    for dev in $DEV cpu; do
        [ "$dev" = cpu ] && [ "$lg" -gt 20 ] && continue
        for rep in 1 2; do
            "$BIN/cuzk" prove --json --device "$dev" "$W/c$lg.zkey" "$W/c$lg.wtns" "$W/p.json" "$W/u.json" \
                >"$W/prove.json" 2>"$W/prove.err" || { echo "prove 2^$lg $dev failed:"; tail -5 "$W/prove.err"; }
            echo "prove 2^$lg $dev run $rep: $(tr -d '\n' <"$W/prove.json")"
        done
        "$BIN/cuzk" verify --quiet "$W/c$lg.vk.json" "$W/u.json" "$W/p.json" >/dev/null &&
            echo "verify 2^$lg $dev: OK" || echo "verify 2^$lg $dev: FAILED"
    done
done

# The daemon on the largest key: -j 1, 2, 4, 8 with 1 and 2 GPU workers.
lg=${SIZES[-1]}
[ -f "$W/c$lg.zkey" ] && [ -x "$BIN/cuzk-bench" ] || exit 1
for workers in 1 2; do
    SOCK=$W/d.sock
    "$BIN/cuzkd" --listen "unix:$SOCK" --key "k=$W/c$lg.zkey" --device "$DEV" \
        --set engine.gpu_workers_per_device=$workers --set engine.witness_workers=4 \
        --log-level warn >"$OUT/cuzkd-w$workers.log" 2>&1 &
    DPID=$!
    for _ in $(seq 1 600); do "$BIN/cuzk-bench" --addr "unix:$SOCK" status >/dev/null 2>&1 && break; sleep 0.1; done
    for j in 1 2 4 8; do
        since=$("$BIN/cuzk-bench" --addr "unix:$SOCK" status | sed -n 's/.*"uptime_s": *\([0-9.]*\).*/\1/p')
        since=$(echo "${since:-0} * 1000" | awk '{ print $1 * $3 }')
        "$BIN/cuzk-bench" --addr "unix:$SOCK" batch -t groth16 --key k --witness "$W/c$lg.wtns" \
            -c $((4 * j > 8 ? 4 * j : 8)) -j $j --out "$W/o" >"$W/b.txt" 2>&1
        bad=0
        for f in "$W"/o/proof-*.json; do
            i=${f##*proof-}
            "$BIN/cuzk" verify --quiet "$W/c$lg.vk.json" "$W/o/public-$i" "$f" >/dev/null || bad=$((bad + 1))
        done
        rm -rf "$W/o"
        echo "daemon 2^$lg workers=$workers -j $j: $(tail -1 "$W/b.txt") unverified=$bad"
        "$BIN/cuzk-bench" --addr "unix:$SOCK" timeline --since-ms "${since:-0}" \
            --svg "$([ $j = 4 ] && echo "$OUT" || echo "$W")/timeline-w$workers-j$j.svg" | tail -1
    done
    kill -TERM $DPID
    wait $DPID
done
echo "== device_e2e done"
