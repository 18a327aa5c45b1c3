/* Recursion cannot be inlined: the recursive call stays opaque. */
static int depth(const int *parent, int v)
{
    if (parent[v] < 0)
        return 0;
    return 1 + depth(parent, parent[v]);
}

void depths(int n, const int *parent, int *out)
{
    for (int v = 0; v < n; v++)
        out[v] = depth(parent, v);
}
