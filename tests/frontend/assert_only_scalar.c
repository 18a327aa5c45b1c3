/* A scalar member that only an assert() tests (HPCG's
   assert(x.localLength >= A.localNumberOfColumns)) decides no address and
   no branch of the skeleton: it needs no binding to predict, and nothing
   asks for one (augur measure, which runs the assert, does). */
#include <assert.h>

struct vec {
    int len;
    double *v;
};

void rows_sum(int n, const int *rowptr, const double *val, struct vec *y)
{
    assert(y->len >= n);
    for (int i = 0; i < n; i++) {
        double s = 0;

        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k];
        y->v[i] = s;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: not bound
// CHECK: param y->len i32 @8:5
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: val 8
