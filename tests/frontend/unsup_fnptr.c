/* A call through a function pointer: an opaque call node and a note. */
typedef double (*op_fn)(double);

void apply(int n, op_fn f, const int *idx, double *y)
{
    for (int i = 0; i < n; i++)
        y[idx[i]] = f(y[idx[i]]);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: unsup_fnptr.c:7:21: unsupported: call through a function pointer: the callee is not analysed
// CHECK: load y[idx[i]] @7:23 indirect(idx)
// CHECK-NEXT: call "(function pointer)" @7:21
// CHECK-NEXT: store y[idx[i]] @7:9 indirect(idx)
