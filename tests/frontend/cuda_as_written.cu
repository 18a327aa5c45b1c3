/* CUDA as benchmark suites write it: the C library's headers, float math
   on the device, built-in vector types, a legacy texture reference read
   with tex1Dfetch, and host code that calls a helper augur has never seen
   (a CUDA samples header's checkCudaErrors): its errors are reported as
   one warning and the kernel is still analysed. A struct value stored
   whole (out[row] = make_float4(...), C++'s operator=) is not followed
   yet, and says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

texture<float, 1, cudaReadModeElementType> x_tex;

__global__ void scaled_spmv(int nrows, const int *rowptr, const int *col, const float *val,
                            float4 *out)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < nrows) {
        float sum = 0.0f;

        for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
            sum += val[k] * tex1Dfetch(x_tex, col[k]);
        out[row] = make_float4(sum, sqrtf(fabsf(sum)), expf(-sum), rsqrtf(1.0f + sum * sum));
    }
}

int main(void)
{
    float *x = (float *)malloc(100 * sizeof(float));

    checkCudaErrors(cudaBindTexture(0, x_tex, x, 100 * sizeof(float)));
    printf("%g\n", sqrt(2.0));
    free(x);
    return 0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: warning: 1 error in host code, which augur does not analyse (the first: use of undeclared identifier 'checkCudaErrors')
// CHECK: unsupported: C++ member call 'operator=' (a struct value's copy, an operator, a method without its body): not analysed
// CHECK: array x_tex f32[] global
// CHECK-SAME: bind vec(m) (inferred)
// CHECK: load x_tex[col[k]]
// CHECK-SAME: ldg indirect(col)
// CHECK: ffma.f32.c=1
// CHECK: fsqrt.f32=1 fmath.f32=2
// CHECK: call "operator=" @24:9
