#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# test_bn254_verify.sh: `cuzk verify` on snarkjs's BN254 ("bn128") proofs.
#
# snarkjs 0.7.6 proves tests/fixtures/bn254/small.zkey with small.wtns
# (a bn128 key snarkjs made, its vk small_vk.json); cuzk verify must accept
# the fresh proof and the committed one (small_proof.json, small_public.json)
# and agree with snarkjs on tampered ones:
#   - exit 1 (invalid): a proof coordinate changed (off the curve), a point
#     negated (on the curve, wrong), pi_b on the twist but outside G2, a
#     wrong public input, a public input >= r (not reduced), too few inputs;
#   - exit 2 (bad input, one "cuzk: " line): a vk or proof of the other curve
#     (BLS12-381), malformed JSON, a missing field, an unknown curve name.
# BLS12-381's behaviour is tests/test_snarkjs_interop.sh's. Skips (77) when
# node or snarkjs is missing; tests/test_bn254.c checks the committed proof
# without them.
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

B=$FIX/bn254
VK=$B/small_vk.json
P=$B/small_proof.json
PUB=$B/small_public.json

# jsedit IN OUT JS: lib.sh's cz_jsedit over BN254.
jsedit() { cz_jsedit bn254 "$@"; }

# both RC DESC PUBLIC PROOF: snarkjs and cuzk give RC (snarkjs: 0 or 1).
both() {
    cz_expect "$1" "snarkjs: $2" snarkjs groth16 verify "$VK" "$3" "$4"
    cz_expect "$1" "cuzk: $2" "$CUZK" verify "$VK" "$3" "$4"
}
# cuzk_invalid DESC PUBLIC PROOF [VK]: exit 1, "INVALID: <reason>" on stdout.
cuzk_invalid() {
    cz_expect 1 "cuzk rejects $1" "$CUZK" verify "${4:-$VK}" "$2" "$3" || return 1
    cz_check "  with a reason" bash -c 'printf "%s" "$1" | grep -q "^INVALID: ..*"' _ "$RUN_OUT"
}

echo "== snarkjs proves, cuzk verifies"
cz_expect 0 "snarkjs groth16 prove (bn128)" snarkjs groth16 prove "$B/small.zkey" "$B/small.wtns" "$TMP/proof.json" "$TMP/public.json"
cz_check "the proof says curve bn128" grep -q '"curve": *"bn128"' "$TMP/proof.json"
both 0 "accepts the fresh proof" "$TMP/public.json" "$TMP/proof.json"
cz_expect 0 "cuzk accepts the committed snarkjs proof" "$CUZK" verify "$VK" "$PUB" "$P"
cz_check "  and prints OK" test "$RUN_OUT" = "OK"
cz_expect 0 "cuzk --json verify" "$CUZK" verify --json "$VK" "$PUB" "$P"
cz_check "  says valid" bash -c 'printf "%s" "$1" | grep -q "\"valid\": *true"' _ "$RUN_OUT"
cz_check "the fresh public.json equals the committed one" cmp "$TMP/public.json" "$PUB"

echo "== tampered proofs (exit 1)"
jsedit "$TMP/proof.json" "$TMP/t_ax.json" 'p.pi_a[0] = inc(p.pi_a[0]);'
both 1 "pi_a.x + 1 (off the curve)" "$TMP/public.json" "$TMP/t_ax.json"
cuzk_invalid "pi_a.x + 1" "$TMP/public.json" "$TMP/t_ax.json"
cz_check "  the reason names pi_a and the curve" bash -c 'printf "%s" "$1" | grep -q "pi_a.*not on the curve"' _ "$RUN_OUT"
jsedit "$TMP/proof.json" "$TMP/t_b.json" 'p.pi_b[1][0] = inc(p.pi_b[1][0]);'
both 1 "pi_b.y.c0 + 1 (off the twist)" "$TMP/public.json" "$TMP/t_b.json"
jsedit "$TMP/proof.json" "$TMP/t_cy.json" 'p.pi_c[1] = neg(p.pi_c[1]);'
both 1 "pi_c.y -> q - y (on the curve: -C)" "$TMP/public.json" "$TMP/t_cy.json"
cuzk_invalid "-C" "$TMP/public.json" "$TMP/t_cy.json"
cz_check "  the reason is the pairing check" bash -c 'printf "%s" "$1" | grep -q "pairing check failed"' _ "$RUN_OUT"
jsedit "$TMP/proof.json" "$TMP/t_swap.json" '[p.pi_a, p.pi_c] = [p.pi_c, p.pi_a];'
both 1 "pi_a and pi_c swapped" "$TMP/public.json" "$TMP/t_swap.json"
# (1, 0) + y u on the twist y^2 = x^3 + 3/(9 + u), outside G2
# (tests/vectors/bn254.json, "invalid"; @noble/curves says so)
jsedit "$TMP/proof.json" "$TMP/t_sub.json" 'p.pi_b = [["1", "0"],
  ["3610091866386166428467545612961983990332663701371483510632385378352395651980",
   "15975588672102553735566230729081043132501226101599136527557730645158523614371"], ["1", "0"]];'
