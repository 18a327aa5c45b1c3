/* One forward Gauss-Seidel sweep in place on CSR: x[i] uses neighbours
   already updated in this sweep. */
void gauss_seidel(int n, const int *rowptr, const int *col, const double *val, const double *diag,
                  const double *b, double *x)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
            int j = col[k];
            if (j != i)
                s -= val[k] * x[j];
        }
        x[i] = s / diag[i];
    }
}
