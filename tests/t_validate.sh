#!/bin/bash
# t_validate.sh - bench/validate --quick end to end: three datasets, one
# kernel, predicted and measured in two interleaved rounds, the results page
# and its plot written. Checks the pipeline of the benchmark, never its
# figures (timings are the benchmark's business). Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=$(cd "${AUGUR_SOURCE_DIR:-.}" && pwd)
data=${AUGUR_DATASETS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

if [ -z "$data" ] || [ ! -f "$data/mtx/polblogs.mtx" ] || ! command -v "${CC:-cc}" >/dev/null ||
    ! python3 -c 'import yaml' 2>/dev/null; then
    skip "bench/validate --quick" "no shared datasets, C compiler or python3-yaml"
    echo "1..$n"
    exit 0
fi
build=$(dirname "$augur")
# a shipped machine file: the run checks the pipeline, and calibrating under a sanitizer is slow
mkdir -p "$tmp/work"
status "validate --quick runs" 0 env TMPDIR="$tmp/work" python3 "$src/bench/validate" --quick --out "$tmp/run" \
    --page "$tmp/page/results.md" --datasets "$data" \
    --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" "$build"
sed 's/^/# /' "$tmp/err" | tail -n 5
page=$tmp/page/results.md
check "the page is written" test -s "$page"
check "it gives the command" grep -q '^bench/validate --quick' "$page"
check "a table of errors for this host" grep -Eq '^\| all \| 3 \| [0-9.]+ % \|' "$page"
check "per thread count and class" grep -Eq '^\| class mesh \| 1 \|' "$page"
check "the naive alternatives" grep -q 'bytes named / calibrated memory bandwidth' "$page"
check "the rounds' spread" grep -q 'Run-to-run spread' "$page"
check "a plot per kernel" grep -q 'svg\](results/here-spmv_omp_static.svg)' "$page"
check "the plot is an SVG with a point per case" \
    test "$(grep -c '<circle' "$tmp/page/results/here-spmv_omp_static.svg")" -eq 3
check "the cases as CSV" test "$(wc -l <"$tmp/run/cases.csv")" -eq 4
check "two rounds each" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if all(len(r['rounds'].split()) == 2 for r in rows) else 1)" "$tmp/run/cases.csv"
check "no driver left behind" test -z "$(ls "$tmp/work")"
# the row loop's exits: the zen4 file's capacity learns them, so each case has the unlearned time
check "the time with no branch replay learned, in the CSV" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if all(float(r['unlearned']) > float(r['predicted']) for r in rows) else 1)" "$tmp/run/cases.csv"
check "... and on the page" grep -q '^Branch replays: 3 cases count on' "$page"
check "the targets, met or missed" grep -Eq '^\| median, all cases \| this host \| 3 \| [0-9.]+ % \| 10.0 % \| (met|\*\*missed\*\*) \|$' "$page"
# the page again from the run's folder: the same tables, nothing timed again
status "--from writes the page again" 0 python3 "$src/bench/validate" --quick --from "$tmp/run" \
    --page "$tmp/page2/results.md" "$build"
check "... with the same tables" cmp <(sed -n '/^## Targets/,$p' "$page") \
    <(sed -n '/^## Targets/,$p' "$tmp/page2/results.md")
# ... and its cases predicted again by this build: the same predictions, the measured times kept
status "--from --repredict" 0 python3 "$src/bench/validate" --quick --from "$tmp/run" --repredict \
    --page "$tmp/page3/results.md" "$build"
check "... says so" grep -q "^This host's cases predicted again" "$tmp/page3/results.md"
check "... with the same tables" cmp <(sed -n '/^## Targets/,$p' "$page") \
    <(sed -n '/^## Targets/,$p' "$tmp/page3/results.md")
echo "1..$n"
