#!/bin/bash
# t_man.sh - the man pages the build writes from each command's --help
# (scripts/man.py): one per command, each rendering without a groff warning,
# each naming every option its --help lists. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
man=$(dirname "$augur")/man
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# listed CMD...: the subcommands CMD's --help lists under "commands:" (help aside)
listed() {
    # shellcheck disable=SC2068
    "$augur" $@ --help | sed -n '/^commands:$/,/^$/p' | awk 'NR > 1 && NF && $1 != "help" { print $1 }'
}
cmds=("")
for top in $(listed); do
    cmds+=("$top")
    for sub in $(listed "$top"); do cmds+=("$top $sub"); done
done
is "every command has a page: augur's help lists them" "$([ ${#cmds[@]} -ge 15 ] && echo yes)" yes
for cmd in "${cmds[@]}"; do
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
