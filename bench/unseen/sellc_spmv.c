/* SELL-C-sigma SpMV: chunks of C rows stored column by column, each chunk as wide as its longest row. */
#define C 8

void sellc_spmv(int nchunks, const int *restrict cs, const int *restrict cl, const int *restrict col,
                const double *restrict val, const double *restrict x, double *restrict y)
{
    for (int c = 0; c < nchunks; c++) {
        double acc[C] = { 0 };
        for (int j = 0; j < cl[c]; j++)
            for (int r = 0; r < C; r++) {
                const int at = cs[c] + j * C + r;
                acc[r] += val[at] * x[col[at]];
            }
        for (int r = 0; r < C; r++)
            y[c * C + r] = acc[r];
    }
}
