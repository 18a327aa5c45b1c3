/* A variable-length array: its size is not known to the skeleton. */
void with_vla(int n, int m, const int *col, double *y)
{
    double tmp[m];
    for (int k = 0; k < m; k++)
        tmp[k] = 0.0;
    for (int i = 0; i < n; i++)
        tmp[col[i] % m] += y[i];
}

// RUN: %augur skeleton --bind m=8 %s 2>&1 | FileCheck %s
// CHECK: unsup_vla.c:4:5: unsupported: variable-length array 'tmp': its size is not known to the skeleton
// CHECK: param m i32 @2:22 bind =8 (cli)
// CHECK: array tmp f64[] local @4:5
// CHECK: update tmp[col[i] % m] @8:9 indirect(col)
