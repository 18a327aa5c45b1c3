#!/bin/bash
# cachegrind_compare.sh - validates `augur simulate` against valgrind's
# cachegrind: the scalar reference kernels (CSR SpMV, the finite-volume ELL
# kernel, a whole topology-driven BFS) run under cachegrind with D1 and LL
# set to the geometry augur simulates, and the D1 and LL read and write
# misses of the kernel function are put beside augur's for the same kernel
# on the same data. Prints a Markdown table (docs/validation.md holds one).
#
# usage: bench/cachegrind_compare.sh [BUILD_DIR] [DATASET_NAMES...]
#   BUILD_DIR holds augur and bench_cg_driver (default: build); datasets
#   come from $AUGUR_DATASETS (default ../shared/datasets).
# Environment: D1="32768,8,64" LL="1048576,16,64" (size,ways,line in bytes).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
augur=$build/augur
driver=$build/bench_cg_driver
data=${AUGUR_DATASETS:-$here/../shared/datasets}
D1=${D1:-32768,8,64}
LL=${LL:-1048576,16,64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in valgrind jq; do
    command -v $tool >/dev/null || { echo "cachegrind_compare: $tool is needed" >&2; exit 1; }
done
[ -x "$augur" ] && [ -x "$driver" ] || {
    echo "cachegrind_compare: build augur and bench_cg_driver in $build first" >&2
    exit 1
}

# The machine augur simulates: the same two levels, true LRU, no prefetcher.
IFS=, read -r d1s d1w d1l <<<"$D1"
IFS=, read -r lls llw lll <<<"$LL"
cat >"$tmp/cg.yml" <<EOF
name: "cachegrind D1 + LL"
kind: cpu
clock_ghz: 1
cores: 1
caches:
  - name: D1
    size: $d1s
    line: $d1l
    ways: $d1w
    shared_by: 1
    prefetch: none
  - name: LL
    size: $lls
    line: $lll
    ways: $llw
    shared_by: 1
    prefetch: none
EOF

# kernel  source file  function  extra augur options
declare -A src=([spmv]=kernels/spmv/ref.c [fv]=kernels/fv/ref.c [bfs]=kernels/bfs/ref.c)
declare -A fn=([spmv]=spmv_csr_ref [fv]=fv_ell_ref [bfs]=bfs_topo_round_ref)
declare -A extra=([spmv]="" [fv]="--bind idx=ell.idx,a=ell.val" [bfs]="--rounds --source maxdeg")

# dataset  class  kernels run on it (fv needs a moderate largest degree: ELL pads every row)
sets=(
    "mtx/road_usa_NY.mtx.gz road spmv,fv,bfs"
    "mtx/walshaw_wing.mtx mesh spmv,fv,bfs"
    "mesh/frame_step_gmsh_tet.msh.gz mesh(tet-dual) spmv,fv,bfs"
    "mtx/ss_bcsstk16.mtx uniform spmv,fv,bfs"
    "mtx/snap_email-Enron.mtx skewed spmv,bfs"
    "mtx/pgp_giantcompo.mtx skewed spmv,fv,bfs"
    "mtx/fb100_MIT8.mtx skewed(dense) spmv,bfs"
)
if [ $# -gt 0 ]; then
    keep=()
    for s in "${sets[@]}"; do
        for want in "$@"; do
            case $s in *"$want"*) keep+=("$s") ;; esac
        done
    done
    sets=("${keep[@]}")
fi

pct() { # relative difference of augur ($1) to cachegrind ($2), in percent
    awk -v a="$1" -v c="$2" 'BEGIN { if (c == 0) { printf (a == 0 ? "0 %%" : "+%d", a) }
                                     else printf "%+.2f %%", 100 * (a - c) / c }'
}

echo "D1 $D1, LL $LL (size,ways,line); augur $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'), $(valgrind --version)"
echo
cell() { # cell CG AUGUR PLACED: "cg / augur (diff) / placed (diff)"
    printf "%s / %s (%s) / %s (%s)" "$1" "$2" "$(pct "$2" "$1")" "$3" "$(pct "$3" "$1")"
}
counts() { # counts JSON: loads, D1 read and write misses, LL misses of loads and of stores
    jq -r '[.levels[0].reads,
            .levels[0].read_misses, .levels[0].write_misses,
            ([.accesses_by_node[] | select(.mode != "store") | .levels[1].misses] | add),
            ([.accesses_by_node[] | select(.mode == "store") | .levels[1].misses] | add // 0)]
           | map(tostring) | join(" ")' "$1"
}

echo "Each cell: cachegrind / augur with its malloc layout (difference %) / augur with the arrays at"
echo "the addresses the driver got under valgrind (difference %)."
echo
echo "| kernel | dataset | class | loads cg / augur | D1 read misses | D1 write misses | LL read misses | LL write misses | cg s | augur s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for s in "${sets[@]}"; do
    read -r file class kernels <<<"$s"
    path=$data/$file
    name=$(basename "$file" | sed 's/\.\(mtx\|msh\)\(\.gz\)\?$//')
    for k in ${kernels//,/ }; do
        srcarg=""
        [ "$k" = bfs ] && srcarg=maxdeg
        t0=$(date +%s.%N)
        CG_DRIVER_VERBOSE=1 valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1="$D1" \
            --LL="$LL" --cachegrind-out-file="$tmp/cg.out" "$driver" "$k" "$path" $srcarg \
            >"$tmp/drv.out" 2>"$tmp/cg.err"
        t1=$(date +%s.%N)
        place=$(sed -n 's/^augur-place: //p' "$tmp/cg.err")
        # events of the kernel function: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
        read -r dr d1mr dlmr dw d1mw dlmw < <(awk -v f="${fn[$k]}" '
            /^fn=/ { cur = substr($0, 4) }
            /^[0-9]/ { if (cur == f) for (i = 2; i <= NF; i++) s[i] += $i }
            END { print s[5] + 0, s[6] + 0, s[7] + 0, s[8] + 0, s[9] + 0, s[10] + 0 }' "$tmp/cg.out")
        # shellcheck disable=SC2086
        "$augur" --json simulate "$here/${src[$k]}" --function "${fn[$k]}" --data "$path" \
            --machine "$tmp/cg.yml" --no-flush ${extra[$k]} >"$tmp/a.json"
        t2=$(date +%s.%N)
        # shellcheck disable=SC2086
        "$augur" --json simulate "$here/${src[$k]}" --function "${fn[$k]}" --data "$path" \
            --machine "$tmp/cg.yml" --no-flush ${extra[$k]} --place "$place" >"$tmp/p.json"
        read -r ar a1r a1w alr alw < <(counts "$tmp/a.json")
        read -r pr p1r p1w plr plw < <(counts "$tmp/p.json")
        printf "| %s | %s | %s | %s / %s | %s | %s | %s | %s | %.1f | %.1f |\n" \
            "$k" "$name" "$class" "$dr" "$ar" \
            "$(cell "$d1mr" "$a1r" "$p1r")" "$(cell "$d1mw" "$a1w" "$p1w")" \
            "$(cell "$dlmr" "$alr" "$plr")" "$(cell "$dlmw" "$alw" "$plw")" \
            "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
    done
done
