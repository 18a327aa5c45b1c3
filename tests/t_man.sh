#!/bin/bash
# t_man.sh - the man pages the build writes from each command's --help
# (scripts/man.py): one per command, each rendering without a groff warning,
# each naming every option its --help lists. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
man=$(dirname "$augur")/man
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cmd in "" advise batch calibrate data "data info" "data convert" "data sample" measure predict simulate \
    skeleton train "train categorizer" "train model"; do
    name=augur${cmd:+-${cmd// /-}}
    page=$man/$name.1
    if [ ! -f "$page" ]; then
        flunk "$name.1 is built"
        continue
    fi
    groff -man -Tutf8 -ww -z "$page" >"$tmp/warn" 2>&1
    is "$name.1 renders without a warning" "$(cat "$tmp/warn")" ""
    # shellcheck disable=SC2086
    "$augur" $cmd --help | grep -o -- '^  --[a-z-]*' | sed 's/^  //' | sort -u >"$tmp/opts"
    groff -man -Tascii "$page" 2>/dev/null | col -b | grep -o -- '--[a-z-]*' | sort -u >"$tmp/shown"
    is "$name.1 names every option of its --help" "$(comm -23 "$tmp/opts" "$tmp/shown")" ""
done
echo "1..$n"
