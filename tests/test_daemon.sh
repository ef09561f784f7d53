#!/usr/bin/env bash
# ctest: labels=unit timeout=600
# cuzkd end to end on the CPU backend: unix socket and loopback TCP, batch
# proofs (every one verified), jobs of several partitions (proofs, a failing
# partition, cancel), priorities, cancel (queued and running),
# overload (429, nothing lost), malformed requests answered 4xx while other
# jobs carry on, status/metrics/timeline, the host witness buffer pool
# (reused, bounded), SIGTERM during work, kill -9.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

KEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json
PORT=$((20000 + $$ % 20000))

# ---- configuration errors -----------------------------------------------------
printf '[engine]\nworkers = 3\n' >"$TMP/bad.ini"
cz_expect 2 "config: unknown setting is refused" "$CUZKD" --config "$TMP/bad.ini" --listen "unix:$TMP/x.sock"
cz_check "config: the message names the file and the setting" grep -q "bad.ini.*workers" "$TMP/.err"
printf '[engine]\nwitness_workers = many\n' >"$TMP/bad2.ini"
cz_expect 2 "config: a bad value is refused" "$CUZKD" --config "$TMP/bad2.ini"
cz_check "config: the message gives the line" grep -q "line 2" "$TMP/.err"
cz_expect 2 "flag: out-of-range value" "$CUZKD" --set engine.devices=65
cz_expect 0 "cuzkd --help" "$CUZKD" --help
cz_expect 0 "cuzkd --help-config" "$CUZKD" --help-config

# A slower key for the tests that need jobs to queue up behind a running one
# (a proof of ~8000 constraints on one thread takes a few hundred ms).
cz_expect 0 "synthetic 8000-constraint circuit" "$BIN/cuzk-synth" --constraints 8000 "$TMP/slow.r1cs" "$TMP/slow.wtns"
cz_expect 0 "its key" "$CUZK" setup --quiet --seed 3 "$TMP/slow.r1cs" "$TMP/slow.zkey"
cz_expect 0 "its verification key" "$CUZK" export-vk "$TMP/slow.zkey" "$TMP/slow_vk.json"

# ---- daemon A: one prove worker on one thread, so queues build up -------------------
cz_daemon_start a --listen "127.0.0.1:$PORT" --key small="$KEY" --key slow="$TMP/slow.zkey" \
    --set engine.prove_threads=1 --set engine.gpu_workers_per_device=1 \
    --set daemon.max_upload=64K || cz_finish
