#!/bin/bash
# accuracy_replay.sh - re-predicts the cases of a saved bench/accuracy.sh
# run (ACCURACY_OUT) with the current build and machine file, keeping the
# times that run measured: for working on the models without timing the
# kernels again. Each new JSON is the new prediction with the old run's
# "measured" and "error" put back; bench/accuracy_fit.sh reads the result.
# The measurements are only as current as the old run: re-run
# bench/accuracy.sh before quoting figures for a changed machine or kernel.
#
# usage: bench/accuracy_replay.sh BUILD_DIR MACHINE.yml OLD_RUNS NEW_RUNS [JOBS]
set -uo pipefail
build=${1:?usage: bench/accuracy_replay.sh BUILD_DIR MACHINE.yml OLD_RUNS NEW_RUNS [JOBS]}
machine=${2:?usage: bench/accuracy_replay.sh BUILD_DIR MACHINE.yml OLD_RUNS NEW_RUNS [JOBS]}
old=${3:?usage: bench/accuracy_replay.sh BUILD_DIR MACHINE.yml OLD_RUNS NEW_RUNS [JOBS]}
new=${4:?usage: bench/accuracy_replay.sh BUILD_DIR MACHINE.yml OLD_RUNS NEW_RUNS [JOBS]}
jobs=${5:-2}
command -v jq >/dev/null || { echo "accuracy_replay.sh: needs jq" >&2; exit 1; }
mkdir -p "$new/json"
export AUGUR_BIN=$build/augur MACHINE=$machine NEW=$new

replay() {
    local run=$1 args out
    out=$NEW/json/$(basename "$run")
    # the old run's kernel, function, data and threads; a BFS from its largest-degree node
    mapfile -t args < <(jq -r '.file, .kernel, .dataset, .threads' "$run")
    [ ${#args[@]} -eq 4 ] || { echo "$run: not a predict --json run" >&2; return 0; }
    local opts=()
    [ "$(jq -r '.rounds // empty | length' "$run")" != "" ] && opts=(--source maxdeg)
    if ! "$AUGUR_BIN" predict "${args[0]}" --function "${args[1]}" --data "${args[2]}" \
        --machine "$MACHINE" --threads "${args[3]}" --json "${opts[@]}" >"$out.new" 2>/dev/null; then
        echo "$run: predict failed" >&2
        rm -f "$out.new"
        return 0
    fi
    jq --slurpfile old "$run" '.measured = $old[0].measured
        | .error = (if .measured.median then ((.seconds - .measured.median) / .measured.median
                    | if . < 0 then -. else . end) else null end)' "$out.new" >"$out"
    rm -f "$out.new"
}
export -f replay
find "$old/json" -name '*.json' -print0 | xargs -0 -n 1 -P "$jobs" bash -c 'replay "$1"' _
echo "replayed $(find "$new/json" -name '*.json' | wc -l) of $(find "$old/json" -name '*.json' | wc -l) runs into $new/json"
