#define INF 0x7fffffff
struct graph {
    int num_nodes;
    const int *row_start;
    const int *edge_dst;
};

/* Simplified topology-driven BFS in CUDA (seed 000, Listing 2). */
__global__ void bfs_kernel(struct graph graph, int *level, int LEVEL)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int nthreads = gridDim.x * blockDim.x;

    for (int node = tid; node < graph.num_nodes; node += nthreads) {
        if (level[node] != LEVEL - 1)
            continue;
        int r_start = graph.row_start[node];
        int r_end = graph.row_start[node + 1];
        for (int e = r_start; e < r_end; e++) {
            int dst = graph.edge_dst[e];
            if (level[dst] == INF)
                level[dst] = LEVEL;
        }
    }
}

void launch(struct graph g, int *level, int round)
{
    bfs_kernel<<<(g.num_nodes + 255) / 256, 256>>>(g, level, round);
}
