#!/bin/bash
# tile_sweep.sh - does `augur advise --tile` pick the tile size that runs
# fastest? The tiled-and-grouped irregular reductions (kernels/ireduce, the
# AVX-512 variant where the host has avx512f, else the tiled OpenMP one) run
# the schedule of each tile size (tiling.* bindings, docs/tiling.md). For each
# dataset one `augur advise --verify ALL` run predicts every tile size and
# times every one of them in interleaved rounds on this host; the page gets
# the predicted and measured time per tile size, the schedule's SIMD
# utilization and tiles per tile group, whether the pick is within 5 % of the
# fastest measured, and Kendall's tau of the predicted against the measured
# order, with the medians over the datasets.
#
# usage: bench/tile_sweep.sh [BUILD_DIR] [OUT.md] [REPS]
# The machine is --machine auto (this host, calibrated once and cached);
# TILE_THREADS (default 2) threads, TILE_SIZES (default 128,...,8192).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=${2:-$here/docs/results/tile-sweep.md}
reps=${3:-20}
data=${AUGUR_DATASETS:-$here/../shared/datasets}
threads=${TILE_THREADS:-2}
tiles=${TILE_SIZES:-128,256,512,1024,2048,4096,8192}
sets=${TILE_SETS:-"$data/mtx/road_usa_NY.mtx.gz $data/mtx/walshaw_wing.mtx $data/mtx/snap_email-Enron.mtx $data/mesh/hinge_stl_tetgen_tet.ele.gz"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file, fn, flags, bind: the tiled reduction this host runs
# shellcheck source=bench/tiled_kernel.sh
. "$here/bench/tiled_kernel.sh"
ntiles=$(echo "$tiles" | tr ',' '\n' | wc -l)

for d in $sets; do
    name=$(basename "$d")
    echo "tile_sweep: $name" >&2
    "$build/augur" --json advise "$file" --function "$fn" --data "$d" --bind "$bind" \
        --threads "$threads" --schedule source --tile "$tiles" --verify "$ntiles" \
        --reps "$reps" --rounds 3 --quiet -- "${flags[@]}" >"$tmp/$name.json"
done

python3 - "$tmp" "$out" "$fn" "$threads" "$reps" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" <<'PY'
import glob, json, os, statistics, sys
tmp, out, fn, threads, reps, cpu = sys.argv[1:7]
rows, within, taus = [], 0, []
for path in sorted(glob.glob(os.path.join(tmp, "*.json"))):
    d = json.load(open(path))
    name = os.path.basename(path)[:-5]
    ranked = sorted(d["ranked"], key=lambda c: c["tile"])
    best = min(c["measured"] for c in ranked)
    pick = d["ranked"][0]
    ok = pick["measured"] <= 1.05 * best
    within += ok
    taus.append(d["kendall_tau"])
    rows.append((name, ranked, pick, best, ok, d["kendall_tau"], d["machine"]))
with open(out, "w") as f:
    f.write("# Tile sizes: predicted against measured\n\n")
    f.write("Written by `bench/tile_sweep.sh` (one run, %s x %s repetitions in 3 interleaved\n" % (len(rows[0][1]) if rows else 0, reps))
    f.write("rounds per dataset) on this host: %s, `--machine auto`, %s threads, kernel\n" % (cpu, threads))
    f.write("`%s` running the schedule of each tile size (docs/tiling.md).\n\n" % fn)
    f.write("The pick is within 5 %% of the fastest measured tile size on %d of %d datasets;\n" % (within, len(rows)))
    f.write("Kendall's tau of the predicted against the measured order: median %.2f.\n\n" % (statistics.median(taus) if taus else 0))
    for name, ranked, pick, best, ok, tau, machine in rows:
        f.write("## %s\n\n" % name)
        f.write("pick: tile %d (measured %.3g ms, %s the fastest, %.3g ms); tau %.2f\n\n" % (
            pick["tile"], 1e3 * pick["measured"], "within 5 % of" if ok else "%.0f %% above" % (100 * (pick["measured"] / best - 1)), 1e3 * best, tau))
        f.write("| tile | SIMD utilization | tiles per tile group | predicted ms | measured ms | error |\n|---|---|---|---|---|---|\n")
        for c in ranked:
            f.write("| %d | %.3f | %.3g | %.3f | %.3f | %+.1f %% |\n" % (c["tile"], c["simd_util"], c["avg_mimd"], 1e3 * c["predicted"], 1e3 * c["measured"], 100 * (c["predicted"] / c["measured"] - 1)))
        f.write("\n")
print(open(out).read())
PY
