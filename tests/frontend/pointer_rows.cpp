// A C++ source (parsed as C++ by its suffix): a sparse matrix kept as
// rows of pointers into one block of values and one of column numbers
// (double **vals, each vals[i] at row i, as mini-apps keep their matrices),
// with the rows' lengths beside them. rows[i][k] reads as the block's entry
// rows[i] + k: the pointers are a row pointer, the lengths its degrees.
#include <cstddef>

struct RowMatrix {
    int nrows;
    int *row_len;
    double **vals;
    int **cols;
};

void row_product(const RowMatrix &A, const double *x, double *y)
{
    for (int i = 0; i < A.nrows; i++) {
        const double *v = A.vals[i];
        const int *c = A.cols[i];
        double sum = 0.0;

        for (int k = 0; k < A.row_len[i]; k++)
            sum += v[k] * x[c[k]];
        y[i] = sum;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK: param A.nrows i32 @9:5 bind n (inferred)
// CHECK: array A.vals ptr[] global param @11:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array A.vals.pointee f64[] global param @18:27 bind csr.val (inferred)
// CHECK-NEXT: array A.cols ptr[] global param @12:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array A.cols.pointee i32[] global param @19:24 bind csr.col (inferred)
// CHECK-NEXT: array A.row_len i32[] global param @10:5 bind deg (inferred)
// CHECK: load A.vals.pointee[v + k] @23:20 indirect(A.vals)
// CHECK-NEXT: load A.cols.pointee[c + k] @23:29 indirect(A.cols)
// small.el: 6 rows, 8 entries: each entry reads its value, its column and
// x at that column; each row its two pointers, its length and y.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: x 8
// SIM-NEXT: y 6
// SIM-NEXT: A.vals 6
// SIM-NEXT: A.vals.pointee 8
// SIM-NEXT: A.cols 6
// SIM-NEXT: A.cols.pointee 8
// SIM-NEXT: A.row_len 6
