/* Local copies of a matrix struct's members, as CSparse-style libraries
   write them: Ap = A->p is the member array itself, n = A->n the member's
   value, and an untyped value array cast to double an array of doubles. A
   pointer that walks along an array stays a pointer into it. */
typedef struct {
    int m, n;
    int *p, *i;
    void *x; /* values, of the type xtype names */
    int xtype;
} spmat;

void spmat_tmult(const spmat *A, const double *x, double *y)
{
    int j, p, n, *Ap, *Ai;
    const double *Ax;

    n = A->n;
    Ap = A->p;
    Ai = A->i;
    Ax = (const double *)A->x;
    for (j = 0; j < n; j++) {
        double s = 0;

        for (p = Ap[j]; p < Ap[j + 1]; p++)
            s += Ax[p] * x[Ai[p]];
        y[j] = s;
    }
}

double dense_sum(int n, const double *v)
{
    const double *vp = v;
    double s = 0.0;

    for (int k = 0; k < n; k++)
        s += *vp++;
    return s;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK-NOT: cannot tell which array
// CHECK-LABEL: kernel spmat_tmult @
// CHECK-NOT: local Ap
// CHECK: array A->x f64[] global param @8:5
// CHECK: for j = 0; j < A->n; j += 1 @21:5
// CHECK-NEXT: load A->p[j] @24:18
// CHECK-NEXT: load A->p[j + 1] @24:29
// CHECK-NEXT: for p = A->p[j]; p < A->p[j + 1]; p += 1 @24:9
// CHECK-NEXT: load A->x[p] @25:18
// CHECK-NEXT: load A->i[p] @25:28
// CHECK-NEXT: load x[A->i[p]] @25:26 indirect(A->i)
// CHECK-LABEL: kernel dense_sum @
// CHECK: set vp = 0_i64 @32:5
// CHECK-NEXT: for k = 0; k < n; k += 1 @35:5
// CHECK-NEXT: set vp = vp + 1_i64 @36:15
// CHECK-NEXT: load v[vp - 1_i64] @36:14
