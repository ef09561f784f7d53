#!/usr/bin/env bash
# ctest: labels=gpu;oracle timeout=900
# test_gpu_bn254_cli.sh: `cuzk prove` proves snarkjs's bn128 keys on the
# GPU (cz_cuda_bn254_groth16_prove), on a real device or over the host
# model of one (-DCUZK_CUDA=MODEL), with rapidsnark's argument order:
#   - --device cuda proves tests/fixtures/bn254/small.zkey with its three
#     snarkjs witnesses; stderr and --json name the device (cuda) and the
#     key's tier (streamed); snarkjs 0.7.6 and cuzk verify accept every
#     proof; public.json is byte for byte snarkjs's; a tampered proof is
#     refused by both;
#   - --device auto follows BLS12-381's one-shot rule (backend.h): the CPU
#     for the 2^7 fixture (saying why), the GPU for a 2^15 bn128 chain
#     circuit compiled with circom2 and set up with cuzk setup;
#   - --device cuda --gpu N for a GPU that does not exist exits 3;
#   - over the model only, a device failure in the middle of the proof
#     (an error, a sticky fault, the card out of memory) is said on stderr
#     and the proof is made on the CPU: it verifies.
# Skips (77) without a CUDA build and a device. Without node and the npm
# oracles (scripts/setup.sh) it says so and checks with cuzk verify only,
# leaving the circom2 chain out.
source "$(dirname "$0")/lib.sh"
cz_init

cz_need_cuda
# without node and the npm oracles (a GPU machine may lack them) cuzk
# verify alone checks the proofs, and the circom2 case is left out: said
ORACLE=1
if ! (cz_need_oracle >/dev/null); then
    ORACLE=0
    echo "note: node/snarkjs/circom2 missing: proofs checked by cuzk verify only, no 2^15 chain"
fi
MODEL=0
grep -q "model" <<<"$CZ_VERSION" && MODEL=1

B=$FIX/bn254
VK=$B/small_vk.json
ZK=$B/small.zkey
d=$TMP

# both RC DESC VK PUBLIC PROOF: snarkjs and cuzk verify give RC.
both() {
    [ "$ORACLE" = 0 ] || cz_expect "$1" "snarkjs: $2" snarkjs groth16 verify "$3" "$4" "$5"
    cz_expect "$1" "cuzk: $2" "$CUZK" verify "$3" "$4" "$5"
}

# prove_on DEVICE ZKEY WTNS OUT [ENV...]: cuzk prove --json on DEVICE into
# OUT_proof.json / OUT_public.json; DEV gets the device --json names.
prove_on() {
    local dev=$1 zk=$2 wt=$3 out=$4
    shift 4
    cz_expect 0 "prove --device $dev $(basename "$zk") $(basename "$wt")${*:+ ($*)}" \
        env "$@" "$CUZK" prove --json --device "$dev" "$zk" "$wt" "${out}_proof.json" \
        "${out}_public.json" || { DEV=; return 1; }
    DEV=$(jq -r .device <<<"$RUN_OUT")
}

echo "== --device cuda on the fixture's key (rapidsnark's argument order)"
prove_on cuda "$ZK" "$B/small.wtns" "$d/s1"
cz_check "  --json says device cuda (got $DEV)" test "$DEV" = cuda
cz_check "  --json says bn128 and verified" \
    bash -c 'jq -e ".curve == \"bn128\" and .verified == true" <<<"$1" >/dev/null' _ "$RUN_OUT"
cz_check "  stderr names the GPU" grep -q "curve BN254 (bn128), device cuda 0" <<<"$RUN_ERR"
cz_check "  ... and the key's tier" grep -q "^cuzk: key tier streamed" <<<"$RUN_ERR"
cz_check "  public.json is byte for byte snarkjs's" cmp "$d/s1_public.json" "$B/small_public.json"
both 0 "accepts the GPU's proof" "$VK" "$d/s1_public.json" "$d/s1_proof.json"
for i in 2 3; do
    prove_on cuda "$ZK" "$B/small_$i.wtns" "$d/s$i"
    cz_check "  on the GPU (got $DEV)" test "$DEV" = cuda
    both 0 "accepts the GPU's proof of small_$i.wtns" "$VK" "$d/s${i}_public.json" "$d/s${i}_proof.json"
