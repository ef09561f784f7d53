# device_deps.sh: sourced by the device scripts (scripts/device_*.sh). The
# GPU machine reaches no package registry, so the build's pkg-config
# modules travel as .deb files in .debs/ (fetched here
# with `apt-get download`, carried with the call) and are unpacked into a
# private prefix whose .pc files are rewritten to point there. Nothing is
# installed system-wide.
#
#   cz_device_deps PFX GLOB...   unpack the .debs whose names match a GLOB
#   cz_device_build_deps PFX     the build's set (cmocka, jansson, inih,
#                                libmicrohttpd, libcurl, xxhash, pkg-config)
#                                unless pkg-config finds them all; nvcc on PATH
#
# Only the packages named are unpacked: a -dev package whose runtime .so
# is not carried would otherwise shadow the machine's own library with its
# static archive. libcurl's -dev link is pointed at the machine's
# libcurl.so.4.
cz_device_deps() {
    local root pfx=$1 f g lib sys
    shift
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    if ! ls "$root"/.debs/*.deb >/dev/null 2>&1; then
        echo "deps: no .debs/ to unpack" >&2
        return 0
    fi
    mkdir -p "$pfx"
    for f in "$root"/.debs/*.deb; do
        for g in "$@"; do
            # shellcheck disable=SC2254
            case "$(basename "$f")" in $g) dpkg -x "$f" "$pfx" ;; esac
        done
    done
    for f in "$pfx"/usr/lib/x86_64-linux-gnu/pkgconfig/*.pc "$pfx"/usr/share/pkgconfig/*.pc; do
        [ -f "$f" ] && sed -i "s|^prefix=.*|prefix=$pfx/usr|; s|=/usr/|=$pfx/usr/|g; s| -\([LI]\)/usr/| -\1$pfx/usr/|g; /^Requires.private/d" "$f"
    done
    lib=$pfx/usr/lib/x86_64-linux-gnu
    if [ -L "$lib/libcurl.so" ] && [ ! -e "$lib/libcurl.so" ]; then
        sys=$(ldconfig -p | awk '/libcurl\.so\.4 / { print $NF; exit }')
        [ -n "$sys" ] && ln -sf "$sys" "$lib/libcurl.so" || echo "deps: no libcurl.so.4 here: cuzk-bench cannot be built"
    fi
    export PATH="$pfx/usr/bin:$PATH"
    export PKG_CONFIG_PATH="$lib/pkgconfig:$pfx/usr/share/pkgconfig"
    export LD_LIBRARY_PATH="$lib:${LD_LIBRARY_PATH:-}"
    export CMAKE_PREFIX_PATH="$pfx/usr"
    echo "deps: unpacked the build's .debs into $pfx"
}

cz_device_build_deps() {
    pkg-config --exists cmocka jansson libmicrohttpd inih libcurl libxxhash 2>/dev/null ||
        cz_device_deps "$1" 'libcmocka*' 'libjansson*' 'libinih*' 'libmicrohttpd*' 'libcurl4-openssl-dev*' \
            'libxxhash*' 'libpkgconf*' 'pkgconf*' 'pkg-config*'
    export PATH="/usr/local/cuda/bin:$PATH"
}
