/* Operators written inside macros: libclang's C API does not expose them, so
   augur walks the macro expansion's tokens alongside the cursors. */
#define IDX(i, k) ((i) * 4 + (k))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQR(x) ((x) * (x))
#define PARALLEL_FOR _Pragma("omp parallel for schedule(dynamic, 8)")

void ell_update(int n, int width, const int *idx, const double *val, double *y)
{
    PARALLEL_FOR
    for (int i = 0; i < n; i++) {
        int stop = MIN(width, 4);
        for (int k = 0; k < stop; k++)
            y[i] += SQR(val[IDX(i, k)]) * y[idx[IDX(i, k)]];
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK: param width i32 @8:24 bind ell.width (inferred)
// CHECK: for i = 0; i < n; i += 1 @11:5 parallel omp(parallel for schedule(dynamic, 8))
// CHECK-NEXT: set stop = width < 4 ? width : 4 @12:9
// CHECK: for k = 0; k < stop; k += 1 @13:9
// CHECK-NEXT: load val[i * 4 + k] @14:25
// CHECK-NEXT: load val[i * 4 + k] @14:25 reuse
// CHECK-NEXT: load idx[i * 4 + k] @14:45
// CHECK-NEXT: load y[idx[i * 4 + k]] @14:43 indirect(idx)
// CHECK-NEXT: update y[i] @14:13
// CHECK-NEXT: ops fmul.f64=1 ffma.f64=1
