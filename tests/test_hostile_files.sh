#!/usr/bin/env bash
# ctest: labels=unit timeout=600
# test_hostile_files.sh: cuzkd against hostile files and paths (issue 16,
# findings 1-7, 12 and two of 13). Each check failed on the code before the
# fix (docs/DAEMON.md "Files and paths" says what the daemon does instead):
#   1  a key file truncated under the daemon killed it (SIGBUS)
#   2  a witness_path to a FIFO hung the witness workers and the shutdown
#   3  a key path or --config to a FIFO or /dev/zero hung the request / start
#   4  a key path to /dev/zero grew the daemon's memory without limit
#   5  a header claiming a huge domain over a sparse file was believed
#   6  a key load that failed for memory evicted the keys already loaded
#   7  any path was opened, and errors told whether it existed, its type,
#      size and first bytes
#   12 a witness file was read whole whatever its size and the budget
#   13 two concurrent loads of one id both got 201; the start-up log said
#      "0 device(s)" on the CPU
# Every request has a 10 s limit and every daemon stop a 30 s one, so a
# hang is a failure, never a stuck suite; every proof is verified.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

VK=$FIX/small_vk.json
PORT=$((20000 + ($$ + 7919) % 20000))
KD=$TMP/keys # the folder the operator names: clients may name files in it
mkdir -p "$KD" "$TMP/other"
cp "$FIX/small.zkey" "$FIX/small.wtns" "$KD/"
W=$KD/small.wtns

capi() { api "$@" --max-time 10; }
json() { printf '{"%s":"%s","%s":"%s"}' "$1" "$2" "$3" "$4"; }
load_key() { capi POST /v1/keys -H 'Content-Type: application/json' -d "$(json id "$1" path "$2")"; }
submit() { capi POST /v1/proofs -H 'Content-Type: application/json' -d "$(json key "$1" witness_path "$2")"; }
hwm_mib() { awk '/VmHWM/ { print int($2 / 1024) }' "/proc/$DPID/status"; }
alive() { kill -0 "$DPID" 2>/dev/null; }

# await_job ID: the job's final JSON, waiting at most 30 s
await_job() {
    local j st
    for _ in 1 2 3 4 5 6; do
        j=$(capi GET "/v1/proofs/$1?wait_ms=5000")
        st=$(jq -r .status <<<"$j" 2>/dev/null)
        case "$st" in done | failed | cancelled) break ;; esac
    done
    printf '%s' "$j"
}

# proves KEY WTNS DESC: a job by path on KEY is done and its proof verifies
proves() {
    local id j
    id=$(submit "$1" "$2" | jq -r .job_id)
    j=$(await_job "$id")
    jq .proof <<<"$j" >"$TMP/proof.json" 2>/dev/null
    jq .public <<<"$j" >"$TMP/public.json" 2>/dev/null
    cz_check "$3" test "$(jq -r .status <<<"$j" 2>/dev/null)" = done
    cz_check "... and its proof verifies" sh -c '"$1" verify --quiet "$2" "$3" "$4" >/dev/null' _ "$CUZK" "$VK" "$TMP/public.json" "$TMP/proof.json"
}

# le N V: V as N little-endian bytes
le() {
    local s="" i
    for ((i = 0; i < $1; i++)); do s+=$(printf '\\%03o' $((($2 >> (8 * i)) & 255))); done
    # shellcheck disable=SC2059
    printf "$s"
}

# big_domain SRC DST LOG: SRC claiming a domain of 2^LOG, its H section of
# 2^LOG points a hole (sparse: zeros, the point at infinity), so that every
# section size agrees with the header; the file takes a few KB on disk.
big_domain() {
    local id off size pos=12
    head -c 12 "$1" >"$2"
    while read -r id off size; do
        if [ "$id" = 9 ]; then
            size=$(((1 << $3) * 96))
            { le 4 9; le 8 "$size"; } | dd of="$2" bs=1M oflag=seek_bytes seek=$pos conv=notrunc status=none
            truncate -s $((pos + 12 + size)) "$2"
        else
            dd if="$1" iflag=skip_bytes,count_bytes bs=1M skip=$((off - 12)) count=$((size + 12)) status=none |
                dd of="$2" bs=1M oflag=seek_bytes seek=$pos conv=notrunc status=none
            [ "$id" = 2 ] && le 4 $((1 << $3)) | dd of="$2" bs=1 seek=$((pos + 108)) conv=notrunc status=none
        fi
        pos=$((pos + 12 + size))
    done < <(cz_sections "$1")
}

