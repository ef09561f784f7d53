#!/usr/bin/env bash
# device_check.sh: build cuzk with the CUDA backend on a GPU machine, run the
# gpu-labelled tests and the GPU benchmarks, and write logs under $OUT.
#
#   scripts/device_check.sh [all|test|bench|full|profile] [bench-gpu options...]
#
# all = gpu tests + benchmarks; profile = all + the SASS instruction mix
# of the hot kernels (sass.txt; run with CUZK_GPU_PROFILE=1 for phase
# times of every MSM and NTT in bench.txt); full = all + the whole unit suite (ctest
# -LE 'oracle|slow', where the "auto" backend picks the GPU) and a dump of
# register use and of the SASS of the Fr product kernel.
#
# Meant for a bare machine that has CUDA, cmake and gcc but no package
# access: the build's pkg-config modules (cmocka, jansson, inih) and
# pkg-config itself come as .deb files in .debs/ (fetched elsewhere with
# `apt-get download`), unpacked with dpkg -x into a private prefix whose .pc
# files are rewritten to point there. Nothing is installed system-wide.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/cuzk-device-out}
PFX=${PFX:-/tmp/cuzk-deps}
BUILD=${BUILD:-/tmp/cuzk-build}
MODE=${1:-all}
shift || true
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device_check.log") 2>&1
echo "== device_check $MODE $(date -u +%FT%TZ) commit ${CZ_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}"

# ---- dependencies --------------------------------------------------------
. "$ROOT/scripts/device_deps.sh"
cz_device_build_deps "$PFX"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -2

# ---- configure and build ---------------------------------------------------
JOBS=$(nproc)
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON ${CUZK_CMAKE_ARGS:-} \
    > "$OUT/build.log" 2>&1 || { echo "configure failed:"; tail -30 "$OUT/build.log"; exit 1; }
TARGETS="test_gpu_field test_gpu_ntt test_gpu_msm test_gpu_api test_gpu_prove cuzk-cli cuzkd cuzk-bench cuzk-synth bench-gpu"
t0=$(date +%s)
cmake --build "$BUILD" -j "$JOBS" --target $TARGETS >> "$OUT/build.log" 2>&1 ||
    { echo "build failed:"; grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
if [ "$MODE" = profile ]; then
    # SASS instruction mix of the hot kernels, for tuning
    for k in 'k_field_opI8czd_montI13czd_fr' 'k_field_opI8czd_montI13czd_fp' 'k_dif_pass' \
        'k_accumulateI8czd_montI13czd_fp' 'k_eval_abc'; do
        cuobjdump -sass "$BUILD"/cuda/libcuzk_cuda.a 2>/dev/null |
            awk -v k="$k" '/Function : /{f = index($0, k) > 0; if (f) print} f' > "$OUT/sass.tmp"
        echo "== $k: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' "$OUT/sass.tmp") instructions"
        grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+[A-Z0-9_.]+' "$OUT/sass.tmp" | awk '{print $2}' | sort | uniq -c | sort -rn | head -12
    done > "$OUT/sass.txt" 2>&1
    rm -f "$OUT/sass.tmp"
fi
if [ "$MODE" = full ]; then
    # everything else too; keep going past other people's broken targets
    cmake --build "$BUILD" -j "$JOBS" -- -k >> "$OUT/build.log" 2>&1 || echo "full build: some targets failed"
    echo "full build: $(( $(date +%s) - t0 )) s"
    if command -v cuobjdump >/dev/null; then
        {
            cuobjdump -res-usage "$BUILD"/cuda/libcuzk_cuda.a 2>&1 | grep -A1 -E "Function (.*k_accumulate|.*k_dif_pass|.*k_field_op|.*add_affine|.*k_bucket)" | cut -c1-200
            echo "== SASS of k_field_op<czd_fr>"
            cuobjdump -sass "$BUILD"/cuda/libcuzk_cuda.a 2>/dev/null |
                awk '/Function : .*k_field_opI8czd_montI13czd_fr_params/{f=1; print; next} /Function :/{f=0} f' > "$OUT/sass_fr.tmp"
            echo "instructions: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' "$OUT/sass_fr.tmp")"
            grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+[A-Z0-9_.]+' "$OUT/sass_fr.tmp" | awk '{print $2}' | sort | uniq -c | sort -rn | head -25
            head -c 300000 "$OUT/sass_fr.tmp"
        } > "$OUT/sass.txt" 2>&1
        rm -f "$OUT/sass_fr.tmp"
        head -30 "$OUT/sass.txt"
    fi
fi

rc=0
# ---- tests -----------------------------------------------------------------
if [ "$MODE" = all ] || [ "$MODE" = test ] || [ "$MODE" = full ] || [ "$MODE" = profile ]; then
    (cd "$BUILD" && timeout "${TEST_TIMEOUT:-600}" ctest -L gpu --output-on-failure -V) > "$OUT/test.log" 2>&1
    trc=$?
    grep -E "tests passed|Test +#|SKIPPED|FAILED|\[  FAILED|\[       OK|differs|failed|CZ_TEST_SEED" "$OUT/test.log" | head -80
    [ $trc -ne 0 ] && rc=1
fi

# ---- benchmarks ------------------------------------------------------------
if [ "$MODE" = full ]; then
    (cd "$BUILD" && timeout "${SUITE_TIMEOUT:-240}" ctest -LE 'oracle|slow|gpu' -j 8 --output-on-failure) > "$OUT/suite.log" 2>&1
    tail -25 "$OUT/suite.log"
fi
if [ "$MODE" = all ] || [ "$MODE" = bench ] || [ "$MODE" = full ] || [ "$MODE" = profile ]; then
    CZ_COMMIT=${CZ_COMMIT:-unknown} timeout "${BENCH_TIMEOUT:-600}" "$BUILD/bin/bench-gpu" "$@" \
        > "$OUT/bench.jsonl" 2> "$OUT/bench.txt"
    brc=$?
    cat "$OUT/bench.txt"
    [ $brc -ne 0 ] && { echo "bench-gpu exit $brc"; rc=1; }
fi
echo "== device_check done rc=$rc"
exit $rc
