#!/usr/bin/env bash
# ctest: labels=unit timeout=300
# test_cli_basic.sh: the happy paths of the cuzk CLI on the committed
# fixtures (tests/fixtures, made by snarkjs), without node: prove, verify,
# info, export-vk, setup, and the common options of the CLI contract.
# The interop with snarkjs itself is in test_snarkjs_*.sh.
source "$(dirname "$0")/lib.sh"
cz_init

ZKEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json

echo "== help and version"
cz_expect 0 "cuzk --help" "$CUZK" --help
cz_check "--help documents the exit codes 0..3" \
    bash -c 'for c in 0 1 2 3; do printf "%s\n%s" "$1" "$2" | grep -qE "(^|[^0-9])$c([^0-9]|$)" || exit 1; done' _ "$RUN_OUT" "$RUN_ERR"
for c in prove verify info setup export-vk; do
    cz_expect 0 "cuzk $c --help" "$CUZK" "$c" --help
done
cz_expect 0 "cuzk --version" "$CUZK" --version
cz_check "--version prints a version" bash -c '[[ "$1$2" =~ [0-9]+\.[0-9]+ ]]' _ "$RUN_OUT" "$RUN_ERR"
cz_check "--version names the commit of the build" bash -c '[[ "$1" =~ \(commit\ ([0-9a-f]{12}(-modified)?|unknown)\) ]]' _ "$RUN_OUT"
cz_check "--version names the backends built" bash -c '[[ "$1" =~ backends:\ cpu ]]' _ "$RUN_OUT"

echo "== prove and verify the snarkjs fixture"
cz_expect 0 "prove small.zkey small.wtns" "$CUZK" prove "$ZKEY" "$WTNS" "$TMP/proof.json" "$TMP/public.json"
cz_check "prove writes stage timings 'cuzk: <stage> <ms> ms' on stderr" \
    bash -c 'printf "%s\n" "$1" | grep -qE "^cuzk: .+ [0-9.]+ ms$"' _ "$RUN_ERR"
