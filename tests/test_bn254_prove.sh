#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# test_bn254_prove.sh: `cuzk prove` on snarkjs's BN254 ("bn128") keys.
#
# cuzk proves tests/fixtures/bn254/small.zkey (a key snarkjs made) with the
# three snarkjs witnesses of tests/fixtures/bn254, on the CPU, and
#   - snarkjs 0.7.6 verifies every proof with the key's exported vk
#     (small_vk.json), and so does cuzk verify;
#   - public.json is byte for byte snarkjs's (small_public.json);
#   - a tampered proof or public input is refused by both (exit 1);
#   - a witness that does not satisfy the circuit fails the self-check
#     (exit 1, nothing written); with --no-verify its proof is written and
#     both verifiers refuse it;
#   - a witness of the wrong length and BLS12-381's witness are refused
#     with exit 2 and one line; --device cuda without a CUDA device exits 3;
#   - cuzk export-vk writes snarkjs's verification_key.json byte for byte;
#   - cuzk info names the curve of the key and the witness.
# tests/test_bn254_prover.c checks the same prover without npm. Skips (77)
# when node or snarkjs is missing.
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

B=$FIX/bn254
VK=$B/small_vk.json
ZK=$B/small.zkey

# jsedit IN OUT JS: OUT = the JSON of IN after JS on it (as `p`; lib.sh's cz_jsedit over BN254).
jsedit() { cz_jsedit bn254 "$@"; }

# binedit IN OUT JS: OUT = the bytes of IN after JS on them (as `b`, a Buffer).
binedit() {
    node -e '
const fs = require("fs");
let b = fs.readFileSync(process.argv[1]);
'"$3"'
fs.writeFileSync(process.argv[2], b);
' "$1" "$2" || cz_fail "test setup: could not make $2 from $1"
}

# both RC DESC PUBLIC PROOF: snarkjs and cuzk verify give RC.
both() {
    cz_expect "$1" "snarkjs: $2" snarkjs groth16 verify "$VK" "$3" "$4"
    cz_expect "$1" "cuzk: $2" "$CUZK" verify "$VK" "$3" "$4"
}

echo "== cuzk proves, snarkjs verifies"
cz_expect 0 "cuzk prove small.zkey small.wtns (bn128)" "$CUZK" prove "$ZK" "$B/small.wtns" "$TMP/proof.json" "$TMP/public.json"
cz_check "  on the CPU, saying the curve" bash -c 'printf "%s" "$1" | grep -q "curve BN254 (bn128), device cpu"' _ "$RUN_ERR"
cz_check "the proof says curve bn128" grep -q '"curve": *"bn128"' "$TMP/proof.json"
cz_check "public.json is byte for byte snarkjs's" cmp "$TMP/public.json" "$B/small_public.json"
both 0 "accepts cuzk's proof" "$TMP/public.json" "$TMP/proof.json"
for i in 2 3; do
    cz_expect 0 "cuzk prove small_$i.wtns (1 thread, --json)" "$CUZK" prove --quiet --json --threads 1 "$ZK" "$B/small_$i.wtns" "$TMP/proof_$i.json" "$TMP/public_$i.json"
    cz_check "  --json says bn128 and verified" bash -c 'printf "%s" "$1" | grep -q "\"curve\":\"bn128\".*\"verified\":true"' _ "$RUN_OUT"
    both 0 "accepts the proof of small_$i.wtns" "$TMP/public_$i.json" "$TMP/proof_$i.json"
done
cz_expect 0 "snarkjs wtns export json (small_3)" snarkjs wtns export json "$B/small_3.wtns" "$TMP/w3.json"
cz_check "  public_3.json holds the witness's signals 1..4" node -e '
const w = JSON.parse(require("fs").readFileSync(process.argv[1]));
const p = JSON.parse(require("fs").readFileSync(process.argv[2]));
process.exit(JSON.stringify(w.slice(1, 5)) === JSON.stringify(p) ? 0 : 1);' "$TMP/w3.json" "$TMP/public_3.json"
cz_expect 0 "a second proof of the same witness" "$CUZK" prove --quiet "$ZK" "$B/small.wtns" "$TMP/proof_b.json" "$TMP/public_b.json"
cz_check "  is another proof (fresh r, s)" bash -c '! cmp -s "$1" "$2"' _ "$TMP/proof.json" "$TMP/proof_b.json"

