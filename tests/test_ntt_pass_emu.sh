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
# first run.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=${CZ_SOURCE_DIR:-$(cd "$here/.." && pwd)}
BUILD=${CZ_BINARY_DIR:-$SRC/build}
CXX=${CXX:-c++}
lib=$BUILD/libcuzk.a
if [ ! -f "$lib" ]; then
    echo "FAIL: $lib is not built (build the cuzk target first)" >&2
    exit 1
fi
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "FAIL: no C++ compiler ($CXX)" >&2
    exit 1
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-emu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# a sanitizer build's library needs the same runtime at link time
san=$(sed -n 's/^CUZK_SANITIZE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
flags=()
[ -n "$san" ] && flags+=("-fsanitize=$san" -fno-omit-frame-pointer)
extra=()
for pc in jansson libxxhash; do
    if pkg-config --exists "$pc" 2>/dev/null; then
        # shellcheck disable=SC2207
        extra+=($(pkg-config --libs "$pc"))
    fi
done
if ! "$CXX" -std=c++17 -O2 -Wall -Wextra "${flags[@]}" -I"$SRC/include" -I"$SRC/src" -I"$SRC/cuda" \
    "$SRC/tests/ntt_pass_emu.cpp" "$lib" "${extra[@]}" -lpthread -lm -o "$TMP/emu" 2>"$TMP/cc.log"; then
    echo "FAIL: building tests/ntt_pass_emu.cpp" >&2
    cat "$TMP/cc.log" >&2
    exit 1
fi

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
[ "$fails" -eq 0 ] || exit 1
echo "PASS"
