/* The kernels of node_bfs.cu, in a file of their own as benchmark suites
   keep them: one BFS level expanded from a mask of frontier nodes whose
   adjacency a struct per node gives (first edge, edge count). */
__global__ void expand_level(const Node *nodes, const int *edges, bool *frontier, bool *next,
                             const bool *seen, int *dist, int nnodes)
{
    int v = blockIdx.x * BLOCK + threadIdx.x;

    if (v < nnodes && frontier[v]) {
        frontier[v] = false;
        for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++) {
            int w = edges[e];

            if (!seen[w]) {
                dist[w] = dist[v] + 1;
                next[w] = true;
            }
        }
    }
}
