/*
 * ref.c - breadth-first search, scalar references: the topology-driven
 * round of Pai et al. AGP'17 Listing 1 and its driver, and a data-driven search over
 * a frontier queue (kernels/bfs).
 */
#include "kernel.h"

int64_t bfs_topo_round_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, int32_t *level,
                           int32_t round)
{
    int64_t labelled = 0;

    for (uint32_t node = 0; node < n; node++) {
        if (level[node] != round - 1)
            continue;
        for (uint64_t e = rowptr[node]; e < rowptr[node + 1]; e++) {
            uint32_t dst = col[e];

            if (level[dst] == BFS_INF) {
                level[dst] = round;
                labelled++;
            }
        }
    }
    return labelled;
}

int32_t bfs_topo_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                     int32_t *level)
{
    int32_t round = 1;

    for (uint32_t v = 0; v < n; v++)
        level[v] = BFS_INF;
    level[src] = 0;
    while (bfs_topo_round_ref(n, rowptr, col, level, round) > 0)
        round++;
    return round - 1;
}

int32_t bfs_frontier_ref(uint32_t n, const uint64_t *rowptr, const uint32_t *col, uint32_t src,
                         int32_t *level, uint32_t *queue)
{
    uint64_t head = 0, tail = 0;
    int32_t depth = 0;

    for (uint32_t v = 0; v < n; v++)
        level[v] = BFS_INF;
    level[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        uint64_t end = tail;

        for (; head < end; head++) {
            uint32_t node = queue[head];

            for (uint64_t e = rowptr[node]; e < rowptr[node + 1]; e++) {
                uint32_t dst = col[e];

                if (level[dst] == BFS_INF) {
                    level[dst] = level[node] + 1;
                    queue[tail++] = dst;
                }
            }
        }
        if (tail > end)
            depth++;
    }
    return depth;
}
