#!/usr/bin/env bash
# ctest: labels=unit timeout=600
# test_cli_errors.sh: malformed inputs make cuzk fail cleanly, never crash.
#
# The CLI contract: a bad file, a wrong curve, a witness of the wrong length
# or a bad command line exits 2 with a one-line "cuzk: <file>: <what>" on
# stderr. A crash is exit >= 128 (a signal) or a sanitizer report, and is a
# failure everywhere, even where any exit status 0..3 would be accepted.
# Corruptions of the key's data (points, coefficients) may be legal values:
# there the proof may simply be wrong, so 0, 1 and 2 are all accepted, but a
# corrupted header or section size must give 2.
source "$(dirname "$0")/lib.sh"
cz_init

ZKEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json
PROOF=$FIX/small_proof.json
PUB=$FIX/small_public.json
P=("$TMP/p.json" "$TMP/pub.json")

prove() { "$CUZK" prove --quiet "$@"; }

echo "== command line"
cz_expect_err "no arguments: usage" "$CUZK"
cz_expect_err "unknown command" "$CUZK" frobnicate
cz_expect_err "prove with 3 arguments" "$CUZK" prove "$ZKEY" "$WTNS" "$TMP/p.json"
cz_expect_err "prove with 5 arguments" "$CUZK" prove "$ZKEY" "$WTNS" "${P[@]}" extra
cz_expect_err "verify with 2 arguments" "$CUZK" verify "$VK" "$PUB"
cz_expect_err "info with no file" "$CUZK" info
cz_expect_err "export-vk with 1 argument" "$CUZK" export-vk "$ZKEY"
cz_expect_err "setup with 1 argument" "$CUZK" setup "$FIX/small.r1cs"
cz_expect_err "unknown option" "$CUZK" prove --frobnicate "$ZKEY" "$WTNS" "${P[@]}"
cz_expect_err "--threads without a number" "$CUZK" prove --threads abc "$ZKEY" "$WTNS" "${P[@]}"
cz_expect_err "--threads missing its value" "$CUZK" prove "$ZKEY" "$WTNS" "${P[@]}" --threads
cz_expect_err "--device bogus" "$CUZK" prove --device bogus "$ZKEY" "$WTNS" "${P[@]}"
cz_expect 0 "--help exits 0" "$CUZK" --help
cz_expect 0 "prove --help exits 0" "$CUZK" prove --help

echo "== missing, empty, directory"
: >"$TMP/empty"
cz_expect_err "nonexistent zkey" prove "$TMP/nope.zkey" "$WTNS" "${P[@]}"
cz_check "the message names the file" bash -c '[[ $1 == *nope.zkey* ]]' _ "$RUN_ERR"
cz_expect_err "nonexistent wtns" prove "$ZKEY" "$TMP/nope.wtns" "${P[@]}"
cz_expect_err "empty zkey" prove "$TMP/empty" "$WTNS" "${P[@]}"
cz_expect_err "empty wtns" prove "$ZKEY" "$TMP/empty" "${P[@]}"
cz_expect_err "directory as zkey" prove "$TMP" "$WTNS" "${P[@]}"
cz_expect_err "directory as wtns" prove "$ZKEY" "$TMP" "${P[@]}"
cz_expect_err "wtns given as zkey (wrong magic)" prove "$WTNS" "$WTNS" "${P[@]}"
cz_expect_err "zkey given as wtns" prove "$ZKEY" "$ZKEY" "${P[@]}"
cz_expect "2 3" "output in a nonexistent directory" prove "$ZKEY" "$WTNS" "$TMP/no/dir/p.json" "$TMP/pub.json"
cz_expect_err "info on an empty file" "$CUZK" info "$TMP/empty"
cz_expect_err "info on a nonexistent file" "$CUZK" info "$TMP/nope.zkey"
cz_expect_err "export-vk of an empty file" "$CUZK" export-vk "$TMP/empty" "$TMP/vk.json"
cz_expect_err "setup on an empty r1cs" "$CUZK" setup --seed 1 "$TMP/empty" "$TMP/k.zkey"
cz_expect_err "setup on a zkey (not an r1cs)" "$CUZK" setup --seed 1 "$ZKEY" "$TMP/k.zkey"

