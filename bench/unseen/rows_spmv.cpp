// SpMV over a matrix kept as rows of pointers into one block of values and
// one of column numbers (a mini-app's layout), passed by reference.
struct RowsMatrix {
    int nrows;
    int *nnz_in_row;
    double **vals;
    int **cols;
};

void rows_spmv(const RowsMatrix &A, const double *x, double *y)
{
    for (int i = 0; i < A.nrows; i++) {
        const double *v = A.vals[i];
        const int *c = A.cols[i];
        double sum = 0.0;

        for (int k = 0; k < A.nnz_in_row[i]; k++)
            sum += v[k] * x[c[k]];
        y[i] = sum;
    }
}
