#include <omp.h>

/* CSR SpMV with OpenMP: rows are handed out in chunks of 64, dynamically;
   the matrix comes as a struct (A->p, A->i, A->x), as real code passes it. */
struct csr_matrix {
    int nrows;
    const long *p;
    const int *i;
    const double *x;
};

void spmv_omp(const struct csr_matrix *A, const double *x, double *y)
{
#pragma omp parallel for schedule(dynamic,64)
    for (int r = 0; r < A->nrows; r++) {
        double sum = 0.0;
        for (long k = A->p[r]; k < A->p[r + 1]; k++)
            sum += A->x[k] * x[A->i[k]];
        y[r] = sum;
    }
}

// RUN: %augur skeleton %s | FileCheck %s
// CHECK: kernel spmv_omp @
// CHECK: param A->nrows i32 @6:5 bind n (inferred)
// CHECK: array A->p i64[] global param @7:5 bind csr.rowptr (inferred)
// CHECK: array A->x f64[] global param @9:5 bind csr.val (inferred)
// CHECK: array A->i i32[] global param @8:5 bind csr.col (inferred)
// CHECK: for r = 0; r < A->nrows; r += 1 @15:5 parallel omp(parallel for schedule(dynamic, 64)) #1
// CHECK: for k = A->p[r]; k < A->p[r + 1]; k += 1_i64 @17:9 #4
// CHECK: load x[A->i[k]] @18:30 indirect(A->i) #7
// CHECK: store y[r] @19:9 #9
