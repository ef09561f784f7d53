#!/usr/bin/env bash
# run.sh: build the libFuzzer harnesses (clang, ASan + UBSan) and run each.
#
#   tests/fuzz/run.sh [SECONDS] [HARNESS...]
#
# SECONDS per harness (default 60); HARNESS names without the fuzz_ prefix
# (default: all of tests/fuzz/fuzz_*.c). The library (src/**/*.c) is
# compiled with clang -fsanitize=fuzzer-no-link into $FUZZ_BUILD (default
# /tmp/cuzk-fuzz) so coverage reaches the decoders. Corpora are seeded from
# tests/vectors/bls12_381.json (bn254.json for the bn254_ harnesses),
# tests/fuzz/seeds and tests/fixtures and kept in
# $FUZZ_BUILD/corpus/<name>; crashes land in $FUZZ_BUILD/artifacts/ and
# replay with: $FUZZ_BUILD/fuzz_<name> <crash-file>.
# Needs clang 14+ with libFuzzer (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${FUZZ_BUILD:-/tmp/cuzk-fuzz}
SECS=${1:-60}
shift || true
CC=${CC:-clang}
JOBS=${FUZZ_JOBS:-2}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in "$ROOT"/tests/fuzz/fuzz_*.c; do
        n=$(basename "$f" .c)
        names+=("${n#fuzz_}")
    done
fi

# ---- the library, instrumented ----
# Compiled here rather than through CMake so a fuzz build needs only clang
# and the sources. CZ_NO_ASM: the x86-64 asm field path does not build
# under ASan with clang; the tests cover it.
FLAGS=(-std=c11 -D_GNU_SOURCE -DCZ_NO_ASM -O1 -g -fno-omit-frame-pointer -march=native
       -fsanitize=address,undefined -fno-sanitize-recover=all
       -I"$ROOT/include" -I"$ROOT/src" -I"$ROOT/tests" $(pkg-config --cflags jansson 2>/dev/null || true))
mkdir -p "$B/obj" "$B/gen"
# what cmake/version_stamp.cmake writes for util/version.c
printf '#define CUZK_GIT_COMMIT "fuzz"\n#ifndef CUZK_VERSION\n#define CUZK_VERSION "fuzz"\n#endif\n' \
    >"$B/gen/build_version.h"