echo "== wrong curve, wrong circuit"
# (a BN254 key proves on the CPU: tests/test_bn254_prove.sh)
head -c 20000 "$FIX/bn254/small.zkey" >"$TMP/bn_trunc.zkey"
cz_expect_err "BLS12-381 witness with the BN254 zkey" prove "$FIX/bn254/small.zkey" "$WTNS" "${P[@]}"
cz_check "the message mentions the curve" bash -c 'printf "%s" "$1" | grep -qiE "curve|bn254|bn128|prime|field"' _ "$RUN_ERR"
cz_expect_err "BN254 witness with the BLS12-381 key" prove "$ZKEY" "$FIX/bn254/small.wtns" "${P[@]}"
cz_expect_err "export-vk of a truncated BN254 zkey" "$CUZK" export-vk "$TMP/bn_trunc.zkey" "$TMP/vk.json"
cz_expect_err "BN254 verification key" "$CUZK" verify "$FIX/bn254/small_vk.json" "$PUB" "$PROOF"
cz_expect_err "witness of another circuit (chain64: wrong length)" prove "$ZKEY" "$FIX/chain64.wtns" "${P[@]}"
cz_check "the message says what is wrong with the length" bash -c 'printf "%s" "$1" | grep -qiE "length|count|size|signals|values|variables|wires|match"' _ "$RUN_ERR"

echo "== a witness that does not satisfy the circuit"
NPUB=$(cz_zkey_npublic "$ZKEY")
if idx=$(cz_wtns_flip_boolean "$WTNS" "$TMP/bad.wtns" "$NPUB"); then
    echo "   (flipped boolean value $idx)"
    cz_expect 1 "prove with the self-check: proof fails it, exit 1" prove "$ZKEY" "$TMP/bad.wtns" "${P[@]}"
    cz_expect 0 "prove --no-verify writes the (wrong) proof" prove --no-verify "$ZKEY" "$TMP/bad.wtns" "${P[@]}"
    cz_expect 1 "verify rejects it" "$CUZK" verify "$VK" "$TMP/pub.json" "$TMP/p.json"
else
    cz_fail "no 0/1 value found in the private part of small.wtns"
fi

echo "== truncated zkey"
# Cut points: inside the file header, then around and inside every section.
cuts="0 3 4 8 11"
while read -r id off size; do
    cuts+=" $((off - 12)) $((off - 8)) $((off - 1)) $((off + size / 2)) $((off + size - 1))"
done < <(cz_sections "$ZKEY")
for cut in $cuts; do
    head -c "$cut" "$ZKEY" >"$TMP/cut.zkey"
    cz_expect_err "zkey cut at byte $cut" prove "$TMP/cut.zkey" "$WTNS" "${P[@]}"
done
read -r s2 s2size < <(cz_section "$ZKEY" 2)
head -c $((s2 + s2size / 2)) "$ZKEY" >"$TMP/cut.zkey"
cz_expect_err "export-vk of a zkey cut in the header section" \
    "$CUZK" export-vk "$TMP/cut.zkey" "$TMP/vk.json"
cz_expect_err "info on a zkey cut in the header section" "$CUZK" info "$TMP/cut.zkey"

echo "== truncated wtns"
while read -r id off size; do
    for cut in $((off - 12)) $((off + size / 2)) $((off + size - 1)); do
        head -c "$cut" "$WTNS" >"$TMP/cut.wtns"
        cz_expect_err "wtns cut at byte $cut (section $id)" prove "$ZKEY" "$TMP/cut.wtns" "${P[@]}"
    done
done < <(cz_sections "$WTNS")

echo "== flipped bytes in the zkey headers (must be exit 2)"
flip2() { # DESC OFFSET [MASK]
    cp "$ZKEY" "$TMP/flip.zkey"
    cz_flip_byte "$TMP/flip.zkey" "$2" "${3:-1}"
    cz_expect_err "$1 (byte $2)" prove "$TMP/flip.zkey" "$WTNS" "${P[@]}"
}
flip2 "magic" 0
flip2 "version" 4
flip2 "section count" 8 0x40
read -r s1 _ < <(cz_section "$ZKEY" 1)
read -r s2 _ < <(cz_section "$ZKEY" 2)
flip2 "protocol (section 1)" "$s1" 2
n8q=$(cz_u32_at "$ZKEY" "$s2")
n8r=$(cz_u32_at "$ZKEY" $((s2 + 4 + n8q)))
flip2 "n8q" "$s2"
flip2 "q, low byte" $((s2 + 4))
flip2 "q, high byte" $((s2 + 4 + n8q - 1))
flip2 "n8r" $((s2 + 4 + n8q))
flip2 "r" $((s2 + 8 + n8q))
h=$((s2 + 8 + n8q + n8r))
flip2 "nVars" "$h"
flip2 "nPublic" $((h + 4))
flip2 "domainSize (not a power of two)" $((h + 8))
flip2 "domainSize 64 (too small for the H section)" $((h + 8)) 0xc0
while read -r id off size; do
    # Section 10 (contributions) is optional for a prover: renaming it is legal.
    [ "$id" != 10 ] && flip2 "section $id: id" $((off - 12)) 0x10
    flip2 "section $id: size" $((off - 8)) 0x04