cuzk_invalid "pi_b on the twist, outside G2" "$TMP/public.json" "$TMP/t_sub.json"
cz_check "  the reason names the subgroup" bash -c 'printf "%s" "$1" | grep -q "subgroup"' _ "$RUN_OUT"
jsedit "$TMP/proof.json" "$TMP/t_q.json" 'p.pi_a[0] = (BigInt(p.pi_a[0]) + Q).toString();'
cz_expect "1 2" "cuzk rejects pi_a.x + q (not reduced)" "$CUZK" verify "$VK" "$TMP/public.json" "$TMP/t_q.json"

echo "== public inputs (exit 1)"
jsedit "$TMP/public.json" "$TMP/pub_a.json" 'p[2] = inc(p[2]);'
both 1 "public input a + 1" "$TMP/pub_a.json" "$TMP/proof.json"
jsedit "$TMP/public.json" "$TMP/pub_out.json" 'p[0] = inc(p[0]);'
both 1 "public output + 1" "$TMP/pub_out.json" "$TMP/proof.json"
jsedit "$TMP/public.json" "$TMP/pub_r.json" 'p[2] = (BigInt(p[2]) + R).toString();'
cz_run snarkjs groth16 verify "$VK" "$TMP/pub_r.json" "$TMP/proof.json"
echo "   (snarkjs on public input a + r: exit $RUN_RC)"
cuzk_invalid "public input a + r (>= r)" "$TMP/pub_r.json" "$TMP/proof.json"
cz_check "  the reason says not below r" bash -c 'printf "%s" "$1" | grep -q "not below r"' _ "$RUN_OUT"
jsedit "$TMP/public.json" "$TMP/pub_big.json" 'p[1] = (2n ** 256n - 1n).toString();'
cuzk_invalid "public input 2^256 - 1" "$TMP/pub_big.json" "$TMP/proof.json"
jsedit "$TMP/public.json" "$TMP/pub_short.json" 'p.pop();'
cuzk_invalid "three public inputs for nPublic 4" "$TMP/pub_short.json" "$TMP/proof.json"

echo "== the other curve, malformed files (exit 2)"
cz_expect_err "a BN254 vk with a BLS12-381 proof" "$CUZK" verify "$VK" "$FIX/small_public.json" "$FIX/small_proof.json"
cz_check "  the message names both curves" bash -c 'printf "%s" "$1" | grep -q "bls12381.*bn128"' _ "$RUN_ERR"
cz_expect_err "a BLS12-381 vk with the BN254 proof" "$CUZK" verify "$FIX/small_vk.json" "$PUB" "$P"
cz_check "  the message names BN254" bash -c 'printf "%s" "$1" | grep -q "BN254"' _ "$RUN_ERR"
jsedit "$P" "$TMP/t_curve.json" 'p.curve = "bn999";'
cz_expect_err "a proof of an unknown curve" "$CUZK" verify "$VK" "$PUB" "$TMP/t_curve.json"
head -c 200 "$P" >"$TMP/trunc.json"
cz_expect_err "a truncated proof" "$CUZK" verify "$VK" "$PUB" "$TMP/trunc.json"
cz_check "  the message says invalid JSON" bash -c 'printf "%s" "$1" | grep -q "invalid JSON"' _ "$RUN_ERR"
jsedit "$P" "$TMP/t_nopib.json" 'delete p.pi_b;'
cz_expect_err "a proof without pi_b" "$CUZK" verify "$VK" "$PUB" "$TMP/t_nopib.json"
jsedit "$VK" "$TMP/vk_np.json" 'p.nPublic = 3;'
cz_expect_err "a vk whose nPublic disagrees with IC" "$CUZK" verify "$TMP/vk_np.json" "$PUB" "$P"
jsedit "$VK" "$TMP/vk_off.json" 'p.IC[1][1] = inc(p.IC[1][1]);'
cz_expect_err "a vk with IC[1] off the curve" "$CUZK" verify "$TMP/vk_off.json" "$PUB" "$P"
jsedit "$PUB" "$TMP/pub_junk.json" 'p[0] = "12x";'
cz_expect_err "a public input that is not a number" "$CUZK" verify "$VK" "$TMP/pub_junk.json" "$P"
cz_expect_err "a missing file" "$CUZK" verify "$VK" "$PUB" "$TMP/none.json"

cz_finish
