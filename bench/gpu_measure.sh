#!/bin/bash
# gpu_measure.sh - times augur's CUDA kernels on every dataset given and reads
# their Nsight Compute counters (run on a machine with an NVIDIA GPU; nothing
# here needs augur's build dependencies beyond bench_gpu_measure itself).
#
# usage: bench/gpu_measure.sh BENCH_GPU_MEASURE OUTDIR DATASET...
#
# Writes to OUTDIR:
#   gpu.csv        nvidia-smi: the GPU, its clocks and memory
#   times.csv      bench_gpu_measure, 20 launches each (L2 warm after the first),
#                  the fastest; BFS: all rounds of one search, host round trips
#                  included
#   ncu.csv        spmv, spmvv, fv1, fv2: one launch each, caches flushed first (ncu's
#                  default --cache-control all), the counters below, one row per
#                  launch (bench/gpu_ncu_trim.py of ncu-raw.csv)
#   ncu_bfs.csv    bfs: rounds 1 to $BFS_ROUNDS (default 12) of the datasets in
#                  $BFS_DATASETS (default: all), same counters (of ncu_bfs-raw.csv)
# $KERNELS (default spmv,spmvv,bfs,fv1,fv2) limits the kernels run.
# bench/gpu_compare.py reads them. The CSVs of a run are committed under
# bench/gpu/ so the comparison re-runs without a GPU.
set -u
bin=$1 out=$2
shift 2
mkdir -p "$out"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,smsp__inst_executed.sum
metrics+=,smsp__inst_executed_op_global_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,memory.total,driver_version \
    --format=csv >"$out/gpu.csv" 2>&1
kernels=${KERNELS:-spmv,spmvv,bfs,fv1,fv2}
"$bin" --reps 20 --kernels "$kernels" "$@" >"$out/times.csv"
# the kernels Nsight Compute reads one launch of (BFS: below, round by round)
once=$(tr ',' '\n' <<<"$kernels" | grep -v '^bfs$' | paste -sd, -)

ncu_csv() { # REPORT.ncu-rep -> raw CSV, one row per launch
    ncu --import "$1" --csv --page raw
}
here=$(dirname "$0")
if [ -n "$once" ]; then
    ncu --clock-control none --metrics "$metrics" -k regex:'spmv|fv_kernel' -o "$out/k" -f \
        "$bin" --reps 1 --kernels "$once" "$@" >"$out/ncu_app.csv" 2>"$out/ncu.log" &&
        ncu_csv "$out/k.ncu-rep" >"$out/ncu-raw.csv"
fi
rm -f "$out/k.ncu-rep"

first=1
grep -qw bfs <<<"$kernels" || BFS_DATASETS=none
for d in ${BFS_DATASETS:-"$@"}; do
    [ "$d" = none ] && break
    ncu --clock-control none --metrics "$metrics" -k regex:bfs --launch-count "${BFS_ROUNDS:-12}" \
        -o "$out/b" -f "$bin" --kernels bfs "$d" >>"$out/ncu_app.csv" 2>>"$out/ncu.log" || continue
    # One header for all datasets; a dataset column in front of each row.
    ncu_csv "$out/b.ncu-rep" | awk -v d="$(basename "$d")" -v first=$first -F, '
        NR <= 2 { if (first) print (NR == 1 ? "\"dataset\"," : "\"\",") $0; next }
        { print "\"" d "\"," $0 }' >>"$out/ncu_bfs-raw.csv"
    first=0
    rm -f "$out/b.ncu-rep"
done
# The compact tables (base units, a dataset column) that are committed.
[ -s "$out/ncu-raw.csv" ] && python3 "$here/gpu_ncu_trim.py" "$out/ncu-raw.csv" "$out/times.csv" >"$out/ncu.csv"
[ ! -s "$out/ncu_bfs-raw.csv" ] ||
    python3 "$here/gpu_ncu_trim.py" "$out/ncu_bfs-raw.csv" "$out/times.csv" >"$out/ncu_bfs.csv"
