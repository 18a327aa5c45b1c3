#define INF 0x7fffffff
struct graph {
    int num_nodes;
    const int *row_start;
    const int *edge_dst;
};

/* Simplified topology-driven BFS in CUDA (Pai et al. AGP'17, Listing 2). */
#pragma augur launch((graph.num_nodes + 255) / 256, 256)
__global__ void bfs_kernel(struct graph graph, int *level, int LEVEL)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int nthreads = gridDim.x * blockDim.x;

    for (int node = tid; node < graph.num_nodes; node += nthreads) {
        if (level[node] != LEVEL - 1)
            continue;
        int r_start = graph.row_start[node];
        int r_end = graph.row_start[node + 1];
        for (int e = r_start; e < r_end; e++) {
            int dst = graph.edge_dst[e];
            if (level[dst] == INF)
                level[dst] = LEVEL;
        }
    }
}

void launch(struct graph g, int *level, int round)
{
    bfs_kernel<<<(g.num_nodes + 255) / 256, 256>>>(g, level, round);
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel bfs_kernel @
// CHECK-SAME: bfs.cu":10:1 cuda launch((graph.num_nodes + 255) / 256, 256) #0
// CHECK: builtin blockIdx.x u32
// CHECK: builtin threadIdx.x u32
// CHECK: param graph.num_nodes i32 @3:5 bind n (inferred)
// CHECK: array level i32[] global param @10:48 bind bfs.level (inferred)
// CHECK-NEXT: array graph.row_start i32[] global param @4:5 bind csr.rowptr (inferred)
// CHECK-NEXT: array graph.edge_dst i32[] global param @5:5 bind csr.col (inferred)
// CHECK-NEXT: set tid = (i32)(blockIdx.x * blockDim.x + threadIdx.x) @12:5 #1
// CHECK-NEXT: set nthreads = (i32)(gridDim.x * blockDim.x) @13:5 #2
// CHECK: for node = tid; node < graph.num_nodes; node += nthreads @15:5 parallel gridstride #4
// CHECK: if level[node] != LEVEL - 1 @16:9 #7
// CHECK: load graph.row_start[node + 1] @19:21 #11
// CHECK: for e = r_start; e < r_end; e += 1 @20:9 #13
// CHECK-NEXT: load graph.edge_dst[e] @21:23 #14
// CHECK: load level[dst] @22:17 indirect(graph.edge_dst) #16
// CHECK: store level[dst] = LEVEL @23:17 indirect(graph.edge_dst) #19
// RUN: %augur skeleton --launch '1024,128' %s | FileCheck --check-prefix=LAUNCH %s
// LAUNCH: kernel bfs_kernel @
// LAUNCH-SAME: cuda launch(1024, 128) #0
