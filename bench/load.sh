#!/bin/bash
# load.sh - Matrix Market load throughput of 'augur data info': MB/s of
# uncompressed text, one core, best of 5 runs, on the largest road graph
# (road_usa_NE, inflated into a temporary plain .mtx first), fb100_MIT8
# (both pattern) and ss_bcsstk16 (the largest real-valued file).
# "parse" is what 'augur data info --json' reports as seconds.parse: reading
# the file and parsing it; "load" adds seconds.build (sorting, merging).
# "warm" is the parser alone on text already in memory, with its memory
# already mapped (bench/parse_mtx.c, built against the libaugur.a beside
# AUGUR_BIN; "-" when that cannot be built), best of 10.
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
for f in fb100_MIT8.mtx ss_bcsstk16.mtx; do
    [ -f "$data/$f" ] || { echo "load.sh: missing $data/$f" >&2; exit 1; }
done
gzip -dc "$data/road_usa_NE.mtx.gz" >"$tmp/road_usa_NE.mtx"

lib=$(dirname "$augur")/libaugur.a
warm=""
if [ -f "$lib" ] && ${CC:-cc} -O2 -I"$top/include" "$top/bench/parse_mtx.c" "$lib" -lz -ljansson \
    -lyaml -lm -lpthread -fopenmp -o "$tmp/parse_mtx" 2>"$tmp/cc.log"; then
    warm="$tmp/parse_mtx"
fi

printf '%-16s %7s %9s %8s %10s %8s %9s %10s\n' dataset MB entries "parse s" "parse MB/s" \
    "build s" "load MB/s" "warm MB/s"
for f in "$tmp/road_usa_NE.mtx" "$data/fb100_MIT8.mtx" "$data/ss_bcsstk16.mtx"; do
    for r in $(seq $runs); do
        "$augur" --json data info "$f" >"$tmp/$r.json"
    done
    if [ -n "$warm" ]; then "$warm" "$f" 10 >"$tmp/warm.txt"; else echo - >"$tmp/warm.txt"; fi
    python3 - "$f" "$tmp" "$runs" <<'PY'
import json, os, sys
path, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
w = open(tmp + "/warm.txt").read().split()
warm = "%10.0f" % (int(w[0]) / 1e6 / float(w[1])) if len(w) == 3 else "%10s" % "-"
docs = [json.load(open("%s/%d.json" % (tmp, r + 1))) for r in range(runs)]
nbytes = docs[0]["bytes"]
parse = min(d["timing"]["parse"] for d in docs)
build = min(d["timing"]["build"] for d in docs)
load = min(d["timing"]["parse"] + d["timing"]["build"] for d in docs)
name = os.path.basename(path).replace(".mtx", "")
print("%-16s %7.1f %9d %8.4f %10.0f %8.4f %9.0f %s" % (
    name, nbytes / 1e6, docs[0]["entries_read"], parse, nbytes / 1e6 / parse, build,
    nbytes / 1e6 / load, warm))
PY
done
