/* Boolean frontier masks in CUDA, which is C++: true and false are
   literals there, and storing one is a store of 1 or 0. */
__global__ void expand(int n, const int *row, const int *adj, bool *frontier, bool *next,
                       bool *visited, int *cost)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;

    if (v < n && frontier[v]) {
        frontier[v] = false;
        for (int e = row[v]; e < row[v + 1]; e++) {
            int w = adj[e];

            if (!visited[w]) {
                cost[w] = cost[v] + 1;
                next[w] = true;
                visited[w] = true;
            }
        }
    }
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK: if v < n && frontier[v] @8:5
// CHECK-NEXT: store frontier[v] = 0_bool @9:9
// CHECK: store next[w] @15:17 indirect(adj)
// CHECK-NEXT: store visited[w] = 1_bool @16:17 indirect(adj)
// CHECK-NOT: load next
