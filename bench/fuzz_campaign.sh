#!/bin/sh
# fuzz_campaign.sh - the long fuzzing run of the robustness page: every target
# of a libFuzzer build (make build-fuzz) for up to RUNS executions or SECS
# seconds, whichever comes first, one target at a time; writes a Markdown page
# of executions, rate, coverage and findings per target.
#
# usage: bench/fuzz_campaign.sh [BUILD_DIR] [RUNS] [SECS] [PAGE]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-fuzz}
runs=${2:-10000000}
secs=${3:-1800}
page=${4:-$here/docs/results/fuzz-campaign.md}
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

start=$(date -u '+%Y-%m-%d %H:%M UTC')
status=0
FUZZ_RUNS=$runs FUZZ_STATS=$rows sh "$here/tests/fuzz/run.sh" "$build" "$secs" || status=$?
{
    echo "# Fuzzing campaign"
    echo
    echo "Every fuzz target of \`tests/fuzz/\` run alone for up to $runs executions or"
    echo "$secs s, whichever came first, from its saved corpus and the heads of the"
    echo "shared datasets, in a libFuzzer build with AddressSanitizer and"
    echo "UndefinedBehaviorSanitizer (\`make build-fuzz\`). Written by:"
    echo
    echo '```'
    echo "bench/fuzz_campaign.sh $(basename "$build") $runs $secs"
    echo '```'
    echo
    echo "Started $start on \`$(uname -m)\`, $(nproc) cores; the run's exit status was $status."
    echo "Coverage is libFuzzer's count of covered edges (cov) and features (ft) at the"
    echo "end of the run; findings are the crash, leak, timeout and out-of-memory"
    echo "inputs it saved."
    echo
    echo "| target | executions | seconds | per second | cov | ft | corpus | peak RSS (MB) | findings |"
    echo "|---|---|---|---|---|---|---|---|---|"
    cat "$rows"
} >"$page"
echo "wrote $page"
exit $status
