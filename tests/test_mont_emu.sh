#!/bin/bash
# ctest: labels=unit timeout=300
# test_mont_emu.sh: the device's Montgomery product and square in separated
# form (cuda/mont.cuh: Karatsuba, the square's cross products, the reduction,
# Fp2's two-reduction product) run on the host against the host's field
# code, for BLS12-381's and BN254's Fr, Fp and Fp2: builds tests/mont_emu.cpp
# with the C++ compiler against this build's libcuzk.a. Needs no GPU: it
# checks the chains' word positions and bounds; bench-fpmul checks the same
# code on a GPU. CZ_MONT_EMU_COUNT sets the random pairs a modulus (default
# 200000).
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
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-mont.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# a sanitizer build's library needs the same runtime at link time, and the
# emulation runs under it too
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
if ! "$CXX" -std=c++17 -O2 -Wall -Wextra -Werror "${flags[@]}" -I"$SRC/include" -I"$SRC/src" -I"$SRC/cuda" \
    "$SRC/tests/mont_emu.cpp" "$lib" "${extra[@]}" -lpthread -lm -o "$TMP/emu" 2>"$TMP/cc.log"; then
    echo "FAIL: building tests/mont_emu.cpp" >&2
    cat "$TMP/cc.log" >&2
    exit 1
fi
count=${CZ_MONT_EMU_COUNT:-200000}
if ! "$TMP/emu" "$count" 1 2>&1; then
    echo "FAIL: mont_emu $count"
    exit 1
fi
echo "PASS"
