#!/usr/bin/env bash
# make_fixtures.sh: regenerate the committed interop fixtures in tests/fixtures/
# with the reference tools (circom2 + snarkjs from tools/oracle/node_modules).
#
#   tools/make_fixtures.sh [OUTDIR]     (default: tests/fixtures)
#
# What it makes, and why each file exists:
#   small.r1cs, small.wtns        tests/circuits/small.circom on BLS12-381 and
#                                 its witness for small_input.json
#   small.zkey, small_vk.json     a snarkjs Groth16 key from a snarkjs
#                                 powers-of-tau ceremony at 2^POWER
#   small_proof.json,
#   small_public.json             a reference proof made by snarkjs
#   bn254/small.{zkey,wtns,vk}    the same circuit on BN254 (wrong-curve tests)
#   chain64.{r1cs,wtns}           tests/circuits/chain.circom with N=64: a
#                                 second circuit (wrong-length witness tests,
#                                 cuzk setup on an r1cs without node)
#
# The ceremony uses beacons (snarkjs "powersoftau beacon" and "zkey beacon")
# instead of "contribute": snarkjs mixes OS randomness into every contribute,
# even with -e, while a beacon is a pure function of its hash, so every file
# here except the snarkjs proof (random r, s) is reproducible byte for byte.
# The keys are test fixtures: their toxic waste is public by construction.
#
# The BLS12-381 ceremony is slow in snarkjs (prepare phase2 is the bulk), so
# the power is kept small; bigger keys are made at test time by `cuzk setup`.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/tests/fixtures}
POWER=${POWER:-8}
NODE_MODULES=$ROOT/tools/oracle/node_modules
CIRCOM=(node "$NODE_MODULES/circom2/cli.js")
SNARKJS=(node "$NODE_MODULES/snarkjs/build/cli.cjs")
# A fixed, public beacon (sha256 of "cuzk test fixtures"): the toxic waste of
# these keys is derived from it, which is fine for fixtures and only for them.
BEACON=$(printf 'cuzk test fixtures' | sha256sum | cut -d' ' -f1)
BEACON_ITER=10

[ -f "$NODE_MODULES/snarkjs/build/cli.cjs" ] || {
    echo "make_fixtures: snarkjs missing: run scripts/setup.sh" >&2; exit 1; }

mkdir -p "$OUT/bn254"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/cuzk-fixtures.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

step() { echo "make_fixtures: $*" >&2; }
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# ceremony PRIME_NAME CURVE_NAME: circuit, witness, key, vk and a proof in $PWD.
# circom2 runs under WASI and only sees paths below the working directory's
# ancestors, so sources are copied in and given as relative paths.
ceremony() {
    local prime=$1 curve=$2 t0
    cp "$ROOT/tests/circuits/small.circom" "$ROOT/tests/fixtures/small_input.json" .
    step "[$curve] compile small.circom (--prime $prime)"
    "${CIRCOM[@]}" --prime "$prime" --r1cs --wasm -o . small.circom >circom.log 2>&1 ||
        { cat circom.log >&2; exit 1; }
    "${SNARKJS[@]}" wtns calculate small_js/small.wasm small_input.json small.wtns
    "${SNARKJS[@]}" wtns check small.r1cs small.wtns >/dev/null
    t0=$(now)
    step "[$curve] powers of tau at 2^$POWER"
    "${SNARKJS[@]}" powersoftau new "$curve" "$POWER" pot_0.ptau >/dev/null
    "${SNARKJS[@]}" powersoftau beacon pot_0.ptau pot_1.ptau "$BEACON" "$BEACON_ITER" \
        -n="cuzk fixtures beacon" >/dev/null
    "${SNARKJS[@]}" powersoftau prepare phase2 pot_1.ptau pot_final.ptau >/dev/null
    step "[$curve] ptau took $(took "$t0") s"
    t0=$(now)
    "${SNARKJS[@]}" groth16 setup small.r1cs pot_final.ptau small_0.zkey >/dev/null
    "${SNARKJS[@]}" zkey beacon small_0.zkey small.zkey "$BEACON" "$BEACON_ITER" \
        -n="cuzk fixtures zkey beacon" >/dev/null
    "${SNARKJS[@]}" zkey verify small.r1cs pot_final.ptau small.zkey >/dev/null
    "${SNARKJS[@]}" zkey export verificationkey small.zkey small_vk.json >/dev/null
    step "[$curve] phase 2 took $(took "$t0") s"
    "${SNARKJS[@]}" groth16 prove small.zkey small.wtns small_proof.json small_public.json
    "${SNARKJS[@]}" groth16 verify small_vk.json small_public.json small_proof.json >/dev/null
}

T_ALL=$(now)
mkdir bls && (cd bls && ceremony bls12381 bls12381)
cp bls/small.r1cs bls/small.zkey bls/small.wtns bls/small_vk.json \
   bls/small_proof.json bls/small_public.json "$OUT/"

mkdir bn && (cd bn && ceremony bn128 bn128)
cp bn/small.zkey bn/small.wtns bn/small_vk.json "$OUT/bn254/"

step "[bls12381] chain64"
mkdir chain && (
    cd chain
    cp "$ROOT/tests/circuits/chain.circom" .
    printf 'pragma circom 2.0.0;\ninclude "chain.circom";\ncomponent main {public [c]} = Chain(64);\n' >chain64.circom
    "${CIRCOM[@]}" --prime bls12381 --r1cs --wasm -o . chain64.circom >circom.log 2>&1 ||
        { cat circom.log >&2; exit 1; }
    echo '{"x0": "5", "c": "7"}' >input.json
    "${SNARKJS[@]}" wtns calculate chain64_js/chain64.wasm input.json chain64.wtns
    "${SNARKJS[@]}" wtns check chain64.r1cs chain64.wtns >/dev/null
    cp chain64.r1cs chain64.wtns "$OUT/"
)

step "done in $(took "$T_ALL") s; files in $OUT:"
(cd "$OUT" && ls -l small.* small_* chain64.* bn254/ && du -sh .) >&2
