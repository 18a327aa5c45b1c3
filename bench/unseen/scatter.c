/* transpose SpMV by scatter: y = A^T x */
void spmv_t(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double xi = x[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            y[col[k]] += val[k] * xi;
    }
}
