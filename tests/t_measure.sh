#!/bin/bash
# t_measure.sh - end-to-end tests of 'augur measure': the sample SpMV timed
# with the bytes and flops its skeleton implies, a user-style kernel that is
# not in kernels/ (int indices, a static helper, its own main, a parameter
# outside the skeleton), compile flags from compile_commands.json and from
# "--", OpenMP settings, a schedule other than the source's (--schedule), a
# whole BFS timed round by round, and bad input: a
# kernel the compiler rejects, one that crashes, one that never returns,
# bindings that do not fit, bad options. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=$(cd "${AUGUR_SOURCE_DIR:-.}" && pwd)
data=${AUGUR_DATASETS:-}/mtx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

if ! command -v jq >/dev/null || ! command -v "${CC:-cc}" >/dev/null; then
    skip "augur measure" "no jq or no C compiler"
    echo "1..$n"
    exit 0
fi
export TMPDIR=$tmp/work # the working folders go here, to check they are removed
mkdir -p "$TMPDIR"
quick=(--reps 7 --min-time 0.01 --timeout 60)
small=$src/samples/walshaw_fe_4elt2.mtx # 11143 nodes, 65636 entries in full
nrows=11143
nnz=65636

# ---- the sample SpMV: fields, repetitions, order of the times, bytes and flops ----
status "spmv runs" 0 "$augur" --json measure "$src/samples/spmv.c" --data "$small" --keep \
    "${quick[@]}"
j=$tmp/out
is "kernel" "$(jq -r .kernel "$j")" spmv
is "clock" "$(jq -r .clock "$j")" CLOCK_MONOTONIC
check "at least the repetitions asked for" [ "$(jq .reps "$j")" -ge 7 ]
is "one time per repetition" "$(jq '.times | length' "$j")" "$(jq .reps "$j")"
is "min <= median <= max" "$(jq '.min > 0 and .min <= .median and .median <= .max' "$j")" true
is "min and max are the extremes of the times" \
    "$(jq '(.times | min) == .min and (.times | max) == .max' "$j")" true
# spmv.c: int rowptr (read twice a row), int col, double val and x per entry, double y per row
is "bytes read: 2 x 4 n + (4 + 8 + 8) nnz" "$(jq .bytes_read "$j")" $((8 * nrows + 20 * nnz))
is "bytes written: 8 n" "$(jq .bytes_written "$j")" $((8 * nrows))
is "accesses: 3 n + 3 nnz" "$(jq .accesses "$j")" $((3 * nrows + 3 * nnz))
is "flops: a multiply and an add per entry" "$(jq .flops "$j")" $((2 * nnz))
is "bandwidth = bytes / median" \
    "$(jq '((.bytes / .median / 1e9) - .gbytes_per_s | fabs) < 1e-6 * .gbytes_per_s' "$j")" true
is "default flags" "$(jq -r .flags_from "$j")" defaults
case "$(jq -r .compile_command "$j")" in
*"-O3 -march=native -falign-loops=32 -fopenmp -c "*) pass "default flags: -O3 -march=native -falign-loops=32, -fopenmp for its pragma" ;;
*) flunk "default flags: -O3 -march=native -falign-loops=32, -fopenmp for its pragma" ;;
esac
is "OMP_NUM_THREADS 1 by default" "$(jq -r .omp.OMP_NUM_THREADS "$j")" 1
is "OMP_PROC_BIND close" "$(jq -r .omp.OMP_PROC_BIND "$j")" close
is "OMP_PLACES cores" "$(jq -r .omp.OMP_PLACES "$j")" cores
is "scalar n bound to the rows" "$(jq -r '.arguments[0].binding' "$j")" "n (11143)"
is "rowptr: n + 1 ints" "$(jq -r '.arguments[1] | "\(.binding) \(.elements) \(.elem_size)"' "$j")" \
    "csr.rowptr 11144 4"
wd=$(jq -r .workdir "$j")
check "--keep: the driver, the kernel's file and the blob are kept" \
    test -f "$wd/driver.c" -a -f "$wd/kernel.c" -a -f "$wd/data.bin" -a -x "$wd/driver"
check "the kernel's file includes the source with its main renamed" \
    grep -q "#define main augur_user_main" "$wd/kernel.c"
rm -rf "$wd"

