/* A struct of arrays passed by pointer to an inlined helper: the helper's
   A->col is the kernel's A->col (its member paths start from the argument). */
typedef struct {
    int n;
    const int *rowptr;
    const int *col;
    const double *val;
} csr_t;

static inline double row_dot(const csr_t *A, int i, const double *x)
{
    double s = 0.0;

    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
        s += A->val[k] * x[A->col[k]];
    return s;
}

void spmv_struct(const csr_t *A, const double *x, double *y)
{
    for (int i = 0; i < A->n; i++)
        y[i] = row_dot(A, i, x);
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: outside the slice
// CHECK: param A->n i32 @4:5 bind n (inferred)
// CHECK: array A->rowptr i32[] global param @5:5 bind csr.rowptr (inferred)
// CHECK: load A->val[k] @15:14
// CHECK-NEXT: load A->col[k] @15:28
// CHECK-NEXT: load x[A->col[k]] @15:26 indirect(A->col)
