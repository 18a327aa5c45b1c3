/* A CUDA file that brings its own declarations of the CUDA API, as code
   built against a project's own minimal header does: --no-shim parses it
   alone. With augur's declarations as well, its dim3 would be defined twice. */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x, y, z;
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;

__global__ void scale(int n, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        y[i] = 2.0f * x[i];
}

// RUN: %augur skeleton %s --no-shim --launch '(n + 127) / 128,128' | FileCheck %s
// CHECK: kernel scale
// CHECK-SAME: cuda
// CHECK: load x[
// CHECK: store y[
// RUN: %augur simulate %s --no-shim --launch '(n + 127) / 128,128' --machine %S/../../samples/machines/h100-sxm.yml --data %S/../../samples/walshaw_fe_4elt2.mtx | FileCheck --check-prefix=SIM %s
// SIM: launch 88 x 128 threads, 698 warp memory instructions
// RUN: not %augur skeleton %s 2>&1 | FileCheck --check-prefix=SHIM %s
// SHIM: own_shim.cu:10:8: error: redefinition of 'dim3'
