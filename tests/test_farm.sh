#!/usr/bin/env bash
# ctest: labels=unit timeout=900
# The farm end to end: three cuzkd on this machine as three hosts sharing
# one private PostgreSQL (tests/pg_lib.sh). 60 proofs of the fixture key,
# each proven exactly once, spread over the three, every one verified
# (cuzk verify, and snarkjs where the oracles are installed), any host
# answering for any job; kill -9 of a host holding leases (its partitions
# re-run elsewhere within the lease + 1 s, nothing lost); SIGTERM of a host
# (its leases given back and taken at once, uncounted); a host frozen
# (SIGSTOP) past its lease and resumed (its late writes refused by the
# epoch, every result written by the claim that holds it); PostgreSQL
# restarted mid-batch (nothing lost); bad input (malformed witness, wrong
# length, missing file, unknown key) fails only its own job, once;
# cancel from another host; a host whose budget holds one partition at a
# time never holds two leases (it claims only what its engine admits now);
# a host loads a key it finds in its key folder for the partitions that
# wait for it, and leaves a key it cannot load queued for others; a
# 30-second soak (no rows left past the
# retention, no leases, memory flat); cuzkd refuses a URL with a password
# and an unreachable database at start.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"
# shellcheck source=tests/pg_lib.sh
. "$(dirname "$0")/pg_lib.sh"
cz_pg_start

KEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json
LEASE_MS=2000
T_START=$(date +%s)

declare -A HPID HSOCK
# host NAME [cuzkd args]: start cuzkd NAME in the farm (keys small and slow); waits for health
host() {
    local name=$1
    shift
    HSOCK[$name]=$TMP/$name.sock
    "$CUZKD" --listen "unix:${HSOCK[$name]}" --db "$CZ_PG_URL" --set farm.host_id="$name" \
        --set farm.lease_ms=$LEASE_MS --set farm.poll_ms=100 --set farm.backoff_ms=200 \
        --set engine.prove_threads=1 --key small="$KEY" --key slow="$TMP/slow.zkey" "$@" \
        >>"$TMP/$name.log" 2>&1 &
    HPID[$name]=$!
    for _ in $(seq 1 200); do
        curl -s --unix-socket "${HSOCK[$name]}" http://x/v1/health >/dev/null 2>&1 && return 0
        kill -0 "${HPID[$name]}" 2>/dev/null || break
        sleep 0.05
    done
    cz_fail "host $name did not start"
    sed 's/^/    log: /' "$TMP/$name.log" >&2
    return 1
}
# on NAME METHOD PATH [curl args]: the API of host NAME
on() {
    local name=$1
    SOCK=${HSOCK[$name]}
    shift
    api "$@"
}
STOP_BAD=0
stop_all() { # SIGTERM every host; STOP_BAD counts those that did not exit 0 (each named)
    local h rc
    for h in "${!HPID[@]}"; do kill -TERM "${HPID[$h]}" 2>/dev/null; done
    for h in "${!HPID[@]}"; do
        rc=0
        wait "${HPID[$h]}" 2>/dev/null || rc=$?
        [ "$rc" = 0 ] && continue
        STOP_BAD=$((STOP_BAD + 1))
        echo "    host $h exited $rc on SIGTERM; the end of its log:"
        tail -n 15 "$TMP/$h.log" | sed 's/^/      /'
    done
    HPID=()
}
trap 'stop_all; cz_pg_stop; rm -rf "$TMP"' EXIT
num() { echo "${1#j}"; } # job id -> row number
# submit_slow NAME N: N jobs of the slow key through host NAME; ids on stdout
submit_slow() {
    local i
    for ((i = 0; i < $2; i++)); do
        on "$1" POST /v1/proofs -H 'Content-Type: application/json' \
            -d "{\"key\":\"slow\",\"witness_path\":\"$TMP/slow.wtns\"}" | jq -r .job_id
    done
}
# await_all NAME IDS...: every job done through host NAME; fails the test otherwise
await_all() {
    local name=$1 id st bad=0
    shift
    SOCK=${HSOCK[$name]}
    for id in "$@"; do
        st=$(cz_await "$id" | jq -r .status)
        [ "$st" = "done" ] || { bad=$((bad + 1)); echo "    $id: $st" >&2; }
    done
    return $bad
}
# dump_farm: the hosts' view and the queue, after a failure
dump_farm() {
    local h
    for h in "${!HSOCK[@]}"; do
        echo "    host $h: $(on "$h" GET /v1/status | jq -c '.farm.this_host | {running, counts}')" >&2
    done
    cz_psql "SELECT job_id, idx, state, owner, epoch, attempts, lease_expires > now() FROM cz_partitions
             WHERE state IN ('queued', 'running')" | sed 's/^/    queue: /' >&2
}
# busy_host [EXCEPT]: the host (other than EXCEPT) holding the most leases,
# as soon as one holds any (polled inside the database every 10 ms, at
# most 10 s); empty if none did
busy_host() {
    cz_psql "CREATE FUNCTION pg_temp.busy(x text) RETURNS text LANGUAGE plpgsql AS \$f\$
             DECLARE o text;
             BEGIN
               FOR i IN 1..1000 LOOP
                 SELECT owner INTO o FROM cz_partitions WHERE state = 'running' AND owner <> x
                  GROUP BY owner ORDER BY count(*) DESC, owner LIMIT 1;
                 IF o IS NOT NULL THEN RETURN o; END IF;
                 PERFORM pg_sleep(0.01);
               END LOOP;
               RETURN NULL;
             END \$f\$; SELECT pg_temp.busy('${1:-}')"
}
# wait_lease NAME: until host NAME holds a lease (at most 10 s)
wait_lease() {
    for _ in $(seq 1 200); do
        [ "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE owner = '$1' AND state = 'running'")" -gt 0 ] &&
            return 0
        sleep 0.05
    done
    return 1
}

