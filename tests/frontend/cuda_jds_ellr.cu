/* Two sparse formats of GPU SpMV papers, a thread per row: ELLPACK-R (the
   ELL arrays slot-major, each row's length in its own array) and jagged
   diagonals (JDS: a thread per position of the permuted rows, a guard on
   each diagonal's length, the output through the permutation). Every
   binding is inferred. */
__global__ void ellr_spmv(int n, const float *val, const int *col, const int *rl, const float *x,
                          float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        float s = 0;
        int len = rl[i];

        for (int j = 0; j < len; j++)
            s += val[j * n + i] * x[col[j * n + i]];
        y[i] = s;
    }
}

__global__ void jds_spmv(int n, const float *jd_val, const int *jd_col, const int *jd_ptr,
                         const int *perm, int njd, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n) {
        float s = 0;

        for (int d = 0; d < njd; d++) {
            int start = jd_ptr[d];

            if (i < jd_ptr[d + 1] - start)
                s += jd_val[start + i] * x[jd_col[start + i]];
        }
        y[perm[i]] = s;
    }
}

// RUN: %augur skeleton %s --function ellr_spmv --launch '(n + 255) / 256,256' | FileCheck --check-prefix=ELLR %s
// ELLR: array val f32[] global param
// ELLR-SAME: bind ell.val (inferred)
// ELLR: array col i32[] global param
// ELLR-SAME: bind ell.idx (inferred)
// ELLR: array rl i32[] global param
// ELLR-SAME: bind deg (inferred)
// RUN: %augur skeleton %s --function jds_spmv --launch '(n + 255) / 256,256' | FileCheck %s
// CHECK: param njd i32
// CHECK-SAME: bind jds.ndiag (inferred)
// CHECK: array jd_val f32[] global param
// CHECK-SAME: bind jds.val (inferred)
// CHECK: array jd_col i32[] global param
// CHECK-SAME: bind jds.col (inferred)
// CHECK: array jd_ptr i32[] global param
// CHECK-SAME: bind jds.ptr (inferred)
// CHECK: array perm i32[] global param
// CHECK-SAME: bind jds.perm (inferred)
// Every entry's value, column and x once: 3 x 65636 of the bundled matrix's
// accesses, the rest the diagonals' bounds, the permutation and the output.
// RUN: %augur simulate %s --function jds_spmv --launch '(n + 255) / 256,256' --machine %S/../../samples/machines/h100-sxm.yml --data %S/../../samples/walshaw_fe_4elt2.mtx | FileCheck --check-prefix=SIM %s
// SIM: 1 run, 486626 accesses
