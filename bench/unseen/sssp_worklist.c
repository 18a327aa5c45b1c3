/* SSSP with a FIFO worklist (Bellman-Ford queue variant / SPFA). */
#include <float.h>
void sssp_worklist(int n, const int *rowptr, const int *col, const double *w, double *dist,
                   int *queue, unsigned char *inq, int src)
{
    for (int v = 0; v < n; v++) {
        dist[v] = DBL_MAX;
        inq[v] = 0;
    }
    int head = 0, tail = 0, count = 0;
    dist[src] = 0.0;
    queue[tail] = src;
    tail = (tail + 1) % n;
    count = 1;
    inq[src] = 1;
    while (count > 0) {
        int u = queue[head];
        head = (head + 1) % n;
        count--;
        inq[u] = 0;
        double du = dist[u];
        for (int k = rowptr[u]; k < rowptr[u + 1]; k++) {
            int v = col[k];
            double nd = du + w[k];
            if (nd < dist[v]) {
                dist[v] = nd;
                if (!inq[v]) {
                    inq[v] = 1;
                    queue[tail] = v;
                    tail = (tail + 1) % n;
                    count++;
                }
            }
        }
    }
}
