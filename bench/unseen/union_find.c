/* Union-find connected components over an edge list, find with path halving. */
#include <stdint.h>
static int find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

void cc_unionfind(int n, int nedges, const int *src, const int *dst, int *parent)
{
    for (int v = 0; v < n; v++)
        parent[v] = v;
    for (int e = 0; e < nedges; e++) {
        int a = find(parent, src[e]);
        int b = find(parent, dst[e]);
        if (a != b) {
            if (a < b)
                parent[b] = a;
            else
                parent[a] = b;
        }
    }
}
