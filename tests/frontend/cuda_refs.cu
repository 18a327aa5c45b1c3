// References to elements in device code: an atomicAdd through one and a
// compound assignment through another are updates of the elements they
// name (both were loads of them, their stores lost).
__global__ void scatter_refs(int n, const int *col, const float *w, float *y)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;

    if (k < n) {
        float &r = y[col[k]];

        atomicAdd(&r, w[k]);
        float &s = y[k];
        s *= 2.0f;
    }
}

// RUN: %augur skeleton %s --launch '(n + 255) / 256, 256' 2>&1 | FileCheck %s
// CHECK: set r = (i64)col[k] @9:9
// CHECK-NEXT: load w[k] @11:23
// CHECK-NEXT: update y[r] @11:9 atomic indirect(col)
// CHECK-NEXT: set s = (i64)k @12:9
// CHECK-NEXT: update y[s] @13:9
