/*
 * cg_driver.c - runs one scalar reference kernel (CSR SpMV, the
 * finite-volume ELL kernel, a whole topology-driven BFS) on a dataset, for
 * valgrind's cachegrind: bench/cachegrind_compare.sh reads the kernel
 * function's own counts and compares them with `augur simulate` (bench,
 * not a test).
 *
 * usage: bench_cg_driver spmv|fv|bfs DATASET [BFS_SOURCE|maxdeg]
 * With CG_DRIVER_VERBOSE set, prints the arrays' addresses as an
 * `augur simulate --place` list ("augur-place: rowptr=0x...,col=0x...").
 *
 * The kernels' sources are compiled into this program (plain -O2, no
 * AVX-512, which cachegrind cannot run) and called through volatile
 * pointers so that they are not inlined. The arrays are allocated with
 * malloc in the order of the kernel's parameters, as the interpreter lays
 * them out, and the caches are flushed (a large buffer is read) just before
 * the kernel runs, as the simulation starts from empty caches. glibc's mmap
 * threshold is pinned at its initial 128 KiB: otherwise freeing the loader's
 * buffers raises it, and the kernel's large arrays land inside the heap at
 * arbitrary offsets instead of 16 bytes into fresh pages as augur places them.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/bfs/ref.c"
#include "../kernels/fv/ref.c"
#include "../kernels/spmv/ref.c"
#include "augur/augur.h"

#define FLUSH_BYTES (64u << 20) /* far beyond any simulated last level */

static void die(const struct augur_diag *d)
{
    char msg[1200];

    augur_diag_format(d, msg, sizeof(msg));
    fprintf(stderr, "bench_cg_driver: %s\n", msg);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p) {
        fprintf(stderr, "bench_cg_driver: out of memory\n");
        exit(1);
    }
    return p;
}

/* Reads a large buffer so that nothing of the set-up stays in the simulated caches. */
static uint64_t cg_flush(void)
{
    static volatile uint64_t *buf;
    uint64_t s = 0;

    if (!buf) {
        buf = xmalloc(FLUSH_BYTES);
        for (size_t i = 0; i < FLUSH_BYTES / 8; i++)
            buf[i] = i;
    }
    for (size_t i = 0; i < FLUSH_BYTES / 8; i += 8)
        s += buf[i];
    return s;
}

static void (*volatile spmv_fn)(uint32_t, const uint64_t *, const uint32_t *, const double *,
                                const double *, double *) = spmv_csr_ref;
static void (*volatile fv_fn)(uint32_t, uint32_t, const uint32_t *, const double *, const double *,
                              double *) = fv_ell_ref;
static int64_t (*volatile bfs_fn)(uint32_t, const uint64_t *, const uint32_t *, int32_t *,
                                  int32_t) = bfs_topo_round_ref;
static uint64_t (*volatile flush_fn)(void) = cg_flush;

int main(int argc, char **argv)
{
    struct augur_diag d;
    struct augur_dataset *ds;
    struct augur_csr a;
    uint32_t n;
    uint64_t nnz;
    bool verbose = getenv("CG_DRIVER_VERBOSE") != NULL;

    if (argc < 3) {
        fprintf(stderr, "usage: bench_cg_driver spmv|fv|bfs DATASET [BFS_SOURCE|maxdeg]\n");
        return 2;
    }
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    augur_diag_init(&d);
    if (augur_dataset_load(argv[2], NULL, &ds, &d) || augur_dataset_csr(ds, true, &a, &d))
        die(&d);
    n = a.nrows;
    nnz = a.nnz;
    if (strcmp(argv[1], "spmv") == 0) {
        uint64_t *rowptr = xmalloc(((size_t)n + 1) * 8);
        uint32_t *col = xmalloc(nnz * 4);
        double *val = xmalloc(nnz * 8), *x = xmalloc((size_t)a.ncols * 8),
               *y = xmalloc((size_t)n * 8);

        memcpy(rowptr, a.rowptr, ((size_t)n + 1) * 8);
        memcpy(col, a.col, nnz * 4);
        for (uint64_t j = 0; j < nnz; j++)
            val[j] = a.val ? a.val[j] : 1.0;
        for (uint32_t j = 0; j < a.ncols; j++)
            x[j] = 1.0;
        if (verbose)
            fprintf(stderr, "augur-place: rowptr=%p,col=%p,val=%p,x=%p,y=%p\n", (void *)rowptr,
                    (void *)col, (void *)val, (void *)x, (void *)y);
        flush_fn();
        spmv_fn(n, rowptr, col, val, x, y);
        printf("spmv y[0] = %g\n", n ? y[0] : 0.0);
    } else if (strcmp(argv[1], "fv") == 0) {
        struct augur_ell e;
        uint32_t *idx;
        double *val, *x, *y;
        uint64_t slots;

        if (augur_csr_to_ell(&a, 0, &e, &d))
            die(&d);
        slots = (uint64_t)n * e.width;
        idx = xmalloc(slots * 4);
        val = xmalloc(slots * 8);
        x = xmalloc((size_t)n * 8);
        y = xmalloc((size_t)n * 8);
        memcpy(idx, e.idx, slots * 4);
        for (uint64_t j = 0; j < slots; j++)
            val[j] = e.val ? e.val[j] : 1.0;
        for (uint32_t j = 0; j < n; j++)
            x[j] = (double)(j % 5);
        if (verbose)
            fprintf(stderr, "augur-place: idx=%p,a=%p,x=%p,y=%p\n", (void *)idx, (void *)val,
                    (void *)x, (void *)y);
        flush_fn();
        fv_fn(n, e.width, idx, val, x, y);
        printf("fv width %u y[0] = %g\n", e.width, n ? y[0] : 0.0);
    } else if (strcmp(argv[1], "bfs") == 0) {
        uint64_t *rowptr = xmalloc(((size_t)n + 1) * 8);
        uint32_t *col = xmalloc(nnz * 4), src = 0;
        int32_t *level = xmalloc((size_t)n * 4), round = 1;

        if (argc > 3 && strcmp(argv[3], "maxdeg") == 0) {
            uint64_t best = 0;

            for (uint32_t i = 0; i < n; i++)
                if (a.rowptr[i + 1] - a.rowptr[i] > best) {
                    best = a.rowptr[i + 1] - a.rowptr[i];
                    src = i;
                }
        } else if (argc > 3) {
            src = (uint32_t)strtoul(argv[3], NULL, 10);
        }
        if (src >= n) {
            fprintf(stderr, "bench_cg_driver: source %u beyond %u nodes\n", src, n);
            return 1;
        }
        memcpy(rowptr, a.rowptr, ((size_t)n + 1) * 8);
        memcpy(col, a.col, nnz * 4);
        for (uint32_t v = 0; v < n; v++)
            level[v] = BFS_INF;
        level[src] = 0;
        if (verbose)
            fprintf(stderr, "augur-place: rowptr=%p,col=%p,level=%p\n", (void *)rowptr, (void *)col,
                    (void *)level);
        flush_fn();
        while (bfs_fn(n, rowptr, col, level, round) > 0)
            round++;
        printf("bfs from %u: %d rounds\n", src, round);
    } else {
        fprintf(stderr, "bench_cg_driver: unknown kernel '%s'\n", argv[1]);
        return 2;
    }
    augur_csr_release(&a);
    augur_dataset_free(ds);
    return 0;
}
