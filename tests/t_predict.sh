#!/bin/bash
# t_predict.sh - end-to-end tests of 'augur predict': the three models on a
# simulated run of the sample kernel, the JSON schema, determinism, sampling,
# a whole BFS, --measure, one prediction with every shipped machine file, and
# bad input (a GPU machine for a CPU kernel, more threads than cores, a broken
# machine file, bad flags). Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
# a shipped file, not this host: the tests check the pipeline, not the host
export AUGUR_MACHINE=${AUGUR_MACHINE:-$src/samples/machines/dev-xeon-2vcpu.yml}
jq_() { # jq_ FILE EXPR [FILE2]: a Python expression over the document d (and FILE2's e)
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); e=json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None; print($2)" "$1" ${3:+"$3"}
}

kernel=$src/samples/spmv.c
mtx=$src/samples/walshaw_fe_4elt2.mtx
cat >"$tmp/toy.yml" <<'YML'
name: toy
kind: cpu
clock_ghz: 2
cores: 2
core: {loads_per_cycle: 2, stores_per_cycle: 1, fp_ops_per_cycle: 2, int_ops_per_cycle: 4,
       issue_width: 4, inflight: 40, mlp: 10}
caches:
  - {name: L1, size: 32 KiB, line: 64, ways: 8, latency_ns: 2, bandwidth_gbs: {1: 128, 2: 256}}
  - {name: L2, size: 256 KiB, line: 64, ways: 8, latency_ns: 5, bandwidth_gbs: {1: 64, 2: 128}}
memory: {latency_ns: 100, bandwidth_gbs: {1: 10, 2: 16}}
YML

status "predict --json runs" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --json
cp "$tmp/out" "$tmp/a.json"
is "three models" "$(jq_ "$tmp/a.json" "len(d['models'])")" 3
is "model names" "$(jq_ "$tmp/a.json" "','.join(m['name'] for m in d['models'])")" "bw,opa,skope"
is "the aggregate is selected" "$(jq_ "$tmp/a.json" "d['selected']")" skope
is "every model answers" "$(jq_ "$tmp/a.json" "all(m['seconds'] > 0 for m in d['models'])")" True
is "selected time is the aggregate's" "$(jq_ "$tmp/a.json" "d['seconds'] == d['models'][2]['seconds']")" True
# 3 loads per entry (val, col, x) and 3 accesses per row (rowptr twice, y): 3 x 65,636 + 3 x 11,143
is "accesses per call" "$(jq_ "$tmp/a.json" "int(d['accesses_per_call'])")" 230337
is "flops per call (fmul + fadd per entry)" "$(jq_ "$tmp/a.json" "int(d['flops_per_call'])")" 131272
is "bytes per call" "$(jq_ "$tmp/a.json" "int(d['bytes_per_call'])")" "$((65636 * 16 + 11143 * 8 + 65636 * 4 + 11143 * 8))"
# (the JSON prints 10 significant digits)
is "per-line times add up to the selected time" \
    "$(jq_ "$tmp/a.json" "abs(sum(l['seconds'] for l in d['lines']) - d['seconds']) <= 1e-9 * d['seconds']")" True
is "the indirect line is marked" "$(jq_ "$tmp/a.json" "[l['indirect'] for l in d['lines'] if l['line'] == 15][0]")" True
is "no sample by default" "$(jq_ "$tmp/a.json" "d['sample']")" None
is "no learning curve: no branch replay counted on" "$(jq_ "$tmp/a.json" "d['unlearned_seconds']")" None
# the row loop's exits: a fresh predictor misses thousands, which the epyc's capacity learns
status "a machine that learns branch replays" 0 "$augur" predict "$kernel" --data "$mtx" \
    --machine "$src/samples/machines/dev-epyc-2vcpu.yml" --json
is "the time if the core learns none of them is longer" \
    "$(jq_ "$tmp/out" "d['unlearned_seconds'] > d['seconds'] and d['models'][2]['unlearned_seconds'] == d['unlearned_seconds']")" True
status "and in text" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$src/samples/machines/dev-epyc-2vcpu.yml"
grep -q "^branches: .* a core that learns none of them takes .* per call" "$tmp/out" &&
    pass "text: the branch replay's line" || flunk "text: the branch replay's line"
status "predict again" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --json
is "deterministic" "$(jq_ "$tmp/out" "d['seconds']")" "$(jq_ "$tmp/a.json" "d['seconds']")"

status "two threads" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --threads 2 --json
is "two threads are faster" "$(python3 -c "import json; a=json.load(open('$tmp/a.json')); b=json.load(open('$tmp/out')); print(b['seconds'] < a['seconds'])")" True

status "text output" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --explain
grep -q "^prediction: .* per call (model skope" "$tmp/out" && pass "text: the prediction line" || flunk "text: the prediction line"
grep -q "<- selected" "$tmp/out" && pass "text: the selected model" || flunk "text: the selected model"
grep -q "^spmv.c:15 " "$tmp/out" && pass "text: per-line table" || flunk "text: per-line table"
grep -q "aggregate model (Zhu et al. PACT'19" "$tmp/out" && pass "--explain: model 3's table" || flunk "--explain: model 3's table"

status "sampled" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --seed 3 --json
is "sample recorded" "$(jq_ "$tmp/out" "d['sample']['method']")" sa
is "counts scaled up to the full data" "$(jq_ "$tmp/out" "d['sample']['scale'] > 1 and abs(d['flops_per_call'] - 131272) < 0.5 * 131272")" True
# every count of the workload, not only the accesses: the sum's iterations (an entry each),
# and the gathers' requests beyond L1 (at least a tenth of the full run's 1,276: the
# diagonal squares of a band keep x's reuse close, and a 20 % sample meets 15 % of them
# scaled up, 3 % unscaled)
is "carried iterations scaled up: about the 65,636 entries" "$(jq_ "$tmp/out" "abs(d['workload']['total']['carried_iters'] - 65636) < 0.5 * 65636")" True
is "irregular requests beyond L1 scaled up with the rest" "$(jq_ "$tmp/out" "sum(d['workload']['total']['irr_served'][1:]) > 0.1 * sum(e['workload']['total']['irr_served'][1:])" "$tmp/a.json")" True
# a loop over the rows runs as often on the data as its binding's n says, whatever the
# sample's rows hold; the entries' loop by the entries' ratio: every line's accesses as the full run's
is "sampled: each line's accesses as the full run's (rows by n, entries by nnz)" \
    "$(jq_ "$tmp/out" "all(abs(a['accesses'] - b['accesses']) <= 1e-6 * b['accesses'] + 1e-9 for a, b in zip(d['workload']['lines'], e['workload']['lines'])) and len(d['workload']['lines']) == len(e['workload']['lines']) == 4" "$tmp/a.json")" True
