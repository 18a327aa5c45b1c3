#!/bin/bash
# accuracy_remote.sh - predicted against measured time on a machine augur
# was not built on. The measuring and the predicting are split: the target
# machine runs only `augur calibrate` and `augur measure`, and the
# predictions are made anywhere from the files it wrote, with the machine
# file it calibrated. Nothing of the target is fitted: the prediction reads
# the calibrated file as it is.
#
#   on the target:
#     bench/accuracy_remote.sh measure BUILD_DIR OUT DATASET...
#       augur calibrate -o OUT/machine.yml (thread counts $REMOTE_THREADS;
#       every measurement in OUT/calibrate.json),
#       then `augur measure --json` of every case (the kernels below, each
#       dataset, each thread count) into OUT/measured/DATASET--KERNEL--T.json
#   anywhere:
#     bench/accuracy_remote.sh predict BUILD_DIR OUT [DATASETS_DIR]
#       `augur predict --json` of every measured case on OUT/machine.yml,
#       with the target's measured block, into OUT/json/ (the form that
#       bench/accuracy.sh keeps; $REMOTE_OUT/json instead when set, to leave
#       a committed run untouched), then per kernel and thread count the
#       median and 90th percentile of the error (Zhu et al. PACT'19 eq. 7) and the
#       median of predicted over measured. The datasets are found in
#       DATASETS_DIR (default ../shared/datasets) by name, a .gz suffix
#       either side ignored.
#
# REMOTE_ONLY: a regular expression on the dataset names that `predict`
# keeps (default: all); REMOTE_THREADS: thread counts (default "1 2");
# REMOTE_KERNELS: names from the list below (default: the six of
# docs/results.md); REMOTE_DEADLINE: a time (seconds since the epoch) after
# which `measure` starts no new case, so that a run on a lent machine ends
# inside its lease. The ELLPACK kernels
# run where the largest degree is at most 64 and the BFS where there are at
# most 500 000 rows, as in bench/accuracy.sh.
set -uo pipefail
usage="usage: bench/accuracy_remote.sh measure BUILD_DIR OUT DATASET... | predict BUILD_DIR OUT [DATASETS_DIR]"
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?$usage}
build=${2:?$usage}
out=${3:?$usage}
shift 3
augur=$build/augur
threads=${REMOTE_THREADS:-1 2}
kernels=${REMOTE_KERNELS:-spmv_omp_static fv_omp_simple fv_omp_private bfs_topo_omp ireduce_euler_ref pagerank_omp}
# name file function kind (serial kernels run at one thread only)
all_kernels="spmv_omp_static:kernels/spmv/omp.c:spmv_csr_omp_static:omp
fv_omp_simple:kernels/fv/omp.c:fv_ell_omp_simple:omp
fv_omp_private:kernels/fv/omp.c:fv_ell_omp_private:omp
bfs_topo_omp:kernels/bfs/omp.c:bfs_topo_round_omp:omp
ireduce_euler_ref:kernels/ireduce/ref.c:ireduce_euler_ref:serial
pagerank_omp:kernels/pagerank/omp.c:pagerank_pull_omp:omp"

# kernel_of NAME: sets file, fn and kind of the kernel NAME; fails for others
kernel_of() {
    local name f g k
    while IFS=: read -r name f g k; do
        if [ "$name" = "$1" ]; then
            file=$f fn=$g kind=$k
            return 0
        fi
    done <<<"$all_kernels"
    return 1
}

