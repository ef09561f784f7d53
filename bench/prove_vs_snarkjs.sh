#!/usr/bin/env bash
# prove_vs_snarkjs.sh: time `cuzk prove` against `snarkjs groth16 prove` on
# the same key and witness, in the same run, on chain circuits of 2^k
# constraints (tests/circuits/chain.circom: half the witness is 0/1 values).
#
#   bench/prove_vs_snarkjs.sh [-b BUILD_DIR] [-r REPS] [-t THREADS]
#                             [-c bls12381|bn128] [-p PTAU] [LOG2 ...]
#       default: -b build -r 1 -c bls12381, LOG2 = 12 14 16
#
# Per size: circom2 compiles Chain(N) with 2N + 1 + 3 = 2^k (domain 2^k),
# snarkjs computes the witness, `cuzk setup --seed k` makes the key (snarkjs's
# own ceremony is far too slow at these sizes); with -c bn128 the circuit is
# compiled for BN254 (circom's default prime) and the key is cuzk setup's
# too (a snarkjs bn128 .zkey), or, with -p PTAU, snarkjs's `groth16 setup`
# over PTAU, a bn128 powers-of-tau file prepared for phase 2 of power >=
# every LOG2 (see docs/CURVES.md for one made with snarkjs); either way
# both provers use the same key. Then each prover
# runs REPS times under /usr/bin/time -v (wall time of the whole process,
# key loading included, and peak RSS; the median run is reported), and
# snarkjs verifies both proofs. Output: a table, then one JSON line per size:
# {"bench":"prove","curve":..,"constraints":..,"cuzk_ms":..,"snarkjs_ms":..,"ratio":..,
#  "cuzk_peak_rss_mb":..,"snarkjs_peak_rss_mb":..,"cuzk_prove_stage_ms":..,
#  "threads":..,"load1":..,"key":"cuzk-setup"|"snarkjs-ptau","commit":..}
# ratio = snarkjs_ms / cuzk_ms (how many times faster cuzk is), both wall
# times of the whole process; cuzk_prove_stage_ms is cuzk's own "prove"
# stage (from --json: witness and key in memory to proof, no file I/O);
# load1 is the 1-minute load average when the size finished (the numbers are
# only comparable between runs on a quiet machine).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
REPS=1
THREADS=
CURVE=bls12381
PTAU=
while getopts "b:r:t:c:p:h" o; do
    case $o in
        b) BUILD=$(cd "$OPTARG" && pwd) ;;
        r) REPS=$OPTARG ;;
        t) THREADS=$OPTARG ;;
        c) CURVE=$OPTARG ;;
        p) PTAU=$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG") ;;
        *) sed -n '2,28p' "$0"; exit 2 ;;
    esac
done
case $CURVE in
    bls12381) ;;
    bn128)
        [ -z "$PTAU" ] || [ -f "$PTAU" ] ||
            { echo "bench: -p $PTAU: no such file (a prepared bn128 powers of tau)" >&2; exit 2; } ;;
    *) echo "bench: -c wants bls12381 or bn128, got $CURVE" >&2; exit 2 ;;
esac
shift $((OPTIND - 1))
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(12 14 16)

export SRC=$ROOT  # read by the helpers of tests/lib.sh
NODE_MODULES=$ROOT/tools/oracle/node_modules
CUZK=$BUILD/bin/cuzk
# shellcheck source=../tests/lib.sh
source "$ROOT/tests/lib.sh"
set -e

[ -x "$CUZK" ] || { echo "bench: $CUZK not built" >&2; exit 1; }
command -v node >/dev/null && [ -f "$NODE_MODULES/snarkjs/build/cli.cjs" ] ||
    { echo "bench: node/snarkjs missing: run scripts/setup.sh" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) missing" >&2; exit 1; }

WORK=$(mktemp -d /tmp/cuzk-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] || COMMIT=$COMMIT-dirty
KEYSRC=cuzk-setup
[ "$CURVE" = bn128 ] && [ -n "$PTAU" ] && KEYSRC=snarkjs-ptau
TOPT=()
[ -n "$THREADS" ] && TOPT=(--threads "$THREADS")
SNARKJS_CLI=$NODE_MODULES/snarkjs/build/cli.cjs

# timed OUTFILE CMD...: run under GNU time; echo "wall_ms rss_kb" (wall
# time from the shell's clock: GNU time only has 10 ms resolution).
timed() {
    local log=$1 t0 t1
    shift
    t0=$(date +%s%N)
    /usr/bin/time -v -o "$log.time" "$@" >"$log" 2>&1 ||
        { echo "bench: FAILED: $*" >&2; cat "$log" "$log.time" >&2; exit 1; }
    t1=$(date +%s%N)
    awk -v ms=$(( (t1 - t0) / 1000000 )) '/Maximum resident set size/ { rss = $NF }
         END { printf "%d %d\n", ms, rss }' "$log.time"
}

