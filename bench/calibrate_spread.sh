#!/bin/bash
# calibrate_spread.sh - does `augur calibrate` repeat? Runs it N times in a
# row on this host and prints, for every value of the machine file that a
# prediction reads (the clock, each level's latency and load bandwidth per
# thread count, memory's latency, bandwidth and MLP curve, the core's costs),
# its N values and their spread: (max - min) / median. The issue's target is
# a spread of at most 5 % for every one of them.
#
# usage: bench/calibrate_spread.sh [BUILD_DIR] [N] [--quick]
#   BUILD_DIR: default build; N: default 5. LOAD=1 runs a busy loop on one
#   core for the whole run (a second process loading one core). KEEP=DIR
#   writes the N machine files into DIR and keeps them (else a temporary
#   folder, removed at the end).
set -uo pipefail
build=${1:-build}
n=${2:-5}
quick=${3:-}
augur=$build/augur
busy=
if [ -n "${KEEP:-}" ]; then
    tmp=$KEEP
    mkdir -p "$tmp" || exit 1
    trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null' EXIT
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"; [ -n "$busy" ] && kill "$busy" 2>/dev/null' EXIT
fi

if [ "${LOAD:-0}" = 1 ]; then
    (while :; do :; done) &
    busy=$!
fi
start=$(date +%s)
for i in $(seq 1 "$n"); do
    "$augur" calibrate $quick -o "$tmp/m$i.yml" >/dev/null 2>"$tmp/err$i" || {
        cat "$tmp/err$i"
        exit 1
    }
done
end=$(date +%s)
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $n runs of augur calibrate $quick on $(hostname):" \
    "$((end - start)) s; another process loading one core: ${LOAD:-0}"
python3 - "$tmp" "$n" <<'EOF'
import sys, yaml, statistics
tmp, n = sys.argv[1], int(sys.argv[2])
files = [yaml.safe_load(open(f"{tmp}/m{i}.yml")) for i in range(1, n + 1)]

def kib(size):
    """A machine file's size ("8 MiB", "48 KiB" or bytes) in KiB."""
    if isinstance(size, (int, float)):
        return size / 1024
    num, unit = str(size).split()
    return float(num) * {"KiB": 1, "MiB": 1024, "GiB": 1024 * 1024}[unit]

def values(m):
    v = {"clock_ghz": m["clock_ghz"]}
    for c in m.get("caches", []):
        v[f"{c['name']}.size_kib"] = kib(c["size"])
        v[f"{c['name']}.latency_ns"] = c["latency_ns"]
        for t, bw in c["bandwidth_gbs"].items():
            v[f"{c['name']}.bandwidth_gbs.{t}"] = bw
    mem = m["memory"]
    v["memory.latency_ns"] = mem["latency_ns"]
    for t, bw in mem["bandwidth_gbs"].items():
        v[f"memory.bandwidth_gbs.{t}"] = bw
    for k, s in mem.get("mlp", []):
        v[f"memory.mlp.{k}"] = s
    for key in ("chain_cycles", "branch_miss_cycles", "fadd_latency", "fma_latency",
                "atomic_cycles", "region1_ns", "region_ns"):
        if key in m.get("core", {}):
            v[f"core.{key}"] = m["core"][key]
    for key in ("gather_cycles_per_element", "scatter_cycles_per_element"):
        if key in m.get("simd", {}):
            v[f"simd.{key}"] = m["simd"][key]
    return v

vals = [values(m) for m in files]
keys = [k for k in vals[0] if all(k in v for v in vals)]
worst, over = 0.0, 0
print(f"{'value':34s} {'spread':>7s}  values")
for k in keys:
    xs = [v[k] for v in vals]
    med = statistics.median(xs)
    spread = (max(xs) - min(xs)) / med if med else 0.0
    worst = max(worst, spread)
    over += spread > 0.05
    print(f"{k:34s} {100 * spread:6.1f}%  " + " ".join(f"{x:.4g}" for x in xs))
print(f"# {len(keys)} values; {over} spread over 5 %; the largest {100 * worst:.1f} %")
EOF
