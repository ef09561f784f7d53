# shellcheck shell=bash
# lib.sh: helpers shared by the shell tests (tests/test_*.sh), sourced, not run.
#
# A test sources this file, calls cz_init, runs checks, and ends with
# cz_finish. Checks keep going after a failure so one run reports every
# broken case; cz_finish exits 1 if any failed. Every failure prints the
# command, its exit status, and its stdout and stderr.
#
# Environment (set by ctest, see tests/CMakeLists.txt; defaults for a run
# by hand from the source tree): CZ_SOURCE_DIR, CZ_BINARY_DIR, CZ_BIN.
# Exit 77 (ctest "skipped") is used only when an optional tool (node and
# the npm oracles) is missing, never for a failure of cuzk itself.

set -uo pipefail

CZ_FAILS=0
CZ_PASSES=0

cz_init() {
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
    SRC=${CZ_SOURCE_DIR:-$(cd "$here/.." && pwd)}
    BUILD=${CZ_BINARY_DIR:-$SRC/build}
    BIN=${CZ_BIN:-$BUILD/bin}
    CUZK=$BIN/cuzk
    # shellcheck disable=SC2034  # used by the tests that source this file
    FIX=$SRC/tests/fixtures
    NODE_MODULES=$SRC/tools/oracle/node_modules
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-test.XXXXXX")
    trap 'rm -rf "$TMP"' EXIT
    if [ ! -x "$CUZK" ]; then
        echo "FAIL: $CUZK is not built (build the cuzk target first)" >&2
        exit 1
    fi
}

