/* Template parameters whose names end alike (BLOCK, K): --template tells
   them apart, and names one that is not a parameter. */
template <int BLOCK, int K>
__global__ void fill(int n, float *a)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;

    if (i < n)
        a[i] = K;
}

// RUN: %augur skeleton %s --template BLOCK=64,K=2 2>&1 | FileCheck %s
// RUN: not %augur skeleton %s --template BLOCK=64,K=2,LOCK=1 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// CHECK: note: template kernel 'fill' analysed with BLOCK=64, K=2
// CHECK: set i = (i32)(blockIdx.x * 64 + threadIdx.x)
// UNKNOWN: --template names 'LOCK', which is no parameter of the template kernel 'fill'
