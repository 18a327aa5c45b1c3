#!/bin/bash
# t_simulate.sh - end-to-end tests of 'augur simulate': counts per level, line,
# array and thread in text and JSON, OpenMP threads, whole BFS runs,
# hand-written skeletons, traces, errors, and one comparison with valgrind's
# cachegrind on a small dataset (skipped without valgrind). Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
data=${AUGUR_DATASETS:-}/mtx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
# a shipped file, not this host: the tests check the pipeline, not the host
export AUGUR_MACHINE=${AUGUR_MACHINE:-$src/samples/machines/dev-xeon-2vcpu.yml}

if [ ! -d "$data" ] || ! command -v jq >/dev/null; then
    skip "augur simulate on shared datasets" "no datasets or no jq"
    echo "1..$n"
    exit 0
fi
small=$data/walshaw_fe_4elt2.mtx # 11143 nodes, 65636 entries in full
nrows=11143
nnz=65636

# SpMV: 3 n + 3 nnz accesses (rowptr twice, val, col, x, y)
status "spmv runs" 0 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$small"
grep -q "^1 run, $((3 * nrows + 3 * nnz)) accesses" "$tmp/out" && pass "text: 3 n + 3 nnz accesses" ||
    flunk "text: 3 n + 3 nnz accesses"
grep -q "^L3 " "$tmp/out" && grep -q "^memory " "$tmp/out" && pass "text: a row per level and memory" ||
    flunk "text: a row per level and memory"
grep -q "^ref.c:13 *$((3 * nnz)) " "$tmp/out" && pass "text: line 13 makes the 3 nnz entry accesses" ||
    flunk "text: line 13 makes the 3 nnz entry accesses"
"$augur" --json simulate "$src/kernels/spmv/ref.c" --data "$small" >"$tmp/a.json"
is "json: accesses" "$(jq .accesses "$tmp/a.json")" $((3 * nrows + 3 * nnz))
is "json: L1 hits + misses = accesses" \
    "$(jq '.levels[0] | .hits + .misses == .accesses' "$tmp/a.json")" true
is "json: L2 sees L1's misses" "$(jq '.levels[1].accesses == .levels[0].misses' "$tmp/a.json")" true
is "json: per-array accesses add up" "$(jq '([.arrays[].accesses] | add) == .accesses' "$tmp/a.json")" true
is "json: x is bound to vec(m) with m elements" \
    "$(jq -r '.arrays[] | select(.name == "x") | "\(.target) \(.elements)"' "$tmp/a.json")" "vec(m) $nrows"
is "json: y's dirty lines written back" \
    "$(jq '.arrays[] | select(.name == "y") | .levels[0].writebacks' "$tmp/a.json")" \
    $(((nrows * 8 + 16 + 63) / 64))

