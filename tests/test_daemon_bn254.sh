#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# cuzkd with a snarkjs bn128 key resident next to a BLS12-381 key: the
# bn128 key is listed with its curve, its jobs (uploaded witness, witness
# path, several partitions) prove on the CPU and every proof passes
# snarkjs's verifier and cuzk verify, its proof JSON has the fields of
# `cuzk prove`'s in the same order, its /vk is snarkjs's; a witness of the
# other curve is refused (4xx naming the curve) or fails its job by path;
# a BLS12-381 job in the same daemon still proves. Where the backend is
# cuda (the host model in a -DCUZK_CUDA=MODEL build), both keys are
# resident on the device and the bn128 jobs prove there too; on the CPU
# backend they leave the device idle.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle
. "$(dirname "$0")/daemon_lib.sh"

BN=$(cd "$FIX/bn254" && pwd)
FIXABS=$(cd "$FIX" && pwd)
BVK=$BN/small_vk.json

cz_daemon_start b --key bn="$BN/small.zkey" --key small="$FIX/small.zkey" || cz_finish

# ---- keys -----------------------------------------------------------------------------
keys=$(api GET /v1/keys)
cz_check "both keys are resident, bn as bn128 and small as bls12381" \
    test "$(jq -r '[.[] | "\(.id)=\(.curve)"] | sort | join(" ")' <<<"$keys")" = "bn=bn128 small=bls12381"
cz_check "the bn128 key's counts and bytes are listed" \
    test "$(jq -r '.[] | select(.id == "bn") | [.n_vars > 1, .domain_size > 0, .bytes > 0, .state] | join(" ")' <<<"$keys")" = "true true true ready"
api GET /v1/keys/bn/vk >"$TMP/bn_vk.json"
cz_check "GET /v1/keys/bn/vk: 200, snarkjs's verification key" \
    test "$(code)" = 200 -a "$(jq -S . "$TMP/bn_vk.json")" = "$(jq -S . "$BVK")"

# ---- jobs: uploaded and by path -------------------------------------------------------
n=0
for w in small small_2 small_3; do
    id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
        -d "{\"key\":\"bn\",\"witness_path\":\"$BN/$w.wtns\"}" | jq -r .job_id)
    j=$(cz_await "$id")
    [ -n "${bn_first:-}" ] || bn_first=$id
    n=$((n + 1))
    cz_check "$w.wtns by path: done" test "$(jq -r .status <<<"$j")" = "done" || echo "$j" >&2
    jq .proof <<<"$j" >"$TMP/proof-$n.json"
    jq .public <<<"$j" >"$TMP/public-$n.json"
    cp "$BN/$w.wtns" "$TMP/w-$n.wtns"
    id=$(api POST "/v1/proofs?key=bn" -H 'Content-Type: application/octet-stream' \
        --data-binary "@$BN/$w.wtns" | jq -r .job_id)
    j=$(cz_await "$id")
    n=$((n + 1))
    cz_check "$w.wtns uploaded: done" test "$(jq -r .status <<<"$j")" = "done" || echo "$j" >&2
    jq .proof <<<"$j" >"$TMP/proof-$n.json"
    jq .public <<<"$j" >"$TMP/public-$n.json"
    cp "$BN/$w.wtns" "$TMP/w-$n.wtns"
done
for ((i = 1; i <= n; i++)); do
    cz_expect 0 "snarkjs verifies bn128 proof $i" snarkjs groth16 verify "$BVK" \
        "$TMP/public-$i.json" "$TMP/proof-$i.json"
    cz_expect 0 "cuzk verify accepts bn128 proof $i" "$CUZK" verify --quiet "$BVK" \
        "$TMP/public-$i.json" "$TMP/proof-$i.json"
done
cz_check "small.wtns's public inputs are snarkjs's" cz_public_same "$TMP/public-1.json" "$BN/small_public.json"
# a tampered public input is rejected: the proofs are bound to their statements
jq -c '.[0] = "7"' "$TMP/public-1.json" >"$TMP/public-bad.json"
cz_expect 1 "cuzk verify rejects proof 1 with a changed public input" "$CUZK" verify --quiet "$BVK" \
    "$TMP/public-bad.json" "$TMP/proof-1.json"

# the JSON of `cuzk prove` for the same key: the same fields in the same order
cz_expect 0 "cuzk prove of the bn128 key" "$CUZK" prove --quiet "$BN/small.zkey" "$BN/small.wtns" \
    "$TMP/cli_proof.json" "$TMP/cli_public.json"
cz_check "the daemon's proof has cuzk prove's fields, in order, and curve bn128" \
    test "$(jq -c '[keys_unsorted, .curve, .protocol]' "$TMP/proof-1.json")" = \
    "$(jq -c '[keys_unsorted, .curve, .protocol]' "$TMP/cli_proof.json")" -a \
    "$(jq -r .curve "$TMP/proof-1.json")" = bn128
cz_check "the daemon's public list is cuzk prove's" \
    test "$(jq -c . "$TMP/public-1.json")" = "$(jq -c . "$TMP/cli_public.json")"

# ---- partitions ---------------------------------------------------------------------
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"bn\",\"witness_paths\":[\"$BN/small.wtns\",\"$BN/small_2.wtns\",\"$BN/small_3.wtns\"]}" |
    jq -r .job_id)
j=$(cz_await "$id")
cz_check "a bn128 job of 3 partitions is done with 3 proofs and 3 public lists" \
    test "$(jq -r '[.status, (.proofs | length), (.publics | length)] | join(" ")' <<<"$j")" = "done 3 3"
