/* The value a CUDA atomic returns is the element before the update: a
   frontier push claims a node by atomicCAS and takes a slot by atomicAdd. */
#define INF 0x7fffffff

__global__ void bfs_step(int n, const int *rowptr, const int *col, int *level,
                         const int *frontier, int fsize, int *next, int *nsize, int depth)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;

    if (t >= fsize)
        return;
    int u = frontier[t];
    for (int k = rowptr[u]; k < rowptr[u + 1]; k++) {
        int v = col[k];
        if (level[v] == INF && atomicCAS(&level[v], INF, depth + 1) == INF) {
            int pos = atomicAdd(nsize, 1);
            next[pos] = v;
        }
    }
}

// RUN: %augur skeleton --launch '(n + 255) / 256, 256' %s 2>&1 | FileCheck %s
// CHECK: set cond = level[v] == 2147483647 @15:13
// CHECK-NEXT: if cond @15:13
// CHECK-NEXT: set atomic.old = level[v] @15:32
// CHECK-NEXT: update level[v] = level[v] == 2147483647 ? depth + 1 : level[v] @15:32 atomic
// CHECK-NEXT: set cond = atomic.old == 2147483647 @15:32
// CHECK: if cond @15:9
// CHECK-NEXT: set atomic.old.2 = nsize[0_i64] @16:23
// CHECK-NEXT: update nsize[0_i64] = nsize[0_i64] + 1 @16:23 atomic
// CHECK-NEXT: set pos = atomic.old.2 @16:13
// CHECK-NEXT: store next[pos] @17:13