# a directive written through a macro (_Pragma): the text shows no "#pragma omp", the skeleton
# has the parallel loop, and without -fopenmp the 2-thread time would be a serial one
cat >"$tmp/macro_omp.c" <<'EOF'
#define OMP(x) _Pragma(x)
void scale(int n, const double *x, double *y)
{
    OMP("omp parallel for schedule(static)")
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * x[i];
}
EOF
status "a directive from _Pragma in a macro" 0 "$augur" --json measure "$tmp/macro_omp.c" \
    --data "$small" --threads 2 "${quick[@]}"
case "$(jq -r .compile_command "$j")" in
*" -fopenmp -c "*) pass "-fopenmp for a directive from _Pragma" ;;
*) flunk "-fopenmp for a directive from _Pragma" ;;
esac

status "spmv on 2 threads, placement from the environment, text" 0 env OMP_PROC_BIND=spread \
    "$augur" measure "$src/samples/spmv.c" --data "$small" --threads 2 "${quick[@]}"
check "--threads sets OMP_NUM_THREADS; the environment's OMP_PROC_BIND is kept and said" \
    grep -q "^threads 2: OMP_NUM_THREADS=2 (augur), OMP_PROC_BIND=spread (environment), OMP_PLACES=cores (augur)" "$tmp/out"
check "text: time per call" grep -q "^seconds per call: min .* median .* max " "$tmp/out"
check "text: the clock is named" grep -q "clock CLOCK_MONOTONIC" "$tmp/out"
check "text: bytes per call" grep -q "^bytes per call $((16 * nrows + 20 * nnz)) " "$tmp/out"
is "working folder removed" "$(ls "$TMPDIR" | wc -l)" 0

# ---- a user-style kernel: int CSC, a static helper, its own main, damping outside the skeleton ----
user=$src/tests/data/measure/pagerank_user.c
cat >"$tmp/compile_commands.json" <<EOF
[ { "directory": "$tmp", "file": "$user",
    "arguments": ["gcc", "-O1", "-DUSER_FLAG=1", "-c", "-o", "pr.o", "$user"] } ]
EOF
status "user kernel (a static helper, its own main), flags from compile_commands.json" 0 \
    "$augur" --json measure "$user" --function pr_step --data "$small" --compile-commands "$tmp" \
    --bind "colptr=csc.colptr,rows=csc.row,outdeg=deg,damping=0.85" "${quick[@]}"
is "user kernel: damping passed as given, outside the skeleton" \
    "$(jq -r '.arguments[] | select(.name == "damping") | "\(.binding) \(.in_skeleton)"' "$tmp/out")" \
    "=0.85 false"
is "user kernel: outdeg bound to the degrees" \
    "$(jq -r '.arguments[] | select(.name == "outdeg") | .binding' "$tmp/out")" deg
# (1 - damping) / n is the same in every row: computed once, before the loop
is "user kernel: flops counted through the helper" "$(jq .flops "$tmp/out")" \
    $((2 * nnz + 2 * nrows))
is "flags_from" "$(jq -r .flags_from "$tmp/out")" compile_commands.json
case "$(jq -r .compile_command "$tmp/out")" in
*" -O1 -DUSER_FLAG=1 -c "*kernel.c" -o "*kernel.o) pass "the entry's flags, without its -c, -o and file" ;;
*) flunk "the entry's flags, without its -c, -o and file" ;;
esac
is "the compiler ran in the entry's directory" "$(jq -r .compile_dir "$tmp/out")" "$tmp"
cat >"$tmp/cc.json" <<EOF
[ { "directory": "/", "file": "$user", "command": "cc -O2 '-DNAME=\"a b\"' -c $user -o pr.o" } ]
EOF
status "compile_commands.json with a command string" 0 "$augur" --json measure "$user" \
    --function pr_step --data "$small" --compile-commands "$tmp/cc.json" --no-counts "${quick[@]}"
case "$(jq -r .compile_command "$tmp/out")" in
*" -O2 '-DNAME=\"a b\"' -c "*) pass "the command is split as a shell would" ;;
*) flunk "the command is split as a shell would" ;;
esac
is "--no-counts: no bytes" "$(jq .bytes "$tmp/out")" null
status "flags after --, no damping value" 0 "$augur" --json measure "$user" --function pr_step \
    --data "$small" "${quick[@]}" -- -O2
is "flags_from the defaults and the command line" "$(jq -r .flags_from "$tmp/out")" \
    "defaults and command line"