# the branch predictor: SpMV's row loop is mispredicted at some exits (rows
# of 3 to 8 entries, each its own trip count), never more than once a row;
# a JSON entry per if or loop it missed
is "json: the row loop's mispredicted exits, at most one a row" \
    "$(jq "[.mispredicted[] | select(.kind == \"loop\" and .line == 12)] | length == 1 and .[0].mispredicted > 0 and .[0].mispredicted <= $nrows" "$tmp/a.json")" true
grep -q "^mispredicted jumps" "$tmp/out" && grep -q "^ref.c:12 *loop " "$tmp/out" &&
    pass "text: the mispredicted jumps' table names the row loop" ||
    flunk "text: the mispredicted jumps' table names the row loop"

# OpenMP: two threads, dynamic chunks of 64 rows
"$augur" --json simulate "$src/kernels/spmv/omp.c" --function spmv_csr_omp_dynamic --threads 2 \
    --data "$small" >"$tmp/b.json"
is "omp: two threads' work" "$(jq '.threads_work | length' "$tmp/b.json")" 2
is "omp: every row once" "$(jq '[.threads_work[].iterations] | add' "$tmp/b.json")" $nrows
is "omp: ceil(n / 64) chunks" "$(jq '[.threads_work[].chunks] | add' "$tmp/b.json")" $(((nrows + 63) / 64))
is "omp: the same accesses as one thread" "$(jq .accesses "$tmp/b.json")" $((3 * nrows + 3 * nnz))

# a whole BFS: every reachable node is labelled once
"$augur" --json simulate "$src/kernels/bfs/ref.c" --function bfs_topo_round_ref --rounds \
    --data "$small" >"$tmp/c.json"
is "bfs: one store per node reached but the source" \
    "$(jq '.accesses_by_node[] | select(.mode == "store") | .accesses' "$tmp/c.json")" $((nrows - 1))
is "bfs: every round reads every level" \
    "$(jq "(.accesses_by_node[0].accesses) == (.runs * $nrows)" "$tmp/c.json")" true

# a branch on a dense vector's values: vec() holds the values augur measure's driver
# gives it (in [0.5, 1.5)), so about half the elements pass x[i] > 1
cat >"$tmp/above.c" <<'EOF'
double above(int n, const double *x)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        if (x[i] > 1.0)
            s += 2.0 * x[i];
    return s;
}
EOF
"$augur" --json simulate "$tmp/above.c" --data "$small" --bind 'x=vec(n)' >"$tmp/above.json"
is "vec values: about half above 1" \
    "$(jq ".operations.ffma > 0.4 * $nrows and .operations.ffma < 0.6 * $nrows" "$tmp/above.json")" true

# a hand-written skeleton, bindings on the command line
cat >"$tmp/ell.skel" <<'EOF'
augur-skeleton 1
kernel ell @"ell.c":1:1
  param n i32
  param w i32
  local i i32
  local k i32
  array idx i32[] global param
  array x f64[] global param
  array y f64[] global param
  for i = 0; i < n; i += 1 @3:3 parallel omp(parallel for schedule(static))
    for k = 0; k < w; k += 1 @4:5
      load idx[k * n + i] @5:7
      load x[idx[k * n + i]] @5:7 indirect(idx)
    store y[i] @6:5
EOF
"$augur" --json simulate "$tmp/ell.skel" --bind "n=n,w=ell.width,idx=ell.idx,x=vec(n),y=vec(n)" \
    --threads 2 --data "$data/walshaw_wing.mtx" >"$tmp/d.json"
is "skel: 2 n width + n accesses" "$(jq .accesses "$tmp/d.json")" $((62032 * 9))
is "skel: static halves" "$(jq '[.threads_work[].iterations] | join(" ")' -r "$tmp/d.json")" "31016 31016"

# coherence: each thread writes its half of a, then reads the other's half (after the barrier);
# every line of a crosses between the cores once per call, and each line and array counts its share
cat >"$tmp/xf.skel" <<'EOF'
augur-skeleton 1
kernel xf @"xf.c":1:1
  param n i32
  local i i32
  local j i32
  array a f64[] global param
  region parallel @2:1 omp(parallel)
    for i = 0; i < n; i += 1 @3:3 parallel omp(for schedule(static))
      store a[i] @4:5
    for j = 0; j < n; j += 1 @5:3 parallel omp(for schedule(static))
      load a[n - 1 - j] @6:5
EOF
"$augur" --json simulate "$tmp/xf.skel" --bind "n=n,a=vec(n)" --threads 2 --warm \
    --data "$data/walshaw_wing.mtx" --machine "$src/samples/machines/dev-epyc-2vcpu.yml" >"$tmp/x.json"
is "coherence: each of a's 7754 lines (7755 unaligned) moves to the reader, the two halves' shared one twice" \
    "$(jq '[.levels[].transfers] | add | . >= 7754 and . <= 7758' "$tmp/x.json")" true
is "coherence: the lines' transfers add up to the total" \
    "$(jq '([.lines[].levels[].transfers] | add) == ([.levels[].transfers] | add)' "$tmp/x.json")" true
is "coherence: and the arrays'" \
    "$(jq '([.arrays[].levels[].transfers] | add) == ([.levels[].transfers] | add)' "$tmp/x.json")" true

