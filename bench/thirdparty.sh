#!/bin/bash
# thirdparty.sh - augur on public kernels as their projects ship them, with no
# bindings by hand: each case is one `augur predict --measure` (the default
# machine: this host's calibration), printed as predicted against measured
# (the median of the timed calls) with the error, or the error message when
# augur refuses the file. Nothing is fetched: give the projects' checkouts.
#
# usage: bench/thirdparty.sh BUILD_DIR [DATASETS_DIR]
#   HPCCG=DIR    Mantevo's HPCCG (HPC_sparsemv.cpp: rows of pointers, C++)
#   HPCG=DIR     the HPCG benchmark (src/ComputeSPMV_ref.cpp, C++)
#   CSPARSE=DIR  CSparse (Source/cs_gaxpy.c, Source/cs_lsolve.c, Include/)
# A project whose variable is unset or whose folder is missing is skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench/thirdparty.sh BUILD_DIR [DATASETS_DIR]}
data=${2:-$here/../shared/datasets}
augur=$build/augur
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME FILE DATASET THREADS [-- COMPILER_ARGS...]
run() {
    local name=$1 file=$2 ds=$3 t=$4
    shift 4
    if "$augur" --json predict "$file" --data "$data/$ds" --threads "$t" --measure "$@" \
        >"$tmp/out.json" 2>"$tmp/err"; then
        python3 - "$name" "$ds" "$t" "$tmp/out.json" <<'EOF'
import json, sys
name, ds, t, path = sys.argv[1:5]
d = json.load(open(path))
p = d["seconds"]
m = (d.get("measured") or {}).get("median")
if m:
    print("%-34s %-28s %2s %12.4g %12.4g %7.1f%%" % (name, ds, t, p, m, 100 * abs(p - m) / m))
else:
    print("%-34s %-28s %2s %12.4g %12s %8s" % (name, ds, t, p, "-", "-"))
EOF
    else
        printf '%-34s %-28s %2s refused: %s\n' "$name" "$ds" "$t" "$(grep -m1 'error' "$tmp/err")"
    fi
}

echo "# $(date -u +%Y-%m-%d), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %-28s %2s %12s %12s %8s\n' kernel dataset T "predicted s" "measured s" error
for ds in mtx/ss_bcsstk16.mtx mtx/road_usa_NY.mtx.gz; do
    for t in 1 2; do
        if [ -n "${HPCCG:-}" ] && [ -d "$HPCCG" ]; then
            run "HPCCG HPC_sparsemv.cpp" "$HPCCG/HPC_sparsemv.cpp" "$ds" "$t" -- -DUSING_OMP
        fi
        if [ -n "${HPCG:-}" ] && [ -d "$HPCG" ]; then
            run "HPCG ComputeSPMV_ref.cpp" "$HPCG/src/ComputeSPMV_ref.cpp" "$ds" "$t" \
                -- -DHPCG_NO_MPI -DNDEBUG
        fi
    done
    if [ -n "${CSPARSE:-}" ] && [ -d "$CSPARSE" ]; then
        run "CSparse cs_gaxpy.c" "$CSPARSE/Source/cs_gaxpy.c" "$ds" 1 -- -I"$CSPARSE/Include"
        run "CSparse cs_lsolve.c" "$CSPARSE/Source/cs_lsolve.c" "$ds" 1 -- -I"$CSPARSE/Include"
    fi
done
