#!/bin/bash
# t_determinism.sh - the JSON of predict, simulate and data info is the same
# byte for byte, outside its `timing` object, from run to run and whatever
# number of OpenMP threads augur itself runs. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
machine=$src/samples/machines/dev-epyc-zen4-2vcpu.yml
mtx=$src/samples/walshaw_fe_4elt2.mtx

strip() { # strip FILE: the document without its timing object
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d.pop('timing', None); print(json.dumps(d, sort_keys=True))" "$1"
}
same() { # same NAME ARGS...: two runs and a run on one OpenMP thread agree outside timing
    local name=$1
    shift
    "$augur" --json "$@" >"$tmp/a.json" 2>/dev/null
    "$augur" --json "$@" >"$tmp/b.json" 2>/dev/null
    OMP_NUM_THREADS=1 "$augur" --json "$@" >"$tmp/c.json" 2>/dev/null
    check "$name: a timing object" python3 -c "import json,sys; sys.exit('timing' not in json.load(open(sys.argv[1])))" "$tmp/a.json"
    is "$name: the same from run to run" "$(strip "$tmp/b.json")" "$(strip "$tmp/a.json")"
    is "$name: the same on one thread" "$(strip "$tmp/c.json")" "$(strip "$tmp/a.json")"
}

same "predict" predict "$src/samples/spmv.c" --data "$mtx" --machine "$machine" --threads 2
same "predict from a sample" predict "$src/samples/spmv.c" --data "$mtx" --machine "$machine" \
    --sample 0.3 --method rt --seed 7
same "simulate" simulate "$src/samples/spmv.c" --data "$mtx" --machine "$machine" --threads 2
same "data info" data info --tile-size 64 "$mtx"
echo "1..$n"
