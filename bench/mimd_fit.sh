#!/bin/bash
# mimd_fit.sh - fits T_MIMD's a (Zhu et al. PACT'19 eq. 4) with the core
# section to measured runs of the tiled-and-grouped reduction: `augur predict
# --measure --json` of the AVX-512 variant (the tiled OpenMP one without
# avx512f) at each tile size on each dataset, TEAM threads, then `augur train
# model --holdout 2` (every other dataset held out). The page gets the fitted
# a, the errors before and after on the fitted and the held-out datasets, and
# every run.
#
# usage: bench/mimd_fit.sh [BUILD_DIR] [OUT.md]
# The machine is --machine auto (this host, calibrated once and cached);
# MIMD_THREADS (default 2), MIMD_TILES (default 256 1024 4096).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=${2:-$here/docs/results/mimd-fit.md}
data=${AUGUR_DATASETS:-$here/../shared/datasets}
threads=${MIMD_THREADS:-2}
tiles=${MIMD_TILES:-256 1024 4096}
sets=${MIMD_SETS:-"$data/mtx/road_usa_NY.mtx.gz $data/mtx/walshaw_wing.mtx $data/mtx/snap_email-Enron.mtx
  $data/mesh/hinge_stl_tetgen_tet.ele.gz $data/mtx/walshaw_4elt.mtx $data/mtx/ss_bcsstk16.mtx
  $data/mtx/fb100_MIT8.mtx $data/mesh/mfem_indheat_tet.msh"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file, fn, flags, bind: the tiled reduction this host runs
# shellcheck source=bench/tiled_kernel.sh
. "$here/bench/tiled_kernel.sh"
machine=$("$build/augur" --json predict "$file" --function "$fn" --data "$here/samples/walshaw_fe_4elt2.mtx" \
    --bind "$bind" --tile-size 1024 --quiet -- "${flags[@]}" | python3 -c "import json,sys; print(json.load(sys.stdin)['machine_file'])")

runs=()
for d in $sets; do
    for t in $tiles; do
        f=$tmp/$(basename "$d")-$t.json
        echo "mimd_fit: $(basename "$d") tile $t" >&2
        "$build/augur" --json predict "$file" --function "$fn" --data "$d" --bind "$bind" \
            --tile-size "$t" --threads "$threads" --measure --quiet -- "${flags[@]}" >"$f"
        runs+=("$f")
    done
done
"$build/augur" train model --machine "$machine" --holdout 2 "${runs[@]}" >"$tmp/fit.txt"
{
    echo "# T_MIMD fitted to the tiled reduction"
    echo
    echo "Written by \`bench/mimd_fit.sh\` (one run) on this host: $(grep -m1 'model name' /proc/cpuinfo |
        cut -d: -f2 | sed 's/^ //'), \`--machine auto\`, $threads threads, kernel \`$fn\` at tile"
    echo "sizes $tiles: \`augur predict --measure\` on each, then \`augur train model --holdout 2\`"
    echo "(the core section and T_MIMD's a fitted on half the datasets, the errors reported on"
    echo "both halves; docs/cli/train.md). a ranges over 1 ns to 1 ms: at the bottom of the"
    echo "range, the runs hold no cost of T_MIMD's form (a threads / avg_MIMD)."
    echo
    echo '```'
    sed "s|$tmp/||" "$tmp/fit.txt"
    echo '```'
} >"$out"
cat "$out"
