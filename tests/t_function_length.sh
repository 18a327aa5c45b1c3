#!/bin/bash
# t_function_length.sh - no function of cli/ is over 100 lines
# (scripts/check-function-length.sh): the tree as it is passes, and planted
# functions of 101 lines fail, each named by file:line, however its signature
# is laid out, while one of 100 lines and the braces of a table do not count.
top=${AUGUR_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"

status "no function of cli/ is over 100 lines" 0 bash "$top/scripts/check-function-length.sh" \
    "$top/cli" 100
is "and says nothing" "$(cat "$tmp/out")" ""

# body N: N lines of a function body
body() {
    for ((i = 0; i < $1; i++)); do echo "    x++;"; done
}
mkdir "$tmp/dir"
{
    echo '/* planted.c */'
    echo 'static const int table[] = {'
    body 120
    echo '};'
    echo
    echo 'static int fits(int x)' # 1 + 1 + 97 + 1 = 100 lines
    echo '{'
    body 97
    echo '}'
    echo
    echo 'static int'
    echo 'too_long(int x,'
    echo '         int y)' # 3 + 1 + 96 + 1 = 101 lines
    echo '{'
    body 96
    echo '}'
    echo
    echo 'int also_too_long(void)'
    echo '{'
    body 98
    echo '}'
} >"$tmp/dir/planted.c"
status "a planted long function fails" 1 bash "$top/scripts/check-function-length.sh" "$tmp/dir" 100
check "naming it from its return type's line" grep -qxF \
    "$tmp/dir/planted.c:226: too_long is 101 lines, over 100" "$tmp/out"
check "and the other one" grep -qxF "$tmp/dir/planted.c:328: also_too_long is 101 lines, over 100" \
    "$tmp/out"
is "and nothing else" "$(wc -l <"$tmp/out")" 2
status "a bad MAX: exit 2" 2 bash "$top/scripts/check-function-length.sh" "$tmp/dir" ten
