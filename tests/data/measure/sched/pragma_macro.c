/* pragma_macro.c - a worksharing directive from a macro: --schedule cannot rewrite it */
#define PARALLEL_FOR _Pragma("omp parallel for")

void scale(int n, const double *x, double *y)
{
    PARALLEL_FOR
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i];
}
