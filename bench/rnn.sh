#!/bin/bash
# rnn.sh - the Random Node Neighbor estimate of the clustering coefficient
# (Zhu et al. PACT'19 Algorithm 3) with and without an error target: for every shared
# dataset, 5 seeds at a 1 % rate, then the same with --rnn-error E (draw
# past the rate until the estimate's standard error is at most E of it):
# the error against the exact value (Zhu et al. PACT'19 eq. 7), the share of the
# nodes drawn, and how often the exact value lies within two of the
# reported standard errors (whether the standard error can be trusted).
#
#   bench/rnn.sh [AUGUR_BIN] [OUT.md] [E]
#
# Defaults: build/augur, bench-rnn.md in the current directory, E = 0.05.
# The datasets come from $AUGUR_DATASETS (default ../shared/datasets beside
# the checkout). About 30 seconds on the development VM. The table it
# writes is in docs/sampling.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
augur=${1:-$top/build/augur}
out=${2:-bench-rnn.md}
target=${3:-0.05}
data=${AUGUR_DATASETS:-$top/../shared/datasets}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/datasets.sh
. "$top/bench/datasets.sh"
dataset_files "$data" rnn.sh

i=0
for f in "${files[@]}"; do
    i=$((i + 1))
    echo "[$i/${#files[@]}] $(basename "$f")" >&2
    "$augur" --json data info --rnn-rate 0.01 --seed 1 "$f" >"$tmp/$i.info.json"
    for seed in 1 2 3 4 5; do
        "$augur" --json data info --no-clustering --rnn-rate 0.01 --seed $seed "$f" \
            >"$tmp/$i.plain.$seed.json"
        t0=$(date +%s.%N)
        "$augur" --json data info --no-clustering --rnn-rate 0.01 --rnn-error "$target" \
            --seed $seed "$f" >"$tmp/$i.target.$seed.json"
        t1=$(date +%s.%N)
        echo "$t0 $t1" >"$tmp/$i.target.$seed.time"
    done
done

python3 - "$tmp" "${#files[@]}" "$out" "$augur" "$target" <<'PY'
import json, statistics, sys
tmp, n, out, augur, target = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
L = ["Command: `bench/rnn.sh %s OUT %s`; seeds 1-5, rate 1 %%, undirected." % (augur, target), "",
     "| dataset | nodes | exact | error at 1 %% | its SE / estimate | nodes drawn | "
     "error, target %s | nodes drawn | exact within 2 SE |" % target,
     "|---|---|---|---|---|---|---|---|---|"]
tot = {"plain": [], "target": [], "drawn": [], "drawn_plain": [], "cover": [0, 0], "big": []}
for i in range(1, n + 1):
    info = json.load(open("%s/%d.info.json" % (tmp, i)))
    ex = info["clustering"]["undirected"]["value"]
    res, cover = {}, [0, 0]
    for kind in ("plain", "target"):
        errs, drawn, rse = [], [], []
        for s in range(1, 6):
            e = json.load(open("%s/%d.%s.%d.json" % (tmp, i, kind, s)))["clustering_estimate"]
            v, se = e["value"], e["std_error"]
            errs.append(abs(v - ex) / ex if ex else abs(v))
            drawn.append(e["nodes_sampled"] / e["nodes"])
            if se is not None and v > 0:
                rse.append(se / v)
            if kind == "target" and se is not None:
                cover[0] += abs(v - ex) <= 2 * se
                cover[1] += 1
        res[kind] = (statistics.mean(errs), statistics.mean(drawn), statistics.mean(rse) if rse else None)
    tot["cover"][0] += cover[0]; tot["cover"][1] += cover[1]
    tot["plain"].append(res["plain"][0]); tot["target"].append(res["target"][0])
    tot["drawn_plain"].append(res["plain"][1]); tot["drawn"].append(res["target"][1])
    if info["rows"] >= 100000:
        tot["big"].append((res["plain"][0], res["target"][0], res["target"][1]))
    L.append("| %s | %d | %.4f | %.1f %% | %s | %.1f %% | %.1f %% | %.1f %% | %d of %d |" % (
        info["file"].split("/")[-1], info["rows"], ex, 100 * res["plain"][0],
        "%.0f %%" % (100 * res["plain"][2]) if res["plain"][2] is not None else "-",
        100 * res["plain"][1], 100 * res["target"][0], 100 * res["target"][1], cover[0], cover[1]))
L.append("| **mean** | | | **%.1f %%** | | %.1f %% | **%.1f %%** | %.1f %% | %d of %d |" % (
    100 * statistics.mean(tot["plain"]), 100 * statistics.mean(tot["drawn_plain"]),
    100 * statistics.mean(tot["target"]), 100 * statistics.mean(tot["drawn"]),
    tot["cover"][0], tot["cover"][1]))
L.append("| **median** | | | %.1f %% | | | %.1f %% | %.1f %% | |" % (
    100 * statistics.median(tot["plain"]), 100 * statistics.median(tot["target"]),
    100 * statistics.median(tot["drawn"])))
if tot["big"]:
    L.append("")
    L.append("The %d datasets of at least 100 000 nodes: %.1f %% at 1 %%, %.1f %% with the target "
             "(%.1f %% of their nodes drawn)." % (len(tot["big"]),
             100 * statistics.mean(b[0] for b in tot["big"]), 100 * statistics.mean(b[1] for b in tot["big"]),
             100 * statistics.mean(b[2] for b in tot["big"])))
open(out, "w").write("\n".join(L) + "\n")
print("\n".join(L))
PY
