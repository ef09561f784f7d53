# daemon_lib.sh: helpers for the cuzkd end-to-end tests, sourced after lib.sh.
#
# cz_daemon_start NAME ARGS...  start cuzkd (log in $TMP/NAME.log), wait until
#                               /v1/health answers; sets DPID and SOCK
# cz_daemon_stop                SIGTERM and wait (fails the test on a hang)
# api METHOD PATH [curl args]   call the daemon on $SOCK; body on stdout,
#                               HTTP status in $TMP/.code

CUZKD=$BIN/cuzkd
BENCH=$BIN/cuzk-bench
command -v curl >/dev/null && command -v jq >/dev/null || {
    echo "FAIL: curl and jq are needed (scripts/setup.sh installs them)" >&2
    exit 1
}

cz_daemon_start() {
    local name=$1
    shift
    SOCK=$TMP/$name.sock
    "$CUZKD" --listen "unix:$SOCK" "$@" >"$TMP/$name.log" 2>&1 &
    DPID=$!
    for _ in $(seq 1 200); do
        if curl -s --unix-socket "$SOCK" http://x/v1/health >/dev/null 2>&1; then
            return 0
        fi
        if ! kill -0 "$DPID" 2>/dev/null; then
            cz_fail "cuzkd $name exited at start"
            sed 's/^/    log: /' "$TMP/$name.log" >&2
            return 1
        fi
        sleep 0.05
    done
    cz_fail "cuzkd $name did not answer within 10 s"
    return 1
}

cz_daemon_stop() {
    kill -TERM "$DPID" 2>/dev/null
    for _ in $(seq 1 600); do
        kill -0 "$DPID" 2>/dev/null || { wait "$DPID"; DRC=$?; return 0; }
        sleep 0.05
    done
    cz_fail "cuzkd did not stop within 30 s of SIGTERM"
    kill -9 "$DPID" 2>/dev/null
    return 1
}

api() {
    local method=$1 path=$2
    shift 2
    curl -s --unix-socket "$SOCK" -o "$TMP/.body" -w '%{http_code}' -X "$method" "$@" \
        "http://localhost$path" >"$TMP/.code"
    cat "$TMP/.body"
}
code() { cat "$TMP/.code"; }

# cz_await ID: long-poll until the job finishes; prints its final JSON.
cz_await() {
    local j st
    for _ in $(seq 1 120); do
        j=$(api GET "/v1/proofs/$1?wait_ms=5000")
        st=$(printf '%s' "$j" | jq -r .status)
        case "$st" in done | failed | cancelled) printf '%s' "$j"; return 0 ;; esac
    done
    printf '%s' "$j"
    return 1
}

# cz_verify_parts DIR VK JOBS PARTS: cuzk verify DIR/proof-k-p.json (cuzk-bench batch -t
# porep's names) for jobs k = 1..JOBS and partitions p = 1..PARTS; BAD = how many fail.
cz_verify_parts() {
    local dir=$1 vk=$2 k p
    BAD=0
    for ((k = 1; k <= $3; k++)); do
        for ((p = 1; p <= $4; p++)); do
            "$CUZK" verify --quiet "$vk" "$dir/public-$k-$p.json" "$dir/proof-$k-$p.json" >/dev/null 2>&1 ||
                BAD=$((BAD + 1))
        done
    done
}

# cz_verify_dir DIR VK N: cuzk verify DIR/proof-i.json for i = 1..N.
cz_verify_dir() {
    local dir=$1 vk=$2 n=$3 i bad=0
    for ((i = 1; i <= n; i++)); do
        "$CUZK" verify --quiet "$vk" "$dir/public-$i.json" "$dir/proof-$i.json" >/dev/null 2>&1 || bad=$((bad + 1))
    done
    return $bad
}
