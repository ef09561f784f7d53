#!/usr/bin/env bash
# test_install.sh: the install is what is tested, not the build tree.
# `cmake --install` of this build into a temporary DESTDIR, then:
#   - the tree holds the programs, libcuzk.so (versioned SONAME) and
#     libcuzk.a, the public headers, cuzk.pc, the config, the unit;
#   - libcuzk.so exports exactly the functions of include/cuzk/*.h (nm -D);
#   - examples/prove_verify.c builds against the installed tree with
#     `cc $(pkg-config --cflags --libs cuzk)` (shared, and --static), and
#     both programs prove and verify the fixture proof;
#   - the installed cuzkd checks the installed config (--check-config), and
#     refuses a bad one;
#   - `systemd-analyze verify` accepts the unit (skipped, visibly, where
#     systemd-analyze is missing);
#   - uninstalling by the manifest leaves no file behind.
# ctest: labels=unit timeout=300
. "$(dirname "$0")/lib.sh"
cz_init

DEST=$TMP/root
PFX=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
SAN=$(sed -n 's/^CUZK_SANITIZE:STRING=//p' "$BUILD/CMakeCache.txt")
ROOT=$DEST$PFX
# cmake --install writes BUILD/install_manifest.txt: keep the manifest of a
# real install from this build (make uninstall reads it) and put it back.
MANIFEST=$BUILD/install_manifest.txt
[ -f "$MANIFEST" ] && cp -p "$MANIFEST" "$TMP/manifest.saved"
restore_manifest() {
    if [ -f "$TMP/manifest.saved" ]; then cp -p "$TMP/manifest.saved" "$MANIFEST"; else rm -f "$MANIFEST"; fi
}
trap 'restore_manifest; rm -rf "$TMP"' EXIT
cz_expect 0 "cmake --install into DESTDIR" env DESTDIR="$DEST" cmake --install "$BUILD"
cp "$MANIFEST" "$TMP/manifest"
cz_check "install manifest written" test -s "$TMP/manifest"

for f in bin/cuzk bin/cuzkd bin/cuzk-bench lib/libcuzk.a lib/pkgconfig/cuzk.pc \
         include/cuzk/cuzk.h include/cuzk/prover.h include/cuzk/circuit.h include/cuzk/fr.h \
         lib/systemd/system/cuzkd.service lib/sysusers.d/cuzk.conf share/doc/cuzk/README.md; do
    cz_check "installed: $f" test -e "$ROOT/$f"
done
CONF=$DEST$(sed -n 's/^CUZK_CONFIG:STRING=//p' "$BUILD/CMakeCache.txt")
cz_check "installed: the config $CONF" test -f "$CONF"
soname=$(objdump -p "$ROOT/lib/libcuzk.so" 2>/dev/null | awk '/SONAME/ {print $2}')
cz_check "libcuzk.so has a versioned SONAME ($soname)" test "$soname" = libcuzk.so.0

# exports: exactly the declared public functions
grep -hE '[ *]cz_[a-z0-9_]+\(' "$SRC"/include/cuzk/*.h | grep -v 'static inline' |
    grep -oE 'cz_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$TMP/declared"
nm -D --defined-only "$ROOT/lib/libcuzk.so" | awk '$2 ~ /^[TtWiDdBbRrVv]$/ {sub(/@.*/, "", $3); print $3}' |
    sort -u >"$TMP/exported"
extra=$(comm -13 "$TMP/declared" "$TMP/exported" | tr '\n' ' ')
missing=$(comm -23 "$TMP/declared" "$TMP/exported" | tr '\n' ' ')
cz_check "libcuzk.so exports nothing beyond the public API${extra:+ (extra: $extra)}" test -z "$extra"
cz_check "libcuzk.so exports every public function${missing:+ (missing: $missing)}" test -z "$missing"

# a program built against the installed tree, found through pkg-config
# (the prefix moved to the staged tree: a sysroot would also move paths
# outside it, such as the CUDA toolkit's folder in the static libraries)
export PKG_CONFIG_PATH=$ROOT/lib/pkgconfig
pkg-config() { command pkg-config --define-variable=prefix="$ROOT" "$@"; }
CFLAGS_SAN=${SAN:+-fsanitize=$SAN}
cz_expect 0 "pkg-config finds cuzk" pkg-config --exists cuzk
# shellcheck disable=SC2046,SC2086
cz_expect 0 "cc examples/prove_verify.c \$(pkg-config --cflags --libs cuzk)" \
    cc -std=c11 -Wall -Werror $CFLAGS_SAN "$SRC/examples/prove_verify.c" -o "$TMP/pv" $(pkg-config --cflags --libs cuzk)