done < <(cz_sections "$ZKEY")

echo "== flipped bytes in the zkey data (0, 1 or 2; never a crash)"
while read -r id off size; do
    [ "$id" -le 2 ] && continue
    for at in "$off" $((off + size / 3)) $((off + size - 1)); do
        for mask in 0x01 0x80; do
            cp "$ZKEY" "$TMP/flip.zkey"
            cz_flip_byte "$TMP/flip.zkey" "$at" "$mask"
            cz_expect "0 1 2" "section $id: byte $at ^ $mask" prove "$TMP/flip.zkey" "$WTNS" "${P[@]}"
        done
    done
done < <(cz_sections "$ZKEY")
# Points in the header (alpha1, beta1, beta2, gamma2, delta1, delta2).
for k in 0 60 100 250 500 700 900; do
    at=$((h + 12 + k))
    cp "$ZKEY" "$TMP/flip.zkey"
    cz_flip_byte "$TMP/flip.zkey" "$at" 0x01
    cz_expect "0 1 2" "header point byte $at ^ 1" prove "$TMP/flip.zkey" "$WTNS" "${P[@]}"
done

echo "== flipped bytes in the wtns header (must be exit 2)"
read -r w1 _ < <(cz_section "$WTNS" 1)
for spec in "n8:$w1" "prime:$((w1 + 4))" "prime top:$((w1 + 35))" "count:$((w1 + 36))"; do
    cp "$WTNS" "$TMP/flip.wtns"
    cz_flip_byte "$TMP/flip.wtns" "${spec#*:}" 1
    cz_expect_err "wtns ${spec%%:*} (byte ${spec#*:})" prove "$ZKEY" "$TMP/flip.wtns" "${P[@]}"
done
cp "$WTNS" "$TMP/flip.wtns"
read -r w2 _ < <(cz_section "$WTNS" 2)
printf '\377\377\377\377' | dd of="$TMP/flip.wtns" bs=1 seek=$((w2 + 32 * 5 + 28)) conv=notrunc status=none
cz_expect "1 2" "a witness value >= r" prove "$ZKEY" "$TMP/flip.wtns" "${P[@]}"

echo "== truncated and corrupted r1cs (cuzk setup)"
R1CS=$FIX/chain64.r1cs
setup() { "$CUZK" setup --quiet --seed 1 "$@"; }
while read -r id off size; do
    for cut in $((off - 12)) $((off - 1)) $((off + size / 2)) $((off + size - 1)); do
        head -c "$cut" "$R1CS" >"$TMP/cut.r1cs"
        cz_expect_err "r1cs cut at byte $cut (section $id)" setup "$TMP/cut.r1cs" "$TMP/k.zkey"
    done
done < <(cz_sections "$R1CS")
read -r r1 _ < <(cz_section "$R1CS" 1)
# name:offset:mask. nWires 132 ^ 4 = 128: constraints then name wires that
# do not exist. (132 ^ 1 = 133 would only add an unused wire.)
for spec in "magic:0:1" "n8:$r1:1" "prime:$((r1 + 4)):1" "nWires:$((r1 + 36)):4" \
            "nConstraints:$((r1 + 60)):1"; do
    IFS=: read -r name at mask <<<"$spec"
    cp "$R1CS" "$TMP/flip.r1cs"
    cz_flip_byte "$TMP/flip.r1cs" "$at" "$mask"
    cz_expect_err "r1cs $name ^ $mask (byte $at)" setup "$TMP/flip.r1cs" "$TMP/k.zkey"
done
read -r r2 r2size < <(cz_section "$R1CS" 2)
for at in "$r2" $((r2 + 4)) $((r2 + r2size / 2)) $((r2 + r2size - 1)); do
    for mask in 0x01 0x80; do
        cp "$R1CS" "$TMP/flip.r1cs"
        cz_flip_byte "$TMP/flip.r1cs" "$at" "$mask"
        cz_expect "0 2" "r1cs constraint byte $at ^ $mask" setup "$TMP/flip.r1cs" "$TMP/k.zkey"
    done
