#!/usr/bin/env bash
# call 3 (session 22): the final defaults (batch inversion chunks 8 / 4,
# G2 windows and rounds, G1 rounds from 2^21, BN254's from 2^22):
# tests, the MSM table, then the flagship through cuzkd (-c 3 -j 3).
set -uo pipefail
O=$OUT
export CZ_COMMIT=$(cat COMMIT 2>/dev/null || echo unknown)
T0=$(date +%s)
st() { echo "== $* (+$(($(date +%s) - T0)) s)"; }
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > /tmp/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target bench-gpu test_gpu_msm test_gpu_bn254 test_gpu_prove cuzk-cli cuzkd cuzk-bench > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
st built
(cd /tmp/cuzk-build && timeout 240 ctest -R 'test_gpu_(msm|bn254|prove)$' --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$?" >> $O/ctest.log)
tail -3 $O/ctest.log
st tests
B=/tmp/cuzk-build/bin/bench-gpu
bg() { # bg LABEL ENV... -- ARGS
    local lab=$1; shift; local e=(); while [ "$1" != "--" ]; do e+=("$1"); shift; done; shift
    env "${e[@]}" timeout 150 $B "$@" 2>&1 >/dev/null | grep -E "msm|bits" | grep -v "^#" | sed "s/^/$lab | /"
}
{
bg g1 X=1 -- --only msm --msm-min 20 --msm-max 27 --reps 3
bg g2 X=1 -- --only g2 --msm-min 16 --g2-max 24 --reps 3
bg "g2 rounds5" CUZK_MSM_G2_AFFINE_ROUNDS=5 -- --only g2 --msm-min 22 --g2-max 24 --reps 3
bg bn X=1 -- --curve bn254 --only msm --msm-min 20 --msm-max 26 --reps 3
bg bits X=1 -- --only bits --bits 27 --bits-g2 33100000 --bits-general 0 --reps 3
} > $O/bench.txt 2>&1
grep dev $O/bench.txt; grep porep $O/bench.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --curve bn254 --only msm --msm-min 26 --msm-max 26 --reps 1 2>&1 >/dev/null | grep "gpu profile" | tail -1 | cut -c1-400 > $O/prof.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --only g2 --msm-min 20 --g2-max 20 --reps 1 2>&1 >/dev/null | grep "gpu profile" | tail -1 | cut -c1-400 >> $O/prof.txt
cat $O/prof.txt
st bench
OUT=/tmp/p COPIES=3 bash scripts/device_porep.sh daemon > $O/porep-out.txt 2>&1
grep -vE "^\s*$" $O/porep-out.txt | tail -45
grep -oE "partition [0-9]+: prove [0-9.]+ ms.*" /tmp/p/cuzkd-j3.log | cut -c1-200 > $O/partitions.txt
cp /tmp/p/timeline-j3.svg $O/ 2>/dev/null
st done