echo "== tampered proofs and inputs (exit 1)"
jsedit "$TMP/proof.json" "$TMP/t_ax.json" 'p.pi_a[0] = inc(p.pi_a[0]);'
both 1 "pi_a.x + 1 (off the curve)" "$TMP/public.json" "$TMP/t_ax.json"
jsedit "$TMP/proof.json" "$TMP/t_cy.json" 'p.pi_c[1] = neg(p.pi_c[1]);'
both 1 "-C" "$TMP/public.json" "$TMP/t_cy.json"
jsedit "$TMP/proof.json" "$TMP/t_b2.json" 'p.pi_b = JSON.parse(require("fs").readFileSync(process.argv[1].replace("proof.json", "proof_2.json"))).pi_b;'
both 1 "pi_b of another proof" "$TMP/public.json" "$TMP/t_b2.json"
jsedit "$TMP/public.json" "$TMP/pub_a.json" 'p[2] = inc(p[2]);'
both 1 "public input a + 1" "$TMP/pub_a.json" "$TMP/proof.json"
both 1 "another witness's public inputs" "$TMP/public_2.json" "$TMP/proof.json"

echo "== a witness that does not satisfy the circuit"
binedit "$B/small.wtns" "$TMP/bad.wtns" 'b[b.length - 32] ^= 1;'
rm -f "$TMP/bad_proof.json"
cz_expect 1 "cuzk prove: the self-check fails" "$CUZK" prove --quiet "$ZK" "$TMP/bad.wtns" "$TMP/bad_proof.json" "$TMP/bad_public.json"
cz_check "  saying so" bash -c 'printf "%s" "$1" | grep -q "self-check"' _ "$RUN_ERR"
cz_check "  and nothing is written" test ! -e "$TMP/bad_proof.json"
cz_expect 0 "cuzk prove --no-verify writes it" "$CUZK" prove --quiet --no-verify "$ZK" "$TMP/bad.wtns" "$TMP/bad_proof.json" "$TMP/bad_public.json"
both 1 "the unsatisfying witness's proof" "$TMP/bad_public.json" "$TMP/bad_proof.json"

echo "== refusals (exit 2)"
# one value short: count (offset 60) and section 2's size (offset 68)
binedit "$B/small.wtns" "$TMP/short.wtns" 'b.writeUInt32LE(112, 60); b.writeUInt32LE(112 * 32, 68); b = b.subarray(0, b.length - 32);'
cz_expect 0 "snarkjs reads the short witness" snarkjs wtns export json "$TMP/short.wtns" "$TMP/short.json"
cz_expect_err "a witness one value short" "$CUZK" prove --quiet "$ZK" "$TMP/short.wtns" "$TMP/p.json" "$TMP/u.json"
cz_check "  the message gives both lengths" bash -c 'printf "%s" "$1" | grep -q "112 values.*expects 113"' _ "$RUN_ERR"
cz_expect_err "BLS12-381's witness" "$CUZK" prove --quiet "$ZK" "$FIX/small.wtns" "$TMP/p.json" "$TMP/u.json"
cz_check "  the message names the curves" bash -c 'printf "%s" "$1" | grep -q "bls12-381.*BN254"' _ "$RUN_ERR"
if ! "$CUZK" --version | grep -q "CUDA backend: .*[1-9][0-9]* device"; then
    # with a device, test_gpu_bn254_cli.sh proves on it
    cz_expect 3 "--device cuda on a bn128 key without a CUDA device exits 3" "$CUZK" prove --device cuda "$ZK" "$B/small.wtns" "$TMP/p.json" "$TMP/u.json"
fi
head -c 30000 "$ZK" >"$TMP/trunc.zkey"
cz_expect_err "a truncated bn128 key" "$CUZK" prove --quiet "$TMP/trunc.zkey" "$B/small.wtns" "$TMP/p.json" "$TMP/u.json"

echo "== cuzk export-vk"
cz_expect 0 "cuzk export-vk small.zkey (bn128)" "$CUZK" export-vk --quiet "$ZK" "$TMP/vk.json"
cz_check "  byte for byte snarkjs's zkey export verificationkey (small_vk.json)" cmp "$TMP/vk.json" "$VK"

echo "== cuzk info"
cz_expect 0 "cuzk info small.zkey" "$CUZK" info "$ZK"
cz_check "  curve BN254, nVars 113" bash -c 'printf "%s" "$1" | grep -q "^curve: BN254" && printf "%s" "$1" | grep -q "^nVars: 113"' _ "$RUN_OUT"
cz_expect 0 "cuzk info small.wtns" "$CUZK" info --json "$B/small.wtns"
cz_check "  curve BN254" bash -c 'printf "%s" "$1" | grep -q "\"curve\": *\"BN254\""' _ "$RUN_OUT"

cz_finish
