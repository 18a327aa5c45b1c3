#!/bin/bash
# t_install.sh - augur installed into a prefix works from there: cmake --install
# puts the binary, the library and its headers, the shipped data, the man pages
# and a pkg-config file under the prefix; the installed binary finds its
# categorizer tree from its own prefix, from any folder; a program builds
# against the installed library with pkg-config. Prints TAP.
augur=${AUGUR_BIN:-build/augur}
src=${AUGUR_SOURCE_DIR:-.}
build=$(cd "$(dirname "$augur")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
pfx=$tmp/prefix

status "cmake --install into a prefix" 0 cmake --install "$build" --prefix "$pfx"
for f in bin/augur lib/libaugur.a include/augur/augur.h include/augur/report.h \
    share/augur/categorizer.tree share/augur/machines/default-cpu.yml \
    share/man/man1/augur.1 share/man/man1/augur-predict.1 lib/pkgconfig/augur.pc; do
    check "installs $f" test -e "$pfx/$f"
done

# from another folder, with no hint where the data is
cd "$tmp" || exit 1
unset AUGUR_TREE
status "the installed binary runs" 0 "$pfx/bin/augur" --version
status "and finds its categorizer tree in its prefix" 0 "$pfx/bin/augur" data sample --method auto \
    "$src/samples/walshaw_fe_4elt2.mtx" --rate 0.1 -o "$tmp/s.mtx"
check "the tree named from share/augur" grep -q "share/augur/categorizer.tree" "$tmp/out"

# a program against the installed library
cat >"$tmp/use.c" <<'C'
#include <stdio.h>

#include <augur/augur.h>

int main(int argc, char **argv)
{
    struct augur_dataset *ds = NULL;
    struct augur_diag diag;

    augur_diag_init(&diag);
    if (argc < 2 || augur_dataset_load(argv[1], NULL, &ds, &diag) != 0)
        return 1;
    printf("augur %s\n", augur_version());
    augur_dataset_free(ds);
    return 0;
}
C
# a sanitized build's library needs its runtime linked too
san=
nm "$augur" 2>/dev/null | grep -q __asan_init && san="-fsanitize=address,undefined"
if command -v pkg-config >/dev/null; then
    export PKG_CONFIG_PATH=$pfx/lib/pkgconfig
    # shellcheck disable=SC2046
    status "a program builds with pkg-config --static" 0 ${CC:-cc} $san $(pkg-config --cflags augur) \
        "$tmp/use.c" -o "$tmp/use" $(pkg-config --static --libs augur)
    status "and runs" 0 "$tmp/use" "$src/samples/walshaw_fe_4elt2.mtx"
    check "printing the installed version" grep -q '^augur [0-9]' "$tmp/out"
else
    skip "a program builds with pkg-config --static" "no pkg-config"
fi
echo "1..$n"
