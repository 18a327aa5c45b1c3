#!/bin/bash
# pack.sh - packs what bench/accuracy_remote.sh needs on a machine that has
# a C compiler but not augur's libraries: a lent GPU machine (Ubuntu, gcc,
# no libclang), reached only with the working tree and a few carried
# folders of at most 64 MiB in all. Writes DIR (default .devpack):
#
#   DIR/augur          build/augur, stripped
#   DIR/lib.tar.xz     the shared libraries augur needs beyond glibc, libstdc++
#                      and zlib, and clang's own headers (stddef.h, ...)
#   DIR/data/          the shared datasets, gzipped, less the two largest road
#                      graphs (the pack must stay under 64 MiB)
#   DIR/run.sh         what to run there: unpacks, checks the front end, then
#                      `bench/accuracy_remote.sh measure` into $OUT/run.tgz
#   DIR/validate.sh    the same set-up, then `bench/validate --remote-measure`:
#                      calibrate and time every case in interleaved rounds into
#                      $OUT/host/ (copy it to bench/results/NAME/ here)
#
# libLLVM names libxml2 and libz3, whose packs (with ICU) would not fit;
# augur never calls them, so two empty libraries of their names stand in
# (libxml2's with the symbol versions libLLVM asks for).
#
# usage: bench/remote/pack.sh [BUILD_DIR] [DIR]
#   then, on the target, from the repository root (DEADLINE_S: seconds the
#   measuring may take; THREADS, DATASETS: as bench/accuracy_remote.sh):
#   DEADLINE_S=400 THREADS="1 2" bash DIR/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
dir=${2:-$here/.devpack}
data=${AUGUR_DATASETS:-$here/../shared/datasets}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$dir/data/mtx" "$dir/data/mesh" "$tmp/lib/clang/14.0.6/include"
strip -o "$dir/augur" "$build/augur"
for l in $(ldd "$build/augur" | awk '/=>/ { print $3 }') $(ldd "$(ldd "$build/augur" | awk '/libclang/ { print $3 }')" | awk '/=>/ { print $3 }'); do
    case $(basename "$l") in
    libc.so.* | libm.so.* | libstdc++.so.* | libgcc_s.so.* | libz.so.* | libxml2.so.* | libz3.so.* | libicu*) ;;
    *) cp -L "$l" "$tmp/lib/" ;;
    esac
done
printf 'void *xmlFree;\n' >"$tmp/xml.c"
printf 'LIBXML2_2.4.30 { global: xmlFree; };\nLIBXML2_2.6.0 { } LIBXML2_2.4.30;\n' >"$tmp/xml.map"
printf 'int augur_z3_stands_in;\n' >"$tmp/z3.c"
cc -shared -fPIC -o "$tmp/lib/libxml2.so.2" -Wl,-soname,libxml2.so.2 -Wl,--version-script="$tmp/xml.map" "$tmp/xml.c"
cc -shared -fPIC -o "$tmp/lib/libz3.so.4" -Wl,-soname,libz3.so.4 "$tmp/z3.c"
res=$(clang-14 -print-resource-dir 2>/dev/null || echo /usr/lib/llvm-14/lib/clang/14.0.6)
for h in stddef.h __stddef_max_align_t.h stdbool.h stdarg.h stdint.h limits.h float.h omp.h stdalign.h; do
    [ -f "$res/include/$h" ] && cp "$res/include/$h" "$tmp/lib/clang/14.0.6/include/"
done
(cd "$tmp" && tar cf - lib | xz -T0 -9) >"$dir/lib.tar.xz"

cp "$data/MANIFEST.md" "$dir/data/"
for f in "$data"/mtx/* "$data"/mesh/*; do
    b=$(basename "$f")
    case $b in road_usa_NE* | road_usa_FLA*) continue ;; esac
    sub=mtx
    [ "$(basename "$(dirname "$f")")" = mesh ] && sub=mesh
    case $b in
    *.gz) cp "$f" "$dir/data/$sub/" ;;
    *) gzip -9 -c "$f" >"$dir/data/$sub/$b.gz" ;;
    esac
done

cat >"$dir/run.sh" <<'EOF'
# run.sh - on the target, from the repository root: unpack, check, measure
set -u
t0=$(date +%s)
pack=$(dirname "$0")
mkdir -p /tmp/augur-lib && tar xJf "$pack/lib.tar.xz" -C /tmp/augur-lib
export LD_LIBRARY_PATH=/tmp/augur-lib/lib
# libclang looks for its headers at Debian's path and under the working directory
mkdir -p /usr/include/clang/14.0.6/include lib/clang/14.0.6 2>/dev/null
cp /tmp/augur-lib/lib/clang/14.0.6/include/* /usr/include/clang/14.0.6/include/ 2>/dev/null
cp -r /tmp/augur-lib/lib/clang/14.0.6/include lib/clang/14.0.6/
command -v cc >/dev/null || export CC=gcc
"${CC:-cc}" --version | head -1
"$pack/augur" skeleton kernels/bfs/omp.c >/dev/null || { "$pack/augur" skeleton kernels/bfs/omp.c 2>&1 | head -5; exit 1; }
lscpu >"$OUT/lscpu.txt" 2>&1
export REMOTE_THREADS="${THREADS:-1 2}" REMOTE_DEADLINE=$((t0 + ${DEADLINE_S:-400}))
# shellcheck disable=SC2086
bench/accuracy_remote.sh measure "$pack" /tmp/augur-run ${DATASETS:-$pack/data/mtx/* $pack/data/mesh/*.msh.gz $pack/data/mesh/*.mesh.gz $pack/data/mesh/*.ele.gz} 2>&1 |
    grep -v '^# failed' | tee "$OUT/measure.log"
tar czf "$OUT/run.tgz" -C /tmp augur-run
echo "$(ls /tmp/augur-run/measured | wc -l) cases, $(($(date +%s) - t0)) s"
EOF
cat >"$dir/validate.sh" <<'EOF'
# validate.sh - on the target, from the repository root: unpack, check, then
# bench/validate --remote-measure into $OUT/host (DEADLINE_S: seconds it may take)
set -u
pack=$(dirname "$0")
mkdir -p /tmp/augur-lib && tar xJf "$pack/lib.tar.xz" -C /tmp/augur-lib
export LD_LIBRARY_PATH=/tmp/augur-lib/lib
mkdir -p /usr/include/clang/14.0.6/include lib/clang/14.0.6 2>/dev/null
cp /tmp/augur-lib/lib/clang/14.0.6/include/* /usr/include/clang/14.0.6/include/ 2>/dev/null
cp -r /tmp/augur-lib/lib/clang/14.0.6/include lib/clang/14.0.6/
command -v cc >/dev/null || export CC=gcc
"${CC:-cc}" --version | head -1
"$pack/augur" skeleton kernels/bfs/omp.c >/dev/null || { "$pack/augur" skeleton kernels/bfs/omp.c 2>&1 | head -5; exit 1; }
mkdir -p "$OUT/host"
lscpu >"$OUT/host/lscpu.txt" 2>&1
PYTHONUNBUFFERED=1 python3 bench/validate --remote-measure "$OUT/host" --datasets "$pack/data" \
    --threads "${THREADS:-1,2}" --rounds "${ROUNDS:-3}" --deadline "${DEADLINE_S:-420}" \
    ${KERNELS:+--kernels "$KERNELS"} "$pack" 2>&1 | tee "$OUT/host/validate.log" | grep -v compiled
EOF
du -sh "$dir"
