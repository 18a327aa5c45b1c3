/* CSR sparse matrix-vector product y = A x, one row at a time. */
void spmv_csr(int n, const int *rowptr, const int *col, const double *val,
              const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel spmv_csr @
// CHECK-SAME: spmv_csr.c":2:1
// CHECK: param n i32 @2:15 bind n (inferred)
// CHECK: array rowptr i32[] global param @2:22 bind csr.rowptr (inferred)
// CHECK-NEXT: array col i32[] global param @2:41 bind csr.col (inferred)
// CHECK-NEXT: array val f64[] global param @2:57 bind csr.val (inferred)
// CHECK-NEXT: array x f64[] global param @3:15 bind vec(m) (inferred)
// CHECK-NEXT: array y f64[] global param @3:32 bind vec(n) (inferred)
// CHECK-NEXT: for i = 0; i < n; i += 1 @5:5 #1
// CHECK-NEXT: load rowptr[i] @7:22 #2
// CHECK-NEXT: load rowptr[i + 1] @7:37 #3
// CHECK-NEXT: for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @7:9 #4
// CHECK-NEXT: load val[j] @8:20 #5
// CHECK-NEXT: load col[j] @8:31 #6
// CHECK-NEXT: load x[col[j]] @8:29 indirect(col) #7
// CHECK-NEXT: ops ffma.f64.c=1 iadd.i32=1 cmp.i32=1 @8:20 #8
// CHECK-NEXT: store y[i] @9:9 #9
// RUN: %augur skeleton --json %s | FileCheck --check-prefix=JSON %s
// JSON: "name": "spmv_csr",
// JSON: "kind": "load",
// JSON: "array": "x",
// JSON: "index": "col[j]",
// JSON: "indirect": true,
// JSON-NEXT: "via": ["col"]
