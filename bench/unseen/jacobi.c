/* one Jacobi sweep on CSR */
void jacobi(int n, const int *rowptr, const int *col, const double *val, const double *b,
            const double *x, double *xnew)
{
    for (int i = 0; i < n; i++) {
        double diag = 1.0;
        double sum = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            int j = col[k];
            if (j == i)
                diag = val[k];
            else
                sum += val[k] * x[j];
        }
        xnew[i] = (b[i] - sum) / diag;
    }
}
