#!/bin/bash
# t_cli.sh - end-to-end tests of the augur command frame: version, help,
# dispatch, exit statuses and JSON errors. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
tmp_oom=$(mktemp)
trap 'rm -f "$tmp_oom"' EXIT
n=0
fail=0

check() { # check NAME COMMAND...: passes when COMMAND succeeds
    local name=$1
    shift
    n=$((n + 1))
    if "$@" >/dev/null 2>&1; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        fail=1
    fi
}

status() { # status WANT CMD...: exit status of the augur command
    local want=$1
    shift
    "$augur" "$@" >/dev/null 2>&1
    [ $? -eq "$want" ]
}

version=$("$augur" --version)
check "--version prints the version" grep -Eq '^augur [0-9]+\.[0-9]+\.[0-9]+$' <<<"$version"
check "--json --version is JSON" grep -q '"version"' <<<"$("$augur" --json --version)"
check "--help lists commands" grep -q '^  data ' <<<"$("$augur" --help)"
check "help data lists subcommands" grep -q '^  info ' <<<"$("$augur" help data)"
check "help data info is the page of data info" grep -q '^usage: augur data info' <<<"$("$augur" help data info)"
check "data info --help is the same page" grep -q '^usage: augur data info' <<<"$("$augur" data info --help)"
check "no command: usage, exit 2" status 2
check "unknown command: exit 2" status 2 frobnicate
check "unknown subcommand: exit 2" status 2 data frobnicate
check "unknown global option: exit 2" status 2 --frob
check "unknown option of a subcommand: exit 2" status 2 data info --frob x
check "missing operand: exit 2" status 2 data info
check "missing file: exit 1" status 1 data info /nonexistent/file.mtx
err=$("$augur" data info /nonexistent/file.mtx 2>&1 >/dev/null)
check "error message names the file" grep -q "^augur: error: /nonexistent/file.mtx: cannot open" <<<"$err"
check "usage error says where help is" grep -q "see 'augur data info --help'" <<<"$("$augur" data info --frob x 2>&1)"
json=$("$augur" --json data info /nonexistent/file.mtx 2>/dev/null)
check "--json error is {\"error\": ...} on stdout" grep -q '^{"error":.*nonexistent' <<<"$json"
json=$("$augur" data info --json /nonexistent/file.mtx 2>/dev/null)
check "subcommand --json too" grep -q '^{"error":' <<<"$json"
check "help of an unknown command: exit 2" status 2 help frobnicate

# out of memory is an error (exit 1 and a message), never an abort: a road graph's load under
# address-space limits from too tight for it to ample (a sanitizer build needs its shadow memory)
ne=${AUGUR_DATASETS:-}/mtx/road_usa_NE.mtx.gz
if [ -f "$ne" ] && [ "$(nm "$augur" 2>/dev/null | grep -c __asan_init)" = 0 ]; then
    aborted=0 oom=0
    for kb in 230000 250000 270000 290000 310000 330000; do
        (ulimit -v $kb; "$augur" data info --no-clustering "$ne" >/dev/null 2>"$tmp_oom") 2>/dev/null
        rc=$?
        [ $rc -ge 128 ] && aborted=1
        [ $rc -eq 1 ] && grep -q "^augur: error: out of memory allocating [0-9]* bytes" "$tmp_oom" &&
            oom=1
    done
    check "tight memory never aborts" test $aborted = 0
    check "and out of memory is a clean error" test $oom = 1
else
    n=$((n + 2))
    echo "ok $((n - 1)) - tight memory never aborts # SKIP no road_usa_NE or a sanitizer build"
    echo "ok $n - and out of memory is a clean error # SKIP no road_usa_NE or a sanitizer build"
fi

# options anywhere: after the operands as before them
src=${AUGUR_SOURCE_DIR:-.}
check "options after the operand (data info FILE --json)" \
    sh -c "'$augur' data info '$src/samples/walshaw_fe_4elt2.mtx' --json | grep -q '\"format\": \"mtx\"'"
check "options after the operand (skeleton FILE --json)" \
    sh -c "'$augur' skeleton '$src/samples/spmv.c' --json | grep -q augur-skeleton"

# -p BUILD_DIR: a kernel that needs its build's flags, read from compile_commands.json
pdir=$(mktemp -d)
trap 'rm -f "$tmp_oom"; rm -rf "$pdir"' EXIT
cat >"$pdir/k.c" <<'C'
#ifndef KERNEL_REAL
#error "built only with -DKERNEL_REAL=double"
#endif
void k(int n, const int *rowptr, const int *col, const KERNEL_REAL *val, const KERNEL_REAL *x,
       KERNEL_REAL *y)
{
    for (int i = 0; i < n; i++) {
        KERNEL_REAL s = 0;
        for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
            s += val[j] * x[col[j]];
        y[i] = s;
    }
}
C
printf '[{"directory": "%s", "file": "%s/k.c", "command": "cc -DKERNEL_REAL=double -c k.c"}]\n' \
    "$pdir" "$pdir" >"$pdir/compile_commands.json"
export AUGUR_MACHINE=${AUGUR_MACHINE:-$src/samples/machines/dev-xeon-2vcpu.yml}
for cmd in predict simulate advise; do
    check "$cmd -p BUILD_DIR reads the build's flags" \
        "$augur" $cmd "$pdir/k.c" --data "$src/samples/walshaw_fe_4elt2.mtx" -p "$pdir"
done
check "skeleton -p BUILD_DIR reads the build's flags" "$augur" skeleton "$pdir/k.c" -p "$pdir"
check "and without it the kernel does not build" sh -c "! '$augur' skeleton '$pdir/k.c'"

# the progress line: only on a terminal, never with --quiet
check "--quiet is taken" "$augur" predict "$src/samples/spmv.c" --data "$src/samples/walshaw_fe_4elt2.mtx" --quiet
check "no progress line off a terminal" sh -c "! '$augur' predict '$src/samples/spmv.c' \
    --data '$src/samples/walshaw_fe_4elt2.mtx' 2>&1 >/dev/null | grep -q simulating"

echo "1..$n"
exit $fail
