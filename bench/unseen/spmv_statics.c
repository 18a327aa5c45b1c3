/* SpMV over variables of the file, as programs that load their matrix elsewhere write it. */
static int nrows;
static int *rowptr, *col;
static double *val, *x, *y;

void spmv_statics(void)
{
    for (int i = 0; i < nrows; i++) {
        double s = 0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}
