#pragma augur launch((n + 255) / , 256)
__global__ void k(int n, float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 0;
}
