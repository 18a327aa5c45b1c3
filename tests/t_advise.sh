#!/bin/bash
# t_advise.sh - end-to-end tests of 'augur advise': the sweep of thread counts
# and reorderings ranked by predicted time, its JSON, a reordering priced as
# augur predict prices the data augur data reorder writes, --verify timing
# the pick and the current configuration, and bad input (a count the machine
# does not run, bad lists, a CUDA kernel). Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
machine=$src/samples/machines/dev-epyc-zen4-2vcpu.yml
mtx=$src/samples/walshaw_fe_4elt2.mtx
kernel=("$src/kernels/spmv/omp.c" --function spmv_csr_omp_static --data "$mtx" --machine "$machine")

status "advise sweeps 1 to the machine's threads and the reorderings" 0 "$augur" --json advise "${kernel[@]}"
cp "$tmp/out" "$tmp/all.json"
is "two counts on a two-core file" "$(jq_ "$tmp/all.json" "sorted(set(c['threads'] for c in d['ranked']))")" "[1, 2]"
is "the default reorderings, METIS blocks below the 11143 rows" \
    "$(jq_ "$tmp/all.json" "[v['reorder'] for v in d['reorders']]")" \
    "['none', 'rcm', 'metis:64', 'metis:512', 'metis:4096']"
is "every reordering at every count, the schedules at two threads" "$(jq_ "$tmp/all.json" "len(d['ranked'])")" 25
is "the current configuration is the data as it is at the first count" \
    "$(jq_ "$tmp/all.json" "d['current'] == {'reorder': 'none', 'schedule': 'source', 'threads': 1}")" True
is "a reordering's cost is measured, and its misses are compared" \
    "$(jq_ "$tmp/all.json" "all(v['seconds'] > 0 for v in d['reorders'][1:]) and all('reason' in c for c in d['ranked'] if c['reorder'] != 'none')")" True
status "advise --reorder none --schedule source: the thread sweep alone" 0 "$augur" --json advise "${kernel[@]}" --reorder none --schedule source
cp "$tmp/out" "$tmp/a.json"
is "two configurations" "$(jq_ "$tmp/a.json" "sorted(c['threads'] for c in d['ranked'])")" "[1, 2]"
is "ranked by predicted time" \
    "$(jq_ "$tmp/a.json" "all(a['predicted'] <= b['predicted'] for a, b in zip(d['ranked'], d['ranked'][1:]))")" True
is "the pick is the first of the ranking" "$(jq_ "$tmp/a.json" "d['pick']['threads'] == d['ranked'][0]['threads']")" True
is "speed-ups over one thread" \
    "$(jq_ "$tmp/a.json" "[c['speedup'] for c in d['ranked'] if c['threads'] == 1] == [1.0]")" True
status "each count as augur predict answers it" 0 "$augur" --json predict "${kernel[@]}" --threads 2
is "the same time" "$(jq_ "$tmp/out" "d['seconds']")" \
    "$(jq_ "$tmp/a.json" "[c['predicted'] for c in d['ranked'] if c['threads'] == 2][0]")"
status "each schedule as augur predict --schedule answers it" 0 "$augur" --json predict "${kernel[@]}" \
    --threads 2 --schedule dynamic,64
is "the same time" "$(jq_ "$tmp/out" "d['seconds']")" \
    "$(jq_ "$tmp/all.json" "[c['predicted'] for c in d['ranked'] if c['threads'] == 2 and c['reorder'] == 'none' and c['schedule'] == 'dynamic,64'][0]")"
is "the default schedules" "$(jq_ "$tmp/all.json" "sorted(set(c['schedule'] for c in d['ranked']))")" \
    "['dynamic,64', 'guided', 'source', 'static']"
status "rcm as augur predict prices the reordered data" 0 "$augur" data reorder "$mtx" "$tmp/rcm.mtx" --method rcm
status "rcm: predict on the reordered file" 0 "$augur" --json predict "$src/kernels/spmv/omp.c" \
    --function spmv_csr_omp_static --data "$tmp/rcm.mtx" --machine "$machine" --threads 2
