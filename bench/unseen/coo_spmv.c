/* COO SpMV */
void spmv_coo(int nnz, const int *row, const int *col, const double *val, const double *x,
              double *y)
{
    for (int e = 0; e < nnz; e++)
        y[row[e]] += val[e] * x[col[e]];
}