FLAGS+=(-I"$B/gen")
rm -f "$B/obj"/*.o "$B/libcuzk-fuzz.a"
: >"$B/build.log"
running=0
while read -r f; do
    rel=${f#"$ROOT/src/"}
    "$CC" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$f" -o "$B/obj/${rel//\//_}.o" 2>>"$B/build.log" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || { echo "compile failed, see $B/build.log" >&2; exit 2; }
        running=$((running - 1))
    fi
done < <(find "$ROOT/src" -name '*.c' -not -path "$ROOT/src/farm/*" | sort) # farm: libpq, not a decoder
while [ "$running" -gt 0 ]; do
    wait -n || { echo "compile failed, see $B/build.log" >&2; exit 2; }
    running=$((running - 1))
done
ar rcs "$B/libcuzk-fuzz.a" "$B"/obj/*.o
LIBS=("$B/libcuzk-fuzz.a" $(pkg-config --libs jansson libxxhash 2>/dev/null || true) -lm -lpthread)

# ---- seed corpora ----
seed() { # name: (re)write the seeds into $B/corpus/name, keeping what the fuzzer found
    local dir="$B/corpus/$1" S="$ROOT/tests/fuzz/seeds" F="$ROOT/tests/fixtures"
    mkdir -p "$dir"
    case "$1" in
        zkey) cp "$S"/*.zkey "$F"/*.zkey "$F"/bn254/*.zkey "$dir"/ 2>/dev/null || true ;;
        wtns) cp "$S"/*.wtns "$F"/*.wtns "$F"/bn254/*.wtns "$dir"/ 2>/dev/null || true ;;
        r1cs) cp "$S"/*.r1cs "$F"/*.r1cs "$dir"/ 2>/dev/null || true ;;
        json) cp "$S"/*.json "$F"/*.json "$F"/bn254/*.json "$dir"/ 2>/dev/null || true ;;
        nkey) cp "$S"/*.czk "$dir"/ 2>/dev/null || true ;;
        bn254_json) cp "$F"/bn254/*.json "$dir"/ 2>/dev/null || true ;;
        bn254_prove) # the first byte picks the reader: 0 the key, 1 the witness
            for f in "$F"/bn254/*.zkey; do { printf '\0'; cat "$f"; } >"$dir/$(basename "$f")"; done
            for f in "$F"/bn254/*.wtns; do { printf '\1'; cat "$f"; } >"$dir/$(basename "$f")"; done ;;
        bn254_*) python3 - "$ROOT/tests/vectors/bn254.json" "$1" "$dir" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1])); name = sys.argv[2]; out = sys.argv[3]
seeds = []
for g in ("g1", "g2"):
    for v in d[g]["mul"]:
        pt = v["point"]
        if name == "bn254_snarkjs":
            seeds.append(bytes.fromhex(pt["zkey"]))
        if name == "bn254_point_dec":
            flat = pt["dec"] if g == "g1" else [c for pair in pt["dec"] for c in pair]
            seeds.append(",".join(flat).encode())
for g in ("g1", "g2"):
    for v in d["invalid"][g]:
        if name == "bn254_snarkjs":
            seeds.append(bytes.fromhex(v["zkey"]))
for i, s in enumerate(seeds):
    open(os.path.join(out, "seed%03d" % i), "wb").write(s)
PY
        ;;
        *) python3 - "$ROOT/tests/vectors/bls12_381.json" "$1" "$dir" <<'PY'
import json, sys, os
d = json.load(open(sys.argv[1])); name = sys.argv[2]; out = sys.argv[3]
seeds = []
for g in ("g1", "g2"):
    for v in d[g]["mul"]:
        for form in ("compressed", "uncompressed", "snarkjs"):
            if name == f"{g}_{form}":
                seeds.append(bytes.fromhex(v[form]))
        if name == "point_dec":
            seeds.append(",".join(v["dec"]).encode())
for v in d["invalid"]:
    if name == f'{v["group"]}_{v["format"]}':
        seeds.append(bytes.fromhex(v["hex"]))
for f in ("fp", "fr"):
    for v in d[f]["ops"]:
        if name == "field_str":
            seeds += [v["a"].encode(), v["a_dec"].encode()]
        if name == "field_bytes":
            seeds.append(bytes.fromhex(v["a"][2:].rjust(96, "0")))
for i, s in enumerate(seeds):
    open(os.path.join(out, "seed%03d" % i), "wb").write(s)
PY
        ;;
    esac
}

status=0
summary=()
for n in "${names[@]}"; do
    src="$ROOT/tests/fuzz/fuzz_$n.c"
    [ -f "$src" ] || { echo "no harness $src" >&2; exit 2; }
    $CC "${FLAGS[@]}" -fsanitize=fuzzer "$src" "${LIBS[@]}" -o "$B/fuzz_$n"
    seed "$n"
    mkdir -p "$B/artifacts"
    log="$B/fuzz_$n.log"
    echo "== fuzz_$n: ${SECS}s"
    if "$B/fuzz_$n" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/artifacts/$n-" \
        "$B/corpus/$n" >"$log" 2>&1; then
        summary+=("ok    fuzz_$n $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') execs")
    else
        status=1
        summary+=("FAIL  fuzz_$n: see $log; artifacts in $B/artifacts/$n-*")
        grep -E "PROPERTY VIOLATED|ERROR: (AddressSanitizer|libFuzzer)|runtime error|SUMMARY" "$log" | head -5 || true
    fi
done
printf '%s\n' "${summary[@]}"
exit $status
