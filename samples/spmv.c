/*
 * spmv.c - the demo's sample kernel: y = A x with A in CSR, rows shared among
 * OpenMP threads. A user-style file: augur finds the row pointer, the column
 * index array and the indirect access to x by itself.
 */
#include <stddef.h>

void spmv(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double sum = 0.0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}
