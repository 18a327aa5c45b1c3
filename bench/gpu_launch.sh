#!/bin/bash
# gpu_launch.sh - what a launch's size adds to its cost, on a machine with an
# NVIDIA GPU: bench_gpu_launch's empty kernels of 1 to 33,792 blocks of 256
# threads, between CUDA events (median of 200 each: OUT/launch.csv, with what
# each adds to a launch of one block, the machine file's launch_us) and under Nsight
# Compute (each grid 5 times: OUT/ncu_launch-raw.csv; OUT/ncu_launch.csv,
# per grid the median, least and largest gpu__time_duration).
#
# usage: bench/gpu_launch.sh BENCH_GPU_LAUNCH OUT
set -u
bin=$1 out=$2
mkdir -p "$out"
"$bin" >"$out/launch.csv"
ncu --clock-control none --metrics gpu__time_duration.sum -k regex:empty256 --csv "$bin" --ncu \
    >"$out/ncu_launch-raw.csv" 2>"$out/ncu_launch.log"
python3 - "$out/ncu_launch-raw.csv" >"$out/ncu_launch.csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("=="))]
col = {k: i for i, k in enumerate(rows[0])}
scale = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3}
times = {}
for r in rows[1:]:
    if r[col["Metric Name"]] == "gpu__time_duration.sum":
        grid = int(r[col["Grid Size"]].strip("()").split(",")[0])
        v = float(r[col["Metric Value"]].replace(",", "")) * scale[r[col["Metric Unit"]]]
        times.setdefault(grid, []).append(v)
print("blocks,threads,launches,median_seconds,min_seconds,max_seconds")
for g in sorted(times):
    t = times[g]
    print("%d,256,%d,%.4g,%.4g,%.4g" % (g, len(t), statistics.median(t), min(t), max(t)))
PY
cat "$out/launch.csv"
