#!/bin/bash
# variants.sh - times the parts of the column-major finite-volume kernel
# (bench/fv/variants.c) on one dataset with `augur measure`, next to the
# kernel's prediction: which part of the time the model misses.
#
# usage: bench/fv/variants.sh BUILD_DIR MACHINE.yml DATASET [THREADS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: bench/fv/variants.sh BUILD_DIR MACHINE.yml DATASET [THREADS]}
machine=${2:?usage: bench/fv/variants.sh BUILD_DIR MACHINE.yml DATASET [THREADS]}
data=${3:?usage: bench/fv/variants.sh BUILD_DIR MACHINE.yml DATASET [THREADS]}
threads=${4:-1}
augur=$build/augur
binds='idx=ell.idx,a=ell.val,x=vec(n),y=vec(n)'
echo "# $(basename "$data"), $threads thread(s), $(date -u +%Y-%m-%dT%H:%MZ)"
"$augur" predict "$here/kernels/fv/omp.c" --function fv_ell_omp_simple --data "$data" \
    --machine "$machine" --threads "$threads" |
    awk '/^prediction:/ { print "predicted (fv_ell_omp_simple):", $2, $3 }'
for f in fv_full fv_streams fv_local fv_gathers fv_gathers_rowwise; do
    printf '%-20s ' "$f"
    "$augur" measure "$here/bench/fv/variants.c" --function "$f" --bind "$binds" --data "$data" \
        --threads "$threads" --reps 20 --no-counts | awk '/median/ { print "median", $7, "s per call" }'
done
