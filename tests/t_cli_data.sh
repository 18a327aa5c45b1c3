#!/bin/bash
# t_cli_data.sh - end-to-end tests of 'augur data info', 'augur data convert',
# 'augur data sample' and 'augur train categorizer'
# on shared datasets: text and JSON output, features checked against an
# independent Python computation, clustering against networkx's values, the
# options, round trips and errors. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
data=${AUGUR_DATASETS:-}/mtx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0

pass() {
    n=$((n + 1))
    echo "ok $n - $1"
}
flunk() {
    n=$((n + 1))
    echo "not ok $n - $1"
    fail=1
}
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}

check() { # check NAME COMMAND...: passes when COMMAND succeeds
    local name=$1
    shift
    if "$@" >"$tmp/check.out" 2>&1; then
        pass "$name"
    else
        flunk "$name"
        sed 's/^/#   /' "$tmp/check.out" | head -20
    fi
}

status() { # status WANT CMD...: exit status of the augur command
    local want=$1
    shift
    "$augur" "$@" >/dev/null 2>&1
    [ $? -eq "$want" ]
}

# Python starts slowly here, so the JSON checks are queued and run in one
# process. jcheck NAME JSONFILE EXPECTFILE EXPR queues "EXPR is true", with
# d = JSONFILE parsed, e = EXPECTFILE parsed (None when ""), and J(path) to
# read any other JSON file; jrun runs the queue and prints the TAP lines.
: >"$tmp/queue"
jcheck() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$tmp/queue"
}
cat >"$tmp/jrun.py" <<'EOF'
import json, math, sys
cache = {}
def J(path):
    if path not in cache:
        try:
            cache[path] = json.load(open(path))
        except (OSError, ValueError):
            cache[path] = None
    return cache[path]
n = int(sys.argv[2])
failed = 0
for line in open(sys.argv[1]):
    name, dfile, efile, expr = line.rstrip("\n").split("\t")
    n += 1
    d, e = J(dfile), (J(efile) if efile else None)
    try:
        good = d is not None and bool(eval(expr))
        why = "" if good else "false: " + expr
    except Exception as ex:
        good, why = False, "%s: %s" % (type(ex).__name__, ex)
    print("%sok %d - %s" % ("" if good else "not ", n, name))
    if not good:
        failed = 1
        print("#   " + why)
        print("#   " + json.dumps(d)[:1500])
sys.exit(failed)
EOF
jrun() {
    local out
    [ -s "$tmp/queue" ] || return
    out=$(python3 "$tmp/jrun.py" "$tmp/queue" "$n") || fail=1
    echo "$out"
    n=$((n + $(grep -Ec '^(not )?ok ' <<<"$out")))
    : >"$tmp/queue"
}

# The features of Matrix Market files computed here, independently of augur:
# full pattern for symmetric files, blocks as runs (B = 0) or B wide.
# Arguments: triples FILE B OUT.
cat >"$tmp/features.py" <<'EOF'
import gzip, json, math, sys

