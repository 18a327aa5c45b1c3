/* A kernel whose inner loop lives in a small static helper: the helper is
   inlined; the call to an external function stays opaque. */
extern double weight(int i);

static inline double row_dot(const int *rowptr, const int *col, const double *val,
                             const double *x, int i)
{
    double s = 0.0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
        s += val[j] * x[col[j]];
    return s;
}

void spmv_helper(int n, const int *rowptr, const int *col, const double *val, const double *x,
                 double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = weight(i) * row_dot(rowptr, col, val, x, i);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: helper.c:18:16: warning: call to 'weight' is not analysed (its body is not in this file)
// CHECK: note warning @18:16 "call to 'weight' is not analysed (its body is not in this file)"
// CHECK: for i = 0; i < n; i += 1 @17:5 #1
// CHECK-NEXT: call weight @18:16 #2
// CHECK-NEXT: load rowptr[i] @9:18 #3
// CHECK: for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @9:5 #5
// CHECK-NEXT: load val[j] @10:14 #6
// CHECK-NEXT: load col[j] @10:25 #7
// CHECK-NEXT: load x[col[j]] @10:23 indirect(col) #8
// CHECK: store y[i] @18:9 #10