mkfifo "$KD/fifo"
ln -s /etc/passwd "$KD/link-out"
ln -s /etc "$KD/dir-out"
printf 'secret words, not a key\n' >"$KD/text.zkey"
big_domain "$FIX/small.zkey" "$KD/big24.zkey" 24
truncate -s 4G "$KD/huge.wtns"

echo "== configuration files that are not regular files (finding 3)"
cz_expect 2 "cuzkd --config /dev/zero is refused at once" timeout -k 5 10 "$CUZKD" --config /dev/zero --listen "unix:$TMP/z.sock"
cz_check "... naming what it is" grep -q "character device" "$TMP/.err"
cz_expect 2 "cuzkd --config FIFO is refused at once" timeout -k 5 10 "$CUZKD" --config "$KD/fifo" --listen "unix:$TMP/z.sock"
cz_check "... naming what it is" grep -q "FIFO" "$TMP/.err"
cz_expect 2 "cuzkd --key on a FIFO is refused at once" timeout -k 5 10 "$CUZKD" --key f="$KD/fifo" --listen "unix:$TMP/z.sock"
cz_expect 2 "a [paths] folder that does not exist is refused at start" \
    timeout -k 5 10 "$CUZKD" --set paths.keys="$TMP/no/such/dir" --listen "unix:$TMP/z.sock"

# ---- daemon a: the default policy (the folder of its key), unix socket and TCP ----
cz_daemon_start a --listen "127.0.0.1:$PORT" --key small="$KD/small.zkey" --device cpu \
    --set engine.prove_threads=1 || cz_finish

echo "== the start-up log (finding 13)"
cz_check "it names the backend and counts the CPU as one device" \
    grep -qE "engine started: backend cpu on .*1 device " "$TMP/a.log"
cz_check "it never says 0 device(s)" sh -c "! grep -q '0 device' '$TMP/a.log'"

echo "== paths outside the allowed folders reveal nothing (finding 7)"
outside=(/etc/passwd "/etc/no-such-file-$$" /etc /dev/null /dev/zero "$KD/../../../../../etc/passwd"
    "$KD/link-out" "$KD/dir-out/passwd" "$TMP/other/nothing")
: >"$TMP/key_msgs"
: >"$TMP/wtns_msgs"
for p in "${outside[@]}"; do
    load_key x "$p" >/dev/null
    printf '%s %s\n' "$(code)" "$(jq -r .error "$TMP/.body" | sed "s|$p|PATH|g")" >>"$TMP/key_msgs"
    submit small "$p" >/dev/null
    printf '%s %s\n' "$(code)" "$(jq -r .error "$TMP/.body" | sed "s|$p|PATH|g")" >>"$TMP/wtns_msgs"
done
cz_check "keys: one answer for a file, a folder, a device, nothing ($(sort -u "$TMP/key_msgs" | wc -l) kinds)" \
    test "$(sort -u "$TMP/key_msgs" | wc -l)" = 1
cz_check "keys: it is a 4xx" grep -q '^4' "$TMP/key_msgs"
cz_check "witnesses: one answer for all of them too ($(sort -u "$TMP/wtns_msgs" | wc -l) kinds)" \
    test "$(sort -u "$TMP/wtns_msgs" | wc -l)" = 1
cz_check "witnesses: refused at once (4xx, no job)" grep -q '^4' "$TMP/wtns_msgs"
cz_check "no answer holds a file's bytes" sh -c "! grep -qiE 'root|magic|bytes' '$TMP/key_msgs' '$TMP/wtns_msgs'"
load_key t "$KD/text.zkey" >/dev/null
cz_check "a text file in the folder, as a key: 4xx without its text (got $(code))" \
    sh -c "grep -q '^4' '$TMP/.code' && ! grep -q secr '$TMP/.body'"
id=$(submit small "$KD/text.zkey" | jq -r .job_id)
j=$(await_job "$id")
cz_check "... and as a witness: its job fails" test "$(jq -r .status <<<"$j")" = failed
cz_check "... without its text" sh -c '! printf "%s" "$1" | grep -q secr' _ "$j"

