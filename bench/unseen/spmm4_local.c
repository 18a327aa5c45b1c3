/* SpMM: Y = A X, X dense n x 4 row-major */
void spmm4(int n, const int *rowptr, const int *col, const double *val, const double *X, double *Y)
{
    for (int i = 0; i < n; i++) {
        double acc[4] = { 0.0, 0.0, 0.0, 0.0 };
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            int c = col[k];
            double a = val[k];
            for (int j = 0; j < 4; j++)
                acc[j] += a * X[c * 4 + j];
        }
        for (int j = 0; j < 4; j++)
            Y[i * 4 + j] = acc[j];
    }
}
