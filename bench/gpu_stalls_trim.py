#!/usr/bin/env python3
"""gpu_stalls_trim.py - the compact table of bench/gpu_stalls.sh: per launch,
its dataset (from bench_gpu_measure's rows, in launch order), time, the
global loads' requests, sectors and wavefronts, the L1 hit rate, the busiest
SM's active cycles, the instructions per warp and the cycles a warp waits
between two instructions, in all and for the two stall reasons of memory
(long scoreboard: a load's result; lg throttle: the load queue full).

usage: bench/gpu_stalls_trim.py STALLS-RAW.CSV STALLS_APP.CSV > stalls.csv
"""
import csv
import sys

COLUMNS = [  # (name, ncu metric)
    ("seconds", "gpu__time_duration.sum"),
    ("load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("load_wavefronts", "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum"),
    ("l1_hit_pct", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"),
    ("sm_cycles_max", "sm__cycles_active.max"),
    ("instructions", "smsp__inst_executed.sum"),
    ("cycles_per_issue", "smsp__average_warp_latency_per_inst_issued.ratio"),
    ("long_scoreboard", "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
    ("lg_throttle", "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio"),
    ("warps_active_pct", "sm__warps_active.avg.pct_of_peak_sustained_active"),
]
SCALE = {"us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3, "ns": 1e-9, "nsecond": 1e-9}


def main():
    raw = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith("==")]
    head, units, rows = raw[0], raw[1], raw[2:]
    col = {h: i for i, h in enumerate(head)}
    launches = [r for r in csv.DictReader(l for l in open(sys.argv[2]) if l.strip() and not l.startswith("=="))
                if r.get("check") == "ok"]
    if len(launches) != len(rows):
        sys.exit("gpu_stalls_trim: %d launches read, %d ran" % (len(rows), len(launches)))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["dataset", "kernel", "grid", "block"] + [c for c, _ in COLUMNS])
    for app, r in zip(launches, rows):
        vals = []
        for name, metric in COLUMNS:
            i = col.get(metric)
            v = r[i].replace(",", "") if i is not None else ""
            if v:
                x = float(v) * (SCALE.get(units[i], 1.0) if name == "seconds" else 1.0)
                v = "%.6g" % x
            vals.append(v)
        grid = r[col["Grid Size"]].strip("()").split(",")[0]
        block = r[col["Block Size"]].strip("()").split(",")[0]
        out.writerow([app["dataset"], app["kernel"], grid, block] + vals)


main()
