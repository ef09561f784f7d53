# shellcheck shell=bash
# porep_lib.sh: the head of the CLI tests of the native PoRep circuit
# (test_porep_cli.sh, test_nkey_cli.sh), sourced after lib.sh's cz_init.
#
# cz_porep_init: skip (77) without the npm oracles, fail without
# cuzk-bench; sets BENCH, P (the preset: porep-mini) and d (the test's
# temporary folder).

cz_porep_init() {
    cz_need_oracle
    BENCH=$BIN/cuzk-bench
    if [ ! -x "$BENCH" ]; then
        echo "FAIL: $BENCH is not built (build the cuzk-bench target first)" >&2
        exit 1
    fi
    P=porep-mini
    d=$TMP
}
