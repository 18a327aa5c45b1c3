/* Linked-list walk and a search with a while loop: the conditions depend on
   loaded values, so the loop bound is data. */
int list_length(const int *next, int head)
{
    int len = 0;
    int node = head;
    while (node != -1) {
        node = next[node];
        len++;
    }
    return len;
}

void first_larger(int n, const int *rowptr, const double *val, double limit, int *pos)
{
    for (int i = 0; i < n; i++) {
        int k = rowptr[i];
        while (k < rowptr[i + 1] && val[k] <= limit)
            k++;
        pos[i] = k;
    }
}
