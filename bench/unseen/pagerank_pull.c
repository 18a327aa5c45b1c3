/* pull PageRank over in-edges (CSC), out-degree array */
void pagerank_pull(int n, const int *colptr, const int *rowidx, const int *deg, const double *pr,
                   double *next, double d)
{
#pragma omp parallel for schedule(static)
    for (int v = 0; v < n; v++) {
        double s = 0.0;
        for (int k = colptr[v]; k < colptr[v + 1]; k++) {
            int u = rowidx[k];
            s += pr[u] / deg[u];
        }
        next[v] = (1.0 - d) / n + d * s;
    }
}
