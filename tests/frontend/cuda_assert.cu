/* assert() in device code (glibc's __assert_fail is a host function; the
   CUDA shim declares a device one beside it), in a method of the graph,
   as graph libraries check their indices. */
#include <assert.h>

struct CSRGraph {
    unsigned nnodes;
    unsigned *row_start, *edge_dst;
    __device__ __host__ unsigned getFirstEdge(unsigned src)
    {
        assert(src <= nnodes);
        return row_start[src];
    }
    __device__ __host__ unsigned getAbsDestination(unsigned e) { return edge_dst[e]; }
};

__global__ void push(CSRGraph graph, const float *rank, float *residual)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;

    if (tid < graph.nnodes)
        for (unsigned e = graph.getFirstEdge(tid); e < graph.getFirstEdge(tid + 1); e++)
            atomicAdd(residual + graph.getAbsDestination(e), rank[tid]);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: array graph.row_start u32[] global param @8:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array graph.edge_dst u32[] global param @8:5 bind csr.col (inferred)
// CHECK: update residual[graph.edge_dst[e]] @23:13 atomic indirect(graph.edge_dst)
