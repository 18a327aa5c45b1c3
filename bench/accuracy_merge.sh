#!/bin/bash
# accuracy_merge.sh - one set of cases from several bench/accuracy.sh runs
# (their ACCURACY_OUT folders): each case's prediction from the first run
# named, its measured time the least of the runs' medians. On a shared VM
# other tenants slow the machine for minutes at a time (1.6-1.8 times, a
# stretch of one run, another's stretch elsewhere: docs/results.md), longer
# than one measurement's repetitions; interference only adds time, so the
# least of runs at different hours is the closest to the machine the model
# describes. bench/accuracy_fit.sh reads the result.
#
# usage: bench/accuracy_merge.sh OUT_RUNS NEWEST_RUNS OTHER_RUNS...
set -uo pipefail
usage="usage: bench/accuracy_merge.sh OUT_RUNS NEWEST_RUNS OTHER_RUNS..."
out=${1:?$usage}
newest=${2:?$usage}
shift 2
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
command -v jq >/dev/null || { echo "accuracy_merge.sh: needs jq" >&2; exit 1; }
mkdir -p "$out/json"
merged=0
for run in "$newest"/json/*.json; do
    name=$(basename "$run")
    jq -e '.measured.median' "$run" >/dev/null 2>&1 || continue
    others=()
    for dir in "$@"; do
        [ -f "$dir/json/$name" ] && others+=("$dir/json/$name")
    done
    # the measured block (min, median, max, ...) of the run whose median is least
    jq --slurpfile all <(cat "$run" "${others[@]}" | jq -c 'select(.measured.median) | .measured') '
        .measured = ($all | min_by(.median))
        | .error = ((.seconds - .measured.median) / .measured.median | if . < 0 then -. else . end)' \
        "$run" >"$out/json/$name" && merged=$((merged + 1))
done
echo "merged $merged cases into $out/json (measured: the least median of $(($# + 1)) runs)"
python3 - "$out/json" "$newest" "$@" <<'PY'
import glob, json, os, statistics, sys

def q(v, x):
    v = sorted(v)
    return v[min(len(v) - 1, int(x * len(v)))]

def medians(d):
    m = {}
    for f in glob.glob(d + "/json/*.json"):
        try:
            v = json.load(open(f))["measured"]["median"]
        except (ValueError, KeyError, TypeError):
            continue
        if v:
            m[os.path.basename(f)] = v
    return m

runs = [medians(d) for d in sys.argv[2:]]
# the noise: how far each run's median lies from the newest's, case by case
for d, r in zip(sys.argv[3:], runs[1:]):
    diff = [abs(r[k] / runs[0][k] - 1) for k in runs[0] if k in r]
    if diff:
        print("%s against %s: cases differ by %.1f %% (median), %.1f %% (p90)" %
              (d, sys.argv[2], 100 * statistics.median(diff), 100 * q(diff, 0.9)))
spread = [max(r[k] for r in runs if k in r) / min(r[k] for r in runs if k in r) - 1 for k in runs[0]]
if spread:
    print("slowest over fastest run of a case: %.1f %% more (median), %.1f %% (p90)" %
          (100 * statistics.median(spread), 100 * q(spread, 0.9)))
errs = [json.load(open(f))["error"] for f in sorted(glob.glob(sys.argv[1] + "/*.json"))]
if errs:
    print("selected estimate on the least medians: median %.1f %%, p90 %.1f %%, %d of %d within 25 %%" %
          (100 * statistics.median(errs), 100 * q(errs, 0.9), sum(e <= 0.25 for e in errs), len(errs)))
PY