is "the same time" "$(jq_ "$tmp/out" "d['seconds']")" \
    "$(jq_ "$tmp/all.json" "[c['predicted'] for c in d['ranked'] if c['threads'] == 2 and c['reorder'] == 'rcm' and c['schedule'] == 'source'][0]")"
status "text" 0 "$augur" advise "${kernel[@]}" --threads 1-2 --reorder none,rcm --schedule static,1,guided
check "advice line" grep -Eq "^advice: (none|rcm), schedule (source|static,1|guided), [12] thread" "$tmp/out"
check "the reordering's cost" grep -Eq "^reorder rcm: [0-9.e-]+ s once" "$tmp/out"

# Plateaus: the bottleneck by METIS block size, per thread count, blocks ascending
status "plateaus" 0 "$augur" --json advise "${kernel[@]}" --threads 1,2 --reorder metis:4096,none,metis:64,metis:512 \
    --schedule source
is "plateaus: each count, its METIS blocks ascending" \
    "$(jq_ "$tmp/out" "[(p['threads'], [b['block'] for b in p['blocks']]) for p in d['plateaus']]")" \
    "[(1, [64, 512, 4096]), (2, [64, 512, 4096])]"
is "plateaus: the ranking's bottleneck and time" \
    "$(jq_ "$tmp/out" "all(any(c['reorder'] == 'metis:%d' % b['block'] and c['threads'] == p['threads'] and c['bottleneck'] == b['bottleneck'] and c['predicted'] == b['predicted'] for c in d['ranked']) for p in d['plateaus'] for b in p['blocks'])")" True
status "plateaus, text" 0 "$augur" advise "${kernel[@]}" --threads 2 --reorder none,metis:64,metis:512 --schedule source
check "a line per count, runs of block sizes" grep -Eq "^  2 threads: [a-z ]+ at 64(-512)?" "$tmp/out"

# A diagonal matrix: every numbering is the same to the model, and a tie
# goes to what asks least of the user (no reordering, the source's
# schedule, fewer threads).
{
    printf '%%%%MatrixMarket matrix coordinate real general\n64 64 64\n'
    for i in $(seq 1 64); do echo "$i $i 1.0"; done
} >"$tmp/diag.mtx"
status "a diagonal matrix" 0 "$augur" --json advise "$src/kernels/spmv/omp.c" --function spmv_csr_omp_static \
    --data "$tmp/diag.mtx" --machine "$machine" --threads 1,2 --reorder metis:16,rcm,none --schedule static,guided
is "equal predictions rank the simpler first" \
    "$(jq_ "$tmp/out" "all(a['predicted'] < b['predicted'] or ['none', 'rcm', 'metis:16'].index(a['reorder']) <= ['none', 'rcm', 'metis:16'].index(b['reorder']) for a, b in zip(d['ranked'], d['ranked'][1:]))")" True
is "the pick asks no reordering" "$(jq_ "$tmp/out" "d['pick']['reorder']")" none

# A mesh with its locality destroyed: renumbering it back saves misses.
python3 - "$mtx" "$tmp/scrambled.mtx" <<'EOF'
import random, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith('%')]
n = int(lines[0].split()[0])
p = list(range(1, n + 1))
random.Random(3).shuffle(p)
with open(sys.argv[2], 'w') as out:
    out.write('%%MatrixMarket matrix coordinate pattern symmetric\n' + lines[0])
    for l in lines[1:]:
        i, j = l.split()[:2]
        out.write('%d %d\n' % (p[int(i) - 1], p[int(j) - 1]))
EOF
status "a scrambled mesh" 0 "$augur" --json advise "$src/kernels/spmv/omp.c" --function spmv_csr_omp_static \
    --data "$tmp/scrambled.mtx" --machine "$machine" --threads 1 --reorder none,rcm,metis:512
is "RCM and METIS blocks cut its L1 misses, and pay off after some calls" \
    "$(jq_ "$tmp/out" "all(c['misses']['L1'] < 0.8 * [b for b in d['ranked'] if b['reorder'] == 'none'][0]['misses']['L1'] and c['payoff_calls'] >= 1 for c in d['ranked'] if c['reorder'] != 'none')")" True

