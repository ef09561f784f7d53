#!/usr/bin/env bash
# call 4 (session 22): test_gpu_prove and test_gpu_native under the new
# defaults (call 3's build left out cuzk-synth, which test_gpu_prove runs)
set -uo pipefail
O=$OUT
T0=$(date +%s)
. scripts/device_deps.sh
cz_device_build_deps /tmp/cuzk-deps
cmake -S . -B /tmp/cuzk-build -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON > /tmp/configure.log 2>&1 &&
    cmake --build /tmp/cuzk-build -j "$(nproc)" --target test_gpu_prove test_gpu_native cuzk-synth cuzk-cli > $O/build.log 2>&1 ||
    { grep error $O/build.log | head; exit 1; }
echo "built +$(($(date +%s) - T0)) s"
(cd /tmp/cuzk-build && timeout 240 ctest -R 'test_gpu_(prove|native)$' --output-on-failure > $O/ctest.log 2>&1; echo "ctest rc=$?" >> $O/ctest.log)
grep -E "OK|FAILED|PASSED|Passed|Failed|rc=" $O/ctest.log | head -30
