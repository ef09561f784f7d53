#!/usr/bin/env bash
# ctest: labels=oracle timeout=900
# test_bn254_setup.sh: `cuzk setup` on bn128 circuits makes real snarkjs
# bn128 keys.
#
# circom2 compiles tests/circuits/small.circom, nopub.circom, manypub.circom
# and a 2^10 chain circuit for bn128 (the .r1cs header's prime is BN254's
# r); then, per circuit:
#   - cuzk setup writes a .zkey and a vk with "curve": "bn128"; snarkjs's
#     `zkey export verificationkey` of that key is byte for byte cuzk's vk;
#   - snarkjs groth16 prove with cuzk's key, and snarkjs and cuzk verify it;
#   - cuzk prove with the key, and snarkjs verifies it; public.json equal;
#   - a tampered proof (pi_a, pi_c) or public input is refused by both
#     verifiers, as is the proof under the vk of another seed;
# and: --seed gives the same key byte for byte, another seed another key;
# a truncated .r1cs (in the container header, in the first section, in
# the constraints) and a prime of neither curve exit 2 with one clear
# line; a BLS12-381 circuit still gets a BLS12-381 key; cuzk info names a
# bn128 .r1cs's curve. Skips (77) when node, snarkjs or circom2 is missing.
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

# jsedit IN OUT JS: OUT = the JSON of IN after JS on it (as `p`; lib.sh's cz_jsedit over BN254).
jsedit() { cz_jsedit bn254 "$@"; }

# both RC DESC VK PUBLIC PROOF: snarkjs and cuzk verify give RC.
both() {
    cz_expect "$1" "snarkjs: $2" snarkjs groth16 verify "$3" "$4" "$5"
    cz_expect "$1" "cuzk: $2" "$CUZK" verify "$3" "$4" "$5"
}

# compile NAME INPUT_JSON [CIRCOM_NAME]: compile tests/circuits/NAME.circom
# for bn128 and its witness in $TMP/NAME.
compile() {
    local d=$TMP/$1
    mkdir -p "$d"
    cp "$SRC/tests/circuits/$1.circom" "$d/"
    echo "$2" >"$d/input.json"
    (cd "$d" && circom2 --prime bn128 --r1cs --wasm -o . "$1.circom" >circom.log 2>&1) ||
        { cat "$d/circom.log" >&2; return 1; }
    snarkjs wtns calculate "$d/$1_js/$1.wasm" "$d/input.json" "$d/$1.wtns" >/dev/null
}

# roundtrip NAME R1CS WTNS SEED
roundtrip() {
    local name=$1 r1cs=$2 wtns=$3 seed=$4 d=$TMP/$1/out t0
    mkdir -p "$d"
    cz_expect 0 "[$name] cuzk setup --seed $seed (another key)" \
        "$CUZK" setup --quiet --seed $((seed + 1000)) "$r1cs" "$d/other.zkey" "$d/other_vk.json" || return
    t0=$(date +%s%N)
    cz_expect 0 "[$name] cuzk setup --seed $seed --json" \
        "$CUZK" setup --json --seed "$seed" "$r1cs" "$d/key.zkey" "$d/vk.json" || return
    echo "   (cuzk setup took $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
    cz_check "[$name]   --json says bn128" bash -c 'printf "%s" "$1" | grep -q "\"curve\":\"bn128\""' _ "$RUN_OUT"
    cz_check "[$name] vk.json says curve bn128" grep -q '"curve": *"bn128"' "$d/vk.json"
    cz_expect 0 "[$name] cuzk info: the key is BN254" "$CUZK" info "$d/key.zkey"
    cz_check "[$name]   curve: BN254" bash -c 'printf "%s" "$1" | grep -q "^curve: BN254"' _ "$RUN_OUT"
    cz_expect 0 "[$name] snarkjs reads the key: zkey export verificationkey" \
        snarkjs zkey export verificationkey "$d/key.zkey" "$d/svk.json"
    cz_check "[$name] snarkjs's vk of the cuzk key is cuzk's vk.json, byte for byte" \
        cmp "$d/svk.json" "$d/vk.json"
    t0=$(date +%s%N)
    cz_expect 0 "[$name] snarkjs groth16 prove with the cuzk key" \
        snarkjs groth16 prove "$d/key.zkey" "$wtns" "$d/sproof.json" "$d/spublic.json"
    echo "   (snarkjs prove took $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
    both 0 "[$name] verifies snarkjs's proof" "$d/vk.json" "$d/spublic.json" "$d/sproof.json"
    cz_expect 0 "[$name] cuzk prove with the cuzk key" \
        "$CUZK" prove "$d/key.zkey" "$wtns" "$d/cproof.json" "$d/cpublic.json"
    if [ "$(tr -d ' \n\t' <"$d/spublic.json")" = "[]" ]; then
        # snarkjs writes "[\n]" for no public signals, cuzk "[]": the same JSON
        cz_check "[$name] cuzk and snarkjs write the same public.json (empty)" \
            bash -c '[ "$(tr -d " \n\t" <"$1")" = "[]" ]' _ "$d/cpublic.json"
    else
        cz_check "[$name] cuzk and snarkjs write the same public.json" cmp "$d/cpublic.json" "$d/spublic.json"
    fi
    both 0 "[$name] verifies cuzk's proof" "$d/vk.json" "$d/cpublic.json" "$d/cproof.json"
    # tampered proofs and inputs, of both provers
    local who
    for who in s c; do
        jsedit "$d/${who}proof.json" "$d/${who}t_a.json" 'p.pi_a = [p.pi_a[0], neg(p.pi_a[1]), p.pi_a[2]];'
        both 1 "[$name] refuses -pi_a (${who/c/cuzk}'s proof)" "$d/vk.json" "$d/${who}public.json" "$d/${who}t_a.json"
        jsedit "$d/${who}proof.json" "$d/${who}t_c.json" 'p.pi_c = [p.pi_a[0], p.pi_a[1], p.pi_a[2]];'
        both 1 "[$name] refuses pi_c = pi_a (${who/c/cuzk}'s proof)" "$d/vk.json" "$d/${who}public.json" "$d/${who}t_c.json"
        both 1 "[$name] refuses the proof under the vk of another seed (${who/c/cuzk}'s)" \
            "$d/other_vk.json" "$d/${who}public.json" "$d/${who}proof.json"
    done
    if [ "$(tr -d ' \n\t' <"$d/cpublic.json")" != "[]" ]; then
        jsedit "$d/cpublic.json" "$d/t_pub.json" 'p[p.length - 1] = inc(p[p.length - 1]);'
        both 1 "[$name] refuses a public input + 1" "$d/vk.json" "$d/t_pub.json" "$d/cproof.json"
    fi
}