measure() {
    [ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
    mkdir -p "$out/measured"
    echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs" \
        | tee "$out/host.txt"
    # --json keeps every measurement, the chase's latency curve included
    "$augur" calibrate -o "$out/machine.yml" --threads "$(echo $threads | tr ' ' ',')" --json \
        >"$out/calibrate.json" 2>"$out/calibrate.log" ||
        { echo "calibrate failed:" >&2; cat "$out/calibrate.log" >&2; exit 1; }
    echo "# calibrated: $out/machine.yml ($(date -u +%T))"
    for d in "$@"; do
        info=$("$augur" --json data info --no-clustering "$d" 2>/dev/null)
        # python3, not jq: a lent machine may lack jq
        read -r maxdeg rows < <(python3 -c 'import json, sys
try:
    j = json.loads(sys.argv[1]); print(j["features"]["degree"]["max"], j["rows"])
except (ValueError, KeyError):
    print(0, 0)' "$info")
        for name in $kernels; do
            kernel_of "$name" || { echo "unknown kernel $name" >&2; exit 2; }
            case $name in fv_*) [ "$maxdeg" -gt 64 ] && continue ;; esac
            case $name in bfs_*) [ "$rows" -gt 500000 ] && continue ;; esac
            for t in $threads; do
                [ "$kind" = serial ] && [ "$t" != 1 ] && continue
                if [ -n "${REMOTE_DEADLINE:-}" ] && [ "$(date +%s)" -ge "$REMOTE_DEADLINE" ]; then
                    echo "# deadline reached: $(basename "$d") $name $t and what follows not measured"
                    return 0
                fi
                opts=()
                case $name in bfs_*) opts=(--source maxdeg) ;; esac
                "$augur" measure "$here/$file" --function "$fn" --data "$d" --threads "$t" \
                    --reps 5 --no-counts --json "${opts[@]}" \
                    >"$out/measured/$(basename "$d")--$name--$t.json" 2>"$out/measure.err" ||
                    { echo "# failed: $(basename "$d") $name $t: $(head -c 300 "$out/measure.err")"; }
            done
        done
        echo "# $(date -u +%T) $(basename "$d")"
    done
}

predict() {
    local data=${1:-$here/../shared/datasets} dest=${REMOTE_OUT:-$out}
    mkdir -p "$dest/json"
    for m in "$out"/measured/*.json; do
        [ -s "$m" ] || continue
        base=$(basename "$m" .json)
        ds=${base%%--*} rest=${base#*--}
        name=${rest%--*} t=${rest##*--}
        [[ -z ${REMOTE_ONLY:-} || $ds =~ $REMOTE_ONLY ]] || continue
        kernel_of "$name" || continue
        plain=${ds%.gz}
        d=
        for c in "$data"/mtx/"$plain" "$data"/mtx/"$plain".gz "$data"/mesh/"$plain" "$data"/mesh/"$plain".gz; do
            [ -f "$c" ] && { d=$c; break; }
        done
        [ -n "$d" ] || { echo "# $plain: not in $data" >&2; continue; }
        opts=()
        case $name in bfs_*) opts=(--source maxdeg) ;; esac
        "$augur" predict "$here/$file" --function "$fn" --data "$d" --machine "$out/machine.yml" \
            --threads "$t" --json "${opts[@]}" 2>/dev/null |
            jq --slurpfile m "$m" '.measured = ($m[0] | {min, median, max, mean, reps, threads})
                | .error = ((.seconds - .measured.median) / .measured.median | if . < 0 then -. else . end)' \
                >"$dest/json/$plain--$name--$t.json" || rm -f "$dest/json/$plain--$name--$t.json"
    done
    python3 - "$dest/json" <<'PY'
import glob, json, os, statistics, sys

rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    try:
        j = json.load(open(f))
    except ValueError:
        continue
    ds, k, t = os.path.basename(f)[:-5].split("--")
    if j.get("seconds") and j["measured"].get("median"):
        rows.append((k, int(t), ds, j["seconds"], j["measured"]["median"]))

def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p * (len(v) - 1))))]

def line(label, rs):
    e = [abs(p - m) / m for *_, p, m in rs]
    r = [p / m for *_, p, m in rs]
    print("%-22s %4d %7.1f %7.1f %6.2f %5d" % (label, len(rs), 100 * statistics.median(e),
          100 * q(e, 0.9), statistics.median(r), sum(x <= 0.25 for x in e)))

print("%-22s %4s %7s %7s %6s %5s" % ("kernel, threads", "n", "med %", "p90 %", "ratio", "<=25%"))
for k, t in sorted({(r[0], r[1]) for r in rows}):
    line("%s T%d" % (k, t), [r for r in rows if (r[0], r[1]) == (k, t)])
for t in sorted({r[1] for r in rows}):
    line("all T%d" % t, [r for r in rows if r[1] == t])
if rows:
    line("all", rows)
PY
}

case $mode in
measure) measure "$@" ;;
predict) predict "$@" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
