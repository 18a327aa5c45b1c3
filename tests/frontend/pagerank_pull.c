/* PageRank, pull style: every node sums the ranks of its in-neighbours,
   each divided by that neighbour's out-degree. */
void pagerank_pull(int n, const int *in_ptr, const int *in_src, const int *out_deg,
                   const double *rank, double *next, double damping)
{
    for (int v = 0; v < n; v++) {
        double sum = 0.0;
        for (int k = in_ptr[v]; k < in_ptr[v + 1]; k++) {
            int u = in_src[k];
            sum += rank[u] / out_deg[u];
        }
        next[v] = (1.0 - damping) / n + damping * sum;
    }
}
