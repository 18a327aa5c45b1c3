/* One BFS level over a graph whose begin/end offsets are interleaved (xoff[2v], xoff[2v+1]). */
#include <stdint.h>

void bfs_level(int64_t nv, const int64_t *restrict xoff, const int64_t *restrict xadj,
               int64_t *restrict level, int64_t depth)
{
    for (int64_t v = 0; v < nv; v++) {
        if (level[v] != depth)
            continue;
        for (int64_t k = xoff[2 * v]; k < xoff[2 * v + 1]; k++) {
            const int64_t w = xadj[k];
            if (level[w] < 0)
                level[w] = depth + 1;
        }
    }
}