# cz_build_emu CPP OUT [FLAG...]: build a host emulation of device code
# (tests/*_emu.cpp, no GPU needed) with the C++ compiler against this
# build's libcuzk.a, under the build's sanitizers if it has them (its library
# needs their runtime, and the emulation runs under them too). Needs SRC and
# BUILD (cz_init sets them, or the test itself); prints why and returns 1
# if it cannot.
cz_build_emu() {
    local cpp=$1 out=$2 lib=$BUILD/libcuzk.a cxx=${CXX:-c++} san pc
    shift 2
    local flags=("$@") extra=()
    if [ ! -f "$lib" ]; then
        echo "FAIL: $lib is not built (build the cuzk target first)" >&2
        return 1
    fi
    if ! command -v "$cxx" >/dev/null 2>&1; then
        echo "FAIL: no C++ compiler ($cxx)" >&2
        return 1
    fi
    san=$(sed -n 's/^CUZK_SANITIZE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)
    [ -n "$san" ] && flags+=("-fsanitize=$san" -fno-omit-frame-pointer)
    for pc in jansson libxxhash; do
        if pkg-config --exists "$pc" 2>/dev/null; then
            # shellcheck disable=SC2207
            extra+=($(pkg-config --libs "$pc"))
        fi
    done
    if ! "$cxx" -std=c++17 -O2 -Wall -Wextra "${flags[@]}" -I"$SRC/include" -I"$SRC/src" -I"$SRC/cuda" \
        "$cpp" "$lib" "${extra[@]}" -lpthread -lm -o "$out" 2>"$out.log"; then
        echo "FAIL: building $cpp" >&2
        cat "$out.log" >&2
        return 1
    fi
}

# cz_need_oracle: skip (77) when node or the npm oracles are absent.
cz_need_oracle() {
    if ! command -v node >/dev/null 2>&1; then
        echo "SKIP: node is not installed (scripts/setup.sh installs it)"; exit 77
    fi
    if [ ! -f "$NODE_MODULES/snarkjs/build/cli.cjs" ] || [ ! -f "$NODE_MODULES/circom2/cli.js" ]; then
        echo "SKIP: snarkjs/circom2 missing under tools/oracle (scripts/setup.sh installs them)"; exit 77
    fi
}

# cz_need_cuda: the CUDA backend's device count (cuzk --version) in ND, and
# CZ_VERSION; skips the test (77), saying why, without a CUDA build and a
# device (a real one or the host model's)
cz_need_cuda() {
    CZ_VERSION=$("$CUZK" --version)
    ND=$(sed -n 's/^CUDA backend: .*, \([0-9]*\) device(s)$/\1/p' <<<"$CZ_VERSION")
    if [ -z "$ND" ] || [ "$ND" = 0 ]; then
        echo "SKIPPED: no CUDA device ($(tail -1 <<<"$CZ_VERSION"))"
        exit 77
    fi
}

snarkjs() { node "$NODE_MODULES/snarkjs/build/cli.cjs" "$@"; }
# circom2 runs under WASI and sees only the working directory and its
# ancestors: call it from the directory that holds the sources.
circom2() { node "$NODE_MODULES/circom2/cli.js" "$@"; }

# ---- running commands -------------------------------------------------------

# cz_run CMD...: run, keep stdout/stderr/exit status in RUN_OUT/RUN_ERR/RUN_RC.
cz_run() {
    RUN_CMD="$*"
    "$@" >"$TMP/.out" 2>"$TMP/.err"
    RUN_RC=$?
    RUN_OUT=$(cat "$TMP/.out")
    RUN_ERR=$(cat "$TMP/.err")
}

cz_show() {
    {
        echo "    command: $RUN_CMD"
        echo "    exit status: $RUN_RC"
        [ -n "$RUN_OUT" ] && printf '%s\n' "$RUN_OUT" | head -40 | sed 's/^/    stdout: /'
        [ -n "$RUN_ERR" ] && printf '%s\n' "$RUN_ERR" | head -40 | sed 's/^/    stderr: /'
    } >&2
    return 0
}

cz_pass() { CZ_PASSES=$((CZ_PASSES + 1)); echo "ok: $*"; }
cz_fail() { CZ_FAILS=$((CZ_FAILS + 1)); echo "FAIL: $*" >&2; }

# cz_crashed: the last run died of a signal or a sanitizer reported an error.
cz_crashed() {
    [ "$RUN_RC" -ge 128 ] && return 0
    printf '%s' "$RUN_ERR" | grep -qE 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:' && return 0
    return 1
}

# cz_expect RCS DESC CMD...: run CMD; pass if its exit status is one of the
# space-separated RCS and it did not crash.
cz_expect() {
    local rcs=$1 desc=$2 rc
    shift 2
    cz_run "$@"
    if cz_crashed; then
        cz_fail "$desc: CRASHED"; cz_show; return 1
    fi
    for rc in $rcs; do
        if [ "$RUN_RC" = "$rc" ]; then cz_pass "$desc (exit $RUN_RC)"; return 0; fi
    done
    cz_fail "$desc: exit $RUN_RC, expected ${rcs// / or }"; cz_show; return 1
}

# cz_expect_err DESC CMD...: a malformed input: exit 2, one line on stderr
# starting "cuzk: ", no crash. Extra checks on the message use RUN_ERR.
cz_expect_err() {
    local desc=$1
    shift
    cz_expect 2 "$desc" "$@" || return 1
    local lines
    lines=$(printf '%s\n' "$RUN_ERR" | grep -vE '^cuzk: [a-z0-9 _-]+ [0-9.]+ ms$' | grep -c .)
    if ! printf '%s' "$RUN_ERR" | grep -q '^cuzk: '; then
        cz_fail "$desc: stderr has no 'cuzk: ...' message"; cz_show; return 1
    fi
    if [ "$lines" -gt 3 ]; then
        cz_fail "$desc: error message is $lines lines long, expected one line"; cz_show; return 1
    fi
    return 0
}

# cz_check DESC CMD...: pass if CMD (a shell predicate) succeeds.
cz_check() {
    local desc=$1
    shift
    if "$@"; then cz_pass "$desc"; else cz_fail "$desc"; return 1; fi
}

cz_finish() {
    echo "$CZ_PASSES passed, $CZ_FAILS failed"
    [ "$CZ_FAILS" = 0 ] || exit 1
    exit 0
}

# ---- iden3 binary files (.zkey .wtns .r1cs) ---------------------------------
# Layout: 4-byte magic, u32 version, u32 section count, then per section
# u32 id, u64 size, data. Little-endian.

cz_u32_at() { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
cz_u64_at() {
    local lo hi
    lo=$(cz_u32_at "$1" "$2"); hi=$(cz_u32_at "$1" $(($2 + 4)))
    echo $((hi * 4294967296 + lo))
}

# cz_sections FILE: one line "id data_offset size" per section, file order.
cz_sections() {
    local f=$1 n off i id size
    n=$(cz_u32_at "$f" 8)
    off=12
    for ((i = 0; i < n; i++)); do
        id=$(cz_u32_at "$f" "$off")
        size=$(cz_u64_at "$f" $((off + 4)))
        echo "$id $((off + 12)) $size"
        off=$((off + 12 + size))
    done
}

# cz_section FILE ID: "data_offset size" of section ID.
cz_section() { cz_sections "$1" | awk -v id="$2" '$1 == id { print $2, $3; exit }'; }

# cz_flip_byte FILE OFFSET [MASK]: XOR one byte in place (default mask 0x01).
cz_flip_byte() {
    local f=$1 off=$2 mask=${3:-1} b
    b=$(od -A n -t u1 -j "$off" -N 1 "$f" | tr -d ' ')
    # shellcheck disable=SC2059
    printf "$(printf '\\%03o' $((b ^ mask)))" |
        dd of="$f" bs=1 seek="$off" count=1 conv=notrunc status=none
}

# cz_reorder_sections SRC DST: DST = SRC with its sections in reverse order
# (readers must index sections by id: snarkjs's tools write different orders).
cz_reorder_sections() {
    local src=$1 dst=$2 id off size
    head -c 12 "$src" >"$dst"
    while read -r id off size; do
        dd if="$src" iflag=skip_bytes,count_bytes bs=65536 skip=$((off - 12)) \
            count=$((size + 12)) status=none >>"$dst" || return 1
    done < <(cz_sections "$src" | tac)
}

# cz_wtns_value FILE INDEX: the witness value as 64 hex digits, little-endian bytes.
cz_wtns_value() {
    local sec
    read -r sec _ < <(cz_section "$1" 2)
    od -A n -v -t x1 -j $((sec + 32 * $2)) -N 32 "$1" | tr -d ' \n'
}

# cz_wtns_count FILE: number of values (section 1: u32 n8, prime, u32 count).
cz_wtns_count() {
    local sec n8
    read -r sec _ < <(cz_section "$1" 1)
    n8=$(cz_u32_at "$1" "$sec")
    cz_u32_at "$1" $((sec + 4 + n8))
}

# cz_zkey_npublic FILE: nPublic from the Groth16 header (section 2).
cz_zkey_npublic() {
    local sec n8q n8r
    read -r sec _ < <(cz_section "$1" 2)
    n8q=$(cz_u32_at "$1" "$sec")
    n8r=$(cz_u32_at "$1" $((sec + 4 + n8q)))
    cz_u32_at "$1" $((sec + 8 + n8q + n8r + 4))
}

# cz_wtns_flip_boolean SRC DST NPUBLIC: copy SRC to DST with the first
# private 0/1 value flipped (0 <-> 1): a witness of the right shape that
# does not satisfy the circuit. Prints the index changed.
cz_wtns_flip_boolean() {
    local src=$1 dst=$2 npub=$3 n i v sec
    cp "$src" "$dst"
    n=$(cz_wtns_count "$src")
    read -r sec _ < <(cz_section "$src" 2)
    for ((i = npub + 1; i < n; i++)); do
        v=$(cz_wtns_value "$src" "$i")
        if [[ $v =~ ^0[01]0{62}$ ]]; then
            cz_flip_byte "$dst" $((sec + 32 * i)) 1
            echo "$i"
            return 0
        fi
    done
    return 1
}

# ---- JSON without node ------------------------------------------------------

# cz_json_tokens FILE: the sorted strings and numbers of a JSON file, one a
# line: equal for two files that hold the same keys and values, whatever
# their key order and whitespace (enough for vk/proof files, no nesting
# ambiguity because every key is distinct).
cz_json_tokens() { grep -oE '"[^"]*"|-?[0-9]+' "$1" | sort; }

# cz_json_same A B: same tokens (see above).
cz_json_same() { [ "$(cz_json_tokens "$1")" = "$(cz_json_tokens "$2")" ]; }

# cz_public_same A B: two public.json arrays hold the same strings in order.
cz_public_same() {
    [ "$(grep -oE '"[^"]*"' "$1")" = "$(grep -oE '"[^"]*"' "$2")" ] &&
    grep -qE '"[^"]*"' "$1"
}

# ---- JSON edits with node (needs the oracle) ---------------------------------

# cz_jsedit CURVE IN OUT JS: OUT = the JSON of IN after running JS on it (as
# `p`), with BigInt helpers over CURVE (bn254 or bls12381): Q (base field),
# R (scalar field), neg(s) = Q - s, inc(s) = s + 1. A JS that changes
# nothing, or fails, is a failed test setup.
cz_jsedit() {
    local q r
    case $1 in
    bn254)
        q=21888242871839275222246405745257275088696311157297823662689037894645226208583n
        r=21888242871839275222246405745257275088548364400416034343698204186575808495617n ;;
    bls12381)
        q=0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn
        r=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n ;;
    *) cz_fail "test setup: cz_jsedit: unknown curve $1"; return 1 ;;
    esac
    node -e '
