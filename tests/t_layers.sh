#!/bin/bash
# t_layers.sh - the library's rooms (scripts/check-layers.sh): the tree as it is
# passes, and a copy with a planted upward arrow, a reach into another room's
# private header and an unowned public header fails, naming each file:line.
top=${AUGUR_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..7"

status "the tree keeps its arrows one way" 0 bash "$top/scripts/check-layers.sh" "$top"
is "and says nothing" "$(cat "$tmp/out")" ""

mkdir "$tmp/tree"
for d in include base cachesim data skeleton frontend interp machine models sim measure predict cli; do
    cp -r "$top/$d" "$tmp/tree/"
done
line=$(($(wc -l <"$tmp/tree/interp/interp_run.c") + 1))
echo '#include "augur/sim.h"' >>"$tmp/tree/interp/interp_run.c"
echo '#include "../interp/interp_int.h"' >>"$tmp/tree/models/pred_bw.c"
mline=$(wc -l <"$tmp/tree/models/pred_bw.c")
echo '/* stray.h */' >"$tmp/tree/include/augur/stray.h"
status "a planted cycle fails" 1 bash "$top/scripts/check-layers.sh" "$tmp/tree"
check "naming the arrow that points up" grep -qF \
    "interp/interp_run.c:$line: interp includes \"augur/sim.h\" of sim" "$tmp/out"
check "naming the reach into a private header" grep -qF \
    "models/pred_bw.c:$mline: \"../interp/interp_int.h\" reaches into another folder" "$tmp/out"
check "naming a header no room owns" grep -qF "include/augur/stray.h:1: a public header no module owns" \
    "$tmp/out"
is "and nothing else" "$(wc -l <"$tmp/out")" 3