if command -v "${CC:-cc}" >/dev/null 2>&1; then
    status "--verify 1 times the pick and the first count" 0 "$augur" --json advise "${kernel[@]}" \
        --threads 1,2 --reorder none --schedule source --verify 1 --reps 3
    is "both measured" "$(jq_ "$tmp/out" "sorted(c['threads'] for c in d['ranked'] if 'measured' in c)")" "[1, 2]"
    is "the rankings compared" "$(jq_ "$tmp/out" "-1 <= d['kendall_tau'] <= 1 and d['pick_measured_speedup'] > 0")" True
    is "in three interleaved rounds, whose orders are compared" \
        "$(jq_ "$tmp/out" "d['rounds'] == 3 and -1 <= d['rounds_kendall_tau'] <= 1 and 0 <= d['rounds_fastest_within_5'] <= 1")" True
    status "--rounds 2, text" 0 "$augur" advise "${kernel[@]}" --threads 1,2 --reorder none --schedule source \
        --verify 1 --reps 2 --rounds 2
    check "says how well the measured order repeats" grep -q "^repeatability: 2 interleaved rounds" "$tmp/out"
    status "--verify times a schedule the source does not say" 0 "$augur" --json advise "${kernel[@]}" \
        --threads 2 --reorder none --schedule dynamic,64 --verify 2 --reps 3
    is "both schedules measured" "$(jq_ "$tmp/out" "sorted(c['schedule'] for c in d['ranked'] if 'measured' in c)")" \
        "['dynamic,64', 'source']"
else
    skip "--verify 1 times the pick and the first count" "no C compiler"
    skip "both measured" "no C compiler"
    skip "the rankings compared" "no C compiler"
    skip "in three interleaved rounds, whose orders are compared" "no C compiler"
    skip "--rounds 2, text" "no C compiler"
    skip "says how well the measured order repeats" "no C compiler"
    skip "--verify times a schedule the source does not say" "no C compiler"
fi

status "a count the machine does not run" 1 "$augur" advise "${kernel[@]}" --threads 1,3
check "says so" grep -q "threads 3: the machine runs 2 threads" "$tmp/err"
status "a bad list" 2 "$augur" advise "${kernel[@]}" --threads 2-x
status "--rounds without --verify" 2 "$augur" advise "${kernel[@]}" --rounds 2
check "says what it needs" grep -q "give --verify K" "$tmp/err"
status "--rounds 0" 2 "$augur" advise "${kernel[@]}" --verify 1 --rounds 0
status "--rounds 17" 2 "$augur" advise "${kernel[@]}" --verify 1 --rounds 17
status "a CUDA kernel" 1 "$augur" advise "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel \
    --data "$mtx" --machine "$machine"
check "says why" grep -q "advise sweeps OpenMP threads" "$tmp/err"
status "missing --data" 2 "$augur" advise "$src/kernels/spmv/omp.c"
for bad in static, "" dynamic,0 often "64" "static,,guided"; do
    status "--schedule '$bad': a usage error" 2 "$augur" advise "${kernel[@]}" --schedule "$bad"
done
printf 'void k(int n, const double *a, double *y) { for (int i = 0; i < n; i++) y[i] = a[i]; }\n' >"$tmp/serial.c"
status "--schedule on a kernel without worksharing loops" 1 "$augur" advise "$tmp/serial.c" --data "$mtx" \
    --machine "$machine" --bind "n=100,a=vec(100),y=vec(100)" --schedule dynamic
for bad in foo "" "rcm," ",rcm" "metis" "metis:0" "rcm:3"; do
    status "--reorder '$bad': a usage error" 2 "$augur" advise "${kernel[@]}" --reorder "$bad"
