/* assert(e) as <assert.h> expands it (a statement expression holding an
   if, a sizeof that is not evaluated, the condition as a string): the
   condition's reads and test remain, with no warning. */
#include <assert.h>

void spmv_checked(int n, const int *rowptr, const int *col, const double *val, const double *x,
                  double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        assert(rowptr[i] <= rowptr[i + 1]);
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK-LABEL: kernel spmv_checked @
// CHECK: array rowptr i32[] global param @6:26 bind csr.rowptr (inferred)
// CHECK: load rowptr[i] @11:16
// CHECK: load rowptr[i + 1] @11:29
// CHECK: ops cmp.i32=1 @11:16
