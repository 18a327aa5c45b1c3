/* pragma_op.c - a worksharing directive written with _Pragma: --schedule cannot rewrite it */
void scale(int n, const double *x, double *y)
{
    // clang-format off
    _Pragma("omp parallel for schedule(static)")
    for (int i = 0; i < n; i++)
        y[i] = 2 * x[i];
    // clang-format on
}
