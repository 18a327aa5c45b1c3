/*
 * parse_mtx.c - the Matrix Market parser's own speed (bench): parses a text
 * already in memory several times and prints the best times, so that page
 * faults on fresh memory (which dominate a cold load on some VMs) and the
 * file read are left out. Built and run by bench/load.sh.
 * Usage: parse_mtx FILE [RUNS]; prints "bytes parse_seconds build_seconds".
 */
#include <stdio.h>
#include <stdlib.h>
#if defined(__GLIBC__)
#    include <malloc.h>
#endif

#include "augur/base.h"
#include "augur/data.h"

int main(int argc, char **argv)
{
    struct augur_load_opts opts = { 0 };
    struct augur_buf text;
    struct augur_diag diag;
    double parse = 1e30, build = 1e30;
    int runs = argc > 2 ? atoi(argv[2]) : 10;

    if (argc < 2) {
        fprintf(stderr, "usage: parse_mtx FILE [RUNS]\n");
        return 2;
    }
#if defined(__GLIBC__)
    /* Keep freed memory mapped, so that every run after the first reuses it. */
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    augur_buf_init(&text);
    augur_diag_init(&diag);
    if (augur_file_read(argv[1], 0, &text, NULL, &diag) != 0) {
        fprintf(stderr, "parse_mtx: %s: %s\n", argv[1], diag.msg);
        return 1;
    }
    opts.format = AUGUR_FORMAT_MTX;
    for (int r = 0; r < runs; r++) {
        struct augur_dataset *ds = NULL;

        if (augur_dataset_parse(text.s, text.len, argv[1], &opts, &ds, &diag) != 0) {
            fprintf(stderr, "parse_mtx: %s:%u:%u: %s\n", diag.file, diag.line, diag.col, diag.msg);
            return 1;
        }
        if (ds->parse_seconds < parse)
            parse = ds->parse_seconds;
        if (ds->build_seconds < build)
            build = ds->build_seconds;
        augur_dataset_free(ds);
    }
    printf("%zu %.6f %.6f\n", text.len, parse, build);
    augur_buf_release(&text);
    return 0;
}
