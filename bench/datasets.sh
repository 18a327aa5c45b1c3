#!/bin/bash
# datasets.sh - sourced by the sampling benchmarks: the shared matrices and
# meshes they run on.
#
# dataset_files DIR PROGRAM: sets the array files to DIR's matrices
# (mtx/*.mtx, *.mtx.gz) and meshes (mesh/*.msh*, *.mesh, *.ele.gz) whose
# names match $SAMPLING_ONLY (a regular expression; all when unset); exits
# with a message naming PROGRAM when there are none.
dataset_files() {
    local data=$1 f
    files=()
    for f in "$data"/mtx/*.mtx "$data"/mtx/*.mtx.gz "$data"/mesh/*.msh* "$data"/mesh/*.mesh \
        "$data"/mesh/*.ele.gz; do
        [ -e "$f" ] || continue
        [[ -z ${SAMPLING_ONLY:-} || $(basename "$f") =~ $SAMPLING_ONLY ]] && files+=("$f")
    done
    if [ ${#files[@]} -eq 0 ]; then
        echo "$2: no datasets under $data" >&2
        exit 1
    fi
}
