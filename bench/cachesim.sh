#!/bin/sh
# cachesim.sh [BUILD] - the cache simulator's throughput (bench_cachesim), and in the same
# run the same CSR SpMV (same matrix, same passes) natively and under valgrind's cachegrind,
# an independent simulator: its slowdown and its accesses per second.
# cachesim.sh --instructions [BUILD] - instead, the simulator's instructions per access on
# that SpMV stream (one pass under callgrind; independent of the machine's load).
# AUGUR_DATASETS names the datasets (default ../shared/datasets); MATRIX a matrix file.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
instr=0
if [ "${1:-}" = --instructions ]; then
    instr=1
    shift
fi
build=${1:-$top/build}
data=${AUGUR_DATASETS:-$top/../shared/datasets}
matrix=${MATRIX:-$data/mtx/road_usa_FLA.mtx.gz}
passes=3
bin=$build/bench_cachesim
[ -x "$bin" ] || { echo "cachesim.sh: no $bin (make bench_cachesim)" >&2; exit 1; }
export AUGUR_SOURCE_DIR="$top" AUGUR_DATASETS="$data"

if [ $instr = 1 ]; then
    # Instructions counted in the simulator's own code (cachesim/, with what the compiler
    # inlined there), divided by the SpMV accesses simulated (the random streams are cut to
    # 16 accesses each; creating the simulators and clearing their caches is included).
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    acc=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --data "$matrix" \
        --passes 1 --accesses 16 2>/dev/null | awk '/^spmv/ { n += $(NF-7) } END { print n }')
    callgrind_annotate --auto=no --threshold=100 "$out" 2>/dev/null | awk -v acc="$acc" '
        /cachesim\/|emmintrin\.h/ && $1 ~ /^[0-9,]+$/ { gsub(",", "", $1); ir += $1 }
        END { printf "simulator: %.0f instructions, %d SpMV accesses, %.1f instructions per access\n",
                     ir, acc, ir / acc }'
    exit 0
fi

"$bin" --data "$matrix" --passes $passes

# Best of three native runs of the kernel alone.
best=""
for run in 1 2 3; do
    t=$("$bin" --native --data "$matrix" --passes $passes | awk '/^native/ {print $(NF-1)}')
    best=$(echo "$t ${best:-$t}" | awk '{print ($1 < $2) ? $1 : $2}')
done
line=$("$bin" --native --data "$matrix" --passes $passes | awk '/^native/')
acc=$(echo "$line" | awk '{print $(NF-3)}')

if command -v valgrind >/dev/null 2>&1; then
    # cachegrind wants power-of-two set counts: the development L3 (35.75 MiB, 11-way)
    # becomes 32 MiB 16-way; L1 matches (32 KiB, 8-way, 64-byte lines).
    cg=$(valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
        --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64 \
        "$bin" --native --data "$matrix" --passes $passes 2>/dev/null | awk '/^native/ {print $(NF-1)}')
    echo "$best $cg $acc" | awk '{
        printf "native     spmv csr  %s accesses %.4f s  %7.1f M accesses/s\n", $3, $1, $3 / $1 / 1e6;
        printf "cachegrind spmv csr  %s accesses %.4f s  %7.1f M accesses/s  (%.1fx slower than native)\n",
               $3, $2, $3 / $2 / 1e6, $2 / $1 }'
else
    echo "$best $acc" | awk '{ printf "native     spmv csr  %s accesses %.4f s  %7.1f M accesses/s\n", $2, $1, $2 / $1 / 1e6 }'
    echo "cachegrind: valgrind is not installed"
fi
