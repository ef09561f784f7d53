#!/usr/bin/env bash
# ctest: labels=oracle timeout=300
# test_circuit_snarkjs.sh: circuits written in C, checked by snarkjs.
# For every gadget instance of cuzk-gadgets (tools/cuzk-gadgets.c), the
# exported .r1cs and .wtns pass `snarkjs wtns check`; a witness with one
# boolean flipped fails it. One small instance goes end to end: cuzk setup
# on the exported .r1cs, cuzk prove, and snarkjs groth16 verify (and cuzk
# verify) accept the proof.
source "$(dirname "$0")/lib.sh"
cz_init
cz_need_oracle

GADGETS=$BIN/cuzk-gadgets
if [ ! -x "$GADGETS" ]; then
    echo "FAIL: $GADGETS is not built (build the cuzk-gadgets target first)" >&2
    exit 1
fi

names=$("$GADGETS" list | awk '{print $1}')
cz_check "cuzk-gadgets list names instances" test -n "$names"
cz_expect 2 "cuzk-gadgets refuses an unknown name" "$GADGETS" no-such-gadget "$TMP/x.r1cs" "$TMP/x.wtns"
cz_expect 2 "cuzk-gadgets refuses a bad seed" "$GADGETS" bool-ops "$TMP/x.r1cs" "$TMP/x.wtns" --seed x1

for g in $names; do
    echo "== $g"
    cz_expect 0 "[$g] cuzk-gadgets writes the r1cs and wtns" "$GADGETS" "$g" "$TMP/$g.r1cs" "$TMP/$g.wtns" --seed 7 || continue
    echo "   $RUN_OUT"
    cz_expect 0 "[$g] snarkjs wtns check accepts them" snarkjs wtns check "$TMP/$g.r1cs" "$TMP/$g.wtns"
done

# a flipped boolean (the first private 0/1 value) fails the check
g=sha256-1block
npub=$(snarkjs r1cs info "$TMP/$g.r1cs" 2>/dev/null | sed -n 's/.*# of Public Inputs: \([0-9]*\).*/\1/p')
cz_check "[$g] snarkjs reads the public count" test -n "$npub"
if idx=$(cz_wtns_flip_boolean "$TMP/$g.wtns" "$TMP/$g-bad.wtns" "${npub:-0}"); then
    echo "   flipped witness value $idx"
    cz_expect 1 "[$g] snarkjs wtns check refuses a flipped value" \
        snarkjs wtns check "$TMP/$g.r1cs" "$TMP/$g-bad.wtns"
else
    cz_fail "[$g] no boolean value to flip"
fi

# end to end on a small instance: cuzk setup + prove, snarkjs verifies
g=u32-ops
d=$TMP/prove
mkdir -p "$d"
cz_expect 0 "[$g] cuzk setup on the exported r1cs" "$CUZK" setup --seed 5 "$TMP/$g.r1cs" "$d/key.zkey" "$d/vk.json"
cz_expect 0 "[$g] cuzk prove with the gadget's witness" "$CUZK" prove "$d/key.zkey" "$TMP/$g.wtns" "$d/proof.json" "$d/public.json"
cz_expect 0 "[$g] snarkjs groth16 verify accepts the proof" snarkjs groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"
cz_expect 0 "[$g] cuzk verify accepts the proof" "$CUZK" verify "$d/vk.json" "$d/public.json" "$d/proof.json"
# the public input is the gadget's packed output: another statement fails
sed 's/"\([0-9]\)/"1\1/' "$d/public.json" >"$d/public-bad.json"
cz_expect 1 "[$g] snarkjs refuses the proof for another public input" \
    snarkjs groth16 verify "$d/vk.json" "$d/public-bad.json" "$d/proof.json"

cz_finish
