#!/bin/bash
# check-layers.sh [ROOT] - the library's rooms and the arrows between them
# (docs/design.md). Every #include "..." of a module's sources, and of its
# public headers, must name the module's own files or a public header of a
# module it may use; nothing reaches into another room's private header. Prints
# one line per wrong arrow (file:line: why) and exits 1 when there is one.
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

# owner of each public header
declare -A owner=(
    [base.h]=base [error.h]=base
    [data.h]=data
    [skeleton.h]=skeleton
    [frontend.h]=frontend
    [interp.h]=interp
    [cachesim.h]=cachesim
    [machine.h]=machine [calibrate.h]=machine
    [models.h]=models
    [sim.h]=sim
    [measure.h]=measure
    [predict.h]=predict
    [report.h]=report
    [augur.h]=all
)
# the modules each module may use, lowest first; the arrows point one way
declare -A uses=(
    [base]=""
    [cachesim]="base"
    [data]="cachesim base"
    [skeleton]="base"
    [frontend]="skeleton base"
    [interp]="skeleton base"
    [machine]="base"
    [models]="machine skeleton base"
    [sim]="models interp machine data cachesim skeleton base"
    [measure]="sim models interp machine data cachesim skeleton base"
    [predict]="measure sim models interp machine data cachesim skeleton frontend base"
    [report]="predict measure sim models interp machine data cachesim skeleton base"
    [cli]="all report predict measure sim models interp machine data cachesim skeleton frontend base"
)
modules="base cachesim data skeleton frontend interp machine models sim measure predict report cli"

bad=0
complain() {
    echo "$1: $2"
    bad=1
}

# check FILE MODULE: the includes of one file that belongs to MODULE
check() {
    local file=$1 mod=$2 line inc to
    while IFS= read -r line; do
        inc=${line#*#include \"}
        inc=${inc%%\"*}
        case $inc in
        augur/*)
            to=${owner[${inc#augur/}]}
            if [ -z "$to" ]; then
                complain "${file#"$root"/}:${line%%:*}" "\"$inc\" is no public header of the library"
            elif [ "$to" != "$mod" ] && [[ " ${uses[$mod]} " != *" $to "* ]]; then
                complain "${file#"$root"/}:${line%%:*}" \
                    "$mod includes \"$inc\" of $to; $mod may use: ${uses[$mod]:-nothing}"
            fi
            ;;
        */*)
            complain "${file#"$root"/}:${line%%:*}" \
                "\"$inc\" reaches into another folder; include its public header instead"
            ;;
        *)
            [ -f "$(dirname "$file")/$inc" ] || [ "$mod" = cli ] ||
                complain "${file#"$root"/}:${line%%:*}" "\"$inc\" is not a file of $mod"
            ;;
        esac
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | sed 's/#[[:space:]]*include[[:space:]]*/#include /')
}

for mod in $modules; do
    [ -d "$root/$mod" ] || continue
    for f in "$root/$mod"/*.c "$root/$mod"/*.h; do
        [ -f "$f" ] && check "$f" "$mod"
    done
done
for h in "$root"/include/augur/*.h; do
    mod=${owner[$(basename "$h")]}
    if [ -z "$mod" ]; then
        complain "${h#"$root"/}:1" "a public header no module owns: add it to scripts/check-layers.sh"
    elif [ "$mod" != all ]; then
        check "$h" "$mod"
    fi
done
# a source folder of the library that is no room
for d in "$root"/*/; do
    d=$(basename "$d")
    case " $modules include kernels tests bench samples scripts docs cmake man shared " in
    *" $d "*) continue ;;
    esac
    case $d in build*) continue ;; esac
    ls "$root/$d"/*.c >/dev/null 2>&1 && complain "$d/:1" "a folder of C sources that is no room of the library"
done
exit $bad
