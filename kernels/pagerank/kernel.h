/*
 * kernel.h - PageRank, pull direction, on the CSR of the in-edges:
 * descriptor and prototypes (kernels/pagerank).
 */
#ifndef AUGUR_KERNEL_PAGERANK_H
#define AUGUR_KERNEL_PAGERANK_H

#include <stdint.h>

#include "../kernel_desc.h"

extern const struct augur_kernel_desc pagerank_pull_desc;

/*
 * One iteration. rowptr/col hold the in-edges (row v lists the nodes u with
 * an edge u -> v: the CSR of the transpose; for an undirected graph, its
 * own CSR); outdeg[u] is u's out-degree. First contrib[u] = pr[u] /
 * outdeg[u] (0 for a node without out-edges, whose rank is dropped), then
 *   next[v] = (1 - damping) / n + damping * sum over in-edges (u, v) of contrib[u].
 * Returns sum_v |next[v] - pr[v]|, the change, to test convergence.
 */
double pagerank_pull_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col,
                         const uint32_t *outdeg, double damping, const double *pr, double *contrib,
                         double *next);
double pagerank_pull_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col,
                         const uint32_t *outdeg, double damping, const double *pr, double *contrib,
                         double *next);

#endif
