/* A graph kernel that allocates its scratch through the program's own allocator wrapper. */
#include <stdlib.h>

extern void *xmalloc_large(size_t n);
extern void xfree_large(void *p);

void count_degrees(int n, int nnz, const int *restrict src, const int *restrict dst, int *restrict deg)
{
    int *tmp = xmalloc_large((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        tmp[i] = 0;
    for (int e = 0; e < nnz; e++) {
        tmp[src[e]]++;
        tmp[dst[e]]++;
    }
    for (int i = 0; i < n; i++)
        deg[i] = tmp[i];
    xfree_large(tmp);
}
