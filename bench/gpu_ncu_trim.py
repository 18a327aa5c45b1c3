#!/usr/bin/env python3
"""gpu_ncu_trim.py - Nsight Compute raw CSV (ncu --import R --csv --page raw)
to the compact table bench/gpu_compare.sh reads: one row per launch, the
counters of bench/gpu_measure.sh in base units (seconds, bytes, sectors,
hertz), and the dataset each launch ran on.

usage: gpu_ncu_trim.py NCU_RAW.csv TIMES.csv > NCU.csv
The dataset of a launch comes from a "dataset" first column when the raw
file has one (the BFS file), else from TIMES.csv: bench_gpu_measure runs one
launch per "ok" row of spmv, spmvv, fv1 and fv2, in that order.
"""
import csv
import sys

COLUMNS = [  # (output name, ncu metric)
    ("seconds", "gpu__time_duration.sum"),
    ("dram_read_bytes", "dram__bytes_read.sum"),
    ("dram_write_bytes", "dram__bytes_write.sum"),
    ("l2_read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("l2_read_hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
    ("l2_read_misses", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"),
    ("l2_write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum"),
    ("l1_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("l1_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("l1_hit_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
    ("instructions", "smsp__inst_executed.sum"),
    ("global_loads", "smsp__inst_executed_op_global_ld.sum"),
    ("warps_active_pct", "sm__warps_active.avg.pct_of_peak_sustained_active"),
    ("sm_hz", "sm__cycles_elapsed.avg.per_second"),
    ("dram_hz", "dram__cycles_elapsed.avg.per_second"),
]
SCALE = {"": 1, "byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "sector": 1,
         "request": 1, "inst": 1, "%": 1, "ns": 1e-9, "us": 1e-6, "usecond": 1e-6,
         "ms": 1e-3, "msecond": 1e-3, "s": 1, "second": 1, "nsecond": 1e-9,
         "hz": 1, "khz": 1e3, "mhz": 1e6, "ghz": 1e9, "cycle/second": 1,
         "cycle/nsecond": 1e9, "cycle/usecond": 1e6, "warp": 1}  # ncu's units, lower-cased


def kernel_of(name):
    for prefix, short in (("spmv_csr_vector", "spmvv"), ("spmv", "spmv"), ("fv_kernel1", "fv1"),
                          ("fv_kernel2", "fv2"),
                          ("bfs", "bfs")):
        if name.startswith(prefix):
            return short
    return name.split("(")[0]


def main():
    raw = list(csv.reader(open(sys.argv[1])))
    if not raw:
        return
    header, units, rows = raw[0], raw[1], raw[2:]
    has_dataset = header[0] == "dataset"
    launches = []
    if not has_dataset:
        for r in csv.DictReader(open(sys.argv[2])):
            if r["check"] == "ok" and r["kernel"] in ("spmv", "spmvv", "fv1", "fv2"):
                launches.append(r["dataset"])
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["dataset", "kernel", "launch", "block", "grid"] + [c for c, _ in COLUMNS])
    seen = {}
    for i, r in enumerate(rows):
        rec = dict(zip(header, r))
        kernel = kernel_of(rec["Kernel Name"])
        dataset = rec["dataset"] if has_dataset else launches[i]
        seen[(dataset, kernel)] = seen.get((dataset, kernel), 0) + 1
        values = []
        for _, metric in COLUMNS:
            j = header.index(metric)
            v = r[j].replace(",", "")
            values.append("%.6g" % (float(v) * SCALE[units[j].lower()]) if v not in ("", "n/a") else "")
        out.writerow([dataset, kernel, seen[(dataset, kernel)],
                      rec["Block Size"].strip("()").replace(", ", "x"),
                      rec["Grid Size"].strip("()").replace(", ", "x")] + values)


if __name__ == "__main__":
    main()