done
if [ "$ORACLE" = 1 ]; then
    cz_jsedit bn254 "$d/s1_proof.json" "$d/t_c.json" 'p.pi_c[1] = neg(p.pi_c[1]);'
    both 1 "refuse the GPU's proof with -C" "$VK" "$d/s1_public.json" "$d/t_c.json"
fi
both 1 "refuse it with another witness's public inputs" "$VK" "$d/s2_public.json" "$d/s1_proof.json"
cz_expect 0 "a second GPU proof of small.wtns" "$CUZK" prove --quiet --device cuda "$ZK" \
    "$B/small.wtns" "$d/s1b_proof.json" "$d/s1b_public.json"
cz_check "  is another proof (fresh r, s)" bash -c '! cmp -s "$1" "$2"' _ "$d/s1_proof.json" "$d/s1b_proof.json"

echo "== --device auto"
prove_on auto "$ZK" "$B/small.wtns" "$d/a1"
cz_check "  the 2^7 key on the CPU (got $DEV)" test "$DEV" = cpu
cz_check "  ... saying why" grep -q "device cpu, .* (auto: domain 128 is below 32768" <<<"$RUN_ERR"
both 0 "accept auto's proof" "$VK" "$d/a1_public.json" "$d/a1_proof.json"
steps=$(cz_chain_steps 15)
if [ "$ORACLE" = 0 ]; then
    :
elif cz_make_chain "$d/chain" "$steps" bn128; then
    cz_pass "circom2 Chain($steps) for bn128 and its witness"
    cz_expect 0 "cuzk setup of the 2^15 chain (bn128)" "$CUZK" setup --quiet --seed 9 \
        "$d/chain/chain.r1cs" "$d/chain.zkey" "$d/chain_vk.json"
    prove_on auto "$d/chain.zkey" "$d/chain/chain.wtns" "$d/c15"
    cz_check "  the 2^15 key on the GPU (got $DEV)" test "$DEV" = cuda
    cz_check "  --json says domain 32768" test "$(jq .domainSize <<<"$RUN_OUT")" = 32768
    both 0 "accept auto's GPU proof of the chain" "$d/chain_vk.json" "$d/c15_public.json" \
        "$d/c15_proof.json"
else
    cz_fail "test setup: circom2 Chain($steps) for bn128"
fi

echo "== refusals"
cz_expect 3 "--device cuda --gpu $ND (no such GPU) exits 3" "$CUZK" prove --device cuda --gpu "$ND" "$ZK" \
    "$B/small.wtns" "$d/x_proof.json" "$d/x_public.json"
cz_check "  one line naming the device" grep -q "^cuzk: --device cuda:$ND: " <<<"$RUN_ERR"
cz_check "  nothing written" test ! -e "$d/x_proof.json"

if [ "$MODEL" = 1 ]; then
    echo "== a device failure during the proof: the CPU proves (host model only)"
    # the model counts device calls over the process: call 3 is inside the
    # H step's uploads, call 9 inside the MSMs
    for f in 3:error 9:sticky 9:nomem; do
        prove_on cuda "$ZK" "$B/small.wtns" "$d/f${f%%:*}" "CUZK_GPU_MODEL_FAIL=$f"
        cz_check "  [$f] --json says device cpu (got $DEV)" test "$DEV" = cpu
        cz_check "  [$f] a warning on stderr" grep -q "^cuzk: warning: GPU 0: .*; proving on the cpu instead" <<<"$RUN_ERR"
        both 0 "[$f] accept the CPU's proof" "$VK" "$d/f${f%%:*}_public.json" "$d/f${f%%:*}_proof.json"
    done
fi

cz_finish
