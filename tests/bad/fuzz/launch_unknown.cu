/* fuzz_launch: a --launch naming a value the kernel does not have (nrows). */
__global__ void k(int n, int nnz, int m, long width, const float *x,
                  float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2 * x[i];
}
