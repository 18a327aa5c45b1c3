/* Bellman-Ford relaxation sweep over an edge list */
int bellman_ford_sweep(int nedges, const int *src, const int *dst, const double *weight,
                       double *dist)
{
    int changed = 0;
    for (int e = 0; e < nedges; e++) {
        double nd = dist[src[e]] + weight[e];
        if (nd < dist[dst[e]]) {
            dist[dst[e]] = nd;
            changed = 1;
        }
    }
    return changed;
}
