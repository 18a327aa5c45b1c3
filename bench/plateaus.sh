#!/bin/bash
# plateaus.sh - the finite-volume kernel between plateaus (Langguth et al.
# JPDC'15 section 8, Figs. 13-15): on constructed instances of N cells in
# disjoint random blocks of b (augur data generate blocks:N:b), the time per
# cell as augur predicts it for this host (--machine auto) and as augur
# measure times it, and as augur predicts it for the seed's Sandy Bridge
# file, over b = 8, 16, ..., N. Writes a Markdown page with the table, the
# block sizes where the predicted bottleneck changes, and an SVG plot.
#
# usage: bench/plateaus.sh [BUILD_DIR] [OUT.md] [N] [THREADS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=${2:-$here/docs/results/plateaus.md}
n=${3:-1000000}
threads=${4:-1}
seed_machine=$here/samples/machines/sandy-bridge-e5-2670.yml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernel=("$here/kernels/fv/omp.c" --function fv_ell_omp_simple --quiet)

mkdir -p "$(dirname "$out")"
sizes=()
for ((b = 8; b < n; b *= 2)); do sizes+=("$b"); done
sizes+=("$n")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
for b in "${sizes[@]}"; do
    echo "plateaus: b = $b" >&2
    "$build/augur" data generate "blocks:$n:$b" "$tmp/inst.mtx"
    "$build/augur" --json predict "${kernel[@]}" --data "$tmp/inst.mtx" --threads "$threads" \
        --measure >"$tmp/host-$b.json"
    "$build/augur" --json predict "${kernel[@]}" --data "$tmp/inst.mtx" --threads "$threads" \
        --machine "$seed_machine" >"$tmp/seed-$b.json"
done

python3 - "$tmp" "$out" "$n" "$threads" "$started" "$(uname -m)" "${sizes[@]}" <<'EOF'
import json, math, os, sys
tmp, out, n, threads, started, arch = sys.argv[1:7]
sizes = [int(b) for b in sys.argv[7:]]
host = {b: json.load(open('%s/host-%d.json' % (tmp, b))) for b in sizes}
seed = {b: json.load(open('%s/seed-%d.json' % (tmp, b))) for b in sizes}
cells = int(n)
ns = lambda s: 1e9 * s / cells
rows, changes = [], {'host': [], 'seed': []}
for name, runs in (('host', host), ('seed', seed)):
    last = None
    for b in sizes:
        if last is not None and runs[b]['bottleneck'] != last:
            changes[name].append('%s -> %s between b = %d and %d' % (
                last, runs[b]['bottleneck'], sizes[sizes.index(b) - 1], b))
        last = runs[b]['bottleneck']
for b in sizes:
    h, s = host[b], seed[b]
    rows.append('| %d | %.3g | %.3g | %.3g | %s | %.3g | %s |' % (
        b, ns(h['seconds']), ns(h['measured']['median']), ns(h['measured']['min']),
        h['bottleneck'], ns(s['seconds']), s['bottleneck']))

# the plot: ns per cell against log2 b
W, H, L, R, T, B = 720, 400, 70, 20, 30, 50
xs = [math.log2(b) for b in sizes]
series = [('predicted, this host', '#1f77b4', [ns(host[b]['seconds']) for b in sizes], ''),
          ('measured, this host (median)', '#d62728', [ns(host[b]['measured']['median']) for b in sizes], ''),
          ('predicted, Sandy Bridge file', '#2ca02c', [ns(seed[b]['seconds']) for b in sizes], '6,4')]
ymax = max(max(v) for _, _, v, _ in series) * 1.1
X = lambda x: L + (x - xs[0]) / (xs[-1] - xs[0]) * (W - L - R)
Y = lambda y: T + (1 - y / ymax) * (H - T - B)
svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (W, H),
       '<rect width="100%" height="100%" fill="white"/>',
       '<text x="%d" y="18" font-size="14">fv_ell_omp_simple, %s cells in random blocks of b, %s thread(s)</text>' % (L, n, threads),
       '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B),
       '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B)]
for x in range(int(xs[0]), int(xs[-1]) + 1, 2):
    svg.append('<text x="%.1f" y="%d" text-anchor="middle">2^%d</text>' % (X(x), H - B + 16, x))
svg.append('<text x="%d" y="%d" text-anchor="middle">block size b</text>' % ((L + W - R) // 2, H - 12))
for k in range(6):
    y = ymax * k / 5
    svg.append('<text x="%d" y="%.1f" text-anchor="end">%.3g</text>' % (L - 6, Y(y) + 4, y))
    svg.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(y), W - R, Y(y)))
svg.append('<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">ns per cell</text>' % ((T + H - B) // 2, (T + H - B) // 2))
for i, (label, color, ys, dash) in enumerate(series):
    pts = ' '.join('%.1f,%.1f' % (X(x), Y(y)) for x, y in zip(xs, ys))
    svg.append('<polyline fill="none" stroke="%s" stroke-width="2" %s points="%s"/>' % (
        color, 'stroke-dasharray="%s"' % dash if dash else '', pts))
    svg.append('<text x="%d" y="%d" fill="%s">%s</text>' % (L + 10, T + 16 + 16 * i, color, label))
svg.append('</svg>')
svg_name = os.path.splitext(os.path.basename(out))[0] + '.svg'
open(os.path.join(os.path.dirname(out), svg_name), 'w').write('\n'.join(svg) + '\n')

with open(out, 'w') as f:
    f.write('# The finite-volume kernel between plateaus\n\n')
    f.write('Langguth et al. (JPDC\'15 section 8, Figs. 13-15) construct meshes of\n'
            'cells in disjoint random blocks of b and show the kernel moving between\n'
            'plateaus as the b entries of x a block touches outgrow each cache. Here\n'
            '`fv_ell_omp_simple` (kernels/fv/omp.c) runs on such instances of %s\n'
            'cells (`augur data generate blocks:%s:b`), %s thread(s): predicted for\n'
            'this host (`--machine auto`, %s) and measured on it (`augur predict\n'
            '--measure`, one run, the median and least of its repetitions), and\n'
            'predicted for the seed\'s Sandy Bridge file. Started %s. Written by:\n\n'
            '```\nbench/plateaus.sh BUILD_DIR docs/results/plateaus.md %s %s\n```\n\n'
            % (n, n, threads, arch, started, n, threads))
    f.write('![ns per cell against b](%s)\n\n' % svg_name)
    ratio = sorted(host[b]['measured']['median'] / host[b]['seconds'] for b in sizes)
    f.write('Measured median over predicted, this host: median %.2f, from %.2f to %.2f.\n\n'
            % (ratio[len(ratio) // 2], ratio[0], ratio[-1]))
    f.write('Where the predicted bottleneck changes:\n\n')
    for name, title in (('host', 'this host'), ('seed', 'the Sandy Bridge file')):
        f.write('- %s: %s\n' % (title, '; '.join(changes[name]) or 'nowhere'))
    f.write('\n| b | predicted ns/cell | measured median | measured least | bottleneck '
            '| Sandy Bridge predicted | its bottleneck |\n|---|---|---|---|---|---|---|\n')
    f.write('\n'.join(rows) + '\n')
print(open(out).read())
EOF
