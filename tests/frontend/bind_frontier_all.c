/* Top-down BFS step through an OpenMP macro (Graph500 style). The frontier
   is a list of nodes whose values index the row pointer; with nothing to
   say which nodes, it is every node: iota(n) and nfrontier n, with a note.
   *nnext, only ever at index 0, is vec(1); bfs_tree, stored with node ids,
   is bfs.parent. */
#include <stdint.h>
#define OMP(x) _Pragma(x)

int64_t bfs_top_down(int64_t nv, const int64_t *xoff, const int64_t *xadj, int64_t *bfs_tree,
                     const int64_t *frontier, int64_t nfrontier, int64_t *next, int64_t *nnext)
{
    int64_t k, count = 0;
    OMP("omp parallel for schedule(dynamic, 64) reduction(+ : count)")
    for (k = 0; k < nfrontier; k++) {
        const int64_t v = frontier[k];
        for (int64_t e = xoff[v]; e < xoff[v + 1]; e++) {
            const int64_t w = xadj[e];
            if (bfs_tree[w] == -1) {
                bfs_tree[w] = v;
                count++;
            }
        }
    }
    *nnext = count;
    (void)nv;
    (void)next;
    return count;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: note warning @10:22 "'frontier' is bound to iota(n) and 'nfrontier' to n: the frontier holds every node (bind them for another frontier)"
// CHECK-NEXT: param nfrontier i64 @10:47 bind n (inferred)
// CHECK: array xoff i64[] global param @9:34 bind csr.rowptr (inferred)
// CHECK-NEXT: array xadj i64[] global param @9:55 bind csr.col (inferred)
// CHECK-NEXT: array bfs_tree i64[] global param @9:76 bind bfs.parent (inferred)
// CHECK-NEXT: array frontier i64[] global param @10:22 bind iota(n) (inferred)
// CHECK-NEXT: array nnext i64[] global param @10:81 bind vec(1) (inferred)
// small.el from every node at round 1: every row walked once (8 edges);
// bfs_tree read per edge and stored for the 5 nodes other than the source.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: xoff 12
// SIM-NEXT: xadj 8
// SIM-NEXT: bfs_tree 13
// SIM-NEXT: frontier 6
// SIM-NEXT: nnext 1
