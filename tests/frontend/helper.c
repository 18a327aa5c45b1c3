/* A kernel whose inner loop lives in a small static helper: the helper is
   inlined; the call to an external function stays opaque. */
extern double weight(int i);

static inline double row_dot(const int *rowptr, const int *col, const double *val,
                             const double *x, int i)
{
    double s = 0.0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
        s += val[j] * x[col[j]];
    return s;
}

void spmv_helper(int n, const int *rowptr, const int *col, const double *val, const double *x,
                 double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = weight(i) * row_dot(rowptr, col, val, x, i);
}
