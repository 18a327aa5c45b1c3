/* Edge lists kept as arrays of structs, as graph codes often store them: a
   template pair of ends, and a weighted edge. Each field of the struct gets
   its own part of the edge list without --bind: the integer fields in order
   are the edges' sources and destinations, a floating-point one the weights. */
#include <stdint.h>

template <typename V>
struct edge {
    V src, dst;
};

struct weighted {
    unsigned from, to;
    float w;
};

__global__ void push_rank(uint64_t nedges, const edge<unsigned> *edges, const float *rank,
                          const unsigned *deg, float *next)
{
    uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

    if (e < nedges) {
        unsigned s = edges[e].src, d = edges[e].dst;

        if (deg[s] != 0)
            atomicAdd(&next[d], rank[s] / deg[s]);
    }
}

__global__ void relax(uint64_t nedges, const weighted *edges, const float *dist, float *next)
{
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < nedges;
         e += (uint64_t)blockDim.x * gridDim.x) {
        const weighted *x = &edges[e];
        float c = dist[x->from] + x->w;

        if (c < next[x->to])
            next[x->to] = c;
    }
}

// RUN: %augur skeleton %s --function push_rank | FileCheck %s
// CHECK: param nedges u64
// CHECK-SAME: bind nnz (inferred)
// CHECK: array edges rec(8)[] global param
// CHECK-SAME: bind rec(0:u32:coo.row,4:u32:coo.col) (inferred)
// RUN: %augur skeleton %s --function relax | FileCheck --check-prefix=W %s
// W: array edges rec(12)[] global param
// W-SAME: bind rec(0:u32:coo.row,4:u32:coo.col,8:f32:coo.val) (inferred)
// The small graph's 8 edges, one thread each: every edge's two ends read.
// RUN: %augur simulate %s --function push_rank --machine %S/../../samples/machines/h100-sxm.yml --data %S/../data/graphs/small.el --launch '(nnz + 255) / 256,256' | FileCheck --check-prefix=SIM %s
// SIM: launch 1 x 256 threads
// SIM: edges 16
// SIM: edges rec(0:u32:coo.row,4:u32:coo.col)
