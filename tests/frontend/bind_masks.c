/* Bottom-up BFS step with boolean masks: front, read at a neighbour in a
   condition and never stored, is the frontier; visited, read and stored at
   the node whose row is walked, the visited set. Neither is a degree. */
#include <stdbool.h>

int bottom_up(int n, const int *restrict rowptr, const int *restrict col, const bool *restrict front,
              bool *restrict next, char *restrict visited, int *restrict parent)
{
    int found = 0;
    for (int v = 0; v < n; v++) {
        if (visited[v])
            continue;
        for (int k = rowptr[v]; k < rowptr[v + 1]; k++) {
            const int u = col[k];
            if (front[u]) {
                parent[v] = u;
                next[v] = true;
                visited[v] = 1;
                found++;
                break;
            }
        }
    }
    return found;
}

/* Top-down with a parent array: an integer array stored with a node id. */
void top_down(int n, const int *restrict rowptr, const int *restrict col, int *restrict parent,
              int *restrict level, int depth)
{
    for (int v = 0; v < n; v++) {
        if (level[v] != depth)
            continue;
        for (int k = rowptr[v]; k < rowptr[v + 1]; k++) {
            const int w = col[k];
            if (parent[w] < 0) {
                parent[w] = v;
                level[w] = depth + 1;
            }
        }
    }
}

// RUN: %augur skeleton %s --function bottom_up 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param n i32 @6:15 bind n (inferred)
// CHECK: array rowptr i32[] global param @6:22 bind csr.rowptr (inferred)
// CHECK-NEXT: array col i32[] global param @6:50 bind csr.col (inferred)
// CHECK-NEXT: array front bool[] global param @6:75 bind bfs.frontier (inferred)
// CHECK-NEXT: array next bool[] global param @7:15 bind vec(n) (inferred)
// CHECK-NEXT: array visited i8[] global param @7:36 bind bfs.visited (inferred)
// RUN: %augur skeleton %s --function top_down 2>&1 | grep -E '^  (param|array)' | sed -E 's/ @[0-9]+:[0-9]+//' | FileCheck --check-prefix=TOP %s
// TOP: param n i32 bind n (inferred)
// TOP-NEXT: param depth i32 bind round-1 (inferred)
// TOP-NEXT: array rowptr i32[] global param bind csr.rowptr (inferred)
// TOP-NEXT: array col i32[] global param bind csr.col (inferred)
// TOP-NEXT: array parent i32[] global param bind bfs.parent (inferred)
// TOP-NEXT: array level i32[] global param bind bfs.level (inferred)
// small.el, round 2 (the frontier is node 0, nodes 0 1 2 visited): nodes
// 3, 4, 5 scan their rows and none finds a frontier node.
// RUN: %augur simulate %s --function bottom_up --data %S/../data/graphs/small.el --round 2 | FileCheck --check-prefix=SIM %s
// SIM: per array:
// SIM: rowptr 6
// SIM-NEXT: col 3
// SIM-NEXT: front 3
// SIM-NEXT: next 0
// SIM-NEXT: visited 6
// Round 2 top down: nodes 1 and 2 expand; node 3 is claimed (parent -1 until
// now), 2 and 0 already have parents.
// RUN: %augur simulate %s --function top_down --data %S/../data/graphs/small.el --round 2 | FileCheck --check-prefix=TOPSIM %s
// TOPSIM: per array:
// TOPSIM: rowptr 4
// TOPSIM-NEXT: col 3
// TOPSIM-NEXT: parent 4
// TOPSIM-NEXT: level 7
