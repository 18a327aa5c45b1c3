#!/bin/bash
# t_report.sh - end-to-end tests of predict's reports: SARIF 2.1.0 valid
# against the OASIS schema, the JSON document against its schema, compiler-
# style diagnostics, the annotated source, the --fail-above gate, reports of
# a saved profile, and bad report options. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
# a shipped file, not this host: the tests check the reports, not the host
export AUGUR_MACHINE=${AUGUR_MACHINE:-$src/samples/machines/dev-xeon-2vcpu.yml}
kernel=$src/samples/spmv.c
mtx=$src/samples/walshaw_fe_4elt2.mtx
have_jsonschema=0
python3 -c 'import jsonschema' 2>/dev/null && have_jsonschema=1
validate() { # validate NAME DOC SCHEMA
    if [ $have_jsonschema = 0 ]; then
        skip "$1" "python3-jsonschema is not installed"
        return
    fi
    if python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$2" "$3" 2>"$tmp/why"; then
        pass "$1"
    else
        flunk "$1"
        tail -n 3 "$tmp/why" | sed 's/^/#   /'
    fi
}
py() { # py FILE EXPR: a Python expression over the JSON document d
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# SARIF into a file, the text on stdout
status "--report sarif -o FILE" 0 "$augur" predict "$kernel" --data "$mtx" --threads 2 \
    --report sarif -o "$tmp/p.sarif"
check "the text still on stdout" grep -q '^prediction: ' "$tmp/out"
validate "SARIF valid against the OASIS 2.1.0 schema" "$tmp/p.sarif" "$src/docs/schema/sarif-2.1.0.json"
is "SARIF: the prediction and the bottleneck line" \
    "$(py "$tmp/p.sarif" "' '.join(r['ruleId'] for r in d['runs'][0]['results'][:2])")" \
    "augur/prediction augur/bottleneck-line"
is "SARIF: the bottleneck is the indirect line 15" \
    "$(py "$tmp/p.sarif" "[r['locations'][0]['physicalLocation']['region']['startLine'] for r in d['runs'][0]['results'] if r['ruleId'] == 'augur/bottleneck-line']")" \
    "[15]"
is "SARIF: each result's figures in properties" \
    "$(py "$tmp/p.sarif" "all(r['properties'] for r in d['runs'][0]['results'])")" True
is "SARIF: ruleIndex points at the rule" \
    "$(py "$tmp/p.sarif" "all(d['runs'][0]['tool']['driver']['rules'][r['ruleIndex']]['id'] == r['ruleId'] for r in d['runs'][0]['results'])")" \
    True

# the JSON document
status "--json" 0 "$augur" predict "$kernel" --data "$mtx" --json
cp "$tmp/out" "$tmp/p.json"
validate "the JSON valid against prediction.schema.json" "$tmp/p.json" "$src/docs/schema/prediction.schema.json"
is "format and version" "$(py "$tmp/p.json" "d['format'] + ' ' + str(d['version'])")" "augur-prediction 1"
status "--report json on stdout" 0 "$augur" predict "$kernel" --data "$mtx" --report json
is "--report json is the --json document" "$(py "$tmp/out" "d['format']")" augur-prediction

# compiler-style diagnostics on stderr, the text on stdout
status "--report diag" 0 "$augur" predict "$kernel" --data "$mtx" --report diag
check "diag: the prediction as a note at the kernel" \
    grep -Eq "spmv\.c:8: note: spmv: predicted .* per call .*\[augur/prediction\]$" "$tmp/err"
check "diag: the bottleneck line as a warning" \
    grep -Eq "spmv\.c:15: warning: this line takes [0-9.]+% of the predicted time .*\[augur/bottleneck-line\]$" "$tmp/err"
check "diag: stdout keeps the text" grep -q '^prediction: ' "$tmp/out"

# an imbalanced partition: a hub among the first half of the rows, the busiest thread named
for v in $(seq 1 3000); do echo "0 $v"; echo "$v $(((v % 3000) + 1))"; done >"$tmp/star.el"
status "load imbalance on a star" 0 "$augur" predict "$kernel" --data "$tmp/star.el" --threads 2 --report diag
check "diag: the imbalance as a warning" grep -Eq "\[augur/load-imbalance\]$" "$tmp/err"

# the annotated source
status "--report annotate" 0 "$augur" predict "$kernel" --data "$mtx" --report annotate
check "annotate: the bottleneck line marked" grep -Eq '^ +[0-9.]+% .* yes +15> +sum \+= val\[k\] \* x\[col\[k\]\];' "$tmp/out"
check "annotate: context lines without figures" grep -Eq '^ +17  +}$' "$tmp/out"
check "annotate: no colour off a terminal" bash -c "! grep -q $'\e' '$tmp/out'"

# the HTML page: self-contained, and it renders to something
status "--report html -o FILE" 0 "$augur" predict "$kernel" --data "$tmp/star.el" --threads 2 --report html -o "$tmp/p.html"
check "html: the charts inline" grep -q '<svg role="img"' "$tmp/p.html"
check "html: the bottleneck line highlighted" grep -q '<tr class="hot">.*sum += val\[k\] \* x\[col\[k\]\];' "$tmp/p.html"
check "html: nothing fetched (no src or href)" bash -c "! grep -Eq '(src|href)=' '$tmp/p.html'"
check "html: the thread chart" grep -q 'the busiest thread against the mean' "$tmp/p.html"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
    skip "html: rendered by headless Chromium" "Chromium is not installed"
else
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1200,1600 --screenshot="$tmp/p.png" "file://$tmp/p.html" >/dev/null 2>&1
    # a screenshot with a few distinct colours in many rows, not a blank page
    check "html: rendered by headless Chromium, not blank" python3 - "$tmp/p.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, width, height, bpp = 8, b'', 0, 0, 4
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
        bpp = {2: 3, 6: 4}[ctype]
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = width * bpp + 1
inked = sum(1 for y in range(height) if len(set(raw[y * stride + 1:(y + 1) * stride])) > 2)
sys.exit(0 if inked > height // 10 else 1)
PY
fi

# the CI gate
status "--fail-above under the prediction fails" 1 "$augur" predict "$kernel" --data "$mtx" --fail-above 1us
check "the budget named" grep -q 'over the budget of 1 us (--fail-above)' "$tmp/err"
status "--fail-above over the prediction passes" 0 "$augur" predict "$kernel" --data "$mtx" --fail-above 2s

# a saved profile reported again
status "--save-profile" 0 "$augur" predict "$kernel" --data "$mtx" --save-profile "$tmp/prof.json"
status "--profile with --report sarif" 0 "$augur" predict --profile "$tmp/prof.json" --report sarif -o "$tmp/q.sarif"
validate "the profile's SARIF valid" "$tmp/q.sarif" "$src/docs/schema/sarif-2.1.0.json"

# bad options
status "unknown report format" 2 "$augur" predict "$kernel" --data "$mtx" --report pdf
check "the formats named" grep -q "unknown report format 'pdf' (json, sarif, diag, annotate or html)" "$tmp/err"
status "-o without --report" 2 "$augur" predict "$kernel" --data "$mtx" -o "$tmp/x"
status "a bad budget" 2 "$augur" predict "$kernel" --data "$mtx" --fail-above 3parsecs
check "the budget's form named" grep -q "fail-above needs a positive time" "$tmp/err"
status "a report into /dev/full" 1 "$augur" predict "$kernel" --data "$mtx" --report sarif -o /dev/full
echo "1..$n"