cz_check "the example links the installed libcuzk.so" sh -c "LD_LIBRARY_PATH='$ROOT/lib' ldd '$TMP/pv' | grep -q 'libcuzk.so.0 => $ROOT/lib/'"
cz_expect 0 "the example proves and verifies (shared library)" \
    env LD_LIBRARY_PATH="$ROOT/lib" "$TMP/pv" "$FIX/small.zkey" "$FIX/small.wtns" "$FIX/small_vk.json"
cz_check "it printed a verified proof" sh -c "printf '%s' \"\$1\" | grep -q '^verify: OK'" _ "$RUN_OUT"
# shellcheck disable=SC2046,SC2086
cz_expect 0 "cc ... \$(pkg-config --static --cflags --libs cuzk) -static-libs" \
    cc -std=c11 -Wall -Werror $CFLAGS_SAN "$SRC/examples/prove_verify.c" -o "$TMP/pv_static" \
    -Wl,-Bstatic $(pkg-config --cflags cuzk) -L"$ROOT/lib" -lcuzk -Wl,-Bdynamic \
    $(pkg-config --static --libs cuzk | sed 's/-lcuzk\b//')
cz_expect 0 "the example proves and verifies (static library)" \
    "$TMP/pv_static" "$FIX/small.zkey" "$FIX/small.wtns" "$FIX/small_vk.json"
cz_check "the static example does not need libcuzk.so" sh -c "! ldd '$TMP/pv_static' | grep -q libcuzk"

# the installed daemon and its config
cz_expect 0 "the installed cuzkd --version" "$ROOT/bin/cuzkd" --version
cz_check "... names its commit and backends" bash -c '[[ "$1" =~ commit.*backends:\ cpu ]]' _ "$RUN_OUT"
cz_expect 0 "cuzkd --check-config on the installed config" "$ROOT/bin/cuzkd" --check-config "$CONF"
printf '[engine]\nwitness_workers = lots\n' >"$TMP/bad.ini"
cz_expect 2 "cuzkd --check-config refuses a bad setting" "$ROOT/bin/cuzkd" --check-config "$TMP/bad.ini"
cz_check "... naming it" sh -c "printf '%s' \"\$1\" | grep -q witness_workers" _ "$RUN_ERR"
printf '[keys]\nk = %s/missing.zkey\n' "$TMP" >"$TMP/nokey.ini"
cz_expect 2 "cuzkd --check-config refuses a key that cannot be read" "$ROOT/bin/cuzkd" --check-config "$TMP/nokey.ini"

# the systemd unit
if command -v systemd-analyze >/dev/null 2>&1; then
    # verify resolves ExecStart= on the real root: point it at the installed binary
    sed "s|$PFX/bin/cuzkd|$ROOT/bin/cuzkd|g; s|$PFX/etc|$DEST/etc|g" \
        "$ROOT/lib/systemd/system/cuzkd.service" >"$TMP/cuzkd.service"
    cz_expect 0 "systemd-analyze verify cuzkd.service" env SYSTEMD_LOG_LEVEL=warning systemd-analyze verify "$TMP/cuzkd.service"
    cz_check "... with no warning" test -z "$(printf '%s' "$RUN_ERR" | grep -v 'Failed to open /dev/kmsg\|ignoring:.*kmsg\|Cannot find unit for notify message\|did not find\|systemd-journald')"
    [ -n "$RUN_ERR" ] && printf '   systemd-analyze said: %s\n' "$RUN_ERR"
else
    echo "SKIPPED (visibly): systemd-analyze is not installed; the unit was not verified"
fi

# uninstall by the manifest
# (the manifest lists the paths without DESTDIR)
cz_expect 0 "uninstall: remove every file of the manifest" sh -c "sed 's|^|$DEST|' '$TMP/manifest' | xargs -d '\n' rm -f"
left=$(find "$DEST" -type f -o -type l | head -5)
cz_check "nothing installed is left${left:+ (left: $left)}" test -z "$left"
cz_finish
