#!/bin/bash
# sampling_blocks.sh - Random Row Blocks (rb) alone, for one or more augur
# builds (e.g. builds that differ in AUGUR_RB_BLOCKS, or in how the sample
# is numbered): the mean L1 and L2 miss-rate errors (Zhu et al. PACT'19 eq. 7, 5 %
# samples, 5 seeds) of spmv, fv and ireduce over the shared datasets, and
# over the meshes numbered without locality apart (docs/sampling.md).
#
#   bench/sampling_blocks.sh AUGUR_BIN [AUGUR_BIN...]
#
# The datasets come from $AUGUR_DATASETS (default ../shared/datasets beside
# the checkout), $SAMPLING_ONLY (a regular expression on the file names)
# limits them; extra options for 'augur data sample --evaluate' can be
# given in $SAMPLING_OPTS. Takes about a minute per build on the
# development VM.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || {
    echo "usage: bench/sampling_blocks.sh AUGUR_BIN [AUGUR_BIN...]" >&2
    exit 2
}
data=${AUGUR_DATASETS:-$top/../shared/datasets}
machine=$top/samples/machines/dev-xeon-2vcpu.yml
opts=${SAMPLING_OPTS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/datasets.sh
. "$top/bench/datasets.sh"
dataset_files "$data" sampling_blocks.sh

b=0
for augur in "$@"; do
    b=$((b + 1))
    i=0
    for f in "${files[@]}"; do
        i=$((i + 1))
        echo "[$b: $i/${#files[@]}] $(basename "$f")" >&2
        # shellcheck disable=SC2086
        "$augur" --json data sample "$f" --evaluate --machine "$machine" --method rb --seeds 5 \
            --kernel all --rate 0.05 $opts >"$tmp/$b.$i.json"
    done
done

python3 - "$tmp" "${#files[@]}" "$@" <<'EOF'
import json, sys
tmp, n, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
kernels = ["spmv", "fv", "ireduce"]
unordered = ("walshaw_wing", "frame_step", "gmsh_t13", "hinge", "mfem_indheat", "mfem_piece", "sfepy")
print("| build | group | spmv L1 / L2 | fv L1 / L2 | ireduce L1 / L2 | the three, L1 / L2 |")
print("|---|---|---|---|---|---|")
for b, augur in enumerate(bins, 1):
    evs = [json.load(open("%s/%d.%d.json" % (tmp, b, i))) for i in range(1, n + 1)]
    groups = [("all %d" % n, evs),
              ("unordered meshes", [e for e in evs if e["file"].rsplit("/", 1)[-1].startswith(unordered)]),
              ("the others", [e for e in evs if not e["file"].rsplit("/", 1)[-1].startswith(unordered)])]
    for g, es in groups:
        if not es:
            continue
        cells, tot = [], {"L1": 0.0, "L2": 0.0}
        for k in kernels:
            m = {}
            for lv in ("L1", "L2"):
                v = [[x for x in e["kernels"] if x["kernel"] == k][0]["methods"][0]["error"][lv] for e in es]
                m[lv] = 100 * sum(v) / len(v)
                tot[lv] += m[lv] / 3
            cells.append("%.1f / %.1f" % (m["L1"], m["L2"]))
        print("| %s | %s | %s | %.1f / %.1f |" % (augur, g, " | ".join(cells), tot["L1"], tot["L2"]))
EOF