probe=$("$CUZKD" --listen "unix:$TMP/probe.sock" --db "postgresql:///x?host=$TMP/none" 2>&1)
if grep -q "built without the farm" <<<"$probe"; then
    echo "SKIP: cuzkd is built without the farm (libpq was missing; scripts/setup.sh installs libpq-dev)"
    exit 77
fi

# A slower key (a proof of 32,000 constraints on one thread takes about
# half a second), so that hosts hold leases long enough to be killed,
# stopped and cancelled on a fast machine too.
cz_expect 0 "synthetic 32000-constraint circuit" "$BIN/cuzk-synth" --constraints 32000 "$TMP/slow.r1cs" "$TMP/slow.wtns"
cz_expect 0 "its key" "$CUZK" setup --quiet --seed 3 "$TMP/slow.r1cs" "$TMP/slow.zkey"
cz_expect 0 "its verification key" "$CUZK" export-vk "$TMP/slow.zkey" "$TMP/slow_vk.json"

# ---- start: refusals ------------------------------------------------------------

cz_expect 2 "a database URL with a password is refused" \
    "$CUZKD" --listen "unix:$TMP/x.sock" --db "postgresql://cuzk:hunter2@localhost/farm"
cz_check "  the message says where the password goes, without echoing it" \
    eval 'grep -q PGPASSWORD "$TMP/.err" && ! grep -q hunter2 "$TMP/.err"'
cz_expect 2 "an unreachable database stops cuzkd at start" \
    "$CUZKD" --listen "unix:$TMP/x.sock" --db "postgresql:///farm?host=$TMP/nowhere" --key small="$KEY"

# ---- three hosts, 60 proofs -------------------------------------------------------
host a && host b && host c || cz_finish
cz_check "the schema was migrated once (version 1)" \
    test "$(cz_psql 'SELECT count(*), max(version) FROM cz_schema_version')" = "1|1"
cz_check "/v1/status shows the three hosts" \
    test "$(on b GET /v1/status | jq '.farm.hosts | length')" = 3

cz_expect 0 "60 proofs of the fixture key through host a (12 in flight)" \
    "$BENCH" --addr "unix:${HSOCK[a]}" batch -t groth16 --key small --witness "$WTNS" -c 60 -j 12 --out "$TMP/b60"
cz_check "  60 completed" grep -q '"completed":60' <<<"$RUN_OUT"
cz_check "  every proof verifies (cuzk verify)" cz_verify_dir "$TMP/b60" "$VK" 60
cz_check "  60 jobs done, each partition proven exactly once (one claim, epoch 1)" \
    test "$(cz_psql "SELECT count(*) FILTER (WHERE p.state = 'done' AND p.attempts = 1 AND p.epoch = 1),
                            count(*) FROM cz_partitions p JOIN cz_jobs j USING (job_id) WHERE j.key_id = 'small'")" = "60|60"
