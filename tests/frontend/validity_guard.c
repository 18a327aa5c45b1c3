/* Argument checks before the work, as sparse libraries write them: NULL
   pointers, a format flag, a negative count, through a macro or not. They
   are taken as valid (a note says so) instead of branches on members that
   nothing binds, and a flag member is bound to the value that passes (so a
   compiled run passes the check too); a check that reads the data stays a
   branch. */
#include <stddef.h>

#define MAT_CSR      1
#define IS_CSR(M)    ((M) != NULL && (M)->format == MAT_CSR)
#define ERR_ARGUMENT (-2)

typedef struct {
    int format;
    int nrows;
    const int *rowptr;
    const int *colidx;
    const double *val;
} mat_t;

int mat_spmv(const mat_t *M, const double *x, double *y, int nthreads)
{
    if (!IS_CSR(M) || x == NULL || !y || nthreads < 0)
        return ERR_ARGUMENT;
    if (M->nrows <= 0)
        goto done;
    for (int i = 0; i < M->nrows; i++) {
        double s = 0.0;

        for (int k = M->rowptr[i]; k < M->rowptr[i + 1]; k++)
            s += M->val[k] * x[M->colidx[k]];
        y[i] = s;
    }
done:
    return 0;
}

int vec_halve(int n, double *v)
{
    if (n < 0 || v[0] < 0.0)
        return -1;
    for (int i = 0; i < n; i++)
        v[i] *= 0.5;
    return 0;
}

// RUN: %augur skeleton %s 2>&1 | FileCheck %s
// CHECK: validity_guard.c:23:5: note: validity guard taken as valid: !IS_CSR(M) || x == NULL || !y || nthreads < 0
// CHECK-LABEL: kernel mat_spmv @
// CHECK-NEXT: note guard @23:5 "validity guard taken as valid: !IS_CSR(M) || x == NULL || !y || nthreads < 0"
// CHECK-NEXT: note guard @25:5 "validity guard taken as valid: M->nrows <= 0"
// CHECK-NEXT: param M->format i32 @14:5 bind =1 (inferred)
// CHECK-NOT: goto
// CHECK: for i = 0; i < M->nrows; i += 1 @27:5
// CHECK-LABEL: kernel vec_halve @
// CHECK-NOT: note guard
// CHECK: if n < 0 || v[0] < 0.0 @40:5
// CHECK-NEXT: return @41:9
