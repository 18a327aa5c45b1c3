/* Irregular reduction over the edges of a mesh (Zhu et al. PACT'19, Fig. 1):
   X(IA(e,1)) += val, X(IA(e,2)) -= val, with IA stored as IA[2*e + k]. */
static double flux(double a, double b, double y)
{
    return (a - b) * y;
}

void irregular_reduction(int numEdges, const int *IA, const double *Y, double *X)
{
    for (int e = 0; e < numEdges; e++) {
        double val = flux(X[IA[2 * e]], X[IA[2 * e + 1]], Y[e]);
        X[IA[2 * e]] = X[IA[2 * e]] + val;
        X[IA[2 * e + 1]] = X[IA[2 * e + 1]] - val;
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: param numEdges i32 @8:26 bind nnz (inferred)
// CHECK: array IA i32[] global param @8:40 bind edges.pairs (inferred)
// CHECK-NEXT: array Y f64[] global param @8:55 bind vec(nnz) (inferred)
// CHECK-NEXT: array X f64[] global param @8:72 bind vec(n) (inferred)
// CHECK-NEXT: for e = 0; e < numEdges; e += 1 @10:5 #1
// CHECK-NEXT: load IA[2 * e] @11:29 #2
// CHECK-NEXT: load X[IA[2 * e]] @11:27 indirect(IA) #3
// CHECK-NEXT: load IA[2 * e + 1] @11:43 #4
// CHECK-NEXT: load X[IA[2 * e + 1]] @11:41 indirect(IA) #5
// CHECK-NEXT: load Y[e] @11:59 #6
// CHECK: store X[IA[2 * e]] @12:9 indirect(IA) #10
// CHECK: store X[IA[2 * e + 1]] @13:9 indirect(IA) #14
// CHECK-NEXT: ops fadd.f64=3 fmul.f64=1