is "auto (the default): the categorizer's pick, and why" \
    "$(jq_ "$tmp/out" "'picked by the categorizer' in d['sample']['chosen']")" True
# the interval: four more samples (seeds 4..7), the samplers in turn, this one's time first
is "sampled: an interval from 5 samples around the prediction" \
    "$(jq_ "$tmp/out" "(d['interval']['samples'], d['interval']['failed'], d['interval']['seconds'][0] == d['seconds'], d['interval']['lo'] < d['seconds'] < d['interval']['hi'], d['interval']['level'])")" \
    "(5, 0, True, True, 0.95)"
is "sampled: the interval's samplers in turn, its seeds the next ones" \
    "$(jq_ "$tmp/out" "(d['interval']['methods'][0] == d['sample']['method'], sorted(set(d['interval']['methods'])), d['interval']['methods'][1:4] == [m for m in ('sa', 'rt', 'rb') if m != d['sample']['method']] + [d['sample']['method']], d['interval']['seeds'])")" \
    "(True, ['rb', 'rt', 'sa'], True, [3, 4, 5, 6, 7])"
is "sampled: the interval holds the full run's time" \
    "$(jq_ "$tmp/out" "d['interval']['lo'] <= e['seconds'] <= d['interval']['hi']" "$tmp/a.json")" True
cp "$tmp/out" "$tmp/iv.json"
status "sampled again" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --seed 3 --json
is "sampled: the same seed, the same interval" "$(jq_ "$tmp/out" "d['interval'] == e['interval']" "$tmp/iv.json")" True
status "--interval 2" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --seed 3 --interval 2 --json
is "--interval 2: three samples, the first two as with four more" \
    "$(jq_ "$tmp/out" "d['interval']['samples'] == 3 and d['interval']['seconds'] == e['interval']['seconds'][:3]" "$tmp/iv.json")" True
status "--interval 0" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --seed 3 --interval 0 --json
is "--interval 0: none, the same prediction" "$(jq_ "$tmp/out" "d['interval'] is None and d['seconds'] == e['seconds']" "$tmp/iv.json")" True
is "all of the data: no interval" "$(jq_ "$tmp/a.json" "d['interval'] is None and 'interval_declined' not in d")" True
# --sample auto (the default): all of a small input, a sample of the budget over it
is "--sample auto by default: all of 65,636 entries, and why" \
    "$(jq_ "$tmp/a.json" "d['sample'] is None and d['sample_auto'] == '--sample auto: 65636 entries, within the 4194304 simulated whole'")" True
status "--sample-budget 20000" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample-budget 20000 --interval 1 --json
is "--sample auto over the budget: a sample asked at 20,000 / 65,636 entries" \
    "$(jq_ "$tmp/out" "abs(d['sample']['rate'] - 20000 / 65636) < 1e-9 and 'over the 20000' in d['sample_auto'] and d['interval']['samples'] == 2")" True
status "--sample full: no sampling, nothing said of auto" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample full --json
is "--sample full: no sample_auto" "$(jq_ "$tmp/out" "d['sample'] is None and 'sample_auto' not in d")" True
status "sampled, text" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --seed 3
grep -Eq "^prediction: [0-9.]+ us \([0-9.]+-[0-9.]+ us, 95 %\) per call" "$tmp/out" &&
    pass "text: the interval beside the prediction" || flunk "text: the interval beside the prediction"
grep -Eq "^interval: .* the samples predict [0-9.]+ us \((sa|rt|rb), seed 3\), [0-9.]+ us \((sa|rt|rb), seed 4\)" "$tmp/out" &&
    pass "text: the samples behind it" || flunk "text: the samples behind it"
# the same through a do { } while (0) wrapper, over each thread's rows lo .. hi (locals set
# from n, omp.thread and omp.nthreads before the loop), and eight rows a step (i + 8 <= n)
for k in "$src/bench/unseen/loop_macro.c" "$src/kernels/fv/omp.c --function fv_ell_omp_private" \
    "$src/bench/unseen/gather_computed.c"; do
    # shellcheck disable=SC2086 # the kernel and its --function
    "$augur" predict $k --data "$mtx" --machine "$tmp/toy.yml" --json >"$tmp/kfull.json" 2>/dev/null
    # shellcheck disable=SC2086
    status "sampled $(basename "${k%% *}")" 0 "$augur" predict $k --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --json
    # (within 1 %: a step of 8 takes floor((n - 8) / 8) + 1 trips, the span's ratio is near it)
    is "sampled $(basename "${k%% *}"): each line's accesses as the full run's" \
        "$(jq_ "$tmp/out" "all(abs(a['accesses'] - b['accesses']) <= 0.01 * b['accesses'] + 1e-9 for a, b in zip(d['workload']['lines'], e['workload']['lines'])) and len(d['workload']['lines']) == len(e['workload']['lines']) > 3" "$tmp/kfull.json")" True
done
status "--method rb" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --sample 0.2 --method rb --json
is "rb recorded, nothing to say how" "$(jq_ "$tmp/out" "(d['sample']['method'], 'chosen' in d['sample'])")" "('rb', False)"
hinge=${AUGUR_DATASETS:-}/mesh/hinge_stl_tetgen_tet.ele.gz
if [ -f "$hinge" ]; then
    # a tetrahedral mesh numbered without locality: the tree picks whole-row blocks, whose
    # 5 % sample predicts the full run's time (SA's shortened rows do not)
    dev=$src/samples/machines/dev-epyc-2vcpu.yml
    "$augur" predict "$kernel" --data "$hinge" --machine "$dev" --json >"$tmp/full.json" 2>/dev/null
    status "hinge: a 5 % sample, auto" 0 "$augur" predict "$kernel" --data "$hinge" --machine "$dev" \
        --sample 0.05 --json
    is "hinge: auto picks rb" "$(jq_ "$tmp/out" "d['sample']['method']")" rb
    full=$(jq_ "$tmp/full.json" "d['seconds']")
    is "hinge: the rb sample's prediction within 15 % of the full run's ($full s)" \
        "$(jq_ "$tmp/out" "abs(d['seconds'] - $full) <= 0.15 * $full")" True
else
    skip "hinge: auto picks rb" "no AUGUR_DATASETS"
    skip "hinge: the rb sample's prediction" "no AUGUR_DATASETS"
fi

status "a whole BFS (round parameter)" 0 "$augur" predict "$src/kernels/bfs/ref.c" --function bfs_topo_round_ref \
    --data "$mtx" --machine "$tmp/toy.yml" --json
