#!/bin/bash
# t_frontend_run.sh - runs the "// RUN:" lines of tests/frontend/* and checks their
# output against the "// CHECK:" lines with FileCheck-14, or with the plain
# matcher below where FileCheck is not installed (module: frontend).
# (The round trip of every source's skeleton is in t_frontend.c.) Prints TAP.
#
# RUN lines are bash; %augur is the augur binary, %s the test file, %S its
# folder, %t a scratch path for this test, FileCheck the checker, and
# "not CMD" succeeds when CMD fails. AUGUR_PLAIN_CHECK=1 forces the plain
# matcher (the fallback is tested that way too).
set -u
src=${AUGUR_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${AUGUR_BIN:-$src/build/augur}
dir=$src/tests/frontend
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_frontend.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

filecheck=
if [ "${AUGUR_PLAIN_CHECK:-0}" != 1 ]; then
    for fc in FileCheck-14 /usr/lib/llvm-14/bin/FileCheck FileCheck; do
        if command -v "$fc" >/dev/null 2>&1; then
            filecheck=$(command -v "$fc")
            break
        fi
    done
fi

# plain_check FILE [--check-prefix=P]: the fallback matcher. Supports
# PREFIX:, PREFIX-NEXT:, PREFIX-SAME:, PREFIX-NOT: and PREFIX-LABEL: with
# plain substrings; runs of blanks match any run of blanks, as in FileCheck.
plain_check() {
    local file= prefix=CHECK
    for a in "$@"; do
        case $a in
        --check-prefix=*) prefix=${a#--check-prefix=} ;;
        -*) ;;
        *) file=$a ;;
        esac
    done
    awk -v prefix="$prefix" -v checkfile="$file" '
    function squeeze(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
    BEGIN {
        n = 0
        while ((getline line < checkfile) > 0) {
            if (match(line, prefix "(-NEXT|-NOT|-SAME|-LABEL)?:")) {
                kind = substr(line, RSTART + length(prefix), RLENGTH - length(prefix) - 1)
                pat = squeeze(substr(line, RSTART + RLENGTH))
                n++; kinds[n] = kind; pats[n] = pat
            }
        }
        if (n == 0) { print "plain_check: no " prefix ": lines in " checkfile > "/dev/stderr"; exit 2 }
    }
    { m++; out[m] = squeeze($0) }
    END {
        if (n == 0) exit 2
        last = 0; nnot = 0
        for (c = 1; c <= n; c++) {
            k = kinds[c]; p = pats[c]
            if (k == "-NOT") { nots[++nnot] = p; continue }
            if (k == "-NEXT") { found = (last + 1 <= m && index(out[last + 1], p)) ? last + 1 : 0 }
            else if (k == "-SAME") { found = (last >= 1 && index(out[last], p)) ? last : 0 }
            else { found = 0; for (i = last + 1; i <= m; i++) if (index(out[i], p)) { found = i; break } }
            if (!found) {
                printf("%s: error: %s%s: expected string not found in input\n%s%s: %s\n",
                       checkfile, prefix, k, prefix, k, p) > "/dev/stderr"
                exit 1
            }
            for (j = 1; j <= nnot; j++)
                for (i = last + 1; i < found; i++)
                    if (index(out[i], nots[j])) {
                        printf("%s: error: %s-NOT: excluded string found in input\n%s\n",
                               checkfile, prefix, nots[j]) > "/dev/stderr"
                        exit 1
                    }
            nnot = 0; last = found
        }
        for (j = 1; j <= nnot; j++)
            for (i = last + 1; i <= m; i++)
                if (index(out[i], nots[j])) {
                    printf("%s: error: %s-NOT: excluded string found in input\n%s\n",
                           checkfile, prefix, nots[j]) > "/dev/stderr"
                    exit 1
                }
    }'
}

not() {
    if "$@"; then return 1; fi
    return 0
}

checker() {
    if [ -n "$filecheck" ]; then "$filecheck" "$@"; else plain_check "$@"; fi
}
export -f plain_check not checker 2>/dev/null

n=0
failed=0
tap() { # tap STATUS NAME
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=$((failed + 1))
    fi
}

# run_file FILE: runs its RUN lines; writes "STATUS NAME" lines and "#" detail
# lines to $tmp/NAME.res (files run two at a time; results print in order).
run_file() {
    local f=$1 base k=0 line cmd log status
    base=$(basename "$f")
    : >"$tmp/$base.res"
    while IFS= read -r line; do
        cmd=${line#*RUN: }
        k=$((k + 1))
        cmd=${cmd//%augur/\"$bin\"}
        cmd=${cmd//%s/\"$f\"}
        cmd=${cmd//%S/\"$dir\"}
        cmd=${cmd//%t/\"$tmp/$base.t\"}
        cmd=${cmd//FileCheck/checker}
        log=$tmp/$base.$k.log
        (set -o pipefail; eval "$cmd") >"$log" 2>&1
        status=$?
        echo "$status $base: RUN $k" >>"$tmp/$base.res"
        if [ $status != 0 ]; then
            echo "#   $line" >>"$tmp/$base.res"
            sed 's/^/#   /' "$log" | head -20 >>"$tmp/$base.res"
        fi
    done < <(grep -E '^(//|#) RUN: ' "$f")
}

echo "# checker: ${filecheck:-plain matcher}"
files=()
for f in "$dir"/*.c "$dir"/*.cpp "$dir"/*.cu "$dir"/*.skel; do
    [ -f "$f" ] || continue
    files+=("$f")
    run_file "$f" &
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
        wait -n
    done
done
wait
for f in "${files[@]}"; do
    while IFS= read -r r; do
        case $r in
        "#"*) echo "$r" ;;
        *) tap "${r%% *}" "${r#* }" ;;
        esac
    done <"$tmp/$(basename "$f").res"
done

# The plain matcher itself: a passing and a failing check on known text.
printf 'alpha  beta\ngamma\ndelta\n' >"$tmp/plain.in"
printf '// CHECK: alpha beta\n// CHECK-NEXT: gamma\n// CHECK-NOT: omega\n// CHECK: delta\n' >"$tmp/plain.ok"
printf '// CHECK: alpha\n// CHECK-NEXT: delta\n' >"$tmp/plain.bad"
plain_check "$tmp/plain.ok" <"$tmp/plain.in" 2>/dev/null
tap $? "plain matcher accepts matching text"
plain_check "$tmp/plain.bad" <"$tmp/plain.in" 2>/dev/null
[ $? != 0 ]
tap $? "plain matcher rejects a missing CHECK-NEXT"
printf '// CHECK: alpha\n// CHECK-NOT: gamma\n// CHECK: delta\n' >"$tmp/plain.not"
plain_check "$tmp/plain.not" <"$tmp/plain.in" 2>/dev/null
[ $? != 0 ]
tap $? "plain matcher rejects an excluded string"

echo "1..$n"
[ $failed = 0 ]
