#!/usr/bin/env bash
# call 2 (session 22): the batch inversion's chunks (CUZK_MSM_BINV_CHUNK
# 32 = before, 8 = new default, 4, 2 in the tests), R^2 a constant in the
# inversion, G2's window 13 at 2^20-2^21, BLS12-381 G1's rounds from 2^21;
# tests under chunks 8 and 2; G2 window sweeps 2^16-2^24; BN254's rounds
# below 2^23; profiles.
set -uo pipefail
O=$OUT
export CZ_COMMIT=$(cat COMMIT 2>/dev/null || echo unknown)
T0=$(date +%s)
st() { echo "== $* (+$(($(date +%s) - T0)) s)"; }
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > $O/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target bench-gpu test_gpu_msm test_gpu_bn254 test_gpu_field > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
st built
B=/tmp/cuzk-build/bin/bench-gpu
bg() { # bg LABEL ENV... -- ARGS
    local lab=$1; shift; local e=(); while [ "$1" != "--" ]; do e+=("$1"); shift; done; shift
    env "${e[@]}" timeout 150 $B "$@" 2>&1 >/dev/null | grep -E "msm|bits" | grep -v "^#" | sed "s/^/$lab | /"
}
for ck in 8 2; do
    (cd /tmp/cuzk-build && CUZK_MSM_BINV_CHUNK=$ck timeout 200 ctest -R 'test_gpu_(msm|bn254|field)$' --output-on-failure > $O/ctest_$ck.log 2>&1; echo "ctest chunk $ck rc=$?" >> $O/ctest_$ck.log)
    tail -3 $O/ctest_$ck.log
done
st tests
{
for ck in 32 8 4; do
    bg "g1 ck$ck" CUZK_MSM_BINV_CHUNK=$ck -- --only msm --msm-min 21 --msm-max 27 --reps 3
done
st g1
for ck in 32 8 4; do
    bg "g2 ck$ck" CUZK_MSM_BINV_CHUNK=$ck -- --only g2 --msm-min 16 --g2-max 24 --reps 3
done
st g2
for r in 5 6; do
    bg "g2 rounds$r" CUZK_MSM_G2_AFFINE_ROUNDS=$r -- --only g2 --msm-min 20 --g2-max 21 --reps 3
done
bg g2sw16 X=1 -- --only g2 --msm-min 16 --g2-max 16 --wsweep 16 --wsweep-c 6-12 --reps 3
bg g2sw18 X=1 -- --only g2 --msm-min 18 --g2-max 18 --wsweep 18 --wsweep-c 8-14 --reps 3
bg g2sw22 X=1 -- --only g2 --msm-min 22 --g2-max 22 --wsweep 22 --wsweep-c 12-17 --reps 2
bg g2sw24 X=1 -- --only g2 --msm-min 24 --g2-max 24 --wsweep 24 --wsweep-c 12-17 --reps 2
st g2sweep
for ck in 32 8; do
    bg "bits ck$ck" CUZK_MSM_BINV_CHUNK=$ck -- --only bits --bits 27 --bits-g2 33100000 --bits-general 0 --reps 3
done
for a in X=1 CUZK_MSM_G1_AFFINE=1; do
    bg "bn $a" $a -- --curve bn254 --only msm --msm-min 21 --msm-max 23 --reps 3
done
for ck in 32 8; do
    bg "bn ck$ck" CUZK_MSM_BINV_CHUNK=$ck -- --curve bn254 --only msm --msm-min 24 --msm-max 26 --reps 3
done
st bn
} > $O/sweeps.txt 2>&1
CUZK_GPU_PROFILE=1 timeout 60 $B --only msm --msm-min 24 --msm-max 24 --reps 1 > /dev/null 2> $O/prof_g1_24.txt
CUZK_GPU_PROFILE=1 timeout 60 $B --only g2 --msm-min 20 --g2-max 20 --reps 1 > /dev/null 2> $O/prof_g2_20.txt
grep "gpu profile" $O/prof_*.txt | cut -c1-400
st done
cat $O/sweeps.txt
