#!/bin/bash
# ctest: labels=unit timeout=900
# test_ntt_pass_emu.sh: the GPU NTT's passes (cuda/ntt_pass.cuh) emulated on
# the host, every variant of CZD_NTT_VARIANTS, against the CPU NTT: builds
# tests/ntt_pass_emu.cpp with the C++ compiler against this build's
# libcuzk.a and runs it for every transform kind and the H step (both
# forms): ntt.cu's plans at 2^3..2^13 with blocks of 2^11 elements and
# 2^3..2^12 with blocks of 2^10 and 2^9 (CUZK_NTT_BLOCK_LOG), then the
# plans of the large sizes brought down to small ones (passes of at most
# 4 or 5 stages: three and four passes; twists from the lo/hi tables above
# 2^6 or 2^5 powers, where ntt.cu takes them above 2^18). Needs no GPU: it
# checks the passes' index math, what tests/test_gpu_ntt.c checks on the
# device. CZ_NTT_EMU_MAX_LOG (at most 20) raises the largest size of the
# first run. The last run takes the passes' old low round
# (CUZK_NTT_LOW_FULL=0, ntt_pass.cuh's czd_rlow).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=${CZ_SOURCE_DIR:-$(cd "$here/.." && pwd)}
BUILD=${CZ_BINARY_DIR:-$SRC/build}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-emu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cz_build_emu "$SRC/tests/ntt_pass_emu.cpp" "$TMP/emu" || exit 1

max=${CZ_NTT_EMU_MAX_LOG:-13}
fails=0
run() {
    echo "# ntt_pass_emu $*"
    if ! "$TMP/emu" "$@" >"$TMP/out.log" 2>&1; then
        grep -v ': ok$' "$TMP/out.log" | head -20
        echo "FAIL: ntt_pass_emu $*"
        fails=$((fails + 1))
    else
        echo "ok: $(grep -c ': ok$' "$TMP/out.log") size/variant cases"
    fi
}
run 3 "$max" 11 18 10
run 3 12 10 18 10
run 3 12 9 18 10
run 6 14 11 6 4
run 9 15 10 5 5
run 3 12 11 0 10
# the low round of before (k - R floor((k - 1) / R) stages, no top round)
CUZK_NTT_LOW_FULL=0 run 3 12 10 18 10
[ "$fails" -eq 0 ] || exit 1
echo "PASS"