# the trace: a header, then 24 bytes an event
status "trace written" 0 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$small" --trace "$tmp/t.trc"
hb=$(od -An -tu4 -j12 -N4 "$tmp/t.trc" | tr -d ' ')
is "trace: header + 24 bytes per access" "$(stat -c %s "$tmp/t.trc")" $((hb + 24 * (3 * nrows + 3 * nnz)))
is "trace: magic" "$(head -c 8 "$tmp/t.trc")" AUGURTRC

# errors
status "help" 0 "$augur" simulate --help
status "no --data: usage" 2 "$augur" simulate "$src/kernels/spmv/ref.c"
status "two kernels, no --function: usage" 2 "$augur" simulate "$src/kernels/spmv/omp.c" --data "$small"
grep -q "spmv_csr_omp_static, spmv_csr_omp_dynamic" "$tmp/err" && pass "the kernels are listed" ||
    flunk "the kernels are listed"
status "--threads 0" 2 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$small" --threads 0
status "bad --launch" 2 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$small" --launch 3
status "unknown kernel" 1 "$augur" simulate "$src/kernels/spmv/ref.c" --function nope --data "$small"
status "missing dataset" 1 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$tmp/none.mtx"
cat >"$tmp/oob.skel" <<'EOF'
augur-skeleton 1
kernel oob @"oob.c":1:1
  param n i32 bind n (cli)
  local i i32
  array x f64[] global param bind vec(n) (cli)
  for i = 0; i <= n; i += 1 @2:3
    load x[i] @3:9
EOF
status "index out of range" 1 "$augur" simulate "$tmp/oob.skel" --data "$small"
grep -q "oob.c:3:9: index $nrows is out of range for 'x' ($nrows elements, bound to vec(n)) in load x\[i\]" \
    "$tmp/err" && pass "the message names the line and the index" || flunk "the message names the line and the index"
status "json error" 1 "$augur" --json simulate "$tmp/oob.skel" --data "$small"
is "json error document" "$(jq -r '.error | test("out of range")' "$tmp/out")" true
cat >"$tmp/bad.yml" <<'EOF'
name: "bad"
kind: cpu
clock_ghz: 1
cores: 1
caches:
  - name: L1
    size: 1000
    line: 48
EOF
status "absurd cache line size" 1 "$augur" simulate "$src/kernels/spmv/ref.c" --data "$small" --machine "$tmp/bad.yml"
grep -q "bad.yml" "$tmp/err" && pass "the machine file is named" || flunk "the machine file is named"
cat >"$tmp/unbound.skel" <<'EOF'
augur-skeleton 1
kernel ub @"ub.c":1:1
  param n i32 bind n (cli)
  local i i32
  array q f64[] global param @1:30
  for i = 0; i < n; i += 1 @2:3
    load q[7] @3:9
EOF
status "unbound array" 1 "$augur" simulate "$tmp/unbound.skel" --data "$small"
grep -q "ub.c:1:30: array 'q' of kernel ub is not bound" "$tmp/err" && pass "the unbound array is named" ||
    flunk "the unbound array is named"

# valgrind's cachegrind on the same SpMV (the comparison of bench/cachegrind_compare.sh)
driver=$(dirname "$augur")/bench_cg_driver
# CUDA: the lanes of a warp make one request per line for the sectors they need.
# A 64 x 64 diagonal, 4096-aligned arrays: warps 0 and 1 each load rowptr[i] (256 B:
# 2 lines, 8 sectors), rowptr[i + 1] (bytes 8 to 263: 3 lines, 9 sectors), col (128 B:
# 1 line, 4 sectors), val, x and store y (2 lines, 8 sectors each): 6 instructions.
{
    echo "%%MatrixMarket matrix coordinate real general"
    echo "64 64 64"
    for i in $(seq 1 64); do echo "$i $i 2.0"; done
} >"$tmp/diag64.mtx"
status "cuda spmv simulates" 0 "$augur" --json simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel \
    --data "$tmp/diag64.mtx" --machine "$src/samples/machines/h100-sxm.yml" --layout 4096 --sms 1
