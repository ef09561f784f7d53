#!/bin/bash
# ctest: labels=unit timeout=300
# test_mont_emu.sh: the device's Montgomery product and square in separated
# form (cuda/mont.cuh: Karatsuba, the square's cross products, the reduction,
# Fp2's two-reduction product) run on the host against the host's field
# code, for BLS12-381's and BN254's Fr, Fp and Fp2, and each modulus's R^2
# constant (where field.cuh's inversion starts) against R doubled 32N
# times: builds tests/mont_emu.cpp with the C++ compiler against this
# build's libcuzk.a. Needs no GPU: it checks the chains' word positions and
# bounds; bench-fpmul checks the same code on a GPU. CZ_MONT_EMU_COUNT sets
# the random pairs a modulus (default 200000).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=${CZ_SOURCE_DIR:-$(cd "$here/.." && pwd)}
BUILD=${CZ_BINARY_DIR:-$SRC/build}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-emu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cz_build_emu "$SRC/tests/mont_emu.cpp" "$TMP/emu" -Werror || exit 1
count=${CZ_MONT_EMU_COUNT:-200000}
if ! "$TMP/emu" "$count" 1 2>&1; then
    echo "FAIL: mont_emu $count"
    exit 1
fi
echo "PASS"
