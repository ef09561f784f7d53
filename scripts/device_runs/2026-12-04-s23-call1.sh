#!/usr/bin/env bash
# call 1 (session 23): the batch inversion's first level folded into the
# affine rounds' passes (k_aff_fwd's groups of lanes, CUZK_MSM_BINV_GROUP;
# 1 = the old levels). Tests under the defaults (G1 8, G2 4; test_gpu_msm's
# test_affine_groups runs groups 1, 2, 32 itself), test_gpu_bn254 under 1
# and 32; G2 2^16-2^24, G1 2^21-2^27, BN254 2^24-2^26 and the PoRep-like
# scalars under groups 1 / default / 16-32; profiles.
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
    env "${e[@]}" timeout 150 $B "$@" 2>&1 >/dev/null | grep -E "msm|bits" | grep -v "^#" | sed "s/^/$lab | /"
}
{
for g in def 1 32; do
    e=X=1; r='test_gpu_(msm|bn254)$'; [ $g = def ] || { e=CUZK_MSM_BINV_GROUP=$g; r='test_gpu_bn254$'; }
    (cd /tmp/cuzk-build && env $e timeout 200 ctest -R "$r" --output-on-failure > $O/ctest_$g.log 2>&1; echo "ctest group $g rc=$?" >> $O/ctest_$g.log)
    tail -4 $O/ctest_$g.log
    st "tests group $g"
done
} > $O/tests.txt 2>&1
cat $O/tests.txt
{
for g in 1 def 16; do
    e=X=1; [ $g = def ] || e=CUZK_MSM_BINV_GROUP=$g
    bg "g2 gr$g" $e -- --only g2 --msm-min 16 --g2-max 24 --reps 3
    st "g2 group $g"
done
for g in 1 def 32; do
    e=X=1; [ $g = def ] || e=CUZK_MSM_BINV_GROUP=$g
    bg "g1 gr$g" $e -- --only msm --msm-min 21 --msm-max 27 --reps 3
    st "g1 group $g"
done
for g in 1 def; do
    e=X=1; [ $g = def ] || e=CUZK_MSM_BINV_GROUP=$g
    bg "bn gr$g" $e -- --curve bn254 --only msm --msm-min 24 --msm-max 26 --reps 3
    bg "bits gr$g" $e -- --only bits --bits 27 --bits-g2 33100000 --bits-general 0 --reps 3
    st "bn/bits group $g"
done
} > $O/sweeps.txt 2>&1
pf() { CUZK_GPU_PROFILE=1 timeout 90 $B "$@" --reps 1 2>&1 >/dev/null | grep "gpu profile" | tail -1 | cut -c1-600; }
{
pf --only g2 --msm-min 20 --g2-max 20
pf --only g2 --msm-min 24 --g2-max 24
pf --only msm --msm-min 27 --msm-max 27
} > $O/prof.txt
st done
cat $O/sweeps.txt $O/prof.txt
