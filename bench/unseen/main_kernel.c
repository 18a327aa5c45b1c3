/* A benchmark program whose kernel loop sits in main() among I/O and timing. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern int read_matrix(const char *path, int *n, int *nnz, int **rowptr, int **col, double **val);

int main(int argc, char **argv)
{
    int n, nnz, *rowptr, *col;
    double *val, *x, *y;
    struct timespec t0, t1;

    if (argc < 2 || read_matrix(argv[1], &n, &nnz, &rowptr, &col, &val) != 0) {
        fprintf(stderr, "usage: %s matrix.mtx\n", argv[0]);
        return 1;
    }
    x = malloc((size_t)n * sizeof(*x));
    y = malloc((size_t)n * sizeof(*y));
    for (int i = 0; i < n; i++)
        x[i] = 1.0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%g s\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    free(x);
    free(y);
    return 0;
}
