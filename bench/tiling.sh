#!/bin/bash
# tiling.sh - the tiling-and-grouping statistics of 'augur data info
# --tile-size' (runtime/rt_tiling.c, docs/tiling.md): (1) every shared
# dataset (27 Matrix Market files, 6 meshes) at tile size 1024, with the time
# the computation took (the best of 3 runs); (2) SIMD utilization and
# avg_MIMD against tile size 128..8192 on six datasets, as in Zhu et al. PACT'19
# Fig. 4 and Fig. 9, and the b of Zhu et al. PACT'19 eq. 5 that each point implies.
# Full patterns (both triangles of symmetric data).
# Usage: bench/tiling.sh [AUGUR_BIN] (default build/augur; AUGUR_DATASETS
# names the datasets folder, default ../shared/datasets beside the checkout).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
augur=${1:-${AUGUR_BIN:-$top/build/augur}}
data=${AUGUR_DATASETS:-$top/../shared/datasets}
runs=3
export OMP_NUM_THREADS=1

[ -x "$augur" ] || { echo "tiling.sh: no augur binary at $augur" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

info() { # info FILE TILE OUT
    "$augur" --json data info --no-clustering --tile-size "$2" "$1" >"$3"
}

echo "## every dataset at tile size 1024 (time: best of $runs)"
printf '%-30s %9s %9s %7s %8s %6s %7s %8s %9s %8s\n' dataset nodes edges tiles groups \
    "SIMD" tgroups avg_MIMD "min/max" "time s"
files=$(cd "$data" && ls mtx/*.mtx mtx/*.mtx.gz mesh/*.msh* mesh/*.mesh mesh/*.ele.gz | sort)
for f in $files; do
    for r in $(seq $runs); do
        info "$data/$f" 1024 "$tmp/$r.json"
    done
    python3 - "$f" "$tmp" "$runs" <<'PY'
import json, sys
name, tmp, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
full = [json.load(open("%s/%d.json" % (tmp, r + 1))) for r in range(runs)]
docs = [d["tiling"] for d in full]
t = docs[0]
best = min(d["timing"]["tiling"] for d in full)
print("%-30s %9d %9d %7d %8d %6.3f %7d %8.2f %9s %8.4f" % (
    name.split("/")[-1][:30], t["nodes"], t["edges"], t["tiles"], t["groups"], t["simd_util"],
    t["tile_groups"], t["avg_mimd"], "%d/%d" % (t["min_tiles"], t["max_tiles"]), best))
PY
done

echo
echo "## SIMD utilization and avg_MIMD against tile size"
sizes="128 256 512 1024 2048 4096 8192"
sweep="mtx/road_usa_NY.mtx.gz mtx/walshaw_4elt.mtx mtx/ss_bcsstk16.mtx mtx/snap_email-Enron.mtx
mtx/fb100_MIT8.mtx mesh/hinge_stl_tetgen_tet.ele.gz"
for f in $sweep; do
    for t in $sizes; do
        info "$data/$f" "$t" "$tmp/$(basename "$f")-$t.json"
    done
done
python3 - "$tmp" "$sizes" $sweep <<'PY'
import json, os, sys
tmp, sizes, files = sys.argv[1], [int(s) for s in sys.argv[2].split()], sys.argv[3:]
def load(f, t):
    return json.load(open("%s/%s-%d.json" % (tmp, os.path.basename(f), t)))["tiling"]
for key, title, fmt in (("simd_util", "SIMD utilization", "%.3f"),
                        ("avg_mimd", "avg_MIMD (tiles per tile group)", "%.1f"),
                        ("tile_groups", "tile groups", "%d"),
                        ("minmax", "tiles per tile group, min/max", "%s"),
                        ("b", "eq. 5's b implied: avg_MIMD x tile size / edges", "%.3f")):
    print("\n%s\n" % title)
    print("| dataset | " + " | ".join(str(t) for t in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for f in files:
        cells = []
        for t in sizes:
            d = load(f, t)
            if key == "minmax":
                v = "%d/%d" % (d["min_tiles"], d["max_tiles"])
            elif key == "b":
                v = d["avg_mimd"] * t / d["edges"]
            else:
                v = d[key]
            cells.append(fmt % v)
        name = os.path.basename(f)
        for ext in (".mtx.gz", ".mtx", ".ele.gz"):
            name = name.replace(ext, "")
        print("| %s | %s |" % (name, " | ".join(cells)))
PY
