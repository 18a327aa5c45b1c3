/* Kernels in two included files and none in the file itself: which one is
   meant must be said. */
#define BLOCK 256

typedef struct {
    int first, count;
} Node;

#include "inc/node_bfs_kernels.cuh"
#include "inc/node_bfs_mark.cuh"

// RUN: not %augur skeleton %s 2>&1 | FileCheck %s
// RUN: %augur skeleton %s --function mark_level 2>&1 | FileCheck --check-prefix=PICK %s
// CHECK: node_bfs_two.cu' defines no kernel; the files it includes do: expand_level (
// CHECK-SAME: node_bfs_kernels.cuh), mark_level (
// CHECK-SAME: node_bfs_mark.cuh); name one with --function
// PICK: kernel mark_level @
// PICK-SAME: inc/node_bfs_mark.cuh":2:1 cuda
// PICK: param nnodes i32
// PICK-SAME: bind n (inferred)
// PICK: array next bool[] global param
// PICK-SAME: bind bfs.next (inferred)
