#!/bin/bash
# accuracy.sh - predicted against measured time per call (Zhu et al. PACT'19 eq. 7:
# |measured - predicted| / measured) for the reference kernels on every
# shared dataset at 1 and 2 threads: `augur predict --measure --json` runs
# the three models on the simulated run and times the same source file
# through `augur measure`. Prints one row per case, then per model and per
# kernel the median and 90th percentile of the error, with the machine file
# as `augur calibrate` wrote it (core rates: the documented defaults). Then
# `augur train model --holdout 2` fits the core rates on every other dataset
# (sorted by name) and reports the aggregate model's error on the held-out
# half, before and after the fit. ACCURACY_OUT=DIR keeps every run's JSON
# and the fitted machine file there.
#
# usage: bench/accuracy.sh BUILD_DIR MACHINE.yml [DATASET...]
#        (default datasets: every matrix and mesh in ../shared/datasets)
#        ACCURACY_THREADS="1 2" ACCURACY_KERNELS="spmv_ref ..." to narrow it
#        The ELLPACK kernels (fv_*) run where the largest degree is at most
#        ACCURACY_FV_MAXDEG (default 64): the finite-volume kernel is a mesh
#        kernel, and padding a power-law graph's rows to its largest degree
#        (1,383 on snap_email-Enron) makes a run of seconds that says nothing
#        about meshes. The topology-driven BFS sweeps every node in every
#        round (n x diameter accesses: billions on the largest road graphs)
#        and runs where the rows are at most ACCURACY_BFS_MAXROWS (500000).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench/accuracy.sh BUILD_DIR MACHINE.yml [DATASET...]}
machine=${2:?usage: bench/accuracy.sh BUILD_DIR MACHINE.yml [DATASET...]}
shift 2
augur=$build/augur
data=${AUGUR_DATASETS:-$here/../shared/datasets}
threads=${ACCURACY_THREADS:-1 2}
if [ $# -gt 0 ]; then
    datasets=("$@")
else
    datasets=()
    for f in "$data"/mtx/*.mtx* "$data"/mesh/*.msh* "$data"/mesh/*.mesh* "$data"/mesh/*.ele*; do
        [ -e "$f" ] && datasets+=("$f")
    done
fi
# name file function threads-it-runs-on (serial kernels run at 1 thread only)
all_kernels="spmv_ref:kernels/spmv/ref.c:spmv_csr_ref:serial
spmv_omp_static:kernels/spmv/omp.c:spmv_csr_omp_static:omp
spmv_omp_dynamic:kernels/spmv/omp.c:spmv_csr_omp_dynamic:omp
fv_ref:kernels/fv/ref.c:fv_ell_ref:serial
fv_omp_simple:kernels/fv/omp.c:fv_ell_omp_simple:omp
fv_omp_private:kernels/fv/omp.c:fv_ell_omp_private:omp
bfs_topo_ref:kernels/bfs/ref.c:bfs_topo_round_ref:serial
bfs_topo_omp:kernels/bfs/omp.c:bfs_topo_round_omp:omp
ireduce_euler_ref:kernels/ireduce/ref.c:ireduce_euler_ref:serial
ireduce_moldyn_ref:kernels/ireduce/ref.c:ireduce_moldyn_ref:serial
pagerank_ref:kernels/pagerank/ref.c:pagerank_pull_ref:serial
pagerank_omp:kernels/pagerank/omp.c:pagerank_pull_omp:omp"
out=$(mktemp)
keep=${ACCURACY_OUT:-}
runs=${keep:-$(mktemp -d)}
mkdir -p "$runs/json"
trap 'rm -f "$out"; [ -z "$keep" ] && rm -rf "$runs"' EXIT
echo "# augur predict --measure, $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), machine $machine"
printf "%-28s %-20s %2s %11s %11s %11s %11s %8s %s\n" dataset kernel T measured bw opa skope error bottleneck
for d in "${datasets[@]}"; do
    info=$("$augur" --json data info "$d" 2>/dev/null)
    maxdeg=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['features']['degree']['max'])" "$info" 2>/dev/null || echo 0)
    rows=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['rows'])" "$info" 2>/dev/null || echo 0)
    while IFS=: read -r name file fn kind; do
        case $name in fv_*) [ "$maxdeg" -gt "${ACCURACY_FV_MAXDEG:-64}" ] && continue ;; esac
        case $name in bfs_*) [ "$rows" -gt "${ACCURACY_BFS_MAXROWS:-500000}" ] && continue ;; esac
        if [ -n "${ACCURACY_KERNELS:-}" ] && ! [[ " $ACCURACY_KERNELS " == *" $name "* ]]; then
            continue
        fi
        for t in $threads; do
            [ "$kind" = serial ] && [ "$t" != 1 ] && continue
            opts=()
            case $name in bfs_*) opts=(--source maxdeg) ;; esac
            json=$("$augur" predict "$here/$file" --function "$fn" --data "$d" --machine "$machine" \
                --threads "$t" --measure --reps 5 --json "${opts[@]}" 2>/dev/null)
            printf '%s\n' "$json" >"$runs/json/$(basename "$d")--$name--$t.json"
            python3 - "$(basename "$d")" "$name" "$t" "$json" >>"$out" <<'PY'
import json, sys
ds, k, t, text = sys.argv[1:5]
try:
    doc = json.loads(text)
except ValueError:
    print(f"{ds} {k} {t} FAIL - - - - -")
    sys.exit(0)
if "error" in doc and "models" not in doc:
    print(f"{ds} {k} {t} FAIL - - - - -")
    sys.exit(0)
meas = doc.get("measured", {}).get("median")
secs = {m["name"]: m.get("seconds") for m in doc["models"]}
err = doc.get("error")
print(ds, k, t, meas if meas else "-",
      *[secs.get(n) if secs.get(n) else "-" for n in ("bw", "opa", "skope")],
      err if err is not None else "-", doc.get("bottleneck", "-").replace(" ", "_"))
PY
            tail -n 1 "$out" | awk '{ printf "%-28s %-20s %2s %11s %11s %11s %11s %8s %s\n", $1, $2, $3, $4, $5, $6, $7, ($8 == "-" ? "-" : sprintf("%.1f%%", 100 * $8)), $9 }'
        done
    done <<<"$all_kernels"
done
python3 - "$out" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
ok = [r for r in rows if r[3] not in ("FAIL", "-")]
fail = len(rows) - len(ok)
def pct(v, q):
    v = sorted(v)
    if not v:
        return float("nan")
    i = max(0, min(len(v) - 1, int(round(q * (len(v) - 1)))))
    return v[i]
print(f"\n# {len(ok)} cases measured, {fail} failed")
print(f"{'model':<8} {'median error':>13} {'p90 error':>10} {'within 25%':>11}")
for col, name in ((4, "bw"), (5, "opa"), (6, "skope")):
    e = [abs(float(r[col]) - float(r[3])) / float(r[3]) for r in ok if r[col] != "-"]
    if e:
        print(f"{name:<8} {100*statistics.median(e):12.1f}% {100*pct(e, 0.9):9.1f}% {sum(x <= 0.25 for x in e):5d} of {len(e)}")
print(f"\n{'kernel':<20} {'cases':>5} {'median':>8} {'p90':>8}  (selected estimate)")
for k in sorted({r[1] for r in ok}):
    e = [float(r[7]) for r in ok if r[1] == k and r[7] != "-"]
    if e:
        print(f"{k:<20} {len(e):5d} {100*statistics.median(e):7.1f}% {100*pct(e, 0.9):7.1f}%")
e = [float(r[7]) for r in ok if r[7] != "-"]
if e:
    print(f"{'all':<20} {len(e):5d} {100*statistics.median(e):7.1f}% {100*pct(e, 0.9):7.1f}%")
PY
echo
echo "# bench/accuracy_fit.sh: core rates fitted on every other dataset (sorted by name), error on the rest"
"$here/bench/accuracy_fit.sh" "$build" "$machine" "$runs" 2