cz_check "public.json is snarkjs's public.json" cz_public_same "$TMP/public.json" "$FIX/small_public.json"
cz_check "proof.json has the snarkjs shape" bash -c '
    p=$(tr -d " \n\t" <"$1")
    d="\"[0-9]+\""
    [[ $p =~ \"pi_a\":\[$d,$d,\"1\"\] ]] &&
    [[ $p =~ \"pi_b\":\[\[$d,$d\],\[$d,$d\],\[\"1\",\"0\"\]\] ]] &&
    [[ $p =~ \"pi_c\":\[$d,$d,\"1\"\] ]] &&
    [[ $p =~ \"protocol\":\"groth16\" ]] && [[ $p =~ \"curve\":\"bls12381\" ]]' _ "$TMP/proof.json"
cz_expect 0 "verify the cuzk proof" "$CUZK" verify "$VK" "$TMP/public.json" "$TMP/proof.json"
cz_check "verify prints OK" bash -c '[[ $1 == OK* ]]' _ "$RUN_OUT"
cz_expect 0 "verify the committed snarkjs proof" "$CUZK" verify "$VK" "$FIX/small_public.json" "$FIX/small_proof.json"

echo "== proofs are randomised"
cz_expect 0 "prove a second time" "$CUZK" prove --quiet "$ZKEY" "$WTNS" "$TMP/proof2.json" "$TMP/public2.json"
cz_check "--quiet: nothing on stderr" bash -c '[ -z "$1" ]' _ "$RUN_ERR"
cz_check "two proofs of one witness differ (fresh r, s)" bash -c '! cmp -s "$1" "$2"' _ "$TMP/proof.json" "$TMP/proof2.json"
cz_expect 0 "verify the second proof" "$CUZK" verify "$VK" "$TMP/public2.json" "$TMP/proof2.json"

echo "== sections in another order"
cz_reorder_sections "$ZKEY" "$TMP/rev.zkey"
cz_check "(test setup: same size, other bytes)" bash -c '[ "$(stat -c %s "$1")" = "$(stat -c %s "$2")" ] && ! cmp -s "$1" "$2"' _ "$ZKEY" "$TMP/rev.zkey"
cz_reorder_sections "$WTNS" "$TMP/rev.wtns"
cz_expect 0 "prove with the zkey and wtns sections reversed" "$CUZK" prove "$TMP/rev.zkey" "$TMP/rev.wtns" "$TMP/proof5.json" "$TMP/public5.json"
cz_expect 0 "verify that proof" "$CUZK" verify "$VK" "$TMP/public5.json" "$TMP/proof5.json"
cz_expect 0 "export-vk of the reversed zkey" "$CUZK" export-vk "$TMP/rev.zkey" "$TMP/rev_vk.json"
cz_check "its vk equals snarkjs's" cz_json_same "$TMP/rev_vk.json" "$VK"

echo "== options"
cz_expect 0 "prove --threads 1 --device cpu --no-verify" \
    "$CUZK" prove --threads 1 --device cpu --no-verify "$ZKEY" "$WTNS" "$TMP/proof3.json" "$TMP/public3.json"
cz_expect 0 "verify the --threads 1 proof" "$CUZK" verify "$VK" "$TMP/public3.json" "$TMP/proof3.json"
cz_expect 0 "prove --json" "$CUZK" prove --json "$ZKEY" "$WTNS" "$TMP/proof4.json" "$TMP/public4.json"
cz_check "--json prints one JSON object on stdout" bash -c '
    o=$(printf "%s" "$1" | tr -d "\n")
    [[ $o =~ ^[[:space:]]*\{.*\}[[:space:]]*$ ]] && [ "$(printf "%s\n" "$1" | grep -c "^{")" -le 1 ]' _ "$RUN_OUT"
cz_expect 0 "verify --json" "$CUZK" verify --json "$VK" "$TMP/public4.json" "$TMP/proof4.json"

cz_expect 0 "prove --device auto" "$CUZK" prove --quiet --device auto "$ZKEY" "$WTNS" "$TMP/proof6.json" "$TMP/public6.json"
cz_expect 0 "verify the --device auto proof" "$CUZK" verify "$VK" "$TMP/public6.json" "$TMP/proof6.json"
# --device cuda: a GPU proof where CUDA is built and a device exists (the
# model build counts), else exit 3 naming the device: never a silent CPU proof.
NDEV=$("$CUZK" --version | sed -n 's/^CUDA backend: .*, \([0-9]*\) device(s)$/\1/p')
rm -f "$TMP/proof7.json"
if [ "${NDEV:-0}" -gt 0 ]; then
    cz_expect 0 "prove --device cuda ($NDEV device(s))" "$CUZK" prove --device cuda "$ZKEY" "$WTNS" "$TMP/proof7.json" "$TMP/public7.json"
    cz_check "it proved on the GPU" grep -q "device cuda 0" <<<"$RUN_ERR"
    cz_expect 0 "verify the --device cuda proof" "$CUZK" verify "$VK" "$TMP/public7.json" "$TMP/proof7.json"
    cz_expect 3 "prove --device cuda --gpu $NDEV (no such GPU)" "$CUZK" prove --device cuda --gpu "$NDEV" "$ZKEY" "$WTNS" "$TMP/proof8.json" "$TMP/public8.json"
    NOPROOF=$TMP/proof8.json
else
    cz_expect 3 "prove --device cuda without a CUDA device" "$CUZK" prove --device cuda "$ZKEY" "$WTNS" "$TMP/proof7.json" "$TMP/public7.json"
    NOPROOF=$TMP/proof7.json
fi
cz_check "the refusal names the device" grep -q -- "--device cuda" <<<"$RUN_ERR"
cz_check "and writes no proof" test ! -e "$NOPROOF"

echo "== info"
cz_expect 0 "info small.zkey" "$CUZK" info "$ZKEY"
cz_check "info small.zkey names the curve and the domain size 128" \
    bash -c 'printf "%s" "$1" | grep -qi "bls12.381" && printf "%s" "$1" | grep -qw 128' _ "$RUN_OUT"
cz_expect 0 "info small.wtns" "$CUZK" info "$WTNS"
cz_check "info small.wtns gives the 113 values" bash -c 'printf "%s" "$1" | grep -qw 113' _ "$RUN_OUT"
cz_expect 0 "info small.r1cs" "$CUZK" info "$FIX/small.r1cs"
cz_check "info small.r1cs gives the 108 constraints" bash -c 'printf "%s" "$1" | grep -qw 108' _ "$RUN_OUT"
cz_expect 0 "info small_vk.json" "$CUZK" info "$VK"
cz_expect 0 "info small_proof.json" "$CUZK" info "$FIX/small_proof.json"

echo "== export-vk"
cz_expect 0 "export-vk small.zkey" "$CUZK" export-vk "$ZKEY" "$TMP/vk.json"
cz_check "exported vk holds the same keys and values as snarkjs's" cz_json_same "$TMP/vk.json" "$VK"
cz_expect 0 "verify the snarkjs proof with the exported vk" "$CUZK" verify "$TMP/vk.json" "$FIX/small_public.json" "$FIX/small_proof.json"

echo "== setup (development keys)"
cz_expect 0 "setup --seed 7 chain64.r1cs" "$CUZK" setup --seed 7 "$FIX/chain64.r1cs" "$TMP/chain.zkey" "$TMP/chain_vk.json"
cz_check "setup warns that the key is for development only" bash -c '[ -n "$1" ]' _ "$RUN_ERR"
cz_expect 0 "prove chain64 with the cuzk key" "$CUZK" prove "$TMP/chain.zkey" "$FIX/chain64.wtns" "$TMP/cp.json" "$TMP/cpub.json"
cz_expect 0 "verify chain64 with the setup vk" "$CUZK" verify "$TMP/chain_vk.json" "$TMP/cpub.json" "$TMP/cp.json"
cz_expect 0 "export-vk of the cuzk key" "$CUZK" export-vk "$TMP/chain.zkey" "$TMP/chain_vk2.json"
cz_check "export-vk equals the vk written by setup" cz_json_same "$TMP/chain_vk.json" "$TMP/chain_vk2.json"
cz_expect 0 "setup --seed 7 again" "$CUZK" setup --seed 7 "$FIX/chain64.r1cs" "$TMP/chain_b.zkey"
cz_check "--seed makes setup deterministic (same zkey bytes)" cmp "$TMP/chain.zkey" "$TMP/chain_b.zkey"
cz_expect 0 "setup --seed 8" "$CUZK" setup --seed 8 "$FIX/chain64.r1cs" "$TMP/chain_c.zkey"
cz_check "another seed gives another key" bash -c '! cmp -s "$1" "$2"' _ "$TMP/chain.zkey" "$TMP/chain_c.zkey"
cz_expect 0 "setup small.r1cs (no vk argument)" "$CUZK" setup --seed 1 "$FIX/small.r1cs" "$TMP/s.zkey"
cz_expect 0 "prove small with the cuzk key" "$CUZK" prove "$TMP/s.zkey" "$WTNS" "$TMP/sp.json" "$TMP/spub.json"
cz_expect 0 "export-vk small cuzk key" "$CUZK" export-vk "$TMP/s.zkey" "$TMP/s_vk.json"
cz_expect 0 "verify small with the cuzk key" "$CUZK" verify "$TMP/s_vk.json" "$TMP/spub.json" "$TMP/sp.json"
cz_expect 1 "the cuzk-key proof is INVALID under the snarkjs vk" "$CUZK" verify "$VK" "$TMP/spub.json" "$TMP/sp.json"
cz_check "verify prints INVALID: <reason>" bash -c '[[ $1 == INVALID:* || $2 == *INVALID:* ]]' _ "$RUN_OUT" "$RUN_ERR"

cz_finish
