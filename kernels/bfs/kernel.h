/*
 * kernel.h - breadth-first search on a CSR graph, level by level:
 * topology-driven (Pai et al. AGP'17 Listings 1-2: every node is looked at in every
 * round) and data-driven (only the frontier is): descriptor and prototypes
 * (kernels/bfs).
 */
#ifndef AUGUR_KERNEL_BFS_H
#define AUGUR_KERNEL_BFS_H

#include <stdint.h>

#include "../kernel_desc.h"

/* The level of a node not reached (yet). */
#define BFS_INF INT32_MAX

extern const struct augur_kernel_desc bfs_topo_desc;
extern const struct augur_kernel_desc bfs_frontier_desc;

/*
 * One round of topology-driven BFS (Listing 1): every node whose level is
 * round - 1 labels its unvisited out-neighbours (col[rowptr[v] ..
 * rowptr[v+1]-1]) with round. Returns the number of labels written, so the
 * caller stops at the first round that writes none (the OpenMP variant may
 * count a node that two threads labelled at once twice).
 */
int64_t bfs_topo_round_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, int32_t *level,
                           int32_t round);
int64_t bfs_topo_round_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, int32_t *level,
                           int32_t round);

/*
 * Whole searches from src (n > 0, src < n): level[v] becomes the distance in edges from src,
 * BFS_INF where v is not reached. Return the number of rounds that labelled
 * at least one node (the depth of the BFS tree).
 */
int32_t bfs_topo_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                     int32_t *level);
int32_t bfs_topo_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                     int32_t *level);

/*
 * Data-driven BFS: each round expands only the nodes of the frontier (the
 * nodes labelled in the round before). queue must hold n node ids; it holds
 * the nodes in the order they were reached on return (the OpenMP variant
 * keeps each round's nodes together, in no fixed order within a round).
 * Returns the depth as above, or -1 when the OpenMP variant cannot allocate
 * its second frontier.
 */
int32_t bfs_frontier_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                         int32_t *level, uint32_t *queue);
int32_t bfs_frontier_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                         int32_t *level, uint32_t *queue);

/*
 * CUDA (cuda.cu, built only when nvcc is found): the topology-driven search
 * of Listing 2, one kernel launch per round, eight blocks of 256 threads per
 * SM taking the nodes cyclically. Returns the depth, or -1 when no GPU is usable; *seconds gets the
 * time of all rounds (CUDA events).
 */
int32_t bfs_topo_cuda_run(uint32_t n, uint64_t nnz, const uint64_t *rowptr, const uint32_t *col,
                          uint32_t src, int32_t *level, double *seconds);

#endif