# median of the first field over lines "ms rss": prints that line
median() { sort -n | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'; }

echo "bench: prove_vs_snarkjs, $CURVE, key $KEYSRC, commit $COMMIT, $(nproc) cores, reps $REPS, sizes 2^${SIZES[*]}" >&2
RESULTS=()
for k in "${SIZES[@]}"; do
    d=$WORK/$k
    n=$(cz_chain_steps "$k")
    echo "bench: 2^$k: compile Chain($n), witness" >&2
    cz_make_chain "$d" "$n" "$CURVE" >/dev/null
    cons=$(( 2 * n + 1 ))
    if [ "$CURVE" = bn128 ] && [ -n "$PTAU" ]; then
        echo "bench: 2^$k: snarkjs groth16 setup (bn128)" >&2
        read -r setup_ms _ < <(timed "$d/setup.log" node "$SNARKJS_CLI" groth16 setup \
            "$d/chain.r1cs" "$PTAU" "$d/key.zkey")
        node "$SNARKJS_CLI" zkey export verificationkey "$d/key.zkey" "$d/vk.json" >/dev/null
    else
        echo "bench: 2^$k: cuzk setup ($CURVE)" >&2
        read -r setup_ms _ < <(timed "$d/setup.log" "$CUZK" setup --quiet "${TOPT[@]}" --seed "$k" \
            "$d/chain.r1cs" "$d/key.zkey" "$d/vk.json")
    fi
    c_runs=() s_runs=()
    for ((i = 0; i < REPS; i++)); do
        echo "bench: 2^$k: cuzk prove, run $((i + 1))" >&2
        read -r c_ms c_rss < <(timed "$d/cuzk.log" "$CUZK" prove --quiet --json "${TOPT[@]}" \
            "$d/key.zkey" "$d/chain.wtns" "$d/cproof.json" "$d/cpublic.json")
        # cuzk's own "prove" stage (witness in memory to proof, no I/O)
        c_in=$(grep -oE '"prove":[0-9.]+' "$d/cuzk.log" | head -1 | cut -d: -f2)
        c_runs+=("$c_ms $c_rss ${c_in:-0}")
        echo "bench: 2^$k: snarkjs groth16 prove, run $((i + 1))" >&2
        s_runs+=("$(timed "$d/snarkjs.log" node "$SNARKJS_CLI" groth16 prove \
            "$d/key.zkey" "$d/chain.wtns" "$d/sproof.json" "$d/spublic.json")")
        for who in c s; do
            node "$SNARKJS_CLI" groth16 verify "$d/vk.json" "$d/${who}public.json" "$d/${who}proof.json" >/dev/null ||
                { echo "bench: snarkjs rejects the ${who/c/cuzk} proof at 2^$k" >&2; exit 1; }
        done
    done
    read -r c_ms c_rss c_in < <(printf '%s\n' "${c_runs[@]}" | median)
    read -r s_ms s_rss < <(printf '%s\n' "${s_runs[@]}" | median)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    RESULTS+=("$k $cons $setup_ms $c_ms $s_ms $c_rss $s_rss $c_in $load1")
done

printf '\n%-6s %11s %9s %9s %10s %11s %7s %8s %10s %6s\n' size constraints setup_ms cuzk_ms prove_ms snarkjs_ms ratio cuzk_MB snarkjs_MB load1
for r in "${RESULTS[@]}"; do
    read -r k cons setup_ms c_ms s_ms c_rss s_rss c_in load1 <<<"$r"
    awk -v k="$k" -v n="$cons" -v su="$setup_ms" -v c="$c_ms" -v s="$s_ms" -v cr="$c_rss" -v sr="$s_rss" -v ci="$c_in" -v l="$load1" \
        'BEGIN { printf "2^%-4s %11d %9d %9d %10.1f %11d %7.2f %8.1f %10.1f %6.2f\n", k, n, su, c, ci, s, (c > 0 ? s / c : 0), cr / 1024, sr / 1024, l }'
done
echo
for r in "${RESULTS[@]}"; do
    read -r k cons setup_ms c_ms s_ms c_rss s_rss c_in load1 <<<"$r"
    awk -v n="$cons" -v c="$c_ms" -v s="$s_ms" -v cr="$c_rss" -v sr="$s_rss" -v ci="$c_in" -v l="$load1" \
        -v th="${THREADS:-$(nproc)}" -v cm="$COMMIT" -v cv="$CURVE" -v ks="$KEYSRC" \
        'BEGIN { printf "{\"bench\":\"prove\",\"curve\":\"%s\",\"constraints\":%d,\"cuzk_ms\":%d,\"snarkjs_ms\":%d,\"ratio\":%.2f,\"cuzk_peak_rss_mb\":%.1f,\"snarkjs_peak_rss_mb\":%.1f,\"cuzk_prove_stage_ms\":%.1f,\"threads\":%d,\"load1\":%.2f,\"key\":\"%s\",\"commit\":\"%s\"}\n", cv, n, c, s, (c > 0 ? s / c : 0), cr / 1024, sr / 1024, ci, th, l, ks, cm }'
done