case "$(jq -r .compile_command "$tmp/out")" in
*" -O3 -march=native "*" -O2 -c "*) pass "the flags given follow the defaults" ;;
*) flunk "the flags given follow the defaults" ;;
esac
is "the default value is said" \
    "$(jq -r '.notes[] | select(test("damping")) | test("passed 0.5")' "$tmp/out")" true

# ---- a whole topology-driven BFS, round by round ----
if [ -d "$data" ]; then
    status "bfs: a whole search per repetition" 0 "$augur" --json measure \
        "$src/kernels/bfs/ref.c" --function bfs_topo_round_ref --data "$data/walshaw_4elt.mtx" \
        "${quick[@]}"
    is "bfs: round-based" "$(jq .round_based "$tmp/out")" true
    is "bfs: the compiled search and the interpreter run the same rounds" \
        "$(jq '.rounds == .interp_rounds and .rounds > 2' "$tmp/out")" true
else
    skip "bfs: a whole search per repetition" "no datasets"
fi

# ---- bad input ----
"$augur" --json measure "$src/tests/data/measure/gcc_error.c" --data "$small" "${quick[@]}" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if "${CC:-cc}" --version 2>/dev/null | grep -qi clang; then
    skip "a kernel the compiler rejects" "the compiler is clang"
else
    is "a kernel the compiler rejects fails" "$rc" 1
    check "the compiler's file:line:col error is passed through" \
        grep -q "gcc_error.c:10:5: error: .this_is_not_declared" "$tmp/err"
    check "the error names the file, line and column" \
        grep -q '"error":".*gcc_error.c:10:5: .*this_is_not_declared' "$tmp/out"
fi
# a pointer to rows of 4 (double (*restrict Y)[4]) is a pointer: the driver passes the array
cat >"$tmp/rows4.c" <<'EOF'
void rows4(int n, const double (*X)[4], double (*restrict Y)[4])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 4; j++)
            Y[i][j] = 2.0 * X[i][j];
}
EOF
status "pointers to arrays of 4" 0 "$augur" --json measure "$tmp/rows4.c" --data "$small" \
    --bind 'X=vec(4*n),Y=vec(4*n)' "${quick[@]}"
is "pointers to arrays of 4: a time" "$(jq '.median > 0' "$tmp/out")" true
# C++ (a reference parameter), a matrix as rows of pointers: the kernel checks the pointers
if command -v "${CXX:-c++}" >/dev/null; then
    status "C++, rows of pointers" 0 "$augur" --json measure "$src/tests/data/measure/rows_checked.cpp" \
        --data "$small" "${quick[@]}"
    is "C++, rows of pointers: a time" "$(jq '.median > 0' "$tmp/out")" true
    check "the pointers' blocks are named" grep -q "'A.cols' points into 'A.cols.pointee' (csr.col" \
        "$tmp/out"
    check "compiled as C++" grep -q -- "-x c++" "$tmp/out"
    status "C++, std::vector parameters" 0 "$augur" --json measure \
        "$src/tests/frontend/std_vector.cpp" --data "$small" "${quick[@]}"
    is "std::vector: a time" "$(jq '.median > 0' "$tmp/out")" true
    is "std::vector: the kernel's stores are seen in the vector" \
        "$(jq -c .work_check "$tmp/out")" "{\"changed\":$nrows,\"written\":$nrows}"
    # (a call without the template's arguments does not compile: the run is the check)
    status "C++, a function template called with the arguments analysed" 0 "$augur" --json \
        measure "$src/tests/frontend/cpp_template.cpp" --template I=int,T=double \
        --data "$small" "${quick[@]}"
    status "C++, an adjacency list (std::vector of vectors)" 0 "$augur" --json measure \
        "$src/tests/data/measure/adjacency_checked.cpp" --data "$small" "${quick[@]}"
    is "adjacency list: every node's sum written" \
        "$(jq -c .work_check "$tmp/out")" "{\"changed\":$nrows,\"written\":$nrows}"
    # a C++ header (.h) read and compiled as C++ when the flags say -x c++
    cp "$src/tests/frontend/std_vector.cpp" "$tmp/vector_kernel.h"
    status "C++ in a .h with -x c++" 0 "$augur" --json measure "$tmp/vector_kernel.h" \
        --data "$small" "${quick[@]}" -- -x c++
    is "C++ in a .h: a time" "$(jq '.median > 0' "$tmp/out")" true
    status "C++, structs of std::vector members" 0 "$augur" --json measure \
        "$src/tests/data/measure/struct_vectors.cpp" --data "$small" "${quick[@]}"
    is "structs of vectors: the output member's stores are seen" \
        "$(jq -c .work_check "$tmp/out")" "{\"changed\":$nrows,\"written\":$nrows}"
