#!/bin/sh
# fuzz_campaign.sh - the long fuzzing run of the robustness page: each target
# of a libFuzzer build (make build-fuzz) for up to RUNS executions or SECS
# seconds, whichever comes first, one target at a time; writes the page's
# table of executions, rate, coverage and findings per target. Naming targets
# runs those alone and keeps the page's rows of the others.
#
# usage: bench/fuzz_campaign.sh [BUILD_DIR] [RUNS] [SECS] [TARGET...]
#   the page: $FUZZ_PAGE, else docs/results/fuzz-campaign.md
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-fuzz}
runs=${2:-10000000}
secs=${3:-1800}
if [ $# -gt 3 ]; then shift 3; else set --; fi
page=${FUZZ_PAGE:-$here/docs/results/fuzz-campaign.md}
rows=$(mktemp)
trap 'rm -f "$rows" "$rows.all"' EXIT

start=$(date -u '+%Y-%m-%d %H:%M UTC')
status=0
FUZZ_RUNS=$runs FUZZ_STATS=$rows FUZZ_TARGETS="$*" sh "$here/tests/fuzz/run.sh" "$build" "$secs" || status=$?
sed -i "s/\$/ $start | $runs, $secs s |/" "$rows"
# the page's rows of targets not run now, then this run's, by target name
if [ -f "$page" ]; then
    grep '^| fuzz_' "$page" | while IFS= read -r line; do
        t=$(printf '%s\n' "$line" | cut -d' ' -f2)
        grep -q "^| $t |" "$rows" || printf '%s\n' "$line"
    done >"$rows.all"
fi
cat "$rows" >>"$rows.all"
{
    echo "# Fuzzing campaign"
    echo
    echo "Each fuzz target of \`tests/fuzz/\` run alone for up to a number of"
    echo "executions or seconds, whichever came first (the row's limits), from its"
    echo "saved corpus and the heads of the shared datasets, in a libFuzzer build with"
    echo "AddressSanitizer and UndefinedBehaviorSanitizer (\`make build-fuzz\`), on"
    echo "\`$(uname -m)\` with $(nproc) cores. Written by:"
    echo
    echo '```'
    echo "bench/fuzz_campaign.sh build-fuzz RUNS SECONDS [TARGET...]"
    echo '```'
    echo
    echo "Coverage is libFuzzer's count of covered edges (cov) and features (ft) at"
    echo "the end of the run; findings are the crash, leak, timeout and out-of-memory"
    echo "inputs it saved."
    echo
    echo "| target | executions | seconds | per second | cov | ft | corpus | peak RSS (MB) | findings | started | limits |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    sort "$rows.all"
} >"$page"
echo "wrote $page"
exit $status
