#!/bin/bash
# gpu_l2req.sh - what the L2 serves per request and per sector, on a machine
# with an NVIDIA GPU: bench_gpu_l2req's warps load random lines of a buffer
# the L2 holds, 32 one-sector requests per load (a gather) or one request of
# 1, 2 or 4 sectors (coalesced), 8 loads of a warp in flight.
#
# usage: bench/gpu_l2req.sh BENCH_GPU_L2REQ OUT [MIB...]   (default 16 MiB)
set -u
bin=$1 out=$2
shift 2
mkdir -p "$out"
for mib in "${@:-16}"; do
    "$bin" "$mib" | tee "$out/l2req-${mib}mib.csv"
done
