/* Edge-based gradient on an unstructured mesh: an edge list n0[e], n1[e]
   whose values index vectors of four values per node, q[4 * n1[e] + k]:
   the two ends of the edges (coo.row, coo.col, by reading order), w the
   edges' weights, and q and grad vec(4*n), indexed by both ends. */
void edge_gradient(int nedges, int nnodes, const int *restrict n0, const int *restrict n1,
                   const double *restrict w, const double *restrict q, double *restrict grad)
{
    for (int i = 0; i < 4 * nnodes; i++)
        grad[i] = 0.0;
    for (int e = 0; e < nedges; e++) {
        const int a = n0[e], b = n1[e];
        for (int k = 0; k < 4; k++) {
            const double d = w[e] * (q[4 * b + k] - q[4 * a + k]);
            grad[4 * a + k] += d;
            grad[4 * b + k] -= d;
        }
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param nedges i32 @5:20 bind nnz (inferred)
// CHECK-NEXT: param nnodes i32 @5:32 bind n (inferred)
// CHECK: array n0 i32[] global param @5:44 bind coo.row (inferred)
// CHECK-NEXT: array n1 i32[] global param @5:68 bind coo.col (inferred)
// CHECK-NEXT: array w f64[] global param @6:20 bind coo.val (inferred)
// CHECK-NEXT: array q f64[] global param @6:46 bind vec(4*n) (inferred)
// CHECK-NEXT: array grad f64[] global param @6:72 bind vec(4*n) (inferred)
// small.el: 8 edges of 4 values; grad cleared (24) and updated twice per
// value (two events each).
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: n0 8
// SIM-NEXT: n1 8
// SIM-NEXT: w 32
// SIM-NEXT: q 64
// SIM-NEXT: grad 152
