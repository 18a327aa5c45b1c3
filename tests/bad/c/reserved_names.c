/* Kernels and parameters named like the skeleton's type and function words. */
void f32(int min, const int *rowptr, const int *col, const double *x, double *u64)
{
    for (int i = 0; i < min; i++) {
        double s = 0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += x[col[k]];
        u64[i] = s;
    }
}

void rec(int n, const int *ptr, const int *i8, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        for (int k = ptr[i]; k < ptr[i + 1]; k++)
            y[i] += x[i8[k]];
}
