#!/bin/bash
# t_cmake_project.sh - samples/cmake-project: a CMake build that runs augur as a
# custom target reads the kernel's flags from its compile_commands.json, writes
# valid SARIF, and fails the build over the time budget. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=$(cd "${AUGUR_SOURCE_DIR:-.}" && pwd)
augur=$(cd "$(dirname "$augur")" && pwd)/$(basename "$augur")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
project=$src/samples/cmake-project
machine=$src/samples/machines/dev-xeon-2vcpu.yml

status "configure the project" 0 cmake -S "$project" -B "$tmp/b" -DAUGUR="$augur" \
    -DAUGUR_MACHINE="$machine"
check "CMake wrote compile_commands.json" test -f "$tmp/b/compile_commands.json"
status "augur-check passes under the budget" 0 cmake --build "$tmp/b" --target augur-check
[ "$(cat "$tmp/err")" = "" ] || sed "s/^/#   /" "$tmp/err" "$tmp/out" | tail -n 8
check "the SARIF is written" test -s "$tmp/b/augur.sarif"
if python3 -c 'import jsonschema' 2>/dev/null; then
    check "and valid against the OASIS schema" python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
        "$tmp/b/augur.sarif" "$src/docs/schema/sarif-2.1.0.json"
else
    skip "and valid against the OASIS schema" "python3-jsonschema is not installed"
fi
check "naming the kernel's bottleneck line" grep -q '"startLine": 15' "$tmp/b/augur.sarif"

status "configure with a budget of 1 us" 0 cmake -S "$project" -B "$tmp/b" -DAUGUR_BUDGET=1us
status "augur-check fails the build over it" 2 cmake --build "$tmp/b" --target augur-check
check "saying why" grep -q 'over the budget of 1 us' "$tmp/out" "$tmp/err"
echo "1..$n"
