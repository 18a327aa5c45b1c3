#!/bin/bash
# t_alloc_fail.sh - allocation-failure injection: for each operation (load a
# dataset, parse a saved skeleton, load a machine file, one small prediction)
# the N-th allocation fails ($AUGUR_FAIL_ALLOC=N) for N = 1, 2, ... until the
# run succeeds. Every failing run must end with exit status 1 and the
# out-of-memory message, and no crash or sanitizer report (in a sanitizer
# build the handler runs LeakSanitizer before it exits). N takes every value
# up to 200, then steps by a twentieth (5 %), always ending at the last
# allocation; the run that fails none must match a plain run. Prints TAP.
top=${AUGUR_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
augur=${AUGUR_BIN:-$top/build/augur}
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
unset AUGUR_FAIL_ALLOC

EVERY=${AUGUR_FAIL_EVERY:-200} # every N up to this one, then geometric steps
samples=$top/samples
machine=$samples/machines/dev-epyc-2vcpu.yml
mtx=$samples/walshaw_fe_4elt2.mtx

# the saved skeleton the second and third operations read
"$augur" skeleton "$samples/spmv.c" -o "$tmp/spmv.skel" 2>"$tmp/err"
is "a saved skeleton to read" "$?" 0

# the output less its timings (seconds, rates)
untimed() {
    sed -E 's#[0-9]+(\.[0-9]+)? (s|MB/s|M accesses/s)\b#T#g' "$1"
}

# inject NAME ARGS...: every failing N, then the run that fails none
inject() {
    local name=$1 k nth rc runs=0 bad=0
    shift
    "$augur" "$@" >"$tmp/plain" 2>"$tmp/err"
    rc=$?
    AUGUR_FAIL_ALLOC=0 "$augur" "$@" >"$tmp/out" 2>"$tmp/err"
    k=$(sed -n 's/^augur: \([0-9]*\) allocations$/\1/p' "$tmp/err")
    if [ "$rc" != 0 ] || [ -z "$k" ]; then
        flunk "$name: runs and counts its allocations (exit $rc)"
        sed -n '1,6s/^/#   | /p' "$tmp/err"
        return
    fi
    pass "$name: runs and counts its allocations ($k)"
    nth=1
    while [ "$nth" -le "$k" ]; do
        AUGUR_FAIL_ALLOC=$nth "$augur" "$@" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        runs=$((runs + 1))
        if [ "$rc" != 1 ] || ! grep -q '^augur: error: out of memory allocating' "$tmp/err" ||
            grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted' "$tmp/err"; then
            bad=$((bad + 1))
            if [ "$bad" -le 3 ]; then
                echo "# $name: N=$nth: exit $rc"
                sed -n '1,12s/^/#   | /p' "$tmp/err"
            fi
        fi
        # every N up to $EVERY, then steps of 5 %, the last allocation always
        if [ "$nth" -lt "$k" ] && [ "$nth" -ge "$EVERY" ] && [ "$((nth + nth / 20))" -gt "$k" ]; then
            nth=$k
        elif [ "$nth" -ge "$EVERY" ]; then
            nth=$((nth + nth / 20))
        else
            nth=$((nth + 1))
        fi
    done
    is "$name: $runs failing runs (N = 1..$k) end in a clean out-of-memory error" "$bad" 0
    AUGUR_FAIL_ALLOC=$((k + 1)) "$augur" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" = 0 ] && [ "$(untimed "$tmp/out")" = "$(untimed "$tmp/plain")" ] &&
        grep -q "^augur: $k allocations$" "$tmp/err"; then
        pass "$name: N=$((k + 1)) fails none, prints what a plain run prints"
    else
        flunk "$name: N=$((k + 1)) fails none, prints what a plain run prints (exit $rc)"
        diff <(untimed "$tmp/plain") <(untimed "$tmp/out") | sed -n '1,6s/^/#   /p'
        sed -n '1,6s/^/#   | /p' "$tmp/err"
    fi
}

inject "data info" data info "$mtx"
inject "skeleton --check" skeleton --check "$tmp/spmv.skel"
inject "simulate (skeleton, dataset, machine)" simulate "$tmp/spmv.skel" \
    --data "$top/tests/data/graphs/small.el" --machine "$machine"
inject "predict" predict "$samples/spmv.c" --data "$mtx" --machine "$machine"

# with --json the error is a JSON document on standard output
AUGUR_FAIL_ALLOC=1 "$augur" --json data info "$mtx" >"$tmp/out" 2>"$tmp/err"
is "--json: a failed allocation exits 1" "$?" 1
check "--json: the error is JSON naming out of memory" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit("out of memory" not in d["error"])' \
    "$tmp/out"

# a value that is not a number is a usage error, before anything runs
AUGUR_FAIL_ALLOC=x "$augur" data info "$mtx" >"$tmp/out" 2>"$tmp/err"
is "AUGUR_FAIL_ALLOC=x: usage error" "$?" 2
check "AUGUR_FAIL_ALLOC=x: the message names the variable" grep -q AUGUR_FAIL_ALLOC "$tmp/err"
echo "1..$n"