cp "$tmp/out" "$tmp/cuda.json"
is "cuda: launch (64 + 255) / 256 blocks of 256" "$(jq -r '"\(.grid) \(.block)"' "$tmp/cuda.json")" "1 256"
is "cuda: 2 warps x 6 memory instructions" "$(jq .warp_jobs "$tmp/cuda.json")" 12
is "cuda: L1 requests, one per warp and line" "$(jq '.levels[0].accesses' "$tmp/cuda.json")" 24
is "cuda: L1 sectors" "$(jq '.levels[0].sector_accesses' "$tmp/cuda.json")" 90
# rowptr[i + 1] finds 8 of its 9 sectors loaded by rowptr[i], and warp 1's rowptr[i] one of
# warp 0's: 90 - 17 sectors miss. The 16 sectors of y write through to L2, which takes
# whole sectors without reading them: L2 reads the 57 others from memory.
is "cuda: L1 sector misses" "$(jq '.levels[0].sector_misses' "$tmp/cuda.json")" 73
is "cuda: L2 reads only the loads' sectors" "$(jq '.levels[1].fill_bytes' "$tmp/cuda.json")" $((57 * 32))
# a second launch finds L1 empty (as Nsight Compute shows on the H100) and L2 warm
"$augur" --json simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$tmp/diag64.mtx" \
    --machine "$src/samples/machines/h100-sxm.yml" --layout 4096 --sms 1 --runs 2 >"$tmp/cuda2.json"
is "cuda, two launches: L1 misses twice" "$(jq '.levels[0].sector_misses' "$tmp/cuda2.json")" $((2 * 73))
is "cuda, two launches: L2 misses once" "$(jq '.levels[1].sector_misses' "$tmp/cuda2.json")" 73
is "cuda, two launches: each one's busiest warp loads 5 times" "$(jq .run_max_loads "$tmp/cuda2.json")" 10
# A warp waits for its slowest request: every load of the first launch reads memory, of the
# second L2 (L1 starts empty, L2 keeps the lines).
is "cuda: loads by the deepest level they reached" "$(jq -c .warp_load_reach "$tmp/cuda.json")" "[0,0,10]"
is "cuda, two launches: loads by deepest level" "$(jq -c .warp_load_reach "$tmp/cuda2.json")" "[0,10,10]"
# 15 rows: rowptr[i + 1] (bytes 8 to 127) lies in the line rowptr[i] is still fetching, so
# its L1 hit waits for memory as well.
{
    echo "%%MatrixMarket matrix coordinate real general"
    echo "15 15 15"
    for i in $(seq 1 15); do echo "$i $i 2.0"; done
} >"$tmp/diag15.mtx"
"$augur" --json simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$tmp/diag15.mtx" \
    --machine "$src/samples/machines/h100-sxm.yml" --layout 4096 --sms 1 >"$tmp/cuda15.json"
is "cuda: a hit on a line in flight waits for its fetch" "$(jq -c .warp_load_reach "$tmp/cuda15.json")" \
    "[0,0,5]"
"$augur" simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$tmp/diag15.mtx" \
    --machine "$src/samples/machines/h100-sxm.yml" --layout 4096 --sms 1 >"$tmp/cuda15.txt"
grep -q "^loads by the level of their slowest request: L1 0, L2 0, memory 5$" "$tmp/cuda15.txt" &&
    pass "cuda: the text gives the loads by their slowest request" ||
    flunk "cuda: the text gives the loads by their slowest request"
# Warp branches: 64 rows, the odd ones with a second entry. The guard i < nrows is one
# uniform branch per warp of the block (8); the row loop's test runs 2 times in a lane of an
# even row and 3 in an odd one: per warp of rows (2) all go on, then half stop (divergent),
# then the other half stop.
{
    echo "%%MatrixMarket matrix coordinate real general"
    echo "64 64 96"
    for i in $(seq 1 64); do
        echo "$i $i 2.0"
        [ $((i % 2)) -eq 0 ] && echo "$i $(((i % 64) + 1)) 1.0"
    done
} >"$tmp/alt64.mtx"
"$augur" --json simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$tmp/alt64.mtx" \
    --machine "$src/samples/machines/h100-sxm.yml" --sms 1 >"$tmp/alt.json"
