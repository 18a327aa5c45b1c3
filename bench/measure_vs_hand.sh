#!/bin/bash
# measure_vs_hand.sh - does `augur measure` time what a hand-written driver
# times? Three bench/unseen kernels of shapes its driver must build (a struct
# argument, jagged diagonals with a permutation, 1-based file statics), each
# timed by bench/hand/'s driver (written as a user would, compiled with the
# same -O3 -march=native) and by `augur measure` (driver generated from the
# bindings it infers), rounds interleaved; prints a Markdown table of the
# medians of the rounds' medians and their ratio.
#
# usage: bench/measure_vs_hand.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
rounds=${2:-3}
data=${AUGUR_DATASETS:-$here/../shared/datasets}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}

kernels="csc_gaxpy jds_spmv cg_static"
sets="$here/samples/walshaw_fe_4elt2.mtx $data/mtx/ss_bcsstk13.mtx $data/mtx/ss_rajat01.mtx $data/mtx/ss_cryg2500.mtx"
for k in $kernels; do
    $cc -O3 -march=native -o "$tmp/hand_$k" "$here/bench/hand/$k.c"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for r in $(seq 1 "$rounds"); do
    for k in $kernels; do
        for d in $sets; do
            [ -f "$d" ] || continue
            s=$(basename "$d" .mtx)
            "$tmp/hand_$k" "$d" 2>/dev/null >>"$tmp/$k.$s.hand"
            "$build/augur" --json measure "$here/bench/unseen/$k.c" --data "$d" --no-counts 2>/dev/null |
                python3 -c 'import json, sys; print("%.6e" % json.load(sys.stdin)["median"])' >>"$tmp/$k.$s.augur"
        done
    done
done
echo "| kernel | dataset | hand-written driver | augur measure | ratio |"
echo "|---|---|---|---|---|"
for k in $kernels; do
    for d in $sets; do
        [ -f "$d" ] || continue
        s=$(basename "$d" .mtx)
        h=$(median <"$tmp/$k.$s.hand")
        a=$(median <"$tmp/$k.$s.augur")
        awk -v k="$k" -v s="$s" -v h="$h" -v a="$a" \
            'BEGIN { printf "| `%s` | `%s` | %.3g s | %.3g s | %.2f |\n", k, s, h, a, a / h }'
    done
done
echo
echo "$rounds rounds, $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
