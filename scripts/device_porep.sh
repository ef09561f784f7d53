#!/usr/bin/env bash
# device_porep.sh: the flagship on one GPU machine, in one call: build, check
# the native-key kernels, make a porep key in memory on the GPU, prove and
# verify partitions in one process (bench-native), then the same through
# cuzkd (a preset key, gen-c1, cuzk-bench batch -t porep, every proof
# verified with cuzk verify, the timeline SVG), then a batch under a 16 GiB
# GPU memory limit. Logs and figures go under $OUT (porep.log, the timeline
# SVGs, and the other logs in logs.tgz).
#
#   scripts/device_porep.sh [PHASE...]
#
# Phases (default: all but daemon16g): build, test, small (porep-8m through
# bench-native; SMALL_AB="VAR=a VAR=b" runs it once per setting), native (PRESET, default porep-32g, PARTS partitions),
# daemon (cuzkd: -c COPIES -j JOBS), daemon16g (engine.gpu_memory_limit=16G,
# 2 workers, -c COPIES16 -j 3). Meant for a bare machine with CUDA, cmake and
# gcc: the build's pkg-config modules come from .debs/ (device_deps.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/cuzk-porep-out}
BUILD=${BUILD:-/tmp/cuzk-build}
PFX=${PFX:-/tmp/cuzk-deps}
PRESET=${PRESET:-porep-32g}
PARTS=${PARTS:-10}
COPIES=${COPIES:-3}
JOBS=${JOBS:-3}
COPIES16=${COPIES16:-1}
PHASES=("$@")
[ ${#PHASES[@]} -gt 0 ] || PHASES=(build test small native daemon)
mkdir -p "$OUT"
exec > >(tee -a "$OUT/porep.log") 2>&1
has() { local p; for p in "${PHASES[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
stamp() { echo "== $* $(date -u +%T) (+$(($(date +%s) - T0)) s)"; }
T0=$(date +%s)
echo "== device_porep $(date -u +%FT%TZ) commit ${CZ_COMMIT:-unknown} phases ${PHASES[*]} preset $PRESET"
export CZ_COMMIT=${CZ_COMMIT:-unknown}

. "$ROOT/scripts/device_deps.sh"
cz_device_build_deps "$PFX"
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv,noheader
free -g | head -2
BIN=$BUILD/bin
rc=0

if has build; then
    stamp build
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON >"$OUT/configure.log" 2>&1 ||
        { tail -30 "$OUT/configure.log"; exit 1; }
    targets="cuzk-cli cuzkd cuzk-bench bench-native"
    [ -f "$ROOT/tests/test_gpu_native.c" ] && targets="$targets test_gpu_native"
    cmake --build "$BUILD" -j "$(nproc)" --target $targets >"$OUT/build.log" 2>&1 ||
        { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
    stamp built
fi

if has test && [ -f "$ROOT/tests/test_gpu_native.c" ]; then
    stamp test
    (cd "$BUILD" && timeout 240 ctest -R 'test_gpu_native' --output-on-failure -V) >"$OUT/test.log" 2>&1 || rc=1
    grep -E "tests passed|\[  FAILED|\[  PASSED|SKIPPED|differs|failed" "$OUT/test.log" | head -30
fi

if has small; then
    # SMALL_AB="VAR=a VAR=b": once per setting (an A/B of a knob), else once
    for ab in ${SMALL_AB:-none}; do
        stamp "small $ab"
        env ${ab/none/CUZK_NONE=} timeout 300 "$BIN/bench-native" --preset porep-8m --device cuda --partitions 3 \
            >"$OUT/native-8m-$ab.jsonl.txt" 2>"$OUT/native-8m-$ab.err" || { rc=1; tail -20 "$OUT/native-8m-$ab.err"; }
        grep -v '^{' "$OUT/native-8m-$ab.jsonl.txt"
    done
fi

if has native; then
    stamp "native $PRESET"
    /usr/bin/time -v timeout 420 "$BIN/bench-native" --preset "$PRESET" --device cuda --partitions "$PARTS" \
        >"$OUT/native.jsonl.txt" 2>"$OUT/native.err" || { rc=1; tail -30 "$OUT/native.err"; }
    grep -v '^{' "$OUT/native.jsonl.txt"
    grep -E "Maximum resident|Elapsed" "$OUT/native.err"
    grep -E "native|setup|cuda" "$OUT/native.err" | grep -v "^\s" | tail -20
fi

# one daemon run: cuzkd with the preset key made in memory, gen-c1, a batch
daemon_batch() { # NAME COPIES JOBS EXTRA-SET...
    local name=$1 copies=$2 jobs=$3
    shift 3
    local W=/tmp/cuzk-porep-$name SOCK
    rm -rf "$W"
    mkdir -p "$W"
    SOCK=$W/d.sock
    "$BIN/cuzkd" --listen "unix:$SOCK" --device cuda --set engine.witness_workers=2 "$@" \
        --log-level info >"$OUT/cuzkd-$name.log" 2>&1 &
    local dpid=$!
    # host memory over the run: the daemon's RSS and the machine's used
    # memory, sampled each second (peaks printed at the end)
    (while kill -0 $dpid 2>/dev/null; do
        echo "$(date +%s) $(awk '/^VmRSS/ {print $2}' /proc/$dpid/status 2>/dev/null || echo 0)" \
            "$(awk '/^MemTotal/ {t=$2} /^MemAvailable/ {a=$2} END {print t - a}' /proc/meminfo)"
        sleep 1
    done) >"$OUT/mem-$name.txt" 2>/dev/null &
    local mpid=$!
    for _ in $(seq 1 300); do "$BIN/cuzk-bench" --addr "unix:$SOCK" status >/dev/null 2>&1 && break; sleep 0.2; done
    local B=("$BIN/cuzk-bench" --addr "unix:$SOCK")
    stamp "$name: preload $PRESET"
    "${B[@]}" preload --key "$PRESET" --seed 1 >"$W/preload.txt" 2>&1 || { rc=1; tail -5 "$W/preload.txt"; }
    tail -3 "$W/preload.txt"
    [ -f "$W/c1.json" ] || "${B[@]}" gen-c1 --preset "$PRESET" --seed 7 --out "$W/c1.json" >"$W/genc1.txt" 2>&1 ||
        { rc=1; tail -5 "$W/genc1.txt"; }
    stamp "$name: batch -c $copies -j $jobs"
    "${B[@]}" batch -t porep --c1 "$W/c1.json" --upload -c "$copies" -j "$jobs" --out "$W/o" >"$OUT/batch-$name.txt" 2>&1 ||
        rc=1
    cat "$OUT/batch-$name.txt" | tail -$((copies + 12))
    local bad=0 good=0 vk
    vk=$(ls "$W"/o/vk*.json 2>/dev/null | head -1)
    for f in "$W"/o/*proof*.json; do
        [ -f "$f" ] || continue
        local pub=${f/proof/public}
        if "$BIN/cuzk" verify --quiet "$vk" "$pub" "$f" >/dev/null 2>&1; then good=$((good + 1)); else bad=$((bad + 1)); fi
    done
    echo "$name: proofs verified by cuzk verify: $good ok, $bad failed (vk $vk)"
    [ $bad -eq 0 ] && [ $good -gt 0 ] || rc=1
    "${B[@]}" status >"$OUT/status-$name.json" 2>&1
    # the witness queue's cap (most witnesses seen waiting) and the key's upload at preload
    "${B[@]}" metrics 2>/dev/null | grep -E "^cuzk_witness_(waiting_max|queue_cap|cap_waits_total) " |
        tr '\n' ' ' | sed "s/^/$name: /"
    echo
    grep -E "resident on device|stays on the host for device|upload to device" "$OUT/cuzkd-$name.log" |
        sed "s/^/$name: /"
    "${B[@]}" timeline --svg "$OUT/timeline-$name.svg" | tail -2
    grep -E "^Vm(HWM|RSS)" /proc/$dpid/status | tr '\n' ' ' | sed "s/^/$name: cuzkd /"
    echo
    kill -TERM $dpid
    wait $mpid 2>/dev/null
    awk -v n="$name" '{ if ($2 > r) r = $2; if ($3 > u) u = $3 }
        END { printf "%s: peak cuzkd RSS %.1f GiB, peak host memory in use %.1f GiB (%d samples)\n",
              n, r / 1048576, u / 1048576, NR }' "$OUT/mem-$name.txt"
    # the witness stage (buffer, synthesis, packing) and each partition's
    # device time by step, from cuzkd's log: min / median / max
    local f
    for f in buffer synthesis packed; do
        grep -oE "witness buffer [0-9.]+ ms, synthesis [0-9.]+ ms(, packed [0-9.]+)?" "$OUT/cuzkd-$name.log" |
            awk -v f=$f '{ print (f == "buffer") ? $3 : (f == "synthesis") ? $6 : $9 }' | grep . | sort -n |
            awk -v n="$name" -v f=$f '{ v[NR] = $1 } END { if (NR) printf "%s: witness %s, ms: min %s median %s max %s (%d partitions)\n", n, f, v[1], v[int((NR + 1) / 2)], v[NR], NR }'
    done
    grep -oE "prove [0-9.]+ ms on device .*assembly [0-9.]+" "$OUT/cuzkd-$name.log" | tr -d '(),:' |
        awk '{ print $2, $9, $12, $14, $16, $18, $20, $22, $24, $26 }' >"$OUT/steps-$name.txt"
    local k=1
    for f in prove a/b/c H-step MSMs A B1 B2 C H assembly; do
        awk -v k=$k '{ print $k }' "$OUT/steps-$name.txt" | sort -n |
            awk -v n="$name" -v f=$f '{ v[NR] = $1 } END { if (NR) printf "%s: partition %s, ms: min %s median %s max %s (%d)\n", n, f, v[1], v[int((NR + 1) / 2)], v[NR], NR }'
        k=$((k + 1))
    done
    awk '{ o = $1 - $2 - $3 - $4 - $10; s += o; if (o > m) m = o } END { if (NR) printf "prove less its steps (host work and gaps under the device lock), ms: mean %.1f max %.1f\n", s / NR, m }' \
        "$OUT/steps-$name.txt" | sed "s/^/$name: /"
    grep -c "wipe_handovers" "$OUT/status-$name.json" >/dev/null 2>&1 &&
        grep -oE '"wipe_handovers": *[0-9]+' "$OUT/status-$name.json" | sed "s/^/$name: /"
    wait $dpid
    grep -E "error|fail|OOM|out of memory" "$OUT/cuzkd-$name.log" | head -10
}

if has daemon; then
    stamp daemon
    daemon_batch j3 "$COPIES" "$JOBS" --set engine.gpu_workers_per_device=2
fi
if has daemon16g; then
    stamp daemon16g
    daemon_batch limit16g "$COPIES16" 3 --set engine.gpu_workers_per_device=2 --set engine.gpu_memory_limit=16G
fi
stamp "device_porep done rc=$rc"
# few files come back from a device call: the logs travel as one archive
# (the archive is written beside $OUT, not in it: tar refuses a folder
# that changes while it reads it)
(cd "$OUT" && tar czf "$OUT.logs.tgz" --exclude=porep.log --exclude='*.svg' . &&
    mv "$OUT.logs.tgz" logs.tgz &&
    find . -maxdepth 1 -type f ! -name porep.log ! -name logs.tgz ! -name '*.svg' -delete)
exit $rc
