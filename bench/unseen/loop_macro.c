/* A loop nest passed as a macro argument, as timing harnesses wrap their kernels. */
#define PBODY(body) do { body } while (0)
#define FOR_ROWS(i, n) for (int i = 0; i < (n); i++)

void relax(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y)
{
    PBODY(
        FOR_ROWS(i, n) {
            double s = 0.0;
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
                s += val[k] * x[col[k]];
            y[i] = 0.5 * y[i] + s;
        });
}
