#define INF 0x7fffffff
/* One round of topology-driven BFS (seed 000, Listing 1). */
void bfs_level(int nnodes, const int *row_start, const int *edge_dst, int *level, int LEVEL)
{
    for (int node = 0; node < nnodes; node++) {
        if (level[node] != LEVEL - 1)
            continue;
        int r_start = row_start[node];
        int r_end = row_start[node + 1];
        for (int e = r_start; e < r_end; e++) {
            int dst = edge_dst[e];
            if (level[dst] == INF)
                level[dst] = LEVEL;
        }
    }
}