echo "== small.circom for bn128"
if compile small "$(cat "$FIX/small_input.json")"; then
    cz_pass "compiled small.circom for bn128"
    R=$TMP/small/small.r1cs
    cz_expect 0 "cuzk info on the bn128 .r1cs" "$CUZK" info "$R"
    cz_check "  curve: BN254, 108 constraints, domain 128" bash -c \
        'printf "%s" "$1" | grep -q "^curve: BN254" && printf "%s" "$1" | grep -q "^nConstraints: 108" && printf "%s" "$1" | grep -q "^domainSize: 128"' _ "$RUN_OUT"
    roundtrip small "$R" "$TMP/small/small.wtns" 11

    echo "== --seed"
    cz_expect 0 "cuzk setup --seed 11 again (1 thread)" \
        "$CUZK" setup --quiet --threads 1 --seed 11 "$R" "$TMP/again.zkey" "$TMP/again_vk.json"
    cz_check "the same seed gives the same key, byte for byte" cmp "$TMP/again.zkey" "$TMP/small/out/key.zkey"
    cz_check "and the same vk" cmp "$TMP/again_vk.json" "$TMP/small/out/vk.json"
    cz_check "another seed gives another key" bash -c '! cmp -s "$1" "$2"' _ "$TMP/small/out/other.zkey" "$TMP/small/out/key.zkey"
    cz_expect 0 "cuzk setup without --seed" "$CUZK" setup --quiet "$R" "$TMP/rand1.zkey"
    cz_expect 0 "cuzk setup without --seed, again" "$CUZK" setup --quiet "$R" "$TMP/rand2.zkey"
    cz_check "two unseeded keys differ" bash -c '! cmp -s "$1" "$2"' _ "$TMP/rand1.zkey" "$TMP/rand2.zkey"
    cz_expect 0 "cuzk prove with an unseeded key (self-checked)" \
        "$CUZK" prove --quiet "$TMP/rand1.zkey" "$TMP/small/small.wtns" "$TMP/rp.json" "$TMP/rpub.json"
    cz_expect 0 "cuzk export-vk of the unseeded key" "$CUZK" export-vk "$TMP/rand1.zkey" "$TMP/rvk.json"
    cz_expect 0 "snarkjs verifies that proof" snarkjs groth16 verify "$TMP/rvk.json" "$TMP/rpub.json" "$TMP/rp.json"

    echo "== bad .r1cs files (exit 2, one line)"
    size=$(stat -c %s "$R")
    head -c 8 "$R" >"$TMP/t8.r1cs"
    cz_expect_err "an .r1cs cut in its container header" "$CUZK" setup "$TMP/t8.r1cs" "$TMP/x.zkey"
    cz_check "  says truncated" bash -c 'printf "%s" "$1" | grep -q "truncated"' _ "$RUN_ERR"
    head -c 40 "$R" >"$TMP/t40.r1cs"
    cz_expect_err "an .r1cs cut after 40 bytes" "$CUZK" setup "$TMP/t40.r1cs" "$TMP/x.zkey"
    cz_check "  says the sections do not fit" bash -c 'printf "%s" "$1" | grep -q "does not fit in 40 bytes"' _ "$RUN_ERR"
    head -c 60 "$R" >"$TMP/t60.r1cs"
    cz_expect_err "an .r1cs cut in its first section" "$CUZK" setup "$TMP/t60.r1cs" "$TMP/x.zkey"
    cz_check "  says truncated" bash -c 'printf "%s" "$1" | grep -q "truncated"' _ "$RUN_ERR"
    head -c $((size / 2)) "$R" >"$TMP/thalf.r1cs"
    cz_expect_err "an .r1cs cut in its constraints" "$CUZK" setup "$TMP/thalf.r1cs" "$TMP/x.zkey"
    cz_check "  says truncated" bash -c 'printf "%s" "$1" | grep -q "truncated"' _ "$RUN_ERR"
    cz_check "  and writes no key" test ! -e "$TMP/x.zkey"
    # the prime (section 1, after its 12-byte section header and n8) + 2
    node -e '
