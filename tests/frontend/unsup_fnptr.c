/* A call through a function pointer: an opaque call node and a note. */
typedef double (*op_fn)(double);

void apply(int n, op_fn f, const int *idx, double *y)
{
    for (int i = 0; i < n; i++)
        y[idx[i]] = f(y[idx[i]]);
}
