/* COO SpMV with a thread per entry: the guard e < nnz bounds the entries as
   a loop would, so row and col are the coordinates and val their values. */
#pragma augur launch((nnz + 255) / 256, 256)
__global__ void coo_spmv(int nnz, const int *row, const int *col, const float *val,
                         const float *x, float *y)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;

    if (e < nnz)
        atomicAdd(&y[row[e]], val[e] * x[col[e]]);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: warning
// CHECK: param nnz i32 @4:26 bind nnz (inferred)
// CHECK: array row i32[] global param @4:35 bind coo.row (inferred)
// CHECK-NEXT: array col i32[] global param @4:51 bind coo.col (inferred)
// CHECK-NEXT: array val f32[] global param @4:67 bind coo.val (inferred)
// CHECK-NEXT: array x f32[] global param @5:26 bind vec(m) (inferred)
// CHECK-NEXT: array y f32[] global param @5:42 bind vec(n) (inferred)
