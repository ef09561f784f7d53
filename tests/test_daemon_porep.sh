#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# The porep job type through cuzkd (porep-mini, CPU backend): a key made
# from the preset in the daemon's memory (POST /v1/keys {preset, seed}:
# listed with its preset, idempotent, 409 for another seed under its id and
# while it is being made, 400 for an unknown preset) and a key file from
# `cuzk setup --circuit`; gen-c1; cuzk-bench batch -t porep -c 2 -j 2 --out
# (every partition's proof verified by cuzk verify against GET
# /v1/keys/ID/vk, one by snarkjs, and the preset key's vk equal to the
# setup's of the same seed); the same with a .zkey and a .czk key file; a c1 with a flipped label byte, a c1 of
# another preset, a key of another circuit and malformed JSON each
# answered 400 naming what is wrong while another job completes (its
# proofs verified); request_id; the prove stage named "prove" on the CPU;
# a key in use cannot be evicted; SIGTERM while a key is being made; a
# key past the host memory budget (507); [keys] presets made in the
# background (listed loading while the API answers, jobs for it 503 with
# Retry-After until it is made, a span in the timeline; a failure logged
# and listed, the daemon running on).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle
. "$(dirname "$0")/daemon_lib.sh"

P=porep-mini
d=$TMP
jqe() { jq -e "$@" >/dev/null; } # a jq predicate, quietly

# ---- inputs: a c1, its faulty variants, a key file ---------------------------------
cz_expect 0 "gen-c1 $P" "$BENCH" gen-c1 --preset $P --seed 9 --out "$d/c1.json"
cz_expect 0 "gen-c1 porep-8m (another preset)" "$BENCH" gen-c1 --preset porep-8m --seed 1 --out "$d/c8.json"
# one flipped byte of a DRG parent's label (partition 1, challenge 0)
node -e '
const fs = require("fs");
const c1 = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const col = c1.vanilla_proofs[1][0].replica_column_proofs.drg_parents[0].column;
col[0] = (col[0][0] === "0" ? "1" : "0") + col[0].slice(1);
fs.writeFileSync(process.argv[2], JSON.stringify(c1));
' "$d/c1.json" "$d/bad.json"
head -c 300 "$d/c1.json" >"$d/cut.json"
cz_expect 0 "cuzk setup --circuit $P (a key file)" "$CUZK" setup --quiet --seed 3 --circuit $P \
    "$d/key.zkey" "$d/vk.json"
cz_expect 0 "cuzk setup --circuit $P --out key.czk (a compact key file)" "$CUZK" setup --quiet \
    --seed 3 --circuit $P --out "$d/key.czk"

# ---- the daemon: CPU backend, the key file and a key of another circuit --------------
cz_daemon_start p --device cpu --key mini-file="$d/key.zkey" --key small="$FIX/small.zkey" \
    --set paths.witnesses="$d" || cz_finish

# ---- a key made from the preset -----------------------------------------------------
api POST /v1/keys -H 'Content-Type: application/json' -d '{"preset":"porep-1t"}' >/dev/null
cz_check "an unknown preset is 400 ($(code))" test "$(code)" = 400
# two makes of one id at once: the second is 409 while the first works
api POST /v1/keys -H 'Content-Type: application/json' -d "{\"preset\":\"$P\",\"seed\":3}" \
    >"$d/make1.json" &
mk=$!
for _ in $(seq 1 100); do grep -q "making the key\|made from preset" "$d/p.log" && break; sleep 0.05; done
curl -s --unix-socket "$SOCK" -o "$d/make2.json" -w '%{http_code}' -X POST \
    -H 'Content-Type: application/json' -d "{\"preset\":\"$P\",\"seed\":3}" \
    http://localhost/v1/keys >"$d/make2.code"
wait $mk
cz_check "POST /v1/keys {preset, seed} makes the key (201)" jqe '.status == "loaded"' "$d/make1.json"
code2=$(cat "$d/make2.code")
cz_check "a second make of the same id meanwhile is 409, or 201 once it is made ($code2)" \
    sh -c "[ '$code2' = 409 ] || [ '$code2' = 201 ]"
