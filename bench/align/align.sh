#!/bin/bash
# align.sh - how much of a measured time is the loop's place in the code:
# times the CSR SpMV reference (kernels/spmv/ref.c) with `augur measure`
# twice, as the file has it (first in its object) and with a small function
# compiled before it, under the default flags and with -falign-loops=32.
# The code is the same; only the loop's address moves.
#
# usage: bench/align/align.sh BUILD_DIR DATASET [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: bench/align/align.sh BUILD_DIR DATASET [REPS]}
data=${2:?usage: bench/align/align.sh BUILD_DIR DATASET [REPS]}
reps=${3:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the kernel alone, and after a function whose code moves it
sed 's|#include "kernel.h"|#include <stdint.h>|' "$here/kernels/spmv/ref.c" >"$tmp/first.c"
{
    echo '#include <stdint.h>'
    echo 'double before(const double *a, uint32_t n);'
    echo 'double before(const double *a, uint32_t n) { double s = 0; for (uint32_t i = 0; i < n; i++) s += a[i] * a[i]; return s; }'
    grep -v '#include' "$tmp/first.c"
} >"$tmp/second.c"
binds='rowptr=csr.rowptr,col=csr.col,val=csr.val,x=vec(n),y=vec(n),nrows=n'
echo "# $(basename "$data"), $(date -u +%Y-%m-%dT%H:%MZ), median seconds per call of spmv_csr_ref"
printf '%-34s %14s %14s\n' flags "first in file" "after another"
for flags in "-O3 -march=native" "-O3 -march=native -falign-loops=32"; do
    row=()
    for f in first second; do
        row+=("$("$build/augur" measure "$tmp/$f.c" --function spmv_csr_ref --bind "$binds" \
            --data "$data" --reps "$reps" --no-counts -- $flags 2>/dev/null | awk '/median/ { print $7 }')")
    done
    printf '%-34s %14s %14s\n' "$flags" "${row[0]}" "${row[1]}"
done