is "BFS: every round simulated" "$(jq_ "$tmp/out" "d['rounds'] > 2")" True
rounds=$(jq_ "$tmp/out" "d['rounds']")
# a misprediction waits for the load its condition reads when that load
# lands far from the thread's streams: level[dst] (a gather through col,
# here beyond the toy's L1), not level[node] (a sweep the prefetcher follows)
# (the simulated predictor's mispredictions: guessed, guessed_dep)
dep() { jq_ "$tmp/out" "next('%s %s' % (sum(l['guessed_dep']) > 0, sum(l['guessed_dep']) <= $2 * l['guessed']) for l in d['workload']['lines'] if l['line'] == $1)"; }
is "BFS: level[dst] == INF waits for its gather" "$(dep 19 1)" "True True"
is "BFS: level[node] != round - 1 waits for nothing (next to none)" "$(dep 14 0.01 | cut -d' ' -f2)" True
status "the OpenMP BFS" 0 "$augur" predict "$src/kernels/bfs/omp.c" --function bfs_topo_round_omp \
    --data "$mtx" --machine "$tmp/toy.yml" --json
is "BFS: ld = level[dst]; if (ld == INF) waits for the load that set ld" "$(dep 31 1)" "True True"
status "BFS --explain" 0 "$augur" predict "$src/kernels/bfs/ref.c" --function bfs_topo_round_ref \
    --data "$mtx" --machine "$tmp/toy.yml" --explain
grep -q "round by round: $rounds rounds" "$tmp/out" && pass "model 2 analyses each round" || flunk "model 2 analyses each round"

if command -v cc >/dev/null 2>&1; then
    status "--measure" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --measure --reps 3 --json
    is "measured time and error" "$(jq_ "$tmp/out" "d['measured']['median'] > 0 and d['error'] >= 0")" True
else
    n=$((n + 1))
    echo "ok $n - --measure # SKIP no C compiler"
fi

# augur train model: fit on saved runs of three named copies of the sample, one held out
if command -v cc >/dev/null 2>&1; then
    for name in a b c; do
        cp "$mtx" "$tmp/$name.mtx"
        "$augur" predict "$kernel" --data "$tmp/$name.mtx" --machine "$tmp/toy.yml" --measure --reps 3 --json >"$tmp/run-$name.json" 2>/dev/null
    done
    status "train model" 0 "$augur" train model --machine "$tmp/toy.yml" --holdout 3 -o "$tmp/fit.yml" --json "$tmp"/run-*.json
    cp "$tmp/out" "$tmp/fit.json"
    is "two runs fitted, one held out" "$(jq_ "$tmp/out" "(d['train_runs'], d['test_runs'])")" "(2, 1)"
    is "the fit does not get worse" "$(jq_ "$tmp/out" "d['objective_after'] <= d['objective_before']")" True
    status "the fitted machine file loads" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/fit.yml" --json
    echo '{"dataset": "x", "measured": {"median": 1}}' >"$tmp/nowork.json"
    status "train model: a run without a workload" 1 "$augur" train model --machine "$tmp/toy.yml" "$tmp/nowork.json"
    grep -q "nowork.json: no 'workload'" "$tmp/err" && pass "names the file" || flunk "names the file"
    is "a saved run keeps each line's branch runs" \
        "$(jq_ "$tmp/run-a.json" "all(l['branch_run'] >= 0 for l in d['workload']['lines'])")" True
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['workload']['lines'][0]['branch_run'] = -1
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/run-a.json" "$tmp/badrun.json"
    status "train model: a negative branch run" 1 "$augur" train model --machine "$tmp/toy.yml" "$tmp/badrun.json"
    grep -q "badrun.json.*'branch_run' is not a number >= 0" "$tmp/err" && pass "names the field" || flunk "names the field"
    is "the row sum's chains by length: every iteration in one bucket or another" \
        "$(jq_ "$tmp/run-a.json" "[abs(sum(l['carried_lens']) - l['carried_iters']) < 1e-6 * l['carried_iters'] for l in d['workload']['lines'] if l.get('carried_iters', 0) > 0] == [True]")" True
    is "a saved run keeps the predictor's mispredictions" \
        "$(jq_ "$tmp/run-a.json" "d['workload']['total']['guessed'] > 0")" True
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['workload']['dealt_share'] = 2
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/run-a.json" "$tmp/baddealt.json"
    status "train model: a dealt share above 1" 1 "$augur" train model --machine "$tmp/toy.yml" "$tmp/baddealt.json"
    grep -q "baddealt.json.*'dealt_share' must be 0 to 1" "$tmp/err" && pass "names it" || flunk "names it"
    is "no tiled run of a team: T_MIMD's a is not fitted" \
        "$(jq_ "$tmp/fit.json" "d['mimd_a'] is None")" True
    # the same runs as tiled runs of two threads whose measured time holds a cost of
    # eq. 4's form, a = 1e-4 s over tile groups of 1, 2 and 4 tiles: the fit finds it
    for name in a b c; do
        python3 -c "import json,sys; d=json.load(open(sys.argv[1])); w=d['workload']; avg={'a': 1, 'b': 2, 'c': 4}[sys.argv[3]]
w['threads'] = 2; w['tile_size'] = 64; w['tile_edges'] = 1000; w['avg_mimd'] = avg
d['measured']['median'] = d['seconds'] + 1e-4 * 2 / avg
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/run-$name.json" "$tmp/tiled-$name.json" "$name"
    done
    status "train model: tiled runs of two threads" 0 "$augur" train model --machine "$tmp/toy.yml" --holdout 3 \
        -o "$tmp/mimd.yml" --json "$tmp"/tiled-*.json
    is "fits T_MIMD's a near the cost put in" "$(jq_ "$tmp/out" "3e-5 < d['mimd_a'] < 3e-4")" True
    grep -q "mimd_a:" "$tmp/mimd.yml" && pass "and writes it into the machine file" ||
        flunk "and writes it into the machine file"
else
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
        n=$((n + 1))
        echo "ok $n - train model # SKIP no C compiler"
    done
fi
status "train model: no runs" 2 "$augur" train model --machine "$tmp/toy.yml"

# mtx_py CODE [ARG]: Python over the sample's entries, both triangles of the
# symmetric file, in the file's order (edges: (row, column) pairs from 1)
mtx_py() {
    python3 -c "import sys
with open(sys.argv[1]) as f:
    sym = 'symmetric' in f.readline()
    size, edges = None, []
    for l in f:
        if l.startswith('%'):
            continue
        if size is None:
            size = l
            continue
        i, j = (int(t) for t in l.split()[:2])
        edges.append((i, j))
        if sym and i != j:
            edges.append((j, i))
$1" "$mtx" "${@:2}"
}