cz_psql "SELECT owner, count(*) FROM cz_partitions GROUP BY owner ORDER BY owner" >"$TMP/spread"
sed 's/^/    proofs by host: /' "$TMP/spread"
cz_check "  spread over the three hosts" test "$(wc -l <"$TMP/spread")" = 3
cz_check "  every stored result was written by its claim's owner under its epoch" \
    test "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE state = 'done'
                       AND (result->>'host' <> owner OR (result->>'epoch')::bigint <> epoch)")" = 0
if command -v node >/dev/null 2>&1 && [ -f "$NODE_MODULES/snarkjs/build/cli.cjs" ]; then
    for i in $(seq 1 60); do
        printf '%s\t%s\t%s\n' "$VK" "$TMP/b60/public-$i.json" "$TMP/b60/proof-$i.json"
    done >"$TMP/sj.list"
    cz_check "  every proof verifies with snarkjs" \
        test "$(node "$SRC/tests/snarkjs_verify_batch.cjs" "$TMP/sj.list" | grep -c '^0$')" = 60
else
    echo "note: snarkjs not installed (scripts/setup.sh): proofs checked with cuzk verify only"
fi
J=$(cz_psql "SELECT 'j' || min(job_id) FROM cz_partitions WHERE owner = 'c'")
cz_check "any host answers for any job (c's proof, asked of a and b)" \
    test "$(on a GET "/v1/proofs/$J" | jq -c .proof)" = "$(on b GET "/v1/proofs/$J" | jq -c .proof)" -a \
    "$(on a GET "/v1/proofs/$J" | jq -r .host)" = c
cz_check "/metrics shows the farm" eval 'on b GET /metrics | grep "^cuzk_farm_hosts 3" >/dev/null'

