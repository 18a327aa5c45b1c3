/* Greedy graph colouring: for each node, mark the colours of coloured
   neighbours in a small local flag array, pick the first free one. */
#include <string.h>
#define MAXC 64
void greedy_color(int n, const int *rowptr, const int *adj, int *color)
{
    for (int v = 0; v < n; v++)
        color[v] = -1;
    for (int v = 0; v < n; v++) {
        unsigned char used[MAXC];
        memset(used, 0, sizeof used);
        for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
            int c = color[adj[e]];
            if (c >= 0 && c < MAXC)
                used[c] = 1;
        }
        int c = 0;
        while (c < MAXC - 1 && used[c])
            c++;
        color[v] = c;
    }
}
