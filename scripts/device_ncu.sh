#!/usr/bin/env bash
# device_ncu.sh: Nsight Compute on the kernels that a porep-32g partition
# spends its time in (docs/PERF.md: the H MSM's accumulation, the H step's
# NTT passes, the G2 MSM's accumulation), one launch each, in one device
# call: pipe utilisation, warp stalls, occupancy, memory throughput. Needs
# a machine whose runtime lets ncu read the counters (device README:
# Firecracker); clocks left alone (--clock-control none); the arena capped
# (CUZK_GPU_ARENA_MB, 24 GiB) so that ncu can save what a kernel writes.
# Builds bench-gpu into BUILD. Reports under $OUT (ncu-*.txt).
#
#   scripts/device_ncu.sh            (LOG, the sizes' log2: 24; MORE=1 adds the
#                                    NTT's outer pass and G2's accumulation; AFF=1
#                                    the affine rounds, G2's and G1's (forced), and
#                                    G1's sum of the 1s; AFF=g1 G1's rounds alone;
#                                    AFF=g1bwd their backward pass alone;
#                                    PIPES=1 adds each pipe's share of the
#                                    cycles and of the instructions issued;
#                                    BASE=0 leaves out the three base kernels,
#                                    BASE=ntt keeps the NTT's middle pass alone;
#                                    NTT="v1 v2": the H step's middle pass under
#                                    each CUZK_NTT_VARIANT named)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/cuzk-ncu-out}
BUILD=${BUILD:-/tmp/cuzk-build}
PFX=${PFX:-/tmp/cuzk-deps}
LOG=${LOG:-24}
export CUZK_GPU_ARENA_MB=${CUZK_GPU_ARENA_MB:-24576} # room for ncu's replay buffers
mkdir -p "$OUT"
exec > >(tee -a "$OUT/ncu.log") 2>&1
. "$ROOT/scripts/device_deps.sh"
cz_device_build_deps "$PFX"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu on this machine"; exit 1; }
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON >"$OUT/configure.log" 2>&1 &&
    cmake --build "$BUILD" -j "$(nproc)" --target bench-gpu >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 1; }
B=$BUILD/bin/bench-gpu
S=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy
    --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats)
# which pipe a busy kernel is bound by: every pipe's active cycles and
# instructions, as a share of its peak
[ "${PIPES:-0}" = 1 ] && S+=(--section SchedulerStats --metrics
    'regex:^sm__(pipe_.*_cycles_active|inst_executed_pipe_.*)\.avg\.pct_of_peak_sustained_active$,sm__issue_active.avg.pct_of_peak_sustained_active')
prof() { # NAME KERNEL-REGEX BENCH-ARGS...
    local name=$1 k=$2
    shift 2
    echo "== $name ($k) $(date -u +%T)"
    # shellcheck disable=SC2086
    timeout 150 env ${PENV:-} "$NCU" --clock-control none --kernel-name "regex:$k" --launch-skip 0 --launch-count 1 \
        "${S[@]}" "$B" "$@" >"$OUT/ncu-$name.txt" 2>&1 || echo "$name: ncu failed (rc $?)"
    grep -E "Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Executed Ipc Active|Warp Cycles Per Issued|Local Memory Spilling|Block Limit Registers" \
        "$OUT/ncu-$name.txt" | head -16
    grep -iE "pipe|stall" "$OUT/ncu-$name.txt" | grep -iE "OPT|highest|bottleneck|utiliz" | head -6
}
if [ "${BASE:-1}" = 1 ]; then
    prof g1-accumulate 'k_accumulate_flat' --only msm --msm-min "$LOG" --msm-max "$LOG" --reps 1
    [ "${MORE:-0}" = 1 ] && prof ntt-pass 'k_ntt_pass' --only h --h-min "$LOG" --h-max "$LOG" --reps 1
    prof ntt-mid 'k_ntt_mid' --only h --h-min "$LOG" --h-max "$LOG" --reps 1
elif [ "${BASE:-1}" = ntt ]; then
    prof ntt-mid 'k_ntt_mid' --only h --h-min "$LOG" --h-max "$LOG" --reps 1
fi
[ "${MORE:-0}" = 1 ] && prof g2-accumulate 'k_accumulate_flat' --only g2 --msm-min 20 --g2-max 20 --reps 1
if [ "${AFF:-0}" = 1 ]; then # batched affine additions (G2's rounds) and the sum of the 1s (A, B, C)
    prof g2-aff-fwd 'k_aff_fwd' --only g2 --msm-min 22 --g2-max 22 --reps 1
    prof g2-aff-bwd 'k_aff_bwd' --only g2 --msm-min 22 --g2-max 22 --reps 1
    prof g1-ones 'k_ones_sum' --only bits --bits 27 --bits-g2 0 --bits-general 0 --reps 1
fi
if [ "${AFF:-0}" = 1 ] || [ "${AFF:-0}" = g1 ]; then
    PENV=CUZK_MSM_G1_AFFINE=1 prof g1-aff-fwd 'k_aff_fwd' --only msm --msm-min "$LOG" --msm-max "$LOG" --reps 1
fi
if [ "${AFF:-0}" = 1 ] || [ "${AFF:-0}" = g1 ] || [ "${AFF:-0}" = g1bwd ]; then
    PENV=CUZK_MSM_G1_AFFINE=1 prof g1-aff-bwd 'k_aff_bwd' --only msm --msm-min "$LOG" --msm-max "$LOG" --reps 1
fi
for v in ${NTT:-}; do
    PENV=CUZK_NTT_VARIANT=$v prof "ntt-mid-$v" 'k_ntt_mid' --only h --h-min "$LOG" --h-max "$LOG" --reps 1
done
echo "== done $(date -u +%T)"
