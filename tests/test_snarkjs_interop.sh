#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# test_snarkjs_interop.sh: cuzk and snarkjs 0.7.6 accept each other's proofs
# and agree on which proofs are invalid, on the committed fixture (a snarkjs
# BLS12-381 key, see tests/fixtures/README.md).
#   - cuzk prove -> snarkjs groth16 verify accepts; public.json as snarkjs's
#   - snarkjs proofs (committed and fresh) -> cuzk verify accepts
#   - cuzk export-vk equals snarkjs zkey export verificationkey
#   - tampered proofs, a tampered public input, and the proof of a witness
#     that does not satisfy the circuit: both verifiers reject (exit 1)
#   - the Groth16 malleation (-A, -B, C): both verifiers give the same answer
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

ZKEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json

# jsedit IN OUT JS: lib.sh's cz_jsedit over BLS12-381.
jsedit() { cz_jsedit bls12381 "$@"; }

# same_json A B: A and B hold equal JSON values (key order ignored).
same_json() {
    node -e '
const fs = require("fs");
const canon = (v) => Array.isArray(v) ? v.map(canon)
    : (v && typeof v === "object") ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]))
    : v;
const [a, b] = process.argv.slice(1).map((f) => JSON.stringify(canon(JSON.parse(fs.readFileSync(f, "utf8")))));
if (a !== b) { console.error("differ:\n" + a + "\n" + b); process.exit(1); }
' "$1" "$2"
}

# sj_expect RC DESC PUBLIC PROOF [VK]: queue a `snarkjs groth16 verify`
# expected to exit RC; sj_flush runs the queue in one node process
# (tests/snarkjs_verify_batch.cjs: the CLI's own verify function) and checks.
: >"$TMP/sj.list"
: >"$TMP/sj.meta"
sj_expect() {
    printf '%s\t%s\t%s\n' "${5:-$VK}" "$3" "$4" >>"$TMP/sj.list"
    printf '%s\t%s\n' "$1" "$2" >>"$TMP/sj.meta"
}
sj_flush() {
    [ -s "$TMP/sj.list" ] || return 0
    local got rc desc i=0 res
    if ! res=$(node "$SRC/tests/snarkjs_verify_batch.cjs" "$TMP/sj.list" 2>"$TMP/sj.err"); then
        cz_fail "snarkjs batch verify crashed"; cat "$TMP/sj.err" >&2
    fi
    mapfile -t got <<<"$res"
    while IFS=$'\t' read -r rc desc; do
        if [ "${got[$i]:-none}" = "$rc" ]; then
            cz_pass "snarkjs: $desc (exit $rc)"
        else
            cz_fail "snarkjs: $desc: exit ${got[$i]:-none}, expected $rc"
            echo "    check: $(sed -n "$((i + 1))p" "$TMP/sj.list")" >&2
        fi
        i=$((i + 1))
    done <"$TMP/sj.meta"
    : >"$TMP/sj.list"
    : >"$TMP/sj.meta"
}

# both_reject DESC PUBLIC PROOF: snarkjs and cuzk both say invalid (exit 1).
both_reject() {
    sj_expect 1 "rejects $1" "$2" "$3"
    cz_expect 1 "cuzk rejects $1" "$CUZK" verify "$VK" "$2" "$3"
}

echo "== cuzk proves, snarkjs verifies"
for i in 1 2; do
    cz_expect 0 "cuzk prove #$i" "$CUZK" prove "$ZKEY" "$WTNS" "$TMP/proof$i.json" "$TMP/public$i.json"
    if [ "$i" = 1 ]; then  # once through the real CLI, then batched
        cz_expect 0 "snarkjs groth16 verify (CLI) accepts cuzk proof #$i" \
            snarkjs groth16 verify "$VK" "$TMP/public$i.json" "$TMP/proof$i.json"
    else
        sj_expect 0 "verifies cuzk proof #$i" "$TMP/public$i.json" "$TMP/proof$i.json"
    fi
done
cz_check "public.json equals snarkjs's" same_json "$TMP/public1.json" "$FIX/small_public.json"
cz_check "proof.json has snarkjs's keys and shape" node -e '
const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const dec = (s) => typeof s === "string" && /^[0-9]+$/.test(s);
const ok = p.protocol === "groth16" && p.curve === "bls12381" &&
    p.pi_a.length === 3 && dec(p.pi_a[0]) && dec(p.pi_a[1]) && p.pi_a[2] === "1" &&
    p.pi_c.length === 3 && dec(p.pi_c[0]) && dec(p.pi_c[1]) && p.pi_c[2] === "1" &&
    p.pi_b.length === 3 && p.pi_b[0].every(dec) && p.pi_b[1].every(dec) &&
    p.pi_b[2][0] === "1" && p.pi_b[2][1] === "0" &&
    Object.keys(p).sort().join() === "curve,pi_a,pi_b,pi_c,protocol";