echo "== clients on TCP name no files unless configured (finding 7)"
tcp() { curl -s --max-time 10 -o "$TMP/.body" -w '%{http_code}' -H 'Content-Type: application/json' "$@" >"$TMP/.code"; }
tcp -d "$(json id t path "$KD/small.zkey")" "http://127.0.0.1:$PORT/v1/keys"
cz_check "a key path over TCP: 4xx (got $(code))" grep -q '^4' "$TMP/.code"
tcp -d "$(json key small witness_path "$W")" "http://127.0.0.1:$PORT/v1/proofs"
cz_check "a witness path over TCP: 4xx (got $(code))" grep -q '^4' "$TMP/.code"
id=$(curl -s --max-time 10 -H 'Content-Type: application/octet-stream' --data-binary "@$W" \
    "http://127.0.0.1:$PORT/v1/proofs?key=small" | jq -r .job_id)
cz_check "an uploaded witness over TCP is proven" test "$(await_job "$id" | jq -r .status)" = done

echo "== two loads of one id at once (finding 13)"
"$BIN/cuzk-synth" --constraints 30000 "$TMP/c.r1cs" "$TMP/c.wtns" >/dev/null &&
    "$CUZK" setup --quiet --seed 5 "$TMP/c.r1cs" "$KD/c1.zkey" 2>/dev/null &&
    cp "$KD/c1.zkey" "$KD/c2.zkey" || cz_fail "a key for the concurrent loads"
pids=()
for p in c1 c2; do
    curl -s --max-time 20 --unix-socket "$SOCK" -o /dev/null -w '%{http_code}\n' \
        -H 'Content-Type: application/json' -d "$(json id dup path "$KD/$p.zkey")" http://x/v1/keys >"$TMP/load.$p" &
    pids+=($!)
done
wait "${pids[@]}"
codes=$(sort "$TMP/load.c1" "$TMP/load.c2" | tr '\n' ' ')
cz_check "one load of 'dup' is 201, the other 409 (got $codes)" test "$codes" = "201 409 "
proves small "$W" "and the daemon proves on"

echo "== the key file truncated under the daemon (finding 1)"
: >"$KD/small.zkey"
proves small "$W" "a proof on the key after its file was truncated"
cz_check "the daemon is alive" alive
printf 'zkey garbage' >"$KD/small.zkey"
proves small "$W" "a proof on the key after its file was rewritten"
cp "$FIX/small.zkey" "$KD/small.zkey"

echo "== FIFOs in the allowed folder (findings 2, 3)"
load_key f "$KD/fifo" >/dev/null
cz_check "a key on a FIFO: 400 at once naming it (got $(code))" \
    sh -c "test '$(code)' = 400 && grep -q FIFO '$TMP/.body'"
submit small "$KD/fifo" >/dev/null
c1=$(code)
submit small "$KD/fifo" >/dev/null
cz_check "a witness on a FIFO, twice: 400 at once (got $c1, $(code))" test "$c1$(code)" = 400400
proves small "$W" "a job after them is proven"

cz_check "no sanitizer report in the log" sh -c "! grep -qE 'Sanitizer|runtime error' '$TMP/a.log'"
cz_daemon_stop
cz_check "daemon a stops cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- daemon m: a small budget ---------------------------------------------------------
cz_daemon_start m --key small="$KD/small.zkey" --set engine.host_memory_budget=64M \
    --set engine.prove_threads=1 || cz_finish

echo "== a key that cannot fit evicts nothing (findings 5, 6)"
load_key big "$KD/big24.zkey" >/dev/null
cz_check "a header claiming 2^24 points over a sparse file: 507, before reading" \
    sh -c "test '$(code)' = 507 && test $(hwm_mib) -lt 1024"
truncate -s 100G "$KD/huge.zkey"
load_key big "$KD/huge.zkey" >/dev/null
cz_check "a 100 GB sparse file: 4xx/5xx (got $(code))" grep -qE '^[45]' "$TMP/.code"
cz_check "the key loaded before is still there" \
    test "$(capi GET /v1/keys | jq -r '[.[].id] | join(",")')" = small
load_key small "$KD/small.zkey" >/dev/null # a no-op: it is there (the checks below need it)
proves small "$W" "and proves"
cz_check "peak RSS stayed small ($(hwm_mib) MiB < 1024)" test "$(hwm_mib)" -lt 1024

