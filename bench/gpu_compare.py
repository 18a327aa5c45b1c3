#!/usr/bin/env python3
"""gpu_compare.py - augur's GPU simulation and prediction against a GPU run
of bench/gpu_measure.sh (its CSVs are committed under bench/gpu/, so this
runs without a GPU).

usage: bench/gpu_compare.py AUGUR MACHINE RUNDIR DATASETS [--bfs-max N] [--only NAME]

For every launch of spmv, fv1 and fv2 that Nsight Compute read (RUNDIR/ncu.csv,
caches flushed first) it runs `augur simulate` (cold) and compares the warp
load instructions, L1 sectors, sectors L2 sent to L1 and DRAM bytes read;
then `augur predict --cold` less one launch (the machine's launch_us) plus
ncu's time for an empty kernel (RUNDIR/ncu-empty.txt) against ncu's kernel
time, and `augur predict`
(a warm call) against the fastest timed launch (RUNDIR/times*.csv, 20 each).
BFS rounds that ncu read (RUNDIR/ncu_bfs.csv) are simulated and predicted
one by one (`--round R`, cold); a whole BFS is predicted where rows x
rounds <= N (default 3e7). Errors are
Zhu et al.'s eq. 7, |predicted - measured| / measured.
"""
import csv
import json
import os
import statistics
import subprocess
import sys

KERNELS = {  # name: (source, function)
    "spmv": ("kernels/spmv/cuda.cu", "spmv_csr_scalar_kernel"),
    "spmvv": ("kernels/spmv/cuda.cu", "spmv_csr_vector_kernel"),
    "fv1": ("kernels/fv/cuda.cu", "fv_kernel1"),
    "fv2": ("kernels/fv/cuda.cu", "fv_kernel2"),
    "bfs": ("kernels/bfs/cuda.cu", "bfs_topo_kernel"),
}


def find_data(root, name):
    for sub in ("mtx", "mesh", ""):
        for cand in (name, name[:-3] if name.endswith(".gz") else name + ".gz"):
            p = os.path.join(root, sub, cand)
            if os.path.exists(p):
                return p
    return None


def augur(binary, args):
    r = subprocess.run([binary, "--json"] + args, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"error": (r.stderr or r.stdout).strip()}


def err(pred, meas):
    return abs(pred - meas) / meas if meas else float("nan")


def pct(x):
    return "-" if x != x else "%.1f" % (100 * x)


def model_seconds(doc, name):
    for m in doc.get("models", []):
        if m.get("name") == name:
            return m.get("seconds") or 0.0
    return 0.0


