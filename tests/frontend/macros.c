/* Operators written inside macros: libclang's C API does not expose them, so
   augur walks the macro expansion's tokens alongside the cursors. */
#define IDX(i, k) ((i) * 4 + (k))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQR(x) ((x) * (x))
#define PARALLEL_FOR _Pragma("omp parallel for schedule(dynamic, 8)")

void ell_update(int n, int width, const int *idx, const double *val, double *y)
{
    PARALLEL_FOR
    for (int i = 0; i < n; i++) {
        int stop = MIN(width, 4);
        for (int k = 0; k < stop; k++)
            y[i] += SQR(val[IDX(i, k)]) * y[idx[IDX(i, k)]];
    }
}