process.exit(ok ? 0 : 1);' "$TMP/proof1.json"

echo "== snarkjs proves, cuzk verifies"
cz_expect 0 "cuzk verifies the committed snarkjs proof" "$CUZK" verify "$VK" "$FIX/small_public.json" "$FIX/small_proof.json"
cz_expect 0 "snarkjs groth16 prove (fresh)" snarkjs groth16 prove "$ZKEY" "$WTNS" "$TMP/sproof.json" "$TMP/spublic.json"
cz_expect 0 "cuzk verifies the fresh snarkjs proof" "$CUZK" verify "$VK" "$TMP/spublic.json" "$TMP/sproof.json"

echo "== verification key"
cz_expect 0 "cuzk export-vk" "$CUZK" export-vk "$ZKEY" "$TMP/vk.json"
cz_check "cuzk's vk equals snarkjs's (incl. vk_alphabeta_12)" same_json "$TMP/vk.json" "$VK"
sj_expect 0 "verifies with cuzk's vk" "$FIX/small_public.json" "$FIX/small_proof.json" "$TMP/vk.json"
sj_flush

echo "== tampered proofs"
P=$FIX/small_proof.json
PUB=$FIX/small_public.json
jsedit "$P" "$TMP/t_ax.json" 'p.pi_a[0] = inc(p.pi_a[0]);'
both_reject "pi_a.x + 1 (off the curve)" "$PUB" "$TMP/t_ax.json"
jsedit "$P" "$TMP/t_cy.json" 'p.pi_c[1] = neg(p.pi_c[1]);'
both_reject "pi_c.y -> q - y (on the curve: -C)" "$PUB" "$TMP/t_cy.json"
jsedit "$P" "$TMP/t_b.json" 'p.pi_b[0][1] = inc(p.pi_b[0][1]);'
both_reject "pi_b.x.c1 + 1 (off the curve)" "$PUB" "$TMP/t_b.json"
jsedit "$P" "$TMP/t_swap.json" '[p.pi_a, p.pi_c] = [p.pi_c, p.pi_a];'
both_reject "pi_a and pi_c swapped" "$PUB" "$TMP/t_swap.json"
jsedit "$TMP/proof1.json" "$TMP/t_cuzk.json" 'p.pi_a[1] = neg(p.pi_a[1]);'
both_reject "cuzk proof with pi_a.y -> q - y" "$TMP/public1.json" "$TMP/t_cuzk.json"

sj_flush

echo "== tampered public inputs"
jsedit "$PUB" "$TMP/pub_a.json" 'p[2] = inc(p[2]);'
both_reject "public input a + 1" "$TMP/pub_a.json" "$P"
jsedit "$PUB" "$TMP/pub_out.json" 'p[0] = inc(p[0]);'
both_reject "public output prod + 1" "$TMP/pub_out.json" "$P"
jsedit "$TMP/public1.json" "$TMP/pub_c.json" '[p[2], p[3]] = [p[3], p[2]];'
both_reject "cuzk proof, public inputs a and b swapped" "$TMP/pub_c.json" "$TMP/proof1.json"

sj_flush

echo "== a witness that does not satisfy the circuit"
NPUB=$(cz_zkey_npublic "$ZKEY")
if idx=$(cz_wtns_flip_boolean "$WTNS" "$TMP/bad.wtns" "$NPUB"); then
    echo "   (flipped the 0/1 value of signal $idx)"
    cz_expect 1 "snarkjs wtns check rejects the witness (sanity)" \
        snarkjs wtns check "$FIX/small.r1cs" "$TMP/bad.wtns"
    cz_expect 0 "cuzk prove --no-verify on it" \
        "$CUZK" prove --no-verify "$ZKEY" "$TMP/bad.wtns" "$TMP/bad_proof.json" "$TMP/bad_public.json"
    cz_check "its public.json is unchanged" same_json "$TMP/bad_public.json" "$FIX/small_public.json"
    both_reject "the proof of a wrong witness" "$TMP/bad_public.json" "$TMP/bad_proof.json"
else
    cz_fail "no 0/1 private value in small.wtns"
fi

sj_flush

echo "== malleability: (-A, -B, C) is also a valid proof; both must agree"
jsedit "$P" "$TMP/mall.json" 'p.pi_a[1] = neg(p.pi_a[1]); p.pi_b[1] = p.pi_b[1].map(neg);'
cz_run snarkjs groth16 verify "$VK" "$PUB" "$TMP/mall.json"
s_rc=$RUN_RC
cz_expect "$s_rc" "cuzk agrees with snarkjs (exit $s_rc) on (-A, -B, C)" "$CUZK" verify "$VK" "$PUB" "$TMP/mall.json"

sj_flush

