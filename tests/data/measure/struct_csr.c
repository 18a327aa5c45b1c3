/* SpMV on a matrix passed as a struct, by pointer and by value, with a format flag. */
typedef struct {
    int nrows, ncols;
    int *ptr, *idx;
    double *val;
    int format; /* 1: compressed rows */
} mat_t;

void mat_spmv(const mat_t *A, const double *x, double *y)
{
    const int *p = A->ptr;

    if (A->format != 1)
        return;
    for (int i = 0; i < A->nrows; i++) {
        double s = 0.0;
        for (int k = p[i]; k < p[i + 1]; k++)
            s += A->val[k] * x[A->idx[k]];
        y[i] = s;
    }
}

void mat_spmv_byval(mat_t A, const double *x, double *y)
{
    for (int i = 0; i < A.nrows; i++) {
        double s = 0.0;
        for (int k = A.ptr[i]; k < A.ptr[i + 1]; k++)
            s += A.val[k] * x[A.idx[k]];
        y[i] = s;
    }
}

/* The output handed over by address, as (*result)[i]: result stands for its doubles. */
void mat_spmv_out(double **result, mat_t A, const double *x)
{
    for (int i = 0; i < A.nrows; i++) {
        double s = 0.0;
        for (int k = A.ptr[i]; k < A.ptr[i + 1]; k++)
            s += A.val[k] * x[A.idx[k]];
        (*result)[i] = s;
    }
}
