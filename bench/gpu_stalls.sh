#!/bin/bash
# gpu_stalls.sh - why a CUDA kernel's warps wait: Nsight Compute's warp-state,
# memory and occupancy sections on one launch each of spmv and fv2 (caches
# flushed first, ncu's default) per dataset, on a machine with an NVIDIA GPU.
#
# usage: bench/gpu_stalls.sh BENCH_GPU_MEASURE OUTDIR DATASET...
#
# Writes OUTDIR/stalls-raw.csv (every metric, one row per launch),
# OUTDIR/stalls_app.csv (bench_gpu_measure's rows: which dataset each launch
# ran) and OUTDIR/stalls.csv (bench/gpu_stalls_trim.py: the columns
# docs/results.md reads, a dataset column in front). FV launches run where
# the ELLPACK is at most 16 wide, as in bench/gpu_measure.sh.
set -u
bin=$1 out=$2
shift 2
mkdir -p "$out"
here=$(dirname "$0")
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables"
sections+=" --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
metrics=gpu__time_duration.sum,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,sm__cycles_active.avg,sm__cycles_active.max,smsp__inst_executed.sum
# shellcheck disable=SC2086 # the sections are words
ncu --clock-control none $sections --metrics "$metrics" -k regex:'spmv|fv_kernel2' -o "$out/stalls" -f \
    "$bin" --reps 1 --kernels spmv,fv2 "$@" >"$out/stalls_app.csv" 2>"$out/stalls.log" &&
    ncu --import "$out/stalls.ncu-rep" --csv --page raw >"$out/stalls-raw.csv"
rm -f "$out/stalls.ncu-rep"
python3 "$here/gpu_stalls_trim.py" "$out/stalls-raw.csv" "$out/stalls_app.csv" >"$out/stalls.csv"
