# tap.sh - TAP helpers shared by the end-to-end shell tests (sourced, not run).
# The test sets $tmp (a scratch folder) before calling status; $n counts the tests.
n=0

pass() {
    n=$((n + 1))
    echo "ok $n - $1"
}
flunk() {
    n=$((n + 1))
    echo "not ok $n - $1"
}
skip() { # skip NAME WHY
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}
is() { # is NAME GOT WANT
    if [ "$2" = "$3" ]; then
        pass "$1"
    else
        flunk "$1"
        echo "#        got: '$2'"
        echo "#   expected: '$3'"
    fi
}
check() { # check NAME CMD...: passes when CMD succeeds
    local name=$1
    shift
    if "$@"; then pass "$name"; else flunk "$name"; fi
}
status() { # status NAME WANT CMD...: the exit status of CMD; stdout in $tmp/out, stderr in $tmp/err
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    is "$name" "$?" "$want"
}
