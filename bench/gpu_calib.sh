#!/bin/bash
# gpu_calib.sh - measures the gpu section of a machine file on a machine with an
# NVIDIA GPU (Pai et al. AGP'17 §6.5): bench_gpu_calib's launch and round-trip costs and its
# service-time curves for L2 hits and DRAM row-buffer hits and misses, written as
# a YAML fragment with every raw number in comments, to paste under `gpu:` of
# the GPU's file in samples/machines/.
#
# usage: bench/gpu_calib.sh BENCH_GPU_CALIB OUT.yml
set -eu
"$1" >"$2.tmp"
mv "$2.tmp" "$2"
grep -v '^ *#' "$2"
