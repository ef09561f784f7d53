#!/usr/bin/env bash
# ctest: labels=gpu timeout=600
# cuzkd on the CUDA backend: every GPU of the machine used (two over the
# host model of the device), keys resident, each device busy, one job's
# partitions spread over the devices, a memory limit that makes the key
# stream, a porep-mini proof of a compact key (its witnesses packed in the
# witness stage, each partition's device time logged by step), every proof
# verified; over the model also a device fault inside the daemon: the job
# that met it fails with the device's message, the others and all later
# jobs complete. Skips (77) without a CUDA build and a device.
# shellcheck shell=bash
. "$(dirname "$0")/lib.sh"
cz_init
. "$(dirname "$0")/daemon_lib.sh"

cz_need_cuda
MODEL=0
if grep -q "host model" <<<"$CZ_VERSION"; then
    MODEL=1
    export CUZK_GPU_MODEL_DEVICES=2
    ND=2
fi
echo "# $ND device(s)$([ $MODEL = 1 ] && echo ', host model')"

KEY=$FIX/small.zkey
WTNS=$FIX/small.wtns
VK=$FIX/small_vk.json

# ---- every device used -------------------------------------------------------------
cz_daemon_start g --key small="$KEY" --set engine.devices="$ND" --set engine.gpu_workers_per_device=2 \
    --set engine.gpu_memory_limit=2G || cz_finish
api GET /v1/status >"$TMP/st0.json"
cz_check "status lists $ND CUDA devices with their arenas" \
    test "$(jq '[.devices[] | select(.backend == "cuda" and .memory_total > 0)] | length' "$TMP/st0.json")" = "$ND"
cz_expect 0 "a batch of 24 proofs, 8 in flight" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 24 -j 8 --out "$TMP/b1"
cz_check "every proof verifies" cz_verify_dir "$TMP/b1" "$VK" 24
api GET /v1/status >"$TMP/st1.json"
cz_check "every device proved (busy_ms > 0 on each)" \
    test "$(jq '[.devices[] | select(.busy_ms > 0)] | length' "$TMP/st1.json")" = "$ND"
cz_check "the key is resident" test "$(api GET /v1/keys | jq -r '.[0].tier')" = resident
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_path\":\"$(cd "$FIX" && pwd)/small.wtns\"}" | jq -r .job_id)
j=$(cz_await "$id")
cz_check "a job says which device proved it and in which tier" \
    test "$(jq -r '.device >= 0 and .timings_ms.prove_detail.tier == "resident"' <<<"$j")" = true
W=$(cd "$FIX" && pwd)/small.wtns
id=$(api POST /v1/proofs -H 'Content-Type: application/json' \
    -d "{\"key\":\"small\",\"witness_paths\":[$(printf '"%s",' "$W" "$W" "$W" "$W" "$W" "$W" "$W" "$W" | sed 's/,$//')]}" |
    jq -r .job_id)
j=$(cz_await "$id")
cz_check "a job of 8 partitions is done" test "$(jq -r '[.status, (.proofs | length)] | join(" ")' <<<"$j")" = "done 8"
cz_check "its partitions were proven on all $ND device(s)" \
    test "$(jq '[.partitions[].device] | unique | length' <<<"$j")" = "$ND"
pbad=0
for i in 0 7; do
    jq ".proofs[$i]" <<<"$j" >"$TMP/pp$i.json"
    jq ".publics[$i]" <<<"$j" >"$TMP/pu$i.json"
    "$CUZK" verify --quiet "$VK" "$TMP/pu$i.json" "$TMP/pp$i.json" >/dev/null 2>&1 || pbad=1
done
cz_check "its first and last proofs verify" test $pbad = 0
cz_daemon_stop
cz_check "the daemon stopped cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- a GPU memory limit too small for the key: the streamed tier ---------------------
cz_daemon_start s --key small="$KEY" --set engine.devices=1 --set engine.gpu_memory_limit=500M || cz_finish
cz_check "the arena keeps to gpu_memory_limit" \
    test "$(api GET /v1/status | jq '.devices[0].memory_total <= 500 * 1048576')" = true
