#!/usr/bin/env bash
# device_msm.sh: the MSM on one GPU machine, in one call: build, check the
# MSM kernels bit for bit against the CPU (test_gpu_msm, test_gpu_prove,
# test_gpu_native, under each setting of AB), time them (bench-gpu: each
# setting, window widths, PoRep-like scalars, phase profile; another tree's
# bench-gpu beside this one's), then a porep-32g partition or two in one process
# (bench-native) with the phase profile. Logs under $OUT (msm.log, and the
# rest in logs.tgz: only a few files come back from a call).
#
#   scripts/device_msm.sh [PHASE...]     (default: build test bench native)
#
# Phases: build (the MSM, NTT and decompression tests, bench-gpu,
# bench-native, the CLI, cuzkd and cuzk-bench for scripts/device_porep.sh;
# with OLD, a tree to compare with, its bench-gpu too, built alongside),
# test (TESTS, a ctest regex, under each AB setting), bench (G1 and G2
# MSMs under each AB setting), old (bench-gpu of this tree and of OLD, same
# sizes, same call; also G2, the NTT, the H step and PoRep-like scalars
# unless OLD_MORE=0; OLD_MSM_MAX, the largest G1 size there, 24), ntt (the
# NTT and the H step at 2^NTT_LOG under each CUZK_NTT_VARIANT of
# NTT_VARIANTS, H fused and not), decomp (points per
# second decompressed on the GPU and the CPU, bench-native on porep-8m),
# native, fpmul (bench-fpmul: the Fp product on the IMAD and FP64 pipes,
# with the SASS instruction counts of its kernels), bn254 (bench-gpu
# --curve bn254: BN254's MSMs, NTTs and H step).
# Environment: BUILD_ONLY (targets, instead of all of the above: e.g.
# bench-fpmul for a quick fpmul call), MSM_MAX (largest G1 size, log2; 27), G2_MAX (22; empty: no
# G2 rows), WSWEEP (window sweep sizes, each under every AB setting; 26;
# empty: none; WSWEEP_C, the widths as LO-HI; SWEEP_PROFILE=1 adds each width's phase profile), PARTS (bench-native partitions; 2), AB (the
# settings compared, as VAR=value words, several joined by commas, "-" for
# none; "-"), OLD (the
# other tree's folder, e.g. a `git archive` of an older commit), TESTS
# (ctest regex; 'test_gpu_(msm|prove|native)'), TEST_TIMEOUT (s, 200),
# NTT_VARIANTS (names; "r2v10s r2v10 r2vs"), NTT_LOG (27),
# BN_SWEEP (BN254 G1 window sweep sizes in the bn254 phase; none), BN_AB
# (settings as AB's, each timing BN254's G1 MSMs alone from 2^BN_MIN to
# 2^BN_MAX, 24 and 26, instead of the whole bn254 bench), BN_PROVE
# (log2 sizes of a bn128 proof with the key resident, e.g. 20; none).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/cuzk-msm-out}
BUILD=${BUILD:-/tmp/cuzk-build}
PFX=${PFX:-/tmp/cuzk-deps}
MSM_MAX=${MSM_MAX:-27}
G2_MAX=${G2_MAX:-22}
WSWEEP=${WSWEEP-26}
PARTS=${PARTS:-2}
AB=${AB:-"-"}
OLD=${OLD:-}
TESTS=${TESTS:-'test_gpu_(msm|prove|native)'}
TEST_TIMEOUT=${TEST_TIMEOUT:-200}
NTT_VARIANTS=${NTT_VARIANTS:-"r2v10s r2v10 r2vs"}
NTT_LOG=${NTT_LOG:-27}
PHASES=("$@")
[ ${#PHASES[@]} -gt 0 ] || PHASES=(build test bench native)
mkdir -p "$OUT/logs"
exec > >(tee -a "$OUT/msm.log") 2>&1
has() { local p; for p in "${PHASES[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
T0=$(date +%s)
stamp() { echo "== $* $(date -u +%T) (+$(($(date +%s) - T0)) s)"; }
finish() { tar -czf "$OUT/logs.tgz" -C "$OUT" logs 2>/dev/null && rm -rf "$OUT/logs"; }
trap finish EXIT
echo "== device_msm $(date -u +%FT%TZ) commit ${CZ_COMMIT:-unknown} phases ${PHASES[*]}"

. "$ROOT/scripts/device_deps.sh"
cz_device_build_deps "$PFX"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
BIN=$BUILD/bin
rc=0

if has build; then
    stamp build
    if [ -n "$OLD" ]; then
        (cmake -S "$OLD" -B "$BUILD-old" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON &&
            cmake --build "$BUILD-old" -j "$(nproc)" --target bench-gpu) >"$OUT/logs/build-old.log" 2>&1 &
        oldpid=$!
    fi
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON >"$OUT/logs/configure.log" 2>&1 ||
        { tail -30 "$OUT/logs/configure.log"; exit 1; }
    extra=
    [ -f "$ROOT/tests/test_gpu_bn254.c" ] && extra="$extra test_gpu_bn254"
    [ -f "$ROOT/tests/test_gpu_field.c" ] && extra="$extra test_gpu_field"
    [ -f "$ROOT/bench/fpmul_gpu.cu" ] && extra="$extra bench-fpmul"
    targets="test_gpu_msm test_gpu_prove test_gpu_native test_gpu_ntt test_gpu_decompress bench-gpu bench-native"
    targets="$targets cuzk-synth cuzk-cli cuzkd cuzk-bench $extra"
    [ -n "${BUILD_ONLY:-}" ] && targets=$BUILD_ONLY
    # shellcheck disable=SC2086
    cmake --build "$BUILD" -j "$(nproc)" --target $targets \
        >"$OUT/logs/build.log" 2>&1 ||
        { grep -E "error" "$OUT/logs/build.log" | head -30; exit 1; }
    cuobjdump -res-usage "$BUILD"/cuda/libcuzk_cuda.a 2>/dev/null |
        grep -A1 -E "Function .*k_accumulate" | cut -c1-160 >"$OUT/logs/regs.txt"
    grep -B1 -E "REG|STACK" "$OUT/logs/regs.txt" | head -20
    if [ -n "$OLD" ]; then
        wait "$oldpid" || { echo "the old tree's build failed"; tail -5 "$OUT/logs/build-old.log"; }
    fi
    stamp built
fi

envs() { [ "$1" = "-" ] || echo "${1//,/ }"; } # VAR=v,VAR2=w: both
if has test; then
    for a in $AB; do
        stamp "test $a"
        (cd "$BUILD" && env $(envs "$a") timeout "$TEST_TIMEOUT" ctest -R "$TESTS" \
            --output-on-failure -V) >"$OUT/logs/test-$a.log" 2>&1 || rc=1
        grep -E "tests passed|\[  FAILED|\[  PASSED|SKIPPED|differs|failed|Passed|Failed" \
            "$OUT/logs/test-$a.log" | head -20
    done
fi

if has old && [ -x "$BUILD-old/bin/bench-gpu" ]; then
    # the G1 MSMs twice, interleaved; then (OLD_MORE=1, the default) the G2
    # MSMs, the NTT and H step at 2^NTT_LOG and the PoRep-like scalars once
    # a tree
    for r in 1 2; do
        for t in new old; do
            b=$BUILD/bin/bench-gpu
            [ $t = old ] && b=$BUILD-old/bin/bench-gpu
            stamp "bench-gpu of the $t tree, run $r"
            timeout 60 "$b" --only msm --msm-min 20 --msm-max "${OLD_MSM_MAX:-24}" --reps 3 2>&1 >/dev/null |
                grep -vE "^#" | grep dev | sed "s/^/$t /"
        done
    done
    if [ "${OLD_MORE:-1}" = 1 ]; then
        for t in new old; do
            b=$BUILD/bin/bench-gpu
            [ $t = old ] && b=$BUILD-old/bin/bench-gpu
            stamp "bench-gpu of the $t tree: G2, NTT, H, PoRep-like"
            timeout 60 "$b" --only g2 --msm-min 20 --g2-max 21 --reps 3 2>&1 >/dev/null |
                grep -vE "^#" | sed "s/^/$t /"
            timeout 60 "$b" --only ntt,h --ntt-min "$NTT_LOG" --ntt-max "$NTT_LOG" --h-min "$NTT_LOG" \
                --h-max "$NTT_LOG" --reps 3 2>&1 >/dev/null | grep -vE "^#" | sed "s/^/$t /"
            timeout 60 "$b" --only bits --bits 27 --bits-g2 33100000 --bits-general 0 --reps 3 2>&1 >/dev/null |
                grep -vE "^#" | sed "s/^/$t /"
        done
    fi
fi

if has bench; then
    for a in $AB; do
        stamp "bench $a"
        env $(envs "$a") CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 150 "$BIN/bench-gpu" --only msm \
            --msm-min 20 --msm-max "$MSM_MAX" --reps 3 \
            >"$OUT/logs/bench-$a.jsonl" 2>"$OUT/logs/bench-$a.txt" || rc=1
        [ -z "$G2_MAX" ] || env $(envs "$a") CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 100 "$BIN/bench-gpu" \
            --only g2 --msm-min 20 --g2-max "$G2_MAX" --reps 3 \
            >>"$OUT/logs/bench-$a.jsonl" 2>>"$OUT/logs/bench-$a.txt" || rc=1
        grep -vE "^#" "$OUT/logs/bench-$a.txt" | head -30
    done
    stamp "PoRep-like scalars"
    CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 100 "$BIN/bench-gpu" --only bits --bits 27 --bits-g2 33100000 \
        --bits-general 0 --reps 3 >"$OUT/logs/bench-bits.jsonl" 2>"$OUT/logs/bench-bits.txt" || rc=1
    grep -vE "^#" "$OUT/logs/bench-bits.txt" | head -10
    for lg in $WSWEEP; do
        for a in $AB; do
            stamp "window sweep 2^$lg $a"
            env $(envs "$a") CUZK_GPU_PROFILE=${SWEEP_PROFILE:-0} CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 150 \
                "$BIN/bench-gpu" --only msm --msm-min "$lg" --msm-max "$lg" --wsweep "$lg" ${WSWEEP_C:+--wsweep-c "$WSWEEP_C"} --reps 2 \
                >"$OUT/logs/bench-sweep-$lg-$a.jsonl" 2>"$OUT/logs/bench-sweep-$lg-$a.txt" || rc=1
            grep -vE "^#" "$OUT/logs/bench-sweep-$lg-$a.txt" | head -20
            [ "${SWEEP_PROFILE:-0}" = 0 ] ||
                grep -E "^# gpu profile msm" "$OUT/logs/bench-sweep-$lg-$a.txt" | awk 'NR % 3 == 0' | cut -c1-300
        done
    done
    stamp "profile 2^$MSM_MAX"
    CUZK_GPU_PROFILE=1 timeout 60 "$BIN/bench-gpu" --only msm --msm-min "$MSM_MAX" --msm-max "$MSM_MAX" \
        --reps 1 >/dev/null 2>"$OUT/logs/profile.txt" || rc=1
    grep -iE "msm g1|accum|sort|fixup|bucket" "$OUT/logs/profile.txt" | tail -12
fi

if has ntt; then
    for v in $NTT_VARIANTS; do
        for f in 1 0; do
            stamp "ntt variant $v, H fused $f"
            CUZK_NTT_VARIANT=$v CUZK_NTT_H_FUSE=$f CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 60 "$BIN/bench-gpu" \
                --only ntt,h --ntt-min "$NTT_LOG" --ntt-max "$NTT_LOG" --h-min "$NTT_LOG" --h-max "$NTT_LOG" \
                --reps 3 >"$OUT/logs/ntt-$v-$f.jsonl" 2>"$OUT/logs/ntt-$v-$f.txt" || rc=1
            grep -vE "^#" "$OUT/logs/ntt-$v-$f.txt" | sed "s/^/$v h_fuse=$f /" | head -8
            [ $f = 1 ] && [ "${NTT_UNFUSED:-0}" = 0 ] && break
        done
    done
    stamp "ntt profile (default variant)"
    CUZK_GPU_PROFILE=1 timeout 40 "$BIN/bench-gpu" --only ntt,h --ntt-min "$NTT_LOG" --ntt-max "$NTT_LOG" \
        --h-min "$NTT_LOG" --h-max "$NTT_LOG" --reps 1 >/dev/null 2>"$OUT/logs/ntt-profile.txt" || rc=1
    grep -E "^# gpu profile" "$OUT/logs/ntt-profile.txt" | tail -8
fi

if has decomp; then
    stamp "decompression (bench-native porep-8m)"
    timeout 120 "$BIN/bench-native" --preset porep-8m --device cuda --partitions 1 \
        >"$OUT/logs/decomp.jsonl.txt" 2>"$OUT/logs/decomp.err" || { rc=1; tail -5 "$OUT/logs/decomp.err"; }
    grep -iE "decomp" "$OUT/logs/decomp.jsonl.txt" | head -6
    grep -E "nkey|decompress" "$OUT/logs/decomp.err" | head -5
fi

if has native; then
    stamp "native porep-32g, $PARTS partitions"
    CUZK_GPU_PROFILE=1 /usr/bin/time -v timeout 300 "$BIN/bench-native" --preset porep-32g --device cuda \
        --partitions "$PARTS" >"$OUT/logs/native.jsonl.txt" 2>"$OUT/logs/native.err" ||
        { rc=1; tail -30 "$OUT/logs/native.err"; }
    grep -v '^{' "$OUT/logs/native.jsonl.txt"
    grep -E "Maximum resident|Elapsed" "$OUT/logs/native.err"
    grep -E "msm g1 n=134217|accumulate" "$OUT/logs/native.err" | head -20
fi
if has fpmul && [ -x "$BIN/bench-fpmul" ]; then
    stamp "fpmul"
    CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 120 "$BIN/bench-fpmul" --seconds 2 \
        >"$OUT/fpmul.jsonl" 2>"$OUT/logs/fpmul.txt" || { rc=1; echo "bench-fpmul failed"; }
    grep -vE "^#" "$OUT/logs/fpmul.txt" | head -60
    cuobjdump -sass "$BIN/bench-fpmul" 2>/dev/null | awk '/Function :/ { f = $3 }
        /^ +\/\*[0-9a-f]+\*\/ / { o = $2; if (o ~ /^@/) o = $3; sub(/[.;].*/, "", o); c[f " " o]++ }
        END { for (k in c) print k, c[k] }' | sort >"$OUT/logs/fpmul_sass.txt"
fi

if has bn254 && [ -n "${BN_AB:-}" ]; then
    # BN254's G1 MSMs alone, 2^BN_MIN .. 2^BN_MAX, under each setting
    for a in $BN_AB; do
        stamp "bn254 G1 MSM $a"
        env $(envs "$a") CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 100 "$BIN/bench-gpu" --curve bn254 --only msm \
            --msm-min "${BN_MIN:-24}" --msm-max "${BN_MAX:-26}" --reps 3 >"$OUT/logs/bn254-$a.jsonl" \
            2>"$OUT/logs/bn254-$a.txt" || { rc=1; tail -5 "$OUT/logs/bn254-$a.txt"; }
        grep -vE "^#" "$OUT/logs/bn254-$a.txt" | grep -E "msm|profile|rounds|accumulate|sort" | sed "s/^/$a: /" | head -20
    done
elif has bn254; then
    stamp "bn254 (bench-gpu --curve bn254)"
    CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 200 "$BIN/bench-gpu" --curve bn254 --reps 3 \
        >"$OUT/logs/bn254.jsonl" 2>"$OUT/logs/bn254.txt" || { rc=1; tail -5 "$OUT/logs/bn254.txt"; }
    grep -vE "^#" "$OUT/logs/bn254.txt" | head -40
fi
if has bn254; then
    if [ -n "${BN_PROVE:-}" ]; then
        stamp "bn254 proof, key resident (bench-gpu --only prove --prove-log $BN_PROVE)"
        CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 200 "$BIN/bench-gpu" --curve bn254 --only prove \
            --prove-log "$BN_PROVE" --reps 5 >"$OUT/logs/bn254-prove.jsonl" 2>"$OUT/logs/bn254-prove.txt" ||
            { rc=1; tail -5 "$OUT/logs/bn254-prove.txt"; }
        grep -vE "^#" "$OUT/logs/bn254-prove.txt" | head -30
    fi
    for lg in ${BN_SWEEP:-}; do
        stamp "bn254 window sweep 2^$lg"
        CZ_COMMIT=${CZ_COMMIT:-unknown} timeout 100 "$BIN/bench-gpu" --curve bn254 --only msm --msm-min "$lg" \
            --msm-max "$lg" --wsweep "$lg" ${WSWEEP_C:+--wsweep-c "$WSWEEP_C"} --reps 2 >"$OUT/logs/bn254-sweep-$lg.jsonl" \
            2>"$OUT/logs/bn254-sweep-$lg.txt" || rc=1
        grep -vE "^#" "$OUT/logs/bn254-sweep-$lg.txt" | head -20
    done
fi
stamp "done rc=$rc"
exit $rc