const fs = require("fs");
const b = fs.readFileSync(process.argv[1]);
let off = 12;
for (;;) { const id = b.readUInt32LE(off), sz = Number(b.readBigUInt64LE(off + 4)); if (id === 1) break; off += 12 + sz; }
b[off + 12 + 4] += 2;
fs.writeFileSync(process.argv[2], b);' "$R" "$TMP/prime.r1cs" || cz_fail "test setup: could not edit the prime"
    cz_expect_err "an .r1cs over a prime of neither curve" "$CUZK" setup "$TMP/prime.r1cs" "$TMP/x.zkey"
    cz_check "  names both curves" bash -c 'printf "%s" "$1" | grep -q "neither BLS12-381.*nor BN254"' _ "$RUN_ERR"
else
    cz_fail "could not compile small.circom for bn128"
fi

echo "== no public signals (nPublic = 0)"
if compile nopub '{"a": "3", "b": "4"}'; then
    roundtrip nopub "$TMP/nopub/nopub.r1cs" "$TMP/nopub/nopub.wtns" 13
    cz_check "[nopub] public.json is []" bash -c '[ "$(tr -d " \n\t" <"$1")" = "[]" ]' _ "$TMP/nopub/out/cpublic.json"
else
    cz_fail "could not compile nopub.circom for bn128"
fi

echo "== 48 public signals (24 outputs, 24 public inputs)"
MP_IN=$(node -e 'const a = []; for (let i = 0; i < 24; i++) a.push(String(1000003 * i + 17)); console.log(JSON.stringify({in: a, k: "5"}));')
if compile manypub "$MP_IN"; then
    roundtrip manypub "$TMP/manypub/manypub.r1cs" "$TMP/manypub/manypub.wtns" 14
else
    cz_fail "could not compile manypub.circom for bn128"
fi

echo "== chain circuit for bn128, domain 2^10"
N=$(cz_chain_steps 10)
if cz_make_chain "$TMP/chain10" "$N" bn128 >/dev/null; then
    cz_pass "compiled Chain($N) for bn128 and computed its witness"
    roundtrip chain10 "$TMP/chain10/chain.r1cs" "$TMP/chain10/chain.wtns" 12
    cz_expect 0 "cuzk info on the 2^10 key" "$CUZK" info "$TMP/chain10/out/key.zkey"
    cz_check "the key's domain is 1024" bash -c 'printf "%s" "$1" | grep -qw 1024' _ "$RUN_OUT"
else
    cz_fail "could not compile the chain circuit for bn128"
fi

echo "== a BLS12-381 circuit still gets a BLS12-381 key"
cz_expect 0 "cuzk setup --seed 3 small.r1cs (bls12381)" "$CUZK" setup --quiet --seed 3 "$FIX/small.r1cs" "$TMP/bls.zkey" "$TMP/bls_vk.json"
cz_check "  its vk says bls12381" grep -q '"curve": *"bls12381"' "$TMP/bls_vk.json"
cz_expect 0 "  cuzk prove with it (self-checked)" "$CUZK" prove --quiet "$TMP/bls.zkey" "$FIX/small.wtns" "$TMP/bp.json" "$TMP/bpub.json"
cz_expect 0 "  cuzk verify" "$CUZK" verify "$TMP/bls_vk.json" "$TMP/bpub.json" "$TMP/bp.json"

cz_finish