cz_check "the log says the key was made from its preset" grep -q "key $P made from preset $P" "$d/p.log"
cz_expect 0 "cuzk-bench preload --key $P --seed 3 again: idempotent" \
    "$BENCH" --addr "unix:$SOCK" preload --key $P --seed 3
cz_expect 1 "preload of the same id with another seed is refused" \
    "$BENCH" --addr "unix:$SOCK" preload --key $P --seed 4
cz_check "... as 409 naming the key" grep -q "HTTP 409.*$P" <<<"$RUN_ERR"
keys=$(api GET /v1/keys)
cz_check "GET /v1/keys lists the made key with its preset, seed and tier" \
    jqe --arg p $P '.[] | select(.id == $p) | .preset == $p and .seed == 3 and .tier == "host" and .path == null' <<<"$keys"
cz_check "and the key file without a preset" \
    jqe '.[] | select(.id == "mini-file") | .preset == null and (.path | length) > 0' <<<"$keys"
api GET "/v1/keys/$P/vk" >"$d/vk-preset.json"
cz_check "GET /v1/keys/ID/vk answers 200" test "$(code)" = 200
cz_check "the preset key's vk equals cuzk setup's of the same seed" \
    cmp -s <(jq -S . "$d/vk-preset.json") <(jq -S . "$d/vk.json")
api GET /v1/keys/nope/vk >/dev/null
cz_check "the vk of an unknown key is 404" test "$(code)" = 404
api DELETE "/v1/keys/$P/vk" >/dev/null
cz_check "DELETE on /v1/keys/ID/vk is 405" test "$(code)" = 405

# ---- batch -t porep --------------------------------------------------------------------
cz_expect 0 "batch -t porep -c 2 -j 2 --out (the key of the c1's preset)" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --c1 "$d/c1.json" -c 2 -j 2 --out "$d/b1"
cz_check "a COMPLETED line per job" test "$(grep -c COMPLETED <<<"$RUN_OUT")" = 2
cz_check "the summary has the per-partition prove time" grep -q "prove time per partition: avg=" <<<"$RUN_OUT"
cz_check "4 partitions proven" grep -q "partitions proven: 4" <<<"$RUN_OUT"
cz_check "--out wrote the key's vk" cmp -s "$d/b1/vk.json" "$d/vk-preset.json"
cz_verify_parts "$d/b1" "$d/b1/vk.json" 2 2
cz_check "every partition's proof verifies (cuzk verify, 4 proofs, $BAD bad)" test $BAD = 0
cz_expect 0 "snarkjs groth16 verify accepts job 2's partition 2" \
    snarkjs groth16 verify "$d/b1/vk.json" "$d/b1/public-2-2.json" "$d/b1/proof-2-2.json"
cz_check "the partitions have different public inputs" \
    sh -c "! cmp -s '$d/b1/public-1-1.json' '$d/b1/public-1-2.json'"
cz_expect 1 "a proof does not verify against the other partition's inputs" \
    "$CUZK" verify --quiet "$d/b1/vk.json" "$d/b1/public-1-1.json" "$d/b1/proof-1-2.json"
cz_check "public inputs: 9 per partition" test "$(jq length "$d/b1/public-1-1.json")" = 9

cz_expect 0 "batch -t porep with the key file, the c1 uploaded" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --c1 "$d/c1.json" --key mini-file --upload -c 1 --out "$d/b2"
cz_verify_parts "$d/b2" "$d/vk.json" 1 2
cz_check "the file key's proofs verify against cuzk setup's vk ($BAD bad)" test $BAD = 0
cz_expect 0 "preload a .czk key file" "$BENCH" --addr "unix:$SOCK" preload --key mini-czk --path "$d/key.czk"
cz_check "it is listed, compact" jqe '.[] | select(.id == "mini-czk") | .compact' <<<"$(api GET /v1/keys)"
cz_expect 0 "batch -t porep with the .czk key" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --c1 "$d/c1.json" --key mini-czk -c 1 --out "$d/b3"
cz_verify_parts "$d/b3" "$d/vk.json" 1 2
cz_check "the .czk key's proofs verify against cuzk setup's vk ($BAD bad)" test $BAD = 0
cz_expect 2 "batch -t porep without --c1 is a usage error" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --key $P

