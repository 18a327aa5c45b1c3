/* node_bfs_two.cu's second kernel, in a second included file. */
__global__ void mark_level(bool *frontier, bool *next, bool *seen, int nnodes)
{
    int v = blockIdx.x * BLOCK + threadIdx.x;

    if (v < nnodes && next[v]) {
        frontier[v] = true;
        seen[v] = true;
        next[v] = false;
    }
}
