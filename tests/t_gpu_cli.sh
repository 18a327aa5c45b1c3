#!/bin/bash
# t_gpu_cli.sh - end-to-end tests of a CUDA kernel's occupancy (--regs,
# --smem, the kernel's static shared memory, the limits that refuse a
# launch) and of --ncu (predict and simulate): an H100's Nsight Compute
# counts of the CUDA SpMV on the bundled matrix (tests/data/ncu/) beside
# augur's, in text and JSON, from both pages of ncu's CSV, from a saved
# profile, and without the machine's empty_kernel_us. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

h100=$src/samples/machines/h100-sxm.yml
raw=$src/tests/data/ncu/h100_fe_4elt2_raw.csv
details=$src/tests/data/ncu/h100_fe_4elt2_details.csv
spmv=("$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel
    --data "$src/samples/walshaw_fe_4elt2.mtx" --machine "$h100")

status "predict a CUDA kernel" 0 "$augur" predict "${spmv[@]}"
check "its occupancy: 8 blocks of 256 threads, by the warps" grep -q \
    "^occupancy: 8 blocks of 8 warps per SM, 64 warps (100 %), limited by warps; registers not given" \
    "$tmp/out"
check "its warp branches" grep -q \
    "^warp branches per call: 3266, 831 divergent (branch efficiency 74.6 %)$" "$tmp/out"
status "--regs 64" 0 "$augur" --json predict "${spmv[@]}" --regs 64
is "the workload's warp branches" "$(jq -c '.workload.gpu | [.branches, .divergent_branches]' "$tmp/out")" \
    "[3266,831]"
is "half the warps: the registers limit" "$(jq -r '.occupancy | "\(.blocks_per_sm) \(.limit)"' "$tmp/out")" \
    "4 registers"
{
    head -n 1 "$details"
    sed -n 2p "$details" | sed 's/"Command line profiler metrics","gpu__time_duration.sum","usecond","5.38"/"Source Counters","Branch Efficiency","%","80"/'
} >"$tmp/branch.csv"
status "a branch efficiency from Nsight Compute's details page" 0 "$augur" predict "${spmv[@]}" \
    --ncu "$tmp/branch.csv"
check "beside augur's" grep -Eq "^branch efficiency \(%\) +80 +74\.5[0-9]* +6\.[0-9]%$" "$tmp/out"
block_sum=("$src/tests/frontend/atomics.cu" --function block_sum --bind 'partial=vec(n)'
    --data "$src/samples/walshaw_fe_4elt2.mtx" --machine "$h100" --launch '(n + 255) / 256,256')
status "--smem 60000 beside a static __shared__ double[256]" 0 "$augur" predict "${block_sum[@]}" \
    --smem 60000
check "62048 bytes a block: three fit" grep -q \
    "^occupancy: 3 blocks of 8 warps per SM, 24 warps (38 %), limited by shared memory; registers not given (--regs N), 62048 bytes" \
    "$tmp/out"
status "a block no SM holds" 1 "$augur" predict "${block_sum[@]}" --smem 300000
check "is refused" grep -q "302048 bytes of shared memory do not fit an SM of 'NVIDIA H100 SXM5'" \
    "$tmp/err"
status "simulate --regs 64" 0 "$augur" simulate "${spmv[@]}" --regs 64
check "prints the occupancy" grep -q "^occupancy: 4 blocks of 8 warps per SM" "$tmp/out"
{
    head -n 2 "$details"
    sed -n 2p "$details" | sed 's/"Command line profiler metrics","gpu__time_duration.sum","usecond","5.38"/"Launch Statistics","Registers Per Thread","register\/thread","40"/'
} >"$tmp/regs.csv"
status "registers from Nsight Compute's details page" 0 "$augur" predict "${spmv[@]}" --ncu "$tmp/regs.csv"
check "take the occupancy to 6 blocks" grep -q \
    "^occupancy: 6 blocks of 8 warps per SM, 48 warps (75 %), limited by registers; 40 registers per thread from Nsight Compute's file" \
    "$tmp/out"

status "predict --cold --ncu (raw page)" 0 "$augur" predict "${spmv[@]}" --cold --ncu "$raw"
check "names the file and the launch" grep -q \
    "^Nsight Compute (h100_fe_4elt2_raw.csv): launch 0 of spmv_csr_scalar_kernel, block 256x1x1, grid 44x1x1$" \
    "$tmp/out"
check "warp loads: ncu's 8393, simulated the same" grep -Eq \
    "^warp global load instructions +8393 +8393 +0\.0%$" "$tmp/out"
check "a time row (ncu's 5.38 us)" grep -Eq "^time \(s\) +5\.38 us +[0-9.]+ [mun]?s " "$tmp/out"
check "DRAM bytes written: none measured, no error figure" grep -Eq \
    "^DRAM bytes written +0 +[0-9.e+]+ +-$" "$tmp/out"
check "no note on a warm call" bash -c "! grep -q 'a warm call' '$tmp/out'"

status "predict --ncu --json (details page)" 0 "$augur" --json predict "${spmv[@]}" --cold \
    --ncu "$details"
is "nine quantities in both" "$(jq '.ncu.metrics | length' "$tmp/out")" 9
is "the first is the time" "$(jq -r '.ncu.metrics[0].metric' "$tmp/out")" gpu__time_duration.sum
is "L1 sectors within 5 %" \
    "$(jq '[.ncu.metrics[] | select(.metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") | .error < 0.05] | .[0]' "$tmp/out")" \
    true
is "no error figure where ncu measured 0" \
    "$(jq '.ncu.metrics[] | select(.metric == "dram__bytes_write.sum") | .error' "$tmp/out")" null
is "the launch's ID" "$(jq '.ncu.id' "$tmp/out")" 0
if python3 -c 'import jsonschema' 2>/dev/null; then
    check "valid against prediction.schema.json" python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$tmp/out" \
        "$src/docs/schema/prediction.schema.json"
else
    skip "valid against prediction.schema.json" "python3-jsonschema is not installed"
fi

status "a warm prediction" 0 "$augur" predict "${spmv[@]}" --ncu "$raw"
check "says ncu flushes the caches" grep -q "Nsight Compute flushes the caches" "$tmp/out"

grep -v empty_kernel_us "$h100" >"$tmp/h100.yml"
status "a machine without empty_kernel_us" 0 "$augur" predict "${spmv[@]/$h100/$tmp/h100.yml}" \
    --cold --ncu "$raw"
check "warns that no time is compared" grep -q "gives no gpu.empty_kernel_us" "$tmp/err"
check "and compares none" bash -c "! grep -q '^time (s)' '$tmp/out'"

status "simulate --no-flush --ncu" 0 "$augur" simulate "${spmv[@]}" --no-flush --ncu "$raw"
check "no time: nothing priced" bash -c "! grep -q '^time (s)' '$tmp/out'"
check "DRAM bytes written as ncu counts them" grep -Eq "^DRAM bytes written +0 +0 +-$" \
    "$tmp/out"

status "simulate -o a profile (a warm call)" 0 "$augur" simulate "${spmv[@]}" -o "$tmp/p.json"
status "predict --profile --ncu" 0 "$augur" predict --profile "$tmp/p.json" --machine "$h100" \
    --ncu "$raw"
check "compares the saved counts" grep -Eq "^L2 sectors read by L1 +35807 " "$tmp/out"

echo "1..$n"
