#!/usr/bin/env bash
# ctest: labels=slow timeout=900
# 1,000 small jobs through cuzkd without memory growth: the daemon's RSS
# after the last job stays within a few MiB of its RSS after the first
# 200 (finished jobs are forgotten after retain_jobs; nothing leaks per
# job). A tiny key from cuzk-synth + cuzk setup keeps each proof short.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

cz_expect 0 "synthetic 16-constraint circuit" "$BIN/cuzk-synth" --constraints 16 "$TMP/t.r1cs" "$TMP/t.wtns"
cz_expect 0 "its key (cuzk setup)" "$CUZK" setup --quiet --seed 7 "$TMP/t.r1cs" "$TMP/t.zkey" "$TMP/t_vk.json"
cz_daemon_start soak --key tiny="$TMP/t.zkey" --set engine.prove_threads=1 || cz_finish
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$DPID/status"; }
cz_expect 0 "200 jobs (warm-up)" "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key tiny --witness "$TMP/t.wtns" -c 200 -j 8
r1=$(rss)
cz_expect 0 "1000 more jobs" "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key tiny --witness "$TMP/t.wtns" -c 1000 -j 8 --upload
r2=$(rss)
echo "cuzkd VmRSS: ${r1} KiB after 200 jobs, ${r2} KiB after 1200"
cz_check "RSS grew by less than 16 MiB over 1000 jobs (${r1} -> ${r2} KiB)" test $((r2 - r1)) -lt 16384
done_count=$(api GET /metrics | awk -F' ' '/^cuzk_jobs_finished_total\{status="done"\}/ { print $2 }')
cz_check "the daemon counted 1200 proofs done (got $done_count)" test "$done_count" = 1200
cz_expect 0 "a proof from the end of the run verifies" \
    "$BENCH" --addr "unix:$SOCK" single --key tiny --witness "$TMP/t.wtns" --out "$TMP/o"
cz_expect 0 "cuzk verify" "$CUZK" verify --quiet "$TMP/t_vk.json" "$TMP/o/public-1.json" "$TMP/o/proof-1.json"
cz_daemon_stop
cz_finish