const fs = require("fs");
const Q = '"$q"';
const R = '"$r"';
const p = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const neg = (s) => ((Q - BigInt(s)) % Q).toString();
const inc = (s) => (BigInt(s) + 1n).toString();
const before = JSON.stringify(p);
'"$4"'
if (JSON.stringify(p) === before) { console.error("jsedit: nothing changed"); process.exit(1); }
fs.writeFileSync(process.argv[2], JSON.stringify(p, null, 1));
' "$2" "$3" || cz_fail "test setup: could not make $3 from $2"
}

# ---- circuits compiled at run time (needs the oracle) --------------------------

# cz_chain_steps LOG2: the N for which tests/circuits/chain.circom fills a
# domain of exactly 2^LOG2: 2N + 1 constraints + 2 public + 1 = 2^LOG2.
cz_chain_steps() { echo $(( (1 << $1) / 2 - 2 )); }

# cz_make_chain DIR N [PRIME]: compile Chain(N) for BLS12-381 (or circom's
# PRIME, e.g. bn128) in DIR and compute its witness: DIR/chain.r1cs,
# DIR/chain.wtns (input x0 = 5, c = 7).
cz_make_chain() {
    local dir=$1 n=$2 prime=${3:-bls12381}
    mkdir -p "$dir"
    cp "$SRC/tests/circuits/chain.circom" "$dir/chain_lib.circom"
    printf 'pragma circom 2.0.0;\ninclude "chain_lib.circom";\ncomponent main {public [c]} = Chain(%d);\n' \
        "$n" >"$dir/chain.circom"
    echo '{"x0": "5", "c": "7"}' >"$dir/input.json"
    (cd "$dir" && circom2 --prime "$prime" --r1cs --wasm -o . chain.circom >circom.log 2>&1) ||
        { cat "$dir/circom.log" >&2; return 1; }
    snarkjs wtns calculate "$dir/chain_js/chain.wasm" "$dir/input.json" "$dir/chain.wtns"
}