done
status "--reorder metis:B beyond the rows" 1 "$augur" advise "${kernel[@]}" --reorder metis:20000
check "says so" grep -q "metis:20000: the rows per part must be 1 to the 11143 rows" "$tmp/err"
printf '%%%%MatrixMarket matrix coordinate real general\n3 2 3\n1 1 1\n2 2 1\n3 1 1\n' >"$tmp/rect.mtx"
status "a 3 x 2 matrix: no reordering by default" 0 "$augur" --json advise "$src/samples/spmv.c" \
    --data "$tmp/rect.mtx" --machine "$machine"
is "and says why" "$(jq_ "$tmp/out" "[v['reorder'] for v in d['reorders']] == ['none'] and '3 x 2' in d['reorders_note']")" True
status "--reorder rcm on a 3 x 2 matrix" 1 "$augur" advise "$src/samples/spmv.c" --data "$tmp/rect.mtx" \
    --machine "$machine" --reorder rcm
check "says why" grep -q "square" "$tmp/err"

# A tiled kernel: its tile sizes swept on the schedule its tiling.* bindings run.
tiled=("$src/kernels/ireduce/omp.c" --function ireduce_euler_tiled_omp --data "$mtx" --machine "$machine"
    --bind "ntgroups=tiling.ntgroups,tgroup_tile=tiling.tgroup_tile,tile_group=tiling.tile_group,gcount=tiling.gcount,gu=tiling.gu,gv=tiling.gv,gw=tiling.gw,x=vec(n),y=vec(n)")
status "a tiled kernel: --tile sweeps its tile sizes" 0 "$augur" --json advise "${tiled[@]}" --threads 1 \
    --tile 256,4096 --tile-size 1024
cp "$tmp/out" "$tmp/tiles.json"
is "three tile sizes, the current one (--tile-size) first" \
    "$(jq_ "$tmp/tiles.json" "sorted(c['tile'] for c in d['ranked']) == [256, 1024, 4096] and d['current']['tile'] == 1024")" True
is "no reordering by default, and says why" \
    "$(jq_ "$tmp/tiles.json" "[v['reorder'] for v in d['reorders']] == ['none'] and 'tiling' in d['reorders_note']")" True
is "each with its schedule's SIMD utilization and tiles per tile group" \
    "$(jq_ "$tmp/tiles.json" "all(0 < c['simd_util'] <= 1 and c['avg_mimd'] >= 1 for c in d['ranked'])")" True
status "a tile size as augur predict --tile-size answers it" 0 "$augur" --json predict "${tiled[@]}" --tile-size 256
is "the same time" "$(jq_ "$tmp/out" "d['seconds']")" \
    "$(jq_ "$tmp/tiles.json" "[c['predicted'] for c in d['ranked'] if c['tile'] == 256][0]")"
status "text: a tile column" 0 "$augur" advise "${tiled[@]}" --threads 1 --tile 512,2048
check "the advice names the tile size" grep -Eq "^advice: none, schedule source, 1 thread, tile (512|2048) " "$tmp/out"
if command -v cc >/dev/null 2>&1; then
    status "--verify times the tiled kernel on each tile size's schedule" 0 "$augur" --json advise \
        "${tiled[@]}" --threads 1 --tile 256,4096 --verify 2 --reps 2 --rounds 1 -- -fopenmp
    is "both tile sizes measured" "$(jq_ "$tmp/out" "sorted(c['tile'] for c in d['ranked'] if c['measured'] > 0)")" \
        "[256, 4096]"
else
    skip "--verify times the tiled kernel on each tile size's schedule" "no C compiler"
    skip "both tile sizes measured" "no C compiler"
fi
status "a tiled kernel without --tile-size: predict says what it needs" 1 "$augur" predict "${tiled[@]}"
check "says so" grep -q "give one with --tile-size T" "$tmp/err"
for bad in 0 "" "256," ",256" x "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"; do
    status "--tile '$bad': a usage error" 2 "$augur" advise "${tiled[@]}" --tile "$bad"
done
status "--tile on a kernel that runs no tiling schedule" 2 "$augur" advise "${kernel[@]}" --tile 256
check "says why" grep -q "binds none" "$tmp/err"
echo "1..$n"