# update chains: the Euler reduction's updates chain through y whichever
# access stored the element last (y[u] -= val after an earlier edge's
# y[v] += val), when that store is at most 128 memory accesses back (nine an
# edge: eu, ev, w, two x, then y[u]'s load and store, y[v]'s load and store);
# the edges are the rows of the symmetric file, both triangles, in order. The
# line of y[u] counts its links; the length is y's chains' weighted by their
# links. (The pass keeps the latest stores by a hash of their address: a rare
# collision ends a chain early, hence the tolerance.)
status "ireduce predicts" 0 "$augur" predict "$src/kernels/ireduce/ref.c" --function ireduce_euler_ref --data "$mtx" --json
want=$(mtx_py "edges.sort()
last, links, weighted = {}, [0, 0], 0.0
for e, (u, v) in enumerate(edges):
    for k, node in enumerate((u, v)):
        load = 9 * e + 5 + 2 * k
        prev = last.get(node)
        if prev and load - prev[0] <= 128:
            links[k] += 1
            run = prev[1] + 1
        else:
            if prev:
                weighted += prev[1] * (prev[1] + 1)
            run = 0
        last[node] = (load + 1, run)
weighted += sum(r * (r + 1) for _, r in last.values())
print(links[0], weighted / sum(links))
")
got=$(jq_ "$tmp/out" "'%d %.6f' % next((l['chained'], l['chain_len']) for l in d['workload']['lines'] if l['line'] == 15)")
check "ireduce: y's chains, across its two updates: links $got, want $want (within 1 %)" \
    awk -v g="$got" -v w="$want" 'BEGIN { split(g, a, " "); split(w, b, " ");
        if (b[1] < 1000 || (a[1] - b[1]) ^ 2 > (b[1] / 100) ^ 2 || (a[2] - b[2]) ^ 2 > (b[2] / 100) ^ 2) exit 1 }'
is "ireduce: the links by distance add up to them" \
    "$(jq_ "$tmp/out" "next(round(sum(l['chain_dist'])) == round(l['chained']) and round(sum(l['chain_lens'])) == round(l['chained']) for l in d['workload']['lines'] if l['line'] == 15)")" True

# short loops of constant bounds packed into vectors: acc[j] += a * X[4*c + j]
# over j < 4 (bench/unseen/spmm4_local.c) is one vector load and one
# multiply-add per entry (four doubles in 32 bytes); a scalar sum over such a
# loop is not (reassociating it needs -ffast-math)
line_ratio() { # line_ratio LINE: its accesses over its load and store instructions
    jq_ "$tmp/out" "next('%.3f' % (l['accesses'] / (l['loads'] + l['stores'])) for l in d['workload']['lines'] if l['line'] == $1)"
}
status "packed loops predict" 0 "$augur" predict "$src/bench/unseen/spmm4_local.c" --data "$mtx" --bind "X=vec(4*m),Y=vec(4*n)" --json
is "packed: acc[j] += a * X[4c + j], one load for four elements" "$(line_ratio 10)" 4.000
is "packed: the stores of Y[4i + j]" "$(line_ratio 13)" 4.000
cat >"$tmp/rowsum.c" <<'C'
void rowsum(int n, const int *rowptr, const int *col, const double *X, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            for (int j = 0; j < 4; j++)
                s += X[col[k] * 4 + j];
        y[i] = s;
    }
}
C
status "a scalar sum over a short loop predicts" 0 "$augur" predict "$tmp/rowsum.c" --data "$mtx" --bind "X=vec(4*m)" --json
is "not packed: a scalar sum over the short loop" "$(line_ratio 7)" 1.000

# y[i] += ... in the loop over row i: the loop's only store, to the same element every
# iteration, which gcc keeps in a register (it stores it, never loads it back): a chain of
# adds, one link an entry, as a local sum's, not an update chain through memory. A second
# store in the loop (z[col[k]] = 1, which may be y[i]) makes the compiler load it again.
cat >"$tmp/yrow.c" <<'C'
void yrow(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            y[i] += val[k] * x[col[k]];
}
void yrow2(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y,
           double *z)
{
    for (int i = 0; i < n; i++)
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            y[i] += val[k] * x[col[k]];
            z[col[k]] = 1;
        }
}
C
status "y[i] += in the row's loop predicts" 0 "$augur" predict "$tmp/yrow.c" --function yrow --data "$mtx" --json
is "y[i] +=: a register's chain, an entry a link, no update chain" \
    "$(jq_ "$tmp/out" "next((round(l.get('carried_iters', 0)), round(l.get('chained', 0))) for l in d['workload']['lines'] if l['line'] == 5)")" \
    "(65636, 0)"
status "with a second store in the loop" 0 "$augur" predict "$tmp/yrow.c" --function yrow2 --bind z="vec(n)" --data "$mtx" --json
is "y[i] += beside another store: an update chain through memory" \
    "$(jq_ "$tmp/out" "next((l.get('carried_iters', 0), l.get('chained', 0) > 50000) for l in d['workload']['lines'] if l['line'] == 12)")" \
    "(0, True)"

# statements packed side by side (bench/unseen/spmm4_sums.c): the four sums
# of a row of X (acc0 += a * xr[0] ...) are one vector load and multiply-add
# an entry, and Y's four stores one; the bounds rp[i] and rp[i + 1] stay two
status "packed statements predict" 0 "$augur" predict "$src/bench/unseen/spmm4_sums.c" --data "$mtx" --json
is "packed statements: xr[0], a quarter of a load" "$(line_ratio 13)" 4.000
is "packed statements: the four rows of X, a quarter of the loads" \
    "$(jq_ "$tmp/out" "'%.3f' % (sum(l['accesses'] for l in d['workload']['lines'] if 13 <= l['line'] <= 16) / sum(l['loads'] for l in d['workload']['lines'] if 13 <= l['line'] <= 16))")" 4.000
is "packed statements: Y's four stores, one" "$(jq_ "$tmp/out" "round(d['workload']['total']['stores'])")" 11143
is "packed statements: rp's two loads stay two" "$(line_ratio 10)" 1.000

# row_stat EXPR: EXPR over the row degrees d of the symmetric file (both triangles)
row_stat() {
    mtx_py "from collections import Counter
rows = Counter(i for i, _ in edges)
d = list(rows.values())
print(eval(sys.argv[2]))" "$1"
}

# loop-carried chains: the sample SpMV's sum += val[k] * x[col[k]] chains over
# each row's entries, its length weighted by the iterations (sum d^2 over
# sum d of the row degrees d; rows without entries run no chain)
want=$(row_stat "'%.4f' % (sum(k * k for k in d) / sum(d))")
is "spmv: the sum's chains weighted by their iterations" \
    "$(jq_ "$tmp/a.json" "'%.4f' % next(l['carried_len'] for l in d['workload']['lines'] if l['line'] == 15)")" "$want"

