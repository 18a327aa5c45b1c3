/* static inline helper and while-with-break search, plain pointer params */
static inline double absd(double a)
{
    return a < 0 ? -a : a;
}

/* for each row, find first entry whose |val| exceeds thresh times x[col]; store its column */
void first_big(int n, const int *rowptr, const int *col, const double *val, const double *x,
               int *first)
{
    for (int i = 0; i < n; i++) {
        int k = rowptr[i];
        int f = -1;
        while (k < rowptr[i + 1]) {
            if (absd(val[k]) > 0.9 * x[col[k]]) {
                f = col[k];
                break;
            }
            k++;
        }
        first[i] = f;
    }
}
