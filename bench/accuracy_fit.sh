#!/bin/bash
# accuracy_fit.sh - the aggregate model's error on saved `augur predict
# --measure --json` runs (bench/accuracy.sh keeps them with ACCURACY_OUT):
# `augur train model --holdout K` fits the machine's core rates on all but
# every K-th dataset (sorted by name), then this prints, per kernel and
# thread count and overall, the median and 90th percentile of the error
# (Zhu et al. PACT'19 eq. 7) with the machine file as given ("before") and fitted
# ("after"), on the held-out datasets and on all of them.
#
# usage: bench/accuracy_fit.sh BUILD_DIR MACHINE.yml RUNS_DIR [K]   (K default 2)
set -uo pipefail
build=${1:?usage: bench/accuracy_fit.sh BUILD_DIR MACHINE.yml RUNS_DIR [K]}
machine=${2:?usage: bench/accuracy_fit.sh BUILD_DIR MACHINE.yml RUNS_DIR [K]}
runs=${3:?usage: bench/accuracy_fit.sh BUILD_DIR MACHINE.yml RUNS_DIR [K]}
k=${4:-2}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2046
"$build/augur" train model --machine "$machine" --holdout "$k" -o "$runs/fitted.yml" \
    $(grep -l '"measured"' "$runs"/json/*.json) >"$out" || exit 1
sed -n 1,5p "$out"
python3 - "$out" <<'PY'
import re, sys, statistics
rows = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[6] in ("fit", "test") and f[1].endswith(".json"):
        kernel = f[1].split("--")[1]
        meas, before, after = float(f[3]), float(f[4]), float(f[5])
        rows.append((kernel, int(f[2]), f[6], abs(before - meas) / meas, abs(after - meas) / meas))
def pct(v, q):
    v = sorted(v)
    return v[max(0, min(len(v) - 1, int(round(q * (len(v) - 1)))))]
def line(name, sel):
    if not sel:
        return
    b = [r[3] for r in sel]
    a = [r[4] for r in sel]
    print(f"{name:<24} {len(sel):5d} {100*statistics.median(b):8.1f}% {100*pct(b, .9):8.1f}%"
          f" {100*statistics.median(a):8.1f}% {100*pct(a, .9):8.1f}%")
print(f"\n{'held-out runs':<24} {'runs':>5} {'median':>9} {'p90':>9} {'median':>9} {'p90':>9}")
print(f"{'':<24} {'':>5} {'before':>9} {'before':>9} {'after':>9} {'after':>9}")
test = [r for r in rows if r[2] == "test"]
for kern in sorted({r[0] for r in rows}):
    for t in sorted({r[1] for r in rows}):
        line(f"{kern} T={t}", [r for r in test if r[0] == kern and r[1] == t])
line("all held out", test)
line("all fitted", [r for r in rows if r[2] == "fit"])
line("all runs", rows)
PY
