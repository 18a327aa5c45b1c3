/* csc_gaxpy.c - bench/unseen/csc_gaxpy.c's sp_gaxpy timed by hand: y += A x, A compressed by
 * column. */
#include "../unseen/csc_gaxpy.c"

#include "hand.h"

struct call {
    sparse_cs A;
    double *x, *y;
};

static void call(void *ud)
{
    struct call *c = ud;

    if (!sp_gaxpy(&c->A, c->x, c->y))
        die("sp_gaxpy refused its arguments");
}

int main(int argc, char **argv)
{
    struct coo a;
    struct call c;

    if (argc != 2)
        die("usage: csc_gaxpy MATRIX.mtx");
    read_mtx(argv[1], &a);
    compress(&a, 1, &c.A.p, &c.A.i, &c.A.x);
    c.A.m = a.n, c.A.n = a.m, c.A.nzmax = (int)a.nnz, c.A.nz = -1;
    c.x = malloc(sizeof(double) * (size_t)a.m);
    c.y = calloc((size_t)a.n, sizeof(double));
    for (int j = 0; j < a.m; j++)
        c.x[j] = 1.0 + j % 7;
    time_calls(call, &c);
    double sum = 0;
    for (int i = 0; i < a.n; i++)
        sum += c.y[i];
    fprintf(stderr, "checksum %g\n", sum);
    return 0;
}
