/* Bottom-up BFS step with boolean masks for the frontier and the visited set. */
#include <stdbool.h>

int bottom_up(int n, const int *restrict rowptr, const int *restrict col, const bool *restrict front,
              bool *restrict next, char *restrict visited, int *restrict parent)
{
    int found = 0;
    for (int v = 0; v < n; v++) {
        if (visited[v])
            continue;
        for (int k = rowptr[v]; k < rowptr[v + 1]; k++) {
            const int u = col[k];
            if (front[u]) {
                parent[v] = u;
                next[v] = true;
                visited[v] = 1;
                found++;
                break;
            }
        }
    }
    return found;
}