# ---- bad input answered 400 while another job completes ------------------------------
post() { api POST /v1/proofs -H 'Content-Type: application/json' -d "$1"; }
good=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/c1.json\",\"request_id\":\"r1\"}" | jq -r .job_id)
cz_check "a porep job by c1_path is accepted (202, $good)" test "$(code)" = 202
ans=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/bad.json\"}")
cz_check "a flipped label byte is 400 ($(code))" test "$(code)" = 400
cz_check "... naming partition, challenge and field" \
    grep -q "partition 1, challenge 0: replica_column_proofs.drg_parents\[0\].column" <<<"$ans"
ans=$(post "{\"type\":\"porep\",\"key\":\"$P\",\"c1_path\":\"$d/c8.json\"}")
cz_check "a c1 of another preset is 400 ($(code))" test "$(code)" = 400
cz_check "... naming both presets and the key" grep -q "porep-8m, not $P.*key '$P'" <<<"$ans"
ans=$(post "{\"type\":\"porep\",\"key\":\"small\",\"c1_path\":\"$d/c1.json\"}")
cz_check "a key of another circuit is 400 ($(code))" test "$(code)" = 400
cz_check "... naming the key and the preset" grep -q "key 'small'.*not a key of preset $P" <<<"$ans"
ans=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/c8.json\"}")
cz_check "a c1 whose preset has no key is 404 ($(code))" test "$(code)" = 404
ans=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/cut.json\"}")
cz_check "a c1 file of malformed JSON is 400 ($(code))" test "$(code)" = 400
cz_check "... naming the file and JSON" grep -q "cut.json: JSON" <<<"$ans"
ans=$(post '{"type":"porep","c1":{"format":"cuzk-porep-c1/1","registered_proof":"porep-mini"}}')
cz_check "an inline c1 missing its proofs is 400 ($(code))" test "$(code)" = 400
cz_check "... naming the field" grep -q "vanilla_proofs" <<<"$ans"
ans=$(post '{"type":"porep","c1":"c1.json"}')
cz_check "a c1 that is not an object is 400 ($(code))" test "$(code)" = 400
ans=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/c1.json\",\"witness_path\":\"$d/c1.json\"}")
cz_check "a c1 with a witness is 400 ($(code))" test "$(code)" = 400
ans=$(post '{"type":"porep","c1_path":"/etc/passwd"}')
cz_check "a c1_path outside the witness folders is 400 ($(code))" test "$(code)" = 400
cz_check "... and says only that it is refused" grep -q "refused" <<<"$ans"
ans=$(post "{\"type\":\"porep\",\"c1_path\":\"$d/c1.json\",\"request_id\":\"r1\"}")
cz_check "the same request_id again is that job (200, existing)" \
    sh -c "[ '$(code)' = 200 ] && [ '$(jq -r .job_id <<<"$ans")' = '$good' ]"
post "{\"type\":\"porep\",\"c1_path\":\"$d/c8.json\",\"key\":\"mini-file\",\"request_id\":\"r1\"}" >/dev/null
cz_check "request_id with another c1 is 409 ($(code))" test "$(code)" = 409
api DELETE "/v1/keys/$P" >/dev/null
st=$(code)
job=$(cz_await "$good")
cz_check "the good job completed meanwhile" jqe '.status == "done" and .type == "porep"' <<<"$job"
cz_check "a key in use is not evicted (409, or 200 once the job ended: $st)" \
    sh -c "[ '$st' = 409 ] || [ '$st' = 200 ]"
cz_check "it has 2 proofs and 2 public lists" jqe '(.proofs | length) == 2 and (.publics | length) == 2' <<<"$job"
bad=0
for p in 0 1; do
    jq ".proofs[$p]" <<<"$job" >"$d/g-proof$p.json"
    jq ".publics[$p]" <<<"$job" >"$d/g-public$p.json"
    "$CUZK" verify --quiet "$d/vk-preset.json" "$d/g-public$p.json" "$d/g-proof$p.json" \
        >/dev/null 2>&1 || bad=$((bad + 1))
