#!/bin/bash
# features.sh - speed of 'augur data info': the exact clustering coefficient
# (and the other stages) on road_usa_FLA and snap_email-Enron (symmetric), and
# snap_wiki-Vote (directed: both coefficients, with the transpose), best of 3
# runs, from the timings that 'augur data info --json' reports. One thread.
# Usage: bench/features.sh [AUGUR_BIN] (default build/augur; AUGUR_DATASETS
# names the datasets folder, default ../shared/datasets beside the checkout).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
augur=${1:-${AUGUR_BIN:-$top/build/augur}}
data=${AUGUR_DATASETS:-$top/../shared/datasets}/mtx
runs=3
export OMP_NUM_THREADS=1

[ -x "$augur" ] || { echo "features.sh: no augur binary at $augur" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%-17s %8s %8s %9s %7s %7s %10s %9s %9s %9s\n' dataset nodes edges triangles \
    "load s" "csr s" "features s" "cluster s" "C undir" "C dir"
for f in road_usa_FLA.mtx.gz snap_email-Enron.mtx snap_wiki-Vote.mtx; do
    [ -f "$data/$f" ] || { echo "features.sh: missing $data/$f" >&2; exit 1; }
    for r in $(seq $runs); do
        "$augur" --json data info "$data/$f" >"$tmp/$r.json"
    done
    python3 - "$f" "$tmp" "$runs" <<'PY'
import json, sys
name, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
docs = [json.load(open("%s/%d.json" % (tmp, r + 1))) for r in range(runs)]
best = {k: min(d["timing"][k] for d in docs) for k in ("load", "csr", "features", "clustering")}
cc = docs[0]["clustering"]["undirected"]
dc = docs[0]["clustering"].get("directed")
print("%-17s %8d %8d %9d %7.3f %7.3f %10.4f %9.4f %9.6f %9s" % (
    name.split(".")[0], cc["nodes"], cc["edges"], cc["triangles"], best["load"], best["csr"],
    best["features"], best["clustering"], cc["value"], "%.6f" % dc["value"] if dc else "-"))
PY
done
echo "best of $runs runs; 'cluster s' is the exact coefficient (symmetrise, orient, count)."
