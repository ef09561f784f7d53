#!/usr/bin/env bash
# device_snapshot.sh [FILE...]: make .snap/, a clean copy of the committed
# tree (git archive HEAD) with the named working-tree files laid over it and
# the device dependencies (.debs/) beside it, for a device call whose build
# must not see half-finished edits elsewhere in the working tree:
#   scripts/device_snapshot.sh cuda/ntt.cu bench/gpu.c
#   run: carry [".snap"], command: cd .snap && scripts/device_check.sh all
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .snap
mkdir .snap
git archive HEAD | tar -x -C .snap
for f in "$@"; do
    mkdir -p ".snap/$(dirname "$f")"
    cp -p "$f" ".snap/$f"
done
[ -d .debs ] && cp -r .debs .snap/
echo "snapshot: HEAD $(git rev-parse --short HEAD)${*:+ + $*} in .snap ($(du -sh .snap | cut -f1))"
