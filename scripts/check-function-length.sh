#!/bin/bash
# check-function-length.sh DIR MAX - the functions of DIR/*.c longer than MAX
# lines, counted from the first line of the signature to the closing brace. In
# the repository's brace style (clang-format, BreakBeforeBraces: Linux) a
# function definition opens with a "{" alone at column 0 after a signature that
# starts at column 0 (continued on indented lines, or with the return type on a
# line of its own), and ends at the next "}" at column 0. Prints one line per
# offender (file:line: name is N lines, over MAX) and exits 1 when there is one.
if [ $# -ne 2 ] || ! [ -d "$1" ] || ! [[ $2 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 DIR MAX" >&2
    exit 2
fi
dir=$1 max=$2
shopt -s nullglob
files=("$dir"/*.c)
[ ${#files[@]} -eq 0 ] && exit 0

awk -v max="$max" '
# a line at column 0 that may begin or continue a signature: not blank, not a
# comment, a directive or a brace, and not the end of a declaration
function sigline(s) {
    return s ~ /^[A-Za-z_]/ && s !~ /[;{}]\s*$/ && s !~ /\*\/\s*$/
}
FNR == 1 { sig = 0; start = 0; delete text }
{ text[FNR] = $0 }
/^[A-Za-z_]/ && !start { sig = sigline($0) ? FNR : 0 }
/^\{/ && !start && sig {
    first = sig
    while (first > 1 && sigline(text[first - 1]))
        first--
    name = ""
    for (i = first; i < FNR && name == ""; i++)
        if (match(text[i], /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
            name = substr(text[i], RSTART, RLENGTH)
            sub(/[ \t]*\($/, "", name)
        }
    start = first
    next
}
/^\}/ && start {
    len = FNR - start + 1
    if (len > max) {
        printf "%s:%d: %s is %d lines, over %d\n", FILENAME, start, name, len, max
        bad = 1
    }
    start = 0
    sig = 0
}
END { exit bad }
' "${files[@]}"
