#!/bin/sh
# demo-context.sh AUGUR [RESULTS.md] - what the demo's error means on this host: the
# median and p90 error that bench/validate measured on a host of this kind (its host
# id, as `augur calibrate --auto-path` names it), or why there is none.
augur=$1
page=${2:-docs/results.md}
id=$("$augur" calibrate --auto-path | sed -n 's/.*machine-\([0-9a-f]*\)\.yml$/\1/p')
[ -f "$page" ] || { echo "no $page: bench/validate writes it"; exit 0; }
awk -v id="$id" '
    /host id `/ { here = index($0, "host id `" id "`") > 0; split($0, m, "`"); name = m[2] }
    here && /^\| all \|/ {
        split($0, c, "|")
        gsub(/ /, "", c[3]); gsub(/ /, "", c[4]); gsub(/ /, "", c[6])
        printf "the error above is one case: on this kind of host (%s, host id %s), bench/validate measured a median error of %s and a p90 of %s over %s cases (%s)\n", name, id, c[4], c[6], c[3], FILENAME
        found = 1; exit
    }
    END {
        if (!found)
            printf "no bench/validate run on this kind of host (host id %s) is in %s: its figures are for the hosts named there; bench/validate measures this one\n", id, FILENAME
    }' "$page"
