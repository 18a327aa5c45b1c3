#!/bin/bash
# t_bad.sh - the bad-input corpus: every case of tests/bad/*/CASES runs augur on
# a hostile or edge-case input and must end within a time limit, under a memory
# limit (outside sanitizer builds, whose shadow memory needs the address space),
# with the expected exit status and message, no crash, no sanitizer report and no
# raw control character on the terminal. Prints TAP.
#
# A CASES line: EXIT <TAB> message (ERE on a line of stdout or stderr; "." for none) <TAB> augur's
# arguments [<TAB> a shell check run afterwards]. In the arguments and the check,
# {d} is the case's folder, {s} samples/, {k} kernels/, {m} a machine file and
# {t} a scratch folder holding the special files made below.
top=${AUGUR_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
augur=${AUGUR_BIN:-$top/build/augur}
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

TIME_LIMIT=${AUGUR_BAD_SECONDS:-20}
MEM_LIMIT_KB=$((3 * 1024 * 1024))
sanitized=0
case $(nm -C "$augur" 2>/dev/null | grep -c __asan_init) in 0) ;; *) sanitized=1 ;; esac

# the special files: a FIFO nobody writes or reads, a gzip stream of 80 MB of blanks (80 KB)
mkfifo "$tmp/fifo"
{
    printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n'
    head -c 80000000 /dev/zero | tr '\0' ' '
} | gzip -9 >"$tmp/bomb.mtx.gz"
machine=$top/samples/machines/dev-epyc-zen4-2vcpu.yml

expand() { # expand DIR TEXT: the placeholders of a CASES line
    local s=$2
    s=${s//\{d\}/$1}
    s=${s//\{s\}/$top/samples}
    s=${s//\{k\}/$top/kernels}
    s=${s//\{m\}/$machine}
    s=${s//\{t\}/$tmp}
    printf '%s' "$s"
}

for cases in "$top"/tests/bad/*/CASES; do
    dir=$(dirname "$cases")
    group=$(basename "$dir")
    while IFS=$'\t' read -r want pattern args after; do
        case $want in '#'* | '') continue ;; esac
        read -r -a argv <<<"$(expand "$dir" "$args")"
        name="$group: augur ${args//\{?\}\//}"
        (
            [ "$sanitized" = 1 ] || ulimit -v "$MEM_LIMIT_KB"
            exec timeout -s KILL "$TIME_LIMIT" "$augur" "${argv[@]}"
        ) >"$tmp/out" 2>"$tmp/err" </dev/null
        got=$?
        cat "$tmp/out" "$tmp/err" >"$tmp/all"
        why=
        if [ "$got" -ge 124 ]; then
            why="killed or crashed (exit $got; 137: over ${TIME_LIMIT} s)"
        elif [ "$got" != "$want" ]; then
            why="exit $got, expected $want"
        elif [ "$pattern" != . ] && ! grep -Eq -- "$pattern" "$tmp/all"; then
            why="no message matching /$pattern/"
        elif grep -Eq 'Sanitizer|runtime error:|fatal: out of memory' "$tmp/err"; then
            why="sanitizer or allocator report"
        elif LC_ALL=C grep -q $'[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]' "$tmp/err"; then
            why="a raw control character in the message"
        elif [ -n "$after" ] && ! eval "$(expand "$dir" "$after")"; then
            why="the check afterwards failed: $after"
        fi
        if [ -z "$why" ]; then
            pass "$name"
        else
            flunk "$name"
            echo "#   $why"
            sed -n '1,6s/^/#   | /p' "$tmp/err"
        fi
    done <"$cases"
done
echo "1..$n"