done
cz_expect_err "info on a truncated r1cs" "$CUZK" info "$TMP/cut.r1cs"
cz_expect_err "setup on a BN254 key given as r1cs" setup "$FIX/bn254/small.zkey" "$TMP/k.zkey"

echo "== seeded random corruption (replay with CZ_TEST_SEED=<seed>)"
SEED=${CZ_TEST_SEED:-$(( $(date +%s%N) % 1000000007 ))}
echo "   seed: $SEED"
RANDOM=$SEED
zsize=$(stat -c %s "$ZKEY")
wsize=$(stat -c %s "$WTNS")
rnd() { echo $(( (RANDOM * 32768 + RANDOM) % $1 )); }
for ((i = 0; i < 40; i++)); do
    at=$(rnd "$zsize"); mask=$(( (RANDOM % 255) + 1 ))
    cp "$ZKEY" "$TMP/flip.zkey"
    cz_flip_byte "$TMP/flip.zkey" "$at" "$mask"
    cz_expect "0 1 2" "random: zkey byte $at ^ $mask" prove "$TMP/flip.zkey" "$WTNS" "${P[@]}"
done
for ((i = 0; i < 20; i++)); do
    at=$(rnd "$wsize"); mask=$(( (RANDOM % 255) + 1 ))
    cp "$WTNS" "$TMP/flip.wtns"
    cz_flip_byte "$TMP/flip.wtns" "$at" "$mask"
    cz_expect "0 1 2" "random: wtns byte $at ^ $mask" prove "$ZKEY" "$TMP/flip.wtns" "${P[@]}"
done
for ((i = 0; i < 10; i++)); do
    cut=$(rnd "$zsize")
    head -c "$cut" "$ZKEY" >"$TMP/cut.zkey"
    cz_expect_err "random: zkey cut at byte $cut" prove "$TMP/cut.zkey" "$WTNS" "${P[@]}"
done
for ((i = 0; i < 10; i++)); do
    at=$(rnd "$(stat -c %s "$PROOF")")
    head -c "$at" "$PROOF" >"$TMP/cutp.json"
    cz_expect_err "random: proof.json cut at byte $at" "$CUZK" verify "$VK" "$PUB" "$TMP/cutp.json"
done

echo "== verify: garbage and malformed JSON"
printf 'garbage\n' >"$TMP/garbage.json"
printf '{}' >"$TMP/obj.json"
printf '[]' >"$TMP/arr.json"
printf '{"pi_a": [1, 2' >"$TMP/cut.json"
cz_expect_err "garbage proof" "$CUZK" verify "$VK" "$PUB" "$TMP/garbage.json"
cz_expect_err "garbage public" "$CUZK" verify "$VK" "$TMP/garbage.json" "$PROOF"
cz_expect_err "garbage vk" "$CUZK" verify "$TMP/garbage.json" "$PUB" "$PROOF"
cz_expect_err "empty proof file" "$CUZK" verify "$VK" "$PUB" "$TMP/empty"
cz_expect_err "proof {}" "$CUZK" verify "$VK" "$PUB" "$TMP/obj.json"
cz_expect_err "vk []" "$CUZK" verify "$TMP/arr.json" "$PUB" "$PROOF"
cz_expect_err "truncated JSON proof" "$CUZK" verify "$VK" "$PUB" "$TMP/cut.json"
cz_expect_err "nonexistent proof" "$CUZK" verify "$VK" "$PUB" "$TMP/nope.json"
cz_expect_err "directory as proof" "$CUZK" verify "$VK" "$PUB" "$TMP"
sed 's/"3611179584915037744408761405962325987037793739107303860379850321738487806015362875063045263926250794859474228772309"/"12x4"/' \
    "$PROOF" >"$TMP/nan.json"
cz_check "(test setup: the coordinate was replaced)" bash -c '! cmp -s "$1" "$2"' _ "$PROOF" "$TMP/nan.json"
cz_expect_err "a coordinate that is not a number" "$CUZK" verify "$VK" "$PUB" "$TMP/nan.json"
printf '["121509", "3", "11"]' >"$TMP/pub3.json"
cz_expect "1 2" "public.json with 3 values for nPublic = 4" "$CUZK" verify "$VK" "$TMP/pub3.json" "$PROOF"
cz_expect_err "info on garbage JSON" "$CUZK" info "$TMP/garbage.json"