else
    skip "C++, rows of pointers" "no C++ compiler"
fi
printf 'void broken(int n, double *y)\n{\n    y[0] = n +;\n}\n' >"$tmp/syntax.c"
status "a kernel that does not parse" 1 "$augur" measure "$tmp/syntax.c" --data "$small"
check "the front end names syntax.c:3" grep -q "syntax.c:3:" "$tmp/err"

crash=$src/tests/data/measure/null_write.c
status "crash=0 runs" 0 "$augur" measure "$crash" --data "$small" --bind crash=0 "${quick[@]}"
status "a kernel writing through NULL fails" 1 "$augur" --json measure "$crash" --data "$small" \
    --bind crash=1 "${quick[@]}"
is "the crash is reported with its signal" "$(jq -r .error "$tmp/out")" \
    "scale crashed: killed by SIGSEGV (Segmentation fault) in the warm-up call"

t0=$(date +%s)
status "a kernel that never returns is killed" 1 "$augur" measure \
    "$src/tests/data/measure/forever.c" --data "$small" --bind "y=vec(n)" --timeout 1
t1=$(date +%s)
check "killed at the time limit" grep -q "spin ran past the time limit of 1 s and was killed" \
    "$tmp/err"
check "no hang: done within 30 s" [ $((t1 - t0)) -lt 30 ]
is "no working folder left behind" "$(ls "$TMPDIR" | wc -l)" 0

status "bindings that do not fit the data" 1 "$augur" measure "$src/samples/spmv.c" \
    --data "$small" --bind "x=csr.rowptr"
check "the bad binding names the array and its line" grep -q "spmv.c:8:[0-9]*: .*'x'" "$tmp/err"
status "index data for a double array" 1 "$augur" measure "$crash" --data "$small" \
    --bind "crash=0,x=ell.idx"
check "index data into a double array is refused" grep -q "null_write.c:9:[0-9]*: .*'x'" "$tmp/err"
status "a value for no parameter" 1 "$augur" measure "$src/samples/spmv.c" --data "$small" \
    --bind zzz=3
check "unknown names are refused" grep -q "cannot bind 'zzz'" "$tmp/err"
status "a pointer the skeleton leaves out, passed as NULL" 1 "$augur" measure \
    "$src/tests/data/measure/loaded_pointer.c" --data "$small" --bind 'x=vec(n)' "${quick[@]}"
check "the crash names it" \
    grep -q "crashed: killed by SIGSEGV .*passed as NULL, since the skeleton does not access them: 'out'" \
    "$tmp/err"
status "an unbound scalar" 1 "$augur" measure "$crash" --data "$small" "${quick[@]}"
check "the unbound scalar is named" grep -q "null_write.c:9:[0-9]*: scalar 'crash'" "$tmp/err"

# ---- arguments the driver builds: structs, variables of the file; the work check ----
structs=$src/tests/data/measure/struct_csr.c
status "a struct passed by value" 0 "$augur" --json measure "$structs" --function mat_spmv_byval \
    --data "$small" --no-counts "${quick[@]}"
is "its members are bound" "$(jq -r '.arguments[0].binding' "$tmp/out")" \
    "struct mat_t, .ptr = csr.rowptr (11144 elements), .val = csr.val (65636 elements), .idx = csr.col (65636 elements), .nrows = n (11143)"
is "the work check saw every row written" "$(jq -c .work_check "$tmp/out")" \
    "{\"changed\":$nrows,\"written\":$nrows}"
status "an output handed over by address, (*result)[i]" 0 "$augur" --json measure "$structs" \
    --function mat_spmv_out --data "$small" --no-counts "${quick[@]}"
is "it is the array of doubles, passed as &pointer; every row written" \
    "$(jq -c '[.arguments[0].name, .arguments[0].binding, .work_check]' "$tmp/out")" \
    "[\"result\",\"vec(n)\",{\"changed\":$nrows,\"written\":$nrows}]"
