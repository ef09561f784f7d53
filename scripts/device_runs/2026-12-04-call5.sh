#!/usr/bin/env bash
# call 5 (session 22): G2 with 5 rounds from 2^20 (the default now), and
# the batch inversion's three parts in the profile (levels up, the one
# inversion, levels down) at G1 2^24 / 2^27, G2 2^20 / 2^24, BN254 2^26;
# test_gpu_msm under the defaults.
set -uo pipefail
O=$OUT
export CZ_COMMIT=$(cat COMMIT 2>/dev/null || echo unknown)
T0=$(date +%s)
st() { echo "== $* (+$(($(date +%s) - T0)) s)"; }
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > /tmp/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target bench-gpu test_gpu_msm > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
st built
(cd /tmp/cuzk-build && timeout 120 ctest -R 'test_gpu_msm$' --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$?" >> $O/ctest.log)
tail -2 $O/ctest.log
B=/tmp/cuzk-build/bin/bench-gpu
timeout 150 $B --only g2 --msm-min 16 --g2-max 24 --reps 3 2>&1 >/dev/null | grep dev
st g2
pf() { CUZK_GPU_PROFILE=1 timeout 90 $B "$@" --reps 1 2>&1 >/dev/null | grep "gpu profile" | tail -1 | cut -c1-500; }
{
pf --only msm --msm-min 24 --msm-max 24
pf --only msm --msm-min 27 --msm-max 27
pf --only g2 --msm-min 20 --g2-max 20
pf --only g2 --msm-min 24 --g2-max 24
pf --curve bn254 --only msm --msm-min 26 --msm-max 26
} > $O/prof.txt
cat $O/prof.txt
st done
