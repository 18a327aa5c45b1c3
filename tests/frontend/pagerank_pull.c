/* PageRank, pull style: every node sums the ranks of its in-neighbours,
   each divided by that neighbour's out-degree. */
void pagerank_pull(int n, const int *in_ptr, const int *in_src, const int *out_deg,
                   const double *rank, double *next, double damping)
{
    for (int v = 0; v < n; v++) {
        double sum = 0.0;
        for (int k = in_ptr[v]; k < in_ptr[v + 1]; k++) {
            int u = in_src[k];
            sum += rank[u] / out_deg[u];
        }
        next[v] = (1.0 - damping) / n + damping * sum;
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: array in_ptr i32[] global param @3:27 bind csr.rowptr (inferred)
// CHECK-NEXT: array in_src i32[] global param @3:46 bind csr.col (inferred)
// CHECK-NEXT: array out_deg i32[] global param @3:65 bind deg (inferred)
// CHECK-NEXT: array rank f64[] global param @4:20 bind vec(m) (inferred)
// CHECK-NEXT: array next f64[] global param @4:40 bind vec(n) (inferred)
// CHECK: for k = in_ptr[v]; k < in_ptr[v + 1]; k += 1 @8:9
// CHECK-NEXT: load in_src[k] @9:21
// CHECK-NEXT: set u = in_src[k] @9:13
// CHECK-NEXT: load rank[u] @10:20 indirect(in_src)
// CHECK-NEXT: load out_deg[u] @10:30 indirect(in_src)
// CHECK-NEXT: ops fadd.f64.c=1 fdiv.f64=1
// CHECK: store next[v] @12:9