[ "$(curl -s "http://127.0.0.1:$PORT/v1/health" | jq -r .ok)" = true ] &&
    cz_pass "health over TCP" || cz_fail "health over TCP"
[ "$(api GET /v1/health | jq -r .ok)" = true ] && cz_pass "health over the unix socket" ||
    cz_fail "health over the unix socket"

cz_expect 0 "batch over the unix socket (8 proofs, 4 in flight)" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 8 -j 4 --out "$TMP/b1"
cz_check "batch prints a line per proof and a summary" \
    test "$(grep -c COMPLETED <<<"$RUN_OUT")" = 8 -a -n "$(grep 'throughput:' <<<"$RUN_OUT")"
cz_check "every proof of the batch verifies (cuzk verify)" cz_verify_dir "$TMP/b1" "$VK" 8
cz_expect 0 "batch over TCP with uploaded witnesses" \
    "$BENCH" --addr "127.0.0.1:$PORT" batch -t groth16 --key small --witness "$WTNS" -c 4 -j 2 --upload --out "$TMP/b2"
cz_check "every uploaded-witness proof verifies" cz_verify_dir "$TMP/b2" "$VK" 4
cz_expect 2 "an unknown proof type is refused" "$BENCH" --addr "unix:$SOCK" batch -t porep --key small --witness "$WTNS"

# ---- priorities -----------------------------------------------------------------
ABS_WTNS=$(cd "$(dirname "$WTNS")" && pwd)/$(basename "$WTNS")
submit() { # submit PRIORITY: a job on the slow key -> job id
    api POST /v1/proofs -H 'Content-Type: application/json' \
        -d "{\"key\":\"slow\",\"witness_path\":\"$TMP/slow.wtns\",\"priority\":\"$1\"}" | jq -r .job_id
}
lows=()
for _ in 1 2 3 4 5 6; do lows+=("$(submit low)"); done
crit=$(submit critical)
for id in "${lows[@]}" "$crit"; do cz_await "$id" >/dev/null; done
gpu_start() { api GET /v1/timeline | jq -r --arg j "$1" '[.spans[] | select(.job == $j and (.stage == "gpu" or .stage == "prove")) | .start_ms][0]'; }
cs=$(gpu_start "$crit")
last_low=$(gpu_start "${lows[5]}")
cz_check "a critical job overtakes queued low ones ($cs < $last_low ms)" awk -v a="$cs" -v b="$last_low" 'BEGIN { exit !(a < b) }'

# ---- cancel -------------------------------------------------------------------
ids=()
for _ in 1 2 3 4 5; do ids+=("$(submit normal)"); done
api POST "/v1/proofs/${ids[4]}/cancel" >/dev/null
cz_check "cancel of a queued job answers 200" test "$(code)" = 200
st=$(cz_await "${ids[4]}" | tee "$TMP/cancel.json" | jq -r .status); [ "$st" = cancelled ] || cat "$TMP/cancel.json" >&2
cz_check "the cancelled queued job ends 'cancelled' (got $st)" test "$st" = cancelled
for id in "${ids[@]:0:4}"; do cz_await "$id" >/dev/null; done
running_cancelled=0
for _ in $(seq 1 10); do
    id=$(submit normal)
    for _ in $(seq 1 200); do
        s=$(api GET "/v1/proofs/$id" | jq -r .status)
        [ "$s" = proving ] || [ "$s" = done ] && break
        sleep 0.005
    done
    [ "$s" = proving ] || continue
    api DELETE "/v1/proofs/$id" >/dev/null
    [ "$(cz_await "$id" | jq -r .status)" = cancelled ] && { running_cancelled=1; break; }
done
cz_check "cancel of a running job ends it 'cancelled'" test $running_cancelled = 1
api POST "/v1/proofs/${ids[0]}/cancel" >/dev/null
cz_check "cancel of a finished job answers 409" test "$(code)" = 409

# ---- malformed requests, while a batch carries on ---------------------------------------
"$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 6 -j 2 --out "$TMP/b3" \
    >"$TMP/b3.log" 2>&1 &
BPID=$!
api POST /v1/proofs -H 'Content-Type: application/json' -d '{"key": "small", ' >/dev/null
cz_check "malformed JSON: 400 with a JSON error" test "$(code)" = 400 -a -n "$(jq -r .error "$TMP/.body")"
api POST /v1/proofs -H 'Content-Type: application/json' -d "{\"key\":\"nokey\",\"witness_path\":\"$ABS_WTNS\"}" >/dev/null
cz_check "unknown key: 404" test "$(code)" = 404
api POST /v1/proofs -H 'Content-Type: application/json' -d '{"key":"small"}' >/dev/null
cz_check "no witness: 400" test "$(code)" = 400
api POST /v1/proofs -H 'Content-Type: application/json' -d "{\"key\":\"small\",\"witness_path\":\"$ABS_WTNS\",\"priority\":\"urgent\"}" >/dev/null
cz_check "bad priority: 400" test "$(code)" = 400
api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' --data-binary "@$FIX/chain64.wtns" >/dev/null
cz_check "uploaded witness of the wrong length: 422 naming the counts" \
    test "$(code)" = 422 -a -n "$(grep -o 'expects' "$TMP/.body")"
head -c 100 "$WTNS" >"$TMP/trunc.wtns"
api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' --data-binary "@$TMP/trunc.wtns" >/dev/null
cz_check "truncated uploaded witness: 4xx" grep -q '^4' "$TMP/.code"
head -c 200000 /dev/urandom >"$TMP/big.bin"
api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' --data-binary "@$TMP/big.bin" >/dev/null
cz_check "oversized upload: 413 (after its body is dropped)" test "$(code)" = 413
api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' -H 'Expect: 100-continue' \
    --data-binary "@$TMP/big.bin" >/dev/null
cz_check "oversized upload waiting for 100 Continue: 413 at once" test "$(code)" = 413
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_path\":\"$(cd "$FIX" && pwd)/chain64.wtns\"}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "witness of the wrong length by path: the job fails with a clear error" \
    test "$(jq -r .status <<<"$j")" = failed -a -n "$(jq -r .error <<<"$j" | grep values)"
api GET /v1/proofs/j999999 >/dev/null
cz_check "unknown job: 404" test "$(code)" = 404
api GET /v1/nothing >/dev/null
cz_check "unknown endpoint: 404" test "$(code)" = 404
api POST /v1/keys -H 'Content-Type: application/json' -d "{\"id\":\"bn\",\"path\":\"$(cd "$FIX" && pwd)/bn254/small.zkey\"}" >/dev/null
cz_check "a BN254 key loads: 201 (test_daemon_bn254.sh proves with it)" test "$(code)" = 201
api DELETE /v1/keys/bn >/dev/null
api POST /v1/keys -H 'Content-Type: application/json' -d '{"id":"nofile","path":"/nonexistent.zkey"}' >/dev/null
cz_check "a key file that does not exist: 400" test "$(code)" = 400
api DELETE /v1/keys/nokey >/dev/null
cz_check "evict an unknown key: 404" test "$(code)" = 404
wait "$BPID"
BRC=$?
cz_check "the concurrent batch was not disturbed (exit $BRC)" test $BRC = 0
cz_check "its proofs verify" cz_verify_dir "$TMP/b3" "$VK" 6

# ---- keys: preload, list, evict -----------------------------------------------------
cz_expect 0 "preload a second key" "$BENCH" --addr "unix:$SOCK" preload --key small2 --path "$KEY"
n=$(api GET /v1/keys | jq length)
cz_check "all three keys are listed" test "$n" = 3
api DELETE /v1/keys/small2 >/dev/null
cz_check "evict an idle key: 200" test "$(code)" = 200

# ---- jobs of several partitions ----------------------------------------------------
FIXABS=$(cd "$FIX" && pwd)
parts() { # parts N [bad]: a JSON list of N witness paths (the second missing if bad)
    local i out=
    for ((i = 0; i < $1; i++)); do
        if [ "${2:-}" = bad ] && [ $i = 1 ]; then out+="\"$TMP/none.wtns\","; else out+="\"$FIXABS/small.wtns\","; fi
    done
    printf '[%s]' "${out%,}"
}
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_paths\":$(parts 3)}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a job of 3 partitions is done with 3 proofs and 3 public lists" \
    test "$(jq -r '[.status, (.proofs | length), (.publics | length), ([.partitions[] | select(.state == "done")] | length)] | join(" ")' <<<"$j")" = "done 3 3 3"
pbad=0
for i in 0 1 2; do
    jq ".proofs[$i]" <<<"$j" >"$TMP/pp$i.json"
    jq ".publics[$i]" <<<"$j" >"$TMP/pu$i.json"
    "$CUZK" verify --quiet "$VK" "$TMP/pu$i.json" "$TMP/pp$i.json" >/dev/null 2>&1 || pbad=1
done
cz_check "each partition's proof verifies (cuzk verify)" test $pbad = 0
cz_check "the timeline has the spans of partitions 0, 1 and 2 under the job's id" \
    test "$(api GET /v1/timeline | jq --arg j "$id" '[.spans[] | select(.job == $j and (.stage == "gpu" or .stage == "prove")) | .partition] | unique | join(",")' -r)" = "0,1,2"
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_paths\":$(parts 4 bad)}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a partition that fails fails its job, naming it ($(jq -r .error <<<"$j"))" \
    test "$(jq -r '.status' <<<"$j")" = failed -a -n "$(jq -r '.error' <<<"$j" | grep 'partition 1: .*none.wtns')"
at_work() { api GET "/v1/proofs/$1" | jq '[.partitions[] | select(.state | IN("done", "failed", "cancelled") | not)] | length'; }
for _ in $(seq 1 100); do [ "$(at_work "$id")" = 0 ] && break; sleep 0.1; done
cz_check "its other partitions end too (cancelled, or done if they were running)" test "$(at_work "$id")" = 0
ids=()
for _ in 1 2 3; do # the slow key, so that partitions queue
    ids+=("$(api POST /v1/proofs -H 'Content-Type: application/json' \
        -d "{\"key\":\"slow\",\"witness_paths\":[\"$TMP/slow.wtns\",\"$TMP/slow.wtns\",\"$TMP/slow.wtns\"]}" | jq -r .job_id)")
done
api POST "/v1/proofs/${ids[2]}/cancel" >/dev/null
cz_check "cancel of a queued job of partitions: 200" test "$(code)" = 200
st=$(cz_await "${ids[2]}" | jq -r '[.status, ([.partitions[] | select(.state == "cancelled")] | length)] | join(" ")')
cz_check "it ends cancelled, its partitions too (got $st)" test "$st" = "cancelled 3"
for id in "${ids[@]:0:2}"; do cz_await "$id" >/dev/null; done
cz_check "the other jobs of partitions are done" \
    test "$(for id in "${ids[@]:0:2}"; do api GET "/v1/proofs/$id" | jq -r .status; done | sort -u)" = done
cz_expect 0 "cuzk-bench batch --partitions 3 (2 jobs)" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 2 -j 2 --partitions 3 --out "$TMP/bp"
pbad=0
for k in 1 2; do for q in 1 2 3; do
    "$CUZK" verify --quiet "$VK" "$TMP/bp/public-$k-$q.json" "$TMP/bp/proof-$k-$q.json" >/dev/null 2>&1 || pbad=1
done; done
cz_check "its 6 proofs verify" test $pbad = 0
api POST /v1/proofs -H 'Content-Type: application/json' -d '{"key":"small","witness_paths":[]}' >/dev/null
cz_check "an empty witness_paths: 400" test "$(code)" = 400
api POST /v1/proofs -H 'Content-Type: application/json' -d '{"key":"small","witness_paths":[1,2]}' >/dev/null
cz_check "witness_paths that are not strings: 400" test "$(code)" = 400
for _ in $(seq 1 100); do [ "$(api GET /v1/status | jq .memory.jobs)" = 0 ] && break; sleep 0.1; done
cz_check "no host memory stays reserved by jobs" test "$(api GET /v1/status | jq .memory.jobs)" = 0

# ---- status, metrics, timeline -----------------------------------------------------
s=$(api GET /v1/status)
cz_check "status has workers, devices, keys, memory, queues" \
    test "$(jq '(.workers|length) > 0 and (.devices|length) > 0 and (.keys|length) == 2 and .memory.budget > 0 and (.queues|has("pending"))' <<<"$s")" = true
m=$(api GET /metrics)
cz_check "metrics count finished proofs" grep -qE '^cuzk_jobs_finished_total\{status="done"\} [1-9]' <<<"$m"
cz_check "metrics have a stage histogram" grep -q 'cuzk_stage_duration_seconds_bucket{stage="gpu",le="+Inf"}' <<<"$m"

# ---- the host buffer pool: witnesses decode into reused (pinned) buffers ------------------
cz_check "status has the host pool (buffers, bytes, pinned_bytes, in_use, ...)" \
    test "$(jq '.host_pool | [.buffers, .bytes, .pinned_bytes, .in_use, .in_use_bytes, .idle, .max_idle,
        .allocations, .wipe_handovers] | all(type == "number")' <<<"$s")" = true
cz_check "the pool holds the finished jobs' buffers, none lent, pinned only on a GPU" \
    test "$(jq '.host_pool.buffers >= 1 and .host_pool.in_use == 0 and .host_pool.bytes >= .host_pool.pinned_bytes
        and (if all(.devices[]; .backend == "cpu") then .host_pool.pinned_bytes == 0 else true end)
        and .memory.pool >= 0' <<<"$s")" = true
for g in cuzk_host_pool_buffers cuzk_host_pool_buffers_in_use cuzk_host_pool_bytes cuzk_host_pool_pinned_bytes \
    cuzk_host_pool_allocations_total cuzk_host_pool_wipe_handovers_total; do
    cz_check "metrics have $g" grep -qE "^$g [0-9]+\$" <<<"$m"
done
cz_check "metrics count the pool in the host memory" grep -qE '^cuzk_host_memory_bytes\{use="pool"\} [0-9]+$' <<<"$m"
cz_check "the pool's bytes in metrics are positive" grep -qE '^cuzk_host_pool_bytes [1-9]' <<<"$m"
p1=$(api GET /v1/status | jq -c .host_pool)
cz_expect 0 "24 more proofs by path, 4 in flight" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 24 -j 4
cz_expect 0 "24 more with uploaded witnesses, 4 in flight" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 24 -j 4 --upload
p2=$(api GET /v1/status | jq -c .host_pool)
# At most 4 jobs hold a buffer at once, so 48 jobs reuse buffers: at most 4
# new ones, and what the pool keeps is its free cap plus the retired ones
# that the next get frees (no more than were in flight).
cz_check "48 jobs later the pool has not grown per job ($p1 -> $p2)" \
    test "$(jq -n --argjson a "$p1" --argjson b "$p2" '$b.in_use == 0 and
        $b.allocations - $a.allocations <= 4 and $b.buffers <= $b.max_idle + 4')" = true
cz_expect 0 "timeline SVG" "$BENCH" --addr "unix:$SOCK" timeline --svg "$TMP/t.svg"
cz_check "the SVG is an SVG with spans" grep -q '<rect' "$TMP/t.svg"

# ---- SIGTERM during work -----------------------------------------------------------
# the slow key, so that jobs are still queued when the signal comes
"$BENCH" --addr "unix:$SOCK" batch -t groth16 --key slow --witness "$TMP/slow.wtns" -c 12 -j 4 >"$TMP/b4.log" 2>&1 &
BPID=$!
for _ in $(seq 1 200); do grep -q COMPLETED "$TMP/b4.log" && break; sleep 0.05; done
cz_daemon_stop
cz_check "cuzkd exits 0 after SIGTERM (got ${DRC:-?})" test "${DRC:-1}" = 0
for _ in $(seq 1 200); do kill -0 $BPID 2>/dev/null || break; sleep 0.1; done
if kill -0 $BPID 2>/dev/null; then
    cz_fail "the client hangs after SIGTERM of the daemon"
    kill -9 $BPID
else
    wait $BPID
    cz_pass "the client finished after SIGTERM (exit $?)"
fi
cz_check "the daemon logged its drain" grep -q "draining" "$TMP/a.log"
cz_check "no sanitizer report in the daemon's log" sh -c "! grep -qE 'Sanitizer|runtime error' '$TMP/a.log'"
cz_check "jobs cut short say why" grep -qE "shutting down|no answer" "$TMP/b4.log"
cz_check "the unix socket is removed" test ! -e "$SOCK"

# ---- overload: max_pending 2 --------------------------------------------------------
# Ten submissions at once on the slow key: at most two fit, so some must be
# refused, whatever the speed of the machine.
cz_daemon_start b --key small="$KEY" --key slow="$TMP/slow.zkey" --set engine.prove_threads=1 \
    --set engine.gpu_workers_per_device=1 --set daemon.max_pending=2 || cz_finish
cpids=()
for i in $(seq 1 10); do
    curl -s -D "$TMP/h.$i" --unix-socket "$SOCK" -o /dev/null -H 'Content-Type: application/json' \
        -d "{\"key\":\"slow\",\"witness_path\":\"$TMP/slow.wtns\"}" http://x/v1/proofs &
    cpids+=($!)
done
wait "${cpids[@]}"
got429=0 got202=0
for i in $(seq 1 10); do
    grep -q '^HTTP/1.1 429' "$TMP/h.$i" && grep -qi '^Retry-After:' "$TMP/h.$i" && got429=$((got429 + 1))
    grep -q '^HTTP/1.1 20[12]' "$TMP/h.$i" && got202=$((got202 + 1))
done
cz_check "past max_pending: 429 with Retry-After ($got429 of 10 refused, $got202 taken)" \
    test $got429 -ge 1 -a $((got429 + got202)) = 10
cz_expect 0 "a batch past max_pending retries and loses nothing" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key slow --witness "$TMP/slow.wtns" -c 10 -j 6 --out "$TMP/b5"
cz_check "the batch was told to wait (429) and retried" grep -q "retried after 429" <<<"$RUN_OUT"
cz_check "all 10 proofs verify" cz_verify_dir "$TMP/b5" "$TMP/slow_vk.json" 10
cz_daemon_stop

# ---- a host memory budget that fits one job: jobs wait, none fails -----------------------
cz_daemon_start m --key small="$KEY" --set engine.host_memory_budget=9M \
    --set engine.gpu_workers_per_device=2 --set engine.witness_workers=4 || cz_finish
"$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 12 -j 6 --out "$TMP/b7" \
    >"$TMP/b7.log" 2>&1 &
BPID=$!
over=0
while kill -0 $BPID 2>/dev/null; do
    # one job's reservation (~8.2 MiB) fits, two do not: never more than one
    # job past the queue, although 4 witness and 2 prove workers are idle
    api GET /v1/status | jq -e '(.memory.jobs + .memory.keys + .memory.pool <= .memory.budget) and
        ([.jobs[] | select(.state != "queued")] | length) <= 1' >/dev/null || over=1
    sleep 0.02
done
wait $BPID
cz_check "a budget for one job at a time: all 12 jobs complete (exit $?)" grep -q "completed: 12" "$TMP/b7.log"
cz_check "the reserved memory never passed the budget: one job ran at a time" test $over = 0
cz_check "and all 12 proofs verify" cz_verify_dir "$TMP/b7" "$VK" 12
cz_daemon_stop

# ---- kill -9: the client gets a clear error, not a hang ---------------------------------------
cz_daemon_start c --key slow="$TMP/slow.zkey" --set engine.prove_threads=1 || cz_finish
"$BENCH" --addr "unix:$SOCK" batch -t groth16 --key slow --witness "$TMP/slow.wtns" -c 12 -j 4 >"$TMP/b6.log" 2>&1 &
BPID=$!
for _ in $(seq 1 200); do grep -q COMPLETED "$TMP/b6.log" && break; sleep 0.05; done
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
for _ in $(seq 1 300); do kill -0 $BPID 2>/dev/null || break; sleep 0.1; done
if kill -0 $BPID 2>/dev/null; then
    cz_fail "the client hangs after kill -9 of the daemon"
    kill -9 $BPID
else
    wait $BPID
    rc=$?
    cz_check "the client exits 2 after kill -9 of the daemon (got $rc)" test $rc = 2
    cz_check "and says it lost the daemon" grep -q "no answer from cuzkd" "$TMP/b6.log"
fi

cz_finish
