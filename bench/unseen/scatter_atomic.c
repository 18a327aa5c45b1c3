/* transpose SpMV by scatter, OpenMP with atomic updates */
void spmv_t_atomic(int n, const int *rowptr, const int *col, const double *val, const double *x,
                   double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double xi = x[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
#pragma omp atomic
            y[col[k]] += val[k] * xi;
        }
    }
}
