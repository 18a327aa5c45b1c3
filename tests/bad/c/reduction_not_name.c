/* a reduction item that is not a name (a stray byte, as a fuzzer wrote it) */
void colcount(int n, const long *rowptr, const int *col, double *y, double *z)
{
#pragma omp parallel for schedule(static) reduction(+ : è[0:n], y [0:n])
    for (int i = 0; i < n; i++)
        for (long j = rowptr[i]; j < rowptr[i + 1]; j++)
            y[col[j]] += z[i];
}
