#!/bin/bash
# parts.sh - times pieces of the reference kernels (bench/parts/parts.c) with
# `augur measure` on one dataset, next to `augur predict`'s time for each:
# the private FV's copy and the whole of it, the Euler reduction with and
# without the second line's updates, PageRank's division loop.
#
# usage: bench/parts/parts.sh BUILD_DIR MACHINE.yml DATASET [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: bench/parts/parts.sh BUILD_DIR MACHINE.yml DATASET [REPS]}
machine=${2:?usage: bench/parts/parts.sh BUILD_DIR MACHINE.yml DATASET [REPS]}
data=${3:?usage: bench/parts/parts.sh BUILD_DIR MACHINE.yml DATASET [REPS]}
reps=${4:-50}
augur=$build/augur
src=$here/bench/parts/parts.c
ell='idx=ell.idx,a=ell.val,y=vec(n)'
edges='eu=coo.row,ev=coo.col,w=coo.val,x=vec(n),nedges=nnz'
parts=(
    "fv_private_copy:$ell"
    "fv_private_serial:$ell,x=vec(n)"
    "ireduce_both:$edges,y=vec(n)"
    "ireduce_split:$edges,y=vec(n),z=vec(n)"
    "ireduce_v_only:$edges,z=vec(n)"
    "pagerank_contrib:n=n,outdeg=deg,pr=vec(n),contrib=vec(n)"
)
echo "# $(basename "$data"), $(basename "$machine"), $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-20s %14s %14s %7s\n' part "measured (s)" "predicted (s)" ratio
for p in "${parts[@]}"; do
    f=${p%%:*} binds=${p#*:}
    m=$("$augur" measure "$src" --function "$f" --bind "$binds" --data "$data" --reps "$reps" \
        --no-counts 2>/dev/null | awk '/median/ { print $7 }')
    s=$("$augur" --json predict "$src" --function "$f" --bind "$binds" --data "$data" \
        --machine "$machine" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
    printf '%-20s %14s %14.4g %7s\n' "$f" "${m:-failed}" "${s:-0}" \
        "$(python3 -c "print('%.2f' % ($s / $m))" 2>/dev/null || echo -)"
done
