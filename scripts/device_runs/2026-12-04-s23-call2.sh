#!/usr/bin/env bash
# call 2 (session 23): the NTT's low round full (R stages, a top round
# takes the rest: CUZK_NTT_LOW_FULL, 0 = before) and the batch inversion's
# small levels in one block (CUZK_MSM_BINV_TAIL, 0 = a launch a level),
# G1's groups of 32 lanes; tests (test_gpu_ntt under both low rounds), the
# NTT and H step at 2^20 / 2^24 / 2^27 under both, G2 under groups 1 / 2 / 4
# and the tail off, G1 and BN254 under the tail on / off, profiles.
set -uo pipefail
O=$OUT
export CZ_COMMIT=$(cat COMMIT 2>/dev/null || echo unknown)
T0=$(date +%s)
st() { echo "== $* (+$(($(date +%s) - T0)) s)"; }
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > $O/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target bench-gpu test_gpu_msm test_gpu_bn254 test_gpu_ntt test_gpu_prove cuzk-cli cuzk-synth > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
st built
{
(cd /tmp/cuzk-build && timeout 300 ctest -R 'test_gpu_(msm|bn254|ntt|prove)$' --output-on-failure > $O/ctest_def.log 2>&1; echo "ctest default rc=$?" >> $O/ctest_def.log)
tail -7 $O/ctest_def.log
st "tests default"
(cd /tmp/cuzk-build && CUZK_NTT_LOW_FULL=0 CUZK_MSM_BINV_TAIL=0 timeout 200 ctest -R 'test_gpu_(ntt|bn254)$' --output-on-failure > $O/ctest_old.log 2>&1; echo "ctest low0 tail0 rc=$?" >> $O/ctest_old.log)
tail -4 $O/ctest_old.log
st "tests old"
} > $O/tests.txt 2>&1
cat $O/tests.txt
B=/tmp/cuzk-build/bin/bench-gpu
bg() { # bg LABEL ENV... -- ARGS
    local lab=$1; shift; local e=(); while [ "$1" != "--" ]; do e+=("$1"); shift; done; shift
    env "${e[@]}" timeout 150 $B "$@" 2>&1 >/dev/null | grep -E "msm|bits|ntt|h_step|coset|inverse" | grep -v "^#" | sed "s/^/$lab | /"
}
{
for lf in 0 1 0 1; do
    for lg in 20 24 27; do
        bg "ntt low$lf" CUZK_NTT_LOW_FULL=$lf -- --only ntt,h --ntt-min $lg --ntt-max $lg --h-min $lg --h-max $lg --reps 3
    done
    st "ntt low $lf"
done
for g in 1 2 4; do
    bg "g2 gr$g" CUZK_MSM_BINV_GROUP=$g -- --only g2 --msm-min 16 --g2-max 24 --reps 3
    st "g2 group $g"
done
bg "g2 tail0" CUZK_MSM_BINV_TAIL=0 -- --only g2 --msm-min 16 --g2-max 24 --reps 3
for t in 0 1; do
    bg "g1 tail$t" CUZK_MSM_BINV_TAIL=$t -- --only msm --msm-min 20 --msm-max 27 --reps 3
    bg "bn tail$t" CUZK_MSM_BINV_TAIL=$t -- --curve bn254 --only msm --msm-min 22 --msm-max 26 --reps 3
    bg "bits tail$t" CUZK_MSM_BINV_TAIL=$t -- --only bits --bits 27 --bits-g2 33100000 --bits-general 0 --reps 3
    st "g1/bn/bits tail $t"
done
} > $O/sweeps.txt 2>&1
pf() { CUZK_GPU_PROFILE=1 timeout 90 $B "$@" --reps 1 2>&1 >/dev/null | grep "gpu profile" | tail -4 | cut -c1-600; }
{
pf --only g2 --msm-min 20 --g2-max 20
pf --only g2 --msm-min 24 --g2-max 24
pf --only msm --msm-min 27 --msm-max 27
pf --only ntt,h --ntt-min 27 --ntt-max 27 --h-min 27 --h-max 27
} > $O/prof.txt
st done
cat $O/sweeps.txt $O/prof.txt