# --machine auto: the cached calibration of this host's processor (seeded
# here, so nothing is calibrated)
auto_path=$(XDG_CACHE_HOME="$tmp/xdg" "$augur" calibrate --auto-path)
is "calibrate --auto-path: in the cache folder, named after the processor" \
    "$(printf '%s' "$auto_path" | sed -E "s|^$tmp/xdg/augur/machine-[0-9a-f]{16}\.yml$|ok|")" ok
is "calibrate --auto-path: the same name every time" "$(XDG_CACHE_HOME="$tmp/xdg" "$augur" calibrate --auto-path)" "$auto_path"
env -u XDG_CACHE_HOME -u HOME "$augur" calibrate --auto-path >/dev/null 2>"$tmp/err"
is "calibrate --auto-path: no cache folder" "$?" 1
grep -q "neither XDG_CACHE_HOME nor HOME" "$tmp/err" && pass "says why" || flunk "says why"
# the first line names the calibration's method: a cached file made another way is measured again
method=$(sed -n 's/^#define AUGUR_CALIB_METHOD \([0-9]*\).*/\1/p' "$src/include/augur/calibrate.h")
mkdir -p "$tmp/xdg/augur" && {
    echo "# This machine, measured by \`augur calibrate\` --quick (augur test, method $method) on test."
    cat "$tmp/toy.yml"
} >"$auto_path"
XDG_CACHE_HOME="$tmp/xdg" status "--machine auto reads the cached file" 0 "$augur" predict "$kernel" --data "$mtx" --machine auto --json
is "auto: the cached machine" "$(jq_ "$tmp/out" "d['machine']")" toy

# a CUDA kernel on the H100: the GPU forms of Models 1 and 2, Model 2 selected
h100=$src/samples/machines/h100-sxm.yml
status "cuda spmv predicts" 0 "$augur" predict "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$mtx" --machine "$h100" --json
cp "$tmp/out" "$tmp/cuda.json"
is "cuda: Model 2 selected" "$(jq_ "$tmp/cuda.json" "d['selected']")" opa
is "cuda: a time above the launch" "$(jq_ "$tmp/cuda.json" "d['seconds'] > 5.312e-6")" True
is "cuda: the aggregate declines" "$(jq_ "$tmp/cuda.json" "d['models'][2]['seconds'] is None")" True
status "cuda vector spmv predicts" 0 "$augur" predict "$src/kernels/spmv/cuda.cu" --function spmv_csr_vector_kernel --data "$mtx" --machine "$h100" --json
is "cuda vector spmv: a warp per row, 8 rows a block" "$(jq_ "$tmp/out" "d['seconds'] > 0 and d['models'][1]['seconds'] > 0")" True
status "cuda: --threads refused" 1 "$augur" predict "$src/kernels/spmv/cuda.cu" --function spmv_csr_scalar_kernel --data "$mtx" --machine "$h100" --threads 2
grep -q "does not apply" "$tmp/err" && pass "cuda --threads: says why" || flunk "cuda --threads: says why"
status "cuda bfs, one round" 0 "$augur" predict "$src/kernels/bfs/cuda.cu" --data "$mtx" --machine "$h100" --round 2 --json
is "cuda bfs --round: one launch" "$(jq_ "$tmp/out" "d['rounds']")" 1
# a CUDA kernel without a launch pragma: the message names --launch, which supplies it
cat >"$tmp/scale.cu" <<'EOF2'
__global__ void scale(unsigned n, const double *x, double *y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0 * x[i];
}
EOF2
status "cuda without a launch" 1 "$augur" predict "$tmp/scale.cu" --data "$mtx" --machine "$h100" --bind n=n,x=vec\(n\),y=vec\(n\)
grep -q -- "--launch GRID,BLOCK" "$tmp/err" && pass "cuda without a launch: says how" || flunk "cuda without a launch: says how"
status "cuda --launch" 0 "$augur" predict "$tmp/scale.cu" --data "$mtx" --machine "$h100" --bind n=n,x=vec\(n\),y=vec\(n\) --launch 44,256 --json
is "cuda --launch: Model 2 answers" "$(jq_ "$tmp/out" "d['models'][1]['seconds'] > 0")" True
cp "$tmp/out" "$tmp/launch44.json"
# the same launch as expressions of the bound scalars, as the pragma takes them
status "cuda --launch expressions" 0 "$augur" predict "$tmp/scale.cu" --data "$mtx" --machine "$h100" --bind n=n,x=vec\(n\),y=vec\(n\) --launch '(n + 255) / 256, 256' --json
is "cuda --launch expressions: the numbers' prediction" "$(jq_ "$tmp/out" "d['seconds']")" "$(jq_ "$tmp/launch44.json" "d['seconds']")"
status "--launch with an open parenthesis refused" 2 "$augur" predict "$tmp/scale.cu" --data "$mtx" --machine "$h100" --launch '(n + 255 / 256,256'
status "--launch 0,2 refused" 2 "$augur" predict "$tmp/scale.cu" --data "$mtx" --machine "$h100" --launch 0,2
status "--round and --rounds" 1 "$augur" predict "$src/kernels/bfs/cuda.cu" --data "$mtx" --machine "$h100" --round 2 --rounds

