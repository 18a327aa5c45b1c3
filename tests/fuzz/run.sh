#!/bin/sh
# run.sh BUILD SECONDS - a short libFuzzer run of every fuzz target in BUILD,
# seeded from the heads of the shared datasets and tests/fuzz/corpus/<target>/.
# Fails when a target finds a crash, a leak, a hang or undefined behaviour.
# FUZZ_RUNS=N also stops each target after N executions; FUZZ_STATS=FILE gets a
# Markdown table row per target (executions, rate, coverage, findings);
# FUZZ_TARGETS="fuzz_a fuzz_b" runs those targets alone.
set -eu
build=$1
secs=${2:-4}
runs=${FUZZ_RUNS:--1}
stats=${FUZZ_STATS:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
data=${AUGUR_DATASETS:-$top/../shared/datasets}
work=$build/fuzz-work
mkdir -p "$work"

# head FILE: the first 4 KiB of a (possibly gzip) file
head4k() {
    case $1 in
    *.gz) gzip -dc "$1" 2>/dev/null | head -c 4096 ;;
    *) head -c 4096 "$1" ;;
    esac
}

# seedp TARGET PREFIX FILE...: each file's head after the byte(s) PREFIX (printf format)
seedp() {
    t=$1
    pre=$2
    shift 2
    for f in "$@"; do
        [ -f "$f" ] || continue
        { printf "$pre"; head4k "$f"; } | head -c 4096 >"$work/$t/seed-$(basename "$f")"
    done
}

seed() { # seed TARGET FILE...: each file's head as it is
    t=$1
    shift
    seedp "$t" '' "$@"
}

# stats_row TARGET SECONDS: its run's figures from libFuzzer's log, as a table row
stats_row() {
    log=$work/$1.log
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
    found_n=$(find "$work/$1-artifacts" -type f | wc -l)
    execs=$(stat number_of_executed_units)
    rate=$(awk -v n="$execs" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
    printf '| %s | %s | %.0f | %s | %s | %s | %s | %s | %s |\n' "$1" "$execs" "$2" "$rate" \
        "$cov" "$ft" "$corp" "$(stat peak_rss_mb)" "$found_n"
}

status=0
found=0
npass=0
nfail=0
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    found=1
    t=$(basename "$bin")
    case " ${FUZZ_TARGETS:-$t} " in *" $t "*) ;; *) continue ;; esac
    rm -rf "${work:?}/$t" "${work:?}/$t-artifacts"
    mkdir -p "$work/$t" "$work/$t-artifacts"
    [ -d "$top/tests/fuzz/corpus/$t" ] && cp "$top/tests/fuzz/corpus/$t"/* "$work/$t/" 2>/dev/null || true
    case $t in
    fuzz_mtx) seed "$t" "$data"/mtx/*.mtx "$data"/mtx/road_usa_NY.mtx.gz ;;
    fuzz_gmsh) seed "$t" "$data"/mesh/*.msh "$data"/mesh/*.msh.gz ;;
    fuzz_medit) seed "$t" "$data"/mesh/*.mesh ;;
    fuzz_edges) seed "$t" "$top"/tests/data/graphs/*.el "$top"/tests/data/graphs/*.csv "$data"/mtx/snap_wiki-Vote.mtx ;;
    fuzz_dimacs) seed "$t" "$top"/tests/data/graphs/*.gr ;;
    fuzz_metis) seed "$t" "$top"/tests/data/graphs/*.graph ;;
    fuzz_machine) seed "$t" "$top"/samples/machines/*.yml ;;
    fuzz_reorder)
        seedp "$t" 'rcm\n' "$top"/samples/*.mtx "$data"/mtx/ss_bcspwr10.mtx
        seedp "$t" 'metis:8\n' "$data"/mtx/polblogs.mtx "$data"/mtx/ss_watt_2.mtx
        ;;
    fuzz_skel) seed "$t" "$top"/tests/frontend/*.skel "$top"/samples/*.skel ;;
    fuzz_sched_rewrite) seedp "$t" '1 1\n' "$top"/samples/*.c "$top"/kernels/*/omp.c "$top"/tests/data/measure/sched/*.c ;;
    fuzz_load)
        # the first byte picks the name: 0 .mtx, 1 .el, 2 .gr, 3 .graph, 4 .msh, 5 .mesh, 7 none
        seedp "$t" '\000' "$top"/samples/*.mtx "$data"/mtx/*.mtx "$data"/mtx/road_usa_NY.mtx.gz
        seedp "$t" '\001' "$top"/tests/data/graphs/*.el "$top"/tests/data/graphs/*.csv
        seedp "$t" '\002' "$top"/tests/data/graphs/*.gr
        seedp "$t" '\003' "$top"/tests/data/graphs/*.graph
        seedp "$t" '\004' "$data"/mesh/*.msh
        seedp "$t" '\005' "$data"/mesh/*.mesh
        seedp "$t" '\007' "$top"/tests/data/graphs/*.gr
        ;;
    fuzz_frontend)
        seed "$t" "$top"/tests/frontend/*.c "$top"/samples/*.c "$top"/kernels/*/*.c
        seedp "$t" C "$top"/tests/frontend/*.cu "$top"/kernels/*/*.cu
        ;;
    fuzz_bind)
        grep -ho 'bind([^)]*)' "$top"/tests/frontend/*.c "$top"/kernels/*/*.c 2>/dev/null |
            sed 's/^bind(//; s/)$//' | head -n 40 | {
            i=0
            while IFS= read -r line; do
                i=$((i + 1))
                printf '\002%s' "$line" >"$work/$t/seed-pragma-$i"
            done
        }
        ;;
    fuzz_launch)
        grep -ho 'launch(.*)' "$top"/tests/frontend/*.cu "$top"/kernels/*/*.cu 2>/dev/null |
            sed 's/^launch(//; s/)$//' | head -n 20 | {
            i=0
            while IFS= read -r line; do
                i=$((i + 1))
                printf '%s' "$line" >"$work/$t/seed-pragma-$i"
            done
        }
        ;;
    esac
    printf 'fuzz %-16s %s s, %s seeds\n' "$t" "$secs" "$(ls "$work/$t" | wc -l)"
    t0=$(date +%s.%N)
    if ! "$bin" -max_total_time="$secs" -runs="$runs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/$t-artifacts/" "$work/$t" \
        >"$work/$t.log" 2>&1; then
        echo "fuzz $t: FAILED; see $work/$t.log and $work/$t-artifacts/"
        tail -n 30 "$work/$t.log"
        status=1
        nfail=$((nfail + 1))
    else
        npass=$((npass + 1))
    fi
    [ -z "$stats" ] || stats_row "$t" "$(echo "$(date +%s.%N) - $t0" | bc)" >>"$stats"
done
[ $found -eq 1 ] || { echo "fuzz: no fuzz targets in $build"; exit 1; }
echo "fuzz: $npass passed, $nfail failed"
exit $status
