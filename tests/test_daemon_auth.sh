#!/usr/bin/env bash
# ctest: labels=unit timeout=300
# Who may use cuzkd (docs/DAEMON.md, "Clients on TCP"): with
# daemon.token_file, every request on TCP carries the bearer token (no or a
# wrong token: 401 with WWW-Authenticate, logged with the peer, before any
# body is read); the unix socket needs none and is created 0660; a listen
# address off loopback without a token file, a token file others can read,
# or a token too short are refused at start and by --check-config (exit 2);
# cuzk-bench sends the token from --token-file or $CUZK_TOKEN(_FILE).
# Only loopback and unix-socket traffic.
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

KEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json
PORT=$((20000 + ($$ * 7) % 20000))
TOK=$TMP/token
printf 'tok-%s\n' "$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')" >"$TOK"
chmod 0600 "$TOK"

cz_daemon_start a --listen "127.0.0.1:$PORT" --set daemon.token_file="$TOK" --key small="$KEY"
URL=http://127.0.0.1:$PORT
cz_check "unix socket created 0660" test "$(stat -c %a "$SOCK")" = 660
c=$(curl -s -o "$TMP/r" -w '%{http_code}' -D "$TMP/h" "$URL/v1/health")
cz_check "TCP without a token: 401 (got $c)" test "$c" = 401
cz_check "... with WWW-Authenticate: Bearer" grep -qi '^WWW-Authenticate: Bearer' "$TMP/h"
cz_check "... and a JSON error" sh -c "jq -e '.code == \"unauthorized\"' '$TMP/r' >/dev/null"
c=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer wrong-token-of-some-length" "$URL/v1/health")
cz_check "TCP with a wrong token: 401 (got $c)" test "$c" = 401
c=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $(head -1 "$TOK")x" "$URL/v1/health")
cz_check "TCP with the token and one more byte: 401 (got $c)" test "$c" = 401
c=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $(head -1 "$TOK")" "$URL/v1/health")
cz_check "TCP with the token: 200 (got $c)" test "$c" = 200
# a proof submitted without the token is refused before its body is read
c=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @"$WTNS" "$URL/v1/proofs?key=small")
cz_check "an upload without the token: 401 (got $c)" test "$c" = 401
cz_check "the refusals are logged with the peer" grep -q '401: no bearer token from 127.0.0.1' "$TMP/a.log"
cz_check "... and a wrong token too" grep -q '401: a wrong bearer token from 127.0.0.1' "$TMP/a.log"
cz_check "the token never appears in the log" sh -c "! grep -qF \"\$(head -1 '$TOK')\" '$TMP/a.log'"
api GET /v1/health >/dev/null
cz_check "the unix socket needs no token: 200 (got $(code))" test "$(code)" = 200
cz_expect 1 "cuzk-bench on TCP without the token: refused" \
    "$BENCH" --addr "127.0.0.1:$PORT" batch -t groth16 --key small --witness "$WTNS" -c 1 --upload
cz_expect 0 "cuzk-bench --token-file on TCP: 3 proofs" \
    "$BENCH" --addr "127.0.0.1:$PORT" --token-file "$TOK" batch -t groth16 --key small --witness "$WTNS" \
    -c 3 -j 2 --upload --out "$TMP/p"
n=0
for f in "$TMP"/p/proof-*.json; do
    [ -e "$f" ] || continue
    "$CUZK" verify --quiet "$VK" "${f/proof-/public-}" "$f" >/dev/null && n=$((n + 1))
done
cz_check "every proof verifies ($n of 3)" test "$n" = 3
cz_expect 0 "cuzk-bench with \$CUZK_TOKEN" env CUZK_TOKEN="$(head -1 "$TOK")" "$BENCH" --addr "127.0.0.1:$PORT" status
cz_daemon_stop

# refused at start, and by --check-config
cz_expect 2 "listen off loopback without a token file: refused" "$CUZKD" --listen 0.0.0.0:$PORT
cz_check "... saying why" sh -c "printf '%s' \"\$1\" | grep -q 'not a loopback address: set daemon.token_file'" _ "$RUN_ERR"
printf '[daemon]\nlisten = 0.0.0.0:%s\n' "$PORT" >"$TMP/open.ini"
cz_expect 2 "--check-config: the same" "$CUZKD" --check-config "$TMP/open.ini"
printf '[daemon]\nlisten = 0.0.0.0:%s\ntoken_file = %s\n' "$PORT" "$TOK" >"$TMP/tok.ini"
cz_expect 0 "--check-config: off loopback with a token file" "$CUZKD" --check-config "$TMP/tok.ini"
chmod 0644 "$TOK"
cz_expect 2 "a token file others can read: refused" "$CUZKD" --check-config "$TMP/tok.ini"
cz_check "... saying so" sh -c "printf '%s' \"\$1\" | grep -q 'readable or writable by others'" _ "$RUN_ERR"
printf 'short\n' >"$TMP/short"
chmod 0600 "$TMP/short"
cz_expect 2 "a token of 5 characters: refused" "$CUZKD" --listen "127.0.0.1:$PORT" --set daemon.token_file="$TMP/short"
mkfifo "$TMP/fifo"
cz_expect 2 "a FIFO as the token file: refused at once" timeout 10 "$CUZKD" --listen "127.0.0.1:$PORT" --set daemon.token_file="$TMP/fifo"
cz_finish