done
cz_check "its proofs verify ($bad bad)" test $bad = 0
cz_check "its partitions have their timings" \
    jqe '[.partitions[] | .timings_ms.gpu > 0 and .timings_ms.witness > 0] | all' <<<"$job"

# ---- the prove stage on the CPU ----------------------------------------------------------
tl=$(api GET /v1/timeline)
cz_check "the timeline names the CPU's stage prove, not gpu" \
    jqe --arg j "$good" '[.spans[] | select(.job == $j) | .stage] | (index("prove") != null) and (index("gpu") == null)' <<<"$tl"
cz_check "the log does too" grep -q "$good.p0 done.*prove [0-9]" "$d/p.log"
cz_expect 0 "timeline SVG" "$BENCH" --addr "unix:$SOCK" timeline --svg "$d/t.svg"
cz_check "the SVG says busy, not GPU busy" sh -c "grep -q ' busy ' '$d/t.svg' && ! grep -q 'GPU busy' '$d/t.svg'"

api DELETE "/v1/keys/$P" >/dev/null
cz_check "an idle made key is evicted (200, then $(code))" sh -c "[ '$st' = 200 ] || [ '$(code)' = 200 ]"
cz_check "and gone from the list" jqe --arg p $P 'map(.id) | index($p) == null' <<<"$(api GET /v1/keys)"

cz_daemon_stop
cz_check "cuzkd exits 0 after SIGTERM (got ${DRC:-?})" test "${DRC:-1}" = 0
cz_check "no sanitizer report in the daemon's log" sh -c "! grep -qE 'Sanitizer|runtime error' '$d/p.log'"

# ---- [keys] presets: made in the background while the API answers --------------------------
cz_daemon_start q --device cpu --set keys.presets=$P:3 --set paths.witnesses="$d" || cz_finish
keys=$(api GET /v1/keys)
cz_check "the API answers at once: GET /v1/keys lists the preset key loading, with its stage" \
    jqe --arg p $P '.[] | select(.id == $p) | .state == "loading" and .preset == $p and .seed == 3 and (.stage | length) > 0' <<<"$keys"
cz_check "... before the log says it is made" sh -c "! grep -q 'key $P made from preset' '$d/q.log'"
curl -s --unix-socket "$SOCK" -D "$d/q.hdr" -o "$d/q.body" -X POST -H 'Content-Type: application/json' \
    -d "{\"type\":\"porep\",\"c1_path\":\"$d/c1.json\"}" http://localhost/v1/proofs >/dev/null
cz_check "a job for it meanwhile is 503 with Retry-After" \
    sh -c "head -1 '$d/q.hdr' | grep -q ' 503' && grep -qi '^Retry-After: [1-9]' '$d/q.hdr'"
cz_check "... code key_loading, a retry hint, naming the key and its preset" \
    jqe --arg p $P '.code == "key_loading" and .retry_after_ms > 0 and (.error | test("key .\($p). is being made from preset \($p)"))' "$d/q.body"
cz_expect 0 "batch -t porep meanwhile: retries the 503 until the key is made, then completes" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --c1 "$d/c1.json" -c 1 --out "$d/bq"
cz_check "... after retrying" grep -q "retried after 429/503" <<<"$RUN_OUT"
cz_verify_parts "$d/bq" "$d/vk.json" 1 2
cz_check "its proofs verify against cuzk setup's vk of the same seed ($BAD bad)" test $BAD = 0
cz_check "the key is then ready, seed 3" \
    jqe --arg p $P '.[] | select(.id == $p) | .state == "ready" and .seed == 3' <<<"$(api GET /v1/keys)"
cz_check "the log says the key was made" grep -q "key $P made from preset $P" "$d/q.log"
tl=$(api GET /v1/timeline)
cz_check "the timeline has the key's make as one span" \
    jqe --arg p $P '[.spans[] | select(.key == $p and .stage == "key_make" and .ok and .end_ms > .start_ms)] | length == 1' <<<"$tl"
