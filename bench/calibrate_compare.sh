#!/bin/bash
# calibrate_compare.sh - `augur calibrate` against independent tools from
# Debian: likwid-bench (load_avx512 and copy_avx512, or load and copy
# without AVX-512) at the same working sets and thread counts, mbw (memcpy of
# large arrays) and sysbench memory (reads of a large block). Prints markdown
# tables (the figures of docs/cli/calibrate.md). A benchmark, not a test: run
# it on a quiet machine; a full run takes a few minutes.
# Needs likwid and python3; mbw and sysbench are used when present
# (apt-get install likwid mbw sysbench).
#
#   bench/calibrate_compare.sh [--quick]     (AUGUR_BIN picks the binary)
set -u
augur=${AUGUR_BIN:-build/augur}
quick=""
[ "${1:-}" = "--quick" ] && quick="--quick"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in likwid-bench python3; do
    if ! command -v $tool >/dev/null; then
        echo "calibrate_compare: $tool not found" >&2
        exit 1
    fi
done

echo "# augur calibrate $quick vs independent tools, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs;" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
t0=$(date +%s.%N)
"$augur" calibrate $quick --json -o "$tmp/m.yml" >"$tmp/m.json" || exit 1
t1=$(date +%s.%N)
echo "augur calibrate $quick took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
echo

python3 - "$tmp/m.json" <<'EOF'
import json, subprocess, sys

r = json.load(open(sys.argv[1]))
avx = r["avx512"]
threads = r["threads"]


def size(b):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return "%d %s" % (b >> shift, unit)
    return "%d B" % b


def likwid(kernel, total_bytes, t):
    test = kernel + ("_avx512" if avx else "")
    # likwid's kB are 1000 bytes; its working set is that of all threads.
    out = subprocess.run(["likwid-bench", "-t", test, "-w", "S0:%dkB:%d" % (total_bytes // 1000, t)],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("MByte/s:"):
            return float(line.split()[1]) / 1000
    return None


def row(label, total_of, stats):
    cells = ["| %s |" % label]
    for t in threads:
        a = stats[str(t)]
        l = likwid(k, total_of(t), t)
        cells.append(" %.1f (%.1f) | %s | %s |" % (a["best"], a["median"], "%.1f" % l if l else "-",
                                                  "%.2f" % (a["best"] / l) if l else "-"))
    print("".join(cells))


for k in ("load", "copy"):
    print("## %s bandwidth, GB/s of all threads: augur best (median) vs likwid-bench -t %s%s"
          % (k, k, "_avx512" if avx else ""))
    print()
    print("| working set |" + "".join(" augur %d thr | likwid %d thr | ratio |" % (t, t)
                                       for t in threads))
    print("|---|" + "---|---|---|" * len(threads))
    # The levels: each thread streams over its own share.
    for c in r["caches"]:
        per = c["stream_bytes_per_thread"]
        row("%s: %s per thread" % (c["name"], size(per)),
            lambda t, per=per, c=c: per * t // min(t, c["shared_by"]), c["bandwidth_gbs"][k])
    m = r["memory"]
    row("memory: %s in all" % size(m["stream_bytes"]), lambda t: m["stream_bytes"],
        m["bandwidth_gbs"][k])
    # The sweep (full runs): working sets of all threads together.
    for p in r["bandwidth_sweep_gbs"]:
        if p["bytes"] in (16 << 10, 256 << 10, 4 << 20, 64 << 20, 256 << 20):
            row("sweep: %s in all" % size(p["bytes"]), lambda t, p=p: p["bytes"], p[k])
    print()

m = r["memory"]
print("## Memory, one thread")
print()
print("augur: load %.1f GB/s, copy %.1f GB/s (read + write) over %s; latency %.1f ns"
      " (chase over %s)" % (m["bandwidth_gbs"]["load"]["1"]["best"],
                            m["bandwidth_gbs"]["copy"]["1"]["best"], size(m["stream_bytes"]),
                            m["latency_ns"]["best"], size(m["chase_bytes"])))
EOF
if command -v mbw >/dev/null; then
    mib=$(mbw -q -n 5 -t0 256 2>/dev/null | awk '/^AVG/ { for (i = 1; i <= NF; i++) if ($i == "Copy:") print $(i + 1) }')
    echo "mbw -t0 256 (glibc memcpy of 256 MiB, mean of 5): $mib MiB/s copied =" \
        "$(awk -v m="$mib" 'BEGIN { printf "%.1f", 2 * m * 1048576 / 1e9 }') GB/s read + write"
fi
if command -v sysbench >/dev/null; then
    mib=$(sysbench memory --memory-block-size=256M --memory-total-size=16G --memory-oper=read \
        --threads=1 run 2>/dev/null | sed -n 's/.*(\([0-9.]*\) MiB\/sec).*/\1/p')
    echo "sysbench memory read, 256 MiB block, 1 thread: $mib MiB/s =" \
        "$(awk -v m="$mib" 'BEGIN { printf "%.1f", m * 1048576 / 1e9 }') GB/s"
fi
echo
echo "No latency tool is packaged in Debian 12 (lmbench is not): the chase"
echo "latencies have no independent counterpart here."
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