def features(path, B):
    op = gzip.open if path.endswith('.gz') else open
    rows = cols = None
    sym = False
    ent = set()
    with op(path, 'rt') as f:
        for line in f:
            if line.startswith('%%MatrixMarket'):
                sym = 'symmetric' in line
                continue
            if line.startswith('%') or not line.strip():
                continue
            t = line.split()
            if rows is None:
                rows, cols = int(t[0]), int(t[1])
                continue
            i, j = int(t[0]) - 1, int(t[1]) - 1
            ent.add((i, j))
            if sym:
                ent.add((j, i))
    byrow = [[] for _ in range(rows)]
    for i, j in ent:
        byrow[i].append(j)
    def stats(xs):
        if not xs:
            return (0, 0, 0.0, 0.0)
        m = sum(xs) / len(xs)
        return (min(xs), max(xs), m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs)))
    deg, nb, sizes = [], [], []
    for r in byrow:
        r.sort()
        deg.append(len(r))
        blocks = []
        for k, j in enumerate(r):
            if k == 0 or (j != r[k - 1] + 1 if B == 0 else j // B != r[k - 1] // B):
                blocks.append(0)
            blocks[-1] += 1
        nb.append(len(blocks))
        sizes += blocks
    nnz = len(ent)
    dist = [abs(i - j) for i, j in ent]
    out = {'rows': rows, 'nnz': nnz, 'empty_rows': deg.count(0),
           'bandwidth': max(dist) if dist else 0,
           'mean_distance': sum(dist) / nnz if nnz else 0.0,
           'nnz_frac': 100.0 * nnz / (rows * cols), 'nnzb_tot': sum(nb)}
    for name, xs in (('nnz', deg), ('nnzb', nb), ('snzb', sizes)):
        for k, v in zip(('min', 'max', 'mu', 'sig'), stats(xs)):
            out[name + '_' + k] = v
    return out

args = sys.argv[1:]
for k in range(0, len(args), 3):
    try:
        res = features(args[k], int(args[k + 1]))
    except OSError:
        continue
    with open(args[k + 2], 'w') as f:
        json.dump(res, f)
EOF

# Every Table I feature and the others against the Python values.
FEATURES_MATCH='all(d["features"]["table1"][k] == e[k] for k in ("nnz_min","nnz_max","nnzb_tot","nnzb_min","nnzb_max","snzb_min","snzb_max")) and all(math.isclose(d["features"]["table1"][k], e[k], rel_tol=1e-9, abs_tol=1e-12) for k in ("nnz_mu","nnz_sig","nnzb_mu","nnzb_sig","snzb_mu","snzb_sig","nnz_frac")) and d["features"]["table1"]["nnz_tot"] == e["nnz"] and d["features"]["empty_rows"] == e["empty_rows"] and d["features"]["bandwidth"] == e["bandwidth"] and math.isclose(d["features"]["mean_distance"], e["mean_distance"], rel_tol=1e-9)'

python3 "$tmp/features.py" "$data/polblogs.mtx" 0 "$tmp/pb.expect" "$data/polblogs.mtx" 4 \
    "$tmp/pb4.expect" "$data/snap_email-Eu-core.mtx" 0 "$tmp/eu.expect"

# ---- help and usage -------------------------------------------------------
check "data info --help shows the feature options" grep -q -- '--block-size B' <<<"$("$augur" data info --help)"
check "help data info is the same page" grep -q -- '--no-clustering' <<<"$("$augur" help data info)"
check "help data lists info and convert" grep -Eq '^  convert ' <<<"$("$augur" help data)"
check "bad flag: exit 2" status 2 data info --frobnicate x.mtx
check "--block-size 0: exit 2" status 2 data info --block-size 0 x.mtx
check "--block-size abc: exit 2" status 2 data info --block-size abc x.mtx
check "--sample-rows 0: exit 2" status 2 data info --sample-rows 0 x.mtx
check "--sample-rows 1.5: exit 2" status 2 data info --sample-rows 1.5 x.mtx
check "--seed -1: exit 2" status 2 data info --seed -1 x.mtx
check "convert has no --block-size: exit 2" status 2 data convert --block-size 4 x.mtx y.mtx
check "two files: exit 2" status 2 data info a.mtx b.mtx
err=$("$augur" data info --block-size 0 x.mtx 2>&1)
check "usage error explains --block-size" grep -q "^augur: error: --block-size needs 'run' or a width >= 1, not '0'" <<<"$err"

# ---- errors ---------------------------------------------------------------
check "missing file: exit 1" status 1 data info "$tmp/missing.mtx"
err=$("$augur" data info "$tmp/missing.mtx" 2>&1 >/dev/null)
check "missing file: 'augur: error:' naming the file" grep -q "^augur: error: .*$tmp/missing.mtx" <<<"$err"
"$augur" --json data info "$tmp/missing.mtx" >"$tmp/err.json" 2>/dev/null
jcheck "--json error is {\"error\": ...} naming the file" "$tmp/err.json" "" 'list(d) == ["error"] and "missing.mtx" in d["error"]'
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 1\n4 1\n' >"$tmp/bad.mtx"
err=$("$augur" data info "$tmp/bad.mtx" 2>&1 >/dev/null)
check "bad entry: exit 1 with file:line" grep -q "^augur: error: $tmp/bad.mtx:4" <<<"$err"

# ---- the range of the values ------------------------------------------------
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2.5\n2 3 -4\n3 2 -0.5\n' >"$tmp/vals.mtx"
"$augur" --json data info "$tmp/vals.mtx" >"$tmp/vals.json" 2>/dev/null
jcheck "values: min, max and the negative ones" "$tmp/vals.json" "" 'd["values"] == {"min": -4.0, "max": 2.5, "negative": 2}'
check "the text says the same" grep -q '^values: *-4 \.\. 2.5, 2 negative$' <<<"$("$augur" data info "$tmp/vals.mtx")"

# ---- a non-square matrix, checked by hand --------------------------------
# (0,0) (1,3) (2,1): |i-j| = 0, 2, 1.
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 4 3\n1 1\n2 4\n3 2\n' >"$tmp/rect.mtx"
if "$augur" --json data info "$tmp/rect.mtx" >"$tmp/rect.json" 2>"$tmp/rect.err"; then
    jcheck "3x4: bandwidth 2, mean |i-j| 1, no empty row" "$tmp/rect.json" "" 'd["features"]["bandwidth"] == 2 and d["features"]["mean_distance"] == 1.0 and d["features"]["empty_rows"] == 0'
    jcheck "3x4: nnz_frac 25 %, 3 blocks of size 1" "$tmp/rect.json" "" 'd["features"]["table1"]["nnz_frac"] == 25.0 and d["features"]["table1"]["nnzb_tot"] == 3 and d["features"]["table1"]["snzb_max"] == 1'
    jcheck "3x4: clustering skipped, not square" "$tmp/rect.json" "" '"not square" in d["clustering"]["skipped"]'
    jcheck "a pattern matrix has no value range" "$tmp/rect.json" "" '"values" not in d'
else
    flunk "3x4 matrix loads"
    sed 's/^/#   /' "$tmp/rect.err"
fi

# ---- real datasets --------------------------------------------------------
pb=$data/polblogs.mtx
if [ -f "$pb" ] && "$augur" data info "$pb" >"$tmp/pb.txt" 2>"$tmp/pb.err"; then
    pass "polblogs: data info runs"
    check "polblogs text: size line" grep -q '^rows x cols:   1490 x 1490$' "$tmp/pb.txt"
    check "polblogs text: features of the full pattern" grep -q '^features:      full pattern' "$tmp/pb.txt"
    check "polblogs text: nnz_tot of the full pattern" grep -Eq '^  nnz_tot: +33430$' "$tmp/pb.txt"
    check "polblogs text: Table I rows" grep -Eq '^  snzb_\{min,max,mu,sig\}: +[0-9]+, [0-9]+, ' "$tmp/pb.txt"
    check "polblogs text: degree cv 1.62 (MANIFEST)" grep -Eq '^  degree cv: +1\.6[12]' "$tmp/pb.txt"
    check "polblogs text: clustering 0.262652 (networkx 0.2626517751)" grep -Eq '^  undirected: +0\.262652 ' "$tmp/pb.txt"
    check "polblogs text: no directed coefficient for symmetric data" bash -c "! grep -q '^  directed:' '$tmp/pb.txt'"
    check "polblogs text: timing of the clustering" grep -Eq '^  clustering: +[0-9.]+ s$' "$tmp/pb.txt"
    check "polblogs text: only aligned key: value lines" bash -c "! grep -Ev '^([a-zA-Z][a-zA-Z x]*: +[^ ]|[a-zA-Z ]+:$|  [^ ][^:]*: +[^ ]|    [^ ][^:]*: +[^ ])' '$tmp/pb.txt'"

    "$augur" --json data info "$pb" >"$tmp/pb.json" 2>/dev/null
    jcheck "polblogs json: every feature matches the Python computation" "$tmp/pb.json" "$tmp/pb.expect" "$FEATURES_MATCH"
    jcheck "polblogs json: degree block agrees with Table I" "$tmp/pb.json" "" 'd["features"]["degree"]["max"] == 351 and math.isclose(d["features"]["degree"]["cv"], d["features"]["table1"]["nnz_sig"] / d["features"]["table1"]["nnz_mu"])'
    jcheck "polblogs json: clustering 0.2626517751, 101043 triangles (networkx)" "$tmp/pb.json" "" 'abs(d["clustering"]["undirected"]["value"] - 0.262651775135839) < 1e-9 and d["clustering"]["undirected"]["triangles"] == 101043 and "directed" not in d["clustering"]'
    jcheck "polblogs json: times of each part" "$tmp/pb.json" "" 'all(d["timing"][k] >= 0 for k in ("parse", "build", "load", "csr", "features", "clustering"))'
    jcheck "polblogs json: the loader fields stay" "$tmp/pb.json" "" 'd["nnz_stored"] == 16715 and d["nnz_full"] == 33430 and d["symmetry"] == "symmetric" and d["features"]["pattern"] == "full"'

    "$augur" --json data info --block-size 4 "$pb" >"$tmp/pb4.json" 2>/dev/null
    jcheck "polblogs --block-size 4: features match the Python computation" "$tmp/pb4.json" "$tmp/pb4.expect" "$FEATURES_MATCH"
    jcheck "polblogs --block-size 4: reported" "$tmp/pb4.json" "" 'd["features"]["blocks"] == "fixed" and d["features"]["block_size"] == 4'

    "$augur" --json data info --no-clustering "$pb" >"$tmp/pbn.json" 2>/dev/null
    jcheck "polblogs --no-clustering: skipped" "$tmp/pbn.json" "" 'd["clustering"] == {"skipped": "--no-clustering"} and d["timing"]["clustering"] == 0'
    check "polblogs --no-clustering: text says skipped" grep -q '^clustering:    skipped' <<<"$("$augur" data info --no-clustering "$pb")"

    "$augur" --json data info --sample-rows 0.5 --seed 3 "$pb" >"$tmp/s1.json" 2>/dev/null
    "$augur" --json data info --sample-rows 0.5 --seed 3 "$pb" >"$tmp/s2.json" 2>/dev/null
    "$augur" --json data info --sample-rows 0.5 --seed 4 "$pb" >"$tmp/s3.json" 2>/dev/null
    jcheck "polblogs --sample-rows 0.5: 745 rows, marked sampled" "$tmp/s1.json" "" 'd["features"]["sampled"] and d["features"]["rows_sampled"] == 745 and d["features"]["seed"] == 3'
    jcheck "polblogs --sample-rows: same seed, same features" "$tmp/s1.json" "$tmp/s2.json" 'd["features"] == e["features"]'
    jcheck "polblogs --sample-rows: another seed, another sample" "$tmp/s1.json" "$tmp/s3.json" 'd["features"] != e["features"]'
    jcheck "polblogs --sample-rows: nnz_tot stays exact, clustering too" "$tmp/s1.json" "" 'd["features"]["table1"]["nnz_tot"] == 33430 and abs(d["clustering"]["undirected"]["value"] - 0.262651775135839) < 1e-9'
    check "polblogs --sample-rows: text names the sample" grep -q 'Random Row sample: 745 of 1490 rows' <<<"$("$augur" data info --no-clustering --sample-rows 0.5 "$pb")"
else
    skip "polblogs: data info runs" "$(head -c 200 "$tmp/pb.err" 2>/dev/null || echo 'no dataset')"
fi

eu=$data/snap_email-Eu-core.mtx
if [ -f "$eu" ] && "$augur" --json data info "$eu" >"$tmp/eu.json" 2>"$tmp/eu.err"; then
    jcheck "Eu-core (general): features of the stored pattern match Python" "$tmp/eu.json" "$tmp/eu.expect" "$FEATURES_MATCH and d['features']['pattern'] == 'stored'"
    jcheck "Eu-core: undirected 0.3993549664 (networkx; SNAP 0.3994)" "$tmp/eu.json" "" 'abs(d["clustering"]["undirected"]["value"] - 0.3993549664221539) < 1e-9 and d["clustering"]["undirected"]["triangles"] == 105461'
    jcheck "Eu-core: directed (eq. 1) 0.2888246316, 642 self loops left out" "$tmp/eu.json" "" 'abs(d["clustering"]["directed"]["value"] - 0.2888246316120285) < 1e-9 and d["clustering"]["directed"]["arcs"] == 25571 - 642'
    check "Eu-core text: the directed coefficient" grep -Eq '^  directed: +0\.288825 ' <<<"$("$augur" data info "$eu")"
else
    skip "Eu-core: data info runs" "$(head -c 200 "$tmp/eu.err" 2>/dev/null || echo 'no dataset')"
fi

# ---- gzip and the convert round trip -------------------------------------
ny=$data/road_usa_NY.mtx.gz
if [ -f "$ny" ] && "$augur" data convert "$ny" "$tmp/ny.mtx" 2>"$tmp/ny.err"; then
    pass "convert road_usa_NY.mtx.gz to a plain .mtx"
    "$augur" --json data info --no-clustering "$ny" >"$tmp/nyz.json" 2>/dev/null
    "$augur" --json data info --no-clustering "$tmp/ny.mtx" >"$tmp/ny.json" 2>/dev/null
    jcheck "round trip: same rows, nnz and features" "$tmp/nyz.json" "$tmp/ny.json" 'all(d[k] == e[k] for k in ("rows", "cols", "nnz_stored", "nnz_full", "symmetry", "field")) and d["features"] == e["features"] and d["compressed"] and not e["compressed"] and d["rows"] == 264346 and d["nnz_full"] == 730100'
    "$augur" --json data convert "$tmp/ny.mtx" "$tmp/ny2.mtx" >"$tmp/conv.json" 2>/dev/null
    jcheck "convert --json: a summary naming the output" "$tmp/conv.json" "" 'd["output"].endswith("ny2.mtx") and d["nnz_stored"] == 365050'
    check "convert twice: the same entries" cmp -s <(grep -v '^%' "$tmp/ny.mtx") <(grep -v '^%' "$tmp/ny2.mtx")
else
    skip "convert road_usa_NY.mtx.gz" "$(head -c 200 "$tmp/ny.err" 2>/dev/null || echo 'no dataset')"
fi

# ---- data sample, and the estimate and category of data info ---------------
tree=${AUGUR_SOURCE_DIR:-.}/samples/categorizer.tree
machine=${AUGUR_SOURCE_DIR:-.}/samples/machines/dev-xeon-2vcpu.yml
check "help data lists sample" grep -Eq '^  sample ' <<<"$("$augur" help data)"
check "data sample --help names the methods" grep -q -- '--method M' <<<"$("$augur" data sample --help)"
check "sample --rate 0: exit 2" status 2 data sample --rate 0 x.mtx -o y.mtx
check "sample --rate 1.5: exit 2" status 2 data sample --rate 1.5 x.mtx -o y.mtx
check "sample --method xx: exit 2" status 2 data sample --method xx x.mtx -o y.mtx
check "sample without -o: exit 2" status 2 data sample x.mtx
check "sample --evaluate without --machine: exit 2" status 2 data sample --evaluate x.mtx
check "info --rnn-rate 0: exit 2" status 2 data info --rnn-rate 0 x.mtx
check "info --rnn-error 1: exit 2" status 2 data info --rnn-error 1 x.mtx
check "info --rnn-error x: exit 2" status 2 data info --rnn-error x x.mtx
err=$("$augur" data sample --rate 0 x.mtx -o y.mtx 2>&1)
check "usage error explains --rate" grep -q "^augur: error: --rate needs a fraction in (0, 1], not '0'" <<<"$err"
printf '%%%%MatrixMarket matrix coordinate pattern general\n4 4 0\n' >"$tmp/empty.mtx"
err=$("$augur" data sample --method re "$tmp/empty.mtx" -o "$tmp/e.mtx" 2>&1)
check "empty matrix: exit 1, 'no entries', names the file" grep -q "^augur: error: $tmp/empty.mtx: .*no entries" <<<"$err"
printf '%%%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 1\n2 3\n' >"$tmp/tiny.mtx"
err=$("$augur" data sample --method rt "$tmp/tiny.mtx" -o "$tmp/t.mtx" 2>&1)
check "2 entries at 5 %: exit 1, too small" grep -q "too small to sample at rate 0.05" <<<"$err"
printf 'augur-categorizer 1\nnode 0 leaf sa\nbogus\n' >"$tmp/bad.tree"
err=$("$augur" data sample --tree "$tmp/bad.tree" "$tmp/tiny.mtx" -o "$tmp/t.mtx" 2>&1)
check "corrupt tree: exit 1 naming tree:line" grep -q "^augur: error: $tmp/bad.tree:3:1: unknown keyword 'bogus'" <<<"$err"

if [ -f "$pb" ]; then
    if "$augur" --json data sample --method sa "$pb" -o "$tmp/sa.mtx" >"$tmp/sa.json" 2>"$tmp/sa.err"; then
        pass "polblogs: a Stride Average sample"
        # the paper's side, floor(sqrt(0.05/4) 1490) = 166, holds fewer than 5 % of polblogs' entries
        jcheck "sa: the smallest squares at n/4 and 3n/4 that hold 5 % (1,672 entries): side 169" "$tmp/sa.json" "" 'd["sample"]["squares"]["row_side"] == 169 and d["sample"]["squares"]["row_lo"] == [288, 1033] and d["sample"]["target"] == 1672 <= d["sample"]["nnz"] <= d["sample"]["nnz_full"] == 33430'
        "$augur" --json data info --no-clustering "$tmp/sa.mtx" >"$tmp/sainfo.json" 2>/dev/null
        jcheck "the sample file loads back: its entries and size" "$tmp/sainfo.json" "$tmp/sa.json" 'd["nnz_stored"] == e["sample"]["nnz"] and d["rows"] == e["sample"]["rows"] and d["symmetry"] == "general"'
        check "the sample file names its source" grep -q '^% written by augur from sa sample (rate 0.05, seed 1) of ' "$tmp/sa.mtx"
    else
        flunk "polblogs: a Stride Average sample"
        sed 's/^/#   /' "$tmp/sa.err"
    fi
    "$augur" --json data sample --method rt --seed 3 --rate 0.1 "$pb" -o "$tmp/rt1.mtx" >"$tmp/rt1.json" 2>/dev/null
    "$augur" data sample --method rt --seed 3 --rate 0.1 "$pb" -o "$tmp/rt2.mtx" >/dev/null 2>&1
    "$augur" data sample --method rt --seed 4 --rate 0.1 "$pb" -o "$tmp/rt3.mtx" >/dev/null 2>&1
    check "rt: same seed, same file" cmp -s "$tmp/rt1.mtx" "$tmp/rt2.mtx"
    check "rt: another seed, another sample" bash -c "! cmp -s '$tmp/rt1.mtx' '$tmp/rt3.mtx'"
    jcheck "rt: stops at the first tile that reaches 10 %" "$tmp/rt1.json" "" 'd["sample"]["tiles"]["reached"] and d["sample"]["target"] == 3343 and d["sample"]["target"] <= d["sample"]["nnz"] < d["sample"]["target"] + d["sample"]["tiles"]["last_tile_nnz"]'
    "$augur" --json data sample --method rb --seed 3 "$pb" -o "$tmp/rb1.mtx" >"$tmp/rb1.json" 2>/dev/null
    "$augur" data sample --method rb --seed 3 "$pb" -o "$tmp/rb2.mtx" >/dev/null 2>&1
    "$augur" data sample --method rb --seed 4 "$pb" -o "$tmp/rb3.mtx" >/dev/null 2>&1
    check "rb: same seed, same file" cmp -s "$tmp/rb1.mtx" "$tmp/rb2.mtx"
    check "rb: another seed, another sample" bash -c "! cmp -s '$tmp/rb1.mtx' '$tmp/rb3.mtx'"
    jcheck "rb: 32 blocks of whole rows, the target reached by less than a row" "$tmp/rb1.json" "" 'd["sample"]["row_blocks"]["blocks"] == 32 and d["sample"]["target"] == 1672 and 1672 <= d["sample"]["nnz"] < 1672 + 351 and d["sample"]["rows"] < 1490'
    "$augur" --json data info --no-clustering "$tmp/rb1.mtx" >"$tmp/rbinfo.json" 2>/dev/null
    jcheck "rb: the sample file loads back: its entries and size" "$tmp/rbinfo.json" "$tmp/rb1.json" 'd["nnz_stored"] == e["sample"]["nnz"] and d["rows"] == e["sample"]["rows"]'
    "$augur" data sample --method re "$pb" -o - >"$tmp/re.mtx" 2>/dev/null
    check "re to standard output: exactly 1672 entries" grep -Eq '^[0-9]+ [0-9]+ 1672$' "$tmp/re.mtx"
    if [ -f "$tree" ]; then
        "$augur" --json data sample --tree "$tree" "$pb" -o "$tmp/auto.mtx" >"$tmp/auto.json" 2>/dev/null
        jcheck "auto: the tree's sampler is used" "$tmp/auto.json" "" 'd["sample"]["method"] == d["category"]["sampler"] and d["category"]["sampler"] in ("sa", "rt", "rb")'
        "$augur" --json data info --tree "$tree" "$pb" >"$tmp/pbc.json" 2>/dev/null
        jcheck "info: the category of the tree" "$tmp/pbc.json" "$tmp/auto.json" 'd["category"]["sampler"] == e["category"]["sampler"] and d["category"]["tree"].endswith("categorizer.tree")'
        jcheck "info: RNN estimate at 1 %, its error against the exact value" "$tmp/pbc.json" "" 'd["clustering_estimate"]["rate"] == 0.01 and d["clustering_estimate"]["arcs_sampled"] >= 0.01 * 33430 and math.isclose(d["clustering_estimate"]["error"], abs(d["clustering_estimate"]["value"] - 0.262651775135839) / 0.262651775135839, rel_tol=1e-6)'
    else
        skip "auto: the tree's sampler is used" "no samples/categorizer.tree"
    fi
    "$augur" --json data info --rnn-rate 1 "$pb" >"$tmp/pb1.json" 2>/dev/null
    jcheck "info --rnn-rate 1: every node drawn, the exact value" "$tmp/pb1.json" "" 'abs(d["clustering_estimate"]["value"] - 0.262651775135839) < 1e-9 and d["clustering_estimate"]["error"] < 1e-9 and d["clustering_estimate"]["nodes_sampled"] == 1490'
    "$augur" --json data info --rnn-error 0.05 "$pb" >"$tmp/pbe.json" 2>/dev/null
    jcheck "info --rnn-error 0.05: drawn past 1 % until the standard error is 5 % of the estimate" "$tmp/pbe.json" "" '(x := d["clustering_estimate"])["rel_error_target"] == 0.05 and x["arcs_sampled"] > 0.02 * 33430 and x["nodes_sampled"] < 1490 and x["std_error"] <= 0.05 * x["value"] and x["nodes_on_triangles"] >= 16'
    "$augur" --json data info --no-clustering "$pb" >"$tmp/pbn2.json" 2>/dev/null
    jcheck "info --no-clustering: the estimate stays, without an error" "$tmp/pbn2.json" "" '"value" in d["clustering_estimate"] and "error" not in d["clustering_estimate"]'
    txt=$("$augur" data info "$pb")
    check "info text: the estimate line" grep -Eq '^  estimate \(RNN\): +0\.[0-9]+ \(Algorithm 3, undirected, rate 0.01, seed 1' <<<"$txt"
    check "info text: the error line" grep -Eq '^  estimate error: +[0-9.]+ % of the exact undirected value' <<<"$txt"
    check "info text: the standard error line" grep -Eq '^  standard error: +0\.[0-9]+ \([0-9.]+ % of the estimate; [0-9]+ of the nodes drawn on a triangle\)' <<<"$txt"
    check "info text: a category line" grep -Eq '^category: +(sa|rt|rb|unavailable)' <<<"$txt"
fi

cr=$data/ss_cryg2500.mtx
if [ -f "$cr" ] && "$augur" --json data sample "$cr" --evaluate --machine "$machine" --method sa,rt --kernel spmv --seeds 2 >"$tmp/ev.json" 2>"$tmp/ev.err"; then
    jcheck "evaluate: spmv, full miss rates per level" "$tmp/ev.json" "" 'd["kernels"][0]["kernel"] == "spmv" and 0 < d["kernels"][0]["full"]["levels"]["L1"]["miss_rate"] < 1 and d["scaling"] == "auto"'
    jcheck "evaluate: sa once, rt over 2 seeds, errors by eq. 7" "$tmp/ev.json" "" '[m["method"] for m in d["kernels"][0]["methods"]] == ["sa", "rt"] and len(d["kernels"][0]["methods"][0]["runs"]) == 1 and len(d["kernels"][0]["methods"][1]["runs"]) == 2 and all(math.isclose(m["error"]["L1"], sum(abs(r["miss_rate"]["L1"] - d["kernels"][0]["full"]["levels"]["L1"]["miss_rate"]) for r in m["runs"]) / len(m["runs"]) / d["kernels"][0]["full"]["levels"]["L1"]["miss_rate"], rel_tol=1e-6) for m in d["kernels"][0]["methods"])'
else
    skip "evaluate on ss_cryg2500" "$(head -c 200 "$tmp/ev.err" 2>/dev/null || echo 'no dataset')"
fi

# ---- train categorizer: 3 R-MAT and 3 block-diagonal matrices and the sample ----
check "train categorizer --help names --split" grep -q -- '--split C' <<<"$("$augur" train categorizer --help)"
check "train categorizer --split xx: exit 2" status 2 train categorizer --split xx --machine "$machine" -o "$tmp/x.tree" x.mtx
sample=${AUGUR_SOURCE_DIR:-.}/samples/walshaw_fe_4elt2.mtx
for split in error gini; do
    if "$augur" --json train categorizer --machine "$machine" --generated 3 --seeds 1 --folds 2 \
        --max-depth 2 --split $split -o "$tmp/$split.tree" "$sample" >"$tmp/train-$split.json" 2>"$tmp/train.err"; then
        pass "train categorizer --split $split: 7 matrices"
    else
        flunk "train categorizer --split $split: 7 matrices"
        sed 's/^/#   /' "$tmp/train.err" | head -5
    fi
done
jcheck "train: 7 matrices, each with its three errors" "$tmp/train-error.json" "" 'd["matrices"] == 7 and all(set(i["error"]) == {"sa", "rt", "rb"} for i in d["items"])'
jcheck "train --split error: the depth of least cross-validated error" "$tmp/train-error.json" "" 'd["depth"] == min(d["depths"], key=lambda x: (round(x["cv_error"], 12), x["depth"]))["depth"] and "the samplers'"'"' summed errors" in d["tree"]'
jcheck "train --split gini: the depth of best cross-validated accuracy" "$tmp/train-gini.json" "" 'max(x["cv_accuracy"] for x in d["depths"]) == [x for x in d["depths"] if x["depth"] == d["depth"]][0]["cv_accuracy"] and "Gini impurity" in d["tree"]'
jcheck "train: the tree written is the one printed" "$tmp/train-error.json" "" 'open(d["output"]).read() == d["tree"]'
"$augur" --json data info --no-clustering --tree "$tmp/error.tree" "$sample" >"$tmp/trinfo.json" 2>/dev/null
jcheck "train: the new tree categorizes a matrix" "$tmp/trinfo.json" "" 'd["category"]["sampler"] in ("sa", "rt", "rb")'

# train --errors: the labels from given errors (as bench/sampling_vs_full.py --errors-out
# writes those of predicted times); four copies of the sample under other names
for c in a b c d e; do cp "$sample" "$tmp/$c.mtx"; done
printf '# name sa rt rb\na.mtx 0.5 0.2 0.1\nb.mtx 0.01 0.3 0.2\nc.mtx 0.4 0.02 0.9\nd.mtx 0.3 0.3 0.3\n' >"$tmp/errors.tsv"
if "$augur" --json train categorizer --machine "$machine" --errors "$tmp/errors.tsv" --folds 2 \
    -o "$tmp/given.tree" "$tmp"/[a-e].mtx >"$tmp/given.json" 2>"$tmp/given.err"; then
    pass "train --errors: trains"
else
    flunk "train --errors: trains"
fi
jcheck "train --errors: the four matrices named, labelled by their least error (ties: sa)" "$tmp/given.json" "" '[(i["name"], i["label"]) for i in d["items"]] == [("a.mtx", "rb"), ("b.mtx", "sa"), ("c.mtx", "rt"), ("d.mtx", "sa")] and "the least error in" in d["tree"]'
check "train --errors: a matrix the file does not name is skipped, and said" grep -q "skipping e.mtx: .*errors.tsv: no errors for e.mtx" "$tmp/given.err"
printf 'a.mtx 0.5 0.2\n' >"$tmp/short.tsv"
err=$("$augur" train categorizer --machine "$machine" --errors "$tmp/short.tsv" -o "$tmp/x.tree" "$tmp/a.mtx" 2>&1)
check "train --errors, a short line: exit 1 naming file:line" grep -q "short.tsv:1:.*rb" <<<"$err"
printf 'a.mtx 0.5 0.2 0.1\nsub/b.mtx 1 2 3\n' >"$tmp/dir.tsv"
err=$("$augur" train categorizer --machine "$machine" --errors "$tmp/dir.tsv" -o "$tmp/x.tree" "$tmp/a.mtx" 2>&1)
check "train --errors, a name with a folder: refused at its line" grep -q "dir.tsv:2:1: .*without its folder" <<<"$err"
printf 'a.mtx 0.5 -0.2 0.1\n' >"$tmp/neg.tsv"
check "train --errors, a negative error: exit 1" status 1 train categorizer --machine "$machine" --errors "$tmp/neg.tsv" -o "$tmp/x.tree" "$tmp/a.mtx"

# ---- data reorder -------------------------------------------------------------
"$augur" --json data reorder "$sample" "$tmp/rcm.mtx" --method rcm >"$tmp/rcm.json" 2>"$tmp/rcm.err"
jcheck "reorder rcm: the bandwidth shrinks, the entries stay" "$tmp/rcm.json" "" 'd["reorder"]["bandwidth_after"] < d["reorder"]["bandwidth_before"] and d["nnz_full"] == 65636 and d["perm"].endswith("rcm.mtx.perm")'
python3 - "$sample" "$tmp/rcm.mtx" "$tmp/rcm.mtx.perm" >"$tmp/perm.out" 2>&1 <<'EOF'
import sys
def entries(path):
    rows = [l.split() for l in open(path) if not l.startswith('%')][1:]
    return {(int(r[0]), int(r[1])) for r in rows}
order = [int(l) for l in open(sys.argv[3]) if not l.startswith('%')]
assert sorted(order) == list(range(1, len(order) + 1)), "not a permutation"
a, b = entries(sys.argv[1]), entries(sys.argv[2])
sym = lambda s: s | {(j, i) for i, j in s}
assert sym({(order[i - 1], order[j - 1]) for i, j in b}) == sym(a), "entries differ"
EOF
check "reorder rcm: OUT.perm maps OUT's entries back onto IN's" test ! -s "$tmp/perm.out"
"$augur" data reorder "$sample" "$tmp/m.mtx" --method metis:1024 --perm "$tmp/m.order" >"$tmp/m.txt" 2>&1
check "reorder metis:1024: text names the parts and the permutation" grep -q "parts: *11, edge cut" "$tmp/m.txt"
check "reorder metis: --perm writes where asked" test -s "$tmp/m.order"
"$augur" data reorder "$sample" - --method rcm --perm "$tmp/o.perm" >"$tmp/o.mtx" 2>/dev/null
check "reorder to standard output, permutation to --perm" cmp -s "$tmp/o.mtx" "$tmp/rcm.mtx"
for bad in "" "--method foo" "--method metis" "--method metis:0" "--method rcm:2"; do
    check "reorder $bad: a usage error" status 2 data reorder "$sample" "$tmp/x.mtx" $bad
done
check "reorder OUT '-' without --perm: a usage error" status 2 data reorder "$sample" - --method rcm
err=$("$augur" data reorder "$sample" "$tmp/x.mtx" --method metis:20000 2>&1 >/dev/null)
check "reorder metis:B beyond the rows: an error naming B and the file" grep -q "walshaw_fe_4elt2.mtx: metis:20000: the rows per part must be 1 to the 11143 rows" <<<"$err"
printf '%%%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n' >"$tmp/rect.mtx"
check "reorder a 2 x 3 matrix: exit 1" status 1 data reorder "$tmp/rect.mtx" "$tmp/x.mtx" --method rcm
check "reorder: nothing written on failure" test ! -e "$tmp/x.mtx"

# ---- data generate ------------------------------------------------------------
"$augur" --json data generate blocks:1000:50 "$tmp/blocks.mtx" >"$tmp/blocks.json" 2>&1
jcheck "generate blocks:1000:50: 4 neighbours a node" "$tmp/blocks.json" "" 'd["rows"] == 1000 and d["nnz_stored"] == 4000 and d["symmetry"] == "general"'
python3 - "$tmp/blocks.mtx" >"$tmp/blocks.out" 2>&1 <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith('%')][1:]
assert all((int(i) - 1) // 50 == (int(j) - 1) // 50 and i != j for i, j in rows), "an edge leaves its block"
EOF
check "generate blocks: every edge stays in its block of 50" test ! -s "$tmp/blocks.out"
"$augur" data generate blocks:1000:50 --seed 2 "$tmp/blocks2.mtx" 2>/dev/null
check "generate --seed: another instance" sh -c "! cmp -s '$tmp/blocks.mtx' '$tmp/blocks2.mtx'"
"$augur" data generate rmat:8:4 - >"$tmp/rmat.mtx" 2>/dev/null
check "generate rmat:8:4 to standard output" grep -q "^256 256 " "$tmp/rmat.mtx"
for bad in foo blocks:10 blocks:10:20 blocks:1000:50:0 rmat:30:4 rmat:8:4:0.99; do
    check "generate $bad: a usage error" status 2 data generate "$bad" "$tmp/y.mtx"
done
check "generate: nothing written on failure" test ! -e "$tmp/y.mtx"

jrun
echo "1..$n"
exit $fail
