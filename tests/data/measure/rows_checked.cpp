// A C++ kernel over a matrix kept as rows of pointers into one block (a
// reference parameter, double **vals, int **cols): augur measure compiles it
// as C++ and builds the pointers from the rows' starts; the kernel aborts
// unless each row's pointers end where the next row's begin.
#include <cstdlib>

struct RowMatrix {
    int nrows;
    int *row_len;
    double **vals;
    int **cols;
};

void rows_checked(const RowMatrix &A, const double *x, double *y)
{
    for (int i = 0; i < A.nrows; i++) {
        const double *v = A.vals[i];
        const int *c = A.cols[i];
        double sum = 0.0;

        for (int k = 0; k < A.row_len[i]; k++)
            sum += v[k] * x[c[k]];
        if (i + 1 < A.nrows &&
            (c + A.row_len[i] != A.cols[i + 1] || v + A.row_len[i] != A.vals[i + 1]))
            abort();
        y[i] = sum;
    }
}
