/* A graph passed as a struct with C++ methods (g.degree(v)), by reference
   and by value to __device__ helpers: each is inlined on its object, so
   g.rowptr and g.col are the kernel's arrays; the value's copy is written
   as the value copied, and y[v] = ... stays a store. */
struct Graph {
    const int *rowptr;
    const int *col;
    __device__ int degree(int v) const { return rowptr[v + 1] - rowptr[v]; }
    __device__ int neighbor(int v, int k) const { return col[this->rowptr[v] + k]; }
    __device__ int first(int v) const { return neighbor(v, 0); }
};

__device__ int degree_ref(const Graph &g, int v) { return g.rowptr[v + 1] - g.rowptr[v]; }
__device__ int degree_val(Graph g, int v) { return g.degree(v); }

__global__ void degsum(Graph g, int n, const float *x, float *y)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;

    if (v >= n)
        return;
    float s = 0;
    for (int k = 0; k < g.degree(v); k++)
        s += x[g.neighbor(v, k)];
    y[v] = s + degree_ref(g, v) + degree_val(g, v) + (g.degree(v) ? x[g.first(v)] : 0.0f);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK-NOT: C++ member call
// CHECK: array g.rowptr i32[] global param @6:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array g.col i32[] global param @7:5 bind csr.col (inferred)
// CHECK: for k = 0; k < g.rowptr[v + 1] - g.rowptr[v]; k += 1
// CHECK: load g.col[g.rowptr[v] + k] @9:58 indirect(g.rowptr)
// CHECK: load x[g.col[g.rowptr[v] + k]] @24:14 indirect(g.rowptr, g.col)
// CHECK: load g.rowptr[v + 1] @13:59
// CHECK: load x[g.col[g.rowptr[v] + 0]] @25:69 indirect(g.rowptr, g.col)
// CHECK: store y[v] @25:5
// CHECK-NOT: load y
