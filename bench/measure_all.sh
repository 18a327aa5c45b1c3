#!/bin/bash
# measure_all.sh - times every reference kernel variant of kernels/*/desc.c
# with `augur measure` (generated driver, -O3 -march=native -falign-loops=32 [-fopenmp]) on
# three shared datasets of different classes - a tetrahedral mesh read as its
# face-adjacency dual, a road graph, a skewed graph - at 1 and 2 threads, and
# prints one table row per run: repetitions, min / median / max time per
# call (a whole BFS for the topology-driven rounds), and the bandwidth and
# flop rate of the bytes and flops the skeleton names, at the median ("-"
# where the skeleton interpreter could not count them; augur measure's notes
# say why).
# The tiled irregular reductions run the schedule of tile size 1024 (the
# tiling.* bindings). Variants that cannot run here are listed as skipped
# with the reason (CUDA; AVX-512 without avx512f). Each run may take 300 s
# (the 10 repetitions of the slowest variant take about a minute). Exits 1
# when a run fails.
#
# usage: bench/measure_all.sh [BUILD_DIR] [THREADS...]   (default threads: 1 2)
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
threads=("$@")
[ ${#threads[@]} -eq 0 ] && threads=(1 2)
augur=$build/augur
data=${AUGUR_DATASETS:-$here/../shared/datasets}
datasets=(mesh/frame_step_gmsh_tet.msh.gz mtx/road_usa_NY.mtx.gz mtx/snap_email-Enron.mtx)
fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# Every variant of every descriptor: kernel variant function file target bindings
variants=$(python3 - "$here" <<'EOF'
import re, sys, glob, os
root = sys.argv[1]
for desc in sorted(glob.glob(os.path.join(root, "kernels/*/desc.c"))):
    text = open(desc).read()
    tables = {}
    for m in re.finditer(r"static const struct augur_kernel_variant (\w+)\[\] = \{(.*?)\n\};", text, re.S):
        rows = re.findall(r'\{\s*"([^"]+)",\s*"([^"]+)",\s*"([^"]+)",\s*(AUGUR_KT_\w+)', m.group(2))
        tables[m.group(1)] = rows
    for m in re.finditer(r"const struct augur_kernel_desc \w+ = \{(.*?)\n\};", text, re.S):
        body = m.group(1)
        name = re.search(r'\.name = "([^"]+)"', body).group(1)
        bind = "".join(re.findall(r'"([^"]*)"', re.search(r"\.bindings = ((?:\s*\"[^\"]*\")+)", body).group(1)))
        table = re.search(r"\.variants = (\w+)", body).group(1)
        for v, fn, f, target in tables[table]:
            print(name, v, fn, f, target, bind)
EOF
)
if [ -z "$variants" ]; then
    echo "measure_all: cannot read kernels/*/desc.c" >&2
    exit 1
fi
avx512=0
grep -qw avx512f /proc/cpuinfo 2>/dev/null && avx512=1

echo "# augur measure, $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-26s %-15s %-12s %3s %6s %11s %11s %11s %8s %8s\n" dataset kernel variant T reps \
    "min s" "median s" "max s" "GB/s" "Gflop/s"
for d in "${datasets[@]}"; do
    while read -r kernel variant fn file target bind; do
        case $target in
        AUGUR_KT_CUDA)
            printf "%-26s %-15s %-12s skipped: CUDA (augur measure times C on the CPU)\n" \
                "$(basename "$d")" "$kernel" "$variant"
            continue
            ;;
        AUGUR_KT_AVX512)
            if [ $avx512 = 0 ]; then
                printf "%-26s %-15s %-12s skipped: no avx512f\n" "$(basename "$d")" "$kernel" "$variant"
                continue
            fi
            ;;
        esac
        opts=()
        case $fn in
        ireduce_*_tiled_omp | ireduce_*_avx512)
            # the tiled variants run the schedule at tile size 1024 (docs/tiling.md), not the edges
            tb="ntgroups=tiling.ntgroups,tgroup_tile=tiling.tgroup_tile,tile_group=tiling.tile_group"
            tb+=",gcount=tiling.gcount,gu=tiling.gu,gv=tiling.gv"
            case ,$bind, in *,w=*) tb+=",gw=tiling.gw" ;; esac
            bind="$tb,$(echo "$bind" | tr ',' '\n' | grep -vE '^(nedges|eu|ev|w)=' | paste -sd,)"
            opts=(--tile-size 1024)
            ;;
        esac
        case $kernel in bfs_*) opts=(--source maxdeg) ;; esac
        for t in "${threads[@]}"; do
            if [ "$target" = AUGUR_KT_SCALAR ] && [ "$t" != 1 ]; then
                continue # one thread whatever OMP_NUM_THREADS says
            fi
            if out=$("$augur" --json measure "$here/$file" --function "$fn" --data "$data/$d" \
                --bind "$bind" --threads "$t" --timeout 300 "${opts[@]}" 2>"$err"); then
                echo "$out" | jq -r --arg d "$(basename "$d")" --arg k "$kernel" --arg v "$variant" \
                    '"\($d) \($k) \($v) \(.threads) \(.reps) \(.min) \(.median) \(.max) \(if .bytes then .bytes / .median / 1e9 else -1 end) \(if .flops then .flops / .median / 1e9 else -1 end)"' |
                    awk '{ gb = $9 < 0 ? "-" : sprintf("%.2f", $9); gf = $10 < 0 ? "-" : sprintf("%.3f", $10)
                           printf "%-26s %-15s %-12s %3s %6s %11.4e %11.4e %11.4e %8s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8, gb, gf }'
            else
                fail=1
                printf "%-26s %-15s %-12s %3s FAILED: %s\n" "$(basename "$d")" "$kernel" "$variant" \
                    "$t" "$(echo "$out" | jq -r .error 2>/dev/null)"
            fi
        done
    done <<<"$variants"
done
exit $fail
