template <typename T, int B> __global__ void k(int n, T *a)
{
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) a[i] = 0;
}