cz_expect 0 "timeline SVG" "$BENCH" --addr "unix:$SOCK" timeline --svg "$d/tq.svg"
cz_check "... draws it in a keys lane" sh -c "grep -q '>keys<' '$d/tq.svg' && grep -q 'key $P key_make' '$d/tq.svg'"
cz_check "... and counts the one job only" grep -q "1 jobs" <<<"$RUN_OUT"
cz_daemon_stop
cz_check "cuzkd exits 0 (got ${DRC:-?})" test "${DRC:-1}" = 0

# ---- [keys] presets: a key that cannot be made is logged and listed, the daemon runs on -----
cz_daemon_start f --device cpu --set engine.host_memory_budget=32M --set keys.presets=$P \
    --set paths.witnesses="$d" || cz_finish
for _ in $(seq 1 200); do grep -q "making it from preset" "$d/f.log" && break; sleep 0.05; done
cz_check "the failure is logged" grep -q "key $P: making it from preset $P failed: .*needs [0-9]* MiB" "$d/f.log"
keys=$(api GET /v1/keys)
cz_check "GET /v1/keys lists it failed, with the error" \
    jqe --arg p $P '.[] | select(.id == $p) | .state == "failed" and (.error | test("needs [0-9]+ MiB"))' <<<"$keys"
ans=$(api POST /v1/proofs -H 'Content-Type: application/json' -d "{\"type\":\"porep\",\"c1_path\":\"$d/c1.json\"}")
cz_check "a job for it is 404 ($(code))" test "$(code)" = 404
cz_check "... saying its make failed" grep -q "making it from preset $P failed" <<<"$ans"
api GET /v1/health >/dev/null
cz_check "the daemon runs on (health $(code))" test "$(code)" = 200
api DELETE "/v1/keys/$P" >/dev/null
cz_check "DELETE clears the failure ($(code))" test "$(code)" = 200
cz_check "... gone from the list" jqe --arg p $P 'map(.id) | index($p) == null' <<<"$(api GET /v1/keys)"
cz_daemon_stop
cz_check "cuzkd exits 0 (got ${DRC:-?})" test "${DRC:-1}" = 0

# ---- SIGTERM while a [keys] presets key is made: the step ends, then cuzkd exits 0 -------
cz_daemon_start t --device cpu --set keys.presets=$P || cz_finish
for _ in $(seq 1 200); do grep -q "recording preset" "$d/t.log" && break; sleep 0.05; done
cz_daemon_stop
cz_check "cuzkd exits 0 (got ${DRC:-?})" test "${DRC:-1}" = 0
cz_check "no sanitizer report in its log" sh -c "! grep -qE 'Sanitizer|runtime error' '$d/t.log'"
# ---- SIGTERM while a key is being made: the daemon waits for it, then exits 0 -----------
cz_daemon_start s --device cpu || cz_finish
api POST /v1/keys -H 'Content-Type: application/json' -d "{\"preset\":\"$P\"}" >/dev/null &
mk=$!
for _ in $(seq 1 200); do grep -q "recording preset" "$d/s.log" && break; sleep 0.05; done
cz_daemon_stop
wait $mk
cz_check "SIGTERM while a key is made: cuzkd exits 0 (got ${DRC:-?})" test "${DRC:-1}" = 0
cz_check "no sanitizer report in its log" sh -c "! grep -qE 'Sanitizer|runtime error' '$d/s.log'"

# ---- a key that does not fit the host memory budget: 507 before any work ----------------
cz_daemon_start m --device cpu --set engine.host_memory_budget=32M || cz_finish
ans=$(api POST /v1/keys -H 'Content-Type: application/json' -d "{\"preset\":\"$P\"}")
cz_check "a preset key past the budget is 507 ($(code))" test "$(code)" = 507
cz_check "... saying what it needs" grep -q "needs [0-9]* MiB of host memory" <<<"$ans"
cz_check "... and nothing was made" sh -c "! grep -q 'recording preset' '$d/m.log'"
cz_daemon_stop

cz_expect 2 "an unknown preset in [keys] presets stops the start" \
    "$CUZKD" --listen "unix:$d/r.sock" --set keys.presets=porep-1t
cz_check "... naming it" grep -q "unknown preset 'porep-1t'" <<<"$RUN_ERR"

cz_finish