# every shipped machine file drives a prediction: a CPU file the sample SpMV, a GPU file the
# CUDA SpMV (default-cpu.yml is the CPU defaults, not a machine). A glob, so that a file
# added later that cannot predict fails here.
nshipped=0
for f in "$src"/samples/machines/*.yml; do
    b=$(basename "$f")
    [ "$b" = default-cpu.yml ] && continue
    nshipped=$((nshipped + 1))
    if grep -q '^kind: *gpu' "$f"; then
        status "$b: the CUDA SpMV predicts" 0 "$augur" predict "$src/kernels/spmv/cuda.cu" \
            --function spmv_csr_scalar_kernel --data "$mtx" --machine "$f" --json
    else
        status "$b: the sample SpMV predicts" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$f" --json
    fi
    got=$(jq_ "$tmp/out" "d['seconds'] > 0" 2>/dev/null)
    is "$b: a positive time" "$got" True
    [ "$got" = True ] || head -c 600 "$tmp/err" "$tmp/out" | sed 's/^/#   /'
done
check "the shipped machine files were found" test "$nshipped" -ge 12

# a replay's branches are learned per core: under a dynamic schedule a core meets
# every part of the work from call to call (dealt_share 1), under a static one its own (0)
for sched in static dynamic; do
    status "spmv $sched, two threads" 0 "$augur" predict "$src/kernels/spmv/omp.c" \
        --function spmv_csr_omp_$sched --data "$mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" --threads 2 --json
    cp "$tmp/out" "$tmp/spmv_$sched.json"
done
is "static schedule: nothing dealt out" "$(jq_ "$tmp/spmv_static.json" "d['workload']['dealt_share']")" 0.0
is "dynamic schedule: every iteration dealt out" "$(jq_ "$tmp/spmv_dynamic.json" "d['workload']['dealt_share']")" 1.0

# a scatter whose update is an OpenMP atomic: the row loop's exits are the plain scatter's
for v in plain atomic; do
    {
        echo 'void scatter(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y)'
        echo '{'
        echo '    for (int i = 0; i < n; i++)'
        echo '        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {'
        [ $v = atomic ] && echo '#pragma omp atomic'
        echo '            y[col[k]] += val[k] * x[i];'
        echo '        }'
        echo '}'
    } >"$tmp/scatter_$v.c"
    status "scatter ($v)" 0 "$augur" predict "$tmp/scatter_$v.c" --data "$mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" --json
    cp "$tmp/out" "$tmp/scatter_$v.json"
done
is "atomic scatter: the loop exits' mispredictions" "$(jq_ "$tmp/scatter_atomic.json" "round(d['workload']['total']['guessed'])")" "$(jq_ "$tmp/scatter_plain.json" "round(d['workload']['total']['guessed'])")"
is "atomic scatter: some" "$(jq_ "$tmp/scatter_plain.json" "d['workload']['total']['guessed'] > 1000")" True

# the compiler's multiply-add chains: a row sum kept fused waits for the FMA's
# latency (3.9 cycles on this machine file), split for the add's (2.9). A
# band of 81 entries a row, in cache: the rows' sums are the bound.
python3 -c "
n, w = 300, 40
e = [(i, j) for i in range(n) for j in range(max(0, i - w), min(n, i + w + 1))]
print('%%MatrixMarket matrix coordinate real general')
print(n, n, len(e))
for i, j in e:
    print(i + 1, j + 1, 1.0 + (i * 7 + j) % 5)" >"$tmp/band.mtx"
sed 's/^  fused_chains: false /  fused_chains: true  /' "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" >"$tmp/fused.yml"
is "fused.yml: the flag turned" "$(grep -c '^  fused_chains: true ' "$tmp/fused.yml")" 1
status "spmv, chains split" 0 "$augur" predict "$src/kernels/spmv/ref.c" --data "$tmp/band.mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" --json
cp "$tmp/out" "$tmp/split.json"
status "spmv, chains fused" 0 "$augur" predict "$src/kernels/spmv/ref.c" --data "$tmp/band.mtx" --machine "$tmp/fused.yml" --json
is "fused chains: the row sum waits longer" "$(python3 -c "import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); print(b['seconds'] > a['seconds'] * 1.1)" "$tmp/split.json" "$tmp/out")" True

# a BFS on a random graph: a frontier node's row lies anywhere, so its
# loop's mispredicted exits wait for rowptr, which went beyond L1
python3 -c "
import random
random.seed(7)
n = 50000
e = set()
for u in range(n):
    for _ in range(3):
        v = random.randrange(n)
        if v != u:
            e.add((min(u, v), max(u, v)))
print('%%MatrixMarket matrix coordinate pattern symmetric')
print(n, n, len(e))
for u, v in sorted(e):
    print(v + 1, u + 1)" >"$tmp/random.mtx"
status "bfs on a random graph" 0 "$augur" predict "$src/kernels/bfs/omp.c" --function bfs_topo_round_omp --data "$tmp/random.mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" --source maxdeg --json
is "bfs: the rows' loop exits wait for rowptr beyond L1" "$(jq_ "$tmp/out" "[l for l in d['workload']['lines'] if l['line'] == 25][0]['guessed'] > 0 and sum([l for l in d['workload']['lines'] if l['line'] == 25][0]['guessed_dep']) > 0")" True

# a local accumulator of 4 doubles in loops of 4: registers, no loads or stores
cat >"$tmp/spmm4.c" <<'EOF2'
void spmm4(int n, const int *rowptr, const int *col, const double *val, const double *X, double *Y)
{
    for (int i = 0; i < n; i++) {
        double acc[4] = { 0, 0, 0, 0 };
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            for (int j = 0; j < 4; j++)
                acc[j] += val[k] * X[col[k] * 4 + j];
        for (int j = 0; j < 4; j++)
            Y[i * 4 + j] = acc[j];
    }
}
EOF2
status "spmm4" 0 "$augur" predict "$tmp/spmm4.c" --data "$mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml" --json
is "spmm4: only Y's stores (n, each a vector of 4)" "$(jq_ "$tmp/out" "round(d['workload']['total']['stores'])")" 11143
is "spmm4: the time per call is positive" "$(jq_ "$tmp/out" "d['seconds'] > 0")" True

# a mesh kernel on a matrix: the binding's own reason, whole, after the array's name
status "mesh cells on a matrix" 1 "$augur" predict "$src/bench/unseen/tet_gather.c" --data "$mtx" --machine "$src/samples/machines/dev-epyc-zen4-2vcpu.yml"
grep -q "tet_gather.c:2:37: array 'cells': mesh.cells needs a tetrahedral mesh dataset" "$tmp/err" && pass "mesh cells on a matrix: says why" || flunk "mesh cells on a matrix: says why"

# bench/accuracy_remote.sh predict on the committed run of another machine
# (its calibrated file, its measured times), one dataset of it
if [ -f "${AUGUR_DATASETS:-}/mtx/polblogs.mtx" ]; then
    REMOTE_OUT=$tmp/remote REMOTE_ONLY='^polblogs' bash "$src/bench/accuracy_remote.sh" predict \
        "$(dirname "$augur")" "$src/bench/remote/xeon-h200-20261126" "$AUGUR_DATASETS" >"$tmp/remote.txt" 2>&1
    is "remote run: polblogs' 7 cases predicted" "$(ls "$tmp/remote/json" 2>/dev/null | wc -l)" 7
    is "remote run: its measured time and the error against it" "$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
print(d['measured']['median'] == m['median'] and abs(d['error'] - abs(d['seconds'] - m['median']) / m['median']) < 1e-12)" \
        "$tmp/remote/json/polblogs.mtx--spmv_omp_static--1.json" \
        "$src/bench/remote/xeon-h200-20261126/measured/polblogs.mtx.gz--spmv_omp_static--1.json")" True
    grep -q "^all  *7 " "$tmp/remote.txt" && pass "remote run: the summary" || flunk "remote run: the summary"
else
    skip "remote run: polblogs' 7 cases predicted" "no AUGUR_DATASETS"
    skip "remote run: its measured time and the error against it" "no AUGUR_DATASETS"
    skip "remote run: the summary" "no AUGUR_DATASETS"
fi

# bad input
status "a GPU machine for a CPU kernel" 1 "$augur" predict "$kernel" --data "$mtx" --machine "$src/samples/machines/h100-sxm.yml"
grep -q "CPU code but machine" "$tmp/err" && pass "GPU machine: says why" || flunk "GPU machine: says why"
status "more threads than cores" 1 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" --threads 3
grep -q "runs 2 threads" "$tmp/err" && pass "threads: says why" || flunk "threads: says why"
printf 'name: broken\nkind: cpu\ncores: [1\n' >"$tmp/bad.yml"
status "broken machine file" 1 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/bad.yml"
grep -q "bad.yml:[0-9]*:[0-9]*" "$tmp/err" && pass "broken machine: file:line:col" || flunk "broken machine: file:line:col"
printf 'name: t\nkind: cpu\ncores: 2\ncore: {loads_per_cycle: -2}\ncaches:\n  - {name: L1, size: 32 KiB, line: 64}\n' >"$tmp/neg.yml"
status "negative core rate" 1 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/neg.yml"
grep -q "neg.yml:4:" "$tmp/err" && pass "negative rate: file:line" || flunk "negative rate: file:line"
# depth bound to round-1: predict runs the whole search round by round
status "a search whose depth is the round before" 0 "$augur" --json predict \
    "$src/tests/data/measure/bfs_interleaved.c" --data "$mtx"
check "every round simulated" python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['rounds'] < 10)" "$tmp/out"

# a machine file of another host: a warning, and --measure refuses to compare
sed 's/^kind: cpu$/kind: cpu\nhost_id: "0123456789abcdef"/' "$src/samples/machines/dev-xeon-2vcpu.yml" \
    >"$tmp/other.yml"
status "another host's file predicts" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/other.yml"
check "with a warning naming the host" grep -q "other.yml was measured on another host (0123456789abcdef" "$tmp/err"
status "another host's file and --measure" 1 "$augur" predict "$kernel" --data "$mtx" \
    --machine "$tmp/other.yml" --measure
check "the comparison is refused" grep -q "a time measured here says nothing of its prediction" "$tmp/err"

# a loop whose test calls a helper augur inlines (while (round(...) > 0)) runs the helper at each
# test, before it: the whole search is simulated, not the set-up before the loop
status "a search driven from its loop's test" 0 "$augur" --json predict "$src/kernels/bfs/omp.c" \
    --function bfs_topo_omp --data "$mtx" --machine "$tmp/toy.yml"
is "every round of it" "$(jq_ "$tmp/out" "d['accesses_per_call'] > 20 * d['rows']")" True
status "its skeleton tests after the helper" 0 "$augur" skeleton "$src/kernels/bfs/omp.c" \
    --function bfs_topo_omp
check "while 1, then if !(labelled > 0) break" grep -q 'if !(labelled > 0)' "$tmp/out"

status "a sampled search by rounds" 0 "$augur" --json predict "$src/kernels/bfs/omp.c" \
    --function bfs_topo_round_omp --data "$mtx" --machine "$tmp/toy.yml" --sample 0.5
is "runs on the whole data and says why" \
    "$(jq_ "$tmp/out" "d['sample'] is None and 'search by rounds' in d['sample_declined']")" True

# the file's flags from compile_commands.json, as a build system writes them
mkdir -p "$tmp/cc"
printf '#ifndef STRIDE\n#error "STRIDE must be defined"\n#endif\nvoid gather(int n, const int *idx, const double *x, double *y)\n{\n    for (int i = 0; i < n; i++)\n        y[i] = x[idx[i] * STRIDE %% n];\n}\n' >"$tmp/cc/k.c"
printf '[{"directory": "%s", "command": "cc -O2 -DSTRIDE=3 -c k.c -o k.o", "file": "k.c"}]\n' \
    "$tmp/cc" >"$tmp/cc/compile_commands.json"
status "a kernel that needs its build's flags" 1 "$augur" predict "$tmp/cc/k.c" --data "$mtx" \
    --bind idx=csr.col --machine "$tmp/toy.yml"
status "predict --compile-commands FOLDER" 0 "$augur" predict "$tmp/cc/k.c" --data "$mtx" \
    --bind idx=csr.col --machine "$tmp/toy.yml" --compile-commands "$tmp/cc"
status "simulate --compile-commands FILE" 0 "$augur" simulate "$tmp/cc/k.c" --data "$mtx" \
    --bind idx=csr.col --machine "$tmp/toy.yml" --compile-commands "$tmp/cc/compile_commands.json"

# the profile stage: counts saved once, priced on machines of the same caches
status "--save-profile" 0 "$augur" --json predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" \
    --threads 2 --save-profile "$tmp/p.json"
cp "$tmp/out" "$tmp/direct.json"
is "the profile names its format and version" \
    "$(jq_ "$tmp/p.json" "d['format'] + ' ' + str(d['version'])")" "augur-profile 1"
status "--profile prices it" 0 "$augur" --json predict --profile "$tmp/p.json" --machine "$tmp/toy.yml"
is "the same answers as the direct run" \
    "$(jq_ "$tmp/out" "[m['seconds'] for m in d['models']] == [m['seconds'] for m in e['models']] and [l['seconds'] for l in d['lines']] == [l['seconds'] for l in e['lines']]" "$tmp/direct.json")" True
status "simulate -o writes the same stage" 0 "$augur" simulate "$kernel" --data "$mtx" \
    --machine "$tmp/toy.yml" --threads 2 -o "$tmp/s.json"
status "and predict reads it" 0 "$augur" --json predict --profile "$tmp/s.json" --machine "$tmp/toy.yml"
is "with the same answer" "$(jq_ "$tmp/out" "d['seconds'] == e['seconds']" "$tmp/direct.json")" True
sed 's/^clock_ghz: 2$/clock_ghz: 1/' "$tmp/toy.yml" >"$tmp/slow.yml"
status "a machine of the same caches and a slower clock" 0 "$augur" --json predict \
    --profile "$tmp/p.json" --machine "$tmp/slow.yml"
is "takes longer" "$(jq_ "$tmp/out" "d['seconds'] > e['seconds']" "$tmp/direct.json")" True
sed 's/name: L2, size: 256 KiB/name: L2, size: 512 KiB/' "$tmp/toy.yml" >"$tmp/big.yml"
status "a machine of another L2" 1 "$augur" predict --profile "$tmp/p.json" --machine "$tmp/big.yml"
check "is refused, naming its cache level" grep -q "big.yml:.*cache L2 .* is not the L2 the counts were simulated with" "$tmp/err"
status "--profile with --data" 2 "$augur" predict --profile "$tmp/p.json" --data "$mtx"
status "simulate -o with --runs" 2 "$augur" simulate "$kernel" --data "$mtx" --runs 2 -o "$tmp/x.json"
printf '{"format": "augur-profile",\n "version": }\n' >"$tmp/broken.json"
status "a broken profile" 1 "$augur" predict --profile "$tmp/broken.json" --machine "$tmp/toy.yml"
check "names file:line:col" grep -q "broken.json:2:1[0-9]: JSON" "$tmp/err"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['version']=99; json.dump(d, open(sys.argv[2],'w'))" "$tmp/p.json" "$tmp/v99.json"
status "a profile of another version" 1 "$augur" predict --profile "$tmp/v99.json" --machine "$tmp/toy.yml"
check "says so" grep -q "another version" "$tmp/err"
status "a JSON file that is no profile" 1 "$augur" predict --profile "$tmp/direct.json" --machine "$tmp/toy.yml"
check "says so" grep -q "not an augur profile" "$tmp/err"

# --schedule: the worksharing loops run another schedule than the source's schedule(static)
status "--schedule dynamic,64 predicts" 0 "$augur" --json predict "$kernel" --data "$mtx" \
    --machine "$tmp/toy.yml" --threads 2 --schedule dynamic,64 --save-profile "$tmp/dyn.profile.json"
cp "$tmp/out" "$tmp/dyn.json"
is "the JSON says the schedule" "$(jq_ "$tmp/dyn.json" "d['schedule']")" dynamic,64
is "and null without --schedule" "$(jq_ "$tmp/direct.json" "d['schedule']")" None
is "the same accesses" "$(jq_ "$tmp/dyn.json" "d['accesses_per_call'] == e['accesses_per_call']" "$tmp/direct.json")" True
is "dealt on demand: every iteration (static: none)" \
    "$(jq_ "$tmp/dyn.json" "(d['workload']['dealt_share'], e['workload']['dealt_share'])" "$tmp/direct.json")" "(1.0, 0.0)"
# 11,143 rows in chunks of 64: 175 chunks, about 88 for the busiest of two threads (static: 1)
is "the busiest thread takes chunks of 64 rows" \
    "$(jq_ "$tmp/dyn.json" "85 <= d['workload']['chunks'] <= 90 and e['workload']['chunks'] == 1" "$tmp/direct.json")" True
is "the profile keeps the schedule" "$(jq_ "$tmp/dyn.profile.json" "d['schedule']")" dynamic,64
status "--profile of it" 0 "$augur" predict --profile "$tmp/dyn.profile.json" --machine "$tmp/toy.yml"
check "says the schedule" grep -q "^schedule: dynamic,64 for every worksharing loop, overriding the source's$" "$tmp/out"
status "--schedule guided,8, text" 0 "$augur" predict "$kernel" --data "$mtx" --machine "$tmp/toy.yml" \
    --threads 2 --schedule guided,8
check "says the schedule overrides the source's" \
    grep -q "^schedule: guided,8 for every worksharing loop, overriding the source's$" "$tmp/out"
status "--schedule on a kernel without a worksharing loop" 1 "$augur" predict "$src/kernels/spmv/ref.c" \
    --data "$mtx" --machine "$tmp/toy.yml" --schedule dynamic
check "says there is none" grep -q "schedule dynamic: kernel '.*' has no OpenMP worksharing loop" "$tmp/err"
for bad in dynamic,0 dynamic,x auto,4 runtime fast guided,2147483648 ""; do
    status "--schedule '$bad' is a usage error" 2 "$augur" predict "$kernel" --data "$mtx" \
        --machine "$tmp/toy.yml" --schedule "$bad"
    check "naming the option" grep -q "^augur: error: --schedule: .*schedule" "$tmp/err"
done
status "--schedule with --profile" 2 "$augur" predict --profile "$tmp/dyn.profile.json" \
    --machine "$tmp/toy.yml" --schedule static

status "missing --data" 2 "$augur" predict "$kernel"
status "bad --sample" 2 "$augur" predict "$kernel" --data "$mtx" --sample 1.5
status "a sample too small" 1 "$augur" predict "$kernel" --data "$mtx" --sample 0.0001
grep -q "at least 1000 are needed" "$tmp/err" && pass "too small: says why" || flunk "too small: says why"
# Langguth et al. section 8: on the Sandy Bridge file (32 KiB L1), the
# finite-volume kernel on random blocks of b cells leaves its first plateau
# near b = 4 K, the x entries an L1 holds, and costs about twice as much by 8 K.
sandy=$src/samples/machines/sandy-bridge-e5-2670.yml
for b in 1024 2048 8192; do
    "$augur" data generate "blocks:20000:$b" "$tmp/blocks-$b.mtx" 2>/dev/null
    status "fv on blocks of $b, Sandy Bridge file" 0 "$augur" --json predict "$src/kernels/fv/omp.c" \
        --function fv_ell_omp_simple --data "$tmp/blocks-$b.mtx" --machine "$sandy" --threads 1
    cp "$tmp/out" "$tmp/fv-$b.json"
done
is "b = 1 K and 2 K: one plateau" "$(jq_ "$tmp/fv-1024.json" "abs(d['seconds'] / e['seconds'] - 1) < 0.05 and d['bottleneck'] == e['bottleneck']" "$tmp/fv-2048.json")" True
is "b = 8 K: past the L1, 1.5x to 3x the time and another bottleneck" "$(jq_ "$tmp/fv-8192.json" "1.5 < d['seconds'] / e['seconds'] < 3 and d['bottleneck'] != e['bottleneck']" "$tmp/fv-1024.json")" True

status "bad --method" 2 "$augur" predict "$kernel" --data "$mtx" --sample 0.1 --method xx
status "--sample-budget 999: under the smallest sample" 2 "$augur" predict "$kernel" --data "$mtx" --sample-budget 999
status "--sample-budget 0" 2 "$augur" predict "$kernel" --data "$mtx" --sample-budget 0
status "--sample xx" 2 "$augur" predict "$kernel" --data "$mtx" --sample xx
status "--interval 17: over the cap" 2 "$augur" predict "$kernel" --data "$mtx" --sample 0.1 --interval 17
status "--interval -1" 2 "$augur" predict "$kernel" --data "$mtx" --sample 0.1 --interval -1
status "unknown option" 2 "$augur" predict "$kernel" --data "$mtx" --frobnicate
status "--help" 0 "$augur" predict --help
grep -q "usage: augur predict" "$tmp/out" && pass "--help prints the usage" || flunk "--help prints the usage"
echo "1..$n"