for i in 0 1 2; do
    jq ".proofs[$i]" <<<"$j" >"$TMP/pp$i.json"
    jq ".publics[$i]" <<<"$j" >"$TMP/pu$i.json"
    cz_expect 0 "snarkjs verifies partition $i" snarkjs groth16 verify "$BVK" "$TMP/pu$i.json" "$TMP/pp$i.json"
done

# ---- the other curve's witness ------------------------------------------------------------
api POST "/v1/proofs?key=bn" -H 'Content-Type: application/octet-stream' \
    --data-binary "@$FIX/small.wtns" >/dev/null
cz_check "a BLS12-381 witness uploaded for the bn128 key: 422 naming the curves" \
    test "$(code)" = 422 -a -n "$(grep -o 'BLS12-381 witness' "$TMP/.body")" -a \
    -n "$(grep -o 'BN254' "$TMP/.body")"
api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary "@$BN/small.wtns" >/dev/null
cz_check "a bn128 witness uploaded for the BLS12-381 key: 422 naming the curves" \
    test "$(code)" = 422 -a -n "$(grep -o 'BN254 (bn128) witness' "$TMP/.body")"
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"bn\",\"witness_path\":\"$FIXABS/small.wtns\"}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a BLS12-381 witness by path for the bn128 key: the job fails naming BN254" \
    test "$(jq -r .status <<<"$j")" = failed -a -n "$(jq -r .error <<<"$j" | grep -i 'bn254\|bn128')" ||
    echo "$j" >&2
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_path\":\"$BN/small.wtns\"}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a bn128 witness by path for the BLS12-381 key: the job fails" \
    test "$(jq -r .status <<<"$j")" = failed || echo "$j" >&2

cz_expect 0 "gen-c1 porep-mini" "$BENCH" gen-c1 --preset porep-mini --seed 9 --out "$TMP/c1.json"
jq -c '{type: "porep", key: "bn", c1: .}' "$TMP/c1.json" >"$TMP/porep_req.json"
api POST /v1/proofs -H 'Content-Type: application/json' --data-binary "@$TMP/porep_req.json" >/dev/null
cz_check "a porep job naming the bn128 key: 400 naming BN254" \
    test "$(code)" = 400 -a -n "$(grep -o 'BN254' "$TMP/.body")" || cat "$TMP/.body" >&2

# ---- the device: bn128 proofs on it where the backend is cuda, else on the CPU -------------
st=$(api GET /v1/status)
echo "device 0: $(jq -c '.devices[0] | {backend, busy_ms}' <<<"$st")"
if [ "$(jq -r '.devices[0].backend' <<<"$st")" = cuda ]; then
    # keys of both curves resident at once, made so when loaded
    cz_check "with a cuda backend both keys are resident on the device" \
        test "$(api GET /v1/keys | jq -r '[.[] | "\(.id)=\(.gpu)"] | sort | join(" ")')" = \
        "bn=resident small=resident"
    cz_check "the bn128 jobs kept the device busy (they prove on it)" \
        test "$(jq -r '.devices[0].busy_ms > 0' <<<"$st")" = true
    cz_check "the bn128 proof by path found its key resident" \
        test "$(jq -r .timings_ms.prove_detail.tier <<<"$(cz_await "$bn_first")")" = resident
else
    cz_check "after the bn128 jobs the CPU device has not been busy (they prove on the engine's pool)" \
        test "$(jq -r '.devices[0].busy_ms == 0' <<<"$st")" = true
fi

# ---- BLS12-381 in the same daemon -------------------------------------------------------
id=$(api POST "/v1/proofs?key=small" -H 'Content-Type: application/octet-stream' \
    --data-binary "@$FIX/small.wtns" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a BLS12-381 job next to the bn128 key: done" test "$(jq -r .status <<<"$j")" = "done"
jq .proof <<<"$j" >"$TMP/bls_proof.json"
jq .public <<<"$j" >"$TMP/bls_public.json"
cz_expect 0 "cuzk verify accepts the BLS12-381 proof" "$CUZK" verify --quiet "$FIX/small_vk.json" \
    "$TMP/bls_public.json" "$TMP/bls_proof.json"
cz_expect 0 "snarkjs verifies the BLS12-381 proof" snarkjs groth16 verify "$FIX/small_vk.json" \
    "$TMP/bls_public.json" "$TMP/bls_proof.json"
cz_check "the BLS12-381 job kept the device busy" \
    test "$(api GET /v1/status | jq -r '.devices[0].busy_ms > 0')" = true

# ---- a bn128 key loaded by request, and evicted -------------------------------------------
api POST /v1/keys -H 'Content-Type: application/json' -d "{\"id\":\"bn2\",\"path\":\"$BN/small.zkey\"}" >/dev/null
cz_check "POST /v1/keys of a bn128 key: 201" test "$(code)" = 201
cz_check "it is listed as bn128" test "$(api GET /v1/keys | jq -r '.[] | select(.id == "bn2") | .curve')" = bn128
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"bn2\",\"witness_path\":\"$BN/small_2.wtns\"}" | jq -r .job_id)
j=$(cz_await "$id")
jq .proof <<<"$j" >"$TMP/bn2_proof.json"
jq .public <<<"$j" >"$TMP/bn2_public.json"
cz_expect 0 "snarkjs verifies the proof of the loaded key" snarkjs groth16 verify "$BVK" \
    "$TMP/bn2_public.json" "$TMP/bn2_proof.json"
api DELETE /v1/keys/bn2 >/dev/null
cz_check "evict the bn128 key: 200" test "$(code)" = 200

cz_daemon_stop
cz_check "cuzkd exits 0 on SIGTERM" test "${DRC:-1}" = 0
cz_finish
