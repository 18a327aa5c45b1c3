/* CUDA atomics and a block-level shared-memory sum: push-style SpMV with the
   transpose (atomicAdd), a BFS relaxation with atomicMin, and a per-block
   partial sum through __shared__ memory and __syncthreads. */
__global__ void spmv_push(int n, const int *rowptr, const int *col, const double *val,
                          const double *x, double *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
        atomicAdd(&y[col[j]], val[j] * x[i]);
}

__global__ void relax(int n, const int *rowptr, const int *col, int *dist)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += blockDim.x * gridDim.x) {
        int d = dist[v] + 1;
        for (int e = rowptr[v]; e < rowptr[v + 1]; e++)
            atomicMin(&dist[col[e]], d);
    }
}

__global__ void block_sum(int n, const double *x, double *partial)
{
    __shared__ double buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? x[i] : 0.0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = buf[0];
}

// RUN: %augur skeleton --bind 'partial=vec(n)' --launch '(n + 255) / 256, 256' --require-bind %s | FileCheck %s
// CHECK: kernel spmv_push @
// CHECK-SAME: cuda launch((n + 255) / 256, 256) #0
// CHECK: if i >= n @8:5
// CHECK-NEXT: return @9:9
// CHECK: for j = rowptr[i]; j < rowptr[i + 1]; j += 1 @10:5
// CHECK-NEXT: load col[j] @11:22
// CHECK-NEXT: load val[j] @11:31
// CHECK-NEXT: load x[i] @11:40
// CHECK-NEXT: update y[col[j]] @11:9 atomic indirect(col)
// CHECK: kernel relax @
// CHECK: for v = (i32)(blockIdx.x * blockDim.x + threadIdx.x); v < n; v = (i32)(v + blockDim.x * gridDim.x) @16:5 parallel gridstride
// CHECK: update dist[col[e]] @19:13 atomic indirect(col)
// CHECK: kernel block_sum @
// CHECK: array partial f64[] global param @23:51 bind vec(n) (cli)
// CHECK-NEXT: array buf f64[256] shared @25:5
// CHECK: if i < n @28:14
// CHECK-NEXT: load x[i] @28:22
// CHECK-NEXT: store buf[t] @28:5
// CHECK: sync threads @29:5
// CHECK: for s = (i32)(blockDim.x / 2); s > 0; s = s >> 1 @30:5
// CHECK: load buf[t + s] @32:23
// CHECK-NEXT: update buf[t] @32:13
// CHECK: sync threads @33:9
// CHECK: store partial[blockIdx.x] @36:9
