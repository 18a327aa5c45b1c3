#!/bin/bash
# compare_builds.sh - do two builds of augur predict the same? Each case (the
# reference kernels and a few of bench/unseen/ on four shared datasets, one and
# two threads) is predicted by both builds with the same machine file; prints a
# Markdown table of every model's time per call from each, and how many cases
# agree to the last digit. For a refactoring that must not change a number.
#
# usage: bench/compare_builds.sh OLD_BUILD NEW_BUILD [MACHINE.yml]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: bench/compare_builds.sh OLD_BUILD NEW_BUILD [MACHINE.yml]}
new=${2:?usage: bench/compare_builds.sh OLD_BUILD NEW_BUILD [MACHINE.yml]}
machine=${3:-$here/samples/machines/dev-epyc-zen4-2vcpu.yml}
data=${AUGUR_DATASETS:-$here/../shared/datasets}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kernels=(
    "kernels/spmv/omp.c spmv_csr_omp_static"
    "kernels/fv/omp.c fv_ell_omp_simple"
    "kernels/fv/omp.c fv_ell_omp_private"
    "kernels/ireduce/ref.c ireduce_euler_ref"
    "kernels/pagerank/omp.c pagerank_pull_omp"
    "bench/unseen/csc_gaxpy.c -"
    "bench/unseen/jds_spmv.c -"
    "bench/unseen/label_prop.c -"
)
sets="$here/samples/walshaw_fe_4elt2.mtx $data/mtx/ss_bcsstk13.mtx $data/mtx/snap_wiki-Vote.mtx $data/mtx/ss_rajat01.mtx"
times() { # times JSON: every model's seconds, or the error
    python3 -c 'import json,sys
try:
    d = json.load(open(sys.argv[1]))
    print(" ".join("%.17g" % m["seconds"] if m["seconds"] else "-" for m in d["models"]) if "models" in d else "error: " + d.get("error", "?"))
except Exception as e:
    print("error: no result")' "$1"
}
same=0
total=0
echo "| kernel | dataset | threads | old (bw opa skope, s) | new | same |"
echo "|---|---|---|---|---|---|"
for k in "${kernels[@]}"; do
    read -r file fn <<<"$k"
    for d in $sets; do
        [ -f "$d" ] || continue
        for t in 1 2; do
            args=("$here/$file" --data "$d" --machine "$machine" --threads "$t" --json)
            [ "$fn" = - ] || args+=(--function "$fn")
            "$old/augur" predict "${args[@]}" >"$tmp/old.json" 2>/dev/null
            "$new/augur" predict "${args[@]}" >"$tmp/new.json" 2>/dev/null
            a=$(times "$tmp/old.json")
            b=$(times "$tmp/new.json")
            total=$((total + 1))
            ok=no
            [ "$a" = "$b" ] && ok=yes && same=$((same + 1))
            name=$fn
            [ "$fn" = - ] && name=$(basename "$file" .c)
            echo "| \`$name\` | $(basename "$d" .mtx) | $t | $a | $b | $ok |"
        done
    done
done
echo
echo "$same of $total cases give the same time per call from every model, to the last digit."
