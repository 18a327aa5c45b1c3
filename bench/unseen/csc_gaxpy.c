/* y = A*x + y for a compressed-column matrix passed as a struct, CSparse style. */
typedef struct sparse_cs {
    int nzmax;
    int m;
    int n;
    int *p;
    int *i;
    double *x;
    int nz;
} sparse_cs;

#define SP_CSC(A) ((A) && ((A)->nz == -1))

int sp_gaxpy(const sparse_cs *A, const double *x, double *y)
{
    int p, j, n, *Ap, *Ai;
    double *Ax;
    if (!SP_CSC(A) || !x || !y)
        return 0;
    n = A->n;
    Ap = A->p;
    Ai = A->i;
    Ax = A->x;
    for (j = 0; j < n; j++) {
        for (p = Ap[j]; p < Ap[j + 1]; p++) {
            y[Ai[p]] += Ax[p] * x[j];
        }
    }
    return 1;
}
