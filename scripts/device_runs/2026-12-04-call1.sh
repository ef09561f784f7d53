#!/usr/bin/env bash
# call 1 (session 22): window widths and the rounds' knobs swept under
# d67112d's defaults (G2 2^20-2^21, G1 2^20-2^25 with and without the
# rounds, BN254 G1 U / slots / 1s rounds), profiles, and test_gpu_msm /
# test_gpu_bn254 under the defaults.
set -uo pipefail
O=$OUT
export CZ_COMMIT=$(cat COMMIT 2>/dev/null || echo unknown)
T0=$(date +%s)
st() { echo "== $* (+$(($(date +%s) - T0)) s)"; }
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > $O/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target bench-gpu test_gpu_msm test_gpu_bn254 > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
st built
B=/tmp/cuzk-build/bin/bench-gpu
bg() { # bg LABEL ENV... -- ARGS
    local lab=$1; shift; local e=(); while [ "$1" != "--" ]; do e+=("$1"); shift; done; shift
    env "${e[@]}" timeout 120 $B "$@" 2>&1 >/dev/null | grep -E "msm|prof|phase|bits" | grep -v "^#" | sed "s/^/$lab | /"
}
{
bg g2sweep20 X=1 -- --only g2 --msm-min 20 --g2-max 20 --wsweep 20 --wsweep-c 9-17 --reps 3
bg g2sweep21 X=1 -- --only g2 --msm-min 21 --g2-max 21 --wsweep 21 --wsweep-c 12-18 --reps 3
st g2
bg g1seg X=1 -- --only msm --msm-min 20 --msm-max 22 --wsweep 20,21,22 --wsweep-c 12-18 --reps 3
bg g1aff CUZK_MSM_G1_AFFINE=1 -- --only msm --msm-min 20 --msm-max 22 --wsweep 20,21,22 --wsweep-c 13-18 --reps 3
st g1small
bg g1big X=1 -- --only msm --msm-min 23 --msm-max 25 --wsweep 23,24,25 --wsweep-c 17-21 --reps 2
st g1big
for a in X=1 CUZK_MSM_AFF_FWD_U=2 CUZK_MSM_AFF_FWD_U=1 CUZK_MSM_AFF_PAIRS=256 CUZK_MSM_G1_AFFINE_ROUNDS=5 CUZK_MSM_G1_AFFINE_ROUNDS=6; do
    bg "bn $a" $a -- --curve bn254 --only msm --msm-min 24 --msm-max 26 --reps 3
done
bg bnsweep26 X=1 -- --curve bn254 --only msm --msm-min 26 --msm-max 26 --wsweep 26 --wsweep-c 19-22 --reps 2
bg bnsweep24 X=1 -- --curve bn254 --only msm --msm-min 24 --msm-max 24 --wsweep 24 --wsweep-c 18-21 --reps 2
st bn
} > $O/sweeps.txt 2>&1
CUZK_GPU_PROFILE=1 timeout 60 $B --curve bn254 --only msm --msm-min 26 --msm-max 26 --reps 1 > /dev/null 2> $O/prof_bn26.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --only msm --msm-min 24 --msm-max 24 --reps 1 > /dev/null 2> $O/prof_g1_24.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --only msm --msm-min 20 --msm-max 20 --reps 1 > /dev/null 2> $O/prof_g1_20.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --only g2 --msm-min 20 --g2-max 20 --reps 1 > /dev/null 2> $O/prof_g2_20.txt
st profiles
(cd /tmp/cuzk-build && timeout 300 ctest -R 'test_gpu_(msm|bn254)$' --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$?" >> $O/ctest.log)
tail -5 $O/ctest.log
st tests
cat $O/sweeps.txt
