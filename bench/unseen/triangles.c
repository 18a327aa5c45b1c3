/* triangle counting by merging sorted CSR rows */
long triangles(int n, const int *rowptr, const int *col)
{
    long count = 0;
    for (int u = 0; u < n; u++) {
        for (int k = rowptr[u]; k < rowptr[u + 1]; k++) {
            int v = col[k];
            if (v >= u)
                break;
            int a = rowptr[u], ae = rowptr[u + 1];
            int b = rowptr[v], be = rowptr[v + 1];
            while (a < ae && b < be) {
                int x = col[a], y = col[b];
                if (x >= v || y >= v)
                    break;
                if (x < y)
                    a++;
                else if (x > y)
                    b++;
                else {
                    count++;
                    a++;
                    b++;
                }
            }
        }
    }
    return count;
}
