/* A method called on a member struct (rows.len(v) in a method of g) that calls
   another method on the same object (deg(v)): its members are g.rows.ptr. */
struct Rows { const int *ptr; __device__ int deg(int v) const { return ptr[v + 1] - ptr[v]; }
              __device__ int len(int v) const { return deg(v); } };
struct G { Rows rows; const int *col;
           __device__ int degree(int v) const { return rows.len(v); } };
__global__ void k(G g, int n, float *y)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        y[v] = g.degree(v);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: array g.rows.ptr i32[] global param @3:15 bind csr.rowptr (inferred)
// CHECK: load g.rows.ptr[v + 1] @3:72
// CHECK-NEXT: load g.rows.ptr[v] @3:85
// CHECK-NEXT: store y[v] @11:9