is "cuda: warp branches, divergent" "$(jq -c '[.warp_branches, .divergent_branches]' "$tmp/alt.json")" "[14,2]"
is "cuda: the row loop's 6 warp branches, 2 divergent" \
    "$(jq -c '.divergent[0] | [.kind, .line, .warp_branches, .divergent]' "$tmp/alt.json")" '["loop",25,6,2]'
is "cuda: the guard's 8, none divergent" \
    "$(jq -c '.divergent[1] | [.kind, .line, .warp_branches, .divergent]' "$tmp/alt.json")" '["if",22,8,0]'
"$augur" simulate "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$tmp/alt64.mtx" \
    --machine "$src/samples/machines/h100-sxm.yml" --sms 1 >"$tmp/alt.txt"
grep -q "^warp branch instructions: 14, 2 divergent (branch efficiency 85.7 %), 29.7 active lanes each$" \
    "$tmp/alt.txt" && pass "cuda: the text gives the warp branches" || flunk "cuda: the text gives the warp branches"
grep -Eq "^cuda.cu:25 +loop +6 +2 +33.3%$" "$tmp/alt.txt" && pass "cuda: the text's per-branch table" ||
    flunk "cuda: the text's per-branch table"
"$augur" --json simulate "$src/kernels/spmv/ref.c" --function spmv_csr_ref --data "$tmp/alt64.mtx" >"$tmp/alt_cpu.json"
is "cpu: no warp branches" "$(jq -c '[.warp_branches, .divergent]' "$tmp/alt_cpu.json")" "[null,null]"

if command -v valgrind >/dev/null && [ -x "$driver" ] && ! nm "$driver" 2>/dev/null | grep -q __asan_init; then
    cat >"$tmp/cg.yml" <<'EOF'
name: "cachegrind D1 + LL"
kind: cpu
clock_ghz: 1
cores: 1
caches:
  - name: D1
    size: 32 KiB
    line: 64
    ways: 8
    prefetch: none
  - name: LL
    size: 256 KiB
    line: 64
    ways: 16
    prefetch: none
EOF
    valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=262144,16,64 \
        --cachegrind-out-file="$tmp/cg.out" "$driver" spmv "$data/ss_bcsstk13.mtx" >/dev/null 2>&1
    read -r cgr cgl < <(awk '/^fn=/ { f = substr($0, 4) }
        /^[0-9]/ { if (f == "spmv_csr_ref") { r += $6; l += $7 } } END { print r + 0, l + 0 }' "$tmp/cg.out")
    "$augur" --json simulate "$src/kernels/spmv/ref.c" --data "$data/ss_bcsstk13.mtx" \
        --machine "$tmp/cg.yml" >"$tmp/e.json"
    read -r ar al < <(jq -r '"\(.levels[0].read_misses) \([.accesses_by_node[] | select(.mode != "store") | .levels[1].misses] | add)"' "$tmp/e.json")
    within() { awk -v a="$1" -v c="$2" 'BEGIN { d = a - c; if (d < 0) d = -d; exit !(c > 0 && d <= 0.02 * c) }'; }
    within "$ar" "$cgr" && pass "cachegrind: D1 read misses within 2 % ($ar vs $cgr)" ||
        flunk "cachegrind: D1 read misses within 2 % ($ar vs $cgr)"
    within "$al" "$cgl" && pass "cachegrind: LL read misses within 2 % ($al vs $cgl)" ||
        flunk "cachegrind: LL read misses within 2 % ($al vs $cgl)"
else
    skip "cachegrind comparison" "no valgrind, or no bench_cg_driver without a sanitizer"
fi
echo "1..$n"
