/* Scalar members read in a method (nnodes, through the implicit this) are
   the kernel's parameter g.nnodes; a member of a member (p->next->n) would
   be data in memory, not a parameter. */
struct G {
    unsigned nnodes;
    const unsigned *row;
    __device__ bool valid(unsigned v) const { return v < nnodes; }
    __device__ unsigned degree(unsigned v) const { return this->row[v + 1] - row[v]; }
};

__global__ void degrees(G g, float *y)
{
    unsigned v = blockIdx.x * blockDim.x + threadIdx.x;

    if (g.valid(v))
        y[v] = g.degree(v);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: opaque
// CHECK: param g.nnodes u32 @5:5 bind n (inferred)
// CHECK: if v < g.nnodes @15:5
// CHECK-NEXT: load g.row[v + 1] @8:59
// CHECK-NEXT: load g.row[v] @8:78
// CHECK-NEXT: store y[v] @16:9
