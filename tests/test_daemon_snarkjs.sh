#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# Proofs from cuzkd, submitted concurrently at mixed priorities, pass
# snarkjs's own verifier.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle
. "$(dirname "$0")/daemon_lib.sh"

cz_daemon_start o --key small="$FIX/small.zkey" || cz_finish
pids=()
for p in low normal high critical; do
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$FIX/small.wtns" \
        -c 3 -j 2 --priority $p --out "$TMP/$p" >"$TMP/$p.log" 2>&1 &
    pids+=($!)
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}" && cz_pass "batch $i completed" || { cz_fail "batch $i"; cat "$TMP"/*.log >&2; }
done
for p in low normal high critical; do
    for i in 1 2 3; do
        cz_expect 0 "snarkjs verifies $p proof $i" snarkjs groth16 verify "$FIX/small_vk.json" \
            "$TMP/$p/public-$i.json" "$TMP/$p/proof-$i.json"
    done
done
cz_daemon_stop
cz_finish