echo "== files that are not regular files, and headers that lie (issue 16)"
# Before the fix a FIFO blocked every command in open(), /dev/zero was read
# up to 2 GB, and a key claiming a huge domain over a sparse file was
# believed (cuzk info: 3.4 GB of RSS for 2^24). Each run has a time limit.
mkfifo "$TMP/fifo"
cz_expect_err "info on /dev/zero" timeout -k 5 10 "$CUZK" info /dev/zero
cz_check "... names what it is" grep -q "character device" "$TMP/.err"
cz_expect_err "info on a FIFO" timeout -k 5 10 "$CUZK" info "$TMP/fifo"
cz_check "... names what it is" grep -q "FIFO" "$TMP/.err"
cz_expect_err "prove with a FIFO as the witness" timeout -k 5 10 "$CUZK" prove --quiet "$ZKEY" "$TMP/fifo" "${P[@]}"
cz_check "... names what it is" grep -q "FIFO" "$TMP/.err"
cz_expect_err "prove with a FIFO as the key" timeout -k 5 10 "$CUZK" prove --quiet "$TMP/fifo" "$WTNS" "${P[@]}"
cz_expect_err "prove with /dev/zero as the witness" timeout -k 5 10 "$CUZK" prove --quiet "$ZKEY" /dev/zero "${P[@]}"
cz_expect_err "verify with a FIFO as the proof" timeout -k 5 10 "$CUZK" verify "$VK" "$PUB" "$TMP/fifo"
cz_expect_err "export-vk of a FIFO" timeout -k 5 10 "$CUZK" export-vk "$TMP/fifo" "$TMP/vk.json"
cz_expect_err "setup on a FIFO" timeout -k 5 10 "$CUZK" setup --seed 1 "$TMP/fifo" "$TMP/k.zkey"
truncate -s 300M "$TMP/huge.json"
cz_expect_err "verify with a 300 MB (sparse) proof" timeout -k 5 10 "$CUZK" verify "$VK" "$PUB" "$TMP/huge.json"
cz_check "... refused by its size before it is read" grep -q "more than" "$TMP/.err"
rm -f "$TMP/huge.json"
printf 'root:x:0:0:root:/root:/bin/bash\n' >"$TMP/passwd"
cz_expect_err "prove with a text file as the key" prove "$TMP/passwd" "$WTNS" "${P[@]}"
cz_check "... the message holds no byte of its text" sh -c '! grep -q root "$1"' _ "$TMP/.err"

le() { # le N V: V as N little-endian bytes
    local s="" i
    for ((i = 0; i < $1; i++)); do s+=$(printf '\\%03o' $((($2 >> (8 * i)) & 255))); done
    # shellcheck disable=SC2059
    printf "$s"
}
# small.zkey claiming a domain of 2^24 with a hole (sparse, 1.6 GB apparent)
# as its H section, so every section size agrees with the header
pos=12
head -c 12 "$ZKEY" >"$TMP/big.zkey"
while read -r id off size; do
    if [ "$id" = 9 ]; then
        size=$((96 << 24))
        { le 4 9; le 8 "$size"; } | dd of="$TMP/big.zkey" bs=1M oflag=seek_bytes seek=$pos conv=notrunc status=none
        truncate -s $((pos + 12 + size)) "$TMP/big.zkey"
    else
        dd if="$ZKEY" iflag=skip_bytes,count_bytes bs=1M skip=$((off - 12)) count=$((size + 12)) status=none |
            dd of="$TMP/big.zkey" bs=1M oflag=seek_bytes seek=$pos conv=notrunc status=none
        [ "$id" = 2 ] && le 4 $((1 << 24)) | dd of="$TMP/big.zkey" bs=1 seek=$((pos + 108)) conv=notrunc status=none
    fi
    pos=$((pos + 12 + size))
done < <(cz_sections "$ZKEY")
cz_check "(test setup: a sparse 1.6 GB key)" test "$(stat -c %s "$TMP/big.zkey")" -gt 1000000000
cz_expect_err "info on a key whose header claims 2^24 points over a sparse file" timeout -k 5 60 "$CUZK" info "$TMP/big.zkey"
cz_check "... says the domain is larger than the circuit needs" grep -q "larger than the circuit" "$TMP/.err"
cz_expect_err "prove with it" timeout -k 5 60 "$CUZK" prove --quiet "$TMP/big.zkey" "$WTNS" "${P[@]}"
rm -f "$TMP/big.zkey"

cz_finish