status "a struct by pointer, its flag bound" 0 "$augur" measure "$structs" --function mat_spmv \
    --data "$small" --bind "A->format==1" --no-counts "${quick[@]}"
check "the flag member is set" grep -q "\.format = =1 (1)" "$tmp/out"
status "a struct by pointer, the flag left 0" 1 "$augur" measure "$structs" --function mat_spmv \
    --data "$small" --bind "A->format==0" --no-counts "${quick[@]}"
check "the work check refuses a call that did nothing" \
    grep -q "mat_spmv changed none of the $nrows elements of 'y'" "$tmp/err"
status "--allow-empty times it anyway" 0 "$augur" measure "$structs" --function mat_spmv \
    --data "$small" --bind "A->format==0" --no-counts --allow-empty "${quick[@]}"
check "and says so" grep -q "the warm-up call changed none" "$tmp/out"
# a star: every node's root is node 0, so union-find's labels end as the zeros they began as
{
    echo '%%MatrixMarket matrix coordinate pattern general'
    echo '64 64 63'
    for i in $(seq 2 64); do echo "$i 1"; done
} >"$tmp/star.mtx"
status "a result that equals the data" 0 "$augur" measure "$src/bench/unseen/union_find.c" \
    --data "$tmp/star.mtx" --no-counts "${quick[@]}"
check "the second look finds the work" grep -q "refilled with ones, they changed in a call" \
    "$tmp/out"
check "its parents, which decide its branches, are restored before each timed call" \
    grep -q "'parent' restored to the data's values before each timed call" "$tmp/out"
status "a BFS step over every node" 0 "$augur" measure "$src/bench/unseen/bfs_macro_omp.c" \
    --data "$small" --no-counts --keep "${quick[@]}"
check "its visited check's array is restored" \
    grep -q "'bfs_tree' restored to the data's values" "$tmp/out"
wd=$(sed -n 's/^working folder kept: *//p' "$tmp/out" | head -1)
check "the driver resets it, and it alone" \
    [ "$(grep -c 'restore\[n\] = 1' "${wd:-/nonexistent}/kernel.c")" = 1 ]
rm -rf "${wd:-/nonexistent}"
status "spmv" 0 "$augur" measure "$src/samples/spmv.c" --data "$small" --no-counts "${quick[@]}"
check "writes y but never reads it: nothing restored" \
    [ "$(grep -c "restored to the data" "$tmp/out")" = 0 ]
status "stores all under an if: a call that changed nothing" 0 "$augur" measure \
    "$src/bench/unseen/bellman_ford.c" --data "$small" --no-counts "${quick[@]}"
check "is a note" grep -q "every store is under an if, and the data called for none" "$tmp/out"
status "variables of the file" 0 "$augur" measure "$src/tests/data/measure/statics.c" \
    --data "$small" "${quick[@]}"
check "the file's size is set" grep -q "variable 'nrows' of the file is set to n (11143)" \
    "$tmp/out"
check "its arrays are set" grep -q "variable 'rowptr' of the file is set to csr.rowptr" "$tmp/out"
check "and the kernel did the work" grep -q "changed 11143 of the 11143 elements" "$tmp/out"

# a level-synchronous search whose depth parameter is the round before (bound to round-1)
status "a search over interleaved offsets" 0 "$augur" --json measure \
    "$src/tests/data/measure/bfs_interleaved.c" --data "$small" --no-counts "${quick[@]}"
is "round-based" "$(jq .round_based "$tmp/out")" true
check "every round of the search" [ "$(jq .rounds "$tmp/out")" -gt 10 ]
check "and it reached every node" [ "$(jq .work_check.changed "$tmp/out")" -gt 11000 ]

# ---- --schedule: the measured copy runs the schedule asked for, not the source's ----
status "spmv --schedule dynamic,64 --threads 2" 0 "$augur" --json measure "$src/samples/spmv.c" \
    --data "$small" --threads 2 --schedule dynamic,64 --keep "${quick[@]}"
is "the JSON says the schedule" "$(jq -r .schedule "$tmp/out")" dynamic,64
is "OMP_SCHEDULE as run" "$(jq -r .omp.OMP_SCHEDULE "$tmp/out")" dynamic,64
is "one directive rewritten" "$(jq .schedule_directives "$tmp/out")" 1
is "the counts are the same" "$(jq .accesses "$tmp/out")" $((3 * nrows + 3 * nnz))
wd=$(jq -r .workdir "$tmp/out")
check "the copy's directive says schedule(runtime)" \
    grep -q "^#pragma omp parallel for schedule(runtime)$" "$wd/source/spmv.c"