def main():
    argv = sys.argv[1:]
    opts = {"--bfs-max": "3e7", "--only": ""}
    for k in list(opts):
        if k in argv:
            i = argv.index(k)
            opts[k] = argv[i + 1]
            del argv[i:i + 2]
    if len(argv) != 4:
        sys.exit(__doc__)
    binary, machine, rundir, dataroot = argv
    # Nsight Compute's time is the kernel's on the GPU: the cold predictions less one launch
    # between CUDA events (the machine's launch_us), plus what ncu times an empty kernel at
    # (RUNDIR/ncu-empty.txt: its median)
    launch = 0.0
    for line in open(machine):
        if line.strip().startswith("launch_us:"):
            launch = float(line.split(":")[1].split("#")[0]) * 1e-6
    empty = os.path.join(rundir, "ncu-empty.txt")
    if os.path.exists(empty):
        v = sorted(float(x) for l in open(empty) if not l.startswith("#") for x in l.split())
        launch -= statistics.median(v) * 1e-9
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # every timed run of the directory (times.csv, times2.csv, ...): the fastest of them
    times = {}
    for f in sorted(os.listdir(rundir)):
        if f.startswith("times") and f.endswith(".csv"):
            for r in csv.DictReader(open(os.path.join(rundir, f))):
                old = times.get((r["dataset"], r["kernel"]))
                if r["check"] == "ok" and (not old or float(r["seconds"]) < float(old["seconds"])):
                    times[(r["dataset"], r["kernel"])] = r
    ncu = [r for r in csv.DictReader(open(os.path.join(rundir, "ncu.csv")))]
    errs = {}

    def note(key, e):
        if e == e:
            errs.setdefault(key, []).append(e)

    print("| dataset | kernel | loads ncu | augur | L1 sectors ncu | augur | L2->L1 sectors ncu | augur "
          "| DRAM read MB ncu | augur | cold us ncu | augur | warm us measured | augur | bottleneck |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in ncu:
        ds, k = r["dataset"], r["kernel"]
        if opts["--only"] and opts["--only"] not in ds:
            continue
        path = find_data(dataroot, ds)
        if not path or k not in KERNELS:
            continue
        file, fn = KERNELS[k]
        common = [os.path.join(src, file), "--function", fn, "--data", path, "--machine", machine]
        sim = augur(binary, ["simulate"] + common)
        cold = augur(binary, ["predict", "--cold"] + common)
        warm = augur(binary, ["predict"] + common)
        if "error" in sim or "error" in cold or "error" in warm:
            print("| %s | %s | error: %s |" % (ds, k, (sim.get("error") or cold.get("error") or
                                                  warm.get("error"))[:100]))
            continue
        l1, mem = sim["levels"][0], sim["levels"][-1]
        row = {
            "loads": (float(r["global_loads"]), sim["warp_loads"]),
            "l1": (float(r["l1_sectors"]), l1["sector_accesses"] - l1["sector_writes"]),
            "l2": (float(r["l2_read_sectors"]), l1["fill_bytes"] / 32),
            "dram": (float(r["dram_read_bytes"]), mem["fill_bytes"]),
            "cold": (float(r["seconds"]), cold["seconds"] - launch),
        }
        t = times.get((ds, k))
        warm_meas = float(t["seconds"]) if t and t["check"] == "ok" else float("nan")
        row["warm"] = (warm_meas, warm["seconds"])
        for key, (m, p) in row.items():
            note(key, err(p, m))
        note("warm-bw", err(model_seconds(warm, "bw"), warm_meas))
        note("cold-bw", err(model_seconds(cold, "bw") - launch, float(r["seconds"])))
        print("| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %s |" % (
            ds, k, row["loads"][0], row["loads"][1], row["l1"][0], row["l1"][1], row["l2"][0],
            row["l2"][1], row["dram"][0] / 1e6, row["dram"][1] / 1e6, row["cold"][0] * 1e6,
            row["cold"][1] * 1e6, row["warm"][0] * 1e6, row["warm"][1] * 1e6, warm["bottleneck"]))
        sys.stdout.flush()

    print()
    print("| dataset | BFS round | loads ncu | augur | DRAM read KB ncu | augur | cold us ncu | augur | bottleneck |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    bfs_path = os.path.join(rundir, "ncu_bfs.csv")
    for r in (csv.DictReader(open(bfs_path)) if os.path.exists(bfs_path) else []):
        ds, rnd = r["dataset"], r["launch"]
        if opts["--only"] and opts["--only"] not in ds:
            continue
        path = find_data(dataroot, ds)
        if not path:
            continue
        common = [os.path.join(src, KERNELS["bfs"][0]), "--data", path, "--machine", machine,
                  "--source", "maxdeg", "--round", rnd]
        sim = augur(binary, ["simulate"] + common)
        p = augur(binary, ["predict", "--cold"] + common)
        if "error" in sim or "error" in p:
            print("| %s | %s | error: %s |" % (ds, rnd, (sim.get("error") or p.get("error"))[:100]))
            continue
        note("bfs-round-dram", err(sim["levels"][-1]["fill_bytes"], float(r["dram_read_bytes"])))
        note("bfs-round", err(p["seconds"] - launch, float(r["seconds"])))
        print("| %s | %s | %.0f | %.0f | %.1f | %.1f | %.2f | %.2f | %s |" % (
            ds, rnd, float(r["global_loads"]), sim["warp_loads"], float(r["dram_read_bytes"]) / 1e3,
            sim["levels"][-1]["fill_bytes"] / 1e3, float(r["seconds"]) * 1e6, (p["seconds"] - launch) * 1e6,
            p["bottleneck"]))
        sys.stdout.flush()

    print()
    print("| dataset | rounds | rows | measured ms | augur ms | error % | bottleneck |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for (ds, k), t in sorted(times.items()):
        if k != "bfs" or t["check"] != "ok":
            continue
        if opts["--only"] and opts["--only"] not in ds:
            continue
        rows, rounds = int(t["rows"]), int(t["rounds"])
        path = find_data(dataroot, ds)
        if not path or rows * rounds > float(opts["--bfs-max"]):
            continue
        file, fn = KERNELS["bfs"]
        p = augur(binary, ["predict", os.path.join(src, file), "--data", path, "--machine", machine,
                           "--source", "maxdeg"])
        if "error" in p:
            print("| %s | error: %s |" % (ds, p["error"][:100]))
            continue
        e = err(p["seconds"], float(t["seconds"]))
        note("bfs", e)
        print("| %s | %d | %d | %.3f | %.3f | %s | %s |" % (ds, rounds, rows, float(t["seconds"]) * 1e3,
                                                          p["seconds"] * 1e3, pct(e), p["bottleneck"]))
        sys.stdout.flush()

    print()
    print("| quantity | cases | median error % | p90 error % |")
    print("|---|---:|---:|---:|")
    names = {"loads": "warp load instructions", "l1": "L1 sectors loaded",
             "l2": "sectors L2 sent to L1", "dram": "DRAM bytes read",
             "cold": "time, cold caches (Model 2, selected)", "cold-bw": "time, cold caches (Model 1)",
             "warm": "time, warm call (Model 2, selected)", "warm-bw": "time, warm call (Model 1)",
             "bfs-round-dram": "BFS round, DRAM bytes read", "bfs-round": "BFS round, cold (Model 2)",
             "bfs": "whole BFS (Model 2, selected)"}
    for key, label in names.items():
        v = sorted(errs.get(key, []))
        if v:
            p90 = v[min(len(v) - 1, int(0.9 * len(v)))]
            print("| %s | %d | %s | %s |" % (label, len(v), pct(statistics.median(v)), pct(p90)))


if __name__ == "__main__":
    main()
