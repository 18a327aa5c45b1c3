/* Jagged-diagonal SpMV: diagonals of decreasing length, rows permuted by length. */
void jds_spmv(int n, int ndiag, const int *restrict jd_ptr, const int *restrict col,
              const double *restrict val, const int *restrict perm, const double *restrict x,
              double *restrict y)
{
    for (int d = 0; d < ndiag; d++) {
        const int len = jd_ptr[d + 1] - jd_ptr[d];
        const int off = jd_ptr[d];
        for (int r = 0; r < len; r++)
            y[perm[r]] += val[off + r] * x[col[off + r]];
    }
    (void)n;
}
