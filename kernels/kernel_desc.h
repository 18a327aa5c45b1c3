/*
 * kernel_desc.h - the descriptor every reference kernel publishes in its
 * kernel.h: what one iteration reads, writes and computes, how it accesses
 * memory, and how its parameters bind to a dataset (module: kernels).
 */
#ifndef AUGUR_KERNEL_DESC_H
#define AUGUR_KERNEL_DESC_H

#include <stdint.h>

/* Where a variant runs and what it needs at run time. */
enum augur_kernel_target {
    AUGUR_KT_SCALAR, /* plain C, one thread */
    AUGUR_KT_OPENMP, /* OpenMP threads */
    AUGUR_KT_AVX512, /* AVX-512 F/CD/BW/DQ/VL and OpenMP; check avx512f at run time */
    AUGUR_KT_CUDA,   /* an NVIDIA GPU, compute capability 9.0 */
};

/* One implementation of a kernel: one function in one source file. */
struct augur_kernel_variant {
    const char *name;     /* "omp_static" */
    const char *function; /* the C function, or the __global__ one for CUDA */
    const char *file;     /* source file, relative to the checkout */
    enum augur_kernel_target target;
    const char *note; /* schedule, layout, what differs from the reference */
};

/*
 * A kernel. Costs are given per outer iteration (a row, a cell, a node) and
 * per inner iteration (a stored entry, a neighbour slot, an edge), counting
 * the words the source names once each (no cache reuse) with 8-byte doubles
 * and the index widths of the parameters.
 */
struct augur_kernel_desc {
    const char *name;     /* "spmv_csr" */
    const char *summary;  /* one line */
    const char *equation; /* what it computes, in plain text */
    const char *outer;    /* what an outer iteration is ("row") */
    const char *inner;    /* what an inner iteration is ("stored entry") */
    double outer_bytes, outer_flops;
    double inner_bytes, inner_flops;
    const char *access; /* the access pattern, array by array */
    /*
     * How the reference variant's parameters bind to a dataset: NAME=TARGET,...
     * in the syntax of augur_skel_bind() (targets: csr.rowptr, coo.row,
     * ell.idx, deg, bfs.level, vec(n), n, nnz, round, =VALUE, ...). Other
     * variants may take more parameters (a tiling, a number of steps).
     */
    const char *bindings;
    const struct augur_kernel_variant *variants;
    int nvariants;
};

#endif
