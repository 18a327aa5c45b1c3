/* A device helper written as a function template, as utility headers keep
   them: augur inlines the template at each call, each argument's array
   giving its T, so the copy it makes is counted as loads and stores. */
#include <stdint.h>

template <typename T>
static __device__ void copy_strided(int lane, int lanes, int count, T *dst, const T *src)
{
    for (int i = lane; i < count; i += lanes)
        dst[i] = src[i];
}

__global__ void gather_rows(int n, const unsigned *rowptr, unsigned *out)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;

    if (r < n)
        copy_strided(0, 1, 2, &out[2 * r], &rowptr[r]);
}

// RUN: %augur skeleton %s --launch '(n + 127) / 128,128' --bind 'rowptr=csr.rowptr,out=vec(2*n)' | FileCheck %s
// CHECK: for i = 0; i < 2; i += 1
// CHECK-NEXT: load rowptr[r + i]
// CHECK-NEXT: store out[2 * r + i]
