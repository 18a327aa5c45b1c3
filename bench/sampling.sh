#!/bin/bash
# sampling.sh - the evaluation benchmark of the samplers (Zhu et al. PACT'19 section
# III, issue 7 point 4): for every shared dataset and three kernels (CSR
# SpMV, the finite-volume ELL kernel, the Euler irregular reduction), the L1
# and L2 miss rates of 5 % samples against the full run, for Random Edge,
# Stride Average, Random Tile, Random Row Blocks and auto (the categorizer
# tree), as Zhu et al. PACT'19
# eq. 7 errors averaged over 5 seeds; and the Random Node Neighbor estimate
# of the clustering coefficient at 1, 5 and 10 % against the exact value.
#
#   bench/sampling.sh [AUGUR_BIN] [OUT.md]
#
# $SAMPLING_ONLY (a regular expression on the file names) limits the run to
# some datasets while developing; the docs' tables come from a full run.
#
# Defaults: build/augur, bench-sampling.md in the current directory. The
# datasets come from $AUGUR_DATASETS (default ../shared/datasets beside the
# checkout); the caches from samples/machines/dev-xeon-2vcpu.yml; the tree
# from samples/categorizer.tree. Extra options for 'augur data sample
# --evaluate' can be given in $SAMPLING_OPTS (e.g. "--scaling none"). Takes
# about 8 minutes on the development VM: 2 for the evaluations, the rest for
# the 16 'data info' runs a dataset of the clustering table. The table it
# writes is in docs/sampling.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
augur=${1:-$top/build/augur}
out=${2:-bench-sampling.md}
data=${AUGUR_DATASETS:-$top/../shared/datasets}
machine=$top/samples/machines/dev-xeon-2vcpu.yml
tree=$top/samples/categorizer.tree
opts=${SAMPLING_OPTS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/datasets.sh
. "$top/bench/datasets.sh"
dataset_files "$data" sampling.sh

i=0
for f in "${files[@]}"; do
    i=$((i + 1))
    name=$(basename "$f")
    echo "[$i/${#files[@]}] $name" >&2
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$augur" --json data sample "$f" --evaluate --machine "$machine" --tree "$tree" \
        --method all --seeds 5 --kernel all --rate 0.05 $opts >"$tmp/$i.eval.json"
    t1=$(date +%s.%N)
    "$augur" --json data info --tree "$tree" --rnn-rate 0.01 --seed 1 "$f" >"$tmp/$i.info.json"
    for rate in 0.01 0.05 0.1; do
        for seed in 1 2 3 4 5; do
            "$augur" --json data info --no-clustering --rnn-rate $rate --seed $seed "$f" \
                >"$tmp/$i.rnn.$rate.$seed.json"
        done
    done
    echo "$name $t0 $t1" >>"$tmp/times"
done

python3 - "$tmp" "${#files[@]}" "$out" "$augur" "$opts" <<'EOF'
import json, statistics, sys
tmp, n, out, augur, opts = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
methods = ["re", "sa", "rt", "rb", "auto"]
# The meshes numbered without locality (docs/sampling.md, "What did not transfer"): reported apart.
unordered = ("walshaw_wing", "frame_step", "gmsh_t13", "hinge", "mfem_indheat", "mfem_piece", "sfepy")
kernels = ["spmv", "fv", "ireduce"]
rows = []
for i in range(1, n + 1):
    ev = json.load(open("%s/%d.eval.json" % (tmp, i)))
    info = json.load(open("%s/%d.info.json" % (tmp, i)))
    rnn = {}
    for rate in ("0.01", "0.05", "0.1"):
        vals = [json.load(open("%s/%d.rnn.%s.%d.json" % (tmp, i, rate, s)))["clustering_estimate"]["value"]
                for s in range(1, 6)]
        rnn[rate] = vals
    rows.append((ev, info, rnn))

def name(ev):
    return ev["file"].rsplit("/", 1)[-1]

L = []
L.append("Command: `bench/sampling.sh %s` (each dataset: `augur --json data sample FILE --evaluate "
         "--machine samples/machines/dev-xeon-2vcpu.yml --method all --seeds 5 --kernel all --rate 0.05%s`)."
         % (augur.rsplit("/", 1)[-1] if "/" in augur else augur, (" " + opts) if opts else ""))
ev0 = rows[0][0]
L.append("")
L.append("Rate 5 %%; seeds 1-5 for RE, RT and RB (Stride Average is deterministic); cache scaling `%s`; "
         "%s pass; machine `%s`, one core. Error: Zhu et al. PACT'19 eq. 7, |sample - full| / full, "
         "averaged over the seeds." % (ev0["scaling"], "warm (second)" if ev0["warm"] else "cold (first)",
                                       ev0["machine_name"]))
# Summary.
L.append("")
L.append("### Summary: mean error over %d datasets" % n)
L.append("")
L.append("| kernel | level | RE | SA | RT | RB | auto | best of SA, RT, RB | auto, median | auto within 10 %% "
         "| auto, the %d unordered meshes | auto, the other %d |" % (
             sum(name(r[0]).startswith(unordered) for r in rows),
             sum(not name(r[0]).startswith(unordered) for r in rows)))
L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
summary = {}
for k in kernels:
    for lv in ("L1", "L2"):
        errs = {m: [] for m in methods + ["better", "mesh", "other"]}
        for ev, _, _ in rows:
            kk = [x for x in ev["kernels"] if x["kernel"] == k][0]
            ms = {m["method"]: m for m in kk["methods"]}
            for m in methods:
                errs[m].append(ms[m]["error"][lv])
            errs["better"].append(min(ms["sa"]["error"][lv], ms["rt"]["error"][lv], ms["rb"]["error"][lv]))
            errs["mesh" if name(ev).startswith(unordered) else "other"].append(ms["auto"]["error"][lv])
        mean = {m: 100 * sum(v) / len(v) if v else float("nan") for m, v in errs.items()}
        summary[(k, lv)] = mean
        L.append("| %s | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | **%.1f %%** | %.1f %% | %.1f %% | %d of %d "
                 "| %.1f %% | %.1f %% |"
                 % (k, lv, mean["re"], mean["sa"], mean["rt"], mean["rb"], mean["auto"], mean["better"],
                    100 * statistics.median(errs["auto"]), sum(e <= 0.1 for e in errs["auto"]),
                    len(errs["auto"]), mean["mesh"], mean["other"]))
for lv in ("L1", "L2"):
    allm = {m: sum(summary[(k, lv)][m] for k in kernels) / 3 for m in methods + ["better", "mesh", "other"]}
    L.append("| all three | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | **%.1f %%** | %.1f %% | | | %.1f %% | %.1f %% |"
             % (lv, allm["re"], allm["sa"], allm["rt"], allm["rb"], allm["auto"], allm["better"], allm["mesh"],
                allm["other"]))

# RNN.
L.append("")
L.append("### Random Node Neighbor clustering coefficient (undirected), mean of 5 seeds")
L.append("")
L.append("| dataset | nodes | exact | error at 1 % | at 5 % | at 10 % | nodes drawn at 1 % |")
L.append("|---|---|---|---|---|---|---|")
tot = {"0.01": [], "0.05": [], "0.1": []}
for ev, info, rnn in rows:
    ex = info["clustering"]["undirected"]["value"]
    errs = {}
    for r, vals in rnn.items():
        e = sum(abs(v - ex) / ex if ex else abs(v) for v in vals) / len(vals)
        errs[r] = e
        tot[r].append(e)
    L.append("| %s | %d | %.4f | %.1f %% | %.1f %% | %.1f %% | %d |"
             % (name(ev), info["rows"], ex, 100 * errs["0.01"], 100 * errs["0.05"], 100 * errs["0.1"],
                info["clustering_estimate"]["nodes_sampled"]))
L.append("| **mean** | | | **%.1f %%** | **%.1f %%** | **%.1f %%** | |"
         % tuple(100 * sum(tot[r]) / len(tot[r]) for r in ("0.01", "0.05", "0.1")))
big = [(e, info) for (ev, info, rnn), e in zip(rows, tot["0.01"]) if info["rows"] >= 100000]
if big:
    L.append("")
    L.append("Over the %d datasets with at least 100 000 nodes, the error at 1 %% is %.1f %%."
             % (len(big), 100 * sum(e for e, _ in big) / len(big)))

# Per dataset and kernel.
for k in kernels:
    L.append("")
    L.append("### %s: miss rates of the full run and errors of the samples" % k)
    L.append("")
    L.append("| dataset | auto | full L1 | full L2 | RE L1 | SA L1 | RT L1 | RB L1 | auto L1 | RE L2 | SA L2 | RT L2 "
             "| RB L2 | auto L2 |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for ev, _, _ in rows:
        kk = [x for x in ev["kernels"] if x["kernel"] == k][0]
        ms = {m["method"]: m for m in kk["methods"]}
        full = kk["full"]["levels"]
        cells = ["%.1f" % (100 * ms[m]["error"]["L1"]) for m in methods] + \
                ["%.1f" % (100 * ms[m]["error"]["L2"]) for m in methods]
        L.append("| %s | %s | %.4f | %.4f | %s |" % (name(ev), ms["auto"]["sampler"], full["L1"]["miss_rate"],
                                                     full["L2"]["miss_rate"], " | ".join(cells)))
times = [l.split() for l in open(tmp + "/times")]
L.append("")
L.append("Errors in %%. Wall time of the evaluations: %.0f s." % sum(float(t[2]) - float(t[1]) for t in times))
open(out, "w").write("\n".join(L) + "\n")
print("\n".join(L[:40]))
EOF
echo "written to $out" >&2
