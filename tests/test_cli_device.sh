#!/usr/bin/env bash
# ctest: labels=unit timeout=300
# test_cli_device.sh: which backend `cuzk prove --device` takes. A one-shot
# prove under auto takes the CPU for a key whose domain is below 2^15 (the
# GPU's first launch costs more than the whole proof there: backend.h,
# CZ_BACKEND_ONESHOT_GPU_MIN_DOMAIN) and says why on stderr; in a build
# with the CUDA backend (a GPU, or -DCUZK_CUDA=MODEL) auto takes the GPU
# from 2^15 on, and --device cuda takes it at any size. The device is read
# from --json's "device" and from the stderr line; every proof is checked
# with cuzk verify.
source "$(dirname "$0")/lib.sh"
cz_init

d=$TMP
VK=$FIX/small_vk.json
SYNTH=$BIN/cuzk-synth

# prove_on DEVICE ZKEY WTNS: prove with --json; DEV gets the device it
# reports, RUN_ERR holds stderr.
prove_on() {
    cz_expect 0 "prove --device $1 $(basename "$2")" \
        "$CUZK" prove --json --device "$1" "$2" "$3" "$d/proof.json" "$d/public.json" || return 1
    DEV=$(jq -r .device <<<"$RUN_OUT")
}
verified() { "$CUZK" verify --quiet "$1" "$d/public.json" "$d/proof.json" >/dev/null 2>&1; }

# ---- a small key (the fixture, domain 2^7) ------------------------------------------
prove_on auto "$FIX/small.zkey" "$FIX/small.wtns"
cz_check "auto takes the CPU for a domain-128 key (device $DEV)" test "$DEV" = cpu
cz_check "... and says why on stderr" \
    grep -q "device cpu, .* (auto: domain 128 is below 32768" <<<"$RUN_ERR"
cz_check "... the proof verifies" verified "$VK"
prove_on cpu "$FIX/small.zkey" "$FIX/small.wtns"
cz_check "--device cpu: the CPU, without auto's reason" \
    sh -c "[ '$DEV' = cpu ] && ! grep -q 'auto:' '$TMP/.err'"
cz_check "... the proof verifies" verified "$VK"

if ! "$CUZK" --version | grep -q "CUDA backend: .*[1-9][0-9]* device"; then
    cz_expect 3 "--device cuda without a CUDA device exits 3" \
        "$CUZK" prove --device cuda "$FIX/small.zkey" "$FIX/small.wtns" "$d/p.json" "$d/u.json"
    echo "note: no CUDA device in this build; the GPU cases are skipped"
    cz_finish
fi

# ---- with a GPU (or the host model): forced, and auto past the threshold ---------------
prove_on cuda "$FIX/small.zkey" "$FIX/small.wtns"
cz_check "--device cuda takes the GPU for the small key too (device $DEV)" test "$DEV" = cuda
cz_check "... the stderr line says so" grep -q "^cuzk: device cuda 0" <<<"$RUN_ERR"
cz_check "... the proof verifies" verified "$VK"

# domain = constraints + public inputs + 1, rounded up to a power of two:
# 16,000 constraints are a 2^14 domain, 32,760 a 2^15 one
for n in 16000 32760; do
    cz_expect 0 "cuzk-synth --constraints $n" "$SYNTH" --constraints $n --seed 5 \
        "$d/c$n.r1cs" "$d/c$n.wtns"
    cz_expect 0 "setup of the $n-constraint circuit" "$CUZK" setup --quiet --seed 5 \
        "$d/c$n.r1cs" "$d/c$n.zkey" "$d/c$n-vk.json"
done
prove_on auto "$d/c16000.zkey" "$d/c16000.wtns"
cz_check "auto: domain 2^14 on the CPU (device $DEV)" test "$DEV" = cpu
cz_check "... the domain in --json is 16384" test "$(jq .domainSize <<<"$RUN_OUT")" = 16384
cz_check "... the proof verifies" verified "$d/c16000-vk.json"
prove_on auto "$d/c32760.zkey" "$d/c32760.wtns"
cz_check "auto: domain 2^15 on the GPU (device $DEV)" test "$DEV" = cuda
cz_check "... the domain in --json is 32768" test "$(jq .domainSize <<<"$RUN_OUT")" = 32768
cz_check "... the proof verifies" verified "$d/c32760-vk.json"
prove_on cuda "$d/c16000.zkey" "$d/c16000.wtns"
cz_check "--device cuda: domain 2^14 on the GPU (device $DEV)" test "$DEV" = cuda
cz_check "... the proof verifies" verified "$d/c16000-vk.json"

cz_finish