check "and its lines are the source's" \
    grep -q "^#line 1 \"$src/samples/spmv.c\"$" "$wd/source/spmv.c"
is "line for line" "$(tail -n +2 "$wd/source/spmv.c" | sed 's/schedule(runtime)/schedule(static)/' | cmp - "$src/samples/spmv.c" && echo same)" same
rm -rf "$wd"
status "without --schedule: no schedule" 0 "$augur" --json measure "$src/samples/spmv.c" \
    --data "$small" --no-counts "${quick[@]}"
is "null" "$(jq -c '[.schedule, .schedule_directives, .omp.OMP_SCHEDULE]' "$tmp/out")" "[null,0,null]"
status "text" 0 "$augur" measure "$src/samples/spmv.c" --data "$small" --threads 2 \
    --schedule guided,8 --no-counts "${quick[@]}"
check "says the schedule overrides the source's" grep -q "^schedule guided,8 for every worksharing loop, overriding the source's: OMP_SCHEDULE=guided,8 (augur), 1 directive of the compiled copy says schedule(runtime)$" "$tmp/out"
# probe.c aborts unless iteration i runs on thread i % 2: schedule(static, 1), not its static
probe=(--data "$small" --bind "n=n,rowptr=csr.rowptr,y=vec(n)" --threads 2 --no-counts "${quick[@]}")
status "the probe dies under its own schedule(static)" 1 "$augur" measure \
    "$src/tests/data/measure/sched/probe.c" "${probe[@]}"
check "with SIGABRT" grep -q "probe crashed: killed by SIGABRT" "$tmp/err"
status "and runs with --schedule static,1 (the environment's OMP_SCHEDULE replaced)" 0 \
    env OMP_SCHEDULE=guided "$augur" --json measure "$src/tests/data/measure/sched/probe.c" \
    --schedule static,1 "${probe[@]}"
is "its continued directive rewritten, its \"\" include found" \
    "$(jq -c '[.schedule, .omp.OMP_SCHEDULE, .schedule_directives, .median > 0]' "$tmp/out")" \
    '["static,1","static,1",1,true]'
is "working folder removed, copy and all" "$(ls "$TMPDIR" | wc -l)" 0
status "a directive written with _Pragma" 1 "$augur" measure \
    "$src/tests/data/measure/sched/pragma_op.c" --data "$small" --schedule dynamic "${quick[@]}"
check "is refused, not timed with its own schedule" \
    grep -q "pragma_op.c:5: the kernel uses _Pragma: a schedule override rewrites #pragma omp lines only" "$tmp/err"
status "a directive from a macro" 1 "$augur" measure "$src/tests/data/measure/sched/pragma_macro.c" \
    --data "$small" --schedule dynamic "${quick[@]}"
check "is refused, naming the loop's line" \
    grep -q "pragma_macro.c:7: this worksharing loop has no '#pragma omp ... for' line right before it" "$tmp/err"
status "a kernel without a worksharing loop" 1 "$augur" measure "$crash" --data "$small" \
    --bind crash=0 --schedule dynamic "${quick[@]}"
check "is refused" grep -q "the kernel has no OpenMP worksharing directive" "$tmp/err"
for bad in dynamic,0 static,x auto,8 runtime fast,4; do
    status "--schedule $bad" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --schedule "$bad"
    check "is a usage error naming the option" grep -q "^augur: error: --schedule: " "$tmp/err"
done
is "no working folder left behind" "$(ls "$TMPDIR" | wc -l)" 0

status "--reps 0" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --reps 0
status "--threads abc" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --threads abc
status "--min-time -1" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --min-time -1
status "--timeout 0" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --timeout 0
status "missing --data" 2 "$augur" measure "$src/samples/spmv.c"
status "missing file" 2 "$augur" measure --data "$small"
status "unknown option" 2 "$augur" measure "$src/samples/spmv.c" --data "$small" --bogus
status "a skeleton file" 2 "$augur" measure "$tmp/x.skel" --data "$small"
status "a missing dataset" 1 "$augur" measure "$src/samples/spmv.c" --data "$tmp/none.mtx"

echo "1..$n"
