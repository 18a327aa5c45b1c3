/* cg_static.c - bench/unseen/cg_static.c timed by hand: its 1-based file statics filled from the
 * matrix. */
#include "../unseen/cg_static.c"

#include "hand.h"

static void call(void *ud)
{
    (void)ud;
    cg_matvec();
}

int main(int argc, char **argv)
{
    struct coo mat;
    int *ptr, *idx;
    double *val;

    if (argc != 2)
        die("usage: cg_static MATRIX.mtx");
    read_mtx(argv[1], &mat);
    if (mat.n > NA || mat.m > NA || mat.nnz > NZ)
        die("the matrix is larger than the kernel's static arrays");
    compress(&mat, 0, &ptr, &idx, &val);
    naa = mat.n, nzz = (int)mat.nnz, firstrow = 1, lastrow = mat.n;
    for (int i = 0; i <= mat.n; i++)
        rowstr[i + 1] = ptr[i] + 1;
    for (long k = 0; k < mat.nnz; k++)
        colidx[k + 1] = idx[k] + 1, a[k + 1] = val[k];
    for (int j = 1; j <= mat.m; j++)
        p[j] = 1.0 + j % 7;
    time_calls(call, NULL);
    double sum = 0; /* q is read, so its stores are not dead */
    for (int j = 1; j <= mat.n; j++)
        sum += q[j];
    fprintf(stderr, "checksum %g\n", sum);
    return 0;
}
