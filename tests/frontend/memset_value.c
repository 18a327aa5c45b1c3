/* memset leaves a value the slice can read: 0 for a zero byte, the byte
   repeated for integers (-1 for 0xff), nothing known for a real's bytes;
   it stores 32 bytes at a time. */
#include <string.h>

int first_free(int n, const int *rowptr, const int *adj, const int *color, int *out)
{
    int total = 0;

    for (int v = 0; v < n; v++) {
        unsigned char used[64];
        int mark[8];

        memset(used, 0, sizeof used);
        memset(mark, 0xff, sizeof mark);
        for (int e = rowptr[v]; e < rowptr[v + 1]; e++)
            used[color[adj[e]] & 63] = 1;
        int c = 0;
        while (c < 63 && used[c] && mark[c & 7] == -1)
            c++;
        out[v] = c;
        total += c;
    }
    return total;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: store used[copy.k + (i64)lane] = 0_u8 @14:9 x32
// CHECK: store mark[copy.k.2 + (i64)lane] = -1 @15:9 x8
