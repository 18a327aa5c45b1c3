#define INF 0x7fffffff
/* One round of topology-driven BFS (Pai et al. AGP'17, Listing 1). */
void bfs_level(int nnodes, const int *row_start, const int *edge_dst, int *level, int LEVEL)
{
    for (int node = 0; node < nnodes; node++) {
        if (level[node] != LEVEL - 1)
            continue;
        int r_start = row_start[node];
        int r_end = row_start[node + 1];
        for (int e = r_start; e < r_end; e++) {
            int dst = edge_dst[e];
            if (level[dst] == INF)
                level[dst] = LEVEL;
        }
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: param nnodes i32 @3:16 bind n (inferred)
// CHECK-NEXT: param LEVEL i32 @3:83 bind round (inferred)
// CHECK: array row_start i32[] global param @3:28 bind csr.rowptr (inferred)
// CHECK-NEXT: array edge_dst i32[] global param @3:50 bind csr.col (inferred)
// CHECK-NEXT: array level i32[] global param @3:71 bind bfs.level (inferred)
// CHECK-NEXT: for node = 0; node < nnodes; node += 1 @5:5 #1
// CHECK-NEXT: load level[node] @6:13 #2
// CHECK: if level[node] != LEVEL - 1 @6:9 #4
// CHECK-NEXT: continue @7:13 #5
// CHECK-NEXT: load row_start[node] @8:23 #6
// CHECK-NEXT: set r_start = row_start[node] @8:9 #7
// CHECK-NEXT: load row_start[node + 1] @9:21 #8
// CHECK-NEXT: set r_end = row_start[node + 1] @9:9 #9
// CHECK: for e = r_start; e < r_end; e += 1 @10:9 #10
// CHECK-NEXT: load edge_dst[e] @11:23 #11
// CHECK-NEXT: set dst = edge_dst[e] @11:13 #12
// CHECK-NEXT: load level[dst] @12:17 indirect(edge_dst) #13
// CHECK: if level[dst] == 2147483647 @12:13 #15
// CHECK-NEXT: store level[dst] = LEVEL @13:17 indirect(edge_dst) #16
// RUN: %augur skeleton --bind 'level=vec(n),LEVEL=2' --require-bind %s | FileCheck --check-prefix=BIND %s
// BIND: param LEVEL i32 @3:83 bind =2 (cli)
// BIND: array level i32[] global param @3:71 bind vec(n) (cli)
// RUN: not %augur skeleton --bind 'nosuch=vec(n)' %s 2>&1 | FileCheck --check-prefix=NOSUCH %s
// NOSUCH: augur: error: cannot bind 'nosuch': no array or scalar parameter of that name
// RUN: not %augur skeleton --function nosuch %s 2>&1 | FileCheck --check-prefix=NOFUNC %s
// NOFUNC: no function 'nosuch' defined in