cz_expect 0 "8 proofs with the key streamed" \
    "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 8 -j 4 --out "$TMP/b3"
cz_check "they verify" cz_verify_dir "$TMP/b3" "$VK" 8
cz_check "the key's tier is streamed" test "$(api GET /v1/keys | jq -r '.[0].tier')" = streamed
cz_daemon_stop
cz_check "the daemon stopped cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- porep-mini: a compact key's witnesses packed in the witness stage ---------------
cz_expect 0 "gen-c1 porep-mini" "$BENCH" gen-c1 --preset porep-mini --seed 9 --out "$TMP/c1.json"
cz_expect 0 "cuzk setup --circuit porep-mini --out key.czk" "$CUZK" setup --quiet --seed 3 \
    --circuit porep-mini --out "$TMP/mini.czk"
cz_daemon_start m --key porep-mini="$TMP/mini.czk" --set engine.devices=1 \
    --set engine.gpu_workers_per_device=2 --log-level info || cz_finish
cz_expect 0 "a porep-mini proof (2 partitions) on the GPU" \
    "$BENCH" --addr "unix:$SOCK" batch -t porep --c1 "$TMP/c1.json" --key porep-mini -c 1 --out "$TMP/bm"
cz_verify_parts "$TMP/bm" "$TMP/bm/vk.json" 1 2
cz_check "both partitions' proofs verify ($BAD bad)" test $BAD = 0
cz_check "each partition's witness was packed in the witness stage" \
    test "$(grep -cE "synthesis [0-9.]+ ms, packed [0-9.]+ ms \([1-9][0-9]* others\)" "$TMP/m.log")" = 2
cz_check "each partition's device time is logged by step" \
    test "$(grep -cE "partition [0-9]+: prove [0-9.]+ ms on device 0 \(resident\): a/b/c [0-9.]+, H step" "$TMP/m.log")" = 2
cz_daemon_stop
cz_check "the daemon stopped cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0

# ---- model: a sticky device fault inside the daemon ----------------------------------
if [ $MODEL = 1 ]; then
    # device call 40 of the process: inside the second or third proof
    CUZK_GPU_MODEL_FAIL=40:sticky cz_daemon_start f --key small="$KEY" --set engine.devices=1 \
        --set engine.gpu_workers_per_device=2 || cz_finish
    ids=()
    for _ in $(seq 1 8); do
        ids+=("$(api POST /v1/proofs -H 'Content-Type: application/json' \
            -d "{\"key\":\"small\",\"witness_path\":\"$(cd "$FIX" && pwd)/small.wtns\"}" | jq -r .job_id)")
    done
    done_n=0 failed_n=0 msg=
    for id in "${ids[@]}"; do
        j=$(cz_await "$id")
        case "$(jq -r .status <<<"$j")" in
        done) done_n=$((done_n + 1)) ;;
        failed) failed_n=$((failed_n + 1)); msg=$(jq -r .error <<<"$j") ;;
        esac
    done
    cz_check "one job met the fault and failed, 7 completed ($failed_n failed, $done_n done)" \
        test "$failed_n" = 1 -a "$done_n" = 7
    cz_check "its error gives the device's message ($msg)" grep -q "cuda model" <<<"$msg"
    cz_check "the daemon logged the reset" grep -q "resetting the device" "$TMP/f.log"
    cz_expect 0 "8 more proofs after the fault" \
        "$BENCH" --addr "unix:$SOCK" batch -t groth16 --key small --witness "$WTNS" -c 8 -j 4 --out "$TMP/b2"
    cz_check "they verify" cz_verify_dir "$TMP/b2" "$VK" 8
    cz_daemon_stop
    cz_check "the daemon stopped cleanly (exit ${DRC:-?})" test "${DRC:-1}" = 0
fi
cz_finish
