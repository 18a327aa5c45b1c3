/* A variable-length array: its size is not known to the skeleton. */
void with_vla(int n, int m, const int *col, double *y)
{
    double tmp[m];
    for (int k = 0; k < m; k++)
        tmp[k] = 0.0;
    for (int i = 0; i < n; i++)
        tmp[col[i] % m] += y[i];
}
