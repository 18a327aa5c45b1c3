/* An output array handed over by address, written as (*result)[i]: the
   parameter stands for the doubles it points to. (*rows)[i] of a pointer to
   pointers also read as rows (rows[i][k], pointer_rows.cpp) stays unplaced. */
void spmv_out(double **result, int n, const int *rowptr, const int *col, const double *val,
              const double *x)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k] * x[col[k]];
        (*result)[i] = s;
    }
}

void rows_sum(double **rows, int n, double *y)
{
    for (int i = 0; i < n; i++) {
        y[i] = (*rows)[i] + rows[i][0];
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-LABEL: kernel spmv_out @
// CHECK: array result f64[] global param @4:15 bind vec(n) (inferred)
// CHECK: store result[i] @11:9
// CHECK-LABEL: kernel rows_sum @
// CHECK-NOT: array rows f64
// CHECK: note unsupported
