/* Bindings and probabilities written in the source. The product with the
   transpose walks columns (CSC), which the structure alone would read as
   CSR: #pragma augur bind(...) says what each array is. */
#pragma augur bind(cp = csc.colptr, ri = csc.row, v = csc.val, x = vec(m), y = vec(n))
void spmv_t(int m, const int *cp, const int *ri, const double *v, const double *x, double *y,
            double tol)
{
    for (int j = 0; j < m; j++) {
#pragma augur prob(0.25)
        if (x[j] > tol) {
#pragma augur trips(3)
            for (int k = cp[j]; k < cp[j + 1]; k++)
                y[ri[k]] += v[k] * x[j];
        }
    }
}

// RUN: %augur skeleton --bind tol=0.5 %s | FileCheck %s
// CHECK: param m i32 @5:13 bind m (inferred)
// CHECK-NEXT: param tol f64 @6:13 bind =0.5 (cli)
// CHECK: array cp i32[] global param @5:20 bind csc.colptr (pragma)
// CHECK-NEXT: array ri i32[] global param @5:35 bind csc.row (pragma)
// CHECK-NEXT: array v f64[] global param @5:50 bind csc.val (pragma)
// CHECK-NEXT: array x f64[] global param @5:67 bind vec(m) (pragma)
// CHECK-NEXT: array y f64[] global param @5:84 bind vec(n) (pragma)
// CHECK: if x[j] > tol @10:9 prob 0.25
// CHECK: for k = cp[j]; k < cp[j + 1]; k += 1 @12:13 trips 3
// CHECK: update y[ri[k]] @13:17 indirect(ri)
// RUN: %augur skeleton --bind 'cp=csr.rowptr,tol=0.5' %s | FileCheck --check-prefix=CLI %s
// CLI: array cp i32[] global param @5:20 bind csr.rowptr (cli)
// CLI-NEXT: array ri i32[] global param @5:35 bind csc.row (pragma)
