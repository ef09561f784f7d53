#!/usr/bin/env bash
# ctest: labels=oracle timeout=600
# test_porep_cli.sh: the PoRep-shaped native circuit end to end, with
# snarkjs as the independent oracle (porep-mini):
#   cuzk-bench gen-c1 -> cuzk circuit export -> snarkjs wtns check accepts
#   -> cuzk setup --circuit -> cuzk prove --circuit (both partitions) ->
#   cuzk verify and snarkjs groth16 verify accept; a proof does not verify
#   against another partition's public inputs;
#   a c1 with one flipped label byte is refused (exit 2, one line naming
#   partition, challenge and field) by export and prove, and another
#   preset's c1 too; the same input forced past the reader
#   (--unchecked-c1) gives a witness that snarkjs wtns check refuses.
source "$(dirname "$0")/lib.sh"
cz_init
# shellcheck source=tests/common/porep_lib.sh
source "$(dirname "$0")/common/porep_lib.sh"
cz_porep_init # the oracles, $BENCH, P=porep-mini, d=$TMP

# the presets and their sizes
cz_expect 0 "cuzk circuit list" "$CUZK" circuit list
for name in porep-32g porep-512m porep-8m porep-mini; do
    cz_check "circuit list names $name" grep -q "^$name " <<<"$RUN_OUT"
done
cz_expect 0 "cuzk circuit info $P" "$CUZK" circuit info $P
for key in constraints public_inputs aux boolean_aux_percent domain_size sub.label_sha256 sub.tree_d; do
    cz_check "circuit info prints $key" grep -q "^$key: " <<<"$RUN_OUT"
done
cz_check "porep-mini has 10 public inputs (one + 3 + 6)" grep -qx "public_inputs: 10" <<<"$RUN_OUT"
cons=$(sed -n 's/^constraints: //p' <<<"$RUN_OUT")
cz_check "porep-mini fits 2^18 rows ($cons constraints)" test "${cons:-999999}" -le $((262144 - 11))
cz_expect_err "circuit info of an unknown preset" "$CUZK" circuit info porep-1t

# input, circuit and witness; snarkjs checks the witness
cz_expect 0 "gen-c1 $P" "$BENCH" gen-c1 --preset $P --seed 9 --out "$d/c1.json"
cz_expect 0 "circuit export partition 1" "$CUZK" circuit export $P --c1 "$d/c1.json" --partition 1 \
    "$d/c.r1cs" "$d/w1.wtns"
cz_expect 0 "snarkjs wtns check accepts the exported r1cs + wtns" \
    snarkjs wtns check "$d/c.r1cs" "$d/w1.wtns"

# key from the preset, proofs of both partitions
cz_expect 0 "cuzk setup --circuit $P" "$CUZK" setup --seed 3 --circuit $P "$d/key.zkey" "$d/vk.json"
for k in 0 1; do
    cz_expect 0 "cuzk prove --circuit $P --partition $k" "$CUZK" prove --circuit $P --c1 "$d/c1.json" \
        --partition $k "$d/key.zkey" "$d/proof$k.json" "$d/public$k.json"
    cz_check "prove reports its synthesis" grep -q "cuzk: synthesize " <<<"$RUN_ERR"
    cz_expect 0 "cuzk verify accepts partition $k" "$CUZK" verify "$d/vk.json" "$d/public$k.json" "$d/proof$k.json"
    cz_expect 0 "snarkjs groth16 verify accepts partition $k" \
        snarkjs groth16 verify "$d/vk.json" "$d/public$k.json" "$d/proof$k.json"
done
differ() { ! cmp -s "$1" "$2"; }
cz_check "the partitions have different public inputs" differ "$d/public0.json" "$d/public1.json"
cz_expect 1 "a proof does not verify against another partition's inputs" \
    "$CUZK" verify "$d/vk.json" "$d/public0.json" "$d/proof1.json"
cz_expect 1 "snarkjs agrees" snarkjs groth16 verify "$d/vk.json" "$d/public0.json" "$d/proof1.json"

# one flipped label byte (a DRG parent's label of partition 0, challenge 0)
node -e '
const fs = require("fs");
const c1 = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const col = c1.vanilla_proofs[0][0].replica_column_proofs.drg_parents[0].column;
col[0] = (col[0][0] === "0" ? "1" : "0") + col[0].slice(1);
fs.writeFileSync(process.argv[2], JSON.stringify(c1));
' "$d/c1.json" "$d/bad.json"
cz_expect_err "export refuses the flipped label" "$CUZK" circuit export $P --c1 "$d/bad.json" \
    --partition 0 "$d/bad.r1cs" "$d/bad.wtns"
cz_check "the reason names partition, challenge and field" \
    grep -q "partition 0, challenge 0: replica_column_proofs.drg_parents\[0\].column" <<<"$RUN_ERR"
cz_expect_err "prove refuses it too" "$CUZK" prove --circuit $P --c1 "$d/bad.json" --partition 0 \
    "$d/key.zkey" "$d/bad-proof.json" "$d/bad-public.json"
cz_check "no proof was written" test ! -e "$d/bad-proof.json"
# forced past the reader: the witness fails snarkjs's check
cz_expect 0 "export --unchecked-c1 writes the bad witness" "$CUZK" circuit export $P --unchecked-c1 \
    --c1 "$d/bad.json" --partition 0 "$d/bad.r1cs" "$d/bad.wtns"
cz_expect "1 2" "snarkjs wtns check refuses the forced witness" \
    snarkjs wtns check "$d/bad.r1cs" "$d/bad.wtns"
cz_check "snarkjs says the witness is wrong" grep -qiE "error|not|invalid" <<<"$RUN_OUT$RUN_ERR"

# another preset's file, a missing partition, a missing c1
cz_expect 0 "gen-c1 porep-8m" "$BENCH" gen-c1 --preset porep-8m --seed 2 --out "$d/c1-8m.json"
cz_expect_err "export refuses another preset's c1" "$CUZK" circuit export $P --c1 "$d/c1-8m.json" \
    --partition 0 "$d/x.r1cs" "$d/x.wtns"
cz_check "the reason says which preset" grep -q "is for porep-8m, not porep-mini" <<<"$RUN_ERR"
cz_expect_err "export refuses a partition that does not exist" "$CUZK" circuit export $P \
    --c1 "$d/c1.json" --partition 2 "$d/x.r1cs" "$d/x.wtns"
cz_expect_err "prove --circuit without --c1" "$CUZK" prove --circuit $P "$d/key.zkey" "$d/x.json" "$d/y.json"
cz_expect_err "prove --circuit with another preset's key" "$CUZK" prove --circuit porep-8m \
    --c1 "$d/c1-8m.json" "$d/key.zkey" "$d/x.json" "$d/y.json"

cz_finish
