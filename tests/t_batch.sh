#!/bin/bash
# t_batch.sh - end-to-end tests of 'augur batch': a manifest run by make -j,
# the same rows written as a Makefile and as a Slurm job array (run here task by
# task), joined as JSON lines in row order, a failed row holding its error, and
# bad manifests named by file:line:col. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=$(cd "${AUGUR_SOURCE_DIR:-.}" && pwd)
augur=$(cd "$(dirname "$augur")" && pwd)/$(basename "$augur")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/tap.sh"
py() { # py FILE EXPR: a Python expression over the JSON lines rows
    python3 -c "import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; print($2)" "$1"
}
machine=$src/samples/machines/dev-xeon-2vcpu.yml
mtx=$src/samples/walshaw_fe_4elt2.mtx
mkdir -p "$tmp/m/k"
cp "$src/samples/spmv.c" "$tmp/m/k/"
# relative paths are the manifest's folder's; one dataset that is not there
cat >"$tmp/m/batch.txt" <<MANIFEST
# kernel    dataset    machine    threads  options
k/spmv.c    $mtx       $machine   1,2
k/spmv.c    missing.mtx  $machine  1
$src/kernels/spmv/omp.c  $mtx  $machine  1-2  --function spmv_csr_omp_static
MANIFEST

cd "$tmp" || exit 1
status "batch -j 2 runs every row, one failing" 1 "$augur" batch m/batch.txt -j 2
check "the summary counts them" grep -q '^5 rows: 4 predicted, 1 failed; JSON lines in m/batch.jsonl' "$tmp/out"
is "five JSON lines in row order" "$(py m/batch.jsonl "[r['row'] for r in rows]")" "[0, 1, 2, 3, 4]"
is "each a prediction document" "$(py m/batch.jsonl "[r.get('format') for r in rows]")" \
    "['augur-prediction', 'augur-prediction', None, 'augur-prediction', 'augur-prediction']"
is "with the row's threads" "$(py m/batch.jsonl "[r.get('threads') for r in rows]")" "[1, 2, None, 1, 2]"
check "the failed row holds its error, naming the file" \
    sh -c "grep '\"row\":2' m/batch.jsonl | grep -q 'missing.mtx: cannot open'"
check "the rows' documents kept" test -s m/batch.rows/4.json
is "the same prediction as predict alone" \
    "$("$augur" predict m/k/spmv.c --data "$mtx" --machine "$machine" --threads 2 --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')" \
    "$(py m/batch.jsonl "rows[1]['seconds']")"

status "--emit make writes a Makefile" 0 "$augur" batch m/batch.txt --emit make -o mk.jsonl --rows mk.rows
cp "$tmp/out" Makefile.batch
check "make -k -j 2 -f runs it" sh -c "make -s -k -j 2 -f Makefile.batch 2>/dev/null"
is "into the same JSON lines" "$(py mk.jsonl "[r['row'] for r in rows]")" "[0, 1, 2, 3, 4]"

status "--emit slurm writes a job-array script" 0 "$augur" batch m/batch.txt --emit slurm -o sl.jsonl --rows sl.rows
cp "$tmp/out" batch.sbatch
check "one array task per row" grep -q '^#SBATCH --array=0-4$' batch.sbatch
for i in 0 1 2 3 4; do SLURM_ARRAY_TASK_ID=$i bash batch.sbatch; done
status "--collect joins the tasks' rows" 1 "$augur" batch --collect sl.jsonl sl.rows/4.json sl.rows/0.json \
    sl.rows/1.json sl.rows/2.json sl.rows/3.json
check "and says how many failed" grep -q '1 of 5 rows failed' "$tmp/err"
is "in row order" "$(py sl.jsonl "[r['row'] for r in rows]")" "[0, 1, 2, 3, 4]"

# bad manifests
printf 'k/spmv.c data.mtx auto\n' >bad1.txt
status "a row without threads" 1 "$augur" batch bad1.txt
check "named file:line:col" grep -q 'bad1.txt:1:19: a row needs KERNEL DATASET MACHINE THREADS' "$tmp/err"
printf '# nothing\n\n' >bad2.txt
status "no rows" 1 "$augur" batch bad2.txt
check "said so" grep -q 'bad2.txt: no rows' "$tmp/err"
printf 'k.c d.mtx auto 0-3\n' >bad3.txt
status "threads out of range" 1 "$augur" batch bad3.txt
check "named" grep -q "bad3.txt:1:16: threads '0-3'" "$tmp/err"
printf 'k.c d.mtx auto 2 spmv\n' >bad4.txt
status "an option that is not one" 1 "$augur" batch bad4.txt
status "make cannot name a path with a blank" 1 "$augur" batch m/batch.txt --emit make -o 'a b.jsonl'
status "an unknown engine" 2 "$augur" batch m/batch.txt --emit pbs
echo "1..$n"
