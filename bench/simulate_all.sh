#!/bin/bash
# simulate_all.sh - runs `augur simulate` for the seed kernels' scalar
# references (CSR SpMV, the finite-volume ELL kernel, a whole topology-driven
# BFS, a whole data-driven BFS with the bindings inference gives it, the
# Euler irregular reduction, pull PageRank) on every shared dataset with the
# development machine's caches, and prints one line per run: accesses,
# L1/L2/L3 miss rates, memory bytes, seconds; then one line per kernel:
# runs, failures, accesses summed over the datasets, seconds summed, and the
# rate (accesses per second of `augur simulate`, loading the dataset and
# binding included). Every run must succeed; the script exits 1 otherwise.
#
# usage: bench/simulate_all.sh [BUILD_DIR] [THREADS]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
threads=${2:-1}
augur=$build/augur
data=${AUGUR_DATASETS:-$here/../shared/datasets}
fail=0

kernels=(
    "kernels/spmv/ref.c spmv_csr_ref"
    "kernels/fv/ref.c fv_ell_ref"
    "kernels/bfs/ref.c bfs_topo_round_ref --rounds --source maxdeg"
    "kernels/bfs/ref.c bfs_frontier_ref"
    "kernels/ireduce/ref.c ireduce_euler_ref"
    "kernels/pagerank/ref.c pagerank_pull_ref"
)
files=$(cd "$data" && ls mtx/*.mtx mtx/*.mtx.gz mesh/*.msh mesh/*.msh.gz mesh/*.mesh mesh/*.ele.gz 2>/dev/null)
declare -A runs fails acc secs
printf "%-34s %-20s %12s %7s %7s %7s %12s %7s\n" dataset kernel accesses "L1 %" "L2 %" "L3 %" "mem MB" s
for f in $files; do
    for k in "${kernels[@]}"; do
        read -r file fn opts <<<"$k"
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        runs[$fn]=$((${runs[$fn]:-0} + 1))
        if out=$("$augur" --json simulate "$here/$file" --function "$fn" --data "$data/$f" \
            --threads "$threads" $opts 2>"$build/simulate_all.err"); then
            t1=$(date +%s.%N)
            s=$(echo "$t1 - $t0" | bc)
            a=$(echo "$out" | jq -r '.accesses')
            acc[$fn]=$((${acc[$fn]:-0} + a))
            secs[$fn]=$(echo "${secs[$fn]:-0} + $s" | bc)
            echo "$out" | jq -r --arg d "$(basename "$f")" --arg k "$fn" --arg s "$s" \
                '"\($d) \($k) \(.accesses) \(.levels[0].miss_rate * 100 | floor) \(.levels[1].miss_rate * 100 | floor) \(.levels[2].miss_rate * 100 | floor) \((.levels[3].fill_bytes + .levels[3].writeback_bytes) / 1e6 | floor) \($s)"' |
                awk '{ printf "%-34s %-20s %12s %7s %7s %7s %12s %7.2f\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
        else
            fail=1
            fails[$fn]=$((${fails[$fn]:-0} + 1))
            printf "%-34s %-20s FAILED: %s\n" "$(basename "$f")" "$fn" "$(tail -1 "$build/simulate_all.err")"
        fi
    done
done
echo
printf "%-20s %6s %8s %14s %10s %14s\n" kernel runs failed accesses s "accesses/s"
for k in "${kernels[@]}"; do
    read -r _ fn _ <<<"$k"
    printf "%-20s %6s %8s %14s %10.2f %14.0f\n" "$fn" "${runs[$fn]:-0}" "${fails[$fn]:-0}" \
        "${acc[$fn]:-0}" "${secs[$fn]:-0}" "$(echo "${acc[$fn]:-0} / (${secs[$fn]:-0} + 0.000001)" | bc -l)"
done
exit $fail
