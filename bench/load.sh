#!/bin/bash
# load.sh - Matrix Market load throughput of 'augur data info': MB/s of
# uncompressed text, one core, best of 5 runs, on the largest road graph
# (road_usa_NE, inflated into a temporary plain .mtx first) and fb100_MIT8.
# "parse" is what 'augur data info --json' reports as seconds.parse: reading
# the file and parsing it; "load" adds seconds.build (sorting, merging).
# Usage: bench/load.sh [AUGUR_BIN] (default build/augur; AUGUR_DATASETS
# names the datasets folder, default ../shared/datasets beside the checkout).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
augur=${1:-${AUGUR_BIN:-$top/build/augur}}
data=${AUGUR_DATASETS:-$top/../shared/datasets}/mtx
runs=5
export OMP_NUM_THREADS=1

[ -x "$augur" ] || { echo "load.sh: no augur binary at $augur" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f "$data/road_usa_NE.mtx.gz" ] || { echo "load.sh: missing $data/road_usa_NE.mtx.gz" >&2; exit 1; }
[ -f "$data/fb100_MIT8.mtx" ] || { echo "load.sh: missing $data/fb100_MIT8.mtx" >&2; exit 1; }
gzip -dc "$data/road_usa_NE.mtx.gz" >"$tmp/road_usa_NE.mtx"

printf '%-16s %8s %10s %9s %10s %9s %10s\n' dataset MB entries "parse s" "parse MB/s" \
    "build s" "load MB/s"
for f in "$tmp/road_usa_NE.mtx" "$data/fb100_MIT8.mtx"; do
    for r in $(seq $runs); do
        "$augur" --json data info "$f" >"$tmp/$r.json"
    done
    python3 - "$f" "$tmp" "$runs" <<'PY'
import json, os, sys
path, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
docs = [json.load(open("%s/%d.json" % (tmp, r + 1))) for r in range(runs)]
nbytes = docs[0]["bytes"]
parse = min(d["seconds"]["parse"] for d in docs)
build = min(d["seconds"]["build"] for d in docs)
load = min(d["seconds"]["parse"] + d["seconds"]["build"] for d in docs)
name = os.path.basename(path).replace(".mtx", "")
print("%-16s %8.1f %10d %9.4f %10.0f %9.4f %10.0f" % (
    name, nbytes / 1e6, docs[0]["entries_read"], parse, nbytes / 1e6 / parse, build,
    nbytes / 1e6 / load))
PY
done
