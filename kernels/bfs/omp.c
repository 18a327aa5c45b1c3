/*
 * omp.c - breadth-first search with OpenMP: the topology-driven round with
 * nodes shared out in dynamic chunks, and the data-driven search with the
 * frontier shared out and nodes claimed by compare-and-swap (kernels/bfs).
 * Several threads may label the same node in a topology-driven round; they
 * all write the same level, through atomic reads and writes.
 */
#include <stdlib.h>

#include "kernel.h"

int64_t bfs_topo_round_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, int32_t *level,
                           int32_t round)
{
    int64_t labelled = 0;

#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : labelled)
    for (uint32_t node = 0; node < n; node++) {
        int32_t lv;

#pragma omp atomic read
        lv = level[node];
        if (lv != round - 1)
            continue;
        for (uint64_t e = rowptr[node]; e < rowptr[node + 1]; e++) {
            uint32_t dst = col[e];
            int32_t ld;

#pragma omp atomic read
            ld = level[dst];
            if (ld == BFS_INF) {
#pragma omp atomic write
                level[dst] = round;
                labelled++;
            }
        }
    }
    return labelled;
}

int32_t bfs_topo_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                     int32_t *level)
{
    int32_t round = 1;

#pragma omp parallel for schedule(static)
    for (uint32_t v = 0; v < n; v++)
        level[v] = BFS_INF;
    level[src] = 0;
    while (bfs_topo_round_omp(n, rowptr, col, level, round) > 0)
        round++;
    return round - 1;
}

int32_t bfs_frontier_omp(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                         int32_t *level, uint32_t *queue)
{
    uint32_t *next = malloc((size_t)n * sizeof(*next));
    uint64_t nfront = 1, done = 0;
    int32_t depth = 0;

    if (!next)
        return -1;
#pragma omp parallel for schedule(static)
    for (uint32_t v = 0; v < n; v++)
        level[v] = BFS_INF;
    level[src] = 0;
    queue[0] = src;
    /* The frontier is queue[done .. done + nfront); the next one is built in next[]. */
    while (nfront > 0) {
        uint64_t nnext = 0;
        int32_t round = depth + 1;

#pragma omp parallel for schedule(dynamic, 64)
        for (uint64_t k = done; k < done + nfront; k++) {
            uint32_t node = queue[k];

            for (uint64_t e = rowptr[node]; e < rowptr[node + 1]; e++) {
                uint32_t dst = col[e];
                int32_t unvisited = BFS_INF;

                if (__atomic_load_n(&level[dst], __ATOMIC_RELAXED) == BFS_INF &&
                    __atomic_compare_exchange_n(&level[dst], &unvisited, round, 0, __ATOMIC_RELAXED,
                                                __ATOMIC_RELAXED)) {
                    uint64_t slot;

#pragma omp atomic capture
                    slot = nnext++;
                    next[slot] = dst;
                }
            }
        }
        done += nfront;
#pragma omp parallel for schedule(static)
        for (uint64_t k = 0; k < nnext; k++)
            queue[done + k] = next[k];
        nfront = nnext;
        if (nnext > 0)
            depth++;
    }
    free(next);
    return depth;
}