echo "== non-canonical values: cuzk rejects them (snarkjs accepts some)"
jsedit "$PUB" "$TMP/pub_r.json" 'p[2] = (BigInt(p[2]) + R).toString();'
cz_run snarkjs groth16 verify "$VK" "$TMP/pub_r.json" "$P"
echo "   (snarkjs on public input a + r: exit $RUN_RC)"
cz_expect "1 2" "cuzk rejects public input a + r (not reduced)" "$CUZK" verify "$VK" "$TMP/pub_r.json" "$P"
jsedit "$P" "$TMP/t_q.json" 'p.pi_a[0] = (BigInt(p.pi_a[0]) + Q).toString();'
cz_run snarkjs groth16 verify "$VK" "$PUB" "$TMP/t_q.json"
echo "   (snarkjs on pi_a.x + q: exit $RUN_RC)"
cz_expect "1 2" "cuzk rejects pi_a.x + q (not reduced)" "$CUZK" verify "$VK" "$PUB" "$TMP/t_q.json"

echo "== points on the curve but outside the subgroup, and at infinity"
# A G1 point (x, sqrt(x^3 + 4)) for the first x that has one: on the curve,
# and with overwhelming probability not in the order-r subgroup (cofactor
# about 2^126). The verifier must check the subgroup (or fail the pairing).
jsedit "$P" "$TMP/t_sub.json" '
const pw = (b, e, m) => { let r = 1n; b %= m; for (; e > 0n; e >>= 1n, b = b * b % m) if (e & 1n) r = r * b % m; return r; };
let x = 5n, y;
for (;; x++) { const v = (x * x * x + 4n) % Q; y = pw(v, (Q + 1n) / 4n, Q); if (y * y % Q === v) break; }
p.pi_c = [x.toString(), y.toString(), "1"];'
both_reject "pi_c on the curve, outside the subgroup" "$PUB" "$TMP/t_sub.json"
jsedit "$P" "$TMP/t_inf.json" 'p.pi_a = ["0", "1", "0"];'
cz_run snarkjs groth16 verify "$VK" "$PUB" "$TMP/t_inf.json"
echo "   (snarkjs on pi_a = infinity: exit $RUN_RC)"
cz_expect "1 2" "cuzk rejects pi_a = infinity [0, 1, 0]" "$CUZK" verify "$VK" "$PUB" "$TMP/t_inf.json"

sj_flush

echo "== edge-case witnesses: zeros, all-ones bits, r - 1 (circuit compiled here)"
mkdir -p "$TMP/small"
cp "$SRC/tests/circuits/small.circom" "$TMP/small/"
if (cd "$TMP/small" && circom2 --prime bls12381 --r1cs --wasm -o . small.circom >circom.log 2>&1); then
    cz_check "circom2 small.circom gives the committed small.r1cs" cmp "$TMP/small/small.r1cs" "$FIX/small.r1cs"
    RM1=5243587517512619047944774050818596583769055250052763782260365869993858118400
    i=0
    for input in \
        '{"a": "0", "b": "0", "x": "0", "y": "0", "k": "0"}' \
        "{\"a\": \"$RM1\", \"b\": \"$RM1\", \"x\": \"65535\", \"y\": \"$RM1\", \"k\": \"$RM1\"}" \
        "{\"a\": \"1\", \"b\": \"$RM1\", \"x\": \"32768\", \"y\": \"1\", \"k\": \"0\"}"; do
        i=$((i + 1))
        echo "$input" >"$TMP/small/in$i.json"
        echo "   input $i: $input"
        cz_expect 0 "snarkjs wtns calculate, input $i" \
            snarkjs wtns calculate "$TMP/small/small_js/small.wasm" "$TMP/small/in$i.json" "$TMP/small/w$i.wtns" || continue
        cz_expect 0 "snarkjs groth16 prove, input $i" \
            snarkjs groth16 prove "$ZKEY" "$TMP/small/w$i.wtns" "$TMP/small/sp$i.json" "$TMP/small/spub$i.json"
        cz_expect 0 "cuzk prove, input $i" \
            "$CUZK" prove "$ZKEY" "$TMP/small/w$i.wtns" "$TMP/small/cp$i.json" "$TMP/small/cpub$i.json"
        cz_check "public.json equals snarkjs's, input $i" same_json "$TMP/small/cpub$i.json" "$TMP/small/spub$i.json"
        sj_expect 0 "verifies the cuzk proof, input $i" "$TMP/small/cpub$i.json" "$TMP/small/cp$i.json"
        cz_expect 0 "cuzk verifies the snarkjs proof, input $i" \
            "$CUZK" verify "$VK" "$TMP/small/spub$i.json" "$TMP/small/sp$i.json"
    done
else
    cz_fail "circom2 could not compile small.circom"; cat "$TMP/small/circom.log" >&2
fi

sj_flush
cz_finish
