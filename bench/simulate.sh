#!/bin/bash
# simulate.sh - throughput of the skeleton interpreter, alone and feeding the
# cache simulator (the development machine's L1 + L2 + L3 hierarchy), in
# accesses per second of CPU time, and the ratio to a native run of the same
# SpMV pass, on the largest shared matrix (road_usa_NE) and on road_usa_FLA;
# then the finite-volume ELL kernel, and `augur simulate` end to end.
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
