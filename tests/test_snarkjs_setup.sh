#!/usr/bin/env bash
# ctest: labels=oracle timeout=900
# test_snarkjs_setup.sh: keys made by `cuzk setup` are real snarkjs keys.
# For the small fixture circuit and a 2^12 chain circuit (compiled here by
# circom2): cuzk setup -> snarkjs groth16 prove with that key -> snarkjs
# and cuzk both verify; cuzk prove with the key -> snarkjs verifies; snarkjs
# exports the same verification key from it as cuzk setup wrote.
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

# same_json A B: equal JSON values, key order ignored.
same_json() {
    node -e '
const fs = require("fs");
const canon = (v) => Array.isArray(v) ? v.map(canon)
    : (v && typeof v === "object") ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]))
    : v;
const [a, b] = process.argv.slice(1).map((f) => JSON.stringify(canon(JSON.parse(fs.readFileSync(f, "utf8")))));
if (a !== b) { console.error("differ:\n" + a.slice(0, 400) + "\n" + b.slice(0, 400)); process.exit(1); }
' "$1" "$2"
}

# roundtrip NAME R1CS WTNS SEED
roundtrip() {
    local name=$1 r1cs=$2 wtns=$3 seed=$4 d=$TMP/$1 t0
    mkdir -p "$d"
    t0=$(date +%s%N)
    cz_expect 0 "[$name] cuzk setup --seed $seed" "$CUZK" setup --seed "$seed" "$r1cs" "$d/key.zkey" "$d/vk.json" || return
    echo "   (cuzk setup took $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
    cz_expect 0 "[$name] snarkjs reads the key: zkey export verificationkey" \
        snarkjs zkey export verificationkey "$d/key.zkey" "$d/svk.json"
    cz_check "[$name] snarkjs's vk of the cuzk key equals cuzk's vk.json" same_json "$d/svk.json" "$d/vk.json"
    t0=$(date +%s%N)
    cz_expect 0 "[$name] snarkjs groth16 prove with the cuzk key" \
        snarkjs groth16 prove "$d/key.zkey" "$wtns" "$d/sproof.json" "$d/spublic.json"
    echo "   (snarkjs prove took $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
    cz_expect 0 "[$name] snarkjs verifies the snarkjs proof" snarkjs groth16 verify "$d/vk.json" "$d/spublic.json" "$d/sproof.json"
    cz_expect 0 "[$name] cuzk verifies the snarkjs proof" "$CUZK" verify "$d/vk.json" "$d/spublic.json" "$d/sproof.json"
    cz_expect 0 "[$name] cuzk prove with the cuzk key" "$CUZK" prove "$d/key.zkey" "$wtns" "$d/cproof.json" "$d/cpublic.json"
    cz_check "[$name] cuzk and snarkjs write the same public.json" same_json "$d/cpublic.json" "$d/spublic.json"
    cz_expect 0 "[$name] snarkjs verifies the cuzk proof" snarkjs groth16 verify "$d/vk.json" "$d/cpublic.json" "$d/cproof.json"
    # The key is the statement: a proof under one key fails under another.
    cz_expect 1 "[$name] snarkjs rejects the cuzk proof under a vk of another seed" \
        snarkjs groth16 verify "$TMP/other_vk_$name.json" "$d/cpublic.json" "$d/cproof.json"
}

echo "== small fixture circuit"
cz_expect 0 "cuzk setup --seed 99 small.r1cs (another key)" \
    "$CUZK" setup --seed 99 "$FIX/small.r1cs" "$TMP/other.zkey" "$TMP/other_vk_small.json"
roundtrip small "$FIX/small.r1cs" "$FIX/small.wtns" 11

# compile_small NAME INPUT_JSON: compile tests/circuits/NAME.circom and its
# witness in $TMP/NAME.
compile_small() {
    local d=$TMP/$1
    mkdir -p "$d"
    cp "$SRC/tests/circuits/$1.circom" "$d/"
    echo "$2" >"$d/input.json"
    (cd "$d" && circom2 --prime bls12381 --r1cs --wasm -o . "$1.circom" >circom.log 2>&1) ||
        { cat "$d/circom.log" >&2; return 1; }
    snarkjs wtns calculate "$d/$1_js/$1.wasm" "$d/input.json" "$d/$1.wtns" >/dev/null
}

echo "== no public signals (nPublic = 0)"
if compile_small nopub '{"a": "3", "b": "4"}'; then
    cz_expect 0 "cuzk setup --seed 97 nopub (another key)" \
        "$CUZK" setup --seed 97 "$TMP/nopub/nopub.r1cs" "$TMP/other.zkey" "$TMP/other_vk_nopub.json"
    roundtrip nopub "$TMP/nopub/nopub.r1cs" "$TMP/nopub/nopub.wtns" 13
    cz_check "[nopub] public.json is []" bash -c '[ "$(tr -d " \n\t" <"$1")" = "[]" ]' _ "$TMP/nopub/cpublic.json"
else
    cz_fail "could not compile nopub.circom"
fi

echo "== 48 public signals (24 outputs, 24 public inputs)"
MP_IN=$(node -e 'const a = []; for (let i = 0; i < 24; i++) a.push(String(1000003 * i + 17)); console.log(JSON.stringify({in: a, k: "5"}));')
if compile_small manypub "$MP_IN"; then
    cz_expect 0 "cuzk setup --seed 96 manypub (another key)" \
        "$CUZK" setup --seed 96 "$TMP/manypub/manypub.r1cs" "$TMP/other.zkey" "$TMP/other_vk_manypub.json"
    roundtrip manypub "$TMP/manypub/manypub.r1cs" "$TMP/manypub/manypub.wtns" 14
else
    cz_fail "could not compile manypub.circom"
fi

echo "== chain circuit, domain 2^12"
N=$(cz_chain_steps 12)
if cz_make_chain "$TMP/chain12" "$N"; then
    cz_pass "compiled Chain($N) and computed its witness"
    cz_expect 0 "cuzk setup --seed 98 chain (another key)" \
        "$CUZK" setup --seed 98 "$TMP/chain12/chain.r1cs" "$TMP/other.zkey" "$TMP/other_vk_chain12.json"
    roundtrip chain12 "$TMP/chain12/chain.r1cs" "$TMP/chain12/chain.wtns" 12
    cz_expect 0 "cuzk info on the 2^12 key" "$CUZK" info "$TMP/chain12/key.zkey"
    cz_check "the key's domain is 4096" bash -c 'printf "%s" "$1" | grep -qw 4096' _ "$RUN_OUT"
else
    cz_fail "could not compile the chain circuit"
fi

cz_finish
