/* CSR SpMV with a warp per row (the "vector" kernel): lane l of the warp takes
   the row's entries l, l + 32, ...; the partial sums meet by shuffles, whose
   width argument is a C++ default argument without tokens. */
__global__ void spmv_vector(int n, const int *rowptr, const int *col, const double *val,
                            const double *x, double *y)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;

    if (warp >= n)
        return;
    double sum = 0.0;
    for (int j = rowptr[warp] + lane; j < rowptr[warp + 1]; j += 32)
        sum += val[j] * x[col[j]];
    for (int off = 16; off > 0; off /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, off);
    if (lane == 0)
        y[warp] = sum;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot read this operator
// CHECK: param n i32 @4:29 bind n (inferred)
// CHECK: array rowptr i32[] global param @4:36 bind csr.rowptr (inferred)
// CHECK-NEXT: array col i32[] global param @4:55 bind csr.col (inferred)
// CHECK-NEXT: array val f64[] global param @4:71 bind csr.val (inferred)
// CHECK-NEXT: array x f64[] global param @5:29 bind vec(m) (inferred)
// CHECK-NEXT: array y f64[] global param @5:46 bind vec(n) (inferred)
// CHECK: for j = rowptr[warp] + lane; j < rowptr[warp + 1]; j += 32 @13:5
// CHECK-NEXT: load val[j] @14:16
// CHECK-NEXT: load col[j] @14:27
// CHECK-NEXT: load x[col[j]] @14:25 indirect(col)
// CHECK: for off = 16; off > 0; off = off / 2 @15:5
// CHECK-NEXT: ops fadd.f64.c=1 idiv.i32=1 cmp.i32=1 perm.f64x32=1 @16:16
// RUN: %augur skeleton --launch '(n * 32 + 255) / 256, 256' %s | FileCheck --check-prefix=LAUNCH %s
// LAUNCH: cuda launch((n * 32 + 255) / 256, 256) #0
