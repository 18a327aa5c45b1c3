#!/bin/sh
# deps.sh - installs the Debian packages augur needs, and only those missing.
# Idempotent: prints nothing to do when all are present. Needs root to install.
set -eu

packages="cmake make gcc g++ pkg-config perl python3 valgrind clang-14 clang-format-14 \
libclang-14-dev libclang-rt-14-dev llvm-14-tools libomp-14-dev zlib1g-dev libyaml-dev \
libjansson-dev libhwloc-dev libmetis-dev jq groff-base python3-jsonschema chromium"

missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "augur: missing Debian packages:$missing" >&2
    echo "augur: run 'make deps' as root, or: apt-get install$missing" >&2
    exit 1
fi
echo "augur: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
