#!/bin/bash
# t_advise.sh - end-to-end tests of 'augur advise': the thread sweep ranked by
# predicted time, its JSON, --verify timing the pick and the first count, and
# bad input (a count the machine does not run, a bad list, a CUDA kernel). Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
machine=$src/samples/machines/dev-epyc-zen4-2vcpu.yml
mtx=$src/samples/walshaw_fe_4elt2.mtx
kernel=("$src/kernels/spmv/omp.c" --function spmv_csr_omp_static --data "$mtx" --machine "$machine")

status "advise sweeps 1 to the machine's threads" 0 "$augur" --json advise "${kernel[@]}"
cp "$tmp/out" "$tmp/a.json"
is "two counts on a two-core file" "$(jq_ "$tmp/a.json" "sorted(c['threads'] for c in d['ranked'])")" "[1, 2]"
is "ranked by predicted time" \
    "$(jq_ "$tmp/a.json" "all(a['predicted'] <= b['predicted'] for a, b in zip(d['ranked'], d['ranked'][1:]))")" True
is "the pick is the first of the ranking" "$(jq_ "$tmp/a.json" "d['pick'] == d['ranked'][0]['threads']")" True
is "speed-ups over one thread" \
    "$(jq_ "$tmp/a.json" "[c['speedup'] for c in d['ranked'] if c['threads'] == 1] == [1.0]")" True
status "each count as augur predict answers it" 0 "$augur" --json predict "${kernel[@]}" --threads 2
is "the same time" "$(jq_ "$tmp/out" "d['seconds']")" \
    "$(jq_ "$tmp/a.json" "[c['predicted'] for c in d['ranked'] if c['threads'] == 2][0]")"
status "text" 0 "$augur" advise "${kernel[@]}" --threads 1-2
check "advice line" grep -q "^advice: [12] thread" "$tmp/out"

if command -v "${CC:-cc}" >/dev/null 2>&1; then
    status "--verify 1 times the pick and the first count" 0 "$augur" --json advise "${kernel[@]}" \
        --threads 1,2 --verify 1 --reps 3
    is "both measured" "$(jq_ "$tmp/out" "sorted(c['threads'] for c in d['ranked'] if 'measured' in c)")" "[1, 2]"
    is "the rankings compared" "$(jq_ "$tmp/out" "-1 <= d['kendall_tau'] <= 1 and d['pick_measured_speedup'] > 0")" True
else
    skip "--verify 1 times the pick and the first count" "no C compiler"
    skip "both measured" "no C compiler"
    skip "the rankings compared" "no C compiler"
fi

status "a count the machine does not run" 1 "$augur" advise "${kernel[@]}" --threads 1,3
check "says so" grep -q "threads 3: the machine runs 2 threads" "$tmp/err"
status "a bad list" 2 "$augur" advise "${kernel[@]}" --threads 2-x
status "a CUDA kernel" 1 "$augur" advise "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel \
    --data "$mtx" --machine "$machine"
check "says why" grep -q "advise sweeps OpenMP threads" "$tmp/err"
status "missing --data" 2 "$augur" advise "$src/kernels/spmv/omp.c"
echo "1..$n"
