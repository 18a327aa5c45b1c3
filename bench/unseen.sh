#!/bin/bash
# unseen.sh - predicted against measured time per call on kernels written
# apart from the reference kernels (bench/unseen/: scatters, COO, SpMM,
# Jacobi, Gauss-Seidel, triangle counting, Jaccard, label propagation,
# union-find, colouring, SSSP, Bellman-Ford, a mesh gather, a switch,
# atomics, C++ with std::vector, rows of pointers and an adjacency list):
# how augur does on code it was not built on, on a few datasets. One row
# per case: kernel, dataset, threads, predicted and measured seconds, their
# ratio, the bottleneck.
#
# usage: bench/unseen.sh BUILD_DIR MACHINE.yml DATASETS_DIR
#   DATASETS_DIR holds mtx/snap_email-Enron.mtx and mesh/mfem_piece_tet.msh
#   (../shared/datasets); the small matrix is samples/walshaw_fe_4elt2.mtx.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: bench/unseen.sh BUILD_DIR MACHINE.yml DATASETS_DIR"
build=${1:?$usage}
machine=${2:?$usage}
data=${3:?$usage}
augur=$build/augur
small=$here/samples/walshaw_fe_4elt2.mtx
skewed=$data/mtx/snap_email-Enron.mtx
mesh=$data/mesh/mfem_piece_tet.msh
tmp=${TMPDIR:-/tmp}/unseen.$$.json
trap 'rm -f "$tmp"' EXIT

# KERNEL_FILE THREADS DATASET... [-- BINDINGS]
cases=(
    "scatter.c 1 small skewed"
    "scatter_atomic.c 1 small skewed"
    "scatter_atomic.c 2 small skewed"
    "coo_spmv.c 1 small skewed"
    "spmm4_local.c 1 small skewed -- X=vec(4*m),Y=vec(4*n)"
    "spmm4_sums.c 1 small skewed"
    "jacobi.c 1 small skewed"
    "gauss_seidel.c 1 small skewed"
    "triangles.c 1 small skewed"
    "jaccard.c 1 small"
    "label_prop.c 1 small skewed"
    "label_prop.c 2 small skewed"
    "pagerank_pull.c 1 small skewed"
    "ell_rows.c 1 small"
    "bellman_ford.c 1 small skewed"
    "sssp_worklist.c 1 small skewed"
    "union_find.c 1 small skewed"
    "greedy_color.c 1 small skewed"
    "degree_hist.c 1 small -- nbins=64"
    "degree_hist.c 2 small -- nbins=64"
    "switch_weigh.c 1 small -- rowptr=csr.rowptr,col=csr.col,val=csr.val"
    "first_big.c 1 small skewed"
    "spmv_f32_ptr.c 1 small skewed"
    "tet_gather.c 1 mesh"
    "vector_spmv.cpp 1 small skewed"
    "vector_spmv.cpp 2 small skewed"
    "rows_spmv.cpp 1 small skewed"
    "adj_pull.cpp 1 small skewed"
)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), machine $machine"
printf '%-18s %-22s %2s %11s %11s %6s  %s\n' kernel dataset T predicted measured ratio bottleneck
for c in "${cases[@]}"; do
    spec=${c%% -- *}
    binds=
    [ "$spec" != "$c" ] && binds=${c#* -- }
    read -r file threads sets <<<"$spec"
    for set in $sets; do
        ds=${!set}
        args=("$here/bench/unseen/$file" --data "$ds" --machine "$machine" --threads "$threads"
            --measure)
        [ -n "$binds" ] && args+=(--bind "$binds")
        "$augur" --json predict "${args[@]}" >"$tmp" 2>/dev/null
        python3 - "$tmp" "$file" "$(basename "$ds")" "$threads" <<'PY'
import json, os, sys
name = os.path.splitext(sys.argv[2])[0]
try:
    d = json.load(open(sys.argv[1]))
    p, m = d['seconds'], d['measured']['median']
    print('%-18s %-22s %2s %11.4g %11.4g %6.2f  %s' % (name, sys.argv[3][:22], sys.argv[4],
                                                      p, m, p / m, d.get('bottleneck', '')))
except Exception as e:
    print('%-18s %-22s %2s failed: %s' % (name, sys.argv[3][:22], sys.argv[4],
                                         (open(sys.argv[1]).read().strip() or str(e))[:120]))
PY
    done
done
