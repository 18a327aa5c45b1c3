#!/bin/bash
# atomics.sh - the scatter y[col[k]] += val[k] * x[i] plain and under
# "#pragma omp atomic" (bench/atomics/scatter.c): predicted against measured
# per dataset, the atomic one at 1 and 2 threads: how well the model prices
# a locked read-modify-write (core.atomic_cycles, docs/models.md).
#
# usage: bench/atomics.sh BUILD_DIR MACHINE.yml DATASET...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: bench/atomics.sh BUILD_DIR MACHINE.yml DATASET..."
build=${1:?$usage}
machine=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
augur=$build/augur
src=$here/bench/atomics/scatter.c
echo "# $(date -u +%Y-%m-%dT%H:%MZ), machine $machine"
printf '%-28s %-15s %7s %12s %12s %6s\n' dataset kernel threads predicted measured ratio
for data in "$@"; do
    for run in "scatter_plain 1" "scatter_atomic 1" "scatter_atomic 2"; do
        set -- $run
        "$augur" --json predict "$src" --function "$1" --data "$data" --machine "$machine" \
            --threads "$2" --measure >"${TMPDIR:-/tmp}/atomics.$$.json" || true
        python3 - "${TMPDIR:-/tmp}/atomics.$$.json" "$(basename "$data")" "$1" "$2" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    p, m = d['seconds'], d['measured']['median']
    print('%-28s %-15s %7s %12.4g %12.4g %6.2f' % (sys.argv[2][:28], sys.argv[3], sys.argv[4], p, m, p / m))
except Exception as e:
    print('%-28s %-15s %7s failed: %s' % (sys.argv[2][:28], sys.argv[3], sys.argv[4], e))
PY
    done
done
rm -f "${TMPDIR:-/tmp}/atomics.$$.json"
