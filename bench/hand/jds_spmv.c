/* jds_spmv.c - bench/unseen/jds_spmv.c timed by hand: rows sorted by length, diagonals of them. */
#include "../unseen/jds_spmv.c"

#include "hand.h"

struct call {
    int n, ndiag, *jd_ptr, *col, *perm;
    double *val, *x, *y;
};

static void call(void *ud)
{
    struct call *c = ud;

    jds_spmv(c->n, c->ndiag, c->jd_ptr, c->col, c->val, c->perm, c->x, c->y);
}

static const int *lens;

static int by_length(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return lens[y] != lens[x] ? lens[y] - lens[x] : x - y; /* longest first, stable */
}

int main(int argc, char **argv)
{
    struct coo a;
    struct call c;
    int *ptr, *idx, *len;
    double *val;
    long at = 0;

    if (argc != 2)
        die("usage: jds_spmv MATRIX.mtx");
    read_mtx(argv[1], &a);
    compress(&a, 0, &ptr, &idx, &val);
    c.n = a.n;
    len = malloc(sizeof(int) * (size_t)a.n);
    c.perm = malloc(sizeof(int) * (size_t)a.n);
    for (int i = 0; i < a.n; i++)
        len[i] = ptr[i + 1] - ptr[i], c.perm[i] = i;
    lens = len;
    qsort(c.perm, (size_t)a.n, sizeof(int), by_length);
    c.ndiag = a.n ? len[c.perm[0]] : 0;
    c.jd_ptr = malloc(sizeof(int) * ((size_t)c.ndiag + 1));
    c.col = malloc(sizeof(int) * (size_t)a.nnz);
    c.val = malloc(sizeof(double) * (size_t)a.nnz);
    for (int d = 0; d < c.ndiag; d++) {
        c.jd_ptr[d] = (int)at;
        for (int r = 0; r < a.n && len[c.perm[r]] > d; r++) {
            c.col[at] = idx[ptr[c.perm[r]] + d];
            c.val[at++] = val[ptr[c.perm[r]] + d];
        }
    }
    c.jd_ptr[c.ndiag] = (int)at;
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
