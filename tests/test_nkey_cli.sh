#!/usr/bin/env bash
# ctest: labels=oracle timeout=900
# test_nkey_cli.sh: the compact key file (.czk) through the CLI, porep-mini:
#   cuzk setup --circuit porep-mini --out key.czk (and the same seed as a
#   .zkey: the same verification key; the .czk has C folded into its
#   points, so its proof skips c's transforms) -> cuzk info prints the header, every
#   section's size and that the checksums hold -> cuzk export-vk -> cuzk
#   prove --circuit with the .czk -> cuzk verify and snarkjs groth16 verify
#   accept; the proof does not verify with other public inputs;
#   a key with one byte changed is refused by info and prove, naming the
#   section (exit 2, one line); a cut key too; a .czk made for another
#   circuit than --circuit's is refused; --format and a .czk without
#   --circuit are usage errors.
source "$(dirname "$0")/lib.sh"
cz_init
# shellcheck source=tests/common/porep_lib.sh
source "$(dirname "$0")/common/porep_lib.sh"
cz_porep_init # the oracles, $BENCH, P=porep-mini, d=$TMP

cz_expect 0 "gen-c1 $P" "$BENCH" gen-c1 --preset $P --seed 9 --out "$d/c1.json"
cz_expect 0 "cuzk setup --circuit $P --out key.czk" "$CUZK" setup --seed 3 --circuit $P \
    --out "$d/key.czk" "$d/vk.json"
cz_check "setup says it wrote a compact key" grep -q "key.czk: [0-9]* bytes (compact key" <<<"$RUN_ERR"
cz_check "no temporary file is left" test -z "$(ls "$d" | grep tmp)"
cz_expect 0 "the same seed as a .zkey" "$CUZK" setup --seed 3 --circuit $P --out "$d/key.zkey" \
    "$d/vk-zkey.json"
cz_check "both formats give the same verification key" cmp -s "$d/vk.json" "$d/vk-zkey.json"
czk=$(stat -c %s "$d/key.czk")
zk=$(stat -c %s "$d/key.zkey")
echo "porep-mini key: .zkey $zk bytes, .czk $czk bytes"
cz_check "the .czk is less than half the .zkey ($czk vs $zk bytes)" test $((czk * 2)) -lt "$zk"
cz_expect 0 "--format czk with another extension" "$CUZK" setup --seed 3 --circuit $P \
    --format czk --out "$d/key.bin"
cz_check "--format czk wrote the same key" cmp -s "$d/key.czk" "$d/key.bin"

# info: the header and the sizes
cz_expect 0 "cuzk info key.czk" "$CUZK" info "$d/key.czk"
for k in "type: czk" "version: 2" "circuit: $P" "development: yes" "foldedC: yes" "nPublic: 9" \
    "domainSize: 262144" "section.C_publics: $((10 * 48))" \
    "fileBytes: $czk" "section.H: $((262144 * 48))" "checksums: ok"; do
    cz_check "info prints \"$k\"" grep -qx "$k" <<<"$RUN_OUT"
done
for k in nVars nB nCoefficients nonzerosA nonzerosB memoryBytes pointBytes matrixBytes \
    section.vk section.IC section.A section.B_index section.B1 section.B2 section.C \
    section.coefficients section.A_rows section.A_columns section.A_coefficient_indices \
    section.B_rows section.B_columns section.B_coefficient_indices shapeDigest; do
    cz_check "info prints $k" grep -q "^$k: [0-9a-f]" <<<"$RUN_OUT"
done
cz_expect 0 "cuzk info --json key.czk" "$CUZK" info --json "$d/key.czk"
cz_check "info --json has the file's size" grep -q "\"fileBytes\":$czk" <<<"$RUN_OUT"

# export-vk reads the vk and IC sections only
cz_expect 0 "cuzk export-vk key.czk" "$CUZK" export-vk "$d/key.czk" "$d/vk2.json"
cz_check "export-vk gives setup's verification key" cmp -s "$d/vk.json" "$d/vk2.json"

# a proof of partition 1 from the .czk
cz_expect 0 "cuzk prove --circuit $P with key.czk" "$CUZK" prove --circuit $P --c1 "$d/c1.json" \
    --partition 1 "$d/key.czk" "$d/proof.json" "$d/public.json"
cz_check "prove loaded the key" grep -q "cuzk: load_key " <<<"$RUN_ERR"
cz_expect 0 "cuzk verify accepts it" "$CUZK" verify "$d/vk.json" "$d/public.json" "$d/proof.json"
cz_expect 0 "snarkjs groth16 verify accepts it" \
    snarkjs groth16 verify "$d/vk.json" "$d/public.json" "$d/proof.json"
node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
p[0] = p[0] === "1" ? "2" : "1";
fs.writeFileSync(process.argv[2], JSON.stringify(p));
' "$d/public.json" "$d/public-bad.json"
cz_expect 1 "other public inputs: cuzk verify refuses" "$CUZK" verify "$d/vk.json" \
    "$d/public-bad.json" "$d/proof.json"
cz_expect 1 "snarkjs agrees" snarkjs groth16 verify "$d/vk.json" "$d/public-bad.json" "$d/proof.json"

# damaged keys: the section is named, nothing is proven
# the H section's offset, from the section table (entry 8 at 128 + 7 * 32)
h_off=$(cz_u64_at "$d/key.czk" $((128 + 7 * 32 + 8)))
cp "$d/key.czk" "$d/bad.czk"
printf '\x55' | dd of="$d/bad.czk" bs=1 seek=$((h_off + 1000)) conv=notrunc status=none
cz_expect_err "info refuses a changed byte in H" "$CUZK" info "$d/bad.czk"
cz_check "the message names the section" grep -q "bad.czk: section H: checksum mismatch" <<<"$RUN_ERR"
# (prove reads the sections in order, each checked before it is used: a
# change in IC, the second section, fails at once)
ic_off=$(cz_u64_at "$d/key.czk" $((128 + 1 * 32 + 8)))
cp "$d/key.czk" "$d/bad.czk"
printf '\x55' | dd of="$d/bad.czk" bs=1 seek=$((ic_off + 50)) conv=notrunc status=none
cz_expect_err "prove refuses a changed byte in IC" "$CUZK" prove --circuit $P --c1 "$d/c1.json" \
    --partition 1 "$d/bad.czk" "$d/bad-proof.json" "$d/bad-public.json"
cz_check "prove names the section" grep -q "bad.czk: section IC: checksum mismatch" <<<"$RUN_ERR"
cz_check "no proof was written" test ! -e "$d/bad-proof.json"
head -c $((h_off + 4800)) "$d/key.czk" >"$d/cut.czk"
cz_expect_err "a key cut in H is refused" "$CUZK" export-vk "$d/cut.czk" "$d/cut-vk.json"
cz_check "the message names the section" grep -q "cut.czk: section H: truncated" <<<"$RUN_ERR"

# usage
cz_expect_err "prove --circuit with another circuit's .czk" "$CUZK" prove --circuit porep-8m \
    --c1 "$d/c1.json" --partition 0 "$d/key.czk" "$d/x-proof.json" "$d/x-public.json"
cz_check "the message names both circuits" grep -q "a key for the circuit $P, not porep-8m" <<<"$RUN_ERR"
cz_expect_err "a .czk without --circuit" "$CUZK" setup "$FIX/../fuzz/seeds/tiny.r1cs" "$d/x.czk"
cz_expect_err "--format of another kind" "$CUZK" setup --circuit $P --format bin --out "$d/x.bin"
cz_expect_err "--out is an option of setup" "$CUZK" info --out "$d/x" "$d/key.czk"

cz_finish