echo "== a witness file far larger than a witness (finding 12)"
id=$(submit small "$KD/huge.wtns" | jq -r .job_id)
j=$(await_job "$id")
cz_check "a 4 GB (sparse) witness fails" test "$(jq -r .status <<<"$j")" = failed
cz_check "... saying its size is wrong" sh -c 'printf "%s" "$1" | grep -q "more than a witness"' _ "$j"
cz_check "... without being read (peak RSS $(hwm_mib) MiB < 1024)" test "$(hwm_mib)" -lt 1024

echo "== uploads count in the host memory budget (finding 12)"
base=$(hwm_mib)
truncate -s 200M "$TMP/zeros200"
truncate -s 20M "$TMP/zeros20"
capi POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary "@$TMP/zeros200" >/dev/null
cz_check "an upload larger than the whole budget: 413 saying so (got $(code))" \
    sh -c "test '$(code)' = 413 && grep -q budget '$TMP/.body'"
pids=()
for i in 1 2 3 4; do
    curl -s --max-time 20 --limit-rate 10M --unix-socket "$SOCK" -o /dev/null -w '%{http_code}\n' \
        -H 'Content-Type: application/octet-stream' --data-binary "@$TMP/zeros20" \
        "http://x/v1/proofs?key=small" >"$TMP/up.$i" &
    pids+=($!)
done
wait "${pids[@]}"
codes=$(cat "$TMP"/up.? | sort | tr '\n' ' ')
cz_check "four 20 MB uploads at once on a 64 MB budget: some wait their turn (503) (got $codes)" \
    grep -q 503 <<<"$codes"
cz_check "... the others are read and refused as witnesses (4xx) (got $codes)" \
    test -z "$(grep -oE '\b(2|5)[0-9][0-9]\b' <<<"$codes" | grep -v 503)"
cz_check "... and the daemon's peak RSS stays within the budget ($base -> $(hwm_mib) MiB, budget 64)" \
    test "$(hwm_mib)" -lt $((base + 64 + 32))
id=$(capi POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' --data-binary "@$W" | jq -r .job_id)
cz_check "an upload that fits is proven" test "$(await_job "$id" | jq -r .status)" = done
cz_check "no memory stays held ($(capi GET /v1/status | jq -c .memory))" \
    test "$(capi GET /v1/status | jq .memory.jobs)" = 0

cz_check "no sanitizer report in the log" sh -c "! grep -qE 'Sanitizer|runtime error' '$TMP/m.log'"
cz_daemon_stop
cz_check "daemon m stops cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- daemon d: /dev among the key folders ---------------------------------------------
cz_daemon_start d --key small="$KD/small.zkey" --set paths.keys="/dev:$KD" || cz_finish
echo "== a device named as a key (finding 4)"
load_key z /dev/zero >/dev/null
cz_check "/dev/zero as a key, in an allowed folder: 400 at once naming it (got $(code))" \
    sh -c "test '$(code)' = 400 && grep -q 'character device' '$TMP/.body'"
cz_check "... nothing read (peak RSS $(hwm_mib) MiB < 1024)" test "$(hwm_mib)" -lt 1024
cz_daemon_stop
cz_check "daemon d stops cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- daemon p: [paths] set, TCP allowed ---------------------------------------------
mkdir -p "$TMP/wd"
cp "$W" "$TMP/wd/w.wtns"
printf '[keys]\nsmall = %s\n[paths]\nwitnesses = %s\ntcp = true\n' "$KD/small.zkey" "$TMP/wd" >"$TMP/p.ini"
cz_daemon_start p --config "$TMP/p.ini" --listen "127.0.0.1:$PORT" || cz_finish
echo "== [paths] witnesses and tcp"
proves small "$TMP/wd/w.wtns" "a witness in [paths] witnesses is proven"
submit small "$W" >/dev/null
cz_check "one outside it (in the key folder) is refused (got $(code))" grep -q '^4' "$TMP/.code"
tcp -d "$(json key small witness_path "$TMP/wd/w.wtns")" "http://127.0.0.1:$PORT/v1/proofs"
id=$(jq -r .job_id "$TMP/.body")
cz_check "with tcp = true, a witness path over TCP is proven" test "$(await_job "$id" | jq -r .status)" = done
cz_daemon_stop
cz_check "daemon p stops cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

cz_finish
