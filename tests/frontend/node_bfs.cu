/* A CUDA program as users write one: the C library's headers, host code that
   calls malloc, printf and sqrt, and the kernel in a file it includes. augur
   analyses the included file's kernel, and binds the array of structs field
   by field to the graph's rows without --bind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK 256

typedef struct {
    int first; /* the node's first edge */
    int count; /* and how many it has */
} Node;

#include "inc/node_bfs_kernels.cuh"

int main(void)
{
    int n = 1000;
    Node *nodes = (Node *)malloc(n * sizeof(Node));

    printf("%d nodes, block %d, sqrt %g\n", n, BLOCK, sqrt((double)n));
    free(nodes);
    return 0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: inc/node_bfs_kernels.cuh"
// CHECK: kernel expand_level @
// CHECK-SAME: inc/node_bfs_kernels.cuh":4:1 cuda
// CHECK: param nnodes i32
// CHECK-SAME: bind n (inferred)
// CHECK: array nodes rec(8)[] global param
// CHECK-SAME: bind rec(0:i32:csr.rowptr,4:i32:deg) (inferred)
// CHECK: array edges i32[] global param
// CHECK-SAME: bind csr.col (inferred)
// CHECK: array frontier bool[] global param
// CHECK-SAME: bind bfs.frontier (inferred)
// CHECK: array seen bool[] global param
// CHECK-SAME: bind bfs.visited (inferred)

// The second level of the small graph: nodes 1 and 2 expand their 3 edges.
// RUN: %augur simulate %s --machine %S/../../samples/machines/h100-sxm.yml --data %S/../data/graphs/small.el --launch '(n+255)/256,256' --round 2 | FileCheck --check-prefix=SIM %s
// SIM: machine NVIDIA H100 SXM5
// SIM-SAME: 132 SMs
// SIM: launch 1 x 256 threads, 12 warp memory instructions, 9 of them loads
// SIM-NEXT: active lanes per warp memory instruction: 1.9 of 32 (6.0 %
// SIM: node_bfs_kernels.cuh:10 2
// SIM: node_bfs_kernels.cuh:12 3
// The guard keeps 6 of a warp's lanes, the frontier test 2 (nodes 1 and 2),
// the neighbours not yet seen 1.
// SIM: per source line, active lanes per warp memory instruction:
// SIM-NEXT: line warp instrs lanes SIMT
// SIM-NEXT: node_bfs_kernels.cuh:9 1 6.0 18.8%
// SIM-NEXT: node_bfs_kernels.cuh:10 1 2.0 6.2%
// SIM: node_bfs_kernels.cuh:16 1 1.0 3.1%
// SIM: nodes rec(0:i32:csr.rowptr,4:i32:deg)
// SIM-SAME: 6 8 48
