#define Thread_Block_Size 128

/* Finite-volume kernel with shared memory for A and I (seed 001, Fig. 2). */
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

/* The same with the read-only cache for A, I and X (seed 001, Fig. 3). */
__global__ void Kernel_2(const double *A, const int *I, const double *X, double *Y)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int l_x = i * 4;

    Y[i] = __ldg(&A[l_x + 0]) * (__ldg(&X[__ldg(&I[l_x + 0])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 1]) * (__ldg(&X[__ldg(&I[l_x + 1])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 2]) * (__ldg(&X[__ldg(&I[l_x + 2])]) - __ldg(&X[i])) +
           __ldg(&A[l_x + 3]) * (__ldg(&X[__ldg(&I[l_x + 3])]) - __ldg(&X[i]));
}