# ---- kill -9 of a host holding leases -----------------------------------------------
# Six slow jobs: the host holding the most leases is killed, the other two
# have free slots, so its partitions are taken as soon as the leases expire.
mapfile -t IDS < <(submit_slow c 6)
V=$(busy_host)
if [ -n "$V" ]; then
    kill -9 "${HPID[$V]}"
    T_KILL=$(cz_psql "SELECT extract(epoch FROM now())")
    wait "${HPID[$V]}" 2>/dev/null
    unset "HPID[$V]"
    OTHER=a
    [ "$V" = a ] && OTHER=b
    cz_psql "SELECT job_id || ':' || idx FROM cz_partitions WHERE owner = '$V' AND state = 'running'" >"$TMP/orphans"
    cz_check "kill -9 of host $V with $(wc -l <"$TMP/orphans") lease(s): every job still done (via $OTHER)" \
        await_all "$OTHER" "${IDS[@]}"
    moved=0 late=0 worst=0
    while IFS=: read -r jn ix; do
        row=$(cz_psql "SELECT owner, attempts, extract(epoch FROM claimed_at) - $T_KILL FROM cz_partitions
                       WHERE job_id = $jn AND idx = $ix")
        IFS='|' read -r owner attempts dt <<<"$row"
        [ "$owner" != "$V" ] && [ "$attempts" -ge 2 ] && moved=$((moved + 1))
        worst=$(echo "if ($dt > $worst) $dt else $worst" | bc -l)
        [ "$(echo "$dt > ($LEASE_MS / 1000 + 1)" | bc -l)" = 1 ] && late=$((late + 1))
    done <"$TMP/orphans"
    echo "    kill -9 to the partition running elsewhere: at most ${worst} s (lease $((LEASE_MS / 1000)) s)"
    cz_check "  $V's partitions were re-run by another host" test "$moved" = "$(wc -l <"$TMP/orphans")"
    cz_check "  within the lease + 1 s of the kill" test "$late" = 0
    bad=0
    for id in "${IDS[@]}"; do
        j=$(on "$OTHER" GET "/v1/proofs/$id")
        jq .proof <<<"$j" >"$TMP/k-$id.proof.json"
        jq .public <<<"$j" >"$TMP/k-$id.public.json"
        "$CUZK" verify --quiet "$TMP/slow_vk.json" "$TMP/k-$id.public.json" "$TMP/k-$id.proof.json" \
            >/dev/null 2>&1 || bad=$((bad + 1))
    done
    cz_check "  their proofs verify" test "$bad" = 0
    host "$V"
    cz_check "  restarted, $V answers for those jobs (done)" \
        test "$(for id in "${IDS[@]}"; do on "$V" GET "/v1/proofs/$id" | jq -r .status; done | sort -u)" = "done"
else
    cz_fail "no host held a lease (jobs ${IDS[*]})"
    dump_farm
fi

# ---- SIGTERM: a host stopping gives its leases back ----------------------------------
mapfile -t IDS < <(submit_slow c 6)
V=$(busy_host c)
if [ -n "$V" ]; then
    cz_psql "SELECT job_id || ':' || idx || ':' || attempts || ':' || epoch FROM cz_partitions
             WHERE owner = '$V' AND state = 'running'" >"$TMP/held"
    T_TERM=$(cz_psql "SELECT extract(epoch FROM now())")
    kill -TERM "${HPID[$V]}"
    wait "${HPID[$V]}"
    trc=$?
    unset "HPID[$V]"
    cz_check "SIGTERM of host $V holding $(wc -l <"$TMP/held") lease(s): it exits 0 (got $trc)" test "$trc" = 0
    cz_check "  every job done" await_all c "${IDS[@]}"
    # (one may have finished on $V itself between the listing and the signal). A release
    # takes back the attempt of its claim and every later claim adds one (and a new epoch):
    # attempts = a0 - 1 + (epoch - e0), whatever lease expiries a loaded machine had before
    slow=0 counted=0 moved=0
    while IFS=: read -r jn ix a0 e0; do
        row=$(cz_psql "SELECT attempts, owner, epoch, extract(epoch FROM claimed_at) - $T_TERM
                       FROM cz_partitions WHERE job_id = $jn AND idx = $ix")
        IFS='|' read -r attempts owner epoch dt <<<"$row"
        [ "$owner" = "$V" ] && continue
        moved=$((moved + 1))
        want=$((a0 - 1 + epoch - e0))
        [ "$attempts" != "$want" ] && {
            counted=$((counted + 1))
            echo "    $jn:$ix attempts $a0 -> $attempts, epoch $e0 -> $epoch (want $want)" >&2
        }
        [ "$(echo "$dt > 1.5" | bc -l)" = 1 ] && { slow=$((slow + 1)); echo "    $jn:$ix claimed by $owner ${dt}s after" >&2; }
    done <"$TMP/held"
    cz_check "  its $moved partition(s) given back were taken by others at once (not after the lease)" \
        test "$slow" = 0
    cz_check "  the attempt it gave back was not counted" test "$counted" = 0
    host "$V"
else
    cz_fail "no host but c held a lease (jobs ${IDS[*]})"
    dump_farm
fi

# ---- SIGSTOP past the lease, then SIGCONT ---------------------------------------------
# The host (not c, which takes the requests) holding the most leases is frozen.
mapfile -t IDS < <(submit_slow c 12)
V='' held=0
for _ in $(seq 1 5); do
    V=$(busy_host c)
    if [ -n "$V" ]; then
        kill -STOP "${HPID[$V]}"
        held=$(cz_psql "SELECT count(*) FROM cz_partitions WHERE owner = '$V' AND state = 'running'")
        [ "$held" -gt 0 ] && break
        kill -CONT "${HPID[$V]}" # it finished them meanwhile: again
        V=
    fi
    sleep 0.05
done
if [ -n "$V" ]; then
    sleep $((LEASE_MS / 1000 + 2))
    kill -CONT "${HPID[$V]}"
    cz_check "host $V frozen with $held lease(s) past the lease, resumed: every job done" await_all c "${IDS[@]}"
    sleep 1
    refused=$(on "$V" GET /v1/status | jq '.farm.this_host.counts.writes_refused')
    cz_check "  $V's late writes were refused by the epoch ($refused refused)" test "$refused" -ge 1
    cz_check "  $V logged the refusal" grep -q "late result refused" "$TMP/$V.log"
    grep "late result refused" "$TMP/$V.log" | head -2 | sed "s/^/    $V: /"
    cz_check "  every result is the one of the claim that holds it" \
        test "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE state = 'done'
                           AND (result->>'host' <> owner OR (result->>'epoch')::bigint <> epoch)")" = 0
else
    cz_fail "no host but c held a lease (jobs ${IDS[*]})"
    dump_farm
fi

# ---- PostgreSQL restarted mid-batch ----------------------------------------------------
"$BENCH" --addr "unix:${HSOCK[c]}" batch -t groth16 --key slow --witness "$TMP/slow.wtns" -c 12 -j 6 \
    --out "$TMP/brs" >"$TMP/brs.out" 2>&1 &
BPID=$!
wait_lease a || wait_lease b || wait_lease c
cz_pg_restart
wait $BPID
brc=$?
cz_check "PostgreSQL restarted mid-batch: the batch ends well (exit $brc)" test "$brc" = 0
cz_check "  12 completed" grep -q '"completed":12' "$TMP/brs.out"
cz_check "  every proof verifies" cz_verify_dir "$TMP/brs" "$TMP/slow_vk.json" 12
cz_check "  the hosts are still there" test "$(on a GET /v1/status | jq '.farm.hosts | length')" = 3

# ---- bad input fails only its job --------------------------------------------------------
head -c 3000 /dev/urandom >"$TMP/garbage.wtns"
G=$(on a POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary @"$TMP/garbage.wtns" | jq -r .job_id)
W=$(on a POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary @"$FIX/chain64.wtns" | jq -r .job_id)
M=$(on b POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_paths\":[\"$(cd "$FIX" && pwd)/small.wtns\",\"$FIX/nonexistent.wtns\"]}" | jq -r .job_id)
on c POST /v1/proofs -H 'Content-Type: application/json' -d "{\"key\":\"nokey\",\"witness_path\":\"$WTNS\"}" >/dev/null
cz_check "an unknown key is refused at submission (404)" test "$(code)" = 404
OK=$(on c POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary @"$WTNS" | jq -r .job_id)
SOCK=${HSOCK[c]}
for id in "$G" "$W" "$M"; do
    j=$(cz_await "$id")
    cz_check "bad input $id fails its job: $(jq -r .error <<<"$j" | head -c 120)" \
        test "$(jq -r .status <<<"$j")" = failed
done
cz_check "  each bad partition was claimed once, never retried" \
    test "$(cz_psql "SELECT max(attempts) FROM cz_partitions WHERE job_id IN ($(num "$G"), $(num "$W"), $(num "$M"))
                       AND state = 'failed'")" = 1
cz_check "  the missing file is named" eval 'cz_await "$M" | jq -r .error | grep nonexistent >/dev/null'
j=$(cz_await "$OK")
cz_check "  a good job beside them is done" test "$(jq -r .status <<<"$j")" = "done"
jq .proof <<<"$j" >"$TMP/ok.proof.json"
jq .public <<<"$j" >"$TMP/ok.public.json"
cz_expect 0 "  and its proof verifies" "$CUZK" verify --quiet "$VK" "$TMP/ok.public.json" "$TMP/ok.proof.json"

# ---- cancel from another host ------------------------------------------------------------
mapfile -t IDS < <(submit_slow a 9)
last=${IDS[8]}
on b DELETE "/v1/proofs/$last" >/dev/null
cz_check "a job submitted to a is cancelled through b" test "$(code)" = 200
# shellcheck disable=SC2034  # cz_await asks $SOCK
SOCK=${HSOCK[c]}
cz_check "  c sees it cancelled" test "$(cz_await "$last" | jq -r .status)" = cancelled
cz_check "  the others are done" await_all a "${IDS[@]:0:8}"

# ---- claim only what fits: a host with room for one partition at a time -------------
# Host t holds the keys and a budget for one partition of the slow key: it
# claims only when its engine would admit the partition now, so it never
# holds two leases at once (it has two slots), while the others take the
# rest. Its budget: what its keys hold, plus 1.2 times a partition's
# reservation, both read from a first start with the default budget. (Where
# a GPU proves, the key is resident after its first proof and a partition
# then reserves 32 x domain bytes less, 4 MiB of 14 here: two still do not
# fit.)
host t || cz_finish
for _ in $(seq 1 50); do
    need=$(on t GET /v1/status | jq '.farm.this_host.admission.slow.need // 0')
    [ "$need" -gt 0 ] && break
    sleep 0.1
done
kbytes=$(on t GET /v1/status | jq '.memory.keys')
kill -TERM "${HPID[t]}" && wait "${HPID[t]}"
unset "HPID[t]"
budget=$((kbytes + need * 6 / 5))
echo "    host t: keys $((kbytes >> 10)) KiB, a slow partition $((need >> 10)) KiB: budget $((budget >> 10)) KiB"
host t --set engine.host_memory_budget="$budget" || cz_finish
cz_check "host t's slots (workers + 1) would take two" test "$(on t GET /v1/status | jq .farm.this_host.slots)" -ge 2
mapfile -t IDS < <(submit_slow a 16)
cz_check "16 slow jobs with host t in the farm: all done" await_all a "${IDS[@]}"
T=$(on t GET /v1/status | jq -c .farm.this_host)
echo "    host t: $(jq -c '{max_running, admission, counts: .counts | {claimed, completed, held_back}}' <<<"$T")"
cz_check "  t proved some ($(jq .counts.completed <<<"$T"))" test "$(jq .counts.completed <<<"$T")" -ge 1
cz_check "  t never held two leases at once" test "$(jq .max_running <<<"$T")" = 1
cz_check "  t held back while partitions waited, and logged why" \
    eval 'test "$(jq .counts.held_back <<<"$T")" -ge 1 && grep -q "holding back: a partition of key .slow. needs" "$TMP/t.log"'
cz_check "  the others took the rest" \
    test "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE job_id IN ($(for id in "${IDS[@]}"; do printf '%s,' "$(num "$id")"; done)0)
                       AND owner <> 't'")" = $((16 - $(jq .counts.completed <<<"$T")))
kill -TERM "${HPID[t]}" && wait "${HPID[t]}"
unset "HPID[t]"

# ---- keys a host finds in its key folder -------------------------------------------------
# Host f has a key folder ([paths] keys) holding folder.zkey (the slow key
# under another id, which no host holds) and broken.zkey (not a key): it
# announces both, so any host accepts jobs naming them; it loads folder
# when a partition waits for it and proves; broken fails to load once and
# is left queued (not failed), not tried again by f for a while.
mkdir -p "$TMP/kd"
cp "$TMP/slow.zkey" "$TMP/kd/folder.zkey"
head -c 5000 /dev/urandom >"$TMP/kd/broken.zkey"
host f --set paths.keys="$TMP/kd" --set paths.witnesses="$TMP" || cz_finish
cz_check "host f announces the keys of its folder" \
    test "$(on f GET /v1/status | jq -c '.farm.this_host.keys.loadable | sort')" = '["broken","folder"]'
mapfile -t IDS < <(for i in 1 2 3 4; do
    on b POST /v1/proofs -H 'Content-Type: application/json' \
        -d "{\"key\":\"folder\",\"witness_path\":\"$TMP/slow.wtns\"}" | jq -r .job_id
done)
cz_check "4 jobs of key 'folder' (in f's folder only) accepted by b, all done" await_all b "${IDS[@]}"
cz_check "  all proven by f" \
    test "$(cz_psql "SELECT string_agg(DISTINCT owner, ',') FROM cz_partitions p JOIN cz_jobs j USING (job_id)
                       WHERE j.key_id = 'folder'")" = f
bad=0
for id in "${IDS[@]}"; do
    j=$(on b GET "/v1/proofs/$id")
    jq .proof <<<"$j" >"$TMP/f-$id.proof.json"
    jq .public <<<"$j" >"$TMP/f-$id.public.json"
    "$CUZK" verify --quiet "$TMP/slow_vk.json" "$TMP/f-$id.public.json" "$TMP/f-$id.proof.json" \
        >/dev/null 2>&1 || bad=$((bad + 1))
done
cz_check "  their proofs verify" test "$bad" = 0
cz_check "  f loaded the key once, and holds it" \
    eval 'test "$(grep -c "key folder loaded from" "$TMP/f.log")" = 1 && on f GET /v1/keys | jq -e ".[] | select(.id == \"folder\")" >/dev/null'
B=$(on a POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"broken\",\"witness_path\":\"$TMP/slow.wtns\"}" | jq -r .job_id)
cz_check "a job of key 'broken' (f announces it) is accepted" test "$(code)" = 202
for _ in $(seq 1 100); do
    grep -q "key broken: cannot load" "$TMP/f.log" && break
    sleep 0.05
done
sleep 1.5
row=$(cz_psql "SELECT state || ':' || attempts FROM cz_partitions WHERE job_id = $(num "$B")")
cz_check "  f cannot load it: tried once, its job left queued (never claimed, not failed: $row)" \
    eval 'test "$(grep -c "key broken: cannot load" "$TMP/f.log")" = 1 -a "$row" = "queued:0"'
grep "key broken: cannot load" "$TMP/f.log" | head -1 | sed 's/^/    f: /'
cz_check "  f's status says why and when it tries again" \
    eval 'on f GET /v1/status | jq -e ".farm.this_host.keys.refused.broken | .error and .retry_in_s > 30" >/dev/null'
on a DELETE "/v1/proofs/$B" >/dev/null
kill -TERM "${HPID[f]}" && wait "${HPID[f]}"
unset "HPID[f]"

sleep 0.5
cz_check "no lease or queued partition is left" \
    test "$(cz_psql "SELECT count(*) FROM cz_partitions WHERE state IN ('queued', 'running')")" = 0

# ---- soak: 30 s of bounded load; rows, leases and memory stay flat ----------------------
stop_all
for h in a b c; do host "$h" --set farm.retain_s=2 || cz_finish; done
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; } # KiB
"$BENCH" --addr "unix:${HSOCK[a]}" batch -t groth16 --key small --witness "$WTNS" -c 60 -j 6 >/dev/null 2>&1
declare -A RSS0
for h in a b c; do RSS0[$h]=$(rss "${HPID[$h]}"); done
soak_end=$(($(date +%s) + 30))
n=0 bad=0 i=0
hosts=(a b c)
while [ "$(date +%s)" -lt "$soak_end" ]; do
    h=${hosts[$((i % 3))]}
    i=$((i + 1))
    out=$("$BENCH" --addr "unix:${HSOCK[$h]}" batch -t groth16 --key small --witness "$WTNS" -c 60 -j 6 2>&1 | grep '^{')
    n=$((n + $(jq .completed <<<"$out")))
    bad=$((bad + $(jq .failed <<<"$out")))
done
cz_check "soak: $n proofs in 30 s through the three hosts, none failed" test "$bad" = 0 -a "$n" -gt 0
sleep 3.5 # past retain_s, and a housekeeping round
cz_check "  finished jobs deleted after retain_s: no rows left" \
    test "$(cz_psql "SELECT (SELECT count(*) FROM cz_jobs) + (SELECT count(*) FROM cz_partitions)")" = 0
grow=0
for h in a b c; do
    r=$(rss "${HPID[$h]}")
    echo "    host $h RSS: $((RSS0[$h] / 1024)) MiB after 60 proofs, $((r / 1024)) MiB after the soak"
    [ $((r - RSS0[$h])) -gt 24576 ] && grow=$((grow + 1))
done
if grep -qE "^CUZK_SANITIZE:STRING=.+" "$BUILD/CMakeCache.txt" 2>/dev/null; then  # a sanitizer build
    echo "    (a sanitizer build: its allocator keeps freed memory; LeakSanitizer checks the hosts at exit)"
else
    cz_check "  no host's memory grew by more than 24 MiB" test "$grow" = 0
fi
stop_all
SAN_RE="AddressSanitizer|LeakSanitizer|runtime error"
for f in "$TMP"/?.log; do # name any sanitizer report, with its first lines
    grep -qE "$SAN_RE" "$f" || continue
    echo "    sanitizer report in $(basename "$f"):"
    grep -m1 -A25 -E "$SAN_RE" "$f" | sed 's/^/      /'
done
cz_check "every host stopped cleanly (exit 0 on SIGTERM, no sanitizer report)" \
    eval 'test "$STOP_BAD" = 0 && ! grep -qE "$SAN_RE" "$TMP"/?.log'
echo "test_farm: $(($(date +%s) - T_START)) s"
cz_finish
