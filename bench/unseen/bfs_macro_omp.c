/* Top-down BFS step with OpenMP written through a macro, as portable libraries do. */
#include <stdint.h>
#define OMP(x) _Pragma(x)

int64_t bfs_top_down(int64_t nv, const int64_t *xoff, const int64_t *xadj, int64_t *bfs_tree,
                     const int64_t *frontier, int64_t nfrontier, int64_t *next, int64_t *nnext)
{
    int64_t k, count = 0;
    OMP("omp parallel for schedule(dynamic, 64) reduction(+ : count)")
    for (k = 0; k < nfrontier; k++) {
        const int64_t v = frontier[k];
        for (int64_t e = xoff[v]; e < xoff[v + 1]; e++) {
            const int64_t w = xadj[e];
            if (bfs_tree[w] == -1) {
                bfs_tree[w] = v;
                count++;
            }
        }
    }
    *nnext = count;
    (void)nv;
    (void)next;
    return count;
}
