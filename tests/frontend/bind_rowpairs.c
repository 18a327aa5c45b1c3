/* One BFS level over a graph whose begin/end offsets are interleaved
   (xoff[2v], xoff[2v+1], GAP/Graph500 style): xoff is csr.rowpairs, not a
   row pointer; the level stored is depth + 1, so depth is the round less one;
   the unvisited nodes are tested as negative: bfs.level(-1). */
#include <stdint.h>

void bfs_level(int64_t nv, const int64_t *restrict xoff, const int64_t *restrict xadj,
               int64_t *restrict level, int64_t depth)
{
    for (int64_t v = 0; v < nv; v++) {
        if (level[v] != depth)
            continue;
        for (int64_t k = xoff[2 * v]; k < xoff[2 * v + 1]; k++) {
            const int64_t w = xadj[k];
            if (level[w] < 0)
                level[w] = depth + 1;
        }
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param nv i64 @7:16 bind n (inferred)
// CHECK-NEXT: param depth i64 @8:41 bind round-1 (inferred)
// CHECK: array xoff i64[] global param @7:28 bind csr.rowpairs (inferred)
// CHECK-NEXT: array xadj i64[] global param @7:58 bind csr.col (inferred)
// CHECK-NEXT: array level i64[] global param @8:16 bind bfs.level(-1) (inferred)
// Round 2 on small.el (levels 0 1 1 2 3 4): depth = 1, the frontier is
// nodes 1 and 2 (three edges), each node's level read once, node 3 claimed.
// RUN: %augur simulate %s --data %S/../data/graphs/small.el --round 2 | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: xoff 4
// SIM-NEXT: xadj 3
// SIM-NEXT: level 10
