#!/usr/bin/env bash
# ctest: labels=slow timeout=3000
# cuzkd's memory over a long run: CZ_SOAK_JOBS proofs of the small
# fixture circuit (default 20,000) in 20 rounds, each round a cuzk-bench
# batch on fresh connections (half with uploaded witnesses, half by path;
# CZ_SOAK_CONC in flight, default 50, so the daemon's connection threads
# come and go as under a farm's load), and one upload of a 2 MB witness
# (of another circuit: answered 422 once read and parsed) per 10 proofs,
# 50 at a time: large bodies freed by many threads are what made glibc's
# arenas keep memory (docs/PERF.md). The daemon's VmRSS is recorded
# after every round, printed as a series, and must level off: the median of
# the last 5 samples is at most max(12 MiB, 25%) above the median of samples
# 6 to 10 (a trend, not the noise of uploads in flight or of the witness
# pool's idle buffers: samples swing by +-6 MB here; the growth this test
# was written for, 8 KB a proof, is 80 MB between those windows over
# 20,000 jobs), and the last 5 but their highest (one sample taken while
# uploads are in flight stands out upward: +15 MB seen) lie within
# max(16 MiB, 50%) of each other. Under AddressSanitizer the allocator's
# quarantine is kept small (16 MiB) so that it fills in the first rounds.
# Every job must be done, and a proof from the end of the run verifies.
# tests/test_daemon_rss_soak_short.sh runs it with 2,000 jobs in the unit
# suite; docs/PERF.md ("cuzkd memory over 20,000 jobs") has a full run.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

JOBS=${CZ_SOAK_JOBS:-20000}
CONC=${CZ_SOAK_CONC:-50}
ROUNDS=20
PER=$((JOBS / ROUNDS))
[ "$PER" -ge 10 ] || { cz_fail "CZ_SOAK_JOBS must be at least 200"; cz_finish; }

WTNS=$FIX/small.wtns
cz_expect 0 "a 2 MB witness of a 60,000-constraint circuit (for uploads)" \
    "$BIN/cuzk-synth" --constraints 60000 "$TMP/big.r1cs" "$TMP/big.wtns"
if grep -qE "^CUZK_SANITIZE:STRING=.+" "$BUILD/CMakeCache.txt" 2>/dev/null; then  # a sanitizer build
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16
fi
cz_daemon_start soak --key small="$FIX/small.zkey" || cz_finish
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$DPID/status"; }

series=()
bad=0
t0=$(date +%s)
for ((r = 1; r <= ROUNDS; r++)); do
    up=()
    [ $((r % 2)) = 0 ] && up=(--upload)
    if ! "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" \
        -c "$PER" -j "$CONC" "${up[@]}" >"$TMP/round.log" 2>&1; then
        bad=$((bad + 1))
        tail -5 "$TMP/round.log" >&2
    fi
    seq $((PER / 10)) | xargs -P 50 -I{} curl -s --unix-socket "$SOCK" -o /dev/null -w '%{http_code}\n' \
        -H 'Content-Type: application/octet-stream' --data-binary "@$TMP/big.wtns" \
        'http://x/v1/proofs?key=small' >"$TMP/up.codes"
    n422=$(grep -c '^422$' "$TMP/up.codes")
    [ "$n422" = $((PER / 10)) ] || { bad=$((bad + 1)); echo "round $r: $n422 of $((PER / 10)) uploads answered 422" >&2; }
    series+=("$(rss)")
    echo "round $r: $((r * PER)) jobs, VmRSS ${series[-1]} KiB ($(($(date +%s) - t0)) s)"
done
cz_check "every round completed all its jobs and had its uploads refused 422 ($bad rounds with failures)" test "$bad" = 0
echo "RSS series (KiB, one sample per $PER jobs): ${series[*]}"
echo "{\"test\":\"rss_soak\",\"jobs\":$JOBS,\"per_sample\":$PER,\"concurrency\":$CONC,\"rss_kib\":[$(IFS=,; echo "${series[*]}")]}"
# medians, not means: a sample taken while many uploads are in flight
# stands out by megabytes, and one such spike must not move the trend
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
mid=$(median "${series[@]:5:5}")
end=$(median "${series[@]: -5}")
band=$((mid / 4))
[ "$band" -lt 12288 ] && band=12288
cz_check "RSS levels off: the median of the last 5 samples ($end KiB) is within $band KiB above that of samples 6-10 ($mid KiB)" \
    test $((end - mid)) -le "$band"
# the last 5 sorted, the highest left out (a spike of uploads in flight)
mapfile -t low4 < <(printf '%s\n' "${series[@]: -5}" | sort -n | head -4)
mn=${low4[0]} mx=${low4[3]}
spread=$((mx / 2))
[ "$spread" -lt 16384 ] && spread=16384
cz_check "RSS levels off: the last 5 samples but the highest lie within $spread KiB ($mn..$mx KiB)" \
    test $((mx - mn)) -le "$spread"
done_count=$(api GET /metrics | awk '/^cuzk_jobs_finished_total\{status="done"\}/ { print $2 }')
cz_check "the daemon counted $((ROUNDS * PER)) proofs done (got $done_count)" test "$done_count" = $((ROUNDS * PER))
cz_expect 0 "a proof from the end of the run" \
    "$BENCH" --addr "unix:$SOCK" single --key small --witness "$WTNS" --out "$TMP/o"
cz_expect 0 "it verifies (cuzk verify)" "$CUZK" verify --quiet "$FIX/small_vk.json" "$TMP/o/public-1.json" "$TMP/o/proof-1.json"
cz_daemon_stop
cz_finish
