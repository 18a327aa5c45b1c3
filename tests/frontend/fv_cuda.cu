#define Thread_Block_Size 128

/* Finite-volume kernel with shared memory for A and I (Langguth et al. JPDC'15, Fig. 2). */
__global__ void Kernel_1(double *A, int *I, double *X, double *Y)
{
    __shared__ double SM_A[Thread_Block_Size * 4];
    __shared__ int SM_I[Thread_Block_Size * 4];
    int b_start = blockIdx.x * blockDim.x * 4;
    int tIdx = threadIdx.x;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int l_x = threadIdx.x * 4;

    SM_A[tIdx] = A[b_start + tIdx];
    SM_A[tIdx + blockDim.x] = A[b_start + tIdx + blockDim.x];
    SM_A[tIdx + blockDim.x * 2] = A[b_start + tIdx + blockDim.x * 2];
    SM_A[tIdx + blockDim.x * 3] = A[b_start + tIdx + blockDim.x * 3];
    SM_I[tIdx] = I[b_start + tIdx];
    SM_I[tIdx + blockDim.x] = I[b_start + tIdx + blockDim.x];
    SM_I[tIdx + blockDim.x * 2] = I[b_start + tIdx + blockDim.x * 2];
    SM_I[tIdx + blockDim.x * 3] = I[b_start + tIdx + blockDim.x * 3];
    __syncthreads();
    Y[i] = SM_A[l_x + 0] * (__ldg(&X[SM_I[l_x + 0]]) - __ldg(&X[i])) +
           SM_A[l_x + 1] * (__ldg(&X[SM_I[l_x + 1]]) - __ldg(&X[i])) +
           SM_A[l_x + 2] * (__ldg(&X[SM_I[l_x + 2]]) - __ldg(&X[i])) +
           SM_A[l_x + 3] * (__ldg(&X[SM_I[l_x + 3]]) - __ldg(&X[i]));
}

/* The same with the read-only cache for A, I and X (Langguth et al. JPDC'15, Fig. 3). */
__global__ void Kernel_2(const double *A, const int *I, const double *X, double *Y)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int l_x = i * 4;

    Y[i] = __ldg(&A[l_x + 0]) * (__ldg(&X[__ldg(&I[l_x + 0])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 1]) * (__ldg(&X[__ldg(&I[l_x + 1])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 2]) * (__ldg(&X[__ldg(&I[l_x + 2])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 3]) * (__ldg(&X[__ldg(&I[l_x + 3])]) - __ldg(&X[i]));
}

// RUN: %augur skeleton --launch '(n + 127) / 128, 128' %s | FileCheck %s
// CHECK: kernel Kernel_1 @
// CHECK-SAME: fv_cuda.cu":4:1 cuda launch((n + 127) / 128, 128) #0
// CHECK: array A f64[] global param @4:26 bind ell.val.rows (inferred)
// CHECK-NEXT: array I i32[] global param @4:37 bind ell.idx.rows (inferred)
// CHECK-NEXT: array X f64[] global param @4:45 bind vec(n) (inferred)
// CHECK-NEXT: array Y f64[] global param @4:56 bind vec(n) (inferred)
// CHECK-NEXT: array SM_A f64[512] shared @6:5
// CHECK-NEXT: array SM_I i32[512] shared @7:5
// CHECK: set i = (i32)(threadIdx.x + blockIdx.x * blockDim.x) @10:5
// CHECK: load A[b_start + tIdx] @13:18
// CHECK-NEXT: store SM_A[tIdx] @13:5
// CHECK: load I[b_start + tIdx + blockDim.x * 3] @20:35
// CHECK-NEXT: store SM_I[tIdx + blockDim.x * 3] = I[b_start + tIdx + blockDim.x * 3] @20:5
// CHECK: sync threads @21:5
// CHECK-NEXT: load SM_A[l_x + 0] @22:12
// CHECK-NEXT: load SM_I[l_x + 0] @22:38
// CHECK-NEXT: load X[SM_I[l_x + 0]] @22:29 ldg indirect(SM_I)
// CHECK-NEXT: load X[i] @22:56 ldg
// CHECK: load X[i] @23:56 ldg reuse
// CHECK: store Y[i] @22:5
// CHECK-NEXT: ops fadd.f64=4 fmul.f64=1 ffma.f64=3
// CHECK: kernel Kernel_2 @
// CHECK: set l_x = i * 4 @32:5
// CHECK-NEXT: load A[l_x + 0] @34:12 ldg
// CHECK-NEXT: load I[l_x + 0] @34:43 ldg
// CHECK-NEXT: load X[I[l_x + 0]] @34:34 ldg indirect(I)
// CHECK: store Y[i] @34:5
