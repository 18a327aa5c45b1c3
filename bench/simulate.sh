#!/bin/bash
# simulate.sh - throughput of the skeleton interpreter, alone and feeding the
# cache simulator (the development machine's L1 + L2 + L3 hierarchy), in
# accesses per second of CPU time, and the ratio to a native run of the same
# SpMV pass, on the largest shared matrix (road_usa_NE) and on road_usa_FLA,
# and augur_simulate() as predict runs it (branch predictor and prefetch
# streams too) on one thread and on two; cachegrind on the same SpMV over
# road_usa_FLA; then the finite-volume ELL kernel, and `augur simulate` end
# to end.
#
# usage: bench/simulate.sh [BUILD_DIR] [REPS]
#   BUILD_DIR holds augur and bench_simulate (default: build); datasets come
#   from $AUGUR_DATASETS (default ../shared/datasets). Best of REPS (3) runs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
reps=${2:-3}
data=${AUGUR_DATASETS:-$here/../shared/datasets}/mtx
machine=$here/samples/machines/dev-xeon-2vcpu.yml

[ -x "$build/bench_simulate" ] && [ -x "$build/augur" ] || {
    echo "simulate.sh: build augur and bench_simulate in $build first" >&2
    exit 1
}
echo "# $(date -u +%Y-%m-%d), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in road_usa_NE road_usa_FLA; do
    echo
    "$build/bench_simulate" "$here/kernels/spmv/ref.c" spmv_csr_ref "$data/$m.mtx.gz" "$machine" "$reps"
done
echo
if command -v valgrind >/dev/null 2>&1 && [ -x "$build/bench_cachesim" ]; then
    # the same CSR SpMV over road_usa_FLA natively under cachegrind (D1 and LL, no branch
    # simulation), in the same run: best of REPS
    best=""
    for _ in $(seq 1 "$reps"); do
        line=$(valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
            --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64 "$build/bench_cachesim" --native \
            --data "$data/road_usa_FLA.mtx.gz" --passes 3 2>/dev/null | awk '/^native/')
        t=$(echo "$line" | awk '{print $(NF-1)}')
        best=$(echo "$t ${best:-$t}" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    echo "$line $best" | awk '{ printf "cachegrind (D1 + LL), the same SpMV over road_usa_FLA: %s accesses in %.4f s, %.1f M accesses/s\n", $6, $NF, $6 / $NF / 1e6 }'
    echo
fi
"$build/bench_simulate" "$here/kernels/fv/ref.c" fv_ell_ref "$data/road_usa_NE.mtx.gz" "$machine" "$reps"
echo
echo "# augur simulate end to end (front end, loading, binding, one run, report), wall time:"
for k in "kernels/spmv/ref.c --function spmv_csr_ref" "kernels/fv/ref.c --function fv_ell_ref"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e s wall, %M KiB peak: augur simulate $k road_usa_NE" \
        "$build/augur" simulate "$here"/$k --data "$data/road_usa_NE.mtx.gz" | sed -n 3p
done
echo
echo "# threads: the OpenMP SpMV at 1 and 2 simulator threads (coherent private caches at 2),"
echo "# the development VM's machine file, road_usa_NY:"
for t in 1 2; do
    echo "T=$t: $("$build/augur" simulate "$here/kernels/spmv/omp.c" --function spmv_csr_omp_static \
        --data "$data/road_usa_NY.mtx.gz" --machine "$here/samples/machines/dev-epyc-2vcpu.yml" \
        --threads "$t" | sed -n 3p)"
done
