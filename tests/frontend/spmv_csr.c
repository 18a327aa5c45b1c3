/* CSR sparse matrix-vector product */
void spmv_csr(int n, const int *rowptr, const int *col, const double *val,
              const double *x, double *y)
{
#pragma omp parallel for schedule(dynamic, 64)
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}
