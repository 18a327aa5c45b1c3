__global__ void k(int n, float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
again:
    if (i < n) { a[i] = 0; i += 1024; goto again; }
}
